#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Every man page (man/*.[1-9]) renders without a warning: mandoc -T lint
# -W warning (Debian's mandoc package, in build.sh's testdeps), or, where
# mandoc is missing, groff through man --warnings.  And no rendered line
# ends in two double quotes: the mark of quote macros (Qq, Dq) that were
# meant to enclose one word but, having a whole line as their scope,
# nest and close together at its end (mapreport(1) DIAGNOSTICS rendered
# '"value starts with the reserved prefix "prefix ... """').
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

if command -v mandoc >/dev/null 2>&1; then
	lint() { mandoc -T lint -W warning "$1" 2>&1; }
	render() { mandoc -T ascii "$1" | col -b; }
elif command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
	lint() { LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$1" 2>&1 >/dev/null; }
	render() { LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$1" 2>/dev/null | col -b; }
else
	echo "SKIP: neither mandoc nor man with groff is installed" >&2
	exit 77
fi

bad=0
pages=0
for page in "$top_srcdir"/man/*.[1-9]; do
	pages=$((pages + 1))
	name=$(basename "$page")
	lint "$page" >"$tmp/lint" || true
	if [ -s "$tmp/lint" ]; then
		echo "FAIL: $name: warnings:" >&2
		cat "$tmp/lint" >&2
		bad=1
	fi
	render "$page" >"$tmp/text"
	[ -s "$tmp/text" ] || { echo "FAIL: $name: renders nothing" >&2; bad=1; }
	if grep -n '""$' "$tmp/text" >"$tmp/quotes"; then
		echo "FAIL: $name: quotes closing together at the end of a line (a Qq/Dq meant for one word); use Qo ... Qc:" >&2
		cat "$tmp/quotes" >&2
		bad=1
	fi
done
[ "$pages" -gt 0 ] || { echo "FAIL: no man pages in $top_srcdir/man" >&2; exit 1; }
echo "$pages pages rendered"
exit $bad
