#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --json (mapreport(1), JSON SCHEMA): the report is valid JSON
# for Debian's python3 -m json.tool, holds the values json/check-json.py
# expects, and, on the metrics scenario of test/common/mklog with the
# partial report json/scenario.xml, is byte for byte the golden file
# golden/mapreport-json.json (but for the "generator" line, which names
# the version).  Also: --json=FILE beside the text report, a truncated
# log, --folded and --json both on standard output, a real run of
# test/programs/hot, and the python example of mapreport(1) on it.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
mklog=$top_builddir/test/common/mklog
hot=$top_builddir/test/programs/hot
golden=$top_srcdir/test/integration/golden/mapreport-json.json
check=$top_srcdir/test/integration/json/check-json.py
python=/usr/bin/python3

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# valid FILE: json.tool accepts it.
valid() {
	"$python" -m json.tool "$1" >/dev/null || fail "$1: not valid JSON"
}

test_golden() {
	cp "$top_srcdir/test/integration/json/scenario.xml" "$tmp/scenario.xml"
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	set +e
	(cd "$tmp" && "$mapreport" --json --partial-report scenario.xml m.log \
		>m.json 2>m.err)
	rc=$?
	set -e
	[ "$rc" = 0 ] || { cat "$tmp/m.err" >&2; fail "scenario: exit $rc"; }
	valid "$tmp/m.json"
	"$python" "$check" scenario "$tmp/m.json" || fail "scenario values"
	grep -q '^  "generator": "mapreport ' "$tmp/m.json" || fail "generator"
	grep -v '^  "generator": ' "$tmp/m.json" >"$tmp/m.cmp"
	if ! cmp -s "$golden" "$tmp/m.cmp"; then
		diff -u "$golden" "$tmp/m.cmp" >&2 || true
		fail "scenario: differs from $(basename "$golden")"
	fi
	# no text report on standard output: only the JSON
	grep -q '^mapsample report' "$tmp/m.json" && fail "text report mixed in"
	return 0
}

test_file_and_text() {
	"$mklog" -n 20000 -p 2 -t 3 -k 300 "$tmp/s.log" >/dev/null
	"$mapreport" -n 5 --json="$tmp/s.json" "$tmp/s.log" >"$tmp/s.txt" \
		2>/dev/null || fail "synthetic: exit $?"
	grep -q '^mapsample report' "$tmp/s.txt" || fail "--json=FILE: no text report"
	valid "$tmp/s.json"
	"$python" "$check" synthetic "$tmp/s.json" || fail "synthetic values"
	# the same run written twice is the same report
	"$mapreport" -n 5 --json "$tmp/s.log" 2>/dev/null >"$tmp/s2.json" || true
	cmp -s "$tmp/s.json" "$tmp/s2.json" || fail "--json and --json=FILE differ"
}

test_truncated() {
	"$mklog" -n 5000 -c 4096 "$tmp/t.log" >/dev/null
	size=$(wc -c <"$tmp/t.log")
	head -c $((size - 1000)) "$tmp/t.log" >"$tmp/cut.log"
	set +e
	"$mapreport" --json "$tmp/cut.log" >"$tmp/cut.json" 2>"$tmp/cut.err"
	rc=$?
	set -e
	[ "$rc" = 1 ] || fail "truncated log: exit $rc, not 1"
	valid "$tmp/cut.json"
	"$python" "$check" truncated "$tmp/cut.json" || fail "truncated values"
}

test_stdout_conflict() {
	set +e
	"$mapreport" --json --folded "$tmp/m.log" >/dev/null 2>"$tmp/c.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "--json --folded: exit $rc, not 2"
	grep -q 'both write to standard output' "$tmp/c.err" || fail "message"
}

test_real_run() {
	[ -x "$hot" ] || fail "$hot missing: run 'make check' first"
	set +e
	"$mapsample" -q -F 1000 -o "$tmp/hot.log" -- "$hot" 300 </dev/null \
		>/dev/null 2>"$tmp/hot.err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || { cat "$tmp/hot.err" >&2; fail "mapsample hot: exit $rc"; }
	"$mapreport" --json "$tmp/hot.log" >"$tmp/hot.json" 2>"$tmp/hot.rerr" ||
		{ cat "$tmp/hot.rerr" >&2; fail "hot: mapreport exit $?"; }
	valid "$tmp/hot.json"
	"$python" "$check" hot "$tmp/hot.json" || fail "hot values"
}

# The python program of mapreport(1)'s EXAMPLES runs as the page says on
# the report of the real run (whose hottest function is burn_hot).
test_man_example() {
	awk -v q="'" '
		index($0, "$ python3 -c " q) == 1 { p = 1; $0 = substr($0, 15) }
		p && $0 ~ q " run.json$" { sub(q " run.json$", ""); print; exit }
		p { print }' "$top_srcdir/man/mapreport.1" >"$tmp/example.py"
	grep -q 'json.load' "$tmp/example.py" || fail "no python example in mapreport.1"
	(cd "$tmp" && cp hot.json run.json && "$python" example.py run.json) \
		>"$tmp/example.out" || fail "mapreport.1 example: exit $?"
	grep -q '^[0-9]* burn_hot 0\.' "$tmp/example.out" ||
		fail "mapreport.1 example printed: $(cat "$tmp/example.out")"
}

test_golden
test_file_and_text
test_truncated
test_stdout_conflict
test_real_run
test_man_example
echo "mapreport-json: all cases passed"
