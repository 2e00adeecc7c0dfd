/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the sample filters (lib/model/filter.c): the values each
 * option takes and refuses, which samples pass (kinds combined with
 * "and", values of one kind with "or", --comm on the program or the
 * thread name, --time as [from, to) seconds from the run's start), the
 * count of samples left out, the words for the report's header, and
 * the questions the metrics ask (processes and times, nothing counted).
 */
#include <string.h>

#include <check.h>
#include <mapsample/maps_error.h>

#include "model/filter.h"

#define S 1000000000ull /* ns in a second */

START_TEST(filter_values)
{
	struct rfilter f;
	filter_init(&f);
	ck_assert(!filter_active(&f));
	ck_assert_int_eq(filter_add_pid(&f, "12"), 0);
	ck_assert_int_eq(filter_add_pid(&f, "4294967295"), 0);
	ck_assert_int_eq(filter_add_pid(&f, "4294967296"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_pid(&f, "0"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_pid(&f, "-1"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_pid(&f, " 5"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_pid(&f, "5x"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_tid(&f, ""), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_comm(&f, ""), MAPS_EINVAL);
	ck_assert_uint_eq(f.fi_npids, 2);
	ck_assert(filter_active(&f));
	ck_assert_int_eq(filter_add_time(&f, "1.5:3"), 0);
	ck_assert_int_eq(filter_add_time(&f, ":3"), 0);
	ck_assert(!f.fi_from_set && f.fi_to_set);
	ck_assert_int_eq(filter_add_time(&f, "2:"), 0);
	ck_assert(f.fi_from_set && !f.fi_to_set);
	ck_assert_int_eq(filter_add_time(&f, ":"), 0);
	static const char *const bad[] = {"", "3", "3:1", "2:2", "a:1",
					  "1:b", "1:2:3", "-1:2", "inf:",
					  "nan:", "1e999:", ":1x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(filter_add_time(&f, bad[i]) == MAPS_EINVAL,
			      "--time %s taken", bad[i]);
	/* a refused value leaves the last good one */
	ck_assert(!f.fi_from_set && !f.fi_to_set);
	filter_free(&f);
}
END_TEST

START_TEST(filter_keeps)
{
	struct rfilter f;
	filter_init(&f);
	ck_assert(filter_keep(&f, 1, "a", 2, "b", 3));
	ck_assert_int_eq(filter_add_pid(&f, "10"), 0);
	ck_assert_int_eq(filter_add_pid(&f, "11"), 0);
	ck_assert(filter_keep(&f, 10, NULL, 99, NULL, 0));
	ck_assert(filter_keep(&f, 11, NULL, 99, NULL, 0));
	ck_assert(!filter_keep(&f, 12, NULL, 99, NULL, 0));
	ck_assert_int_eq(filter_add_comm(&f, "worker"), 0);
	ck_assert(filter_keep(&f, 10, "worker", 99, "main", 0));
	ck_assert(filter_keep(&f, 10, "prog", 99, "worker", 0));
	ck_assert(!filter_keep(&f, 10, "prog", 99, NULL, 0));
	ck_assert(!filter_keep(&f, 12, "worker", 99, "worker", 0));
	ck_assert_uint_eq(f.fi_dropped, 3);
	filter_free(&f);

	filter_init(&f);
	ck_assert_int_eq(filter_add_tid(&f, "7"), 0);
	ck_assert_int_eq(filter_add_time(&f, "1:2.5"), 0);
	f.fi_t0 = 100 * S;
	ck_assert(!filter_keep(&f, 1, NULL, 7, NULL, 100 * S));
	ck_assert(!filter_keep(&f, 1, NULL, 7, NULL, 101 * S - 1));
	ck_assert(filter_keep(&f, 1, NULL, 7, NULL, 101 * S));
	ck_assert(filter_keep(&f, 1, NULL, 7, NULL, 102 * S + S / 2 - 1));
	ck_assert(!filter_keep(&f, 1, NULL, 7, NULL, 102 * S + S / 2));
	ck_assert(!filter_keep(&f, 1, NULL, 8, NULL, 101 * S));
	/* before the start (clock skew between logs): time 0 */
	ck_assert_int_eq(filter_add_time(&f, ":1"), 0);
	ck_assert(filter_keep(&f, 1, NULL, 7, NULL, 50 * S));
	filter_free(&f);
}
END_TEST

START_TEST(filter_words)
{
	struct rfilter f;
	char buf[128];
	filter_init(&f);
	ck_assert_str_eq(filter_str(&f, buf, sizeof(buf)), "");
	ck_assert_int_eq(filter_add_pid(&f, "10"), 0);
	ck_assert_int_eq(filter_add_tid(&f, "11"), 0);
	ck_assert_int_eq(filter_add_comm(&f, "x y"), 0);
	ck_assert_int_eq(filter_add_time(&f, "0.5:"), 0);
	ck_assert_str_eq(filter_str(&f, buf, sizeof(buf)),
			 "--pid 10 --tid 11 --comm x y --time 0.5:");
	/* cut at the buffer's end, terminated */
	ck_assert_str_eq(filter_str(&f, buf, 12), "--pid 10 --");
	filter_free(&f);
}
END_TEST

/* --rank: values from 0, kept ranks, dropped count, words */
START_TEST(filter_ranks)
{
	struct rfilter f;
	filter_init(&f);
	ck_assert(filter_keep_rank(&f, 7)); /* no --rank: all */
	ck_assert_int_eq(filter_add_rank(&f, "x"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_rank(&f, "-1"), MAPS_EINVAL);
	ck_assert_int_eq(filter_add_rank(&f, "2147483648"), MAPS_EINVAL);
	ck_assert(!filter_active(&f));
	ck_assert_int_eq(filter_add_rank(&f, "0"), 0);
	ck_assert_int_eq(filter_add_rank(&f, "3"), 0);
	ck_assert(filter_active(&f));
	ck_assert(filter_keep_rank(&f, 0));
	ck_assert(filter_keep_rank(&f, 3));
	ck_assert(!filter_keep_rank(&f, 1));
	ck_assert(!filter_keep_rank(&f, -1));
	ck_assert_uint_eq(f.fi_dropped, 2);
	char buf[128];
	ck_assert_str_eq(filter_str(&f, buf, sizeof(buf)), "--rank 0 --rank 3");
	filter_free(&f);
}
END_TEST

/* For the metrics: processes chosen by all but --time, threads by
 * --tid and --comm, and --time alone; nothing counted as left out. */
START_TEST(filter_processes)
{
	struct rfilter f;
	filter_init(&f);
	ck_assert(filter_keep_time(&f, 5 * S));
	ck_assert(filter_keep_thread(&f, 10, "app", -1, 0, NULL));
	ck_assert(!filter_by_thread(&f));
	ck_assert_int_eq(filter_add_pid(&f, "10"), 0);
	ck_assert_int_eq(filter_add_rank(&f, "2"), 0);
	ck_assert(filter_keep_thread(&f, 10, "app", 2, 0, NULL));
	ck_assert(!filter_keep_thread(&f, 11, "app", 2, 0, NULL));
	ck_assert(!filter_keep_thread(&f, 10, "app", 3, 0, NULL));
	ck_assert(!filter_keep_thread(&f, 10, "app", -1, 0, NULL));
	ck_assert(!filter_by_thread(&f));
	/* --comm: the program, or a thread of that name */
	ck_assert_int_eq(filter_add_comm(&f, "worker"), 0);
	ck_assert(filter_by_thread(&f));
	ck_assert(!filter_keep_thread(&f, 10, "app", 2, 0, NULL));
	ck_assert(filter_keep_thread(&f, 10, "app", 2, 12, "worker"));
	ck_assert(filter_keep_thread(&f, 10, "worker", 2, 0, NULL));
	/* --tid: a thread only */
	ck_assert_int_eq(filter_add_tid(&f, "12"), 0);
	ck_assert(!filter_keep_thread(&f, 10, "worker", 2, 0, NULL));
	ck_assert(filter_keep_thread(&f, 10, "worker", 2, 12, NULL));
	ck_assert(!filter_keep_thread(&f, 10, "worker", 2, 13, "worker"));
	/* --time: [from, to) from the run's start, not a process's */
	ck_assert_int_eq(filter_add_time(&f, "1:2"), 0);
	f.fi_t0 = 100 * S;
	ck_assert(!filter_keep_time(&f, 100 * S + S / 2));
	ck_assert(filter_keep_time(&f, 101 * S));
	ck_assert(!filter_keep_time(&f, 102 * S));
	ck_assert(filter_keep_thread(&f, 10, "worker", 2, 12, NULL));
	ck_assert_uint_eq(f.fi_dropped, 0);
	filter_free(&f);
}
END_TEST

static Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, filter_values);
	tcase_add_test(tc, filter_keeps);
	tcase_add_test(tc, filter_words);
	tcase_add_test(tc, filter_ranks);
	tcase_add_test(tc, filter_processes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(filter_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
