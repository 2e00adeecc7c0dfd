/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * regionsplit: the same code inside and outside a region, for
 * test/integration/mapreport-exports-region.sh.  "regionsplit N" runs
 * split_burn N times through the same call of work(), alternately inside
 * region "odd" (the odd rounds) and outside any region, about 20 ms a
 * round, so the same stacks are sampled in and out of the region and
 * only the time of a sample tells whether --region odd keeps it.  Prints
 * "regionsplit: done" and exits 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mapsample/mark.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static unsigned long
split_burn(unsigned long n)
{
	unsigned long x = 7;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline, noclone)) static void work(void)
{
	sink += split_burn(20000000ul);
}

/* Region "odd" entered and left in functions of their own, so main
 * calls work() from one place (the compiler would otherwise make a call
 * site per branch, and the stacks would differ). */
__attribute__((noinline, noclone)) static void enter(long i)
{
	if (i % 2)
		mapsample_region_begin("odd");
}

__attribute__((noinline, noclone)) static void leave(long i)
{
	if (i % 2)
		mapsample_region_end();
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 20;
	for (long i = 0; i < rounds; i++) {
		enter(i);
		work();
		leave(i);
	}
	printf("regionsplit: done\n");
	return sink == 42; /* 0, but the compiler cannot know */
}
