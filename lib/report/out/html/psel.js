/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * psel.js: the partial reports of the HTML page for a selection (some
 * processes, a range of time bins), from the page's elements "psel-data"
 * (lib/report/out/html_psel.c: the time cells of the metrics the reports
 * name, the reports' entries) and "msel-data" (every series' values per
 * bin).  evaluate() does what lib/report/partial_eval.c does with the
 * model of mapreport --pid ... --time FROM:TO on the bins' edges, step
 * for step and in the same order of additions, so the figures are that
 * report's: (1) bins chosen for the selection's values, (2) the time
 * cells put in them, (3) each process's value per bin, (4) sampleValue
 * across processes, aggregation across bins; then the bars of each
 * group.  Numbers are formatted by mapreportMsel.format (units.c's
 * rules).  No page state: narrow.js calls it.
 */
var mapreportPsel = (function () {
	'use strict';

	/* defs/partial.h */
	var MAX_BINS = 1000, MAX_CELLS = 1048576;

	/* msel-data's bin fields (html_msel.c write_cell) */
	var B = 0, N = 1, TF = 5, TL = 7;

	/* psel-data's time-cell fields (html_psel.c series()) */
	var LO = 0, MINT = 1, MAXT = 2, CN = 3, CSUM = 4, CMINV = 5, HI = 6;

	/* floor(a / b) of integers below 2^53, exactly */
	function idiv(a, b) {
		var q = Math.floor(a / b);
		if (q * b > a)
			q--;
		else if ((q + 1) * b <= a)
			q++;
		return q;
	}

	/* partial_eval.c bin_of() */
	function binOf(e, ts) {
		if (ts < e.t0)
			return 0;
		var d = ts - e.t0, q = idiv(d, e.w);
		return q + (d - q * e.w >= idiv(e.w + 1, 2) ? 1 : 0);
	}

	function cellsFor(e, slots, w) {
		var save = e.w, n = 0;
		e.w = w;
		slots.forEach(function (s) {
			n += binOf(e, s.last) - binOf(e, s.first) + 1;
		});
		e.w = save;
		return n;
	}

	/* Step 1 (choose_bins): from the selection's count, earliest and
	 * latest value of every series (st); null when it has none */
	function chooseBins(st, slots) {
		var t0 = Infinity, t1 = 0, iv = [];
		st.forEach(function (s) {
			if (s.first < t0)
				t0 = s.first;
			if (s.last > t1)
				t1 = s.last;
			if (s.n >= 2 && s.last > s.first)
				iv.push(idiv(s.last - s.first, s.n - 1));
		});
		if (t0 === Infinity)
			return null;
		var interval = 0;
		if (iv.length) {
			iv.sort(function (a, b) { return a - b; });
			interval = iv[iv.length >> 1];
		}
		var span = t1 - t0, wmax = 2 * span + 1, w;
		if (interval) {
			w = interval;
			var least = idiv(span + MAX_BINS - 2, MAX_BINS - 1);
			if (w < least)
				w = least;
		} else {
			w = wmax;
		}
		if (!w)
			w = 1;
		var e = {t0: t0, w: w, interval: interval};
		while (w < wmax && cellsFor(e, slots, w) > MAX_CELLS)
			w = w > idiv(wmax, 2) ? wmax : w * 2;
		e.w = w;
		e.nbins = binOf(e, t1) + 1;
		return e;
	}

	/* Step 3 (fold_slot): slot s's values per bin into its metric's
	 * accumulators acc (by bin) and process count */
	function foldSlot(s, acc) {
		var c = s.cells, span = c.length, val = new Array(span);
		var havePrev = false, prev = 0, first = -1, last = 0, i;
		for (i = 0; i < span; i++) {
			val[i] = NaN;
			if (!c[i].n)
				continue;
			if (!s.rate)
				val[i] = c[i].sum / c[i].n;
			else if (havePrev)
				val[i] = c[i].sum / ((c[i].max - prev) / 1e9);
			else if (c[i].n >= 2 && c[i].max > c[i].min)
				val[i] = (c[i].sum - c[i].minv) / ((c[i].max - c[i].min) / 1e9);
			if (s.rate) {
				havePrev = true;
				prev = c[i].max;
			}
			if (!isNaN(val[i])) {
				if (first < 0)
					first = i;
				last = i;
			}
		}
		if (first < 0)
			return;
		var next = val[last];
		for (i = last; i-- > first;) {
			if (isNaN(val[i]))
				val[i] = next;
			else
				next = val[i];
		}
		acc.procs++;
		for (i = first; i <= last; i++) {
			var a = acc.bins[s.b0 + i];
			if (!a) {
				a = acc.bins[s.b0 + i] = {n: 0, sum: 0, min: 0, max: 0};
			}
			if (!a.n || val[i] < a.min)
				a.min = val[i];
			if (!a.n || val[i] > a.max)
				a.max = val[i];
			a.sum += val[i];
			a.n++;
		}
	}

	/* Step 4 (combine): {v, bins} or null */
	function combine(acc, nbins, sv, ag) {
		var r = 0, n = 0;
		for (var b = 0; b < nbins; b++) {
			var a = acc.bins[b];
			if (!a || !a.n)
				continue;
			var x = sv === 'min' ? a.min : sv === 'max' ? a.max :
				sv === 'sum' ? a.sum : a.sum / a.n;
			if (!n)
				r = x;
			else if (ag === 'min')
				r = x < r ? x : r;
			else if (ag === 'max')
				r = x > r ? x : r;
			else
				r += x;
			n++;
		}
		if (!n)
			return null;
		return {v: ag === 'mean' ? r / n : r, bins: n};
	}

	/* The reports of the selection: processes procs (page numbers;
	 * null: all) and bins [b0, b1) of the page.  pd: "psel-data", ms:
	 * "msel-data".  Returns {reports: [[[entry]]] as pd.r, each entry
	 * {state, value, text, bar, bins, procs}; nbins, binNs: the bins
	 * of step 1 (0 when no value); approx: a time cell crosses the
	 * range's edge}. */
	function evaluate(pd, ms, procs, b0, b1) {
		var want = function (p) { return !procs || procs.indexOf(p) >= 0; };
		var ref = {}, rate = {};
		pd.refs.forEach(function (mi) { ref[mi] = true; });
		ms.m.forEach(function (mt, mi) { rate[mi] = !!mt.rate; });
		/* every series' count and extent in the selection */
		var st = [];
		ms.s.forEach(function (s) {
			if (!want(s.p))
				return;
			var o = {n: 0, first: 0, last: 0};
			s.b.forEach(function (c) {
				if (c[B] < b0 || c[B] >= b1 || !c[N])
					return;
				if (!o.n || c[TF] < o.first)
					o.first = c[TF];
				if (!o.n || c[TL] > o.last)
					o.last = c[TL];
				o.n += c[N];
			});
			if (o.n)
				st.push(o);
		});
		/* the slots: the named metrics' series with time cells in
		 * the selection, in the model's order */
		var slots = [], approx = false;
		pd.s.forEach(function (s) {
			if (!want(s.p))
				return;
			var kept = [];
			s.c.forEach(function (c) {
				var hi = c.length > HI ? c[HI] : c[LO];
				var inLo = c[LO] >= b0 && c[LO] < b1, inHi = hi >= b0 && hi < b1;
				if (inLo !== inHi)
					approx = true;
				var mid = c[MINT] + Math.floor((c[MAXT] - c[MINT]) / 2);
				/* a time cell across an edge: by its middle's bin,
				 * taken as its nearer end's */
				var take = inLo === inHi ? inLo :
					(mid - c[MINT] <= c[MAXT] - mid ? inLo : inHi);
				if (take)
					kept.push(c);
			});
			if (!kept.length)
				return;
			slots.push({m: s.m, rate: rate[s.m], cells: kept,
				first: kept.reduce(function (a, c) { return Math.min(a, c[MINT]); }, Infinity),
				last: kept.reduce(function (a, c) { return Math.max(a, c[MAXT]); }, 0)});
		});
		var e = chooseBins(st, slots);
		var accs = {};
		if (e) {
			slots.forEach(function (s) {
				s.b0 = binOf(e, s.first);
				s.b1 = binOf(e, s.last);
				var bins = [];
				for (var i = 0; i <= s.b1 - s.b0; i++)
					bins.push({n: 0, sum: 0, min: 0, max: 0, minv: 0});
				/* step 2 (fill_slot) */
				s.cells.forEach(function (t) {
					var b = binOf(e, t[MINT] + Math.floor((t[MAXT] - t[MINT]) / 2));
					b = b < s.b0 ? s.b0 : b > s.b1 ? s.b1 : b;
					var c = bins[b - s.b0];
					if (!c.n || t[MINT] < c.min) {
						c.min = t[MINT];
						c.minv = t[CMINV];
					}
					if (!c.n || t[MAXT] > c.max)
						c.max = t[MAXT];
					c.sum += t[CSUM];
					c.n += t[CN];
				});
				s.cells = bins;
				if (!accs[s.m])
					accs[s.m] = {procs: 0, bins: {}};
				foldSlot(s, accs[s.m]);
			});
		}
		var out = pd.r.map(function (rep) {
			var ents = rep.map(function (ss) {
				return ss.map(function (en) {
					var o = {state: en.rec ? 'no-value' : 'not-recorded',
						value: null, bar: -1, bins: 0, procs: 0,
						text: en.rec ? 'no value in this run' :
							'not recorded in this run'};
					var c = en.rec && e && accs[en.m] ?
						combine(accs[en.m], e.nbins, en.sv, en.ag) : null;
					if (c) {
						o.state = 'value';
						o.value = c.v;
						o.bins = c.bins;
						o.procs = accs[en.m].procs;
						o.text = mapreportMsel.format(c.v, en.u);
					}
					return o;
				});
			});
			/* set_bars */
			rep.forEach(function (ss, j) {
				ss.forEach(function (en, k) {
					var o = ents[j][k];
					if (en.g === null || o.state !== 'value')
						return;
					var max = 0;
					rep.forEach(function (ss2, jj) {
						ss2.forEach(function (en2, kk) {
							var o2 = ents[jj][kk];
							if (en2.g !== null && o2.state === 'value' &&
							    en2.g === en.g && o2.value > max)
								max = o2.value;
						});
					});
					o.bar = max > 0 && o.value > 0 ? o.value / max : 0;
				});
			});
			return ents;
		});
		return {reports: out, nbins: e ? e.nbins : 0, binNs: e ? e.w : 0,
			interval: e ? e.interval : 0, approx: approx};
	}

	return {evaluate: evaluate};
})();
