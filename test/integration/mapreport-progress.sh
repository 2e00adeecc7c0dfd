#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport's progress line (mapreport(1), --no-progress): on a terminal
# (script(1) gives mapreport one) and a log of at least 16 MiB, one line
# rewritten with "\r" up to 100% and cleared before the report; never when
# standard error is not a terminal, with --no-progress, or for a small
# log.  The report itself is the same either way.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mklog=$top_builddir/test/common/mklog

command -v script >/dev/null 2>&1 ||
	{ echo "SKIP: script(1) missing (Debian's bsdutils)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# on_tty OUT ARGS...: mapreport ARGS with a terminal for standard error;
# the report goes to $tmp/report, what the terminal showed to OUT.
on_tty() {
	out=$1
	shift
	script -qec "'$mapreport' $* >'$tmp/report'" /dev/null </dev/null \
		>"$out" 2>&1 || true
}

"$mklog" -n 600000 -t 2 -d 16:48 "$tmp/big.log" >/dev/null
[ "$(wc -c <"$tmp/big.log")" -ge 16777216 ] || fail "big.log under 16 MiB"
"$mklog" -n 2000 "$tmp/small.log" >/dev/null

test_terminal() {
	on_tty "$tmp/tty" -n 3 "'$tmp/big.log'"
	grep -q 'mapreport: reading big.log: 100%' "$tmp/tty" ||
		{ od -c "$tmp/tty" | head -20 >&2; fail "no progress up to 100%"; }
	[ "$(tr -cd '\r' <"$tmp/tty" | wc -c)" -ge 10 ] ||
		fail "the line is not rewritten in place"
	# cleared: after the last percentage, spaces back to the start
	tr '\r' '\n' <"$tmp/tty" | grep -q '^ *$' || fail "line not cleared"
	cp "$tmp/report" "$tmp/report.tty"
	"$mapreport" -n 3 "$tmp/big.log" >"$tmp/report.plain" 2>"$tmp/err"
	cmp -s "$tmp/report.tty" "$tmp/report.plain" ||
		fail "report differs with the progress line"
	grep -q 'reading' "$tmp/err" && fail "progress on a non-terminal"
	return 0
}

test_no_progress() {
	on_tty "$tmp/tty2" --no-progress -n 3 "'$tmp/big.log'"
	grep -q 'reading' "$tmp/tty2" && fail "--no-progress still shows it"
	return 0
}

test_small() {
	on_tty "$tmp/tty3" -n 3 "'$tmp/small.log'"
	grep -q 'reading' "$tmp/tty3" && fail "progress for a small log"
	return 0
}

test_terminal
test_no_progress
test_small
echo "mapreport-progress: all cases passed"
