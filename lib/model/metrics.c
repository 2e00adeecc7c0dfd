/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics: running statistics of metric plugin values (see metrics.h).
 *
 * DESIGN NOTES
 *   Indexes are per process image: a METRIC_DEF binds (pid, image,
 *   md_index) to a metric id; values and errors name (pid, image,
 *   mv_index).  A value may come before its definition in the file (the
 *   sampler's process stream and its threads' chunks are separate), so a
 *   series is created by whichever record comes first and bound to its
 *   metric when the definition arrives.
 *
 *   Time order.  A process's metric values are taken one at a time, but
 *   each lands in the chunk of the thread that took it, and chunks of
 *   different threads interleave in the file: in file order a series'
 *   times go back and forth.  What does not depend on order is kept
 *   exactly: count, sum, min and max of the values, and the value at the
 *   earliest time (so a rate metric's mean, the sum of its deltas after
 *   the first over the time from first to last value, is exact too).
 *   Only the per-interval rates (for MIN and MAX of a rate metric) need
 *   each value's predecessor in time: a rate series puts its values
 *   through a time-order window (model/window.h).  A value too late to
 *   place is left out of MIN and MAX (it still counts in TOTAL, MEAN and
 *   VALUES); the report says how many.  Series of plain metrics keep no
 *   window.  The window is drained on a copy when a row is computed, so
 *   reports can be asked for at any time.
 *
 *   Memory runs out: metrics_fold() returns MAPS_ENOMEM with x as it
 *   was, or with the record half folded (a series made but its value not
 *   added); x stays freeable, and the model stops reading.
 *
 *   A value with no value (NONE) is counted and skipped; it does not end
 *   an interval: the next delta is over the time since the last value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/metrics.h"

const char *metrics_display_name(const struct rmetric *mt)
{
	return mt->name && mt->name[0] ? mt->name : mt->id;
}

int metrics_value(const struct maplog_ev_metric_value *v, double *d)
{
	if (v->mv_kind == MAPLOG_VALUE_U64)
		*d = (double)v->mv_v.u64;
	else if (v->mv_kind == MAPLOG_VALUE_DOUBLE)
		*d = v->mv_v.dbl;
	else
		return 0;
	return isfinite(*d);
}

void metrics_init(struct rmetrics *x)
{
	memset(x, 0, sizeof(*x));
}

void metrics_free(struct rmetrics *x)
{
	for (size_t i = 0; i < x->nm; i++) {
		free(x->m[i].id);
		free(x->m[i].name);
		free(x->m[i].units);
		free(x->m[i].plugin);
	}
	for (size_t i = 0; i < x->ns; i++) {
		window_free(&x->s[i].win);
		free(x->s[i].err_msg);
		free(x->s[i].cells);
	}
	for (size_t i = 0; i < x->npe; i++) {
		free(x->pe[i].plugin);
		free(x->pe[i].message);
		free(x->pe[i].procs);
	}
	free(x->m);
	free(x->s);
	keymap_free(&x->keys);
	free(x->pe);
	memset(x, 0, sizeof(*x));
}

/* The series of (pid, image, index), created if new; NULL when out of
 * memory. */
static struct rmseries *series_get(struct rmetrics *x, uint32_t pid,
				   uint32_t image, uint32_t index)
{
	int added;
	long i = keymap_add(&x->keys, pid, image, index, &x->s, &x->ns,
			    &x->caps, sizeof(*x->s), &added);
	if (i < 0)
		return NULL;
	if (added) {
		x->s[i].pid = pid;
		x->s[i].image = image;
		x->s[i].index = index;
		x->s[i].rates = 1; /* until the definition says otherwise */
	}
	return &x->s[i];
}

/* The index of the metric d defines, added if new; -1 when out of
 * memory. */
static long metric_get(struct rmetrics *x,
		       const struct maplog_ev_metric_def *d)
{
	for (size_t i = 0; i < x->nm; i++)
		if (!strcmp(x->m[i].id, d->md_id))
			return (long)i;
	if (mem_grow(&x->m, &x->capm, x->nm, sizeof(*x->m)))
		return -1;
	struct rmetric m = {
		mem_strdup(d->md_id), mem_strdup(d->md_name),
		mem_strdup(d->md_units), mem_strdup(d->md_plugin),
		d->md_flags, d->md_datatype,
	};
	if (!m.id || !m.name || !m.units || !m.plugin) {
		free(m.id);
		free(m.name);
		free(m.units);
		free(m.plugin);
		return -1;
	}
	x->m[x->nm] = m;
	return (long)x->nm++;
}

/* A rate placed in time order (window_rate_fn): ctx is a struct rmrate. */
static void rate_seen(void *ctx, uint64_t ts, double rate)
{
	struct rmrate *r = ctx;
	(void)ts;
	if (!r->n || rate < r->min)
		r->min = rate;
	if (!r->n || rate > r->max)
		r->max = rate;
	r->n++;
}

/* Cell b's values into cell a. */
static void cell_merge(struct rmcell *a, const struct rmcell *b)
{
	if (!b->n)
		return;
	if (!a->n || b->min_ts < a->min_ts) {
		a->min_ts = b->min_ts;
		a->min_v = b->min_v;
	}
	if (!a->n || b->max_ts > a->max_ts)
		a->max_ts = b->max_ts;
	a->sum += b->sum;
	a->n += b->n;
}

/* Doubles the cells' width in every series: cells 2j and 2j + 1 become
 * cell j, in place (the arrays shrink to fit). */
static void cells_widen(struct rmetrics *x)
{
	x->cshift++;
	x->ncells = 0;
	for (size_t k = 0; k < x->ns; k++) {
		struct rmseries *s = &x->s[k];
		if (!s->nc)
			continue;
		uint64_t c0 = s->c0 >> 1;
		size_t nc = (size_t)(((s->c0 + s->nc - 1) >> 1) - c0 + 1);
		for (size_t i = 0; i < s->nc; i++) {
			size_t j = (size_t)(((s->c0 + i) >> 1) - c0);
			struct rmcell c = s->cells[i];
			if (i == 0 || j != (size_t)(((s->c0 + i - 1) >> 1) - c0))
				s->cells[j] = c;
			else
				cell_merge(&s->cells[j], &c);
		}
		struct rmcell *shrunk = realloc(s->cells, nc * sizeof(*shrunk));
		if (shrunk) {
			s->cells = shrunk;
			s->capc = nc;
		}
		s->c0 = c0;
		s->nc = nc;
		x->ncells += s->capc;
	}
}

/* Value v at ts into its cell of series s, the cells widened first when
 * there would be too many.  Returns 0 or MAPS_ENOMEM. */
static int cell_add(struct rmetrics *x, struct rmseries *s, uint64_t ts,
		    double v)
{
	uint64_t j, lo, hi;
	uint64_t rlo = x->cvalues && x->clo < ts ? x->clo : ts;
	uint64_t rhi = x->cvalues && x->chi > ts ? x->chi : ts;
	size_t need;
	for (;;) {
		j = ts >> x->cshift;
		lo = s->nc && s->c0 < j ? s->c0 : j;
		hi = s->nc && s->c0 + s->nc - 1 > j ? s->c0 + s->nc - 1 : j;
		/* (more series than METRICS_MAX_CELLS get a cell each) */
		if (x->cshift < 63 &&
		    (hi - lo >= METRICS_MAX_CELLS ||
		     (rhi >> x->cshift) - (rlo >> x->cshift) >=
			     METRICS_RUN_CELLS ||
		     (hi - lo + 1 > s->capc &&
		      x->ncells - s->capc + (hi - lo + 1) >
			      METRICS_MAX_CELLS))) {
			cells_widen(x);
			continue;
		}
		need = (size_t)(hi - lo + 1);
		break;
	}
	if (need > s->capc) {
		size_t cap = s->capc + s->capc / 2;
		if (cap < need)
			cap = need;
		if (x->ncells - s->capc + cap > METRICS_MAX_CELLS)
			cap = need;
		struct rmcell *c = realloc(s->cells, cap * sizeof(*c));
		if (!c)
			return MAPS_ENOMEM;
		x->ncells += cap - s->capc;
		s->cells = c;
		s->capc = cap;
	}
	if (!s->nc) {
		s->c0 = j;
		s->nc = 1;
		memset(&s->cells[0], 0, sizeof(s->cells[0]));
	} else if (j < s->c0) {
		size_t by = (size_t)(s->c0 - j);
		memmove(&s->cells[by], &s->cells[0], s->nc * sizeof(*s->cells));
		memset(&s->cells[0], 0, by * sizeof(*s->cells));
		s->c0 = j;
		s->nc += by;
	} else if (j >= s->c0 + s->nc) {
		size_t to = (size_t)(j - s->c0 + 1);
		memset(&s->cells[s->nc], 0, (to - s->nc) * sizeof(*s->cells));
		s->nc = to;
	}
	x->clo = rlo;
	x->chi = rhi;
	x->cvalues++;
	struct rmcell one = {ts, ts, v, v, 1};
	cell_merge(&s->cells[j - s->c0], &one);
	return 0;
}

static int value_add(struct rmetrics *x, struct rmseries *s, uint64_t ts,
		     double v)
{
	if (s->rates && window_add(&s->win, ts, v, rate_seen, &s->rate))
		return MAPS_ENOMEM;
	if (cell_add(x, s, ts, v))
		return MAPS_ENOMEM;
	if (!s->n || ts < s->first_ts) {
		s->first_ts = ts;
		s->first_v = v;
	}
	if (!s->n || ts > s->last_ts)
		s->last_ts = ts;
	if (!s->n || v < s->vmin)
		s->vmin = v;
	if (!s->n || v > s->vmax)
		s->vmax = v;
	s->n++;
	metrics_sum_add(&s->sum, &s->sum_lo, v);
	return 0;
}

static int define(struct rmetrics *x, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_def *d = &ev->ev_u.mdef;
	long mi = metric_get(x, d);
	struct rmseries *s = mi < 0 ? NULL
				    : series_get(x, ev->ev_pid, ev->ev_image,
						 d->md_index);
	if (!s)
		return MAPS_ENOMEM;
	if (s->metric)
		return 0; /* defined twice: the first stands */
	s->metric = (uint32_t)mi + 1;
	if (!(x->m[mi].flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME)) {
		s->rates = 0;
		window_free(&s->win);
		memset(&s->rate, 0, sizeof(s->rate));
	}
	return 0;
}

/* One more record of plugin error pe, from process image (pid, image).
 * Returns 0 or MAPS_ENOMEM. */
static int perr_count(struct rperr *pe, uint32_t pid, uint32_t image)
{
	if (mem_grow(&pe->procs, &pe->capprocs, (size_t)pe->count,
		     sizeof(*pe->procs)))
		return MAPS_ENOMEM;
	pe->procs[pe->count++] = (struct rmproc){pid, image};
	return 0;
}

static int plugin_error(struct rmetrics *x, const struct maplog_ev *ev)
{
	const struct maplog_ev_plugin_error *e = &ev->ev_u.perr;
	for (size_t i = 0; i < x->npe; i++)
		if (!strcmp(x->pe[i].plugin, e->pe_plugin) &&
		    !strcmp(x->pe[i].message, e->pe_message))
			return perr_count(&x->pe[i], ev->ev_pid, ev->ev_image);
	if (mem_grow(&x->pe, &x->cappe, x->npe, sizeof(*x->pe)))
		return MAPS_ENOMEM;
	struct rperr pe = {mem_strdup(e->pe_plugin),
			   mem_strdup(e->pe_message), 0, NULL, 0};
	if (!pe.plugin || !pe.message ||
	    perr_count(&pe, ev->ev_pid, ev->ev_image)) {
		free(pe.plugin);
		free(pe.message);
		free(pe.procs);
		return MAPS_ENOMEM;
	}
	x->pe[x->npe++] = pe;
	return 0;
}

static int metric_error(struct rmetrics *x, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_error *e = &ev->ev_u.merr;
	struct rmseries *s = series_get(x, ev->ev_pid, ev->ev_image,
					e->me_index);
	if (!s)
		return MAPS_ENOMEM;
	/* a running count: the largest is the last */
	if (e->me_count > s->errors)
		s->errors = e->me_count;
	if (!s->err_msg || ev->ev_ts < s->err_ts) {
		char *msg = mem_strdup(e->me_message);
		if (!msg)
			return MAPS_ENOMEM;
		free(s->err_msg);
		s->err_msg = msg;
		s->err_ts = ev->ev_ts;
	}
	return 0;
}

int metrics_fold(struct rmetrics *x, const struct maplog_ev *ev)
{
	switch (ev->ev_type) {
	case MAPLOG_TYPE_METRIC_DEF:
		return define(x, ev);
	case MAPLOG_TYPE_METRIC_VALUE: {
		const struct maplog_ev_metric_value *v = &ev->ev_u.mval;
		struct rmseries *s = series_get(x, ev->ev_pid, ev->ev_image,
						v->mv_index);
		if (!s)
			return MAPS_ENOMEM;
		double d;
		if (metrics_value(v, &d))
			return value_add(x, s, ev->ev_ts, d);
		if (!s->none || ev->ev_ts < s->none_first_ts)
			s->none_first_ts = ev->ev_ts;
		s->none++;
		return 0;
	}
	case MAPLOG_TYPE_PLUGIN_ERROR:
		return plugin_error(x, ev);
	case MAPLOG_TYPE_METRIC_ERROR:
		return metric_error(x, ev);
	default:
		return 0;
	}
}

void metrics_summary(const struct rmetrics *x, size_t i, struct rmsummary *r)
{
	metrics_summary_of(x, i, METRICS_ALL_PIDS, r);
}

void metrics_summary_of(const struct rmetrics *x, size_t i, uint32_t pid,
			struct rmsummary *r)
{
	memset(r, 0, sizeof(*r));
	r->metric = &x->m[i];
	r->rate = (x->m[i].flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME) != 0;
	uint64_t nmean = 0, err_ts = 0;
	double msum = 0;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (s->metric != i + 1 ||
		    (pid != METRICS_ALL_PIDS && s->pid != pid))
			continue;
		if (s->errors) {
			r->errors += s->errors;
			if (s->err_msg && (!r->err_msg || s->err_ts < err_ts)) {
				r->err_msg = s->err_msg;
				err_ts = s->err_ts;
			}
		}
		/* a series that starts with no value is the rule for
		 * plugins that return differences (nothing to subtract from
		 * at the first sample): not worth a note */
		r->none += s->none;
		if (s->none && s->n && s->none_first_ts < s->first_ts)
			r->none--;
		if (!s->n)
			continue;
		r->values += s->n;
		r->procs++;
		if (!r->rate) {
			if (!r->have_minmax || s->vmin < r->min)
				r->min = s->vmin;
			if (!r->have_minmax || s->vmax > r->max)
				r->max = s->vmax;
			r->have_minmax = 1;
			msum += s->sum / (double)s->n;
			nmean++;
			continue;
		}
		r->total += s->sum;
		r->late += s->win.late;
		/* the rates once the window is drained, on a copy */
		struct rmrate rr = s->rate;
		window_drain(&s->win, rate_seen, &rr);
		/* a series that starts with no value: that was the getter's
		 * first call, and the first delta is since then */
		int lead = s->none && s->none_first_ts < s->first_ts;
		if (lead) {
			double rate = s->first_v /
				      ((double)(s->first_ts - s->none_first_ts) /
				       1e9);
			if (!rr.n || rate < rr.min)
				rr.min = rate;
			if (!rr.n || rate > rr.max)
				rr.max = rate;
			rr.n++;
		}
		if (rr.n) {
			if (!r->have_minmax || rr.min < r->min)
				r->min = rr.min;
			if (!r->have_minmax || rr.max > r->max)
				r->max = rr.max;
			r->have_minmax = 1;
		}
		if (lead) {
			msum += s->sum / ((double)(s->last_ts -
						   s->none_first_ts) / 1e9);
			nmean++;
		} else if (s->n >= 2 && s->last_ts > s->first_ts) {
			msum += (s->sum - s->first_v) /
				((double)(s->last_ts - s->first_ts) / 1e9);
			nmean++;
		}
	}
	if (nmean) {
		r->have_mean = 1;
		r->mean = msum / (double)nmean;
	}
}

int metrics_keep(struct rmetrics *x,
		 int (*keep)(void *ctx, uint32_t pid, uint32_t image),
		 void *ctx)
{
	size_t n = 0;
	for (size_t k = 0; k < x->ns; k++) {
		struct rmseries *s = &x->s[k];
		if (keep(ctx, s->pid, s->image)) {
			x->s[n++] = *s;
			continue;
		}
		x->ncells -= s->capc;
		window_free(&s->win);
		free(s->err_msg);
		free(s->cells);
	}
	x->ns = n;
	n = 0;
	for (size_t i = 0; i < x->npe; i++) {
		struct rperr *pe = &x->pe[i];
		size_t kept = 0;
		for (size_t j = 0; j < pe->count; j++)
			if (keep(ctx, pe->procs[j].pid, pe->procs[j].image))
				pe->procs[kept++] = pe->procs[j];
		pe->count = kept;
		if (kept) {
			x->pe[n++] = *pe;
			continue;
		}
		free(pe->plugin);
		free(pe->message);
		free(pe->procs);
	}
	x->npe = n;
	/* the index of the series, anew */
	keymap_free(&x->keys);
	for (size_t k = 0; k < x->ns; k++)
		if (keymap_put(&x->keys, x->s[k].pid, x->s[k].image,
			       x->s[k].index, k))
			return MAPS_ENOMEM;
	return 0;
}
