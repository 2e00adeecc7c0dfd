/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_calls: callers and callees of a function in the text report (see
 * text_calls.h).  A section per question: a title with the function's
 * total and self samples, then one row per caller (or callee): the
 * samples of the stacks through that call, and their share of the
 * function's total.  The callees end with the function's own (self)
 * samples, so that the rows account for its whole total when it makes
 * no recursive calls.
 */
#include <inttypes.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/butterfly.h"
#include "report/out/text_calls.h"
#include "report/shorten.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* One row: samples, share of total, a name (shortened as the tables
 * show it, unless full) and the file it is in. */
static void row(FILE *out, uint64_t n, uint64_t total, const char *name,
		const char *module, int full)
{
	char buf[NAME_DISPLAY_WIDTH + 1];
	fprintf(out, "  %10" PRIu64 " %7.2f%%  %s", n, pct(n, total),
		name_display(name, full, buf, sizeof(buf)));
	if (module)
		fprintf(out, " (%s)", module);
	fputc('\n', out);
}

/* The section on the callers (callees 0) or callees of b, asked as
 * name. */
static void section(FILE *out, const struct analysis *a,
		    const struct model *m, const struct butterfly *b,
		    const char *name, int callees, int full)
{
	const char *what = callees ? "Callees" : "Callers";
	if (!b->bf_nfuncs || !b->bf_total) {
		fprintf(out, "\n%s of %s: no function of that name has "
			     "samples; give a name as the tables of "
			     "functions show it\n", what, name);
		return;
	}
	fprintf(out, "\n%s of %s: total %" PRIu64 " samples (%.2f%%), self "
		     "%" PRIu64 " (%.2f%%)\n",
		what, name, b->bf_total, pct(b->bf_total, m->samples),
		b->bf_self, pct(b->bf_self, m->samples));
	fprintf(out, "  %10s %8s  %s\n", "SAMPLES", "SHARE",
		callees ? "CALLEE" : "CALLER");
	const struct butterfly_row *r = callees ? b->bf_callees : b->bf_callers;
	size_t n = callees ? b->bf_ncallees : b->bf_ncallers;
	for (size_t i = 0; i < n; i++) {
		if (r[i].br_func == BUTTERFLY_ROOT) {
			row(out, r[i].br_samples, b->bf_total,
			    "(none: outermost frame)", NULL, 1);
			continue;
		}
		const struct rfunc *f = &a->funcs[r[i].br_func];
		row(out, r[i].br_samples, b->bf_total, f->name, f->module,
		    full);
	}
	if (callees && b->bf_self)
		row(out, b->bf_self, b->bf_total, "(self)", NULL, 1);
}

/* The section on name's callers or callees.  0 or MAPS_ENOMEM. */
static int one(const struct output_in *in, FILE *out, const char *name,
	       int callees)
{
	struct butterfly b;
	if (butterfly_build(&b, in->oi_model, in->oi_analysis, name))
		return MAPS_ENOMEM;
	section(out, in->oi_analysis, in->oi_model, &b, name, callees,
		in->oi_full_names);
	butterfly_free(&b);
	return 0;
}

int text_calls(const struct output_in *in, FILE *out)
{
	int rc = 0;
	if (in->oi_callers)
		rc = one(in, out, in->oi_callers, 0);
	if (!rc && in->oi_callees)
		rc = one(in, out, in->oi_callees, 1);
	return rc;
}
