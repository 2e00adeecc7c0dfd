#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's filters on the metrics (mapreport(1), Filters).  Metrics
# are measured per process, so --pid, --rank, --tid and --comm choose
# whole processes, and --time the values taken in its range.  A run of
# test/programs/filterwork (a parent with two threads, a child that execs
# a copy of it named fwchild) with the metrics of test/plugins/pidvalue.c,
# whose values are the pid of the process that took them and the time
# they were taken at.  Under --pid of each process, the text, JSON and
# HTML reports and a partial report hold that process's values and no
# other's (as many as the record dump, -D, which no filter touches, has
# of it); a thread's filter takes its process whole and says so; --rank
# picks a process as --pid does; --time keeps the values of its range
# only.  Every JSON report is checked against the schema.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs filterwork
python=/usr/bin/python3
[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }
validate=$top_srcdir/test/integration/json/validate.py
schema=$top_srcdir/share/mapsample/mapreport.schema.json
plugdir=$top_builddir/test/plugins/.libs
[ -f "$plugdir/libpidvalue.so" ] ||
	fail "$plugdir/libpidvalue.so missing: run 'make check' first"
mkdir "$tmp/metrics"
cp "$top_srcdir/test/plugins/pidvalue.xml" "$plugdir/libpidvalue.so" \
	"$tmp/metrics/"
cp "$programs/filterwork" "$tmp/fwchild"

# A partial report of the largest and the smallest pid.value.
cat >"$tmp/pids.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<partialReport name="org.mapsample.test.pids"
               xmlns="http://www.allinea.com/2016/AllineaReports">
  <reportMetrics>
    <reportMetric id="org.mapsample.test.pids.max" displayName="Largest pid"
                  units="" source="metric">
      <sourceDetails metricRef="org.mapsample.test.pid.value"
                     sampleValue="max" aggregation="max"/>
    </reportMetric>
    <reportMetric id="org.mapsample.test.pids.min" displayName="Smallest pid"
                  units="" source="metric">
      <sourceDetails metricRef="org.mapsample.test.pid.value"
                     sampleValue="min" aggregation="min"/>
    </reportMetric>
  </reportMetrics>
  <subsections>
  <subsection id="org.mapsample.test.pids.both" heading="Pids">
    <entry reportMetric="org.mapsample.test.pids.max"/>
    <entry reportMetric="org.mapsample.test.pids.min"/>
  </subsection>
  </subsections>
</partialReport>
EOF

sample fm -F 1000 --metrics-dir "$tmp/metrics" \
	--metrics none,org.mapsample.test.pid --metric-interval 10 \
	-- "$programs/filterwork" 80 --exec "$tmp/fwchild"
[ "$rc" = 0 ] || { show "$tmp/fm.err"; fail "filterwork: mapsample exited $rc"; }
"$mapreport" -D "$tmp/fm.log" >"$tmp/dump"
report fm
cp "$tmp/fm.report" "$tmp/whole.report"

# values PID [INDEX]: metric-value records of metric INDEX (0: pid.value,
# 1: pid.clock; both processes define them in that order) of process PID
# in the dump.
values() {
	awk -v p="$1" -v i="#${2:-0}" '$4 == "metric-value" && $5 == i {
		split($3, id, "/"); if (id[1] == p) n++ } END { print n + 0 }' \
		"$tmp/dump"
}

parent=$(awk '$4 == "initialize" { split($3, id, "/"); print id[1]; exit }' \
	"$tmp/dump")
child=$(awk -v p="$parent" '$4 == "metric-value" { split($3, id, "/")
	if (id[1] != p) { print id[1]; exit } }' "$tmp/dump")
[ -n "$parent" ] && [ -n "$child" ] || {
	show "$tmp/fm.report"
	fail "no values of two processes in the run (parent '$parent', child '$child')"
}
for p in "$parent" "$child"; do
	[ "$(values "$p")" -ge 3 ] || fail "process $p: only $(values "$p") values of pid.value"
done

# json NAME OPTIONS...: the JSON report under OPTIONS (and the partial
# report) in $tmp/NAME.json, valid under the schema.
json() {
	name=$1
	shift
	"$mapreport" --json --partial-report "$tmp/pids.xml" "$@" "$tmp/fm.log" \
		>"$tmp/$name.json" 2>"$tmp/$name.jerr" ||
		{ show "$tmp/$name.jerr"; fail "mapreport --json $*: exit status $?"; }
	"$python" "$validate" "$schema" "$tmp/$name.json" ||
		fail "mapreport --json $*: the report breaks the schema"
}

# json_check NAME PYTHON: PYTHON, given the report as r, its metric rows
# by display name as m and its partial report's values by id as pr, must
# not raise.
json_check() {
	"$python" - "$tmp/$1.json" "$2" <<'PY' || fail "JSON report $1: see above"
import json, sys
r = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in r["metrics"]}
pr = {e["id"]: e["value"] for s in r["partial_reports"]["reports"][0]["subsections"]
      for e in s["entries"]}
try:
    exec(sys.argv[2])
except AssertionError as e:
    print("FAIL: %s (metrics: %s; scope: %s; partial: %s)" %
          (e, json.dumps(m.get("pid.value")), json.dumps(r["metrics_scope"]), pr),
          file=sys.stderr)
    sys.exit(1)
PY
}

# text_row NAME METRIC: METRIC's row of the text report's metrics table
# as "VALUES PROCS".
text_row() {
	awk -v mt="$2" '/^Metrics: / { s = 1; next } s && NF == 0 { s = 0 }
		s && $1 == mt { print $(NF - 1), $NF; exit }' "$tmp/$1.report"
}

# Without a filter: both processes' values.
test_whole_run() {
	all=$(($(values "$parent") + $(values "$child")))
	[ "$(text_row whole pid.value | cut -d' ' -f1)" = "$all" ] ||
		fail "no filter: pid.value row '$(text_row whole pid.value)', want $all values"
	! grep -q '^  Filter:' "$tmp/whole.report" || fail "no filter: a Filter line"
	json all
	json_check all "
lo, hi = sorted([$parent, $child])
assert m['pid.value']['min'] == lo and m['pid.value']['max'] == hi, 'both pids'
assert r['metrics_scope']['filters'] is None, 'no filters'
assert sorted(r['metrics_scope']['pids']) == [lo, hi], 'both processes'
assert pr['org.mapsample.test.pids.max'] == hi, 'partial max'
assert pr['org.mapsample.test.pids.min'] == lo, 'partial min'
"
}

# one_process PID OTHER: --pid PID holds PID's values, none of OTHER's.
one_process() {
	p=$1
	n=$(values "$p")
	report fm --pid "$p"
	row=$(text_row fm pid.value)
	[ "${row%% *}" = "$n" ] || {
		show "$tmp/fm.report"
		fail "--pid $p: text pid.value row '$row', want $n values"
	}
	grep -q "^  Filter: values of process $p only\$" "$tmp/fm.report" || {
		show "$tmp/fm.report"
		fail "--pid $p: no line saying whose values the metrics are"
	}
	json "p$p" --pid "$p"
	json_check "p$p" "
v = m['pid.value']
assert v['min'] == v['max'] == v['mean'] == $p, 'pid.value is not $p alone'
assert v['values'] == $n, 'pid.value values %d, want $n' % v['values']
assert r['metrics_scope']['pids'] == [$p], 'scope pids'
assert r['metrics_scope']['filters'] == '--pid $p', 'scope filters'
assert not r['metrics_scope']['whole_processes'], 'whole_processes'
assert pr['org.mapsample.test.pids.max'] == $p, 'partial max'
assert pr['org.mapsample.test.pids.min'] == $p, 'partial min'
"
	# its images with values (the child has two)
	procs=$("$python" -c 'import json, sys
print([x["processes"] for x in json.load(open(sys.argv[1]))["metrics"]
       if x["name"] == "pid.value"][0])' "$tmp/p$p.json")
	"$mapreport" --html "$tmp/p.html" --pid "$p" "$tmp/fm.log" >/dev/null \
		2>"$tmp/html.err" || { show "$tmp/html.err"; fail "--html --pid $p: exit status $?"; }
	"$python" - "$tmp/p.html" "$p" "$n" "$procs" <<'PY' || fail "--html --pid $p: see above"
import json, re, sys
page, pid, n, procs = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
sec = re.search(r'<section id="metrics">.*?</section>', page, re.S).group(0)
def fail(msg):
    print("FAIL: --html --pid %s: %s" % (pid, msg), file=sys.stderr)
    sys.exit(1)
note = re.search(r'<p class="note" id="metrics-scope">(.*?)</p>', sec)
if not note or note.group(1) != "Filter: values of process %s only." % pid:
    fail("the note on whose values these are: %r" % (note and note.group(1)))
row = re.search(r'<tr><td>pid\.value</td>(.*?)</tr>', sec).group(1)
cells = re.findall(r'<td class="n">(.*?)</td>', row)
if cells[4:6] != [n, procs]:
    fail("table row's values and processes %s, want %s" % (cells[4:6], [n, procs]))
fig = re.search(r'<figure class="chart" data-metric="org\.mapsample\.test\.pid\.value">.*?</figure>',
                sec, re.S).group(0)
legend = re.search(r'<div class="legend">(.*?)</div>', fig).group(1)
# (a process's images are a series each)
if ("processes" in legend) if procs == "1" else not legend.startswith(procs + " processes"):
    fail("the chart draws other processes: %r" % legend)
data = json.loads(re.search(r'<script type="application/json" id="ms-data">(.*?)</script>',
                            sec, re.S).group(1))
ch = [c for c in data["charts"] if c["id"] == "org.mapsample.test.pid.value"][0]
if "only" not in ch:
    fail("the chart's data holds several processes: %s" % sorted(ch.get("procs", {})))
PY
}

test_pid() {
	one_process "$parent"
	one_process "$child"
}

# --rank N of a run without MPI: the process numbered N, as --pid.
test_rank() {
	json r1 --rank 1
	json_check r1 "
v = m['pid.value']
assert v['min'] == v['max'] == $child, 'rank 1 is not the child alone'
assert pr['org.mapsample.test.pids.max'] == $child, 'partial max'
"
}

# A thread chosen: its whole process, said so.
test_thread() {
	worker=$(awk '$1 ~ /^[0-9]+$/ && $4 == "fw-worker" { print $3; exit }' \
		"$tmp/whole.report")
	[ -n "$worker" ] || { show "$tmp/whole.report"; fail "no thread named fw-worker"; }
	n=$(values "$parent")
	report fm --tid "$worker"
	[ "$(text_row fm pid.value)" = "$n 1" ] || {
		show "$tmp/fm.report"
		fail "--tid $worker: text pid.value row '$(text_row fm pid.value)', want '$n 1'"
	}
	grep -q "^  Filter: values of process $parent only; for --tid and --comm, whole processes: metrics are measured per process\$" \
		"$tmp/fm.report" || { show "$tmp/fm.report"; fail "--tid $worker: no Filter line"; }
	json t --tid "$worker"
	json_check t "
v = m['pid.value']
assert v['min'] == v['max'] == $parent and v['values'] == $n, 'not the whole parent'
assert r['metrics_scope']['whole_processes'], 'whole_processes'
"
	# a program's name: the child's exec'd image
	json c --comm fwchild
	json_check c "
v = m['pid.value']
assert v['min'] == v['max'] == $child and v['processes'] == 1, 'not fwchild alone'
"
}

# --time: the values of the range only.
test_time() {
	t0=$(awk 'NR == 1 || $2 < t0 { t0 = $2 } END { printf "%.9f", t0 }' "$tmp/dump")
	end=$(awk '$4 == "metric-value" && $2 > m { m = $2 } END { print m }' "$tmp/dump")
	from=$(awk -v t0="$t0" -v e="$end" 'BEGIN { printf "%.4f", (e - t0) / 4 }')
	to=$(awk -v t0="$t0" -v e="$end" 'BEGIN { printf "%.4f", (e - t0) * 3 / 4 }')
	n=$(awk -v t0="$t0" -v a="$from" -v b="$to" '$4 == "metric-value" &&
		$5 == "#1" && $2 - t0 >= a && $2 - t0 < b { n++ } END { print n + 0 }' \
		"$tmp/dump")
	[ "$n" -gt 0 ] || fail "--time $from:$to: no value in the range to test with"
	report fm --time "$from:$to"
	[ "$(text_row fm pid.clock | cut -d' ' -f1)" = "$n" ] || {
		show "$tmp/fm.report"
		fail "--time $from:$to: text pid.clock row '$(text_row fm pid.clock)', want $n values"
	}
	# (the report writes seconds as %g does)
	f=$(awk -v x="$from" 'BEGIN { printf "%g", x }')
	t=$(awk -v x="$to" 'BEGIN { printf "%g", x }')
	grep -Eq "^  Filter: values of process(es)? .*, taken $f s to $t s after the run's start\$" \
		"$tmp/fm.report" || {
		show "$tmp/fm.report"
		fail "--time $from:$to: no Filter line"
	}
	json tm --time "$from:$to"
	json_check tm "
c = m['pid.clock']
lo, hi = $t0 + $from, $t0 + $to
assert c['values'] == $n, 'pid.clock values %d, want $n' % c['values']
assert c['min'] >= lo - 1e-6 and c['max'] < hi + 1e-6, \
    'pid.clock %.6f to %.6f is not within %.6f to %.6f' % (c['min'], c['max'], lo, hi)
assert r['metrics_scope']['from_s'] == $from and r['metrics_scope']['to_s'] == $to, 'range'
"
}

test_whole_run
test_pid
test_rank
test_thread
test_time
echo "PASS: mapreport's filters choose the metrics' processes and values"
