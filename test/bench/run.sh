#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs the benchmarks (bench_parse, then bench_size) from a build tree and
# ends with their machine-readable summary lines, so a run can be pasted
# into a commit message or compared with an earlier one.  Options come from
# BENCH_PARSE_ARGS and BENCH_SIZE_ARGS; `make bench` sets both.
#
#   test/bench/run.sh [BUILDDIR]
#   BENCH_PARSE_ARGS='-n 2000000 -r 3' test/bench/run.sh
set -eu

builddir=${1:-.}
parse=$builddir/test/bench/bench_parse
size=$builddir/test/bench/bench_size
for p in "$parse" "$size"; do
	if [ ! -x "$p" ]; then
		echo "run.sh: $p: not built; run make in $builddir first" >&2
		exit 2
	fi
done

out=$(mktemp "${TMPDIR:-/tmp}/mapsample-bench-out.XXXXXX")
status=$out.status
# shellcheck disable=SC2317 # called by the trap
cleanup() { rm -f "$out" "$status"; }
trap cleanup EXIT

# run NAME ARGS: runs a benchmark, shows its output as it comes and keeps
# it in $out; returns the benchmark's exit status, not tee's.
run() {
	prog=$1
	shift
	{ "$prog" "$@"; echo $? >"$status"; } | tee -a "$out"
	return "$(cat "$status")"
}

echo "== $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uname -srm), $(nproc) CPUs"
rc=0
# shellcheck disable=SC2086 # word splitting of the option lists is wanted
run "$parse" ${BENCH_PARSE_ARGS:-} || rc=1
echo
# shellcheck disable=SC2086
run "$size" ${BENCH_SIZE_ARGS:-} || rc=1
echo
echo "== summary"
grep -E '^bench_(parse|size): [A-Za-z_/]+=' "$out" || true
exit $rc
