#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-lastthread: a process ends when its last thread ends, under
# mapsample as without it (issue 14 item 5).  The sampler's own threads
# kept such processes alive for ever.  test/programs/lastthread: main
# calls pthread_exit() while a thread works (exit 0, and the thread's
# buffered stdio output is flushed), main ends with a raw exit(2) (exit
# 3), and a thread killed under strict seccomp (killed by SIGKILL:
# mapsample exits 137).  Each must end within 30 s with the status it
# has without mapsample, in CPU and in --wall mode, and the log must
# have the exit.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs lastthread
LC_ALL=C
export LC_ALL

for mode in pthread_exit sys_exit seccomp; do
	set +e
	"$programs/lastthread" "$mode" >"$tmp/$mode.plain" 2>&1
	want=$?
	set -e
	for opt in "" --wall; do
		name=$mode${opt:+-wall}
		sample "$name" $opt -- timeout -k 5 30 "$programs/lastthread" "$mode"
		[ "$rc" != 124 ] && [ "$rc" != 137 -o "$want" = 137 ] || {
			show "$tmp/$name.err"
			fail "$name: still running after 30 s (exit $rc)"
		}
		[ "$rc" = "$want" ] ||
			{ show "$tmp/$name.err"; fail "$name: exit $rc, without mapsample $want"; }
		cmp -s "$tmp/$name.out" "$tmp/$mode.plain" || {
			show "$tmp/$name.out" "$tmp/$mode.plain"
			fail "$name: output differs from the run without mapsample"
		}
		report "$name"
		# the program's row of the Processes table (timeout has one too)
		got=$(awk '$0 == "Processes" { s = 1; getline; next }
			s && NF == 0 { s = 0 }
			s && /lastthread/ && !/timeout/ { print $5, $6 }' \
			"$tmp/$name.report" | sed 's/ *$//')
		case $want in
		137) wexit="signal 9" ;;
		*) wexit="status $want" ;;
		esac
		[ "$got" = "$wexit" ] ||
			{ show "$tmp/$name.report"; fail "$name: the log says exit '$got', not '$wexit'"; }
		echo "ok - $name: exit $rc as without mapsample, log exit '$got'"
	done
done
