#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare --region NAME (mapreport(1), COMPARING RUNS): how a
# CI job compares one phase of a program across builds, on two runs of
# test/programs/marks (region "phase1" runs phase_one_burn, region
# "phase2" phase_two_burn while another thread, in no region, runs
# other_burn):
#   - --region phase2 (BASE NEW, and --base/--new): the JSON's function
#     rows name phase_two_burn and neither phase_one_burn nor other_burn;
#     a rule on phase_one_burn has no data, one on phase_two_burn and on
#     total pass; each side's samples and CPU seconds are phase2's
#     (about a third of the run's), not the whole run's;
#   - a region missing in a log: exit 1, one line for each such log
#     naming it, its side and the region.
# And, only with CMP_PYTHON=1 (not in make check: six runs of a
# second), a real program with no change: runs of Debian's
# /usr/bin/python3 (not a python3 found on PATH, which may be a wrapper)
# on the same pure-Python loop, three a side (--base, --new), compared
# with rules on its five top functions (self > +2pp) and on total
# (> +5%) at the default 3 sigma: no rule broken, exit 0.  One run a
# side is not enough for this program: its hash seed, drawn per run,
# moves the share of its dictionary lookup by up to 15pp from run to run
# while it holds steady within a run, which no within-run estimate can
# see (mapreport(1), COMPARING RUNS, Noise; test/bench/compare-noise.sh
# counts such false alarms).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

python=/usr/bin/python3
[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs marks hot

# compare WANT_RC NAME ARGS...: mapreport ARGS, standard output to
# $tmp/NAME.out, standard error to $tmp/NAME.err; fails unless the exit
# status is WANT_RC.
compare() {
	want=$1 name=$2
	shift 2
	set +e
	"$mapreport" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	r=$?
	set -e
	[ "$r" = "$want" ] || {
		show "$tmp/$name.out" "$tmp/$name.err"
		fail "$name: mapreport $*: exit $r, not $want"
	}
}

test_region() {
	for k in 1 2; do
		sample marks$k -F 1000 -- "$programs/marks" 100
		[ "$rc" = 0 ] || { show "$tmp/marks$k.err"; fail "marks under mapsample exited $rc"; }
	done
	# the whole run's samples and seconds, for the share phase2 must have
	compare 0 whole --compare --json "$tmp/marks1.log" "$tmp/marks2.log"
	for how in pos opt; do
		if [ $how = pos ]; then
			set -- "$tmp/marks1.log" "$tmp/marks2.log"
		else
			set -- --base "$tmp/marks1.log" --new "$tmp/marks2.log"
		fi
		compare 0 region-$how --compare --region phase2 --json \
			--fail-if 'self(phase_one_burn) > +1pp' \
			--fail-if 'self(phase_two_burn) > +50pp' \
			--fail-if 'total > +50%' "$@"
		"$python" - "$tmp/region-$how.out" "$tmp/whole.out" <<'PY' ||
import json, sys
c = json.load(open(sys.argv[1]))
whole = json.load(open(sys.argv[2]))["base"]
funcs = {r["name"] for r in c["rows"] if r["kind"] in ("self", "total")}
assert "phase_two_burn" in funcs, sorted(funcs)
for f in ("phase_one_burn", "other_burn"):
    assert f not in funcs, (f, sorted(funcs))
v = {r["name"]: r["verdict"] for r in c["rules"]}
assert v["phase_one_burn"] == "no-data", v
assert v["phase_two_burn"] == "pass" and v[None] == "pass", v
assert c["result"] == "pass", c["result"]
# phase2 is a third of the whole run's samples and CPU time (the main
# thread's two phases and the other thread's burn), far from all of it
for k in ("samples", "seconds"):
    assert 0.15 * whole[k] < c["base"][k] < 0.6 * whole[k], (k, c["base"], whole)
PY
		{ show "$tmp/region-$how.out"; fail "--compare --region phase2 ($how): JSON"; }
	done
	# the text report too: phase_one_burn is in no row
	compare 0 region-text --compare --region phase2 "$tmp/marks1.log" \
		"$tmp/marks2.log"
	grep -q phase_two_burn "$tmp/region-text.out" ||
		{ show "$tmp/region-text.out"; fail "--region phase2: text without phase_two_burn"; }
	! grep -q 'phase_one_burn\|other_burn' "$tmp/region-text.out" ||
		{ show "$tmp/region-text.out"; fail "--region phase2: text names a function outside phase2"; }
}

test_region_missing() {
	compare 1 missing --compare --region nosuch "$tmp/marks1.log" \
		"$tmp/marks2.log"
	# on both sides: one line for each log
	[ "$(wc -l <"$tmp/missing.err")" = 2 ] &&
		grep -q "^mapreport: $tmp/marks1.log (BASE): no region nosuch" \
			"$tmp/missing.err" &&
		grep -q "^mapreport: $tmp/marks2.log (NEW): no region nosuch" \
			"$tmp/missing.err" ||
		{ show "$tmp/missing.err"; fail "--region nosuch: message"; }
	# on NEW's side only: a log of a program without regions
	sample noregions -- "$programs/hot"
	[ "$rc" = 0 ] || { show "$tmp/noregions.err"; fail "hot under mapsample exited $rc"; }
	compare 1 missing-new --compare --region phase2 --json \
		"$tmp/marks1.log" "$tmp/noregions.log"
	[ "$(wc -l <"$tmp/missing-new.err")" = 1 ] &&
		grep -q "^mapreport: $tmp/noregions.log (NEW): no region phase2" \
			"$tmp/missing-new.err" ||
		{ show "$tmp/missing-new.err"; fail "--region phase2, NEW without it: message"; }
	"$python" -c 'import json, sys
assert json.load(open(sys.argv[1]))["result"] == "input-problem"' \
		"$tmp/missing-new.out" ||
		{ show "$tmp/missing-new.out"; fail "--region phase2, NEW without it: JSON result"; }
}

# top_self LOG N: the names of LOG's N top functions by self samples,
# one a line.
top_self() {
	"$mapreport" --json "$1" | "$python" -c 'import json, sys
for f in json.load(sys.stdin)["top_self"][:int(sys.argv[1])]:
    print(f["name"])' "$2"
}

test_python_no_false_alarm() {
	loop='s = 0
for i in range(3000000):
    s += i * i % 7
print(s)'
	for k in 1 2 3 4 5 6; do
		sample py$k -F 1000 -- "$python" -c "$loop"
		[ "$rc" = 0 ] || { show "$tmp/py$k.err"; fail "$python under mapsample exited $rc"; }
	done
	set -- --fail-if 'total > +5%'
	for f in $(top_self "$tmp/py1.log" 5); do
		set -- "$@" --fail-if "self(\"$f\") > +2pp"
	done
	for k in 1 2 3; do
		set -- "$@" --base "$tmp/py$k.log" --new "$tmp/py$((k + 3)).log"
	done
	compare 0 python "$@"
}

test_region
test_region_missing
if [ "${CMP_PYTHON:-0}" = 1 ]; then
	test_python_no_false_alarm
fi
echo "PASS: mapreport-compare-region"
