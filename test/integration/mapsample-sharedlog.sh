#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Runs on one log name (issue 13, item 1).  A second run given the -o of
# a run still going must not cut the log the first run has mapped (the
# first program died of SIGBUS): it takes NAME-2.EXT and says so in one
# line, and both programs end with their own status, each log holding its
# own run.  Four runs started at once on one name (mpirun -np 4
# mapsample -o same.log) all end normally with four logs and three
# lines.  A log no run holds is replaced as before.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() {
	[ -z "${bg:-}" ] || kill -TERM "$bg" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
need_programs cpuburn

# run LOG ERR MS STATUS: mapsample -q -o LOG on a shell that burns MS ms
# of CPU at 1000 Hz and exits STATUS; mapsample's stderr in ERR
run() {
	"$mapsample" -q -F 1000 -o "$1" -- \
		sh -c "\"$programs/cpuburn\" $3; exit $4" </dev/null \
		>/dev/null 2>"$2"
}

# has_run LOG MS: mapreport reads LOG cleanly and its cpuburn MS process
# has samples
has_run() {
	"$mapreport" "$1" >"$tmp/rep" 2>"$tmp/rerr" || {
		show "$tmp/rerr"
		fail "$1: mapreport exited $?"
	}
	awk -v ms="$2" '$NF == ms && $3 > 0 { f = 1 } END { exit !f }' \
		"$tmp/rep" || { show "$tmp/rep"; fail "$1: no cpuburn $2 samples"; }
}

test_overlap() {
	cd "$tmp"
	set +e
	(run same.log a.err 1500 3; echo $? >a.rc) &
	bg=$!
	# the first run has its log made and mapped
	i=0
	while [ ! -s same.log ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	sleep 0.3
	run same.log b.err 300 5
	brc=$?
	wait "$bg"
	bg=
	set -e
	arc=$(cat a.rc)
	[ "$arc" = 3 ] || { show a.err; fail "first run exited $arc, expected 3 (135: SIGBUS)"; }
	[ "$brc" = 5 ] || { show b.err; fail "second run exited $brc, expected 5"; }
	grep -qx "mapsample: same.log: in use by another run; this run's log is same-2.log" b.err ||
		{ show b.err; fail "second run: no line naming its log"; }
	! grep -q "^mapsample:" a.err || { show a.err; fail "first run: a line from mapsample"; }
	has_run same.log 1500
	has_run same-2.log 300
	# over a log no run holds: replaced, no line
	run same.log c.err 100 0
	! grep -q "^mapsample:" c.err || { show c.err; fail "a stale log gave a line"; }
	has_run same.log 100
	cd - >/dev/null
}

test_four() {
	mkdir "$tmp/four"
	cd "$tmp/four"
	for i in 1 2 3 4; do
		(set +e; run same.log $i.err 300 $i; echo $? >$i.rc) &
	done
	wait
	for i in 1 2 3 4; do
		[ "$(cat $i.rc)" = $i ] ||
			{ show $i.err; fail "rank $i exited $(cat $i.rc), expected $i"; }
	done
	[ "$(cat ./*.err | grep -c 'in use by another run')" = 3 ] ||
		{ show ./*.err; fail "four runs: not three lines naming the logs"; }
	for f in same.log same-2.log same-3.log same-4.log; do
		has_run "$f" 300
	done
	[ "$(ls -A | grep -c '^\.')" = 0 ] || { ls -A; fail "temporary files left"; }
	cd - >/dev/null
}

test_overlap
test_four
