/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msel.js: the rows of the HTML report's metrics table for a selection
 * (some processes, a range of time bins), from the page's element "msel-data"
 * (lib/report/out/html_msel.c): each metric series' statistics per time
 * bin.  rows() adds the bins of the selection up as lib/model/metrics.c
 * adds values (metrics_summary_of), and formats them as lib/model/units.c
 * does, so a row reads as the row of mapreport --pid ... --time FROM:TO
 * on the bins' edges.  No page state: narrow.js calls it.
 */
var mapreportMsel = (function () {
	'use strict';

	/* Bin fields (html_msel.c write_cell); the last one is what the
	 * rounding of SUM left out (index 10, or 18 for a rate series). */
	var B = 0, N = 1, SUM = 2, MIN = 3, MAX = 4, TF = 5, VF = 6, TL = 7,
		NONE = 8, TN = 9, LATE = 10, RN = 11, RMIN = 12, RMAX = 13,
		PL = 14, PTF = 15, PVF = 16, PTL = 17;

	/* metrics_sum_add() of lib/model/metrics.h: o.sum + o.lo is the
	 * sum, o.sum it rounded */
	function sumAdd(o, v) {
		var t = o.sum + v;
		var e = Math.abs(o.sum) >= Math.abs(v) ? (o.sum - t) + v : (v - t) + o.sum;
		var l = o.lo + e;
		o.sum = t + l;
		o.lo = l - (o.sum - t);
	}

	/* x with d decimals as C's printf("%.*f") writes it: a tie (the
	 * exact value halfway, which toFixed rounds up) goes to the even
	 * digit, as glibc rounds. */
	function fixed(x, d) {
		var s = x.toFixed(d);
		if (d > 20 || Math.abs(x) >= 1e21)
			return s;
		var exact = Math.abs(x).toFixed(100);
		var dot = exact.indexOf('.');
		var tail = exact.slice(dot + 1 + d);
		if (!/^50*$/.test(tail))
			return s;
		/* a tie: toFixed went away from zero; go to even instead */
		var digits = exact.slice(0, dot) + exact.slice(dot + 1, dot + 1 + d);
		if (Number(digits[digits.length - 1]) % 2 === 0) {
			var t = d ? digits.slice(0, -d) + '.' + digits.slice(-d) : digits;
			t = t.replace(/^0+(?=\d)/, '');
			return (x < 0 && Number(t) !== 0 ? '-' : '') + t;
		}
		return s;
	}

	/* printf("%.3g") of m >= 1e6 (always the exponent form). */
	function g3(m) {
		var e = m.toExponential(2).split('e');
		var mant = e[0].replace(/\.?0+$/, ''), ex = Number(e[1]);
		return mant + 'e' + (ex < 0 ? '-' : '+') + (Math.abs(ex) < 10 ? '0' : '') +
			Math.abs(ex);
	}

	var SI = ['', 'k', 'M', 'G', 'T', 'P', 'E'];
	var IEC = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
	var TIMES = ['ns', 'us', 'ms', 's'];

	function classify(u) {
		if (u === 'B' || u === 'B/s' || u === 'B/S')
			return 'iec';
		if (u === '%' || u === 's')
			return 'none';
		return u === 'ns' ? 'ns' : 'si';
	}

	function glued(u) {
		if (!u || u[0] === '/')
			return true;
		var n = u.indexOf('/');
		return (n < 0 ? u.length : n) <= 2 && u.indexOf(' ') < 0;
	}

	/* three significant digits of m >= 1: [text, value as printed] */
	function digits(m) {
		var b;
		if (m < 10 && Number(b = fixed(m, 2)) < 10)
			return b;
		if (m < 100 && Number(b = fixed(m, 1)) < 100)
			return b;
		return m < 1e6 ? fixed(m, 0) : g3(m);
	}

	function fraction(m) {
		var d = 2 - Math.floor(Math.log10(m));
		d = Math.min(Math.max(d, 0), 6);
		var b = fixed(m, d);
		if (b.indexOf('.') >= 0)
			b = b.replace(/0+$/, '').replace(/\.$/, '');
		return b;
	}

	/* units_format() of lib/model/units.c */
	function format(v, units) {
		units = units || '';
		if (!isFinite(v))
			return 'n/a';
		var c = classify(units), base = c === 'iec' ? 1024 : 1000;
		var max = c === 'none' ? 0 : c === 'ns' ? 3 : SI.length - 1;
		var neg = v < 0, m = Math.abs(v), i = 0, num;
		while (i < max && m >= base) {
			m /= base;
			i++;
		}
		if (m === 0) {
			num = '0';
		} else if (i === 0 && m >= 1 && m < 1e15 && m === Math.floor(m)) {
			num = fixed(m, 0);
		} else if (m < 1) {
			num = fraction(m);
		} else {
			num = digits(m);
			if (Number(num) >= base && i < max) {
				i++;
				num = digits(Math.max(m / base, 1));
			}
		}
		neg = neg && num !== '0';
		var pre = c === 'iec' ? IEC[i] : c === 'si' ? SI[i] : '', u = units;
		if (c === 'ns')
			u = TIMES[i];
		var sign = neg ? '-' : '';
		if (!pre)
			return sign + num + (u ? ' ' + u : '');
		return sign + num + ' ' + pre + (glued(u) ? '' : ' ') + u;
	}

	/* units_undivided(): [the units before division, factor] */
	function undivided(u) {
		u = u || '';
		var n = u.length;
		if (n >= 2 && u[n - 2] === '/' && (u[n - 1] === 's' || u[n - 1] === 'S'))
			return [u.slice(0, n - 2), 1];
		if (u === 'W')
			return ['J', 1];
		if (u === '%')
			return ['s', 0.01];
		return !u ? ['s', 1] : [u + '*s', 1];
	}

	/* A series' bins in [b0, b1) as one series (metrics.h's struct
	 * rmseries, the fields metrics_summary_of reads), its rates in rr. */
	function fold(s, rate, b0, b1) {
		var o = {n: 0, sum: 0, lo: 0, vmin: 0, vmax: 0, first: 0, firstV: 0,
			last: 0, none: 0, tnone: 0, late: 0,
			rr: {n: 0, min: 0, max: 0}};
		var prevLast = null;
		function seen(r) {
			if (!o.rr.n || r < o.rr.min)
				o.rr.min = r;
			if (!o.rr.n || r > o.rr.max)
				o.rr.max = r;
			o.rr.n++;
		}
		s.b.forEach(function (c) {
			if (c[B] < b0 || c[B] >= b1)
				return;
			if (c[NONE]) {
				if (!o.none || c[TN] < o.tnone)
					o.tnone = c[TN];
				o.none += c[NONE];
			}
			if (c[N]) {
				if (!o.n || c[TF] < o.first) {
					o.first = c[TF];
					o.firstV = c[VF];
				}
				if (!o.n || c[TL] > o.last)
					o.last = c[TL];
				if (!o.n || c[MIN] < o.vmin)
					o.vmin = c[MIN];
				if (!o.n || c[MAX] > o.vmax)
					o.vmax = c[MAX];
				o.n += c[N];
				sumAdd(o, c[SUM]);
				sumAdd(o, c[c.length - 1]);
			}
			if (!rate)
				return;
			o.late += c[LATE];
			if (c[RN]) {
				seen(c[RMIN]);
				seen(c[RMAX]);
				o.rr.n += c[RN] - 2;
			}
			if (c[PL]) {
				/* the rate of the bin's first value placed: since
				 * the last one placed before it in the range */
				if (prevLast !== null && c[PTF] > prevLast)
					seen(c[PVF] / ((c[PTF] - prevLast) / 1e9));
				prevLast = c[PTL];
			}
		});
		return o;
	}

	/* metrics_summary_of() of metric mi over the series of the
	 * processes procs (page process numbers; null: all) in bins
	 * [b0, b1). */
	function summary(d, mi, procs, b0, b1) {
		var rate = !!d.m[mi].rate;
		var r = {rate: rate, values: 0, none: 0, late: 0, procs: 0,
			haveMinmax: false, haveMean: false, min: 0, mean: 0, max: 0,
			total: 0, errors: 0};
		var nmean = 0, msum = 0;
		d.s.forEach(function (s) {
			if (s.m !== mi || (procs && procs.indexOf(s.p) < 0))
				return;
			r.errors += s.e;
			var o = fold(s, rate, b0, b1);
			r.none += o.none;
			if (o.none && o.n && o.tnone < o.first)
				r.none--;
			if (!o.n)
				return;
			r.values += o.n;
			r.procs++;
			if (!rate) {
				if (!r.haveMinmax || o.vmin < r.min)
					r.min = o.vmin;
				if (!r.haveMinmax || o.vmax > r.max)
					r.max = o.vmax;
				r.haveMinmax = true;
				msum += o.sum / o.n;
				nmean++;
				return;
			}
			r.total += o.sum;
			r.late += o.late;
			var rr = o.rr, lead = o.none && o.tnone < o.first;
			if (lead) {
				var lr = o.firstV / ((o.first - o.tnone) / 1e9);
				if (!rr.n || lr < rr.min)
					rr.min = lr;
				if (!rr.n || lr > rr.max)
					rr.max = lr;
				rr.n++;
			}
			if (rr.n) {
				if (!r.haveMinmax || rr.min < r.min)
					r.min = rr.min;
				if (!r.haveMinmax || rr.max > r.max)
					r.max = rr.max;
				r.haveMinmax = true;
			}
			if (lead) {
				msum += o.sum / ((o.last - o.tnone) / 1e9);
				nmean++;
			} else if (o.n >= 2 && o.last > o.first) {
				msum += (o.sum - o.firstV) / ((o.last - o.first) / 1e9);
				nmean++;
			}
		});
		if (nmean) {
			r.haveMean = true;
			r.mean = msum / nmean;
		}
		return r;
	}

	/* The table's rows for the selection, as html_chart.c msum_row()
	 * writes them: [{cells: [name, min, mean, max, total, values,
	 * processes], note}] a metric each. */
	function rows(d, procs, b0, b1) {
		return d.m.map(function (mt, mi) {
			var r = summary(d, mi, procs, b0, b1), u = mt.u;
			var total = '-';
			if (r.rate && r.values) {
				var tu = undivided(u);
				total = format(r.total * tu[1], tu[0]);
			}
			var note = '';
			if (r.none)
				note += 'no value at ' + r.none + ' sample time' +
					(r.none === 1 ? '' : 's') + '. ';
			if (r.late)
				note += r.late + ' value' + (r.late === 1 ? '' : 's') +
					' too far out of time order for min and max. ';
			if (r.errors)
				note += r.errors + ' error' + (r.errors === 1 ? '' : 's') +
					' (see Errors).';
			return {cells: [mt.name,
				r.haveMinmax ? format(r.min, u) : '-',
				r.haveMean ? format(r.mean, u) : '-',
				r.haveMinmax ? format(r.max, u) : '-',
				total, String(r.values), String(r.procs)], note: note};
		});
	}

	return {rows: rows, format: format, summary: summary, fold: fold,
		fixed: fixed};
})();
