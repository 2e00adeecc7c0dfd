/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_activity: the HTML report's "Thread activity" section (see
 * html_i.h): samples per thread over time as a heat map, a row per
 * thread (the 64 with the most samples), the time the threads spent in
 * the program's regions as bands, the marks, and the regions' table.
 * Each row's cells are in a group report.js can hide (a selection) and
 * stretch (a time range).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/regions.h"
#include "model/units.h"
#include "report/out/html_i.h"

#define MAX_THREAD_ROWS 64    /* threads in the activity chart */

static const struct rthread *sort_threads;

static int cmp_thread_samples(const void *a, const void *b)
{
	const struct rthread *x = &sort_threads[*(const size_t *)a];
	const struct rthread *y = &sort_threads[*(const size_t *)b];
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Activity chart geometry: label width, row height, width. */
#define ALX 190.0
#define AROWH 16.0
#define AW 1000.0

/* The threads with samples into ord (n of them); returns how many are
 * shown: all, or the MAX_THREAD_ROWS with the most samples, in their
 * order in the model. */
static size_t shown_threads(const struct model *m, size_t *ord, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].samples)
			ord[(*n)++] = i;
	size_t shown = *n;
	if (shown > MAX_THREAD_ROWS) {
		sort_threads = m->threads;
		qsort(ord, *n, sizeof(*ord), cmp_thread_samples);
		shown = MAX_THREAD_ROWS;
		qsort(ord, shown, sizeof(*ord), cmp_index);
	}
	return shown;
}

/* Samples per shown thread per column into cell (a row per thread);
 * returns the most in one cell. */
static uint64_t activity_cells(const struct model *m, const struct html_cols *c,
			       const size_t *ord, size_t shown, uint64_t *cell)
{
	uint64_t vmax = 0;
	for (size_t r = 0; r < shown; r++) {
		const struct rthread *t = &m->threads[ord[r]];
		const struct rtlthread *tt = timeline_thread(&m->timeline,
							     t->pid, t->image,
							     t->tid);
		if (!tt)
			continue;
		for (size_t j = 0; j < c->n; j++) {
			uint64_t v = 0;
			size_t b = (size_t)c->b0 + j * c->per;
			for (size_t e = b + c->per; b < e && b < TIMELINE_BINS; b++)
				v += tt->bins[b];
			cell[r * c->n + j] = v;
			if (v > vmax)
				vmax = v;
		}
	}
	return vmax;
}

/* Row r of the activity chart: thread t's lane, label and cells (its
 * row of the cells). */
static void activity_lane(FILE *out, const struct html_cols *c,
			  const struct rtimeline *tl, const struct rthread *t,
			  const char *pid, size_t r, const uint64_t *cells,
			  uint64_t vmax)
{
	double cw = (AW - 10 - ALX) / (double)c->n;
	double y = (double)r * AROWH;
	fprintf(out, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" "
		     "width=\"%.1f\" height=\"%.1f\"/>",
		ALX, y + 1, AW - 10 - ALX, AROWH - 2);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		     "%s/%u ",
		ALX - 6, y + AROWH - 4, pid, t->tid);
	char nm[40];
	snprintf(nm, sizeof(nm), "%.24s", t->name ? t->name : "");
	H(nm);
	/* the cells (and the region bands the caller adds) in g.act-plot,
	 * which report.js stretches to zoom to a time range; closed by
	 * the caller */
	fputs("</text><g class=\"act-plot\">", out);
	for (size_t j = 0; j < c->n; j++) {
		uint64_t v = cells[j];
		if (!v)
			continue;
		double s, e;
		html_col_range(c, tl, j, &s, &e);
		double op = 0.12 + 0.88 * (double)v / (double)vmax;
		fprintf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.2f\" height=\"%.1f\" "
			     "fill-opacity=\"%.2f\"><title>%s/%u, "
			     "%.3f-%.3f s: %" PRIu64 " samples</title>"
			     "</rect>",
			ALX + (double)j * cw, y + 1, cw + 0.05, AROWH - 2, op,
			pid, t->tid, s, e, v);
	}
}

/* What region_band() needs to draw one thread's regions. */
struct bandctx {
	FILE *out;
	const struct html_cols *c;
	const struct regions *rg;
	const struct rthread *t;
	const char *pid;    /* as model_pid_str() writes it */
	double y;
};

/* A stretch of time a thread spent inside regions (regions_span_fn): a
 * band along the bottom of its lane, named in its tooltip. */
static void region_band(void *ctx, uint64_t from, uint64_t to, uint32_t inner)
{
	const struct bandctx *b = ctx;
	const struct html_cols *c = b->c;
	FILE *out = b->out;
	double span = (double)(c->t1 - c->t0);
	double w = AW - 10 - ALX;
	uint64_t f = from < c->t0 ? c->t0 : from, e = to > c->t1 ? c->t1 : to;
	if (e <= f || span <= 0)
		return; /* out of the axis (--time) */
	double x0 = ALX + (double)(f - c->t0) / span * w;
	double x1 = ALX + (double)(e - c->t0) / span * w;
	fprintf(out, "<rect class=\"region\" x=\"%.1f\" y=\"%.1f\" "
		     "width=\"%.2f\" height=\"4\" fill=\"#c0392b\" "
		     "fill-opacity=\"0.7\"><title>%s/%u in region ",
		x0, b->y + AROWH - 5, x1 - x0 > 0.5 ? x1 - x0 : 0.5,
		b->pid, b->t->tid);
	H(b->rg->names[inner].name);
	fprintf(out, ", %.3f-%.3f s</title></rect>",
		(double)(f - c->base) / 1e9, (double)(e - c->base) / 1e9);
}

/* The program's regions: a table of name, entries, time and samples
 * inside (model/regions.h); nothing when there are none. */
static void regions_table(FILE *out, const struct model *m)
{
	const struct regions *rg = m->regions;
	if (!rg || !rg->nnames)
		return;
	fputs("<h3>Regions</h3>\n<table class=\"regions\">\n<thead><tr><th>Region</th>"
	      "<th class=\"n\">Entered</th><th class=\"n\">Wall time</th>"
	      "<th class=\"n\">Samples</th><th class=\"n\">%</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	for (size_t i = 0; i < rg->nnames; i++) {
		const struct rregion *r = &rg->names[i];
		fputs("<tr><td>", out);
		H(r->name);
		fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td>"
			     "<td class=\"n\">%.3f s</td><td class=\"n\">%"
			     PRIu64 "</td><td class=\"n\">%.2f</td></tr>\n",
			r->count, (double)r->ns / 1e9, r->samples,
			m->samples ? 100.0 * (double)r->samples /
					     (double)m->samples
				   : 0.0);
	}
	fputs("</tbody>\n</table>\n", out);
	if (rg->filter) {
		fputs("<p class=\"note\">Only the samples taken inside region ",
		      out);
		H(rg->filter);
		fprintf(out, ": %" PRIu64 " kept, %" PRIu64 " left out.</p>\n",
			rg->kept, rg->left_out);
	}
}

/* The time axis under shown rows, in seconds from the run's start. */
static void activity_axis(FILE *out, const struct html_cols *c, size_t shown)
{
	double first, st, end = (double)(c->t1 - c->base) / 1e9;
	double ya = (double)shown * AROWH + 2;
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\"/>",
		ALX, ya, AW - 10, ya);
	/* the run's ticks in g.xaxis: report.js hides them and draws the
	 * range's when it zooms */
	fputs("<g class=\"xaxis\">", out);
	html_axis_ticks(c, 8, &first, &st);
	for (int i = 0; st > 0 && first + i * st <= end + st * 1e-4; i++) {
		double s = first + i * st;
		double xx = ALX + html_col_frac(c, s) * (AW - 10 - ALX);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), s, "s");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			xx, ya + 16);
		H(b);
		fputs("</text>", out);
	}
	fputs("</g>", out);
}

/* The "Thread activity" section: a heat map of samples per thread (a
 * row each) over time. */
int html_activity_section(FILE *out, const struct model *m)
{
	struct html_cols cols, *c = &cols;
	html_cols_init(c, m);
	fputs("<section id=\"activity\">\n<h2>Thread activity</h2>\n", out);
	if (!c->ok || !m->nthreads || !m->samples) {
		fputs("<p class=\"nodata\">No samples over time.</p>\n"
		      "</section>\n", out);
		return 0;
	}
	size_t n, *ord = calloc(m->nthreads, sizeof(*ord));
	if (!ord)
		return MAPS_ENOMEM;
	size_t shown = shown_threads(m, ord, &n);
	size_t ncell = shown * c->n;
	uint64_t *cell = calloc(ncell ? ncell : 1, sizeof(*cell));
	if (!cell) {
		free(ord);
		return MAPS_ENOMEM;
	}
	uint64_t vmax = activity_cells(m, c, ord, shown, cell);
	html_range_note(out, c, "activity-range");
	fputs("<div class=\"legend\">Samples per thread over time; darker is "
	      "more samples (the darkest cell holds ", out);
	fprintf(out, "%" PRIu64 ").", vmax);
	if (shown < n)
		fprintf(out, " The %zu threads with the most samples of %zu.",
			shown, n);
	fputs("</div>\n", out);
	/* each thread's row a group (data-pid, data-tid, data-proc) and
	 * the axis another, so report.js can hide the rows a selection
	 * leaves out and pack the rest (data-rowh: a row's height); the
	 * x axis as the metric charts' (data-t0, data-span) */
	fprintf(out, "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		     "class=\"timed\" data-x0=\"%.1f\" data-x1=\"%.1f\" "
		     "data-t0=\"%.9g\" data-span=\"%.9g\" data-rowh=\"%.0f\" "
		     "aria-label=\"samples per thread over time\">",
		AW, (double)shown * AROWH + 28.0, ALX, AW - 10,
		(double)(c->t0 - c->base) / 1e9, (double)(c->t1 - c->t0) / 1e9,
		(double)AROWH);
	for (size_t r = 0; r < shown; r++) {
		const struct rthread *t = &m->threads[ord[r]];
		/* data-pid: the pid it had (in its PID namespace);
		 * data-proc: the process's number report.js selects by
		 * (model_proc_num()), as two processes may have one pid */
		fprintf(out, "<g class=\"act-row\" data-pid=\"%u\" "
			     "data-tid=\"%u\" data-proc=\"%u\">",
			model_real_pid(m, t->pid), t->tid,
			model_proc_num(m, t->pid));
		/* labelled with the pid as the text report shows it, not
		 * the model's key */
		char pb[48];
		model_pid_str(m, t->pid, pb, sizeof(pb));
		activity_lane(out, c, &m->timeline, t, pb, r,
			      cell + r * c->n, vmax);
		struct bandctx b = {out, c, m->regions, t, pb,
				    (double)r * AROWH};
		if (m->regions)
			regions_spans(m->regions, t->pid, t->image, t->tid,
				      region_band, &b);
		fputs("</g></g>\n", out);
	}
	fputs("<g class=\"act-plot act-marks\">", out);
	html_marks_svg(out, c, &m->timeline, ALX, AW - 10, 0,
		  (double)shown * AROWH);
	fputs("</g><g class=\"act-foot\">", out);
	activity_axis(out, c, shown);
	fputs("</g></svg>\n", out);
	if (m->regions && m->regions->nnames)
		fputs("<div class=\"legend\">Red bands: the time a thread "
		      "spent inside the program's regions; dashed lines: its "
		      "marks (mapsample_mark(3)).</div>\n", out);
	regions_table(out, m);
	fputs("</section>\n", out);
	free(cell);
	free(ord);
	return 0;
}
