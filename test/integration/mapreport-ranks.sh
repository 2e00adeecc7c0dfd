#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's job figures on real runs: the Summary (compute, MPI and I/O
# split, verdict, advice) and the Ranks section (per process of a job,
# across them, load imbalance), in text, JSON (validated against the
# schema) and HTML, the --rank filter, the built-in partial reports
# (share/mapsample/reports) shown with no user XML, and the real pids of
# two logs whose pids are the same.
#
# test/programs/rankwork forks 4 workers; worker 0 does twice the work
# of the others, so it is the slowest process and the load imbalance
# (max / mean of compute) is 2 / 1.25 = 1.6 (2.0 if the idle parent has
# a sample: it is then a fifth row with about no compute).  No MPI: the
# logs name no ranks, so processes are numbered by their order, and MPI
# is 0%.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# no user partial report definitions: only the built-in ones
HOME=$tmp/home
export HOME
mkdir "$HOME"
unset MAPSAMPLE_CONFIG_DIR ALLINEA_CONFIG_DIR \
	MAPSAMPLE_PARTIAL_REPORT_SOURCE ALLINEA_PARTIAL_REPORT_SOURCE || true

schema=$top_srcdir/share/mapsample/mapreport.schema.json
validate=$top_srcdir/test/integration/json/validate.py

need_programs rankwork hot

# section NAME TITLE: the lines of section TITLE (up to the next blank
# line) of $tmp/NAME.report.
section() {
	awk -v t="$2" 'index($0, t) == 1 { s = 1; print; next }
		s && NF == 0 { exit } s { print }' "$tmp/$1.report"
}

# json_get FILE EXPR: a Python expression over the document d.
json_get() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

validated() {
	if python3 -c 'import jsonschema' 2>/dev/null; then
		python3 "$validate" "$schema" "$1" >"$tmp/valid" 2>&1 || {
			show "$tmp/valid"
			fail "$1 does not follow the schema"
		}
	fi
}

sample job --metrics none,cpu,memory -- "$programs/rankwork" 4 250
[ "$rc" = 0 ] || { show "$tmp/job.err"; fail "rankwork: mapsample exited $rc"; }

test_ranks_table() {
	report job
	section job "Ranks:" >"$tmp/ranks"
	grep -q "^Ranks: [45] processes (no MPI ranks" "$tmp/ranks" || {
		show "$tmp/ranks"
		fail "no Ranks section of 4 or 5 processes"
	}
	# the slowest row: the worker with twice the work, about twice the
	# samples of each other worker
	slow=$(awk '/<- slowest/ { print $3 }' "$tmp/ranks")
	[ -n "$slow" ] || { show "$tmp/ranks"; fail "no row marked slowest"; }
	others=$(awk '$1 ~ /^[0-9]+$/ && !/<- slowest/ && $3 > 20 { print $3 }' \
		"$tmp/ranks" | sort -n | sed -n 2p)
	[ -n "$others" ] || { show "$tmp/ranks"; fail "no other worker rows"; }
	awk -v s="$slow" -v o="$others" 'BEGIN { exit !(s > 1.6 * o && s < 2.5 * o) }' || {
		show "$tmp/ranks"
		fail "the slowest row has $slow samples, another worker $others: not about twice"
	}
	imb=$(sed -n 's/^ *Load imbalance (max\/mean of compute): \([0-9.]*\);.*/\1/p' \
		"$tmp/ranks")
	awk -v i="$imb" 'BEGIN { exit !(i >= 1.4 && i <= 2.2) }' || {
		show "$tmp/ranks"
		fail "load imbalance '$imb', expected 1.6 (2.0 with the parent)"
	}
	grep -q "^  Compute-S  " "$tmp/ranks" || fail "no across-processes Compute-S line"
}

test_summary_job() {
	section job "Summary" >"$tmp/sum"
	grep -q "^  Compute-bound: .* 0.0% in MPI" "$tmp/sum" || {
		show "$tmp/sum"
		fail "verdict not compute-bound with 0.0% in MPI"
	}
	grep -q "Advice: Load imbalance [12]\.[0-9][0-9]: process [0-9]* computes" \
		"$tmp/sum" || { show "$tmp/sum"; fail "no load imbalance advice"; }
	# the summary comes before the processes table
	awk '/^Summary/ { s = NR } /^Processes/ { p = NR }
		END { exit !(s && p && s < p) }' "$tmp/job.report" ||
		fail "the Summary is not at the top of the report"
}

test_json() {
	"$mapreport" --json="$tmp/job.json" "$tmp/job.log" >/dev/null 2>"$tmp/jerr" || {
		show "$tmp/jerr"
		fail "mapreport --json exited $?"
	}
	validated "$tmp/job.json"
	[ "$(json_get "$tmp/job.json" 'd["performance"]["kind"]')" = compute ] ||
		fail "JSON performance.kind is not compute"
	[ "$(json_get "$tmp/job.json" 'd["performance"]["mpi"] == 0')" = True ] ||
		fail "JSON performance.mpi is not 0"
	[ "$(json_get "$tmp/job.json" 'd["ranks"]["by"]')" = process ] ||
		fail "JSON ranks.by is not process"
	n=$(json_get "$tmp/job.json" 'd["ranks"]["count"]')
	[ "$n" -ge 4 ] || fail "JSON ranks.count is $n"
	json_get "$tmp/job.json" \
		'1.4 <= d["ranks"]["imbalance"] <= 2.2 and d["ranks"]["compute_s"]["max_rank"] == max(d["ranks"]["rows"], key=lambda r: r["compute_s"])["rank"] or sys.exit(1)' \
		>/dev/null || fail "JSON ranks: imbalance or max_rank wrong"
	json_get "$tmp/job.json" \
		'all(r["memory_peak_bytes"] and r["memory_peak_bytes"] > 0 for r in d["ranks"]["rows"]) or sys.exit(1)' \
		>/dev/null || fail "JSON ranks rows: no memory peak from the memory plugin"
}

test_rank_filter() {
	n=$(awk '/<- slowest/ { print $1 }' "$tmp/ranks")
	pid=$(awk '/<- slowest/ { print $2 }' "$tmp/ranks")
	report job --rank "$n"
	grep -q "^  Processes:  1 " "$tmp/job.report" || {
		show "$tmp/job.report"
		fail "--rank $n: not one process"
	}
	grep -q "^  Filter:     --rank $n " "$tmp/job.report" ||
		fail "--rank $n: not named in the header"
	awk '$1 ~ /^[0-9]+$/ && NF > 3' "$tmp/job.report" | grep -q "^ *$pid " ||
		fail "--rank $n: process $pid not in the report"
	"$mapreport" --json --rank "$n" "$tmp/job.log" >"$tmp/r.json" 2>/dev/null
	validated "$tmp/r.json"
	[ "$(json_get "$tmp/r.json" 'd["ranks"]["count"]')" = 1 ] ||
		fail "--rank $n --json: ranks.count is not 1"
	[ "$(json_get "$tmp/r.json" 'd["ranks"]["rows"][0]["pid"]')" = "$pid" ] ||
		fail "--rank $n --json: not process $pid"
	set +e
	"$mapreport" --rank x "$tmp/job.log" >/dev/null 2>"$tmp/bad"
	r=$?
	set -e
	[ "$r" = 2 ] && grep -q "^mapreport: --rank x: give a rank" "$tmp/bad" ||
		fail "--rank x: exit $r, not 2 with one line"
}

test_html() {
	report job --html "$tmp/job.html"
	grep -q 'id="performance"' "$tmp/job.html" || fail "HTML: no performance summary"
	grep -q 'id="ranks"' "$tmp/job.html" || fail "HTML: no Ranks section"
	grep -q 'class="heat timed"' "$tmp/job.html" || fail "HTML: no rank x time heat map"
	grep -q 'class="band"' "$tmp/job.html" ||
		fail "HTML: no metric chart with a min-max band across processes"
	grep -q 'Compute-bound' "$tmp/job.html" || fail "HTML: no verdict"
}

test_builtin_partials() {
	# no user XML: the built-in CPU and Memory sections, not the MPI one
	section job "com.mapsample.reports.cpu" >"$tmp/cpu"
	grep -q "User code, mean" "$tmp/cpu" || {
		show "$tmp/job.report"
		fail "built-in CPU partial report not shown"
	}
	grep -q "^com.mapsample.reports.memory" "$tmp/job.report" ||
		fail "built-in Memory partial report not shown"
	! grep -q "com.mapsample.reports.mpi\|Time in MPI" "$tmp/job.report" ||
		fail "built-in MPI section shown with no MPI metric"
	# a user's --partial-report replaces them
	"$mapreport" --partial-report "$top_srcdir/test/integration/partial/scenario.xml" \
		"$tmp/job.log" >"$tmp/p.report" 2>/dev/null
	! grep -q "com.mapsample.reports" "$tmp/p.report" ||
		fail "built-in partial reports shown with --partial-report"
	# in the JSON too
	json_get "$tmp/job.json" \
		'any(r["name"] == "com.mapsample.reports.cpu" for r in d["partial_reports"]["reports"]) or sys.exit(1)' \
		>/dev/null || fail "JSON: no built-in CPU partial report"
}

test_single_program() {
	sample one -- "$programs/hot"
	[ "$rc" = 0 ] || { show "$tmp/one.err"; fail "hot: mapsample exited $rc"; }
	report one
	section one "Summary" >"$tmp/one.sum"
	grep -q "^  Compute-bound: [0-9.]*% of time in compute, 0.0% in MPI" \
		"$tmp/one.sum" || { show "$tmp/one.sum"; fail "hot: not compute-bound, MPI 0%"; }
	grep -q "the hottest function, [a-z_]*, has [0-9.]*% of the samples" \
		"$tmp/one.sum" || { show "$tmp/one.sum"; fail "hot: no advice with the hottest function"; }
	! grep -q "^Ranks:" "$tmp/one.report" || fail "hot: a Ranks section for one process"
}

# Two logs whose processes have the same pids (one log and a copy: ranks
# on two hosts look like this): the model keys the second log's apart,
# but every pid a user sees is the real one, told apart by its log
# (text, JSON with "log", HTML, speedscope, trace), never a number of
# the model's own (2147483648 and up)
test_same_pids() {
	cp "$tmp/job.log" "$tmp/copy.log"
	"$mapreport" "$tmp/job.log" "$tmp/copy.log" >"$tmp/two.report" 2>/dev/null ||
		fail "two logs: mapreport failed"
	"$mapreport" --json "$tmp/job.log" "$tmp/copy.log" >"$tmp/two.json" 2>/dev/null ||
		fail "two logs: mapreport --json failed"
	validated "$tmp/two.json"
	"$mapreport" --html "$tmp/two.html" --speedscope "$tmp/two.ss" \
		--trace "$tmp/two.trace" "$tmp/job.log" "$tmp/copy.log" >/dev/null 2>&1 ||
		fail "two logs: mapreport --html --speedscope --trace failed"
	# pids in the text tables (Processes, Threads, Ranks), JSON's pid
	# members, speedscope's profile names, the HTML's visible cells and
	# the trace's process names
	awk '/^(Processes|Threads|Ranks)/ { on = 1; next } /^$/ { on = 0 }
		on && $1 ~ /^[0-9]+$/ && ($1 >= 2147483648 || $2 >= 2147483648) { bad = 1 }
		END { exit bad }' "$tmp/two.report" || {
		show "$tmp/two.report"
		fail "two logs: the text report shows a pid of the model's own"
	}
	json_get "$tmp/two.json" \
		'all(x["pid"] < 2**31 for k in ("processes", "threads") for x in d[k]) and all(r["pid"] < 2**31 for r in d["ranks"]["rows"]) or sys.exit(1)' \
		>/dev/null || fail "two logs: the JSON report has a pid of the model's own"
	! grep -Eq '>2[0-9]{9}[ <]|pid 2[0-9]{9}' "$tmp/two.html" "$tmp/two.trace" "$tmp/two.ss" ||
		fail "two logs: the HTML, speedscope or trace output shows a pid of the model's own"
	pid=$(awk '/^Processes/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1; exit }' "$tmp/two.report")
	grep -q "^ *$pid (log 2) " "$tmp/two.report" || {
		show "$tmp/two.report"
		fail "two logs: the second log's process $pid not shown as '$pid (log 2)'"
	}
	json_get "$tmp/two.json" \
		'sorted((p["pid"], p["log"]) for p in d["processes"] if p["pid"] == '"$pid"') == [('"$pid"', 0), ('"$pid"', 1)] or sys.exit(1)' \
		>/dev/null || fail "two logs: JSON processes: not pid $pid in logs 0 and 1"
	echo "ok - same pids in two logs: the real pid, told apart by its log"
}

# The same two logs in the outputs read by programs, which must keep
# the two processes of one pid apart without a number of the model's
# own: the HTML page's data-pid is the real pid and data-proc tells the
# two apart (its script's data likewise, with the pid as the text
# report writes it for the selector), the Chrome trace's "pid" is one
# small number per process, named by its real pid, and pprof labels
# its samples with the real pid and the log.
test_same_pids_exports() {
	[ -s "$tmp/copy.log" ] || cp "$tmp/job.log" "$tmp/copy.log"
	"$mapreport" --html "$tmp/two2.html" --trace "$tmp/two2.trace" 		--pprof "$tmp/two2.pb.gz" "$tmp/job.log" "$tmp/copy.log" 		>/dev/null 2>"$tmp/two2.err" || {
		show "$tmp/two2.err"
		fail "two logs: mapreport --html --trace --pprof failed"
	}
	python3 - "$tmp/two2.html" <<'PY' || fail "two logs: HTML data-pid, data-proc or selector labels wrong"
import json, re, sys
html = open(sys.argv[1]).read()
attrs = re.findall(r'data-pid="(\d+)"', html)
assert attrs and all(int(p) < 2**31 for p in attrs), "data-pid of the model's own"
rows = re.findall(r'<tr data-pid="(\d+)" data-proc="(\d+)"><td class="n">([^<]*)</td><td class="n">0</td>', html)
assert len(rows) >= 4 and len(rows) % 2 == 0, rows
# every pid twice, as PID and PID (log 2), each its own data-proc
assert len({r[1] for r in rows}) == len(rows), rows
for pid, proc, cell in rows:
    assert cell in (pid, pid + " (log 2)"), (pid, cell)
assert sorted(r[2] for r in rows if r[2].endswith("(log 2)")) == \
    sorted(r[2] + " (log 2)" for r in rows if "(" not in r[2]), rows
d = json.loads(re.search(r'id="nr-data">(.*?)</script>', html, re.S).group(1))
keys = {(t[0], t[4], t[5]) for t in d["threads"]}
assert len({k[0] for k in keys}) == len(keys) and all(k[0] < 2**31 for k in keys), keys
assert any(k[1] == "%d (log 2)" % k[2] for k in keys), keys
PY
	python3 - "$tmp/two2.trace" <<'PY' || fail "two logs: the trace's pids are not one small number per process named by the real pid"
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {}
for e in ev:
    if e["name"] == "process_name":
        names.setdefault(e["pid"], set()).add(e["args"]["name"])
assert names and all(len(n) == 1 for n in names.values()), names
assert all(p <= len(names) + 1 for p in names), names
real = [re.match(r'.* \(pid (\d+)( \(log 2\))?\)$', n.pop()) for n in names.values()]
assert all(real), names
assert sorted(int(r.group(1)) for r in real if r.group(2)) == \
    sorted(int(r.group(1)) for r in real if not r.group(2)), names
assert all(e["pid"] in names for e in ev), "an event of a process with no name"
PY
	python3 "$top_srcdir/test/integration/pprof_labels.py" "$tmp/two2.pb.gz" >"$tmp/two2.labels" ||
		fail "two logs: the pprof profile cannot be read"
	sed -n 's/^pid=\([0-9]*\) .* log=\([0-9]*\)$/\1 \2/p' "$tmp/two2.labels" |
		sort -u >"$tmp/two2.pl"
	awk '$1 >= 2147483648 || ($2 != 1 && $2 != 2) { bad = 1 } { n[$2]++ }
		END { exit bad || !n[1] || n[1] != n[2] }' "$tmp/two2.pl" || {
		show "$tmp/two2.labels"
		fail "two logs: pprof's samples not labelled with the real pid and log 1 and 2"
	}
	awk '{ print $1 }' "$tmp/two2.pl" | uniq -c | awk '$1 != 2 { bad = 1 } END { exit bad }' || {
		show "$tmp/two2.pl"
		fail "two logs: pprof: a pid not in both logs"
	}
	echo "ok - same pids in two logs: HTML, trace and pprof keep them apart by real pid"
	# the page opened at #pid=PID selects both processes of that pid
	# (one per log), their rows shown and the others' hidden
	browser=
	for b in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
	if [ -z "$browser" ]; then
		echo "# no Chromium: the page's #pid= selection not checked"
		return 0
	fi
	pid=$(awk '/^Processes/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1; exit }' "$tmp/two.report")
	set +e
	HOME=$tmp timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chrome" --no-first-run --disable-extensions \
		--disable-background-networking --disable-component-update \
		--disable-sync --dump-dom "file://$tmp/two2.html#pid=$pid" \
		>"$tmp/two2.dom" 2>"$tmp/two2.chrome"
	r=$?
	set -e
	[ "$r" = 0 ] || { show "$tmp/two2.chrome"; fail "two logs: $browser exited $r"; }
	python3 - "$tmp/two2.dom" "$pid" <<'PY' || fail "two logs: the page at #pid=$pid does not select the two processes of pid $pid"
import re, sys
dom, pid = open(sys.argv[1]).read(), sys.argv[2]
assert 'data-narrowed="yes"' in dom, "not narrowed"
rows = re.findall(r'<tr data-pid="(\d+)" data-proc="\d+"( hidden(?:="")?)?><td class="n">', dom)
shown = [p for p, h in rows if not h]
assert shown == [pid, pid] and len(rows) > 2, rows
PY
	echo "ok - same pids in two logs: the page at #pid=$pid selects both"
}

# The HTML page's "Narrow to" list names each process of a job by what
# it is: a rank as "rank R (pid P, HOST)", a process a rank started as
# "child of rank R (...)", a launcher (a program named mpirun; shown with
# --launchers) as "launcher (pid P, HOST)", any other process by its pid.
# The ranks here are made by the launcher's variables (PMI_RANK), no MPI
# needed.
test_narrow_labels() {
	mkdir -p "$tmp/bin"
	cp "$programs/hot" "$tmp/bin/mpirun"
	sample lab -- sh -c '"$0/bin/mpirun" 100 2>/dev/null &
		env PMI_RANK=1 PMI_SIZE=2 sh -c "\"$1\" 100 2>/dev/null; :"
		wait' "$tmp" "$programs/hot"
	[ "$rc" = 0 ] || { show "$tmp/lab.err"; fail "labels: mapsample exited $rc"; }
	report lab --launchers --html "$tmp/lab.html"
	host=$(uname -n)
	shell=$(basename "$(readlink -f "$(command -v sh)")")
	python3 - "$tmp/lab.html" "$host" "$shell" <<'PY' || fail "labels: the Narrow to list does not name ranks and launchers"
import json, re, sys
html, host, sh = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
d = json.loads(re.search(r'id="nr-data">(.*?)</script>', html, re.S).group(1))
# process number -> (program, label, pid)
procs = {t[0]: (t[3], t[4], t[5]) for t in d["threads"]}
def has(prog, pat):
    return [p for p in procs.values() if p[0] == prog and re.fullmatch(pat % p[2], p[1])]
h = re.escape(host)
assert has("mpirun", r"launcher \(pid %%d, %s\)" % h), procs
assert has(sh, r"rank 1 \(pid %%d, %s\)" % h), procs
assert has("hot", r"child of rank 1 \(pid %%d, %s\)" % h), procs
assert has(sh, r"%d"), procs
assert len(procs) == 4, procs
PY
	echo "ok - the Narrow to list names ranks, their children and launchers"
	browser=
	for b in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
	if [ -z "$browser" ]; then
		echo "# no Chromium: the Narrow to list's text not checked"
		return 0
	fi
	set +e
	HOME=$tmp timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chrome" --no-first-run --disable-extensions \
		--disable-background-networking --disable-component-update \
		--disable-sync --dump-dom "file://$tmp/lab.html" \
		>"$tmp/lab.dom" 2>"$tmp/lab.chrome"
	r=$?
	set -e
	[ "$r" = 0 ] || { show "$tmp/lab.chrome"; fail "labels: $browser exited $r"; }
	python3 - "$tmp/lab.dom" "$host" "$shell" <<'PY' || fail "labels: the page's Narrow to options do not read as rank, launcher, process"
import html as H, re, sys
dom, host, sh = open(sys.argv[1]).read(), sys.argv[2], re.escape(sys.argv[3])
opts = [H.unescape(t) for v, t in re.findall(r'<option value="(p\d+)">([^<]*)</option>', dom)]
h = re.escape(host)
want = [r"launcher \(pid \d+, %s\) \(mpirun\)" % h, r"rank 1 \(pid \d+, %s\) \(%s\)" % (h, sh),
        r"child of rank 1 \(pid \d+, %s\) \(hot\)" % h, r"process \d+ \(%s\)" % sh]
for w in want:
    assert any(re.fullmatch(w, o) for o in opts), (w, opts)
assert len(opts) == 4, opts
PY
	echo "ok - the page's Narrow to options read rank, child of rank, launcher, process"
}

test_narrow_labels
test_ranks_table
test_same_pids
test_same_pids_exports
test_summary_job
test_json
test_rank_filter
test_html
test_builtin_partials
test_single_program
