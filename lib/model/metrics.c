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
 *   each value's predecessor in time.  For those a series keeps a min-heap
 *   of up to METRICS_WINDOW values; when it is full the earliest value is
 *   placed: its rate is its delta over the time since the value placed
 *   before it.  A value older than one already placed is counted as late
 *   and left out of MIN and MAX (it still counts in TOTAL, MEAN and
 *   VALUES); the report says how many.  So the result is exact whenever
 *   no value arrives more than METRICS_WINDOW values of its series out of
 *   place, and memory is at most METRICS_WINDOW values per series,
 *   whatever the number of values.  Series of plain metrics keep no
 *   window.  The window is drained on a copy when a row is computed, so
 *   reports can be asked for at any time.
 *
 *   A value with no value (NONE) is counted and skipped; it does not end
 *   an interval: the next delta is over the time since the last value.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "model/units.h"

static void *xgrow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	size_t c = *cap ? *cap * 2 : 8;
	void *q = realloc(p, c * size);
	if (!q) {
		fprintf(stderr, "mapreport: out of memory\n");
		exit(1);
	}
	*cap = c;
	return q;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d) {
		fprintf(stderr, "mapreport: out of memory\n");
		exit(1);
	}
	return d;
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
		free(x->s[i].win);
		free(x->s[i].err_msg);
	}
	for (size_t i = 0; i < x->npe; i++) {
		free(x->pe[i].plugin);
		free(x->pe[i].message);
	}
	free(x->m);
	free(x->s);
	free(x->hash);
	free(x->pe);
	memset(x, 0, sizeof(*x));
}

static uint64_t key_hash(uint32_t pid, uint32_t image, uint32_t index)
{
	uint64_t h = ((uint64_t)pid << 32 | image) * 0x9e3779b97f4a7c15ull;
	h ^= index * 0xff51afd7ed558ccdull;
	return h ^ (h >> 29);
}

static void hash_put(struct rmetrics *x, size_t si)
{
	const struct rmseries *s = &x->s[si];
	size_t mask = x->caphash - 1;
	size_t j = key_hash(s->pid, s->image, s->index) & mask;
	while (x->hash[j])
		j = (j + 1) & mask;
	x->hash[j] = (uint32_t)(si + 1);
}

/* The series of (pid, image, index), created if new. */
static struct rmseries *series_get(struct rmetrics *x, uint32_t pid,
				   uint32_t image, uint32_t index)
{
	if (x->caphash) {
		size_t mask = x->caphash - 1;
		size_t j = key_hash(pid, image, index) & mask;
		for (; x->hash[j]; j = (j + 1) & mask) {
			struct rmseries *s = &x->s[x->hash[j] - 1];
			if (s->pid == pid && s->image == image &&
			    s->index == index)
				return s;
		}
	}
	if ((x->ns + 1) * 2 > x->caphash) {
		size_t cap = x->caphash ? x->caphash * 2 : 64;
		free(x->hash);
		x->hash = calloc(cap, sizeof(*x->hash));
		if (!x->hash) {
			fprintf(stderr, "mapreport: out of memory\n");
			exit(1);
		}
		x->caphash = cap;
		for (size_t i = 0; i < x->ns; i++)
			hash_put(x, i);
	}
	x->s = xgrow(x->s, &x->caps, x->ns, sizeof(*x->s));
	struct rmseries *s = &x->s[x->ns];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->image = image;
	s->index = index;
	s->rates = 1; /* until the definition says otherwise */
	hash_put(x, x->ns++);
	return s;
}

static size_t metric_get(struct rmetrics *x, const struct maplog_ev_metric_def *d)
{
	for (size_t i = 0; i < x->nm; i++)
		if (!strcmp(x->m[i].id, d->md_id))
			return i;
	x->m = xgrow(x->m, &x->capm, x->nm, sizeof(*x->m));
	struct rmetric *m = &x->m[x->nm];
	m->id = xstrdup(d->md_id);
	m->name = xstrdup(d->md_name);
	m->units = xstrdup(d->md_units);
	m->plugin = xstrdup(d->md_plugin);
	m->flags = d->md_flags;
	m->datatype = d->md_datatype;
	return x->nm++;
}

/* Places the value (ts, d) after the ones placed so far (time order). */
static void rate_place(struct rmrate *r, uint64_t ts, double d)
{
	if (r->have_wm && ts > r->wm) {
		double rate = d / ((double)(ts - r->wm) / 1e9);
		if (!r->n || rate < r->min)
			r->min = rate;
		if (!r->n || rate > r->max)
			r->max = rate;
		r->n++;
	}
	/* the first value, or one at the time of the last, has no rate */
	if (!r->have_wm || ts > r->wm)
		r->wm = ts;
	r->have_wm = 1;
}

static void heap_up(struct rmpoint *h, uint32_t i)
{
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (h[p].ts <= h[i].ts)
			break;
		struct rmpoint t = h[p];
		h[p] = h[i];
		h[i] = t;
		i = p;
	}
}

static void heap_down(struct rmpoint *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		if (l < n && h[l].ts < h[m].ts)
			m = l;
		if (l + 1 < n && h[l + 1].ts < h[m].ts)
			m = l + 1;
		if (m == i)
			break;
		struct rmpoint t = h[m];
		h[m] = h[i];
		h[i] = t;
		i = m;
	}
}

static void window_add(struct rmseries *s, uint64_t ts, double v)
{
	if (s->rate.have_wm && ts <= s->rate.wm) {
		s->late++;
		return;
	}
	if (s->nwin == METRICS_WINDOW) {
		if (ts < s->win[0].ts) {
			rate_place(&s->rate, ts, v); /* the earliest of all */
			return;
		}
		rate_place(&s->rate, s->win[0].ts, s->win[0].v);
		s->win[0] = (struct rmpoint){ts, v};
		heap_down(s->win, s->nwin, 0);
		return;
	}
	if (s->nwin == s->capwin) {
		uint32_t cap = s->capwin ? s->capwin * 2 : 16;
		if (cap > METRICS_WINDOW)
			cap = METRICS_WINDOW;
		struct rmpoint *w = realloc(s->win, cap * sizeof(*w));
		if (!w) {
			fprintf(stderr, "mapreport: out of memory\n");
			exit(1);
		}
		s->win = w;
		s->capwin = cap;
	}
	s->win[s->nwin] = (struct rmpoint){ts, v};
	heap_up(s->win, s->nwin++);
}

static void value_add(struct rmseries *s, uint64_t ts, double v)
{
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
	s->sum += v;
	if (s->rates)
		window_add(s, ts, v);
}

static void define(struct rmetrics *x, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_def *d = &ev->ev_u.mdef;
	size_t mi = metric_get(x, d);
	struct rmseries *s = series_get(x, ev->ev_pid, ev->ev_image,
					d->md_index);
	if (s->metric)
		return; /* defined twice: the first stands */
	s->metric = (uint32_t)mi + 1;
	if (!(x->m[mi].flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME)) {
		s->rates = 0;
		s->late = 0;
		free(s->win);
		s->win = NULL;
		s->nwin = s->capwin = 0;
		memset(&s->rate, 0, sizeof(s->rate));
	}
}

static void plugin_error(struct rmetrics *x, const struct maplog_ev_plugin_error *e)
{
	for (size_t i = 0; i < x->npe; i++)
		if (!strcmp(x->pe[i].plugin, e->pe_plugin) &&
		    !strcmp(x->pe[i].message, e->pe_message)) {
			x->pe[i].count++;
			return;
		}
	x->pe = xgrow(x->pe, &x->cappe, x->npe, sizeof(*x->pe));
	x->pe[x->npe++] = (struct rperr){xstrdup(e->pe_plugin),
					 xstrdup(e->pe_message), 1};
}

void metrics_fold(struct rmetrics *x, const struct maplog_ev *ev)
{
	switch (ev->ev_type) {
	case MAPLOG_TYPE_METRIC_DEF:
		define(x, ev);
		break;
	case MAPLOG_TYPE_METRIC_VALUE: {
		const struct maplog_ev_metric_value *v = &ev->ev_u.mval;
		struct rmseries *s = series_get(x, ev->ev_pid, ev->ev_image,
						v->mv_index);
		double d;
		if (v->mv_kind == MAPLOG_VALUE_U64)
			d = (double)v->mv_v.u64;
		else if (v->mv_kind == MAPLOG_VALUE_DOUBLE)
			d = v->mv_v.dbl;
		else
			d = NAN;
		if (isfinite(d)) {
			value_add(s, ev->ev_ts, d);
		} else {
			if (!s->none || ev->ev_ts < s->none_first_ts)
				s->none_first_ts = ev->ev_ts;
			s->none++;
		}
		break;
	}
	case MAPLOG_TYPE_PLUGIN_ERROR:
		plugin_error(x, &ev->ev_u.perr);
		break;
	case MAPLOG_TYPE_METRIC_ERROR: {
		const struct maplog_ev_metric_error *e = &ev->ev_u.merr;
		struct rmseries *s = series_get(x, ev->ev_pid, ev->ev_image,
						e->me_index);
		/* a running count: the largest is the last */
		if (e->me_count > s->errors)
			s->errors = e->me_count;
		if (!s->err_msg || ev->ev_ts < s->err_ts) {
			free(s->err_msg);
			s->err_msg = xstrdup(e->me_message);
			s->err_ts = ev->ev_ts;
		}
		break;
	}
	default:
		break;
	}
}

static int cmp_point(const void *a, const void *b)
{
	const struct rmpoint *p = a, *q = b;
	return p->ts < q->ts ? -1 : p->ts > q->ts;
}

/* The series' rates once its window is drained, computed on a copy. */
static struct rmrate drained(const struct rmseries *s)
{
	struct rmrate r = s->rate;
	if (!s->nwin)
		return r;
	struct rmpoint *w = malloc(s->nwin * sizeof(*w));
	if (!w) {
		fprintf(stderr, "mapreport: out of memory\n");
		exit(1);
	}
	memcpy(w, s->win, s->nwin * sizeof(*w));
	qsort(w, s->nwin, sizeof(*w), cmp_point);
	for (uint32_t i = 0; i < s->nwin; i++)
		rate_place(&r, w[i].ts, w[i].v);
	free(w);
	return r;
}

void metrics_summary(const struct rmetrics *x, size_t i, struct rmsummary *r)
{
	memset(r, 0, sizeof(*r));
	r->metric = &x->m[i];
	r->rate = (x->m[i].flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME) != 0;
	uint64_t nmean = 0, err_ts = 0;
	double msum = 0;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (s->metric != i + 1)
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
		r->late += s->late;
		struct rmrate rr = drained(s);
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
