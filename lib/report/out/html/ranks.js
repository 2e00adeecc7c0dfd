/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport --html: the Ranks table of a selection (embedded by
 * lib/report/out/html.c before narrow.js, which calls
 * mapreportRanks.show from its apply()).
 *
 * Data ("rk-data", html_ranksel.c): the whole run's rows in the order
 * report/ranks.c makes them, each thread's row and seconds, and per
 * (thread, time bin) its samples, their weight and those in MPI and in
 * I/O.  A selection's table is made as mapreport --pid, --tid and --time
 * FROM:TO make theirs: a row per process with samples in the selection;
 * its seconds those of its threads with samples (measured at their end,
 * or with a time range its samples' weights); the MPI and I/O shares
 * and compute seconds from its samples; min, mean and max of compute
 * seconds for the load imbalance and the slowest row; past rows_max rows
 * the slowest and the fastest half each; the memory peak of a time
 * range, the highest value in its bins of the memory metrics' series of
 * "msel-data" (html_msel.c).  What the page holds of the whole run only
 * (the memory peak in a time range when "msel-data" holds none, the MPI
 * share of the time-in-MPI metric in a time range or a thread) is shown
 * marked, with a note saying so.  The whole run's table is hidden meanwhile, not changed; the
 * heat map and band charts (svg.timed) get the range shaded by
 * narrow.js's markCharts.
 */
var mapreportRanks = (function () {
	'use strict';
	var data; /* "rk-data", undefined until first read, null: none */
	var msel; /* "msel-data" (html_msel.c), likewise */
	var MEM = ['com.mapsample.metrics.memory.peak_rss',
		'com.mapsample.metrics.memory.rss']; /* report/ranks.h */

	/* the memory peak of each row (by the data's order) over bins
	 * [b0, b1) from "msel-data": the highest value of the memory
	 * metrics' series of its processes, null for a row with none;
	 * null when the page holds no such figures */
	function memPeaks(d, b0, b1) {
		if (msel === undefined) {
			var e = document.getElementById('msel-data');
			msel = e ? JSON.parse(e.textContent) : null;
		}
		if (!msel || msel.none || msel.bins !== d.bins)
			return null;
		var row = {}, peak = d.rows.map(function () { return null; });
		d.procs.forEach(function (p) { row[p[0]] = p[1]; });
		msel.s.forEach(function (s) {
			var r = row[s.p];
			if (r === undefined || MEM.indexOf(msel.m[s.m].id) < 0)
				return;
			s.b.forEach(function (b) {
				/* [bin, n, sum, min, max, ...] */
				if (b[0] >= b0 && b[0] < b1 && b[1] > 0 &&
				    (peak[r] === null || b[4] > peak[r]))
					peak[r] = b[4];
			});
		});
		return peak;
	}

	/* bytes as job.c writes them: "12.3 MiB" */
	function bytes(b) {
		var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], k = 0;
		while (b >= 1024 && k + 1 < u.length) {
			b /= 1024;
			k++;
		}
		return k ? b.toFixed(1) + ' ' + u[k] : b.toFixed(0) + ' ' + u[k];
	}

	/* a cell of percentage p with its bar, as html_pct_cell */
	function pctCell(lib, tr, p) {
		p = Math.min(Math.max(p, 0), 100);
		var td = lib.cell(tr, p.toFixed(2) + '%', 'n');
		var bar = lib.el('span', 'pct'), fill = lib.el('span');
		fill.style.width = p.toFixed(1) + '%';
		bar.appendChild(fill);
		td.appendChild(bar);
		return td;
	}

	/* the rows of the selection (ok: its threads, [b0, b1) its bins,
	 * timed: a time range), in the data's order, with samples only */
	function rowsOf(d, ok, b0, b1, timed) {
		var n = d.rows.length, nt = d.threads.length, i;
		var acc = [], ts = new Float64Array(nt), c = d.cells;
		for (i = 0; i < n; i++)
			acc.push({i: i, samples: 0, weight: 0, mpi: 0, io: 0, secs: 0});
		for (var k = 0; k < c.length; k += 6) {
			var t = c[k], row = d.threads[t][0];
			if (!ok[t] || c[k + 1] < b0 || c[k + 1] >= b1 || row < 0)
				continue;
			var a = acc[row];
			a.samples += c[k + 2];
			a.weight += c[k + 3];
			a.mpi += c[k + 4];
			a.io += c[k + 5];
			ts[t] += c[k + 2];
		}
		/* seconds of the threads with samples: measured, or in a
		 * time range their samples' weights (model/model.h) */
		for (t = 0; t < nt; t++)
			if (ts[t] > 0 && d.threads[t][0] >= 0)
				acc[d.threads[t][0]].secs += d.threads[t][1];
		var out = [], mem = timed ? memPeaks(d, b0, b1) : null;
		acc.forEach(function (a) {
			if (!a.samples)
				return;
			var r = d.rows[a.i];
			if (timed)
				a.secs = a.weight / 1e9;
			a.proc = r[0];
			a.rank = r[1];
			a.pid = r[2];
			a.host = r[3];
			a.killed = r[4];
			a.mem = mem ? mem[a.i] : r[6];
			a.memWhole = timed && !mem;
			a.smpi = a.mpi / a.samples;
			a.io = a.io / a.samples;
			/* the metric's share, the whole run's, when the
			 * process has one */
			a.mpiWhole = r[7] !== null;
			a.mpi = a.mpiWhole ? r[7] : a.smpi;
			a.compute = Math.max(a.secs * (1 - a.smpi - a.io), 0);
			if (a.mpi + a.io > 1)
				a.io = 1 - a.mpi;
			out.push(a);
		});
		return out;
	}

	/* max and mean of compute seconds across rows (the first of the
	 * highest, as report/ranks.c's ranks_stats) */
	function stats(rows) {
		var max = null, sum = 0;
		rows.forEach(function (a) {
			if (max === null || a.compute > max.compute)
				max = a;
			sum += a.compute;
		});
		var mean = rows.length ? sum / rows.length : 0;
		return {slowest: max ? max.rank : 0,
			imbalance: mean > 0 ? max.compute / mean : 0};
	}

	/* the rows listed: all, or past max the max/2 slowest and the
	 * max/2 fastest; by rank (job.c rows_shown) */
	function listed(rows, max) {
		var v = rows.slice();
		if (v.length > max) {
			v.sort(function (x, y) {
				return y.compute - x.compute || x.rank - y.rank;
			});
			v = v.slice(0, max / 2).concat(v.slice(v.length - max / 2));
		}
		return v.sort(function (x, y) { return x.rank - y.rank; });
	}

	/* The Ranks section for the selection: ok its threads (by "nr-data"
	 * number), all true for no selection, [b0, b1) its bins of binw
	 * seconds, v the selector's value (a thread: 't' or 'T' first),
	 * procs the process numbers it holds threads of; lib: report.js's
	 * helpers (el, cell). */
	function show(lib, ok, all, b0, b1, binw, v, procs) {
		var sec = document.getElementById('ranks');
		if (!sec)
			return;
		var table = sec.querySelector('table'), head = sec.querySelector('p');
		if (data === undefined) {
			var e = document.getElementById('rk-data');
			data = e ? JSON.parse(e.textContent) : null;
		}
		var rr = sec.querySelectorAll('tr[data-proc]'), i;
		for (i = 0; i < rr.length; i++)
			rr[i].classList.remove('nr-hl');
		table.hidden = false;
		if (head)
			head.hidden = false;
		if (all)
			return;
		var timed = b0 > 0 || b1 < (data ? data.bins : b1);
		var threadSel = v && (v[0] === 't' || v[0] === 'T');
		if (!data) {
			/* no figures per thread and time: the selected
			 * processes' rows marked */
			for (i = 0; i < rr.length; i++)
				rr[i].classList.toggle('nr-hl', procs.indexOf(+rr[i].getAttribute('data-proc')) >= 0);
			table.parentNode.insertBefore(lib.el('p', 'note nr-whole', 'Whole run: ' +
				'the ranks\' table and charts are not narrowed to the selection.'),
				table);
			return;
		}
		var rows = rowsOf(data, ok, b0, b1, timed), st = stats(rows);
		var w = data.any_rank ? 'rank' : 'process';
		var ws = data.any_rank ? 'ranks' : 'processes';
		var p = lib.el('p', 'nr-whole rk-head', rows.length + ' ' +
			(rows.length === 1 ? w : ws) + ' in the selection; load imbalance ' +
			'(max/mean of compute) ' + st.imbalance.toFixed(2) + ', the slowest ' +
			w + ' ' + st.slowest + '.');
		var t = lib.el('table', 'nr-whole ranks-sel'), tb = lib.el('tbody');
		t.appendChild(table.tHead.cloneNode(true));
		var memWhole = false, mpiWhole = false;
		listed(rows, data.rows_max).forEach(function (a) {
			var tr = lib.el('tr', a.rank === st.slowest ? 'slow' : null);
			tr.setAttribute('data-proc', String(a.proc));
			lib.cell(tr, String(a.rank), 'n');
			lib.cell(tr, String(a.pid), 'n');
			lib.cell(tr, String(a.samples), 'n');
			lib.cell(tr, a.secs.toFixed(3), 'n');
			lib.cell(tr, a.compute.toFixed(3), 'n');
			var td = pctCell(lib, tr, a.mpi * 100);
			if (a.mpiWhole && (timed || threadSel)) {
				td.className = 'n rk-whole';
				td.title = 'whole run: the time-in-MPI metric';
				mpiWhole = true;
			}
			pctCell(lib, tr, a.io * 100);
			td = lib.cell(tr, a.mem === null ? '-' : bytes(a.mem), 'n');
			if (a.mem !== null && a.memWhole) {
				td.className = 'n rk-whole';
				td.title = 'whole run';
				memWhole = true;
			}
			td = lib.cell(tr, a.host);
			if (a.killed)
				td.appendChild(lib.el('span', 'crash', ' killed by signal ' + a.killed));
			tb.appendChild(tr);
		});
		t.appendChild(tb);
		var where = timed ? ' from ' + (b0 * binw).toFixed(3) + ' s to ' +
			(b1 * binw).toFixed(3) + ' s' : '';
		var note = lib.el('p', 'note nr-whole', 'The ranks\' table of the selection' + where +
			', as mapreport --pid/--tid/--time give them: its samples, the ' +
			(timed ? 'weights of its samples (the seconds of a time range)' :
			'seconds of its threads with samples') + ', compute seconds and ' +
			'the shares of its samples in MPI and I/O' + (mpiWhole ? '; MPI of ' +
			'the processes with the time-in-MPI metric (marked) is of the whole ' +
			'run' + (threadSel ? ' and process' : '') : '') + (memWhole ?
			'; the memory peak (marked) is of the whole run' : '') + (timed ?
			'. The charts below: the range shaded.' : '.'));
		table.hidden = true;
		if (head)
			head.hidden = true;
		table.parentNode.insertBefore(note, table);
		table.parentNode.insertBefore(p, note);
		table.parentNode.insertBefore(t, table);
		if (rows.length > data.rows_max)
			table.parentNode.insertBefore(lib.el('p', 'nr-whole', (rows.length -
				data.rows_max) + ' ' + ws + ' not listed: the ' + data.rows_max / 2 +
				' slowest and the ' + data.rows_max / 2 + ' fastest are.'), table);
	}

	return {show: show};
})();
