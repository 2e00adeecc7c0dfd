#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The otf2 substrate plugin's unit test, without mapsample:
# test/plugins/substrate-driver loads the plugin and calls it as the host
# does (mapsample-substrate(3)) for four threads of one process with
# samples, metric values, regions, marks and MPI calls, and says what it
# sent.  Then:
# - the archive LOG.otf2/traces.otf2 reads without error or warning
#   (otf2-print -Werror, also unwinding every calling context);
# - per location, the CallingContextSample, Enter, Leave and Metric events
#   are as many as the driver sent (a mark is an Enter and a Leave);
# - the definitions: one location per thread with its name, in one
#   process location group under the rank's system tree node, a metric
#   class per metric definition (one never recorded included), every
#   calling-context root the stacks' outermost frame, names from the
#   host (address_name) or MODULE+OFFSET (address_module);
# - the DROP event (5 events lost on location 1): a MeasurementOnOff OFF
#   and ON around the gap on that location, and the value 5 of the
#   metric "mapsample dropped events" (ACCUMULATED_START) at the OFF;
# - the manifest lists the archive;
# - a second run on the same log replaces the archive (no stale files);
# - a log in a place the folder cannot be made: init refuses, naming
#   the folder.
# Skipped only when configure did not find libotf2 (no plugin built).
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
plugin=$top_builddir/plugins/substrate-otf2/.libs/libmapsample_substrate_otf2.so
driver=$top_builddir/test/plugins/substrate-driver

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

if [ "${HAVE_OTF2:-}" = no ]; then
	echo "SKIP: configure found no libotf2 (apt-get install libotf2-trace-dev), the otf2 plugin is not built"
	exit 77
fi
[ -f "$plugin" ] || fail "$plugin missing: run make first"
[ -x "$driver" ] || fail "$driver missing: run 'make check' first"
command -v otf2-print >/dev/null 2>&1 ||
	fail "otf2-print not found: apt-get install otf2-tools"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_driver() {
	"$driver" "$plugin" otf2 "$tmp/run.maplog" "$tmp/manifest" \
		>"$tmp/sent" 2>"$tmp/driver.err" || {
		cat "$tmp/driver.err" >&2
		fail "substrate-driver exited $?"
	}
}
run_driver
anchor=$tmp/run.maplog.otf2/traces.otf2
[ -f "$anchor" ] || fail "no archive $anchor"

otf2-print -Werror "$anchor" >"$tmp/events" 2>"$tmp/print.err" || {
	cat "$tmp/print.err" >&2
	fail "otf2-print -Werror failed on the archive"
}
otf2-print -Werror --unwind-calling-context "$anchor" >/dev/null 2>"$tmp/unwind.err" || {
	cat "$tmp/unwind.err" >&2
	fail "otf2-print --unwind-calling-context failed on the archive"
}
[ ! -s "$tmp/print.err" ] || { cat "$tmp/print.err" >&2; fail "otf2-print wrote to stderr"; }

# count KIND LOCATION: the events of KIND on LOCATION ("all": every one),
# but the plugin's own dropped-events metric
count() {
	awk -v k="$1" -v l="$2" '$1 == k && $2 ~ /^[0-9]+$/ && (l == "all" || $2 == l) &&
		!/"mapsample dropped events"/ { n++ }
		END { print n + 0 }' "$tmp/events"
}

nloc=0
while read -r _ loc _ samples _ enter _ leave _ metric; do
	[ "$loc" = all ] || nloc=$((nloc + 1))
	for pair in "CALLING_CONTEXT_SAMPLE $samples" "ENTER $enter" \
		"LEAVE $leave" "METRIC $metric"; do
		set -- $pair
		got=$(count "$1" "$loc")
		[ "$got" = "$2" ] ||
			fail "location $loc: $got $1 events in the trace, the driver sent $2"
	done
done <"$tmp/sent"
[ "$nloc" = 4 ] || fail "the driver reported $nloc locations, not 4"
[ "$(count CALLING_CONTEXT_SAMPLE all)" -gt 0 ] || fail "no samples at all"
for k in PROGRAM_BEGIN PROGRAM_END; do
	[ "$(count $k 0)" = 1 ] || fail "$k on location 0: $(count $k 0) events, not 1"
done
for k in THREAD_BEGIN THREAD_END; do
	[ "$(count $k all)" = 3 ] || fail "$k: $(count $k all) events, not 3 (one per worker)"
done
grep -q 'ADDITIONAL ATTRIBUTES: ("bytes_sent" <0>; UINT64; 4096), ("bytes_received" <1>; UINT64; 0), ("peer" <2>; INT32; 3)' \
	"$tmp/events" || fail "an MPI_Send's Leave lacks its bytes and peer attributes"

# the drop: OFF at location 1's last event before it, with the total of
# its lost events, ON at its next event (its THREAD_END)
awk '$2 == 1 && ($1 == "MEASUREMENT_ON_OFF" || /"mapsample dropped events"/ ||
	$1 == "THREAD_END") { print $1, $NF }' "$tmp/events" >"$tmp/drops"
printf '%s\n' "MEASUREMENT_ON_OFF OFF" "METRIC 5)" "MEASUREMENT_ON_OFF ON" \
	"THREAD_END 1" >"$tmp/drops.want"
cmp -s "$tmp/drops" "$tmp/drops.want" || {
	cat "$tmp/drops" >&2
	fail "location 1's 5 lost events are not an OFF/ON gap with the dropped-events metric at 5 (above: what the trace has)"
}
[ "$(grep -c 'MEASUREMENT_ON_OFF' "$tmp/events")" = 2 ] ||
	fail "MeasurementOnOff events on other locations than the one with the loss"

otf2-print -G "$anchor" >"$tmp/defs" 2>&1 || fail "otf2-print -G failed"
grep -q '^METRIC_MEMBER .*Name: "mapsample dropped events".*Mode: ACCUMULATED_START, Value Type: UINT64.*Unit: "events"' "$tmp/defs" ||
	fail "no metric member \"mapsample dropped events\" (ACCUMULATED_START, UINT64, events)"
for name in main "worker 1" "worker 2" "worker 3"; do
	grep -q "^LOCATION  .*Name: \"$name\" <[0-9]*>, Type: CPU_THREAD" "$tmp/defs" ||
		fail "no location named \"$name\" in the definitions"
done
[ "$(grep -c '^LOCATION  ' "$tmp/defs")" = 4 ] || fail "not 4 locations in the definitions"
grep -q '^LOCATION_GROUP .*Type: PROCESS, Parent: "rank::rank 2"' "$tmp/defs" ||
	fail "no process location group under the system tree node of rank 2"
[ "$(grep -c '^METRIC_CLASS ' "$tmp/defs")" = 4 ] ||
	fail "not 4 metric classes (one per METRIC definition, one of the drops)"
grep -q '^METRIC_MEMBER .*"com.example.metrics.ratio".*Value Type: DOUBLE' "$tmp/defs" ||
	fail "the double metric is not a DOUBLE member"
grep -q '^CLOCK_PROPERTIES *Ticks per Seconds: 1000000000' "$tmp/defs" ||
	fail "the clock is not in nanoseconds"
roots=$(grep '^CALLING_CONTEXT .*Parent: UNDEFINED' "$tmp/defs" | grep -vc 'Region: "fn_4000"' || true)
[ "$roots" = 0 ] || fail "$roots calling-context roots are not the outermost frame fn_4000"
grep -q '^REGION .*Name: "libfake.so.1+0x' "$tmp/defs" ||
	fail "no region named MODULE+OFFSET for the addresses the host has no name for"
grep -q '^REGION .*Name: "phase1".*Paradigm: USER' "$tmp/defs" ||
	fail "the user region phase1 is not a region of paradigm USER"

grep -q '^run.maplog.otf2/traces.otf2	' "$tmp/manifest" ||
	{ cat "$tmp/manifest" >&2; fail "the manifest does not list the archive's anchor file"; }

# a second run replaces the archive: a stale event file is gone, the
# counts are those of one run
: >"$tmp/run.maplog.otf2/traces/99.evt"
run_driver
[ ! -e "$tmp/run.maplog.otf2/traces/99.evt" ] || fail "a stale event file survived a new run"
otf2-print -Werror "$anchor" >"$tmp/events" 2>&1 || fail "otf2-print failed on the second archive"
total=$(awk '$2 == "all" { print $4 }' "$tmp/sent")
[ "$(count CALLING_CONTEXT_SAMPLE all)" = "$total" ] ||
	fail "second run: $(count CALLING_CONTEXT_SAMPLE all) samples, not $total"

# a log where no folder can be made next to it: init refuses, naming it
set +e
"$driver" "$plugin" otf2 /dev/null/run.maplog >/dev/null 2>"$tmp/refused.err"
rc=$?
set -e
[ "$rc" = 2 ] || { cat "$tmp/refused.err" >&2; fail "init did not refuse a log under /dev/null (exit $rc)"; }
grep -q 'init refused: /dev/null/run.maplog.otf2: cannot create' "$tmp/refused.err" ||
	{ cat "$tmp/refused.err" >&2; fail "init's message does not name the folder"; }
exit 0
