/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the --compare rules (lib/report/rules.c) on made-up
 * comparisons: metric names by whole id or by dotted suffix, an id
 * given whole winning over a suffix of another, a name that ends two
 * ids (rules_resolve: the error, its column, both ids; rules_eval: no
 * data), a suffix that is not at a '.' matching nothing, and the
 * ".total" subject (parsed, judged on the metric-total row only, its
 * error message when misspelt).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include <mapsample/maps_error.h>

#include "report/rules.h"

/* A comparison of metric rows: kind k[i], name n[i], change +d[i]%. */
struct fake {
	struct cmp_row rows[8];
	struct comparison c;
};

static void fake_row(struct fake *f, enum cmp_kind k, const char *name,
		     double rel)
{
	struct cmp_row *r = &f->rows[f->c.nrows++];
	memset(r, 0, sizeof(*r));
	r->kind = k;
	r->name = (char *)name;
	r->base.present = r->new.present = 1;
	r->base.value = 100;
	r->new.value = 100 + rel;
	r->d_value = rel;
	r->d_rel = rel;
	r->d_pp = NAN;
	r->d_seconds = NAN;
	r->sigma = NAN;
	f->c.rows = f->rows;
}

/* The metrics of a mapsample run and of a made-up one. */
static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	fake_row(f, CMP_METRIC_MEAN, "com.mapsample.metrics.memory.peak_rss",
		 50);
	fake_row(f, CMP_METRIC_MAX, "com.mapsample.metrics.memory.peak_rss",
		 60);
	fake_row(f, CMP_METRIC_MEAN, "com.mapsample.metrics.memory.rss", 5);
	fake_row(f, CMP_METRIC_MEAN, "com.example.mem.rss", 20);
	fake_row(f, CMP_METRIC_MEAN, "com.mapsample.metrics.io.write", 1);
	fake_row(f, CMP_METRIC_TOTAL, "com.mapsample.metrics.io.write", 300);
	fake_row(f, CMP_METRIC_MEAN, "rss", 7);
}

/* Judges the one rule text on f; returns its result. */
static struct rule_result judge1(struct fake *f, const char *text)
{
	struct rule_set set = {0};
	struct rule_error err;
	ck_assert_int_eq(rules_add(&set, "--fail-if", text, &err), 0);
	struct rule_result res;
	rules_eval(&set, &f->c, 3, &res);
	rules_free(&set);
	res.rr_rule = NULL; /* freed */
	return res;
}

START_TEST(rules_metric_suffix)
{
	struct fake f;
	fake_init(&f);
	static const char *const names[] = {
		"com.mapsample.metrics.memory.peak_rss", "memory.peak_rss",
		"peak_rss", "metrics.memory.peak_rss"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char text[128];
		snprintf(text, sizeof(text), "metric(%s).max > +10%%",
			 names[i]);
		struct rule_result r = judge1(&f, text);
		ck_assert_int_eq(r.rr_verdict, RULE_BROKEN);
		ck_assert_str_eq(r.rr_row->name,
				 "com.mapsample.metrics.memory.peak_rss");
		ck_assert_int_eq(r.rr_row->kind, CMP_METRIC_MAX);
		ck_assert(fabs(r.rr_change - 60) < 1e-9);
	}
	/* the mean by default */
	struct rule_result r = judge1(&f, "metric(peak_rss) > +55%");
	ck_assert_int_eq(r.rr_verdict, RULE_PASS);
	ck_assert(fabs(r.rr_change - 50) < 1e-9);
	/* not at a '.': no match */
	r = judge1(&f, "metric(eak_rss) > +10%");
	ck_assert_int_eq(r.rr_verdict, RULE_NO_DATA);
	r = judge1(&f, "metric(memory.peak) > +10%");
	ck_assert_int_eq(r.rr_verdict, RULE_NO_DATA);
}
END_TEST

START_TEST(rules_metric_ambiguous)
{
	struct fake f;
	fake_init(&f);
	/* "rss" is an id of its own: it names that one */
	struct rule_set set = {0};
	struct rule_error err;
	ck_assert_int_eq(rules_add(&set, "--fail-if", "metric(rss) > +1%",
				   &err), 0);
	ck_assert_int_eq(rules_resolve(&set, &f.c, &err), 0);
	struct rule_result res;
	ck_assert_uint_eq(rules_eval(&set, &f.c, 3, &res), 1);
	ck_assert_str_eq(res.rr_row->name, "rss");
	rules_free(&set);
	/* without it, "rss" ends two ids; "mem.rss" one */
	f.c.nrows--;
	ck_assert_int_eq(rules_add(&set, "x.rules:3", "metric(mem.rss) > +1%",
				   &err), 0);
	ck_assert_int_eq(rules_add(&set, "x.rules:4",
				   "  metric(  rss).max > +1%", &err), 0);
	ck_assert_int_eq(rules_resolve(&set, &f.c, &err), MAPS_EINVAL);
	ck_assert_str_eq(err.re_origin, "x.rules:4");
	ck_assert_str_eq(err.re_text, "metric(  rss).max > +1%");
	ck_assert_uint_eq(err.re_col, 10);
	ck_assert_str_eq(err.re_what,
			 "metric name 'rss' is ambiguous: it ends "
			 "com.example.mem.rss and "
			 "com.mapsample.metrics.memory.rss; write more of "
			 "the id");
	struct rule_result two[2];
	rules_eval(&set, &f.c, 3, two);
	ck_assert_int_eq(two[0].rr_verdict, RULE_BROKEN);
	ck_assert_str_eq(two[0].rr_row->name, "com.example.mem.rss");
	ck_assert_int_eq(two[1].rr_verdict, RULE_NO_DATA);
	rules_free(&set);
}
END_TEST

START_TEST(rules_metric_total)
{
	struct fake f;
	fake_init(&f);
	struct rule_result r = judge1(&f, "metric(io.write).total > +100%");
	ck_assert_int_eq(r.rr_verdict, RULE_BROKEN);
	ck_assert_int_eq(r.rr_row->kind, CMP_METRIC_TOTAL);
	ck_assert(fabs(r.rr_change - 300) < 1e-9);
	/* a level has no total row */
	r = judge1(&f, "metric(memory.rss).total > +1%");
	ck_assert_int_eq(r.rr_verdict, RULE_NO_DATA);
	/* in its own units too */
	r = judge1(&f, "metric(io.write).total > 250");
	ck_assert_int_eq(r.rr_verdict, RULE_BROKEN);
	struct rule_set set = {0};
	struct rule_error err;
	ck_assert_int_eq(rules_add(&set, "--fail-if",
				   "metric(io.write).totals > 1%", &err),
			 MAPS_EINVAL);
	ck_assert_str_eq(err.re_what,
			 "expected 'mean', 'max' or 'total' after '.'");
	ck_assert_int_eq(rules_add(&set, "--fail-if",
				   "metric(io.write).total > +1pp", &err),
			 MAPS_EINVAL);
	rules_free(&set);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, rules_metric_suffix);
	tcase_add_test(tc, rules_metric_ambiguous);
	tcase_add_test(tc, rules_metric_total);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
