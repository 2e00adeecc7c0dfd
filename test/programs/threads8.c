/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threads8: eight threads doing the same CPU work, for the mapsample
 * tests.  Each worker runs a fixed number of loop iterations (no shared
 * data, no locks), so each uses the same CPU time however the scheduler
 * interleaves them.  "threads8 [MILLIONS [THREADS]]": iterations per
 * thread in millions (default 250, about 0.25 s of CPU here), and the
 * number of threads (default 8, at most 256).  The main thread only
 * waits.  Exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))
#define NTHREADS 8
#define MAXTHREADS 256

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
	int n = argc > 2 ? atoi(argv[2]) : NTHREADS;
	if (n < 1 || n > MAXTHREADS) {
		fprintf(stderr, "threads8: THREADS must be 1 to %d\n", MAXTHREADS);
		return 2;
	}
	pthread_t th[MAXTHREADS];
	unsigned long res[MAXTHREADS];
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		int rc = pthread_create(&th[i], NULL, worker, &res[i]);
		if (rc) {
			fprintf(stderr, "threads8: pthread_create failed (%d)\n",
				rc);
			return 1;
		}
	}
	unsigned long sum = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		sum += res[i];
	}
	return sum == 42;
}
