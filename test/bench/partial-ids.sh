#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# partial-ids.sh: how mapreport's reading of a partial report grows with
# the number of its dotted ids.  The definition's ids must not be
# substrings of each other (the Arm MAP template, section 3.4.3), a
# check that compares pairs of ids, and a file holds at most 4096 report
# metrics (more are refused with one line); a definition of 4000 ids
# once took 10 s.  For N in 512 1024 2048 4096 it writes a partial
# report of N report metrics (one entry each), runs `mapreport
# --partial-report` on one small log and prints the CPU seconds (user +
# system of mapreport) and the ratio of each to the one before: about 2
# when the reading grows with N, about 4 when it grows with N squared.
# Exits 1 when mapreport fails or leaves report metrics out.
#
#   test/bench/partial-ids.sh [BUILD_DIR]
set -eu
b=${1:-.}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
prog=$b/test/programs/hot
for x in "$ms" "$mr" "$prog"; do
	[ -x "$x" ] || { echo "partial-ids.sh: no $x: give the build folder after make check" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ms" -q -o "$tmp/r.log" -- "$prog" </dev/null >/dev/null 2>&1

# def N: a partial report of N report metrics into $tmp/N.xml
def() {
	awk -v n="$1" 'BEGIN {
		print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
		print "<partialReport name=\"org.example.big\" xmlns=\"http://www.allinea.com/2016/AllineaReports\">"
		print "<reportMetrics>"
		for (i = 0; i < n; i++)
			printf "<reportMetric id=\"org.example.m%05dx\" displayName=\"M %d\" units=\"%%\" source=\"metric\"><sourceDetails metricRef=\"com.mapsample.metrics.cpu.user\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n", i, i
		print "</reportMetrics><subsections><subsection id=\"s\" heading=\"S\">"
		for (i = 0; i < n; i++)
			printf "<entry reportMetric=\"org.example.m%05dx\" group=\"g\"/>\n", i
		print "</subsection></subsections></partialReport>"
	}' >"$tmp/$1.xml"
}

prev=
for n in 512 1024 2048 4096; do
	def "$n"
	# CPU seconds of the child, from the shell's times builtin
	t=$( (
		"$mr" --partial-report "$tmp/$n.xml" "$tmp/r.log" >"$tmp/out" 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		times
	) | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
			   print u[1] * 60 + u[2] + s[1] * 60 + s[2] }') ||
		{ echo "partial-ids.sh: mapreport failed on $n ids" >&2; exit 1; }
	[ "$(grep -c '^ *M [0-9]' "$tmp/out")" -ge "$n" ] ||
		{ echo "partial-ids.sh: $n ids: the report does not show them all" >&2; exit 1; }
	if [ -n "$prev" ]; then
		r=$(awk -v a="$prev" -v b="$t" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
		echo "$n ids: $t s CPU (x$r for twice the ids)"
	else
		echo "$n ids: $t s CPU"
	fi
	prev=$t
done
