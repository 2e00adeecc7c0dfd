#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# floor.sh: microseconds per sample for a bare signal handler, bare
# libunwind walks (step by step: unwind; the fast trace mapsample uses:
# trace) and mapsample, on a loop ten frames deep.  Runs the modes in
# alternating rounds and takes medians of the work's CPU time (the
# loop's own thread, so start-up and exit costs are left out); cost per
# sample = (median(mode) - median(bare)) / signals.  Target: mapsample
# at most 1.15x the libunwind floor, which is the cheaper of the two
# walks.
#
#   [CLOCK=wall|cpu] [RATE=HZ] test/bench/floor.sh [BUILD_DIR] [ROUNDS] [ITERATIONS]
#
# CLOCK=wall (default, RATE 10000): CLOCK_MONOTONIC timers, mapsample
# --wall: every signal has a timer interrupt of its own.
# CLOCK=cpu (RATE 250): the thread's CPU-time clock, mapsample's default
# mode: the signal rides the scheduler tick, which happens anyway; the
# rate is capped at the tick rate.  gperftools' libprofiler (setitimer
# ITIMER_PROF, also tick-driven) is measured too when it is installed.
set -eu
b=${1:-.}
rounds=${2:-7}
iters=${3:-300000000}
clock=${CLOCK:-wall}
case $clock in
wall) rate=${RATE:-10000}; msopt=--wall ;;
cpu) rate=${RATE:-250}; msopt= ;;
*) echo "floor.sh: CLOCK is wall or cpu" >&2; exit 2 ;;
esac
bf=$b/test/bench/bench_floor
ms=$b/cmd/mapsample/mapsample
gplib=$(ls /usr/lib/x86_64-linux-gnu/libprofiler.so.0 2>/dev/null || true)
modes="bare signal unwind trace mapsample"
[ "$clock" = cpu ] && [ -n "$gplib" ] && modes="$modes gperftools"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "clock=$clock rate=$rate rounds=$rounds iterations=$iters; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for m in $(echo $modes | tr ' ' '\n' | shuf); do
		case $m in
		mapsample)
			# shellcheck disable=SC2086
			"$ms" $msopt -F "$rate" -o "$tmp/f.maplog" -- "$bf" bare "$iters" >"$tmp/out" 2>"$tmp/err"
			n=$(sed -n 's/.* \([0-9][0-9]*\) samples .*/\1/p' "$tmp/err") ;;
		gperftools)
			env CPUPROFILE="$tmp/f.prof" CPUPROFILE_FREQUENCY="$rate" LD_PRELOAD="$gplib" \
				"$bf" bare "$iters" >"$tmp/out" 2>"$tmp/err"
			n=$(sed -n 's|^PROFILE: interrupts/evictions/bytes = \([0-9]*\)/.*|\1|p' "$tmp/err") ;;
		*)
			"$bf" $m "$iters" "$rate" "$clock" >"$tmp/out"
			n=$(field signals <"$tmp/out") ;;
		esac
		echo "$(field cpu_s <"$tmp/out") ${n:-0}" >>"$tmp/$m"
	done
done
bare=$(cut -d' ' -f1 "$tmp/bare" | median)
printf '%-10s %10s %9s %12s\n' mode cpu_s signals us/sample
printf '%-10s %10.4f %9s %12s\n' bare "$bare" - -
line=
for m in $modes; do
	[ $m = bare ] && continue
	t=$(cut -d' ' -f1 "$tmp/$m" | median)
	n=$(cut -d' ' -f2 "$tmp/$m" | median)
	us=$(awk -v t="$t" -v b="$bare" -v n="$n" 'BEGIN {printf "%.2f", n ? (t-b)/n*1e6 : 0}')
	eval "us_$m=$us"
	printf '%-10s %10.4f %9s %12s\n' $m "$t" "$n" "$us"
	line="$line $m=${us}us"
done
floor=$(awk -v a="$us_unwind" -v b="$us_trace" 'BEGIN {print (b < a ? b : a)}')
ratio=$(awk -v a="$us_mapsample" -v f="$floor" 'BEGIN {printf "%.2f", (f > 0 ? a/f : 0)}')
echo "floor ($clock, $rate Hz):$line ratio_to_floor=${ratio} (floor ${floor}us; target <= 1.15)"
