#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mpirank-cost.sh BUILDDIR [ROUNDS]: the sampler's cost in each rank of
# an MPI job against its cost in a single process.  One program with a
# fixed amount of work (WORK million multiply-adds, the same in every
# rank) measures the CPU time of its work phase (CLOCK_PROCESS_CPUTIME_ID,
# every thread of the process: the sampler's signal handler and its
# threads included; MPI_Init, MPI_Finalize and mapsample's start and
# exit are not, fixed.sh measures those).  It runs alone, built without
# MPI, and under mpirun at 1, 2 and 4 ranks with Open MPI and MPICH,
# each case without and with mapsample (-F HZ, --metrics none: the
# stack sampler alone, no metric plugin, so the cases differ only by
# the launcher), the two alternating for ROUNDS rounds (default 3).
# CPU time, not wall time: on a 2-core machine 4 ranks share the cores,
# which stretches wall time but not the CPU time of fixed work.
#
# Printed per case: the median over rounds of the ranks' mean work CPU
# time without and with mapsample, the median of the rounds' ratios
# (with their smallest and largest), the samples per rank
# (from the logs: mapreport --json, the ranks' samples) and the cost in
# microseconds per sample ((with - without) / samples in the work
# phase, HZ per CPU second); then each case's ratio over the program
# alone.  The claim under test: the sampler in each rank costs the same
# as in a single process (ratios over alone near 1).
#
#   [HZ=1000] [WORK=200] test/bench/mpirank-cost.sh BUILDDIR [ROUNDS]
#
# HZ above the default 250 makes the cost large enough to stand out
# from the run-to-run noise of a shared machine.  A few minutes at the
# defaults.  Needs mpicc.openmpi and mpicc.mpich (either is enough).
set -eu
b=$(cd "${1:-.}" && pwd)
rounds=${2:-3}
HZ=${HZ:-1000}
WORK=${WORK:-200}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
[ -x "$ms" ] && [ -x "$mr" ] || { echo "mpirank-cost: $ms or $mr missing: build first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
unset MAPSAMPLE_JOB_ID || true

cat >"$tmp/work.c" <<'EOC'
#ifndef NO_MPI
#include <mpi.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
__attribute__((noinline)) static unsigned long work(unsigned long n)
{
	volatile unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
int main(int argc, char **argv)
{
	int rank = 0;
	unsigned long n = strtoul(argv[1], NULL, 10) * 1000000ul;
#ifndef NO_MPI
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
#endif
	double a = cpu();
	work(n);
	double c = cpu() - a;
#ifndef NO_MPI
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
#endif
	printf("rank %d cpu %.6f\n", rank, c);
	return 0;
}
EOC
cc -O1 -g -DNO_MPI -o "$tmp/alone" "$tmp/work.c"
mpis=
for m in openmpi mpich; do
	if command -v "mpicc.$m" >/dev/null && command -v "mpirun.$m" >/dev/null; then
		"mpicc.$m" -O1 -g -o "$tmp/work-$m" "$tmp/work.c"
		mpis="$mpis $m"
	else
		echo "# $m: not installed (mpicc.$m, mpirun.$m), left out"
	fi
done
[ -n "$mpis" ] || { echo "mpirank-cost: neither Open MPI nor MPICH installed" >&2; exit 1; }

# run CASE with|without: one run; appends "CASE with|without CPU SAMPLES"
# (CPU: the ranks' mean work CPU seconds; SAMPLES: the ranks' mean
# samples, 0 without mapsample) to $tmp/runs
run() {
	c=$1 how=$2
	rm -rf "$tmp/job"
	mkdir "$tmp/job"
	pre=
	[ "$how" = with ] && pre="$ms -q -F $HZ --metrics none -o $tmp/job/rank-%r.maplog --"
	case $c in
	alone)
		[ "$how" = with ] && pre="$ms -q -F $HZ --metrics none -o $tmp/job/rank-0.maplog --"
		$pre "$tmp/alone" "$WORK" >"$tmp/out" ;;
	*-*)
		m=${c%-*} n=${c#*-}
		timeout 300 "mpirun.$m" -np "$n" $pre "$tmp/work-$m" "$WORK" >"$tmp/out" ;;
	esac
	cpu=$(awk '$3 == "cpu" { s += $4; n++ } END { if (n) printf "%.6f", s / n }' "$tmp/out")
	[ -n "$cpu" ] || { echo "mpirank-cost: $c $how: no figure" >&2; cat "$tmp/out" >&2; exit 1; }
	smp=0
	if [ "$how" = with ]; then
		"$mr" --json --merge "$tmp/job" >"$tmp/json" 2>/dev/null
		smp=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = (d.get("ranks") or {}).get("rows") or []
print(sum(r["samples"] for r in rows) / len(rows) if rows else d["samples"])' "$tmp/json")
	fi
	echo "$c $how $cpu $smp" >>"$tmp/runs"
}

cases=alone
for m in $mpis; do
	for n in 1 2 4; do
		cases="$cases $m-$n"
	done
done
: >"$tmp/runs"
r=1
while [ "$r" -le "$rounds" ]; do
	for c in $cases; do
		if [ $((r % 2)) = 1 ]; then
			run "$c" without
			run "$c" with
		else
			run "$c" with
			run "$c" without
		fi
	done
	r=$((r + 1))
done

echo "# mpirank-cost: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"WORK=$WORK, -F $HZ --metrics none, $rounds rounds, medians"
python3 - "$tmp/runs" "$HZ" <<'EOP'
import statistics as st, sys
runs, hz = {}, float(sys.argv[2])
order = []
for line in open(sys.argv[1]):
    c, how, cpu, smp = line.split()
    if c not in order:
        order.append(c)
    runs.setdefault((c, how), []).append((float(cpu), float(smp)))
print("%-10s %9s %9s %7s %15s %9s %9s %11s" % ("case", "bare s", "mapsmp s",
      "ratio", "ratio min-max", "samples", "us/sample", "ratio/alone"))
res = {}
for c in order:
    bare = [x[0] for x in runs[(c, "without")]]
    withs = [x[0] for x in runs[(c, "with")]]
    smp = st.median(x[1] for x in runs[(c, "with")])
    # per round: with over without, in the order run
    ratios = [w / b for w, b in zip(withs, bare)]
    ratio = st.median(ratios)
    b, w = st.median(bare), st.median(withs)
    us = (w - b) / (w * hz) * 1e6
    res[c] = ratio
    print("%-10s %9.3f %9.3f %7.4f %7.4f-%.4f %9.0f %9.1f %11.4f" % (c, b, w, ratio,
          min(ratios), max(ratios), smp, us,
          ratio / res["alone"] if "alone" in res else float("nan")))
EOP
