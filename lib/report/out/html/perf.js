/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perf.js: the performance summary of a selection on the HTML page, as
 * lib/report/summary.c makes it for mapreport --pid, --tid and --time:
 * from the selection's rows of the Ranks table (ranks.js selection():
 * per process its seconds, MPI, collective and I/O shares, compute
 * seconds and I/O bytes), the point-to-point calls of its processes'
 * MPI call statistics ("st-data", html_seltab.c), the run's wall-clock
 * seconds and its hottest function in the selection.  The verdict and
 * the advice are summary.c's sentences, printf's formats emulated
 * (mapreportMsel.fixed rounds ties to even as glibc does).  No page
 * state: narrow.js calls it.
 */
var mapreportPerf = (function () {
	'use strict';

	/* text cut as C's snprintf into a buffer of cap bytes (UTF-8)
	 * cuts it: at cap - 1 bytes, a character cut in its middle kept
	 * as far as it goes, which no page shows, so dropped */
	function cut(text, cap) {
		var out = '', n = 0;
		for (var i = 0; i < text.length; i++) {
			var c = text.codePointAt(i), b = c < 0x80 ? 1 : c < 0x800 ? 2 :
				c < 0x10000 ? 3 : 4;
			if (n + b > cap - 1)
				break;
			n += b;
			out += String.fromCodePoint(c);
			if (c >= 0x10000)
				i++;
		}
		return out;
	}

	function f(x, d) {
		return mapreportMsel.fixed(x, d);
	}

	/* printf("%.3g", x) */
	function g3(x) {
		if (x === 0)
			return '0';
		if (!isFinite(x))
			return String(x);
		var e = x.toExponential(2).split('e'), ex = Number(e[1]);
		if (ex < -4 || ex >= 3) {
			var m = e[0].replace(/\.?0+$/, '');
			return m + 'e' + (ex < 0 ? '-' : '+') + (Math.abs(ex) < 10 ? '0' : '') +
				Math.abs(ex);
		}
		var s = f(x, 2 - ex);
		return s.indexOf('.') >= 0 ? s.replace(/\.?0+$/, '') : s;
	}

	/* summary.c mb() */
	function mb(b) {
		if (b >= 1e9)
			return f(b / 1e9, 1) + ' GB';
		if (b >= 1e6)
			return f(b / 1e6, 1) + ' MB';
		if (b >= 1e3)
			return f(b / 1e3, 1) + ' kB';
		return f(b, 0) + ' B';
	}

	/*
	 * The summary of rows (ranks.js selection()'s), anyRank: the logs
	 * name MPI ranks, p2p: {calls, bytes} of the point-to-point calls,
	 * wall: the run's wall-clock seconds, top: the hottest function's
	 * name as the tables show it (or null) and topShare its share of
	 * the samples; sm: summary.h's thresholds ("rk-data"'s sm: bound,
	 * imbalance, small message, advice lines, bytes of a sentence).
	 * Returns {kind, verdict, seconds, wall, nprocs, mpiMetric,
	 * compute, mpi, io, advice: [text]}, as summary_make().
	 */
	function summary(rows, stats, anyRank, p2p, wall, top, topShare, sm) {
		var BOUND = sm[0], IMBALANCE = sm[1], SMALL_MSG = sm[2], ADVICE = sm[3],
			TEXT = sm[4];
		var who = anyRank ? 'rank' : 'process', whos = anyRank ? 'ranks' : 'processes';
		var t = {seconds: 0, mpi: 0, coll: 0, io: 0, read: 0, write: 0,
			haveBytes: false, mpiMetric: false};
		rows.forEach(function (r) {
			t.seconds += r.secs;
			t.mpi += r.secs * r.mpi;
			t.coll += r.secs * r.coll;
			t.io += r.secs * r.io;
			if (r.ioBytes) {
				t.read += r.ioBytes.read;
				t.write += r.ioBytes.write;
				t.haveBytes = t.haveBytes || r.ioBytes.have;
			}
			t.mpiMetric = t.mpiMetric || r.mpiMetric;
		});
		var s = {kind: 'none', seconds: t.seconds, wall: wall, nprocs: rows.length,
			mpiMetric: t.mpiMetric, compute: 0, mpi: 0, coll: 0, io: 0, advice: []};
		var advise = function (text) {
			if (s.advice.length < ADVICE)
				s.advice.push(cut(text, TEXT));
		};
		if (t.seconds <= 0) {
			s.verdict = 'No samples: nothing to summarise';
			return s;
		}
		s.mpi = t.mpi / t.seconds;
		s.coll = t.coll / t.seconds;
		s.io = t.io / t.seconds;
		s.compute = Math.max(1 - s.mpi - s.io, 0);
		var verdict = function (text) { s.verdict = cut(text, TEXT); };
		if (s.mpi >= BOUND && s.mpi >= s.io) {
			s.kind = 'mpi';
			verdict('MPI-bound: ' + f(s.mpi * 100, 1) + '% of time in MPI, ' +
				f(s.coll * 100, 1) + '% in collective calls');
		} else if (s.io >= BOUND) {
			s.kind = 'io';
			verdict('I/O-bound: ' + f(s.io * 100, 1) + '% of time in read/write ' +
				'calls, ' + f(s.compute * 100, 1) + '% in compute');
		} else {
			s.kind = 'compute';
			verdict('Compute-bound: ' + f(s.compute * 100, 1) + '% of time in ' +
				'compute, ' + f(s.mpi * 100, 1) + '% in MPI, ' + f(s.io * 100, 1) + '% in I/O');
		}
		/* advise_imbalance */
		if (rows.length >= 2 && stats.imbalance >= IMBALANCE) {
			var mx = stats.max, mean = stats.mean;
			advise('Load imbalance ' + f(stats.imbalance, 2) + ': ' + who + ' ' +
				stats.slowest + ' computes ' + g3(mx) + ' s against a mean of ' +
				g3(mean) + ' s over ' + rows.length + ' ' + whos + '; evening out ' +
				'the work would cut up to ' + f((1 - mean / mx) * 100, 0) +
				'% of the slowest ' + who + '\'s compute time');
		}
		/* advise_mpi */
		if (s.kind === 'mpi' && s.mpi > 0) {
			var cs = s.coll / s.mpi, per = p2p.calls ? p2p.bytes / p2p.calls : 0;
			if (cs < 0.5 && p2p.calls)
				advise(f((1 - cs) * 100, 0) + '% of the MPI time is in point-to-point ' +
					'calls (' + f((s.mpi - s.coll) * 100, 1) + '% of all time), which ' +
					'move ' + mb(per) + ' a call on average over ' + p2p.calls + ' calls' +
					(per < SMALL_MSG ? ': small messages, whose cost is the latency ' +
					 'of each; fewer, larger messages cut it' : '; non-blocking calls ' +
					 'overlapping compute hide it'));
			else if (cs < 0.5)
				advise(f((1 - cs) * 100, 0) + '% of the MPI time is in point-to-point ' +
					'calls (' + f((s.mpi - s.coll) * 100, 1) + '% of all time); ' +
					'non-blocking calls overlapping compute hide it');
			else
				advise(f(cs * 100, 0) + '% of the MPI time is in collective calls (' +
					f(s.coll * 100, 1) + '% of all time): ' + whos + ' with less work ' +
					'wait there for the others; fewer or non-blocking collectives ' +
					'overlap it with compute');
		}
		/* advise_io */
		if (s.io >= 0.10 && t.io > 0) {
			var topr = null;
			rows.forEach(function (r) {
				if (!topr || r.secs * r.io > topr.secs * topr.io)
					topr = r;
			});
			var part = topr.secs * topr.io / t.io;
			if (rows.length >= 2 && part >= 0.8)
				advise('I/O is done by one ' + who + ': ' + who + ' ' + topr.rank +
					' has ' + f(part * 100, 0) + '% of the job\'s I/O time (' +
					f(topr.io * 100, 1) + '% of its own time); spreading it over the ' +
					rows.length + ' ' + whos + ' (or parallel I/O) would shorten it');
			else if (t.haveBytes && s.seconds > 0)
				advise('I/O takes ' + f(s.io * 100, 1) + '% of the time, ' + mb(t.read) +
					' read and ' + mb(t.write) + ' written (' +
					f((t.read + t.write) / 1e6 / s.seconds, 1) + ' MB/s of the ' +
					f(s.seconds, 1) + ' s sampled); larger, fewer reads and writes ' +
					'cost less per byte');
			else
				advise('I/O takes ' + f(s.io * 100, 1) + '% of the time (' + f(t.io, 2) +
					' s in read/write calls); larger, fewer reads and writes cost ' +
					'less per byte');
		}
		if (s.kind === 'compute' && top && topShare > 0)
			advise('Compute is ' + f(s.compute * 100, 1) + '% of the time; the hottest ' +
				'function, ' + top + ', has ' + f(topShare * 100, 1) + '% of the ' +
				'samples: start there');
		return s;
	}

	/* The point-to-point calls and bytes of the processes procs (page
	 * numbers) in "st-data"'s MPI statistics (mp; null: none), as
	 * summary.c p2p_messages() adds them: per function over those
	 * processes, a function whose bytes are 0 left out. */
	function p2pOf(mp, procs) {
		var o = {calls: 0, bytes: 0};
		if (!mp || !mp.p2p)
			return o;
		var inSel = {}, calls = {}, bytes = {};
		mp.procs.forEach(function (p, r) {
			if (procs.indexOf(p[0]) >= 0)
				inSel[r] = true;
		});
		for (var j = 0; j < mp.v.length; j += 6) {
			var fn = mp.v[j];
			if (!inSel[mp.v[j + 1]])
				continue;
			calls[fn] = (calls[fn] || 0) + mp.v[j + 2];
			bytes[fn] = (bytes[fn] || 0) + mp.v[j + 4] + mp.v[j + 5];
		}
		mp.p2p.forEach(function (fn) {
			if (bytes[fn] > 0) {
				o.calls += calls[fn];
				o.bytes += bytes[fn];
			}
		});
		return o;
	}

	return {summary: summary, p2pOf: p2pOf, g3: g3};
})();
