#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-forkdl: a program that forks while another of its threads
# dlopens and dlcloses a library (test/programs/forkdl.c).  A fork can
# land while that thread holds the dynamic loader's lock; in the child
# nobody releases it, so the sampler must not take it there (its list
# of loaded objects comes from its snapshot until the child loads
# something itself).  Before that was so, the first child or one of the
# next hung in dl_iterate_phdr, 3 runs of 3.  Here: 100 children at the
# default rate and 100 at 2 kHz, each run ends (60 s timeout), every
# child exits 0 and is in the report.
#
# Then libunwind's locks: a stack walk of another thread that holds one
# at the fork leaves it held for ever in the child, whose first walk
# waits there.  The sampling handlers are waited for before a fork; the
# walk a new thread makes at its start (the sampler's warm-up, outside
# the handler) was not, and forkdl's first fork meets its loading thread
# starting.  That window is a few microseconds (about 1 hang in 100
# runs with a substrate plugin, which shifts the fork's timing), so
# liblockwiden, preloaded, holds every lock libunwind takes 1 ms longer:
# 21 hangs in 50 runs before the warm-up was waited for.  Here: 8 runs
# of forkdl with 2 children with the substrate test plugin and 8
# without, at 2 kHz; each must end (20 s timeout) with every child's exit
# 0.
#
# Then a thread's end: the destructor of libunwind's per-thread cache
# gives the cache back to a pool under the pool's lock, at the exit of
# every thread that took a fast trace; a fork then left that lock held in
# the child, whose next new thread hung in its warm-up walk.  forkthreads
# forks 30 times while another thread starts and ends threads, and each
# child starts one: with liblockwiden, every run of 6 hung before the
# destructor ran as a walk the fork waits for.  Here: 3 runs, each must
# end (30 s) with every child's exit 0.
#
# A hang is reported with where every thread of every process waited
# (watch.py).
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs forkdl forkthreads
LC_ALL=C
export LC_ALL

lib=$top_builddir/test/programs/.libs/libdlwork.so
[ -f "$lib" ] || fail "$lib missing: run 'make check' first"

for rate in default 2000; do
	opt=
	[ "$rate" = default ] || opt="-F $rate"
	set +e
	# shellcheck disable=SC2086
	watch 60 "$tmp/hang" "$mapsample" -q -o "$tmp/f$rate.log" $opt -- \
		"$programs/forkdl" "$lib" 100 </dev/null >"$tmp/f.out" 2>"$tmp/f.err"
	rc=$?
	set -e
	[ "$rc" != 124 ] ||
		{ show "$tmp/f.err" "$tmp/hang"; fail "rate $rate: hung (a fork child stuck on the loader's lock?  where each thread waited: above)"; }
	[ "$rc" = 0 ] || { show "$tmp/f.err"; fail "rate $rate: exit $rc"; }
	grep -q '^forkdl 100 children$' "$tmp/f.err" ||
		{ show "$tmp/f.err"; fail "rate $rate: program output lost"; }
	"$mapreport" --json "$tmp/f$rate.log" >"$tmp/f.json" 2>"$tmp/f.rerr" ||
		{ show "$tmp/f.rerr"; fail "rate $rate: mapreport failed"; }
	/usr/bin/python3 - "$tmp/f.json" <<'PY' || fail "rate $rate: report"
import json, sys
r = json.load(open(sys.argv[1]))
procs = r["processes"]
if len(procs) != 101:
    sys.exit("expected 101 processes, found %d" % len(procs))
parent = procs[0]["pid"]
kids = [p for p in procs[1:] if p["ppid"] == parent]
if len(kids) != 100:
    sys.exit("expected 100 children of %d, found %d" % (parent, len(kids)))
bad = [p for p in procs if p.get("exit") != {"how": "status", "code": 0}]
if bad:
    sys.exit("processes not ending with status 0: %r" % bad[:3])
PY
done

widen=$top_builddir/test/programs/.libs/liblockwiden.so
sub=$top_builddir/test/plugins/.libs/libmapsample_substrate_subtest.so
[ -f "$widen" ] || fail "$widen missing: run 'make check' first"
[ -f "$sub" ] || fail "$sub missing: run 'make check' first"
# LD_PRELOAD reaches the launcher too, which in a sanitizer build must
# then allow its ASan runtime not to come first
saved_asan=${ASAN_OPTIONS-}

# widened RUNS LIMIT WHAT SUSPECT [MAPSAMPLE-OPTIONS] -- PROGRAM ARGS...:
# RUNS runs of PROGRAM under mapsample -F 2000 with liblockwiden; each
# must end within LIMIT seconds (else where every thread waited, and
# SUSPECT, the likely lock), exit 0 and print "NAME N children".
widened() {
	runs=$1 limit=$2 what=$3 suspect=$4
	shift 4
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		rm -f "$tmp/w.log"*
		set +e
		watch "$limit" "$tmp/hang" env LD_PRELOAD="$widen" LOCKWIDEN_US=1000 \
			ASAN_OPTIONS="${saved_asan:+$saved_asan:}verify_asan_link_order=0" \
			SUBTEST_MODE=order SUBTEST_OUT="$tmp/sub.out" \
			"$mapsample" -q -o "$tmp/w.log" -F 2000 "$@" \
			</dev/null >"$tmp/w.out" 2>"$tmp/w.err"
		rc=$?
		set -e
		[ "$rc" != 124 ] ||
			{ show "$tmp/w.err" "$tmp/hang"; fail "$what run $i: hung ($suspect?  where each thread waited: above)"; }
		[ "$rc" = 0 ] || { show "$tmp/w.err"; fail "$what run $i: exit $rc"; }
		grep -q "^[a-z]* [0-9]* children\$" "$tmp/w.err" ||
			{ show "$tmp/w.err"; fail "$what run $i: program output lost"; }
	done
}

held="a fork child waiting on a lock of libunwind's held at the fork"
widened 8 20 substrate "$held" --substrate "$sub" -- "$programs/forkdl" "$lib" 2
widened 8 20 plain "$held" -- "$programs/forkdl" "$lib" 2
widened 3 30 forkthreads "a fork child's new thread waiting on a lock a parent's ending thread held" \
	-- "$programs/forkthreads" 30
if [ -f "$tmp/sub.out" ] && grep -v ' errors=0 ' "$tmp/sub.out" >&2; then
	fail "the substrate test plugin saw errors (above)"
fi
echo "PASS: mapsample-forkdl"
