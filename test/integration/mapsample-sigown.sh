#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-sigown: a program that uses SIGRTMIN+4, the default sampling
# signal, itself (test/programs/sigself) runs as it does without
# mapsample (lib/sampler/sigown.c):
#   - handler: its own SA_SIGINFO handler gets each of the 200 signals it
#     sends itself and nothing else (no sample reaches it, none of its
#     signals is taken as a sample), the samples move to another signal
#     with one line saying so, and burn_own is still sampled;
#   - default: raise() with SIG_DFL kills it (exit 166 = 128 + 38), and
#     the report records "signal 38";
#   - ignore: SIG_IGN then raise(): it lives;
#   - mask: after blocking everything, sigprocmask and pthread_sigmask
#     read the signal as blocked, and sigwaitinfo takes the one it sent;
#   - exec: an image that inherits the signal ignored and blocked keeps
#     both, and samples come on another signal from its start.
# And mapsample refuses, with one line naming the reason, --signal values
# that cannot carry samples: 5, 11, 17, 20, 32, 33, 0, 65, KILL.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs sigself
LC_ALL=C
export LC_ALL

# same NAME MODE: sigself MODE prints the same and exits the same under
# mapsample as without it
same() {
	name=$1
	set +e
	"$programs/sigself" "$2" </dev/null >"$tmp/$name.plain" 2>/dev/null
	want=$?
	set -e
	sample "$name" -F 1000 -- "$programs/sigself" "$2"
	[ "$rc" = "$want" ] || {
		show "$tmp/$name.out" "$tmp/$name.err"
		fail "$name: exit $rc, without mapsample $want"
	}
	cmp -s "$tmp/$name.out" "$tmp/$name.plain" || {
		show "$tmp/$name.out" "$tmp/$name.plain" "$tmp/$name.err"
		fail "$name: output differs from the run without mapsample"
	}
}

same handler handler
grep -q '^own signals: sent 200, received 200, other 0$' "$tmp/handler.out" ||
	{ show "$tmp/handler.out"; fail "handler: its own signals did not all reach its handler"; }
[ "$(grep -c 'installs a handler for signal 38, which carried the samples; they come on signal [0-9]* from now on' "$tmp/handler.err")" = 1 ] ||
	{ show "$tmp/handler.err"; fail "handler: no one line saying the samples moved"; }
report handler
[ "$(func_self handler burn_own)" -gt 100 ] ||
	{ show "$tmp/handler.report"; fail "handler: burn_own not sampled after the move"; }
echo "ok - handler: the program's handler gets its 200 signals, the samples move"

same default default
[ "$rc" = 166 ] || fail "default: exit $rc, expected 166 (signal 38)"
report default
processes default | grep -q ' signal 38$' ||
	{ show "$tmp/default.report"; fail "default: the report does not show 'signal 38'"; }
echo "ok - default: raise() with SIG_DFL kills the program, recorded"

same ignore ignore
echo "ok - ignore: SIG_IGN keeps it alive"

same mask mask
grep -q '^blocked as read: 1$' "$tmp/mask.out" &&
	grep -q '^pthread_sigmask reads: 1$' "$tmp/mask.out" &&
	grep -q '^sigwaitinfo: RTMIN+4, value 7$' "$tmp/mask.out" ||
	{ show "$tmp/mask.out"; fail "mask: the mask read back or sigwaitinfo differs"; }
echo "ok - mask: the mask reads as set, sigwaitinfo gets its signal"

same exec exec
grep -q '^inherited: ignored, blocked$' "$tmp/exec.out" ||
	{ show "$tmp/exec.out"; fail "exec: the new image did not inherit SIG_IGN and the mask"; }
grep -q 'ignores signal 38 already; samples come on signal' "$tmp/exec.err" ||
	{ show "$tmp/exec.err"; fail "exec: no line saying another signal was picked at start"; }
report exec
[ "$(func_self exec burn_own)" -gt 50 ] ||
	{ show "$tmp/exec.report"; fail "exec: the new image was not sampled"; }
echo "ok - exec: the new image keeps SIG_IGN and its mask, sampled on another signal"

for s in 5 11 17 20 32 33 0 65 KILL; do
	sample "refuse$s" --signal "$s" -- "$programs/sigself" ignore
	[ "$rc" = 125 ] || { show "$tmp/refuse$s.err"; fail "--signal $s: exit $rc, expected 125"; }
	[ "$(wc -l <"$tmp/refuse$s.err")" = 1 ] &&
		grep -q "^mapsample: --signal $s: .*; give a real-time signal" "$tmp/refuse$s.err" ||
		{ show "$tmp/refuse$s.err"; fail "--signal $s: not one line with the reason"; }
	[ ! -s "$tmp/refuse$s.out" ] || fail "--signal $s: the program ran"
done
echo "ok - --signal 5 11 17 20 32 33 0 65 KILL refused with one line"
echo "mapsample-sigown: all cases passed"
