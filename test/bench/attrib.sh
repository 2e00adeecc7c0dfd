#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# attrib.sh: the CPU time each profiler's own work takes, found by
# profiling the profiled program with perf.  overhead.sh times whole runs,
# and on a shared VM its intervals are wider than the gap between
# mapsample and gperftools; this counts instead where the CPU time goes.
# Each workload of overhead.sh runs under mapsample and under gperftools'
# libprofiler at the same rate (250 Hz: what the tick gives both), each
# inside `perf record -e cpu-clock -F PERF_HZ -g`, the two alternating for
# ROUNDS rounds.  A perf sample counts as the profiler's when its call
# chain holds a frame of the profiler's code (libmapsampler and the
# metric plugins it calls, or libprofiler; libunwind, which both use and
# the workloads do not) or of the kernel's work for a sample (signal
# set-up, sigreturn, the POSIX CPU-timer expiry).  Printed per workload
# and profiler: the median over rounds of that share of the program's
# CPU time, and of microseconds per profiler sample (share times CPU
# time over the samples the profiler took), with the medians' 95%
# intervals; then mapsample's share over gperftools': the median of the
# per-round ratios, and the ratio of the shares pooled over all rounds
# with a 95% interval from the perf sample counts (a profiler's share of
# one run is only some 100 perf samples, so per-round ratios are noisy;
# the pooled interval assumes the runs vary by no more than counting).
#
# Not counted, for either profiler: what the interrupt and the handler
# cost the program afterwards (caches and TLB entries refilled), the
# timer interrupt itself (the tick happens anyway), and start-up and
# exit (fixed.sh measures those).  So this is a lower bound of the
# overhead and a like-for-like comparison of the work each profiler
# does per sample, not a replacement for overhead.sh.
#
#   [SCALE=S] [PERF_HZ=HZ] test/bench/attrib.sh [BUILD_DIR] [ROUNDS] [WORKLOADS...]
#
# PERF_HZ (default 4999) is perf's sampling rate: higher counts more of
# the profilers' work per run (narrower intervals) and adds perf's own
# interrupts to both alike.
#
# Needs: xz-utils bzip2 sqlite3 google-perftools linux-perf (apt-get).
set -eu
b=$(cd "${1:-.}" && pwd)
rounds=${2:-5}
scale=${SCALE:-1}
perf_hz=${PERF_HZ:-4999}
shift 2 2>/dev/null || shift $#
workloads=${*:-xz bzip2 python sqlite xz2}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
py=/usr/bin/python3
gplib=$(ls /usr/lib/x86_64-linux-gnu/libprofiler.so.0 2>/dev/null || true)
if [ -z "$gplib" ] || ! command -v perf >/dev/null; then
	echo "attrib.sh: needs gperftools' libprofiler and perf" \
		"(apt-get install google-perftools linux-perf)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/workloads.sh"
. "$(dirname "$0")/stats.sh"

# share PERF_DATA PROFILER: "profiler_share_percent cpu_seconds
# profiler_perf_samples program_perf_samples" of the program (the
# launcher and env(1) left out)
share() {
	perf script -i "$1" -F comm,tid,period,ip,sym,dso 2>/dev/null |
		"$py" -c '
import sys
user = {"ms": ("libmapsampler.so", "libmapsample-", "libunwind.so"),
        "gp": ("libprofiler.so", "libunwind.so")}[sys.argv[1]]
kern = ("arch_do_signal_or_restart", "__x64_sys_rt_sigreturn",
        "posix_cpu_timers_work", "handle_posix_cpu_timers")
skip = ("mapsample", "env")
total = mine = ntotal = nmine = 0
head = None
frames = []
def flush():
    global total, mine, ntotal, nmine
    if head is None or head[0] in skip:
        return
    total += head[1]
    ntotal += 1
    for f in frames:
        if any(u in f[1] for u in user) or (f[1] == "[kernel.kallsyms]" and f[0] in kern):
            mine += head[1]
            nmine += 1
            break
for line in sys.stdin:
    if not line.strip():
        flush(); head = None; frames = []
    elif line[0] not in " \t":
        # comm tid period:  (comm may hold spaces: the last two fields)
        p = line.split()
        head = (" ".join(p[:-2]), int(p[-1]))
    else:
        p = line.split(None, 1)
        rest = p[1].rstrip() if len(p) > 1 else ""
        sym, _, dso = rest.rpartition(" (")
        frames.append((sym.split("+")[0], dso.rstrip(")")))
flush()
print("%.6f %.6f %d %d" % (100.0 * mine / total if total else 0, total / 1e9, nmine, ntotal))
' "$2"
}


run() {
	local p=$1 w=$2 cmd
	cmd=$(cmdline "$w")
	rm -f "$tmp/log" "$tmp/prof" "$tmp/perf.data"
	case $p in
	ms) perf record -q -e cpu-clock -F "$perf_hz" -g -o "$tmp/perf.data" -- \
		"$ms" -q -F 250 -o "$tmp/log" -- $cmd >/dev/null 2>&1 </dev/null ;;
	gp) perf record -q -e cpu-clock -F "$perf_hz" -g -o "$tmp/perf.data" -- \
		env CPUPROFILE="$tmp/prof" CPUPROFILE_FREQUENCY=250 \
		LD_PRELOAD="$gplib" $cmd >/dev/null 2>&1 </dev/null ;;
	esac
	set -- $(share "$tmp/perf.data" "$p")
	local n
	if [ "$p" = ms ]; then n=$(ms_samples "$tmp/log"); else n=$(gp_samples "$tmp/prof"); fi
	# share% cpu_s samples us_per_sample perf_mine perf_total
	awk -v s="$1" -v c="$2" -v n="${n:-0}" -v m="$3" -v t="$4" 'BEGIN {
		printf "%.4f %.3f %d %.2f %d %d\n", s, c, n, (n > 0 ? s / 100 * c / n * 1e6 : 0), m, t }'
}

# "[LO, HI]" from ci95 (stats.sh) with 3 decimals, "-" below 6 rounds
ci() { ci95 3 | awk '$1 == "-" { print "-"; next } { printf "[%s, %s]\n", $1, $2 }'; }

echo "rounds=$rounds scale=$scale; perf cpu-clock at $perf_hz Hz; both profilers at 250 Hz"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-4s %9s %17s %7s %8s %9s %15s\n' workload prof "share%" ci95 cpu_s samples "us/smp" ci95
for w in $workloads; do
	for r in $(seq "$rounds"); do
		for p in $(printf 'ms\ngp\n' | shuf); do
			run "$p" "$w" >>"$tmp/$w.$p"
		done
	done
	for p in ms gp; do
		printf '%-8s %-4s %9.3f %17s %7.2f %8.0f %9.2f %15s\n' "$w" "$p" \
			"$(cut -d' ' -f1 "$tmp/$w.$p" | median)" \
			"$(cut -d' ' -f1 "$tmp/$w.$p" | ci)" \
			"$(cut -d' ' -f2 "$tmp/$w.$p" | median)" \
			"$(cut -d' ' -f3 "$tmp/$w.$p" | median)" \
			"$(cut -d' ' -f4 "$tmp/$w.$p" | median)" \
			"$(cut -d' ' -f4 "$tmp/$w.$p" | ci)"
	done
	# per round: mapsample's share over gperftools'
	paste -d' ' "$tmp/$w.ms" "$tmp/$w.gp" |
		awk '$7 > 0 { printf "%.4f\n", $1 / $7 }' >"$tmp/$w.ratio"
	printf '%-8s ms/gp share ratio: median of rounds %.2f %s\n' "$w" \
		"$(median <"$tmp/$w.ratio")" "$(ci <"$tmp/$w.ratio")"
	# pooled over the rounds: profiler perf samples over program perf
	# samples; interval from the Poisson counts (log-ratio, normal)
	paste -d' ' "$tmp/$w.ms" "$tmp/$w.gp" | awk -v w="$w" '
		{ am += $5; at += $6; gm += $11; gt += $12 }
		END {
			if (am < 1 || gm < 1) { printf "%-8s pooled: too few samples\n", w; exit }
			r = (am / at) / (gm / gt); se = sqrt(1 / am + 1 / gm)
			printf "%-8s pooled shares: ms %.3f%% (%d of %d perf samples), gp %.3f%% (%d of %d); ms/gp %.2f [%.2f, %.2f]\n",
				w, 100 * am / at, am, at, 100 * gm / gt, gm, gt, r, r * exp(-1.96 * se), r * exp(1.96 * se) }'
done
