/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sleepburn: sleeps in sleep_part, then burns CPU in burn_part, for the
 * mapsample tests (wall-clock sampling sees the sleep, CPU sampling does
 * not).  The sleep runs to an absolute deadline, so sampling signals that
 * cut clock_nanosleep short (EINTR) do not shorten it.
 * "sleepburn [MS [MILLIONS]]": sleep MS milliseconds (default 1000), then
 * burn MILLIONS million iterations (default 200, about 0.2 s here).
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;

NOINLINE static void sleep_part(long ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	       EINTR)
		;
}

NOINLINE static void burn_part(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	sink += x;
}

int main(int argc, char **argv)
{
	sleep_part(argc > 1 ? atol(argv[1]) : 1000);
	burn_part((argc > 2 ? strtoul(argv[2], NULL, 10) : 200) * 1000000ul);
	return 0;
}
