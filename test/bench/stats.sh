# SPDX-License-Identifier: BSD-2-Clause
#
# stats.sh: helpers the sampler benchmarks share (sourced by overhead.sh
# and attrib.sh).  Expects $py (the python3 to run) and $mr (mapreport).

# median of the numbers on standard input
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# ci95 [DIGITS]: "LO HI", a 95% confidence interval for the median of the
# numbers on standard input, DIGITS decimals (default 2): ranks k and
# n+1-k of the sorted values, k the largest with P(X < k) <= 2.5% for X
# binomial(n, 1/2); "- -" below 6 numbers
ci95() {
	sort -g | awk -v d="${1:-2}" '{v[NR]=$1} END {
		n = NR; k = 0; p = 2 ^ -n; cum = 0
		while (k < n / 2 && cum + p <= 0.025) {
			cum += p; k++; p = p * (n - k + 1) / k
		}
		if (k < 1) { print "- -"; exit }
		printf "%.*f %.*f\n", d, v[k], d, v[n + 1 - k] }'
}

# ms_samples LOG: the samples mapsample wrote to LOG
ms_samples() {
	"$mr" -n 0 "$1" 2>/dev/null | sed -n 's/^ *Samples: *\([0-9]*\).*/\1/p'
}

# gp_samples PROFILE: the samples of a gperftools CPU profile (the sum of
# the counts of its legacy format, 64-bit words); 0 if it cannot be read
gp_samples() {
	"$py" -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
n8 = len(d) // 8
w = struct.unpack("<%dQ" % n8, d[:8 * n8])
i = 2 + w[1]; n = 0
while i + 2 < len(w):
    c, k = w[i], w[i + 1]
    if c == 0 and k == 1: break
    n += c; i += 2 + k
print(n)' "$1" 2>/dev/null || echo 0
}
