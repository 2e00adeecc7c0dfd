#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample and signals.  A program that dies of SIGSEGV after burning
# (test/programs/segv) makes mapsample exit 139, and its samples and its
# "signal 11" exit are in the report, also when the SIGSEGV is a stack
# overflow (no stack for a handler: mapsample records the exit).  A
# program killed with SIGKILL (test/programs/spinforever) makes mapsample
# exit 137, the samples taken before the kill are read from chunks that
# were never sealed, and its "signal 9" exit is in the report.  A
# program that profiles itself with its own SIGPROF handler and
# setitimer(ITIMER_PROF) (test/programs/sigprof) still gets its signals,
# and is still sampled; with --signal PROF too (the samples move to a
# free signal, with one line saying so).  A program that reads its signal dispositions
# (test/programs/sigview) sees what it sees without mapsample (the
# sampler's own handlers for fatal signals are hidden, and signals it
# inherits ignored stay ignored), its own handlers and SIG_IGN take
# effect, and a SIGABRT it left at, or set back to,
# SIG_DFL is still recorded as its exit.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
# a failed SIGKILL case leaves the program spinning: kill it and mapsample
cleanup() {
	if [ -n "${bg:-}" ]; then
		[ ! -s "$tmp/pid" ] || kill -KILL "$(cat "$tmp/pid")" 2>/dev/null || true
		kill -TERM "$bg" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# no core files from the crash cases
ulimit -c 0 2>/dev/null || true

# crash NAME ARGS...: test/programs/segv ARGS dies of SIGSEGV: mapsample
# exits 139, and the samples before the crash and the "signal 11" exit
# are in the report
crash() {
	name=$1
	shift
	sample "$name" -F 1000 -- "$programs/segv" "$@"
	[ "$rc" = 139 ] || { show "$tmp/$name.err"; fail "$name: mapsample exited $rc, expected 139"; }
	report "$name"
	n=$(samples "$name")
	[ "$n" -gt 0 ] || { show "$tmp/$name.report"; fail "$name: no samples"; }
	[ "$(func_self "$name" burn_before_crash)" -gt 0 ] || {
		show "$tmp/$name.report"
		fail "$name: burn_before_crash not in the report"
	}
	processes "$name" >"$tmp/procs"
	grep -q ' signal 11$' "$tmp/procs" || {
		show "$tmp/$name.report"
		fail "$name: the Processes table does not show 'signal 11'"
	}
}

test_sigkill() {
	"$mapsample" -q -F 1000 -o "$tmp/kill.log" -- \
		"$programs/spinforever" "$tmp/pid" </dev/null >"$tmp/kill.out" \
		2>"$tmp/kill.err" &
	bg=$!
	i=0
	while [ ! -s "$tmp/pid" ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || fail "sigkill: the program did not start in 20 s"
		sleep 0.1
	done
	sleep 1
	kill -KILL "$(cat "$tmp/pid")"
	rc=0
	wait "$bg" || rc=$?
	bg=
	[ "$rc" = 137 ] || { show "$tmp/kill.err"; fail "sigkill: mapsample exited $rc, expected 137"; }
	report kill
	n=$(samples kill)
	[ "$n" -gt 0 ] || { show "$tmp/kill.report"; fail "sigkill: no samples before the kill"; }
	[ "$(func_self kill burn_forever)" -gt 0 ] || {
		show "$tmp/kill.report"
		fail "sigkill: burn_forever not in the report"
	}
	processes kill >"$tmp/procs"
	grep -q ' signal 9$' "$tmp/procs" || {
		show "$tmp/kill.report"
		fail "sigkill: the Processes table does not show 'signal 9'"
	}
}

test_sigprof() {
	sample sigprof -F 1000 -- "$programs/sigprof" 1000
	[ "$rc" = 0 ] || { show "$tmp/sigprof.out" "$tmp/sigprof.err"; fail "sigprof: mapsample exited $rc"; }
	calls=$(sed -n 's/^sigprof handler calls: \([0-9]*\)$/\1/p' "$tmp/sigprof.out")
	# 1 s of CPU: ITIMER_PROF fires on the kernel's tick, 100 to 1000
	# times (250 here); none if the sampler took the program's signal
	[ -n "$calls" ] && [ "$calls" -gt 50 ] || {
		show "$tmp/sigprof.out"
		fail "sigprof: the program's own SIGPROF handler ran ${calls:-0} times, expected over 50"
	}
	report sigprof
	n=$(samples sigprof)
	[ "$n" -gt 0 ] || { show "$tmp/sigprof.report"; fail "sigprof: no samples"; }
	[ "$(func_self sigprof burn_profiled)" -gt 0 ] || {
		show "$tmp/sigprof.report"
		fail "sigprof: burn_profiled not in the report"
	}
	! grep -q 'carried the samples' "$tmp/sigprof.err" || {
		show "$tmp/sigprof.err"
		fail "sigprof: a warning about the sampling signal, which the program does not use"
	}
	# --signal PROF, the program's own signal: the samples move to a
	# free signal as it installs its handler, which then gets them all
	sample sigprof-taken --signal PROF -- "$programs/sigprof" 200
	[ "$rc" = 0 ] || { show "$tmp/sigprof-taken.err"; fail "sigprof --signal PROF: mapsample exited $rc"; }
	calls=$(sed -n 's/^sigprof handler calls: \([0-9]*\)$/\1/p' "$tmp/sigprof-taken.out")
	[ -n "$calls" ] && [ "$calls" -gt 10 ] || {
		show "$tmp/sigprof-taken.out"
		fail "sigprof --signal PROF: the program's own SIGPROF handler ran ${calls:-0} times, expected over 10"
	}
	grep -q "installs a handler for signal $(kill -l PROF 2>/dev/null || echo 27), which carried the samples; they come on signal" \
		"$tmp/sigprof-taken.err" || {
		show "$tmp/sigprof-taken.err"
		fail "sigprof --signal PROF: no line saying the samples moved"
	}
}

test_sigview() {
	set +e
	"$programs/sigview" abort </dev/null >"$tmp/view.bare" 2>/dev/null
	brc=$?
	set -e
	sample view -- "$programs/sigview" abort
	sigview_same view "$brc"
	# signals ignored when mapsample starts (nohup, a background job)
	# stay ignored in the program
	set +e
	(trap '' INT HUP QUIT; exec "$programs/sigview" abort) </dev/null \
		>"$tmp/ign.bare" 2>/dev/null
	brc=$?
	set -e
	grep -q '^HUP: ignore' "$tmp/ign.bare" ||
		fail "sigview: the shell could not start it with SIGHUP ignored"
	set +e
	(trap '' INT HUP QUIT; exec "$mapsample" -q -o "$tmp/ign.log" -- \
		"$programs/sigview" abort) </dev/null >"$tmp/ign.out" 2>"$tmp/ign.err"
	rc=$?
	set -e
	sigview_same ign "$brc"
}

# sigview_same NAME BARE_RC: the run under mapsample saw the dispositions
# of the bare run, died of SIGABRT as it did, and the report says so
sigview_same() {
	brc=$2
	[ "$rc" = "$brc" ] && [ "$rc" = 134 ] || {
		show "$tmp/$1.err"
		fail "sigview ($1): mapsample exited $rc, the program alone $brc (expected 134)"
	}
	cmp -s "$tmp/$1.bare" "$tmp/$1.out" || {
		show "$tmp/$1.bare" "$tmp/$1.out"
		fail "sigview ($1): the program saw other signal dispositions under mapsample"
	}
	report "$1"
	grep -q 'signal 6' "$tmp/$1.report" || {
		show "$tmp/$1.report"
		fail "sigview ($1): the SIGABRT exit is not in the report"
	}
}

need_programs segv spinforever sigprof sigview
crash segv 300
crash overflow 200 overflow
test_sigkill
test_sigprof
test_sigview
echo "mapsample-signals: all cases passed"
