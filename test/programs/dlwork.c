/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdlwork: a small shared library that test/programs/dlloop opens and
 * closes again and again; dlwork_burn burns CPU for n loop iterations.
 */
#define EXPORT __attribute__((visibility("default"), noinline, noclone))

EXPORT unsigned long dlwork_burn(unsigned long n);

unsigned long dlwork_burn(unsigned long n)
{
	unsigned long x = 5;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
