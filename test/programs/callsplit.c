/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * callsplit: a function called from two places with known shares of the
 * work, for the tests of mapreport --callers and --callees
 * (mapreport-calls.sh).  work(n) is called by from_a with n and by
 * from_b with 2n, so a third of its samples come through from_a and two
 * thirds through from_b; work itself spends a quarter of its time in
 * step_small and three quarters in step_big.  Then recurse() calls
 * itself 3 times before burning in recurse_leaf: its stacks hold it 4
 * times, and each must count once.  "callsplit [MILLIONS]": iterations
 * of the smallest part in millions (default 40).  Exits 0.
 */
#include <stdlib.h>

#include "burn.h"

BURN(step_small, 1)
BURN(step_big, 2)
BURN(recurse_leaf, 3)

NOINLINE static void work(unsigned long n)
{
	step_small(n);
	step_big(3 * n);
}

NOINLINE static void from_a(unsigned long n)
{
	work(n);
}

NOINLINE static void from_b(unsigned long n)
{
	work(2 * n);
}

NOINLINE static void recurse(int depth, unsigned long n)
{
	if (depth > 0)
		recurse(depth - 1, n);
	else
		recurse_leaf(n);
	burn_sink++;
}

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 40) *
			  1000000ul;
	from_a(n);
	from_b(n);
	recurse(3, 2 * n);
	return 0;
}
