#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The otf2 substrate plugin under mapsample: test/programs/marks (two
# threads, regions phase1 and phase2, a point mark) sampled at 1 kHz
# with the cpu.user metric and --substrate PATH-OF-THE-OTF2-PLUGIN.
# - the program runs as without it (exit 0, its output);
# - LOG.otf2/traces.otf2 reads without error or warning (otf2-print
#   -Werror, also unwinding every calling context);
# - the trace agrees with mapreport on the same log: per thread the same
#   number of samples (the sorted lists of per-thread counts are equal)
#   and the same number of values per metric, counting the records of
#   mapreport --dump up to the trace's ProgramEnd (where the host ends its
#   plugins; a sample taken on the way out after it is in the log only);
#   phase1 and phase2 entered as often as mapreport --json says;
# - test/programs/forkexec (three process images) leaves three archives,
#   each read without error, with the log's samples between them; the
#   forks and execs are in them as mapreport --dump has them (proc-fork,
#   proc-exec): per fork a region "fork" on the parent's thread whose
#   child_pid is the child, and the child's archive a process group
#   created by the parent's group, its first event a ProgramBegin after
#   the fork; per exec an archive whose group ("process PID after exec")
#   was created by "process PID before exec";
# - test/programs/threadsrun with test/plugins/otf2slow preloaded (the
#   plugin's sample writes made slow, so the host drops its events): the
#   trace shows the loss as MeasurementOnOff OFF/ON gaps, balanced per
#   thread, and the metric "mapsample dropped events" whose totals in
#   the gaps add up to the count mapsample says it dropped.
# Skipped while mapsample has no --substrate option (the substrate host,
# mapsample-substrate(3), is not in this build) and when configure found
# no libotf2; runs as soon as both are there.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

plugin=$top_builddir/plugins/substrate-otf2/.libs/libmapsample_substrate_otf2.so
metric=com.mapsample.metrics.cpu.user

if [ "${HAVE_OTF2:-}" = no ]; then
	echo "SKIP: configure found no libotf2 (apt-get install libotf2-trace-dev), the otf2 plugin is not built"
	exit 77
fi
"$mapsample" --help 2>&1 | grep -q -e '--substrate' || {
	echo "SKIP: this mapsample has no --substrate option yet (no substrate plugin host); the test runs once it has"
	exit 77
}
[ -f "$plugin" ] || fail "$plugin missing: run make first"
command -v otf2-print >/dev/null 2>&1 ||
	fail "otf2-print not found: apt-get install otf2-tools"
command -v python3 >/dev/null 2>&1 || fail "python3 not found: apt-get install python3"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs marks

sample m -F 1000 --metrics "none,$metric" --substrate "$plugin" -- \
	"$programs/marks" 100
[ "$rc" = 0 ] || { show "$tmp/m.err"; fail "marks under mapsample --substrate otf2 exited $rc"; }
[ "$(cat "$tmp/m.out")" = "marks: done" ] ||
	{ show "$tmp/m.out" "$tmp/m.err"; fail "marks' output changed under the otf2 plugin"; }
anchor=$tmp/m.log.otf2/traces.otf2
[ -f "$anchor" ] || { show "$tmp/m.err"; ls -R "$tmp" >&2; fail "no trace $anchor"; }

otf2-print -Werror "$anchor" >"$tmp/events" 2>"$tmp/print.err" ||
	{ show "$tmp/print.err"; fail "otf2-print -Werror failed on the trace"; }
otf2-print -Werror --unwind-calling-context "$anchor" >/dev/null 2>"$tmp/unwind.err" ||
	{ show "$tmp/unwind.err"; fail "otf2-print --unwind-calling-context failed on the trace"; }
otf2-print -I "$anchor" >"$tmp/info" 2>&1 || true

# The program's end in the trace: the host ends its plugins there, and a
# sample the sampler takes later, on the way out, is in the log only.
end=$(awk '$1 == "PROGRAM_END" && $2 ~ /^[0-9]+$/ { print $3; exit }' "$tmp/events")
[ -n "$end" ] || fail "no ProgramEnd in the trace"

report m --json
cp "$tmp/m.report" "$tmp/m.json"
# the files the plugin wrote are in the log (MANIFEST records): listed
# by the text report and in the JSON, which the installed schema accepts
/usr/bin/python3 - "$tmp/m.json" "$top_srcdir/share/mapsample/mapreport.schema.json" <<'PY' ||
import json, sys
import jsonschema
r = json.load(open(sys.argv[1]))
jsonschema.validate(r, json.load(open(sys.argv[2])))
files = r.get("substrate_files", [])
assert any(f["plugin"] == "otf2" and f["path"].endswith(".otf2/traces.otf2")
           for f in files), files
PY
	fail "the JSON does not list the trace the otf2 plugin wrote (substrate_files)"
report m
grep -q '^  otf2: .*\.otf2/traces\.otf2 (' "$tmp/m.report" ||
	{ show "$tmp/m.report"; fail "the text report does not list the trace under Substrate plugin files"; }
report m --json
report m --dump
# mapreport's counts up to the end: per-thread samples (sorted), values
# per metric (--dump); entries per region (--json)
python3 - "$tmp/m.report" "$tmp/m.json" "$end" >"$tmp/want" <<'PY'
import collections, json, sys
end = int(sys.argv[3])
samples = collections.Counter()
values = collections.Counter()
after = 0
ids = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5:
        continue
    sec, frac = f[1].split(".")
    ts = int(sec) * 1000000000 + int(frac.ljust(9, "0")[:9])
    if f[3] == "metric-def":
        ids[f[4]] = f[5]
    elif ts > end:
        after += f[3] == "sample"
    elif f[3] == "sample":
        samples[f[2].split("/")[1]] += 1
    elif f[3] == "metric-value" and "(no value)" not in line:
        values[ids.get(f[4], f[4])] += 1
print("samples", " ".join(map(str, sorted(samples.values()))))
for m in sorted(values):
    print("metric", m, values[m])
d = json.load(open(sys.argv[2]))
for r in sorted(d["regions"], key=lambda r: r["name"]):
    print("region", r["name"], r["count"])
print("after", after)
PY
# the same from the trace
awk '
	$1 == "CALLING_CONTEXT_SAMPLE" && $2 ~ /^[0-9]+$/ { s[$2]++ }
	$1 == "METRIC" && $2 ~ /^[0-9]+$/ {
		if (match($0, /Value: \("[^"]*"/)) {
			id = substr($0, RSTART + 9, RLENGTH - 10); m[id]++
		}
	}
	$1 == "ENTER" && $2 ~ /^[0-9]+$/ {
		if (match($0, /Region: "[^"]*"/)) {
			r = substr($0, RSTART + 9, RLENGTH - 10); e[r]++
		}
	}
	END {
		n = 0
		for (l in s) c[++n] = s[l]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && c[j - 1] > c[j]; j--) {
				t = c[j]; c[j] = c[j - 1]; c[j - 1] = t
			}
		line = "samples"
		for (i = 1; i <= n; i++) line = line " " c[i]
		print line
		for (id in m) print "metric", id, m[id] | "sort"
		close("sort")
		for (r in e) print "region", r, e[r] | "sort"
		close("sort")
	}' "$tmp/events" >"$tmp/got"

grep '^samples' "$tmp/want" >"$tmp/want.s"
grep '^samples' "$tmp/got" >"$tmp/got.s"
cmp -s "$tmp/want.s" "$tmp/got.s" || {
	show "$tmp/want.s" "$tmp/got.s" "$tmp/info"
	fail "samples per thread differ between mapreport (first) and the trace (second)"
}
[ "$(wc -w <"$tmp/want.s")" -ge 3 ] || { show "$tmp/want.s"; fail "fewer than two threads with samples"; }
grep -q "^metric $metric [1-9]" "$tmp/want" ||
	{ show "$tmp/want"; fail "mapreport shows no value of $metric"; }
while read -r kind id n; do
	case $kind in
	metric) ;;
	region) [ "$id" = phase1 ] || [ "$id" = phase2 ] || continue ;;
	*) continue ;;
	esac
	grep -qx "$kind $id $n" "$tmp/got" || {
		show "$tmp/want" "$tmp/got"
		fail "$kind $id: mapreport counts $n, the trace $(grep "^$kind $id " "$tmp/got" || echo none)"
	}
done <"$tmp/want"
# test/programs/forkexec: three process images (the program, its forked
# child, the program the child execs), three archives, each read without
# error; together they hold the log's samples but for at most one per
# image taken after the image's end
need_programs forkexec
sample f --substrate "$plugin" -- "$programs/forkexec" 100
[ "$rc" = 4 ] || { show "$tmp/f.err"; fail "forkexec under mapsample --substrate otf2 exited $rc, not 4"; }
n=0
total=0
for a in "$tmp"/f.log.otf2/traces*.otf2; do
	[ -f "$a" ] || continue
	n=$((n + 1))
	otf2-print -Werror "$a" >"$tmp/f.events" 2>"$tmp/f.print.err" ||
		{ show "$tmp/f.print.err"; fail "otf2-print -Werror failed on $(basename "$a")"; }
	total=$((total + $(grep -c '^CALLING_CONTEXT_SAMPLE' "$tmp/f.events" || true)))
done
[ "$n" = 3 ] || { ls "$tmp/f.log.otf2" >&2; fail "forkexec: $n archives, not one per process image (3)"; }
report f --json
want=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["samples"])' "$tmp/f.report")
[ "$total" -le "$want" ] && [ "$total" -ge $((want - 3)) ] ||
	fail "forkexec: $total samples in the archives, $want in the log"


# the forks and execs of the log (mapreport --dump) in the archives
report f --dump
for a in "$tmp"/f.log.otf2/traces*.otf2; do
	b=$(basename "$a" .otf2)
	otf2-print -Werror "$a" >"$tmp/f.$b.events" 2>"$tmp/f.print.err" &&
		otf2-print -Werror -G "$a" >"$tmp/f.$b.defs" 2>>"$tmp/f.print.err" ||
		{ show "$tmp/f.print.err"; fail "otf2-print -Werror failed on $b.otf2"; }
done
forks=$(python3 - "$tmp/f.report" "$tmp"/f.traces*.defs <<'PY'
import re, sys
forks, execs = [], []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 6 and f[3] == "proc-fork":
        forks.append((int(f[4]), int(f[6])))
    elif len(f) > 5 and f[3] == "proc-exec":
        execs.append(int(f[5]))
if len(forks) != 1 or len(execs) != 1:
    sys.exit("mapreport --dump: %d forks and %d execs, not 1 and 1" % (len(forks), len(execs)))
# per archive: its own group (the one its locations are in), the group
# that created it, its first event, the forks on its threads
arch = {}
for defs in sys.argv[2:]:
    groups, own = {}, None
    for line in open(defs):
        m = re.match(r'LOCATION_GROUP +\d+ +Name: "([^"]*)" <\d+>, Type: PROCESS, '
                     r'Parent: .*, Creator: (UNDEFINED|"([^"]*)")', line)
        if m:
            groups[m.group(1)] = m.group(3)
        m = re.match(r'LOCATION +\d+ .*Group: "([^"]*)"', line)
        if m:
            own = m.group(1)
    if own is None:
        sys.exit("%s: no location in a group" % defs)
    first, fk, enter = None, [], None
    for line in open(defs[:-5] + ".events"):
        f = line.split()
        if len(f) > 2 and f[1].isdigit() and f[2].isdigit():
            if first is None:
                first = (f[0], int(f[2]))
            enter = int(f[2]) if f[0] == "ENTER" and 'Region: "fork"' in line else None
        m = re.search(r'\("child_pid" <\d+>; UINT32; (\d+)\)', line)
        if m and enter is not None:
            fk.append((int(m.group(1)), enter))
    arch[defs] = (own, groups[own], first, fk)
def pid_of(group):
    m = re.match(r"process (\d+)( after exec)?$", group or "")
    return int(m.group(1)) if m else None
got = sorted((pid_of(own), c) for own, _, _, fk in arch.values() for c, _ in fk)
if got != sorted(forks):
    sys.exit("forks (parent, child): mapreport %s, the traces %s" % (forks, got))
for parent, child in forks:
    at = [t for own, _, _, fk in arch.values() if pid_of(own) == parent
          for c, t in fk if c == child][0]
    kids = [(cr, first) for own, cr, first, _ in arch.values()
            if own == "process %d" % child]
    if len(kids) != 1:
        sys.exit("fork %d -> %d: %d archives of group 'process %d'" % (parent, child, len(kids), child))
    cr, first = kids[0]
    if pid_of(cr) != parent:
        sys.exit("fork %d -> %d: the child's group was created by %r" % (parent, child, cr))
    if first[0] != "PROGRAM_BEGIN" or first[1] < at:
        sys.exit("fork %d -> %d at %d: the child's first event is %s at %d" % (parent, child, at, first[0], first[1]))
got = sorted(pid_of(own) for own, cr, _, _ in arch.values()
             if own.endswith(" after exec") and cr == "process %d before exec" % pid_of(own))
if got != sorted(execs):
    sys.exit("exec'd images: mapreport %s, the traces %s" % (execs, got))
print("%d fork, %d exec" % (len(forks), len(execs)))
PY
) || fail "forkexec: the traces' forks and execs differ from the log's"

# drops: the plugin made slow (its sample writes sleep 20 ms), so that
# the host drops its events; the preloaded library reaches mapsample's
# launcher too, which in a sanitizer build must then allow its ASan
# runtime not to come first
need_programs threadsrun
slow=$top_builddir/test/plugins/.libs/libotf2slow.so
[ -f "$slow" ] || fail "$slow missing: run 'make check' first"
otf2lib=$(ldd "$plugin" | awk '$1 ~ /^libopen-trace-format2/ { print $3; exit }')
[ -f "$otf2lib" ] || fail "ldd names no libotf2 for $plugin"
saved_asan=${ASAN_OPTIONS-}
LD_PRELOAD=$slow OTF2SLOW_LIB=$otf2lib
ASAN_OPTIONS=${saved_asan:+$saved_asan:}verify_asan_link_order=0
export LD_PRELOAD OTF2SLOW_LIB ASAN_OPTIONS
sample d -F 1000 --substrate "$plugin" -- "$programs/threadsrun" 4 2
unset LD_PRELOAD OTF2SLOW_LIB
ASAN_OPTIONS=$saved_asan
[ "$rc" = 0 ] || { show "$tmp/d.err"; fail "threadsrun with a slow otf2 plugin exited $rc"; }
lost=$(sed -n 's/.*substrate plugin .* fell behind in pid [0-9]*: \([0-9]*\) of its events dropped/\1/p' "$tmp/d.err")
[ -n "$lost" ] && [ "$lost" -gt 0 ] ||
	{ show "$tmp/d.err"; fail "the slow plugin lost no events (no 'fell behind' line), the case tests nothing"; }
otf2-print -Werror "$tmp/d.log.otf2/traces.otf2" >"$tmp/d.events" 2>"$tmp/d.print.err" ||
	{ show "$tmp/d.print.err"; fail "otf2-print -Werror failed on the trace with drops"; }
drops=$(awk '
	$2 !~ /^[0-9]+$/ { next }
	$1 == "MEASUREMENT_ON_OFF" && / Mode: OFF/ { if (gap[$2]) bad = 1; gap[$2] = 1; offs++ }
	$1 == "MEASUREMENT_ON_OFF" && / Mode: ON/ { if (!gap[$2]) bad = 1; gap[$2] = 0 }
	$1 == "METRIC" && /"mapsample dropped events"/ {
		v = $NF; sub(/\)$/, "", v)
		if (gap[$2]) inside += v - last[$2]
		last[$2] = v
	}
	END {
		for (l in gap) if (gap[l]) bad = 1
		print (bad ? "unbalanced" : "balanced"), offs + 0, inside + 0
	}' "$tmp/d.events")
set -- $drops
[ "$1" = balanced ] || fail "drops: MeasurementOnOff OFF and ON are not paired per location"
[ "$2" -gt 0 ] || fail "drops: no MeasurementOnOff OFF in the trace, mapsample dropped $lost events"
[ "$3" = "$lost" ] ||
	fail "drops: the trace's dropped-events metric counts $3 in its gaps, mapsample dropped $lost"

echo "ok - trace agrees with mapreport: $(cat "$tmp/want.s"), $(grep "^metric" "$tmp/want" | tr '\n' ' ')($(grep "^after" "$tmp/want") samples after the end); forkexec: $total of $want samples in 3 archives, $forks as in the log; drops: $lost lost in $2 gaps"
exit 0
