/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spin: the busy loop of the test programs whose CPU shares the tests
 * check (hot, cmpwork): one dependent multiply-add per iteration, which
 * costs the same everywhere and that the compiler cannot drop.
 */
#ifndef MAPSAMPLE_TEST_PROGRAMS_SPIN_H
#define MAPSAMPLE_TEST_PROGRAMS_SPIN_H

#define NOINLINE __attribute__((noinline, noclone))

/* Runs n iterations on the unsigned long x. */
#define SPIN(n, x)                                                          \
	for (unsigned long i_ = 0; i_ < (n); i_++) {                        \
		(x) = (x) * 6364136223846793005ul + i_;                     \
		__asm__ volatile("" : "+r"(x));                             \
	}

#endif
