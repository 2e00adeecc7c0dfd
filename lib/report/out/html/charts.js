/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport --html: drawing on the page's SVG charts for a selection
 * (embedded by lib/report/out/html.c before narrow.js, which uses it):
 * a plot zoomed to a time range with an axis of that range, and one
 * process's series of a metric chart, or several processes' combined,
 * from the page's "ms-data".  No
 * state: each function works on the elements it is given.
 */
var mapreportCharts = (function () {
	'use strict';

	/* plot (a group of svg sv whose x axis runs from x0 to x1 for
	 * span seconds from t0: the run, or the part of it mapreport
	 * --time kept) zoomed to the time range from a to b seconds
	 * from the run's start (a null: the whole axis): stretched
	 * sideways inside an <svg> of the plot's width, whose viewport
	 * clips what the stretch pushes out (made on the first zoom
	 * only); returns the range shown [lo, hi], or null */
	function zoomPlot(sv, plot, a, b) {
		var clip = plot.parentNode;
		if (a === null && clip.getAttribute('class') !== 'nr-clip')
			return null; /* never zoomed */
		if (clip.getAttribute('class') !== 'nr-clip') {
			clip = document.createElementNS(sv.namespaceURI, 'svg');
			clip.setAttribute('class', 'nr-clip');
			plot.parentNode.insertBefore(clip, plot);
			clip.appendChild(plot);
		}
		var x0 = +sv.getAttribute('data-x0'), x1 = +sv.getAttribute('data-x1');
		var hgt = sv.viewBox.baseVal.height;
		clip.setAttribute('x', String(x0));
		clip.setAttribute('y', '0');
		clip.setAttribute('width', String(x1 - x0));
		clip.setAttribute('height', String(hgt));
		clip.setAttribute('viewBox', x0 + ' 0 ' + (x1 - x0) + ' ' + hgt);
		if (a === null) {
			plot.removeAttribute('transform');
			clip.setAttribute('overflow', 'visible');
			return null;
		}
		var span = +sv.getAttribute('data-span') || 1;
		var t0 = +sv.getAttribute('data-t0') || 0;
		var hi = Math.min(Math.max(b, t0), t0 + span), lo = Math.min(Math.max(a, t0), hi);
		var xa = x0 + (lo - t0) / span * (x1 - x0), xb = x0 + (hi - t0) / span * (x1 - x0);
		var k = (x1 - x0) / Math.max(xb - xa, 1e-6);
		plot.setAttribute('transform', 'translate(' + (x0 - k * xa).toFixed(3) +
			',0) scale(' + k.toFixed(6) + ',1)');
		clip.setAttribute('overflow', 'hidden');
		return [lo, hi];
	}

	/* the time axis of the range lo to hi seconds at height y of
	 * svg sv, in host, ticks on a round step, in place of the
	 * run's (axis) */
	function rangeAxis(sv, host, axis, y, r) {
		var old = host.querySelector('g.nr-axis');
		if (old)
			host.removeChild(old);
		if (!r) {
			axis.removeAttribute('display');
			sv.removeAttribute('data-zoom');
			return;
		}
		axis.setAttribute('display', 'none');
		var lo = r[0], hi = r[1];
		var x0 = +sv.getAttribute('data-x0'), x1 = +sv.getAttribute('data-x1');
		var g2 = document.createElementNS(sv.namespaceURI, 'g');
		g2.setAttribute('class', 'nr-axis');
		var line = function (ax, ay, bx, by) {
			var l = document.createElementNS(sv.namespaceURI, 'line');
			l.setAttribute('class', 'axis');
			l.setAttribute('x1', ax.toFixed(1));
			l.setAttribute('y1', ay.toFixed(1));
			l.setAttribute('x2', bx.toFixed(1));
			l.setAttribute('y2', by.toFixed(1));
			g2.appendChild(l);
		};
		line(x0, y, x1, y);
		var w = hi - lo, raw = w / 8 || 1, mag = Math.pow(10, Math.floor(Math.log10(raw)));
		var st = (raw / mag < 1.5 ? 1 : raw / mag < 3 ? 2 : raw / mag < 7 ? 5 : 10) * mag;
		var dec = Math.max(0, -Math.floor(Math.log10(st)));
		for (var t = Math.ceil(lo / st - 1e-9) * st; w > 0 && t <= hi + st * 1e-6; t += st) {
			var x = x0 + (t - lo) / w * (x1 - x0);
			line(x, y, x, y + 4);
			var tx = document.createElementNS(sv.namespaceURI, 'text');
			tx.setAttribute('x', x.toFixed(1));
			tx.setAttribute('y', (y + 16).toFixed(1));
			tx.setAttribute('text-anchor', 'middle');
			tx.textContent = t.toFixed(dec) + ' s';
			g2.appendChild(tx);
		}
		host.appendChild(g2);
		sv.setAttribute('data-zoom', lo.toFixed(6) + ':' + hi.toFixed(6));
	}

	/* one value of a column string (2 characters from i) */
	var QD = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/';
	function qval(str, i) {
		return (QD.indexOf(str[i]) * 64 + QD.indexOf(str[i + 1])) / 4095;
	}

	/* process p's series of a chart (ms: its entry of "ms-data",
	 * pd: the process's) into svg sv in place of the chart's: the
	 * y axis of the process's values, the mean as a line in a
	 * band from the lowest to the highest value per column (a gap
	 * much longer than the usual spacing left open, as the
	 * chart's), a tooltip per column */
	function drawProc(sv, ms, pd, plot, yaxis) {
		var ns = sv.namespaceURI;
		function mk(tag, attrs, parent) {
			var e = document.createElementNS(ns, tag);
			for (var a in attrs)
				e.setAttribute(a, attrs[a]);
			parent.appendChild(e);
			return e;
		}
		var bot = pd[0], top = pd[1], step = pd[2], labels = pd[3], str = pd[5];
		var X0 = ms.x[0], X1 = ms.x[1], Y0 = ms.y[0], Y1 = ms.y[1];
		var ya = mk('g', {'class': 'nr-yaxis'}, yaxis.parentNode);
		yaxis.parentNode.insertBefore(ya, yaxis);
		labels.forEach(function (lb, i) {
			var y = (Y1 - i * step / (top - bot) * (Y1 - Y0)).toFixed(1);
			mk('line', {'class': 'grid', x1: X0, y1: y, x2: X1, y2: y}, ya);
			mk('text', {x: X0 - 4, y: (+y + 4).toFixed(1), 'text-anchor': 'end'},
				ya).textContent = lb;
		});
		var g2 = mk('g', {'class': 'nr-series'}, plot);
		plot.insertBefore(g2, plot.firstChild);
		var cols = [], pos = 0;
		for (var j = 0; pos < str.length; j++) {
			if (str[pos] === '~') {
				pos++;
				continue;
			}
			if (str[pos] === '!') {
				var q = qval(str, pos + 1);
				cols.push([j, q, q, q]);
				pos += 3;
				continue;
			}
			cols.push([j, qval(str, pos), qval(str, pos + 2), qval(str, pos + 4)]);
			pos += 6;
		}
		var xOf = function (j) {
			var f = (ms.s0 + j * ms.w - (ms.t0 || 0)) / (ms.span || 1);
			return (X0 + Math.min(Math.max(f, 0), 1) * (X1 - X0)).toFixed(1);
		};
		var yOf = function (q) { return (Y1 - q * (Y1 - Y0)).toFixed(1); };
		var val = function (q) {
			var v = bot + q * (top - bot);
			return Number(v.toPrecision(4)) + (ms.units ? ' ' + ms.units : '');
		};
		var gaps = [];
		for (var i = 1; i < cols.length; i++)
			gaps.push(cols[i][0] - cols[i - 1][0]);
		gaps.sort(function (a, b) { return a - b; });
		var limit = Math.max(2, gaps.length ? 4 * gaps[Math.floor((gaps.length - 1) / 2)] : 2);
		for (var a = 0, b; a < cols.length; a = b) {
			for (b = a + 1; b < cols.length && cols[b][0] - cols[b - 1][0] <= limit; b++)
				;
			if (b - a === 1) {
				var c = cols[a], xm = xOf(c[0]);
				mk('line', {'class': 'mean', x1: xm, y1: yOf(c[2]), x2: xm, y2: yOf(c[3])}, g2);
				mk('circle', {'class': 'dot', cx: xm, cy: yOf(c[1]), r: '2.5'}, g2);
				continue;
			}
			var up = [], down = [], mid = [];
			for (i = a; i < b; i++) {
				up.push(xOf(cols[i][0]) + ',' + yOf(cols[i][3]));
				down.unshift(xOf(cols[i][0]) + ',' + yOf(cols[i][2]));
				mid.push(xOf(cols[i][0]) + ',' + yOf(cols[i][1]));
			}
			mk('polygon', {'class': 'band', points: up.concat(down).join(' ')}, g2);
			mk('polyline', {'class': 'mean', points: mid.join(' ')}, g2);
		}
		var cw = (X1 - X0) / Math.max(str.length ? j : 1, 1);
		cols.forEach(function (c) {
			var s = ms.s0 - ms.w / 2 + c[0] * ms.w;
			var x = +xOf(c[0]) - cw / 2;
			var r = mk('rect', {'class': 'hit', x: x.toFixed(1), y: Y0,
				width: cw.toFixed(1), height: Y1 - Y0}, g2);
			mk('title', {}, r).textContent = s.toFixed(3) + '-' + (s + ms.w).toFixed(3) +
				' s: mean ' + val(c[1]) + ', min ' + val(c[2]) + ', max ' + val(c[3]);
		});
	}

	/* the series of the processes ps (numbers, two or more with
	 * values) of a chart (ms: its entry of "ms-data") as one process's
	 * entry for drawProc, on the chart's own y axis (ms.all; no
	 * labels: the chart's stay): per column, as the chart combines
	 * its processes, the line the mean of the processes' means and
	 * the band from the lowest to the highest of them (of a process
	 * of several series, its band of their means) */
	function combine(ms, ps) {
		var bot = ms.all[0], top = ms.all[1], nser = 0;
		var per = ps.map(function (p) {
			var pd = ms.procs[String(p)], str = pd[5], cols = {}, pos = 0;
			nser += pd[4];
			for (var j = 0; pos < str.length; j++) {
				if (str[pos] === '~') {
					pos++;
					continue;
				}
				var v = function (i) {
					return pd[0] + qval(str, i) * (pd[1] - pd[0]);
				};
				if (str[pos] === '!') {
					cols[j] = [v(pos + 1), v(pos + 1), v(pos + 1)];
					pos += 3;
					continue;
				}
				cols[j] = pd[4] > 1 ? [v(pos), v(pos + 2), v(pos + 4)] :
					[v(pos), v(pos), v(pos)];
				pos += 6;
			}
			return {cols: cols, n: j};
		});
		var n = per.reduce(function (a, x) { return Math.max(a, x.n); }, 0);
		var q = function (v) {
			var f = Math.round((v - bot) / (top - bot) * 4095);
			f = f < 0 ? 0 : f > 4095 ? 4095 : f;
			return QD[f >> 6] + QD[f & 63];
		};
		var out = '';
		for (var j = 0; j < n; j++) {
			var k = 0, sum = 0, lo = 0, hi = 0;
			per.forEach(function (x) {
				var c = x.cols[j];
				if (!c)
					return;
				if (!k || c[1] < lo)
					lo = c[1];
				if (!k || c[2] > hi)
					hi = c[2];
				sum += c[0];
				k++;
			});
			out += !k ? '~' : q(sum / k) + q(lo) + q(hi);
		}
		return [bot, top, 1, [], nser, out];
	}

	return {zoomPlot: zoomPlot, rangeAxis: rangeAxis, drawProc: drawProc,
		combine: combine};
})();
