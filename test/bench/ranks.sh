#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# ranks.sh: mapreport on synthetic MPI jobs of 64, 256 and 1024 rank logs
# (test/bench/bench_ranks: 10000 samples, 4 threads and 2000 distinct
# stacks a rank, the same program in every rank; a JOB record, six
# metrics of the mpi, io and memory plugins with a value at every sample,
# MPI_CALLS records), against one log of as many samples as the largest
# job with the same metrics (bench_ranks -r 1 -n RANKS*SAMPLES).  The
# report is `mapreport DIR`, as a user runs it, with the built-in partial
# reports.  Not run by make check.
#
#   test/bench/ranks.sh [BUILDDIR [WORKDIR]]
#
# RANKS (default "64 256 1024") and SAMPLES (default 10000) change the
# jobs; REPEAT (default 1) runs each report that many times and keeps the
# fastest; JOBS, when set, is given to mapreport as --jobs JOBS (the
# logs of a job decoded on JOBS - 1 threads; unset: mapreport's default,
# which a mapreport from before --jobs needs).  Each line: the case, wall seconds, CPU seconds (user +
# system) and the largest resident set of mapreport's text report, from
# /usr/bin/time.  The last line is the ratio of the largest job's time to
# the one log's, wall and CPU (the target is 3 at most; on a machine
# shared with other work, the CPU ratio is the one to trust).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top/build/default}
work=${2:-/tmp/ranks-bench}
ranks=${RANKS:-64 256 1024}
samples=${SAMPLES:-10000}
repeat=${REPEAT:-1}
mapreport=$build/cmd/mapreport/mapreport
bench_ranks=$build/test/bench/bench_ranks

die() {
	echo "ranks.sh: $*" >&2
	exit 1
}

[ -x "$mapreport" ] && [ -x "$bench_ranks" ] ||
	die "$build: build mapreport and test/bench/bench_ranks first (make && make check TESTS=)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing: apt-get install time"
mkdir -p "$work"

# timed NAME ARGS...: the fastest of $repeat runs of mapreport ARGS.
timed() {
	name=$1
	shift
	best=
	i=0
	while [ "$i" -lt "$repeat" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$work/time" \
			"$mapreport" --no-progress "$@" >/dev/null 2>"$work/err" ||
			{ cat "$work/err" >&2; die "$name: mapreport failed"; }
		line=$(tail -1 "$work/time")
		if [ -z "$best" ] || awk -v a="$line" -v b="$best" \
			'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
			best=$line
		fi
		i=$((i + 1))
	done
	echo "$best" | awk -v n="$name" '{ printf "%-28s %8.2f s wall %8.2f s CPU %8.1f MiB peak RSS\n",
		n, $1, $2 + $3, $4 / 1024 }'
	last=$(echo "$best" | cut -d' ' -f1)
	last_cpu=$(echo "$best" | awk '{ print $2 + $3 }')
}

max=0
for r in $ranks; do
	[ "$r" -gt "$max" ] && max=$r
	dir=$work/job-$r-$samples
	if [ ! -s "$dir/rank-$(printf %05d $((r - 1))).maplog" ]; then
		rm -rf "$dir"
		"$bench_ranks" -r "$r" -n "$samples" "$dir"
	fi
	# shellcheck disable=SC2086
	timed "$r ranks x $samples samples" ${JOBS:+--jobs "$JOBS"} "$dir"
	eval "t_$r=\$last"
	eval "c_$r=\$last_cpu"
done
one=$work/one-$((max * samples))
if [ ! -s "$one/rank-00000.maplog" ]; then
	rm -rf "$one"
	"$bench_ranks" -r 1 -n $((max * samples)) "$one"
fi
timed "one log, $((max * samples)) samples" "$one/rank-00000.maplog"
t_one=$last
c_one=$last_cpu
eval "t_max=\$t_$max"
eval "c_max=\$c_$max"
awk -v a="$t_max" -v b="$t_one" -v c="$c_max" -v d="$c_one" -v r="$max" \
	'BEGIN { printf "%d ranks / one log: %.2f wall, %.2f CPU (target: 3 at most)\n",
		r, a / b, c / (d > 0 ? d : 0.01) }'
