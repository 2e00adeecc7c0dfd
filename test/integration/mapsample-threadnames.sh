#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Threads renamed after they began: test/programs/rename names its main
# thread with prctl(PR_SET_NAME), a worker with pthread_setname_np, and
# another worker by writing its /proc/self/task/TID/comm.  The Threads
# table must show each thread's last name, and the log must hold a
# THREAD_NAME record for each.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs rename
sample rn -- "$programs/rename"
[ "$rc" = 0 ] || { show "$tmp/rn.err"; fail "rename: exit $rc, not 0"; }
report rn
names=$(awk '$0 == "Threads" { s = 1; getline; next }
	s && NF == 0 { s = 0 }
	s && $1 ~ /^[0-9]+$/ { print $4 }' "$tmp/rn.report" | sort | tr '\n' ' ')
[ "$names" = "late-comm late-main late-setname " ] || {
	show "$tmp/rn.report"
	fail "thread names '$names', not 'late-comm late-main late-setname'"
}
"$mapreport" --dump "$tmp/rn.log" >"$tmp/rn.dump" 2>&1 || fail "mapreport --dump failed"
n=$(grep -c ' thread-name ' "$tmp/rn.dump" || true)
[ "$n" = 3 ] || { show "$tmp/rn.dump"; fail "$n thread-name records, not 3"; }
echo "ok - threads renamed by prctl, pthread_setname_np and their comm file: each has its last name"
