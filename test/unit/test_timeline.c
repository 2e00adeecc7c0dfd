/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/model/timeline: samples per thread and metric values
 * in bins whose width doubles as the run turns out longer, in either
 * direction; rates in time order whatever the record order; marks.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/timeline.h"

static void sample(struct rtimeline *tl, uint32_t pid, uint32_t tid,
		   uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_SAMPLE;
	ev.ev_ts = ts;
	ev.ev_pid = pid;
	ev.ev_tid = tid;
	ev.ev_u.sample.sa_tid = tid;
	timeline_fold(tl, &ev);
}

static void define(struct rtimeline *tl, uint32_t pid, uint32_t index,
		   uint32_t flags)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
	ev.ev_pid = pid;
	ev.ev_u.mdef.md_index = index;
	ev.ev_u.mdef.md_flags = flags;
	ev.ev_u.mdef.md_id = "m";
	timeline_fold(tl, &ev);
}

static void value(struct rtimeline *tl, uint32_t pid, uint32_t index,
		  uint64_t ts, double v)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_ts = ts;
	ev.ev_pid = pid;
	ev.ev_u.mval.mv_index = index;
	ev.ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	ev.ev_u.mval.mv_v.dbl = v;
	timeline_fold(tl, &ev);
}

static uint64_t thread_total(const struct rtimeline *tl, uint32_t pid,
			     uint32_t tid)
{
	const struct rtlthread *t = timeline_thread(tl, pid, 0, tid);
	ck_assert_ptr_nonnull(t);
	uint64_t n = 0;
	for (size_t i = 0; i < TIMELINE_BINS; i++)
		n += t->bins[i];
	return n;
}

START_TEST(timeline_samples_bounded)
{
	struct rtimeline tl;
	timeline_init(&tl);
	/* an hour of samples, three threads, chunks out of order: each
	 * thread's times go forward, the threads interleave by chunks */
	const uint64_t t0 = 1000000000000ull, hour = 3600ull * 1000000000;
	uint64_t n[3] = {0, 0, 0};
	for (int chunk = 0; chunk < 300; chunk++)
		for (uint32_t t = 0; t < 3; t++) {
			uint32_t tt = (t + (uint32_t)chunk) % 3;
			uint64_t base = t0 + hour / 300 * (uint64_t)chunk +
					(uint64_t)(2 - tt) * 1000000;
			for (int i = 0; i < 1000; i++) {
				sample(&tl, 10, 100 + tt,
				       base + (uint64_t)i * (hour / 300 / 1000));
				n[tt]++;
			}
		}
	for (uint32_t t = 0; t < 3; t++)
		ck_assert_uint_eq(thread_total(&tl, 10, 100 + t), n[t]);
	/* the range holds the hour in at most twice the bins it needs */
	uint64_t w = timeline_width(&tl);
	ck_assert_uint_eq(w & (w - 1), 0);
	ck_assert_uint_ge(w * TIMELINE_BINS, hour);
	ck_assert_uint_lt(w * TIMELINE_BINS, 4 * hour);
	ck_assert_int_ge(timeline_bin_of(&tl, t0), 0);
	ck_assert_int_lt(timeline_bin_of(&tl, t0 + hour), TIMELINE_BINS);
	/* the samples are spread over the bins, not piled up */
	const struct rtlthread *th = timeline_thread(&tl, 10, 0, 100);
	size_t used = 0;
	for (size_t i = 0; i < TIMELINE_BINS; i++)
		used += th->bins[i] != 0;
	ck_assert_uint_gt(used, TIMELINE_BINS / 4);
	ck_assert_ptr_null(timeline_thread(&tl, 10, 0, 999));
	timeline_free(&tl);
}
END_TEST

START_TEST(timeline_grows_left)
{
	struct rtimeline tl;
	timeline_init(&tl);
	const uint64_t t0 = 50000000000ull;
	sample(&tl, 1, 1, t0);
	sample(&tl, 1, 1, t0 + 1000);
	/* one record 3 s before the first: the range widens to the left */
	sample(&tl, 1, 2, t0 - 3000000000ull);
	ck_assert_int_eq(timeline_bin_of(&tl, t0 - 3000000000ull) >= 0, 1);
	ck_assert_uint_eq(thread_total(&tl, 1, 1), 2);
	ck_assert_uint_eq(thread_total(&tl, 1, 2), 1);
	long b = timeline_bin_of(&tl, t0);
	const struct rtlthread *t = timeline_thread(&tl, 1, 0, 1);
	ck_assert_uint_eq(t->bins[b], 2);
	ck_assert_int_le(timeline_bin_start(&tl, (size_t)b), (int64_t)t0);
	ck_assert_int_gt(timeline_bin_start(&tl, (size_t)b + 1), (int64_t)t0);
	timeline_free(&tl);
}
END_TEST

/* Bins of a rate series fed the values in the given order. */
static void rate_bins(const int *order, int n, struct rtlbin *out)
{
	struct rtimeline tl;
	timeline_init(&tl);
	define(&tl, 7, 3, MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	sample(&tl, 7, 7, 1000000000ull);
	sample(&tl, 7, 7, 3000000000ull);
	for (int i = 0; i < n; i++) {
		int k = order[i];
		/* deltas of 100 per 0.1 s: 1000 per second; k = 10 is a
		 * burst of 5000 per second */
		value(&tl, 7, 3, 1000000000ull + (uint64_t)k * 100000000,
		      k == 10 ? 500.0 : 100.0);
	}
	const struct rtlseries *s = timeline_series(&tl, 7, 0, 3);
	ck_assert_ptr_nonnull(s);
	timeline_series_bins(&tl, s, out);
	timeline_free(&tl);
}

START_TEST(timeline_rates_in_time_order)
{
	int fwd[20], mixed[20];
	for (int i = 0; i < 20; i++)
		fwd[i] = i;
	/* evens, then odds: two threads' chunks */
	for (int i = 0; i < 10; i++) {
		mixed[i] = 2 * i;
		mixed[10 + i] = 2 * i + 1;
	}
	struct rtlbin *a = calloc(TIMELINE_BINS, sizeof(*a));
	struct rtlbin *b = calloc(TIMELINE_BINS, sizeof(*b));
	rate_bins(fwd, 20, a);
	rate_bins(mixed, 20, b);
	uint64_t n = 0;
	double mx = 0;
	for (size_t i = 0; i < TIMELINE_BINS; i++) {
		ck_assert_uint_eq(a[i].n, b[i].n);
		if (!a[i].n)
			continue;
		ck_assert(fabs(a[i].sum - b[i].sum) < 1e-6);
		ck_assert(a[i].min >= 999.0);
		n += a[i].n;
		if (a[i].max > mx)
			mx = a[i].max;
	}
	/* 19 rates: the first value has none */
	ck_assert_uint_eq(n, 19);
	ck_assert(fabs(mx - 5000.0) < 1e-6);
	free(a);
	free(b);
}
END_TEST

START_TEST(timeline_plain_before_definition)
{
	struct rtimeline tl;
	timeline_init(&tl);
	/* values before their definition wait as if they were rates; the
	 * definition says they are plain values */
	value(&tl, 5, 0, 2000000000ull, 40.0);
	value(&tl, 5, 0, 1000000000ull, 10.0);
	value(&tl, 5, 0, 1500000000ull, 20.0);
	define(&tl, 5, 0, 0);
	value(&tl, 5, 0, 2500000000ull, 30.0);
	const struct rtlseries *s = timeline_series(&tl, 5, 0, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->rates, 0);
	struct rtlbin *b = calloc(TIMELINE_BINS, sizeof(*b));
	timeline_series_bins(&tl, s, b);
	uint64_t n = 0;
	double sum = 0, mn = 1e9, mx = 0;
	for (size_t i = 0; i < TIMELINE_BINS; i++) {
		if (!b[i].n)
			continue;
		n += b[i].n;
		sum += b[i].sum;
		mn = fmin(mn, b[i].min);
		mx = fmax(mx, b[i].max);
	}
	ck_assert_uint_eq(n, 4);
	ck_assert(fabs(sum - 100.0) < 1e-9);
	ck_assert(mn == 10.0 && mx == 40.0);
	long b0 = timeline_bin_of(&tl, 1000000000ull);
	ck_assert_uint_eq(b[b0].n, 1);
	ck_assert(b[b0].sum == 10.0);
	free(b);
	timeline_free(&tl);
}
END_TEST

/* The i-th MARK record of process and thread 3: kind, text. */
static struct maplog_ev mark_ev(int i, uint64_t kind, const char *text)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_MARK;
	ev.ev_ts = 1000000000ull + (uint64_t)i;
	ev.ev_pid = 3;
	ev.ev_u.mark.mk_tid = 3;
	ev.ev_u.mark.mk_value = kind;
	ev.ev_u.mark.mk_text = text;
	return ev;
}

START_TEST(timeline_marks_bounded)
{
	struct rtimeline tl;
	timeline_init(&tl);
	char text[TIMELINE_MARK_TEXT * 2];
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	for (int i = 0; i < TIMELINE_MARKS + 10; i++) {
		/* reserved kinds: point marks with their number */
		struct maplog_ev ev = mark_ev(i, 1000 + (uint64_t)i, text);
		timeline_fold(&tl, &ev);
	}
	ck_assert_uint_eq(tl.nmarks, TIMELINE_MARKS);
	ck_assert_uint_eq(tl.marks_left_out, 10);
	ck_assert_uint_eq(strlen(tl.marks[0].text), TIMELINE_MARK_TEXT);
	ck_assert_uint_eq(tl.marks[5].value, 1005);
	timeline_free(&tl);
}
END_TEST

START_TEST(timeline_regions_not_marks)
{
	/* region begins and ends are model/regions.c's, not marks */
	struct rtimeline tl;
	timeline_init(&tl);
	uint64_t kinds[] = {MAPLOG_MARK_REGION_BEGIN, MAPLOG_MARK_POINT,
			    MAPLOG_MARK_REGION_END};
	for (int i = 0; i < 3; i++) {
		struct maplog_ev ev = mark_ev(i, kinds[i],
					      i == 1 ? "point" : "region");
		ck_assert_int_eq(timeline_fold(&tl, &ev), 0);
	}
	ck_assert_uint_eq(tl.nmarks, 1);
	ck_assert_str_eq(tl.marks[0].text, "point");
	timeline_free(&tl);
}
END_TEST

static Suite *timeline_suite(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, timeline_samples_bounded);
	tcase_add_test(tc, timeline_grows_left);
	tcase_add_test(tc, timeline_rates_in_time_order);
	tcase_add_test(tc, timeline_plain_before_definition);
	tcase_add_test(tc, timeline_marks_bounded);
	tcase_add_test(tc, timeline_regions_not_marks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(timeline_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
