#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample follows processes and leaves them alone.
# test/programs/forkexec burns in three process images (the parent, its
# forked child, and the child after it execs): each must be a row of the
# Processes table with its image number, samples and exit, each stage's
# function must be sampled, and the program's exit status (4) must come
# back from mapsample.  Transparency: for /bin/echo, test/programs/outerr
# (both output streams, exit 3, standard input), sh -c 'exit 7' and
# /usr/bin/python3, standard output, standard error and the exit status
# must be the same bare and under mapsample -q.  Last, a program run
# through "env -i", which clears the environment before it execs, must
# still be sampled after the exec.  A chain of shells exec'ing shells has
# one row per image, each with its own image number.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

test_forkexec() {
	sample fe -F 1000 -- "$programs/forkexec" 200
	[ "$rc" = 4 ] || {
		show "$tmp/fe.out" "$tmp/fe.err"
		fail "forkexec: mapsample exited $rc, the program's status is 4"
	}
	report fe
	processes fe >"$tmp/procs"
	n=$(samples fe)
	[ "$(wc -l <"$tmp/procs")" = 3 ] || {
		show "$tmp/fe.report"
		fail "forkexec: expected 3 process images in the Processes table"
	}
	# the child has two images under one pid, the parent one
	cpid=$(awk '{ print $1 }' "$tmp/procs" | sort | uniq -d)
	ppid=$(awk -v c="$cpid" '$1 != c { print $1; exit }' "$tmp/procs")
	[ -n "$cpid" ] && [ -n "$ppid" ] || {
		show "$tmp/fe.report"
		fail "forkexec: no parent and child in the Processes table"
	}
	want="$ppid 0 status 4
$cpid 0 exec
$cpid 1 status 3"
	got=$(awk '{ print $1, $2, $4, $5 }' "$tmp/procs" | sed 's/ *$//' | sort)
	[ "$got" = "$(echo "$want" | sort)" ] || {
		show "$tmp/fe.report"
		fail "forkexec: processes (pid image exit) are
$got
expected
$want"
	}
	# 0.2 s of CPU in each image: about a third of the samples each
	awk -v n="$n" '{ if ($3 < n / 10) exit 1 }' "$tmp/procs" || {
		show "$tmp/fe.report"
		fail "forkexec: an image has less than 10% of the samples"
	}
	for f in burn_parent burn_child burn_after_exec; do
		[ "$(func_self fe $f)" -gt 0 ] || {
			show "$tmp/fe.report"
			fail "forkexec: no samples in $f"
		}
	done
}

test_env_cleared() {
	# env clears its environment (clearenv) and then execvp's hot: the
	# new image must still get LD_PRELOAD and the MAPSAMPLE_* settings
	sample envi -F 1000 -- /usr/bin/env -i "$programs/hot" 200
	[ "$rc" = 0 ] || { show "$tmp/envi.err"; fail "env -i: mapsample exited $rc"; }
	report envi
	processes envi >"$tmp/procs"
	awk '$2 == 1 && $3 > 0 && $4 == "status" && $5 == 0' "$tmp/procs" |
		grep -q . || {
		show "$tmp/envi.report"
		fail "env -i: the program env execs (image 1) is not sampled"
	}
	[ "$(func_self envi burn_hot)" -gt 0 ] || {
		show "$tmp/envi.report"
		fail "env -i: no samples in burn_hot"
	}
}

# same NAME PROGRAM ARGS...: runs the program bare and under mapsample -q,
# both with $tmp/stdin as standard input, and compares.
same() {
	name=$1
	shift
	set +e
	"$@" <"$tmp/stdin" >"$tmp/$name.out0" 2>"$tmp/$name.err0"
	rc0=$?
	"$mapsample" -q -o "$tmp/$name.log" -- "$@" <"$tmp/stdin" \
		>"$tmp/$name.out1" 2>"$tmp/$name.err1"
	rc1=$?
	set -e
	[ "$rc0" = "$rc1" ] || {
		show "$tmp/$name.err1"
		fail "$name: exit status $rc0 bare, $rc1 under mapsample"
	}
	cmp -s "$tmp/$name.out0" "$tmp/$name.out1" || {
		show "$tmp/$name.out0" "$tmp/$name.out1"
		fail "$name: standard output differs under mapsample"
	}
	cmp -s "$tmp/$name.err0" "$tmp/$name.err1" || {
		show "$tmp/$name.err0" "$tmp/$name.err1"
		fail "$name: standard error differs under mapsample"
	}
	[ -s "$tmp/$name.log" ] || fail "$name: no log written"
}

test_transparent() {
	printf 'first line\nsecond line\n' >"$tmp/stdin"
	same echo /bin/echo hello 'two  words' '*'
	same outerr "$programs/outerr" a 'b c' ''
	[ "$rc1" = 3 ] || fail "outerr: exit status $rc1, expected 3"
	grep -q '^second line$' "$tmp/outerr.out1" ||
		fail "outerr: standard input did not reach the program"
	same shexit sh -c 'echo to stderr >&2; exit 7'
	[ "$rc1" = 7 ] || fail "sh -c 'exit 7': exit status $rc1"
	if [ -x /usr/bin/python3 ]; then
		same python /usr/bin/python3 -c 'import sys; print(1); sys.stderr.write("e\n")'
	else
		echo "note: /usr/bin/python3 not installed; that case not run"
	fi
}

# A script that execs a shell that execs a shell: one pid, three images,
# each its own row with its own number.  Shells pass their own copy of
# the exported variables to execve, so the sampler cannot tell the next
# image its number through setenv(); it did, and the second and third
# images had the same number and were one row.
test_shell_exec() {
	printf '#!/bin/bash\nexec /bin/bash -c %s\n' \
		"'exec /bin/sh -c \"exit 5\"'" >"$tmp/chain.sh"
	chmod +x "$tmp/chain.sh"
	sample chain -- "$tmp/chain.sh"
	[ "$rc" = 5 ] || { show "$tmp/chain.err"; fail "chain: exit $rc, not 5"; }
	report chain
	got=$(processes chain | awk '{ print $2, $4, $5 }' | sed 's/ *$//' | sort)
	want="0 exec
1 exec
2 status 5"
	[ "$got" = "$want" ] || {
		show "$tmp/chain.report"
		fail "chain: process images (image exit) are
$got
expected
$want"
	}
	echo "ok - a chain of three exec'd shells: three images, numbered 0 1 2"
}

# quick_exit(): glibc ends the process through an _exit of its own; the
# log must still have the exit and its status, and the program's
# at_quick_exit handler must run.
test_quick_exit() {
	sample qe -- "$programs/quickexit"
	[ "$rc" = 6 ] || { show "$tmp/qe.err"; fail "quickexit: exit $rc, not 6"; }
	[ "$(cat "$tmp/qe.out")" = handler ] ||
		{ show "$tmp/qe.out"; fail "quickexit: its handler did not run"; }
	report qe
	got=$(processes qe | awk '{ print $4, $5 }')
	[ "$got" = "status 6" ] ||
		{ show "$tmp/qe.report"; fail "quickexit: exit column '$got', not 'status 6'"; }
	echo "ok - quick_exit(6): the log has the exit, status 6"
}

# exit_group(2) made directly: no exit function of the C library runs,
# so the sampler never sees it; the exit column must still say it.
test_exit_group() {
	sample eg -- "$programs/quickexit" group
	[ "$rc" = 6 ] || { show "$tmp/eg.err"; fail "exit_group: exit $rc, not 6"; }
	report eg
	got=$(processes eg | awk '{ print $4, $5 }')
	[ "$got" = "status 6" ] ||
		{ show "$tmp/eg.report"; fail "exit_group: exit column '$got', not 'status 6'"; }
	echo "ok - exit_group(6) from a raw system call: the log has the exit, status 6"
}

# More arguments than the initialize record holds (readers take 65536 at
# most): the record is kept with the first arguments and a last one
# saying how many were left out, and the report names the command.
test_many_args() {
	seq 1 70000 | xargs -x -s 1000000 sh -c '
		m=$0 d=$1; shift
		exec "$m" -q -o "$d/args.maplog" -- /bin/true "$@"' \
		"$mapsample" "$tmp" >"$tmp/args.err" 2>&1 ||
		{ show "$tmp/args.err"; fail "many arguments: mapsample failed"; }
	"$mapreport" "$tmp/args.maplog" >"$tmp/args.report" 2>"$tmp/args.rerr" ||
		{ show "$tmp/args.rerr"; fail "many arguments: mapreport failed"; }
	got=$(sed -n '/^Processes/,/^$/p' "$tmp/args.report" | awk 'NR == 3 { print $7, $8, $9, $10 }')
	[ "$got" = "/bin/true 1 2 3" ] ||
		{ show "$tmp/args.report"; fail "many arguments: command '$got', not '/bin/true 1 2 3'"; }
	"$mapreport" --dump "$tmp/args.maplog" >"$tmp/args.dump" 2>&1 ||
		fail "many arguments: mapreport --dump failed"
	grep -q '\[mapsample: [0-9]* more arguments, [0-9]* bytes, not recorded\]' "$tmp/args.dump" ||
		fail "many arguments: no marker of the arguments left out in the initialize record"
	echo "ok - 70000 arguments: the initialize record kept, cut with a marker"
}

need_programs forkexec outerr quickexit
test_forkexec
test_transparent
test_env_cleared
test_shell_exec
test_quick_exit
test_exit_group
test_many_args
echo "mapsample-processes: all cases passed"
