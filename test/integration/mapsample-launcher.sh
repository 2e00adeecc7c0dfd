#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample's own refusals, made before the program runs: a statically
# linked program, a "#!" script whose interpreter is one, and a
# set-user-ID program of another user (LD_PRELOAD cannot reach them) exit
# 126 with one line on standard error saying why; an unknown option or a
# bad option value exits 125; a program that does not exist exits 127
# with "command not found".  In every case the program does not run and
# no log is left behind.  The static program is built here with
# "cc -static"; those cases are not run, with a note, when static libc is
# not installed; the set-user-ID case needs root (for chown).  -o's %p
# names the log after the program's pid.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# refused WANT-STATUS WANT-TEXT ARGS...: mapsample ARGS exits WANT-STATUS
# before running anything, with one line holding WANT-TEXT on standard
# error (several lines allowed for usage errors, status 125).
refused() {
	want=$1
	text=$2
	shift 2
	rm -f "$tmp/r.log"
	set +e
	"$mapsample" -o "$tmp/r.log" "$@" </dev/null >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	set -e
	[ "$rc" = "$want" ] || {
		show "$tmp/r.err"
		fail "mapsample $*: exit $rc, expected $want"
	}
	grep -q -- "$text" "$tmp/r.err" || {
		show "$tmp/r.err"
		fail "mapsample $*: no '$text' on standard error"
	}
	[ "$want" = 125 ] || [ "$(wc -l <"$tmp/r.err")" = 1 ] || {
		show "$tmp/r.err"
		fail "mapsample $*: more than one line on standard error"
	}
	[ ! -s "$tmp/r.out" ] || {
		show "$tmp/r.out"
		fail "mapsample $*: the program ran"
	}
	[ ! -e "$tmp/r.log" ] || fail "mapsample $*: a log was left behind"
}

test_static() {
	printf 'int main(void) { return 0; }\n' >"$tmp/static.c"
	if ! "${CC:-cc}" -static -o "$tmp/static" "$tmp/static.c" \
		>"$tmp/cc.err" 2>&1 || ! "$tmp/static"; then
		echo "note: 'cc -static' does not work here (static libc not" \
			"installed?); the static-program cases were not run"
		return 0
	fi
	refused 126 "statically linked" -- "$tmp/static"
	printf '#!%s\necho this script ran\n' "$tmp/static" >"$tmp/script"
	chmod +x "$tmp/script"
	refused 126 "statically linked" -- "$tmp/script"
}

test_setuid() {
	if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
		echo "note: not root, or no user 'nobody': the set-user-ID case was not run"
		return 0
	fi
	cp "$programs/outerr" "$tmp/suid"
	chown nobody "$tmp/suid"
	chmod 4755 "$tmp/suid"
	refused 126 "set-user-ID" -- "$tmp/suid"
}

test_usage() {
	refused 125 "unknown option --no-such-option; see mapsample --help" --no-such-option -- /bin/true
	refused 125 "give a number" -F 0 -- /bin/true
	refused 125 "no program given"
}

test_not_found() {
	refused 127 "command not found" -- "no-such-program-$$"
	refused 127 "command not found" -- "$tmp/no-such-program"
}

# A metric definition without an id (issue 14 item 12): a definition
# error naming the file, line and column, never a crash (it was SIGSEGV,
# exit 139, when --metrics named a group, file or unknown item).
test_metric_without_id() {
	mkdir -p "$tmp/noid"
	printf '<metricdefinitions version="1"><metric><units>%%</units></metric></metricdefinitions>\n' \
		>"$tmp/noid/noid.xml"
	for sel in noid x; do
		refused 125 "noid.xml:1:[0-9]*: <metric>: no id attribute" \
			--metrics-dir "$tmp/noid" --metrics "$sel" -- /bin/true
	done
	echo "ok - a metric definition without an id: file:line:column, exit 125"
}

need_programs outerr
test_metric_without_id
# -o must name a new or regular file: never follow a symbolic link (also
# one another user made in /tmp), never write a device or a FIFO
test_output_kinds() {
	ln -s "$tmp/target.log" "$tmp/link.log"
	mkfifo "$tmp/fifo.log"
	for o in "$tmp/link.log" "$tmp/fifo.log" /dev/null; do
		refused 125 "$o: not a regular file; give -o the name of a new or regular file" \
			-o "$o" -- /bin/true
	done
	[ ! -e "$tmp/target.log" ] || fail "-o followed a symbolic link"
}

# -o's %p is the profiled program's pid (the process whose log it is),
# not mapsample's; a log that cannot be made (its folder cannot be
# created) is said before the program runs, which then never runs
test_output_pid() {
	"$mapsample" -q -o "$tmp/p%p.maplog" -- \
		sh -c 'echo $$ >"$1"' sh "$tmp/prog.pid" || fail "mapsample -o p%p: exit $?"
	pid=$(cat "$tmp/prog.pid")
	[ -f "$tmp/p$pid.maplog" ] || {
		ls "$tmp" >&2
		fail "-o p%p: no p$pid.maplog (the program's pid $pid)"
	}
	"$mapreport" -D "$tmp/p$pid.maplog" | grep -q " initialize .* pid $pid " ||
		fail "p$pid.maplog: its process is not pid $pid"
	rm -f "$tmp/p$pid.maplog"
	touch "$tmp/afile"
	set +e
	"$mapsample" -q -o "$tmp/afile/x/p%p.maplog" -- \
		sh -c 'touch "$1"' sh "$tmp/ran" 2>"$tmp/p.err"
	rc=$?
	set -e
	[ "$rc" = 125 ] || fail "-o in a folder that cannot be made: exit $rc, expected 125"
	grep -q "cannot create the log's folder" "$tmp/p.err" || {
		show "$tmp/p.err"
		fail "-o in a folder that cannot be made: not said"
	}
	[ "$(wc -l <"$tmp/p.err")" = 1 ] || {
		show "$tmp/p.err"
		fail "-o in a folder that cannot be made: more than one line"
	}
	[ ! -e "$tmp/ran" ] || fail "-o in a folder that cannot be made: the program ran"
	echo "ok - -o %p is the program's pid; a log that cannot be made stops the program"
}

test_static
test_setuid
test_usage
test_output_kinds
test_output_pid
test_not_found
echo "mapsample-launcher: all cases passed"
