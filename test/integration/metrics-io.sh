#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# metrics-io: the I/O accounting behind the io plugin (mapsample_io_bytes,
# lib/sampler/io.c) and the built-in metric set:
#   - a program that writes and reads a known number of bytes through
#     write, pwrite, writev, stdio, read, pread, readv and fread
#     (test/programs/iowrite, which prints its own counts): the io
#     plugin's deltas add up to exactly those counts;
#   - the same with the test plugin's getter doing allinea_safe_* I/O at
#     every metric sample at the same time: still exact;
#   - the same when the program puts a file of its own on the number of
#     the sampler's descriptor on /proc/self/io: exact, no errors;
#   - the default metric set: each default metric is defined and has
#     values, and nothing reports an error;
#   - energy (off by default) asked for on a machine without readable
#     RAPL: one clean "plugin not loaded" line, and the run goes on;
#   - the two example plugins under mapsample: example-startstop's trace
#     (its configuration value "trace", in a MAPSAMPLE_PLUGIN_CONFIG file)
#     shows start, then every getter call, then stop; example-backfill's
#     values are the seconds from its start to each sample time, one per
#     metric sample, written at the end.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs iowrite hot
LC_ALL=C
export LC_ALL

plugdir=$top_builddir/test/plugins/.libs
mkdir "$tmp/metrics"
cp "$top_srcdir/test/plugins/hosttest.xml" "$plugdir/libhosttest.so" \
	"$tmp/metrics/"

idx() {
	awk -v id="$2" '$4 == "metric-def" && $6 == id {
		sub("#", "", $5); print $5; exit }' "$1"
}
# total DUMP INDEX: the sum of metric INDEX's values
total() {
	awk -v i="#$2" '$4 == "metric-value" && $5 == i && $6 != "(no" {
		s += $6 } END { printf "%.0f\n", s }' "$1"
}

check_io() {
	name=$1
	shift
	sample "$name" --metric-interval 5 "$@" -- "$programs/iowrite" \
		"$tmp/$name.data" 2048 ${decoy:+"$decoy"}
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: exit $rc"; }
	line=$(grep '^written' "$tmp/$name.err") ||
		{ show "$tmp/$name.err"; fail "$name: no counts printed"; }
	w=$(echo "$line" | awk '{ print $2 }')
	r=$(echo "$line" | awk '{ print $4 }')
	# the line itself went through write(2) too
	w=$((w + ${#line} + 1))
	"$mapreport" -D "$tmp/$name.log" >"$tmp/$name.dump" 2>/dev/null
	ri=$(idx "$tmp/$name.dump" com.mapsample.metrics.io.read)
	wi=$(idx "$tmp/$name.dump" com.mapsample.metrics.io.write)
	[ -n "$ri" ] && [ -n "$wi" ] || fail "$name: io metrics not defined"
	gr=$(total "$tmp/$name.dump" "$ri")
	gw=$(total "$tmp/$name.dump" "$wi")
	[ "$gw" = "$w" ] || fail "$name: counted $gw bytes written, the program wrote $w"
	[ "$gr" = "$r" ] || fail "$name: counted $gr bytes read, the program read $r"
	nv=$(awk -v i="#$wi" '$4 == "metric-value" && $5 == i' "$tmp/$name.dump" | wc -l)
	[ "$nv" -ge 5 ] || fail "$name: only $nv samples of the write metric"
	! grep 'metric-error' "$tmp/$name.dump" >&2 ||
		fail "$name: metric errors recorded"
	echo "ok - $name: $gw bytes written and $gr read, exactly ($nv samples)"
}

check_io io --metrics none,io
check_io io-safe --metrics-dir "$tmp/metrics" \
	--metrics none,io,org.mapsample.test.safe
si=$(idx "$tmp/io-safe.dump" org.mapsample.test.safe)
ns=$(awk -v i="#$si" '$4 == "metric-value" && $5 == i && $6 > 0' "$tmp/io-safe.dump" | wc -l)
[ "$ns" -ge 5 ] || fail "io-safe: the safe I/O getter ran $ns times"
echo "ok - exact while a plugin did safe I/O $ns times"

# The program takes the number of the sampler's descriptor on
# /proc/self/io for a file of its own (text that looks like counters):
# the sampler must not read it, and opens /proc/self/io again quietly.
printf 'rchar: 1\nwchar: 1\n' >"$tmp/decoy"
decoy=$tmp/decoy check_io io-taken --metrics none,io

# ---- the default set ----
"$mapsample" -o "$tmp/def.log" -- "$programs/hot" </dev/null \
	>"$tmp/def.out" 2>"$tmp/def.err" ||
	{ show "$tmp/def.err"; fail "default metrics: run failed"; }
grep -q 'metric plugin\|^mapsample: metric ' "$tmp/def.err" &&
	{ show "$tmp/def.err"; fail "default metrics: errors reported"; }
"$mapreport" -D "$tmp/def.log" >"$tmp/def.dump" 2>/dev/null
# node metrics are read once a second and at the end: in this short run,
# at the start (no value yet for a difference) and at the end
for id in cpu.user cpu.system memory.rss memory.peak_rss memory.node_used \
	io.read io.write sched.context_switches sched.page_faults \
	system.load system.interrupts; do
	i=$(idx "$tmp/def.dump" "com.mapsample.metrics.$id")
	[ -n "$i" ] || fail "default metrics: $id not defined"
	n=$(awk -v i="#$i" '$4 == "metric-value" && $5 == i && $6 != "(no"' "$tmp/def.dump" | wc -l)
	case $id in system.interrupts) min=1 ;; *) min=2 ;; esac
	[ "$n" -ge "$min" ] || fail "default metrics: $id has $n values"
done
grep -q 'energy' "$tmp/def.dump" && fail "default metrics: energy is on"
echo "ok - the default metric set records every metric, no errors"

# ---- energy where RAPL cannot be read ----
if ! cat /sys/class/powercap/intel-rapl:0/energy_uj >/dev/null 2>&1; then
	"$mapsample" -o "$tmp/en.log" --metrics none,energy -- "$programs/hot" \
		</dev/null >"$tmp/en.out" 2>"$tmp/en.err" ||
		{ show "$tmp/en.err"; fail "energy: the run failed"; }
	n=$(grep -c '^mapsample: metric plugin com.mapsample.metrics.energy_src: plugin not loaded: ' "$tmp/en.err" || true)
	[ "$n" = 1 ] || { show "$tmp/en.err"; fail "energy: $n lines about it"; }
	echo "ok - energy: $(grep 'energy_src' "$tmp/en.err" | sed 's/.*not loaded: //')"
else
	echo "ok - energy: RAPL is readable here, the unsupported case is not tested"
fi

# ---- the example plugins: start/stop and backfill ----
cat >"$tmp/plugins.conf" <<CONF
[com.mapsample.metrics.example-startstop.minor_faults]
trace = $tmp/trace
CONF
MAPSAMPLE_PLUGIN_CONFIG=$tmp/plugins.conf
export MAPSAMPLE_PLUGIN_CONFIG
sample ex --metrics none,example-startstop,example-backfill --metric-interval 10 \
	-- "$programs/hot"
unset MAPSAMPLE_PLUGIN_CONFIG
[ "$rc" = 0 ] || { show "$tmp/ex.err"; fail "examples: exit $rc"; }
[ "$(head -1 "$tmp/trace")" = start ] || { show "$tmp/trace"; fail "startstop: start is not first"; }
[ "$(tail -1 "$tmp/trace")" = stop ] || { show "$tmp/trace"; fail "startstop: stop is not last"; }
ng=$(grep -c '^get ' "$tmp/trace")
"$mapreport" -D "$tmp/ex.log" >"$tmp/ex.dump" 2>/dev/null
si=$(idx "$tmp/ex.dump" com.mapsample.metrics.example-startstop.minor_faults)
nv=$(awk -v i="#$si" '$4 == "metric-value" && $5 == i' "$tmp/ex.dump" | wc -l)
[ "$ng" -ge 5 ] && [ "$ng" = "$nv" ] || fail "startstop: $ng getter calls traced, $nv values"
grep -q 'metric-error\|plugin-error' "$tmp/ex.dump" &&
	{ grep 'metric-error\|plugin-error' "$tmp/ex.dump" >&2; fail "examples: errors"; }
echo "ok - example-startstop: start, $ng getter calls, stop, in that order"
bi=$(idx "$tmp/ex.dump" com.mapsample.metrics.example-backfill.elapsed)
# each value is the time from the first sample time, within a millisecond
# (the start function runs just before the first metric sample)
awk -v i="#$bi" '$4 == "metric-value" && $5 == i { print $2, $6 }' "$tmp/ex.dump" |
	sort -n | awk '
	NR == 1 { t0 = $1 - $2 }
	{ d = ($1 - t0) - $2; if (d < 0) d = -d; if (d > 0.001) bad++; n++ }
	END { if (n < 5 || bad) { print n " values, " bad " off" > "/dev/stderr"; exit 1 } }' ||
	fail "example-backfill: values are not the time since start at each sample time"
nb=$(awk -v i="#$bi" '$4 == "metric-value" && $5 == i' "$tmp/ex.dump" | wc -l)
[ "$nb" = "$nv" ] || fail "example-backfill: $nb values for $nv metric samples"
echo "ok - example-backfill: $nb values, each the time since start at its sample time"
