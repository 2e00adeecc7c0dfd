/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_partial: libFuzzer target for the partial report parser
 * (lib/defs/partial*.c), which reads XML files users install and anyone
 * may write.  Each input is loaded twice into one set, as a.xml and
 * b.xml; the used reports are evaluated against an empty run and printed
 * as the text report does; everything the API promises is checked,
 * abort() if not:
 *   - every diagnostic is one line of printable characters starting with
 *     "FILE:LINE:COL: " (LINE and COL from 1) or "FILE: "; at most
 *     PARTIAL_MAX_DIAGS + 1 per file, each file's sorted by position;
 *   - the error and warning counts cover the diagnostics shown; a file is
 *     used exactly when it has no error;
 *   - the second copy is never used when the first is (its report name
 *     and ids are taken), and has every error of the first;
 *   - a used report has what its writers rely on: ids, names, units and
 *     metricRef not NULL, sampleValue and aggregation in range, CSS
 *     colours set exactly for parsed colours, entries "not recorded";
 *   - the plain text of every <text>, and of the input itself, holds no
 *     control character but newlines.
 * test/fuzz/replay-partial.sh runs this target over
 * test/fuzz/corpus/partial in every make check.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "report/partial_eval.h"
#include "report/out/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "fuzz_partial: %s:%d: %s\n",      \
				__FILE__, __LINE__, #cond);               \
			abort();                                          \
		}                                                         \
	} while (0)

static void check_diags(const struct partial_set *ps)
{
	unsigned nerr = 0, nwarn = 0;
	size_t per_file[2] = {0, 0};
	for (size_t i = 0; i < ps->ps_ndiags; i++) {
		const struct partial_diag *d = &ps->ps_diags[i];
		char prefix[64];
		CHECK(d->pd_text && d->pd_file);
		for (const unsigned char *p = (const unsigned char *)d->pd_text;
		     *p; p++)
			CHECK(*p >= 0x20 && *p != 0x7f);
		if (d->pd_line) {
			CHECK(d->pd_col >= 1);
			snprintf(prefix, sizeof(prefix), "%s:%u:%u: ",
				 d->pd_file, d->pd_line, d->pd_col);
		} else {
			snprintf(prefix, sizeof(prefix), "%s: ", d->pd_file);
		}
		CHECK(!strncmp(d->pd_text, prefix, strlen(prefix)));
		int b = !strcmp(d->pd_file, "b.xml");
		CHECK(b || !strcmp(d->pd_file, "a.xml"));
		per_file[b]++;
		if (d->pd_rule == PARTIAL_R_LIMIT && !d->pd_line)
			continue;
		if (d->pd_severity == PARTIAL_ERROR)
			nerr++;
		else
			nwarn++;
		if (i && !strcmp(ps->ps_diags[i - 1].pd_file, d->pd_file) &&
		    ps->ps_diags[i - 1].pd_rule != PARTIAL_R_LIMIT)
			CHECK(ps->ps_diags[i - 1].pd_line <= d->pd_line);
	}
	CHECK(ps->ps_nerrors >= nerr && ps->ps_nwarnings >= nwarn);
	CHECK(per_file[0] <= PARTIAL_MAX_DIAGS + 1);
	CHECK(per_file[1] <= PARTIAL_MAX_DIAGS + 1);
}

static void check_plain(const char *html)
{
	char *t = partial_plain_text(html);
	if (!t)
		return; /* out of memory */
	for (const unsigned char *p = (const unsigned char *)t; *p; p++)
		CHECK(*p == '\n' || (*p >= 0x20 && *p != 0x7f));
	free(t);
}

static void check_colour(const struct partial_colour *c)
{
	CHECK((c->pc_parsed.c_kind != COLOUR_NONE) == (c->pc_css[0] != '\0'));
	if (c->pc_css[0])
		CHECK(c->pc_text != NULL);
}

static void check_result(const struct partial_result *r, size_t nused)
{
	CHECK(r->rs_nreports == nused);
	for (size_t i = 0; i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		CHECK(pr->pr_name && pr->pr_name[0] && pr->pr_file);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			const struct partial_subsection *ss =
				&pr->pr_subsections[j];
			CHECK(ss->ss_id && ss->ss_heading);
			check_colour(&ss->ss_colour);
			if (ss->ss_text)
				check_plain(ss->ss_text);
			for (size_t k = 0; k < ss->ss_nentries; k++) {
				const struct partial_entry *en =
					&ss->ss_entries[k];
				CHECK(en->en_id && en->en_name && en->en_units &&
				      en->en_metric_ref);
				CHECK(en->en_sample_value <= PARTIAL_SUM);
				CHECK(en->en_aggregation <= PARTIAL_MEAN);
				CHECK(!en->en_recorded);
				CHECK(en->en_state == PARTIAL_NOT_RECORDED);
				CHECK(en->en_bar < 0);
				check_colour(&en->en_colour);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct partial_set *ps = partial_set_new();
	if (!ps)
		return 0;
	if (partial_load_buffer(ps, "a.xml", data, size) ||
	    partial_load_buffer(ps, "b.xml", data, size)) {
		partial_set_free(ps); /* only out of memory can fail */
		return 0;
	}
	CHECK(ps->ps_nfiles == 2);
	check_diags(ps);
	const struct partial_file *a = &ps->ps_files[0], *b = &ps->ps_files[1];
	CHECK(a->pf_used == !a->pf_nerrors);
	CHECK(b->pf_used == !b->pf_nerrors);
	CHECK(!(a->pf_used && b->pf_used));
	CHECK(b->pf_nerrors >= a->pf_nerrors);
	CHECK(a->pf_nwarnings == b->pf_nwarnings);

	struct model m;
	memset(&m, 0, sizeof(m));
	struct partial_result *r;
	if (!partial_eval(ps, &m, &r)) {
		check_result(r, (size_t)a->pf_used + (size_t)b->pf_used);
		FILE *out = fopen("/dev/null", "w");
		if (out) {
			text_partial(r, out);
			fclose(out);
		}
		partial_result_free(r);
	}
	partial_set_free(ps);

	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
		check_plain(s);
		free(s);
	}
	return 0;
}
