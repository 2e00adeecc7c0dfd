/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linehot: a hot loop in a known range of lines, built with -O2 -g, for
 * the test of mapreport --lines (mapreport-lines.sh).  hot_loop() runs
 * the loop between the markers HOT BEGIN and HOT END; the helper mix(),
 * between HELPER BEGIN and HELPER END, is inlined into it.  main() only
 * calls it.  "linehot [MILLIONS]": iterations in millions (default 150).
 * Exits 0.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* HELPER BEGIN */
static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ul;
	x ^= x >> 32;
	return x;
}
/* HELPER END */

__attribute__((noinline)) static unsigned long hot_loop(unsigned long n)
{
	unsigned long acc = 1;
	/* HOT BEGIN */
	for (unsigned long i = 0; i < n; i++) {
		acc = acc * 6364136223846793005ul + i;
		acc += mix(acc ^ i);
		__asm__ volatile("" : "+r"(acc));
	}
	/* HOT END */
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 150) *
			  1000000ul;
	sink = hot_loop(n);
	return 0;
}
