#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --speedscope: the file keeps the rules of speedscope's file
# format, checked with python3 (exit 77 without it): the "$schema" URL,
# shared frames with names, and "sampled" profiles with a known unit,
# startValue <= endValue, as many weights as samples (the weights adding
# up to endValue - startValue), every frame index in range; with
# python3-jsonschema installed, also against a schema of those rules.
# On test/common/mklog's random log (2 processes x 4 threads) there is a
# profile per thread of the text report, named by pid and tid, with that
# thread's share of the samples; on test/programs/hot, the leaf frames
# give burn_hot the text report's self share within one point, and the
# frame carries hot.c and a line.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mklog=$top_builddir/test/common/mklog

# validate FILE: the format's rules; prints "THREADS LEAF-SHARES" lines:
# per profile "profile NAME SHARE%" (of all weights), then per leaf
# function "leaf NAME SHARE%".
validate() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def die(msg):
    sys.exit("speedscope: " + msg)
if d.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
    die("$schema missing or wrong")
frames = d["shared"]["frames"]
if not frames or not all(isinstance(f.get("name"), str) for f in frames):
    die("frames without names")
for f in frames:
    if "line" in f and (not isinstance(f["line"], int) or "file" not in f):
        die("frame line without file: %r" % f)
profs = d["profiles"]
if not profs:
    die("no profile")
if not 0 <= d.get("activeProfileIndex", 0) < len(profs):
    die("activeProfileIndex out of range")
units = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds",
         "bytes"}
total, leaf, per = 0, {}, []
for p in profs:
    if p.get("type") != "sampled":
        die("profile type %r" % p.get("type"))
    if p.get("unit") not in units:
        die("unit %r" % p.get("unit"))
    if not isinstance(p.get("name"), str):
        die("profile without name")
    if not p["startValue"] <= p["endValue"]:
        die("startValue > endValue in " + p["name"])
    s, w = p["samples"], p["weights"]
    if len(s) != len(w):
        die("%d samples, %d weights in %s" % (len(s), len(w), p["name"]))
    for st in s:
        if not st or not all(isinstance(i, int) and 0 <= i < len(frames)
                             for i in st):
            die("frame index out of range in " + p["name"])
    if any(not isinstance(x, (int, float)) or x < 0 for x in w):
        die("bad weight in " + p["name"])
    if sum(w) != p["endValue"] - p["startValue"]:
        die("weights do not add up to endValue in " + p["name"])
    total += sum(w)
    per.append((p["name"], sum(w)))
    for st, x in zip(s, w):
        name = frames[st[-1]]["name"]
        leaf[name] = leaf.get(name, 0) + x
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema:
    idx = {"type": "integer", "minimum": 0, "maximum": len(frames) - 1}
    schema = {
        "type": "object",
        "required": ["$schema", "shared", "profiles"],
        "properties": {
            "shared": {"type": "object", "required": ["frames"],
                       "properties": {"frames": {"type": "array", "items": {
                           "type": "object", "required": ["name"],
                           "properties": {"name": {"type": "string"},
                                          "file": {"type": "string"},
                                          "line": {"type": "integer"}}}}}},
            "profiles": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "required": ["type", "name", "unit", "startValue",
                             "endValue", "samples", "weights"],
                "properties": {
                    "type": {"const": "sampled"},
                    "unit": {"enum": sorted(units)},
                    "samples": {"type": "array", "items": {
                        "type": "array", "items": idx}},
                    "weights": {"type": "array",
                                "items": {"type": "number", "minimum": 0}},
                }}},
        }}
    jsonschema.validate(d, schema)
for name, x in per:
    print("profile %s %.2f" % (name.replace(" ", "_"), 100.0 * x / total))
for name, x in sorted(leaf.items()):
    print("leaf %s %.2f" % (name, 100.0 * x / total))
PY
}

test_random_log() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
	report r --speedscope "$tmp/r.json" --no-progress
	validate "$tmp/r.json" >"$tmp/r.check" || fail "random log: not a valid speedscope file"
	# a profile per thread of the report, with its share
	threads r | awk '{ print $1, $2, $3 }' | sort >"$tmp/want"
	total=$(samples r)
	awk -v total="$total" '{ printf "%s %s %.0f\n", $1, $2, 100 * $3 / total }' \
		"$tmp/want" >"$tmp/want.pct"
	awk '$1 == "profile" { split($2, f, "_"); printf "%s %s %.0f\n", f[3], f[5], $3 }' \
		"$tmp/r.check" | sort >"$tmp/got.pct"
	cmp -s "$tmp/want.pct" "$tmp/got.pct" || {
		show "$tmp/want.pct" "$tmp/got.pct"
		fail "random log: profiles are not the report's threads and shares"
	}
}

test_hot() {
	need_programs hot
	sample hot -F 500 -- "$programs/hot" 600
	[ "$rc" = 0 ] || { show "$tmp/hot.err"; fail "hot: mapsample exited $rc"; }
	report hot --speedscope "$tmp/hot.json"
	validate "$tmp/hot.json" >"$tmp/hot.check" || fail "hot: not a valid speedscope file"
	want=$(func_self_pct hot burn_hot)
	got=$(awk '$1 == "leaf" && $2 == "burn_hot" { print $3 }' "$tmp/hot.check")
	check "${got:-0} - $want <= 1 && $want - ${got:-0} <= 1" || {
		show "$tmp/hot.check"
		fail "hot: burn_hot leaf share ${got:-none}%, the report $want%"
	}
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["shared"]["frames"] if x["name"] == "burn_hot"]
sys.exit(not (f and f[0].get("file", "").endswith("hot.c") and f[0].get("line", 0) > 0))
' "$tmp/hot.json" || fail "hot: burn_hot frame without hot.c and a line"
}

test_random_log
test_hot
echo "mapreport-speedscope: OK"
