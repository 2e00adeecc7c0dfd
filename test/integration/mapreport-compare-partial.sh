#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The partial report values in mapreport --compare (mapreport(1),
# COMPARING RUNS) on real runs of test/programs/cmpwork (BASE) and its
# slow build (NEW), with test/integration/partial/reference-example.xml
# reading a metric mapsample records (its metricRef set to
# com.mapsample.metrics.memory.rss):
#   - the text report has a "Partial report values" row for the report
#     metric, with a number on each side;
#   - the --json row (kind "partial") holds on each side the value the
#     report of that side's log alone gives (--json partial_reports),
#     the change in percent, no sigma; the output is valid against
#     share/mapsample/mapreport.schema.json;
#   - --markdown has the row in its "Partial report values" table;
#   - partial(ID) rules: one that must hold is broken (exit 3), one that
#     cannot hold passes (exit 0), an unknown ID has no data, and
#     partial(ID) > +2pp is an invalid rule (exit 2).
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
work=$top_builddir/test/programs/cmpwork
slow=$top_builddir/test/programs/slow/cmpwork
fixture=$top_srcdir/test/integration/partial/reference-example.xml
schema=$top_srcdir/share/mapsample/mapreport.schema.json
validate=$top_srcdir/test/integration/json/validate.py
python=/usr/bin/python3
id=com.example.metrics.sample.average

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }
"$python" -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: python3-jsonschema missing (Debian package)"; exit 77; }
for p in "$work" "$slow"; do
	[ -x "$p" ] || { echo "FAIL: $p missing: run 'make check'" >&2; exit 1; }
done

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# No definitions from the user's own places.
HOME=$tmp/home
export HOME
unset MAPSAMPLE_CONFIG_DIR ALLINEA_CONFIG_DIR \
	MAPSAMPLE_PARTIAL_REPORT_SOURCE ALLINEA_PARTIAL_REPORT_SOURCE || true
mkdir "$HOME"

# run WANT_RC NAME ARGS...: mapreport ARGS in $tmp, output to NAME.out,
# NAME.err; fails unless the exit status is WANT_RC.
run() {
	want=$1
	name=$2
	shift 2
	set +e
	(cd "$tmp" && "$mapreport" "$@" >"$name.out" 2>"$name.err")
	rc=$?
	set -e
	[ "$rc" = "$want" ] || { cat "$tmp/$name.out" "$tmp/$name.err" >&2; fail "$name: mapreport $*: exit $rc, not $want"; }
}

"$mapsample" -q -o "$tmp/base.log" -- "$work" </dev/null >/dev/null 2>&1 ||
	fail "mapsample cmpwork"
"$mapsample" -q -o "$tmp/new.log" -- "$slow" </dev/null >/dev/null 2>&1 ||
	fail "mapsample slow cmpwork"
sed 's/com\.allinea\.metrics\.sample\.interrupts/com.mapsample.metrics.memory.rss/' \
	"$fixture" >"$tmp/rss.xml"
grep -q 'metricRef="com.mapsample.metrics.memory.rss"' "$tmp/rss.xml" ||
	fail "$fixture: no metricRef to point at a recorded metric"
p="--partial-report rss.xml"

# each side's value as the report of its log alone gives it
run 0 base-report --json $p base.log
run 0 new-report --json $p new.log

run 0 text --compare base.log new.log $p
grep -A3 '^Partial report values$' "$tmp/text.out" >"$tmp/rows" ||
	fail "text: no 'Partial report values' table"
grep -Eq "^ +[0-9.e+]+ +[0-9.e+]+ +[-+][0-9.]+% +\\? +$id " "$tmp/rows" ||
	{ cat "$tmp/rows" >&2; fail "text: no row with both values for $id"; }

run 0 json --compare base.log new.log $p --json
(cd "$tmp" && "$python" - "$id" <<'PY') || fail "json: the partial row is wrong"
import json, math, sys
ident = sys.argv[1]
def alone(name):
    d = json.load(open(name + ".out"))
    vals = [e["value"] for r in d["partial_reports"]["reports"]
            for s in r["subsections"] for e in s["entries"]
            if e["id"] == ident and e["state"] == "value"]
    assert len(vals) == 1, (name, vals)
    return vals[0]
rows = [r for r in json.load(open("json.out"))["rows"] if r["kind"] == "partial"]
assert [r["name"] for r in rows] == [ident], rows
r = rows[0]
b, n = alone("base-report"), alone("new-report")
assert r["subject"] == "partial(%s)" % ident, r
assert r["base"]["present"] and r["new"]["present"], r
assert math.isclose(r["base"]["value"], b, rel_tol=1e-9), (r["base"], b)
assert math.isclose(r["new"]["value"], n, rel_tol=1e-9), (r["new"], n)
assert math.isclose(r["change_percent"], 100 * (n - b) / b, rel_tol=1e-6), r
assert r["sigma"] is None and not r["significant"], r
PY
"$python" "$validate" "$schema" "$tmp/json.out" ||
	fail "json: not valid against $(basename "$schema")"

run 0 md --compare base.log new.log $p --markdown
grep -A4 '^#### Partial report values' "$tmp/md.out" | grep -q "^| \`$id\` | [0-9]" ||
	{ cat "$tmp/md.out" >&2; fail "markdown: no row for $id"; }

# the rules: a relative change of a positive value is at least -100%
run 3 broken --compare base.log new.log $p --fail-if "partial($id) >= -100%"
grep -q "BROKEN  partial($id) >= -100%" "$tmp/broken.out" ||
	fail "rule partial($id) >= -100%: not broken"
run 0 pass --compare base.log new.log $p --fail-if "partial($id) < -100%"
grep -q "pass    partial($id) < -100%" "$tmp/pass.out" ||
	fail "rule partial($id) < -100%: not passed"
run 0 nodata --compare base.log new.log $p --fail-if "partial(com.example.none) > +1%"
grep -q "no data partial(com.example.none)" "$tmp/nodata.out" ||
	fail "rule on an unknown partial id: not 'no data'"
run 2 badunit --compare base.log new.log $p --fail-if "partial($id) > +2pp"
grep -q "invalid rule 'partial($id) > +2pp': column" "$tmp/badunit.err" ||
	fail "partial(ID) in pp: not an invalid rule"
echo "ok: partial report values in --compare (text, JSON, Markdown, rules)"
