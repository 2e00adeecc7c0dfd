/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_psel: the data behind the HTML page's partial reports in a
 * selection (see html_i.h), as the JSON element "psel-data".  psel.js
 * evaluates the reports from it for any set of processes and range of
 * the page's time bins as lib/report/partial_eval.c does for mapreport
 * --pid ... --time FROM:TO on the bins' edges: bins chosen anew for the
 * selection (step 1), the values put in them (2), each process's value
 * per bin (3) and the reports' statistics (4).
 *
 * What it holds:
 *   - the metrics some report names ("refs", indexes of "msel-data"'s
 *     metrics; only their series take part in steps 2 to 4);
 *   - per series of those metrics, its time cells as the model kept them
 *     (model/metrics.h, "Cells"; partial_eval() starts from them): the
 *     page's bin of the earliest and of the latest value, the two times
 *     (ns from the page's start), the count, the sum and the value at
 *     the earliest time;
 *   - the reports as the page shows them: per entry its metric, whether
 *     the logs define it, sampleValue, aggregation, units, group and
 *     bar colour.
 * Step 1 also needs every series' count and earliest and latest time in
 * the selection, which "msel-data" already holds per bin ("k" names the
 * series in both).
 *
 * A time cell whose earliest and latest value fall in different page
 * bins is taken by the bin of its middle, so a range edge between them
 * makes the figures approximate (psel.js says so).  Time cells hold one
 * value each unless a series has more values than METRICS_RUN_CELLS
 * over the run's time.  Capped at PS_CELLS time cells (about 60 bytes
 * each); past that the element holds a reason and the page keeps the
 * whole run's figures with a note.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/metrics.h"
#include "report/out/html_i.h"
#include "report/partial_eval.h"

#define PS_CELLS 60000     /* time cells of the named metrics: 3.6 MB */

/* The index of metric id in the run, or -1. */
static long metric_of(const struct rmetrics *x, const char *id)
{
	for (size_t i = 0; id && i < x->nm; i++)
		if (!strcmp(x->m[i].id, id))
			return (long)i;
	return -1;
}

/* v as the shortest of %.15g and %.17g that reads back as v. */
static void num(FILE *out, double v)
{
	char b[32];
	snprintf(b, sizeof(b), "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof(b), "%.17g", v);
	fputs(b, out);
}

static void series(FILE *out, const struct model *m, size_t k,
		   uint64_t t0, uint64_t span, unsigned fine, unsigned bins)
{
	const struct rmseries *s = &m->metrics.s[k];
	fprintf(out, "\n{\"k\":%zu,\"m\":%" PRIu32 ",\"p\":%" PRIu32
		     ",\"c\":[",
		k, s->metric - 1, model_proc_num(m, s->pid));
	int one = 0;
	for (size_t i = 0; i < s->nc; i++) {
		const struct rmcell *c = &s->cells[i];
		if (!c->n)
			continue;
		uint32_t lo = html_nr_bin(t0, span, fine, bins, c->min_ts);
		uint32_t hi = html_nr_bin(t0, span, fine, bins, c->max_ts);
		fprintf(out, "%s[%" PRIu32 ",%" PRIu64 ",%" PRIu64
			     ",%" PRIu32 ",",
			one ? "," : "", lo, c->min_ts > t0 ? c->min_ts - t0 : 0,
			c->max_ts > t0 ? c->max_ts - t0 : 0, c->n);
		num(out, c->sum);
		fputc(',', out);
		num(out, c->min_v);
		if (hi != lo)
			fprintf(out, ",%" PRIu32, hi);
		fputc(']', out);
		one = 1;
	}
	fputs("]}", out);
}

static void entry(FILE *out, const struct rmetrics *x,
		  const struct partial_entry *en)
{
	char cb[32];
	const char *col = html_partial_colour_css(&en->en_colour, cb,
						  sizeof(cb));
	fprintf(out, "{\"m\":%ld,\"rec\":%d,\"sv\":",
		metric_of(x, en->en_metric_ref), en->en_recorded);
	htmlsafe_json(out, partial_stat_name(en->en_sample_value));
	fputs(",\"ag\":", out);
	htmlsafe_json(out, partial_stat_name(en->en_aggregation));
	fputs(",\"u\":", out);
	htmlsafe_json(out, en->en_units ? en->en_units : "");
	fputs(",\"g\":", out);
	if (en->en_group)
		htmlsafe_json(out, en->en_group);
	else
		fputs("null", out);
	fputs(",\"col\":", out);
	htmlsafe_json(out, col ? col : "#2f6fb2");
	fputc('}', out);
}

static void reports(FILE *out, const struct rmetrics *x,
		    const struct partial_result *r)
{
	fputs(",\n\"r\":[", out);
	for (size_t i = 0; i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		fputs(i ? ",\n[" : "\n[", out);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			const struct partial_subsection *ss =
				&pr->pr_subsections[j];
			fputs(j ? ",[" : "[", out);
			for (size_t k = 0; k < ss->ss_nentries; k++) {
				fputs(k ? "," : "", out);
				entry(out, x, &ss->ss_entries[k]);
			}
			fputc(']', out);
		}
		fputc(']', out);
	}
	fputc(']', out);
}

int html_psel_data(FILE *out, const struct output_in *in, unsigned fine,
		   unsigned bins)
{
	const struct partial_result *r = in->oi_partial;
	const struct partial_set *ps = in->oi_partial_set;
	const struct model *m = in->oi_model;
	const struct rmetrics *x = &m->metrics;
	if (!r || !r->rs_nreports || !ps || !bins || !fine)
		return 0;
	unsigned char *ref = calloc(x->nm ? x->nm : 1, 1);
	if (!ref)
		return MAPS_ENOMEM;
	/* the metrics some report names, as partial_eval() takes them */
	for (size_t i = 0; i < ps->ps_ndefs; i++)
		for (size_t k = 0; k < ps->ps_defs[i]->nrm; k++) {
			long mi = metric_of(x, ps->ps_defs[i]->rm[k].ref);
			if (mi >= 0)
				ref[mi] = 1;
		}
	size_t cells = 0;
	for (size_t k = 0; k < x->ns; k++)
		for (size_t i = 0; x->s[k].metric && ref[x->s[k].metric - 1] &&
				   i < x->s[k].nc;
		     i++)
			cells += x->s[k].cells[i].n != 0;
	fputs("<script type=\"application/json\" id=\"psel-data\">\n", out);
	if (cells > PS_CELLS) {
		fputs("{\"none\":\"too many metric values over time for the "
		      "page\"}\n</script>\n",
		      out);
		free(ref);
		return 0;
	}
	uint64_t t0, span;
	html_nr_span(m, &t0, &span);
	fprintf(out, "{\"bins\":%u,\"refs\":[", bins);
	int one = 0;
	for (size_t i = 0; i < x->nm; i++)
		if (ref[i]) {
			fprintf(out, "%s%zu", one ? "," : "", i);
			one = 1;
		}
	fputs("],\"s\":[", out);
	one = 0;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (!s->metric || !ref[s->metric - 1] || !s->n)
			continue;
		fputs(one ? "," : "", out);
		series(out, m, k, t0, span, fine, bins);
		one = 1;
	}
	fputc(']', out);
	reports(out, x, r);
	fputs("}\n</script>\n", out);
	free(ref);
	return 0;
}
