#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --region NAME applies to the exports (--speedscope, --trace,
# --pprof) as to the report:
# - test/programs/regionsplit runs the same code through the same stack
#   alternately inside region "odd" and outside any region, so only the
#   time of a sample tells whether it is kept.  With --region odd and
#   the three exports in one command, each export holds exactly the
#   samples of --region odd --folded: the trace's slices hold that many
#   samples, go tool pprof -top gives that total, and the speedscope
#   weights add up to the region's sample seconds in the JSON report of
#   --region odd; about half the run's samples.
# - test/programs/marks (region "phase1" runs phase_one_burn, "phase2"
#   phase_two_burn, while a second thread, in no region, runs
#   other_burn): under --region phase2 neither phase_one_burn nor
#   other_burn appears in any of the three exports, phase_two_burn does.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}
command -v go >/dev/null 2>&1 || {
	echo "SKIP: go (golang-go) not installed: no go tool pprof"
	exit 77
}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
HOME=$tmp
GOCACHE=$tmp/gocache
PPROF_TMPDIR=$tmp
export HOME GOCACHE PPROF_TMPDIR

need_programs regionsplit marks

# pprof_top FILE: go tool pprof -top (samples) into $tmp/top; the total
# into $total.
pprof_top() {
	go tool pprof -sample_index=samples -top "$1" >"$tmp/top" \
		2>"$tmp/pprof.err" || { show "$tmp/pprof.err"; fail "go tool pprof -top $1 failed"; }
	total=$(sed -n 's/.* of \([0-9]*\) total.*/\1/p' "$tmp/top" | head -n 1)
}

test_counts() {
	sample rs -F 1000 -- "$programs/regionsplit" 30
	[ "$rc" = 0 ] || { show "$tmp/rs.err"; fail "regionsplit under mapsample exited $rc"; }
	report rs
	whole=$(samples rs)
	report rs --region odd --folded="$tmp/rs.f" --speedscope "$tmp/rs.ss" \
		--trace "$tmp/rs.tr" --pprof "$tmp/rs.pb.gz" --json="$tmp/rs.json"
	want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/rs.f")
	check "$want * 4 > $whole && $want * 4 < 3 * $whole" || {
		show "$tmp/rs.report"
		fail "--region odd keeps $want of $whole samples, expected about half"
	}
	python3 - "$tmp/rs.ss" "$tmp/rs.tr" "$tmp/rs.json" "$want" <<'PY' || fail "regionsplit: speedscope, trace or the threads' seconds not narrowed to region odd"
import json, sys
want = int(sys.argv[4])
t = json.load(open(sys.argv[2]))
ev = t["traceEvents"] if isinstance(t, dict) else t
n = sum(e["args"]["samples"] for e in ev if e.get("ph") == "X")
assert n == want, "trace: %d samples in slices, --folded %d" % (n, want)
r = json.load(open(sys.argv[3]))
odd = [x for x in r["regions"] if x["name"] == "odd"][0]
s = json.load(open(sys.argv[1]))
ns = sum(sum(p["weights"]) for p in s["profiles"])
secs = odd["sample_seconds"]
assert secs > 0 and abs(ns / 1e9 - secs) <= 1e-6 * secs + 1e-6, \
    "speedscope: %.6f s of weights, the region's samples %.6f s" % (ns / 1e9, secs)
# the threads' seconds are those of their samples inside the region
# (their weights), not the seconds each thread ran in all
th = sum(t["seconds"] for t in r["threads"])
assert all(not t["measured"] for t in r["threads"]), r["threads"]
assert abs(th - ns / 1e9) <= 1e-6 * th + 1e-6, \
    "threads: %.6f s, their samples inside the region %.6f s" % (th, ns / 1e9)
PY
	grep -q '^  --region: each thread.s time is that of its samples inside the region' \
		"$tmp/rs.report" || { show "$tmp/rs.report"; fail "--region: no note under the Threads table"; }
	pprof_top "$tmp/rs.pb.gz"
	[ "$total" = "$want" ] || { show "$tmp/top"; fail "pprof: ${total:-no} total samples, --region odd --folded $want"; }
}

test_names() {
	sample marks -F 1000 -- "$programs/marks" 300
	[ "$rc" = 0 ] || { show "$tmp/marks.err"; fail "marks under mapsample exited $rc"; }
	report marks --region phase2 --speedscope "$tmp/m.ss" --trace "$tmp/m.tr" \
		--pprof "$tmp/m.pb.gz"
	python3 - "$tmp/m.ss" "$tmp/m.tr" <<'PY' || fail "marks: functions outside region phase2 in speedscope or trace"
import json, sys
s = json.load(open(sys.argv[1]))
frames = s["shared"]["frames"]
names = set(frames[i]["name"] for p in s["profiles"] for st in p["samples"] for i in st)
t = json.load(open(sys.argv[2]))
ev = t["traceEvents"] if isinstance(t, dict) else t
slices = set(e["name"] for e in ev if e.get("ph") == "X")
for where, got in (("speedscope", names), ("trace", slices)):
    assert "phase_two_burn" in got, where + ": no phase_two_burn"
    for b in ("phase_one_burn", "other_burn"):
        assert b not in got, "%s: %s" % (where, b)
PY
	pprof_top "$tmp/m.pb.gz"
	grep -q phase_two_burn "$tmp/top" || { show "$tmp/top"; fail "pprof: no phase_two_burn"; }
	if grep -Eq 'phase_one_burn|other_burn' "$tmp/top"; then
		show "$tmp/top"
		fail "pprof: functions outside region phase2"
	fi
}

# Two logs whose processes share pids (a copy of one run here; the
# ranks of a job on two hosts in life): the model keys the second log's
# process anew, and --region's own pass over the logs must key it alike,
# or the second process's samples find no region and are left out.
test_two_logs() {
	[ -s "$tmp/rs.f" ] || fail "no --region odd report of regionsplit"
	cp "$tmp/rs.log" "$tmp/rs2.log"
	one=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/rs.f")
	"$mapreport" --region odd --folded="$tmp/rs2.f" "$tmp/rs.log" \
		"$tmp/rs2.log" >"$tmp/rs2.report" 2>&1 ||
		{ show "$tmp/rs2.report"; fail "mapreport --region odd of two logs failed"; }
	two=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/rs2.f")
	[ "$two" = "$((2 * one))" ] || {
		show "$tmp/rs2.report"
		fail "--region odd of a log and its copy keeps $two samples, twice one log's is $((2 * one))"
	}
}

test_counts
test_names
test_two_logs
echo "ok: --region odd gives speedscope, trace and pprof $want of $whole samples, as --folded"
