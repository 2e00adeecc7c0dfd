/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_msel: the data behind the HTML page's metrics table in a
 * selection (see html_i.h), as the JSON element "msel-data": per metric
 * series (one metric in one process image, as model/metrics.h keeps
 * them) and time bin of "nr-data", what metrics_summary_of() needs to
 * make a row of the values of any set of processes in any range of
 * bins ("k": the series' index in the model, which "psel-data" names
 * too; "i": its process image).  msel.js adds the bins up as metrics.c adds values, so the row of
 * a selection is the row of mapreport --pid ... --time FROM:TO on the
 * bins' edges.
 *
 * Per bin: the values, their sum (and, last, what its rounding left
 * out: metrics_sum_add()), min and max, the earliest value and its
 * time, the latest time, the times with no value and the earliest of
 * those.  For a series divided by sample time, its rates as well:
 * a value's rate is over the time since the value placed before it
 * (model/window.h), which in a range of bins is in the range or not
 * there at all.  So a bin keeps the rates whose predecessor is in the
 * same bin (count, min, max) and its first and last value placed, from
 * which msel.js makes the rate of a bin's first value when a bin before
 * it in the range holds one.  Values too far out of time order to place
 * (late) are counted as the whole run's window found them.
 *
 * The logs are read once more (rescan.h), for their metric values only
 * (the series the model holds: a launcher's or a filtered-out process's
 * values are not there).  Memory: a time-order window per rate series
 * and the bins of each series with values; past MS_CELLS bins with
 * values the element says so, and the page keeps its per-process rows.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/metrics.h"
#include "model/window.h"
#include "report/out/html_i.h"
#include "report/out/rescan.h"

#define MS_CELLS 25000    /* bins with values, all series: 3 MB */
#define MS_SERIES 4096    /* series of the run */

/* The values of one series in one bin. */
struct mscell {
	uint64_t n, none, late, rn;
	double sum, sum_lo, min, max, v_first; /* sum: metrics_sum_add() */
	uint64_t t_first, t_last, t_none;
	double rmin, rmax;            /* rates since a value of this bin */
	int placed;                   /* pt_first, pv_first, pt_last set */
	uint64_t pt_first, pt_last;   /* first and last value placed */
	double pv_first;
};

struct msser {
	struct window win;            /* rate series: time order */
	struct mscell *c;             /* bins, once it has a value */
};

struct msel {
	const struct model *m;
	uint64_t t0, span;
	unsigned fine, bins;
	struct msser *s;              /* by index of m->metrics.s */
	size_t cur;                   /* the series being placed */
};

/* The page's bin of ts. */
static uint32_t bin_of(const struct msel *x, uint64_t ts)
{
	return html_nr_bin(x->t0, x->span, x->fine, x->bins, ts);
}

/* The cell of series k at bin b, the series' bins made on first use;
 * NULL when out of memory. */
static struct mscell *cell(struct msel *x, size_t k, uint32_t b)
{
	struct msser *s = &x->s[k];
	if (!s->c && !(s->c = calloc(x->bins, sizeof(*s->c))))
		return NULL;
	return &s->c[b];
}

/* A value of series x->cur placed in time order (window_place_fn). */
static void placed(void *ctx, uint64_t ts, double v, int have_prev,
		   uint64_t prev)
{
	struct msel *x = ctx;
	uint32_t b = bin_of(x, ts);
	struct mscell *c = &x->s[x->cur].c[b]; /* made when v was added */
	if (!c->placed) {
		c->placed = 1;
		c->pt_first = ts;
		c->pv_first = v;
	}
	c->pt_last = ts;
	if (!have_prev || ts <= prev || bin_of(x, prev) != b)
		return; /* no rate, or one msel.js makes across bins */
	double rate = v / ((double)(ts - prev) / 1e9);
	if (!c->rn || rate < c->rmin)
		c->rmin = rate;
	if (!c->rn || rate > c->rmax)
		c->rmax = rate;
	c->rn++;
}

static int on_value(void *ctx, const struct maplog_ev *ev)
{
	struct msel *x = ctx;
	const struct rmetrics *mx = &x->m->metrics;
	const struct maplog_ev_metric_value *mv = &ev->ev_u.mval;
	long k = keymap_find(&mx->keys, ev->ev_pid, ev->ev_image,
			     mv->mv_index);
	if (k < 0 || !mx->s[k].metric)
		return 0; /* not a series of the report */
	struct mscell *c = cell(x, (size_t)k, bin_of(x, ev->ev_ts));
	if (!c)
		return MAPS_ENOMEM;
	double v;
	if (!metrics_value(mv, &v)) {
		if (!c->none || ev->ev_ts < c->t_none)
			c->t_none = ev->ev_ts;
		c->none++;
		return 0;
	}
	if (mx->s[k].rates) {
		struct window *w = &x->s[k].win;
		if (window_late(w, ev->ev_ts)) {
			c->late++;
		} else {
			x->cur = (size_t)k;
			if (window_add_placed(w, ev->ev_ts, v, placed, x))
				return MAPS_ENOMEM;
		}
	}
	if (!c->n || ev->ev_ts < c->t_first) {
		c->t_first = ev->ev_ts;
		c->v_first = v;
	}
	if (!c->n || ev->ev_ts > c->t_last)
		c->t_last = ev->ev_ts;
	if (!c->n || v < c->min)
		c->min = v;
	if (!c->n || v > c->max)
		c->max = v;
	c->n++;
	metrics_sum_add(&c->sum, &c->sum_lo, v);
	return 0;
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

/* ns from the page's t0. */
static void rel(FILE *out, const struct msel *x, uint64_t ts)
{
	fprintf(out, ",%" PRIu64, ts > x->t0 ? ts - x->t0 : 0);
}

static void write_cell(FILE *out, const struct msel *x, uint32_t b,
		       const struct mscell *c, int rates)
{
	fprintf(out, "[%" PRIu32 ",%" PRIu64 ",", b, c->n);
	num(out, c->sum);
	fputc(',', out);
	num(out, c->n ? c->min : 0);
	fputc(',', out);
	num(out, c->n ? c->max : 0);
	rel(out, x, c->t_first);
	fputc(',', out);
	num(out, c->n ? c->v_first : 0);
	rel(out, x, c->t_last);
	fprintf(out, ",%" PRIu64, c->none);
	rel(out, x, c->t_none);
	if (rates) {
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",", c->late, c->rn);
		num(out, c->rn ? c->rmin : 0);
		fputc(',', out);
		num(out, c->rn ? c->rmax : 0);
		fprintf(out, ",%d", c->placed);
		rel(out, x, c->pt_first);
		fputc(',', out);
		num(out, c->placed ? c->pv_first : 0);
		rel(out, x, c->pt_last);
	}
	/* last: what rounding left out of sum, for msel.js to add the
	 * bins up as metrics.c adds the values */
	fputc(',', out);
	num(out, c->sum_lo);
	fputc(']', out);
}

static void write_data(FILE *out, const struct msel *x)
{
	const struct rmetrics *mx = &x->m->metrics;
	fprintf(out, "{\"bins\":%u,\"m\":[", x->bins);
	for (size_t i = 0; i < mx->nm; i++) {
		const struct rmetric *mt = &mx->m[i];
		fputs(i ? ",\n{\"id\":" : "\n{\"id\":", out);
		htmlsafe_json(out, mt->id);
		fputs(",\"name\":", out);
		htmlsafe_json(out, metrics_display_name(mt));
		fputs(",\"u\":", out);
		htmlsafe_json(out, mt->units ? mt->units : "");
		fprintf(out, ",\"rate\":%d}",
			(mt->flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME) != 0);
	}
	fputs("],\"s\":[", out);
	int first = 1;
	for (size_t k = 0; k < mx->ns; k++) {
		const struct rmseries *s = &mx->s[k];
		if (!s->metric || (!x->s[k].c && !s->errors))
			continue;
		fprintf(out, "%s\n{\"k\":%zu,\"m\":%" PRIu32 ",\"p\":%" PRIu32
			     ",\"i\":%" PRIu32 ",\"e\":%" PRIu64 ",\"b\":[",
			first ? "" : ",", k, s->metric - 1,
			model_proc_num(x->m, s->pid), s->image, s->errors);
		first = 0;
		int one = 0;
		for (uint32_t b = 0; x->s[k].c && b < x->bins; b++) {
			const struct mscell *c = &x->s[k].c[b];
			if (!c->n && !c->none && !c->late)
				continue;
			fputs(one ? "," : "", out);
			write_cell(out, x, b, c, s->rates);
			one = 1;
		}
		fputs("]}", out);
	}
	fputs("]}", out);
}

/* The values of every rate series' window, placed as the end of the
 * logs places them. */
static void drain_all(struct msel *x)
{
	const struct rmetrics *mx = &x->m->metrics;
	for (size_t k = 0; k < mx->ns; k++) {
		if (!mx->s[k].rates || !x->s[k].c)
			continue;
		x->cur = k;
		window_drain_placed(&x->s[k].win, placed, x);
	}
}

/* Why the element holds no data, or NULL when it can. */
static const char *too_big(const struct msel *x)
{
	size_t n = 0;
	for (size_t k = 0; k < x->m->metrics.ns; k++)
		for (uint32_t b = 0; x->s[k].c && b < x->bins; b++)
			n += x->s[k].c[b].n || x->s[k].c[b].none;
	return n > MS_CELLS ? "too many values over time for the page" : NULL;
}

int html_msel_data(FILE *out, const struct output_in *in, unsigned fine,
		   unsigned bins)
{
	const struct model *m = in->oi_model;
	const struct rmetrics *mx = &m->metrics;
	if (!bins || !fine || !mx->ns)
		return 0;
	fputs("<script type=\"application/json\" id=\"msel-data\">\n", out);
	if (mx->ns > MS_SERIES) {
		fputs("{\"none\":\"too many metric series for the page\"}\n"
		      "</script>\n",
		      out);
		return 0;
	}
	struct msel x = {.m = m, .fine = fine, .bins = bins};
	html_nr_span(m, &x.t0, &x.span);
	x.s = calloc(mx->ns, sizeof(*x.s));
	if (!x.s)
		return MAPS_ENOMEM;
	static const struct rescan_tool tool = {NULL, NULL, on_value};
	int rc = rescan_logs(in, &tool, &x);
	const char *why = NULL;
	if (rc == MAPS_EIO) {
		why = "the logs could not be read again";
		rc = 0;
	}
	if (!rc) {
		drain_all(&x);
		if (!why)
			why = too_big(&x);
		if (why) {
			fputs("{\"none\":", out);
			htmlsafe_json(out, why);
			fputs("}", out);
		} else {
			write_data(out, &x);
		}
		fputs("\n</script>\n", out);
	}
	for (size_t k = 0; k < mx->ns; k++) {
		window_free(&x.s[k].win);
		free(x.s[k].c);
	}
	free(x.s);
	return rc;
}
