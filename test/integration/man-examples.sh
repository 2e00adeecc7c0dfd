#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# man-examples: the code in the man pages' EXAMPLES sections compiles, links
# with the build tree's libmaplog and does what the pages say, so a page
# cannot drift from the library.
#
#   man-examples.sh [PAGE...]    default: every $top_srcdir/man/*.[1-8]
#
# A program is a ".Bd -literal" ... ".Ed" block under ".Sh EXAMPLES" that
# has an #include line; other literal blocks (shell sessions, output, hex
# dumps) are left alone.  Every program must compile cleanly with
# -std=gnu11 -Wall -Wextra -Werror.  The programs of maplog(3) and
# mapsample-log(5) are also run, on logs written by test/common/mklog:
#   maplog.3, program 1: counts samples per thread of a log file, and
#     reports damage and truncation in one line each;
#   maplog.3, program 2: the same from standard input with maplog_feed();
#   mapsample-log.5, program 1: decodes the format without libmaplog; its
#     samples must equal what libmaplog returns.
#
# Environment: top_srcdir, top_builddir (exported by make check; default
# the script's ../.. and .), MAN_EXAMPLES_CC, MAN_EXAMPLES_CFLAGS and
# MAN_EXAMPLES_LDFLAGS (the build's CC, CFLAGS and LDFLAGS, exported by
# test/integration/local.mk), else CC (default cc).  Exit 77 (skip) when
# there is no C compiler.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
top_builddir=${top_builddir:-.}
top_builddir=$(cd "$top_builddir" && pwd)
cc=${MAN_EXAMPLES_CC:-${CC:-cc}}
cflags=${MAN_EXAMPLES_CFLAGS:-}
ldflags=${MAN_EXAMPLES_LDFLAGS:-}
LC_ALL=C
export LC_ALL

if ! command -v "${cc%% *}" >/dev/null 2>&1; then
	echo "SKIP: no C compiler (${cc%% *}) to build the man page examples"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-examples.XXXXXX")
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT

failed=0
pass() {
	echo "ok - $*"
}
fail() {
	echo "not ok - $*"
	failed=$((failed + 1))
}
# show FILE: a file's contents indented, for the log of a failure
show() {
	sed 's/^/    | /' "$1"
}

mklog=$top_builddir/test/common/mklog
libmaplog=$top_builddir/lib/log/libmaplog.la
for f in "$mklog" "$libmaplog"; do
	if [ ! -e "$f" ]; then
		echo "not ok - $f is missing: run make first"
		exit 1
	fi
done

# extract PAGE OUTPREFIX: writes every C program of PAGE's EXAMPLES
# section to OUTPREFIX.N.c (N from 1) with the roff escapes undone, and
# prints how many there were.  Fails on an escape or macro it does not
# know, rather than guess.
extract() {
	awk -v out="$2" -v page="$1" '
	function bad(what) {
		printf "%s:%d: %s\n", page, FNR, what > "/dev/stderr"
		err = 1
	}
	# Undo the escapes a literal block may use.
	function demdoc(s,    r, i, c, n, name, j) {
		r = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c != "\\") {
				r = r c
				continue
			}
			n = substr(s, ++i, 1)
			if (n == "e" || n == "\\")
				r = r "\\"
			else if (n == "-")
				r = r "-"
			else if (n == "&" || n == ":")
				continue
			else if (n == "(" || n == "[") {
				if (n == "(") {
					name = substr(s, i + 1, 2)
					i += 2
				} else {
					j = index(substr(s, i + 1), "]")
					if (j == 0) {
						bad("unterminated \\[")
						return r
					}
					name = substr(s, i + 1, j - 1)
					i += j
				}
				if (name in ch)
					r = r ch[name]
				else
					bad("unknown escape \\(" name)
			} else
				bad("unknown escape \\" n)
		}
		return r
	}
	BEGIN {
		ch["aq"] = "\047"; ch["dq"] = "\""; ch["ga"] = "`"
		ch["ti"] = "~"; ch["ha"] = "^"; ch["rs"] = "\\"
		ch["at"] = "@"; ch["sh"] = "#"; ch["Do"] = "$"
		ch["lB"] = "["; ch["rB"] = "]"; ch["lC"] = "{"; ch["rC"] = "}"
		ch["ba"] = "|"; ch["mi"] = "-"; ch["hy"] = "-"; ch["en"] = "-"
		ch["pl"] = "+"; ch["eq"] = "="; ch["ra"] = ">"; ch["la"] = "<"
	}
	/^\.Sh / {
		ex = ($0 ~ /^\.Sh "?EXAMPLES"?$/)
		next
	}
	ex && !inblock && /^\.Bd -literal/ {
		inblock = 1
		nl = 0
		next
	}
	inblock && /^\.Ed/ {
		inblock = 0
		code = 0
		for (k = 1; k <= nl; k++)
			if (line[k] ~ /^[ \t]*#[ \t]*include[ \t]*[<"]/)
				code = 1
		if (code) {
			f = out "." ++nprog ".c"
			for (k = 1; k <= nl; k++)
				print line[k] > f
			close(f)
		}
		next
	}
	inblock {
		if ($0 ~ /^\.\\"/)
			next
		if ($0 ~ /^[.\047]/)
			bad("request or macro inside a literal block: " $0)
		line[++nl] = demdoc($0)
	}
	END {
		if (inblock)
			bad("EXAMPLES block not closed with .Ed")
		print nprog + 0
		exit err
	}' "$1"
}

# build SRC EXE LOG: compiles and links SRC with libmaplog through the
# build tree's libtool; the compiler's output goes to LOG.
build() {
	# $cc, $cflags and $ldflags are split into words on purpose
	# shellcheck disable=SC2086
	"$top_builddir/libtool" --quiet --tag=CC --mode=link $cc \
		-std=gnu11 -Wall -Wextra -Werror $cflags \
		-I"$top_srcdir/lib/include" -o "$2" "$1" "$libmaplog" \
		$ldflags >"$3" 2>&1
}

# byte FILE OFFSET: the unsigned value of one byte of FILE
byte() {
	od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '
}

# flip FILE OFFSET: inverts every bit of one byte of FILE, in place
flip() {
	v=$(( $(byte "$1" "$2") ^ 255 ))
	# shellcheck disable=SC2059
	printf "\\$(printf %o "$v")" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# sum_threads FILE: the sum of the per-thread counts in the output of
# maplog.3's first program
sum_threads() {
	awk '/^pid [0-9]+ tid [0-9]+: [0-9]+ samples$/ { s += $5; n++ }
	     END { print n + 0, s + 0 }' "$1"
}

# total FILE: the "total: N samples" of maplog.3's first program
total() {
	sed -n 's/^total: \([0-9][0-9]*\) samples$/\1/p' "$1"
}

# --- the logs the examples are run on, and what libmaplog reads ---
setup() {
	"$mklog" -n 5000 -t 3 "$tmp/run.log" >/dev/null
	size=$(wc -c <"$tmp/run.log")
	head -c $((size / 2)) "$tmp/run.log" >"$tmp/cut.log"
	# one byte of the first chunk's payload: its checksum fails
	doff=$(od -An -tu4 -j 16 -N4 "$tmp/run.log" | tr -d ' ')
	cp "$tmp/run.log" "$tmp/bad.log"
	flip "$tmp/bad.log" $((doff + 48 + 16))
	"$mklog" -n 20000 -p 3 -t 5 -c 8192 -s 7 "$tmp/multi.log" >/dev/null
	"$mklog" -n 3000 -p 2 -t 2 -c 4096 --open "$tmp/open.log" >/dev/null
	cat >"$tmp/dump.c" <<'EOF'
/* Prints every sample as mapsample-log(5)'s example does, via libmaplog. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <mapsample/maplog.h>
int main(int argc, char *argv[])
{
	struct maplog_ev ev;
	int fd = argc == 2 ? open(argv[1], O_RDONLY) : -1;
	maplog *p = fd >= 0 ? maplog_open(fd) : NULL;
	if (p == NULL)
		return 2;
	while (maplog_read(p, &ev) == 0 || ev.ev_state == MAPLOG_ERROR) {
		const struct maplog_ev_sample *s = &ev.ev_u.sample;
		if (ev.ev_state == MAPLOG_ERROR && (ev.ev_error == MAPS_EMAGIC ||
		    ev.ev_error == MAPS_EVERSION || ev.ev_error == MAPS_EIO ||
		    ev.ev_error == MAPS_ENOMEM))
			return 1;
		if (ev.ev_state != MAPLOG_OK || ev.ev_type != MAPLOG_TYPE_SAMPLE)
			continue;
		printf("%" PRIu64 " %" PRIu32 "/%" PRIu32 " w=%" PRIu64 ":",
		       ev.ev_ts, ev.ev_pid, s->sa_tid, s->sa_weight);
		for (uint32_t i = 0; i < s->sa_npc; i++)
			printf(" %" PRIx64, s->sa_pc[i]);
		printf("\n");
	}
	maplog_close(p);
	return 0;
}
EOF
	if ! build "$tmp/dump.c" "$tmp/dump" "$tmp/dump.err"; then
		echo "not ok - the test's own libmaplog dumper does not build"
		show "$tmp/dump.err"
		exit 1
	fi
	# what libmaplog reads from the damaged and truncated logs
	want_cut=$("$tmp/dump" "$tmp/cut.log" | wc -l | tr -d ' ')
	want_bad=$("$tmp/dump" "$tmp/bad.log" | wc -l | tr -d ' ')
}

# --- maplog.3, program 1: a log file, whole, truncated, damaged ---
case_samples_whole() {
	prog=$1
	if "$prog" "$tmp/run.log" >"$tmp/out" 2>"$tmp/err" &&
	    [ ! -s "$tmp/err" ] &&
	    [ "$(sum_threads "$tmp/out")" = "3 5000" ] &&
	    [ "$(total "$tmp/out")" = 5000 ]; then
		pass "maplog.3 program 1: 3 threads, 5000 samples"
	else
		fail "maplog.3 program 1 on a whole log: want 3 threads" \
			"summing to 5000 samples, exit 0, nothing on stderr"
		show "$tmp/out"
		show "$tmp/err"
	fi
}

case_samples_truncated() {
	prog=$1
	rc=0
	"$prog" "$tmp/cut.log" >"$tmp/out" 2>"$tmp/err" || rc=$?
	got=$(total "$tmp/out")
	if [ "$rc" = 1 ] && [ "$got" = "$want_cut" ] &&
	    [ "$(sum_threads "$tmp/out" | cut -d' ' -f2)" = "$got" ] &&
	    grep -Eq "cut\.log: truncated at byte [0-9]+; [1-9][0-9]* bytes lost$" \
		"$tmp/err"; then
		pass "maplog.3 program 1: truncated log, $got samples, one line"
	else
		fail "maplog.3 program 1 on a truncated log: want exit 1," \
			"'cut.log: truncated at byte N; K bytes lost'" \
			"and the $want_cut samples before it"
		show "$tmp/out"
		show "$tmp/err"
	fi
}

case_samples_damaged() {
	prog=$1
	rc=0
	"$prog" "$tmp/bad.log" >"$tmp/out" 2>"$tmp/err" || rc=$?
	got=$(total "$tmp/out")
	if [ "$rc" = 1 ] && [ "$got" = "$want_bad" ] &&
	    grep -q "bad\.log: damaged chunk at byte $doff (checksum mismatch)$" \
		"$tmp/err" &&
	    [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		pass "maplog.3 program 1: damaged chunk reported, $got samples read"
	else
		fail "maplog.3 program 1 on a damaged log: want exit 1," \
			"'bad.log: damaged chunk at byte $doff (checksum mismatch)'" \
			"and the $want_bad samples of the other chunks"
		show "$tmp/out"
		show "$tmp/err"
	fi
}

# --- maplog.3, program 2: the same logs through standard input ---
case_stream() {
	prog=$1
	# through a pipe, so that the log arrives in pieces
	# shellcheck disable=SC2002
	if cat "$tmp/run.log" | "$prog" >"$tmp/out" 2>"$tmp/err" &&
	    [ ! -s "$tmp/err" ] &&
	    [ "$(cat "$tmp/out")" = "5000 samples" ]; then
		pass "maplog.3 program 2: 5000 samples from a pipe"
	else
		fail "maplog.3 program 2 on a whole log: want '5000 samples'"
		show "$tmp/out"
		show "$tmp/err"
	fi
	"$prog" <"$tmp/cut.log" >"$tmp/out" 2>"$tmp/err" || :
	if [ "$(cat "$tmp/out")" = "$want_cut samples" ] &&
	    grep -q "stdin: truncated at byte" "$tmp/err"; then
		pass "maplog.3 program 2: truncated stream, same count as a file"
	else
		fail "maplog.3 program 2 on a truncated log: want" \
			"'$want_cut samples' and a truncation line"
		show "$tmp/out"
		show "$tmp/err"
	fi
}

# --- mapsample-log.5, program 1: an independent decoder agrees ---
case_walk() {
	prog=$1
	for log in run cut bad multi open; do
		"$tmp/dump" "$tmp/$log.log" >"$tmp/want" 2>&1 || :
		"$prog" "$tmp/$log.log" >"$tmp/got.all" 2>&1 || :
		grep ' w=' "$tmp/got.all" >"$tmp/got" || :
		if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
			pass "mapsample-log.5 program 1 decodes $log.log as" \
				"libmaplog does ($(wc -l <"$tmp/want") samples)"
		else
			fail "mapsample-log.5 program 1 and libmaplog disagree" \
				"on $log.log"
			diff "$tmp/want" "$tmp/got" | head -10 | sed 's/^/    | /'
		fi
	done
}

# --- every page ---
if [ $# -eq 0 ]; then
	set -- "$top_srcdir"/man/*.[1-8]
fi
setup
for page in "$@"; do
	name=$(basename "$page")
	if [ ! -f "$page" ]; then
		fail "$page: no such page"
		continue
	fi
	# its example is a plugin, not a program: plugin-man-example.sh
	# builds and loads it
	if [ "$name" = mapsample-plugin.3 ]; then
		continue
	fi
	# so is this one's: substrate-man-example.sh
	[ "$name" != mapsample-substrate.3 ] || continue
	if ! nprog=$(extract "$page" "$tmp/$name"); then
		fail "$name: EXAMPLES cannot be extracted"
		continue
	fi
	case $name in
	maplog.3) want=2 ;;
	mapsample-log.5) want=1 ;;
	*) want=0 ;;
	esac
	if [ "$nprog" -lt "$want" ]; then
		fail "$name: $nprog C programs in EXAMPLES, expected $want"
		continue
	fi
	i=1
	while [ "$i" -le "$nprog" ]; do
		src=$tmp/$name.$i.c
		exe=$tmp/$name.$i
		if build "$src" "$exe" "$exe.log"; then
			pass "$name: program $i compiles and links"
		else
			fail "$name: program $i does not compile cleanly"
			show "$exe.log"
			i=$((i + 1))
			continue
		fi
		case $name.$i in
		maplog.3.1)
			case_samples_whole "$exe"
			case_samples_truncated "$exe"
			case_samples_damaged "$exe"
			;;
		maplog.3.2)
			case_stream "$exe"
			;;
		mapsample-log.5.1)
			case_walk "$exe"
			;;
		esac
		i=$((i + 1))
	done
done

if [ "$failed" -ne 0 ]; then
	echo "$failed check(s) failed"
	exit 1
fi
exit 0
