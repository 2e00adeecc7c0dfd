#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# rates.sh: the rate mapsample achieves against the rate asked, per
# thread, over a grid of rates and thread counts (issue 13's target:
# within 5% on every thread, 100 Hz to 10 kHz, 1 to 64 threads).
# test/programs/threads8 runs N threads of the same fixed CPU work,
# enough for every thread to use at least MINP sampling periods of CPU
# time (default 40; about 1 ns per iteration here), since a thread
# loses up to one period at its end (the CPU time after its last
# overflow) and at its start (before its timer is armed), which no
# sampler avoids.  Printed per run: the threads kept (CPU time of MINP
# periods or more), the lowest and highest ratio of a thread's samples
# per CPU-second (the report's RATE column) to the rate asked, and the
# ratio pooled over the threads.
#
#   [TIMER=mixed|perf|posix] [MINP=N] test/bench/rates.sh [BUILD_DIR] [RATES] [THREADS]
#
# RATES and THREADS are lists in quotes (default "100 1000 10000" and
# "1 16 64").  A benchmark: exits 0 whatever it measures.
set -eu
b=$(cd "${1:-.}" && pwd)
rates=${2:-100 1000 10000}
threads=${3:-1 16 64}
minp=${MINP:-40}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
prog=$b/test/programs/threads8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cores=$(nproc)
timer=${TIMER:+--timer $TIMER}

echo "rates.sh: $cores cores, timer ${TIMER:-default}, threads with >= $minp periods of CPU"
printf '  %7s %7s %5s %9s %9s %9s\n' threads hz kept min max pooled
for th in $threads; do
	for hz in $rates; do
		# millions of iterations for minp periods of CPU, with some
		# to spare
		mil=$(awk -v h="$hz" -v p="$minp" 'BEGIN { m = int(1500 * p / h); print m < 20 ? 20 : m }')
		# shellcheck disable=SC2086
		"$ms" -q $timer -F "$hz" -o "$tmp/log" -- "$prog" "$mil" "$th" \
			>/dev/null 2>&1 || true
		"$mr" "$tmp/log" 2>/dev/null | sed -n '/^Threads/,/^$/p' |
			awk -v th="$th" -v hz="$hz" -v p="$minp" '
			$4 == "threads8" && $7 * hz >= p {
				n++; r = $8 / hz
				if (min == "" || r < min) min = r
				if (r > max) max = r
				s += $5; c += $7
			}
			END {
				if (!n) { printf "  %7d %7d %5d %9s %9s %9s\n", th, hz, 0, "-", "-", "-"; exit }
				printf "  %7d %7d %5d %9.3f %9.3f %9.3f\n", th, hz, n, min, max, s / c / hz
			}'
	done
done
