# SPDX-License-Identifier: BSD-2-Clause
#
# workloads.sh: the real programs the sampler benchmarks run (sourced by
# overhead.sh and attrib.sh).  Expects $tmp (a scratch folder, made and
# removed by the caller), $py (the python3 to run) and $scale (1: each
# workload about 4 s on the first machine measured; 0.5 halves them).
# Makes the inputs in $tmp and defines cmdline WORKLOAD, which prints
# the command of: xz (xz -9), xz2 (xz -9 -T2, two threads), bzip2
# (bzip2 -9), python (pure-Python loop), sqlite (inserts, an index,
# aggregates; the same rows in every run, no randomblob()).
# sizes: about 4 s each here at SCALE=1
sz() { awk -v n="$1" -v s="$scale" 'BEGIN { printf "%d", n * s }'; }
# inputs: compressible text made deterministically
"$py" - "$tmp/in.txt" "$(sz 1500000)" <<'PY'
import random, sys
random.seed(7)
words = [''.join(random.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(random.randint(2, 9))) for _ in range(5000)]
with open(sys.argv[1], 'w') as f:
    for i in range(max(int(sys.argv[2]), 150000)):
        f.write(' '.join(random.choice(words) for _ in range(6)) + '\n')
PY
head -c "$(sz 60000000)" "$tmp/in.txt" >"$tmp/in-bzip2.txt"
head -c "$(sz 6500000)" "$tmp/in.txt" >"$tmp/in-xz.txt"
head -c "$(sz 14000000)" "$tmp/in.txt" >"$tmp/in-xz2.txt"
cat >"$tmp/work.py" <<PY
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def sieve(n):
    s = [True] * n
    for i in range(2, int(n ** 0.5) + 1):
        if s[i]:
            s[i * i::i] = [False] * len(range(i * i, n, i))
    return sum(s)
d = {}
for i in range($(sz 3500000)):
    d[str(i)] = i * 2
print(sum(fib(27) for _ in range($(sz 20))), sieve($(sz 25000000)), len(d))
PY
cat >"$tmp/work.sql" <<SQL
CREATE TABLE t(a INTEGER, b TEXT, c REAL);
BEGIN;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $(sz 3000000))
INSERT INTO t SELECT x, printf('%08X%08X', x * 2654435761 % 4294967291, x * 40503 % 4294967279), x * 0.5 FROM n;
COMMIT;
CREATE INDEX ti ON t(b);
SELECT count(*), sum(c), max(b) FROM t WHERE a % 7 = 3;
SELECT b, count(*) FROM t GROUP BY substr(b, 1, 2) ORDER BY 2 DESC LIMIT 3;
SQL

# the same work in every run: no per-process hash randomization
export PYTHONHASHSEED=0

cmdline() {
	case $1 in
	xz) echo "xz -9 -T1 -c $tmp/in-xz.txt" ;;
	xz2) echo "xz -9 -T2 --block-size=2MiB -c $tmp/in-xz2.txt" ;;
	bzip2) echo "bzip2 -9 -c $tmp/in-bzip2.txt" ;;
	python) echo "$py $tmp/work.py" ;;
	sqlite) echo "sqlite3 :memory: -init $tmp/work.sql .quit" ;;
	esac
}
