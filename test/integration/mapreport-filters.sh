#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's sample filters (--pid, --tid, --comm, --time) on a run of
# test/programs/filterwork: a main thread, a worker thread named
# "fw-worker" and a child process that execs a copy of the program named
# "fwchild".  Every filter must keep exactly the samples the record dump
# (-D, which no filter touches) says are the chosen ones: the counts of
# the folded stacks under the filter add up to the dump's count of
# sample records of that thread, process or time range, and the stacks
# hold only that thread's or process's functions.  The JSON report
# follows the filter too, a filter that keeps nothing is said in one
# line, and bad values are refused with exit status 2.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs filterwork
cp "$programs/filterwork" "$tmp/fwchild"
sample fw -F 1000 -- "$programs/filterwork" 150 --exec "$tmp/fwchild"
[ "$rc" = 0 ] || { show "$tmp/fw.err"; fail "filterwork: mapsample exited $rc"; }
"$mapreport" -D "$tmp/fw.log" >"$tmp/dump"
report fw

# folded_sum OPTIONS...: the sum of the folded stacks' counts under the
# filter OPTIONS (their lines kept in $tmp/folded), plus the samples taken
# in mapsample's own start-up and exit code, which no stack is charged
# with (the text report under the same filter counts them).
folded_sum() {
	"$mapreport" --folded "$@" "$tmp/fw.log" >"$tmp/folded" 2>"$tmp/ferr" || {
		show "$tmp/ferr"
		fail "mapreport --folded $*: exit status $?"
	}
	"$mapreport" "$@" "$tmp/fw.log" >"$tmp/ftext" 2>/dev/null || true
	own=$(sed -n "s/^\([0-9]*\) samples (.*) were taken in mapsample's own .*/\1/p" \
		"$tmp/ftext")
	awk -v own="${own:-0}" '{ s += $NF } END { print s + own }' "$tmp/folded"
}

# dump_count AWK-CONDITION: sample records of the dump for which the
# condition holds ($2 is the time, pid and tid are split from $3).
dump_count() {
	awk '$4 == "sample" { split($3, id, "/"); pid = id[1]; tid = id[2]
		if ('"$1"') n++ } END { print n + 0 }' "$tmp/dump"
}

total=$(dump_count 1)
[ "$total" -ge 100 ] || fail "only $total samples in the run: too few to test"
[ "$(folded_sum)" = "$total" ] ||
	fail "the unfiltered folded stacks hold $(folded_sum) samples, the dump $total"

test_tid() {
	main=$(dump_count 1 >/dev/null; awk '$4 == "sample" { split($3, id, "/")
		print id[1]; exit }' "$tmp/dump")
	worker=$(awk '$1 ~ /^[0-9]+$/ && $4 == "fw-worker" { print $3; exit }' \
		"$tmp/fw.report")
	[ -n "$worker" ] || { show "$tmp/fw.report"; fail "no thread named fw-worker"; }
	for t in $(awk '$4 == "sample" { split($3, id, "/"); print id[2] }' \
		   "$tmp/dump" | sort -u); do
		want=$(dump_count "tid == $t")
		got=$(folded_sum --tid "$t")
		[ "$got" = "$want" ] || {
			show "$tmp/folded"
			fail "--tid $t: $got samples in the folded stacks, $want in the dump"
		}
		if [ "$t" = "$worker" ]; then
			! grep -v ';burn_worker ' "$tmp/folded" | grep -q . || {
				show "$tmp/folded"
				fail "--tid $t (the worker): stacks outside burn_worker"
			}
		else
			! grep -q burn_worker "$tmp/folded" || {
				show "$tmp/folded"
				fail "--tid $t: holds the worker's burn_worker"
			}
		fi
	done
	# two values of one option: either thread
	want=$(dump_count "tid == $main || tid == $worker")
	got=$(folded_sum --tid "$main" --tid "$worker")
	[ "$got" = "$want" ] || fail "--tid $main --tid $worker: $got samples, $want in the dump"
	# and options of two kinds: both must hold (the worker is not in the
	# child's process)
	child=$(awk '$4 == "fwchild" { print $1; exit }' "$tmp/fw.report")
	got=$(folded_sum --tid "$worker" --pid "$child")
	[ "$got" = 0 ] || fail "--tid $worker --pid $child: $got samples, none expected"
	# --comm by thread name picks the same samples as the worker's tid
	want=$(dump_count "tid == $worker")
	got=$(folded_sum --comm fw-worker)
	[ "$got" = "$want" ] || fail "--comm fw-worker: $got samples, $want of its thread in the dump"
}

test_pid_comm() {
	parent=$(processes fw | awk 'NR == 1 { print $1 }')
	want=$(dump_count "pid == $parent")
	got=$(folded_sum --pid "$parent")
	[ "$got" = "$want" ] || fail "--pid $parent: $got samples, $want in the dump"
	# --comm by program name: the exec'd image only, all its samples
	want=$(awk '$0 == "Processes" { s = 1; getline; next } s && NF == 0 { s = 0 }
		s && $NF == "--child" { print $3 }' "$tmp/fw.report")
	got=$(folded_sum --comm fwchild)
	[ -n "$want" ] && [ "$got" = "$want" ] || {
		show "$tmp/fw.report" "$tmp/folded"
		fail "--comm fwchild: $got samples, ${want:-none} in its process's row"
	}
	! grep -v '^fwchild;' "$tmp/folded" | grep -q . || {
		show "$tmp/folded"
		fail "--comm fwchild: stacks of another program"
	}
	grep -q ';burn_child ' "$tmp/folded" || fail "--comm fwchild: no burn_child"
	# the text report lists only the processes and threads kept
	"$mapreport" --comm fwchild "$tmp/fw.log" >"$tmp/fwc.report"
	[ "$(processes fwc | wc -l)" = 1 ] || {
		show "$tmp/fwc.report"
		fail "--comm fwchild: other processes in the Processes table"
	}
	grep -q '^  Filter: *--comm fwchild ' "$tmp/fwc.report" ||
		fail "--comm fwchild: no Filter line in the header"
}

test_time() {
	# the run's start: its earliest record; half of its sampled time
	t0=$(awk 'NR == 1 || $2 < t0 { t0 = $2 } END { printf "%.9f", t0 }' "$tmp/dump")
	half=$(awk -v t0="$t0" '$4 == "sample" && $2 > m { m = $2 }
		END { printf "%.3f", (m - t0) / 2 }' "$tmp/dump")
	first=$(dump_count "\$2 - $t0 < $half")
	second=$(dump_count "\$2 - $t0 >= $half")
	[ "$first" -gt 0 ] && [ "$second" -gt 0 ] || fail "--time: an empty half ($first, $second)"
	got=$(folded_sum --time ":$half")
	[ "$got" = "$first" ] || fail "--time :$half: $got samples, $first in the dump"
	got=$(folded_sum --time "$half:")
	[ "$got" = "$second" ] || fail "--time $half:: $got samples, $second in the dump"
	# burn_first runs alone first: it is in the first half only
	! grep -q burn_first "$tmp/folded" || fail "--time $half:: burn_first runs in the first half"
	# a window in the middle, both sides given
	q=$(awk -v h="$half" 'BEGIN { printf "%.3f", h / 2 }')
	want=$(dump_count "\$2 - $t0 >= $q && \$2 - $t0 < $half")
	got=$(folded_sum --time "$q:$half")
	[ "$got" = "$want" ] || fail "--time $q:$half: $got samples, $want in the dump"
}

# --time: each thread's seconds are those of its samples in the range
# (their weights, as the dump gives them), not the seconds measured at
# the thread's end, which are its whole life's; the JSON says they are
# not measured, and the Ranks table adds up the same seconds.
test_time_seconds() {
	t0=$(awk 'NR == 1 || $2 < t0 { t0 = $2 } END { printf "%.9f", t0 }' "$tmp/dump")
	half=$(awk -v t0="$t0" '$4 == "sample" && $2 > m { m = $2 }
		END { printf "%.3f", (m - t0) / 2 }' "$tmp/dump")
	"$mapreport" --json --time ":$half" "$tmp/fw.log" >"$tmp/tj.json" 2>/dev/null ||
		fail "--json --time :$half failed"
	awk -v t0="$t0" -v h="$half" '$4 == "sample" && $2 - t0 < h {
		for (i = 5; i < NF; i++) if ($i == "weight") w[$3] += $(i + 1) }
		END { for (k in w) print k, w[k] }' "$tmp/dump" >"$tmp/tw"
	python3 - "$tmp/tj.json" "$tmp/tw" <<'PY' || fail "--time :$half: threads' seconds are not their samples' in the range"
import json, sys
d = json.load(open(sys.argv[1]))
# the dump's pid/tid: a thread of a process that exec'd is one per image
want, got = {}, {}
for line in open(sys.argv[2]):
    k, w = line.split()
    want[k] = int(w) / 1e9
assert d["threads"], "no threads"
for t in d["threads"]:
    k = "%d/%d" % (t["pid"], t["tid"])
    got[k] = got.get(k, 0) + t["seconds"]
    assert not t["measured"], t
for k in set(want) | set(got):
    assert abs(got.get(k, 0) - want.get(k, 0)) < 1e-6, (k, got.get(k), want.get(k))
secs = sum(got.values())
rows = sum(r["seconds"] for r in d["ranks"]["rows"])
assert abs(rows - secs) < 1e-6, (rows, secs)
PY
}

test_json() {
	worker=$(awk '$1 ~ /^[0-9]+$/ && $4 == "fw-worker" { print $3; exit }' \
		"$tmp/fw.report")
	want=$(dump_count "tid == $worker")
	"$mapreport" --json --tid "$worker" "$tmp/fw.log" >"$tmp/fw.json"
	got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["summary"]["samples"], len(d["threads"]))' "$tmp/fw.json")
	[ "$got" = "$want 1" ] || fail "--json --tid $worker: samples and threads '$got', want '$want 1'"
}

test_bad_values() {
	for opt in "--pid x" "--pid 0" "--tid -3" "--comm=" "--time 5" \
		   "--time 3:1" "--time a:b" "--time 1:2:3"; do
		set +e
		# shellcheck disable=SC2086 # the option and its value
		"$mapreport" $opt "$tmp/fw.log" >/dev/null 2>"$tmp/bad"
		r=$?
		set -e
		[ "$r" = 2 ] || fail "mapreport $opt: exit status $r, want 2"
		grep -q "^mapreport: --" "$tmp/bad" || {
			show "$tmp/bad"
			fail "mapreport $opt: no line naming the option"
		}
	done
}

# A filter that keeps nothing: an empty report, and one line saying so.
test_none() {
	"$mapreport" --tid 1 "$tmp/fw.log" >"$tmp/none" 2>"$tmp/none.err" ||
		fail "--tid 1: exit status $?"
	grep -q "^mapreport: the filters (--tid 1) keep none of the $total samples" \
		"$tmp/none.err" || {
		show "$tmp/none.err"
		fail "--tid 1: no line saying the filters keep no sample"
	}
	[ "$(sed -n 's/^ *Samples: *\([0-9]*\) .*/\1/p' "$tmp/none")" = 0 ] ||
		fail "--tid 1: the report counts samples"
}

# The exports (they read the logs again) keep what the filters keep:
# before, any filter made them fail ("write failed; the speedscope file
# is incomplete", exit 1).
test_exports() {
	t=$worker
	want=$(dump_count "tid == $t")
	"$mapreport" --tid "$t" --speedscope "$tmp/f.speedscope" \
		--pprof "$tmp/f.pb.gz" --trace "$tmp/f.trace" "$tmp/fw.log" \
		>/dev/null 2>"$tmp/exp.err" ||
		{ show "$tmp/exp.err"; fail "--tid $t with the exports: exit status $?"; }
	/usr/bin/python3 - "$tmp/f.speedscope" "$t" "$want" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
tid, want = sys.argv[2], int(sys.argv[3])
names = [p["name"] for p in d["profiles"]]
if len(names) != 1 or ("tid %s " % tid) not in names[0] + " ":
    sys.exit("profiles %r, want only thread %s's" % (names, tid))
p = d["profiles"][0]
if len(p["samples"]) == 0:
    sys.exit("no samples in thread %s's profile" % tid)
PY
		fail "--tid $t --speedscope: not the thread's samples alone"
}

test_tid
test_exports
test_none
test_pid_comm
test_time
test_time_seconds
test_json
test_bad_values
echo "mapreport-filters: ok ($total samples)"
