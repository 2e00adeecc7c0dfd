#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-nosamples.sh: a report that cannot show functions says why.
# A run shorter than one sample period (test/programs/inlinehot, a few
# milliseconds of CPU time, sampled at 1 Hz) has no samples: the text
# report must say that no thread ran for one sample period and what to
# do (a higher rate with mapsample -F, or a longer run).  A folder with
# no log in it, given as a job's folder, gets one line naming it, exit
# status 2, and no report.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

case_short_run() {
	need_programs inlinehot
	sample short -F 1 -- "$programs/inlinehot" 1
	[ "$rc" = 0 ] || { show "$tmp/short.err"; fail "mapsample exited $rc"; }
	report short
	[ "$(samples short)" = 0 ] || { show "$tmp/short.report"; fail "expected no samples at 1 Hz"; }
	grep -q '^No samples: no thread ran for one sample period (1 s of CPU time at 1 Hz' "$tmp/short.report" || {
		show "$tmp/short.report"
		fail "a run with no samples does not say that it was shorter than one sample period"
	}
	grep -Eq 'mapsample -F [0-9]+\) or profile a longer run\.$|profile a longer run\.$' "$tmp/short.report" || {
		show "$tmp/short.report"
		fail "a run with no samples does not say what to do"
	}
}

case_directory() {
	mkdir "$tmp/dir"
	set +e
	"$mapreport" "$tmp/dir" >"$tmp/dir.out" 2>"$tmp/dir.err"
	r=$?
	set -e
	[ "$r" = 2 ] || { show "$tmp/dir.err"; fail "mapreport on a folder exited $r, expected 2"; }
	[ ! -s "$tmp/dir.out" ] || { show "$tmp/dir.out"; fail "mapreport on a folder wrote a report"; }
	[ "$(wc -l <"$tmp/dir.err")" = 1 ] &&
		grep -qF "mapreport: $tmp/dir: a folder with no mapsample log (*.maplog) in it" "$tmp/dir.err" || {
		show "$tmp/dir.err"
		fail "mapreport on a folder does not say so in one line"
	}
}

case_short_run
case_directory
echo "mapreport-nosamples: all cases passed"
