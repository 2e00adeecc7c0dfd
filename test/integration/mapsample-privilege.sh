#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-privilege: programs that change their credentials or enter a
# user namespace run under mapsample as they do without it.  glibc makes
# every thread repeat setuid() and its relatives and aborts when one
# thread's result differs; unshare(CLONE_NEWUSER) wants a single-threaded
# process.  The sampler's own thread must not be there for those calls
# (lib/sampler/process.c, process_solo_begin()).
#   - test/programs/solo: setresgid/setresuid/setgroups/unshare between
#     two hot functions: exit 0, and both functions sampled (sampling
#     goes on after the calls), also under --wall (two threads of ours);
#   - unshare -U -r id (where user namespaces work without mapsample);
#   - as root only: setpriv --reuid --regid --clear-groups, which drops
#     capabilities per thread before its setresuid (it aborted in glibc's
#     setxid), su -s /bin/sh nobody -c id, and runuser -u nobody id
#     (it crashed in the sampler's exec wrapper).
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs solo
LC_ALL=C
export LC_ALL

sample solo -- "$programs/solo"
[ "$rc" = 0 ] || { show "$tmp/solo.err"; fail "solo: exit $rc"; }
report solo
for f in before_calls after_calls; do
	row=$(func_row solo self "$f")
	[ -n "$row" ] || { show "$tmp/solo.report"; fail "solo: $f not sampled"; }
done
echo "ok - solo: the calls succeed and sampling goes on after them"

# --wall has a second thread of ours, the off-CPU sampler: the same
sample solowall --wall -- "$programs/solo"
[ "$rc" = 0 ] || { show "$tmp/solowall.err"; fail "solo --wall: exit $rc"; }
report solowall
[ -n "$(func_row solowall self after_calls)" ] ||
	{ show "$tmp/solowall.report"; fail "solo --wall: after_calls not sampled"; }
echo "ok - solo --wall: the calls succeed and sampling goes on after them"

# same_as_without NAME COMMAND...: COMMAND's exit status and standard
# output under mapsample are those it has without.
same_as_without() {
	name=$1
	shift
	set +e
	"$@" </dev/null >"$tmp/$name.plain" 2>&1
	want=$?
	set -e
	sample "$name" -- timeout -k 5 60 "$@"
	[ "$rc" = "$want" ] ||
		{ show "$tmp/$name.err"; fail "$name: exit $rc, without mapsample $want"; }
	cmp -s "$tmp/$name.out" "$tmp/$name.plain" || {
		show "$tmp/$name.out" "$tmp/$name.plain" "$tmp/$name.err"
		fail "$name: output differs from the run without mapsample"
	}
	echo "ok - $name: exit $rc and output as without mapsample"
}

if unshare -U -r true 2>/dev/null; then
	same_as_without unshare unshare -U -r id -u
else
	echo "skip - unshare -U: user namespaces not allowed here"
fi

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	id nobody >/dev/null 2>&1; then
	same_as_without setpriv setpriv --reuid=nobody --regid=nogroup \
		--clear-groups id -u
	same_as_without su su -s /bin/sh nobody -c 'id -u'
	# runuser builds its environment with clearenv and setenv: the
	# sampler's own setenv before the exec freed the array runuser was
	# passing (a crash in the exec wrapper)
	same_as_without runuser runuser -u nobody -- id -u
else
	echo "skip - setpriv, su: need root and the user nobody"
fi
