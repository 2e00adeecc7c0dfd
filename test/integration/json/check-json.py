# SPDX-License-Identifier: BSD-2-Clause
"""Checks key values of a mapreport --json report (mapreport(1), JSON SCHEMA).

    python3 check-json.py CASE FILE

CASE is one of the cases of mapreport-json.sh: "scenario" (mklog's metrics
scenario with json/scenario.xml), "hot" (a real run of test/programs/hot),
"truncated" (a cut log), "synthetic" (mklog's random samples).  Standard
library only.  Prints "FAIL: ..." and exits 1 on the first wrong value.
"""
import json
import math
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def near(a, b, rel=1e-9):
    return a is not None and math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


TOP = ["schema", "version", "generator", "logs", "summary", "processes",
       "threads", "regions", "top_self", "top_total", "metrics",
       "metrics_scope", "plugin_errors", "undefined_metrics", "mpi_calls",
       "mpi_calls_scope", "partial_reports",
       "performance", "ranks", "damage",
       "symbol_problems", "errors"]
SUMMARY = ["command", "host", "start", "start_unix", "duration_s",
           "processes", "threads", "samples", "dropped", "clock", "timer",
           "signal", "rate_asked_hz", "rate_achieved_hz", "logs", "bytes",
           "records", "chunks", "open_chunks", "distinct_stacks", "complete",
           "marks_lost"]
FUNC = ["name", "module", "file", "line", "self", "self_share", "total",
        "total_share", "self_s", "total_s"]
METRIC = ["id", "name", "units", "plugin", "divided_by_sample_time", "min",
          "max", "mean", "total", "total_units", "values", "no_value", "late",
          "processes", "errors", "first_error"]


def common(r):
    """What holds for every report."""
    # substrate_files is there only when substrate plugins wrote files
    keys = [k for k in r.keys() if k != "substrate_files"]
    check(keys == TOP, "top-level members %s" % list(r.keys()))
    check(r["schema"] == "mapsample-report", "schema")
    check(r["version"] == 1, "version")
    s = r["summary"]
    check(list(s.keys()) == SUMMARY, "summary members %s" % list(s.keys()))
    check(s["processes"] == len(r["processes"]), "processes count")
    check(s["threads"] == len(r["threads"]), "threads count")
    check(s["samples"] == sum(t["samples"] for t in r["threads"]),
          "samples = sum of the threads' samples")
    check(s["samples"] == sum(p["samples"] for p in r["processes"]),
          "samples = sum of the processes' samples")
    check(s["complete"] == (not r["damage"]), "complete iff no damage")
    for key in ("top_self", "top_total"):
        prev = None
        for f in r[key]:
            check(list(f.keys()) == FUNC, "%s members" % key)
            check(0 <= f["self"] <= f["total"] <= s["samples"],
                  "%s: self <= total <= samples" % f["name"])
            v = f["self"] if key == "top_self" else f["total"]
            check(prev is None or v <= prev, "%s in order" % key)
            prev = v
            check(near(f["self_share"], f["self"] / s["samples"]),
                  "self_share")
    for m in r["metrics"]:
        check(list(m.keys()) == METRIC, "metric members")
    return s


def metric(r, mid):
    for m in r["metrics"]:
        if m["id"] == mid:
            return m
    fail("no metric " + mid)


def case_scenario(r):
    check(r["mpi_calls"] == [], "mpi_calls: %s, none in the log" % r["mpi_calls"])
    s = common(r)
    check(s["command"] == "synthapp --size large 'input file.dat'", "command")
    check(s["host"] == "node001.example", "host")
    check(s["samples"] == 39 and s["dropped"] == 0, "samples, dropped")
    check(s["processes"] == 2 and s["threads"] == 3, "processes, threads")
    check(s["clock"] == "cpu" and s["rate_asked_hz"] == 1000, "clock, rate")
    check(s["complete"] is True, "complete")
    # the values worked by hand in mapreport-metrics.sh
    cpu = metric(r, "com.example.cpu.util")
    check(cpu["min"] == 5 and cpu["max"] == 90.5, "CPU utilization range")
    check(near(cpu["mean"], (340.5 / 7 + 125.25 / 5) / 2), "CPU mean")
    check(cpu["total"] is None and not cpu["divided_by_sample_time"],
          "plain metric has no total")
    read = metric(r, "com.example.io.read")
    check(read["total"] == 6152885 and read["total_units"] == "B",
          "Read rate total")
    check(read["max"] == 10485760 and read["no_value"] == 1, "Read rate")
    check(near(read["mean"], (3563213 / 1 + 2584576 / 2) / 2), "Read mean")
    power = metric(r, "com.example.node.power")
    check(power["processes"] == 1 and power["total_units"] == "J", "power")
    check(metric(r, "com.example.syscalls")["name"] == "com.example.syscalls",
          "no display name: the id")
    busy = metric(r, "com.example.cpu.busy")
    check(near(busy["total"], 1.46) and busy["total_units"] == "s",
          "CPU busy total in seconds")
    flaky = metric(r, "com.example.flaky")
    check(flaky["errors"] == 13 and flaky["mean"] is None, "flaky errors")
    check(flaky["first_error"] == "counter read failed: EIO", "first error")
    pe = {(e["plugin"], e["processes"]) for e in r["plugin_errors"]}
    check(("libbroken.so", 2) in pe, "libbroken.so in 2 processes")
    check(r["undefined_metrics"]["series"] >= 1, "undefined metric values")
    pr = r["partial_reports"]
    check(len(pr["reports"]) == 1, "one partial report")
    ss = pr["reports"][0]["subsections"][0]
    check(ss["heading"] == "I/O & CPU", "heading decoded")
    ent = {e["id"]: e for e in ss["entries"]}
    check(ent["com.example.json.cpu"]["value"] == 90.5, "peak CPU 90.5")
    check(ent["com.example.json.read"]["state"] == "value", "read value")
    absent = ent["com.example.json.absent"]
    check(absent["recorded"] is False and absent["value"] is None and
          absent["state"] == "not-recorded", "absent metric")
    check(len(r["symbol_problems"]) == 4, "fictional paths noted")


def case_hot(r):
    s = common(r)
    check(s["samples"] >= 100, "samples %d" % s["samples"])
    check(s["complete"] is True, "complete")
    check("hot" in s["command"], "command")
    top = r["top_self"][0]
    check(top["name"] == "burn_hot", "hottest function %s" % top["name"])
    check(top["module"] == "hot", "module %s" % top["module"])
    check(top["file"] is not None and top["file"].endswith("hot.c") and
          top["line"] > 0, "file:line %s:%s" % (top["file"], top["line"]))
    check(top["self_share"] > 0.6, "burn_hot share %f" % top["self_share"])
    names = [f["name"] for f in r["top_total"]]
    check("main" in names, "main in top_total")
    check(r["threads"][0]["measured"] is True, "thread end recorded")
    check(s["rate_achieved_hz"] > 0, "rate achieved")


def case_truncated(r):
    s = common(r)
    check(s["complete"] is False, "not complete")
    kinds = [d["kind"] for d in r["damage"]]
    check("truncated" in kinds, "truncated note: %s" % kinds)
    d = r["damage"][kinds.index("truncated")]
    check(d["message"].startswith(d["log"] + ": truncated at byte"), "text")
    check(s["samples"] > 0, "samples before the cut are reported")


def case_synthetic(r):
    s = common(r)
    check(s["samples"] == 20000, "samples %d" % s["samples"])
    check(s["processes"] == 2 and s["threads"] == 6, "processes, threads")
    check(len(r["top_self"]) == 5 and len(r["top_total"]) == 5, "-n 5")


CASES = {"scenario": case_scenario, "hot": case_hot,
         "truncated": case_truncated, "synthetic": case_synthetic}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[2], "rb") as f:
        raw = f.read()
    try:
        report = json.loads(raw.decode("utf-8"), parse_constant=lambda c:
                            fail("%s: not JSON: %s" % (sys.argv[2], c)))
    except (UnicodeDecodeError, ValueError) as e:
        fail("%s: not JSON in UTF-8: %s" % (sys.argv[2], e))
    CASES[sys.argv[1]](report)
