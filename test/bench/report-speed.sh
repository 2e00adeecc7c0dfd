#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# report-speed.sh: mapreport on logs of about 10 million samples, side by
# side with perf report on a perf.data of about as many, on this machine.
# Not run by make check (it takes minutes and needs perf).
#
#   test/bench/report-speed.sh [BUILDDIR [WORKDIR]]
#
# BUILDDIR is a configured build tree (default: build/default beside this
# source tree); WORKDIR keeps the inputs between runs (default
# /tmp/report-speed), so only the first run records them:
#
#   xz.maplog       mapsample -F 20000 on xz -6 compressing 270 MB of
#                   base64 text until SECONDS_MAPSAMPLE (default 520) have
#                   passed: a real program, symbols from its libraries'
#                   tables, about 10 M samples, few distinct stacks.
#   xz-1m.maplog    its first tenth (a cut log: same stacks, a tenth of
#                   the samples), to show memory does not grow with them.
#   syn-10m.maplog  test/common/mklog -n 10000000 -p 4 -t 8 -k 5000: deep
#   syn-1m.maplog   stacks (8 to 32 frames), leaf addresses spread over
#                   functions: 300 k distinct stacks, the hard case.
#   perf.data       perf record -e cpu-clock -F 50000 -g on the same xz
#                   command until SECONDS_PERF (default 280) have passed:
#                   about 10 M samples (the count perf gave is in
#                   perf-record.txt).
#
# Then every report is timed with /usr/bin/time (wall and CPU seconds,
# largest resident set), output to /dev/null; mapreport cases are run
# REPEAT times (default 3) and the fastest is shown, perf report once.
# The last lines are the ratio of perf report's wall time to mapreport's
# text report on the xz logs, and that of mapreport --lines (the source
# view, issue 18's target: 1.5x at most) and --lines --disasm to it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top/build/default}
work=${2:-/tmp/report-speed}
repeat=${REPEAT:-3}
mapreport=$build/cmd/mapreport/mapreport
mapsample=$build/cmd/mapsample/mapsample
mklog=$build/test/common/mklog

die() {
	echo "report-speed.sh: $*" >&2
	exit 1
}

[ -x "$mapreport" ] && [ -x "$mapsample" ] && [ -x "$mklog" ] ||
	die "$build: no built mapreport, mapsample and test/common/mklog; build it first (make && make check TESTS=)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing: apt-get install time"
command -v perf >/dev/null 2>&1 || die "perf missing: apt-get install linux-perf"
command -v xz >/dev/null 2>&1 || die "xz missing: apt-get install xz-utils"
mkdir -p "$work"
cd "$work"

# ---- inputs ----
if [ ! -s input.txt ]; then
	echo "== making input.txt (200 MiB of random bytes as base64)"
	head -c 200M /dev/urandom | base64 >input.txt
fi
xzcmd="xz -T1 -6 -c input.txt"
if [ ! -s xz.maplog ]; then
	echo "== recording xz.maplog: mapsample -F 20000 -- $xzcmd (${SECONDS_MAPSAMPLE:-520} s)"
	timeout -s INT "${SECONDS_MAPSAMPLE:-520}" \
		"$mapsample" -F 20000 -o xz.maplog -- $xzcmd >/dev/null 2>mapsample.txt || true
	cat mapsample.txt
fi
if [ ! -s xz-1m.maplog ]; then
	size=$(wc -c <xz.maplog)
	head -c $((size / 10)) xz.maplog >xz-1m.maplog
fi
[ -s syn-10m.maplog ] || "$mklog" -n 10000000 -p 4 -t 8 -k 5000 syn-10m.maplog >/dev/null
[ -s syn-1m.maplog ] || "$mklog" -n 1000000 -p 4 -t 8 -k 5000 syn-1m.maplog >/dev/null
if [ ! -s perf.data ]; then
	echo "== recording perf.data: perf record -e cpu-clock -F 50000 -g -- $xzcmd (${SECONDS_PERF:-280} s)"
	perf record -e cpu-clock -F 50000 -g -m 16M -o perf.data -- \
		timeout -s INT "${SECONDS_PERF:-280}" $xzcmd >/dev/null 2>perf-record.txt || true
	cat perf-record.txt
fi

# samples LOG: the samples of a mapsample log, from mapreport's JSON report.
samples() {
	"$mapreport" -n 0 --no-progress --json "$1" 2>/dev/null |
		sed -n 's/^    "samples": \([0-9]*\),$/\1/p' | head -n 1
}

perf_samples() {
	n=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' perf-record.txt 2>/dev/null | tail -n 1)
	if [ -z "$n" ]; then
		n=$(perf script -i perf.data -F ip 2>/dev/null | wc -l)
	fi
	echo "$n"
}

# measure N KEY NAME SAMPLES COMMAND...: the fastest of N runs, one row;
# "KEY WALL" added to results.txt.
measure() {
	n=$1 key=$2 name=$3 count=$4
	shift 4
	best=
	for _ in $(seq "$n"); do
		/usr/bin/time -f '%e %U %S %M' -o time.txt "$@" >/dev/null 2>/dev/null || true
		line=$(tail -n 1 time.txt)
		if [ -z "$best" ] || [ "$(echo "$line $best" | awk '{print ($1 < $5)}')" = 1 ]; then
			best=$line
		fi
	done
	echo "$best" | awk -v name="$name" -v n="$count" '{
		printf "  %-34s %10s %8.2f %8.2f %8.0f\n", name, n, $1, $2 + $3, $4 / 1024 }'
	echo "$key $best" >>results.txt
}

: >results.txt
echo "== $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(perf --version)"
printf "  %-34s %10s %8s %8s %8s\n" REPORT SAMPLES WALL-S CPU-S MAXRSS-MB
xz10=$(samples xz.maplog)
xz1=$(samples xz-1m.maplog)
syn10=$(samples syn-10m.maplog)
syn1=$(samples syn-1m.maplog)
measure "$repeat" mr-xz "mapreport xz.maplog" "$xz10" "$mapreport" xz.maplog
measure "$repeat" mr-xz-html "mapreport --html xz.maplog" "$xz10" "$mapreport" --html out.html xz.maplog
measure "$repeat" mr-xz-json "mapreport --json xz.maplog" "$xz10" "$mapreport" --json xz.maplog
# the source view of the hottest functions, and with their instructions
measure "$repeat" mr-xz-lines "mapreport --lines xz.maplog" "$xz10" "$mapreport" --lines xz.maplog
measure "$repeat" mr-xz-disasm "mapreport --lines --disasm xz.maplog" "$xz10" "$mapreport" --lines --disasm xz.maplog
measure "$repeat" mr-xz1 "mapreport xz-1m.maplog" "$xz1" "$mapreport" xz-1m.maplog
measure "$repeat" mr-syn "mapreport syn-10m.maplog" "$syn10" "$mapreport" syn-10m.maplog
measure "$repeat" mr-syn-html "mapreport --html syn-10m.maplog" "$syn10" "$mapreport" --html out.html syn-10m.maplog
measure "$repeat" mr-syn1 "mapreport syn-1m.maplog" "$syn1" "$mapreport" syn-1m.maplog
ps=$(perf_samples)
measure 1 perf "perf report --stdio" "$ps" perf report --stdio -i perf.data
measure 1 perf-nc "perf report --stdio --no-children" "$ps" perf report --stdio --no-children -i perf.data
awk '{ t[$1] = $2 }
	END {
		if (t["mr-xz"] > 0)
			printf "== perf report / mapreport, wall time: %.0fx " \
			       "(--no-children: %.0fx); on the synthetic log: %.0fx\n",
			       t["perf"] / t["mr-xz"], t["perf-nc"] / t["mr-xz"],
			       t["perf"] / t["mr-syn"]
		if (t["mr-xz"] > 0)
			printf "== --lines / text report, wall time: %.2fx " \
			       "(target 1.5x); --lines --disasm: %.2fx\n",
			       t["mr-xz-lines"] / t["mr-xz"],
			       t["mr-xz-disasm"] / t["mr-xz"]
	}' results.txt
