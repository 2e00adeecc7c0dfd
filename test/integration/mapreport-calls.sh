#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --callers and --callees on test/programs/callsplit: work() is
# called by from_a with a third of its work and by from_b with two
# thirds, so its callers must split 1/3 and 2/3 (within 6 points), and
# it spends a quarter in step_small and three quarters in step_big (its
# callees, within 6 points); the rows of each add up to its total, which
# is its row of the total table.  recurse() is on its stacks 4 times:
# its total must still be its samples counted once (the same as its
# caller main's and as the total table's), never more than the run's.
# A name no function has gets one line saying so.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs callsplit
sample cs -F 1000 -- "$programs/callsplit" 40
[ "$rc" = 0 ] || { show "$tmp/cs.err"; fail "callsplit: mapsample exited $rc"; }

# section NAME TITLE: the rows of the section "TITLE: ..." of
# $tmp/NAME.report as "SAMPLES SHARE FUNCTION" (share without %).
section() {
	awk -v t="$2: " 'index($0, t) == 1 { s = 1; getline; next }
		s && NF == 0 { s = 0 }
		s { sub("%", "", $2); print $1, $2, $3 }' "$tmp/$1.report"
}

# title_total NAME TITLE: the total samples in the title of a section.
title_total() {
	sed -n "s/^$2: total \([0-9]*\) samples.*/\1/p" "$tmp/$1.report"
}

# share NAME TITLE FUNCTION: FUNCTION's share in that section (-1 when
# it is not there).
share() {
	section "$1" "$2" | awk -v f="$3" '$3 == f { print $2; n++ }
		END { if (!n) print -1 }'
}

test_split() {
	report cs --callers work --callees work
	total=$(title_total cs "Callers of work")
	[ -n "$total" ] && [ "$total" -ge 100 ] || {
		show "$tmp/cs.report"
		fail "Callers of work: no total, or too few samples (${total:-none})"
	}
	[ "$total" = "$(func_total cs work)" ] ||
		fail "Callers of work: total $total, the total table says $(func_total cs work)"
	a=$(share cs "Callers of work" from_a)
	b=$(share cs "Callers of work" from_b)
	check "$a >= 27.3 && $a <= 39.3 && $b >= 60.7 && $b <= 72.7" || {
		show "$tmp/cs.report"
		fail "callers of work: from_a $a%, from_b $b%; want 33.3% and 66.7% within 6 points"
	}
	small=$(share cs "Callees of work" step_small)
	big=$(share cs "Callees of work" step_big)
	check "$small >= 19 && $small <= 31 && $big >= 69 && $big <= 81" || {
		show "$tmp/cs.report"
		fail "callees of work: step_small $small%, step_big $big%; want 25% and 75% within 6 points"
	}
	for t in "Callers of work" "Callees of work"; do
		sum=$(section cs "$t" | awk '{ s += $1 } END { print s + 0 }')
		[ "$sum" = "$total" ] || {
			show "$tmp/cs.report"
			fail "$t: the rows add up to $sum, the total is $total"
		}
	done
}

test_recursion() {
	report cr --callers recurse
	total=$(title_total cr "Callers of recurse")
	all=$(samples cr)
	main=$(section cr "Callers of recurse" | awk '$3 == "main" { print $1 }')
	self=$(section cr "Callers of recurse" | awk '$3 == "recurse" { print $1 }')
	[ -n "$total" ] && [ "$total" -gt 0 ] && [ "$total" -le "$all" ] &&
		[ "$main" = "$total" ] && [ "$self" = "$total" ] &&
		[ "$total" = "$(func_total cr recurse)" ] || {
		show "$tmp/cr.report"
		fail "recurse: total ${total:-none} (run $all, total table $(func_total cr recurse)), through main ${main:-none}, through itself ${self:-none}: each must be its samples counted once"
	}
}

test_unknown() {
	report cu --callees no_such_function
	grep -q '^Callees of no_such_function: no function of that name has samples' \
		"$tmp/cu.report" || {
		show "$tmp/cu.report"
		fail "--callees no_such_function: no line saying so"
	}
}

# The samples file name is the log's: the helpers read $tmp/NAME.log.
cp "$tmp/cs.log" "$tmp/cr.log"
cp "$tmp/cs.log" "$tmp/cu.log"
test_split
test_recursion
test_unknown
echo "mapreport-calls: ok"
