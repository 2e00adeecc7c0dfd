#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare's metric rules on real runs (mapreport(1),
# COMPARING RUNS, Rules):
#   - metric names: a rule names a metric by its whole id or by a dotted
#     suffix of it (memory.peak_rss, peak_rss); test/programs/memgrow
#     holding 16 MiB in BASE and 96 MiB in NEW breaks
#     metric(memory.peak_rss).max > +10% and metric(peak_rss) > +10%,
#     with the change the two runs' own reports give; two runs holding
#     16 MiB each pass the same rules (verdict "pass", not "no data");
#   - a name that ends two ids (rss: the sampler's memory.rss and the
#     made-up log's com.example.mem.rss, test/common/mklog --metrics)
#     is a usage error: exit 2, the rule, its column and both ids;
#   - totals: the rate metrics have a metric-total row, the sum of
#     their values before the division by sample time; for io.write
#     under test/programs/iowrite it is exactly the bytes the program
#     wrote, on each side; metric(io.write).total > +50% is broken when
#     NEW writes four times as much, and holds against the same run;
#     a level (memory.rss) has no total row: its .total rule has no data;
#   - every comparison JSON is valid against the schema.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs memgrow iowrite
schema=$top_srcdir/share/mapsample/mapreport.schema.json
validate=$top_srcdir/test/integration/json/validate.py
mklog=$top_builddir/test/common/mklog
python=/usr/bin/python3
LC_ALL=C
export LC_ALL

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }
"$python" -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: python3-jsonschema missing (Debian package)"; exit 77; }

# cmp WANT_RC NAME ARGS...: mapreport --compare ARGS --json=NAME.json in
# $tmp, text to NAME.out, errors to NAME.err; fails unless it exits
# WANT_RC.
cmp() {
	want=$1
	name=$2
	shift 2
	set +e
	(cd "$tmp" && "$mapreport" --compare "$@" --json="$name.json" \
		>"$name.out" 2>"$name.err")
	got=$?
	set -e
	[ "$got" = "$want" ] ||
		{ show "$tmp/$name.out" "$tmp/$name.err"; fail "$name: mapreport --compare $*: exit $got, not $want"; }
}

# py PROGRAM ARGS...: python3 -c PROGRAM in $tmp.
py() {
	prog=$1
	shift
	(cd "$tmp" && "$python" -c "$prog" "$@")
}

# run NAME PROGRAM ARGS...: PROGRAM under mapsample into $tmp/NAME.log.
run() {
	name=$1
	shift
	sample "$name" --metric-interval 10 -- "$@"
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: exit $rc"; }
}

test_names() {
	run small1 "$programs/memgrow" 16
	run small2 "$programs/memgrow" 16
	run big "$programs/memgrow" 96
	for r in 'metric(memory.peak_rss).max > +10%' 'metric(peak_rss) > +10%' \
		'metric(com.mapsample.metrics.memory.peak_rss).max > +10%'; do
		cmp 3 grow small1.log big.log --fail-if "$r"
		grep -qF "BROKEN  $r" "$tmp/grow.out" ||
			{ show "$tmp/grow.out"; fail "'$r' not broken by 16 -> 96 MiB"; }
		cmp 0 same small1.log small2.log --fail-if "$r"
		grep -qF "pass    $r" "$tmp/same.out" ||
			{ show "$tmp/same.out"; fail "'$r' not judged on two runs of 16 MiB"; }
	done
	# the change is the one the two runs' own reports give
	for n in small1 big; do
		"$mapreport" --json="$tmp/$n.report.json" "$tmp/$n.log" \
			>/dev/null 2>&1 ||
			fail "mapreport --json $n.log"
	done
	cmp 3 grow small1.log big.log --fail-if 'metric(peak_rss).max > +10%'
	"$python" "$validate" "$schema" "$tmp/grow.json" "$tmp/same.json" ||
		fail "comparison JSON not valid against $(basename "$schema")"
	py 'import json, math
c = json.load(open("grow.json"))
r = c["rules"][0]
assert r["verdict"] == "broken", r
assert r["subject"] == "metric(com.mapsample.metrics.memory.peak_rss).max", r
def peak(n):
    d = json.load(open(n + ".report.json"))
    m = [x for x in d["metrics"] if x["id"].endswith(".memory.peak_rss")]
    assert len(m) == 1, [x["id"] for x in d["metrics"]]
    return m[0]["max"]
b, n = peak("small1"), peak("big")
assert n > b + 60 * 2**20, (b, n)
assert math.isclose(r["change"], 100 * (n - b) / b, rel_tol=1e-6), (r, b, n)
s = json.load(open("same.json"))["rules"][0]
assert s["verdict"] == "pass" and abs(s["change"]) < 10, s
' || fail "metric rule figures"
	echo "ok - metric names: id, memory.peak_rss, peak_rss broken by 16 -> 96 MiB, pass on 16 -> 16"
}

test_ambiguous() {
	"$mklog" --metrics "$tmp/synth.log" >/dev/null || fail "mklog --metrics"
	cmp 2 amb synth.log small1.log --fail-if 'metric( rss ) > +10%'
	grep -qF "mapreport: --fail-if: invalid rule 'metric( rss ) > +10%': column 9: metric name 'rss' is ambiguous: it ends com.example.mem.rss and com.mapsample.metrics.memory.rss" "$tmp/amb.err" ||
		{ show "$tmp/amb.err"; fail "ambiguous name: no error naming both ids"; }
	# a longer suffix names one
	cmp 0 unamb synth.log small1.log --fail-if 'metric(memory.rss) > +100000%'
	grep -qF "pass    metric(memory.rss) > +100000%" "$tmp/unamb.out" ||
		{ show "$tmp/unamb.out"; fail "memory.rss not judged"; }
	echo "ok - an ambiguous metric name: exit 2 with both ids"
}

test_total() {
	run io1 "$programs/iowrite" "$tmp/io1.data" 512
	run io4 "$programs/iowrite" "$tmp/io4.data" 2048
	cmp 3 io io1.log io4.log --fail-if 'metric(io.write).total > +50%' \
		--fail-if 'metric(memory.rss).total > +1%'
	grep -qF "BROKEN  metric(io.write).total > +50%" "$tmp/io.out" ||
		{ show "$tmp/io.out"; fail "io.write total rule not broken"; }
	grep -qF "no data metric(memory.rss).total > +1%" "$tmp/io.out" ||
		{ show "$tmp/io.out"; fail "a level's total rule: not 'no data'"; }
	grep -q '^Metrics (total over the run, rates only)$' "$tmp/io.out" ||
		fail "no text table of metric totals"
	cmp 0 io-same io1.log io1.log --fail-if 'metric(io.write).total > +50%'
	"$python" "$validate" "$schema" "$tmp/io.json" "$tmp/io-same.json" ||
		fail "comparison JSON not valid against $(basename "$schema")"
	# each side's total: the bytes iowrite wrote (its counts line went
	# through write(2) too, as in metrics-io.sh)
	wb=$(awk '/^written/ { print $2 + length($0) + 1 }' "$tmp/io1.err")
	wn=$(awk '/^written/ { print $2 + length($0) + 1 }' "$tmp/io4.err")
	[ -n "$wb" ] && [ -n "$wn" ] || fail "iowrite printed no counts"
	for n in io1 io4; do
		"$mapreport" --json="$tmp/$n.report.json" "$tmp/$n.log" \
			>/dev/null 2>&1 || fail "mapreport --json $n.log"
	done
	py 'import json, sys
wb, wn = float(sys.argv[1]), float(sys.argv[2])
c = json.load(open("io.json"))
rows = {(r["kind"], r["name"].rsplit(".", 2)[-2] + "." + r["name"].rsplit(".", 1)[-1]): r
        for r in c["rows"] if r["kind"].startswith("metric")}
t = rows[("metric-total", "io.write")]
assert t["subject"] == "metric(com.mapsample.metrics.io.write).total", t
assert t["units"] == "B", t
assert t["base"]["value"] == wb and t["new"]["value"] == wn, (t, wb, wn)
assert ("metric-total", "memory.rss") not in rows
assert ("metric-mean", "memory.rss") in rows
assert ("metric-total", "cpu.user") in rows
u = rows[("metric-total", "cpu.user")]
assert u["units"] == "s" and 0 < u["base"]["value"] < 60, u
r = c["rules"][0]
assert r["kind"] == "metric-total" and r["verdict"] == "broken", r
# every total row is the TOTAL of the report of its log
for side, log in (("base", "io1"), ("new", "io4")):
    rep = {m["id"]: m for m in json.load(open(log + ".report.json"))["metrics"]}
    tot = [x for x in c["rows"] if x["kind"] == "metric-total"]
    want = [i for i, m in rep.items() if m["total"] is not None]
    assert sorted(x["name"] for x in tot) == sorted(want), (tot, want)
    for x in tot:
        m = rep[x["name"]]
        assert abs(x[side]["value"] - m["total"]) <= 1e-9 * abs(m["total"]), (x, m)
        assert (x["units"] or "") == m["total_units"], (x, m)
' "$wb" "$wn" || fail "metric totals"
	echo "ok - totals: io.write total = bytes written ($wb, $wn), rule broken"
}

test_names
test_ambiguous
test_total
echo "mapreport-compare-metrics: all cases passed"
