#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
#
# accuracy.sh: does mapsample see what perf sees?  Profiles the same
# workload with mapsample -F RATE and perf record -F RATE (CPU-time
# sampling both), and compares the top self functions side by side.
# Functions without a symbol (stripped libraries) are compared by file
# and the file offset where the function starts: mapreport names them so
# (from the unwind table), and perf's addresses are mapped to the same
# starts here with readelf.  Target: the same top 5, each share within
# 2 percentage points.
#
#   [ROUNDS=N] test/bench/accuracy.sh [BUILD_DIR] [RATE] [WORKLOADS...]
#
# Workloads: python (pure-Python loop in /usr/bin/python3), xz (xz -9).
# Each tool profiles each workload ROUNDS times (default 3), the tools
# alternating, and the samples of all rounds are pooled: the program's
# own profile moves from run to run (here the kernel's page-fault time,
# charged to the instructions that fault, varies by a factor of two
# between runs of the python workload), and a single run of each tool
# would count that as a difference between the tools.
set -eu
b=$(cd "${1:-.}" && pwd)
rate=${2:-1000}
shift 2 2>/dev/null || shift $#
workloads=${*:-python xz}
ms=$b/cmd/mapsample/mapsample
mr=$b/cmd/mapreport/mapreport
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/work.py" <<'PY'
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def sieve(n):
    s = [True] * n
    for i in range(2, int(n ** 0.5) + 1):
        if s[i]:
            s[i * i::i] = [False] * len(range(i * i, n, i))
    return sum(s)
d = {}
for i in range(3000000):
    d[str(i)] = i * 2
print(fib(33), sieve(20000000), len(d))
PY
"$py" -c '
import random
random.seed(3)
w = ["".join(random.choice("abcdefghij") for _ in range(random.randint(2, 8))) for _ in range(3000)]
print("\n".join(" ".join(random.choice(w) for _ in range(8)) for _ in range(300000)))' >"$tmp/in.txt"

# the same work in both runs: no per-process hash randomization
export PYTHONHASHSEED=0

cmdline() {
	case $1 in
	python) echo "$py $tmp/work.py" ;;
	xz) echo "xz -9 -T1 -c $tmp/in.txt" ;;
	esac
}

rounds=${ROUNDS:-3}
for w in $workloads; do
	cmd=$(cmdline "$w")
	: >"$tmp/$w.folded"
	: >"$tmp/$w.script"
	for r in $(seq "$rounds"); do
		# alternate which tool goes first
		for t in $( [ $((r % 2)) = 1 ] && echo "ms perf" || echo "perf ms"); do
			if [ "$t" = ms ]; then
				"$ms" -q -F "$rate" -o "$tmp/$w.maplog" -- $cmd >/dev/null
				"$mr" --folded "$tmp/$w.maplog" >>"$tmp/$w.folded" 2>/dev/null
			else
				# -g: a sample taken in the kernel is charged to the
				# user code that entered it, as mapsample's CPU clock
				# (user + system) charges it
				perf record -q -g -F "$rate" -o "$tmp/$w.perf" -- $cmd >/dev/null 2>&1
				perf script -i "$tmp/$w.perf" --show-mmap-events \
					-F comm,pid,ip,sym,dso >>"$tmp/$w.script" 2>/dev/null
			fi
		done
	done
	echo "== $w: $(echo "$cmd" | sed "s|$tmp/||g") at $rate Hz, $rounds runs of each tool"
	"$py" - "$tmp/$w.folded" "$tmp/$w.script" <<'PY'
import bisect, re, subprocess, sys, collections

def norm_dso(path):
    base = path.rsplit('/', 1)[-1]
    m = re.match(r'(.*?\.so)(\..*)?$', base)
    return m.group(1) if m else base

# mapsample: leaf frame of each folded stack
ms = collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rstrip('\n').rsplit(' ', 1)
    leaf = stack.split(';')[-1]
    m = re.match(r'(.+)\+0x([0-9a-f]+)$', leaf)
    if m:
        leaf = '%s+0x%x' % (norm_dso(m.group(1)), int(m.group(2), 16))
    ms[leaf] += int(n)

# perf: samples (a header line, then the call chain, leaf first, one
# frame a line); each is charged to its first frame outside the kernel;
# mmaps turn unnamed addresses into file offsets
maps = collections.defaultdict(list)
pf = collections.Counter()
mm = re.compile(r'PERF_RECORD_MMAP2? (\d+)/\d+: \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (?:0x)?([0-9a-f]+)[^\]]*\]: \S+ (\S+)')
hm = re.compile(r'^\S.*?\s(\d+)\s*$')
fm = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')

# file offsets of the functions of a file, from its unwind table: the
# (start, end) of each FDE, converted from addresses with the PT_LOADs
fdes = {}
def fde_ranges(path):
    if path not in fdes:
        segs, r = [], []
        try:
            for l in subprocess.run(['readelf', '-lW', path], capture_output=True,
                                    text=True).stdout.splitlines():
                f = l.split()
                if f and f[0] == 'LOAD':
                    segs.append((int(f[1], 16), int(f[2], 16), int(f[5], 16)))
            for l in subprocess.run(['readelf', '--debug-dump=frames', path],
                                    capture_output=True, text=True).stdout.splitlines():
                m = re.search(r' FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)', l)
                if not m:
                    continue
                lo, hi = int(m.group(1), 16), int(m.group(2), 16)
                for off, va, sz in segs:
                    if va <= lo < va + sz:
                        r.append((lo - va + off, hi - va + off))
                        break
        except OSError:
            pass
        r.sort()
        fdes[path] = r
    return fdes[path]

def func_start(path, off):
    r = fde_ranges(path)
    i = bisect.bisect_right(r, (off, float('inf')))
    return r[i - 1][0] if i and r[i - 1][0] <= off < r[i - 1][1] else off

def charge(pid, frames):
    for ip, sym, dso in frames:
        if dso.startswith('[kernel') or dso == '[unknown]' and int(ip, 16) >= 1 << 63:
            continue
        sym = re.sub(r'\+0x[0-9a-f]+$', '', sym)
        if sym == '[unknown]' and dso.startswith('/'):
            # call-chain addresses come file-relative already
            sym = '%s+0x%x' % (norm_dso(dso), func_start(dso, int(ip, 16)))
        pf[sym] += 1
        return

pid, frames = None, []
for line in open(sys.argv[2]):
    m = mm.search(line)
    if m:
        p_, start, ln, pg, path = m.groups()
        maps[p_].append((int(start, 16), int(ln, 16), int(pg, 16), path))
        continue
    m = fm.match(line)
    if m and pid is not None:
        frames.append(m.groups())
        continue
    if pid is not None and frames:
        charge(pid, frames)
    pid, frames = None, []
    m = hm.match(line)
    if m:
        pid = m.group(1)
if pid is not None and frames:
    charge(pid, frames)

tm, tp = sum(ms.values()), sum(pf.values())
print('  samples: mapsample %d, perf %d' % (tm, tp))
print('  %-4s %-44s %10s %10s %8s' % ('rank', 'function (perf top 5)', 'perf %', 'mapsample %', 'diff pp'))
worst, same = 0.0, 0
top_ms = [k for k, _ in ms.most_common(5)]
for i, (k, n) in enumerate(pf.most_common(5)):
    p, q = 100.0 * n / tp, 100.0 * ms.get(k, 0) / tm if tm else 0
    worst = max(worst, abs(p - q))
    same += k in top_ms
    print('  %-4d %-44s %9.2f%% %9.2f%% %+8.2f' % (i + 1, k[:44], p, q, q - p))
print('  mapsample top 5: ' + ', '.join(k[:30] for k in top_ms))
print('accuracy: %s same_top5=%d/5 max_diff_pp=%.2f (target 5/5, <= 2.00)' % (sys.argv[1].rsplit('/', 1)[-1].split('.')[0], same, worst))
PY
done
