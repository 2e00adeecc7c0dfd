/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rawexec: execs itself with the execve system call made directly, as
 * Go's syscall.Exec and other runtimes that bypass libc do, so that
 * the sampler's execve wrapper never sees it.  "rawexec N MS" burns MS
 * milliseconds of CPU time, then, while N > 0, execs "rawexec N-1 MS"
 * (/proc/self/exe) with the environment it was started with; the last
 * image burns and exits 0.  For test/integration/mapreport-exec.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

extern char **environ;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

NOINLINE static unsigned long rawexec_burn(double ms)
{
	unsigned long x = 1;
	double t0 = cpu_ms();
	while (cpu_ms() - t0 < ms)
		SPIN(200000, x);
	return x;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: rawexec N MS\n");
		return 2;
	}
	int n = atoi(argv[1]);
	double ms = atof(argv[2]);
	if (rawexec_burn(ms) == 42)
		puts("");
	if (n <= 0)
		return 0;
	char next[16];
	snprintf(next, sizeof(next), "%d", n - 1);
	char *args[] = {argv[0], next, argv[2], NULL};
	syscall(SYS_execve, "/proc/self/exe", args, environ);
	perror("rawexec: execve");
	return 1;
}
