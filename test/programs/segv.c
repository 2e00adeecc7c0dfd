/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * segv: burns CPU in burn_before_crash, then writes through a null
 * pointer and dies of SIGSEGV, for the mapsample tests (a process killed
 * by a fatal signal still leaves its samples and its exit in the log).
 * "segv [MILLIONS] [overflow]": iterations before the crash in millions
 * (default 300, about 0.3 s here); with "overflow", the crash is a stack
 * overflow (unbounded recursion), which leaves no stack for a SIGSEGV
 * handler to run on.
 */
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;
static int *volatile nowhere;

NOINLINE static void burn_before_crash(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	sink += x;
}

NOINLINE static void crash(void)
{
	*nowhere = 1;
}

NOINLINE static unsigned long overflow(unsigned long depth)
{
	volatile char frame[512];
	frame[0] = (char)depth;
	return overflow(depth + 1) + frame[0];
}

int main(int argc, char **argv)
{
	burn_before_crash((argc > 1 ? strtoul(argv[1], NULL, 10) : 300) *
			  1000000ul);
	if (argc > 2 && strcmp(argv[2], "overflow") == 0)
		sink += overflow(0);
	crash();
	return 0;
}
