#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# compare-noise.sh [BUILDDIR [PAIRS [PROGRAMS]]]: how often mapreport
# --compare raises a false alarm on real programs with no change
# (mapreport(1), COMPARING RUNS, Noise).  PROGRAMS (default
# "py pyseed xz cw"): py, Debian's /usr/bin/python3 running a fixed
# pure-Python loop; pyseed, the same with PYTHONHASHSEED=0 (Python draws
# a new string-hash seed each run, and a run's dictionary lookups cost
# more or less with it, all through the run); xz
# compressing fixed data; cw, the test program test/programs/cmpwork of
# BUILDDIR (built by make check; the issue's "same build twice, 20
# repetitions of the pair", which make check's mapreport-compare.sh
# runs 5 times).  For each: PAIRS (default 20)
# pairs of runs, each compared one run a side with rules on the five top
# functions (self, +-2pp) and, apart, on the whole-run time (+-5%), all
# at 3 sigma (one run a side: against the noise within the runs); then PAIRS
# comparisons of 3 runs a side, and of 3 runs against 1, drawn from the
# same runs.  Prints, per program and form, how many comparisons broke a
# rule.  A benchmark: exits 0 whatever the counts (1 only when a run or
# a comparison fails).  About 2 x PAIRS runs of a second or so a program.
set -eu

b=${1:-.}
pairs=${2:-20}
progs=${3:-py pyseed xz cw}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
py=/usr/bin/python3
[ -x "$py" ] || { echo "compare-noise: $py missing (Debian's python3)" >&2; exit 1; }
command -v xz >/dev/null || { echo "compare-noise: xz missing" >&2; exit 1; }
cw=$b/test/programs/cmpwork
case " $progs " in
*" cw "*) [ -x "$cw" ] || { echo "compare-noise: $cw missing: run make check in $b" >&2; exit 1; } ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

seq 1 30000 | awk '{ print $1, $1 * 7 % 13, "line of text", $1 % 97 }' >"$tmp/data.txt"
loop='s = 0
for i in range(3000000):
    s += i * i % 7
print(s)'

runs=$((2 * pairs))
k=0
while [ "$k" -lt "$runs" ]; do
	for p in $progs; do
		case $p in
		py) set -- "$py" -c "$loop" ;;
		pyseed) set -- env PYTHONHASHSEED=0 "$py" -c "$loop" ;;
		xz) set -- xz -T1 -6 -c "$tmp/data.txt" ;;
		cw) set -- "$cw" ;;
		*) echo "compare-noise: unknown program $p (py, pyseed, xz, cw)" >&2; exit 1 ;;
		esac
		"$ms" -q -F 1000 -o "$tmp/$p$k.log" -- "$@" </dev/null >/dev/null
	done
	k=$((k + 1))
done

"$py" - "$mr" "$tmp" "$pairs" "$progs" <<'PY'
import json, random, subprocess, sys
mr, tmp, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
progs = sys.argv[4].split()

def compare(prog, base, new, rules, extra):
    args = [mr, "--compare", "--json"] + extra
    for r in rules:
        args += ["--fail-if", r]
    for x in base:
        args += ["--base", f"{tmp}/{prog}{x}.log"]
    for x in new:
        args += ["--new", f"{tmp}/{prog}{x}.log"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        sys.exit(f"compare-noise: {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    j = json.loads(p.stdout)
    return [f'{r["rule"]} ({r["change"]:+.3g} at {r["sigma"]:.1f} sigma)'
            for r in j["rules"] if r["verdict"] == "broken"]

rng = random.Random(16)
for prog in progs:
    top = json.loads(subprocess.run([mr, "--json", f"{tmp}/{prog}0.log"],
                                    capture_output=True, text=True).stdout)
    funcs = [f["name"] for f in top["top_self"][:5]]
    share = [f'self("{f}") {op}' for f in funcs for op in ("> +2pp", "< -2pp")]
    total = ["total > +5%", "total < -5%"]
    for form, nb, nn, extra in (("1 run a side", 1, 1, []),
                                ("3 runs a side", 3, 3, []),
                                ("3 runs against 1", 3, 1, [])):
        for name, rules in (("shares", share), ("total", total)):
            bad = []
            for i in range(pairs):
                if nb == 1:
                    b, n = [2 * i], [2 * i + 1]
                else:
                    pick = rng.sample(range(2 * pairs), nb + nn)
                    b, n = pick[:nb], pick[nb:]
                broken = compare(prog, b, n, rules, extra)
                if broken:
                    bad.append(broken[0])
            print(f"{prog}, {form}, {name}: {len(bad)} of {pairs} "
                  f"comparisons broke a rule at 3 sigma")
            for x in bad[:3]:
                print(f"    e.g. {x}")
PY
