#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's partial reports (mapreport(1), PARTIAL REPORTS) on the
# scenario of test/integration/mkpartlog.c, compared with
# test/integration/golden/mapreport-partial*.txt.
#
# Bins: the metric interval is the median of the series' mean spacing,
# 100 ms (pids 100 and 200: 1 s / 10; pid 300: 0.5 s / 4 = 125 ms), so
# 11 bins of 100 ms centred on 1.0, 1.1 ... 2.0 s; pid 200's ticks (20 ms
# late) and pid 300's (30 ms late) fall in the bins of pid 100's.
#
# Interrupts (/s, divided by sample time), per process and bin:
#   bin         0    1    2    3    4    5    6     7     8     9   10
#   pid 100     -  100  200  300  400  500  600   700   800   900 1000
#   pid 200     -  500  500  500  500  500  500   500   500   500  500
#   pid 300                             -  3000 (2000) 2000  1000 1000
# (first values have no rate; pid 300 has no tick in bin 7, so its delta
# of bin 8 covers 0.2 s, 400 / 0.2 = 2000 /s, and bin 7 takes that value)
#   mean/mean  bins 1-10: (300 + 350 + 400 + 450 + 500 + 4100/3 + 3200/3
#              + 3300/3 + 800 + 2500/3) / 10 = 7166.67 / 10 = 717 /s
#              (the reference's example report, and the scenario's first)
#   sum/mean   (600 + 700 + 800 + 900 + 1000 + 4100 + 3200 + 3300 + 2400
#              + 2500) / 10 = 1950 /s = 1.95 k/s
#   max/max    3000 /s = 3.00 k/s;  min/min  100 /s
#   bars of group irq (largest 3000): 717/3000*30 = 7.2 -> 7 '#', 30,
#              100/3000*30 = 1
# Memory (B), pid 100: k+1 MiB in bin k; pid 200: 2 MiB; pid 300: 4 MiB
# in bins 5-10 (bin 7 takes bin 8's):
#   sum/max    bin 10: 11 + 2 + 4 = 17.0 MiB
#   max/mean   (2 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11) / 11 = 67 / 11
#              = 6.09 MiB
#   min/min    bin 0: 1.00 MiB
#   bars of group mem (largest 17): 30, 6.09/17*30 = 10.7 -> 11, 1/17*30
#              = 1.8 -> 2
# Nothing (no value at any tick) and Once (one value per process: no
# rate) are "no value in this run"; a metric the logs do not define is
# "not recorded in this run".
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mkpartlog=$top_builddir/test/integration/mkpartlog
fixtures=$top_srcdir/test/integration/partial
goldens=$top_srcdir/test/integration/golden

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# No definitions from the user's own places.
HOME=$tmp/home
export HOME
unset MAPSAMPLE_CONFIG_DIR ALLINEA_CONFIG_DIR \
	MAPSAMPLE_PARTIAL_REPORT_SOURCE ALLINEA_PARTIAL_REPORT_SOURCE || true
mkdir "$HOME"

"$mkpartlog" "$tmp/p.log"
cp "$fixtures"/*.xml "$tmp/"
cd "$tmp"

# run WANT_RC ARGS...: mapreport -n 0 ARGS p.log in $tmp, stdout to out,
# stderr to err; fails unless the exit status is WANT_RC.
run() {
	want=$1
	shift
	set +e
	"$mapreport" -n 0 "$@" p.log >out 2>err
	rc=$?
	set -e
	[ "$rc" = "$want" ] || { cat err >&2; fail "$*: exit $rc, not $want"; }
}

# partial sections of out (from "Partial reports" on)
sections() {
	sed -n '/^Partial reports/,$p' out
}

same_as() {
	sections >got
	if ! cmp -s "$goldens/$1" got; then
		diff -u "$goldens/$1" got >&2 || true
		fail "$2: partial sections differ from $1"
	fi
}

no_messages() {
	if [ -s err ]; then
		cat err >&2
		fail "$1: unexpected messages"
	fi
}

test_reference_example() {
	run 0 --partial-report reference-example.xml
	no_messages "reference example"
	same_as mapreport-partial-example.txt "reference example"
	# after the metrics table, before the function tables
	awk '/^Metrics:/ { m = NR } /^Partial reports/ { p = NR }
	     END { exit !(m && p > m) }' out ||
		fail "partial sections are not after the metrics table"
}

test_scenario() {
	run 0 --partial-report scenario.xml
	no_messages "scenario"
	same_as mapreport-partial.txt "scenario"
	# the same from the environment, and from a folder
	MAPSAMPLE_PARTIAL_REPORT_SOURCE=scenario.xml run 0
	same_as mapreport-partial.txt "\$MAPSAMPLE_PARTIAL_REPORT_SOURCE"
	mkdir -p "$HOME/.mapsample/reports"
	cp scenario.xml "$HOME/.mapsample/reports/"
	run 0
	sections | sed 's#(.*/scenario.xml)$#(scenario.xml)#' >got
	cmp -s "$goldens/mapreport-partial.txt" got ||
		fail "~/.mapsample/reports: sections differ"
	rm -r "$HOME/.mapsample"
}

test_reserved() {
	# the reference's example with its own names: refused, the rest of
	# the report written, exit status 1
	run 1 --partial-report reference-example-reserved.xml
	cat >want <<'EOF'
mapreport: reference-example-reserved.xml:8:1: <partialReport name="com.allinea.myReport">: name "com.allinea.myReport" starts with the reserved prefix "com.allinea." (section 3.6); start it with your reversed Internet domain name, e.g. name="com.example.myReport"
mapreport: reference-example-reserved.xml:12:5: <reportMetric id="com.allinea.metrics.sample.average">: id "com.allinea.metrics.sample.average" starts with the reserved prefix "com.allinea." (section 3.6); start it with your reversed Internet domain name, e.g. id="com.example.metrics.sample.average"
mapreport: reference-example-reserved.xml: partial report left out (2 errors); the rest of the report is written
EOF
	if ! cmp -s want err; then
		diff -u want err >&2 || true
		fail "reserved names: messages"
	fi
	grep -q "^Metrics:" out || fail "reserved names: no report"
	if grep -q "^Partial reports" out; then
		fail "reserved names: a partial section"
	fi
}

test_folder() {
	# a folder: its *.xml files in name order, sub-folders not searched;
	# one bad file is left out, the others printed, exit status 1
	mkdir -p dir/sub
	cp reference-example.xml dir/b-example.xml
	cp scenario.xml dir/a-scenario.xml
	cp reference-example-reserved.xml dir/c-reserved.xml
	cp scenario.xml dir/sub/ignored.xml
	echo "not xml" >dir/notes.txt
	ALLINEA_PARTIAL_REPORT_SOURCE=dir run 1
	grep -q "^mapreport: dir/c-reserved.xml:8:1: " err ||
		fail "folder: no message for c-reserved.xml"
	[ "$(grep -c '' err)" = 3 ] || fail "folder: messages"
	sections | grep '^com\.' >got
	cat >want <<'EOF'
com.example.partial.scenario (dir/a-scenario.xml)
com.example.myReport (dir/b-example.xml)
EOF
	cmp -s want got || { cat got >&2; fail "folder: reports or order"; }
	# --partial-report replaces the environment
	ALLINEA_PARTIAL_REPORT_SOURCE=dir run 0 \
		--partial-report reference-example.xml
	[ "$(sections | grep -c '^com\.')" = 1 ] ||
		fail "--partial-report does not replace the environment"
}

test_no_definitions() {
	# nothing anywhere: no section, no message
	run 0
	no_messages "no definitions"
	if grep -q "^Partial" out; then
		fail "no definitions: a partial section"
	fi
}

test_memory_bound() {
	# 2 processes with 2.5 million ticks each: 10 million metric values.
	# The partial reports' memory must not grow with them: peak RSS with
	# the scenario report, less peak RSS without, stays under 16 MiB
	# (the log itself is mapped, so both grow with its size; the time
	# cells the model keeps for partial reports are there in both runs,
	# and test_metrics checks their bound).
	[ -x /usr/bin/time ] || { echo "memory bound: no /usr/bin/time, skipped"; return 0; }
	"$mkpartlog" --big 2500000 -p 2 big.log
	/usr/bin/time -f %M -o rss0 "$mapreport" -n 0 big.log >/dev/null
	/usr/bin/time -f %M -o rss1 "$mapreport" -n 0 \
		--partial-report scenario.xml big.log >big.out
	grep -q "^    Interrupts, all processes  *2.60 k/s$" big.out ||
		{ cat big.out >&2; fail "memory bound: value"; }
	grep -q "^Partial reports: 1000 time bins of 25.0 s$" big.out ||
		fail "memory bound: bins"
	d=$(( $(tail -n 1 rss1) - $(tail -n 1 rss0) ))
	[ "$d" -lt 16384 ] || fail "memory bound: $d KiB more with the report"
	rm -f big.log
}

test_one_read() {
	# The logs are read once: a log that can be read only once (a pipe,
	# a FIFO) gives the same partial sections as the file, values and
	# all, and no message.  (A second read found the pipe empty, and
	# waited for a writer on the FIFO: hence the time limit.)
	cat p.log | "$mapreport" -n 0 --partial-report scenario.xml \
		/dev/stdin >out 2>err || { cat err >&2; fail "pipe: exit status"; }
	no_messages "pipe"
	same_as mapreport-partial.txt "pipe"
	mkfifo fifo
	cat p.log >fifo &
	writer=$!
	set +e
	timeout 60 "$mapreport" -n 0 --partial-report scenario.xml fifo \
		>out 2>err
	rc=$?
	set -e
	kill "$writer" 2>/dev/null || true
	wait "$writer" 2>/dev/null || true
	rm -f fifo
	[ "$rc" = 0 ] || { cat err >&2; fail "FIFO: exit $rc"; }
	no_messages "FIFO"
	same_as mapreport-partial.txt "FIFO"
}

test_reference_example
test_scenario
test_one_read
test_reserved
test_folder
test_no_definitions
test_memory_bound
echo "mapreport-partial: all cases passed"
