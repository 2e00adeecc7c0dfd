#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Wall-clock sampling (--wall) must not change the program (issue 13,
# item 2): test/programs/sleeper runs 1 ms of CPU time and sleeps 1 ms
# per iteration with a nanosleep it does not retry, while more threads
# wait in poll() and sem_timedwait(), and counts the calls that ended
# early (EINTR).  Under --wall every count must be 0 (a sampler that
# signals blocked threads cuts about one call in two short), and the
# blocked threads must still show where they block: nanosleep under
# nap_part under main, with 30 to 85% of the main thread's samples (half
# its time; a sleep overshoots a little, and on a loaded machine it also
# counts the wait for a CPU after the wake-up, which the busy part's
# preemptions do not: 76-80% at a load average of 22 on 2 CPUs); poll
# under poll_wait and the semaphore's wait under sem_wait_part, each
# with about as many samples as the main thread (they wait all the
# time); so does poll under 300 frames of deep() (a stack of about
# 150 KB, whose unwind reads more pages than the sampler keeps: it once
# died of SIGBUS there).  The same holds at -F 1000; with --timer=posix,
# whose CPU-time timer is checked only on scheduler ticks that find the
# thread running, the 1 ms busy bursts get too few samples
# (mapsample(1), --timer), so only the counts and the stacks are
# checked; in CPU mode, only the counts, at the default rate and at
# -F 1000 and 4000 (where --timer perf, counting kernel time too, cut
# 1 nanosleep, 22 poll and 7 sem_timedwait calls short in 5 runs at
# -F 1000: its signal comes as the counter overflows, also inside a
# system call just before the thread sleeps).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# no_eintr NAME: sleeper's counts of early returns, all 0.
no_eintr() {
	line=$(grep '^sleeper: eintr' "$tmp/$1.out") || {
		show "$tmp/$1.out" "$tmp/$1.err"
		fail "$1: sleeper printed no counts"
	}
	set -- "$1" $line
	[ "$5" = 0 ] && [ "$7" = 0 ] && [ "$9" = 0 ] || {
		show "$tmp/$1.out"
		fail "$1: calls ended early under mapsample (nanosleep $5, poll $7, sem_timedwait $9 EINTR)"
	}
}

# folded_sum NAME PATTERN: samples of the folded stacks matching PATTERN.
folded_sum() {
	awk -v re="$2" '$1 ~ re { n += $NF } END { print n + 0 }' \
		"$tmp/$1.folded"
}

# wall NAME ratio|noratio MAPSAMPLE-OPTIONS...: sleeper under --wall
# and the checks (the main thread's split only with ratio).
wall() {
	name=$1
	ratio=$2
	shift 2
	sample "$name" --wall "$@" -- "$programs/sleeper" 500
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: mapsample exited $rc"; }
	no_eintr "$name"
	report "$name" --folded="$tmp/$name.folded"
	nap=$(folded_sum "$name" ';main;nap_part;[^;]*nanosleep')
	busy=$(folded_sum "$name" ';main;busy_part(;|$)')
	pollw=$(folded_sum "$name" ';poll_thread;poll_wait;[^;]*poll')
	semw=$(folded_sum "$name" ';sem_thread;sem_wait_part;.*(sem|futex)')
	deepw=$(folded_sum "$name" ';deep;deep;.*;deep;poll_wait;[^;]*poll')
	main=$((nap + busy))
	[ "$busy" -gt 0 ] && [ "$nap" -gt 0 ] || {
		show "$tmp/$name.folded"
		fail "$name: main;nap_part;...nanosleep has $nap samples and main;busy_part $busy"
	}
	[ "$ratio" = noratio ] ||
	check "$nap >= 0.30 * $main && $nap <= 0.85 * $main" || {
		show "$tmp/$name.folded"
		fail "$name: nanosleep under nap_part has $nap of the main thread's $main samples, expected about half"
	}
	check "$pollw >= 0.5 * $main && $semw >= 0.5 * $main &&
	       $deepw >= 0.5 * $main" || {
		show "$tmp/$name.folded"
		fail "$name: poll under poll_wait has $pollw samples, the semaphore's wait under sem_wait_part $semw, poll under deep() $deepw, expected about $main each"
	}
}

need_programs sleeper
wall wall ratio
wall wall-1k ratio -F 1000
wall wall-posix noratio --timer=posix
# CPU time with the default timers: no EINTR either
for f in 250 1000 4000; do
	sample cpu-$f -F $f -- "$programs/sleeper" 500
	[ "$rc" = 0 ] || { show "$tmp/cpu-$f.err"; fail "cpu-$f: mapsample exited $rc"; }
	no_eintr cpu-$f
done
echo "mapsample-wall: all cases passed"
