/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * marks: a program that marks its two phases as regions with
 * <mapsample/mark.h>, for test/integration/mapsample-marks.sh.  Region
 * "phase1" runs phase_one_burn, region "phase2" runs phase_two_burn on
 * the main thread while a second thread, in no region, runs other_burn;
 * a point mark "between" separates the phases.  Each burn is the same
 * fixed number of loop iterations ("marks [MILLIONS]", default 200 per
 * function), so the phases have about equal shares of the main thread.
 * Built twice: linked with libmapsample-mark (marks) and with
 * MAPSAMPLE_MARK_WEAK and no library (marks_weak).  Either runs
 * unchanged without mapsample: prints "marks: done" and exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <mapsample/mark.h>

static volatile unsigned long sink;

/* A function NAME(n) of n dependent multiply-adds, the same cost
 * everywhere; a frame of its own (no inlining, no cloning). */
#define BURN(NAME, SEED)                                                    \
	__attribute__((noinline, noclone)) static unsigned long NAME(         \
		unsigned long n)                                              \
	{                                                                     \
		unsigned long x = (SEED);                                     \
		for (unsigned long i = 0; i < n; i++) {                       \
			x = x * 6364136223846793005ul + i;                    \
			__asm__ volatile("" : "+r"(x));                       \
		}                                                             \
		return x;                                                     \
	}

BURN(phase_one_burn, 1)
BURN(phase_two_burn, 3)
BURN(other_burn, 5)

static void *other(void *arg)
{
	sink += other_burn(*(unsigned long *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 200) *
			  1000000ul;
	mapsample_region_begin("phase1");
	sink += phase_one_burn(n);
	mapsample_region_end();
	mapsample_mark("between");
	pthread_t t;
	if (pthread_create(&t, NULL, other, &n))
		return 1;
	mapsample_region_begin("phase2");
	sink += phase_two_burn(n);
	mapsample_region_end();
	pthread_join(t, NULL);
	printf("marks: done\n");
	return sink == 42; /* 0, but the compiler cannot know */
}
