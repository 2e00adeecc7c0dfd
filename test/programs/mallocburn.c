/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mallocburn: spends its time inside malloc and free (blocks of 2 to
 * 34 KiB, past the per-thread caches, so each call takes the arena's
 * lock) until the process has used a given CPU time, for
 * test/integration/metrics-faults.sh: a metric getter that calls malloc
 * from the sampling signal handler finds the lock held by the thread it
 * interrupted.  "mallocburn [MS [THREADS]]": MS milliseconds of CPU time
 * (default 1000) in each of THREADS threads (default 2; glibc's malloc
 * takes no lock while a process has one thread).  Prints "mallocburn
 * done" on standard error and exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long ms = 1000;

static long cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *burn(void *arg)
{
	void *keep[64];
	memset(keep, 0, sizeof(keep));
	unsigned long x = 12345 + (unsigned long)arg;
	while (cpu_ms() < ms) {
		for (int i = 0; i < 1000; i++) {
			x = x * 6364136223846793005ul + 1442695040888963407ul;
			size_t k = (x >> 33) % 64;
			free(keep[k]);
			keep[k] = malloc(2048 + (x >> 40) % 32768);
			if (keep[k])
				((char *)keep[k])[0] = (char)i;
		}
	}
	for (int k = 0; k < 64; k++)
		free(keep[k]);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		ms = atol(argv[1]);
	int n = argc > 2 ? atoi(argv[2]) : 2;
	if (n < 1 || n > 64)
		n = 2;
	pthread_t th[64];
	for (int i = 1; i < n; i++)
		if (pthread_create(&th[i], NULL, burn, (void *)(unsigned long)i))
			return 1;
	burn(NULL);
	for (int i = 1; i < n; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "mallocburn done\n");
	return 0;
}
