/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quickexit: burns a little CPU in burn_quick(), registers an
 * at_quick_exit() handler that prints "handler", and ends with
 * quick_exit(6), which glibc ends through an _exit of its own.
 */
#include <stdlib.h>
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

int main(void)
{
	if (at_quick_exit(handler))
		return 1;
	burn_quick();
	quick_exit(6);
}
