#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-disasm.sh: --lines --disasm puts each sample on its
# instruction.  test/programs/linehot (-O2 -g) spends its time in the loop
# of hot_loop (mix() inlined into it).  In the "Instructions of hot_loop"
# part, objdump's instructions carry the samples: they must add up to the
# samples the part's title gives and to those of the source view's title,
# at least 90% must be on the instructions of the loop (from the target
# of its backward branch to that branch, as objdump shows them), and
# several instructions of the loop must have samples.  Without objdump in
# PATH the part says why and stderr has one line naming binutils.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

command -v objdump >/dev/null 2>&1 || { echo "no objdump (binutils)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs linehot
sample lh -F 1000 -- "$programs/linehot" 250
[ "$rc" = 0 ] || { show "$tmp/lh.err"; fail "mapsample exited $rc"; }
report lh --lines=hot_loop --disasm
[ "$r" = 0 ] || { show "$tmp/lh.rerr"; fail "mapreport exited $r"; }

python3 - "$tmp/lh.report" <<'PY' || { show "$tmp/lh.report"; fail "the instructions' samples are not where the loop is"; }
import re, sys
text = open(sys.argv[1]).read()
src = re.search(r"^Source lines of hot_loop \(linehot\): (\d+) samples", text, re.M)
part = text.split("  Instructions of hot_loop (objdump -d -l): ", 1)
assert src and len(part) == 2, "no source view or no instructions part"
said = int(part[1].split(" ", 1)[0])
insns = []
for line in part[1].splitlines():
    m = re.match(r"^ [ *] +(?:(\d+) +(\d+)|) +([0-9a-f]+):  (.*)$", line)
    if m:
        insns.append((int(m.group(3), 16), int(m.group(1) or 0), m.group(4)))
assert insns, "no instruction rows"
self_sum = sum(s for _, s, _ in insns)
assert self_sum == said == int(src.group(1)), (self_sum, said, src.group(1))
loop = None
for a, _, t in insns:
    b = re.match(r"j\w+\s+([0-9a-f]+) <hot_loop\+", t)
    if b and int(b.group(1), 16) < a:
        loop = (int(b.group(1), 16), a)
assert loop, "no backward branch in hot_loop"
inside = sum(s for a, s, _ in insns if loop[0] <= a <= loop[1])
hot = sum(1 for a, s, _ in insns if loop[0] <= a <= loop[1] and s > 0)
print("loop [%x, %x]: %d of %d samples, %d instructions with samples" % (loop[0], loop[1], inside, self_sum, hot))
assert inside * 10 >= self_sum * 9, (inside, self_sum)
assert hot >= 3, hot
PY

# no objdump: said in the report and once on stderr
mkdir "$tmp/empty"
PATH=$tmp/empty "$mapreport" --lines=hot_loop --disasm "$tmp/lh.log" >"$tmp/no.report" 2>"$tmp/no.err" ||
	{ show "$tmp/no.err"; fail "mapreport failed without objdump"; }
grep -q '(instructions not shown: objdump: No such file or directory; install GNU binutils)' "$tmp/no.report" ||
	{ show "$tmp/no.report"; fail "no reason for the missing instructions"; }
[ "$(grep -c 'objdump not found in PATH; install GNU binutils' "$tmp/no.err")" = 1 ] ||
	{ show "$tmp/no.err"; fail "not one line on stderr about objdump"; }
echo "ok: instructions of hot_loop carry its samples"
