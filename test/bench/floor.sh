#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# floor.sh: microseconds per sample at 10 kHz of wall-clock sampling, for
# a bare signal handler, bare libunwind walks (step by step: unwind; the
# fast trace mapsample uses: trace) and mapsample --wall.  Runs the modes
# in alternating rounds and takes medians of the work's CPU time; cost per
# sample = (median(mode) - median(bare)) / signals.  Target: mapsample at
# most 1.15x the libunwind floor, which is the cheaper of the two walks.
#
#   test/bench/floor.sh [BUILD_DIR] [ROUNDS] [ITERATIONS]
set -eu
b=${1:-.}
rounds=${2:-7}
iters=${3:-300000000}
rate=10000
bf=$b/test/bench/bench_floor
ms=$b/cmd/mapsample/mapsample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

for r in $(seq "$rounds"); do
	for m in bare signal unwind trace mapsample; do
		if [ $m = mapsample ]; then
			"$ms" --wall -F $rate -o "$tmp/f.maplog" -- "$bf" bare "$iters" >"$tmp/out" 2>"$tmp/err"
			n=$(sed -n 's/.* \([0-9][0-9]*\) samples .*/\1/p' "$tmp/err")
		else
			"$bf" $m "$iters" $rate >"$tmp/out"
			n=$(field signals <"$tmp/out")
		fi
		echo "$(field cpu_s <"$tmp/out") $n" >>"$tmp/$m"
	done
done
bare=$(cut -d' ' -f1 "$tmp/bare" | median)
printf '%-10s %10s %9s %12s\n' mode cpu_s signals us/sample
printf '%-10s %10.4f %9s %12s\n' bare "$bare" - -
for m in signal unwind trace mapsample; do
	t=$(cut -d' ' -f1 "$tmp/$m" | median)
	n=$(cut -d' ' -f2 "$tmp/$m" | median)
	us=$(awk -v t="$t" -v b="$bare" -v n="$n" 'BEGIN {printf "%.2f", n ? (t-b)/n*1e6 : 0}')
	eval "us_$m=$us"
	printf '%-10s %10.4f %9s %12s\n' $m "$t" "$n" "$us"
done
floor=$(awk -v a="$us_unwind" -v b="$us_trace" 'BEGIN {print (b < a ? b : a)}')
ratio=$(awk -v a="$us_mapsample" -v f="$floor" 'BEGIN {printf "%.2f", (f > 0 ? a/f : 0)}')
echo "floor: signal=${us_signal}us unwind=${us_unwind}us trace=${us_trace}us mapsample=${us_mapsample}us ratio_to_floor=${ratio} (floor ${floor}us; target <= 1.15)"
