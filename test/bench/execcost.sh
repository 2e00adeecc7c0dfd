#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# execcost.sh: what each exec costs under mapsample, and the log it
# leaves.  A shell runs N commands (/bin/true, each a fork and an exec);
# the script runs it bare and under mapsample -q in alternating rounds
# and prints the medians of the CPU time of the whole process tree
# (user + system of the children, from the shell's times builtin, which
# a machine busy with other work inflates less than elapsed time), the
# elapsed time, and per command the extra of each; then the log's size
# (what ls says) and its blocks on disk (du), in all and per process.
#
#   test/bench/execcost.sh [BUILD_DIR] [ROUNDS] [COMMANDS]
#
# Defaults: the current folder, 5 rounds, 10 commands.
set -eu
b=${1:-.}
rounds=${2:-5}
n=${3:-10}
ms=$b/cmd/mapsample/mapsample
[ -x "$ms" ] || { echo "execcost.sh: no $ms: give the build folder" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script=$(i=0; while [ "$i" -lt "$n" ]; do printf '/bin/true; '; i=$((i + 1)); done)
script=${script%; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# one MODE: "CPU-SECONDS ELAPSED-SECONDS" of one run
one() {
	rm -f "$tmp/run.maplog"
	t0=$(date +%s.%N)
	if [ "$1" = bare ]; then
		sh -c "$script; times" >"$tmp/times"
	else
		"$ms" -q -o "$tmp/run.maplog" -- sh -c "$script; times" >"$tmp/times"
	fi
	t1=$(date +%s.%N)
	# times: the shell's own line, then its children's (m and s each)
	awk -v t0="$t0" -v t1="$t1" 'NR == 2 { e = t1 - t0;
		split($1, u, "m"); split($2, s, "m");
		printf "%.4f %.4f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2], e }' "$tmp/times"
}

r=0
while [ "$r" -lt "$rounds" ]; do
	one bare >>"$tmp/bare"
	one mapsample >>"$tmp/ms"
	r=$((r + 1))
done
cb=$(cut -d' ' -f1 "$tmp/bare" | median)
eb=$(cut -d' ' -f2 "$tmp/bare" | median)
cm=$(cut -d' ' -f1 "$tmp/ms" | median)
em=$(cut -d' ' -f2 "$tmp/ms" | median)
size=$(stat -c %s "$tmp/run.maplog")
disk=$(du -k "$tmp/run.maplog" | cut -f1)
procs=$((n + 1))
awk -v n="$n" -v cb="$cb" -v eb="$eb" -v cm="$cm" -v em="$em" \
    -v size="$size" -v disk="$disk" -v p="$procs" -v r="$rounds" 'BEGIN {
	printf "execcost: %d commands, %d rounds, medians\n", n, r
	printf "  bare:      CPU %.1f ms, elapsed %.1f ms\n", cb * 1000, eb * 1000
	printf "  mapsample: CPU %.1f ms, elapsed %.1f ms\n", cm * 1000, em * 1000
	printf "  per command: +%.2f ms CPU, +%.2f ms elapsed\n",
		(cm - cb) * 1000 / n, (em - eb) * 1000 / n
	printf "  log: %.1f MiB (ls), %.1f MiB on disk (du); per process %.0f KiB, %.0f KiB\n",
		size / 1048576, disk / 1024, size / 1024 / p, disk / p
}'
