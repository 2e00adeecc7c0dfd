#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare (mapreport(1), COMPARING RUNS) on real runs of
# test/programs/cmpwork and its build with a deliberately slower
# work_solve (test/programs/slow/cmpwork):
#   - BASE against the slow build: work_solve heads the table of
#     functions by self samples, its rule is broken, exit 3;
#   - --run-noise: 'total > +5%' on the slow build (about +66%) broken
#     with no variation between runs assumed and with the default 2%,
#     not with 60%; a bad value is a usage error;
#   - the same build twice, CMP_REPS pairs (default 5): no rule of
#     rules.txt broken at the default 3 sigma (the noise model holds);
#   - test/programs/cmpjitter, whose shares vary from run to run by
#     several times the sampling noise, and visibly so within a run,
#     CMP_REPS pairs sampled at 2000 Hz: no rule on its two functions
#     broken at 4 sigma (the within-run estimate, blocks of time, holds),
#     and at least one pair 2 binomial sigma apart (the runs do jitter).
#     At 2000 Hz a run has about 2000 samples, so a change of 6.3pp is
#     4 binomial sigma: the binomial estimate alone broke a rule in 13 of
#     20 pairs, the within-run one in none.  (At 3 sigma a perfect
#     estimate still breaks 1 pair in 370: too often for a test of 5.)
#   - one run a side: judged (exit 3) with a note that variation
#     between runs is not measured; three runs of BASE against one of
#     NEW: the slow build breaks its rule (exit 3), the same build
#     breaks none, and no one-run note;
#   - a damaged log on one side, and a missing one: exit 1,
#     the log named;
#   - an invalid rule, on the command line and in a rules file: exit 2,
#     one line with the rule and the column of the error;
#   - BASE and NEW from different programs (hot, cmpwork): compared,
#     with a note, exit 0;
#   - without --compare, logs of two runs are refused (exit 2, both
#     named) unless --merge; one log twice is one run;
#   - the example rules of mapreport(1), COMPARING RUNS (the list under
#     "Examples:" and perf.rules) are valid rules, and its two example
#     error lines are what mapreport says.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
work=$top_builddir/test/programs/cmpwork
slow=$top_builddir/test/programs/slow/cmpwork
hot=$top_builddir/test/programs/hot
jitter=$top_builddir/test/programs/cmpjitter
reps=${CMP_REPS:-5}

for p in "$work" "$slow" "$hot" "$jitter"; do
	[ -x "$p" ] || { echo "FAIL: $p missing: run 'make check'" >&2; exit 1; }
done

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# sample LOG PROGRAM [ARGS...]: a run of PROGRAM under mapsample into LOG.
sample() {
	log=$1
	shift
	"$mapsample" -q -o "$log" -- "$@" </dev/null >/dev/null 2>"$tmp/ms.err" ||
		{ cat "$tmp/ms.err" >&2; fail "mapsample $*: exit $?"; }
}

# compare WANT_RC NAME ARGS...: mapreport ARGS, standard output to
# $tmp/NAME.out, standard error to $tmp/NAME.err; fails unless the exit
# status is WANT_RC.
compare() {
	want=$1
	name=$2
	shift 2
	set +e
	"$mapreport" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	set -e
	if [ "$rc" != "$want" ]; then
		cat "$tmp/$name.out" "$tmp/$name.err" >&2
		fail "$name: mapreport $*: exit $rc, not $want"
	fi
}

cat >"$tmp/rules.txt" <<'RULES'
# the three phases of cmpwork, either way
self(work_parse) > +2pp
self(work_solve) > +2pp   # the one the slow build breaks
self(work_output) > +2pp
self(work_parse) < -2pp
self(work_solve) < -2pp
self(work_output) < -2pp
total(main) < -2pp
RULES

test_regression() {
	sample "$tmp/base.log" "$work"
	sample "$tmp/slow.log" "$slow"
	compare 3 regression --compare "$tmp/base.log" "$tmp/slow.log" \
		--fail-if 'self(work_solve) > +2pp'
	first=$(awk '/^Functions by self samples/ { getline; getline;
		print $NF == "(cmpwork)" ? $(NF - 1) : $NF; exit }' \
		"$tmp/regression.out")
	[ "$first" = work_solve ] ||
		{ cat "$tmp/regression.out" >&2; fail "first row: '$first', not work_solve"; }
	grep -q '^  BROKEN  self(work_solve) > +2pp$' "$tmp/regression.out" ||
		fail "regression: no BROKEN rule line"
	grep -q '1 of 1 rule broken' "$tmp/regression.out" ||
		fail "regression: no count of broken rules"
	# the same logs with the rules file: exit 3 too, the other
	# phases' shares fall, which no "> +2pp" rule minds
	compare 3 regression-file --compare "$tmp/base.log" \
		"$tmp/slow.log" --rules "$tmp/rules.txt"
	# and the --base/--new form, with a rule it does not break
	compare 0 regression-pass --base "$tmp/base.log" \
		--new "$tmp/slow.log" --fail-if 'self(work_solve) > +50pp'
}

test_no_false_alarm() {
	i=0
	broken=0
	while [ "$i" -lt "$reps" ]; do
		sample "$tmp/a$i.log" "$work"
		sample "$tmp/b$i.log" "$work"
		set +e
		"$mapreport" --compare "$tmp/a$i.log" "$tmp/b$i.log" \
			--rules "$tmp/rules.txt" >"$tmp/same$i.out" 2>&1
		rc=$?
		set -e
		case $rc in
		0) ;;
		3) broken=$((broken + 1)); cat "$tmp/same$i.out" >&2 ;;
		*) cat "$tmp/same$i.out" >&2; fail "same build: exit $rc" ;;
		esac
		i=$((i + 1))
	done
	echo "same build: $broken of $reps pairs broke a rule at 3 sigma"
	[ "$broken" = 0 ] || fail "same build twice: a rule broken ($broken of $reps)"
}

test_jitter() {
	i=0
	broken=0
	zmax=0
	while [ "$i" -lt "$reps" ]; do
		for side in ja jb; do
			"$mapsample" -q -F 2000 -o "$tmp/$side$i.log" -- "$jitter" \
				</dev/null >/dev/null 2>"$tmp/ms.err" ||
				{ cat "$tmp/ms.err" >&2; fail "mapsample cmpjitter: exit $?"; }
		done
		set +e
		"$mapreport" --compare "$tmp/ja$i.log" "$tmp/jb$i.log" --sigma 4 \
			--fail-if 'self(jitter_a) > +2pp' \
			--fail-if 'self(jitter_a) < -2pp' \
			--fail-if 'self(jitter_b) > +2pp' \
			--fail-if 'self(jitter_b) < -2pp' >"$tmp/jit$i.out" 2>&1
		rc=$?
		set -e
		case $rc in
		0) ;;
		3) broken=$((broken + 1)); cat "$tmp/jit$i.out" >&2 ;;
		*) cat "$tmp/jit$i.out" >&2; fail "cmpjitter: exit $rc" ;;
		esac
		# the change of jitter_a's share in binomial sigma (the noise
		# of sampling alone), from the shares and sample counts shown
		z=$(awk '
			/^  BASE / { for (f = 1; f <= NF; f++) if ($f == "samples,") nb = $(f - 1) }
			/^  NEW / { for (f = 1; f <= NF; f++) if ($f == "samples,") nn = $(f - 1) }
			/jitter_a \(cmpjitter\)/ && !done {
				a = $1 / 100; b = $2 / 100; done = 1
			}
			END {
				p = (a * nb + b * nn) / (nb + nn)
				v = p * (1 - p) * (1 / nb + 1 / nn)
				d = b - a; if (d < 0) d = -d
				printf "%.1f\n", (v > 0 ? d / sqrt(v) : 0)
			}' "$tmp/jit$i.out")
		zmax=$(awk -v a="$zmax" -v b="$z" 'BEGIN { print (b > a ? b : a) }')
		rm -f "$tmp/ja$i.log" "$tmp/jb$i.log"
		i=$((i + 1))
	done
	echo "cmpjitter: $broken of $reps pairs broke a rule at 4 sigma;" \
		"largest change $zmax binomial sigma"
	[ "$broken" = 0 ] || fail "cmpjitter twice: a rule broken ($broken of $reps)"
	# the runs must differ by more than sampling noise, or this test
	# shows nothing (a pair under 2 binomial sigma: 1 in 4; all five: 1 in 1000)
	awk -v z="$zmax" 'BEGIN { exit !(z >= 2) }' ||
		fail "cmpjitter: no pair differed by 2 binomial sigma (largest $zmax): the program no longer jitters"
}

test_one_run() {
	# one run a side: judged against the noise within the runs, with a
	# note that variation between runs is not measured
	compare 3 one-run --compare "$tmp/base.log" "$tmp/slow.log" \
		--fail-if 'self(work_solve) > +2pp'
	grep -q '^mapreport: note: one run a side: .*variation between runs .* is not measured' \
		"$tmp/one-run.err" || { cat "$tmp/one-run.err" >&2; fail "one run a side: no note"; }
	grep -q '^  BROKEN  self(work_solve) > +2pp$' "$tmp/one-run.out" ||
		{ cat "$tmp/one-run.out" >&2; fail "one run a side: rule not broken"; }
	# three runs of BASE against one of NEW: BASE's spread stands for
	# NEW's too, with its 2 degrees of freedom, a wide Student t: the
	# slow build's +28pp came out at 2.9 sigma once (BASE's spread
	# 3.1pp), so it is asked at 2 sigma; the same build breaks nothing
	# at the default 3
	compare 3 three-one --base "$tmp/base.log" --base "$tmp/a0.log" \
		--base "$tmp/a1.log" --new "$tmp/slow.log" --rules "$tmp/rules.txt" \
		--sigma 2
	grep -q '^  BROKEN  self(work_solve) > +2pp' "$tmp/three-one.out" ||
		{ cat "$tmp/three-one.out" >&2; fail "3 runs against 1: work_solve not broken"; }
	if grep -q 'Note: one run a side' "$tmp/three-one.out"; then
		cat "$tmp/three-one.out" >&2
		fail "3 runs against 1: said one run a side"
	fi
	compare 0 three-one-same --base "$tmp/base.log" --base "$tmp/a0.log" \
		--base "$tmp/a1.log" --new "$tmp/b0.log" --rules "$tmp/rules.txt"
}

test_damaged() {
	# 64 bytes of 0xff in the middle of NEW's log: damage mapreport
	# reports and reads past; the rule is broken, but 1 wins over 3
	cp "$tmp/slow.log" "$tmp/bad.log"
	size=$(wc -c <"$tmp/bad.log")
	awk 'BEGIN { for (i = 0; i < 64; i++) printf "%c", 255 }' |
		dd of="$tmp/bad.log" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
	compare 1 damaged --compare "$tmp/base.log" "$tmp/bad.log" \
		--fail-if 'self(work_solve) > +2pp'
	grep -q "^mapreport: .*bad.log: damaged" "$tmp/damaged.err" ||
		{ cat "$tmp/damaged.err" >&2; fail "damaged log not named"; }
	compare 1 missing --compare "$tmp/nonesuch.log" "$tmp/base.log"
	grep -q "nonesuch.log" "$tmp/missing.err" || fail "missing log not named"
}

test_invalid_rule() {
	compare 2 badrule --compare "$tmp/base.log" "$tmp/slow.log" \
		--fail-if 'self(work_solve) >> 2pp'
	[ "$(wc -l <"$tmp/badrule.err")" = 1 ] || fail "bad rule: not one line"
	grep -q "^mapreport: --fail-if: invalid rule 'self(work_solve) >> 2pp': column 19: expected a number$" \
		"$tmp/badrule.err" || { cat "$tmp/badrule.err" >&2; fail "bad rule message"; }
	printf 'total > 5%%\nself(x) > 2\n' >"$tmp/bad.txt"
	compare 2 badfile --compare "$tmp/base.log" "$tmp/slow.log" \
		--rules "$tmp/bad.txt"
	grep -q "bad.txt:2: invalid rule 'self(x) > 2': column 12: expected a unit" \
		"$tmp/badfile.err" || { cat "$tmp/badfile.err" >&2; fail "bad rules file message"; }
	compare 2 usage --compare "$tmp/base.log"
}

test_different_programs() {
	sample "$tmp/hot.log" "$hot" 300
	compare 0 different --compare "$tmp/hot.log" "$tmp/base.log"
	grep -q 'note: BASE runs hot, NEW runs cmpwork: different programs' \
		"$tmp/different.err" || { cat "$tmp/different.err" >&2; fail "no note on different programs"; }
	grep -q 'Note: BASE runs hot' "$tmp/different.out" || fail "no note in the report"
}

test_merge() {
	compare 2 merge "$tmp/base.log" "$tmp/slow.log"
	grep -q "^mapreport: $tmp/base.log and $tmp/slow.log are logs of different runs (.*); give --merge" \
		"$tmp/merge.err" || { cat "$tmp/merge.err" >&2; fail "different runs: message"; }
	compare 0 merged --merge "$tmp/base.log" "$tmp/slow.log"
	grep -q '^mapsample report' "$tmp/merged.out" || fail "--merge: no report"
	compare 0 same "$tmp/base.log" "$tmp/base.log"
}

# man_block AFTER: the lines of the first literal block of mapreport(1)
# after the line AFTER, roff escapes undone.
man_block() {
	awk -v after="$1" '
		$0 == after { found = 1; next }
		found && /^\.Bd -literal/ { inblock = 1; next }
		inblock && /^\.Ed/ { exit }
		inblock { gsub(/\\e/, "\\"); print }' "$top_srcdir/man/mapreport.1"
}

test_man_rules() {
	man_block "Examples:" | sed 's/   .*//' >"$tmp/man-rules.txt"
	[ "$(wc -l <"$tmp/man-rules.txt")" -ge 4 ] || fail "mapreport.1: no example rules"
	compare 0 man-rules --compare "$tmp/base.log" "$tmp/base.log" \
		--rules "$tmp/man-rules.txt"
	man_block ".Pa perf.rules" >"$tmp/perf.rules"
	grep -q '^self(parse) > +2pp$' "$tmp/perf.rules" || fail "mapreport.1: no perf.rules"
	compare 0 man-perf --compare "$tmp/base.log" "$tmp/base.log" \
		--rules "$tmp/perf.rules"
	# the metric examples name metrics mapsample records by default
	grep -q '^metric(' "$tmp/man-rules.txt" || fail "mapreport.1: no metric example"
	! grep -E '^  (no data|BROKEN) +metric\(' "$tmp/man-rules.out" \
		"$tmp/man-perf.out" >&2 ||
		fail "mapreport.1: a metric example is not judged on a mapsample log"
	# the two error lines the page shows
	man_block "the error, and exit status 2:" >"$tmp/man-errors.txt"
	compare 2 man-err1 --compare "$tmp/base.log" "$tmp/base.log" \
		--fail-if 'self(parse > 2pp'
	grep -qxF "$(cat "$tmp/man-err1.err")" "$tmp/man-errors.txt" ||
		fail "mapreport.1's first error line is not: $(cat "$tmp/man-err1.err")"
	printf '# one\n\ntotal > 2pp\n' >"$tmp/perf-bad.rules"
	(cd "$tmp" && cp perf-bad.rules perf.rules &&
		"$mapreport" --compare base.log base.log --rules perf.rules) \
		>/dev/null 2>"$tmp/man-err2.err" && fail "bad perf.rules: exit 0"
	grep -qxF "$(cat "$tmp/man-err2.err")" "$tmp/man-errors.txt" ||
		fail "mapreport.1's second error line is not: $(cat "$tmp/man-err2.err")"
}

# --run-noise: the whole-run time of a side of one run is judged with
# the variation between runs assumed (default 2%); slow cmpwork takes
# about 66% more time: broken with none assumed, within the noise when
# 60% is, and the default sits between (its sigma below that of none).
test_run_noise() {
	compare 3 rn0 --compare --json "$tmp/base.log" "$tmp/slow.log" \
		--run-noise 0 --fail-if 'total > +5%'
	compare 0 rn60 --compare --json "$tmp/base.log" "$tmp/slow.log" \
		--run-noise 60 --fail-if 'total > +5%'
	compare 3 rn --compare --json "$tmp/base.log" "$tmp/slow.log" \
		--fail-if 'total > +5%'
	/usr/bin/python3 - "$tmp" <<'PY' || fail "--run-noise: JSON figures"
import json, sys
def load(n): return json.load(open(sys.argv[1] + "/" + n + ".out"))
d0, d60, d = load("rn0"), load("rn60"), load("rn")
assert (d0["run_noise"], d60["run_noise"], d["run_noise"]) == (0, 60, 2)
def total(x): return [r for r in x["rows"] if r["kind"] == "time"][0]
t0, t60, t = total(d0), total(d60), total(d)
assert 40 < t["change_percent"] < 100, t
assert t0["change_percent"] == t["change_percent"] == t60["change_percent"]
assert t60["sigma"] < 3 < t["sigma"] < t0["sigma"], (t60["sigma"], t["sigma"], t0["sigma"])
assert [x["verdict"] for x in (d0, d60, d) for x in x["rules"]] == ["broken", "pass", "broken"]
assert any("--run-noise" in n for n in d["notes"]), d["notes"]
PY
	compare 2 rn-bad --compare "$tmp/base.log" "$tmp/slow.log" --run-noise 5x
	grep -qF 'mapreport: --run-noise 5x: give a percentage from 0 to 100' \
		"$tmp/rn-bad.err" || fail "--run-noise 5x: no error line"
}

test_regression
test_run_noise
test_man_rules
test_merge
test_no_false_alarm
test_jitter
test_one_run
test_damaged
test_invalid_rule
test_different_programs
echo "mapreport-compare: all cases passed"
