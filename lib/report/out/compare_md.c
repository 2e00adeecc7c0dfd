/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_md: mapreport --compare --markdown (see compare_out.h): a
 * pull-request comment in GitHub-flavoured Markdown: a heading with the
 * outcome, the input problems (quoted), the two sides, the rules with
 * their verdicts, and the biggest changes of functions by self samples
 * and the partial report values (no noise estimate: no sigma) as
 * tables.  Names go in
 * code spans, with '|' escaped so that a C++ name cannot break a table.
 */
#include <math.h>
#include <stdio.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"

/* s as a table-safe code span. */
static void code(FILE *out, const char *s)
{
	fputc('`', out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '`')
			fputc('\'', out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc('`', out);
}

static void side(FILE *out, const char *label, const struct cmp_side *s)
{
	fprintf(out, "**%s**: ", label);
	compare_fmt_side(out, s, code, "", "");
	fputs("  \n", out);
}

static void rules(FILE *out, const struct output_compare *oc)
{
	if (!oc->oc_nresults)
		return;
	fprintf(out, "\n| Rule | Verdict | Change | Sigma |\n"
		     "|---|---|---:|---:|\n");
	for (size_t i = 0; i < oc->oc_nresults; i++) {
		const struct rule_result *res = &oc->oc_results[i];
		fputs("| ", out);
		code(out, res->rr_rule->ru_text);
		fprintf(out, " | %s | ",
			res->rr_verdict == RULE_BROKEN ? ":x: broken"
			: res->rr_verdict == RULE_PASS ? ":white_check_mark: "
							 "pass"
						       : ":grey_question: "
							 "no data");
		if (isnan(res->rr_change))
			fputs("-", out);
		else
			fprintf(out, "%+.*f%s",
				res->rr_rule->ru_unit == RULE_SEC ? 3 : 2,
				res->rr_change,
				rules_unit_str(res->rr_rule->ru_unit));
		if (isnan(res->rr_sigma))
			fputs(" | - |\n", out);
		else
			fprintf(out, " | %.1f |\n", fabs(res->rr_sigma));
	}
}

static void changes(FILE *out, const struct comparison *c, unsigned top,
		    double sigma)
{
	size_t i, end;
	compare_rows_of(c, CMP_SELF, top, &i, &end);
	if (i == end)
		return;
	fprintf(out, "\n#### Biggest changes: functions by self samples\n\n"
		     "| Function | Base | New | Change | Seconds | Sigma |\n"
		     "|---|---:|---:|---:|---:|---:|\n");
	for (; i < end; i++) {
		const struct cmp_row *r = &c->rows[i];
		fputs("| ", out);
		code(out, r->name);
		fprintf(out, " | %.2f%% | %.2f%% | %+.2fpp | %+.3f s | ",
			100 * r->base.share, 100 * r->new.share, r->d_pp,
			r->d_seconds);
		if (isnan(r->sigma))
			fputs("- |\n", out);
		else
			fprintf(out, "%.1f%s |\n", fabs(r->sigma),
				*compare_mark(r, sigma) ? " **!**" : "");
	}
}

/* The value v of a row with units (NULL: none), "-" when absent. */
static void md_value(FILE *out, const struct cmp_val *v, const char *units)
{
	if (!v->present)
		fputs("-", out);
	else
		fprintf(out, "%.4g%s%s", v->value, units ? " " : "",
			units ? units : "");
}

static void partials(FILE *out, const struct comparison *c, unsigned top)
{
	size_t i, end;
	compare_rows_of(c, CMP_PARTIAL, top, &i, &end);
	if (i == end)
		return;
	fprintf(out, "\n#### Partial report values\n\n"
		     "| Report metric | Base | New | Change |\n"
		     "|---|---:|---:|---:|\n");
	for (; i < end; i++) {
		const struct cmp_row *r = &c->rows[i];
		fputs("| ", out);
		code(out, r->name);
		fputs(" | ", out);
		md_value(out, &r->base, r->units);
		fputs(" | ", out);
		md_value(out, &r->new, r->units);
		if (isnan(r->d_rel))
			fputs(" | - |\n", out);
		else
			fprintf(out, " | %+.1f%% |\n", r->d_rel);
	}
}

/* An input problem as a quoted line. */
static void md_problem(void *ctx, const char *line)
{
	fputs("> **Input problem:** ", ctx);
	code(ctx, line);
	fputs("\n\n", ctx);
}

int compare_md_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	const struct comparison *c = oc->oc_cmp;
	size_t nprob = compare_fmt_problems(oc, NULL, NULL);
	if (nprob)
		fprintf(out, "### :warning: mapsample: %zu input problem%s\n\n",
			nprob, nprob == 1 ? "" : "s");
	else if (oc->oc_broken)
		fprintf(out, "### :x: mapsample: %zu of %zu rule%s broken\n\n",
			oc->oc_broken, oc->oc_nresults,
			oc->oc_nresults == 1 ? "" : "s");
	else
		fprintf(out, "### :white_check_mark: mapsample: no rule "
			     "broken\n\n");
	compare_fmt_problems(oc, md_problem, out);
	if (!c) {
		fprintf(out, "Nothing compared: the rules were not judged.\n"
			     "\n<sub>Written by %s.</sub>\n",
			in->oi_generator);
		return ferror(out) ? MAPS_EIO : 0;
	}
	if (nprob && oc->oc_broken)
		fprintf(out, "**%zu of %zu rule%s broken**  \n", oc->oc_broken,
			oc->oc_nresults, oc->oc_nresults == 1 ? "" : "s");
	side(out, "BASE", &c->base);
	side(out, "NEW", &c->new);
	size_t i, end;
	compare_rows_of(c, CMP_TIME, 1, &i, &end);
	if (i < end) {
		char buf[512];
		fprintf(out, "**Time**: %.3f s → %.3f s (%s)\n",
			c->rows[i].base.value, c->rows[i].new.value,
			compare_fmt_change(&c->rows[i], buf, sizeof(buf)));
	}
	for (size_t k = 0; k < c->nnotes; k++)
		fprintf(out, "\n> **Note:** %s\n", c->notes[k]);
	rules(out, oc);
	changes(out, c, in->oi_top, oc->oc_sigma);
	partials(out, c, in->oi_top);
	fprintf(out, "\n<sub>**!**: significant at %g sigma (binomial noise "
		     "of the sample counts). Written by %s.</sub>\n",
		oc->oc_sigma, in->oi_generator);
	return ferror(out) ? MAPS_EIO : 0;
}
