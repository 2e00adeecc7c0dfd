/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threadsrun: N threads that burn CPU and call malloc/free for S seconds
 * of wall-clock time, for the metric plugin tests (getters run in the
 * signal handlers of busy threads, some of them inside malloc).
 * "threadsrun [N [SECONDS]]": default 16 threads, 10 s.  Prints
 * "threads N" on standard error and exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds;
static volatile unsigned long sink;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	(void)arg;
	double end = now() + seconds;
	unsigned long i = 0;
	while (now() < end) {
		for (int k = 0; k < 1000; k++)
			sink += (unsigned long)k * i;
		void *p = malloc(16 + (i++ % 4096));
		if (p)
			sink += (unsigned long)p & 1;
		free(p);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	seconds = argc > 2 ? atof(argv[2]) : 10;
	if (n < 1 || n > 256)
		return 2;
	pthread_t t[256];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	fprintf(stderr, "threads %d\n", n);
	return 0;
}
