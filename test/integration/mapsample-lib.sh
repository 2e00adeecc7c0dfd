# SPDX-License-Identifier: BSD-2-Clause
#
# Helpers for the mapsample-*.sh tests, which run the programs of
# test/programs under the build tree's mapsample and read what mapreport
# makes of the log.  Sourced, not run: the sourcing script sets -eu, makes
# $tmp and its cleanup trap first (the mpi plugin's tests: right after,
# with mpi_test_setup).  Reports are parsed by their tables'
# titles and columns, as mapreport(1) describes them.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapsample=$top_builddir/cmd/mapsample/mapsample
mapreport=$top_builddir/cmd/mapreport/mapreport
programs=$top_builddir/test/programs

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip TAG REASON...: the test cannot run here: "SKIP: REASON" and exit 77,
# unless MAPSAMPLE_NO_SKIP (tags separated by commas, or "all") names TAG:
# there the skip is a failure, "FAIL: REASON", exit 1.  CI, which
# installs everything the tests need, sets MAPSAMPLE_NO_SKIP=mpi,slurm
# (.ci/run), so that a test it must run cannot pass by skipping; a
# user's machine without MPI or Slurm still skips.  Tags: mpi
# (mapsample-mpi.sh, metrics-mpi.sh), slurm (mapsample-slurm.sh).
skip() {
	skip_tag=$1
	shift
	if no_skip "$skip_tag"; then
		fail "$* (MAPSAMPLE_NO_SKIP=$MAPSAMPLE_NO_SKIP: not skipped here)"
	fi
	echo "SKIP: $*"
	exit 77
}

# skip_part TAG REASON...: a part of a test cannot run here (one MPI of
# two not installed): says so and returns, or fails as skip does when
# MAPSAMPLE_NO_SKIP names TAG.
skip_part() {
	skip_tag=$1
	shift
	if no_skip "$skip_tag"; then
		fail "$* (MAPSAMPLE_NO_SKIP=$MAPSAMPLE_NO_SKIP: not skipped here)"
	fi
	echo "not tested here: $*"
}

# no_skip TAG: true when MAPSAMPLE_NO_SKIP names TAG (or "all").
no_skip() {
	case ",${MAPSAMPLE_NO_SKIP:-}," in
	*",$1,"* | *",all,"*) return 0 ;;
	esac
	return 1
}

# show FILE...: the files on standard error, for the log of a failed case.
show() {
	for f in "$@"; do
		echo "--- $(basename "$f"):" >&2
		cat "$f" >&2 || true
	done
}

# watch SECONDS REPORT COMMAND...: COMMAND with a time limit, as
# timeout(1); when it runs out, REPORT says where every thread of every
# process of the command waits (watch.py) before all are killed and the
# status is 124.  Environment for COMMAND goes through env(1), not the
# call (the watcher is a python3).
watch() {
	/usr/bin/python3 "$top_srcdir/test/integration/watch.py" "$@"
}

# need_programs NAME...: the test programs are built (make check builds
# them; running a script by hand needs "make check TESTS=" first).
need_programs() {
	for p in "$@"; do
		[ -x "$programs/$p" ] ||
			fail "$programs/$p missing: run 'make check' (or 'make check TESTS=') first"
	done
}

# sample NAME [MAPSAMPLE-OPTIONS] -- PROGRAM ARGS...: runs mapsample -q
# with the log in $tmp/NAME.log, standard input from /dev/null, standard
# output and error in $tmp/NAME.out and $tmp/NAME.err; mapsample's exit
# status in $rc.
sample() {
	name=$1
	shift
	set +e
	"$mapsample" -q -o "$tmp/$name.log" "$@" </dev/null >"$tmp/$name.out" \
		2>"$tmp/$name.err"
	rc=$?
	set -e
}

# report NAME [MAPREPORT-OPTIONS]: mapreport on $tmp/NAME.log, standard
# output in $tmp/NAME.report; a case fails unless mapreport exits 0.
report() {
	name=$1
	shift
	set +e
	"$mapreport" "$@" "$tmp/$name.log" >"$tmp/$name.report" \
		2>"$tmp/$name.rerr"
	r=$?
	set -e
	[ "$r" = 0 ] || {
		show "$tmp/$name.rerr"
		fail "$name: mapreport exited $r"
	}
}

# samples NAME: the "Samples:" count of $tmp/NAME.report.
samples() {
	sed -n 's/^ *Samples: *\([0-9]*\) .*/\1/p' "$tmp/$1.report"
}

# func_row NAME self|total FUNCTION: FUNCTION's row of the report's "Top
# functions by self|total samples" table, as "SELF% SELF TOTAL% TOTAL"
# without the % signs; nothing when the function is not in the table.
func_row() {
	awk -v sec="Top functions by $2 samples" -v fn="$3" '
		$0 == sec { s = 1; next }
		s && NF == 0 { s = 0 }
		s && $5 == fn { gsub("%", ""); print $1, $2, $3, $4; exit }
	' "$tmp/$1.report"
}

# func_self_pct, func_self, func_total_pct, func_total NAME FUNCTION:
# one number of FUNCTION's row (0 when it is not in the table).
func_self_pct() { func_row "$1" self "$2" | awk '{ print $1 } END { if (!NR) print 0 }'; }
func_self() { func_row "$1" self "$2" | awk '{ print $2 } END { if (!NR) print 0 }'; }
func_total_pct() { func_row "$1" total "$2" | awk '{ print $3 } END { if (!NR) print 0 }'; }
func_total() { func_row "$1" total "$2" | awk '{ print $4 } END { if (!NR) print 0 }'; }

# first_self NAME: the function on the first row of the self table.
first_self() {
	awk '$0 == "Top functions by self samples" { getline; getline;
		print $5; exit }' "$tmp/$1.report"
}

# threads NAME: the Threads table as "PID TID SAMPLES CPU-S RATE" lines.  Its
# columns: PID IMAGE TID NAME SAMPLES % CPU-S RATE, then " *" when the
# thread's end was not recorded; names may hold spaces, so SAMPLES is
# counted from the right.
threads() {
	awk '$0 == "Threads" { s = 1; getline; next }
		s && NF == 0 { s = 0 }
		s && $1 ~ /^[0-9]+$/ { n = NF; if ($n == "*") n--;
			print $1, $3, $(n - 3), $(n - 1), $n }' "$tmp/$1.report"
}

# processes NAME: the Processes table as "PID IMAGE SAMPLES EXIT" lines,
# one per process image, EXIT being "status N", "signal N", "exec" (the
# image exec'd the next) or "-"; the line of a process of several
# images (IMAGE FIRST-LAST) and the notes under the table are left out.
processes() {
	awk '$0 == "Processes" { s = 1; getline; next }
		s && NF == 0 { s = 0 }
		s && $2 ~ /^[0-9]+$/ {
			print $1, $2, $3, ($5 == "-" || $5 == "exec" ? $5 : $5 " " $6) }' \
		"$tmp/$1.report"
}

# check EXPR: true when the awk expression EXPR holds (numbers with
# decimals welcome).
check() {
	awk "BEGIN { exit !($1) }" </dev/null
}

# mpi_test_setup: the start of the mpi plugin's tests (metrics-mpi.sh,
# metrics-mpi-more.sh): $tmp, a temporary folder removed at exit (with
# its cleanup trap); $metrics, the build tree's metric definitions, which
# must hold the mpi plugin's mpi.xml (missing: a failure on x86-64 and
# AArch64, which build the plugin, a skip elsewhere); Open MPI's mpirun
# allowed to run as root.
mpi_test_setup() {
	tmp=$(mktemp -d)
	cleanup() { rm -rf "$tmp"; }
	trap cleanup EXIT
	metrics=$top_builddir/plugins/metrics
	if [ ! -f "$metrics/mpi.xml" ]; then
		case $(uname -m) in
		x86_64 | aarch64) fail "$metrics/mpi.xml missing: the mpi plugin was not built" ;;
		esac
		skip mpi "the mpi plugin is not built on $(uname -m) (configure said why)"
	fi
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}
