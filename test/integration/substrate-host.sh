#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# substrate-host: the sampler's host of substrate plugins
# (mapsample-substrate(3)) with the test plugin test/plugins/subtest.c and
# the shipped print_events plugin:
#   - order: call order and per-location data slots under 16 threads, and
#     across fork and exec (forkexec), no error reported by the plugin;
#   - _exit: fork children that _exit get PROGRAM_END and finalize;
#   - count: every sample in the log delivered or counted as dropped;
#   - the log's own losses (marks lost to a full log) told as DROP
#     events that add up to the log's counts;
#   - init failure: the run goes on, the plugin's message is shown;
#   - a plugin built for a newer interface, and one with an undeclared[]
#     slot set: refused with one line, the run goes on;
#   - a plugin that sleeps 20 ms in every deferred SAMPLE event: the
#     program's wall time stays within noise of a run without it and the
#     dropped events are counted (DROP events, stderr line);
#   - in-handler samples under 16 threads at 2 kHz for 10 s: no deadlock,
#     samples taken;
#   - print_events: as many SAMPLE lines as mapreport counts samples,
#     METRIC lines with their units, region entries and exits as mapreport counts regions;
#   - --list-substrates names print_events, after reading the options
#     that follow it (a bad one is said); an unknown name is refused;
#   - latency: a mark made by a thread that then sleeps reaches the
#     plugin while the thread still sleeps (the host gathers records in
#     a batch per thread: a dispatcher sends on a batch left waiting).
set -eu

top_builddir=${top_builddir:-.}
mapsample=$top_builddir/cmd/mapsample/mapsample
mapreport=$top_builddir/cmd/mapreport/mapreport
libs=$top_builddir/test/plugins/.libs
progs=$top_builddir/test/programs
sub=$libs/libmapsample_substrate_subtest.so

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# every finalize line of the plugin says errors=0
check_out() {
	[ -s "$tmp/out" ] || fail "$1: the plugin's finalize wrote nothing"
	if grep -v ' errors=0 ' "$tmp/out"; then
		fail "$1: the plugin saw errors (above)"
	fi
}

case_order() {
	rm -f "$tmp/out"
	SUBTEST_MODE=order SUBTEST_OUT=$tmp/out \
		"$mapsample" -q -F 1000 -o "$tmp/o.maplog" --substrate "$sub" \
		-- "$progs/threadsrun" 16 1 2>"$tmp/err" || fail "order: threadsrun failed: $(cat "$tmp/err")"
	check_out order
	grep -q ' locations=17 ' "$tmp/out" || fail "order: not 17 locations: $(cat "$tmp/out")"
	rm -f "$tmp/out"
	rc=0
	SUBTEST_MODE=order SUBTEST_OUT=$tmp/out \
		"$mapsample" -q -o "$tmp/f.maplog" --substrate "$sub" \
		-- "$progs/forkexec" 100 2>"$tmp/err" || rc=$?
	[ "$rc" = 4 ] || fail "order: forkexec exited $rc: $(cat "$tmp/err")"
	check_out fork
	[ "$(wc -l <"$tmp/out")" = 3 ] || fail "fork: not 3 process images: $(cat "$tmp/out")"
	grep -q "wrote /nonexistent/subtest.txt: nothing really" "$tmp/err" ||
		fail "order: the manifest line is not shown"
}

case_refused() {
	rm -f "$tmp/out"
	SUBTEST_MODE=initfail SUBTEST_OUT=$tmp/out "$mapsample" -q \
		-o "$tmp/i.maplog" --substrate "$sub" -- "$progs/hot" 2>"$tmp/err" ||
		fail "initfail: the run failed: $(cat "$tmp/err")"
	grep -q "substrate plugin subtest .*init failed: subtest was told to fail (SUBTEST_MODE); the run goes on without it" "$tmp/err" ||
		fail "initfail: no message: $(cat "$tmp/err")"
	[ ! -e "$tmp/out" ] || fail "initfail: the refused plugin was finalized"
	"$mapreport" "$tmp/i.maplog" >/dev/null 2>&1 || fail "initfail: no log"
	"$mapsample" -q -o "$tmp/n.maplog" \
		--substrate "$libs/libmapsample_substrate_subnew.so" \
		-- "$progs/hot" 2>"$tmp/err" || fail "subnew: the run failed"
	grep -q "substrate plugin subnew .*built for interface version 99, this mapsample knows 1" "$tmp/err" ||
		fail "subnew: not refused: $(cat "$tmp/err")"
	MAPSAMPLE_SUBSTRATE_PLUGINS=$libs/libmapsample_substrate_subundecl.so \
		"$mapsample" -q -o "$tmp/u.maplog" -- "$progs/hot" 2>"$tmp/err" ||
		fail "subundecl: the run failed"
	grep -q "substrate plugin subundecl .*undeclared\[3\] is set" "$tmp/err" ||
		fail "subundecl: not refused: $(cat "$tmp/err")"
	if "$mapsample" -q -o "$tmp/x.maplog" --substrate nosuchplugin \
		-- "$progs/hot" 2>"$tmp/err"; then
		fail "unknown plugin name accepted"
	fi
	grep -q "no libmapsample_substrate_nosuchplugin.so" "$tmp/err" ||
		fail "unknown name: $(cat "$tmp/err")"
	"$mapsample" --list-substrates | grep -q '^print_events ' ||
		fail "--list-substrates does not name print_events"
	# the options after it are read, and a bad one is said
	set +e
	"$mapsample" --list-substrates --no-such-option >/dev/null 2>"$tmp/ls.err"
	lrc=$?
	set -e
	[ "$lrc" = 125 ] && grep -q 'unknown option --no-such-option' "$tmp/ls.err" ||
		{ show "$tmp/ls.err"; fail "--list-substrates --no-such-option: exit $lrc, the bad option not said"; }
}

wall() {
	s=$(date +%s%N)
	"$@"
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}

case_sleep() {
	rm -f "$tmp/out"
	base=$(wall "$mapsample" -q -F 1000 -o "$tmp/b.maplog" \
		-- "$progs/threadsrun" 4 2 2>/dev/null)
	slow=$(SUBTEST_MODE=sleep SUBTEST_OUT=$tmp/out wall "$mapsample" -q \
		-F 1000 -o "$tmp/s.maplog" --substrate "$sub" \
		-- "$progs/threadsrun" 4 2 2>"$tmp/err")
	echo "sleep: without plugin ${base} ms, with a sleeping plugin ${slow} ms"
	# the end waits at most 200 ms for the backlog, plus one sleep
	[ "$slow" -lt $((base + 600)) ] ||
		fail "sleep: wall time ${slow} ms against ${base} ms"
	check_out sleep
	grep -q ' drops=[1-9]' "$tmp/out" || fail "sleep: no DROP event: $(cat "$tmp/out")"
	grep -q "substrate plugin subtest fell behind in pid .*events dropped" "$tmp/err" ||
		fail "sleep: no stderr line: $(cat "$tmp/err")"
}

case_handler() {
	rm -f "$tmp/out"
	SUBTEST_MODE=handler SUBTEST_OUT=$tmp/out timeout 60 "$mapsample" -q \
		-F 2000 -o "$tmp/h.maplog" --substrate "$sub" \
		-- "$progs/threadsrun" 16 10 2>"$tmp/err" ||
		fail "handler: run failed or hung: $(cat "$tmp/err")"
	check_out handler
	grep -q ' samples=[1-9][0-9][0-9]' "$tmp/out" ||
		fail "handler: few in-handler samples: $(cat "$tmp/out")"
}

case_print_events() {
	MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/pe.txt "$mapsample" -q \
		-o "$tmp/p.maplog" --substrate print_events \
		-- "$progs/threadsrun" 4 1 2>/dev/null || fail "print_events: run failed"
	n=$(grep -c ' SAMPLE ' "$tmp/pe.txt" || true)
	m=$("$mapreport" --json "$tmp/p.maplog" | python3 -c \
		'import json,sys; print(json.load(sys.stdin)["summary"]["samples"])')
	[ "$n" -gt 0 ] && [ "$n" = "$m" ] ||
		fail "print_events: $n SAMPLE lines, mapreport counts $m"
	grep -q ' PROGRAM_BEGIN ' "$tmp/pe.txt" && grep -q ' PROGRAM_END ' "$tmp/pe.txt" &&
		[ "$(grep -c ' THREAD_BEGIN ' "$tmp/pe.txt")" = 4 ] ||
		fail "print_events: begin/end lines missing"
	grep -q ' METRIC com\.mapsample\.metrics\.' "$tmp/pe.txt" ||
		fail "print_events: no METRIC lines"
	# the units callback (handle_get_units): the cpu plugin's are %
	grep -q ' METRIC com\.mapsample\.metrics\.cpu\.user [0-9.e+-]* %$' "$tmp/pe.txt" ||
		fail "print_events: no units on the METRIC lines: $(grep -m3 ' METRIC ' "$tmp/pe.txt")"
	# marks and regions: as many region entries and exits as mapreport
	# counts regions, and the point mark
	MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/pm.txt "$mapsample" -q \
		-o "$tmp/m.maplog" --substrate print_events \
		-- "$progs/marks" >/dev/null 2>&1 || fail "print_events: marks failed"
	r=$("$mapreport" --json "$tmp/m.maplog" | python3 -c \
		'import json,sys; print(sum(r["count"] for r in json.load(sys.stdin)["regions"]))')
	[ "$(grep -c ' REGION_ENTER ' "$tmp/pm.txt")" = "$r" ] &&
		[ "$(grep -c ' REGION_EXIT ' "$tmp/pm.txt")" = "$r" ] &&
		grep -q ' MARK between$' "$tmp/pm.txt" ||
		fail "print_events: regions/marks differ from mapreport's $r: $(grep -e REGION -e MARK "$tmp/pm.txt")"
}

# A thread that marks and then sleeps (python3 calling the sampler's
# mapsample_mark through ctypes, then time.sleep(6)): the MARK line is in
# print_events' file within 3 s, while the program still sleeps; the host
# keeps records back in a per-thread batch until it is full or old, and
# the thread puts nothing more, so only the dispatcher's flush of a batch
# left waiting can send it on in time (--metrics none: no idle tick's
# metric values put after it, which would send the batch on too).
case_latency() {
	py=/usr/bin/python3
	[ -x "$py" ] || py=python3
	rm -f "$tmp/lat.txt"
	MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/lat.txt "$mapsample" -q \
		-o "$tmp/lat.maplog" --metrics none --substrate print_events -- "$py" -c '
import ctypes, time
ctypes.CDLL(None).mapsample_mark(b"early")
time.sleep(6)
' 2>"$tmp/lat.err" &
	lat_pid=$!
	got=0
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		sleep 0.25
		if grep -q ' MARK early$' "$tmp/lat.txt" 2>/dev/null; then
			got=1
			break
		fi
	done
	wait "$lat_pid" || fail "latency: the run failed: $(cat "$tmp/lat.err")"
	[ "$got" = 1 ] || fail "latency: the mark did not reach the plugin within 3 s of a 6 s sleep (at the end: $(grep -c ' MARK early$' "$tmp/lat.txt" || true))"
}

# A fork child that ends with _exit still gets PROGRAM_END and the last
# calls (on the plugin's own thread): forkdl forks 5 children that burn
# and _exit(0); every one of the 6 processes writes its finalize line
# with no order error, and print_events has one PROGRAM_END per process.
case_exit() {
	rm -f "$tmp/out" "$tmp/ex.txt"
	SUBTEST_MODE=order SUBTEST_OUT=$tmp/out \
		"$mapsample" -q -o "$tmp/x.maplog" --substrate "$sub" \
		-- "$progs/forkdl" libm.so.6 5 2>"$tmp/err" || fail "_exit: forkdl failed: $(cat "$tmp/err")"
	check_out _exit
	[ "$(wc -l <"$tmp/out")" = 6 ] ||
		fail "_exit: $(wc -l <"$tmp/out") processes finalized, want 6: $(cat "$tmp/out")"
	MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/ex.txt "$mapsample" -q \
		-o "$tmp/x.maplog" --substrate print_events \
		-- "$progs/forkdl" libm.so.6 5 2>/dev/null || fail "_exit: forkdl with print_events failed"
	n=$(grep ' PROGRAM_END status 0$' "$tmp/ex.txt" | cut -d' ' -f2 | cut -d: -f1 | sort -u | wc -l)
	[ "$n" = 6 ] && [ "$(grep -c ' PROGRAM_END ' "$tmp/ex.txt")" = 6 ] ||
		fail "_exit: PROGRAM_END in $n distinct processes, want 6: $(grep PROGRAM_END "$tmp/ex.txt")"
}

# Every sample in the log is delivered or counted as dropped: print_events'
# SAMPLE lines plus its DROP counts equal mapreport's samples, run after
# run, with threads still burning at the end (the end used to lose a
# sample taken while the plugins were being ended in about 1 run in 3).
case_count() {
	for i in 1 2 3 4 5 6; do
		rm -f "$tmp/pc.txt"
		MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/pc.txt "$mapsample" -q -F 4000 \
			-o "$tmp/c.maplog" --substrate print_events \
			-- "$progs/threadsrun" 3 1 2>/dev/null || fail "count: run $i failed"
		# samples delivered, and those the host dropped (not the
		# log's own losses, reasons below 1000: not in its samples)
		n=$(awk '$3 == "SAMPLE" { n++ }
			$3 == "DROP" { r = $4; sub("reason=", "", r)
				if (r + 0 >= 1000) { sub("count=", "", $5); n += $5 } }
			END { print n + 0 }' "$tmp/pc.txt")
		m=$("$mapreport" --json "$tmp/c.maplog" | python3 -c \
			'import json,sys; print(json.load(sys.stdin)["summary"]["samples"])')
		[ "$n" -gt 0 ] && [ "$n" = "$m" ] ||
			fail "count: run $i: $n samples delivered or dropped, mapreport counts $m"
	done
}

# The log's own losses reach the plugins as DROP events: markstorm's
# marks under a file size limit are lost once the log is full, and the
# plugin's DROP events of the log's reasons add up to the report's
# "Dropped" and "Marks lost".
case_logdrops() {
	rm -f "$tmp/out"
	(ulimit -f 2048; SUBTEST_MODE=order SUBTEST_OUT=$tmp/out "$mapsample" -q \
		-F 100 -o "$tmp/ld.maplog" --substrate "$sub" \
		-- "$progs/markstorm" 4 20000 >/dev/null 2>"$tmp/ld.err") ||
		fail "logdrops: markstorm under a file size limit failed: $(cat "$tmp/ld.err")"
	check_out logdrops
	got=$(sed -n 's/.* logdrops=\([0-9]*\) .*/\1/p' "$tmp/out")
	want=$("$mapreport" --json "$tmp/ld.maplog" 2>/dev/null | python3 -c \
		'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["dropped"] + s["marks_lost"])')
	[ -n "$got" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ] ||
		fail "logdrops: the plugin was told of ${got:-no} losses, the log counts $want"
	echo "logdrops: $got losses told, as the log counts"
}

case_order
case_logdrops
case_exit
case_count
case_refused
case_print_events
case_sleep
case_handler
case_latency
echo PASS
