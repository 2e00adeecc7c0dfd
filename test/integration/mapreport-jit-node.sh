#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-jit-node.sh: JavaScript functions by name.  Node (Debian's
# nodejs, a test dependency in build.sh; skipped, exit 77, without it)
# with --perf-basic-prof writes /tmp/perf-PID.map for the code its JIT
# compilers make.  A function with a distinctive name burns the CPU: it
# must head the text report's self table and end most folded stacks.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

node=$(command -v nodejs || command -v node || true)
[ -n "$node" ] || { echo "nodejs not installed"; exit 77; }

tmp=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || rm -f "/tmp/perf-$pid.map"
	rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/burn.js" <<'JS'
function mapsampleBurnQuux(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
  return x;
}
// 1.5 s of CPU time, however loaded the machine is
let s = 0;
const t0 = process.cpuUsage();
while (process.cpuUsage(t0).user < 1500000) s += mapsampleBurnQuux(100000);
console.log(s > 0 ? "done" : "none");
JS

# in the temporary folder: with --perf-basic-prof V8 also writes an
# isolate-*-v8.log into the current folder (distcheck refuses files left
# in the build tree)
cd "$tmp"
sample nd -- "$node" --perf-basic-prof "$tmp/burn.js"
cd - >/dev/null
[ "$rc" = 0 ] || { show "$tmp/nd.err"; fail "mapsample exited $rc"; }
pid=$("$mapreport" "$tmp/nd.log" 2>/dev/null |
	awk '$0 == "Processes" { getline; getline; print $1; exit }')

report nd
[ "$r" = 0 ] || { show "$tmp/nd.rerr"; fail "mapreport exited $r"; }
first=$(awk '$0 == "Top functions by self samples" { getline; getline; print; exit }' "$tmp/nd.report")
case $first in
*mapsampleBurnQuux*'([jit])') ;;
*) show "$tmp/nd.report"; fail "the hottest function is not mapsampleBurnQuux from the perf map: $first" ;;
esac

report nd --folded
total=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/nd.report")
n=$(awk '{ k = $0; sub(/ [0-9]+$/, "", k); if (k ~ /;[^;]*mapsampleBurnQuux[^;]*$/) s += $NF } END { print s + 0 }' "$tmp/nd.report")
check "$n * 2 >= $total" || fail "$n of $total folded samples end in mapsampleBurnQuux, expected at least half"
echo "ok: $n of $total samples in mapsampleBurnQuux"
