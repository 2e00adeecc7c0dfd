/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forkexec: three process images that each burn CPU, for the mapsample
 * tests.  The parent runs burn_parent, forks; the child runs burn_child
 * and then execs this program again ("/proc/self/exe --after-exec"),
 * whose image runs burn_after_exec and exits 3.  The parent waits and
 * exits 4 when the child exited 3, 1 otherwise.  "forkexec [MILLIONS]":
 * iterations per stage in millions (default 200, about 0.2 s here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

#define SPIN(n, x)                                                          \
	for (unsigned long i_ = 0; i_ < (n); i_++) {                        \
		(x) = (x) * 6364136223846793005ul + i_;                     \
		__asm__ volatile("" : "+r"(x));                             \
	}

static volatile unsigned long sink;

NOINLINE static void burn_parent(unsigned long n)
{
	unsigned long x = 1;
	SPIN(n, x);
	sink += x;
}

NOINLINE static void burn_child(unsigned long n)
{
	unsigned long x = 2;
	SPIN(n, x);
	sink += x;
}

NOINLINE static void burn_after_exec(unsigned long n)
{
	unsigned long x = 3;
	SPIN(n, x);
	sink += x;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--after-exec") == 0) {
		unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 200;
		burn_after_exec(n * 1000000ul);
		return 3;
	}
	const char *arg = argc > 1 ? argv[1] : "200";
	unsigned long n = strtoul(arg, NULL, 10) * 1000000ul;
	burn_parent(n);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("forkexec: fork");
		return 1;
	}
	if (pid == 0) {
		burn_child(n);
		execl("/proc/self/exe", "forkexec", "--after-exec", arg,
		      (char *)NULL);
		perror("forkexec: exec");
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		return 4;
	fprintf(stderr, "forkexec: child ended with status %#x\n", status);
	return 1;
}
