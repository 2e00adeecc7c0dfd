#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The performance summary the HTML page makes for a selection
# (lib/report/out/html/perf.js over ranks.js's rows of the selection),
# run in Node.js against mapreport --json: for 30 selections of each
# run (time ranges on the page's bins, random and seeded, and the whole
# run, each with every process or one of them), the verdict, the CPU
# seconds, the compute, MPI and I/O shares and the advice must be those
# of the "performance" object of mapreport --json --time FROM:TO --pid
# N (the shares to 1e-7: the page's range ends are a nanosecond from
# --time's).  The hottest function, which the page takes from its tables of the
# selection, is given from the JSON's top_self here (the browser test
# mapreport-html-perf.sh checks the page's own).  The runs: Debian's
# python3 with threads and a forked child, two test/programs/iowrite
# processes, and test/programs/mpiwork on 3 MPICH ranks when MPICH is
# installed.  Skipped (77) without node or /usr/bin/python3.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"
js=$top_srcdir/lib/report/out/html

node=$(command -v node || command -v nodejs || true)
[ -n "$node" ] || { echo "SKIP: no node (apt-get install nodejs)"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# perf.js PAGE B0 B1 PROC TOP SHARE: the summary of bins [B0, B1) of page
# process number PROC ("all": every process), TOP and SHARE the hottest
# function and its share
cat >"$tmp/perf.js" <<'JS'
const fs = require('fs'), vm = require('vm');
const [dir, page, b0, b1, proc, top, share] = process.argv.slice(2);
const html = fs.readFileSync(page, 'utf8');
function text(id) {
	const m = new RegExp('<script type="application/json" id="' + id +
		'">([\\s\\S]*?)</script>').exec(html);
	return m ? {textContent: m[1]} : null;
}
const ctx = {document: {getElementById: text}};
vm.createContext(ctx);
vm.runInContext(['msel.js', 'ranks.js', 'perf.js'].map(f =>
	fs.readFileSync(dir + '/' + f, 'utf8')).join('\n') +
	'\nthis.R = mapreportRanks; this.P = mapreportPerf;', ctx);
const nr = JSON.parse(text('nr-data').textContent);
const ok = nr.threads.map(t => proc === 'all' || t[0] === +proc);
const x = ctx.R.selection(ok, +b0, +b1, nr.seconds / nr.bins, proc === 'all' ? '' : 'p' + proc);
const st = text('st-data') ? JSON.parse(text('st-data').textContent) : null;
const procs = x.rows.map(r => r.proc);
const s = ctx.P.summary(x.rows, ctx.R.stats(x.rows), !!x.data.any_rank,
	ctx.P.p2pOf(st && st.mpi, procs), x.data.wall, top === '-' ? null : top, +share, x.data.sm);
console.log(JSON.stringify({verdict: s.verdict, advice: s.advice, seconds: s.seconds,
	compute: s.compute, mpi: s.mpi, io: s.io, nprocs: s.nprocs}));
JS

# check LABEL LOG...: 30 selections of the page of LOG...
check() {
	label=$1
	shift
	"$mapreport" --html "$tmp/p.html" "$@" >/dev/null 2>&1 || fail "$label: mapreport --html failed"
	"$py" - "$node" "$tmp/perf.js" "$js" "$tmp/p.html" "$mapreport" "$label" "$@" <<'PY' ||
import json, random, re, subprocess, sys
node, perfjs, js, page, mapreport, label = sys.argv[1:7]
args = sys.argv[7:]
html = open(page).read()
nr = json.loads(re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S).group(1))
bins, w = nr["bins"], nr["seconds"] / nr["bins"]
procs = {}
for t in nr["threads"]:
    procs.setdefault(t[0], t[5])
random.seed(5)
cases = [(0, bins, "all")] + [(0, bins, str(p)) for p in sorted(procs)]
while len(cases) < 30:
    a = random.randrange(bins)
    cases.append((a, random.randrange(a + 1, bins + 1), random.choice(["all"] + [str(p) for p in sorted(procs)])))
bad = kinds = 0
seen = set()
for a, b, p in cases:
    cmd = [mapreport, "--json"]
    if (a, b) != (0, bins):
        cmd += ["--time", "%.9f:%.9f" % (w * a, w * b)]
    if p != "all":
        cmd += ["--pid", str(procs[int(p)])]
    j = json.loads(subprocess.run(cmd + args, capture_output=True, text=True, check=True).stdout)
    want, top = j["performance"], j["top_self"]
    if not want["seconds"]:
        continue
    # the head of the JSON's table by self samples, as the summary's
    t = top[0] if top else None
    g = json.loads(subprocess.run([node, perfjs, js, page, str(a), str(b), p,
                                   t["name"] if t else "-", str(t["self_share"] if t else 0)],
                                  capture_output=True, text=True, check=True).stdout)
    seen.add(want["verdict"].split(":")[0])
    diff = []
    for k in ("verdict", "advice"):
        if g[k] != want[k]:
            diff.append("%s: page %r, json %r" % (k, g[k], want[k]))
    # the page's range ends are its bins' edges in ns, rounded; the
    # CLI's are --time's decimals, rounded up: a nanosecond apart, which
    # moves a share of the time-in-MPI metric by some 1e-9
    # (the seconds, added as report/ranks.c adds them, to the bit: a
    # sum in another order moved "32.5%" of the imbalance advice to 33)
    for k in ("seconds", "compute", "mpi", "io"):
        tol = 0 if k == "seconds" else 1e-7 * max(1, abs(want[k]))
        if abs(g[k] - want[k]) > tol:
            diff.append("%s: page %r, json %r" % (k, g[k], want[k]))
    if diff:
        bad += 1
        print("%s: bins %d-%d of %d, process %s:" % (label, a, b, bins, p), file=sys.stderr)
        for d in diff:
            print("  " + d, file=sys.stderr)
print("%s: %d selections, %d differ; verdicts seen: %s" % (label, len(cases), bad, ", ".join(sorted(seen))))
sys.exit(1 if bad else 0)
PY
	fail "$label: perf.js's summaries are not mapreport's"
}

need_programs iowrite

cat >"$tmp/work.py" <<'PY'
import os, sys, threading
def work(k):
    s = 0
    for i in range(300000 * k):
        s += i * i % 7
ts = [threading.Thread(target=work, args=(k,)) for k in (1, 2)]
[t.start() for t in ts]
[t.join() for t in ts]
if os.fork() == 0:
    work(1)
    os._exit(0)
work(3)
os.wait()
PY
"$mapsample" -q -o "$tmp/py.log" -- "$py" "$tmp/work.py" >/dev/null 2>"$tmp/py.err" ||
	{ cat "$tmp/py.err" >&2; fail "mapsample python3 failed"; }
check "python3" "$tmp/py.log"

"$mapsample" -q -o "$tmp/io.log" -F 1000 -- sh -c \
	"'$programs/iowrite' '$tmp/a' 16384 & '$programs/iowrite' '$tmp/b' 16384; wait" \
	</dev/null >/dev/null 2>"$tmp/io.err" || { cat "$tmp/io.err" >&2; fail "iowrite: mapsample failed"; }
check "iowrite" "$tmp/io.log"

if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
	mpicc.mpich -O1 -o "$tmp/mpiwork" "$top_srcdir/test/programs/mpiwork.c" ||
		fail "mpicc.mpich cannot build mpiwork.c"
	cat >"$tmp/rank.sh" <<EOS
#!/bin/sh
exec "$mapsample" -q --metrics-dir "$top_builddir/plugins/metrics" --metrics default,mpi \
	-o "$tmp/mj.\$PMI_RANK.log" -- "$tmp/mpiwork" 3 24000000
EOS
	chmod +x "$tmp/rank.sh"
	timeout 60 mpirun.mpich -np 3 "$tmp/rank.sh" >"$tmp/mj.out" 2>"$tmp/mj.err" ||
		{ cat "$tmp/mj.out" "$tmp/mj.err" >&2; fail "mpirun.mpich -np 3 mapsample -- mpiwork failed"; }
	check "mpiwork, 3 MPICH ranks" --merge "$tmp"/mj.*.log
else
	echo "no MPICH (mpicc.mpich, mpirun.mpich): the MPI run skipped"
fi
