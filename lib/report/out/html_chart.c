/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_chart: the HTML report's "Metrics" section (see html_i.h): a
 * table of every metric, an SVG chart per metric with values, the user
 * marks; and the time axis the charts over time share (html_activity.c's
 * too).
 *
 * Time: charts show CLOCK_MONOTONIC time in seconds from the model's
 * first record (the run's start), over the run or, with --time, over
 * the part of it kept, in display columns of one or more timeline bins
 * (at most MAX_COLS).
 * A chart draws, per column, the mean of the metric as a line in a band
 * from the lowest to the highest value; with more than one process, the
 * band spans the processes' means and the line is their mean.  The SVG
 * needs no script: tooltips are <title> elements.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/units.h"
#include "report/out/html_i.h"

#define MAX_COLS 240          /* display columns of a chart */

/* ---- time axis ---- */


void html_cols_init(struct html_cols *c, const struct model *m)
{
	const struct rtimeline *tl = &m->timeline;
	memset(c, 0, sizeof(*c));
	if (!tl->have_range || m->first_ts == UINT64_MAX)
		return;
	c->base = c->t0 = m->first_ts;
	c->end = c->t1 = m->last_ts > m->first_ts ? m->last_ts
						 : m->first_ts + 1000000;
	uint64_t last = c->t1; /* the last ns the columns hold */
	if (m->filter && m->filter->fi_time) {
		/* --time: its range, clamped to the run (a range outside the
		 * run, which keeps nothing, leaves the run's) */
		uint64_t from, to;
		filter_time_ns(m->filter, &from, &to);
		if (from > c->t0 && from < c->t1)
			c->t0 = from;
		if (to > c->t0 && to < c->t1)
			last = (c->t1 = to) - 1; /* to itself is left out */
		c->narrowed = c->t0 != c->base || c->t1 != c->end;
	}
	long b0 = timeline_bin_of(tl, c->t0), b1 = timeline_bin_of(tl, last);
	if (b0 < 0)
		b0 = 0;
	if (b1 >= TIMELINE_BINS)
		b1 = TIMELINE_BINS - 1;
	if (b1 < b0)
		b1 = b0;
	size_t nb = (size_t)(b1 - b0 + 1);
	c->b0 = b0;
	c->per = (nb + MAX_COLS - 1) / MAX_COLS;
	c->n = (nb + c->per - 1) / c->per;
	c->ok = 1;
}

/* Start and end time of column k (its bins', perhaps beyond the axis),
 * seconds from c->base. */
static void col_span(const struct html_cols *c, const struct rtimeline *tl,
		     size_t k, double *s, double *e)
{
	int64_t a = timeline_bin_start(tl, (size_t)c->b0 + k * c->per);
	*s = (double)(a - (int64_t)c->base) / 1e9;
	*e = *s + (double)(timeline_width(tl) * c->per) / 1e9;
}

void html_col_range(const struct html_cols *c, const struct rtimeline *tl,
		    size_t k, double *s, double *e)
{
	double lo = (double)(c->t0 - c->base) / 1e9;
	double hi = (double)(c->t1 - c->base) / 1e9;
	col_span(c, tl, k, s, e);
	*s = *s < lo ? lo : *s > hi ? hi : *s;
	*e = *e < lo ? lo : *e > hi ? hi : *e;
}

double html_col_frac(const struct html_cols *c, double sec)
{
	double span = (double)(c->t1 - c->t0) / 1e9;
	double f = span > 0 ? (sec - (double)(c->t0 - c->base) / 1e9) / span
			    : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return f;
}

void html_axis_ticks(const struct html_cols *c, int ticks, double *first,
		     double *step)
{
	double span = (double)(c->t1 - c->t0) / 1e9;
	double off = (double)(c->t0 - c->base) / 1e9;
	*step = span > 0 ? html_nice_step(span, ticks, 0) : 0;
	*first = *step > 0 ? ceil(off / *step - 1e-9) * *step : off;
}

void html_range_note(FILE *out, const struct html_cols *c, const char *id)
{
	if (!c->narrowed)
		return;
	fprintf(out, "<p class=\"note\" id=\"%s\">Time axes: %.3f s to "
		     "%.3f s from the run's start, the part of the run's "
		     "%.3f s that --time keeps.</p>\n",
		id, (double)(c->t0 - c->base) / 1e9,
		(double)(c->t1 - c->base) / 1e9,
		(double)(c->end - c->base) / 1e9);
}

/* Chart geometry (SVG user units). */
#define CW 800.0
#define CH 180.0
#define PX0 74.0
#define PX1 790.0
#define PY0 10.0
#define PY1 150.0

/* The x of sec (seconds from c->base). */
static double x_of(const struct html_cols *c, double sec)
{
	return PX0 + html_col_frac(c, sec) * (PX1 - PX0);
}

/* A "nice" step near range/ticks: 1, 2 or 5 times a power of ten, or
 * for byte units (whose prefixes are powers of 1024) a power of two. */
double html_nice_step(double range, int ticks, int iec)
{
	if (!(range > 0))
		return 1;
	double raw = range / ticks, mag;
	if (iec && raw >= 1)
		return pow(2, ceil(log2(raw)));
	mag = pow(10, floor(log10(raw)));
	double n = raw / mag;
	return (n < 1.5 ? 1 : n < 3 ? 2 : n < 7 ? 5 : 10) * mag;
}

static int units_iec(const char *u)
{
	return u && u[0] == 'B' && (!u[1] || u[1] == '/');
}

static void x_axis(FILE *out, const struct html_cols *c)
{
	double first, st, end = (double)(c->t1 - c->base) / 1e9;
	html_axis_ticks(c, 8, &first, &st);
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\"/>",
		PX0, PY1, PX1, PY1);
	for (int i = 0; st > 0 && first + i * st <= end + st * 1e-4; i++) {
		double s = first + i * st, x = x_of(c, s);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), s, "s");
		fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"middle\">",
			x, PY1, x, PY1 + 4, x, PY1 + 16);
		H(b);
		fputs("</text>", out);
	}
}

/* The user's point marks as lines from y0 to y1 in a plot whose x axis
 * runs from x0 to x1. */
void html_marks_svg(FILE *out, const struct html_cols *c, const struct rtimeline *tl,
		      double x0, double x1, double y0, double y1)
{
	for (size_t i = 0; i < tl->nmarks; i++) {
		const struct rtlmark *k = &tl->marks[i];
		if (k->ts < c->t0 || k->ts > c->t1)
			continue; /* out of the axis (--time) */
		double t = (double)(k->ts - c->base) / 1e9;
		double x = x0 + html_col_frac(c, t) * (x1 - x0);
		fprintf(out, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"><title>mark at %.3f s: ",
			x, y0, x, y1, t);
		H(k->text);
		fputs("</title></line>", out);
	}
}

/* ---- metric charts ---- */

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* One display column of a metric's chart: what its series hold there. */
struct mcol {
	uint64_t procs;          /* series with values here */
	double sum_means;
	double lo_p, hi_p;       /* of the series' means */
	double lo_v, hi_v;       /* of all values */
};

/* One chart: its metric, its columns, and its y axis. */
struct chartdata {
	const struct rmetric *mt;
	struct mcol *col;        /* a column per display column */
	size_t nseries;          /* series with values */
	size_t npts;             /* columns with values */
	int per_proc;            /* band of the series' means, not values */
	double bot, top, step;   /* y axis: bot to top, ticks every step */
	double span;             /* seconds the x axis covers */
	double t0;               /* where it starts, seconds from the
				  * run's start */
};

/* The low and high ends of a column's band, and its line. */
static double col_lo(const struct chartdata *d, const struct mcol *o)
{
	return d->per_proc ? o->lo_p : o->lo_v;
}

static double col_hi(const struct chartdata *d, const struct mcol *o)
{
	return d->per_proc ? o->hi_p : o->hi_v;
}

static double col_mean(const struct mcol *o)
{
	return o->sum_means / (double)o->procs;
}

/* The y of value v. */
static double y_of(const struct chartdata *d, double v)
{
	return PY1 - (v - d->bot) / (d->top - d->bot) * (PY1 - PY0);
}

/* The x of the middle of display column k (of its bins, as report.js
 * places the columns of "ms-data"). */
static double col_x(const struct html_cols *c, const struct rtimeline *tl,
		    size_t k)
{
	double t[2];
	col_span(c, tl, k, &t[0], &t[1]);
	return x_of(c, (t[0] + t[1]) / 2);
}

/* The timeline bins of display column j merged into one. */
static struct rtlbin col_bin(const struct html_cols *c, const struct rtlbin *bins,
			     size_t j)
{
	struct rtlbin agg = {0, 0, 0, 0};
	size_t b = (size_t)c->b0 + j * c->per;
	for (size_t e = b + c->per; b < e && b < TIMELINE_BINS; b++) {
		const struct rtlbin *q = &bins[b];
		if (!q->n)
			continue;
		if (!agg.n || q->min < agg.min)
			agg.min = q->min;
		if (!agg.n || q->max > agg.max)
			agg.max = q->max;
		agg.sum += q->sum;
		agg.n += q->n;
	}
	return agg;
}

/* Adds one series' values in a column (agg, not empty) to the column. */
static void mcol_add(struct mcol *o, const struct rtlbin *agg)
{
	double mean = agg->sum / (double)agg->n;
	if (!o->procs || mean < o->lo_p)
		o->lo_p = mean;
	if (!o->procs || mean > o->hi_p)
		o->hi_p = mean;
	if (!o->procs || agg->min < o->lo_v)
		o->lo_v = agg->min;
	if (!o->procs || agg->max > o->hi_v)
		o->hi_v = agg->max;
	o->sum_means += mean;
	o->procs++;
}

/* Fills d->col and d->nseries from every series of metric mi (of the
 * process numbered proc (model_proc_num()) only, unless proc is 0). */
static int chart_columns(struct chartdata *d, const struct model *m,
			 const struct html_cols *c, size_t mi, uint32_t proc)
{
	const struct rtimeline *tl = &m->timeline;
	const struct rmetrics *x = &m->metrics;
	struct rtlbin *bins = calloc(TIMELINE_BINS, sizeof(*bins));
	if (!bins)
		return MAPS_ENOMEM;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *ms = &x->s[k];
		if (ms->metric != mi + 1 ||
		    (proc && model_proc_num(m, ms->pid) != proc))
			continue;
		const struct rtlseries *s = timeline_series(tl, ms->pid,
							    ms->image, ms->index);
		if (!s)
			continue;
		timeline_series_bins(tl, s, bins);
		int any = 0;
		for (size_t j = 0; j < c->n; j++) {
			struct rtlbin agg = col_bin(c, bins, j);
			if (!agg.n)
				continue;
			any = 1;
			mcol_add(&d->col[j], &agg);
		}
		d->nseries += (size_t)any;
	}
	free(bins);
	return 0;
}

/* The y axis: from 0 (or below, for negative values) to a step above
 * the highest value, in "nice" steps. */
static void y_scale(struct chartdata *d, const struct html_cols *c)
{
	d->per_proc = d->nseries > 1;
	double ymin = 0, ymax = 0;
	for (size_t j = 0; j < c->n; j++) {
		const struct mcol *o = &d->col[j];
		if (!o->procs)
			continue;
		double lo = col_lo(d, o), hi = col_hi(d, o);
		if (!d->npts || lo < ymin)
			ymin = lo;
		if (!d->npts || hi > ymax)
			ymax = hi;
		d->npts++;
	}
	if (ymin > 0)
		ymin = 0;
	d->step = html_nice_step(ymax - ymin, 4, units_iec(d->mt->units));
	d->top = ymin + ceil((ymax - ymin) / d->step) * d->step;
	if (!(d->top > ymin))
		d->top = ymin + d->step;
	d->bot = ymin < 0 ? floor(ymin / d->step) * d->step : 0;
}

/* The figure's caption and legend, and the start of its SVG. */
static void chart_head(FILE *out, const struct chartdata *d,
		       const struct rmsummary *r)
{
	const struct rmetric *mt = d->mt;
	fputs("<figure class=\"chart\" data-metric=\"", out);
	H(mt->id);
	fputs("\"><figcaption>", out);
	H(metrics_display_name(mt));
	if (mt->units && mt->units[0]) {
		fputs(" <span class=\"u\">(", out);
		H(mt->units);
		fputs(")</span>", out);
	}
	fputs("</figcaption>\n<div class=\"legend\">", out);
	if (d->per_proc)
		fprintf(out, "%zu processes: line = mean of the processes, "
			     "band = lowest to highest process", d->nseries);
	else
		fputs("line = mean, band = lowest to highest value in each "
		      "interval", out);
	if (r->rate)
		fputs("; per second (divided by sample time)", out);
	fputs("</div>\n", out);
	/* data-x0, data-x1: where the x axis starts and ends, data-t0 and
	 * data-span: the seconds from the run's start there and the
	 * seconds it covers (the run, or --time's range), for report.js to
	 * mark a chosen time range */
	fprintf(out, "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		     "class=\"timed\" data-x0=\"%.1f\" data-x1=\"%.1f\" "
		     "data-t0=\"%.9g\" data-span=\"%.9g\" aria-label=\"",
		CW, CH, PX0, PX1, d->t0, d->span);
	H(metrics_display_name(mt));
	fputs(" over time\">", out);
}

/* The y grid and its labels. */
static void y_axis(FILE *out, const struct chartdata *d)
{
	for (double v = d->bot; v <= d->top + d->step / 2; v += d->step) {
		double y = y_of(d, v);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), fabs(v) < d->step / 1e6 ? 0 : v,
			     d->mt->units);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"end\">",
			PX0, y, PX1, y, PX0 - 4, y + 4);
		H(b);
		fputs("</text>", out);
	}
}

/* The longest step between neighbouring columns with values (idx, npts
 * of them) that a line still bridges: 4 times the median step, at least
 * 2.  gap is scratch room for npts values. */
static size_t gap_limit(const size_t *idx, size_t npts, size_t *gap)
{
	for (size_t k = 1; k < npts; k++)
		gap[k - 1] = idx[k] - idx[k - 1];
	size_t limit = 2;
	if (npts > 1) {
		qsort(gap, npts - 1, sizeof(*gap), cmp_size);
		if (4 * gap[(npts - 1) / 2] > limit)
			limit = 4 * gap[(npts - 1) / 2];
	}
	return limit;
}

/* One segment of the series, the columns idx[a .. b): a dot with its
 * range for a lone column, else the band and the line through it. */
static void segment(FILE *out, const struct html_cols *c,
		    const struct rtimeline *tl, const struct chartdata *d,
		    const size_t *idx, size_t a, size_t b)
{
	if (b - a == 1) {
		const struct mcol *o = &d->col[idx[a]];
		double xm = col_x(c, tl, idx[a]);
		fprintf(out, "<line class=\"mean\" x1=\"%.1f\" "
			     "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			     "<circle class=\"dot\" cx=\"%.1f\" "
			     "cy=\"%.1f\" r=\"2.5\"/>",
			xm, y_of(d, col_lo(d, o)), xm, y_of(d, col_hi(d, o)),
			xm, y_of(d, col_mean(o)));
		return;
	}
	/* band: upper edge forwards, lower edge back */
	fputs("<polygon class=\"band\" points=\"", out);
	for (size_t i = a; i < b; i++)
		fprintf(out, "%.1f,%.1f ", col_x(c, tl, idx[i]),
			y_of(d, col_hi(d, &d->col[idx[i]])));
	for (size_t i = b; i-- > a;)
		fprintf(out, "%.1f,%.1f ", col_x(c, tl, idx[i]),
			y_of(d, col_lo(d, &d->col[idx[i]])));
	fputs("\"/><polyline class=\"mean\" points=\"", out);
	for (size_t i = a; i < b; i++)
		fprintf(out, "%.1f,%.1f ", col_x(c, tl, idx[i]),
			y_of(d, col_mean(&d->col[idx[i]])));
	fputs("\"/>", out);
}

/* The columns with values, drawn in segments: a gap much longer than
 * the usual spacing (a process that started late, a pause in the
 * metric) is left open rather than bridged by a line. */
static int series(FILE *out, const struct html_cols *c, const struct rtimeline *tl,
		  const struct chartdata *d)
{
	size_t npts = d->npts;
	size_t *idx = calloc(npts ? npts : 1, sizeof(*idx));
	size_t *gap = calloc(npts ? npts : 1, sizeof(*gap));
	if (!idx || !gap) {
		free(idx);
		free(gap);
		return MAPS_ENOMEM;
	}
	size_t k = 0;
	for (size_t j = 0; j < c->n; j++)
		if (d->col[j].procs)
			idx[k++] = j;
	size_t limit = gap_limit(idx, npts, gap);
	for (size_t a = 0, b; a < npts; a = b) {
		for (b = a + 1; b < npts && idx[b] - idx[b - 1] <= limit; b++)
			;
		segment(out, c, tl, d, idx, a, b);
	}
	free(idx);
	free(gap);
	return 0;
}

/* Hover targets: a rectangle with a tooltip per column with values. */
static void hover_targets(FILE *out, const struct html_cols *c,
			  const struct rtimeline *tl,
			  const struct chartdata *d)
{
	double cwid = (PX1 - PX0) / (double)(c->n ? c->n : 1);
	for (size_t j = 0; j < c->n; j++) {
		const struct mcol *o = &d->col[j];
		if (!o->procs)
			continue;
		double s, e;
		html_col_range(c, tl, j, &s, &e);
		double x0 = x_of(c, s), x1 = x_of(c, e);
		if (x1 - x0 < cwid)
			x1 = x0 + cwid;
		char lo[UNITS_BUFSZ], mean[UNITS_BUFSZ], hi[UNITS_BUFSZ];
		units_format(lo, sizeof(lo), col_lo(d, o), d->mt->units);
		units_format(mean, sizeof(mean), col_mean(o), d->mt->units);
		units_format(hi, sizeof(hi), col_hi(d, o), d->mt->units);
		fprintf(out, "<rect class=\"hit\" x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.1f\" height=\"%.1f\"><title>%.3f-%.3f s: "
			     "mean ",
			x0, PY0, x1 - x0, PY1 - PY0, s, e);
		H(mean);
		fputs(", min ", out);
		H(lo);
		fputs(", max ", out);
		H(hi);
		if (d->per_proc)
			fprintf(out, " (%" PRIu64 " processes)", o->procs);
		fputs("</title></rect>", out);
	}
}

/* The min, mean and max of the metric (its row of the metrics table),
 * under the chart, and the figure's end. */
static void chart_legend(FILE *out, const struct rmetric *mt,
			 const struct rmsummary *r)
{
	char mn[UNITS_BUFSZ], me[UNITS_BUFSZ], mx[UNITS_BUFSZ];
	if (r->have_minmax) {
		units_format(mn, sizeof(mn), r->min, mt->units);
		units_format(mx, sizeof(mx), r->max, mt->units);
	} else {
		strcpy(mn, "-");
		strcpy(mx, "-");
	}
	if (r->have_mean)
		units_format(me, sizeof(me), r->mean, mt->units);
	else
		strcpy(me, "-");
	fputs("<div class=\"legend\">min ", out);
	H(mn);
	fputs(" &middot; mean ", out);
	H(me);
	fputs(" &middot; max ", out);
	H(mx);
	fputs("</div></figure>\n", out);
}

/* ---- a metric's series per process, for report.js ---- */

/* Quantized values: 2 characters of this alphabet each (no character
 * JSON or HTML would escape), 0 to QMAX over the process's y axis. */
static const char qdigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "abcdefghijklmnopqrstuvwxyz+/";
#define QMAX 4095

static int qof(const struct chartdata *d, double v)
{
	double f = (v - d->bot) / (d->top - d->bot) * QMAX + 0.5;
	return f < 0 ? 0 : f > QMAX ? QMAX : (int)f;
}

static void qput(FILE *out, int q)
{
	fputc(qdigits[q >> 6], out);
	fputc(qdigits[q & 63], out);
}

/* Process proc's series of metric mi as [bottom, top, step, [y axis
 * labels], series, "columns"]: a column is "~" (no value), "!" and a
 * value (mean, low and high the same) or its mean, low and high (as the
 * chart draws them), quantized. */
static int proc_data(FILE *out, const struct model *m,
		     const struct html_cols *c, size_t mi, uint32_t proc)
{
	struct chartdata d = {.mt = &m->metrics.m[mi]};
	d.col = calloc(c->n ? c->n : 1, sizeof(*d.col));
	int rc = d.col ? chart_columns(&d, m, c, mi, proc) : MAPS_ENOMEM;
	if (rc) {
		free(d.col);
		return rc;
	}
	y_scale(&d, c);
	fprintf(out, "\"%u\":[%.9g,%.9g,%.9g,[", proc, d.bot, d.top, d.step);
	int first = 1;
	for (double v = d.bot; v <= d.top + d.step / 2; v += d.step) {
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), fabs(v) < d.step / 1e6 ? 0 : v,
			     d.mt->units);
		fputs(first ? "" : ",", out);
		htmlsafe_json(out, b);
		first = 0;
	}
	fprintf(out, "],%zu,\"", d.nseries);
	for (size_t j = 0; j < c->n; j++) {
		const struct mcol *o = &d.col[j];
		if (!o->procs) {
			fputc('~', out);
			continue;
		}
		int qm = qof(&d, col_mean(o)), ql = qof(&d, col_lo(&d, o));
		int qh = qof(&d, col_hi(&d, o));
		if (qm == ql && qm == qh) {
			fputc('!', out);
			qput(out, qm);
			continue;
		}
		qput(out, qm);
		qput(out, ql);
		qput(out, qh);
	}
	fputs("\"]", out);
	free(d.col);
	return 0;
}

/* Metric mi's entry in "ms-data": {"id": the metric, "all": the
 * chart's y axis (bottom, top), and "procs": each process's series
 * (proc_data) by process number when more than one process has values
 * of it, else "only": the one process's number}. */
static int proc_series(FILE *out, const struct model *m,
		       const struct html_cols *c, size_t mi)
{
	const struct rmetrics *x = &m->metrics;
	struct chartdata all = {.mt = &x->m[mi]};
	uint32_t *procs = calloc(x->ns ? x->ns : 1, sizeof(*procs));
	size_t np = 0;
	all.col = calloc(c->n ? c->n : 1, sizeof(*all.col));
	int rc = procs && all.col ? chart_columns(&all, m, c, mi, 0)
				  : MAPS_ENOMEM;
	if (rc)
		goto out;
	y_scale(&all, c);
	for (size_t k = 0; k < x->ns; k++) {
		if (x->s[k].metric != mi + 1)
			continue;
		uint32_t p = model_proc_num(m, x->s[k].pid);
		size_t i = 0;
		while (i < np && procs[i] != p)
			i++;
		if (i == np)
			procs[np++] = p;
	}
	fputs("{\"id\":", out);
	htmlsafe_json(out, x->m[mi].id);
	fprintf(out, ",\"all\":[%.9g,%.9g],\"units\":", all.bot, all.top);
	htmlsafe_json(out, x->m[mi].units ? x->m[mi].units : "");
	if (np == 1) {
		fprintf(out, ",\"only\":%u", procs[0]);
	} else {
		fputs(",\"procs\":{", out);
		for (size_t i = 0; i < np && !rc; i++) {
			fputs(i ? ",\n" : "", out);
			rc = proc_data(out, m, c, mi, procs[i]);
		}
		fputs("}", out);
	}
	fputs("}", out);
out:
	free(all.col);
	free(procs);
	return rc;
}

/* The metrics' series per process as the JSON element "ms-data", for
 * report.js to draw a process's charts when a selection holds one
 * process: where the columns are (s0, w: seconds, the middle of the
 * first and the width; t0 and span: where the x axis starts and the
 * seconds it covers; all seconds from the run's start), the plot area
 * (x, y) and an entry per chart (proc_series), in the charts' order
 * (sum: the metrics' summaries; a chart for each with values). */
static int proc_series_all(FILE *out, const struct model *m,
			   const struct html_cols *c,
			   const struct rmsummary *sum)
{
	const struct rmetrics *x = &m->metrics;
	double s, e;
	col_span(c, &m->timeline, 0, &s, &e);
	fprintf(out, "<script type=\"application/json\" id=\"ms-data\">"
		     "{\"s0\":%.9g,\"w\":%.9g,\"t0\":%.9g,\"span\":%.9g,"
		     "\"x\":[%.1f,%.1f],\"y\":[%.1f,%.1f],\"charts\":[\n",
		(s + e) / 2, e - s, (double)(c->t0 - c->base) / 1e9,
		(double)(c->t1 - c->t0) / 1e9, PX0, PX1, PY0, PY1);
	int rc = 0, first = 1;
	for (size_t i = 0; i < x->nm && !rc; i++) {
		if (!sum[i].values)
			continue;
		fputs(first ? "" : ",\n", out);
		first = 0;
		rc = proc_series(out, m, c, i);
	}
	fputs("]}\n</script>\n", out);
	return rc;
}

/* The chart of metric mi (summary r): its series over time, the mean
 * as a line in a band from lowest to highest, with marks and
 * tooltips. */
static int chart(FILE *out, const struct model *m, const struct html_cols *c,
		 size_t mi, const struct rmsummary *r)
{
	const struct rtimeline *tl = &m->timeline;
	struct chartdata d = {.mt = &m->metrics.m[mi],
			      .span = (double)(c->t1 - c->t0) / 1e9,
			      .t0 = (double)(c->t0 - c->base) / 1e9};
	d.col = calloc(c->n ? c->n : 1, sizeof(*d.col));
	int rc = d.col ? chart_columns(&d, m, c, mi, 0) : MAPS_ENOMEM;
	if (rc)
		goto out;
	y_scale(&d, c);
	chart_head(out, &d, r);
	/* g.yaxis and g.series: for report.js to put a process's series
	 * and its y axis in their place (proc_series) */
	fputs("<g class=\"yaxis\">", out);
	y_axis(out, &d);
	fputs("</g>", out);
	/* g.xaxis and g.plot: for report.js to zoom the chart to a time
	 * range (the plot stretched, the axis drawn anew) */
	fputs("<g class=\"xaxis\">", out);
	x_axis(out, c);
	fputs("</g>", out);
	if (!d.npts) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			     "no values</text>",
			(PX0 + PX1) / 2, (PY0 + PY1) / 2);
	}
	fputs("<g class=\"plot\">", out);
	fputs("<g class=\"series\">", out);
	if ((rc = series(out, c, tl, &d)))
		goto out;
	hover_targets(out, c, tl, &d);
	fputs("</g>", out);
	html_marks_svg(out, c, tl, PX0, PX1, PY0, PY1);
	fputs("</g></svg>\n", out);
	chart_legend(out, d.mt, r);
out:
	free(d.col);
	return rc;
}

static int cmp_mark(const void *a, const void *b)
{
	const struct rtlmark *x = *(const struct rtlmark *const *)a;
	const struct rtlmark *y = *(const struct rtlmark *const *)b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The user marks of the run, in time order. */
static int marks_table(FILE *out, const struct model *m,
		       const struct html_cols *c)
{
	const struct rtimeline *tl = &m->timeline;
	if (!tl->nmarks)
		return 0;
	const struct rtlmark **ord = calloc(tl->nmarks, sizeof(*ord));
	if (!ord)
		return MAPS_ENOMEM;
	fputs("<h3>Marks</h3>\n<table>\n<thead><tr><th class=\"n\">Time"
	      "</th><th class=\"n\">PID</th><th class=\"n\">TID</th>"
	      "<th class=\"n\">Value</th><th>Text</th></tr></thead>\n"
	      "<tbody>\n",
	      out);
	for (size_t i = 0; i < tl->nmarks; i++)
		ord[i] = &tl->marks[i];
	qsort(ord, tl->nmarks, sizeof(*ord), cmp_mark);
	for (size_t i = 0; i < tl->nmarks; i++) {
		const struct rtlmark *k = ord[i];
		char pb[48];
		/* data-tid, data-t (seconds): for report.js to show the
		 * marks of a selection */
		double t = k->ts >= c->base ? (double)(k->ts - c->base) / 1e9
					    : 0.0;
		fprintf(out, "<tr data-pid=\"%u\" data-proc=\"%u\" "
			     "data-tid=\"%u\" data-t=\"%.9f\"><td "
			     "class=\"n\">%.3f s</td><td class=\"n\">%s</td>"
			     "<td class=\"n\">%u</td><td class=\"n\">%" PRIu64
			     "</td><td>",
			model_real_pid(m, k->pid), model_proc_num(m, k->pid),
			k->tid, t, t,
			model_pid_str(m, k->pid, pb, sizeof(pb)), k->tid,
			k->value);
		H(k->text);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(ord);
	if (tl->marks_left_out)
		fprintf(out, "<p class=\"note\">%" PRIu64 " more marks "
			     "not shown.</p>\n",
			tl->marks_left_out);
	return 0;
}

/* A row of the metrics table: metric r's summary. */
static void msum_row(FILE *out, const struct rmsummary *r)
{
	const char *u = r->metric->units;
	char b[UNITS_BUFSZ];
	fputs("<tr><td>", out);
	H(metrics_display_name(r->metric));
	fputs("</td>", out);
	double v[3] = {r->min, r->mean, r->max};
	int have[3] = {r->have_minmax, r->have_mean, r->have_minmax};
	for (int k = 0; k < 3; k++) {
		fputs("<td class=\"n\">", out);
		H(have[k] ? units_format(b, sizeof(b), v[k], u) : "-");
		fputs("</td>", out);
	}
	fputs("<td class=\"n\">", out);
	if (r->rate && r->values) {
		char tu[UNITS_BUFSZ];
		double f = units_undivided(tu, sizeof(tu), u);
		H(units_format(b, sizeof(b), r->total * f, tu));
	} else {
		fputs("-", out);
	}
	fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td>"
		     "<td class=\"n\">%" PRIu64 "</td><td class=\"note\">",
		r->values, r->procs);
	if (r->none)
		fprintf(out, "no value at %" PRIu64 " sample time%s. ", r->none,
			r->none == 1 ? "" : "s");
	if (r->late)
		fprintf(out, "%" PRIu64 " value%s too far out of time "
			     "order for min and max. ",
			r->late, r->late == 1 ? "" : "s");
	if (r->errors)
		fprintf(out, "%" PRIu64 " error%s (see Errors).", r->errors,
			r->errors == 1 ? "" : "s");
	fputs("</td></tr>\n", out);
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

/* The rows of each process with values, for the page's narrowing to a
 * process (narrow.js shows the selected process's): a hidden <tbody>
 * each, data-proc its process number, when there are 2 to MSUM_PROCS
 * processes. */
#define MSUM_PROCS 256
static int msum_procs(FILE *out, const struct model *m)
{
	const struct rmetrics *x = &m->metrics;
	uint32_t *pids = malloc((x->ns ? x->ns : 1) * sizeof(*pids));
	if (!pids)
		return MAPS_ENOMEM;
	size_t n = 0;
	for (size_t k = 0; k < x->ns; k++)
		if (x->s[k].n)
			pids[n++] = x->s[k].pid;
	if (n)
		qsort(pids, n, sizeof(*pids), cmp_u32);
	size_t w = 0;
	for (size_t k = 0; k < n; k++)
		if (!w || pids[w - 1] != pids[k])
			pids[w++] = pids[k];
	for (size_t p = 0; w >= 2 && w <= MSUM_PROCS && p < w; p++) {
		fprintf(out, "<tbody data-proc=\"%u\" hidden>\n",
			model_proc_num(m, pids[p]));
		for (size_t i = 0; i < x->nm; i++) {
			struct rmsummary r;
			metrics_summary_of(x, i, pids[p], &r);
			if (r.values || r.none || r.errors)
				msum_row(out, &r);
		}
		fputs("</tbody>\n", out);
	}
	free(pids);
	return 0;
}

/* The metrics table: a row per metric, and its summaries into sum. */
static int metrics_table(FILE *out, const struct model *m,
			 struct rmsummary *sum)
{
	const struct rmetrics *x = &m->metrics;
	fputs("<table class=\"msum\">\n<thead><tr><th>Metric</th>"
	      "<th class=\"n\">Min</th>"
	      "<th class=\"n\">Mean</th><th class=\"n\">Max</th>"
	      "<th class=\"n\">Total</th><th class=\"n\">Values</th>"
	      "<th class=\"n\">Processes</th><th>Notes</th></tr></thead>\n"
	      "<tbody>\n",
	      out);
	for (size_t i = 0; i < x->nm; i++) {
		metrics_summary(x, i, &sum[i]);
		msum_row(out, &sum[i]);
	}
	fputs("</tbody>\n", out);
	int rc = msum_procs(out, m);
	fputs("</table>\n<p class=\"note\">Mean: each process's mean "
	      "over time, averaged over the processes. Total: for metrics "
	      "divided by sample time, the sum of the values before division, "
	      "in the units before it.</p>\n",
	      out);
	return rc;
}

/* The "Metrics" section: the table, a chart per metric with values,
 * the marks. */
static int metrics_section(FILE *out, const struct model *m,
			   const struct html_cols *c)
{
	const struct rmetrics *x = &m->metrics;
	fputs("<section id=\"metrics\">\n<h2>Metrics</h2>\n", out);
	if (!x->nm) {
		fputs("<p class=\"nodata\">No metric values in the logs.</p>\n"
		      "</section>\n", out);
		return 0;
	}
	struct rmsummary *sum = calloc(x->nm, sizeof(*sum));
	if (!sum)
		return MAPS_ENOMEM;
	/* narrowed on the command line: whose values these are */
	char scope[512];
	if (*model_metrics_scope(m, scope, sizeof(scope))) {
		fputs("<p class=\"note\" id=\"metrics-scope\">Filter: ", out);
		H(scope);
		fputs(".</p>\n", out);
	}
	if (c->ok)
		html_range_note(out, c, "metrics-range");
	int rc = metrics_table(out, m, sum);
	if (!rc && c->ok) {
		fputs("<div class=\"charts\">\n", out);
		for (size_t i = 0; i < x->nm && !rc; i++)
			if (sum[i].values)
				rc = chart(out, m, c, i, &sum[i]);
		fputs("</div>\n", out);
		if (!rc)
			rc = proc_series_all(out, m, c, sum);
	} else if (!rc) {
		fputs("<p class=\"nodata\">No timeline: charts need the log read "
		      "with the timeline on.</p>\n",
		      out);
	}
	free(sum);
	if (!rc)
		rc = marks_table(out, m, c);
	if (!rc)
		fputs("</section>\n", out);
	return rc;
}

int html_chart_section(FILE *out, const struct model *m)
{
	struct html_cols c;
	html_cols_init(&c, m);
	return metrics_section(out, m, &c);
}
