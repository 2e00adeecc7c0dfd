/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dlloop: dlopen, dlsym, call and dlclose a library in a loop while two
 * other threads burn CPU, for the mapsample tests (dlopen and dlclose
 * under a high sampling rate, with stacks walked in the other threads).
 * "dlloop LIBRARY [TIMES [THOUSANDS [SPAWN [LOADERS]]]]": TIMES rounds
 * (default 200), each calling dlwork_burn for THOUSANDS thousand
 * iterations (default 2000, about 2 ms here).  With SPAWN 1, the second
 * thread instead starts and joins short-lived threads all the while, so
 * thread starts (where the sampler warms up its stack walker) meet dlopen
 * and dlclose.  LOADERS threads (default 1) run the rounds at the same
 * time, each its own TIMES.  Exits 0, or 1 naming what failed.
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

static const char *library;
static int times;
static unsigned long thousands;

/* TIMES rounds of dlopen, dlsym, call, dlclose.  Returns NULL, or a
 * non-NULL pointer after naming what failed. */
static void *loader(void *arg)
{
	(void)arg;
	for (int i = 0; i < times; i++) {
		void *h = dlopen(library, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "dlloop: dlopen: %s\n", dlerror());
			return (void *)1;
		}
		unsigned long (*burn)(unsigned long) =
			(unsigned long (*)(unsigned long))dlsym(h, "dlwork_burn");
		if (!burn) {
			fprintf(stderr, "dlloop: dlsym: %s\n", dlerror());
			dlclose(h);
			return (void *)1;
		}
		sink += burn(thousands);
		if (dlclose(h)) {
			fprintf(stderr, "dlloop: dlclose: %s\n", dlerror());
			return (void *)1;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dlloop LIBRARY [TIMES [THOUSANDS "
				"[SPAWN [LOADERS]]]]\n");
		return 2;
	}
	library = argv[1];
	times = argc > 2 ? atoi(argv[2]) : 200;
	thousands = (argc > 3 ? strtoul(argv[3], NULL, 10) : 2000) * 1000ul;
	int spawn = argc > 4 && atoi(argv[4]) == 1;
	int loaders = argc > 5 ? atoi(argv[5]) : 1;
	if (loaders < 1 || loaders > 64)
		loaders = 1;
	pthread_t th[2], ld[64];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, i && spawn ? spawner : side,
				   NULL)) {
			fprintf(stderr, "dlloop: pthread_create failed\n");
			return 1;
		}
	int rc = 0;
	for (int i = 1; i < loaders; i++)
		if (pthread_create(&ld[i], NULL, loader, NULL)) {
			fprintf(stderr, "dlloop: pthread_create failed\n");
			return 1;
		}
	if (loader(NULL))
		rc = 1;
	for (int i = 1; i < loaders; i++) {
		void *r;
		pthread_join(ld[i], &r);
		if (r)
			rc = 1;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return rc;
}
