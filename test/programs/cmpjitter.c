/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmpjitter: a program whose function shares vary from run to run more
 * than sampling noise says, and visibly so over its run, as a real
 * program's do when its input or its machine changes as it goes: the
 * test of mapreport --compare's within-run noise estimate.  Its work is
 * ROUNDS rounds; in each, jitter_a and jitter_b take turns in slices of
 * SLICE iterations, jitter_a doing a fraction f of them, f drawn anew
 * each round between 0.1 and 0.9 (seeded from the pid and the time, so
 * every run differs).  So a run's share of jitter_a is the mean of its
 * ROUNDS fractions: about 50% give or take 7 points from run to run,
 * where the binomial error of a share of 1000 samples is 1.6 points.
 * "cmpjitter [MILLIONS]" runs MILLIONS million iterations in all
 * (default 600).  Exits 0.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

#define ROUNDS 10
#define SLICE 20000ul

static volatile unsigned long sink;

NOINLINE static unsigned long jitter_a(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	return x;
}

NOINLINE static unsigned long jitter_b(unsigned long n)
{
	unsigned long x = 3;
	SPIN(n, x);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 600;
	unsigned long slices = millions * 1000000ul / SLICE / ROUNDS;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	srand((unsigned)getpid() ^ (unsigned)ts.tv_nsec);
	for (int r = 0; r < ROUNDS; r++) {
		/* f in tenths of a percent, 100 to 900 */
		unsigned long f = 100 + (unsigned long)rand() % 801;
		unsigned long acc = 0;
		for (unsigned long s = 0; s < slices; s++) {
			/* slice s goes to jitter_a while its running count
			 * is behind f of the slices so far */
			acc += f;
			if (acc >= 1000) {
				acc -= 1000;
				sink += jitter_a(SLICE);
			} else {
				sink += jitter_b(SLICE);
			}
		}
	}
	return sink == 42; /* 0, but the compiler cannot know */
}
