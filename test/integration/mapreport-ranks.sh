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
	grep -q 'class="heat"' "$tmp/job.html" || fail "HTML: no rank x time heat map"
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

test_ranks_table
test_same_pids
test_summary_job
test_json
test_rank_filter
test_html
test_builtin_partials
test_single_program
