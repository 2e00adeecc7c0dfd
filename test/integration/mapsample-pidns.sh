#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Two PID namespaces with the same pids under one mapsample: a shell
# runs "unshare -p -f --mount-proc" twice, each time a program that
# becomes pid 1 of its namespace and burns CPU (test/programs/cpuburn).
# The two must be two processes in the report, each with its own
# samples, not one row holding both.  Skipped where unshare(1) cannot
# make a PID namespace (no privilege for it).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs cpuburn
command -v unshare >/dev/null 2>&1 || { echo "SKIP: no unshare(1)"; exit 77; }
unshare -p -f --mount-proc true 2>/dev/null ||
	{ echo "SKIP: unshare -p -f --mount-proc cannot make a PID namespace here"; exit 77; }

burn="$programs/cpuburn"
sample ns -- sh -c "unshare -p -f --mount-proc '$burn' 200; unshare -p -f --mount-proc '$burn' 200"
[ "$rc" = 0 ] || { show "$tmp/ns.err"; fail "mapsample exited $rc"; }
report ns
sed -n '/^Processes/,/^$/p' "$tmp/ns.report" | grep -v unshare |
	grep '/cpuburn 200$' >"$tmp/rows" || true
rows=$(wc -l <"$tmp/rows")
[ "$rows" = 2 ] || { show "$tmp/ns.report"; fail "$rows rows for the two cpuburn processes, not 2"; }
# each has samples of its own: 0.2 s of CPU, about 50 at 250 Hz (with
# other work on the machine, POSIX CPU timers alone gave cpuburn 0 to
# 8, test/bench/README.md; the default's perf event keeps the rate).  The PID
# column reads "1 (ns T)": samples are the fifth field.
awk '$5 < 25 { bad = 1 } END { exit bad }' "$tmp/rows" ||
	{ show "$tmp/ns.report"; fail "a cpuburn process has fewer than 25 samples"; }

# Every pid a user sees is the one the process had in its namespace (1
# for both cpuburns), told apart by "(ns T)" as the text report writes
# it, never the log's pid with the namespace's bits 22 and up (such as
# 167772161 = 40 << 22 | 1): the text tables, the HTML page (its cells,
# data-pid, the selector's labels in nr-data), the HTML marks table, the
# Chrome trace, pprof's labels and the JSON report.  The
# machine-readable outputs still keep the two apart: HTML data-proc,
# the trace's "pid" (one number per process), pprof's pid_ns label and
# the JSON's pid_ns.
"$mapreport" -D "$tmp/ns.log" >"$tmp/ns.dump" 2>&1 ||
	{ show "$tmp/ns.dump"; fail "mapreport -D failed"; }
awk '{ split($3, a, "/"); if (a[1] >= 4194304) print a[1] }' "$tmp/ns.dump" |
	sort -u >"$tmp/tagged"
[ "$(wc -l <"$tmp/tagged")" -ge 2 ] ||
	{ show "$tmp/ns.dump"; fail "the log holds no two pids of other namespaces"; }
# no_tagged FILE...: none of the log's tagged pids is a number in FILE
no_tagged() {
	for f in "$@"; do
		grep -Eo '[0-9]+' "$f" | sort -u | comm -12 - "$tmp/tagged" >"$tmp/hits"
		[ ! -s "$tmp/hits" ] ||
			fail "$(basename "$f") shows the log's pid $(head -n 1 "$tmp/hits") (namespace bits), not the pid in its namespace"
	done
}
# the text report: "1 (ns T)", two different T, each with samples
sed -n '/^Processes/,/^$/p' "$tmp/ns.report" | grep -v unshare |
	grep '/cpuburn 200$' >"$tmp/rows2" || true
awk '$1 != 1 || $2 != "(ns" || $3 !~ /^[0-9]+\)$/ || $5 < 1 { bad = 1 }
	{ t[$3] = 1 } END { n = 0; for (k in t) n++; exit bad || n != 2 }' "$tmp/rows2" ||
	{ show "$tmp/ns.report"; fail "the cpuburn rows are not '1 (ns T)' with two T and samples"; }
no_tagged "$tmp/ns.report"
# the HTML page
"$mapreport" --html "$tmp/ns.html" --trace "$tmp/ns.trace" \
	--pprof "$tmp/ns.pb.gz" "$tmp/ns.log" >/dev/null 2>"$tmp/ns.err2" ||
	{ show "$tmp/ns.err2"; fail "mapreport --html --trace --pprof failed"; }
no_tagged "$tmp/ns.html" "$tmp/ns.trace"
python3 - "$tmp/ns.html" <<'PY' || fail "HTML: the two pid 1 processes not shown as 1 (ns T), kept apart"
import json, re, sys
html = open(sys.argv[1]).read()
rows = re.findall(r'<tr data-pid="(\d+)" data-proc="(\d+)"><td class="n">([^<]*)</td>'
                  r'.*?<td class="f(?: sub)?">([^<]*)</td></tr>', html)
burn = [r for r in rows if r[3].endswith('/cpuburn 200') and 'unshare' not in r[3]]
assert len(burn) == 2, rows
assert all(r[0] == '1' and re.match(r'1 \(ns \d+\)$', r[2]) for r in burn), burn
assert len({r[1] for r in burn}) == 2 and len({r[2] for r in burn}) == 2, burn
d = json.loads(re.search(r'id="nr-data">(.*?)</script>', html, re.S).group(1))
one = {(t[0], t[4]) for t in d["threads"] if t[3] == "cpuburn"}
assert len(one) == 2 and all(t[5] == 1 for t in d["threads"] if t[3] == "cpuburn"), d["threads"]
acts = re.findall(r'<g class="act-row" data-pid="(\d+)" data-tid="\d+" data-proc="(\d+)">', html)
assert acts and all(int(p) < 4194304 for p, _ in acts), acts
PY
# the trace: two processes named "cpuburn (pid 1 (ns T))", each its own
# trace pid, their samples on those
python3 - "$tmp/ns.trace" <<'PY' || fail "trace: the two pid 1 processes not kept apart by pid, named by pid 1"
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in ev if e["name"] == "process_name"}
burn = [p for p, n in names.items() if re.match(r'cpuburn \(pid 1 \(ns \d+\)\)$', n)]
assert len(burn) == 2 and len({names[p] for p in burn}) == 2, names
assert all(p <= len(names) + 1 for p in names), names
for p in burn:
    assert any(e["ph"] == "X" and e["pid"] == p for e in ev), p
args = [e["args"] for e in ev if e["name"] == "process_name" and e["pid"] in burn]
assert all(a["pid"] == 1 for a in args) and len({a["pid_ns"] for a in args}) == 2, args
PY
# pprof: both with pid 1, a pid_ns each, different
python3 "$top_srcdir/test/integration/pprof_labels.py" "$tmp/ns.pb.gz" >"$tmp/ns.labels" ||
	fail "pprof: the profile cannot be read"
grep 'process=cpuburn' "$tmp/ns.labels" | sed -n 's/^pid=\([0-9]*\) .* pid_ns=\([0-9]*\)$/\1 \2/p' |
	sort -u >"$tmp/ns.pl"
awk '$1 != 1 { bad = 1 } END { exit bad || NR != 2 }' "$tmp/ns.pl" ||
	{ show "$tmp/ns.labels"; fail "pprof: the cpuburns' samples are not labelled pid=1 with two pid_ns"; }
no_tagged "$tmp/ns.labels"
# the JSON report: pid 1 for both, told apart by pid_ns (schema-valid)
"$mapreport" --json "$tmp/ns.log" >"$tmp/ns.json" 2>"$tmp/ns.err3" ||
	{ show "$tmp/ns.err3"; fail "mapreport --json failed"; }
no_tagged "$tmp/ns.json"
python3 - "$tmp/ns.json" <<'PY' || fail "JSON: the two cpuburns not pid 1 with two pid_ns"
import json, sys
d = json.load(open(sys.argv[1]))
burn = [p for p in d["processes"] if (p["exe"] or "").endswith("/cpuburn")]
assert len(burn) == 2 and all(p["pid"] == 1 for p in burn), burn
assert len({p["pid_ns"] for p in burn}) == 2, burn
th = [t for t in d["threads"] if t["pid"] == 1 and t["image"] == 1]
assert len({t["pid_ns"] for t in th}) == 2, th
PY
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$top_srcdir/test/integration/json/validate.py" \
		"$top_srcdir/share/mapsample/mapreport.schema.json" "$tmp/ns.json" \
		>"$tmp/valid" 2>&1 || { show "$tmp/valid"; fail "ns.json does not follow the schema"; }
fi
# the HTML marks table: test/programs/marks' point mark "between", in
# two namespaces
need_programs marks
sample nsm -- sh -c "unshare -p -f --mount-proc '$programs/marks' 20; unshare -p -f --mount-proc '$programs/marks' 20"
[ "$rc" = 0 ] || { show "$tmp/nsm.err"; fail "mapsample (marks) exited $rc"; }
"$mapreport" -D "$tmp/nsm.log" >"$tmp/nsm.dump" 2>&1 ||
	{ show "$tmp/nsm.dump"; fail "mapreport -D (marks) failed"; }
awk '{ split($3, a, "/"); if (a[1] >= 4194304) print a[1] }' "$tmp/nsm.dump" |
	sort -u >"$tmp/tagged"
"$mapreport" --html "$tmp/nsm.html" --trace "$tmp/nsm.trace" "$tmp/nsm.log" \
	>/dev/null 2>"$tmp/nsm.err2" ||
	{ show "$tmp/nsm.err2"; fail "mapreport --html --trace (marks) failed"; }
no_tagged "$tmp/nsm.html" "$tmp/nsm.trace"
python3 - "$tmp/nsm.html" "$tmp/nsm.trace" <<'PY' || fail "marks: the two pid 1 processes' marks not shown as 1 (ns T), kept apart"
import json, re, sys
html = open(sys.argv[1]).read()
marks = html[html.index('<h3>Marks</h3>'):]
marks = marks[:marks.index('</table>')]
rows = re.findall(r'<tr data-pid="(\d+)" data-proc="(\d+)"[^>]*><td class="n">[^<]*</td>'
                  r'<td class="n">([^<]*)</td><td class="n">\d+</td><td class="n">\d+</td><td>between</td>', marks)
assert len(rows) == 2, marks
assert all(r[0] == '1' and re.match(r'1 \(ns \d+\)$', r[2]) for r in rows), rows
assert len({r[1] for r in rows}) == 2 and len({r[2] for r in rows}) == 2, rows
ev = json.load(open(sys.argv[2]))["traceEvents"]
pids = {e["pid"] for e in ev if e["ph"] == "i" and e["name"] == "between"}
names = {e["pid"]: e["args"]["name"] for e in ev if e["name"] == "process_name"}
assert len(pids) == 2 and all(re.match(r'marks \(pid 1 \(ns \d+\)\)$', names[p]) for p in pids), (pids, names)
PY
echo "ok - two PID namespaces: pid 1 twice, told apart by (ns T), in the text, HTML, marks, trace, pprof and JSON"
echo "ok - two PID namespaces with the same pid 1: two processes"
