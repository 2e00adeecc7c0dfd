#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# substrate-cost: what a substrate plugin that does nothing costs per
# sample.  Target (substrate plugins issue): per-sample cost within 5% of
# the cost without a plugin.
#
# The workload is test/programs/hot, fixed work (MILLIONS million loop
# iterations), run bare, under mapsample without a plugin, and under
# mapsample with the test plugin subtest in its noop mode (every event
# taken, nothing done: the ring copy in the handler, the dispatcher
# thread's decoding and calls), each ROUNDS times, interleaved, at RATE
# samples per second (perf task-clock events), --metrics none.  The CPU
# time (user + system) of the whole run, children included, comes from
# getrusage; per-sample cost = (run CPU - bare CPU) / samples, the median
# of the rounds; the summary line gives the ratio.  A second line gives
# the median over rounds of the difference of the two runs' CPU per
# sample, where the bare program's spread cancels.
#
# Usage (from the build tree, after make check TESTS=):
#   sh test/bench/substrate-cost.sh [BUILDDIR]
# Environment: ROUNDS (default 7), RATE (default 2000), MILLIONS
# (default 1500).
set -eu

b=$(cd "${1:-.}" && pwd)
ms=$b/cmd/mapsample/mapsample
prog=$b/test/programs/hot
plugin=$b/test/plugins/.libs/libmapsample_substrate_subtest.so
for f in "$ms" "$prog" "$plugin"; do
	[ -e "$f" ] || { echo "$f missing: run make check TESTS= first" >&2; exit 1; }
done
rounds=${ROUNDS:-7}
rate=${RATE:-2000}
millions=${MILLIONS:-1500}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# cpu CMD...: the CPU seconds (user + system) CMD and its children used
cpu() {
	python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r.ru_utime + r.ru_stime))' "$@"
}

samples() {
	"$b/cmd/mapreport/mapreport" --json "$1" | python3 -c \
		'import json,sys; print(json.load(sys.stdin)["summary"]["samples"])'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$tmp/none"
: >"$tmp/noop"
: >"$tmp/pair"
i=0
while [ $i -lt "$rounds" ]; do
	bare=$(cpu "$prog" "$millions")
	for mode in none noop; do
		rm -f "$tmp/run.maplog"
		if [ $mode = none ]; then
			c=$(cpu "$ms" -q -F "$rate" --timer perf --metrics none \
				-o "$tmp/run.maplog" -- "$prog" "$millions")
		else
			c=$(SUBTEST_MODE=noop cpu "$ms" -q -F "$rate" --timer perf \
				--metrics none --substrate "$plugin" \
				-o "$tmp/run.maplog" -- "$prog" "$millions")
		fi
		n=$(samples "$tmp/run.maplog")
		python3 -c "print((float('$c') - float('$bare')) * 1e9 / $n)" >>"$tmp/$mode"
		# the same round's two runs: the bare run's spread cancels
		if [ $mode = none ]; then
			c_none=$c n_none=$n
		else
			python3 -c "print(float('$c') * 1e9 / $n - float('$c_none') * 1e9 / $n_none)" >>"$tmp/pair"
		fi
		echo "round $i $mode: bare ${bare}s, run ${c}s, $n samples" >&2
	done
	i=$((i + 1))
done
a=$(median <"$tmp/none")
p=$(median <"$tmp/noop")
printf 'per-sample cost, median of %d rounds at %d Hz: no plugin %.0f ns, noop plugin %.0f ns, ratio %.3f\n' \
	"$rounds" "$rate" "$a" "$p" "$(python3 -c "print($p / $a)")"
printf 'paired per round (run CPU per sample, noop minus none): median %.0f ns\n' \
	"$(median <"$tmp/pair")"
