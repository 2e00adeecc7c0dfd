#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# overhead.sh: what sampling costs real programs.  Each workload runs bare,
# under mapsample, under gperftools' libprofiler and under perf record -g,
# in alternating rounds (the order shuffled each round) so that machine
# noise falls on every configuration alike.  Wall time is taken to the
# microsecond around each run; each workload lasts about 4 s bare.
# Reports, per workload and configuration: the median wall time, the
# overhead against bare as the median over rounds of (run / bare run of
# the same round) - 1, which cancels the machine's slow drifts, with a
# 95% confidence interval for that median, the same paired against
# gperftools (column vs_gp, with its interval), samples per CPU-second
# achieved, microseconds of CPU per sample and log bytes per sample; then
# the median overhead of each configuration over all workloads and rounds.
# The intervals are distribution-free (order statistics: the ranks a
# binomial(n, 1/2) puts 95% between; 6 rounds at least); where an
# interval holds the target's bound, or 0 for vs_gp, the runs cannot
# decide it, and the verdict lines say so.
#
#   [CONFIGS="bare ms250 ..."] test/bench/overhead.sh [BUILD_DIR] [ROUNDS] [WORKLOADS...]
#
# Workloads: xz (xz -9), bzip2 (bzip2 -9), python (pure-Python loop),
# sqlite (inserts and aggregates), xz2 (xz -9 -T2, two threads).
# SCALE=0.5 halves every workload's size (and time), SCALE=2 doubles it.
# Configurations:
#   ms250    mapsample at its default rate and timers, 250 Hz on a perf
#            task-clock event (user time) and a POSIX CPU timer (system
#            time) (target: <= 1% wall overhead); also the rate
#            gperftools achieves here
#   mp250    mapsample at 250 Hz with --timer posix (the POSIX timer alone)
#   mf250    mapsample at 250 Hz with --timer perf (the perf event alone)
#   mn250    mapsample at 250 Hz with --metrics none (ms250 less mn250
#            is what the default metric set costs)
#   ms1000   mapsample -F 1000, the default timers (target: 1000
#            samples per CPU-second)
#   gp1000   gperftools CPUPROFILE_FREQUENCY=1000 (gets 250 Hz: tick-capped)
#   perf1000 perf record -g -F 1000
# Needs: xz-utils bzip2 sqlite3 google-perftools linux-perf (apt-get).
set -eu
b=$(cd "${1:-.}" && pwd)
rounds=${2:-11}
scale=${SCALE:-1}
shift 2 2>/dev/null || shift $#
workloads=${*:-xz bzip2 python sqlite xz2}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
py=/usr/bin/python3
gplib=$(ls /usr/lib/x86_64-linux-gnu/libprofiler.so.0 2>/dev/null || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# inputs and cmdline(): the workloads shared with attrib.sh; median,
# ci95, ms_samples, gp_samples
. "$(dirname "$0")/workloads.sh"
. "$(dirname "$0")/stats.sh"

# run CONFIG WORKLOAD: prints "wall_s cpu_s samples logbytes"
run() {
	local cfg=$1 w=$2 cmd
	cmd=$(cmdline "$w")
	rm -f "$tmp/log" "$tmp/prof" "$tmp/perf.data"
	local t0 t1 samples=0 bytes=0
	local tf="$tmp/time"
	t0=$EPOCHREALTIME
	case $cfg in
	bare)
		/usr/bin/time -f '%e %U %S' -o "$tf" $cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME ;;
	mp* | mf*)
		# mapsample with --timer posix (mp) or --timer perf (mf)
		local tk=posix
		case $cfg in mf*) tk=perf ;; esac
		/usr/bin/time -f '%e %U %S' -o "$tf" "$ms" -q --timer $tk -F "${cfg#m?}" -o "$tmp/log" -- $cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME
		samples=$(ms_samples "$tmp/log")
		bytes=$(( $(stat -c '%b * %B' "$tmp/log") )) ;;
	mn*)
		# mapsample without metrics: what the metric plugins add
		/usr/bin/time -f '%e %U %S' -o "$tf" "$ms" -q --metrics none -F "${cfg#mn}" -o "$tmp/log" -- $cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME
		samples=$(ms_samples "$tmp/log")
		bytes=$(( $(stat -c '%b * %B' "$tmp/log") )) ;;
	ms*)
		/usr/bin/time -f '%e %U %S' -o "$tf" "$ms" -q -F "${cfg#ms}" -o "$tmp/log" -- $cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME
		samples=$(ms_samples "$tmp/log")
		# allocated bytes: chunks are reserved sparsely
		bytes=$(( $(stat -c '%b * %B' "$tmp/log") )) ;;
	gp*)
		# env inside time: only the program gets the profiler
		/usr/bin/time -f '%e %U %S' -o "$tf" env CPUPROFILE="$tmp/prof" \
			CPUPROFILE_FREQUENCY="${cfg#gp}" LD_PRELOAD="$gplib" \
			$cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME
		samples=$(gp_samples "$tmp/prof")
		bytes=$(stat -c %s "$tmp/prof" 2>/dev/null || echo 0) ;;
	perf*)
		/usr/bin/time -f '%e %U %S' -o "$tf" perf record -q -g -F "${cfg#perf}" -o "$tmp/perf.data" -- $cmd >/dev/null 2>"$tmp/err" </dev/null
		t1=$EPOCHREALTIME
		samples=$(perf script -i "$tmp/perf.data" -F comm 2>/dev/null | grep -c . || true)
		bytes=$(stat -c %s "$tmp/perf.data") ;;
	esac
	read -r _ user sys <"$tf"
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') ${samples:-0} $bytes"
}


configs="bare ms250 ms1000"
[ -n "$gplib" ] && configs="$configs gp1000"
command -v perf >/dev/null && configs="$configs perf1000"
# CONFIGS="bare ms250 gp1000" measures a subset (bare must be in it)
configs=${CONFIGS:-$configs}
case " $configs " in *" gp1000 "*) gp=gp1000 ;; *) gp= ;; esac
echo "rounds=$rounds scale=$scale configs: $configs"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$tmp/all"
: >"$tmp/allgp"
for w in $workloads; do
	for r in $(seq "$rounds"); do
		for c in $(echo $configs | tr ' ' '\n' | shuf); do
			run "$c" "$w" >>"$tmp/$w.$c"
		done
	done
	bw=$(cut -d' ' -f1 "$tmp/$w.bare" | median)
	bc=$(cut -d' ' -f2 "$tmp/$w.bare" | median)
	echo
	echo "== $w: $(cmdline "$w" | sed "s|$tmp/||g")   bare: wall ${bw}s cpu ${bc}s"
	printf '  %-9s %8s %9s %17s %10s %17s %8s %9s %8s %9s\n' config wall_s overhead "ci95" vs_gp "ci95" samples "smp/cpu-s" "us/smp" "bytes/smp"
	for c in $configs; do
		[ "$c" = bare ] && continue
		# per round: this run's wall time over the bare run's (and gp's)
		paste -d' ' "$tmp/$w.$c" "$tmp/$w.bare" |
			awk '{ printf "%.6f\n", ($1 / $5 - 1) * 100 }' >"$tmp/$w.$c.ratio"
		sed "s/^/$c /" "$tmp/$w.$c.ratio" >>"$tmp/all"
		ov=$(median <"$tmp/$w.$c.ratio")
		ci=$(ci95 <"$tmp/$w.$c.ratio")
		vg=- vci="- -"
		if [ -n "$gp" ] && [ "$c" != "$gp" ]; then
			paste -d' ' "$tmp/$w.$c" "$tmp/$w.$gp" |
				awk '{ printf "%.6f\n", ($1 / $5 - 1) * 100 }' >"$tmp/$w.$c.vsgp"
			sed "s/^/$c $w /" "$tmp/$w.$c.vsgp" >>"$tmp/allgp"
			vg=$(printf '%+.2f%%' "$(median <"$tmp/$w.$c.vsgp")")
			vci=$(ci95 <"$tmp/$w.$c.vsgp")
		fi
		wl=$(cut -d' ' -f1 "$tmp/$w.$c" | median)
		cp=$(cut -d' ' -f2 "$tmp/$w.$c" | median)
		n=$(cut -d' ' -f3 "$tmp/$w.$c" | median)
		by=$(cut -d' ' -f4 "$tmp/$w.$c" | median)
		awk -v c="$c" -v wl="$wl" -v ov="$ov" -v ci="$ci" -v vg="$vg" -v vci="$vci" -v cp="$cp" -v bc="$bc" -v n="$n" -v by="$by" '
			function iv(s,  a) { split(s, a, " "); return a[1] == "-" ? "-" : sprintf("[%+.2f, %+.2f]", a[1], a[2]) }
			BEGIN {
			printf "  %-9s %8.3f %8.2f%% %17s %10s %17s %8d %9.1f %8.2f %9.1f\n", c, wl, ov, iv(ci), vg, iv(vci), n,
				(bc > 0 ? n/bc : 0), (n > 0 ? (cp-bc)/n*1e6 : 0), (n > 0 ? by/n : 0) }'
	done
done
echo
echo "== all workloads: median overhead over every (workload, round) pair, 95% interval"
for c in $configs; do
	[ "$c" = bare ] && continue
	med=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/all" | median)
	ci=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/all" | ci95)
	printf '  %-9s %8.2f%%  [%s]  (%d runs)\n' "$c" "$med" "$(echo "$ci" | sed 's/ /, /')" \
		"$(awk -v c="$c" '$1 == c' "$tmp/all" | wc -l)"
done
# verdicts: the default rate's target, and mapsample against gperftools
case " $configs " in
*" ms250 "*)
	ci=$(awk '$1 == "ms250" { print $2 }' "$tmp/all" | ci95)
	echo "$ci" | awk '{
		if ($1 == "-") v = "undetermined (too few rounds)"
		else if ($2 <= 1) v = "met (interval at or below 1%)"
		else if ($1 > 1) v = "not met (interval above 1%)"
		else v = "undetermined (the interval holds 1%)"
		print "  ms250 <= 1% median overhead: " v }'
	if [ -n "$gp" ]; then
		for w in $workloads; do
			awk -v w="$w" '$1 == "ms250" && $2 == w { print $3 }' "$tmp/allgp" | ci95 |
				awk -v w="$w" '{
					if ($1 == "-") v = "undetermined (too few rounds)"
					else if ($2 < 0) v = "lower"
					else if ($1 > 0) v = "higher"
					else v = "indistinguishable (the interval holds 0)"
					print "  ms250 against gperftools on " w ": " v }'
		done
	fi ;;
esac
