/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lastthread: programs whose process ends when their last thread ends,
 * not through exit().  "lastthread MODE":
 *   pthread_exit  main starts a thread that burns 0.3 s, prints "done"
 *                 with stdio (buffered: only exit(0)'s flush shows it)
 *                 and returns, and main calls pthread_exit(): glibc
 *                 ends the process with exit(0) after the last thread;
 *   sys_exit      main burns 0.3 s and ends with the raw exit(2) system
 *                 call, status 3: the kernel ends the process, status 3;
 *   seccomp       main burns 0.3 s, enters strict seccomp and makes a
 *                 forbidden system call: the kernel kills the thread,
 *                 and with it the process (SIGKILL).
 */
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void burn_last(void)
{
	for (unsigned long i = 0; i < 300000000ul; i++)
		sink += i ^ (i >> 7);
}

static void *worker(void *arg)
{
	(void)arg;
	burn_last();
	printf("done\n");
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "pthread_exit") == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, worker, NULL))
			return 1;
		pthread_exit(NULL);
	}
	burn_last();
	if (strcmp(argv[1], "sys_exit") == 0)
		syscall(SYS_exit, 3);
	if (strcmp(argv[1], "seccomp") == 0) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
			return 1;
		syscall(SYS_getppid);
	}
	return 2;
}
