#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The HTML page's metrics table follows a selection, in headless
# Chromium: narrowed to a time range on the page's bins (#time=FROM:TO),
# to a process and a time range (#pid=N&time=...), to a thread and a
# time range (#tid=N&time=..., its whole process's values), and to
# several processes (#pid=N where two logs' processes share pid N), the
# rows shown are those of mapreport's text report with the same
# --time FROM:TO and --pid, cell for cell, and a note says whose values
# and which range they are; the partial reports say they are the
# selection's.  The logs: a synthetic run of 2 processes
# (a plain metric, and a rate metric with times of no value and
# errors), the same again for the shared pids, and the metrics scenario
# of mklog --metrics.  Before the page had per-bin metric data
# ("msel-data"), these selections showed the whole run's figures.  Past
# the element's cap, a time range keeps the whole run's rows and one
# process its own, with notes (checked on 30 processes).
# Skipped (77) when no Chromium is installed.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"

# check_rows DOM TEXT LABEL: the visible rows of the page's metrics
# table DOM are rows of the Metrics section of the text report TEXT (the
# columns the text has: name to processes), every metric once, shown in
# a <tbody class="nr-msel">; the note over the table names the range
# when the selection has one (NOTE, a part of it).
check_rows() {
	python3 - "$1" "$2" "$4" <<'PY' || fail "$3: the metrics table is not that of the text report"
import html as h, re, sys
page, text, note = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
t = re.search(r'<table class="msum">(.*?)</table>', page, re.S).group(1)
bodies = re.findall(r'<tbody([^>]*)>(.*?)</tbody>', t, re.S)
shown = [(a, b) for a, b in bodies if "hidden" not in a]
assert len(shown) == 1, [a for a, b in bodies]
assert 'class="nr-msel"' in shown[0][0], shown[0][0]
sec = text[text.index("\nMetrics:"):]
sec = sec[:sec.index("  MEAN:")]
want = [" ".join(l.split()) for l in sec.split("\n")[2:] if l.strip()]
want = [l for l in want if not l.startswith("Filter:")]
rows = re.findall(r'<tr>(.*?)</tr>', shown[0][1], re.S)
got = []
for r in rows:
    cells = [h.unescape(c) for c in re.findall(r'<td[^>]*>([^<]*)</td>', r)][:7]
    got.append(" ".join(" ".join(cells).split()))
assert len(got) >= 2, got
assert got == want[1:] if want and want[0].startswith("METRIC") else got == want, (got, want)
n = re.findall(r'<p class="note nr-whole">([^<]*)</p>\s*<table class="msum">', page)
assert n and n[0].startswith("The metrics' figures of the selection"), n
assert note in n[0], (note, n[0])
# the partial reports say they are the selection's (mapreport-html-psel.sh
# checks their figures)
if '<section id="partial">' in page:
    assert re.search(r'<section id="partial">\s*<h2>[^<]*</h2>\s*<p class="note nr-whole">The partial reports of the selection', page), "partial reports: no note of the selection"
PY
}


# case PAGE LOG LABEL HASH "MAPREPORT ARGS" NOTE: the page narrowed by
# HASH shows the rows of mapreport ARGS LOG...
case_sel() {
	page=$1
	logs=$2
	label=$3
	hash=$4
	args=$5
	note=$6
	# shellcheck disable=SC2086
	"$mapreport" $args $logs >"$tmp/want.txt" 2>/dev/null ||
		fail "$label: mapreport $args failed"
	chrome "$tmp/sel.dom" "$tmp/sel.err" --dump-dom "file://$page#$hash"
	no_console "$tmp/sel.err"
	grep -q 'data-narrowed="yes"' "$tmp/sel.dom" || fail "$label: page not narrowed"
	check_rows "$tmp/sel.dom" "$tmp/want.txt" "$label (#$hash)" "$note"
}

test_synthetic() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
	"$mapreport" --html "$tmp/r.html" "$tmp/r.log" >"$tmp/r.txt" 2>&1 ||
		fail "mapreport --html failed"
	grep -q '<script type="application/json" id="msel-data">' "$tmp/r.html" ||
		fail "no msel-data element in the page"
	pids=$(awk '/^Processes/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ { print $1 }' "$tmp/r.txt")
	set -- $pids
	[ $# = 2 ] || fail "not 2 processes: $pids"
	# a thread id of process $2 alone, and one both processes have
	threads=$tmp/threads
	awk '/^Threads/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ { print $1, $3 }' \
		"$tmp/r.txt" >"$threads"
	tid=$(awk '{ n[$2]++; p[$2] = $1 } END { for (t in n) if (n[t] == 1 && p[t] == "'"$2"'") print t }' \
		"$threads" | sort -n | tail -n 1)
	both=$(awk '{ n[$2]++ } END { for (t in n) if (n[t] == 2) print t }' \
		"$threads" | sort -n | head -n 1)
	[ -n "$tid" ] && [ -n "$both" ] ||
		{ cat "$tmp/r.txt" >&2; fail "no thread of process $2 alone, or none of both"; }
	half=$(bins_range "$tmp/r.html" "n // 4" "3 * n // 4")
	case_sel "$tmp/r.html" "$tmp/r.log" "time range" "time=$half" \
		"--time $half" "the values of every process, taken from"
	early=$(bins_range "$tmp/r.html" "1" "n // 3")
	case_sel "$tmp/r.html" "$tmp/r.log" "process and time range" \
		"pid=$1&time=$early" "--pid $1 --time $early" \
		"the values of the selected process, taken from"
	late=$(bins_range "$tmp/r.html" "n // 2" "n - 3")
	case_sel "$tmp/r.html" "$tmp/r.log" "thread and time range" \
		"tid=$tid&time=$late" "--tid $tid --time $late" \
		"the whole process of the selected thread (metrics are measured per process), taken from"
	case_sel "$tmp/r.html" "$tmp/r.log" "threads of two processes" \
		"tid=$both&time=$late" "--tid $both --time $late" \
		"the values of 2 processes, those of the selected threads (metrics are measured per process), taken from"
	one=$(bins_range "$tmp/r.html" "n // 2" "n // 2 + 1")
	case_sel "$tmp/r.html" "$tmp/r.log" "one bin" "time=$one" \
		"--time $one" "taken from"

	# two logs of the same pids: #pid=N selects both processes N
	cp "$tmp/r.log" "$tmp/r2.log"
	"$mapreport" --html "$tmp/rr.html" "$tmp/r.log" "$tmp/r2.log" \
		>/dev/null 2>&1 || fail "mapreport --html of two logs failed"
	case_sel "$tmp/rr.html" "$tmp/r.log $tmp/r2.log" "two processes of one pid" \
		"pid=$1" "--pid $1" "the values of 2 processes"
	case_sel "$tmp/rr.html" "$tmp/r.log $tmp/r2.log" \
		"two processes of one pid, time range" "pid=$2&time=$half" \
		"--pid $2 --time $half" "the values of 2 processes, taken from"
}

test_scenario() {
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	# with a partial report, whose note is checked too
	"$mapreport" --partial-report "$top_srcdir/test/integration/partial/scenario.xml" \
		--html "$tmp/m.html" "$tmp/m.log" >/dev/null 2>&1 ||
		fail "mapreport --html (metrics scenario) failed"
	grep -q '<section id="partial">' "$tmp/m.html" ||
		fail "metrics scenario: no partial report on the page"
	r=$(bins_range "$tmp/m.html" "n // 8" "5 * n // 8")
	case_sel "$tmp/m.html" "$tmp/m.log" "metrics scenario, time range" \
		"time=$r" "--time $r" "taken from"
}

# Past 25000 (series, bin) cells with values the page holds no
# "msel-data" and says why: 30 processes sleeping through the run under
# every metric plugin (a value every 10 ms) make some 19 series each over
# most of the page's bins.  A time range then keeps the whole run's
# rows, and one process its own whole-run rows, each with a note.
test_cap() {
	[ -x "$programs/syswork" ] || fail "no test/programs/syswork"
	"$mapsample" -q --metrics all --metric-interval 10 -o "$tmp/cap.log" -- sh -c \
		"for i in \$(seq 30); do sleep 1 & done; '$programs/syswork' user 1 2>/dev/null; wait" \
		>/dev/null 2>"$tmp/cap.err" || { cat "$tmp/cap.err" >&2; fail "cap: mapsample failed"; }
	"$mapreport" --html "$tmp/cap.html" "$tmp/cap.log" >"$tmp/cap.txt" 2>/dev/null ||
		fail "cap: mapreport --html failed"
	grep -A1 'id="msel-data">' "$tmp/cap.html" |
		grep -q '^{"none":"too many values over time for the page"}' ||
		fail "cap: msel-data not left out past 25000 cells"
	r=$(bins_range "$tmp/cap.html" "n // 4" "n // 2")
	chrome "$tmp/cap.dom" "$tmp/cap.err" --dump-dom "file://$tmp/cap.html#time=$r"
	no_console "$tmp/cap.err"
	grep -q "<p class=\"note nr-whole\">Whole run: the metrics' figures are not narrowed to the selection.</p>" "$tmp/cap.dom" ||
		fail "cap: a time range without msel-data: no whole-run note over the metrics table"
	grep -q "Whole run: the partial reports are not narrowed to the selection (the page holds no metric figures per time bin: too many values over time for the page)" "$tmp/cap.dom" ||
		fail "cap: a time range without msel-data: the partial reports' whole-run note has not the reason"
	pid=$(awk '/^Processes/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ && / sleep / { print $1; exit }' "$tmp/cap.txt")
	[ -n "$pid" ] || fail "cap: no sleep process in the report"
	chrome "$tmp/cap.dom" "$tmp/cap.err" --dump-dom "file://$tmp/cap.html#pid=$pid"
	no_console "$tmp/cap.err"
	grep -q "The metrics' figures of the selected process." "$tmp/cap.dom" ||
		fail "cap: process $pid without msel-data: not its own whole-run rows"
}

test_synthetic
test_scenario
test_cap
