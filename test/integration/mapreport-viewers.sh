#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --speedscope and --trace, the two JSON exports, checked with
# python3 (exit 77 without it) against each format's own rules and
# against the run.
#
# --speedscope: the "$schema" URL, shared frames with names, and
# "sampled" profiles with a known unit, startValue <= endValue, as many
# weights as samples (the weights adding up to endValue - startValue),
# every frame index in range; with python3-jsonschema installed, also
# against a schema of those rules.  On test/common/mklog's random log (2
# processes x 4 threads) there is a profile per thread of the text
# report, named by pid and tid, with that thread's share of the samples;
# on test/programs/hot, the leaf frames give burn_hot the text report's
# self share within one point, and the frame carries hot.c and a line.
#
# --trace, the Chrome trace event format that Perfetto's UI opens,
# against the JSON report of the same run (--json in the same mapreport
# command, which also shows several outputs at once).  On the random log
# (two metrics, 10 user marks): valid JSON, an object with a
# "traceEvents" list; every event has name, ph, ts, pid and tid of the
# right types, "X" events a dur, "i" events a scope, "C" events numeric
# args; a process_name for each process (found by the pid, log and
# pid_ns in its args, as the JSON report gives them; one trace pid per
# process) and a thread_name for each thread of the report; each thread's slices add up to its samples and
# never overlap; counters named by the report's metrics, one for each
# with a mean over three values or more; the marks of the log (as mapreport -D lists them) as instant
# events on their threads.  On hot, the slices named burn_hot hold the
# text report's self share within one point.  A log given as a FIFO
# whose copy cannot be made ($TMPDIR missing: drained by the first
# reading) makes the trace fail as incomplete, without waiting (the
# FIFO's copy that works: mapreport-pipe.sh).

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

# speedscope_validate FILE: the format's rules; prints "THREADS LEAF-SHARES" lines:
# per profile "profile NAME SHARE%" (of all weights), then per leaf
# function "leaf NAME SHARE%".
speedscope_validate() {
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

test_speedscope_random() {
	report r --speedscope "$tmp/r.json" --no-progress
	speedscope_validate "$tmp/r.json" >"$tmp/r.check" || fail "random log: not a valid speedscope file"
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

test_speedscope_hot() {
	report hot --speedscope "$tmp/hot.json"
	speedscope_validate "$tmp/hot.json" >"$tmp/hot.check" || fail "hot: not a valid speedscope file"
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

# trace_validate TRACE JSON-REPORT MARKS: the format's rules and the run's
# contents; prints "leaf NAME SHARE%" per slice name.
trace_validate() {
	python3 - "$@" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
marks = [l.split() for l in open(sys.argv[3])]
# samples in mapsample's own start-up and exit code: no leaf function
# (the text report counts them), so in no slice
own = int(sys.argv[4]) if len(sys.argv) > 4 else 0
def die(msg):
    sys.exit("trace: " + msg)
if not isinstance(t, dict) or not isinstance(t.get("traceEvents"), list):
    die("not an object with a traceEvents list")
ev = t["traceEvents"]
num = (int, float)
for e in ev:
    for k, ty in (("name", str), ("ph", str), ("ts", num), ("pid", int),
                  ("tid", int)):
        if not isinstance(e.get(k), ty) or isinstance(e.get(k), bool):
            die("event without a %s %s: %r" % (ty.__name__ if isinstance(ty, type) else "number", k, e))
    if e["ts"] < 0:
        die("negative ts: %r" % e)
    ph = e["ph"]
    if ph not in ("M", "X", "i", "C"):
        die("unexpected ph: %r" % e)
    if ph == "X" and not (isinstance(e.get("dur"), num) and e["dur"] >= 0):
        die("X event without dur: %r" % e)
    if ph == "i" and e.get("s") not in ("g", "p", "t"):
        die("i event without scope: %r" % e)
    if ph == "C" and not (e.get("args") and
                          all(isinstance(v, num) for v in e["args"].values())):
        die("C event without numeric args: %r" % e)
    if ph == "M" and not isinstance(e.get("args", {}).get("name"), str):
        die("M event without a name: %r" % e)
meta = {(e["name"], e["pid"], e["tid"]) for e in ev if e["ph"] == "M"}
# the trace's pid of a process is a number of its own; its process_name
# says its pid (and log, pid_ns) as the JSON report does
def who(x):
    return (x["pid"], x.get("log"), x.get("pid_ns"))
tnum = {}
for e in ev:
    if e["name"] == "process_name":
        if tnum.setdefault(who(e["args"]), e["pid"]) != e["pid"]:
            die("two trace pids for process %r" % (who(e["args"]),))
if len(set(tnum.values())) != len(tnum):
    die("one trace pid for two processes: %r" % tnum)
for p in rep["processes"]:
    if who(p) not in tnum:
        die("no process_name for pid %d" % p["pid"])
per = {}
for e in ev:
    if e["ph"] == "X":
        per.setdefault((e["pid"], e["tid"]), []).append(e)
for th in rep["threads"]:
    key = (tnum.get(who(th)), th["tid"])
    if ("thread_name",) + key not in meta:
        die("no thread_name for %r" % (key,))
    sl = sorted(per.get(key, []), key=lambda e: e["ts"])
    n = sum(e["args"]["samples"] for e in sl)
    if not 0 <= th["samples"] - n <= own:
        die("thread %r: slices hold %d samples, the report %d" %
            (key, n, th["samples"]))
    for a, b in zip(sl, sl[1:]):
        if a["ts"] + a["dur"] > b["ts"] + 0.002:
            die("thread %r: slices overlap at %r" % (key, b["ts"]))
# counters: metrics of the report, one for every metric with a mean
# over three values or more (fewer, as a rate's first, may give no point
# of the timeline)
def cname(m):
    return m["name"] + (" (%s)" % m["units"] if m["units"] else "")
every = {cname(m) for m in rep["metrics"]}
want = {cname(m) for m in rep["metrics"]
        if m["values"] >= 3 and m["mean"] is not None}
got = {e["name"] for e in ev if e["ph"] == "C"}
if not want <= got <= every:
    die("counters %r, metrics of the report %r" % (sorted(got), sorted(want)))
for name in want:
    pids = {e["pid"] for e in ev if e["ph"] == "C" and e["name"] == name}
    if not pids:
        die("no counter values for " + name)
# marks: "TID TEXT" of mapreport -D
got = sorted((e["tid"], e["name"]) for e in ev if e["ph"] == "i")
want = sorted((int(m[0]), " ".join(m[1:])) for m in marks)
if got != want:
    die("marks %r, the log's %r" % (got, want))
total = sum(th["samples"] for th in rep["threads"])
leaf = {}
for e in ev:
    if e["ph"] == "X":
        leaf[e["name"]] = leaf.get(e["name"], 0) + e["args"]["samples"]
for name, n in sorted(leaf.items()):
    print("leaf %s %.2f" % (name, 100.0 * n / total))
PY
}

# marks NAME: the user marks of $tmp/NAME.log as "TID TEXT" lines.
marks() {
	"$mapreport" -D "$tmp/$1.log" |
		awk '$4 == "mark" { $1 = $2 = $3 = $4 = $5 = ""; $7 = $8 = "";
			print }' | awk '{ $1 = $1; print }' >"$tmp/$1.marks"
}

test_trace_random() {
	report r --trace "$tmp/r.trace" --json="$tmp/r.json" --no-progress
	marks r
	[ "$(wc -l <"$tmp/r.marks")" = 10 ] || { show "$tmp/r.marks"; fail "random log: not 10 marks in the dump"; }
	trace_validate "$tmp/r.trace" "$tmp/r.json" "$tmp/r.marks" >"$tmp/r.check" ||
		fail "random log: the trace does not match the format or the run"
}

test_trace_hot() {
	report hot --trace "$tmp/hot.trace" --json="$tmp/hot.json"
	marks hot
	own=$("$mapreport" "$tmp/hot.log" 2>/dev/null |
		sed -n "s/^\([0-9]*\) samples (.*) were taken in mapsample's own .*/\1/p")
	trace_validate "$tmp/hot.trace" "$tmp/hot.json" "$tmp/hot.marks" \
		"${own:-0}" >"$tmp/hot.check" ||
		fail "hot: the trace does not match the format or the run"
	want=$(func_self_pct hot burn_hot)
	got=$(awk '$1 == "leaf" && $2 == "burn_hot" { print $3 }' "$tmp/hot.check")
	check "${got:-0} - $want <= 1 && $want - ${got:-0} <= 1" || {
		show "$tmp/hot.check"
		fail "hot: burn_hot slices hold ${got:-no}% of samples, the report $want%"
	}
}

# A log given as a FIFO is drained by the first reading; when it cannot
# be copied to be read again, the export must not wait for a second
# writer, and must say it is incomplete.
test_fifo() {
	mkfifo "$tmp/fifo"
	cat "$tmp/r.log" >"$tmp/fifo" &
	set +e
	TMPDIR=$tmp/none timeout -s KILL 60 "$mapreport" \
		--trace "$tmp/fifo.trace" "$tmp/fifo" >/dev/null 2>"$tmp/fifo.err"
	r=$?
	set -e
	wait
	[ "$r" = 1 ] || { show "$tmp/fifo.err"; fail "FIFO log: exit $r, not 1"; }
	grep -q "^mapreport: $tmp/fifo.trace: write failed; the trace is incomplete\$" \
		"$tmp/fifo.err" || { show "$tmp/fifo.err"; fail "FIFO log: message"; }
}

need_programs hot
"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
sample hot -F 500 -- "$programs/hot" 600
[ "$rc" = 0 ] || { show "$tmp/hot.err"; fail "hot: mapsample exited $rc"; }
test_speedscope_random
test_speedscope_hot
test_trace_random
test_trace_hot
test_fifo
echo "mapreport-viewers: OK"
