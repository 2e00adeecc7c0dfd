#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --compare's outputs and the JSON Schema of every JSON output
# (mapreport(1), COMPARING RUNS, JSON SCHEMA), on real runs of
# test/programs/cmpwork and its slower build:
#   - JSON: every document mapreport writes (the report: clean, -n all,
#     a damaged log, an unreadable log, a partial definition in error;
#     the comparison: pass, regression, damaged, unreadable) is valid
#     against share/mapsample/mapreport.schema.json (python3-jsonschema),
#     and errors[] tells the input problems apart by kind;
#   - Markdown: rendered by Debian's python3-markdown, the rules table
#     and the changes table are tables with the figures;
#   - JUnit XML: well-formed for python3's XML parser, the structure
#     JUnit consumers read (testsuites/testsuite/testcase, counts that
#     agree, a failure with the figures for the broken rule only), and
#     read by a JUnit consumer, Debian's python3-junitparser: the same
#     counts, a Failure, a Skipped for a rule with no data, an Error for
#     an input problem;
#   - --github: an ::error:: line for the broken rule, ::notice:: for
#     the one that holds;
#   - partial report values, with partial/reference-example.xml reading
#     a metric mapsample records (metricRef memory.rss): a row in the
#     text table, a JSON row of kind "partial" whose values are those of
#     each log's own report and that has no sigma (valid against the
#     schema), a Markdown row; partial(ID) rules broken, passed, with no
#     data, and invalid in pp (exit 2);
#   - input problems said by every output, not only by the exit status 1:
#     a --partial-report file in error, a --region missing from one log
#     of a side, a side whose only log cannot be read: the JSON's result
#     is input-problem with an errors[] entry of the right kind (valid
#     against the schema), JUnit has an error test case naming the
#     file, --github an ::error:: line, Markdown and text a line.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
work=$top_builddir/test/programs/cmpwork
slow=$top_builddir/test/programs/slow/cmpwork
marks=$top_builddir/test/programs/marks
schema=$top_srcdir/share/mapsample/mapreport.schema.json
fixture=$top_srcdir/test/integration/partial/reference-example.xml
validate=$top_srcdir/test/integration/json/validate.py
python=/usr/bin/python3

[ -x "$python" ] || { echo "SKIP: $python missing (Debian's python3 package)"; exit 77; }
"$python" -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: python3-jsonschema missing (Debian package)"; exit 77; }
"$python" -c 'import junitparser' 2>/dev/null ||
	{ echo "SKIP: python3-junitparser missing (Debian package)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

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
	[ "$rc" = "$want" ] || { cat "$tmp/$name.err" >&2; fail "$name: mapreport $*: exit $rc, not $want"; }
}

# py PROGRAM ARGS...: python3 -c PROGRAM in $tmp.
py() {
	prog=$1
	shift
	(cd "$tmp" && "$python" -c "$prog" "$@")
}

"$mapsample" -q -o "$tmp/base.log" -- "$work" </dev/null >/dev/null 2>&1 ||
	fail "mapsample cmpwork"
"$mapsample" -q -o "$tmp/slow.log" -- "$slow" </dev/null >/dev/null 2>&1 ||
	fail "mapsample slow cmpwork"
cp "$tmp/slow.log" "$tmp/bad.log"
size=$(wc -c <"$tmp/bad.log")
awk 'BEGIN { for (i = 0; i < 64; i++) printf "%c", 255 }' |
	dd of="$tmp/bad.log" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
printf '<not a partial report' >"$tmp/broken.xml"
# cmpwork's runs vary by sampling noise only: one run a side is judged
rules="--fail-if self(work_solve)>+2pp --fail-if total(main)>+50pp"

test_json() {
	run 0 report --json base.log
	run 0 report-all -n all --json=report-all.json base.log
	run 0 report-one -n 1 --json=report-one.json base.log
	run 1 report-damaged --json bad.log
	run 1 report-unreadable --json nonesuch.log
	run 1 report-partial --json --partial-report broken.xml base.log
	# shellcheck disable=SC2086
	run 0 cmp-pass --compare --json base.log base.log $rules
	# shellcheck disable=SC2086
	run 3 cmp-regression --compare --json base.log slow.log $rules
	# shellcheck disable=SC2086
	run 1 cmp-damaged --compare --json base.log bad.log $rules
	run 1 cmp-unreadable --compare --json base.log nonesuch.log
	for f in report report-damaged report-unreadable report-partial \
		cmp-pass cmp-regression cmp-damaged cmp-unreadable; do
		cp "$tmp/$f.out" "$tmp/$f.json"
	done
	"$python" "$validate" "$schema" "$tmp"/*.json ||
		fail "a JSON output is not valid against $(basename "$schema")"
	py 'import json, sys
def load(n): return json.load(open(n + ".json"))
def kinds(d): return [e["kind"] for e in d["errors"]]
r = load("report"); a = load("report-all"); o = load("report-one")
assert kinds(r) == [], kinds(r)
assert len(o["top_total"]) == 1 and len(o["top_self"]) == 1
assert len(a["top_total"]) >= 6, [x["name"] for x in a["top_total"]]
assert len(a["top_self"]) >= 3
f = [x for x in r["top_self"] if x["name"] == "work_solve"][0]
assert f["self_s"] > 0 and abs(f["total_s"] - f["self_s"]) < 1e-9, f
assert "damaged" in kinds(load("report-damaged")), kinds(load("report-damaged"))
assert kinds(load("report-unreadable")) == ["unreadable"], kinds(load("report-unreadable"))
assert kinds(load("report-partial")) == ["partial-definition"], kinds(load("report-partial"))
p = load("cmp-pass"); g = load("cmp-regression")
assert p["result"] == "pass" and p["broken"] == 0, p["result"]
assert g["result"] == "regression" and g["broken"] == 1, g["result"]
assert [x["verdict"] for x in g["rules"]] == ["broken", "pass"], g["rules"]
self_rows = [x for x in g["rows"] if x["kind"] == "self"]
assert self_rows[0]["name"] == "work_solve", self_rows[0]
assert self_rows[0]["change_pp"] > 2 and self_rows[0]["significant"]
d = load("cmp-damaged")
assert d["result"] == "input-problem" and "damaged" in kinds(d), kinds(d)
assert d["errors"][0]["file"].endswith("bad.log")
u = load("cmp-unreadable")
assert u["result"] == "input-problem", u["result"]
assert kinds(u) == ["unreadable", "nothing-to-compare"], kinds(u)
' || fail "JSON values"
}

test_markdown() {
	"$python" -c 'import markdown' 2>/dev/null || {
		echo "markdown: python3-markdown missing: not rendered"
		return 0
	}
	# shellcheck disable=SC2086
	run 3 md --compare --markdown=pr.md base.log slow.log $rules
	grep -q '^mapsample comparison' "$tmp/md.out" || fail "--markdown=FILE: no text report"
	py 'import markdown, sys
from html.parser import HTMLParser
class T(HTMLParser):
    def __init__(s):
        super().__init__(); s.tables = []; s.cell = None
    def handle_starttag(s, tag, a):
        if tag == "table": s.tables.append([])
        elif tag == "tr": s.tables[-1].append([])
        elif tag in ("td", "th"): s.cell = ""
    def handle_endtag(s, tag):
        if tag in ("td", "th"): s.tables[-1][-1].append(s.cell.strip()); s.cell = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
t = T(); t.feed(markdown.markdown(open("pr.md").read(), extensions=["tables"]))
assert len(t.tables) == 2, t.tables
rules, funcs = t.tables
assert rules[0] == ["Rule", "Verdict", "Change", "Sigma"], rules[0]
assert rules[1][0] == "self(work_solve)>+2pp" and "broken" in rules[1][1], rules[1]
assert rules[1][2].startswith("+") and rules[1][2].endswith("pp"), rules[1]
assert "pass" in rules[2][1], rules[2]
assert funcs[0][:4] == ["Function", "Base", "New", "Change"], funcs[0]
assert funcs[1][0] == "work_solve", funcs[1]
' || fail "Markdown tables"
}

test_junit() {
	# shellcheck disable=SC2086
	run 3 junit --compare --junit rules.xml base.log slow.log $rules
	py 'import xml.etree.ElementTree as ET
root = ET.parse("rules.xml").getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
s = suites[0]
cases = s.findall("testcase")
assert int(s.get("tests")) == len(cases) == 2, (s.get("tests"), len(cases))
assert int(s.get("failures")) == int(root.get("failures")) == 1
assert cases[0].get("name") == "self(work_solve)>+2pp", cases[0].get("name")
f = cases[0].find("failure")
assert f is not None and "+" in f.get("message") and "sigma" in f.get("message"), f
assert "pp" in f.text
assert cases[1].find("failure") is None
for c in cases: assert c.get("classname") and c.get("time") is not None
' || fail "JUnit XML"
	# the same, and a rule with no data, through a JUnit reader
	# shellcheck disable=SC2086
	run 3 junit-nodata --compare --junit nodata.xml base.log slow.log \
		$rules --fail-if 'self(no_such_function)>+1pp'
	py 'from junitparser import JUnitXml, Failure, Skipped, Error
xml = JUnitXml.fromfile("nodata.xml")
suites = list(xml)
assert len(suites) == 1, suites
s = suites[0]
cases = list(s)
assert [c.name for c in cases] == ["self(work_solve)>+2pp",
    "total(main)>+50pp", "self(no_such_function)>+1pp"], [c.name for c in cases]
kinds = [[type(r).__name__ for r in c.result] for c in cases]
assert kinds == [["Failure"], [], ["Skipped"]], kinds
f = cases[0].result[0]
assert "sigma" in f.message and "pp" in f.text, (f.message, f.text)
assert s.tests == 3 and s.failures == 1 and s.skipped == 1 and s.errors == 0, \
    (s.tests, s.failures, s.skipped, s.errors)
assert xml.failures == 1, xml.failures
' || fail "JUnit XML read by junitparser"
	run 1 junit-bad --compare --junit bad.xml base.log bad.log
	py 'import xml.etree.ElementTree as ET
root = ET.parse("bad.xml").getroot()
e = root.find("testsuite/testcase/error")
assert e is not None and "bad.log" in e.text, e
from junitparser import JUnitXml, Error
xml = JUnitXml.fromfile("bad.xml")
errs = [r for s in xml for c in s for r in c.result if isinstance(r, Error)]
assert len(errs) >= 1 and "bad.log" in errs[0].text, errs
' || fail "JUnit XML: input problem"
}

test_github() {
	# shellcheck disable=SC2086
	run 3 gh --compare --github base.log slow.log $rules
	grep -q '^::error title=mapsample rule self(work_solve)>+2pp::broken: self(work_solve) changed +[0-9.]*pp' \
		"$tmp/gh.out" || { cat "$tmp/gh.out" >&2; fail "no ::error:: for the broken rule"; }
	grep -q '^::notice title=mapsample rule total(main)>+50pp::pass' \
		"$tmp/gh.out" || fail "no ::notice:: for the rule that holds"
	grep -q '^mapsample comparison' "$tmp/gh.out" || fail "--github: no text report"
}

test_partial() {
	id=com.example.metrics.sample.average
	sed 's/com\.allinea\.metrics\.sample\.interrupts/com.mapsample.metrics.memory.rss/' \
		"$fixture" >"$tmp/rss.xml"
	grep -q 'metricRef="com.mapsample.metrics.memory.rss"' "$tmp/rss.xml" ||
		fail "$fixture: no metricRef to point at a recorded metric"
	p="--partial-report rss.xml"
	# each side's value as the report of its log alone gives it
	run 0 part-base --json=part-base.json $p base.log
	run 0 part-new --json=part-new.json $p slow.log
	run 0 part --compare base.log slow.log $p --json=part.json --markdown=part.md
	grep -A3 '^Partial report values$' "$tmp/part.out" >"$tmp/part.rows" ||
		fail "partial: no 'Partial report values' table"
	grep -Eq "^ +[0-9.e+]+ +[0-9.e+]+ +[-+][0-9.]+% +\\? +$id " "$tmp/part.rows" ||
		{ cat "$tmp/part.rows" >&2; fail "partial: no text row with both values"; }
	grep -A4 '^#### Partial report values' "$tmp/part.md" | grep -q "^| \`$id\` | [0-9]" ||
		fail "partial: no Markdown row"
	"$python" "$validate" "$schema" "$tmp/part.json" ||
		fail "partial: JSON not valid against $(basename "$schema")"
	py 'import json, math, sys
ident = sys.argv[1]
def alone(name):
    d = json.load(open(name + ".json"))
    v = [e["value"] for r in d["partial_reports"]["reports"]
         for s in r["subsections"] for e in s["entries"]
         if e["id"] == ident and e["state"] == "value"]
    assert len(v) == 1, (name, v)
    return v[0]
rows = [r for r in json.load(open("part.json"))["rows"]
        if r["kind"] == "partial" and r["name"] == ident]
assert len(rows) == 1, rows
r = rows[0]
b, n = alone("part-base"), alone("part-new")
assert r["subject"] == "partial(%s)" % ident, r
assert r["base"]["present"] and r["new"]["present"], r
assert math.isclose(r["base"]["value"], b, rel_tol=1e-9), (r["base"], b)
assert math.isclose(r["new"]["value"], n, rel_tol=1e-9), (r["new"], n)
assert math.isclose(r["change_percent"], 100 * (n - b) / b, rel_tol=1e-6), r
assert r["sigma"] is None and not r["significant"], r
' "$id" || fail "partial: JSON row"
	# part_rule RC RULE FILE TEXT: --fail-if RULE exits RC, FILE (out
	# or err) says TEXT.  A relative change of a positive value is at
	# least -100%.
	part_rule() {
		run "$1" part-rule --compare base.log slow.log $p --fail-if "$2"
		grep -qF "$4" "$tmp/part-rule.$3" || fail "partial: $2: no '$4'"
	}
	part_rule 3 "partial($id) >= -100%" out "BROKEN  partial($id) >= -100%"
	part_rule 0 "partial($id) < -100%" out "pass    partial($id) < -100%"
	part_rule 0 "partial(com.example.none) > +1%" out "no data partial(com.example.none)"
	part_rule 2 "partial($id) > +2pp" err "invalid rule 'partial($id) > +2pp': column"
}

# problem NAME KIND WHAT ARGS...: mapreport --compare ARGS exits 1 and
# every output says the input problem: errors[] has an entry of KIND
# whose message holds WHAT, the JSON is valid and its result
# input-problem, JUnit has an error test case with WHAT, --github an
# ::error:: line with WHAT, Markdown and text a line with WHAT.
problem() {
	name=$1 kind=$2 what=$3
	shift 3
	run 1 "$name" --compare --json="$name.json" --junit "$name.xml" \
		--markdown="$name.md" --github "$@"
	"$python" "$validate" "$schema" "$tmp/$name.json" ||
		fail "$name: JSON not valid against $(basename "$schema")"
	py 'import json, sys
name, kind, what = sys.argv[1:4]
d = json.load(open(name + ".json"))
assert d["result"] == "input-problem", d["result"]
e = [x for x in d["errors"] if x["kind"] == kind]
assert e and what in e[0]["message"], d["errors"]
from junitparser import JUnitXml, Error
xml = JUnitXml.fromfile(name + ".xml")
errs = [r for s in xml for c in s for r in c.result if isinstance(r, Error)]
assert len(errs) == 1 and what in errs[0].text, [r.text for r in errs]
assert xml.errors == 1 if hasattr(xml, "errors") else True
' "$name" "$kind" "$what" || fail "$name: JSON or JUnit does not say the input problem"
	grep "^::error title=mapsample%3A input problem::" "$tmp/$name.out" |
		grep -qF "$what" ||
		{ cat "$tmp/$name.out" >&2; fail "$name: no ::error:: line with '$what'"; }
	grep '^> \*\*Input problem:\*\*' "$tmp/$name.md" | grep -qF "$what" ||
		{ cat "$tmp/$name.md" >&2; fail "$name: no Markdown line with '$what'"; }
	grep '^  Input problem: ' "$tmp/$name.out" | grep -qF "$what" ||
		fail "$name: no text line with '$what'"
}

test_problems() {
	problem prob-partial partial-definition "broken.xml: partial report left out" \
		--partial-report broken.xml base.log slow.log $rules
	for k in 1 2; do
		"$mapsample" -q -F 1000 -o "$tmp/marks$k.log" -- "$marks" 50 \
			</dev/null >/dev/null 2>&1 || fail "mapsample marks"
	done
	problem prob-region region-missing "base.log (NEW): no region phase2" \
		--region phase2 --base marks1.log --new marks2.log --new base.log
	problem prob-side nothing-to-compare "NEW: no log could be read" \
		base.log nonesuch.log $rules
	grep -q "^    <testcase classname=\"mapsample.rules\"" "$tmp/prob-side.xml" &&
		fail "prob-side: rules listed as judged with nothing compared"
	echo "problems: every output says them"
}

test_json
test_problems
test_markdown
test_junit
test_github
test_partial
echo "mapreport-compare-out: all cases passed"
