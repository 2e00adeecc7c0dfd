/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hot: a program with one known hot function, for the mapsample tests.
 * burn_hot runs the same loop as burn_cold nine times as long, in
 * alternating rounds, so its share of the CPU time is 90% whatever the
 * machine's speed or load.  The work is counted in loop iterations, not
 * time: "hot [MILLIONS]" runs MILLIONS million iterations in all (default
 * 600, about 0.6 s of CPU here).  Prints the CPU time it used on
 * standard error ("cpu-ms N", user and system) and exits 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "spin.h"

#define ROUNDS 100

static volatile unsigned long sink;

NOINLINE static unsigned long burn_hot(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	return x;
}

NOINLINE static unsigned long burn_cold(unsigned long n)
{
	unsigned long x = 3;
	SPIN(n, x);
	return x;
}

NOINLINE static void work(unsigned long millions)
{
	unsigned long per_round = millions * 1000000ul / ROUNDS / 10;
	for (int r = 0; r < ROUNDS; r++) {
		sink += burn_hot(per_round * 9);
		sink += burn_cold(per_round);
	}
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 600;
	work(millions);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "cpu-ms %ld\n",
		(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000);
	return sink == 42; /* 0, but the compiler cannot know */
}
