/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport --html: narrowing the page to a process, a thread and a time
 * range (embedded by lib/report/out/html.c before report.js, which
 * calls mapreportNarrow with its helpers once the page is loaded).
 *
 * Data ("nr-data": samples per call-tree node, thread and time bin as
 * [node, thread, bin, samples, ...], the nodes being the flame graph's
 * frames and then, in "ext", those it leaves out as too small; where
 * the cells had to merge frames deeper than "cut" levels into their
 * callers', "fn" holds the exact call data of report.js's FnCalls): the
 * select control picks a process or a thread, a drag on the time strip
 * a range of bins.  The flame graph, the tables of functions and the
 * function view's callers and callees (every stack counted, as mapreport
 * --callers does), the process and thread tables, the marks and the
 * thread activity chart follow; the metric charts zoom to the range.
 * The Regions and MPI tables follow from "st-data" (html_seltab.c; MPI
 * by process only, which a note says), the Ranks table from "rk-data"
 * (ranks.js), the metrics table from "msel-data" (msel.js), the partial
 * reports from "psel-data" with "msel-data" (psel.js), the performance
 * summary from the Ranks table's rows of the selection (perf.js).  What
 * the page holds for the whole run only (the run's facts; the
 * performance summary without "rk-data") gets a note saying so while a
 * selection is active, and the run's facts a row with the selection's.
 */
/* lib: report.js's helpers; returns the Narrow constructor */
var mapreportNarrow = function (lib) {
	'use strict';
	var $ = lib.$, el = lib.el, cell = lib.cell, fmt = lib.fmt, pct = lib.pct;
	var stackCalls = lib.stackCalls;
	/* charts.js */
	var zoomPlot = mapreportCharts.zoomPlot, rangeAxis = mapreportCharts.rangeAxis;
	var drawProc = mapreportCharts.drawProc;

	function Narrow(d, g, fg, fv) {
		var sel = $('nr-select'), strip = $('nr-time'), status = $('nr-status');
		var range = $('nr-range'), nt = d.threads.length, cells = d.cells;
		var b0 = 0, b1 = d.bins, cur = null;
		var binw = d.bins > 0 ? d.seconds / d.bins : 0;
		/* the call tree: the graph's frames, then the nodes it leaves
		 * out (d.ext: each one's number less its parent's, its name;
		 * d.xnames: the names only they have), which the cells count
		 * too */
		var names = g.names.concat(d.xnames || []);
		var labels = g.labels.concat(d.xshort || d.xnames || []);
		var xr = new lib.NumReader(d.ext), xs = [];
		while (xr.more())
			xs.push(xr.num(), xr.num());
		var N = g.n + xs.length / 2;
		var G = {n: N, names: names, labels: labels, name: new Int32Array(N),
			parent: new Int32Array(N), depth: new Int32Array(N)};
		G.name.set(g.name);
		G.parent.set(g.parent);
		G.depth.set(g.depth);
		for (var x = g.n; x < N; x++) {
			G.parent[x] = x - xs[2 * (x - g.n)];
			G.name[x] = xs[2 * (x - g.n) + 1];
			G.depth[x] = G.depth[G.parent[x]] + 1;
		}
		/* the exact call data, when the cells merge deep frames */
		var fc = d.fn ? new lib.FnCalls(d.fn, names, labels) : null;
		/* per node the samples of the stacks ending there (self) in
		 * the cells that pass keep(thread, bin) */
		function selfOf(keep) {
			var self = new Float64Array(N);
			for (var c = 0; c < cells.length; c += 4)
				if (!keep || keep(cells[c + 1], cells[c + 2]))
					self[cells[c]] += cells[c + 3];
			return self;
		}
		/* self rolled into the graph's frames: a left-out node's
		 * samples in its nearest kept ancestor's */
		function rolled(self) {
			var r = self.slice();
			for (var i = N - 1; i >= g.n; i--)
				r[G.parent[i]] += r[i];
			return r.subarray(0, g.n);
		}
		var self0 = selfOf(null), all0 = rolled(self0);
		/* the frame whose cells hold frame e's samples (its ancestor
		 * at depth d.cut when the data was cut) */
		function cellFrame(e) {
			while (d.cut && g.depth[e] > d.cut)
				e = g.parent[e];
			return e;
		}

		/* what the selection's frames leave out, said in the
		 * function view: the graph's frames under 1/20000 of the
		 * samples and the frames deeper than d.cut count in their
		 * callers' (empty when neither) */
		var coarse = d.cut && !fc ? 'In this page frames deeper than ' + d.cut +
			' levels count in their callers\' frames, so a function\'s ' +
			'samples, callers and callees can be short of mapreport ' +
			'--callers/--callees NAME (with the same --pid/--tid/--time ' +
			'in a selection).' : '';

		/* the whole run's calls of a function, for the function view */
		if (fv)
			fv.exact({names: names, labels: labels, min: d.fn && d.fn.min || 0,
				coarse: coarse, calls: function (name) {
					var c = fc ? fc.calls(fc.whole(), name) : stackCalls(G, self0, name);
					return c && c.total > 0 ? c : null;
				}});

		/* callers and callees of the function named full in the
		 * selection: from the page's call data (exact), else
		 * stackCalls over its samples per frame */
		function calls(full) {
			if (!fc)
				return stackCalls(G, cur.self, full);
			return fc.calls(cur.sums, full) || {self: 0, total: 0, partial: 0,
				callers: [[], 0, 0], callees: [[], 0, 0]};
		}

		/* f's lines in the selection: each line's samples from the
		 * stacks ending in a frame (f.lf), scaled by the share of that
		 * frame's samples the selection holds; null when the page has
		 * no such split for f */
		function lines(f) {
			if (!f.lf)
				return null;
			var out = f.lines.map(function (l) { return [l[0], l[1], 0, 0, l[4], l[5]]; });
			var sr = cur.rolled || (cur.rolled = rolled(cur.self));
			for (var i = 0; i < f.lf.length; i += 4) {
				var e = cellFrame(f.lf[i + 1]);
				var sh = all0[e] > 0 ? sr[e] / all0[e] : 0;
				out[f.lf[i]][2] += f.lf[i + 2] * sh;
				out[f.lf[i]][3] += f.lf[i + 3] * sh;
			}
			out.forEach(function (l) {
				l[2] = Math.round(l[2]);
				l[3] = Math.round(l[3]);
			});
			return out;
		}

		function opt(value, text) {
			var o = el('option', null, text);
			o.value = value;
			sel.appendChild(o);
		}
		opt('', 'the whole run (every process and thread)');
		var pids = [];
		for (var i = 0; i < nt; i++)
			if (pids.indexOf(d.threads[i][0]) < 0)
				pids.push(d.threads[i][0]);
		/* a thread is [process number, tid, thread name, program,
		 * the process's name (its pid as the text report writes it,
		 * or "rank R (pid P, HOST)", "launcher (pid P, HOST)"), pid]:
		 * two processes may have one pid (PID namespaces, logs of
		 * several hosts), the number tells them apart */
		pids.forEach(function (pid) {
			var name = '', label = '';
			for (var k = 0; k < nt; k++)
				if (d.threads[k][0] === pid) {
					name = d.threads[k][3];
					label = d.threads[k][4];
				}
			opt('p' + pid, (/^[0-9]/.test(label) ? 'process ' : '') +
				label + ' (' + name + ')');
			for (k = 0; k < nt; k++)
				if (d.threads[k][0] === pid)
					opt('t' + k, '\u2003thread ' + d.threads[k][1] +
						(d.threads[k][2] ? ' ' + d.threads[k][2] : '') +
						' of ' + label);
		});

		function threadOk() {
			var v = sel.value, ok = new Uint8Array(nt);
			for (var k = 0; k < nt; k++)
				ok[k] = !v || (v[0] === 'p' ? d.threads[k][0] === +v.slice(1)
					: v[0] === 'P' ? d.threads[k][5] === +v.slice(1)
					: v[0] === 'T' ? d.threads[k][1] === +v.slice(1)
					: k === +v.slice(1));
			return ok;
		}

		function drawStrip(ok) {
			var per = new Float64Array(d.bins), max = 0;
			for (var c = 0; c < cells.length; c += 4)
				if (ok[cells[c + 1]])
					per[cells[c + 2]] += cells[c + 3];
			for (var b = 0; b < d.bins; b++)
				if (per[b] > max)
					max = per[b];
			strip.textContent = '';
			var w = 100 / Math.max(d.bins, 1);
			for (b = 0; b < d.bins; b++) {
				if (!per[b])
					continue;
				var bar = el('div', 'nr-bin' + (b >= b0 && b < b1 ? '' : ' out'));
				bar.style.left = (b * w) + '%';
				bar.style.width = w + '%';
				bar.style.height = (100 * per[b] / max) + '%';
				strip.appendChild(bar);
			}
			if (b0 > 0 || b1 < d.bins) {
				var r = el('div', 'nr-sel');
				r.style.left = (b0 * w) + '%';
				r.style.width = ((b1 - b0) * w) + '%';
				strip.appendChild(r);
			}
		}

		/* the function tables of the selection, from the page's call
		 * data (sums: its keys' samples in the selection), else from
		 * the graph */
		var lastTop = null; /* the selection's hottest function, for perfShow */
		function functionTables(value, self, sums) {
			var box = $('fn-narrowed'), n = N;
			lastTop = null;
			/* by name id: the tables show the short name (the
			 * graph's label) and keep the whole one in data-fn and
			 * the tooltip, as the tables of the whole run do */
			var selfBy = {}, totalBy = {}, ids = [];
			var fnames = names, flabels = labels;
			for (var j = 0; fc && j < fnames.length; j++) {
				if (fc.totalKey[j] < 0 || !sums[fc.totalKey[j]])
					continue;
				totalBy[j] = sums[fc.totalKey[j]];
				selfBy[j] = fc.selfKey[j] >= 0 ? sums[fc.selfKey[j]] : 0;
				ids.push(j);
			}
			for (var i = 1; !fc && i < n; i++) {
				if (G.depth[i] < 2 || value[i] <= 0)
					continue;
				var nm = G.name[i];
				if (!selfBy.hasOwnProperty(nm)) {
					selfBy[nm] = totalBy[nm] = 0;
					ids.push(nm);
				}
				selfBy[nm] += self[i];
				var outer = true;
				for (var a = G.parent[i]; a > 0 && G.depth[a] >= 2; a = G.parent[a])
					if (G.name[a] === G.name[i]) {
						outer = false;
						break;
					}
				if (outer)
					totalBy[nm] += value[i];
			}
			var rows = document.querySelectorAll('#functions > table.funcs tbody tr').length / 2;
			box.textContent = '';
			box.setAttribute('data-total', String(value[0]));
			box.appendChild(el('p', 'note', 'In the selection: ' + fmt(value[0]) +
				' samples. Functions as the flame graph names them; ' + (d.cut && !fc ?
				'frames deeper than ' + d.cut + ' levels count in their callers\'.'
				: 'every stack counted.')));
			[['self', selfBy], ['total', totalBy]].forEach(function (kind) {
				var by = kind[1];
				/* as report/analyze.c ranks them: the other count
				 * next, then the name */
				var other = kind[0] === 'self' ? totalBy : selfBy;
				var order = ids.slice().sort(function (x, y) {
					var a = fnames[x], b = fnames[y];
					return by[y] - by[x] || other[y] - other[x] ||
						(a < b ? -1 : a > b ? 1 : 0);
				});
				if (kind[0] === 'self' && order.length && by[order[0]] > 0)
					lastTop = {label: flabels[order[0]], self: by[order[0]]};
				box.appendChild(el('h3', null, 'By ' + kind[0] + ' samples, in the selection'));
				var t = el('table', 'funcs nr-' + kind[0]), tb = el('tbody');
				var h = el('thead'), hr = el('tr');
				['Self', 'Self %', 'Total', 'Total %', 'Function'].forEach(function (x, k) {
					hr.appendChild(el('th', k < 4 ? 'n' : null, x));
				});
				h.appendChild(hr);
				t.appendChild(h);
				for (var r = 0; r < order.length && r < Math.max(rows, 20); r++) {
					var f = order[r];
					if (!by[f])
						break;
					var tr = el('tr');
					tr.setAttribute('data-self', String(selfBy[f]));
					tr.setAttribute('data-total', String(totalBy[f]));
					cell(tr, fmt(selfBy[f]), 'n');
					cell(tr, pct(selfBy[f], value[0]), 'n');
					cell(tr, fmt(totalBy[f]), 'n');
					cell(tr, pct(totalBy[f], value[0]), 'n');
					var full = fnames[f], label = flabels[f];
					var td = cell(tr, label, 'f');
					if (label !== full) {
						td.setAttribute('data-fn', full);
						td.title = full;
					}
					tb.appendChild(tr);
				}
				t.appendChild(tb);
				box.appendChild(t);
			});
		}

		/* the chosen time range shaded over the charts that do not
		 * zoom (svg.timed say where the run's start and end are on
		 * their x axis) */
		function markCharts() {
			var svgs = document.querySelectorAll('svg.timed');
			for (var i = 0; i < svgs.length; i++) {
				var sv = svgs[i], old = sv.querySelector('rect.nr-span');
				/* the metric and activity charts zoom instead
				 * (zoomCharts) */
				if (sv.querySelector('g.plot, g.act-plot'))
					continue;
				if (old)
					sv.removeChild(old);
				if (b0 === 0 && b1 === d.bins)
					continue;
				var x0 = +sv.getAttribute('data-x0'), x1 = +sv.getAttribute('data-x1');
				var span = +sv.getAttribute('data-span') || 1;
				var vb = sv.viewBox.baseVal;
				var a = x0 + Math.min(b0 * binw / span, 1) * (x1 - x0);
				var b = x0 + Math.min(b1 * binw / span, 1) * (x1 - x0);
				var r = document.createElementNS(sv.namespaceURI, 'rect');
				r.setAttribute('class', 'nr-span');
				r.setAttribute('x', a.toFixed(1));
				r.setAttribute('y', '0');
				r.setAttribute('width', Math.max(b - a, 1).toFixed(1));
				r.setAttribute('height', String(vb ? vb.height : 0));
				sv.appendChild(r);
			}
		}

		/* the metric charts and the thread activity chart zoomed to
		 * the time range from a to b seconds (a null: the whole run):
		 * their plots stretched and clipped, a time axis of the range
		 * in place of the run's */
		function zoomCharts(a, b) {
			var svgs = document.querySelectorAll('#metrics svg.timed');
			for (var i = 0; i < svgs.length; i++) {
				var sv = svgs[i], plot = sv.querySelector('g.plot');
				var axis = sv.querySelector('g.xaxis');
				if (!plot || !axis)
					continue;
				var base = axis.querySelector('line');
				rangeAxis(sv, sv, axis, base ? +base.getAttribute('y1') : 0,
					zoomPlot(sv, plot, a, b));
			}
			var act = document.querySelector('#activity svg[data-rowh]');
			var foot = act && act.querySelector('g.act-foot');
			var fax = foot && foot.querySelector('g.xaxis');
			if (!fax)
				return;
			var plots = act.querySelectorAll('g.act-plot'), r = null;
			for (i = 0; i < plots.length; i++)
				r = zoomPlot(act, plots[i], a, b);
			var fl = foot.querySelector('line');
			rangeAxis(act, foot, fax, fl ? +fl.getAttribute('y1') : 0, r);
		}

		/* the process numbers the selection holds threads of */
		function selProcs(ok) {
			var ps = [];
			for (var k = 0; k < nt; k++)
				if (ok[k] && ps.indexOf(d.threads[k][0]) < 0)
					ps.push(d.threads[k][0]);
			return ps;
		}

		/* the label of process number p, as the selector has it */
		function procLabel(p) {
			for (var k = 0; k < nt; k++)
				if (d.threads[k][0] === p)
					return d.threads[k][4] + ' (' + d.threads[k][3] + ')';
			return String(p);
		}

		var msBy = null; /* "ms-data"'s entries by metric id */

		/* a chart (svg sv, its "ms-data" entry ms) with no values of
		 * the selection: its y axis hidden, text in the plot's middle */
		function noValues(sv, ms, yaxis, text) {
			yaxis.setAttribute('display', 'none');
			var t = document.createElementNS(sv.namespaceURI, 'text');
			t.setAttribute('class', 'nr-none');
			t.setAttribute('x', ((ms.x[0] + ms.x[1]) / 2).toFixed(1));
			t.setAttribute('y', ((ms.y[0] + ms.y[1]) / 2).toFixed(1));
			t.setAttribute('text-anchor', 'middle');
			t.textContent = text;
			sv.appendChild(t);
		}

		/* the metric charts of the selection: with threads of one
		 * process selected, that process's series (metrics are
		 * measured per process, so a thread's are its process's);
		 * with threads of several, those processes' series combined
		 * as the chart combines every process's (charts.js combine);
		 * else the chart of every process */
		function procCharts(ok) {
			var ps = sel.value ? selProcs(ok) : [], p = ps.length === 1 ? ps[0] : null;
			var combine = mapreportCharts.combine;
			var v = sel.value, threadSel = v && (v[0] === 't' || v[0] === 'T');
			var figs = document.querySelectorAll('#metrics figure.chart');
			if (!msBy) {
				/* each chart's entry with the columns and plot area */
				msBy = {};
				var all = $('ms-data') ? JSON.parse($('ms-data').textContent) : {charts: []};
				all.charts.forEach(function (e) {
					['s0', 'w', 'span', 'x', 'y'].forEach(function (k) { e[k] = all[k]; });
					msBy[e.id] = e;
				});
			}
			for (var i = 0; i < figs.length; i++) {
				var fig = figs[i], sv = fig.querySelector('svg.timed');
				var ms = msBy[fig.getAttribute('data-metric')];
				var plot = sv && sv.querySelector('g.plot');
				var ser = plot && plot.querySelector('g.series');
				var yaxis = sv && sv.querySelector('g.yaxis');
				if (!ms || !ser || !yaxis)
					continue;
				var olds = sv.querySelectorAll('g.nr-series, g.nr-yaxis, text.nr-none');
				for (var k = 0; k < olds.length; k++)
					olds[k].parentNode.removeChild(olds[k]);
				ser.removeAttribute('display');
				yaxis.removeAttribute('display');
				var leg = fig.querySelector('div.legend');
				if (leg && leg.hasAttribute('data-whole'))
					leg.textContent = leg.getAttribute('data-whole');
				fig.removeAttribute('data-proc');
				if (p === null && ps.length > 1) {
					/* the selected processes with values of it */
					var has = ps.filter(function (q) {
						return ms.only === q || !!(ms.procs && ms.procs[String(q)]);
					});
					var nall = ms.procs ? Object.keys(ms.procs).length : 1;
					var whatN = ps.length + ' selected processes' + (threadSel ?
						' (of the selected threads; metrics are measured per process)' : '');
					if (leg && !leg.hasAttribute('data-whole'))
						leg.setAttribute('data-whole', leg.textContent);
					fig.setAttribute('data-proc', ps.join(','));
					if (has.length === nall) {
						if (leg)
							leg.textContent = 'The ' + whatN + ' hold every process ' +
								'with values: ' + leg.getAttribute('data-whole');
						continue;
					}
					ser.setAttribute('display', 'none');
					if (!has.length) {
						noValues(sv, ms, yaxis, 'no values of these processes');
						if (leg)
							leg.textContent = 'The ' + whatN + ': no values.';
						continue;
					}
					if (has.length === 1) {
						yaxis.setAttribute('display', 'none');
						drawProc(sv, ms, ms.procs[String(has[0])], plot, yaxis);
						if (leg)
							leg.textContent = 'The ' + whatN + ': ' + procLabel(has[0]) +
								' alone has values: line = mean, band = lowest to highest ' +
								'value in each interval';
						continue;
					}
					drawProc(sv, ms, combine(ms, has), plot, yaxis);
					if (leg)
						leg.textContent = 'The ' + whatN + ', ' + has.length +
							' with values: line = mean of the processes, band = lowest ' +
							'to highest process in each interval';
					continue;
				}
				if (p === null)
					continue;
				/* a bare pid, or a rank's or launcher's name
				 * (html_narrow.c) */
				var lab = procLabel(p);
				var what = (/^[0-9]/.test(lab) ? 'Process ' + lab :
					lab.charAt(0).toUpperCase() + lab.slice(1)) + (threadSel ?
					' (the whole process: metrics are measured per process)' : '');
				if (leg && !leg.hasAttribute('data-whole'))
					leg.setAttribute('data-whole', leg.textContent);
				fig.setAttribute('data-proc', String(p));
				if (ms.only === p) {
					if (leg)
						leg.textContent = what + ': the only process with values; ' +
							leg.getAttribute('data-whole');
					continue;
				}
				ser.setAttribute('display', 'none');
				var pd = ms.procs && ms.procs[String(p)];
				if (!pd) {
					noValues(sv, ms, yaxis, 'no values of this process');
					if (leg)
						leg.textContent = what + ': no values.';
					continue;
				}
				yaxis.setAttribute('display', 'none');
				drawProc(sv, ms, pd, plot, yaxis);
				if (leg)
					leg.textContent = what + ': line = mean, band = lowest to highest ' +
						(pd[4] > 1 ? 'of its ' + pd[4] + ' series\' means' : 'value') +
						' in each interval';
			}
		}

		/* a cell of percentage p (clamped to 0..100) with its bar, as
		 * html_pct_cell writes them */
		function pctCell(tr, p) {
			p = Math.min(Math.max(p, 0), 100);
			var td = cell(tr, p.toFixed(2) + '%', 'n');
			var bar = el('span', 'pct'), fill = el('span');
			fill.style.width = p.toFixed(1) + '%';
			bar.appendChild(fill);
			td.appendChild(bar);
		}

		/* the performance summary's split of the selection (samples
		 * of it): compute, MPI and I/O from its samples, as a table
		 * (rows with data-samples), or null when the page has no
		 * classes (d.cls) */
		function perfSplit(samples) {
			if (!d.cls)
				return null;
			var ok = threadOk(), mpi = 0, io = 0, cl = d.cls;
			for (var c = 0; c < cl.length; c += 4)
				if (ok[cl[c]] && cl[c + 1] >= b0 && cl[c + 1] < b1) {
					mpi += cl[c + 2];
					io += cl[c + 3];
				}
			var box = el('div', 'nr-whole nr-perf');
			box.setAttribute('data-samples', String(samples));
			box.appendChild(el('p', 'note', 'In the selection, from its ' + fmt(samples) +
				' samples (a sample in an MPI call counts as MPI, else in a ' +
				'read/write-family call as I/O):'));
			var t = el('table'), tb = el('tbody');
			[['Compute', samples - mpi - io], ['MPI', mpi], ['I/O', io]].forEach(function (r) {
				var tr = el('tr');
				tr.setAttribute('data-samples', String(r[1]));
				tr.appendChild(el('th', null, r[0]));
				pctCell(tr, samples > 0 ? 100 * r[1] / samples : 0);
				tb.appendChild(tr);
			});
			t.appendChild(tb);
			box.appendChild(t);
			return box;
		}

		/* the metrics table's statistics per series and time bin
		 * ("msel-data", html_msel.c), or null when the page has none */
		var ms = (function () {
			var e = $('msel-data'), v = e ? JSON.parse(e.textContent) : null;
			return v && v.s && v.bins === d.bins ? v : null;
		})();

		/* the metrics table of the selection: the whole run's rows
		 * (all), those of process number sp[0] the page holds (a
		 * <tbody data-proc=P>, the figures of --pid) when one process
		 * is selected over the whole run, else rows made from "msel-data"
		 * for the selected processes (sp; all of them when the
		 * selection is a time range alone) and time range, in a
		 * <tbody class="nr-msel">; what is shown: 'whole', 'proc',
		 * 'sel' or null (the whole run's, for want of data) */
		function msumShow(all, sp) {
			var t = document.querySelector('#metrics table.msum');
			if (!t)
				return null;
			var old = t.querySelector('tbody.nr-msel');
			if (old)
				t.removeChild(old);
			var timed = b0 > 0 || b1 < d.bins;
			var mine = !all && sp && sp.length === 1 && !timed ?
				t.querySelector('tbody[data-proc="' + sp[0] + '"]') : null;
			var made = null;
			if (!all && !mine && ms) {
				made = el('tbody', 'nr-msel');
				mapreportMsel.rows(ms, sp, b0, b1).forEach(function (r) {
					var tr = el('tr');
					r.cells.forEach(function (c, i) {
						cell(tr, c, i ? 'n' : null);
					});
					cell(tr, r.note, 'note');
					made.appendChild(tr);
				});
				t.appendChild(made);
			}
			var bodies = t.tBodies;
			for (var i = 0; i < bodies.length; i++)
				bodies[i].hidden = mine ? bodies[i] !== mine : made ?
					bodies[i] !== made : bodies[i].hasAttribute('data-proc');
			return all ? 'whole' : mine ? 'proc' : made ? 'sel' : null;
		}

		/* the partial reports' data ("psel-data", html_psel.c):
		 * null when the page has none to narrow them with; {none:
		 * why} when it left it out */
		var psd = (function () {
			var e = $('psel-data'), v = e ? JSON.parse(e.textContent) : null;
			if (v && !v.none && !ms) {
				/* psel.js needs the metrics' counts per bin too */
				var me = $('msel-data'), mv = me ? JSON.parse(me.textContent) : null;
				return {none: 'the page holds no metric figures per time bin' +
					(mv && mv.none ? ': ' + mv.none : '')};
			}
			return !v || v.none ? v : v.s && v.bins === d.bins ? v : null;
		})();
		var pOrig = null; /* the whole run's value and bar cells */

		/* the partial reports of the selection (psel.js), the
		 * processes sp (null: all) in bins [b0, b1), in place of the
		 * whole run's figures (restored when all); the note's text,
		 * or null when the page cannot narrow them */
		function partialShow(all, sp) {
			var reps = document.querySelectorAll('#partial div.preport');
			var rows = [];
			for (var i = 0; i < reps.length; i++) {
				var subs = reps[i].querySelectorAll('div.partial');
				var rr = [];
				for (var j = 0; j < subs.length; j++)
					rr.push(subs[j].querySelectorAll('table.entries tr'));
				rows.push(rr);
			}
			if (!reps.length)
				return null;
			if (!pOrig) {
				pOrig = rows.map(function (rr) {
					return rr.map(function (trs) {
						return Array.prototype.map.call(trs, function (tr) {
							return [tr.cells[1].className, tr.cells[1].innerHTML,
								tr.cells[2].innerHTML];
						});
					});
				});
			}
			var restore = function () {
				rows.forEach(function (rr, i) {
					rr.forEach(function (trs, j) {
						Array.prototype.forEach.call(trs, function (tr, k) {
							var o = pOrig[i][j][k];
							tr.cells[1].className = o[0];
							tr.cells[1].innerHTML = o[1];
							tr.cells[2].innerHTML = o[2];
						});
					});
				});
			};
			if (all || !psd || psd.none) {
				restore();
				return null;
			}
			var r = mapreportPsel.evaluate(psd, ms, sp, b0, b1);
			rows.forEach(function (rr, i) {
				rr.forEach(function (trs, j) {
					Array.prototype.forEach.call(trs, function (tr, k) {
						var o = r.reports[i] && r.reports[i][j] && r.reports[i][j][k];
						var en = psd.r[i] && psd.r[i][j] && psd.r[i][j][k];
						if (!o || !en)
							return;
						tr.cells[1].className = 'n' + (o.state === 'value' ? '' : ' nodata');
						tr.cells[1].textContent = o.text;
						tr.cells[2].textContent = '';
						if (o.bar < 0)
							return;
						var w = Math.min(o.bar, 1) * 100;
						var box = el('span', 'cmpbox'), fill = el('span', 'cmp');
						box.title = (en.g || '') + ': ' + w.toFixed(0) + '% of the largest';
						fill.style.width = w.toFixed(1) + '%';
						fill.style.background = en.col;
						box.appendChild(fill);
						tr.cells[2].appendChild(box);
					});
				});
			});
			return (r.nbins ? r.nbins + ' time bin' + (r.nbins === 1 ? '' : 's') +
				' of ' + mapreportMsel.format(r.binNs, 'ns') + ' chosen for the ' +
				'selection\'s values' : 'no metric value in the selection') +
				(r.approx ? '; approximate: some of the run\'s time cells of values ' +
				 'cross the range\'s edge, and each is taken whole on the side of ' +
				 'its nearer end' : '');
		}

		/* whether the page can make the performance summary of a
		 * selection: it holds "rk-data" */
		function perfOwn() {
			var e = $('rk-data');
			return !!e && !/^\s*\{"none"/.test(e.textContent);
		}

		/* the performance summary of the selection (perf.js), in place
		 * of the whole run's (hidden, shown again when all) */
		function perfShow(all, ok) {
			var sec = $('performance');
			if (!sec)
				return;
			var hid = sec.querySelectorAll('.nr-hid');
			for (var i = 0; i < hid.length; i++) {
				hid[i].hidden = false;
				hid[i].classList.remove('nr-hid');
			}
			if (all || !perfOwn())
				return;
			var x = mapreportRanks.selection(ok, b0, b1, binw, sel.value);
			if (!x)
				return;
			var rows = x.rows, st = mapreportRanks.stats(rows), n = 0;
			rows.forEach(function (r) { n += r.samples; });
			var stEl = $('st-data'), stv = stEl ? JSON.parse(stEl.textContent) : null;
			var procs = [];
			rows.forEach(function (r) { procs.push(r.proc); });
			var s = mapreportPerf.summary(rows, st, !!x.data.any_rank,
				mapreportPerf.p2pOf(stv && stv.mpi, procs), x.data.wall,
				lastTop ? lastTop.label : null, lastTop && n ? lastTop.self / n : 0,
				x.data.sm);
			for (var c = sec.firstElementChild; c; c = c.nextElementSibling)
				if (c.tagName !== 'H2' && !c.classList.contains('nr-whole')) {
					c.hidden = true;
					c.classList.add('nr-hid');
				}
			var box = el('div', 'nr-whole nr-perf-sel');
			var timed = b0 > 0 || b1 < d.bins;
			box.appendChild(el('p', 'note', 'The performance summary of the selection' +
				(timed ? ', from ' + (b0 * binw).toFixed(3) + ' s to ' +
				 (b1 * binw).toFixed(3) + ' s' : '') + ', as mapreport --pid, --tid ' +
				'and --time give it: from the Ranks table\'s rows of the selection ' +
				'(the wall-clock time is the whole run\'s, as there).'));
			var vp = el('p', 'verdict'), vb = el('b', null, s.verdict);
			vp.appendChild(vb);
			box.appendChild(vp);
			if (s.kind !== 'none') {
				box.appendChild(el('p', null, s.seconds.toFixed(3) + ' s of ' +
					x.data.clock + ' in ' + s.nprocs + ' process' +
					(s.nprocs === 1 ? '' : 'es') + ', ' + s.wall.toFixed(3) +
					' s wall-clock' + (s.mpiMetric ? '; MPI time from the ' +
					'time-in-MPI metric' : '') + '.'));
				var t = el('table'), tb = el('tbody');
				[['Compute', s.compute], ['MPI', s.mpi], ['I/O', s.io]].forEach(function (r) {
					var tr = el('tr');
					tr.appendChild(el('th', null, r[0]));
					pctCell(tr, r[1] * 100);
					tb.appendChild(tr);
				});
				t.appendChild(tb);
				box.appendChild(t);
			}
			if (s.advice.length) {
				var ul = el('ul', 'advice');
				s.advice.forEach(function (a) { ul.appendChild(el('li', null, a)); });
				box.appendChild(ul);
			}
			sec.appendChild(box);
		}

		/* the figures the page holds for the whole run only: a note
		 * before each while a selection is active (its text says
		 * why); the run's facts get a row of the selection */
		function wholeRun(all, samples) {
			var olds = document.querySelectorAll('.nr-whole, .nr-row');
			for (var i = 0; i < olds.length; i++)
				olds[i].parentNode.removeChild(olds[i]);
			var v = sel.value, threadSel = v && (v[0] === 't' || v[0] === 'T');
			var sp = v ? selProcs(threadOk()) : [], np = sp.length;
			var mnow = msumShow(all, v ? sp : null);
			var pnow = partialShow(all, v ? sp : null);
			if (all)
				return;
			var mnote = (b0 > 0 || b1 < d.bins ? 'the time axis zoomed to the ' +
				'selected range; ' : '') + (!v ? '' : np === 1 ? 'metrics are ' +
				'measured per process, so these are the values of the ' +
				(threadSel ? 'whole process (not of the selected thread alone); '
				 : 'selected process; ')
				: 'metrics are measured per process, so these are the values ' +
				  'of the ' + np + ' selected processes' + (threadSel ? ' (whole ' +
				  'processes, not the selected threads alone)' : '') + ', combined ' +
				  'as a chart combines every process\'s; ');
			var split = perfOwn() ? null : perfSplit(samples);
			[['#summary table.kv', 'The run\'s facts: whole run, not narrowed ' +
				'to the selection (its figures are in the row "Selection").'],
			 ['#performance table', perfOwn() ? null : 'Whole run: the ' +
				'performance summary is not narrowed to the selection' + (split ?
				'; the selection\'s split is under it.' : '.')],
			 ['#metrics table.msum', !mnow ? 'Whole run: the metrics\' figures ' +
				'are not narrowed to the selection.' : mnow === 'proc' ?
				'The metrics\' figures of ' + (threadSel ? 'the whole process ' +
				 'of the selected thread (metrics are measured per process).' :
				 'the selected process.') : 'The metrics\' figures of the ' +
				'selection: the values of ' + (!v ? 'every process' : np === 1 ?
				 (threadSel ? 'the whole process of the selected thread' :
				  'the selected process') : np + ' processes' +
				 (threadSel ? ', those of the selected threads' : '')) +
				(!v || !threadSel ? '' : ' (metrics are measured per process)') +
				(b0 > 0 || b1 < d.bins ? ', taken from ' + (b0 * binw).toFixed(3) +
				 ' s to ' + (b1 * binw).toFixed(3) + ' s' : '') +
				'. Errors are counted over the whole run.'],
			 ['#metrics div.charts', 'Charts: ' + mnote + (b0 > 0 || b1 < d.bins ?
				'the thread activity chart zoomed to the range too.' :
				'the thread activity chart shows the selected threads.')],
			 ['#partial div.preport', pnow === null ? 'Whole run: the partial ' +
				'reports are not narrowed to the selection' + (psd && psd.none ?
				 ' (' + psd.none + ')' : '') + ' (mapreport --pid, --tid and ' +
				'--time with --html make a page of the selection\'s).' :
				'The partial reports of the selection, as mapreport --pid, --tid ' +
				'and --time evaluate them: the values of ' + (!v ? 'every process' :
				 np === 1 ? (threadSel ? 'the whole process of the selected thread'
				 : 'the selected process') : np + ' processes' + (threadSel ?
				 ', those of the selected threads' : '')) + (b0 > 0 || b1 < d.bins ?
				', from ' + (b0 * binw).toFixed(3) + ' s to ' + (b1 * binw).toFixed(3) +
				' s' : '') + '; ' + pnow + '.']
			].forEach(function (w) {
				var t = document.querySelector(w[0]);
				if (t && w[1] !== null)
					t.parentNode.insertBefore(el('p', 'note nr-whole', w[1]), t);
			});
			var pt = document.querySelector('#performance table');
			if (pt && split)
				pt.parentNode.insertBefore(split, pt.nextSibling);
			var kv = document.querySelector('#summary table.kv');
			if (kv) {
				var nth = 0, procs = [], ok = threadOk();
				for (var k = 0; k < nt; k++)
					if (ok[k]) {
						nth++;
						if (procs.indexOf(d.threads[k][0]) < 0)
							procs.push(d.threads[k][0]);
					}
				var tr = el('tr', 'nr-row');
				tr.appendChild(el('th', null, 'Selection'));
				cell(tr, fmt(samples) + ' samples, ' + (b0 * binw).toFixed(3) +
					' s to ' + (b1 * binw).toFixed(3) + ' s, ' + nth + ' thread' +
					(nth === 1 ? '' : 's') + ' of ' + procs.length + ' process' +
					(procs.length === 1 ? '' : 'es'));
				(kv.tBodies[0] || kv).appendChild(tr);
			}
		}

		/* the Regions and MPI call statistics tables of the selection
		 * (ok: its threads; all: none) from "st-data"
		 * (html_seltab.c), each after the whole run's, which is
		 * hidden, with a note of what the figures are; samples: the
		 * selection's, for the regions' % */
		var st = null;
		function selTables(ok, all, samples) {
			if (st === null)
				st = $('st-data') ? JSON.parse($('st-data').textContent) : {};
			var rt = document.querySelector('#activity table.regions');
			var mt = document.querySelector('#mpi table');
			if (rt)
				rt.hidden = false;
			if (mt)
				mt.hidden = false;
			if (all)
				return;
			var v = sel.value, threadSel = v && (v[0] === 't' || v[0] === 'T');
			var timed = b0 > 0 || b1 < d.bins, t0 = b0 * binw, t1 = b1 * binw;
			function note(at, text) {
				at.parentNode.insertBefore(el('p', 'note nr-whole', text), at);
			}
			/* a table of the head's columns (the first ntext of
			 * text, the others numbers) after the table at */
			function table(at, cls, head, ntext, rows) {
				var t = el('table', 'nr-whole ' + cls), h = el('thead'), tr = el('tr');
				head.forEach(function (x, k) {
					tr.appendChild(el('th', k >= ntext ? 'n' : null, x));
				});
				h.appendChild(tr);
				t.appendChild(h);
				var tb = el('tbody');
				rows.forEach(function (r) { tb.appendChild(r); });
				t.appendChild(tb);
				at.parentNode.insertBefore(t, at.nextSibling);
				return t;
			}
			if (rt && (!st.regions || st.regions.none)) {
				note(rt, 'Whole run: the regions\' figures are not narrowed ' +
					'to the selection (' + (st.regions ? st.regions.none :
					'the page holds no figures per thread and time') + ').');
			} else if (rt) {
				var rg = st.regions, nn = rg.names.length, c = rg.cells;
				var ent = new Float64Array(nn), ns = new Float64Array(nn);
				var smp = new Float64Array(nn);
				for (var i = 0; i < c.length; i += 6)
					if (ok[c[i + 1]] && c[i + 2] >= b0 && c[i + 2] < b1) {
						ent[c[i]] += c[i + 3];
						ns[c[i]] += c[i + 4];
						smp[c[i]] += c[i + 5];
					}
				var rows = rg.names.map(function (name, k) {
					var tr = el('tr');
					tr.setAttribute('data-region', name);
					tr.setAttribute('data-entered', String(ent[k]));
					tr.setAttribute('data-ns', String(ns[k]));
					tr.setAttribute('data-samples', String(smp[k]));
					cell(tr, name);
					cell(tr, fmt(ent[k]), 'n');
					cell(tr, (ns[k] / 1e9).toFixed(3) + ' s', 'n');
					cell(tr, fmt(smp[k]), 'n');
					cell(tr, (samples > 0 ? 100 * smp[k] / samples : 0).toFixed(2), 'n');
					return tr;
				});
				rt.hidden = true;
				var nt2 = table(rt, 'regions-sel', ['Region', 'Entered', 'Wall time',
					'Samples', '%'], 1, rows);
				note(nt2, 'In the selection: the entries its threads began' +
					(timed ? ' from ' + t0.toFixed(3) + ' s to ' + t1.toFixed(3) + ' s' : '') +
					', their time inside the region' + (timed ? ' within that range' : '') +
					', summed over the threads, and the samples taken inside it ' +
					'(% of the selection\'s ' + fmt(samples) + ' samples), as ' +
					'mapreport --pid/--tid/--time give them.');
			}
			if (mt && !st.mpi) {
				note(mt, 'Whole run: MPI call statistics are not narrowed to ' +
					'the selection.');
			} else if (mt) {
				var mp = st.mpi, ps = selProcs(ok), inSel = [];
				mp.procs.forEach(function (p, r) {
					if (ps.indexOf(p[0]) >= 0)
						inSel.push(r);
				});
				var nf = mp.fns.length, nr = mp.procs.length;
				var val = new Float64Array(nf * nr * 4);
				for (var j = 0; j < mp.v.length; j += 6)
					for (var q = 0; q < 4; q++)
						val[(mp.v[j] * nr + mp.v[j + 1]) * 4 + q] = mp.v[j + 2 + q];
				/* per function: total, mean, min and max across the
				 * selected ranks (the lower rank on a tie), as
				 * report/mpi.c */
				var fs = [];
				for (var f = 0; f < nf; f++) {
					var x = {name: mp.fns[f], q: []};
					for (q = 0; q < 4; q++) {
						var tot = 0, mn = null, mx = null;
						inSel.forEach(function (r) {
							var a = val[(f * nr + r) * 4 + q], rk = mp.procs[r][1];
							tot += a;
							if (!mn || a < mn[0] || (a === mn[0] && rk < mn[1]))
								mn = [a, rk];
							if (!mx || a > mx[0] || (a === mx[0] && rk < mx[1]))
								mx = [a, rk];
						});
						x.q.push([tot, inSel.length ? tot / inSel.length : 0, mn, mx]);
					}
					/* every function, as the text report lists
					 * them with --pid */
					if (inSel.length)
						fs.push(x);
				}
				fs.sort(function (a, b) {
					return b.q[1][0] - a.q[1][0] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
				});
				var fv2 = function (q, a) {
					return q === 1 ? (a / 1e9).toFixed(6) : a === Math.floor(a) ?
						String(a) : a.toFixed(1);
				};
				var mrows = [];
				fs.forEach(function (x) {
					['calls', 'time', 'sent', 'received'].forEach(function (qn, k) {
						var r = x.q[k], tr = el('tr');
						tr.setAttribute('data-fn', x.name);
						tr.setAttribute('data-q', qn);
						tr.setAttribute('data-total', String(r[0]));
						cell(tr, x.name, 'f');
						cell(tr, qn);
						cell(tr, fv2(k, r[1]), 'n');
						cell(tr, fv2(k, r[2][0]) + ' [' + r[2][1] + ']', 'n');
						cell(tr, fv2(k, r[3][0]) + ' [' + r[3][1] + ']', 'n');
						mrows.push(tr);
					});
				});
				mt.hidden = true;
				var t2 = table(mt, 'mpi-sel', ['Function', 'Quantity', 'Mean',
					'Min [rank]', 'Max [rank]'], 2, mrows);
				t2.setAttribute('data-ranks', String(inSel.length));
				note(t2, 'MPI call statistics of the selection: ' + inSel.length +
					' rank' + (inSel.length === 1 ? '' : 's') + ' with statistics' +
					(inSel.length ? '; per rank: mean, min [rank], max [rank]; ' +
					'time in s, bytes in B' : '') + '. The logs hold each ' +
					'process\'s totals, written at MPI_Finalize, not its calls' +
					(threadSel ? ': the figures are of the selected thread\'s ' +
					'whole process, not of the thread alone' : '') + (timed ? (threadSel ?
					', and' : ':') + ' they are of the whole run, not of the ' +
					'selected time range' : '') + '.');
			}
		}

		function apply() {
			var ok = threadOk(), all = !sel.value && b0 === 0 && b1 === d.bins;
			/* over the whole call tree (G): the graph's frames hold
			 * their left-out nodes' samples in value */
			var n = N, value = new Float64Array(n), self;
			if (all) {
				self = self0;
				value.set(g.value0);
			} else {
				self = selfOf(function (t, b) { return ok[t] && b >= b0 && b < b1; });
				value.set(self);
				for (var i = n - 1; i > 0; i--)
					value[G.parent[i]] += value[i];
			}
			g.value.set(value.subarray(0, g.n));
			fg.redraw();
			drawStrip(ok);
			markCharts();
			procCharts(ok);
			zoomCharts(b0 === 0 && b1 === d.bins ? null : b0 * binw, b1 * binw);
			wholeRun(all, value[0]);
			selTables(ok, all, value[0]);
			/* the static tables are of the whole run */
			var st = document.querySelectorAll('#functions > h3, #functions > table.funcs');
			for (i = 0; i < st.length; i++)
				st[i].hidden = !all;
			$('fn-narrowed').hidden = all;
			var sums = fc && !all ? fc.sums(ok, b0, b1) : null;
			if (!all)
				functionTables(value, self, sums);
			perfShow(all, ok);
			cur = all ? null : {self: self, total: value[0], sums: sums};
			if (fv)
				fv.narrow(all ? null : {calls: calls, lines: lines, total: value[0],
					coarse: coarse});
			/* a row of process number proc (thread tid, or every
			 * thread when tid is null) is shown when the selection
			 * holds it */
			function shown(proc, tid) {
				var show = !sel.value;
				for (var k = 0; !show && k < nt; k++)
					show = ok[k] && d.threads[k][0] === proc &&
						(tid === null || d.threads[k][1] === +tid);
				return show;
			}
			/* the Ranks table of the selection (ranks.js) */
			mapreportRanks.show(lib, ok, all, b0, b1, binw, sel.value, all ? [] : selProcs(ok));
			var rows = document.querySelectorAll('#summary tr[data-proc]');
			for (i = 0; i < rows.length; i++) {
				var r = rows[i];
				r.hidden = !shown(+r.getAttribute('data-proc'), r.getAttribute('data-tid'));
			}
			/* the marks of the selection: its threads, its range */
			var t0 = b0 * binw, t1 = b1 * binw;
			rows = document.querySelectorAll('#metrics tr[data-t]');
			for (i = 0; i < rows.length; i++) {
				var mt = +rows[i].getAttribute('data-t');
				rows[i].hidden = !shown(+rows[i].getAttribute('data-proc'),
					rows[i].getAttribute('data-tid')) ||
					(b1 < d.bins && mt >= t1) || (b0 > 0 && mt < t0);
			}
			/* the thread activity chart: the selection's rows only,
			 * packed from the top */
			var act = document.querySelector('#activity svg[data-rowh]');
			if (act) {
				var lanes = act.querySelectorAll('g.act-row'), rh = +act.getAttribute('data-rowh');
				var kept = 0;
				for (i = 0; i < lanes.length; i++) {
					var ln = lanes[i];
					if (!shown(+ln.getAttribute('data-proc'), ln.getAttribute('data-tid'))) {
						ln.setAttribute('display', 'none');
						continue;
					}
					ln.removeAttribute('display');
					ln.setAttribute('transform', 'translate(0,' +
						((kept - i) * rh) + ')');
					kept++;
				}
				var foot = act.querySelector('g.act-foot');
				if (foot)
					foot.setAttribute('transform', 'translate(0,' +
						((kept - lanes.length) * rh) + ')');
				var vb = act.viewBox.baseVal;
				act.setAttribute('viewBox', '0 0 ' + vb.width + ' ' +
					(kept * rh + 28));
				act.setAttribute('data-rows', String(kept));
			}
			range.textContent = b0 === 0 && b1 === d.bins ? ' all of the run' :
				' from ' + (b0 * binw).toFixed(3) + ' s to ' + (b1 * binw).toFixed(3) + ' s';
			status.textContent = fmt(value[0]) + ' samples selected' + (all || !d.cut ? ''
				: '; frames deeper than ' + d.cut + ' levels are not told apart in the selection');
			status.setAttribute('data-samples', String(value[0]));
			document.documentElement.setAttribute('data-narrowed', all ? 'no' : 'yes');
		}

		function binAt(ev) {
			var r = strip.getBoundingClientRect();
			var f = r.width > 0 ? (ev.clientX - r.left) / r.width : 0;
			return Math.min(Math.max(Math.floor(f * d.bins), 0), d.bins - 1);
		}
		var from = -1;
		strip.addEventListener('mousedown', function (ev) {
			from = binAt(ev);
			ev.preventDefault();
		});
		window.addEventListener('mousemove', function (ev) {
			if (from < 0)
				return;
			var b = binAt(ev);
			b0 = Math.min(from, b);
			b1 = Math.max(from, b) + 1;
			drawStrip(threadOk());
		});
		window.addEventListener('mouseup', function () {
			if (from < 0)
				return;
			from = -1;
			apply();
		});
		sel.addEventListener('change', apply);
		$('nr-clear').addEventListener('click', function () {
			sel.value = '';
			b0 = 0;
			b1 = d.bins;
			apply();
		});
		/* every thread of that id, as mapreport --tid takes it */
		this.thread = function (tid) {
			var hits = [];
			for (var k = 0; k < nt; k++)
				if (d.threads[k][1] === tid)
					hits.push(k);
			if (hits.length > 1) {
				opt('T' + tid, 'threads ' + tid + ' of ' + hits.length + ' processes');
				sel.value = 'T' + tid;
			} else if (hits.length) {
				sel.value = 't' + hits[0];
			}
			apply();
		};
		/* the process of that pid, or every one when processes of
		 * several PID namespaces or hosts have it */
		this.process = function (pid) {
			var procs = [];
			for (var k = 0; k < nt; k++)
				if (d.threads[k][5] === pid && procs.indexOf(d.threads[k][0]) < 0)
					procs.push(d.threads[k][0]);
			if (procs.length > 1) {
				opt('P' + pid, 'processes ' + pid + ' (' + procs.length + ' of them)');
				sel.value = 'P' + pid;
			} else if (procs.length) {
				sel.value = 'p' + procs[0];
			}
			apply();
		};
		/* a time given to the nanosecond on a bin's edge (as the
		 * page prints them) is that edge, not the next bin: within a
		 * millionth of a bin counts as on it */
		this.time = function (a, b) {
			b0 = binw > 0 ? Math.max(Math.floor(a / binw + 1e-6), 0) : 0;
			b1 = binw > 0 ? Math.min(Math.ceil(b / binw - 1e-6), d.bins) : d.bins;
			if (b1 <= b0)
				b1 = Math.min(b0 + 1, d.bins);
			apply();
		};
		$('nr-bar').hidden = false;
		apply();
	}

	return Narrow;
};
