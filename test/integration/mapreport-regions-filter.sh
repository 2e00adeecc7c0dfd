#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The Regions table follows the filters (--pid, --tid, --time) in the
# text and JSON reports, and the MPI call statistics say which filters
# cannot narrow them.  test/programs/marks runs region "phase1", then
# region "phase2" on its main thread while a second thread, in no
# region, burns; its log is read back with mapreport -D and the figures
# of each case are worked out from the records themselves (a region of
# a thread from its begin to its end mark; a sample inside when its time
# is within that; --time FROM:TO in seconds from the earliest record):
# - --tid of the second thread: both regions entered 0 times, 0 s
#   inside, 0 samples (the whole run's figures before);
# - --tid of the main thread: the whole run's entries, times and samples;
# - --time from the middle of phase1 to the middle of phase2: phase1
#   entered 0 times (it began before), its time inside from FROM to its
#   end, its samples in the range; phase2 entered once, from its begin
#   to TO; the samples inside as counted from the records; the text says
#   the table is narrowed;
# - on a synthetic log with per-process MPI totals (test/common/mklog),
#   --tid and --time add a line that the MPI figures are the whole run's
#   of the processes kept, --pid does not; the JSON report's
#   mpi_calls_scope says the same (and follows the schema).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"
mklog=$top_builddir/test/common/mklog
validate=$top_srcdir/test/integration/json/validate.py
schema=$top_srcdir/share/mapsample/mapreport.schema.json

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs marks

"$mapsample" -q -F 1000 -o "$tmp/mk.log" -- "$programs/marks" 150 \
	>"$tmp/mk.out" 2>&1 || { show "$tmp/mk.out"; fail "marks under mapsample failed"; }
"$mapreport" -D "$tmp/mk.log" >"$tmp/mk.dump" 2>/dev/null ||
	fail "mapreport -D failed"

# expect ARGS...: the regions' figures mapreport ARGS should give, from
# the dump: "NAME COUNT NS SAMPLES" a line.  ARGS: [--tid N] [--time A:B]
expect() {
	python3 - "$tmp/mk.dump" "$@" <<'PY'
import sys
dump, args = sys.argv[1], sys.argv[2:]
tid = frm = to = None
while args:
    if args[0] == "--tid":
        tid = int(args[1])
    elif args[0] == "--time":
        a, b = args[1].split(":")
        frm = float(a) if a else None
        to = float(b) if b else None
    args = args[2:]
def ns(s):
    a, b = s.split(".")
    return int(a) * 1000000000 + int(b.ljust(9, "0"))
t0, marks, samples, ends = None, [], [], {}
for line in open(dump):
    f = line.split()
    if len(f) < 4 or "." not in f[1]:
        continue
    ts = ns(f[1])
    t0 = ts if t0 is None else min(t0, ts)
    if f[3] == "mark":
        marks.append((ts, int(f[5]), int(f[7]), f[8] if len(f) > 8 else ""))
    elif f[3] == "sample":
        samples.append((ts, int(f[5])))
    elif f[3] == "thread-end":
        ends[int(f[5])] = ts
def keep_time(ts):
    s = (ts - t0) / 1e9
    return (frm is None or s >= frm) and (to is None or s < to)
# entries: (name, tid, begin, end) from begin (1) and end (2) marks
open_, entries = {}, []
for ts, t, v, name in sorted(marks):
    if v == 1:
        open_.setdefault(t, []).append((name, ts))
    elif v == 2 and open_.get(t):
        n, b = open_[t].pop()
        entries.append((n, t, b, ts))
for t, st in open_.items():
    for n, b in st:
        entries.append((n, t, b, ends[t]))
lo = t0 + (round(frm * 1e9) if frm else 0)
hi = t0 + round(to * 1e9) if to is not None else float("inf")
out = {}
for n, t, b, e in entries:
    r = out.setdefault(n, [0, 0, 0])
    if tid is not None and t != tid:
        continue
    if lo <= b < hi:
        r[0] += 1
    r[1] += max(0, min(e, hi) - max(b, lo))
    r[2] += sum(1 for ts, st in samples
                if st == t and b <= ts < e and keep_time(ts))
for n, r in sorted(out.items()):
    print(n, *r)
PY
}

# got ARGS...: the same from mapreport ARGS --json (seconds as ns) and
# the text report's Regions table (which must agree with the JSON).
got() {
	"$mapreport" "$@" --json "$tmp/mk.log" >"$tmp/got.json" 2>/dev/null ||
		fail "mapreport $* --json failed"
	"$mapreport" "$@" "$tmp/mk.log" >"$tmp/got.txt" 2>/dev/null ||
		fail "mapreport $* failed"
	python3 - "$tmp/got.json" "$tmp/got.txt" <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))["regions"]
text = open(sys.argv[2]).read().split("\nRegions\n", 1)[1].split("\n\n", 1)[0]
rows = {l.split()[0]: l.split() for l in text.split("\n")[1:] if l.startswith("  ") and not l.startswith("   ")}
for r in sorted(rs, key=lambda r: r["name"]):
    t = rows[r["name"]]
    assert int(t[1]) == r["count"] and int(t[3]) == r["samples"], (t, r)
    assert abs(float(t[2]) - r["seconds"]) < 0.0006, (t, r)
    print(r["name"], r["count"], round(r["seconds"] * 1e9), r["samples"])
PY
}

# same CASE ARGS...: mapreport ARGS's regions are those of the dump
# (times within 2 us: --time's seconds against the records' ns).
same() {
	what=$1
	shift
	expect "$@" >"$tmp/want"
	got "$@" >"$tmp/have"
	paste -d' ' "$tmp/want" "$tmp/have" | awk -v w="$what" '
		$1 != $5 || $2 != $6 || $4 != $8 || ($3 - $7 > 2000 || $7 - $3 > 2000) {
			print "  " w ": want " $1, $2, $3, $4 "; got " $5, $6, $7, $8
			bad = 1 }
		END { exit bad }' >&2 || fail "$what: the Regions figures are not the records'"
	[ "$(wc -l <"$tmp/want")" = 2 ] && [ "$(wc -l <"$tmp/have")" = 2 ] ||
		fail "$what: not 2 regions"
}

main=$(awk '$4 == "thread-begin" && $8 == 0 { print $6; exit }' "$tmp/mk.dump")
other=$(awk '$4 == "thread-begin" && $8 != 0 { print $6; exit }' "$tmp/mk.dump")
[ -n "$main" ] && [ -n "$other" ] || { show "$tmp/mk.dump"; fail "no two threads in the dump"; }

test_other_thread() {
	same "--tid $other" --tid "$other"
	[ "$(cat "$tmp/want")" = "phase1 0 0 0
phase2 0 0 0" ] || { show "$tmp/want"; fail "the second thread has regions"; }
	grep -q "^  narrowed to the filters: the entries the kept threads began, their time inside and the samples kept$" \
		"$tmp/got.txt" || { show "$tmp/got.txt"; fail "--tid: no line that the Regions table is narrowed"; }
}

test_main_thread() {
	same "--tid $main" --tid "$main"
	expect >"$tmp/whole"
	cmp -s "$tmp/want" "$tmp/whole" || fail "--tid of the main thread: not the whole run's regions"
	awk '$2 != 1 || $4 < 10 { exit 1 }' "$tmp/want" ||
		{ show "$tmp/want"; fail "regions not entered once, or with few samples"; }
}

test_time() {
	range=$(python3 - "$tmp/mk.dump" <<'PY'
import sys
def ns(s):
    a, b = s.split(".")
    return int(a) * 1000000000 + int(b.ljust(9, "0"))
t0, b = None, {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 4 or "." not in f[1]:
        continue
    ts = ns(f[1])
    t0 = ts if t0 is None else min(t0, ts)
    if f[3] == "mark" and f[7] in ("1", "2"):
        b.setdefault(f[7], []).append(ts)
(b1, b2), (e1, e2) = sorted(b["1"]), sorted(b["2"])
print("%.9f:%.9f" % (((b1 + e1) / 2 - t0) / 1e9, ((b2 + e2) / 2 - t0) / 1e9))
PY
)
	same "--time $range" --time "$range"
	awk '$1 == "phase1" && $2 != 0 { exit 1 } $1 == "phase2" && $2 != 1 { exit 1 }
		$4 < 5 { exit 1 }' "$tmp/want" ||
		{ show "$tmp/want"; fail "--time $range: not the halves of both regions"; }
	grep -q "^  narrowed to the filters: the entries the kept threads began within --time, their time inside within it and the samples kept$" \
		"$tmp/got.txt" || { show "$tmp/got.txt"; fail "--time: no line that the Regions table is narrowed"; }
	same "--tid $main --time $range" --tid "$main" --time "$range"
	same "--tid $other --time $range" --tid "$other" --time "$range"
}

test_mpi_note() {
	"$mklog" -n 2000 -p 2 -t 2 -s 3 "$tmp/r.log" >/dev/null
	line="  The logs hold each process's totals, written at MPI_Finalize, not its calls: these are the whole-run figures of the processes kept, not narrowed by"
	for args in "--tid 4001|--tid" "--time 0.001:|--time" \
		"--pid 4001 --tid 4001 --time 0:|--tid, --time" "--pid 4001|"; do
		opts=${args%%|*}
		by=${args#*|}
		# shellcheck disable=SC2086
		"$mapreport" $opts "$tmp/r.log" >"$tmp/mpi.txt" 2>/dev/null ||
			fail "mapreport $opts (synthetic log) failed"
		grep -q "^MPI call statistics" "$tmp/mpi.txt" ||
			{ show "$tmp/mpi.txt"; fail "$opts: no MPI call statistics"; }
		if [ -n "$by" ]; then
			grep -qxF "$line $by" "$tmp/mpi.txt" ||
				{ show "$tmp/mpi.txt"; fail "$opts: no line that the MPI figures are not narrowed by $by"; }
		elif grep -qF "$line" "$tmp/mpi.txt"; then
			fail "$opts: a line that --pid does not narrow the MPI figures"
		fi
		# the JSON report says the same in mpi_calls_scope
		# shellcheck disable=SC2086
		"$mapreport" $opts --json "$tmp/r.log" >"$tmp/mpi.json" 2>/dev/null ||
			fail "mapreport $opts --json (synthetic log) failed"
		python3 - "$tmp/mpi.json" "$by" <<'PY' || fail "$opts: mpi_calls_scope (above)"
import json, sys
r = json.load(open(sys.argv[1]))
want = [o for o in sys.argv[2].split(", ") if o]
got = r.get("mpi_calls_scope")
if not r["mpi_calls"] or got != {"whole_run": bool(want),
                                 "not_narrowed_by": want}:
    print("  mpi_calls_scope %s, want not narrowed by %s (%d MPI "
          "functions)" % (got, want, len(r["mpi_calls"])), file=sys.stderr)
    sys.exit(1)
PY
		python3 "$validate" "$schema" "$tmp/mpi.json" ||
			fail "$opts: the JSON report does not follow the schema"
	done
}

test_other_thread
test_main_thread
test_time
test_mpi_note
echo "mapreport-regions-filter: all cases passed"
