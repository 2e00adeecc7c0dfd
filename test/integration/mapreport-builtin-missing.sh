#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A mapreport copied out of its build tree, with mapsample not installed,
# finds no built-in partial reports: it says so in one line naming the
# installed folder ($(pkgdatadir)/reports) and the folder it runs from,
# and the fix (make install, or the build tree's mapreport); the report
# is still written, exit status 0.  No such line when the built-in
# reports are not wanted (--partial-report, a source variable,
# --compare) or are found (the build tree's mapreport).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mklog=$top_builddir/test/common/mklog
: "${pkgdatadir:?pkgdatadir not set: run through make check}"

mkdir -p "$tmp/a/b"
cp "$mapreport" "$tmp/a/b/mapreport"
copy=$tmp/a/b/mapreport
"$mklog" -n 2000 "$tmp/r.log" >/dev/null

# run NAME MAPREPORT ARGS...: standard output in $tmp/NAME.out, the lines
# about the built-in reports in $tmp/NAME.lines; must exit 0.
run() {
	name=$1
	shift
	set +e
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	r=$?
	set -e
	[ "$r" = 0 ] || { show "$tmp/$name.err"; fail "$name: exit $r"; }
	grep "built-in partial reports" "$tmp/$name.err" >"$tmp/$name.lines" || true
}

# quiet NAME: no line about the built-in reports.
quiet() {
	[ ! -s "$tmp/$1.lines" ] || { show "$tmp/$1.err"; fail "$1: a line about the built-in reports"; }
}

if [ -d "$pkgdatadir/reports" ]; then
	echo "not tested here: a mapreport without its built-in reports ($pkgdatadir/reports is installed)"
	run installed "$copy" "$tmp/r.log"
	quiet installed
else
	run copied "$copy" "$tmp/r.log"
	[ "$(wc -l <"$tmp/copied.lines")" = 1 ] || { show "$tmp/copied.err"; fail "copied: not one line about the built-in reports"; }
	grep -qF "mapreport: no built-in partial reports: none installed in $pkgdatadir/reports, nor in a build tree around $tmp/a/b ($tmp/a/b/../../share/mapsample/reports); install mapsample (make install), or run the mapreport of its build tree" \
		"$tmp/copied.lines" || { show "$tmp/copied.err"; fail "copied: the line does not name the folders and the fix"; }
	grep -q "^Top functions by self samples" "$tmp/copied.out" || fail "copied: no report"
fi
run tree "$mapreport" "$tmp/r.log"
quiet tree
run given "$copy" --partial-report "$top_srcdir/test/integration/partial/scenario.xml" "$tmp/r.log"
quiet given
run variable env \
	MAPSAMPLE_PARTIAL_REPORT_SOURCE="$top_srcdir/test/integration/partial/scenario.xml" \
	"$copy" "$tmp/r.log"
quiet variable
cp "$tmp/r.log" "$tmp/r2.log"
run compare "$copy" --compare "$tmp/r.log" "$tmp/r2.log"
quiet compare
echo "mapreport-builtin-missing: OK"
