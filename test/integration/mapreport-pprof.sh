#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --pprof: the profile is read by go tool pprof (Debian's
# golang-go; the test is skipped, exit 77, without it).  On
# test/programs/hot, pprof's top function is burn_hot with the share of
# samples the text report gives it, within one point, by sample count and
# by CPU time; its locations carry function, file and line, its mapping
# the program's path.  On test/programs/threads8, -tags lists the pid,
# the nine threads' tids and the process name as labels, and -traces a
# worker's stack under its labels.  On test/programs/linehot, whose
# mix() is inlined into hot_loop, a location holds both functions'
# lines (inline frames: mix's line, then hot_loop's call).  --pprof comes with the text report on
# standard output and with --folded to a file in the same run; a pprof
# file that cannot be written is one line naming it and exit status 1.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

command -v go >/dev/null 2>&1 || {
	echo "SKIP: go (golang-go) not installed: no go tool pprof"
	exit 77
}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
# pprof keeps nothing in the user's home
HOME=$tmp
GOCACHE=$tmp/gocache
PPROF_TMPDIR=$tmp
export HOME GOCACHE PPROF_TMPDIR

need_programs hot threads8 linehot

# pprof_top FILE [OPTIONS]: go tool pprof -top's rows, "FLAT% NAME".
pprof_top() {
	f=$1
	shift
	go tool pprof "$@" -top "$f" 2>"$tmp/pprof.err" |
		awk '/^ *flat  *flat%/ { s = 1; next }
		     s && NF >= 6 { sub("%", "", $2); print $2, $6 }' || {
		show "$tmp/pprof.err"
		fail "go tool pprof -top $f failed"
	}
}

test_hot() {
	sample hot -F 500 -- "$programs/hot" 600
	[ "$rc" = 0 ] || { show "$tmp/hot.err"; fail "hot: mapsample exited $rc"; }
	report hot --pprof "$tmp/hot.pb.gz" --folded="$tmp/hot.folded"
	# the text report is still written, and the folded stacks
	want=$(func_self_pct hot burn_hot)
	check "$want > 50" || { show "$tmp/hot.report"; fail "hot: burn_hot at $want% in the text report"; }
	[ -s "$tmp/hot.folded" ] || fail "hot: --folded file empty next to --pprof"
	# gzip framing
	[ "$(od -An -tx1 -N2 "$tmp/hot.pb.gz" | tr -d ' ')" = 1f8b ] ||
		fail "hot: the pprof file is not gzip-compressed"
	for index in samples cpu; do
		pprof_top "$tmp/hot.pb.gz" -sample_index=$index >"$tmp/top.$index"
		set -- $(head -n 1 "$tmp/top.$index")
		[ "${2:-}" = burn_hot ] || {
			show "$tmp/top.$index"
			fail "hot: pprof ($index) puts '${2:-}' first, not burn_hot"
		}
		check "$1 - $want <= 1 && $want - $1 <= 1" || {
			show "$tmp/top.$index" "$tmp/hot.report"
			fail "hot: pprof ($index) gives burn_hot $1%, the report $want%"
		}
	done
	# locations: function, file and line; the program's mapping
	go tool pprof -raw "$tmp/hot.pb.gz" >"$tmp/raw" 2>"$tmp/pprof.err" ||
		fail "hot: go tool pprof -raw failed"
	grep -Eq ' burn_hot [^ ]*hot\.c:[0-9]+ ' "$tmp/raw" || {
		show "$tmp/raw"
		fail "hot: no burn_hot location with hot.c:LINE"
	}
	grep -q "/test/programs/hot .*\[FN\]\[FL\]\[LN\]\[IN\]" "$tmp/raw" || {
		show "$tmp/raw"
		fail "hot: no mapping of the program, or not marked symbolized"
	}
	grep -q "^PeriodType: cpu nanoseconds" "$tmp/raw" ||
		fail "hot: period type not cpu nanoseconds"
}

test_labels() {
	sample t8 -F 1000 -- "$programs/threads8" 100
	[ "$rc" = 0 ] || { show "$tmp/t8.err"; fail "threads8: mapsample exited $rc"; }
	report t8 --pprof "$tmp/t8.pb.gz"
	go tool pprof -tags "$tmp/t8.pb.gz" >"$tmp/tags" 2>"$tmp/pprof.err" || {
		show "$tmp/pprof.err"
		fail "threads8: go tool pprof -tags failed"
	}
	pid=$(processes t8 | awk 'NR == 1 { print $1 }')
	# the threads with samples in the report, each a tid label
	threads t8 | awk '$3 > 0 { print $2 }' | sort >"$tmp/want-tids"
	awk '/^ *tid:/ { s = 1; next } /^ *[a-z]+:/ { s = 0 }
	     s && /%\)/ { print $NF }' "$tmp/tags" | sort >"$tmp/got-tids"
	cmp -s "$tmp/want-tids" "$tmp/got-tids" || {
		show "$tmp/tags" "$tmp/want-tids"
		fail "threads8: tid labels are not the report's threads"
	}
	[ "$(wc -l <"$tmp/got-tids")" -ge 8 ] || fail "threads8: fewer than 8 tids"
	awk '/^ *pid:/ { s = 1; next } /^ *[a-z]+:/ { s = 0 }
	     s && /%\)/ { print $NF }' "$tmp/tags" >"$tmp/pids"
	[ "$(cat "$tmp/pids")" = "$pid" ] || {
		show "$tmp/tags"
		fail "threads8: pid labels '$(cat "$tmp/pids")', not $pid"
	}
	grep -Eq '100%\): threads8$' "$tmp/tags" || {
		show "$tmp/tags"
		fail "threads8: no process (and thread) name label threads8"
	}
	go tool pprof -traces "$tmp/t8.pb.gz" >"$tmp/traces" 2>/dev/null
	grep -A 6 "tid:  $(sed -n 2p "$tmp/got-tids")\$" "$tmp/traces" |
		grep -q worker_burn || {
		show "$tmp/traces"
		fail "threads8: -traces has no worker_burn stack under a tid label"
	}
}

# Inline frames: test/programs/linehot's mix() is inlined into
# hot_loop (-O2, always_inline), so a location in mix's code holds two
# Lines, mix at a line between HELPER BEGIN and HELPER END and then
# hot_loop at its call, between HOT BEGIN and HOT END (go tool pprof
# -raw writes the inner Line first, the caller's on the next line).
test_inline() {
	src=$top_srcdir/test/programs/linehot.c
	sample lh -F 1000 -- "$programs/linehot" 150
	[ "$rc" = 0 ] || { show "$tmp/lh.err"; fail "linehot: mapsample exited $rc"; }
	report lh --pprof "$tmp/lh.pb.gz"
	go tool pprof -raw "$tmp/lh.pb.gz" >"$tmp/lhraw" 2>"$tmp/pprof.err" || {
		show "$tmp/pprof.err"
		fail "linehot: go tool pprof -raw failed"
	}
	range() { awk -v b="/* $1 BEGIN */" -v e="/* $1 END */" 'index($0, b) { f = NR }
		index($0, e) { print f, NR; exit }' "$src"; }
	set -- $(range HELPER) $(range HOT)
	[ $# = 4 ] || fail "linehot.c: no HELPER or HOT markers"
	# "N: ADDR M=1 mix .../linehot.c:L s=0" then "hot_loop .../linehot.c:L s=0"
	awk -v h0="$1" -v h1="$2" -v c0="$3" -v c1="$4" '
		/^Locations/ { s = 1; next } /^Mappings/ { s = 0 }
		!s { next }
		$1 ~ /^[0-9]+:$/ { inl = 0
			if ($4 == "mix" && split($5, a, ":") == 2 &&
			    a[2] >= h0 && a[2] <= h1 && a[1] ~ /linehot\.c$/) inl = 1
			next }
		inl && NF >= 2 && $1 == "hot_loop" && split($2, a, ":") == 2 &&
		    a[2] >= c0 && a[2] <= c1 { n++ }
		{ inl = 0 }
		END { exit !(n > 0) }' "$tmp/lhraw" || {
		show "$tmp/lhraw"
		fail "linehot: no location with mix (lines $1-$2) inlined into hot_loop (lines $3-$4)"
	}
}

test_unwritable() {
	sample solo -- "$programs/hot" 50
	set +e
	"$mapreport" --pprof "$tmp/no/such/dir/x.pb.gz" "$tmp/solo.log" \
		>/dev/null 2>"$tmp/unw.err"
	r=$?
	set -e
	[ "$r" = 1 ] || fail "unwritable pprof file: exit $r, not 1"
	grep -q "^mapreport: $tmp/no/such/dir/x.pb.gz: cannot write: " \
		"$tmp/unw.err" || { show "$tmp/unw.err"; fail "unwritable pprof file: message"; }
}

test_hot
test_labels
test_inline
test_unwritable
echo "mapreport-pprof: OK"
