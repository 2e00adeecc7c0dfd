/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * markstorm: marks and regions as often as a program can set them, for
 * test/integration/mapsample-marks.sh.  "markstorm THREADS PAIRS": the
 * main thread and THREADS-1 others each enter region "outer" and, inside
 * it, region "inner" PAIRS times, with a little work in each, while a
 * SIGALRM handler (every millisecond of wall-clock time) sets point
 * marks.  Under mapsample every region must be recorded: the report lists
 * "outer" and "inner" entered exactly THREADS * PAIRS times each, none
 * left open, no end unmatched.  Prints "markstorm: done" and exits 0.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <mapsample/mark.h>

static volatile unsigned long sink;
static long pairs;

static void on_alarm(int sig)
{
	(void)sig;
	mapsample_mark("alarm");
}

static void *storm(void *arg)
{
	(void)arg;
	for (long i = 0; i < pairs; i++) {
		mapsample_region_begin("outer");
		mapsample_region_begin("inner");
		for (int k = 0; k < 200; k++)
			sink += (unsigned long)k * (unsigned long)i;
		mapsample_region_end();
		mapsample_region_end();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	pairs = argc > 2 ? atol(argv[2]) : 20000;
	if (threads < 1 || threads > 64 || pairs < 1) {
		fprintf(stderr, "usage: markstorm [THREADS [PAIRS]]\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 1000}, {0, 1000}};
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t[64];
	for (int i = 1; i < threads; i++)
		if (pthread_create(&t[i], NULL, storm, NULL))
			return 1;
	storm(NULL);
	for (int i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	printf("markstorm: done\n");
	return 0;
}
