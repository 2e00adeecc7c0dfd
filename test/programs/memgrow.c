/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memgrow: holds a known amount of memory while it runs, for the metric
 * rules of mapreport --compare (test/integration/mapreport-compare-
 * metrics.sh).  "memgrow MIB [MS]": allocates MIB MiB, writes to every
 * page of it so that it is resident, then spends MS milliseconds of CPU
 * time (default 400) reading it, so that the sampler takes its metric
 * samples while the memory is held.  Exits 0, or 1 when the memory
 * cannot be had.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static long cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
	long ms = argc > 2 ? strtol(argv[2], NULL, 10) : 400;
	size_t len = mib << 20;
	unsigned char *p = malloc(len ? len : 1);
	if (!p) {
		fprintf(stderr, "memgrow: cannot allocate %zu MiB\n", mib);
		return 1;
	}
	memset(p, 1, len);
	unsigned long x = 0;
	while (cpu_ms() < ms)
		for (size_t i = 0; i < len; i += 4096)
			x += p[i] + (x >> 3);
	sink = x;
	free(p);
	return 0;
}
