/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symnames: a program whose symbols and DWARF trip a symbolizer, for
 * test/unit/test_symbolize (it is run only to check that it runs).
 *
 * Aliases: the function spin is defined, as glibc defines read, under an
 * internal assembler name (__GI_spin_impl, hidden, so a LOCAL symbol
 * that the DWARF names it by) with a public GLOBAL alias spin and a WEAK
 * one __spin: a report must call it spin.  twice is the same kind of
 * function (__GI_twice_impl), always inlined into main: its inline frame
 * is named from the DWARF, by the assembler name, and must be twice too.
 *
 * Discarded code: unused_big is a large function that the link drops
 * (built with -ffunction-sections and --gc-sections).  Its line table
 * rows and DWARF ranges stay in the file at addresses from 0, so in a
 * position-independent program they cover _start and the code after it:
 * those addresses have no line, and no inline frame, of unused_big's.
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long spin_impl(unsigned long n) __asm__("__GI_spin_impl")
	__attribute__((visibility("hidden"), noinline));

unsigned long spin_impl(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

extern __typeof(spin_impl) spin __attribute__((alias("__GI_spin_impl")));
extern __typeof(spin_impl) __spin
	__attribute__((weak, alias("__GI_spin_impl")));

unsigned long twice_impl(unsigned long x) __asm__("__GI_twice_impl")
	__attribute__((visibility("hidden")));

__attribute__((always_inline)) inline unsigned long twice_impl(unsigned long x)
{
	return 2 * x + 1;
}

extern __typeof(twice_impl) twice __attribute__((alias("__GI_twice_impl")));

/* called through, so that --gc-sections keeps twice's own copy */
static unsigned long (*volatile twice_ptr)(unsigned long) = twice;

/* About 10 KiB of code at -O0, more than _start's address in a PIE. */
#define STEP x = x * 3 + (unsigned long)printf("%lu\n", x);
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP
#define STEP64 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8
unsigned long unused_big(unsigned long x);
unsigned long unused_big(unsigned long x)
{
	STEP64 STEP64 STEP64 STEP64 STEP64 STEP64
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	printf("%lu\n", spin(twice_impl(n)) + twice_ptr(n));
	return 0;
}
