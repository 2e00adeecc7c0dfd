#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's metrics section on the metrics scenario of test/common/mklog
# (mklog --metrics; the values are in test/common/logsynth.c), compared
# with test/integration/golden/mapreport-metrics.txt.  The golden numbers,
# worked by hand from the scenario:
#
#   CPU utilization  pid 6000: 7 values (one NONE), mean 340.5/7 = 48.64;
#                    pid 7000: mean 125.25/5 = 25.05; MEAN (48.64+25.05)/2
#                    = 36.8 %, MIN 5 %, MAX 90.5 %.
#   Read rate        rates 1024000, 0, (NONE: the next delta is over 0.3 s)
#                    10485760 (10.0 MiB/s), 1048580, 1048575, 5120 B/s;
#                    pid 7000: 1024000, 2048000, 0, 2097152 B/s.  MEAN:
#                    (3563213 B / 1 s + 2584576 B / 2 s) / 2 = 2.32 MiB/s;
#                    TOTAL 6152885 B (first deltas included) = 5.87 MiB.
#   Node power       pid 6000 only (one per node): 140 W .. 1502 W, MEAN
#                    292.7 J / 1 s, TOTAL 347.95 J.
#   syscalls         no display name: the id.  5000 .. 20000 calls/s, MEAN
#                    (11750 + 10000) / 2, TOTAL 31857 calls.
#   RSS              0 B .. 8 MiB, MEAN (4.5 MiB + 1638.2 B) / 2 = 2.25 MiB.
#   Lock wait        40 ns .. 3 s, MEAN (375344292.4 + 300) / 2 ns = 188 ms.
#   Flaky counter    NONE at all 13 ticks; 8 + 5 errors, the first (at
#                    10 s) in pid 6000.
#   CPU busy         rates 0 .. 100 %; MEAN (55 % + 88/2 %) / 2 = 49.5 %;
#                    TOTAL (57 + 89) %*s = 1.46 s.
# Each process's values are spread over its threads' chunks, which come
# before its definitions in the file; smaller chunks change that order
# and must not change the section.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mklog=$top_builddir/test/common/mklog
golden=$top_srcdir/test/integration/golden/mapreport-metrics.txt

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# section LOG OUT: the metrics section of mapreport's report on LOG (from
# its "Metrics" line to the end: -n 0 leaves the function tables out).
section() {
	set +e
	"$mapreport" -n 0 "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || fail "$1: exit $rc"
	if grep -v "cannot be read now" "$tmp/err" >&2; then
		fail "$1: unexpected messages"
	fi
	sed -n '/^Metrics/,$p' "$tmp/out" >"$2"
}

same_as_golden() {
	if ! cmp -s "$golden" "$1"; then
		diff -u "$golden" "$1" >&2 || true
		fail "$2: metrics section differs from $(basename "$golden")"
	fi
}

test_golden() {
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	section "$tmp/m.log" "$tmp/m.txt"
	same_as_golden "$tmp/m.txt" "scenario"
	# the rest of the report is there too
	grep -q "^Processes" "$tmp/out" || fail "no processes table"
}

test_chunk_order() {
	# 1 KiB chunks: each stream over several chunks, definitions split
	# between the first and last chunks of the process stream
	for c in 1024 2048 4096; do
		"$mklog" --metrics -c "$c" "$tmp/c$c.log" >/dev/null
		section "$tmp/c$c.log" "$tmp/c$c.txt"
		same_as_golden "$tmp/c$c.txt" "chunks of $c bytes"
	done
	# chunks left open, as when the writer was killed: still read
	"$mklog" --metrics --open "$tmp/o.log" >/dev/null
	section "$tmp/o.log" "$tmp/o.txt"
	same_as_golden "$tmp/o.txt" "unsealed chunks"
}

test_no_metrics() {
	# a log without metric records has no metrics section
	"$mklog" -n 2000 -t 2 --plain "$tmp/p.log" >/dev/null
	"$mapreport" -n 0 "$tmp/p.log" >"$tmp/p.out" 2>/dev/null
	grep -q "^Threads" "$tmp/p.out" || fail "plain log: no report"
	if grep -q "^Metric" "$tmp/p.out"; then
		fail "plain log: a metrics section"
	fi
}

test_random_log() {
	# the random logs' two metrics and their errors: sample i of thread
	# i % 3 writes a value when i % 16 == i % 3, 3 in every 48 samples,
	# of metric (i / 16) & 1: 375 each in 12000; errors at i = 9, 4010,
	# 8011 with running counts 1, 2, 3
	"$mklog" -n 12000 -t 3 -s 7 "$tmp/r.log" >/dev/null
	"$mapreport" -n 0 "$tmp/r.log" >"$tmp/r.out" 2>/dev/null
	grep -q "^  RSS  *0 B  .* -  *375  *1$" "$tmp/r.out" ||
		fail "random log: RSS row"
	grep -q "^  I/O rate  .* 375  *1$" "$tmp/r.out" ||
		fail "random log: I/O rate row"
	grep -q "^  libbroken.so: could not open /sys/class/powercap (1 process)$" \
		"$tmp/r.out" || fail "random log: plugin error"
	grep -q "^  I/O rate: 3 errors, first: read failed$" "$tmp/r.out" ||
		fail "random log: metric errors"
}

test_golden
test_chunk_order
test_no_metrics
test_random_log
echo "mapreport-metrics: all cases passed"
