#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --jobs: the logs of a job decoded on several threads
# (lib/model/logpool.c) give the report of the logs read one by one,
# byte for byte: text, --json, --folded, the HTML report (its script
# nonce aside), -D, with a damaged log, a truncated one, a file that is
# no log and a missing one among them (their lines on standard error
# the same too, and the exit status).  Logs from test/bench/bench_ranks
# (the project's encoder), nine ranks of 3000 samples each.  Bad values
# of --jobs are refused with exit 2.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

bench_ranks=$top_builddir/test/bench/bench_ranks
[ -x "$bench_ranks" ] || fail "$bench_ranks not built"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

job=$tmp/job
"$bench_ranks" -r 9 -n 3000 "$job" || fail "bench_ranks failed"
# damage in the middle of rank 2, rank 5 cut short, rank 7 no log
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' |
	dd of="$job/rank-00002.maplog" bs=1 seek=30000 conv=notrunc 2>/dev/null
size=$(wc -c <"$job/rank-00005.maplog")
head -c $((size / 2)) "$job/rank-00005.maplog" >"$tmp/cut" &&
	mv "$tmp/cut" "$job/rank-00005.maplog"
echo "not a log" >"$job/rank-00007.maplog"
logs="$job/rank-00000.maplog $job/rank-00001.maplog $job/rank-00002.maplog
$job/rank-00003.maplog $job/rank-00004.maplog $job/rank-00005.maplog
$job/rank-00006.maplog $job/missing.maplog $job/rank-00007.maplog
$job/rank-00008.maplog"

# run NAME JOBS ARGS...: mapreport --jobs JOBS ARGS... on the logs into
# $tmp/NAME.JOBS.{out,err}, the exit status at the end of .err
run() {
	name=$1
	j=$2
	shift 2
	# shellcheck disable=SC2086
	"$mapreport" --no-progress --jobs "$j" --merge "$@" $logs \
		>"$tmp/$name.$j.out" 2>"$tmp/$name.$j.err" && rc=0 || rc=$?
	echo "exit $rc" >>"$tmp/$name.$j.err"
	for f in "$tmp/$name.$j.out" "$tmp/$name.$j.html"; do
		[ -f "$f" ] && sed -E 's/nonce[-=]"?[0-9a-f]+/NONCE/g' "$f" >"$f.n" &&
			mv "$f.n" "$f"
	done
	return 0
}

# same NAME ARGS...: --jobs 2, 3 and 8 give what --jobs 1 gives
same() {
	name=$1
	shift
	for j in 1 2 3 8; do
		case "$*" in
		*--html*) run "$name" "$j" --html "$tmp/$name.$j.html" ;;
		*) run "$name" "$j" "$@" ;;
		esac
	done
	grep -q "exit 1" "$tmp/$name.1.err" ||
		fail "$name: exit status $(tail -1 "$tmp/$name.1.err"), not 1 (damaged logs)"
	[ -s "$tmp/$name.1.out" ] || [ -s "$tmp/$name.1.html" ] ||
		fail "$name: no output"
	for j in 2 3 8; do
		cmp -s "$tmp/$name.1.out" "$tmp/$name.$j.out" ||
			fail "$name: --jobs $j's output differs from --jobs 1's"
		cmp -s "$tmp/$name.1.err" "$tmp/$name.$j.err" || {
			diff "$tmp/$name.1.err" "$tmp/$name.$j.err" | head -5
			fail "$name: --jobs $j's standard error differs"
		}
		if [ -f "$tmp/$name.1.html" ]; then
			cmp -s "$tmp/$name.1.html" "$tmp/$name.$j.html" ||
				fail "$name: --jobs $j's HTML differs from --jobs 1's"
		fi
	done
}

case_same_reports() {
	same text
	grep -q 'rank-00002.maplog: damaged' "$tmp/text.1.err" ||
		fail "the damaged log is not named: $(cat "$tmp/text.1.err")"
	grep -q 'rank-00005.maplog: truncated' "$tmp/text.1.err" ||
		fail "the truncated log is not named"
	grep -q 'missing.maplog: cannot open' "$tmp/text.1.err" ||
		fail "the missing log is not named"
	same json --json
	same folded --folded
	same html --html
	same dump -D
}

case_bad_values() {
	for v in 0 66 x ""; do
		"$mapreport" --jobs "$v" "$job/rank-00000.maplog" >/dev/null \
			2>"$tmp/bad" && rc=0 || rc=$?
		[ "$rc" = 2 ] || fail "--jobs '$v': exit $rc, not 2"
		grep -q -- "--jobs" "$tmp/bad" || fail "--jobs '$v': $(cat "$tmp/bad")"
	done
	"$mapreport" --no-progress --jobs auto "$job/rank-00000.maplog" >/dev/null \
		2>&1 || fail "--jobs auto refused"
}

case_same_reports
case_bad_values
echo "PASS"
