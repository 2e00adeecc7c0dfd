/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threads8: eight threads doing the same CPU work, for the mapsample
 * tests.  Each worker runs a fixed number of loop iterations (no shared
 * data, no locks), so each uses the same CPU time however the scheduler
 * interleaves them.  "threads8 [MILLIONS]": iterations per thread in
 * millions (default 250, about 0.25 s of CPU here).  The main thread only
 * waits.  Exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))
#define NTHREADS 8

#define SPIN(n, x)                                                          \
	for (unsigned long i_ = 0; i_ < (n); i_++) {                        \
		(x) = (x) * 6364136223846793005ul + i_;                     \
		__asm__ volatile("" : "+r"(x));                             \
	}

static unsigned long iterations;
static pthread_barrier_t start;

NOINLINE static unsigned long worker_burn(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	return x;
}

static void *worker(void *arg)
{
	unsigned long *out = arg;
	pthread_barrier_wait(&start);
	*out = worker_burn(iterations);
	return NULL;
}

int main(int argc, char **argv)
{
	iterations = (argc > 1 ? strtoul(argv[1], NULL, 10) : 250) * 1000000ul;
	pthread_t th[NTHREADS];
	unsigned long res[NTHREADS];
	pthread_barrier_init(&start, NULL, NTHREADS);
	for (int i = 0; i < NTHREADS; i++) {
		int rc = pthread_create(&th[i], NULL, worker, &res[i]);
		if (rc) {
			fprintf(stderr, "threads8: pthread_create failed (%d)\n",
				rc);
			return 1;
		}
	}
	unsigned long sum = 0;
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		sum += res[i];
	}
	return sum == 42;
}
