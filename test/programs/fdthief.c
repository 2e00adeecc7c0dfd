/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdthief: a program that takes descriptor numbers back, as daemons do.
 * "fdthief FILE": burns CPU in before_theft(), then opens FILE (created
 * empty), writes "0123456789" to it, and puts it with dup2() on every
 * number from 1000 to 1023 (where the sampler keeps its descriptors:
 * the log, the writer's eventfd, /proc files, perf events), closes its
 * own, and burns CPU in after_theft().  Exits 0, or 1 naming what failed.
 * Under mapsample, FILE must still hold exactly its 10 bytes at the end,
 * and after_theft() must be sampled.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void burn(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (i >> 3);
}

__attribute__((noinline)) static void before_theft(void)
{
	burn(100000000ul);
}

__attribute__((noinline)) static void after_theft(void)
{
	burn(600000000ul);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	before_theft();
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "0123456789", 10) != 10) {
		perror("fdthief: open/write");
		return 1;
	}
	struct rlimit rl;
	int top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 1024
			  ? (int)rl.rlim_cur - 1
			  : 1023;
	for (int n = 1000; n <= top; n++)
		if (n != fd && dup2(fd, n) != n) {
			perror("fdthief: dup2");
			return 1;
		}
	close(fd);
	after_theft();
	return 0;
}
