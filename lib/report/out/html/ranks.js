/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport --html: the Ranks table of a selection (embedded by
 * lib/report/out/html.c before narrow.js, which calls
 * mapreportRanks.show from its apply()).
 *
 * Data ("rk-data", html_ranksel.c): the whole run's rows in the order
 * report/ranks.c makes them, each thread's row and seconds, and per
 * (thread, time bin) its samples, their weight and those in MPI (and in
 * collective calls) and in I/O.  selection() gives perf.js the rows of
 * a selection, with their I/O bytes, for the performance summary.  A selection's table is made as mapreport --pid, --tid and --time
 * FROM:TO make theirs: a row per process with samples in the selection;
 * its seconds those of its threads with samples (measured at their end,
 * or with a time range its samples' weights); the MPI and I/O shares
 * and compute seconds from its samples; min, mean and max of compute
 * seconds for the load imbalance and the slowest row; past rows_max rows
 * the slowest and the fastest half each.  From the metric values per
 * bin of "msel-data" (html_msel.c), with a time range or a thread: the
 * memory peak, the highest value of the memory metrics in the bins, and
 * the MPI share of the time-in-MPI metric as report/ranks.c takes it
 * under --time (metricRows).  What the page holds of the whole run only
 * (those without "msel-data", an MPI share it cannot tell) is shown
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

	var MPI = 'com.mapsample.metrics.mpi.time'; /* RANKS_MPI_TIME */
	var IO_READ = 'com.mapsample.metrics.io.read'; /* RANKS_IO_READ */
	var IO_WRITE = 'com.mapsample.metrics.io.write';

	/* "msel-data", or null when the page holds none usable for d */
	function mselOf(d) {
		if (msel === undefined) {
			var e = document.getElementById('msel-data');
			msel = e ? JSON.parse(e.textContent) : null;
		}
		return !msel || msel.none || msel.bins !== d.bins ? null : msel;
	}

	/* Per row (by the data's order), the bytes the I/O metrics counted
	 * in bins [b0, b1), as report/ranks.c row_metric() adds a series'
	 * sum, of the process images with samples in the selection (has:
	 * "process number:image" keys; the CLI's rows hold those only):
	 * {read, write, have: a series with values}; null without
	 * "msel-data". */
	function ioRows(d, b0, b1, has) {
		var ms = mselOf(d);
		if (!ms)
			return null;
		var rows = d.rows.map(function () { return {read: 0, write: 0, have: false}; });
		var rowOf = {};
		d.procs.forEach(function (p) {
			if (rowOf[p[0]] === undefined)
				rowOf[p[0]] = p[1];
		});
		ms.s.forEach(function (s) {
			var id = ms.m[s.m].id, r = rowOf[s.p];
			if (r === undefined || (id !== IO_READ && id !== IO_WRITE) ||
			    (has && !has[s.p + ':' + s.i]))
				return;
			var o = mapreportMsel.fold(s, !!ms.m[s.m].rate, b0, b1);
			if (!o.n)
				return;
			rows[r][id === IO_READ ? 'read' : 'write'] += o.sum;
			rows[r].have = true;
		});
		return rows;
	}

	/* From "msel-data", per row (by the data's order) over bins [b0,
	 * b1), times [from, to) ns from the page's start: peak, the highest
	 * value of the memory metrics' series of its processes (null: none);
	 * mpi, the time-in-MPI metric as report/ranks.c reads it under
	 * --time: {secs: seconds in MPI of the series with 2 values or more
	 * (n values at a mean of (last - first) / (n - 1) apart), wall:
	 * the wall time of its images cut to the range, use: some series
	 * counts, bad: the page cannot tell (an image of several with a
	 * series, a metric in other units)}.  null when the page holds no
	 * such figures. */
	function metricRows(d, b0, b1, from, to, has) {
		if (!mselOf(d))
			return null;
		var byProc = {}, peak = [], mpi = [];
		d.rows.forEach(function () {
			peak.push(null);
			mpi.push({secs: 0, wall: 0, use: false, bad: false});
		});
		d.procs.forEach(function (p) {
			(byProc[p[0]] = byProc[p[0]] || []).push(p);
		});
		msel.s.forEach(function (s) {
			var ps = byProc[s.p], mt = msel.m[s.m];
			if (!ps)
				return;
			/* the series' values in the bins, added up as
			 * metrics.c adds them (compensated sums) */
			var r = ps[0][1], o = mapreportMsel.fold(s, !!mt.rate, b0, b1);
			var n = o.n, sum = o.sum, tf = o.first, tl = o.last;
			var top = n ? o.vmax : null;
			if (MEM.indexOf(mt.id) >= 0 && top !== null &&
			    (!has || has[s.p + ':' + s.i]) &&
			    (peak[r] === null || top > peak[r]))
				peak[r] = top;
			if (mt.id !== MPI)
				return;
			var x = mpi[r];
			if (ps.length > 1 || mt.rate || mt.u !== '%') {
				x.bad = true;
				return;
			}
			var p = ps[0];
			if (p[4]) /* a rank's own MPI time, not its children's */
				return;
			if (p[3] > p[2])
				x.wall += Math.max(Math.min(p[3], to) - Math.max(p[2], from), 0) / 1e9;
			if (n >= 2 && tl > tf) {
				x.secs += Math.max(sum / 100 * ((tl - tf) / 1e9 / (n - 1)), 0);
				x.use = true;
			}
		});
		return {peak: peak, mpi: mpi};
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
	function rowsOf(d, ok, b0, b1, timed, binw, threadSel) {
		var n = d.rows.length, nt = d.threads.length, i;
		var acc = [], ts = new Float64Array(nt), tw = new Float64Array(nt), c = d.cells;
		for (i = 0; i < n; i++)
			acc.push({i: i, samples: 0, weight: 0, mpi: 0, io: 0, coll: 0, secs: 0});
		for (var k = 0; k < c.length; k += 7) {
			var t = c[k], row = d.threads[t][0];
			if (!ok[t] || c[k + 1] < b0 || c[k + 1] >= b1 || row < 0)
				continue;
			var a = acc[row];
			a.samples += c[k + 2];
			a.weight += c[k + 3];
			a.mpi += c[k + 4];
			a.io += c[k + 5];
			a.coll += c[k + 6];
			ts[t] += c[k + 2];
			tw[t] += c[k + 3];
		}
		/* the process images with samples in the selection */
		var has = {};
		for (t = 0; t < nt; t++)
			if (ts[t] > 0 && d.threads[t].length > 3)
				has[d.threads[t][2] + ':' + d.threads[t][3]] = true;
		/* seconds of the threads with samples: measured, or in a
		 * time range their samples' weights (model/model.h), each
		 * thread's in seconds added in the model's order of threads,
		 * as report/ranks.c adds them */
		for (t = 0; t < nt; t++)
			if (ts[t] > 0 && d.threads[t][0] >= 0)
				acc[d.threads[t][0]].secs += timed ? tw[t] / 1e9 : d.threads[t][1];
		/* the range in ns from the page's start, as --time cuts it */
		var from = b0 > 0 ? Math.round(b0 * binw * 1e9) : 0;
		var to = b1 < d.bins ? Math.round(b1 * binw * 1e9) : Infinity;
		var met = timed || threadSel ? metricRows(d, b0, b1, from, to, has) : null;
		var out = [];
		acc.forEach(function (a) {
			if (!a.samples)
				return;
			var r = d.rows[a.i];
			a.proc = r[0];
			a.rank = r[1];
			a.pid = r[2];
			a.host = r[3];
			a.killed = r[4];
			a.mem = met && timed ? met.peak[a.i] : r[6];
			a.memWhole = timed && !met;
			a.smpi = a.mpi / a.samples;
			a.io = a.io / a.samples;
			/* the metric's share, when the process has one:
			 * its time in the selection over the larger of the
			 * wall time (cut to the range) and the seconds,
			 * else the whole run's, marked */
			var x = met ? met.mpi[a.i] : null;
			var mpiN = a.mpi, collN = a.coll;
			a.mpi = a.smpi;
			a.coll = collN / a.samples;
			a.mpiWhole = false;
			a.mpiMetric = false;
			if (x && !x.bad && x.use) {
				var base = Math.max(x.wall, a.secs);
				if (base > 0) {
					a.mpi = Math.min(x.secs / base, 1);
					a.mpiMetric = true;
				}
			} else if (r[7] !== null && (!x || x.bad) && (timed || threadSel)) {
				a.mpi = r[7];
				a.mpiWhole = true;
				a.mpiMetric = true;
			} else if (r[7] !== null && !x) {
				a.mpi = r[7];
				a.mpiMetric = true;
			}
			/* the collective part: of the samples, or with the
			 * metric its share of the MPI samples, or of the MPI
			 * calls' time (report/ranks.c) */
			if (a.mpiMetric) {
				a.coll = mpiN ? a.mpi * collN / mpiN : 0;
				if (r[8] !== null && r[8] !== undefined)
					a.coll = a.mpi * r[8];
			}
			a.compute = Math.max(a.secs * (1 - a.smpi - a.io), 0);
			if (a.mpi + a.io > 1)
				a.io = 1 - a.mpi;
			out.push(a);
		});
		out.has = has;
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
		return {slowest: max ? max.rank : 0, max: max ? max.compute : 0,
			mean: mean, imbalance: mean > 0 ? max.compute / mean : 0};
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
		var timed = b0 > 0 || b1 < (data && !data.none ? data.bins : b1);
		var threadSel = v && (v[0] === 't' || v[0] === 'T');
		if (!data || data.none) {
			/* no figures per thread and time: the selected
			 * processes' rows marked */
			for (i = 0; i < rr.length; i++)
				rr[i].classList.toggle('nr-hl', procs.indexOf(+rr[i].getAttribute('data-proc')) >= 0);
			table.parentNode.insertBefore(lib.el('p', 'note nr-whole', 'Whole run: ' +
				'the ranks\' table is not narrowed to the selection' + (data ?
				' (' + data.none + ')' : '') + '; the rows of the selected ' +
				'processes are marked.'), table);
			return;
		}
		var rows = rowsOf(data, ok, b0, b1, timed, binw, threadSel), st = stats(rows);
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
			if (a.mpiWhole) {
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

	/* The selection's rows, as show() makes them, with their I/O
	 * bytes (io, ioRows()), for the performance summary (perf.js):
	 * {data: "rk-data", rows}, or null when the page holds no
	 * "rk-data". */
	function selection(ok, b0, b1, binw, v) {
		if (data === undefined) {
			var e = document.getElementById('rk-data');
			data = e ? JSON.parse(e.textContent) : null;
		}
		if (!data || data.none)
			return null;
		var timed = b0 > 0 || b1 < data.bins;
		var threadSel = v && (v[0] === 't' || v[0] === 'T');
		var rows = rowsOf(data, ok, b0, b1, timed, binw, threadSel);
		var io = ioRows(data, b0, b1, rows.has);
		rows.forEach(function (a) {
			a.ioBytes = io ? io[a.i] : null;
		});
		return {data: data, rows: rows};
	}

	return {show: show, selection: selection, stats: stats};
})();
