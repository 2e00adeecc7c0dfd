#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The module map of README.md ("Layout") holds on the sources:
# layers.py finds no call up into a higher module, no two files that call
# each other and no file over 1000 lines without a reason in its opening
# comment.  Also, so that the check itself cannot rot: on a small made-up
# tree with one call up, two files calling each other and one long file,
# layers.py fails and names all three.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
python=/usr/bin/python3
layers=$top_srcdir/test/integration/layers.py

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

case_tree() {
	"$python" "$layers" "$top_srcdir" >"$tmp/out" 2>&1 || {
		cat "$tmp/out"
		fail "layers.py found problems in the tree"
	}
	cat "$tmp/out"
	grep -q ': OK$' "$tmp/out" || fail "no OK line"
}

case_made_up() {
	t=$tmp/tree
	mkdir -p "$t/lib/log" "$t/lib/model" "$t/lib/common"
	# lib/log calls up into lib/model
	cat >"$t/lib/log/low.c" <<'C'
int model_thing(void);
int log_thing(void) { return model_thing(); }
C
	cat >"$t/lib/model/high.c" <<'C'
int model_thing(void) { return 1; }
C
	# two files of lib/common call each other
	cat >"$t/lib/common/a.c" <<'C'
int b_fn(void);
int a_fn(void) { return b_fn(); }
C
	cat >"$t/lib/common/b.c" <<'C'
int a_fn(void);
int b_fn(void) { return a_fn(); }
C
	# a long file with no reason given
	{
		echo '/* long.c: no reason given */'
		i=0
		while [ $i -lt 1001 ]; do
			echo "static int v$i;"
			i=$((i + 1))
		done
	} >"$t/lib/common/long.c"
	if "$python" "$layers" "$t" >"$tmp/bad" 2>&1; then
		cat "$tmp/bad"
		fail "layers.py passed a tree with problems"
	fi
	grep -q 'lib/log/low.c uses model_thing of lib/model/high.c' "$tmp/bad" ||
		fail "call up not named: $(cat "$tmp/bad")"
	grep -q 'lib/common/a.c and lib/common/b.c call each other' "$tmp/bad" ||
		fail "mutual calls not named: $(cat "$tmp/bad")"
	grep -q 'lib/common/long.c: 1002 lines' "$tmp/bad" ||
		fail "long file not named: $(cat "$tmp/bad")"
}

case_tree
case_made_up
echo "PASS"
