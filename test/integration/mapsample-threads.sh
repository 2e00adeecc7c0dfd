#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample on multi-threaded programs.  test/programs/threads8 runs eight
# threads with the same fixed CPU work: each must be in the Threads table
# with samples, and their rates (samples per second of the thread's own
# CPU time, the Threads table's RATE) must be within 10% of each other
# ((max - min) / mean <= 0.10), which fails if the sampler misses or
# favours threads.  Their sample counts are not compared: the same
# work does not take the same CPU time on every thread of a shared
# machine (a CI run had 412 to 463 samples per worker, a 12% spread,
# with the run at 1002 samples per CPU-second).  test/programs/dlloop dlopens, calls and dlcloses
# libdlwork 200 times on one thread while two others burn, at 4000 Hz:
# it must finish (no deadlock between the unwinder and the loader) and
# dlwork_burn, a function of the dlopened library, must be named in the
# report with main (through loader) as its caller; and again with threads starting and
# ending all the while (dlloop's SPAWN), 20 runs at 10 kHz.
# test/programs/phdrthread starts a thread while it holds the loader's
# lock: the sampler's set-up of the new thread must not wait for that lock
# (it did: with a dlopen on another thread and a sample landing in it,
# that was a deadlock, about 2 runs in 300 of the SPAWN case).  Last,
# test/bench/loader-hangs.sh at 10 runs: three threads dlopening and
# dlclosing, two burning, at 10 kHz (its full count is a benchmark).  The
# time limits (watch.py) report where every thread waited, then kill with
# SIGKILL: a deadlocked sampler does not die of SIGTERM, and a hang must
# fail the test, not stop it.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

test_threads8() {
	sample t8 -F 1000 -- "$programs/threads8" 250
	[ "$rc" = 0 ] || { show "$tmp/t8.err"; fail "threads8: mapsample exited $rc"; }
	report t8
	pid=$(processes t8 | awk 'NR == 1 { print $1 }')
	# the workers: every thread but the main one (tid = pid)
	threads t8 | awk -v pid="$pid" '$1 == pid && $2 != pid' >"$tmp/workers"
	nw=$(wc -l <"$tmp/workers")
	[ "$nw" = 8 ] || {
		show "$tmp/t8.report"
		fail "threads8: $nw worker threads in the Threads table, expected 8"
	}
	# about 0.25 s of CPU each at 1000 Hz: some 250 samples each (60
	# with POSIX timers, which fire on the 250 Hz tick)
	awk '{ n++; s += $5; if (n == 1 || $5 < min) min = $5
		if ($5 > max) max = $5
		if (n == 1 || $3 < mins) mins = $3 }
		END { mean = s / n
		      printf "rates: min %.1f max %.1f mean %.1f spread %.3f;", min, max,
			  mean, mean ? (max - min) / mean : 1
		      printf " fewest samples %d\n", mins
		      exit !(mins >= 20 && (max - min) / mean <= 0.10) }' \
		"$tmp/workers" >"$tmp/spread" || {
		show "$tmp/t8.report"
		fail "threads8: worker rates not within 10% of each other: $(cat "$tmp/spread")"
	}
	first=$(first_self t8)
	[ "$first" = worker_burn ] || {
		show "$tmp/t8.report"
		fail "threads8: '$first' leads the self table, not worker_burn"
	}
}

test_dlopen_loop() {
	lib=$programs/.libs/libdlwork.so
	[ -f "$lib" ] || fail "$lib missing: run 'make check' first"
	set +e
	watch 120 "$tmp/hang" env MAPSAMPLE_UNWIND=fast "$mapsample" -q -F 4000 \
		-o "$tmp/dl.log" -- "$programs/dlloop" "$lib" 200 2000 \
		</dev/null >"$tmp/dl.out" 2>"$tmp/dl.err"
	rc=$?
	set -e
	[ "$rc" != 124 ] ||
		{ show "$tmp/hang"; fail "dlloop: still running after 120 s (a hang; where each thread waited: above)"; }
	[ "$rc" = 0 ] || { show "$tmp/dl.out" "$tmp/dl.err"; fail "dlloop: mapsample exited $rc"; }
	report dl
	self=$(func_self dl dlwork_burn)
	[ "$self" -gt 0 ] || {
		show "$tmp/dl.report"
		fail "dlloop: dlwork_burn (in the dlopened library) is not in the report"
	}
	# the fast trace's cache cannot be flushed: after a dlclose, the
	# sampler must walk with unw_step
	step=$(sed -n 's/^mapsample: stack walks: pid [0-9]* fast [0-9]* step \([0-9]*\)$/\1/p' "$tmp/dl.err")
	[ "${step:-0}" -gt 0 ] || {
		show "$tmp/dl.err"
		fail "dlloop: no sample took the step walk after dlclose"
	}
	report dl --folded
	grep -q ';main;loader;dlwork_burn [0-9]*$' "$tmp/dl.report" || {
		show "$tmp/dl.report"
		fail "dlloop: no stack from main through loader into dlwork_burn"
	}
}

test_thread_start_in_loader_lock() {
	set +e
	watch 60 "$tmp/hang" env MAPSAMPLE_UNWIND=fast "$mapsample" -q -F 1000 \
		-o "$tmp/pt.log" -- "$programs/phdrthread" \
		</dev/null >"$tmp/pt.out" 2>"$tmp/pt.err"
	rc=$?
	set -e
	[ "$rc" != 124 ] ||
		{ show "$tmp/hang"; fail "phdrthread: still running after 60 s (the new thread's set-up waits for the loader lock?  where each thread waited: above)"; }
	[ "$rc" = 0 ] || { show "$tmp/pt.out" "$tmp/pt.err"; fail "phdrthread: mapsample exited $rc"; }
}

test_dlopen_spawn() {
	lib=$programs/.libs/libdlwork.so
	i=0
	while [ $i -lt 20 ]; do
		set +e
		watch 60 "$tmp/hang" env MAPSAMPLE_UNWIND=fast "$mapsample" -q -F 10000 \
			-o "$tmp/ds.log" -- "$programs/dlloop" "$lib" 400 200 1 \
			</dev/null >"$tmp/ds.out" 2>"$tmp/ds.err"
		rc=$?
		set -e
		[ "$rc" != 124 ] ||
			{ show "$tmp/hang"; fail "dlloop with threads starting: run $i still running after 60 s (a hang; where each thread waited: above)"; }
		[ "$rc" = 0 ] || { show "$tmp/ds.out" "$tmp/ds.err"; fail "dlloop with threads starting: run $i: mapsample exited $rc"; }
		i=$((i + 1))
	done
}

need_programs threads8 dlloop phdrthread
# Three threads dlopening and dlclosing, two burning, at 10 kHz: the
# benchmark test/bench/loader-hangs.sh at 10 runs (its full count, 1000,
# is a benchmark).
test_loader_hangs() {
	sh "$top_srcdir/test/bench/loader-hangs.sh" "$top_builddir" 10 60 \
		>"$tmp/lh.out" 2>&1 || { show "$tmp/lh.out"; fail "loader-hangs"; }
	echo "ok - $(tail -n 1 "$tmp/lh.out")"
}

test_threads8
test_dlopen_loop
test_thread_start_in_loader_lock
test_dlopen_spawn
test_loader_hangs
echo "mapsample-threads: all cases passed"
