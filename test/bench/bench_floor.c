/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_floor: what one sample costs at the least, to hold the sampler's
 * per-sample cost against.  Runs a fixed amount of CPU work (a loop ten
 * frames deep, so a stack walk has something to walk) in one of these
 * modes, and prints the CPU time the work took and the signals taken:
 *
 *   bare     no timer: the work alone
 *   signal   a per-thread CLOCK_MONOTONIC timer at RATE Hz with an empty
 *            SA_SIGINFO handler: interrupt and signal delivery
 *   unwind   the same, the handler walking the stack with libunwind from
 *            the signal context (unw_init_local2 + unw_step): the floor of
 *            a sampler that walks step by step
 *   trace    the same with libunwind's fast trace (unw_backtrace from the
 *            handler, its cached frame shapes), the walk mapsample uses:
 *            the floor a libunwind-based sampler cannot go below
 *
 * Per-sample cost = (time(mode) - time(bare)) / signals.  Run the bare
 * mode under `mapsample --wall -F RATE` for the sampler's own cost.
 *
 * CLOCK is "wall" (default: a CLOCK_MONOTONIC timer, a timer interrupt
 * of its own per signal) or "cpu" (the thread's CPU-time clock, as
 * mapsample's default: on a tick-based kernel the signal rides the
 * scheduler tick, so the interrupt is paid whether or not anyone
 * samples, and RATE is capped at the tick rate); with "cpu", compare
 * with mapsample's default mode (`mapsample -F RATE`).
 *
 *   bench_floor MODE [ITERATIONS] [RATE] [CLOCK]
 */
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long signals;
static volatile unsigned long frames;
static volatile double sink;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	signals++;
}

static void on_signal_unwind(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	unw_cursor_t cur;
	unsigned n = 0;
	if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) ==
	    0) {
		do {
			unw_word_t ip;
			unw_get_reg(&cur, UNW_REG_IP, &ip);
			n++;
		} while (n < 256 && unw_step(&cur) > 0);
	}
	frames += n;
	signals++;
}

static void on_signal_trace(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	void *pc[256 + 32];
	int n = unw_backtrace(pc, 256 + 32);
	frames += n > 0 ? (unsigned long)n : 0;
	signals++;
}

__attribute__((noinline)) static double work(long iters, int depth)
{
	if (depth > 0)
		return work(iters, depth - 1) + 1.0;
	double s = 0;
	for (long i = 0; i < iters; i++)
		s += (double)(i & 1023) * 1e-9 / (1.0 + (double)(i & 7));
	return s;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_floor bare|signal|unwind|trace "
				"[ITERATIONS] [RATE] [wall|cpu]\n");
		return 2;
	}
	const char *mode = argv[1];
	long iters = argc > 2 ? atol(argv[2]) : 400000000L;
	long rate = argc > 3 ? atol(argv[3]) : 10000;
	int cpu_clock = argc > 4 && strcmp(argv[4], "cpu") == 0;
	int timer = strcmp(mode, "bare") != 0;
	timer_t t;
	if (timer) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = strcmp(mode, "unwind") == 0  ? on_signal_unwind
				  : strcmp(mode, "trace") == 0 ? on_signal_trace
								 : on_signal;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigaction(SIGRTMIN + 5, &sa, NULL);
		if (strcmp(mode, "unwind") == 0 || strcmp(mode, "trace") == 0) {
			/* warm libunwind's caches outside signal context */
			unw_set_caching_policy(unw_local_addr_space,
					       UNW_CACHE_PER_THREAD);
			void *pc[4];
			unw_backtrace(pc, 4);
		}
		struct sigevent sev;
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGRTMIN + 5;
		sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		if (timer_create(cpu_clock ? CLOCK_THREAD_CPUTIME_ID
					   : CLOCK_MONOTONIC,
				 &sev, &t)) {
			perror("timer_create");
			return 1;
		}
		struct itimerspec its;
		its.it_interval.tv_sec = 0;
		its.it_interval.tv_nsec = 1000000000L / rate;
		its.it_value = its.it_interval;
		timer_settime(t, 0, &its, NULL);
	}
	double w0 = wall_now(), t0 = cpu_now();
	sink = work(iters, 10);
	double t1 = cpu_now(), w1 = wall_now();
	if (timer)
		timer_delete(t);
	printf("bench_floor: mode=%s cpu_s=%.6f wall_s=%.6f signals=%lu "
	       "frames=%lu\n",
	       mode, t1 - t0, w1 - w0, signals, frames);
	return 0;
}
