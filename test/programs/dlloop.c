/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dlloop: dlopen, dlsym, call and dlclose a library in a loop while two
 * other threads burn CPU, for the mapsample tests (dlopen and dlclose
 * under a high sampling rate, with stacks walked in the other threads).
 * "dlloop LIBRARY [TIMES [THOUSANDS [SPAWN]]]": TIMES rounds (default
 * 200), each calling dlwork_burn for THOUSANDS thousand iterations
 * (default 2000, about 2 ms here).  With SPAWN 1, the second thread
 * instead starts and joins short-lived threads all the while, so thread
 * starts (where the sampler warms up its stack walker) meet dlopen and
 * dlclose.  Exits 0, or 1 naming what failed.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static int stop;
static volatile unsigned long sink;

NOINLINE static unsigned long side_burn(unsigned long n)
{
	unsigned long x = 7;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void *side(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
		sink += side_burn(100000);
	return NULL;
}

static void *brief(void *arg)
{
	(void)arg;
	sink += side_burn(20000);
	return NULL;
}

/* Starts and joins short threads until the main loop ends. */
static void *spawner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		pthread_t t;
		if (pthread_create(&t, NULL, brief, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr,
			"usage: dlloop LIBRARY [TIMES [THOUSANDS [SPAWN]]]\n");
		return 2;
	}
	int times = argc > 2 ? atoi(argv[2]) : 200;
	unsigned long n = (argc > 3 ? strtoul(argv[3], NULL, 10) : 2000) * 1000ul;
	int spawn = argc > 4 && atoi(argv[4]) == 1;
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, i && spawn ? spawner : side,
				   NULL)) {
			fprintf(stderr, "dlloop: pthread_create failed\n");
			return 1;
		}
	int rc = 0;
	for (int i = 0; i < times && !rc; i++) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "dlloop: dlopen: %s\n", dlerror());
			rc = 1;
			break;
		}
		unsigned long (*burn)(unsigned long) =
			(unsigned long (*)(unsigned long))dlsym(h, "dlwork_burn");
		if (!burn) {
			fprintf(stderr, "dlloop: dlsym: %s\n", dlerror());
			rc = 1;
		} else {
			sink += burn(n);
		}
		if (dlclose(h)) {
			fprintf(stderr, "dlloop: dlclose: %s\n", dlerror());
			rc = 1;
		}
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return rc;
}
