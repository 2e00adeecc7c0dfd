/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quickexit: burns a little CPU in burn_quick(), registers an
 * at_quick_exit() handler that prints "handler", and ends with
 * quick_exit(6), which glibc ends through an _exit of its own.  With
 * the argument "group" it ends with a direct exit_group(2) system call
 * instead, which no exit function of the C library sees.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void burn_quick(void)
{
	for (unsigned long i = 0; i < 100000000ul; i++)
		sink += i * 7;
}

static void handler(void)
{
	if (write(1, "handler\n", 8) != 8)
		_exit(1);
}

int main(int argc, char **argv)
{
	if (at_quick_exit(handler))
		return 1;
	burn_quick();
	if (argc > 1 && strcmp(argv[1], "group") == 0)
		syscall(SYS_exit_group, 6);
	quick_exit(6);
}
