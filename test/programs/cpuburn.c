/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuburn: burns CPU in burn_cpu until the process has used a given CPU
 * time, for the mapsample tests.  Where the other test programs fix the
 * work, this one fixes the CPU time, sampler overhead included, so a run
 * at a very high sampling rate (where samples cost more CPU than the
 * program itself) stays short.  "cpuburn [MS]": MS milliseconds of CPU
 * time (default 400).  Prints "cpu-ms N" (getrusage, user and system) on
 * standard error and exits 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;

static long cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

static long cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000l + t.tv_nsec;
}

/* About 1 ms of work between looks at the clock. */
NOINLINE static void burn_cpu(long ms)
{
	long end = cpu_ns() + ms * 1000000l;
	unsigned long x = 1;
	while (cpu_ns() < end) {
		for (unsigned long i = 0; i < 1000000; i++) {
			x = x * 6364136223846793005ul + i;
			__asm__ volatile("" : "+r"(x));
		}
	}
	sink += x;
}

int main(int argc, char **argv)
{
	burn_cpu(argc > 1 ? atol(argv[1]) : 400);
	fprintf(stderr, "cpu-ms %ld\n", cpu_ms());
	return 0;
}
