#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Two PID namespaces with the same pids under one mapsample: a shell
# runs "unshare -p -f --mount-proc" twice, each time a program that
# becomes pid 1 of its namespace and burns CPU (test/programs/cpuburn).
# The two must be two processes in the report, each with its own
# samples, not one row holding both.  Skipped where unshare(1) cannot
# make a PID namespace (no privilege for it).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs cpuburn
command -v unshare >/dev/null 2>&1 || { echo "SKIP: no unshare(1)"; exit 77; }
unshare -p -f --mount-proc true 2>/dev/null ||
	{ echo "SKIP: unshare -p -f --mount-proc cannot make a PID namespace here"; exit 77; }

burn="$programs/cpuburn"
sample ns -- sh -c "unshare -p -f --mount-proc '$burn' 200; unshare -p -f --mount-proc '$burn' 200"
[ "$rc" = 0 ] || { show "$tmp/ns.err"; fail "mapsample exited $rc"; }
report ns
sed -n '/^Processes/,/^$/p' "$tmp/ns.report" | grep -v unshare |
	grep '/cpuburn 200$' >"$tmp/rows" || true
rows=$(wc -l <"$tmp/rows")
[ "$rows" = 2 ] || { show "$tmp/ns.report"; fail "$rows rows for the two cpuburn processes, not 2"; }
# each has samples of its own: 0.2 s of CPU, about 50 at 250 Hz (with
# other work on the machine, POSIX CPU timers, the default until
# 2026-11-27, gave cpuburn 0 to 8: see test/bench/README.md)
awk '$3 < 25 { bad = 1 } END { exit bad }' "$tmp/rows" ||
	{ show "$tmp/ns.report"; fail "a cpuburn process has fewer than 25 samples"; }
echo "ok - two PID namespaces with the same pid 1: two processes"
