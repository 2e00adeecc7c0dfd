#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The HTML page's metric charts for a selection of several processes, in
# headless Chromium: two logs of two processes each with the same pids
# (mklog, two seeds), narrowed to #pid=4000 (a process of each log, two
# of the four), draw each chart's line and band from those two processes'
# series combined (charts.js combine), which must be, point for point,
# the chart mapreport draws itself with --pid 4000 (its line the mean of
# the processes' means, its band lowest to highest process), to the
# page's resolution (0.3 px of either axis); the legends say whose
# values.  Before, such a selection kept the chart of every process.
# Skipped (77) when no Chromium is installed.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"

"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/a.log" >/dev/null
"$mklog" -n 20000 -p 2 -t 4 -s 5 "$tmp/b.log" >/dev/null
"$mapreport" --html "$tmp/all.html" "$tmp/a.log" "$tmp/b.log" >/dev/null 2>&1 ||
	fail "mapreport --html failed"
"$mapreport" --pid 4000 --html "$tmp/pid.html" "$tmp/a.log" "$tmp/b.log" >/dev/null 2>&1 ||
	fail "mapreport --pid 4000 --html failed"
chrome "$tmp/sel.dom" "$tmp/sel.err" --dump-dom "file://$tmp/all.html#pid=4000"
no_console "$tmp/sel.err"
grep -q 'data-narrowed="yes"' "$tmp/sel.dom" || fail "page not narrowed"
python3 - "$tmp/sel.dom" "$tmp/pid.html" <<'PY' || fail "the charts of #pid=4000 are not those of mapreport --pid 4000"
import json, re, sys
dom, cli = open(sys.argv[1]).read(), open(sys.argv[2]).read()
def msdata(page):
    d = json.loads(re.search(r'<script type="application/json" id="ms-data">(.*?)</script>',
                             page, re.S).group(1))
    return d, {c["id"]: c for c in d["charts"]}
pd, pby = msdata(dom)
cd, cby = msdata(cli)
Y0, Y1 = pd["y"]
assert cd["y"] == pd["y"], (cd["y"], pd["y"])
def figs(page):
    return {m.group(1): m.group(0) for m in
            re.finditer(r'<figure class="chart" data-metric="([^"]*)"[^>]*>.*?</figure>', page, re.S)}
pf, cf = figs(dom), figs(cli)
assert pf and set(pf) == set(cf), (sorted(pf), sorted(cf))
def pts(s):
    return [tuple(map(float, p.split(','))) for p in s.split()]
def val(y, ax):
    return ax[0] + (Y1 - y) / (Y1 - Y0) * (ax[1] - ax[0])
n = bad = 0
for mid, fig in pf.items():
    leg = re.search(r'<div class="legend"[^>]*>([^<]*)</div>', fig).group(1)
    assert leg.startswith("The 2 selected processes, 2 with values: line = mean of the processes"), leg
    g = re.search(r'<g class="nr-series">(.*?)</g>', fig, re.S)
    assert g, mid + ": no series of the selection drawn"
    assert re.search(r'<g class="series" display="none"', fig), mid + ": every process's series still shown"
    c = cf[mid]
    for kind in ('polyline class="mean"', 'polygon class="band"'):
        a = [pts(x) for x in re.findall('<' + kind + r' points="([^"]*)"', g.group(1))]
        b = [pts(x) for x in re.findall('<' + kind + r' points="([^"]*)"', c)]
        if len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b)):
            print("%s %s: segments %s, want %s" % (mid, kind, [len(x) for x in a], [len(x) for x in b]))
            bad += 1
            continue
        pax, cax = pby[mid]["all"], cby[mid]["all"]
        tol = 0.3 / (Y1 - Y0) * max(pax[1] - pax[0], cax[1] - cax[0])
        for x, y in zip(a, b):
            for p, q in zip(x, y):
                n += 1
                if abs(p[0] - q[0]) > 0.11 or abs(val(p[1], pax) - val(q[1], cax)) > tol:
                    print("%s %s: point %s is %g, want %s, %g" % (mid, kind, p, val(p[1], pax), q, val(q[1], cax)))
                    bad += 1
                    break
note = re.search(r'<p class="note nr-whole">(Charts: [^<]*)</p>', dom)
assert note and "the values of the 2 selected processes, combined" in note.group(1), note
print("%d charts, %d points, %d differ" % (len(pf), n, bad))
sys.exit(1 if bad or n < 100 else 0)
PY
