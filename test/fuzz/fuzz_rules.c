/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_rules: libFuzzer target for the --compare rule parser
 * (lib/report/rules.c), which reads --fail-if arguments and rules files
 * kept in users' repositories.  Each input is read as a rules file, and
 * up to its first NUL or newline as one --fail-if rule; what the API
 * promises is checked, abort() if not:
 *   - an invalid rule has a phrase, an origin naming the file and line
 *     (or --fail-if), and a column from 1 to one past its text (unless
 *     the text was cut to fit re_text);
 *   - a rule read has text, a name exactly when its subject takes one,
 *     a finite limit and a unit its subject allows (pp not for total or
 *     metrics, s not for metrics, a bare number only for metrics);
 *   - the text of a rule read parses again into the same rule;
 *   - judging the rules on a small made-up comparison gives a verdict
 *     for each and counts the broken ones right.
 * test/fuzz/replay-rules.sh runs this target over test/fuzz/corpus/rules
 * in every make check.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "fuzz_rules: %s:%d: %s\n",        \
				__FILE__, __LINE__, #cond);               \
			abort();                                          \
		}                                                         \
	} while (0)

static void check_error(const struct rule_error *e, const char *origin)
{
	CHECK(e->re_what && e->re_what[0]);
	CHECK(strncmp(e->re_origin, origin, strlen(origin)) == 0);
	/* the text is cut at sizeof(re_text) - 1 bytes; the column is
	 * still the one in the whole rule */
	size_t n = strlen(e->re_text);
	CHECK(e->re_col >= 1);
	CHECK(e->re_col <= n + 1 || n == sizeof(e->re_text) - 1);
}

static void check_rule(const struct rule *r)
{
	int metric = r->ru_kind == CMP_METRIC_MEAN ||
		     r->ru_kind == CMP_METRIC_MAX ||
		     r->ru_kind == CMP_METRIC_TOTAL || r->ru_kind == CMP_PARTIAL;
	CHECK(r->ru_text && r->ru_text[0] && r->ru_origin);
	CHECK(r->ru_kind < CMP_NKINDS);
	CHECK((r->ru_kind == CMP_TIME) == (r->ru_name == NULL));
	CHECK(!r->ru_name || r->ru_name[0]);
	CHECK(isfinite(r->ru_limit));
	CHECK(isnan(r->ru_sigma) || (isfinite(r->ru_sigma) && r->ru_sigma >= 0));
	CHECK(!(r->ru_unit == RULE_PP && (metric || r->ru_kind == CMP_TIME)));
	CHECK(!(r->ru_unit == RULE_SEC && metric));
	CHECK((r->ru_unit == RULE_PLAIN) <= metric);
	/* the text parses again into the same rule */
	struct rule_set again = {0};
	struct rule_error e;
	int rc = rules_add(&again, "again", r->ru_text, &e);
	if (rc == 0) {
		const struct rule *q = &again.rs_rules[0];
		CHECK(q->ru_kind == r->ru_kind && q->ru_op == r->ru_op &&
		      q->ru_unit == r->ru_unit && q->ru_limit == r->ru_limit);
		CHECK((q->ru_name == NULL) == (r->ru_name == NULL));
		CHECK(!q->ru_name || strcmp(q->ru_name, r->ru_name) == 0);
		CHECK(strcmp(q->ru_text, r->ru_text) == 0);
	} else {
		CHECK(rc != MAPS_EINVAL);  /* only out of memory */
	}
	rules_free(&again);
}

/* Judges set on a made-up comparison of one row of each kind. */
static void check_eval(const struct rule_set *set)
{
	static char names[CMP_NKINDS][16] = {"total", "parse", "parse(int)",
					     "libc.so.6", "app", "mem", "mem",
					     "mem", "com.example.v"};
	struct cmp_row rows[CMP_NKINDS];
	memset(rows, 0, sizeof(rows));
	for (int k = 0; k < CMP_NKINDS; k++) {
		rows[k].kind = (enum cmp_kind)k;
		rows[k].name = names[k];
		rows[k].base.present = rows[k].new.present = 1;
		rows[k].d_pp = k == 1 ? 3.0 : NAN;
		rows[k].d_seconds = 0.5;
		rows[k].d_value = -1;
		rows[k].d_rel = k == 2 ? NAN : 12.5;
		rows[k].sigma = k == 3 ? NAN : 4.0;
	}
	struct comparison c;
	memset(&c, 0, sizeof(c));
	c.rows = rows;
	c.nrows = CMP_NKINDS;
	struct rule_result *res = calloc(set->rs_n + 1, sizeof(*res));
	if (!res)
		return;
	size_t broken = rules_eval(set, &c, 3, res), n = 0;
	for (size_t i = 0; i < set->rs_n; i++) {
		CHECK(res[i].rr_rule == &set->rs_rules[i]);
		CHECK(res[i].rr_verdict <= RULE_NO_DATA);
		CHECK((res[i].rr_verdict == RULE_NO_DATA) == !res[i].rr_row);
		n += res[i].rr_verdict == RULE_BROKEN;
	}
	CHECK(n == broken);
	free(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rule_set set = {0};
	struct rule_error e;
	int rc = rules_add_buffer(&set, "f.rules", (const char *)data, size,
				  &e);
	if (rc == MAPS_EINVAL)
		check_error(&e, "f.rules:");
	else
		CHECK(rc == 0 || rc == MAPS_ENOMEM);
	for (size_t i = 0; i < set.rs_n; i++)
		check_rule(&set.rs_rules[i]);
	check_eval(&set);
	rules_free(&set);

	/* the input up to its first NUL or newline as one --fail-if */
	size_t n = 0;
	while (n < size && data[n] && data[n] != '\n')
		n++;
	char *one = malloc(n + 1);
	if (!one)
		return 0;
	memcpy(one, data, n);
	one[n] = '\0';
	struct rule_set set1 = {0};
	rc = rules_add(&set1, "--fail-if", one, &e);
	if (rc == MAPS_EINVAL)
		check_error(&e, "--fail-if");
	else if (rc == 0)
		check_rule(&set1.rs_rules[0]);
	rules_free(&set1);
	free(one);
	return 0;
}
