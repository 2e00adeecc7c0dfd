#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# metrics-cost: what the default metric set costs per stack sample, in
# situ.  With MAPSAMPLE_METRICS_COST=1 each sampled process prints, at its
# end, the CPU time its metric samples took (measured around each one with
# the thread's CPU clock) and the stack samples it took; the cost per
# stack sample is their ratio.  Target (metric plugins issue): at most
# 1000 ns per sample on top of stack sampling, for the default set at the
# default rates (250 Hz, --metric-interval 100), in the process that also
# reads the node (onePerNode) metrics.
#
# Workloads: test/programs/cpuburn (one thread, the worst case: fewest
# stack samples per metric sample) and threadsrun (16 threads), each
# ROUNDS times; per workload and interval the median of the rounds.
#
# Usage (from the build tree, after make check TESTS=):
#   sh test/bench/metrics-cost.sh [BUILDDIR]
# Environment: ROUNDS (default 5), INTERVALS (default "20 50 100"),
# METRICS (default "default").
set -eu

b=$(cd "${1:-.}" && pwd)
ms=$b/cmd/mapsample/mapsample
for p in cpuburn threadsrun; do
	[ -x "$b/test/programs/$p" ] ||
		{ echo "$b/test/programs/$p missing: run make check TESTS= first" >&2; exit 1; }
done
rounds=${ROUNDS:-5}
intervals=${INTERVALS:-20 50 100}
metrics=${METRICS:-default}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-22s %8s %8s %10s %10s %12s\n' workload interval ticks samples "ns/tick" "ns/sample"
for w in "cpuburn 3000" "threadsrun 16 3"; do
	for iv in $intervals; do
		: >"$tmp/r"
		for r in $(seq "$rounds"); do
			# shellcheck disable=SC2086
			MAPSAMPLE_METRICS_COST=1 "$ms" -q -o "$tmp/l" --metrics "$metrics" \
				--metric-interval "$iv" -- "$b/test/programs/"$w \
				2>"$tmp/e" >/dev/null
			awk '/metrics cost:/ && / node 1/ {
				for (i = 1; i <= NF; i++) {
					if ($i == "ticks") t = $(i + 1)
					if ($i == "cpu_ns") c = $(i + 1)
					if ($i == "samples") s = $(i + 1) }
				if (s > 0) printf "%.0f %d %d %.0f\n", c / s, t, s, c / t }' \
				"$tmp/e" >>"$tmp/r"
		done
		per=$(cut -d' ' -f1 "$tmp/r" | median)
		ticks=$(cut -d' ' -f2 "$tmp/r" | median)
		samples=$(cut -d' ' -f3 "$tmp/r" | median)
		tick=$(cut -d' ' -f4 "$tmp/r" | median)
		printf '%-22s %6s ms %8s %10s %10s %12s\n' "$w" "$iv" "$ticks" \
			"$samples" "$tick" "$per"
	done
done
echo "target: ns/sample <= 1000 at the default interval (100 ms)"
