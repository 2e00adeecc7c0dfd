#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-kernel.sh: time spent in the kernel is a frame of its own.
# test/programs/syswork spends about half its CPU time in read(2)s of
# /dev/zero and says its own user and system time (getrusage) and the
# CPU time its read(2)s took.  A sample taken while the kernel worked for
# a system call must get the frame "[kernel] read" below the user frame
# that made the call (libc's read), and that frame's share of the
# samples must be the share of the CPU time spent in read(2) within 5
# points (at 1000 Hz, some 2000 samples: one binomial sigma is about 1.1
# points).  That share is measured on the thread's CPU clock, which is
# exact; getrusage's system time, printed too, is the CPU time split at
# the kernel's ticks (250 a second: 2 points of noise in 2 s alone, 7
# points apart once under a full make check).  Before, those samples were charged to
# libc's read itself, and no kernel frame existed.  A busy loop in user
# space gets no kernel frame; --no-kernel-frames gives the
# samples back to read; the JSON report names the frame.  Under --wall
# the same holds: a thread that works in the kernel is running, not
# blocked, and its system time is sampled by the default's POSIX timer
# (with the perf event alone, which never counts kernel time under
# --wall, "[kernel] read" had 0.6% of the samples and the run half the
# samples its wall time called for).  Kernel work that is not a system
# call stays with the user instruction that caused it: syswork's
# touch_part writes to pages just mapped (a page fault each), and its
# share of the samples must be its share of the CPU time within 5
# points, without a kernel frame (the default's POSIX timer keeps the
# ticks that found the thread in the kernel by its system time; when it
# kept only those in system calls, touch_part had 4.1% of the samples
# for 33% of the CPU time).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# share NAME LAST: the % of the folded stacks of $tmp/NAME.report whose
# last frame is LAST.
share() {
	awk -v last="$2" '{ n = $NF; $NF = ""; sub(/ $/, "");
		k = split($0, f, ";"); all += n; if (f[k] == last) hit += n }
		END { printf "%.2f\n", all ? 100 * hit / all : 0 }' \
		"$tmp/$1.report"
}

# sys_share NAME: the program's CPU time in its read(2)s in % of its CPU
# time, from what syswork wrote on standard error; getrusage's system
# share after it.
sys_share() {
	awk '$1 == "syswork:" && $2 == "user" {
		printf "%.2f %.2f\n", 100 * $7 / $9, 100 * $5 / ($3 + $5) }' \
		"$tmp/$1.err"
}

need_programs syswork

# run NAME MODE MIN LEAF [MAPSAMPLE-OPTIONS...]: syswork MODE 2 under
# mapsample -F 1000 and the folded report; $sys is the % of its CPU time
# in its read(2)s (touch_part with faults), at least MIN, $rusage
# getrusage's system share, and the stacks ending in LEAF (the part's
# frame) must hold $sys% of the samples within 5 points ($kern; more on a
# loaded machine, below), at the first run or at a second.
run() {
	name=$1 mode=$2 min=$3 leaf=$4
	shift 4
	sample "$name" -F 1000 "$@" -- "$programs/syswork" "$mode" 2
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: mapsample exited $rc"; }
	report "$name" --folded
	shares=$(sys_share "$name")
	[ -n "$shares" ] || { show "$tmp/$name.err"; fail "$name: syswork said no CPU times"; }
	sys=${shares% *}
	rusage=${shares#* }
	check "$sys >= $min" || fail "$name: syswork spent only $sys% in its $mode part; the case needs $min% or more"
	kern=$(share "$name" "$leaf")
	# 5 points on a machine with cores to spare; past the cores' load
	# the samples undercount the kernel's part more (36.7% for 42.1% at
	# load 6, 29.9% for 37.5% at load 5.4, on 2 cores under make check,
	# 2026-11-28: a bias of the sampler under load, not of the report):
	# 2 points more for each core's worth of load past the cores, 10 at
	# most
	band=$(awk -v l="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)" \
		-v c="$(nproc 2>/dev/null || echo 1)" 'BEGIN {
		b = l > c ? 5 + 2 * (l / c - 1) : 5; printf "%.1f\n", (b > 10 ? 10 : b) }')
	check "($kern - $sys) <= $band && ($sys - $kern) <= $band" && return 0
	# a share is a measure: once outside the band (as under a machine
	# loaded far past its cores), the case is run again, and must then
	# be inside it
	if [ -z "${again:-}" ]; then
		echo "$name: $leaf holds $kern% of the samples for $sys% of the CPU time (band $band points); running it again"
		again=1
		run "$name" "$mode" "$min" "$leaf" "$@"
		again=
		return 0
	fi
	show "$tmp/$name.report"
	fail "$name: $leaf holds $kern% of the samples; the program spent $sys% of its CPU time there (getrusage: $rusage% system time), twice (band $band points)"
}

case_mixed() {
	run mixed mixed 20 "[kernel] read"
	# below libc's read, the user frame that entered the kernel
	grep -q ';read;\[kernel\] read [0-9]*$' "$tmp/mixed.report" || {
		show "$tmp/mixed.report"
		fail "no stack ends read;[kernel] read"
	}
	# every kernel frame is named after the libc function that made the
	# call (read, getrusage, write; __close for close, whose global
	# symbol glibc names so, as perf does): the number was read right
	if grep '\[kernel\]' "$tmp/mixed.report" |
		grep -Ev ';_*([a-z0-9_]+);\[kernel\] \1 [0-9]+$' >"$tmp/odd"; then
		show "$tmp/mixed.report"
		fail "kernel frames not under the function of their name: $(cat "$tmp/odd")"
	fi
	echo "mixed: [kernel] read $kern% of the samples; CPU time in read(2) $sys%, getrusage's system time $rusage%"
}

case_text_json() {
	report mixed
	awk '$0 == "Top functions by self samples" { s = 1; next }
		s && NF == 0 { exit }
		s && $5 == "[kernel]" && $6 == "read" { found = 1 }
		END { exit !found }' "$tmp/mixed.report" || {
		show "$tmp/mixed.report"
		fail "no [kernel] read row in the text report's self table"
	}
	report mixed --json
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
if not any(f["name"] == "[kernel] read" and f["module"] == "[kernel]"
	   and f["self"] > 0 for f in d["top_self"]):
	sys.exit("no [kernel] read in top_self")' "$tmp/mixed.report" ||
		fail "the JSON report has no [kernel] read function"
}

# --no-kernel-frames gives the kernel frame's samples to the user frame
# that made the call: read's share as a leaf is then, exactly, the
# shares of "[kernel] read" and of read with kernel frames, in the same
# log (how close those are to the CPU time is case_mixed's question; a
# band around the CPU time here failed at 30.8% for 37.7% under load).
case_off() {
	report mixed --folded
	kr=$(share mixed "[kernel] read")
	ur=$(share mixed read)
	report mixed --folded --no-kernel-frames
	if grep -q '\[kernel\]' "$tmp/mixed.report"; then
		show "$tmp/mixed.report"
		fail "--no-kernel-frames: kernel frames remain"
	fi
	rd=$(share mixed read)
	check "$kr > 0 && ($rd - $kr - $ur) <= 0.02 && ($kr + $ur - $rd) <= 0.02" || {
		show "$tmp/mixed.report"
		fail "--no-kernel-frames: read holds $rd% as leaf, not the $kr% of [kernel] read and $ur% of read with kernel frames"
	}
}

case_user() {
	sample user -F 1000 -- "$programs/syswork" user 1
	[ "$rc" = 0 ] || { show "$tmp/user.err"; fail "mapsample exited $rc"; }
	report user --folded
	# its busy loop gets none; the few system calls outside it (its CPU
	# time every 0.5 s) may, rarely: at most 1% of the samples
	kpct=$(awk '{ all += $NF; if (/\[kernel\]/) k += $NF }
		END { printf "%.2f\n", all ? 100 * k / all : 0 }' "$tmp/user.report")
	if grep -q 'user_part;.*\[kernel\]' "$tmp/user.report" ||
		! check "$kpct <= 1"; then
		show "$tmp/user.report" "$tmp/user.err"
		fail "code in user space only got kernel frames"
	fi
	check "$(share user user_part) >= 90" || {
		show "$tmp/user.report"
		fail "user_part holds only $(share user user_part)%"
	}
}

case_wall() {
	run wall mixed 20 "[kernel] read" --wall
	echo "wall: [kernel] read $kern% of the samples; CPU time in read(2) $sys%"
}

case_faults() {
	run faults faults 15 touch_part
	echo "faults: touch_part $kern% of the samples; its CPU time $sys%"
}
case_mixed
case_text_json
case_off
case_user
case_wall
case_faults
echo "mapreport-kernel: all cases passed"
