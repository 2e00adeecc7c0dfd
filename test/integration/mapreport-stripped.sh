#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-stripped.sh: code without a symbol is reported per function.
# test/programs/libstripwork spends its time in a static function; a
# stripped copy keeps only its dynamic symbols, so that function has no
# name.  Its samples must make one row of the self table, named by the
# library and the file offset where the function starts, which must be
# the start of an entry of the library's unwind table (.eh_frame), and
# the folded stacks must use the same name; not a row per sampled
# instruction.  The function that calls it has no name either: as a
# caller in the folded stacks it too must be named by the start of an
# unwind-table entry (a caller's address is a return address, one past
# the call: it was named one byte off, so a function that is a leaf in
# some stacks and a caller in others showed as two).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs rpathopen
lib=$top_builddir/test/programs/.libs/libstripwork.so
[ -f "$lib" ] || fail "$lib missing: run 'make check' first"
command -v strip >/dev/null && command -v readelf >/dev/null ||
	{ echo "SKIP: strip and readelf (binutils) are needed" >&2; exit 77; }
strip -o "$tmp/libstripwork.so" "$lib"
! nm "$tmp/libstripwork.so" 2>/dev/null | grep -q stripwork_spin ||
	fail "strip left stripwork_spin's name in the copy"

sample strip -F 1000 -- "$programs/rpathopen" exe "$tmp/libstripwork.so" 300
[ "$rc" = 0 ] || { show "$tmp/strip.out" "$tmp/strip.err"; fail "mapsample exited $rc"; }
report strip
# the rows of the copy in the self table
awk '$0 == "Top functions by self samples" { s = 1; next }
	s && NF == 0 { s = 0 }
	s && $5 ~ /^libstripwork\.so\+0x/ { print $5, $1 }' "$tmp/strip.report" >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" = 1 ] || {
	show "$tmp/strip.report"
	fail "the static function's samples are in $(wc -l <"$tmp/rows") rows, expected 1"
}
read -r fname pct <"$tmp/rows"
pct=${pct%\%}
check "$pct >= 80" || { show "$tmp/strip.report"; fail "$fname holds $pct% of the samples, expected the hot loop's 80% or more"; }
off=${fname#libstripwork.so+0x}
# the file offset is the function's address here (first PT_LOAD at 0)
readelf --debug-dump=frames "$tmp/libstripwork.so" |
	grep -Eq " pc=0*$off\.\." || {
	readelf --debug-dump=frames "$tmp/libstripwork.so" | grep FDE >&2
	fail "$fname does not start an entry of the unwind table"
}
report strip --folded
grep -q ";$fname " "$tmp/strip.report" || {
	show "$tmp/strip.report"
	fail "the folded stacks do not end in $fname"
}
# every nameless frame of the copy in the folded stacks, leaf or caller
tr ';' '\n' <"$tmp/strip.report" | sed -n 's/^\(libstripwork\.so+0x[0-9a-f]*\).*/\1/p' |
	sort -u >"$tmp/names"
[ "$(wc -l <"$tmp/names")" -ge 2 ] || {
	show "$tmp/strip.report"
	fail "expected the nameless caller and callee in the folded stacks, found $(cat "$tmp/names")"
}
while read -r n; do
	o=${n#libstripwork.so+0x}
	readelf --debug-dump=frames "$tmp/libstripwork.so" |
		grep -Eq " pc=0*$o\.\." || {
		grep -F "$n" "$tmp/strip.report" | head -3 >&2
		fail "$n (a frame of the folded stacks) does not start an entry of the unwind table"
	}
done <"$tmp/names"
echo "mapreport-stripped: all cases passed"
