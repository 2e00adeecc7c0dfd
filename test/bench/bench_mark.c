/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_mark: what a call of <mapsample/mark.h> costs the program, in ns
 * per call.  Run it bare (the calls are libmapsample-mark's, which do
 * nothing) and under mapsample (the sampler's, which write a record):
 *   test/bench/bench_mark [-n CALLS]
 *   cmd/mapsample/mapsample -o /tmp/m.log -- test/bench/bench_mark
 * Each figure is the best of 5 rounds of CALLS calls (default 200000) of
 * mapsample_mark(), and of mapsample_region_begin() + _end() pairs.
 * Built by make, not run by make check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mapsample/mark.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = 200000;
	if (argc == 3 && strcmp(argv[1], "-n") == 0)
		n = atol(argv[2]);
	if (n <= 0) {
		fprintf(stderr, "usage: bench_mark [-n CALLS]\n");
		return 2;
	}
	double best_mark = 1e300, best_pair = 1e300;
	for (int round = 0; round < 5; round++) {
		double t0 = now();
		for (long i = 0; i < n; i++)
			mapsample_mark("bench");
		double t1 = now();
		for (long i = 0; i < n; i++) {
			mapsample_region_begin("bench");
			mapsample_region_end();
		}
		double t2 = now();
		if ((t1 - t0) / (double)n < best_mark)
			best_mark = (t1 - t0) / (double)n;
		if ((t2 - t1) / (double)n < best_pair)
			best_pair = (t2 - t1) / (double)n;
	}
	printf("mapsample_mark: %.1f ns per call; region begin + end: %.1f ns "
	       "per pair (%ld calls, best of 5)\n",
	       best_mark, best_pair, n);
	return 0;
}
