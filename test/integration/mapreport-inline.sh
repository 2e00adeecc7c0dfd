#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-inline.sh: code inlined into a function keeps its callers.
# test/programs/inlinehot (built -O2 -g) spends its time in inline_inner,
# inlined into inline_outer, itself inlined into main: every sample's
# address is in main's machine code.  The report must show the whole
# chain of inlined calls, as addr2line -i does, and the function that
# holds it: main's total near 100% in the text report and the JSON, the
# folded stacks (and so the flame graph, built from the same call tree)
# holding main;inline_outer;inline_inner in that order.  Before, only
# the innermost inline was kept (main's total was 0%).  Then the same for
# C++: test/programs/inlinesort.cc, built here with the C++ compiler
# found (skipped without one), sorts with std::sort, which g++ -O2
# inlines into main in part; main must hold ~100% and std::sort be its
# callee in the folded stacks (it collapsed to std::__sort).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# json_total NAME PREFIX: the total share in % of the first function of
# $tmp/NAME.json's top_total whose name starts with PREFIX, or -1.
json_total() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["top_total"]:
	if f["name"].startswith(sys.argv[2]):
		print(round(100 * f["total_share"], 2))
		break
else:
	print(-1)' "$tmp/$1.json" "$2"
}

case_c() {
	need_programs inlinehot
	sample ic -F 1000 -- "$programs/inlinehot" 300
	[ "$rc" = 0 ] || { show "$tmp/ic.err"; fail "mapsample exited $rc"; }
	report ic
	pct=$(func_total_pct ic main)
	check "$pct >= 90" || { show "$tmp/ic.report"; fail "main's total is $pct%, expected >= 90% (all its time is in code inlined into it)"; }
	pct=$(func_total_pct ic inline_outer)
	check "$pct >= 90" || { show "$tmp/ic.report"; fail "inline_outer's total is $pct%, expected >= 90%"; }
	cp "$tmp/ic.report" "$tmp/ic.text"
	report ic --folded
	n=$(grep -c ';main;inline_outer;inline_inner ' "$tmp/ic.report" || true)
	[ "$n" -ge 1 ] || { show "$tmp/ic.report"; fail "no folded stack holds main;inline_outer;inline_inner"; }
	# every stack that reaches inline_inner goes through its callers
	if grep ';inline_inner' "$tmp/ic.report" | grep -v ';main;inline_outer;inline_inner' >"$tmp/bad"; then
		show "$tmp/bad"
		fail "folded stacks with inline_inner but not under main;inline_outer"
	fi
	report ic --json
	mv "$tmp/ic.report" "$tmp/ic.json"
	pct=$(json_total ic main)
	check "$pct >= 90" || fail "main's total_share in the JSON is $pct%, expected >= 90%"
	# the flame graph: its nodes (name, value, depth, depth first)
	# under main;inline_outer;inline_inner hold >= 90% of the samples
	"$mapreport" --html "$tmp/ic.html" "$tmp/ic.log" >/dev/null 2>"$tmp/ic.herr" ||
		{ show "$tmp/ic.herr"; fail "mapreport --html exited $?"; }
	pct=$(python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"fg-data\">(.*?)</script>", page, re.S)
d = json.loads(m.group(1))
names, nodes, path, held = d["names"], d["nodes"], [], 0
for i in range(0, len(nodes), 3):
	name, value, depth = names[nodes[i]], nodes[i + 1], nodes[i + 2]
	path[depth:] = [name]
	if path[-3:] == ["main", "inline_outer", "inline_inner"]:
		held += value
print(round(100 * held / d["total"], 2))' "$tmp/ic.html")
	check "$pct >= 90" || fail "the flame graph has $pct% of the samples under main;inline_outer;inline_inner, expected >= 90%"
}

case_cxx() {
	cxx=${CXX:-}
	[ -n "$cxx" ] || cxx=$(command -v g++ || command -v c++ || true)
	[ -n "$cxx" ] || { echo "inline C++ case skipped: no C++ compiler (g++)" >&2; return 0; }
	"$cxx" -O2 -g -o "$tmp/inlinesort" "$top_srcdir/test/programs/inlinesort.cc" ||
		fail "$cxx cannot build test/programs/inlinesort.cc"
	sample is -F 1000 -- "$tmp/inlinesort" 15
	[ "$rc" = 0 ] || { show "$tmp/is.err"; fail "mapsample exited $rc"; }
	report is --json
	mv "$tmp/is.report" "$tmp/is.json"
	pct=$(json_total is main)
	check "$pct >= 90" || fail "C++: main's total_share is $pct%, expected >= 90% (std::sort is inlined into it)"
	pct=$(json_total is "void std::sort<")
	check "$pct >= 80" || fail "C++: std::sort's total_share is $pct%, expected >= 80%"
	report is --folded
	grep -q ';main;void std::sort<[^;]*;void std::__sort<' "$tmp/is.report" || {
		head -5 "$tmp/is.report" >&2
		fail "C++: no folded stack holds main;std::sort;std::__sort"
	}
}

case_c
case_cxx
echo "mapreport-inline: all cases passed"
