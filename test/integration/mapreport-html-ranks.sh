#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The HTML page's Ranks section under a selection, in a real browser:
# narrowed to a time range on the page's bin edges, the table of the
# selection lists the rows of `mapreport --time FROM:TO`'s text Ranks
# table (rank, pid, samples, seconds, compute seconds, MPI %, I/O %,
# memory peak where not marked as the whole run's, host) and its load
# imbalance and slowest rank; narrowed to a process, the row of
# `mapreport --json --pid PID` (the text report has no Ranks table for
# one process); narrowed to a thread id two processes have, the rows of
# `mapreport --tid TID`.  On a synthetic log of 2 processes (mklog) and on a real
# run of two test/programs/iowrite processes, whose samples in write(2)
# and read(2) make I/O %.  The heat map and band charts shade the range.
# Skipped (77) when no Chromium is installed (html-browser-lib.sh).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"

# range HTML: FROM:TO, the page's bins from a quarter to three quarters
range() {
	python3 - "$1" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
w = d["seconds"] / d["bins"]
print("%.9f:%.9f" % (w * (d["bins"] // 4), w * (3 * d["bins"] // 4)))
PY
}

# same_rows DOM TEXT [strict]: the page's table of the selection has the
# rows and the header figures of the text report's Ranks table (strict:
# no cell marked as the whole run's).
same_rows() {
	python3 - "$@" <<'PY'
import html as h, re, sys
page, text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
strict = len(sys.argv) > 3
sec = re.search(r'<section id="ranks">.*?</section>', page, re.S).group(0)
t = re.search(r'<table class="nr-whole ranks-sel">(.*?)</table>', sec, re.S)
assert t, "no Ranks table of the selection"
assert not strict or "rk-whole" not in t.group(1), "cells marked as the whole run's"
assert re.search(r'<table hidden="">', sec), "the whole run's Ranks table still shown"
got = []
for r in re.findall(r'<tr[^>]*data-proc[^>]*>(.*?)</tr>', t.group(1), re.S):
    cells = re.findall(r'<td( class="[^"]*")?( title="[^"]*")?>(.*?)</td>', r, re.S)
    got.append([(c[0], h.unescape(re.sub(r'<[^>]*>', '', c[2])).strip()) for c in cells])
rk = text.split("\nRanks: ", 1)[1].split("\n  Across", 1)[0].split("\n")[2:]
want = [l.split() for l in rk if l.strip() and l.split()[0].lstrip("-").isdigit()]
assert len(got) == len(want) and want, (got, want)
for g, w in zip(got, want):
    assert g[0][1] == w[0] and g[1][1] == w[1] and g[2][1] == w[2], (g, w)
    for k in (3, 4):
        assert abs(float(g[k][1]) - float(w[k])) < 0.0011, ("seconds", k, g, w)
    for k in (5, 6):
        if "rk-whole" in g[k][0]:
            continue
        assert abs(float(g[k][1].rstrip("%")) - float(w[k].rstrip("%"))) < 0.051, ("share", k, g, w)
    if "rk-whole" not in g[7][0]:
        assert g[7][1] == " ".join(w[7:9]) if w[7] != "-" else g[7][1] == "-", ("memory", g, w)
    assert g[8][1].startswith(w[9] if w[7] != "-" else w[8]), ("host", g, w)
imb = re.search(r"Load imbalance \(max/mean of compute\): ([0-9.]+); slowest: \w+ (\d+)", text)
head = re.search(r'<p class="nr-whole rk-head">([^<]*)</p>', sec)
assert head, "no header of the selection"
hm = re.search(r"load imbalance \(max/mean of compute\) ([0-9.]+), the slowest \w+ (\d+)", head.group(1))
assert hm and abs(float(hm.group(1)) - float(imb.group(1))) < 0.011 and hm.group(2) == imb.group(2), (head.group(1), imb.group(0))
PY
}

# same_json DOM JSON: the page's table of the selection is the one row
# of the JSON report's ranks.
same_json() {
	python3 - "$1" "$2" <<'PY'
import html as h, json, re, sys
page, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
sec = re.search(r'<section id="ranks">.*?</section>', page, re.S).group(0)
t = re.search(r'<table class="nr-whole ranks-sel">(.*?)</table>', sec, re.S)
assert t, "no Ranks table of the selection"
rows = re.findall(r'<tr[^>]*data-proc[^>]*>(.*?)</tr>', t.group(1), re.S)
want = d["ranks"]["rows"]
assert len(rows) == len(want) == 1, (rows, want)
g = [h.unescape(re.sub(r'<[^>]*>', '', c)).strip() for c in re.findall(r'<td[^>]*>(.*?)</td>', rows[0], re.S)]
w = want[0]
assert int(g[0]) == w["rank"] and int(g[1]) == w["pid"] and int(g[2]) == w["samples"], (g, w)
assert abs(float(g[3]) - w["seconds"]) < 0.0006 and abs(float(g[4]) - w["compute_s"]) < 0.0006, (g, w)
assert abs(float(g[5].rstrip("%")) - 100 * w["mpi"]) < 0.006, (g, w)
assert abs(float(g[6].rstrip("%")) - 100 * w["io"]) < 0.006, (g, w)
PY
}

# shaded DOM: the heat map has the selected range shaded.
shaded() {
	python3 - "$1" <<'PY'
import re, sys
sec = re.search(r'<section id="ranks">.*?</section>', open(sys.argv[1]).read(), re.S).group(0)
heat = re.search(r'<svg class="heat timed".*?</svg>', sec, re.S)
assert heat and 'class="nr-span"' in heat.group(0), "heat map: no range shaded"
PY
}

# check NAME [strict] LOGS...: the page of LOGS narrowed to a time range
# (strict: no figure the whole run's), then to its first process.
check() {
	name=$1
	shift
	strict=
	if [ "$1" = strict ]; then
		strict=strict
		shift
	fi
	"$mapreport" --merge --html "$tmp/$name.html" "$@" >"$tmp/$name.txt" 2>&1 ||
		fail "$name: mapreport --html failed"
	grep -q '<section id="ranks">' "$tmp/$name.html" || fail "$name: no Ranks section"
	r=$(range "$tmp/$name.html")
	"$mapreport" --merge --time "$r" "$@" >"$tmp/$name.t.txt" 2>/dev/null ||
		fail "$name: mapreport --time $r failed"
	chrome "$tmp/$name.tdom" "$tmp/$name.tdom.err" --dump-dom "file://$tmp/$name.html#time=$r"
	no_console "$tmp/$name.tdom.err"
	same_rows "$tmp/$name.tdom" "$tmp/$name.t.txt" $strict ||
		fail "$name: time range $r: the Ranks table is not that of mapreport --time $r"
	shaded "$tmp/$name.tdom" || fail "$name: time range $r: the heat map shows no range"
	pid=$(awk '/^Ranks/ { s = 1; next } s && $1 ~ /^[0-9]+$/ { print $2; exit }' "$tmp/$name.txt")
	[ -n "$pid" ] || fail "$name: no pid in the Ranks table"
	"$mapreport" --merge --json --pid "$pid" "$@" >"$tmp/$name.p.json" 2>/dev/null ||
		fail "$name: mapreport --json --pid $pid failed"
	chrome "$tmp/$name.pdom" "$tmp/$name.pdom.err" --dump-dom "file://$tmp/$name.html#pid=$pid"
	no_console "$tmp/$name.pdom.err"
	same_json "$tmp/$name.pdom" "$tmp/$name.p.json" ||
		fail "$name: process $pid: the Ranks table is not the row of mapreport --json --pid $pid"
}

test_synthetic() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/s.log" >/dev/null
	check s "$tmp/s.log"
	# a thread id both processes have (#tid=4002 selects both): their
	# rows with that thread's samples and measured seconds, as --tid
	"$mapreport" --tid 4002 "$tmp/s.log" >"$tmp/s.tid.txt" 2>/dev/null ||
		fail "mapreport --tid 4002 failed"
	chrome "$tmp/s.tdom2" "$tmp/s.tdom2.err" --dump-dom "file://$tmp/s.html#tid=4002"
	no_console "$tmp/s.tdom2.err"
	same_rows "$tmp/s.tdom2" "$tmp/s.tid.txt" ||
		fail "thread 4002: the Ranks table is not that of mapreport --tid 4002"
}

# two iowrite processes started by one shell: I/O samples in both
test_io() {
	[ -x "$programs/iowrite" ] || fail "no test/programs/iowrite"
	"$mapsample" -q -o "$tmp/io.log" -F 1000 -- sh -c \
		"'$programs/iowrite' '$tmp/a' 16384 & '$programs/iowrite' '$tmp/b' 16384; wait" \
		</dev/null >/dev/null 2>"$tmp/io.err" || {
		cat "$tmp/io.err" >&2
		fail "iowrite: mapsample failed"
	}
	check io "$tmp/io.log"
	awk '/^Ranks/ { s = 1; next } s && $1 ~ /^[0-9]+$/ && $7 + 0 > 0 { n++ }
		END { exit n < 1 }' "$tmp/io.t.txt" ||
		fail "iowrite: no I/O % in the range's Ranks table"
}

# a synthetic MPI job (test/bench/bench_ranks, 3 ranks): the MPI share of
# the time-in-MPI metric and the memory peak of the range, from the page's
# metric figures per bin, none of them the whole run's
test_job() {
	bench_ranks=$top_builddir/test/bench/bench_ranks
	[ -x "$bench_ranks" ] || fail "$bench_ranks not built"
	"$bench_ranks" -r 3 -n 3000 "$tmp/job" >/dev/null || fail "bench_ranks failed"
	check job strict "$tmp"/job/rank-0000*.maplog
	awk '/^Ranks/ { s = 1; next } s && $1 ~ /^[0-9]+$/ && $6 + 0 > 0 { n++ }
		END { exit n < 3 }' "$tmp/job.t.txt" ||
		fail "job: no MPI % in the range's Ranks table"
}

test_synthetic
test_io
test_job
echo "mapreport-html-ranks: all cases passed"
