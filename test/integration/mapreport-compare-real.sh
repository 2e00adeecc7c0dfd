#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare on real programs with no change (mapreport(1),
# COMPARING RUNS, Noise): two runs of xz compressing fixed data, and two
# of Debian's python3 running a fixed loop with PYTHONHASHSEED=0 (what
# mapreport(1) tells a user to do for Python, whose string-hash seed
# otherwise changes the work of a run), each compared one run a side
# with rules on the five top functions by self samples (+-2pp) at the
# default 3 sigma: no rule broken, exit 0 (on a false alarm, the second
# run is made again once, and that pair must pass).  It also prints how many of
# the two broke a rule at 0 sigma (the size of the change alone), which
# the noise model is there to prevent.  test/bench/compare-noise.sh
# counts the false alarms of 20 such pairs per program.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
python=/usr/bin/python3

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }
command -v xz >/dev/null || { echo "SKIP: xz missing (Debian's xz-utils package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

seq 1 30000 | awk '{ print $1, $1 * 7 % 13, "line of text", $1 % 97 }' >"$tmp/data.txt"
loop='s = 0
for i in range(3000000):
    s += i * i % 7
print(s)'

# run NAME K: run K of program NAME under mapsample at 1000 Hz
run() {
	case $1 in
	xz) set -- "$1" "$2" xz -T1 -6 -c "$tmp/data.txt" ;;
	py) set -- "$1" "$2" env PYTHONHASHSEED=0 "$python" -c "$loop" ;;
	esac
	name=$1
	k=$2
	shift 2
	"$mapsample" -q -F 1000 -o "$tmp/$name$k.log" -- "$@" </dev/null \
		>/dev/null 2>"$tmp/ms.err" ||
		{ cat "$tmp/ms.err" >&2; fail "mapsample $*: exit $?"; }
}

# rules NAME: --fail-if arguments on the five top functions of run 0,
# one a line
rules() {
	"$mapreport" --json "$tmp/${1}0.log" 2>/dev/null |
		"$python" -c '
import json, sys
for f in json.load(sys.stdin)["top_self"][:5]:
    for op in ("> +2pp", "< -2pp"):
        print("self(\"%s\") %s" % (f["name"], op))' >"$tmp/$1.rules"
	[ "$(wc -l <"$tmp/$1.rules")" -ge 4 ] ||
		{ cat "$tmp/$1.rules" >&2; fail "$1: fewer than two top functions"; }
}

# compare P: the pair of runs of P with its rules, exit status in $rc
compare() {
	set +e
	"$mapreport" --compare "$tmp/${1}0.log" "$tmp/${1}1.log" \
		--rules "$tmp/$1.rules" >"$tmp/$1.out" 2>"$tmp/$1.err"
	rc=$?
	set -e
}

teeth=0
for p in xz py; do
	run "$p" 0
	run "$p" 1
	rules "$p"
	compare "$p"
	# a false alarm at 3 sigma is rare, not impossible (one python pair
	# broke a rule at 3.3 sigma in a CI run: its runs can differ by more
	# than the sampling noise the model counts): a new second run once,
	# which must then pass
	if [ "$rc" = 3 ]; then
		grep -E "^  +broken:" "$tmp/$p.out" >&2 || true
		echo "# $p: a rule broken on two runs with no change; a new second run"
		run "$p" 1
		compare "$p"
	fi
	case $rc in
	0) ;;
	3) cat "$tmp/$p.out" >&2; fail "$p: a rule broken on two runs with no change, twice" ;;
	*) cat "$tmp/$p.err" >&2; fail "$p: mapreport --compare exit $rc" ;;
	esac
	grep -q "^  0 of [0-9]* rules broken" "$tmp/$p.out" ||
		{ cat "$tmp/$p.out" >&2; fail "$p: no rules line"; }
	set +e
	"$mapreport" --compare "$tmp/${p}0.log" "$tmp/${p}1.log" --sigma 0 \
		--rules "$tmp/$p.rules" >"$tmp/$p.0.out" 2>&1
	rc=$?
	set -e
	case $rc in
	0) ;;
	3) teeth=$((teeth + 1)) ;;
	*) cat "$tmp/$p.0.out" >&2; fail "$p: mapreport --compare --sigma 0 exit $rc" ;;
	esac
	echo "ok - $p: two runs, no rule broken at 3 sigma ($(grep -c '^  pass' "$tmp/$p.out") rules)"
done
echo "# at 0 sigma (size alone) $teeth of 2 programs broke a rule"
