/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * phdrthread: starts a thread while this thread holds the loader's lock
 * (inside a dl_iterate_phdr callback, as a dlopen on another thread would
 * hold it), and waits up to 10 s for the new thread to run its function.
 * Plain glibc starts it at once.  A sampler whose new-thread set-up asks
 * glibc's dl_iterate_phdr for the loaded objects waits for that lock
 * instead; under sampling that is half of a deadlock (the other half: the
 * holder's signal handler waiting for the lock libunwind held around the
 * call).  Exits 0 when the thread ran, 3 when it did not start in time,
 * 1 when the thread could not be created.
 */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int started;

static void *child(void *arg)
{
	(void)arg;
	__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info;
	(void)size;
	pthread_t *t = data;
	if (pthread_create(t, NULL, child, NULL))
		return -1;
	struct timespec d = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 1000; i++) {
		if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))
			return 1;
		nanosleep(&d, NULL);
	}
	return 2;
}

int main(void)
{
	pthread_t t;
	int rc = dl_iterate_phdr(cb, &t);
	if (rc == -1) {
		fprintf(stderr, "phdrthread: pthread_create failed\n");
		return 1;
	}
	if (rc == 2) {
		fprintf(stderr, "phdrthread: the new thread did not start in "
				"10 s while the loader lock was held\n");
		_exit(3); /* the thread may never finish: do not join it */
	}
	pthread_join(t, NULL);
	return 0;
}
