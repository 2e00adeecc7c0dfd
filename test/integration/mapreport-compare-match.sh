#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare matches functions across builds (mapreport(1),
# COMPARING RUNS): test/programs/cmpcxx.cc, built here with the C++
# compiler, spends its time in Mixer<unsigned long>::churn, a member
# function of a class template, and in fold_bits, inlined into it.
#   - two builds whose code differs (-DCMPCXX_OTHER puts another
#     function first: churn is at another address, which nm checks): churn
#     is one row of each kind with samples on both sides, under its
#     demangled name, and so is fold_bits, under its own name (it has no
#     symbol: nm checks that too);
#   - stripped builds, whose hot code is named module+0xOFFSET: the same
#     binary run twice matches (one row, both sides); two builds of the
#     same code that differ only in their build-id (ld --build-id=0x...)
#     have that same name on both sides but do not match (a row only in
#     BASE and one only in NEW, none with both).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

src=$top_srcdir/test/programs/cmpcxx.cc
cxx=${CXX:-}
[ -n "$cxx" ] || cxx=$(command -v g++ || command -v c++ || true)
[ -n "$cxx" ] || fail "no C++ compiler (g++, build.sh testdeps) for test/programs/cmpcxx.cc"
command -v nm >/dev/null || fail "no nm (binutils, build.sh testdeps)"
command -v readelf >/dev/null || fail "no readelf (binutils, build.sh testdeps)"

# build DIR FLAGS...: cmpcxx.cc into $tmp/DIR/cmpcxx (one base name for
# every build, as two builds of one program have).
build() {
	d=$1
	shift
	mkdir -p "$tmp/$d"
	"$cxx" -O2 "$@" -o "$tmp/$d/cmpcxx" "$src" ||
		fail "$cxx $* cannot build test/programs/cmpcxx.cc"
}

# run NAME DIR: samples $tmp/DIR/cmpcxx into $tmp/NAME.log.
run() {
	sample "$1" -F 1000 -- "$tmp/$2/cmpcxx" 20
	[ "$rc" = 0 ] || { show "$tmp/$1.err"; fail "$2/cmpcxx: mapsample exited $rc"; }
}

# compare NAME BASE NEW: the comparison's JSON in $tmp/NAME.json.
compare() {
	"$mapreport" --compare --json="$tmp/$1.json" "$tmp/$2.log" "$tmp/$3.log" \
		>/dev/null 2>"$tmp/$1.err" || {
		show "$tmp/$1.err"
		fail "$1: mapreport --compare exited $?"
	}
}

# rows NAME KIND PREFIX: the rows of kind KIND whose name starts with
# PREFIX, one a line: "NAME BASE-PRESENT NEW-PRESENT" (1 or 0).
rows() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
for r in c["rows"]:
	if r["kind"] == sys.argv[2] and r["name"].startswith(sys.argv[3]):
		print(r["name"].replace(" ", "_"), int(r["base"]["present"]), int(r["new"]["present"]))' \
		"$tmp/$1.json" "$2" "$3"
}

# matched NAME KIND PREFIX: exactly one such row, with samples on both
# sides.
matched() {
	rows "$@" >"$tmp/rows"
	[ "$(wc -l <"$tmp/rows")" = 1 ] && awk '{ exit !($2 == 1 && $3 == 1) }' "$tmp/rows" || {
		show "$tmp/rows"
		fail "$1: $2 rows of '$3' are not one row with both sides"
	}
}

# addr DIR SYMBOL: the address of the function nm -C names SYMBOL.
addr() {
	nm -C "$tmp/$1/cmpcxx" | awk -v s="$2" 'index($0, " " s) { print $1; exit }'
}

# buildid DIR: the build-id of $tmp/DIR/cmpcxx.
buildid() {
	readelf -n "$tmp/$1/cmpcxx" | awk '/Build ID:/ { print $3; exit }'
}

test_names() {
	build one -g
	build two -g -DCMPCXX_OTHER
	a1=$(addr one 'Mixer<unsigned long>::churn(unsigned long)')
	a2=$(addr two 'Mixer<unsigned long>::churn(unsigned long)')
	[ -n "$a1" ] && [ -n "$a2" ] || fail "nm finds no Mixer<unsigned long>::churn in the builds"
	[ "$a1" != "$a2" ] || fail "churn is at $a1 in both builds: the test needs two addresses"
	if nm "$tmp/one/cmpcxx" | grep -q fold_bits; then
		fail "fold_bits has a symbol: it was not inlined"
	fi
	run one one
	run two two
	compare names one two
	for k in self total; do
		matched names $k 'Mixer<unsigned long>::churn('
		matched names $k fold_bits
	done
}

test_stripped() {
	build s1 -s -Wl,--build-id=0x1111111111111111111111111111111111111111
	build s2 -s -Wl,--build-id=0x2222222222222222222222222222222222222222
	[ "$(buildid s1)" != "$(buildid s2)" ] || fail "the stripped builds have one build-id"
	if nm "$tmp/s1/cmpcxx" 2>/dev/null | grep -q churn; then
		fail "s1/cmpcxx still has symbols"
	fi
	run s1a s1
	run s1b s1
	run s2 s2
	# the same binary twice: its nameless hot code is one row
	compare same s1a s1b
	rows same self cmpcxx+0x >"$tmp/same.rows"
	[ -s "$tmp/same.rows" ] || fail "no nameless cmpcxx+0x... row: the stripped code was named"
	hot=$(awk 'NR == 1 { print $1 }' "$tmp/same.rows")
	matched same self "$hot"
	matched same total "$hot"
	# the same name and offset under two build-ids: no match
	compare other s1a s2
	rows other self "$hot" >"$tmp/other.rows"
	awk '$2 == 1 && $3 == 1 { bad = 1 } $2 == 1 { b++ } $3 == 1 { n++ }
		END { exit bad || b != 1 || n != 1 }' "$tmp/other.rows" || {
		show "$tmp/other.rows"
		fail "$hot of two build-ids: not one row only in BASE and one only in NEW"
	}
}

test_names
test_stripped
echo "mapreport-compare-match: all cases passed"
