#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# What mapreport --compare reads (mapreport(1), COMPARING RUNS):
#   - the sample filters apply to both sides: on two runs of
#     test/programs/filterwork (a main thread, a worker thread named
#     fw-worker, a child process fwchild), --compare with --comm, --time
#     or --rank counts on each side exactly the samples the plain report
#     of that log counts under the same filter (the JSON's samples per
#     side and each function's samples), and leaves out the functions
#     the filter leaves out; a filter that keeps nothing of a side is
#     said, naming the log, and exits 1;
#   - job folders: four jobs of two ranks each (test/programs/cmpwork
#     run twice at once under the variables MPICH's mpiexec sets, so
#     that each job is a folder with a log per rank, as mapsample(1)
#     writes for mpirun), compared as BASE NEW folders, with several
#     folders a side (--base, --new), and as the ranks' logs given one
#     by one: the logs of one job are one run (runs is 1 per job, the
#     samples those of the plain report of the folder), the logs of two
#     jobs two runs, even when the second job started right after the
#     first; --rank with folders keeps that rank's samples only.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs filterwork cmpwork

# mr WANT_RC NAME ARGS...: mapreport ARGS in $tmp, standard output in
# NAME.out, standard error in NAME.err; fails unless it exits WANT_RC.
mr() {
	want=$1
	name=$2
	shift 2
	set +e
	(cd "$tmp" && "$mapreport" "$@" >"$name.out" 2>"$name.err")
	r=$?
	set -e
	[ "$r" = "$want" ] || {
		show "$tmp/$name.err"
		fail "$name: mapreport $*: exit $r, not $want"
	}
}

# py PROGRAM ARGS...: python3 -c PROGRAM in $tmp.
py() {
	prog=$1
	shift
	(cd "$tmp" && python3 -c "$prog" "$@")
}

# same_counts CMP PLAIN-BASE... -- PLAIN-NEW...: the comparison's JSON
# CMP.out counts on each side the samples of the plain reports' JSON
# (their sum, several runs a side), and each function the samples of
# the plain reports (their sum too).
same_counts() {
	py 'import json, sys
args = sys.argv[2:]
cut = args.index("--")
sides = {"base": args[:cut], "new": args[cut + 1:]}
c = json.load(open(sys.argv[1] + ".out"))
for side, names in sides.items():
	plain = [json.load(open(n + ".out")) for n in names]
	want = sum(p["summary"]["samples"] for p in plain)
	got = c[side]["samples"]
	assert got == want, (sys.argv[1], side, "samples", got, want)
	assert c[side]["runs"] == len(plain), (sys.argv[1], side, c[side]["runs"])
	funcs = {}
	for p in plain:
		for f in p["top_self"]:
			funcs[f["name"]] = funcs.get(f["name"], 0) + f["self"]
	rows = [r for r in c["rows"] if r["kind"] == "self" and r[side]["present"]]
	assert rows, (sys.argv[1], side, "no self rows")
	for r in rows:
		want = funcs.get(r["name"], 0)
		assert abs(r[side]["value"] - want) < 1e-6, (sys.argv[1], side, r["name"], r[side]["value"], want)
	assert len(rows) == len(funcs), (sys.argv[1], side, sorted(r["name"] for r in rows), sorted(funcs))
' "$@" || fail "$1: the comparison does not count what the plain reports count"
}

# self_names CMP: the names of the comparison's self rows.
self_names() {
	py 'import json, sys
c = json.load(open(sys.argv[1] + ".out"))
print(" ".join(sorted(r["name"] for r in c["rows"] if r["kind"] == "self")))' "$1"
}

test_filters() {
	cp "$programs/filterwork" "$tmp/fwchild"
	for n in 1 2; do
		sample fw$n -F 1000 -- "$programs/filterwork" 100 --exec "$tmp/fwchild"
		[ "$rc" = 0 ] || { show "$tmp/fw$n.err"; fail "filterwork: mapsample exited $rc"; }
	done
	# the whole runs first: a filter must change the figures
	mr 0 all-1 -n all --json fw1.log
	mr 0 all-c --compare --json fw1.log fw2.log
	i=0
	for f in "--comm fw-worker" "--comm fwchild" "--time :0.25" \
		"--time 0.25:" "--rank 1"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		mr 0 plain$i-1 -n all $f --json fw1.log
		# shellcheck disable=SC2086
		mr 0 plain$i-2 -n all $f --json fw2.log
		# shellcheck disable=SC2086
		mr 0 cmp$i --compare $f --json fw1.log fw2.log
		same_counts cmp$i plain$i-1 -- plain$i-2
		py 'import json, sys
a = json.load(open("all-1.out"))["summary"]["samples"]
f = json.load(open(sys.argv[1] + ".out"))["base"]["samples"]
assert 0 < f < a, (sys.argv[2], f, a)' cmp$i "$f" ||
			fail "$f: the comparison keeps $(self_names cmp$i), not a part of the run"
	done
	names=$(self_names cmp1)
	case " $names " in
	*" burn_worker "*) ;;
	*) fail "--compare --comm fw-worker: no burn_worker row ($names)" ;;
	esac
	case " $names " in
	*" burn_main "* | *" burn_child "* | *" burn_first "*)
		fail "--compare --comm fw-worker keeps other threads' functions ($names)" ;;
	esac
	# a filter that keeps nothing of NEW: said, exit 1
	pid=$("$mapreport" -D "$tmp/fw1.log" |
		awk '$4 == "sample" { split($3, id, "/"); print id[1]; exit }')
	mr 1 none --compare --pid "$pid" --json fw1.log fw2.log
	grep -q "fw2.log (NEW): the filters (--pid $pid) keep none of its" "$tmp/none.err" || {
		show "$tmp/none.err"
		fail "--compare --pid of BASE only: NEW's empty side not said"
	}
	# and the JSON says it too: an input problem, the run left out
	python3 - "$tmp/none.out" <<'PY' || fail "--compare --pid of BASE only: the JSON does not say NEW's run was left out"
import json, sys
d = json.load(open(sys.argv[1]))
kinds = [e["kind"] for e in d.get("errors", [])]
assert d["result"] == "input-problem", d["result"]
assert "no-sample-kept" in kinds and "nothing-to-compare" in kinds, kinds
PY
}

# job NAME: two ranks of cmpwork at once, as mpiexec starts them, in
# $tmp/jobs: their logs in the folder cmpwork-2p-NAME.
job() {
	for r in 0 1; do
		(cd "$tmp/jobs" && PMI_RANK=$r PMI_SIZE=2 MAPSAMPLE_JOB_ID=$1 \
			"$mapsample" -q -- "$programs/cmpwork" 40 \
			</dev/null >/dev/null 2>"$1-$r.err") &
	done
	wait
	for r in 0 1; do
		[ -f "$tmp/jobs/cmpwork-2p-$1/rank-$r.maplog" ] || {
			show "$tmp/jobs/$1-$r.err"
			fail "job $1: no log of rank $r"
		}
	done
}

test_jobs() {
	mkdir "$tmp/jobs"
	# jobB starts as soon as jobA ends: still two runs
	for j in jobA jobB jobC jobD; do
		job $j
	done
	for j in jobA jobB jobC jobD; do
		mr 0 p-$j -n all --json "jobs/cmpwork-2p-$j"
	done
	mr 0 j1 --compare --json jobs/cmpwork-2p-jobA jobs/cmpwork-2p-jobC
	same_counts j1 p-jobA -- p-jobC
	grep -q "BASE: jobs/cmpwork-2p-jobA/rank-0.maplog and 1 more log are of one run" "$tmp/j1.err" || {
		show "$tmp/j1.err"
		fail "the two logs of jobA not said to be one run"
	}
	py 'import json
c = json.load(open("j1.out"))
assert c["base"]["logs"] == ["jobs/cmpwork-2p-jobA/rank-0.maplog", "jobs/cmpwork-2p-jobA/rank-1.maplog"], c["base"]["logs"]' ||
		fail "the comparison's JSON does not list the logs of the folder"
	mr 0 j2 --compare --json --base jobs/cmpwork-2p-jobA \
		--base jobs/cmpwork-2p-jobB --new jobs/cmpwork-2p-jobC \
		--new jobs/cmpwork-2p-jobD
	same_counts j2 p-jobA p-jobB -- p-jobC p-jobD
	# the ranks' logs one by one: one run a side
	mr 0 j3 --compare --json \
		--base jobs/cmpwork-2p-jobA/rank-0.maplog \
		--base jobs/cmpwork-2p-jobA/rank-1.maplog \
		--new jobs/cmpwork-2p-jobC/rank-1.maplog \
		--new jobs/cmpwork-2p-jobC/rank-0.maplog
	same_counts j3 p-jobA -- p-jobC
	# a rank of each of two jobs: two runs
	mr 0 j4 --compare --json \
		--base jobs/cmpwork-2p-jobA/rank-0.maplog \
		--base jobs/cmpwork-2p-jobB/rank-0.maplog \
		--new jobs/cmpwork-2p-jobC
	py 'import json
c = json.load(open("j4.out"))
assert c["base"]["runs"] == 2 and c["new"]["runs"] == 1, (c["base"]["runs"], c["new"]["runs"])' ||
		fail "a rank of jobA and one of jobB were not two runs"
	# --rank with job folders
	for j in jobA jobC; do
		mr 0 r-$j -n all --rank 1 --json "jobs/cmpwork-2p-$j"
	done
	mr 0 j5 --compare --rank 1 --json jobs/cmpwork-2p-jobA jobs/cmpwork-2p-jobC
	same_counts j5 r-jobA -- r-jobC
	py 'import json
a = json.load(open("p-jobA.out"))["summary"]["samples"]
r = json.load(open("j5.out"))["base"]["samples"]
assert 0 < r < a, (r, a)' || fail "--compare --rank 1 did not keep one rank of two"
}

test_filters
test_jobs
echo "mapreport-compare-load: all cases passed"
