/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * syswork: spends a known part of its CPU time in the kernel, for the
 * test of mapreport's kernel frames (test/integration/mapreport-kernel.sh).
 * "syswork MODE SECONDS": until SECONDS of CPU time (user + system) are
 * used, repeats a round of read_part (64 KiB read(2)s from /dev/zero, which
 * the kernel spends its time clearing) and user_part (a busy loop); MODE
 * "mixed" does both, "user" only user_part, looking at its CPU time (a
 * system call) only once in 256 rounds, some 0.5 s; MODE "faults" does
 * touch_part (a write to each page of 4 MiB just mapped: a page fault
 * each, kernel time outside any system call) and user_part.  At the end
 * it writes on standard error its own user and system CPU time
 * (getrusage), the CPU time spent in read_part (touch_part with
 * "faults") and its whole CPU time (the thread's CPU clock, exact):
 * "syswork: user 1.234 sys 0.567 read 0.560 cpu 1.801" ("fault" for
 * "read" with "faults").
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

static volatile unsigned long sink;
static char buf[65536];

/* The thread's CPU time in seconds, exact (not split at ticks as
 * getrusage's user and system times are). */
static double thread_cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_seconds(double *user, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return *user + *sys;
}

NOINLINE static void read_part(int fd, int n)
{
	for (int i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) < 0) {
			perror("syswork: read /dev/zero");
			exit(1);
		}
}

NOINLINE static void touch_part(volatile char *p, size_t len)
{
	for (size_t o = 0; o < len; o += 4096)
		p[o] = 1;
}

NOINLINE static void user_part(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	sink += x;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "mixed") && strcmp(argv[1], "user") &&
			  strcmp(argv[1], "faults"))) {
		fprintf(stderr, "usage: syswork mixed|user|faults SECONDS\n");
		return 2;
	}
	int mixed = strcmp(argv[1], "mixed") == 0;
	int faults = strcmp(argv[1], "faults") == 0;
	double want = atof(argv[2]), user, sys, inread = 0;
	int fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		perror("syswork: /dev/zero");
		return 1;
	}
	while (cpu_seconds(&user, &sys) < want) {
		if (mixed) {
			double t0 = thread_cpu();
			read_part(fd, 800);
			inread += thread_cpu() - t0;
		}
		if (faults) {
			size_t len = 4u << 20;
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED) {
				perror("syswork: mmap");
				return 1;
			}
			double t0 = thread_cpu();
			touch_part(p, len);
			inread += thread_cpu() - t0;
			munmap(p, len);
		}
		for (int i = 0; i < (mixed || faults ? 1 : 256); i++)
			user_part(2000000);
	}
	close(fd);
	cpu_seconds(&user, &sys);
	fprintf(stderr, "syswork: user %.3f sys %.3f %s %.3f cpu %.3f\n",
		user, sys, faults ? "fault" : "read", inread, thread_cpu());
	return 0;
}
