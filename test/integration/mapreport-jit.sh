#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-jit.sh: code a JIT compiler made is named from the
# /tmp/perf-PID.map it wrote, even when the program deleted the map
# before it exited.  test/programs/jitmap copies a count-down loop into
# anonymous executable memory (no file maps it), names it
# jit_countdown_loop_qz in its perf map, between two other entries, spins
# there and deletes the map.  The sampler keeps the map open once seen
# and copies it into the log at the end; mapreport must then put the
# loop's samples on jit_countdown_loop_qz (module [jit]) in the text
# report, the folded stacks and the JSON, none on its neighbours, and
# the map must be gone from /tmp (the program deleted it, so mapreport
# read the copy in the log).  Without the copy every sample is
# "[unknown]".
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs jitmap

sample jd -F 1000 -- "$programs/jitmap" 600 delete
[ "$rc" = 77 ] && { echo "jitmap has no code for $(uname -m)"; exit 77; }
[ "$rc" = 0 ] || { show "$tmp/jd.err"; fail "mapsample exited $rc"; }
pid=$("$mapreport" "$tmp/jd.log" 2>/dev/null |
	awk '$0 == "Processes" { getline; getline; print $1; exit }')
[ -n "$pid" ] || fail "no process in the report"
[ ! -e "/tmp/perf-$pid.map" ] || {
	rm -f "/tmp/perf-$pid.map"
	fail "/tmp/perf-$pid.map was not deleted by jitmap"
}

report jd
[ "$r" = 0 ] || { show "$tmp/jd.rerr"; fail "mapreport exited $r"; }
pct=$(func_self_pct jd jit_countdown_loop_qz)
check "$pct >= 80" || { show "$tmp/jd.report"; fail "jit_countdown_loop_qz has $pct% of the self samples, expected >= 80% (named from the perf map copied into the log)"; }
grep -q 'jit_countdown_loop_qz  *(\[jit\])' "$tmp/jd.report" ||
	{ show "$tmp/jd.report"; fail "jit_countdown_loop_qz's location is not ([jit])"; }
if grep -q 'jit_stub_before\|jit_stub_after' "$tmp/jd.report"; then
	show "$tmp/jd.report"
	fail "samples put on the map's neighbouring entries"
fi

report jd --folded
n=$(awk '$1 ~ /;jit_countdown_loop_qz$/ { s += $2 } END { print s + 0 }' "$tmp/jd.report")
[ "$n" -ge 100 ] || { show "$tmp/jd.report"; fail "folded stacks hold $n samples ending in jit_countdown_loop_qz, expected >= 100"; }

report jd --json
grep -q '"name": *"jit_countdown_loop_qz"' "$tmp/jd.report" ||
	{ head -c 3000 "$tmp/jd.report" >&2; fail "jit_countdown_loop_qz not in the JSON"; }

echo "ok: JIT code named from a perf map the program deleted ($pct% self, $n folded samples)"
