#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# installcheck-marks: <mapsample/mark.h> as a user gets it (run by
# `make installcheck`, and so by `make distcheck`): test/programs/marks.c
# builds with the flags of the installed mapsample-mark.pc, as
# mapsample_mark(3) says, runs without mapsample, and under the installed
# mapsample records its regions, which the installed mapreport lists.
#
# Usage: installcheck-marks.sh BINDIR PKGCONFIGDIR SRCDIR
set -eu

bindir=$1
pcdir=$2
srcdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
LC_ALL=C
export LC_ALL

fail() {
	echo "FAIL: installcheck-marks: $*" >&2
	exit 1
}

command -v pkg-config >/dev/null 2>&1 || { echo "installcheck-marks: SKIP: no pkg-config"; exit 0; }
cc=${CC:-cc}
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs mapsample-mark) ||
	fail "pkg-config does not find the installed mapsample-mark.pc in $pcdir"
libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir mapsample-mark)
# shellcheck disable=SC2086
$cc -O1 -pthread -o "$tmp/marks" "$srcdir/test/programs/marks.c" $flags \
	-Wl,-rpath,"$libdir" 2>"$tmp/cc.err" ||
	{ cat "$tmp/cc.err" >&2; fail "marks.c does not build with the installed mapsample-mark"; }
[ "$("$tmp/marks" 20)" = "marks: done" ] || fail "marks does not run without mapsample"
"$bindir/mapsample" -q -o "$tmp/run.log" -- "$tmp/marks" 20 >/dev/null \
	2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; fail "the installed mapsample failed"; }
"$bindir/mapreport" "$tmp/run.log" >"$tmp/report" 2>"$tmp/rep.err" ||
	{ cat "$tmp/rep.err" >&2; fail "the installed mapreport failed"; }
for r in phase1 phase2; do
	awk -v r="$r" '$0 == "Regions" { s = 1; next } s && NF == 0 { s = 0 }
		s && $1 == r && $2 == 1 { found = 1 } END { exit !found }' \
		"$tmp/report" || { cat "$tmp/report" >&2; fail "region $r not listed"; }
done
echo "installcheck-marks: ok: marks.c built with the installed mapsample-mark.pc and its regions recorded"
