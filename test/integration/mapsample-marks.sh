#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Marks and regions a program sets itself (<mapsample/mark.h>,
# mapsample_mark(3)).  test/programs/marks runs region "phase1"
# (phase_one_burn), a point mark, then region "phase2" (phase_two_burn)
# while a second thread, in no region, runs other_burn; marks_weak is the
# same program built with MAPSAMPLE_MARK_WEAK and no library.
# - Without mapsample both run unchanged: exit 0, the same output.
# - Under mapsample the same output again; the text report's Regions
#   table lists phase1 and phase2, entered once each, each with at least
#   a fifth of the samples (about a third each: equal work on the main
#   thread, a third burn on the other), and the JSON lists them too.
# - --region phase2 keeps only the samples the main thread took inside
#   phase2: phase_two_burn alone in the text report and in the folded
#   stacks (other_burn ran at the same time, but on another thread,
#   outside every region); and --region phase1 likewise.
# - --region with a name the log does not hold: exit 1, one line.
# - The HTML report shows the point mark and the regions, the mark on the
#   thread activity chart too (there even when no metric was recorded).
# - test/programs/markstorm sets regions on 4 threads as fast as it can
#   (20000 outer/inner pairs each) while a SIGALRM handler sets point
#   marks, sampled at 10 kHz: the log reads cleanly and both regions are
#   entered exactly 80000 times, none left open, no end unmatched (no
#   region record lost to the sampler's own signal or the handler's).
# - Marks lost for want of room are counted ("Marks lost: N" in the
#   report, summary.marks_lost in the JSON): markstorm under a file size
#   limit, every region call recorded or counted.
# - The header works from C++ (marks.c built by the C++ compiler, with the
#   library and with weak references) and the Fortran example of
#   mapsample_mark(3) (BIND(C) interfaces, linked with the library) runs
#   bare and records its region under mapsample; each is skipped, with a
#   line saying so, when that compiler is not installed.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs marks marks_weak markstorm

# region_row NAME REGION: "COUNT WALL-S SAMPLES %" of REGION in the
# Regions table of $tmp/NAME.report (nothing when it is not there).
region_row() {
	awk -v r="$2" '$0 == "Regions" { s = 1; getline; next }
		s && NF == 0 { s = 0 }
		s && $1 == r { gsub("%", ""); print $2, $3, $4, $5; exit }' \
		"$tmp/$1.report"
}

test_unchanged_without_mapsample() {
	for p in marks marks_weak; do
		"$programs/$p" 20 >"$tmp/$p.bare" 2>&1 ||
			fail "$p without mapsample exited $?"
		[ "$(cat "$tmp/$p.bare")" = "marks: done" ] || {
			show "$tmp/$p.bare"
			fail "$p without mapsample: unexpected output"
		}
	done
}

# check_regions NAME: the Regions table of NAME's report is plausible.
check_regions() {
	report "$1"
	for r in phase1 phase2; do
		row=$(region_row "$1" $r)
		[ -n "$row" ] || { show "$tmp/$1.report"; fail "$1: region $r not in the Regions table"; }
		set -- "$1" $row
		[ "$2" = 1 ] || { show "$tmp/$1.report"; fail "$1: region $r entered $2 times, not 1"; }
		check "$5 >= 20 && $5 <= 50" || {
			show "$tmp/$1.report"
			fail "$1: region $r has $5% of the samples, expected about a third"
		}
	done
}

test_regions() {
	for p in marks marks_weak; do
		sample $p -F 1000 -- "$programs/$p" 300
		[ "$rc" = 0 ] || { show "$tmp/$p.err"; fail "$p under mapsample exited $rc"; }
		[ "$(cat "$tmp/$p.out")" = "marks: done" ] ||
			{ show "$tmp/$p.out"; fail "$p under mapsample: output changed"; }
		check_regions $p
	done
	"$mapreport" --json "$tmp/marks.log" >"$tmp/marks.json"
	python3 - "$tmp/marks.json" <<'PY' || fail "JSON regions"
import json, sys
r = json.load(open(sys.argv[1]))
names = [g["name"] for g in r["regions"]]
assert names == ["phase1", "phase2"], names
for g in r["regions"]:
    assert g["count"] == 1 and g["samples"] > 0 and g["seconds"] > 0, g
    assert g["sample_seconds"] > 0, g
    assert g["filter"] is False and g["never_ended"] == 0, g
PY
}

# only_func NAME REGION KEEP OTHER...: the report of NAME with --region
# REGION has KEEP in its self table and none of OTHER, and so have its
# folded stacks.
only_func() {
	name=$1 region=$2 keep=$3
	shift 3
	report "$name" --region "$region"
	cp "$tmp/$name.report" "$tmp/$name-$region.report"
	[ "$(first_self "$name-$region")" = "$keep" ] || {
		show "$tmp/$name-$region.report"
		fail "--region $region: $keep does not lead the self table"
	}
	"$mapreport" --region "$region" --folded "$tmp/$name.log" \
		>"$tmp/$name-$region.folded"
	grep -q "$keep" "$tmp/$name-$region.folded" ||
		{ show "$tmp/$name-$region.folded"; fail "--region $region --folded: no $keep"; }
	for f in "$@"; do
		[ "$(func_self "$name-$region" "$f")" = 0 ] || {
			show "$tmp/$name-$region.report"
			fail "--region $region: $f is in the report"
		}
		! grep -q "$f" "$tmp/$name-$region.folded" || {
			show "$tmp/$name-$region.folded"
			fail "--region $region --folded: $f in the stacks"
		}
	done
}

test_region_filter() {
	only_func marks phase2 phase_two_burn phase_one_burn other_burn
	only_func marks phase1 phase_one_burn phase_two_burn other_burn
	# the whole run has all three
	report marks
	for f in phase_one_burn phase_two_burn other_burn; do
		[ "$(func_self marks $f)" != 0 ] ||
			{ show "$tmp/marks.report"; fail "$f not in the full report"; }
	done
	set +e
	"$mapreport" --region nosuch "$tmp/marks.log" >"$tmp/nosuch.out" \
		2>"$tmp/nosuch.err"
	r=$?
	set -e
	[ "$r" = 1 ] || fail "--region nosuch: exit $r, not 1"
	grep -q "^mapreport: --region nosuch: no region of that name" \
		"$tmp/nosuch.err" || { show "$tmp/nosuch.err"; fail "--region nosuch: message"; }
}

test_html() {
	"$mapreport" --html "$tmp/marks.html" "$tmp/marks.log" >/dev/null
	grep -q 'between' "$tmp/marks.html" || fail "HTML: the mark 'between' is not shown"
	grep -q 'class="region"' "$tmp/marks.html" || fail "HTML: no region on the timeline"
	grep -q 'phase2' "$tmp/marks.html" || fail "HTML: region phase2 not named"
	# without metrics there are no metric charts: the mark is drawn on
	# the thread activity chart
	sample nometrics --metrics none -- "$programs/marks" 30
	[ "$rc" = 0 ] || { show "$tmp/nometrics.err"; fail "marks --metrics none exited $rc"; }
	"$mapreport" --html "$tmp/nm.html" "$tmp/nometrics.log" >/dev/null
	grep -q '<line class="mark"[^>]*><title>mark at [0-9.]* s: between' \
		"$tmp/nm.html" || fail "HTML without metrics: the mark 'between' is not drawn"
}

# other_lang NAME: runs $tmp/NAME bare (output in $tmp/NAME.bare, exit
# 0) and under mapsample (the same output); its report must list region
# REGION with samples.
other_lang() {
	name=$1 region=$2
	"$tmp/$name" >"$tmp/$name.bare" 2>&1 ||
		{ show "$tmp/$name.bare"; fail "$name without mapsample exited $?"; }
	sample "$name" -F 1000 -- "$tmp/$name"
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name under mapsample exited $rc"; }
	cmp -s "$tmp/$name.bare" "$tmp/$name.out" ||
		{ show "$tmp/$name.bare" "$tmp/$name.out"; fail "$name: output changed under mapsample"; }
	report "$name"
	row=$(region_row "$name" "$region")
	[ -n "$row" ] && check "$(echo "$row" | cut -d' ' -f3) > 0" ||
		{ show "$tmp/$name.report"; fail "$name: region $region without samples"; }
}

test_cplusplus() {
	cxx=${CXX:-c++}
	command -v "$cxx" >/dev/null 2>&1 || { echo "skip: no C++ compiler ($cxx)"; return 0; }
	inc=$top_srcdir/lib/include
	libdir=$top_builddir/lib/mark/.libs
	"$cxx" -x c++ -O1 -Wall -Wextra -Werror -pthread -I"$inc" \
		-o "$tmp/marks_cxx" "$top_srcdir/test/programs/marks.c" \
		-L"$libdir" -Wl,-rpath,"$libdir" -lmapsample-mark 2>"$tmp/cxx.err" ||
		{ show "$tmp/cxx.err"; fail "marks.c does not build as C++ with the library"; }
	"$cxx" -x c++ -O1 -Wall -Wextra -Werror -pthread -I"$inc" \
		-DMAPSAMPLE_MARK_WEAK -o "$tmp/marks_cxx_weak" \
		"$top_srcdir/test/programs/marks.c" 2>"$tmp/cxx.err" ||
		{ show "$tmp/cxx.err"; fail "marks.c does not build as C++ with weak references"; }
	other_lang marks_cxx phase2
	other_lang marks_cxx_weak phase2
}

test_fortran() {
	fc=${FC:-gfortran}
	command -v "$fc" >/dev/null 2>&1 || { echo "skip: no Fortran compiler ($fc)"; return 0; }
	sed -n '/^\.\\" fortran-example-begin/,/^\.\\" fortran-example-end/p' \
		"$top_srcdir/man/mapsample_mark.3" | sed '/^\./d' \
		>"$tmp/phases.f90"
	grep -q "^program phases" "$tmp/phases.f90" ||
		fail "no Fortran program found in man/mapsample_mark.3"
	libdir=$top_builddir/lib/mark/.libs
	"$fc" -O2 -J "$tmp" -o "$tmp/phases" "$tmp/phases.f90" -L"$libdir" \
		-Wl,-rpath,"$libdir" -lmapsample-mark 2>"$tmp/fc.err" ||
		{ show "$tmp/fc.err"; fail "mapsample_mark.3's Fortran example does not build"; }
	other_lang phases solver
}

test_storm() {
	sample storm -F 10000 -- "$programs/markstorm" 4 20000
	[ "$rc" = 0 ] || { show "$tmp/storm.err"; fail "markstorm under mapsample exited $rc"; }
	report storm
	for r in outer inner; do
		row=$(region_row storm $r)
		[ "$(echo "$row" | cut -d' ' -f1)" = 80000 ] || {
			show "$tmp/storm.report"
			fail "markstorm: region $r entered '$row' times, not 80000"
		}
	done
	! grep -q "entered but not ended\|region ends without" "$tmp/storm.report" || {
		show "$tmp/storm.report"
		fail "markstorm: regions left open or ends unmatched"
	}
}

# Marks lost are counted (drop reason 6, MAPLOG_DROP_MARK): markstorm's
# 4 x 20000 x 4 region calls under a file size limit the log reaches
# early (1 MiB in dash's 512-byte blocks, 2 MiB in bash's KiB, 64 KiB
# chunks), so most calls find no room.  Each region call is either in
# the log or counted: the recorded begins and ends plus the report's
# "Marks lost" are at least 320000, and at most that plus the point marks
# the SIGALRM handler (every millisecond) can have set.
test_lost_marks() {
	(
		ulimit -f 2048
		MAPSAMPLE_CHUNK_SIZE=65536
		export MAPSAMPLE_CHUNK_SIZE
		sample lost -F 100 -- "$programs/markstorm" 4 20000
		echo "$rc" >"$tmp/lost.rc"
	)
	[ "$(cat "$tmp/lost.rc")" = 0 ] || { show "$tmp/lost.err"; fail "markstorm under a file size limit exited $(cat "$tmp/lost.rc")"; }
	grep -q "(EFBIG); pid [0-9]* records no more samples" "$tmp/lost.err" ||
		{ show "$tmp/lost.err"; fail "lost marks: the log did not reach its limit"; }
	report lost
	lost=$(sed -n 's/^  Samples: .*Marks lost: \([0-9]*\)$/\1/p' "$tmp/lost.report")
	[ -n "$lost" ] && check "$lost > 0" ||
		{ show "$tmp/lost.report"; fail "lost marks: no 'Marks lost: N' in the run header"; }
	"$mapreport" --json "$tmp/lost.log" >"$tmp/lost.json"
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["marks_lost"] == int(sys.argv[2]), (s["marks_lost"], sys.argv[2])
print(int(s["duration_s"] * 1000) + 1)' "$tmp/lost.json" "$lost" >"$tmp/lost.ms" ||
		fail "lost marks: the JSON's summary.marks_lost is not the report's"
	recorded=$("$mapreport" -D "$tmp/lost.log" |
		awk '$4 == "mark" && $8 != 0 { n++ } END { print n + 0 }')
	ms=$(cat "$tmp/lost.ms")
	check "$recorded + $lost >= 320000" || fail "lost marks: $recorded region records and $lost counted lost: calls went uncounted (320000 made)"
	check "$recorded + $lost <= 320000 + $ms + 100" || fail "lost marks: $recorded region records and $lost counted lost: more than the calls made (320000 and at most $ms alarms)"
}

test_unchanged_without_mapsample
test_regions
test_storm
test_lost_marks
test_cplusplus
test_fortran
test_region_filter
test_html
echo "PASS: mapsample-marks"
