#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The MPI and Slurm tests cannot pass in CI by skipping (issue 15: "CI
# must not skip it"), yet still skip on a machine without MPI or Slurm:
#   - .ci/run exports MAPSAMPLE_NO_SKIP naming mpi and slurm before it
#     runs the README's test command (./build.sh check);
#   - each of mapsample-mpi.sh, metrics-mpi.sh and mapsample-slurm.sh,
#     run where it must skip (a build tree without the MPI test programs,
#     MPI compilers that do not exist, a user other than root for
#     slurmd), exits 77 with "SKIP: reason" without MAPSAMPLE_NO_SKIP,
#     and exits 1 with "FAIL: reason" naming MAPSAMPLE_NO_SKIP with it.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
chmod 755 "$tmp"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

ci=$top_srcdir/.ci/run
[ -f "$ci" ] || fail "$ci missing"
grep -q '^ *\./build\.sh check\( \|$\)' "$top_srcdir/README.md" ||
	fail "README.md no longer gives ./build.sh check as the test command: check .ci/run"
# the line that runs it, and the export before it
line=$(grep -n '^stage check \./build\.sh check$' "$ci" | cut -d: -f1)
[ -n "$line" ] || fail "$ci does not run the README's test command (stage check ./build.sh check)"
exp=$(grep -n '^export MAPSAMPLE_NO_SKIP=' "$ci" | head -1)
[ -n "$exp" ] || fail "$ci does not export MAPSAMPLE_NO_SKIP"
[ "${exp%%:*}" -lt "$line" ] || fail "$ci exports MAPSAMPLE_NO_SKIP after running the tests"
list=${exp#*=}
for t in mpi slurm; do
	case ",$list," in
	*",$t,"*) ;;
	*) fail "$ci: MAPSAMPLE_NO_SKIP=$list does not name $t" ;;
	esac
done

# outcome NAME EXPECT [ENV...] -- CMD...: runs CMD with ENV; its exit
# status must be EXPECT (77: "SKIP: " on its output; 1: "FAIL: ...
# MAPSAMPLE_NO_SKIP" on its standard error)
outcome() {
	name=$1 want=$2
	shift 2
	set +e
	env "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	rc=$?
	set -e
	[ "$rc" = "$want" ] || {
		show "$tmp/$name.out" "$tmp/$name.err"
		fail "$name: exit $rc, want $want"
	}
	case $want in
	77) grep -q '^SKIP: ' "$tmp/$name.out" ||
		{ show "$tmp/$name.out"; fail "$name: no SKIP line"; } ;;
	1) grep -q '^FAIL: .*MAPSAMPLE_NO_SKIP=' "$tmp/$name.err" ||
		{ show "$tmp/$name.err"; fail "$name: no FAIL line naming MAPSAMPLE_NO_SKIP"; } ;;
	esac
}

# a build tree without the MPI test programs, with an mpi.xml
mkdir -p "$tmp/build/test/programs" "$tmp/build/plugins/metrics"
: >"$tmp/build/plugins/metrics/mpi.xml"
nompi="top_srcdir=$top_srcdir top_builddir=$tmp/build MPICC_OPENMPI=$tmp/none
MPIRUN_OPENMPI=$tmp/none MPICC_MPICH=$tmp/none MPIRUN_MPICH=$tmp/none"
for t in mapsample-mpi metrics-mpi; do
	# shellcheck disable=SC2086
	outcome "$t-skip" 77 -u MAPSAMPLE_NO_SKIP $nompi \
		sh "$top_srcdir/test/integration/$t.sh"
	# shellcheck disable=SC2086
	outcome "$t-noskip" 1 MAPSAMPLE_NO_SKIP=mpi,slurm $nompi \
		sh "$top_srcdir/test/integration/$t.sh"
	# shellcheck disable=SC2086
	outcome "$t-all" 1 MAPSAMPLE_NO_SKIP=all $nompi \
		sh "$top_srcdir/test/integration/$t.sh"
	# a list naming only the other tests' tag: still a skip
	# shellcheck disable=SC2086
	outcome "$t-other" 77 MAPSAMPLE_NO_SKIP=slurm $nompi \
		sh "$top_srcdir/test/integration/$t.sh"
done

# Slurm as a user other than root: slurmd cannot run (or Slurm is not
# installed): a skip either way
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	command -v setpriv >/dev/null || fail "setpriv (util-linux) not found"
else
	as_user=
fi
# (the scripts copied where that user can read them)
mkdir -p "$tmp/src/test/integration"
cp "$top_srcdir/test/integration/mapsample-slurm.sh" \
	"$top_srcdir/test/integration/mapsample-lib.sh" "$tmp/src/test/integration/"
chmod -R a+rX "$tmp"
# shellcheck disable=SC2086
outcome slurm-skip 77 -u MAPSAMPLE_NO_SKIP top_srcdir="$tmp/src" \
	top_builddir="$tmp/build" $as_user sh "$tmp/src/test/integration/mapsample-slurm.sh"
# shellcheck disable=SC2086
outcome slurm-noskip 1 MAPSAMPLE_NO_SKIP=mpi,slurm top_srcdir="$tmp/src" \
	top_builddir="$tmp/build" $as_user sh "$tmp/src/test/integration/mapsample-slurm.sh"
echo "ci-noskip: OK"
