#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The rows the HTML page makes for the metrics table of a selection
# (lib/report/out/html/msel.js over the page's "msel-data"), run in
# Node.js against mapreport's text report, on many selections: for 40
# time ranges on the page's bins (random, seeded, and the first bin, the
# middle half, the whole run), each with every process or one of them,
# the rows msel.js makes must be, cell for cell, the Metrics rows of
# mapreport --time FROM:TO --pid N.  The logs: a real run of Debian's
# python3 (threads, a forked child, file writes) under every metric
# plugin that loads (--metrics all, values every 10 ms: rates, values
# with none, plain and per-second metrics), mklog's synthetic 2-process
# log and mklog --metrics.  The browser test mapreport-html-msel.sh
# checks that the page shows these rows; this one covers more ranges
# than a browser can open in the time.  Skipped (77) without node or
# /usr/bin/python3.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
mklog=$top_builddir/test/common/mklog
msel=$top_srcdir/lib/report/out/html/msel.js

node=$(command -v node || command -v nodejs || true)
[ -n "$node" ] || { echo "SKIP: no node (apt-get install nodejs)"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# rows.js PAGE B0 B1 PROCS: msel.js's rows for bins [B0, B1) of the
# processes PROCS (page numbers, comma-separated; "all": every one)
cat >"$tmp/rows.js" <<'JS'
const fs = require('fs'), vm = require('vm');
const [msel, page, b0, b1, procs] = process.argv.slice(2);
const html = fs.readFileSync(page, 'utf8');
const ctx = {};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(msel, 'utf8') + '\nthis.M = mapreportMsel;', ctx);
const m = /<script type="application\/json" id="msel-data">([\s\S]*?)<\/script>/.exec(html);
if (!m) { console.error('no msel-data'); process.exit(2); }
const d = JSON.parse(m[1]);
if (!d.s) { console.error('msel-data holds none: ' + d.none); process.exit(2); }
const p = procs === 'all' ? null : procs.split(',').map(Number);
for (const r of ctx.M.rows(d, p, +b0, +b1))
	console.log(r.cells.join(' ').replace(/\s+/g, ' '));
JS

# check LABEL LOG...: the page of LOG... and 40 selections of it
check() {
	label=$1
	shift
	"$mapreport" --html "$tmp/p.html" "$@" >"$tmp/p.txt" 2>/dev/null ||
		fail "$label: mapreport --html failed"
	"$py" - "$node" "$tmp/rows.js" "$msel" "$tmp/p.html" "$tmp/p.txt" \
		"$mapreport" "$label" "$@" <<'PY' || fail "$label: msel.js's rows are not the text report's"
import json, random, re, subprocess, sys
node, rows_js, msel, page, txt, mapreport, label = sys.argv[1:8]
logs = sys.argv[8:]
html = open(page).read()
nr = json.loads(re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S).group(1))
bins, w = nr["bins"], nr["seconds"] / nr["bins"]
# the page's process numbers are the order of the text's Processes table
text = open(txt).read()
procs = re.search(r'^Processes\n.*?\n(.*?)\n\n', text, re.S | re.M).group(1)
pids = [l.split()[0] for l in procs.split("\n") if l.split() and l.split()[0].isdigit()]
assert pids, text[:400]
random.seed(7)
cases = [(0, bins, "all"), (bins // 4, 3 * bins // 4, "all"), (0, 1, "all"),
         (bins - 1, bins, "1")]
while len(cases) < 40:
    a = random.randrange(bins)
    cases.append((a, random.randrange(a + 1, bins + 1),
                   random.choice(["all"] + [str(i + 1) for i in range(len(pids))])))
rows = bad = 0
for a, b, p in cases:
    args = [mapreport]
    if (a, b) != (0, bins):
        args += ["--time", "%.9f:%.9f" % (w * a, w * b)]
    if p != "all":
        args += ["--pid", pids[int(p) - 1]]
    out = subprocess.run(args + logs, capture_output=True, text=True, check=True).stdout
    sec = out[out.index("\nMetrics:"):]
    sec = sec[:sec.index("  MEAN:")]
    want = [" ".join(l.split()) for l in sec.split("\n")[2:] if l.strip()]
    want = [l for l in want if not l.startswith("Filter:") and not l.startswith("METRIC ")]
    got = subprocess.run([node, rows_js, msel, page, str(a), str(b), p],
                         capture_output=True, text=True, check=True).stdout
    got = [" ".join(l.split()) for l in got.strip().split("\n")]
    rows += len(got)
    if got != want:
        bad += 1
        print("%s: bins %d-%d of %d, process %s:" % (label, a, b, bins, p), file=sys.stderr)
        for g, x in zip(got, want):
            if g != x:
                print("  page: %s\n  text: %s" % (g, x), file=sys.stderr)
print("%s: %d selections, %d rows, %d selections differ" % (label, len(cases), rows, bad))
sys.exit(1 if bad or rows < 80 else 0)
PY
}

test_real() {
	cat >"$tmp/work.py" <<'PY'
import json, os, sys, threading
def work(k, name):
    s = 0
    for i in range(150000 * k):
        s += i * i % 7
    with open(name, "w") as f:
        f.write(json.dumps(list(range(50000 * k))))
ts = [threading.Thread(target=work, args=(k, sys.argv[1] + str(k))) for k in (1, 2, 3)]
[t.start() for t in ts]
[t.join() for t in ts]
if os.fork() == 0:
    work(4, sys.argv[1] + "c")
    os._exit(0)
work(2, sys.argv[1] + "p")
os.wait()
PY
	"$mapsample" -q --metrics all --metric-interval 10 -o "$tmp/real.log" \
		-- "$py" "$tmp/work.py" "$tmp/out" >/dev/null 2>"$tmp/real.err" || {
		cat "$tmp/real.err" >&2
		fail "mapsample python3 failed"
	}
	check "python3 run" "$tmp/real.log"
}

test_synthetic() {
	"$mklog" -n 20000 -p 2 -t 4 -s 5 "$tmp/s.log" >/dev/null
	check "mklog 2 processes" "$tmp/s.log"
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	check "mklog --metrics" "$tmp/m.log"
}

test_real
test_synthetic
