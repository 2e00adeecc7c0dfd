#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport on logs written by the log library (test/common/mklog): the
# report's numbers, merging logs, --dump, and every way a log can be bad
# (truncated, damaged, not a log, empty, missing) with its exit status and
# its one-line message.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mklog=$top_builddir/test/common/mklog

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# run_report ARGS...: mapreport's stdout in $tmp/out, stderr in $tmp/err,
# exit status in $rc.
run_report() {
	set +e
	"$mapreport" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

expect_line() {
	grep -q -- "$1" "$2" || {
		echo "--- $2:" >&2
		cat "$2" >&2
		fail "no line matching '$1' in $(basename "$2")"
	}
}

test_summary() {
	"$mklog" -n 12000 -t 3 -s 7 "$tmp/a.log" >/dev/null
	run_report "$tmp/a.log"
	[ "$rc" = 0 ] || fail "clean log: exit $rc"
	# the synthetic log's binaries do not exist: one note per file, no
	# complaint about the log itself
	n=$(grep -c "cannot be read now; its addresses are shown as file+offset" "$tmp/err" || true)
	[ "$n" = 4 ] || fail "clean log: expected 4 missing-binary notes, got $n"
	[ "$(wc -l <"$tmp/err")" = 4 ] || fail "clean log: unexpected stderr"
	expect_line "Top functions by self samples" "$tmp/out"
	expect_line "Top functions by total samples" "$tmp/out"
	expect_line "Samples: *12000 " "$tmp/out"
	expect_line "Processes: *1 *Threads: 3" "$tmp/out"
	expect_line "Command: *synthapp --size large 'input file.dat'" "$tmp/out"
	expect_line "asked 1000 Hz per thread" "$tmp/out"
	# three threads of 4000 samples each
	n=$(grep -c " 4000  33.33% " "$tmp/out" || true)
	[ "$n" = 3 ] || fail "expected 3 threads with 4000 samples, got $n"
	expect_line "libsolver.so+0x" "$tmp/out"
}

test_merge() {
	"$mklog" -n 5000 -t 2 -s 1 "$tmp/r0.log" >/dev/null
	"$mklog" -n 7000 -p 2 -t 2 -s 2 "$tmp/r1.log" >/dev/null
	run_report "$tmp/r0.log" "$tmp/r1.log"
	[ "$rc" = 0 ] || fail "merge: exit $rc"
	expect_line "Samples: *12000 " "$tmp/out"
}

test_folded() {
	"$mklog" -n 3000 -t 2 -s 3 "$tmp/f.log" >/dev/null
	run_report --folded "$tmp/f.log"
	[ "$rc" = 0 ] || fail "folded: exit $rc"
	# every line: frames separated by ';' then a space and a count; the
	# counts add up to the samples; the root frame is the program
	bad=$(grep -c -v '^synthapp;[^ ].* [0-9][0-9]*$' "$tmp/out" || true)
	[ "$bad" = 0 ] || fail "folded: $bad malformed lines"
	sum=$(awk '{s += $NF} END {print s}' "$tmp/out")
	[ "$sum" = 3000 ] || fail "folded: counts add up to $sum, not 3000"
	run_report --folded="$tmp/out.folded" "$tmp/f.log"
	[ "$rc" = 0 ] || fail "folded=FILE: exit $rc"
	expect_line "Samples: *3000 " "$tmp/out"
	sum=$(awk '{s += $NF} END {print s}' "$tmp/out.folded")
	[ "$sum" = 3000 ] || fail "folded=FILE: counts add up to $sum"
}

test_dump() {
	"$mklog" -n 300 -t 2 "$tmp/d.log" >/dev/null
	run_report --dump "$tmp/d.log"
	[ "$rc" = 0 ] || fail "dump: exit $rc"
	n=$(grep -c " sample " "$tmp/out")
	[ "$n" = 300 ] || fail "dump: $n sample lines, expected 300"
	expect_line " initialize .*argv 'synthapp'" "$tmp/out"
	expect_line " map-in .*libc.so.6" "$tmp/out"
}

test_truncated() {
	"$mklog" -n 20000 -t 2 -c 65536 "$tmp/t.log" >/dev/null
	size=$(wc -c <"$tmp/t.log")
	head -c $((size * 2 / 3 + 5)) "$tmp/t.log" >"$tmp/cut.log"
	run_report "$tmp/cut.log"
	[ "$rc" = 1 ] || fail "truncated: exit $rc, expected 1"
	expect_line "^mapreport: .*cut.log: truncated at byte [0-9]* (.* bytes of the last chunk lost); the report covers the [0-9]* records before it" "$tmp/err"
	[ "$(grep -c -v 'cannot be read now' "$tmp/err")" = 1 ] ||
		fail "truncated: more than one line about the log"
	# the part before the cut is still reported
	s=$(sed -n 's/^ *Samples: *\([0-9]*\) .*/\1/p' "$tmp/out")
	[ "$s" -gt 10000 ] && [ "$s" -lt 20000 ] ||
		fail "truncated: $s samples reported"
}

test_damaged() {
	"$mklog" -n 20000 -t 2 -c 65536 "$tmp/g.log" >/dev/null
	# overwrite 8 bytes in the middle of the file
	size=$(wc -c <"$tmp/g.log")
	printf 'XXXXXXXX' | dd of="$tmp/g.log" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
	run_report "$tmp/g.log"
	[ "$rc" = 1 ] || fail "damaged: exit $rc, expected 1"
	expect_line "^mapreport: .*g.log: damaged data at byte [0-9]* (checksum mismatch), [0-9]* bytes skipped; reading went on after it" "$tmp/err"
	s=$(sed -n 's/^ *Samples: *\([0-9]*\) .*/\1/p' "$tmp/out")
	[ "$s" -gt 15000 ] && [ "$s" -lt 20000 ] ||
		fail "damaged: $s samples reported, expected most of 20000"
}

test_not_a_log() {
	printf 'hello world, this is not a log file at all......\n' >"$tmp/n.log"
	run_report "$tmp/n.log"
	[ "$rc" = 1 ] || fail "not a log: exit $rc"
	expect_line "n.log: not a mapsample log (no MAPSLOG magic at byte 0)" "$tmp/err"
	: >"$tmp/e.log"
	run_report "$tmp/e.log"
	[ "$rc" = 1 ] || fail "empty: exit $rc"
	expect_line "e.log: empty log: no records" "$tmp/err"
	run_report "$tmp/missing.log"
	[ "$rc" = 1 ] || fail "missing: exit $rc"
	expect_line "missing.log: cannot open: No such file or directory" "$tmp/err"
}

test_usage() {
	run_report
	[ "$rc" = 2 ] || fail "no args: exit $rc"
	expect_line "no log given" "$tmp/err"
	run_report --bogus x.log
	[ "$rc" = 2 ] || fail "unknown option: exit $rc"
	run_report --top x "$tmp/a.log"
	[ "$rc" = 2 ] || fail "--top x: exit $rc"
	run_report --version
	[ "$rc" = 0 ] || fail "--version: exit $rc"
	expect_line "^mapreport [0-9]" "$tmp/out"
}

# A report that cannot be written to standard output (a full disk, here
# /dev/full) is a failure: exit 1 and a line, not exit 0.
test_full_stdout() {
	[ -w /dev/full ] || { echo "skip - no /dev/full"; return 0; }
	"$mklog" -n 2000 -t 1 -s 4 "$tmp/full.log" >/dev/null
	for opt in "" --json --folded; do
		set +e
		"$mapreport" $opt "$tmp/full.log" >/dev/full 2>"$tmp/full.err"
		rc=$?
		set -e
		[ "$rc" = 1 ] || fail "mapreport $opt > /dev/full: exit $rc, not 1"
		grep -q "stdout: write failed" "$tmp/full.err" ||
			{ cat "$tmp/full.err" >&2; fail "mapreport $opt > /dev/full: no 'write failed' line"; }
	done
}

test_summary
test_full_stdout
test_merge
test_folded
test_dump
test_truncated
test_damaged
test_not_a_log
test_usage
echo "mapreport-basic: all cases passed"
