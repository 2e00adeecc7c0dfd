#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-orphans: the program never outlives mapsample (issue 14
# item 6).  A signal sent to mapsample alone whose default action ends a
# process (SIGUSR1, SIGUSR2, SIGALRM, SIGTERM) is passed on to the
# program: the program ends of it and mapsample exits 128+N, as the
# program did.  When mapsample itself is killed (SIGKILL: nothing can be
# passed on), the program gets SIGKILL through PR_SET_PDEATHSIG.  Before,
# SIGUSR1, SIGUSR2 and SIGALRM killed mapsample and left the program
# running, orphaned.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
bg=
cleanup() {
	[ ! -s "$tmp/pid" ] || kill -KILL "$(cat "$tmp/pid")" 2>/dev/null || true
	[ -z "$bg" ] || kill -KILL "$bg" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
. "$here/mapsample-lib.sh"

# start: mapsample on a shell that writes its pid and becomes sleep 60;
# waits until the program runs.  Sets bg (mapsample) and prog.
start() {
	rm -f "$tmp/pid"
	"$mapsample" -q -o "$tmp/run.log" -- \
		sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && exec sleep 60' \
		sh "$tmp/pid" </dev/null >/dev/null 2>"$tmp/err" &
	bg=$!
	i=0
	while [ ! -s "$tmp/pid" ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || { show "$tmp/err"; fail "the program did not start in 20 s"; }
		sleep 0.1
	done
	prog=$(cat "$tmp/pid")
}

# gone PID: true once PID has ended (waits up to 10 s).
gone() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 100 ] || return 1
		sleep 0.1
	done
}

# signal numbers on Linux (dash's kill -l does not map names to numbers)
for pair in USR1:10 USR2:12 ALRM:14 TERM:15; do
	sig=${pair%:*}
	start
	kill -"$sig" "$bg"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	want=$((128 + ${pair#*:}))
	gone "$prog" || fail "SIG$sig to mapsample: the program ($prog) still runs"
	[ "$rc" = "$want" ] || { show "$tmp/err"; fail "SIG$sig: mapsample exited $rc, not $want"; }
	echo "ok - SIG$sig to mapsample: passed on, the program ended of it ($rc)"
done

start
kill -KILL "$bg"
wait "$bg" 2>/dev/null || true
bg=
gone "$prog" || fail "SIGKILL to mapsample: the program ($prog) still runs"
echo "ok - SIGKILL to mapsample: the program ended with it"
rm -f "$tmp/pid"
