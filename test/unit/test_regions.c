/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/model/regions.c: the per-thread region stack
 * (begins and ends nesting, an end with nothing open, a thread ending
 * inside a region, records arriving out of time order as a thread's
 * chunks may), the samples placed in regions and the --region filter.
 * Records are made here, not read from a log.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/regions.h"

#define PID 100

static struct maplog_ev mk(uint32_t tid, uint64_t ts, uint64_t kind,
			   const char *name)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_MARK;
	ev.ev_ts = ts;
	ev.ev_pid = PID;
	ev.ev_tid = tid;
	ev.ev_u.mark.mk_tid = tid;
	ev.ev_u.mark.mk_value = kind;
	ev.ev_u.mark.mk_text = name ? name : "";
	return ev;
}

static void begin(struct regions *rg, uint32_t tid, uint64_t ts,
		  const char *name)
{
	struct maplog_ev ev = mk(tid, ts, MAPLOG_MARK_REGION_BEGIN, name);
	ck_assert_int_eq(regions_fold(rg, &ev), 0);
}

static void end(struct regions *rg, uint32_t tid, uint64_t ts)
{
	struct maplog_ev ev = mk(tid, ts, MAPLOG_MARK_REGION_END, NULL);
	ck_assert_int_eq(regions_fold(rg, &ev), 0);
}

static void thread_end(struct regions *rg, uint32_t tid, uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_END;
	ev.ev_ts = ts;
	ev.ev_pid = PID;
	ev.ev_u.tend.te_tid = tid;
	ck_assert_int_eq(regions_fold(rg, &ev), 0);
}

/* regions_fold() on a sample: 1 when the filter leaves it out. */
static int sample(struct regions *rg, uint32_t tid, uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_SAMPLE;
	ev.ev_ts = ts;
	ev.ev_pid = PID;
	ev.ev_tid = tid;
	ev.ev_u.sample.sa_tid = tid;
	ev.ev_u.sample.sa_weight = 1000;
	return regions_fold(rg, &ev);
}

static const struct rregion *named(const struct regions *rg, const char *n)
{
	long i = regions_find(rg, n);
	ck_assert_int_ge(i, 0);
	return &rg->names[i];
}

/* A(100..400) holding B(200..300) on thread 1; thread 2 in none. */
static void nested(struct regions *rg)
{
	begin(rg, 1, 100, "A");
	begin(rg, 1, 200, "B");
	end(rg, 1, 300);
	end(rg, 1, 400);
	ck_assert_int_eq(regions_finish(rg), 0);
}

START_TEST(regions_nesting)
{
	struct regions rg;
	regions_init(&rg, NULL);
	nested(&rg);
	ck_assert_uint_eq(named(&rg, "A")->count, 1);
	ck_assert_uint_eq(named(&rg, "A")->ns, 300);
	ck_assert_uint_eq(named(&rg, "B")->count, 1);
	ck_assert_uint_eq(named(&rg, "B")->ns, 100);
	ck_assert_uint_eq(rg.unmatched_ends, 0);
	/* before, in A, in A and B, in A again, after; another thread */
	uint64_t at[] = {50, 150, 250, 350, 450};
	for (size_t i = 0; i < 5; i++)
		ck_assert_int_eq(sample(&rg, 1, at[i]), 0);
	ck_assert_int_eq(sample(&rg, 2, 250), 0);
	ck_assert_uint_eq(named(&rg, "A")->samples, 3);
	ck_assert_uint_eq(named(&rg, "B")->samples, 1);
	ck_assert_uint_eq(named(&rg, "B")->weight, 1000);
	regions_free(&rg);
}
END_TEST

/* regions_narrow(): thread 1 only, or a time range cutting the entries;
 * regions_entries() gives each entry; regions_sample_names() the names a
 * sample is inside. */
static int only_thread1(void *ctx, uint32_t pid, uint32_t image,
			uint32_t tid)
{
	(void)ctx;
	(void)image;
	return pid == PID && tid == 1;
}

static int add_entry(void *ctx, uint32_t name, uint32_t pid, uint32_t image,
		     uint32_t tid, uint64_t from, uint64_t to, int open)
{
	uint64_t *sum = ctx;
	(void)name;
	(void)pid;
	(void)image;
	sum[0]++;
	sum[1] += to - from;
	sum[2] += (uint64_t)open * tid;
	return 0;
}

START_TEST(regions_narrowed)
{
	struct regions rg;
	regions_init(&rg, NULL);
	/* thread 1: A 100..400 holding B 200..300; thread 2: A 150..250,
	 * and B from 500, never ended (closed at its end, 900) */
	begin(&rg, 1, 100, "A");
	begin(&rg, 1, 200, "B");
	end(&rg, 1, 300);
	end(&rg, 1, 400);
	begin(&rg, 2, 150, "A");
	end(&rg, 2, 250);
	begin(&rg, 2, 500, "B");
	thread_end(&rg, 2, 900);
	ck_assert_int_eq(regions_finish(&rg), 0);
	uint64_t sum[3] = {0, 0, 0};
	ck_assert_int_eq(regions_entries(&rg, add_entry, sum), 0);
	ck_assert_uint_eq(sum[0], 4);
	ck_assert_uint_eq(sum[1], 300 + 100 + 100 + 400);
	ck_assert_uint_eq(sum[2], 2); /* the open one, on thread 2 */
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_SAMPLE;
	ev.ev_pid = PID;
	ev.ev_ts = 250;
	ev.ev_u.sample.sa_tid = 1;
	const uint32_t *nm;
	ck_assert_uint_eq(regions_sample_names(&rg, &ev, &nm), 2);
	ck_assert_str_eq(rg.names[nm[1]].name, "B");
	ev.ev_u.sample.sa_tid = 2;
	ck_assert_uint_eq(regions_sample_names(&rg, &ev, &nm), 0);

	regions_narrow(&rg, only_thread1, NULL, 0, UINT64_MAX);
	ck_assert_uint_eq(named(&rg, "A")->count, 1);
	ck_assert_uint_eq(named(&rg, "A")->ns, 300);
	ck_assert_uint_eq(named(&rg, "B")->count, 1);
	ck_assert_uint_eq(named(&rg, "B")->open, 0);
	/* [220, 600) of both threads: A's entries began before it (0
	 * counted) and are cut at 220; B of thread 1 too, B of thread 2
	 * begins in it and is cut at 600 */
	regions_narrow(&rg, NULL, NULL, 220, 600);
	ck_assert_uint_eq(named(&rg, "A")->count, 0);
	ck_assert_uint_eq(named(&rg, "A")->ns, (400 - 220) + (250 - 220));
	ck_assert_uint_eq(named(&rg, "B")->count, 1);
	ck_assert_uint_eq(named(&rg, "B")->ns, (300 - 220) + (600 - 500));
	ck_assert_uint_eq(named(&rg, "B")->open, 1);
	regions_free(&rg);
}
END_TEST

START_TEST(regions_filter)
{
	struct regions rg;
	regions_init(&rg, "B");
	nested(&rg);
	ck_assert_int_eq(rg.filter_id, regions_find(&rg, "B"));
	ck_assert_int_eq(sample(&rg, 1, 150), 1);
	ck_assert_int_eq(sample(&rg, 1, 250), 0);
	ck_assert_int_eq(sample(&rg, 1, 300), 1); /* the end: outside */
	ck_assert_int_eq(sample(&rg, 2, 250), 1); /* per thread */
	ck_assert_uint_eq(rg.kept, 1);
	ck_assert_uint_eq(rg.left_out, 3);
	/* only kept samples are counted in the regions */
	ck_assert_uint_eq(named(&rg, "A")->samples, 1);
	regions_free(&rg);

	regions_init(&rg, "nosuch");
	nested(&rg);
	ck_assert_int_eq(rg.filter_id, -1);
	ck_assert_int_eq(sample(&rg, 1, 250), 1);
	regions_free(&rg);
}
END_TEST

START_TEST(regions_unmatched_end)
{
	struct regions rg;
	regions_init(&rg, NULL);
	end(&rg, 1, 50);           /* nothing open yet */
	begin(&rg, 1, 100, "A");
	end(&rg, 1, 200);
	end(&rg, 1, 300);          /* one end too many */
	ck_assert_int_eq(regions_finish(&rg), 0);
	ck_assert_uint_eq(rg.unmatched_ends, 2);
	ck_assert_uint_eq(named(&rg, "A")->count, 1);
	ck_assert_uint_eq(named(&rg, "A")->ns, 100);
	ck_assert_uint_eq(named(&rg, "A")->open, 0);
	ck_assert_int_eq(sample(&rg, 1, 250), 0);
	ck_assert_uint_eq(named(&rg, "A")->samples, 0);
	regions_free(&rg);
}
END_TEST

START_TEST(regions_thread_ends_inside)
{
	struct regions rg;
	regions_init(&rg, NULL);
	begin(&rg, 1, 100, "A");
	begin(&rg, 1, 150, "B");
	thread_end(&rg, 1, 500);   /* both still open */
	begin(&rg, 2, 100, "C");   /* never ends; the run's last record: */
	end(&rg, 3, 900);          /* (unmatched, on another thread) */
	ck_assert_int_eq(regions_finish(&rg), 0);
	ck_assert_uint_eq(named(&rg, "A")->ns, 400);
	ck_assert_uint_eq(named(&rg, "A")->open, 1);
	ck_assert_uint_eq(named(&rg, "B")->ns, 350);
	ck_assert_uint_eq(named(&rg, "B")->open, 1);
	ck_assert_uint_eq(named(&rg, "C")->ns, 800);
	ck_assert_uint_eq(named(&rg, "C")->open, 1);
	ck_assert_int_eq(sample(&rg, 1, 450), 0);
	ck_assert_int_eq(sample(&rg, 1, 600), 0);  /* after its end */
	ck_assert_int_eq(sample(&rg, 2, 899), 0);
	ck_assert_uint_eq(named(&rg, "A")->samples, 1);
	ck_assert_uint_eq(named(&rg, "C")->samples, 1);
	regions_free(&rg);
}
END_TEST

START_TEST(regions_out_of_order)
{
	/* a thread's later chunk read first: its end before its begin */
	struct regions rg;
	regions_init(&rg, NULL);
	end(&rg, 1, 400);
	begin(&rg, 1, 300, "B");
	end(&rg, 1, 350);
	begin(&rg, 1, 100, "A");
	ck_assert_int_eq(regions_finish(&rg), 0);
	ck_assert_uint_eq(rg.unmatched_ends, 0);
	ck_assert_uint_eq(named(&rg, "A")->ns, 300);
	ck_assert_uint_eq(named(&rg, "B")->ns, 50);
	ck_assert_int_eq(sample(&rg, 1, 320), 0);
	ck_assert_uint_eq(named(&rg, "A")->samples, 1);
	ck_assert_uint_eq(named(&rg, "B")->samples, 1);
	regions_free(&rg);
}
END_TEST

START_TEST(regions_recursion_once)
{
	/* A inside A: a sample inside both counts once for A */
	struct regions rg;
	regions_init(&rg, NULL);
	begin(&rg, 1, 100, "A");
	begin(&rg, 1, 200, "A");
	end(&rg, 1, 300);
	end(&rg, 1, 400);
	ck_assert_int_eq(regions_finish(&rg), 0);
	ck_assert_uint_eq(named(&rg, "A")->count, 2);
	ck_assert_int_eq(sample(&rg, 1, 250), 0);
	ck_assert_int_eq(sample(&rg, 1, 350), 0);
	ck_assert_uint_eq(named(&rg, "A")->samples, 2);
	regions_free(&rg);
}
END_TEST

static Suite *regions_suite(void)
{
	Suite *s = suite_create("regions");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, regions_nesting);
	tcase_add_test(tc, regions_filter);
	tcase_add_test(tc, regions_unmatched_end);
	tcase_add_test(tc, regions_thread_ends_inside);
	tcase_add_test(tc, regions_out_of_order);
	tcase_add_test(tc, regions_recursion_once);
	tcase_add_test(tc, regions_narrowed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(regions_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
