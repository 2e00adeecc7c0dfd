#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Logs that can be read only once give every output what the same log
# as a file gives, also the outputs that read the logs a second time.  A
# pipe (cat LOG | mapreport ... /dev/stdin) and a FIFO (mkfifo) are
# copied to a temporary file in $TMPDIR as they are read the first time,
# and the later passes read that copy:
# - test/common/mklog's random log (2 processes x 4 threads) through a
#   pipe (given as /dev/stdin, and as -) and through a FIFO, with --html, --pprof, --speedscope and
#   --trace at once: the text report, the pprof profile, the speedscope
#   file and the trace are the file's byte for byte, the HTML page too
#   but for its random script nonce, and it holds the narrowing data
#   (nr-data); go tool pprof -top reads the profile as it reads the
#   file's (when go is installed); nothing is left in $TMPDIR;
# - test/programs/marks (regions phase1 and phase2, a thread in no
#   region): through a pipe, the text report (the regions' samples are
#   counted in a pass after the model's), --region phase2 (a pass before
#   it) with --speedscope, --time 0.1: with --trace (another pass
#   before it), and --lines with --tid (filters) are the file's;
# - two logs through two FIFOs read on two threads (--jobs 2 --merge)
#   give the --trace and the report of the two files;
# - --compare with either log as - (standard input) gives the text, the
#   messages and the --html page of the two files; two logs as - are
#   refused (exit status 2) in one line;
# - a copy that cannot be made or written ($TMPDIR missing, RLIMIT_FSIZE
#   under ulimit -f, a full tmpfs when root can mount one) is one line
#   naming the log, the folder and TMPDIR; mapreport does not wait for
#   a second writer of the FIFO, the text report is still the file's
#   (nothing read is lost), and the export that needed the copy is said
#   to be incomplete (exit status 1).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
mnt=
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
mklog=$top_builddir/test/common/mklog
mkdir "$tmp/spool"
TMPDIR=$tmp/spool
HOME=$tmp
GOCACHE=$tmp/gocache
PPROF_TMPDIR=$tmp
export TMPDIR HOME GOCACHE PPROF_TMPDIR

need_programs marks

# run HOW NAME LOG [OPTIONS]: mapreport OPTIONS on LOG given as HOW
# (file: the path; pipe: /dev/stdin, the log piped in; fifo: a FIFO a
# background cat writes the log into), standard output in
# $tmp/NAME.txt, standard error in $tmp/NAME.err, the status in $r.
# Killed after 120 s: a second read of a drained FIFO would wait.
run() {
	how=$1
	name=$2
	log=$3
	shift 3
	set +e
	case $how in
	file)
		timeout -s KILL 120 "$mapreport" "$@" "$log" \
			>"$tmp/$name.txt" 2>"$tmp/$name.err"
		r=$?
		;;
	pipe)
		cat "$log" | timeout -s KILL 120 "$mapreport" "$@" /dev/stdin \
			>"$tmp/$name.txt" 2>"$tmp/$name.err"
		r=$?
		;;
	fifo)
		rm -f "$tmp/fifo"
		mkfifo "$tmp/fifo"
		cat "$log" >"$tmp/fifo" &
		timeout -s KILL 120 "$mapreport" "$@" "$tmp/fifo" \
			>"$tmp/$name.txt" 2>"$tmp/$name.err"
		r=$?
		wait
		;;
	esac
	set -e
}

# same A B WHAT: files A and B are the same.
same() {
	cmp -s "$1" "$2" || {
		diff "$1" "$2" | head -n 20 >&2 || true
		fail "$3: differs from the file's"
	}
}

# nononce HTML: the page without its script nonce (random per page).
nononce() {
	sed 's/nonce-[0-9a-f]*/nonce-/g; s/nonce="[0-9a-f]*"/nonce=""/g' "$1"
}

# empty_spool WHAT: the copies were removed.
empty_spool() {
	[ -z "$(ls -A "$TMPDIR")" ] || {
		ls -la "$TMPDIR" >&2
		fail "$1: files left in TMPDIR"
	}
}

# outs NAME: the four outputs, into $tmp/NAME.*
outs() {
	echo --html "$tmp/$1.html" --pprof "$tmp/$1.pb.gz" \
		--speedscope "$tmp/$1.ss" --trace "$tmp/$1.tr"
}

test_exports() {
	# shellcheck disable=SC2046
	run file f "$tmp/r.log" $(outs f)
	[ "$r" = 0 ] || { show "$tmp/f.err"; fail "file: mapreport exited $r"; }
	grep -q 'id="nr-data"' "$tmp/f.html" || fail "file: no narrowing data in the page"
	nononce "$tmp/f.html" >"$tmp/f.page"
	sed "s|$tmp/r.log|LOG|g" "$tmp/f.err" >"$tmp/f.msgs"
	for how in pipe fifo; do
		# shellcheck disable=SC2046
		run $how $how "$tmp/r.log" $(outs $how)
		[ "$r" = 0 ] || { show "$tmp/$how.err"; fail "$how: mapreport exited $r"; }
		same "$tmp/f.txt" "$tmp/$how.txt" "$how: the text report"
		same "$tmp/f.pb.gz" "$tmp/$how.pb.gz" "$how: --pprof"
		same "$tmp/f.ss" "$tmp/$how.ss" "$how: --speedscope"
		same "$tmp/f.tr" "$tmp/$how.tr" "$how: --trace"
		! grep -q "could not be read a second" "$tmp/$how.html" ||
			fail "$how: the page says the log could not be read again"
		nononce "$tmp/$how.html" >"$tmp/$how.page"
		same "$tmp/f.page" "$tmp/$how.page" "$how: --html"
		sed "s|/dev/stdin|LOG|g; s|$tmp/fifo|LOG|g" "$tmp/$how.err" \
			>"$tmp/$how.msgs"
		same "$tmp/f.msgs" "$tmp/$how.msgs" "$how: the messages"
		empty_spool "$how"
	done
	# - is standard input
	set +e
	cat "$tmp/r.log" | timeout -s KILL 120 "$mapreport" --trace "$tmp/dash.tr" - \
		>"$tmp/dash.txt" 2>"$tmp/dash.err"
	r=$?
	set -e
	[ "$r" = 0 ] || { show "$tmp/dash.err"; fail "-: mapreport exited $r"; }
	same "$tmp/f.txt" "$tmp/dash.txt" "-: the text report"
	same "$tmp/f.tr" "$tmp/dash.tr" "-: --trace"
	if command -v go >/dev/null 2>&1; then
		for x in f pipe fifo; do
			go tool pprof -sample_index=samples -top "$tmp/$x.pb.gz" \
				>"$tmp/$x.top" 2>"$tmp/pprof.err" ||
				{ show "$tmp/pprof.err"; fail "$x: go tool pprof -top failed"; }
		done
		grep -q " total" "$tmp/f.top" || { show "$tmp/f.top"; fail "go tool pprof -top: no total"; }
		same "$tmp/f.top" "$tmp/pipe.top" "pipe: go tool pprof -top"
		same "$tmp/f.top" "$tmp/fifo.top" "fifo: go tool pprof -top"
	else
		echo "not tested here: go tool pprof -top (golang-go not installed)"
	fi
}

# passes NAME OPTIONS...: the marks log with OPTIONS from the file and
# through a pipe give the same report and exports.
passes() {
	case=$1
	shift
	run file "$case-f" "$tmp/m.log" "$@"
	[ "$r" = 0 ] || { show "$tmp/$case-f.err"; fail "$case: file: mapreport exited $r"; }
	for x in ss tr; do
		[ ! -f "$tmp/x.$x" ] || mv "$tmp/x.$x" "$tmp/$case-f.$x"
	done
	run pipe "$case-p" "$tmp/m.log" "$@"
	[ "$r" = 0 ] || { show "$tmp/$case-p.err"; fail "$case: pipe: mapreport exited $r"; }
	same "$tmp/$case-f.txt" "$tmp/$case-p.txt" "$case: pipe: the report"
	for x in ss tr; do
		[ ! -f "$tmp/x.$x" ] || same "$tmp/$case-f.$x" "$tmp/x.$x" "$case: pipe: .$x"
		rm -f "$tmp/x.$x"
	done
	empty_spool "$case"
}

test_passes() {
	grep -q "phase2" "$tmp/m-plain.txt" || {
		show "$tmp/m-plain.txt"
		fail "marks: no region phase2 in the report"
	}
	passes regions
	passes region --region phase2 --speedscope "$tmp/x.ss"
	grep -q "phase_two_burn" "$tmp/region-p.txt" || {
		show "$tmp/region-p.txt"
		fail "--region phase2: phase_two_burn not reported"
	}
	passes time --time 0.1: --trace "$tmp/x.tr"
	tid=$(awk '$0 == "Threads" { getline; getline; print $3; exit }' "$tmp/m-plain.txt")
	passes lines --lines --tid "$tid"
}

test_jobs() {
	"$mapreport" --merge --jobs 2 --trace "$tmp/j-f.tr" "$tmp/r.log" \
		"$tmp/r2.log" >"$tmp/j-f.txt" 2>"$tmp/j-f.err" ||
		{ show "$tmp/j-f.err"; fail "jobs: files: mapreport failed"; }
	rm -f "$tmp/fifo1" "$tmp/fifo2"
	mkfifo "$tmp/fifo1" "$tmp/fifo2"
	cat "$tmp/r.log" >"$tmp/fifo1" &
	cat "$tmp/r2.log" >"$tmp/fifo2" &
	set +e
	timeout -s KILL 120 "$mapreport" --merge --jobs 2 --trace "$tmp/j-p.tr" \
		"$tmp/fifo1" "$tmp/fifo2" >"$tmp/j-p.txt" 2>"$tmp/j-p.err"
	r=$?
	set -e
	wait
	[ "$r" = 0 ] || { show "$tmp/j-p.err"; fail "jobs: FIFOs: mapreport exited $r"; }
	same "$tmp/j-f.txt" "$tmp/j-p.txt" "jobs: FIFOs: the report"
	same "$tmp/j-f.tr" "$tmp/j-p.tr" "jobs: FIFOs: --trace"
	empty_spool "jobs"
}

# cmp_run NAME STDIN [OPTIONS]: mapreport --compare OPTIONS with STDIN
# on standard input, its status in $r (killed after 120 s, as run).
cmp_run() {
	name=$1
	input=$2
	shift 2
	set +e
	timeout -s KILL 120 "$mapreport" --compare "$@" <"$input" \
		>"$tmp/$name.txt" 2>"$tmp/$name.err"
	r=$?
	set -e
}

test_compare() {
	cmp_run c-f /dev/null --html "$tmp/c-f.html" "$tmp/r2.log" "$tmp/r.log"
	[ "$r" = 0 ] || { show "$tmp/c-f.err"; fail "--compare files: mapreport exited $r"; }
	nononce "$tmp/c-f.html" >"$tmp/c-f.page"
	# either side as -, read again for the page from its copy
	for side in base new; do
		if [ $side = base ]; then
			cmp_run "c-$side" "$tmp/r2.log" --html "$tmp/c-$side.html" - "$tmp/r.log"
			log=$tmp/r2.log
		else
			cmp_run "c-$side" "$tmp/r.log" --html "$tmp/c-$side.html" "$tmp/r2.log" -
			log=$tmp/r.log
		fi
		[ "$r" = 0 ] || { show "$tmp/c-$side.err"; fail "--compare, $side -: mapreport exited $r"; }
		same "$tmp/c-f.txt" "$tmp/c-$side.txt" "--compare, $side -: the text"
		nononce "$tmp/c-$side.html" >"$tmp/c-$side.page"
		same "$tmp/c-f.page" "$tmp/c-$side.page" "--compare, $side -: --html"
		sed "s|/dev/stdin|$log|g" "$tmp/c-$side.err" >"$tmp/c-$side.msgs"
		same "$tmp/c-f.err" "$tmp/c-$side.msgs" "--compare, $side -: the messages"
		empty_spool "--compare, $side -"
	done
	# standard input holds one log: two -, either way, are refused at once
	for args in "- -" "--base - --base $tmp/r.log --new -"; do
		# shellcheck disable=SC2086
		cmp_run c-two "$tmp/r.log" $args
		[ "$r" = 2 ] && [ "$(cat "$tmp/c-two.err")" = "mapreport: --compare: 2 logs given as - (standard input), which holds one; give the others as files" ] ||
			{ show "$tmp/c-two.err"; fail "--compare $args: exit $r, not 2 with one line"; }
	done
}

# broken NAME DIR WHY HOW: a copy in DIR that fails with WHY (strerror)
# for a log given as HOW: one line, no wait, the text report whole, the
# trace incomplete.
broken() {
	sed -n '/^mapreport: .*: cannot copy it to a temporary file in /p' \
		"$tmp/$1.err" >"$tmp/$1.lines"
	[ "$(wc -l <"$tmp/$1.lines")" = 1 ] || { show "$tmp/$1.err"; fail "$1: not one line about the copy"; }
	grep -q "^mapreport: $4: cannot copy it to a temporary file in $2 to read it again ($3, after [0-9]* bytes); .*set TMPDIR to a folder with room for the log\$" \
		"$tmp/$1.lines" || { show "$tmp/$1.err"; fail "$1: the line does not name the log, $2, $3 and TMPDIR"; }
	[ "$r" = 1 ] || { show "$tmp/$1.err"; fail "$1: exit $r, not 1"; }
	grep -q "^mapreport: $tmp/$1.tr: write failed; the trace is incomplete\$" \
		"$tmp/$1.err" || { show "$tmp/$1.err"; fail "$1: the trace is not said to be incomplete"; }
	same "$tmp/f.txt" "$tmp/$1.txt" "$1: the text report"
}

test_broken() {
	TMPDIR=$tmp/none
	run fifo nodir "$tmp/r.log" --trace "$tmp/nodir.tr"
	TMPDIR=$tmp/spool
	broken nodir "$tmp/none" "No such file or directory" "$tmp/fifo"
	# the limit also holds for the outputs: the text report fits
	cat "$tmp/r.log" | (
		ulimit -f 512
		trap '' XFSZ
		exec timeout -s KILL 120 "$mapreport" --trace "$tmp/fsize.tr" \
			/dev/stdin >"$tmp/fsize.txt" 2>"$tmp/fsize.err"
	) && r=0 || r=$?
	broken fsize "$TMPDIR" "File too large" /dev/stdin
	empty_spool fsize
	if [ "$(id -u)" != 0 ] || ! mkdir "$tmp/full" ||
		! mount -t tmpfs -o size=256k tmpfs "$tmp/full" 2>/dev/null; then
		echo "not tested here: a full file system (needs root and tmpfs)"
		return 0
	fi
	mnt=$tmp/full
	TMPDIR=$mnt
	run pipe full "$tmp/r.log" --trace "$tmp/full.tr"
	TMPDIR=$tmp/spool
	broken full "$mnt" "No space left on device" /dev/stdin
	[ -z "$(ls -A "$mnt")" ] || fail "full: files left in $mnt"
}

"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
"$mklog" -n 5000 -p 1 -t 2 -s 5 "$tmp/r2.log" >/dev/null
[ "$(wc -c <"$tmp/r.log")" -gt 600000 ] || fail "mklog: r.log is too small for the ulimit case"
sample m -F 500 -- "$programs/marks"
[ "$rc" = 0 ] || { show "$tmp/m.err"; fail "marks: mapsample exited $rc"; }
run file m-plain "$tmp/m.log"
test_exports
test_passes
test_jobs
test_compare
test_broken
echo "mapreport-pipe: OK"
