/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_chart: the side-by-side metric charts of mapreport --compare
 * --html (see compare_out.h).  For each metric that both BASE's and
 * NEW's first run recorded, one SVG chart with two lines over time,
 * BASE's and NEW's, both from their run's start (so a phase that takes
 * longer in NEW shows as NEW's line stretched): per timeline bin
 * (model/timeline.h) the mean over the run's processes of their mean in
 * the bin.  No script: the tooltips are <title> elements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/model.h"
#include "report/out/compare_out.h"
#include "report/out/htmlsafe.h"

/* Chart geometry (SVG user units). */
#define CW 800.0
#define CH 190.0
#define PX0 80.0
#define PX1 780.0
#define PY0 10.0
#define PY1 150.0

/* One run's line: seconds from its start and values, n points. */
struct line {
	double *x, *y;
	size_t n;
	double dur;
};

/* The index of metric id in m, or -1. */
static long metric_index(const struct model *m, const char *id)
{
	for (size_t i = 0; i < m->metrics.nm; i++)
		if (strcmp(m->metrics.m[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* The line of metric mi of m into l (l->n 0: no value over time).
 * 0 or MAPS_ENOMEM. */
static int line_of(const struct model *m, size_t mi, struct line *l)
{
	const struct rtimeline *tl = &m->timeline;
	memset(l, 0, sizeof(*l));
	l->dur = model_run_seconds(m);
	struct rtlbin *bins = calloc(TIMELINE_BINS, sizeof(*bins));
	double *sum = calloc(TIMELINE_BINS, sizeof(*sum));
	size_t *cnt = calloc(TIMELINE_BINS, sizeof(*cnt));
	l->x = malloc(TIMELINE_BINS * sizeof(double));
	l->y = malloc(TIMELINE_BINS * sizeof(double));
	int rc = MAPS_ENOMEM;
	if (!bins || !sum || !cnt || !l->x || !l->y)
		goto out;
	for (size_t k = 0; tl->have_range && k < m->metrics.ns; k++) {
		const struct rmseries *ms = &m->metrics.s[k];
		if (ms->metric != mi + 1)
			continue;
		const struct rtlseries *s =
			timeline_series(tl, ms->pid, ms->image, ms->index);
		if (!s)
			continue;
		timeline_series_bins(tl, s, bins);
		for (size_t i = 0; i < TIMELINE_BINS; i++) {
			if (!bins[i].n || !isfinite(bins[i].sum))
				continue;
			sum[i] += bins[i].sum / (double)bins[i].n;
			cnt[i]++;
		}
	}
	double half = (double)timeline_width(tl) / 2;
	for (size_t i = 0; i < TIMELINE_BINS; i++) {
		if (!cnt[i])
			continue;
		double t = ((double)timeline_bin_start(tl, i) + half -
			    (double)m->first_ts) / 1e9;
		l->x[l->n] = t < 0 ? 0 : t;
		l->y[l->n] = sum[i] / (double)cnt[i];
		if (l->x[l->n] > l->dur)
			l->dur = l->x[l->n];
		l->n++;
	}
	rc = 0;
out:
	free(bins);
	free(sum);
	free(cnt);
	return rc;
}

static void line_free(struct line *l)
{
	free(l->x);
	free(l->y);
	memset(l, 0, sizeof(*l));
}

/* Draws line l as an SVG polyline of class cls in the box of x range
 * [0, xmax], y range [ymin, ymax]. */
static void polyline(FILE *out, const struct line *l, const char *cls,
		     double xmax, double ymin, double ymax)
{
	fprintf(out, "<polyline class=\"%s\" fill=\"none\" points=\"", cls);
	for (size_t i = 0; i < l->n; i++) {
		double px = PX0 + (PX1 - PX0) * l->x[i] / xmax;
		double py = PY1 - (PY1 - PY0) * (l->y[i] - ymin) / (ymax - ymin);
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", px, py);
	}
	fprintf(out, "\"/>\n");
}

/* One chart: metric mt, BASE's line b and NEW's line n. */
static void chart(FILE *out, const struct rmetric *mt, const struct line *b,
		  const struct line *n)
{
	double xmax = b->dur > n->dur ? b->dur : n->dur;
	double ymin = 0, ymax = 0;
	const struct line *ls[2] = {b, n};
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < ls[k]->n; i++) {
			if (ls[k]->y[i] < ymin)
				ymin = ls[k]->y[i];
			if (ls[k]->y[i] > ymax)
				ymax = ls[k]->y[i];
		}
	if (!(xmax > 0))
		xmax = 1;
	if (!(ymax > ymin))
		ymax = ymin + 1;
	const char *units = mt->units ? mt->units : "";
	fprintf(out, "<figure class=\"mc\" data-metric=\"");
	htmlsafe_text(out, mt->id);
	fprintf(out, "\" data-base-points=\"%zu\" data-new-points=\"%zu\">"
		     "<figcaption>",
		b->n, n->n);
	htmlsafe_text(out, metrics_display_name(mt));
	if (*units) {
		fprintf(out, " (");
		htmlsafe_text(out, units);
		fprintf(out, ")");
	}
	fprintf(out, "</figcaption>\n<svg viewBox=\"0 0 %.0f %.0f\" "
		     "width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
		CW, CH, CW, CH);
	fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
		     "height=\"%.0f\" fill=\"none\" stroke=\"#ccc\"/>\n",
		PX0, PY0, PX1 - PX0, PY1 - PY0);
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.4g"
		     "</text>\n<text x=\"%.0f\" y=\"%.0f\" "
		     "text-anchor=\"end\">%.4g</text>\n",
		PX0 - 4, PY0 + 10, ymax, PX0 - 4, PY1, ymin);
	for (int k = 0; k <= 4; k++)
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\""
			     "middle\">%.3g s</text>\n",
			PX0 + (PX1 - PX0) * k / 4, PY1 + 16, xmax * k / 4);
	polyline(out, b, "base", xmax, ymin, ymax);
	polyline(out, n, "new", xmax, ymin, ymax);
	fprintf(out, "<title>");
	htmlsafe_text(out, mt->id);
	fprintf(out, ": BASE %zu points over %.3g s, NEW %zu points over "
		     "%.3g s</title>\n</svg></figure>\n",
		b->n, b->dur, n->n, n->dur);
}

int compare_chart_section(FILE *out, const struct model *base,
			  const struct model *new)
{
	size_t shown = 0;
	for (size_t i = 0; i < base->metrics.nm; i++) {
		const struct rmetric *mt = &base->metrics.m[i];
		long j = metric_index(new, mt->id);
		if (j < 0)
			continue;
		struct line b, n;
		if (line_of(base, i, &b)) {
			line_free(&b);
			return MAPS_ENOMEM;
		}
		if (line_of(new, (size_t)j, &n)) {
			line_free(&b);
			line_free(&n);
			return MAPS_ENOMEM;
		}
		if (b.n && n.n) {
			if (!shown++)
				fprintf(out, "<section id=\"metric-charts\">"
					     "<h2>Metrics over time</h2>\n<p>"
					     "From each run's start: "
					     "<span class=\"kb\">BASE</span>"
					     " and <span class=\"kn\">NEW"
					     "</span> (the first run of each "
					     "side).</p>\n");
			chart(out, mt, &b, &n);
		}
		line_free(&b);
		line_free(&n);
	}
	if (shown)
		fprintf(out, "</section>\n");
	return ferror(out) ? MAPS_EIO : 0;
}
