#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# fixed.sh: what a profiler costs a program once, whatever the program
# does: the launcher, loading, the sampler's start-up and its end (the
# log's last records, the plugins' end).  Runs /bin/true (or PROGRAM)
# bare, through env(1) (how gperftools is started: the baseline for it),
# under mapsample -q with the default metrics and with --metrics none, and
# under gperftools' libprofiler, in a shuffled order each round, and
# prints the median wall time of each in milliseconds with the first and
# third quartiles, and the median difference to its baseline (bare; env
# for gperftools).  On a run of T seconds, a fixed cost of F ms is F/T/10
# per cent of overhead.
#
#   test/bench/fixed.sh [BUILD_DIR] [ROUNDS] [PROGRAM ARGS...]
set -eu
b=$(cd "${1:-.}" && pwd)
rounds=${2:-41}
shift 2 2>/dev/null || shift $#
prog=("${@:-/bin/true}")
ms=$b/cmd/mapsample/mapsample
gplib=$(ls /usr/lib/x86_64-linux-gnu/libprofiler.so.0 2>/dev/null || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

configs="bare env ms mn"
[ -n "$gplib" ] && configs="$configs gp"

# run CONFIG: one run's wall time in ms
run() {
	local t0 t1
	t0=$EPOCHREALTIME
	case $1 in
	bare) "${prog[@]}" ;;
	env) env MAPSAMPLE_FIXED=1 "${prog[@]}" ;;
	ms) "$ms" -q -o "$tmp/log" -- "${prog[@]}" ;;
	mn) "$ms" -q --metrics none -o "$tmp/log" -- "${prog[@]}" ;;
	gp) env CPUPROFILE="$tmp/prof" LD_PRELOAD="$gplib" "${prog[@]}" ;;
	esac >/dev/null 2>&1 </dev/null
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}

stats() {
	sort -g | awk '{ v[NR] = $1 } END {
		printf "%8.3f %8.3f %8.3f", v[int((NR + 1) / 2)],
			v[int((NR + 3) / 4)], v[NR + 1 - int((NR + 3) / 4)] }'
}

echo "program: ${prog[*]}; rounds=$rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	for c in $(echo $configs | tr ' ' '\n' | shuf); do
		run "$c" >>"$tmp/$c"
	done
done
printf '  %-34s %8s %8s %8s %10s\n' config "median" q1 q3 "+ms"
for c in $configs; do
	case $c in
	bare) label="bare" base= ;;
	env) label="env(1)" base= ;;
	ms) label="mapsample -q (default metrics)" base=bare ;;
	mn) label="mapsample -q --metrics none" base=bare ;;
	gp) label="gperftools (through env)" base=env ;;
	esac
	d=-
	if [ -n "$base" ]; then
		# median of the paired differences to the baseline's run of
		# the same round
		d=$(paste -d' ' "$tmp/$c" "$tmp/$base" | awk '{ print $1 - $2 }' |
			sort -g | awk '{ v[NR] = $1 } END { printf "%+.3f", v[int((NR + 1) / 2)] }')
	fi
	printf '  %-34s %s %10s\n' "$label" "$(stats <"$tmp/$c")" "$d"
done
