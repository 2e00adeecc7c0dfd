#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-fuzz.sh: fuzzes a parser of untrusted input for CI.  Runs BUILD_DIR's
# libFuzzer binary test/fuzz/fuzz_TARGET (TARGET: maplog, the default, the
# log parser; metricdef, metric definition XML; partial, partial report
# XML; rules, mapreport --compare's rules; perfmap, a JIT's perf map;
# configure CC=clang
# --enable-fuzzing; make test/fuzz/fuzz_TARGET)
# for RUNS inputs over a copy of the seed corpus in a temporary directory,
# so nothing is ever written into the source tree, and prints one summary
# line.  Exits with libFuzzer's status: non-zero on a crash, a sanitizer
# report, a leak, a timeout or running out of memory.  Inputs that failed
# are copied to $FUZZ_ARTIFACTS (default BUILD_DIR/fuzz-artifacts); to
# keep one as a regression test, save it as
# test/fuzz/corpus/TARGET/crash-<what> and list it in test/fuzz/local.mk.
#
#   run-fuzz.sh BUILD_DIR RUNS [TARGET]
#
# Environment: FUZZ_ARTIFACTS (see above), FUZZ_JOBS (parallel libFuzzer
# jobs, default 2, at most one per core), FUZZ_EXTRA (more libFuzzer
# options, e.g. -seed=1 or -max_total_time=600).
set -eu

usage() {
	echo "usage: run-fuzz.sh BUILD_DIR RUNS [maplog|metricdef|partial|rules|perfmap]" >&2
	exit 2
}

[ $# -eq 2 ] || [ $# -eq 3 ] || usage
runs=$2
target=${3:-maplog}
case $target in maplog | metricdef | partial | rules | perfmap) ;; *) usage ;; esac
case $runs in '' | *[!0-9]*) usage ;; esac
if ! build=$(cd "$1" 2>/dev/null && pwd); then
	echo "run-fuzz.sh: $1: no such build directory" >&2
	exit 2
fi

srcdir=$(cd "$(dirname "$0")" && pwd)
corpus=$srcdir/corpus/$target
fuzzer=$build/test/fuzz/fuzz_$target
artifacts=${FUZZ_ARTIFACTS:-$build/fuzz-artifacts}

if [ ! -x "$fuzzer" ]; then
	echo "run-fuzz.sh: $fuzzer: not built; configure CC=clang" \
		"--enable-fuzzing, then make test/fuzz/fuzz_$target" >&2
	exit 2
fi
if [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
	echo "run-fuzz.sh: $corpus: seed corpus missing or empty" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-fuzz.XXXXXX")
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/corpus" "$tmp/artifacts"
cp "$corpus"/* "$tmp/corpus/"
seeds=$(find "$tmp/corpus" -type f | wc -l)

# one libFuzzer job per core (at most FUZZ_JOBS, default 2), sharing the
# corpus directory; the runs are split between them
jobs=${FUZZ_JOBS:-2}
cores=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -le "$cores" ] || jobs=$cores
[ "$jobs" -ge 1 ] || jobs=1
per_job=$(((runs + jobs - 1) / jobs))

start=$(date +%s)
status=0
cd "$tmp"
# No input of 64 KiB may make the parser ask for 128 MiB at once.  The
# target's custom mutator turns libFuzzer's growing length limit off by
# default; -len_control=100 (the usual default) keeps inputs small first.
set -- -runs="$per_job" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
	-malloc_limit_mb=128 -len_control=100 -print_final_stats=1 \
	-artifact_prefix="$tmp/artifacts/"
if [ "$jobs" -gt 1 ]; then
	set -- "$@" -jobs="$jobs" -workers="$jobs"
fi
# shellcheck disable=SC2086 # FUZZ_EXTRA is a list of options
"$fuzzer" "$@" ${FUZZ_EXTRA:-} "$tmp/corpus" >"$tmp/fuzz-main.log" 2>&1 ||
	status=$?
secs=$(($(date +%s) - start))
[ "$secs" -gt 0 ] || secs=1

# with -jobs each job logs to fuzz-<n>.log; otherwise all is in fuzz-main.log
logs=$(ls "$tmp"/fuzz-[0-9]*.log 2>/dev/null || echo "$tmp/fuzz-main.log")
execs=0
cov=0
ft=0
rss=0
for log in $logs; do
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	execs=$((execs + ${n:-0}))
	r=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
	[ "${r:-0}" -le "$rss" ] || rss=$r
	# the last status line: "#1000000 DONE cov: 812 ft: 3100 corp: ..."
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	c=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	f=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	[ "${c:-0}" -le "$cov" ] || cov=$c
	[ "${f:-0}" -le "$ft" ] || ft=$f
done
corp=$(find "$tmp/corpus" -type f | wc -l)

if [ "$status" -eq 0 ]; then
	verdict=OK
else
	verdict="FAILED (libFuzzer exit $status)"
fi
echo "fuzz_$target: $execs execs in $secs s ($((execs / secs)) exec/s," \
	"$jobs jobs), cov $cov ft $ft, corpus $seeds -> $corp," \
	"peak RSS $rss MB: $verdict"

if [ "$status" -ne 0 ]; then
	if [ -n "$(ls -A "$tmp/artifacts")" ]; then
		mkdir -p "$artifacts"
		cp "$tmp/artifacts"/* "$artifacts/"
	fi
	# the sanitizer or libFuzzer reports, and the inputs that caused them
	for log in "$tmp/fuzz-main.log" $logs; do
		if grep -q -E 'ERROR|SUMMARY|deadly signal|check failed' \
			"$log"; then
			echo "--- $(basename "$log")" >&2
			grep -v -E '^#[0-9]+' "$log" | tail -n 60 >&2
		fi
	done
	if [ -n "$(ls -A "$tmp/artifacts")" ]; then
		echo "run-fuzz.sh: failing inputs saved in $artifacts:" >&2
		ls -l "$artifacts" >&2
	fi
fi
exit "$status"
