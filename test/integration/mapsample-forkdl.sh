#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-forkdl: a program that forks while another of its threads
# dlopens and dlcloses a library (test/programs/forkdl.c).  A fork can
# land while that thread holds the dynamic loader's lock; in the child
# nobody releases it, so the sampler must not take it there (its list
# of loaded objects comes from its snapshot until the child loads
# something itself).  Before that was so, the first child or one of the
# next hung in dl_iterate_phdr, 3 runs of 3.  Here: 100 children at the
# default rate and 100 at 2 kHz, each run ends (60 s timeout), every
# child exits 0 and is in the report.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs forkdl
LC_ALL=C
export LC_ALL

lib=$top_builddir/test/programs/.libs/libdlwork.so
[ -f "$lib" ] || fail "$lib missing: run 'make check' first"

for rate in default 2000; do
	opt=
	[ "$rate" = default ] || opt="-F $rate"
	set +e
	# shellcheck disable=SC2086
	timeout -k 5 60 "$mapsample" -q -o "$tmp/f$rate.log" $opt -- \
		"$programs/forkdl" "$lib" 100 </dev/null >"$tmp/f.out" 2>"$tmp/f.err"
	rc=$?
	set -e
	[ "$rc" != 124 ] && [ "$rc" != 137 ] ||
		{ show "$tmp/f.err"; fail "rate $rate: hung (a fork child stuck on the loader's lock)"; }
	[ "$rc" = 0 ] || { show "$tmp/f.err"; fail "rate $rate: exit $rc"; }
	grep -q '^forkdl 100 children$' "$tmp/f.err" ||
		{ show "$tmp/f.err"; fail "rate $rate: program output lost"; }
	"$mapreport" --json "$tmp/f$rate.log" >"$tmp/f.json" 2>"$tmp/f.rerr" ||
		{ show "$tmp/f.rerr"; fail "rate $rate: mapreport failed"; }
	/usr/bin/python3 - "$tmp/f.json" <<'PY' || fail "rate $rate: report"
import json, sys
r = json.load(open(sys.argv[1]))
procs = r["processes"]
if len(procs) != 101:
    sys.exit("expected 101 processes, found %d" % len(procs))
parent = procs[0]["pid"]
kids = [p for p in procs[1:] if p["ppid"] == parent]
if len(kids) != 100:
    sys.exit("expected 100 children of %d, found %d" % (parent, len(kids)))
bad = [p for p in procs if p.get("exit") != {"how": "status", "code": 0}]
if bad:
    sys.exit("processes not ending with status 0: %r" % bad[:3])
PY
done
echo "PASS: mapsample-forkdl"
