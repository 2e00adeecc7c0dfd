/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of butterfly_build() (lib/report/butterfly.c), the callers
 * and callees of mapreport --callers and --callees, on a hand-made
 * analysis: a function called from two places, a recursion (each stack
 * counted once per row), the outermost frame's caller, a C++ name found
 * without its argument list, and a name no function has.
 */
#include <string.h>

#include <check.h>

#include "report/butterfly.h"

enum { F_MAIN, F_A, F_B, F_W, F_R, F_CPP, NF };

/* Stacks (function ids, leaf first) and their counts. */
static const uint32_t exp_ids[] = {
	F_W, F_A, F_MAIN,               /* stack 0, count 1 */
	F_W, F_B, F_MAIN,               /* stack 1, count 2 */
	F_R, F_R, F_R, F_MAIN,          /* stack 2, count 3 */
	F_B, F_MAIN,                    /* stack 3, count 4 */
	F_CPP,                          /* stack 4, count 5 */
};
static uint32_t off[] = {0, 3, 6, 10, 12}, len[] = {3, 3, 4, 2, 1};
static const uint64_t counts[] = {1, 2, 3, 4, 5};

static struct rfunc funcs[NF] = {
	{.name = "main", .module = "prog"}, {.name = "a", .module = "prog"},
	{.name = "b", .module = "prog"},    {.name = "w", .module = "prog"},
	{.name = "r", .module = "prog"},
	{.name = "ns::f(int)", .module = "prog"},
};

static void make(struct model *m, struct analysis *a, struct rstack *st)
{
	memset(m, 0, sizeof(*m));
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < 5; i++)
		st[i] = (struct rstack){.used = 1, .count = counts[i]};
	m->stacks = st;
	m->capstacks = 5;
	a->funcs = funcs;
	a->nfuncs = NF;
	a->exp = (uint32_t *)exp_ids;
	a->exp_off = off;
	a->exp_n = len;
}

/* The samples of row func in rows r[0..n), or 0. */
static uint64_t at(const struct butterfly_row *r, size_t n, uint32_t func)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].br_func == func)
			return r[i].br_samples;
	return 0;
}

START_TEST(butterfly_two_callers)
{
	struct model m;
	struct analysis a;
	struct rstack st[5];
	struct butterfly b;
	make(&m, &a, st);
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "w"), 0);
	ck_assert_uint_eq(b.bf_nfuncs, 1);
	ck_assert_uint_eq(b.bf_total, 3);
	ck_assert_uint_eq(b.bf_self, 3);
	ck_assert_uint_eq(b.bf_ncallers, 2);
	/* most first */
	ck_assert_uint_eq(b.bf_callers[0].br_func, F_B);
	ck_assert_uint_eq(b.bf_callers[0].br_samples, 2);
	ck_assert_uint_eq(at(b.bf_callers, b.bf_ncallers, F_A), 1);
	ck_assert_uint_eq(b.bf_ncallees, 0);
	butterfly_free(&b);
	/* b: called by main, calls w; its self samples are its own */
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "b"), 0);
	ck_assert_uint_eq(b.bf_total, 6);
	ck_assert_uint_eq(b.bf_self, 4);
	ck_assert_uint_eq(at(b.bf_callers, b.bf_ncallers, F_MAIN), 6);
	ck_assert_uint_eq(at(b.bf_callees, b.bf_ncallees, F_W), 2);
	butterfly_free(&b);
}
END_TEST

START_TEST(butterfly_recursion)
{
	struct model m;
	struct analysis a;
	struct rstack st[5];
	struct butterfly b;
	make(&m, &a, st);
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "r"), 0);
	ck_assert_uint_eq(b.bf_total, 3);
	ck_assert_uint_eq(b.bf_self, 3);
	ck_assert_uint_eq(at(b.bf_callers, b.bf_ncallers, F_R), 3);
	ck_assert_uint_eq(at(b.bf_callers, b.bf_ncallers, F_MAIN), 3);
	ck_assert_uint_eq(b.bf_ncallees, 1);
	ck_assert_uint_eq(at(b.bf_callees, b.bf_ncallees, F_R), 3);
	butterfly_free(&b);
	/* main is outermost: its caller is the root */
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "main"), 0);
	ck_assert_uint_eq(b.bf_total, 10);
	ck_assert_uint_eq(b.bf_ncallers, 1);
	ck_assert_uint_eq(b.bf_callers[0].br_func, BUTTERFLY_ROOT);
	ck_assert_uint_eq(b.bf_callers[0].br_samples, 10);
	butterfly_free(&b);
}
END_TEST

START_TEST(butterfly_names)
{
	struct model m;
	struct analysis a;
	struct rstack st[5];
	struct butterfly b;
	make(&m, &a, st);
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "ns::f"), 0);
	ck_assert_uint_eq(b.bf_nfuncs, 1);
	ck_assert_uint_eq(b.bf_funcs[0], F_CPP);
	ck_assert_uint_eq(b.bf_total, 5);
	ck_assert_uint_eq(b.bf_callers[0].br_func, BUTTERFLY_ROOT);
	butterfly_free(&b);
	/* the short name, as the tables show it */
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "ns::f(...)"), 0);
	ck_assert_uint_eq(b.bf_nfuncs, 1);
	ck_assert_uint_eq(b.bf_funcs[0], F_CPP);
	ck_assert_uint_eq(b.bf_total, 5);
	butterfly_free(&b);
	ck_assert_int_eq(butterfly_build(&b, &m, &a, "ns::"), 0);
	ck_assert_uint_eq(b.bf_nfuncs, 0);
	ck_assert_uint_eq(b.bf_total, 0);
	ck_assert_uint_eq(b.bf_ncallers + b.bf_ncallees, 0);
	butterfly_free(&b);
}
END_TEST

static Suite *butterfly_suite(void)
{
	Suite *s = suite_create("butterfly");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, butterfly_two_callers);
	tcase_add_test(tc, butterfly_recursion);
	tcase_add_test(tc, butterfly_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(butterfly_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
