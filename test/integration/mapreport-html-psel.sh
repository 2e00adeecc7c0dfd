#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The HTML page's partial reports follow a selection, in headless
# Chromium: narrowed to a time range on the page's bins (#time=FROM:TO),
# a process and a time range, a thread and a time range (its whole
# process's values) and a process over the whole run, each entry shows
# the text and bar of the same entry of mapreport --json with the same
# --time FROM:TO, --pid or --tid, and a note over the reports says they
# are the selection's.  The logs: the partial scenario of mkpartlog
# (test/integration/partial/scenario.xml) and a real run of Debian's
# python3 (2 processes, threads) under every metric plugin with the
# built-in reports.  Before the page had "psel-data", it showed the
# whole run's figures with a note saying so, as it still does past its
# cap of time cells (checked too).  mapreport-psel-ranges.sh
# checks psel.js on many more selections, without a browser.  Skipped
# (77) when no Chromium is installed.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"
mkpartlog=$top_builddir/test/integration/mkpartlog
scenario=$top_srcdir/test/integration/partial/scenario.xml


# case_sel PAGE LABEL HASH "MAPREPORT ARGS" NOTE LOG...: the page
# narrowed by HASH shows the partial reports of mapreport --json ARGS
# LOG..., and its note holds NOTE
case_sel() {
	page=$1
	label=$2
	hash=$3
	args=$4
	note=$5
	shift 5
	# shellcheck disable=SC2086
	"$mapreport" --json="$tmp/want.json" $args "$@" >/dev/null 2>&1 ||
		fail "$label: mapreport --json $args failed"
	chrome "$tmp/sel.dom" "$tmp/sel.err" --dump-dom "file://$page#$hash"
	no_console "$tmp/sel.err"
	grep -q 'data-narrowed="yes"' "$tmp/sel.dom" || fail "$label: page not narrowed"
	python3 - "$tmp/sel.dom" "$tmp/want.json" "$note" "$page" <<'PY' ||
import html as h, json, re, sys
dom, want, note = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
whole = open(sys.argv[4]).read()
sec = re.search(r'<section id="partial">(.*?)</section>', dom, re.S).group(1)
n = re.findall(r'<p class="note nr-whole">([^<]*)</p>\s*<div class="preport"', sec)
assert n and n[0].startswith("The partial reports of the selection"), n
assert note in n[0], (note, n[0])
def entries(s):
    out = []
    for rep in re.findall(r'<div class="preport".*?(?=<div class="preport"|$)', s, re.S):
        for row in re.findall(r'<table class="entries">.*?</table>', rep, re.S):
            for tr in re.findall(r'<tr>(.*?)</tr>', row, re.S):
                tds = re.findall(r'<td[^>]*>(.*?)</td>', tr, re.S)
                m = re.search(r'class="cmp"[^>]*width:\s*([0-9.]+)%', tds[2])
                out.append((h.unescape(tds[1]), float(m.group(1)) if m else None))
    return out
got = entries(sec)
exp = []
for r in want["partial_reports"]["reports"]:
    for ss in r["subsections"]:
        for e in ss["entries"]:
            exp.append((e["text"], min(e["bar"], 1) * 100 if e["bar"] is not None and e["state"] == "value" else None))
assert len(got) == len(exp), (len(got), len(exp))
bad = [(g, x) for g, x in zip(got, exp) if g[0] != x[0] or (g[1] is None) != (x[1] is None) or (g[1] is not None and abs(g[1] - x[1]) > 0.051)]
assert not bad, bad
# the selection's figures differ from the whole run's somewhere
wsec = re.search(r'<section id="partial">(.*?)</section>', whole, re.S).group(1)
print("  %d entries, %d differ from the whole run's" % (len(got), sum(a != b for a, b in zip(got, entries(wsec)))))
PY
	fail "$label (#$hash): the partial reports are not those of mapreport --json $args"
}

test_scenario() {
	"$mkpartlog" "$tmp/s.log" >/dev/null
	"$mapreport" --partial-report "$scenario" --html "$tmp/s.html" "$tmp/s.log" \
		>/dev/null 2>&1 || fail "mapreport --html (partial scenario) failed"
	grep -q '<script type="application/json" id="psel-data">' "$tmp/s.html" ||
		fail "no psel-data element in the page"
	r=$(bins_range "$tmp/s.html" "n // 4" "3 * n // 4")
	case_sel "$tmp/s.html" "scenario, time range" "time=$r" \
		"--partial-report $scenario --time $r" "the values of every process, from" \
		"$tmp/s.log"
	case_sel "$tmp/s.html" "scenario, process 200" "pid=200" \
		"--partial-report $scenario --pid 200" "the values of the selected process;" \
		"$tmp/s.log"
	r=$(bins_range "$tmp/s.html" "n // 3" "n")
	case_sel "$tmp/s.html" "scenario, thread 101 and a time range" "tid=101&time=$r" \
		"--partial-report $scenario --tid 101 --time $r" \
		"the whole process of the selected thread, from" "$tmp/s.log"
}

test_python() {
	py=/usr/bin/python3
	[ -x "$py" ] || { echo "no $py: the python3 case skipped"; return 0; }
	cat >"$tmp/work.py" <<'PY'
import os, sys, threading
def work(k, name):
    s = 0
    for i in range(300000 * k):
        s += i * i % 7
    with open(name, "w") as f:
        f.write(str(list(range(50000 * k))))
ts = [threading.Thread(target=work, args=(k, sys.argv[1] + str(k))) for k in (1, 2)]
[t.start() for t in ts]
[t.join() for t in ts]
if os.fork() == 0:
    work(3, sys.argv[1] + "c")
    os._exit(0)
work(1, sys.argv[1] + "p")
os.wait()
PY
	"$mapsample" -q --metrics all --metric-interval 10 -o "$tmp/p.log" \
		-- "$py" "$tmp/work.py" "$tmp/out" >/dev/null 2>"$tmp/p.err" || {
		cat "$tmp/p.err" >&2
		fail "mapsample python3 failed"
	}
	"$mapreport" --html "$tmp/p.html" "$tmp/p.log" >"$tmp/p.txt" 2>/dev/null ||
		fail "mapreport --html (python3) failed"
	pids=$(awk '/^Processes/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ { print $1 }' "$tmp/p.txt")
	set -- $pids
	[ $# = 2 ] || fail "python3: not 2 processes: $pids"
	r=$(bins_range "$tmp/p.html" "n // 5" "4 * n // 5")
	case_sel "$tmp/p.html" "python3, time range" "time=$r" "--time $r" \
		"the values of every process, from" "$tmp/p.log"
	r=$(bins_range "$tmp/p.html" "0" "n // 2")
	case_sel "$tmp/p.html" "python3, child process and time range" "pid=$2&time=$r" \
		"--pid $2 --time $r" "the values of the selected process, from" "$tmp/p.log"
}

# Past 60000 time cells the page holds no "psel-data" and says so: two
# processes of mkpartlog --big N with two named metrics each make 4N
# time cells, merged with a log of samples for the page to narrow.
test_cap() {
	"$mklog" -n 2000 -p 1 -t 2 "$tmp/c0.log" >/dev/null
	for n in 14000 16000; do
		"$mkpartlog" --big "$n" -p 2 "$tmp/c$n.log"
		"$mapreport" --merge --partial-report "$scenario" --html "$tmp/c$n.html" \
			"$tmp/c0.log" "$tmp/c$n.log" >/dev/null 2>&1 ||
			fail "mapreport --html (mkpartlog --big $n) failed"
	done
	grep -A1 'id="psel-data">' "$tmp/c14000.html" | grep -q '^{"bins"' ||
		fail "56000 time cells: no psel-data"
	grep -A1 'id="psel-data">' "$tmp/c16000.html" |
		grep -q '^{"none":"too many metric values over time for the page"}' ||
		fail "64000 time cells: psel-data not left out"
	r=$(bins_range "$tmp/c16000.html" "n // 4" "n // 2")
	chrome "$tmp/cap.dom" "$tmp/cap.err" --dump-dom "file://$tmp/c16000.html#time=$r"
	no_console "$tmp/cap.err"
	grep -q 'Whole run: the partial reports are not narrowed to the selection (too many metric values over time for the page)' \
		"$tmp/cap.dom" || fail "64000 time cells: no whole-run note with the reason"
}

test_scenario
test_python
test_cap
