#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-dlopen.sh: the sampler wraps dlopen to record what a program
# loads, and the wrapper must not change what dlopen finds.  glibc takes
# the calling object from dlopen's return address: its DT_RPATH or
# DT_RUNPATH is searched for a bare name and $ORIGIN stands for its
# directory, and a wrapper that calls dlopen itself becomes that caller.
# test/programs/rpathopen (DT_RUNPATH $ORIGIN/.libs) loads libdlwork by a
# bare name and by an $ORIGIN path, from the program and through
# libdlopener (DT_RUNPATH $ORIGIN), and in a dlmopen namespace.  Each
# case must print under mapsample what it prints bare and exit 0, and
# the report must name dlwork_burn, which runs in the loaded library
# (except in the dlmopen namespace, whose objects the sampler does not
# record: mapsample(1), BUGS).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# case_open NAME MODE LIBRARY: rpathopen MODE LIBRARY, bare and under
# mapsample: the same exit status and output
case_open() {
	name=$1
	shift
	set +e
	"$programs/rpathopen" "$@" 200 </dev/null >"$tmp/$name.bare" 2>&1
	brc=$?
	set -e
	sample "$name" -F 1000 -- "$programs/rpathopen" "$@" 200
	cat "$tmp/$name.err" >>"$tmp/$name.out"
	[ "$rc" = "$brc" ] || {
		show "$tmp/$name.bare" "$tmp/$name.out"
		fail "$name: rpathopen $* exited $rc under mapsample, $brc without it"
	}
	cmp -s "$tmp/$name.bare" "$tmp/$name.out" || {
		show "$tmp/$name.bare" "$tmp/$name.out"
		fail "$name: rpathopen $* loaded something else under mapsample"
	}
	[ "$rc" = 0 ] || return 0
	report "$name"
	[ "$1" = ns ] && return 0
	self=$(func_self "$name" dlwork_burn)
	[ "${self:-0}" -gt 0 ] || {
		show "$tmp/$name.report"
		fail "$name: dlwork_burn, in the loaded library, is not in the report"
	}
}

need_programs rpathopen
lib=$top_builddir/test/programs/.libs/libdlwork.so
[ -f "$lib" ] || fail "$lib missing: run 'make check' first"
case_open exe-name exe libdlwork.so
case_open exe-origin exe '$ORIGIN/.libs/libdlwork.so'
case_open lib-name lib libdlwork.so
case_open lib-origin lib '$ORIGIN/libdlwork.so'
case_open ns-name ns libdlwork.so
# LD_LIBRARY_PATH comes before a DT_RUNPATH; a name found nowhere fails
# with the same message
mkdir "$tmp/llp"
cp "$lib" "$tmp/llp/"
LD_LIBRARY_PATH=$tmp/llp
export LD_LIBRARY_PATH
case_open llp-exe exe libdlwork.so
case_open llp-lib lib libdlwork.so
unset LD_LIBRARY_PATH
grep -q "loaded $tmp/llp/libdlwork.so" "$tmp/llp-lib.out" ||
	fail "llp-lib: libdlwork.so did not come from LD_LIBRARY_PATH"
case_open missing exe libnothere.so
echo "mapsample-dlopen: all cases passed"
