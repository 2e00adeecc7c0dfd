#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-vdso.sh: code of the vDSO is named.  test/programs/clockloop
# spends its time in the vDSO's clock_gettime.  The log holds only the
# vDSO's build-id; mapreport, on the kernel of the run, names its
# functions from its own vDSO when the build-ids are equal.  No row of
# the self table may be a nameless [vdso]+0xOFFSET, and the vDSO's
# first row must be a clock_gettime (it was "[vdso]+0x79d", 65% where
# perf says __vdso_clock_gettime).  Skipped when no sample lands in the
# vDSO (a kernel without one, or a clock read by a system call).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs clockloop
sample clk -F 1000 -- "$programs/clockloop" 10
[ "$rc" = 0 ] || { show "$tmp/clk.err"; fail "mapsample exited $rc"; }
report clk
awk '$0 == "Top functions by self samples" { s = 1; getline; next }
	s && NF == 0 { s = 0 }
	s && $NF == "([vdso])" { print $5, $1 }' "$tmp/clk.report" >"$tmp/rows"
[ -s "$tmp/rows" ] || {
	echo "SKIP: no sample in the vDSO (no vDSO, or clock_gettime is a system call here)" >&2
	exit 77
}
if grep -q '^\[vdso\]+0x' "$tmp/rows"; then
	show "$tmp/clk.report" "$tmp/clk.rerr"
	fail "nameless vDSO rows: $(grep '^\[vdso\]+0x' "$tmp/rows" | tr '\n' ' ')"
fi
read -r name pct <"$tmp/rows"
case $name in
*clock_gettime*) ;;
*) show "$tmp/clk.report"; fail "the vDSO's first row is $name ($pct), not a clock_gettime" ;;
esac
echo "mapreport-vdso: all cases passed"
