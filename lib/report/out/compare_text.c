/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_text: mapreport --compare's text report (see compare_out.h):
 * the input problems, the two sides, notes, the rules with their
 * verdicts, then for each kind of row a short table, the biggest changes
 * first, with significance marks.
 */
#include <math.h>
#include <stdio.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"

static void side(FILE *out, const char *label, const struct cmp_side *s)
{
	fprintf(out, "  %-5s ", label);
	compare_fmt_side(out, s, NULL, "", "");
	fputc('\n', out);
}

static const char *const titles[CMP_NKINDS] = {
	"Whole run", "Functions by self samples", "Functions by total samples",
	"Modules (self samples)", "Processes", "Metrics (mean)",
	"Metrics (max)", "Metrics (total over the run, rates only)",
	"Partial report values"};

/* With several runs a side: the runs' spread (standard deviation) of
 * row r's share (times scale) or value on each side, "-" where a side
 * has one run. */
static void spread(FILE *out, const struct cmp_row *r, double scale,
		   const char *unit)
{
	fputs("  [spread", out);
	const struct cmp_val *v[2] = {&r->base, &r->new};
	for (int i = 0; i < 2; i++) {
		if (isnan(v[i]->spread))
			fprintf(out, " %s -", i ? "NEW" : "BASE");
		else
			fprintf(out, " %s %.3g%s", i ? "NEW" : "BASE",
				v[i]->spread * scale, unit);
	}
	fputc(']', out);
}

/* One table: rows of kind k, at most top. */
static void table(FILE *out, const struct comparison *c, enum cmp_kind k,
		  unsigned top, double sigma)
{
	size_t i, end;
	compare_rows_of(c, k, top, &i, &end);
	if (i == end)
		return;
	int metric = k == CMP_METRIC_MEAN || k == CMP_METRIC_MAX ||
		     k == CMP_METRIC_TOTAL || k == CMP_PARTIAL;
	fprintf(out, "\n%s\n", titles[k]);
	if (metric)
		fprintf(out, "  %12s %12s %9s %7s  %s\n", "BASE", "NEW",
			"CHANGE%", "SIGMA",
			k == CMP_PARTIAL ? "REPORT METRIC" : "METRIC");
	else
		fprintf(out, "  %7s %7s %8s %9s %9s %8s %7s  %s\n", "BASE%",
			"NEW%", "CHANGE", "BASE-S", "NEW-S", "CHANGE%",
			"SIGMA", "NAME");
	for (; i < end; i++) {
		const struct cmp_row *r = &c->rows[i];
		char sig[16] = "?", rel[16] = "-";
		if (!isnan(r->sigma))
			snprintf(sig, sizeof(sig), "%.1f%s", fabs(r->sigma),
				 compare_mark(r, sigma));
		if (!isnan(r->d_rel))
			snprintf(rel, sizeof(rel), "%+.1f%%", r->d_rel);
		if (metric) {
			fprintf(out, "  %12.4g %12.4g %9s %7s  %s%s%s",
				r->base.value, r->new.value, rel, sig, r->name,
				r->units ? " " : "", r->units ? r->units : "");
			if (c->base.nruns > 1 || c->new.nruns > 1)
				spread(out, r, 1.0, "");
			fputc('\n', out);
			continue;
		}
		fprintf(out, "  %6.2f%% %6.2f%% %+6.2fpp %9.3f %9.3f %8s "
			     "%7s  %s",
			100 * r->base.share, 100 * r->new.share, r->d_pp,
			r->base.seconds, r->new.seconds, rel, sig, r->name);
		if (r->module && (k == CMP_SELF || k == CMP_TOTAL))
			fprintf(out, " (%s)", r->module);
		if (!r->base.present || !r->new.present)
			fprintf(out, "  [only in %s]",
				r->base.present ? "BASE" : "NEW");
		if (c->base.nruns > 1 || c->new.nruns > 1)
			spread(out, r, 100.0, "pp");
		fputc('\n', out);
	}
}

/* An input problem as a line of the header. */
static void text_problem(void *ctx, const char *line)
{
	fprintf(ctx, "  Input problem: %s\n", line);
}

int compare_text_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	const struct comparison *c = oc->oc_cmp;
	char buf[1024];
	fprintf(out, "mapsample comparison\n");
	compare_fmt_problems(oc, text_problem, out);
	if (!c) {
		fprintf(out, "  Nothing compared: the rules were not "
			     "judged\n");
		return ferror(out) ? MAPS_EIO : 0;
	}
	side(out, "BASE", &c->base);
	side(out, "NEW", &c->new);
	size_t i, end;
	compare_rows_of(c, CMP_TIME, 1, &i, &end);
	if (i < end)
		fprintf(out, "  Time: %.3f s -> %.3f s: %s\n",
			c->rows[i].base.value, c->rows[i].new.value,
			compare_fmt_change(&c->rows[i], buf, sizeof(buf)));
	for (size_t k = 0; k < c->nnotes; k++)
		fprintf(out, "  Note: %s\n", c->notes[k]);
	if (oc->oc_nresults) {
		fprintf(out, "\nRules (significance asked: %g sigma)\n",
			oc->oc_sigma);
		for (size_t k = 0; k < oc->oc_nresults; k++) {
			const struct rule_result *res = &oc->oc_results[k];
			fprintf(out, "  %-7s %s\n          %s [%s]\n",
				res->rr_verdict == RULE_BROKEN ? "BROKEN"
				: res->rr_verdict == RULE_PASS ? "pass"
							       : "no data",
				res->rr_rule->ru_text,
				compare_fmt_result(res, buf, sizeof(buf)),
				res->rr_rule->ru_origin);
		}
		fprintf(out, "  %zu of %zu rule%s broken\n", oc->oc_broken,
			oc->oc_nresults, oc->oc_nresults == 1 ? "" : "s");
	}
	for (enum cmp_kind k = CMP_SELF; k < CMP_NKINDS; k++)
		table(out, c, k, in->oi_top, oc->oc_sigma);
	fprintf(out, "\n  ! significant at %g sigma; ? no noise estimate "
		     "(one run a side, or a partial report value); pp: percentage points of samples; "
		     "-S: seconds a run\n", oc->oc_sigma);
	return ferror(out) ? MAPS_EIO : 0;
}
