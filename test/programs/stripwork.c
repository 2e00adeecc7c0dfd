/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libstripwork: dlwork_burn (libdlwork's entry point, so that
 * test/programs/rpathopen can load it) spends its time in a static
 * function, stripwork_spin, called through another, stripwork_enter; both
 * have no name at all once the file is stripped: for the report of code
 * without symbols (test/integration/mapreport-stripped.sh), where a
 * nameless function is a leaf (stripwork_spin) and a caller
 * (stripwork_enter).
 */
#define EXPORT __attribute__((visibility("default"), noinline, noclone))

EXPORT unsigned long dlwork_burn(unsigned long n);

__attribute__((noinline, noclone)) static unsigned long
stripwork_spin(unsigned long n)
{
	unsigned long x = 3;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
		if ((x >> 60) == 0xf)
			x ^= i << 3;
	}
	return x;
}

__attribute__((noinline, noclone)) static unsigned long
stripwork_enter(unsigned long n)
{
	return stripwork_spin(n) ^ 5;
}

unsigned long dlwork_burn(unsigned long n)
{
	return stripwork_enter(n) + 1;
}
