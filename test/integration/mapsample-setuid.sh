#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-setuid: a set-user-ID or set-group-ID program executed in
# the child chain (here by sh -c) runs in secure-execution mode, where
# the loader ignores LD_PRELOAD: it runs as it does without mapsample,
# unsampled, and the sampler says so in one line naming it
# (lib/sampler/secure.c).  The test makes set-user-ID (owner nobody) and
# set-group-ID (group nogroup) copies of id(1) in its temporary folder
# as root; it is skipped when not root, without the user nobody, or on a
# nosuid mount (the copies then do not change their IDs).
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
LC_ALL=C
export LC_ALL

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to make a set-user-ID copy"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
grp=$(id -gn nobody)
chmod 755 "$tmp"
cp "$(command -v id)" "$tmp/suid-id"
chown nobody "$tmp/suid-id"
chmod 4755 "$tmp/suid-id"
cp "$(command -v id)" "$tmp/sgid-id"
chgrp "$grp" "$tmp/sgid-id"
chmod 2755 "$tmp/sgid-id"
[ "$("$tmp/suid-id" -u)" = "$(id -u nobody)" ] ||
	{ echo "SKIP: $tmp is on a nosuid mount"; exit 77; }

# chain NAME PROGRAM ID-OPTION WORD: sh -c runs PROGRAM ID-OPTION under
# mapsample: the output and exit are those without mapsample, and one
# line on standard error names PROGRAM as a WORD program run unsampled
chain() {
	name=$1 prog=$2 opt=$3 word=$4
	want=$(sh -c "'$prog' $opt; echo rc=\$?")
	sample "$name" -- sh -c "'$prog' $opt; echo rc=\$?"
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: mapsample exited $rc"; }
	[ "$(cat "$tmp/$name.out")" = "$want" ] || {
		show "$tmp/$name.out" "$tmp/$name.err"
		fail "$name: output differs from the run without mapsample ($want)"
	}
	n=$(grep -c "^mapsample: $prog: $word program: .* so it runs unsampled" "$tmp/$name.err" || true)
	[ "$n" = 1 ] && [ "$(wc -l <"$tmp/$name.err")" = 1 ] || {
		show "$tmp/$name.err"
		fail "$name: not one line saying $prog runs unsampled"
	}
	report "$name"
	echo "ok - $name: $prog runs as without mapsample, said unsampled"
}

chain suid "$tmp/suid-id" -u set-user-ID
chain sgid "$tmp/sgid-id" -g set-group-ID

# a program that is not set-user-ID: no such line
sample plain -- sh -c "'$(command -v id)' -u"
[ "$rc" = 0 ] && ! grep -q unsampled "$tmp/plain.err" ||
	{ show "$tmp/plain.err"; fail "plain: exit $rc, or a line about a plain program"; }
echo "ok - plain: no line for a program that is not set-user-ID"
echo "mapsample-setuid: all cases passed"
