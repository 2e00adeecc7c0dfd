#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# loader-hangs: the sampler against the dynamic loader's lock at a high
# rate.  RUNS runs (default 1000) of test/programs/dlloop with three
# threads dlopening, calling and dlclosing a library and two threads
# burning CPU, under mapsample -F 10000; each run must end by itself in
# TIMEOUT seconds (default 60; a run takes about 1 s here).  A hang is
# the deadlock of libunwind's lock against the loader's lock (the
# sampler's stack walker warming up in a new thread, its map rescan).
# Prints "loader-hangs: H hangs and F failures in N runs (S s)" and exits
# 1 when H or F is not 0.  make check runs it at a small count
# (test/integration/mapsample-threads.sh); the full count is a benchmark:
#
#   test/bench/loader-hangs.sh BUILDDIR [RUNS [TIMEOUT]]
set -u

b=${1:?usage: loader-hangs.sh BUILDDIR [RUNS [TIMEOUT]]}
runs=${2:-1000}
limit=${3:-60}
mapsample=$b/cmd/mapsample/mapsample
dlloop=$b/test/programs/dlloop
lib=$b/test/programs/.libs/libdlwork.so
for f in "$mapsample" "$dlloop" "$lib"; do
	[ -e "$f" ] || { echo "loader-hangs: $f missing: run 'make check' first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

hangs=0
failures=0
start=$(date +%s)
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	timeout -k 5 "$limit" "$mapsample" -q -F 10000 -o "$tmp/run.log" -- \
		"$dlloop" "$lib" 300 200 0 3 </dev/null >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		hangs=$((hangs + 1))
		echo "loader-hangs: run $i still running after $limit s (a hang)" >&2
	elif [ "$rc" != 0 ]; then
		failures=$((failures + 1))
		echo "loader-hangs: run $i exited $rc:" >&2
		cat "$tmp/out" >&2
	fi
	rm -f "$tmp/run.log"
done
echo "loader-hangs: $hangs hangs and $failures failures in $runs runs ($(($(date +%s) - start)) s)"
[ "$hangs" = 0 ] && [ "$failures" = 0 ]
