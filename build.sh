#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# build.sh: set up, build and run mapsample from a fresh Debian 12 checkout.
#
#   ./build.sh example    install what is missing, build, profile the bundled
#                         example program and print its report
#   ./build.sh check      install what is missing, build, run the test suite
#   ./build.sh asan       the test suite under AddressSanitizer + UBSan
#   ./build.sh fuzz [N]   libFuzzer on the log parser, N runs (default 1000000),
#                         on the two XML parsers and the perf map parser,
#                         N/4 runs each, and on the rule parser, N/16
#   ./build.sh distcheck  make distcheck (tarball builds and passes its tests)
#
# Builds go to build/<mode>/ (out of tree), so the modes never mix.
# Debian packages that are missing are installed with apt-get (as root, or
# through sudo); otherwise the script names them and stops.
set -eu

top=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}
jobs=$(nproc 2>/dev/null || echo 2)

deps="autoconf automake libtool pkg-config make gcc libc6-dev libexpat1-dev libunwind-dev check libdw-dev libelf-dev libiberty-dev protobuf-c-compiler libprotobuf-c-dev zlib1g-dev"
# libotf2 for the otf2 substrate plugin (optional to configure, built
# whenever it is installed, so build.sh installs it)
deps="$deps libotf2-trace-dev"
# what the tests use besides: python3 checks the JSON report, mandoc
# lints the man pages (test/integration/man-lint.sh), python3-jsonschema
# validates every JSON output against the installed schema,
# python3-markdown renders --compare --markdown, go tool pprof
# (golang-go) reads the --pprof profile, python3-junitparser reads the
# --compare --junit file as a JUnit consumer would
testdeps="python3 mandoc python3-jsonschema python3-markdown golang-go python3-junitparser"
# the MPI tests (test/integration/mapsample-mpi.sh, mapsample-slurm.sh,
# metrics-mpi.sh): Open MPI and MPICH side by side (mpirun.openmpi,
# mpicc.openmpi, mpirun.mpich, mpicc.mpich), a one-node Slurm with munge
testdeps="$testdeps openmpi-bin libopenmpi-dev mpich libmpich-dev slurm-wlm munge"
# gfortran: the Fortran MPI program of metrics-mpi-more.sh (mpif90.openmpi
# and mpifort.mpich call it)
testdeps="$testdeps gfortran"
# nodejs: the JIT-names test (node --perf-basic-prof); binutils: objdump
# for --disasm
testdeps="$testdeps nodejs binutils"
# otf2-print (otf2-tools) reads the otf2 plugin's traces back
testdeps="$testdeps otf2-tools"
# xz: a real program compared with itself (mapreport-compare-real.sh)
testdeps="$testdeps xz-utils"
# g++: the C++ test programs built by the tests themselves
# (mapreport-compare-match.sh, mapreport-inline.sh,
# mapreport-html-browser.sh)
testdeps="$testdeps g++"

die() {
	echo "build.sh: $*" >&2
	exit 1
}

install_deps() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" = 0 ]; then
		sudo=
	elif command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		die "missing Debian packages:$missing; install them with: apt-get install$missing"
	fi
	echo "build.sh: installing$missing" >&2
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
}

# configure_in DIR [configure args...]: an out-of-tree build in DIR.
configure_in() {
	dir=$1
	shift
	if [ -f "$top/config.status" ]; then
		die "$top is configured in-tree; run 'make distclean' there first, builds go to build/"
	fi
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
	mkdir -p "$dir"
	if [ ! -f "$dir/config.status" ] || [ "$top/configure" -nt "$dir/config.status" ]; then
		(cd "$dir" && "$top/configure" -q "$@")
	fi
}

case $mode in
example)
	install_deps $deps
	configure_in "$top/build/default"
	make -C "$top/build/default" -j"$jobs" >/dev/null
	b=$top/build/default
	# the bundled example: a matrix multiply, a qsort and two threads
	echo "== mapsample -F 1999 -o $b/example.maplog -- $b/examples/demo"
	"$b/cmd/mapsample/mapsample" -F 1999 -o "$b/example.maplog" -- "$b/examples/demo"
	echo "== mapreport -n 10 $b/example.maplog"
	"$b/cmd/mapreport/mapreport" -n 10 "$b/example.maplog"
	;;
check)
	install_deps $deps $testdeps
	configure_in "$top/build/default"
	make -C "$top/build/default" -j"$jobs"
	make -C "$top/build/default" -j"$jobs" check
	;;
asan)
	install_deps $deps $testdeps
	configure_in "$top/build/asan" --enable-sanitizers CFLAGS="-O1 -g"
	make -C "$top/build/asan" -j"$jobs"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		make -C "$top/build/asan" -j"$jobs" check
	;;
fuzz)
	install_deps $deps clang libclang-rt-14-dev
	configure_in "$top/build/fuzz" CC=clang --enable-fuzzing CFLAGS="-O1 -g"
	make -C "$top/build/fuzz" -j"$jobs" test/fuzz/fuzz_maplog \
		test/fuzz/fuzz_metricdef test/fuzz/fuzz_partial test/fuzz/fuzz_rules \
		test/fuzz/fuzz_perfmap
	# N runs of the log parser, N/4 of each XML parser, N/16 of the
	# one-line --compare rule parser
	n=${2:-1000000}
	"$top/test/fuzz/run-fuzz.sh" "$top/build/fuzz" "$n" maplog
	"$top/test/fuzz/run-fuzz.sh" "$top/build/fuzz" $(((n + 3) / 4)) metricdef
	"$top/test/fuzz/run-fuzz.sh" "$top/build/fuzz" $(((n + 3) / 4)) partial
	"$top/test/fuzz/run-fuzz.sh" "$top/build/fuzz" $(((n + 15) / 16)) rules
	"$top/test/fuzz/run-fuzz.sh" "$top/build/fuzz" $(((n + 3) / 4)) perfmap
	;;
distcheck)
	install_deps $deps $testdeps $testdeps
	configure_in "$top/build/dist"
	make -C "$top/build/dist" -j"$jobs" distcheck
	;;
*)
	sed -n '4,12s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
