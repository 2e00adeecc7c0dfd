/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inlinehot: a program whose whole work is code inlined into main, for
 * mapreport's inline frames (test/integration/mapreport-inline.sh).
 * Built with -O2 -g: main calls inline_outer, which calls inline_inner,
 * both always_inline, so every sampled address of the hot loop is in
 * main's machine code but in inline_inner's source, two inlined calls
 * deep.  "inlinehot [MILLIONS]" runs MILLIONS million iterations
 * (default 400) and prints the result so the loop is kept.
 */
#include <stdio.h>
#include <stdlib.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* One dependent multiply-add per iteration: nothing to vectorise. */
ALWAYS_INLINE unsigned long inline_inner(unsigned long n, unsigned long x)
{
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

ALWAYS_INLINE unsigned long inline_outer(unsigned long n)
{
	unsigned long x = 1;
	for (int r = 0; r < 10; r++)
		x = inline_inner(n / 10, x ^ (unsigned long)r);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 400;
	printf("%lu\n", inline_outer(millions * 1000000ul));
	return 0;
}
