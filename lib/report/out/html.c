/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html: writes the HTML report (see html.h).
 *
 * DESIGN NOTES
 *   The page is written top to bottom in one pass over the model, the
 *   analysis and the timeline: summary, processes and threads, metric
 *   charts, thread activity, flame graph, top functions, errors.  Charts
 *   and activity are SVG made here, so they need no script; the flame
 *   graph is the call tree (report/calltree.h, merged across processes
 *   by function name as --folded is) written as JSON for report.js, with
 *   a static call-tree table in <noscript>.
 *
 *   Safety: every string from a log, a binary or an XML file is written
 *   with htmlsafe_text() (HTML) or htmlsafe_json() (the JSON data); the
 *   only markup written raw is this file's own.  The page's scripts carry
 *   a random nonce that its Content-Security-Policy requires, so even a
 *   <script> that got in would not run, and nothing may be fetched.
 *
 *   Time: charts show CLOCK_MONOTONIC time from the model's first record,
 *   in display columns of one or more timeline bins (at most MAX_COLS).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <mapsample/maps_error.h>

#include "config.h"
#include "report/out/html.h"
#include "report/calltree.h"
#include "report/out/htmlsafe.h"
#include "report/partial_eval.h"
#include "model/units.h"

extern const char html_css[];
extern const char html_js[];

#define MAX_COLS 240          /* display columns of a chart */
#define MAX_THREAD_ROWS 64    /* threads in the activity chart */
#define TREE_ROWS 400         /* rows of the static call tree */
#define FLAME_MIN_SHARE 20000 /* frames under 1/this of samples omitted */

static void oom(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		oom();
	return p;
}

#define H(s) htmlsafe_text(out, s)

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* A percentage cell with a bar. */
static void pct_cell(FILE *out, double p)
{
	if (p < 0)
		p = 0;
	if (p > 100)
		p = 100;
	fprintf(out, "<td class=\"n\">%.2f%%<span class=\"pct\"><span "
		     "style=\"width:%.1f%%\"></span></span></td>",
		p, p);
}

static const char *metric_name(const struct rmetric *mt)
{
	return mt->name && mt->name[0] ? mt->name : mt->id;
}

/* ---- head, summary ---- */

static void head(FILE *out, const struct model *m, const char *nonce,
		 int partials)
{
	const struct rproc *p = model_first_proc(m);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n", out);
	fprintf(out, "<meta http-equiv=\"Content-Security-Policy\" content=\""
		     "default-src 'none'; script-src 'nonce-%s'; "
		     "style-src 'unsafe-inline'; img-src 'self'; "
		     "base-uri 'none'; form-action 'none'\">\n",
		nonce);
	fputs("<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n", out);
	fprintf(out, "<meta name=\"generator\" content=\"mapreport %s\">\n",
		PACKAGE_VERSION);
	fputs("<title>mapsample report", out);
	if (p && p->cmdline) {
		fputs(": ", out);
		H(p->cmdline);
	}
	fputs("</title>\n<style>\n", out);
	fputs(html_css, out);
	fputs("</style>\n</head>\n<body>\n<header><h1>mapsample report</h1>",
	      out);
	if (p && p->cmdline) {
		fputs("<p class=\"cmd\">", out);
		H(p->cmdline);
		fputs("</p>", out);
	}
	fputs("</header>\n<nav><a href=\"#summary\">Summary</a>"
	      "<a href=\"#metrics\">Metrics</a>"
	      "<a href=\"#activity\">Thread activity</a>"
	      "<a href=\"#flame\">Flame graph</a>"
	      "<a href=\"#functions\">Top functions</a>", out);
	if (partials)
		fputs("<a href=\"#partial\">Partial reports</a>", out);
	fputs("<a href=\"#errors\">Errors</a></nav>\n<main>\n", out);
}

static void kv_row(FILE *out, const char *k, const char *v)
{
	fprintf(out, "<tr><th>%s</th><td>", k);
	H(v);
	fputs("</td></tr>\n", out);
}

static void summary(FILE *out, const struct model *m,
		    const struct analysis *a)
{
	const struct rproc *p = model_first_proc(m);
	char b[512];
	fputs("<section id=\"summary\">\n<h2>Run summary</h2>\n"
	      "<table class=\"kv\">\n",
	      out);
	if (p) {
		kv_row(out, "Command", p->cmdline);
		kv_row(out, "Host", p->host);
		time_t t = (time_t)p->wall_sec;
		struct tm tm;
		char when[64] = "?";
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC",
				 &tm);
		kv_row(out, "Start", when);
	}
	snprintf(b, sizeof(b), "%.3f s", model_run_seconds(m));
	kv_row(out, "Duration", b);
	snprintf(b, sizeof(b), "%zu processes, %zu threads", m->nprocs,
		 m->nthreads);
	kv_row(out, "Processes", b);
	snprintf(b, sizeof(b), "%" PRIu64 " samples, %" PRIu64 " dropped",
		 m->samples, m->dropped);
	kv_row(out, "Samples", b);
	if (p) {
		snprintf(b, sizeof(b), "%s, %s, signal %u",
			 model_clock_name(p->clock), model_timer_name(p->timer), p->signal);
		kv_row(out, "Sampling", b);
		snprintf(b, sizeof(b),
			 "asked %" PRIu64 " Hz per thread; achieved %.1f "
			 "samples per second of %s",
			 p->rate_asked, model_rate(m), model_clock_name(p->clock));
		kv_row(out, "Rate", b);
	}
	snprintf(b, sizeof(b), "%d file%s, %" PRIu64 " bytes, %" PRIu64
			       " records",
		 m->files, m->files == 1 ? "" : "s", m->bytes, m->records);
	kv_row(out, "Logs", b);
	fputs("</table>\n", out);
	char line[1024];
	for (size_t i = 0; i < m->nnotes; i++) {
		fputs("<p class=\"note warn\">", out);
		H(model_note_str(&m->notes[i], line, sizeof(line)));
		fputs("</p>\n", out);
	}
	const char *const *lines;
	size_t np = sym_problems(a->st, &lines);
	for (size_t i = 0; i < np; i++) {
		fputs("<p class=\"note\">", out);
		H(lines[i]);
		fputs("</p>\n", out);
	}

	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	fputs("<h3>Processes</h3>\n<table>\n<thead><tr><th class=\"n\">PID"
	      "</th><th class=\"n\">Image</th><th class=\"n\">Samples</th>"
	      "<th class=\"n\">%</th><th>Exit</th><th>Command</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *q = &m->procs[i];
		fprintf(out, "<tr><td class=\"n\">%u</td><td class=\"n\">%u"
			     "</td><td class=\"n\">%" PRIu64 "</td>",
			q->pid, q->image, q->samples);
		pct_cell(out, pct(q->samples, m->samples));
		if (q->exited)
			fprintf(out, "<td>%s %d</td>",
				q->exit_how == MAPLOG_EXIT_SIGNALED ? "signal"
								    : "status",
				q->exit_code);
		else
			fputs("<td>-</td>", out);
		fputs("<td class=\"f\">", out);
		H(q->cmdline ? q->cmdline : "(no initialize record)");
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);

	fprintf(out, "<h3>Threads</h3>\n<table>\n<thead><tr><th class=\"n\">"
		     "PID</th><th class=\"n\">Image</th><th class=\"n\">TID"
		     "</th><th>Name</th><th class=\"n\">Samples</th>"
		     "<th class=\"n\">%%</th><th class=\"n\">%s</th>"
		     "<th class=\"n\">Rate</th></tr></thead>\n<tbody>\n",
		wall ? "Wall s" : "CPU s");
	int unended = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		double secs = model_thread_seconds(t, wall);
		fprintf(out, "<tr><td class=\"n\">%u</td><td class=\"n\">%u"
			     "</td><td class=\"n\">%u</td><td>",
			t->pid, t->image, t->tid);
		H(t->name ? t->name : "-");
		fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td>",
			t->samples);
		pct_cell(out, pct(t->samples, m->samples));
		fprintf(out, "<td class=\"n\">%.3f</td><td class=\"n\">%.1f%s"
			     "</td></tr>\n",
			secs, secs > 0 ? (double)t->samples / secs : 0.0,
			t->ended ? "" : " *");
		unended |= !t->ended;
	}
	fputs("</tbody>\n</table>\n", out);
	if (unended)
		fputs("<p class=\"note\">* no end recorded (killed?): time "
		      "from its samples' weights</p>\n",
		      out);
	fputs("</section>\n", out);
}

/* ---- time axis ---- */

struct cols {
	long b0;          /* first timeline bin shown */
	size_t per;       /* bins per column */
	size_t n;         /* columns */
	uint64_t t0, t1;  /* time range of the x axis */
	int ok;           /* a timeline with a range */
};

static void cols_init(struct cols *c, const struct model *m)
{
	const struct rtimeline *tl = &m->timeline;
	memset(c, 0, sizeof(*c));
	if (!tl->have_range || m->first_ts == UINT64_MAX)
		return;
	c->t0 = m->first_ts;
	c->t1 = m->last_ts > m->first_ts ? m->last_ts : m->first_ts + 1000000;
	long b0 = timeline_bin_of(tl, c->t0), b1 = timeline_bin_of(tl, c->t1);
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

/* Start and end time of column k. */
static void col_range(const struct cols *c, const struct rtimeline *tl,
		      size_t k, double *s, double *e)
{
	int64_t a = timeline_bin_start(tl, (size_t)c->b0 + k * c->per);
	*s = (double)(a - (int64_t)c->t0) / 1e9;
	*e = *s + (double)(timeline_width(tl) * c->per) / 1e9;
}

/* Chart geometry (SVG user units). */
#define CW 800.0
#define CH 180.0
#define PX0 74.0
#define PX1 790.0
#define PY0 10.0
#define PY1 150.0

static double x_of(const struct cols *c, double sec)
{
	double span = (double)(c->t1 - c->t0) / 1e9;
	double f = span > 0 ? sec / span : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return PX0 + f * (PX1 - PX0);
}

/* A "nice" step near range/ticks: 1, 2 or 5 times a power of ten, or
 * for byte units (whose prefixes are powers of 1024) a power of two. */
static double nice_step(double range, int ticks, int iec)
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

static void x_axis(FILE *out, const struct cols *c, const struct rtimeline *tl)
{
	double span = (double)(c->t1 - c->t0) / 1e9;
	double st = nice_step(span, 8, 0);
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\"/>",
		PX0, PY1, PX1, PY1);
	for (double s = 0; s <= span * 1.0001 && st > 0; s += st) {
		double x = x_of(c, s);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), s, "s");
		fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"middle\">",
			x, PY1, x, PY1 + 4, x, PY1 + 16);
		H(b);
		fputs("</text>", out);
	}
	(void)tl;
}

static void marks_svg(FILE *out, const struct cols *c, const struct rtimeline *tl,
		      double y0, double y1)
{
	for (size_t i = 0; i < tl->nmarks; i++) {
		const struct rtlmark *k = &tl->marks[i];
		if (k->ts < c->t0 || k->ts > c->t1)
			continue;
		double x = x_of(c, (double)(k->ts - c->t0) / 1e9);
		fprintf(out, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"><title>mark at %.3f s: ",
			x, y0, x, y1, (double)(k->ts - c->t0) / 1e9);
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

struct mcol {
	uint64_t procs;          /* series with values here */
	double sum_means;
	double lo_p, hi_p;       /* of the series' means */
	double lo_v, hi_v;       /* of all values */
};

static void chart(FILE *out, const struct model *m, const struct cols *c,
		  size_t mi, const struct rmsummary *r)
{
	const struct rtimeline *tl = &m->timeline;
	const struct rmetrics *x = &m->metrics;
	const struct rmetric *mt = &x->m[mi];
	struct mcol *col = xcalloc(c->n, sizeof(*col));
	struct rtlbin *bins = xcalloc(TIMELINE_BINS, sizeof(*bins));
	size_t nseries = 0;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *ms = &x->s[k];
		if (ms->metric != mi + 1)
			continue;
		const struct rtlseries *s = timeline_series(tl, ms->pid,
							    ms->image, ms->index);
		if (!s)
			continue;
		timeline_series_bins(tl, s, bins);
		int any = 0;
		for (size_t j = 0; j < c->n; j++) {
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
			if (!agg.n)
				continue;
			any = 1;
			double mean = agg.sum / (double)agg.n;
			struct mcol *o = &col[j];
			if (!o->procs || mean < o->lo_p)
				o->lo_p = mean;
			if (!o->procs || mean > o->hi_p)
				o->hi_p = mean;
			if (!o->procs || agg.min < o->lo_v)
				o->lo_v = agg.min;
			if (!o->procs || agg.max > o->hi_v)
				o->hi_v = agg.max;
			o->sum_means += mean;
			o->procs++;
		}
		nseries += (size_t)any;
	}
	free(bins);
	int per_proc = nseries > 1;
	double ymin = 0, ymax = 0;
	size_t npts = 0;
	for (size_t j = 0; j < c->n; j++) {
		struct mcol *o = &col[j];
		if (!o->procs)
			continue;
		double lo = per_proc ? o->lo_p : o->lo_v;
		double hi = per_proc ? o->hi_p : o->hi_v;
		if (!npts || lo < ymin)
			ymin = lo;
		if (!npts || hi > ymax)
			ymax = hi;
		npts++;
	}
	if (ymin > 0)
		ymin = 0;
	int iec = units_iec(mt->units);
	double step = nice_step(ymax - ymin, 4, iec);
	double top = ymin + ceil((ymax - ymin) / step) * step;
	if (!(top > ymin))
		top = ymin + step;
	double bot = ymin < 0 ? floor(ymin / step) * step : 0;

	fputs("<figure class=\"chart\" data-metric=\"", out);
	H(mt->id);
	fputs("\"><figcaption>", out);
	H(metric_name(mt));
	if (mt->units && mt->units[0]) {
		fputs(" <span class=\"u\">(", out);
		H(mt->units);
		fputs(")</span>", out);
	}
	fputs("</figcaption>\n<div class=\"legend\">", out);
	if (per_proc)
		fprintf(out, "%zu processes: line = mean of the processes, "
			     "band = lowest to highest process", nseries);
	else
		fputs("line = mean, band = lowest to highest value in each "
		      "interval", out);
	if (r->rate)
		fputs("; per second (divided by sample time)", out);
	fputs("</div>\n", out);
	fprintf(out, "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		     "aria-label=\"",
		CW, CH);
	H(metric_name(mt));
	fputs(" over time\">", out);
	/* y grid and labels */
	for (double v = bot; v <= top + step / 2; v += step) {
		double y = PY1 - (v - bot) / (top - bot) * (PY1 - PY0);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), fabs(v) < step / 1e6 ? 0 : v,
			     mt->units);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"end\">",
			PX0, y, PX1, y, PX0 - 4, y + 4);
		H(b);
		fputs("</text>", out);
	}
	x_axis(out, c, tl);
	if (!npts) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			     "no values</text>",
			(PX0 + PX1) / 2, (PY0 + PY1) / 2);
	}
#define YV(v) (PY1 - ((v) - bot) / (top - bot) * (PY1 - PY0))
	/* the columns with values, drawn in segments: a gap much longer
	 * than the usual spacing (a process that started late, a pause in
	 * the metric) is left open rather than bridged by a line */
	size_t *idx = xcalloc(npts, sizeof(*idx)), *gap = xcalloc(npts, sizeof(*gap));
	size_t k = 0;
	for (size_t j = 0; j < c->n; j++)
		if (col[j].procs)
			idx[k++] = j;
	for (k = 1; k < npts; k++)
		gap[k - 1] = idx[k] - idx[k - 1];
	size_t limit = 2;
	if (npts > 1) {
		qsort(gap, npts - 1, sizeof(*gap), cmp_size);
		if (4 * gap[(npts - 1) / 2] > limit)
			limit = 4 * gap[(npts - 1) / 2];
	}
	for (size_t a = 0, b; a < npts; a = b) {
		for (b = a + 1; b < npts && idx[b] - idx[b - 1] <= limit; b++)
			;
		double t[2];
		if (b - a == 1) {
			const struct mcol *o = &col[idx[a]];
			col_range(c, tl, idx[a], &t[0], &t[1]);
			double xm = x_of(c, (t[0] + t[1]) / 2);
			fprintf(out, "<line class=\"mean\" x1=\"%.1f\" "
				     "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				     "<circle class=\"dot\" cx=\"%.1f\" "
				     "cy=\"%.1f\" r=\"2.5\"/>",
				xm, YV(per_proc ? o->lo_p : o->lo_v), xm,
				YV(per_proc ? o->hi_p : o->hi_v), xm,
				YV(o->sum_means / (double)o->procs));
			continue;
		}
		/* band: upper edge forwards, lower edge back */
		fputs("<polygon class=\"band\" points=\"", out);
		for (size_t i = a; i < b; i++) {
			const struct mcol *o = &col[idx[i]];
			col_range(c, tl, idx[i], &t[0], &t[1]);
			fprintf(out, "%.1f,%.1f ", x_of(c, (t[0] + t[1]) / 2),
				YV(per_proc ? o->hi_p : o->hi_v));
		}
		for (size_t i = b; i-- > a;) {
			const struct mcol *o = &col[idx[i]];
			col_range(c, tl, idx[i], &t[0], &t[1]);
			fprintf(out, "%.1f,%.1f ", x_of(c, (t[0] + t[1]) / 2),
				YV(per_proc ? o->lo_p : o->lo_v));
		}
		fputs("\"/><polyline class=\"mean\" points=\"", out);
		for (size_t i = a; i < b; i++) {
			const struct mcol *o = &col[idx[i]];
			col_range(c, tl, idx[i], &t[0], &t[1]);
			fprintf(out, "%.1f,%.1f ", x_of(c, (t[0] + t[1]) / 2),
				YV(o->sum_means / (double)o->procs));
		}
		fputs("\"/>", out);
	}
	free(idx);
	free(gap);
	marks_svg(out, c, tl, PY0, PY1);
	/* hover targets: a tooltip per column with values */
	double cwid = (PX1 - PX0) / (double)(c->n ? c->n : 1);
	for (size_t j = 0; j < c->n; j++) {
		const struct mcol *o = &col[j];
		if (!o->procs)
			continue;
		double s, e;
		col_range(c, tl, j, &s, &e);
		double x0 = x_of(c, s), x1 = x_of(c, e);
		if (x1 - x0 < cwid)
			x1 = x0 + cwid;
		char lo[UNITS_BUFSZ], mean[UNITS_BUFSZ], hi[UNITS_BUFSZ];
		units_format(lo, sizeof(lo), per_proc ? o->lo_p : o->lo_v,
			     mt->units);
		units_format(mean, sizeof(mean), o->sum_means / (double)o->procs,
			     mt->units);
		units_format(hi, sizeof(hi), per_proc ? o->hi_p : o->hi_v,
			     mt->units);
		fprintf(out, "<rect class=\"hit\" x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.1f\" height=\"%.1f\"><title>%.3f-%.3f s: "
			     "mean ",
			x0, PY0, x1 - x0, PY1 - PY0, s, e);
		H(mean);
		fputs(", min ", out);
		H(lo);
		fputs(", max ", out);
		H(hi);
		if (per_proc)
			fprintf(out, " (%" PRIu64 " processes)", o->procs);
		fputs("</title></rect>", out);
	}
#undef YV
	fputs("</svg>\n", out);
	/* the row of the metrics table, under the chart */
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
	free(col);
}

static int cmp_mark(const void *a, const void *b)
{
	const struct rtlmark *x = *(const struct rtlmark *const *)a;
	const struct rtlmark *y = *(const struct rtlmark *const *)b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void metrics_section(FILE *out, const struct model *m,
			    const struct cols *c)
{
	const struct rmetrics *x = &m->metrics;
	fputs("<section id=\"metrics\">\n<h2>Metrics</h2>\n", out);
	if (!x->nm) {
		fputs("<p class=\"nodata\">No metric values in the logs.</p>\n"
		      "</section>\n", out);
		return;
	}
	struct rmsummary *sum = xcalloc(x->nm, sizeof(*sum));
	fputs("<table>\n<thead><tr><th>Metric</th><th class=\"n\">Min</th>"
	      "<th class=\"n\">Mean</th><th class=\"n\">Max</th>"
	      "<th class=\"n\">Total</th><th class=\"n\">Values</th>"
	      "<th class=\"n\">Processes</th><th>Notes</th></tr></thead>\n"
	      "<tbody>\n",
	      out);
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary *r = &sum[i];
		metrics_summary(x, i, r);
		const char *u = r->metric->units;
		char b[UNITS_BUFSZ];
		fputs("<tr><td>", out);
		H(metric_name(r->metric));
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
			fprintf(out, "no value at %" PRIu64 " sample time%s. ",
				r->none, r->none == 1 ? "" : "s");
		if (r->late)
			fprintf(out, "%" PRIu64 " value%s too far out of time "
				     "order for min and max. ",
				r->late, r->late == 1 ? "" : "s");
		if (r->errors)
			fprintf(out, "%" PRIu64 " error%s (see Errors).",
				r->errors, r->errors == 1 ? "" : "s");
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n<p class=\"note\">Mean: each process's mean "
	      "over time, averaged over the processes. Total: for metrics "
	      "divided by sample time, the sum of the values before division, "
	      "in the units before it.</p>\n",
	      out);
	if (c->ok) {
		fputs("<div class=\"charts\">\n", out);
		for (size_t i = 0; i < x->nm; i++)
			if (sum[i].values)
				chart(out, m, c, i, &sum[i]);
		fputs("</div>\n", out);
	} else {
		fputs("<p class=\"nodata\">No timeline: charts need the log read "
		      "with the timeline on.</p>\n",
		      out);
	}
	const struct rtimeline *tl = &m->timeline;
	if (tl->nmarks) {
		fputs("<h3>Marks</h3>\n<table>\n<thead><tr><th class=\"n\">Time"
		      "</th><th class=\"n\">PID</th><th class=\"n\">TID</th>"
		      "<th class=\"n\">Value</th><th>Text</th></tr></thead>\n"
		      "<tbody>\n",
		      out);
		const struct rtlmark **ord = xcalloc(tl->nmarks, sizeof(*ord));
		for (size_t i = 0; i < tl->nmarks; i++)
			ord[i] = &tl->marks[i];
		qsort(ord, tl->nmarks, sizeof(*ord), cmp_mark);
		for (size_t i = 0; i < tl->nmarks; i++) {
			const struct rtlmark *k = ord[i];
			fprintf(out, "<tr><td class=\"n\">%.3f s</td><td "
				     "class=\"n\">%u</td><td class=\"n\">%u</td>"
				     "<td class=\"n\">%" PRIu64 "</td><td>",
				k->ts >= c->t0 ? (double)(k->ts - c->t0) / 1e9
					       : 0.0,
				k->pid, k->tid, k->value);
			H(k->text);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
		free(ord);
		if (tl->marks_left_out)
			fprintf(out, "<p class=\"note\">%" PRIu64 " more marks "
				     "not shown.</p>\n",
				tl->marks_left_out);
	}
	fputs("</section>\n", out);
	free(sum);
}

/* ---- thread activity ---- */

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

static void activity(FILE *out, const struct model *m, const struct cols *c)
{
	const struct rtimeline *tl = &m->timeline;
	fputs("<section id=\"activity\">\n<h2>Thread activity</h2>\n", out);
	if (!c->ok || !m->nthreads || !m->samples) {
		fputs("<p class=\"nodata\">No samples over time.</p>\n"
		      "</section>\n", out);
		return;
	}
	size_t *ord = xcalloc(m->nthreads, sizeof(*ord));
	size_t n = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].samples)
			ord[n++] = i;
	size_t shown = n;
	if (shown > MAX_THREAD_ROWS) {
		sort_threads = m->threads;
		qsort(ord, n, sizeof(*ord), cmp_thread_samples);
		shown = MAX_THREAD_ROWS;
		qsort(ord, shown, sizeof(*ord), cmp_index);
	}
	/* cells: samples per thread per column */
	uint64_t *cell = xcalloc(shown * c->n, sizeof(*cell));
	uint64_t vmax = 0;
	for (size_t r = 0; r < shown; r++) {
		const struct rthread *t = &m->threads[ord[r]];
		const struct rtlthread *tt = timeline_thread(tl, t->pid,
							     t->image, t->tid);
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
	const double LX = 190.0, ROWH = 16.0, W = 1000.0;
	double h = (double)shown * ROWH + 28.0;
	fputs("<div class=\"legend\">Samples per thread over time; darker is "
	      "more samples (the darkest cell holds ", out);
	fprintf(out, "%" PRIu64 ").", vmax);
	if (shown < n)
		fprintf(out, " The %zu threads with the most samples of %zu.",
			shown, n);
	fputs("</div>\n", out);
	fprintf(out, "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		     "aria-label=\"samples per thread over time\">",
		W, h);
	double span = (double)(c->t1 - c->t0) / 1e9;
	double cw = (W - 10 - LX) / (double)c->n;
	for (size_t r = 0; r < shown; r++) {
		const struct rthread *t = &m->threads[ord[r]];
		double y = (double)r * ROWH;
		fprintf(out, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.1f\" height=\"%.1f\"/>",
			LX, y + 1, W - 10 - LX, ROWH - 2);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
			     "%u/%u ",
			LX - 6, y + ROWH - 4, t->pid, t->tid);
		char nm[40];
		snprintf(nm, sizeof(nm), "%.24s", t->name ? t->name : "");
		H(nm);
		fputs("</text>", out);
		for (size_t j = 0; j < c->n; j++) {
			uint64_t v = cell[r * c->n + j];
			if (!v)
				continue;
			double s, e;
			col_range(c, tl, j, &s, &e);
			double op = 0.12 + 0.88 * (double)v / (double)vmax;
			fprintf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" "
				     "width=\"%.2f\" height=\"%.1f\" "
				     "fill-opacity=\"%.2f\"><title>%u/%u, "
				     "%.3f-%.3f s: %" PRIu64 " samples</title>"
				     "</rect>",
				LX + (double)j * cw, y + 1, cw + 0.05, ROWH - 2,
				op, t->pid, t->tid, s, e, v);
		}
	}
	double ya = (double)shown * ROWH + 2;
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		     "y2=\"%.1f\"/>",
		LX, ya, W - 10, ya);
	double st = nice_step(span, 8, 0);
	for (double s = 0; s <= span * 1.0001 && st > 0; s += st) {
		double xx = LX + (span > 0 ? s / span : 0) * (W - 10 - LX);
		char b[UNITS_BUFSZ];
		units_format(b, sizeof(b), s, "s");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			xx, ya + 16);
		H(b);
		fputs("</text>", out);
	}
	fputs("</svg>\n</section>\n", out);
	free(cell);
	free(ord);
}

/* ---- flame graph ---- */

struct flame_emit {
	FILE *out;
	uint32_t *remap;   /* name -> index in the page's names + 1 */
	uint32_t nnames;
	size_t nodes;
	int pass;          /* 0: collect names, 1: write nodes */
};

static int flame_visit(const struct calltree *t, uint32_t i, void *arg)
{
	struct flame_emit *e = arg;
	const struct calltree_node *f = &t->ct_nodes[i];
	if (e->pass == 0) {
		if (!e->remap[f->cn_name])
			e->remap[f->cn_name] = ++e->nnames;
		e->nodes++;
		return 0;
	}
	fprintf(e->out, "%s%u,%" PRIu64 ",%u", e->nodes++ ? "," : "",
		e->remap[f->cn_name] - 1, f->cn_value, f->cn_depth);
	if (e->nodes % 16 == 0)
		fputc('\n', e->out);
	return 0;
}

struct tree_rows {
	FILE *out;
	uint64_t total;
	size_t rows;
};

static int tree_row(const struct calltree *t, uint32_t i, void *arg)
{
	struct tree_rows *r = arg;
	if (r->rows++ >= TREE_ROWS)
		return 0;
	const struct calltree_node *f = &t->ct_nodes[i];
	unsigned ind = f->cn_depth < 60 ? f->cn_depth : 60;
	fprintf(r->out, "<tr><td class=\"f\" style=\"padding-left:%upx\">",
		ind * 12);
	htmlsafe_text(r->out, t->ct_names[f->cn_name]);
	fprintf(r->out, "</td><td class=\"n\">%" PRIu64 "</td>", f->cn_value);
	pct_cell(r->out, pct(f->cn_value, r->total));
	fputs("</tr>\n", r->out);
	return 0;
}

static void flame(FILE *out, const struct model *m, const struct calltree *t)
{
	fputs("<section id=\"flame\">\n<h2>Flame graph</h2>\n", out);
	if (!m->samples) {
		fputs("<p class=\"nodata\">No samples.</p>\n</section>\n", out);
		return;
	}
	uint64_t total = t->ct_nodes[0].cn_value;
	uint64_t min = total / FLAME_MIN_SHARE;
	if (min < 1)
		min = 1;
	fputs("<p class=\"note\">All processes' stacks merged by function "
	      "name, callers above callees; a frame's width is its share of "
	      "samples. Click a frame to zoom in, again to zoom out; search "
	      "takes text or /regex/.</p>\n"
	      "<div id=\"fg-controls\" hidden><input id=\"fg-search\" "
	      "type=\"search\" placeholder=\"Search functions\" "
	      "aria-label=\"Search functions\"><button id=\"fg-reset\" "
	      "type=\"button\">Reset zoom</button><span id=\"fg-status\">"
	      "</span></div>\n<div id=\"fg-detail\"></div>\n"
	      "<div id=\"fg\" hidden></div>\n",
	      out);
	/* static call tree for readers without JavaScript */
	fputs("<noscript><p class=\"note\">JavaScript is off: the call tree "
	      "instead (frames with at least 1% of samples).</p>\n"
	      "<table class=\"tree\">\n<thead><tr><th>Function</th>"
	      "<th class=\"n\">Samples</th><th class=\"n\">%</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	struct tree_rows tr = {out, total, 0};
	uint64_t pmin = (total + 99) / 100;
	calltree_walk(t, pmin ? pmin : 1, tree_row, &tr);
	fputs("</tbody>\n</table>\n", out);
	if (tr.rows > TREE_ROWS)
		fprintf(out, "<p class=\"note\">%zu more rows not shown.</p>\n",
			tr.rows - TREE_ROWS);
	fputs("</noscript>\n", out);

	struct flame_emit e = {out, xcalloc(t->ct_nnames, sizeof(uint32_t)), 0,
			       0, 0};
	calltree_walk(t, min, flame_visit, &e);
	size_t kept = e.nodes;
	const char **page = xcalloc(e.nnames, sizeof(*page));
	for (size_t i = 0; i < t->ct_nnames; i++)
		if (e.remap[i])
			page[e.remap[i] - 1] = t->ct_names[i];
	fprintf(out, "<script type=\"application/json\" id=\"fg-data\">\n"
		     "{\"total\":%" PRIu64 ",\"names\":[",
		total);
	for (uint32_t i = 0; i < e.nnames; i++) {
		if (i)
			fputs(i % 8 ? "," : ",\n", out);
		htmlsafe_json(out, page[i]);
	}
	fputs("],\n\"nodes\":[", out);
	e.pass = 1;
	e.nodes = 0;
	calltree_walk(t, min, flame_visit, &e);
	fputs("]}\n</script>\n", out);
	if (kept < t->ct_n)
		fprintf(out, "<p class=\"note\">%zu of %zu frames, each under "
			     "1/%d of the samples, left out of the graph.</p>\n",
			t->ct_n - kept, t->ct_n, FLAME_MIN_SHARE);
	fputs("</section>\n", out);
	free(page);
	free(e.remap);
}

/* ---- top functions ---- */

static void func_table(FILE *out, const struct analysis *a,
		       const struct model *m, unsigned top, int by_total)
{
	const uint32_t *ord = by_total ? a->top_total : a->top_self;
	size_t n = by_total ? a->ntop_total : a->ntop_self;
	fprintf(out, "<h3>By %s samples</h3>\n<table>\n<thead><tr>"
		     "<th class=\"n\">Self</th><th class=\"n\">Self %%</th>"
		     "<th class=\"n\">Total</th><th class=\"n\">Total %%</th>"
		     "<th>Function</th><th>Location</th></tr></thead>\n"
		     "<tbody>\n",
		by_total ? "total" : "self");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct rfunc *f = &a->funcs[ord[i]];
		fprintf(out, "<tr><td class=\"n\">%" PRIu64 "</td>", f->self);
		pct_cell(out, pct(f->self, m->samples));
		fprintf(out, "<td class=\"n\">%" PRIu64 "</td>", f->total);
		pct_cell(out, pct(f->total, m->samples));
		fputs("<td class=\"f\">", out);
		H(f->name);
		fputs("</td><td class=\"loc\">", out);
		if (f->file) {
			fputs("<span title=\"", out);
			H(f->file);
			fputs("\">", out);
			const char *b = strrchr(f->file, '/');
			H(b ? b + 1 : f->file);
			fprintf(out, ":%d</span> ", f->line);
		}
		fputs("(", out);
		H(f->module);
		fputs(")</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void functions(FILE *out, const struct analysis *a,
		      const struct model *m, unsigned top)
{
	fputs("<section id=\"functions\">\n<h2>Top functions</h2>\n", out);
	if (!m->samples || !top) {
		fputs("<p class=\"nodata\">No samples.</p>\n</section>\n", out);
		return;
	}
	fputs("<p class=\"note\">Self: samples in the function itself; total: "
	      "samples with the function anywhere on the stack. Location: the "
	      "function's hottest source line.</p>\n",
	      out);
	func_table(out, a, m, top, 0);
	func_table(out, a, m, top, 1);
	fputs("</section>\n", out);
}

/* ---- partial reports ---- */

/* The CSS of a partial report colour, or NULL when it has none (or one
 * that is not a plain colour after all). */
static const char *colour_css(const struct partial_colour *c, char *buf,
			      size_t len)
{
	if (!c->pc_css[0] || htmlsafe_colour(c->pc_css, buf, len))
		return NULL;
	return buf;
}

static void partial_entries(FILE *out, const struct partial_subsection *ss)
{
	if (!ss->ss_nentries)
		return;
	fputs("<table class=\"entries\">\n<tbody>\n", out);
	for (size_t k = 0; k < ss->ss_nentries; k++) {
		const struct partial_entry *en = &ss->ss_entries[k];
		char cb[32];
		const char *col = colour_css(&en->en_colour, cb, sizeof(cb));
		/* the colour as a swatch: text in it could be unreadable
		 * (white, say) */
		fputs("<tr><td>", out);
		if (col)
			fprintf(out, "<span class=\"sw\" style=\"background:%s\">"
				     "</span>", col);
		H(en->en_name && en->en_name[0] ? en->en_name : en->en_id);
		fprintf(out, "</td><td class=\"n%s\">",
			en->en_state == PARTIAL_VALUE ? "" : " nodata");
		H(en->en_scaled);
		fputs("</td><td>", out);
		if (en->en_bar >= 0 && en->en_state == PARTIAL_VALUE) {
			double w = en->en_bar > 1 ? 1 : en->en_bar;
			fprintf(out, "<span class=\"cmpbox\" title=\"");
			H(en->en_group ? en->en_group : "");
			fprintf(out, ": %.0f%% of the largest\"><span "
				     "class=\"cmp\" style=\"width:%.1f%%;"
				     "background:%s\"></span></span>",
				w * 100, w * 100, col ? col : "#2f6fb2");
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void partials(FILE *out, const struct partial_result *r)
{
	if (!r || !r->rs_nreports)
		return;
	fputs("<section id=\"partial\">\n<h2>Partial reports</h2>\n", out);
	for (size_t i = 0; i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		fputs("<div class=\"preport\" data-report=\"", out);
		H(pr->pr_name);
		fputs("\"><p class=\"note\">", out);
		H(pr->pr_name);
		fputs(" (", out);
		H(pr->pr_file);
		fputs(")</p>\n", out);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			const struct partial_subsection *ss =
				&pr->pr_subsections[j];
			char cb[32];
			const char *col = colour_css(&ss->ss_colour, cb,
						     sizeof(cb));
			fputs("<div class=\"partial\" data-subsection=\"", out);
			H(ss->ss_id);
			fputs("\"", out);
			if (col)
				fprintf(out, " style=\"border-left-color:%s\"",
					col);
			fputs("><h3", out);
			if (col)
				fprintf(out, " style=\"color:%s\"", col);
			fputs(">", out);
			H(ss->ss_heading);
			fputs("</h3>\n", out);
			if (ss->ss_text) {
				char *t = htmlsafe_sanitize(ss->ss_text);
				if (!t)
					oom();
				fputs("<div class=\"ptext\">", out);
				fputs(t, out);
				fputs("</div>\n", out);
				free(t);
			}
			partial_entries(out, ss);
			fputs("</div>\n", out);
		}
		fputs("</div>\n", out);
	}
	fputs("</section>\n", out);
}

/* ---- errors ---- */

static void errors(FILE *out, const struct model *m,
		   const struct partial_set *ps)
{
	const struct rmetrics *x = &m->metrics;
	fputs("<section id=\"errors\">\n<h2>Errors</h2>\n",
	      out);
	int any = 0;
	if (x->npe) {
		any = 1;
		fputs("<h3>Metric plugins</h3>\n<table>\n<thead><tr><th>Plugin"
		      "</th><th>Message</th><th class=\"n\">Processes</th></tr>"
		      "</thead>\n<tbody>\n",
		      out);
		for (size_t i = 0; i < x->npe; i++) {
			fputs("<tr><td class=\"f\">", out);
			H(x->pe[i].plugin);
			fputs("</td><td>", out);
			H(x->pe[i].message);
			fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td></tr>\n",
				x->pe[i].count);
		}
		fputs("</tbody>\n</table>\n", out);
	}
	int head_done = 0;
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary r;
		metrics_summary(x, i, &r);
		if (!r.errors)
			continue;
		if (!head_done) {
			fputs("<h3>Metrics</h3>\n<table>\n<thead><tr><th>Metric"
			      "</th><th class=\"n\">Errors</th><th>First "
			      "message</th></tr></thead>\n<tbody>\n",
			      out);
			head_done = any = 1;
		}
		fputs("<tr><td>", out);
		H(metric_name(r.metric));
		fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td><td>",
			r.errors);
		H(r.err_msg ? r.err_msg : "");
		fputs("</td></tr>\n", out);
	}
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (s->metric || !s->errors)
			continue;
		if (!head_done) {
			fputs("<h3>Metrics</h3>\n<table>\n<thead><tr><th>Metric"
			      "</th><th class=\"n\">Errors</th><th>First "
			      "message</th></tr></thead>\n<tbody>\n",
			      out);
			head_done = any = 1;
		}
		fprintf(out, "<tr><td>metric #%u of process %u (no definition)"
			     "</td><td class=\"n\">%" PRIu64 "</td><td>",
			s->index, s->pid, s->errors);
		H(s->err_msg ? s->err_msg : "");
		fputs("</td></tr>\n", out);
	}
	if (head_done)
		fputs("</tbody>\n</table>\n", out);
	if (ps && ps->ps_ndiags) {
		any = 1;
		fputs("<h3>Partial report definitions</h3>\n", out);
		for (size_t i = 0; i < ps->ps_ndiags; i++) {
			const struct partial_diag *d = &ps->ps_diags[i];
			fprintf(out, "<p class=\"note%s\">",
				d->pd_severity == PARTIAL_ERROR ? " warn" : "");
			H(d->pd_text);
			fputs("</p>\n", out);
		}
		for (size_t i = 0; i < ps->ps_nfiles; i++) {
			const struct partial_file *f = &ps->ps_files[i];
			if (!f->pf_nerrors)
				continue;
			fputs("<p class=\"note warn\">", out);
			H(f->pf_path);
			fprintf(out, ": left out (%u error%s)</p>\n",
				f->pf_nerrors, f->pf_nerrors == 1 ? "" : "s");
		}
	}
	if (!any)
		fputs("<p class=\"nodata\">None.</p>\n", out);
	fputs("</section>\n", out);
}

/* A nonce for the page's scripts: 128 random bits in hex. */
static void make_nonce(char *buf, size_t len)
{
	unsigned char r[16];
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t v = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
			     (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)buf;
		for (size_t i = 0; i < sizeof(r); i++) {
			v = v * 6364136223846793005ull + 1442695040888963407ull;
			r[i] = (unsigned char)(v >> 56);
		}
	}
	for (size_t i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

int html_emit(const struct output_in *in, FILE *out)
{
	const struct model *m = in->oi_model;
	const struct analysis *a = in->oi_analysis;
	char nonce[40] = "";
	make_nonce(nonce, sizeof(nonce));
	struct cols c;
	cols_init(&c, m);
	const struct partial_result *pr = in->oi_partial;
	head(out, m, nonce, pr && pr->rs_nreports);
	summary(out, m, a);
	metrics_section(out, m, &c);
	activity(out, m, &c);
	flame(out, m, in->oi_calltree);
	functions(out, a, m, in->oi_top);
	partials(out, pr);
	errors(out, m, in->oi_partial_set);
	fprintf(out, "</main>\n<footer>Written by mapreport %s. One file: "
		     "nothing in it is loaded from elsewhere.</footer>\n",
		PACKAGE_VERSION);
	fprintf(out, "<script nonce=\"%s\">\n", nonce);
	fputs(html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	fflush(out);
	return ferror(out) ? MAPS_EIO : 0;
}
