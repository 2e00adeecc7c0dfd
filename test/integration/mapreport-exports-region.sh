#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --region NAME applies to the exports as to the report: on a
# run of test/programs/marks (region "phase1" runs phase_one_burn, region
# "phase2" phase_two_burn, while a second thread, in no region, runs
# other_burn), --region phase2 with --speedscope, --trace and --pprof in
# the same command must give each export exactly the samples of
# --region phase2 --folded (speedscope, whose samples are merged per
# thread and stack: the stacks of --folded; the trace: the samples of its
# slices; pprof: go tool pprof -top's total), all of them in stacks of phase_two_burn's region: neither
# phase_one_burn nor other_burn may appear in any of the three.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}
command -v go >/dev/null 2>&1 || {
	echo "SKIP: go (golang-go) not installed: no go tool pprof"
	exit 77
}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
HOME=$tmp
GOCACHE=$tmp/gocache
PPROF_TMPDIR=$tmp
export HOME GOCACHE PPROF_TMPDIR

need_programs marks

sample marks -F 1000 -- "$programs/marks" 300
[ "$rc" = 0 ] || { show "$tmp/marks.err"; fail "marks under mapsample exited $rc"; }
report marks --region phase2 --folded="$tmp/f2" --speedscope "$tmp/s.json" \
	--trace "$tmp/t.json" --pprof "$tmp/p.pb.gz"
want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/f2")
all=$(samples marks)
report marks
whole=$(samples marks)
check "$want > 20 && $want < $whole" || {
	show "$tmp/f2"
	fail "--region phase2 --folded holds $want samples of $whole"
}
grep -q phase_two_burn "$tmp/f2" || fail "--folded: no phase_two_burn in phase2"
[ "$all" = "$want" ] || fail "the report says $all samples, --folded $want"

python3 - "$tmp/s.json" "$tmp/t.json" "$want" "$tmp/f2" <<'PY' || fail "speedscope or trace export not narrowed to region phase2"
import json, sys
want = int(sys.argv[3])
bad = ("phase_one_burn", "other_burn")
s = json.load(open(sys.argv[1]))
frames = s["shared"]["frames"]
names = set()
stacks = set()
for p in s["profiles"]:
    for st in p["samples"]:
        names.update(frames[i]["name"] for i in st)
        stacks.add(";".join(frames[i]["name"] for i in st))
# the stacks of --folded, without the process at their root
folded = set()
for line in open(sys.argv[4]):
    folded.add(line.rsplit(" ", 1)[0].split(";", 1)[1])
assert stacks == folded, ("speedscope: stacks not those of --folded",
                          sorted(stacks ^ folded)[:4])
assert "phase_two_burn" in names, "speedscope: no phase_two_burn"
for b in bad:
    assert b not in names, "speedscope: %s in the samples" % b
t = json.load(open(sys.argv[2]))
ev = t["traceEvents"] if isinstance(t, dict) else t
xs = [e for e in ev if e.get("ph") == "X"]
n = sum(e["args"]["samples"] for e in xs)
assert n == want, "trace: %d samples in slices, --folded %d" % (n, want)
for b in bad:
    assert not any(e["name"] == b for e in xs), "trace: a slice of %s" % b
PY

go tool pprof -sample_index=samples -top "$tmp/p.pb.gz" >"$tmp/top" \
	2>"$tmp/pprof.err" || { show "$tmp/pprof.err"; fail "go tool pprof -top failed"; }
total=$(sed -n 's/.* of \([0-9]*\) total.*/\1/p' "$tmp/top" | head -n 1)
[ "$total" = "$want" ] || { show "$tmp/top"; fail "pprof: ${total:-no} total samples, --folded $want"; }
grep -q phase_two_burn "$tmp/top" || { show "$tmp/top"; fail "pprof: no phase_two_burn"; }
if grep -Eq 'phase_one_burn|other_burn' "$tmp/top"; then
	show "$tmp/top"
	fail "pprof: functions outside region phase2"
fi
echo "ok: --region phase2 gives speedscope, trace and pprof $want samples, as --folded"
