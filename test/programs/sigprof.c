/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sigprof: a program that profiles itself the old way, for the mapsample
 * tests: it installs its own SIGPROF handler with sigaction, arms
 * setitimer(ITIMER_PROF) every millisecond, burns CPU in burn_profiled,
 * disarms the timer and prints "sigprof handler calls: N".  The sampler
 * must neither take its signal nor stop its own sampling.
 * "sigprof [MILLIONS]": iterations in millions (default 1000, about 1 s
 * of CPU here).  Exits 0, or 1 when a call fails.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile sig_atomic_t calls;
static volatile unsigned long sink;

static void on_prof(int sig)
{
	(void)sig;
	calls++;
}

NOINLINE static void burn_profiled(unsigned long n)
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
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 1000) *
			  1000000ul;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL)) {
		perror("sigprof: sigaction");
		return 1;
	}
	struct itimerval it = {{0, 1000}, {0, 1000}};
	if (setitimer(ITIMER_PROF, &it, NULL)) {
		perror("sigprof: setitimer");
		return 1;
	}
	burn_profiled(n);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, NULL);
	printf("sigprof handler calls: %d\n", (int)calls);
	return 0;
}
