#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# metrics-faults: metric getters that break the plugin API's rules must
# not stall, hang or kill the program (mapsample-plugin(3), "When a
# plugin misbehaves").  With the test plugins of test/plugins
# (badgetter.c: each getter misbehaves from its third call; goodgetter.c:
# a plain counter loaded beside it):
#   - a getter that sleeps 5 s: the program (1 s of CPU) ends within a
#     few seconds, not after a 5 s sleep per metric tick;
#   - a getter that spins for ever: the program ends;
#   - a getter that calls malloc in a program that lives in malloc (two
#     threads, so glibc takes its arena locks): no deadlock (a getter
#     that blocks on the lock its thread holds is stopped like the
#     sleeping one);
#   - a getter that writes through a null pointer: the program is not
#     killed, exits 0 with its own output, also when the getter runs on
#     the sampler's own thread (an idle program);
# and each time the plugin is disabled with one line naming the getter
# and the reason (mapsample's stderr and a plugin-error record in the
# log), its first values are kept, and the good plugin's values go on to
# the end.  MAPSAMPLE_GETTER_TIMEOUT_MS changes the deadline.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs cpuburn mallocburn threadsrun
LC_ALL=C
export LC_ALL

plugdir=$top_builddir/test/plugins/.libs
[ -f "$plugdir/libbadgetter.so" ] ||
	fail "$plugdir/libbadgetter.so missing: run 'make check' first"
mkdir "$tmp/metrics"
cp "$top_srcdir/test/plugins/badgetter.xml" \
	"$top_srcdir/test/plugins/goodgetter.xml" "$tmp/metrics/"
cp "$plugdir/libbadgetter.so" "$plugdir/libgoodgetter.so" "$tmp/metrics/"

now_ms() { date +%s%3N; }

# run CASE PROGRAM ARGS...: the program under mapsample with the bad
# getter CASE and the good one at a 20 ms metric interval; a hang fails
# after 60 s.  Sets $ms (wall time) and checks exit and output.
run() {
	case_=$1
	shift
	t0=$(now_ms)
	set +e
	timeout -k 5 60 "$mapsample" -o "$tmp/$case_.log" \
		--metrics-dir "$tmp/metrics" \
		--metrics "none,org.mapsample.test.bad_$case_,org.mapsample.test.good" \
		--metric-interval 20 -- "$@" </dev/null >"$tmp/$case_.out" \
		2>"$tmp/$case_.err"
	rc=$?
	set -e
	ms=$(($(now_ms) - t0))
	[ "$rc" != 124 ] && [ "$rc" != 137 ] ||
		{ show "$tmp/$case_.err"; fail "$case_: the program hung (killed after 60 s)"; }
	[ "$rc" = 0 ] ||
		{ show "$tmp/$case_.err"; fail "$case_: exit $rc, not the program's 0"; }
}

# disabled CASE REASON: the plugin is disabled with one line naming the
# getter and REASON, in mapsample's stderr and in the log; it gave
# values before; the good plugin's values go on until the end.
disabled() {
	case_=$1
	why=$2
	line="mapsample: metric plugin org.mapsample.test.bad_$case_: getter bg_$case_ $why; the plugin is disabled for the rest of the run"
	n=$(grep -cF "$line" "$tmp/$case_.err" || true)
	[ "$n" = 1 ] || { show "$tmp/$case_.err"; fail "$case_: expected once on stderr: $line"; }
	"$mapreport" -D "$tmp/$case_.log" >"$tmp/$case_.dump" 2>"$tmp/$case_.rerr" ||
		{ show "$tmp/$case_.rerr"; fail "$case_: mapreport -D failed"; }
	grep 'plugin-error' "$tmp/$case_.dump" | grep -qF "getter bg_$case_ $why" ||
		fail "$case_: no plugin-error record naming the getter in the log"
	bad=$(awk -v id="org.mapsample.test.bad.$case_" '$4 == "metric-def" && $6 == id {
		sub("#", "", $5); print $5; exit }' "$tmp/$case_.dump")
	good=$(awk '$4 == "metric-def" && $6 == "org.mapsample.test.good.count" {
		sub("#", "", $5); print $5; exit }' "$tmp/$case_.dump")
	[ -n "$bad" ] && [ -n "$good" ] || fail "$case_: metric definitions missing"
	nb=$(awk -v i="#$bad" '$4 == "metric-value" && $5 == i' "$tmp/$case_.dump" | wc -l)
	[ "$nb" -ge 1 ] && [ "$nb" -le 2 ] ||
		fail "$case_: $nb values of the bad getter, expected its first one or two"
	# the good counter keeps counting: its last value is at the end of the run
	last_good=$(awk -v i="#$good" '$4 == "metric-value" && $5 == i { v = $6 } END { print v + 0 }' "$tmp/$case_.dump")
	[ "$last_good" -ge 10 ] ||
		fail "$case_: the good plugin stopped at $last_good values"
}

# ---- a getter that sleeps 5 s ----
# the same program with the good plugin alone, side by side: the machine
# may be loaded, so the stall is the difference
t0=$(now_ms)
timeout -k 5 60 "$mapsample" -q -o "$tmp/base.log" --metrics-dir "$tmp/metrics" \
	--metrics none,org.mapsample.test.good --metric-interval 20 -- \
	"$programs/cpuburn" 1000 </dev/null >/dev/null 2>&1 ||
	fail "baseline run failed"
base_ms=$(($(now_ms) - t0))
run sleep "$programs/cpuburn" 1000
# (lenient, for loaded machines: a stalled run sleeps 5 s a tick, and the
# getter's values and the disabled line below decide)
[ "$ms" -lt $((base_ms * 2 + 4000)) ] ||
	fail "sleep: the run took $ms ms, $base_ms ms without the plugin (the getter's sleeps stalled it)"
grep -q '^cpu-ms' "$tmp/sleep.err" || { show "$tmp/sleep.err"; fail "sleep: program output lost"; }
disabled sleep "did not return within 250 ms"

# ---- a getter that spins for ever ----
run spin "$programs/cpuburn" 1000
disabled spin "did not return within 250 ms"

# ---- a getter that calls malloc, in a program inside malloc ----
# (two threads: glibc's malloc takes its arena lock only then)
run malloc "$programs/mallocburn" 1000 2
grep -q '^mallocburn done$' "$tmp/malloc.err" || { show "$tmp/malloc.err"; fail "malloc: program output lost"; }
# disabled only if it ever deadlocked; either way the run ended above

# ---- a getter that crashes ----
run crash "$programs/cpuburn" 1000
disabled crash "crashed (SIGSEGV)"

# ---- a getter that crashes on the sampler's own thread ----
# (an idle program: the metric ticks run on the writer thread, which
# blocks every signal; a fault while blocked kills without a handler)
cp "$tmp/crash.log" "$tmp/crash-busy.log"
run crash /bin/sleep 1
disabled crash "crashed (SIGSEGV)"

# ---- the deadline is the user's to set ----
MAPSAMPLE_GETTER_TIMEOUT_MS=50
export MAPSAMPLE_GETTER_TIMEOUT_MS
run spin "$programs/cpuburn" 600
disabled spin "did not return within 50 ms"
unset MAPSAMPLE_GETTER_TIMEOUT_MS

# ---- a getter kept waiting for a CPU is not a getter that hangs ----
# The program in a cgroup of its own allowed 5 ms of CPU time each 100
# ms: its threads spend most of the run throttled, on the run queue, the
# host-test plugin's well-behaved getters among them (hosttest.c).  With
# a deadline of 20 ms, before the deadline left out run-queue time every
# run of this shape (3 of 3) disabled the plugin, and its backfilled
# metric got no value at all; a node with more processes than cores does
# the same to the default 250 ms.  Needs root and the cpu controller
# (cgroup v1 or v2); nothing else on the machine is slowed.
starved() {
	cg=
	if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu ] &&
		[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		cg=/sys/fs/cgroup/cpu/mapsample-test-$$
		mkdir "$cg" && echo 100000 >"$cg/cpu.cfs_period_us" &&
			echo 5000 >"$cg/cpu.cfs_quota_us" || cg=
	elif [ "$(id -u)" = 0 ] &&
		grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg=/sys/fs/cgroup/mapsample-test-$$
		mkdir "$cg" && echo "5000 100000" >"$cg/cpu.max" || cg=
	fi
	if [ -z "$cg" ]; then
		skip_part cgroup "a getter starved of CPU (needs root and a cgroup cpu controller)"
		return 0
	fi
	mkdir "$tmp/host"
	cp "$top_srcdir/test/plugins/hosttest.xml" "$plugdir/libhosttest.so" "$tmp/host/"
	set +e
	MAPSAMPLE_GETTER_TIMEOUT_MS=20 timeout -k 5 120 sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$cg" "$mapsample" -o "$tmp/starved.log" --metrics-dir "$tmp/host" \
		--metrics none,org.mapsample.test.hosttest --metric-interval 10 -- \
		"$programs/threadsrun" 16 2 </dev/null >"$tmp/starved.out" \
		2>"$tmp/starved.err"
	rc=$?
	set -e
	rmdir "$cg" 2>/dev/null || true
	[ "$rc" = 0 ] || { show "$tmp/starved.err"; fail "starved: exit $rc"; }
	if grep -q 'did not return within' "$tmp/starved.err"; then
		show "$tmp/starved.err"
		fail "starved: a getter kept waiting for a CPU was taken for a hang"
	fi
	"$mapreport" -D "$tmp/starved.log" >"$tmp/starved.dump" 2>/dev/null ||
		fail "starved: mapreport -D failed"
	for id in safe when; do
		i=$(awk -v id="org.mapsample.test.$id" '$4 == "metric-def" && $6 == id {
			sub("#", "", $5); print $5; exit }' "$tmp/starved.dump")
		n=$(awk -v i="#$i" '$4 == "metric-value" && $5 == i' "$tmp/starved.dump" | wc -l)
		[ "$n" -ge 2 ] || { show "$tmp/starved.err"; fail "starved: $n values of $id"; }
	done
	echo "ok - getters throttled to 5% of a CPU kept their plugin: $n backfilled values"
}
starved

echo "PASS: metrics-faults"
