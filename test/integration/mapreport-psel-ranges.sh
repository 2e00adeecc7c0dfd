#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The partial reports the HTML page makes for a selection
# (lib/report/out/html/psel.js over the page's "psel-data" and
# "msel-data"), run in Node.js against mapreport --json: for 40 time
# ranges on the page's bins (random, seeded, and the first bin, the
# middle half, the whole run), each with every process or one of them,
# every entry psel.js makes must have the value (to the last bit), text,
# bar, bins and process count of the entry of mapreport --json --time
# FROM:TO --pid N, and the same number of time bins.  The logs: the
# partial scenario of mkpartlog (test/integration/partial/scenario.xml:
# every sampleValue and aggregation, groups, a rate metric, a missing
# tick, a metric no log defines), and two real runs of Debian's python3
# (threads, a forked child) under every metric plugin that loads, with
# the built-in reports: a short one at 10 ms, and one at 2 ms long enough
# that the whole run's bins are wider than its metric interval, so a
# short range gets narrower bins of its own.  The browser test
# mapreport-html-psel.sh checks that the page shows these figures.
# Skipped (77) without node or /usr/bin/python3.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
mkpartlog=$top_builddir/test/integration/mkpartlog
msel=$top_srcdir/lib/report/out/html/msel.js
psel=$top_srcdir/lib/report/out/html/psel.js
scenario=$top_srcdir/test/integration/partial/scenario.xml

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

# eval.js PAGE B0 B1 PROCS: psel.js's reports for bins [B0, B1) of the
# processes PROCS (page numbers, comma-separated; "all": every one)
cat >"$tmp/eval.js" <<'JS'
const fs = require('fs'), vm = require('vm');
const [msel, psel, page, b0, b1, procs] = process.argv.slice(2);
const html = fs.readFileSync(page, 'utf8');
const ctx = {};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(msel, 'utf8') + '\n' +
	fs.readFileSync(psel, 'utf8') + '\nthis.P = mapreportPsel;', ctx);
function data(id) {
	const m = new RegExp('<script type="application/json" id="' + id +
		'">([\\s\\S]*?)</script>').exec(html);
	if (!m) { console.error('no ' + id); process.exit(2); }
	const d = JSON.parse(m[1]);
	if (d.none) { console.error(id + ' holds none: ' + d.none); process.exit(2); }
	return d;
}
const p = procs === 'all' ? null : procs.split(',').map(Number);
console.log(JSON.stringify(ctx.P.evaluate(data('psel-data'), data('msel-data'),
	p, +b0, +b1)));
JS

# check LABEL [--partial-report FILE] LOG...: the page of LOG... and 40
# selections of it
check() {
	label=$1
	shift
	"$mapreport" --html "$tmp/p.html" "$@" >"$tmp/p.txt" 2>/dev/null ||
		fail "$label: mapreport --html failed"
	"$py" - "$node" "$tmp/eval.js" "$msel" "$psel" "$tmp/p.html" "$tmp/p.txt" \
		"$mapreport" "$label" "$@" <<'PY' || fail "$label: psel.js's partial reports are not mapreport's"
import json, random, re, subprocess, sys
node, evjs, msel, psel, page, txt, mapreport, label = sys.argv[1:9]
args = sys.argv[9:]
html = open(page).read()
nr = json.loads(re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S).group(1))
bins, w = nr["bins"], nr["seconds"] / nr["bins"]
# the page's process numbers are the order of the text's Processes table
text = open(txt).read()
procs = re.search(r'^Processes\n.*?\n(.*?)\n\n', text, re.S | re.M).group(1)
pids = [l.split()[0] for l in procs.split("\n") if l.split() and l.split()[0].isdigit()]
assert pids, text[:400]
random.seed(11)
cases = [(0, bins, "all"), (bins // 4, 3 * bins // 4, "all"), (0, 1, "all"),
         (bins - 1, bins, "1")]
while len(cases) < 40:
    a = random.randrange(bins)
    cases.append((a, random.randrange(a + 1, bins + 1),
                   random.choice(["all"] + [str(i + 1) for i in range(len(pids))])))
ents = valued = bad = 0
narrower = 0
whole = None
for a, b, p in cases:
    cmd = [mapreport, "--json"]
    if (a, b) != (0, bins):
        cmd += ["--time", "%.9f:%.9f" % (w * a, w * b)]
    if p != "all":
        cmd += ["--pid", pids[int(p) - 1]]
    j = json.loads(subprocess.run(cmd + args, capture_output=True, text=True,
                                  check=True).stdout)["partial_reports"]
    g = json.loads(subprocess.run([node, evjs, msel, psel, page, str(a), str(b), p],
                                  capture_output=True, text=True, check=True).stdout)
    if whole is None:
        whole = j["bin_s"]
    elif j["bin_s"] is not None and j["bin_s"] < whole:
        narrower += 1
    diffs = []
    if g["nbins"] != j["bins"] or len(g["reports"]) != len(j["reports"]):
        diffs.append("bins or reports: page %d, %d; json %d, %d" % (
            g["nbins"], len(g["reports"]), j["bins"], len(j["reports"])))
    for gr, jr in zip(g["reports"], j["reports"]):
        for gs, js in zip(gr, jr["subsections"]):
            if len(gs) != len(js["entries"]):
                diffs.append("%s: %d entries, json %d" % (js["id"], len(gs), len(js["entries"])))
            for ge, je in zip(gs, js["entries"]):
                ents += 1
                valued += ge["state"] == "value"
                jb = je["bar"] if je["bar"] is not None else -1
                if (ge["text"], ge["value"], ge["bins"], ge["procs"]) != \
                        (je["text"], je["value"], je["bins"], je["processes"]) or \
                        abs(ge["bar"] - jb) > 1e-12:
                    diffs.append("%s: page %s (%r) bar %s bins %s procs %s; json %s (%r) bar %s bins %s procs %s" % (
                        je["id"], ge["text"], ge["value"], ge["bar"], ge["bins"], ge["procs"],
                        je["text"], je["value"], jb, je["bins"], je["processes"]))
    if diffs:
        bad += 1
        print("%s: bins %d-%d of %d, process %s:" % (label, a, b, bins, p), file=sys.stderr)
        for d in diffs[:8]:
            print("  " + d, file=sys.stderr)
print("%s: %d selections, %d entries (%d with a value), %d selections differ, "
      "%d with bins narrower than the whole run's" % (label, len(cases), ents, valued, bad, narrower))
sys.exit(1 if bad or valued < 40 else 0)
PY
}

# run LOG SECONDS_SCALE INTERVAL: python3 under every metric plugin
run() {
	cat >"$tmp/work.py" <<PY
import json, os, sys, threading
def work(k, name):
    s = 0
    for i in range($2 * k):
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
	"$mapsample" -q --metrics all --metric-interval "$3" -o "$1" \
		-- "$py" "$tmp/work.py" "$tmp/out" >/dev/null 2>"$tmp/run.err" || {
		cat "$tmp/run.err" >&2
		fail "mapsample python3 failed"
	}
}

"$mkpartlog" "$tmp/s.log" >/dev/null
check "partial scenario" --partial-report "$scenario" "$tmp/s.log"
run "$tmp/short.log" 150000 10
check "python3, 10 ms" "$tmp/short.log"
# long enough for more metric ticks than the partial reports' 1000 bins
run "$tmp/long.log" 9000000 2
"$mapreport" --json="$tmp/long.json" "$tmp/long.log" >/dev/null 2>&1
"$py" - "$tmp/long.json" <<'PY' || fail "the long run's bins are not wider than its metric interval"
import json, sys
p = json.load(open(sys.argv[1]))["partial_reports"]
print("long run: %d bins of %.4f s, metric interval %.4f s" % (p["bins"], p["bin_s"], p["metric_interval_s"]))
sys.exit(0 if p["bins"] == 1000 and p["bin_s"] > p["metric_interval_s"] * 1.05 else 1)
PY
check "python3, 2 ms, long" "$tmp/long.log"
