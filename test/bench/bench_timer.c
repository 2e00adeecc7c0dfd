/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_timer: the kernel's part of a sample for each kind of sampling
 * timer the sampler can use, without the sampler: a fixed CPU loop runs
 * bare and under each timer, whose signal handler only counts, and the
 * extra CPU time over the bare run of the same round, per signal, is the
 * cost of the timer, its interrupt and the signal.  Also the rate each
 * kind achieves per second of the loop's CPU time, which is what a POSIX
 * CPU-time timer loses when its thread shares a CPU (-b: busy processes
 * running beside the loop).
 *
 *   bench_timer [-r HZ] [-n ROUNDS] [-m MILLIONS] [-b BUSY]
 *
 * Kinds: posix (timer_create on the thread's CPU clock, SIGEV_THREAD_ID),
 * perf1 (a perf task-clock event refreshed after every overflow, as the
 * sampler did until it batched them), perf8 (refreshed after every eighth:
 * the sampler's PERF_BATCH, lib/sampler/timer.c).  Prints, per kind, the
 * median over rounds of microseconds per signal and of signals per
 * CPU-second.  A benchmark: it exits 0 whatever it measures.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BARE, POSIX, PERF1, PERF8, NKINDS };
static const char *const kind_name[NKINDS] = {"bare", "posix", "perf1",
					      "perf8"};

static volatile long signals;
static int perf_fd = -1, batch;
static int syscalls; /* -s: 1 reads its CPU clock, 2 calls getppid(), every 1000 iterations */

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	signals++;
	if (perf_fd >= 0 && si->si_code == POLL_HUP)
		syscall(SYS_ioctl, perf_fd, PERF_EVENT_IOC_REFRESH, batch);
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int arm(int kind, long period_ns, timer_t *tm)
{
	int sig = SIGRTMIN + 4;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	if (kind == POSIX) {
		struct sigevent sev;
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = sig;
		sev._sigev_un._tid = tid;
		clockid_t c;
		pthread_getcpuclockid(pthread_self(), &c);
		struct itimerspec its = {{0, period_ns}, {0, period_ns}};
		return timer_create(c, &sev, tm) || timer_settime(*tm, 0, &its, NULL);
	}
	struct perf_event_attr pe;
	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_SOFTWARE;
	pe.size = sizeof(pe);
	pe.config = PERF_COUNT_SW_TASK_CLOCK;
	pe.sample_period = (unsigned long long)period_ns;
	pe.disabled = 1;
	pe.exclude_hv = 1;
	pe.wakeup_events = 1;
	int fd = (int)syscall(SYS_perf_event_open, &pe, 0, -1, -1,
			      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	struct f_owner_ex own = {F_OWNER_TID, tid};
	batch = kind == PERF1 ? 1 : 8;
	if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) || fcntl(fd, F_SETSIG, sig) ||
	    fcntl(fd, F_SETOWN_EX, &own)) {
		close(fd);
		return -1;
	}
	perf_fd = fd;
	return ioctl(fd, PERF_EVENT_IOC_REFRESH, batch);
}

static void disarm(int kind, timer_t tm)
{
	if (kind == POSIX)
		timer_delete(tm);
	else if (perf_fd >= 0) {
		ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
		close(perf_fd);
		perf_fd = -1;
	}
}

/* one run of the loop under kind: its CPU seconds and signals */
static int run(int kind, long period_ns, unsigned long iters, double *cpu,
	       long *nsig)
{
	timer_t tm = 0;
	signals = 0;
	if (kind != BARE && arm(kind, period_ns, &tm))
		return -1;
	double c0 = cpu_now();
	unsigned long x = 1;
	for (unsigned long i = 0; i < iters; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
		if (syscalls && i % 1000 == 0) {
			if (syscalls == 1)
				cpu_now();
			else
				syscall(SYS_getppid);
		}
	}
	*cpu = cpu_now() - c0;
	if (kind != BARE)
		disarm(kind, tm);
	*nsig = signals;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	long hz = 1000, millions = 300;
	int rounds = 7, busy = 0, c;
	while ((c = getopt(argc, argv, "r:n:m:b:s:")) != -1) {
		switch (c) {
		case 'r': hz = atol(optarg); break;
		case 'n': rounds = atoi(optarg); break;
		case 'm': millions = atol(optarg); break;
		case 'b': busy = atoi(optarg); break;
		case 's': syscalls = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench_timer [-r HZ] [-n ROUNDS] "
					"[-m MILLIONS] [-b BUSY]\n");
			return 2;
		}
	}
	if (hz < 1 || hz > 100000 || rounds < 1 || rounds > 1000 ||
	    millions < 1 || busy < 0 || busy > 256) {
		fprintf(stderr, "bench_timer: -r 1..100000, -n 1..1000, -m >= 1, "
				"-b 0..256\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGRTMIN + 4, &sa, NULL);
	pid_t kids[256];
	for (int i = 0; i < busy; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			for (;;)
				__asm__ volatile("");
	}
	long period = 1000000000L / hz;
	unsigned long iters = (unsigned long)millions * 1000000ul;
	double *cost[NKINDS], *rate[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		cost[k] = calloc((size_t)rounds, sizeof(double));
		rate[k] = calloc((size_t)rounds, sizeof(double));
	}
	int ok[NKINDS] = {1, 1, 1, 1};
	for (int r = 0; r < rounds; r++) {
		double cpu[NKINDS];
		long n[NKINDS];
		for (int k = 0; k < NKINDS; k++) {
			int kk = (k + r) % NKINDS; /* the order turns each round */
			if (!ok[kk] || run(kk, period, iters, &cpu[kk], &n[kk]))
				ok[kk] = 0;
		}
		for (int k = 1; k < NKINDS; k++)
			if (ok[k]) {
				cost[k][r] = n[k] ? (cpu[k] - cpu[BARE]) / (double)n[k] * 1e6 : 0;
				rate[k][r] = (double)n[k] / cpu[k];
			}
	}
	for (int i = 0; i < busy; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	printf("bench_timer: %ld Hz asked, %d rounds of %ld million iterations, "
	       "%d busy processes beside\n", hz, rounds, millions, busy);
	printf("  %-6s %12s %16s\n", "kind", "us/signal", "signals/cpu-s");
	for (int k = 1; k < NKINDS; k++) {
		if (!ok[k]) {
			printf("  %-6s %12s %16s\n", kind_name[k], "-", "not allowed");
			continue;
		}
		printf("  %-6s %12.2f %16.1f\n", kind_name[k], median(cost[k], rounds),
		       median(rate[k], rounds));
	}
	return 0;
}
