/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmpwork: the program mapreport --compare's tests compare with itself.
 * Three phases, work_parse, work_solve and work_output, run the same loop
 * in alternating rounds, in the ratio 1:1:1; built with
 * -DCMPWORK_SLOW_SOLVE (test/programs/slow/cmpwork), work_solve does
 * three times the work, a deliberate regression of one function (1:3:1:
 * its share of the samples goes from 33% to 60%).  Work is counted in
 * loop iterations: "cmpwork [MILLIONS]" runs MILLIONS million iterations
 * a phase (default 200).  Exits 0.
 */
#include <stdlib.h>

#include "spin.h"

#define ROUNDS 50

#ifdef CMPWORK_SLOW_SOLVE
#define SOLVE_FACTOR 3
#else
#define SOLVE_FACTOR 1
#endif

static volatile unsigned long sink;

NOINLINE static unsigned long work_parse(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	return x;
}

NOINLINE static unsigned long work_solve(unsigned long n)
{
	unsigned long x = 3;
	SPIN(n * SOLVE_FACTOR, x);
	return x;
}

NOINLINE static unsigned long work_output(unsigned long n)
{
	unsigned long x = 5;
	SPIN(n, x);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	unsigned long per_round = millions * 1000000ul / ROUNDS;
	for (int r = 0; r < ROUNDS; r++) {
		sink += work_parse(per_round);
		sink += work_solve(per_round);
		sink += work_output(per_round);
	}
	return sink == 42; /* 0, but the compiler cannot know */
}
