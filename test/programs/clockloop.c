/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clockloop: reads the monotonic clock in a loop, so most of its time is
 * in the vDSO's clock_gettime (mapreport-vdso.sh).  "clockloop
 * [MILLIONS]" makes MILLIONS million calls (default 10) and prints a sum
 * of the nanoseconds read, so the calls are kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 10) * 1000000ul;
	unsigned long sum = 0;
	for (unsigned long i = 0; i < n; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += (unsigned long)ts.tv_nsec;
	}
	printf("%lu\n", sum);
	return 0;
}
