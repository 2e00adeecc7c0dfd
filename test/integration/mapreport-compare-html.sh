#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare --html FILE: the differential flame graph of
# test/programs/cmpwork against its build with a slower work_solve.
# The page (python3's HTML parser): work_solve's frame is as wide as its
# share of NEW's samples, red (its share grew), work_parse's blue (it
# shrank), every frame inside its parent's span and row; the rules table
# says the rule is broken.  The metric charts: one per metric both runs
# recorded, each with BASE's and NEW's line inside the plot, as many
# points as the figure says, and the line of the run that took longer
# (the slow build runs about 1.7 times as long on a quiet machine)
# reaching further right in the CPU chart.  Then, with Chromium, headless: the page loads
# with no console message (nothing blocked by its Content-Security-
# Policy) and a screenshot is kept as mapreport-compare-html.png in the
# build tree for CI artifacts (that part skipped without Chromium).
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
work=$top_builddir/test/programs/cmpwork
slow=$top_builddir/test/programs/slow/cmpwork
python=/usr/bin/python3

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

"$mapsample" -q -o "$tmp/base.log" -- "$work" </dev/null >/dev/null 2>&1 ||
	fail "mapsample cmpwork"
"$mapsample" -q -o "$tmp/slow.log" -- "$slow" </dev/null >/dev/null 2>&1 ||
	fail "mapsample slow cmpwork"
set +e
"$mapreport" --compare --html "$tmp/c.html" --fail-if 'self(work_solve) > +2pp' \
	"$tmp/base.log" "$tmp/slow.log" >"$tmp/c.out" 2>"$tmp/c.err"
rc=$?
set -e
[ "$rc" = 3 ] || { cat "$tmp/c.err" >&2; fail "mapreport --compare --html: exit $rc, not 3"; }

"$python" - "$tmp/c.html" <<'PY' || fail "differential flame graph"
import re, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.frames = []; s.cur = None; s.broken = False
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "div" and a.get("class") == "f":
            st = dict(x.split(":", 1) for x in a["style"].split(";"))
            s.cur = {"left": float(st["left"][:-1]), "width": float(st["width"][:-1]),
                     "top": int(st["top"][:-2]), "bg": st["background"],
                     "new": float(a["data-new"]), "base": float(a["data-base"]), "name": ""}
        if tag == "td" and a.get("class") == "broken": s.broken = True
    def handle_data(s, d):
        if s.cur is not None: s.cur["name"] += d
    def handle_endtag(s, tag):
        if tag == "div" and s.cur is not None: s.frames.append(s.cur); s.cur = None
p = P(); p.feed(open(sys.argv[1]).read())
assert p.broken, "rules table: no broken rule"
f = {x["name"]: x for x in p.frames}
def rgb(x): return [int(v) for v in re.findall(r"\d+", x["bg"])]
solve, parse = f["work_solve"], f["work_parse"]
assert abs(solve["width"] - 100 * solve["new"]) < 0.01, solve
assert 0.45 < solve["new"] < 0.75 and 0.2 < solve["base"] < 0.45, solve
r, g, b = rgb(solve); assert r == 255 and g < 100 and b < 100, solve
r, g, b = rgb(parse); assert b > 225 and r < 225 and g == r, parse
assert rgb(f["all"]) == [225, 225, 225], f["all"]
assert f["all"]["width"] == 100 and f["all"]["top"] > solve["top"]
# each frame within the span of the frame one row below it that holds it
for x in p.frames:
    if x["name"] == "all": continue
    under = [y for y in p.frames if y["top"] == x["top"] + 18 and
             y["left"] - 1e-3 <= x["left"] and x["left"] + x["width"] <= y["left"] + y["width"] + 1e-3]
    assert under, ("no parent under", x)
PY

# each run's wall time, which sets how far right its line reaches (on a
# loaded machine the slow build need not be the longer run)
dur() {
	"$mapreport" --json "$1" | "$python" -c \
		'import json,sys; print(json.load(sys.stdin)["summary"]["duration_s"])'
}
"$python" - "$tmp/c.html" "$(dur "$tmp/base.log")" "$(dur "$tmp/slow.log")" <<'PY' || fail "metric charts"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.figs = []; s.section = False
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "section" and a.get("id") == "metric-charts": s.section = True
        if tag == "figure" and a.get("class") == "mc":
            s.figs.append({"metric": a["data-metric"], "nb": int(a["data-base-points"]),
                           "nn": int(a["data-new-points"])})
        if tag == "polyline":
            pts = [tuple(map(float, p.split(","))) for p in a["points"].split()]
            s.figs[-1][a["class"]] = pts
p = P(); p.feed(open(sys.argv[1]).read())
assert p.section, "no metric-charts section"
assert len(p.figs) >= 3, [f["metric"] for f in p.figs]
for f in p.figs:
    assert len(f["base"]) == f["nb"] and len(f["new"]) == f["nn"], f["metric"]
    for x, y in f["base"] + f["new"]:
        assert 80 <= x <= 780 and 10 <= y <= 150, (f["metric"], x, y)
cpu = [f for f in p.figs if f["metric"].endswith("cpu.user")]
assert cpu, [f["metric"] for f in p.figs]
c = cpu[0]
assert c["nb"] > 3 and c["nn"] > 3, c
# the run that took longer (by wall time, which depends on the machine's
# load: the slow build usually) reaches further right; runs within 10%
# of each other are not ordered
db, dn = float(sys.argv[2]), float(sys.argv[3])
xb, xn = max(x for x, _ in c["base"]), max(x for x, _ in c["new"])
if dn > 1.1 * db:
    assert xn > xb, (db, dn, c)
elif db > 1.1 * dn:
    assert xb > xn, (db, dn, c)
PY

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
	for b in chromium chromium-browser google-chrome; do
		command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
	done
fi
if [ -z "$browser" ]; then
	echo "no Chromium: page not loaded in a browser"
	exit 0
fi
set +e
HOME=$tmp timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --no-first-run --disable-extensions \
	--disable-background-networking --disable-component-update \
	--disable-sync --enable-logging=stderr --v=0 --window-size=1200,1600 \
	--screenshot="$tmp/shot.png" "file://$tmp/c.html" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
set -e
[ "$rc" = 0 ] || { tail -n 20 "$tmp/b.err" >&2; fail "$browser exited $rc"; }
if grep -q "CONSOLE" "$tmp/b.err"; then
	grep "CONSOLE" "$tmp/b.err" >&2
	fail "console messages"
fi
[ -s "$tmp/shot.png" ] || fail "no screenshot"
cp "$tmp/shot.png" mapreport-compare-html.png
echo "mapreport-compare-html: all cases passed"
