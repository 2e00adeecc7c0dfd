/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * burn: CPU work of a known size for the test programs that need several
 * hot functions with names of their own (filterwork, callsplit).
 * BURN(name, seed) defines "static void name(unsigned long n)", which
 * runs a multiply-add n times on a value the compiler cannot drop, and
 * is never inlined, so each stays a frame of its own.
 */
#ifndef MAPSAMPLE_TEST_PROGRAMS_BURN_H
#define MAPSAMPLE_TEST_PROGRAMS_BURN_H

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long burn_sink;

#define BURN(name, seed)                                                    \
	NOINLINE static void name(unsigned long n)                          \
	{                                                                   \
		unsigned long x = (seed);                                   \
		for (unsigned long i = 0; i < n; i++) {                     \
			x = x * 6364136223846793005ul + i;                  \
			__asm__ volatile("" : "+r"(x));                     \
		}                                                           \
		burn_sink += x;                                             \
	}

#endif
