/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timeline: samples per thread and metric values over time in a bounded
 * number of bins (see timeline.h).
 *
 * DESIGN NOTES
 *   Bins.  Bin i covers [origin + i * w, origin + (i + 1) * w) with
 *   w = 1 << shift, so finding a sample's bin is a subtraction and a
 *   shift.  widen() doubles w by merging bins 2j and 2j+1 into bin j
 *   (the range grows to the right); widen_left() merges them into bin
 *   TIMELINE_BINS/2 + j and moves the origin back by TIMELINE_BINS * w
 *   (the range grows to the left, for records older than the first one
 *   seen: threads' chunks interleave, and logs may be given in any
 *   order).  Each costs one pass over every series and thread; the width
 *   only doubles, so that happens at most 64 times.
 *
 *   Rates.  As in metrics.c, a series of a metric divided by sample time
 *   (or of a metric whose definition has not been read yet) puts its
 *   values through a time-order window (model/window.h); each rate goes
 *   into the bin of its own time.  When the definition says the metric
 *   is not divided, the window's values are placed as plain values.
 *
 *   Threads and series are found with keymaps (model/keymap.h); the last
 *   sample's thread is remembered, since consecutive samples in a chunk
 *   are one thread's.
 *
 *   Memory runs out: timeline_fold() returns MAPS_ENOMEM with tl whole
 *   (freeable), the record perhaps half folded; the model stops reading.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/metrics.h"
#include "model/timeline.h"

void timeline_init(struct rtimeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void timeline_free(struct rtimeline *tl)
{
	for (size_t i = 0; i < tl->ns; i++) {
		free(tl->s[i].bins);
		window_free(&tl->s[i].win);
	}
	for (size_t i = 0; i < tl->nt; i++)
		free(tl->t[i].bins);
	for (size_t i = 0; i < tl->nmarks; i++)
		free(tl->marks[i].text);
	free(tl->s);
	keymap_free(&tl->skeys);
	free(tl->t);
	keymap_free(&tl->tkeys);
	free(tl->marks);
	memset(tl, 0, sizeof(*tl));
}

/* ---- bins ---- */

static void bin_add(struct rtlbin *b, double v)
{
	if (!b->n || v < b->min)
		b->min = v;
	if (!b->n || v > b->max)
		b->max = v;
	b->sum += v;
	b->n++;
}

static void bin_merge(struct rtlbin *into, const struct rtlbin *from)
{
	if (!from->n)
		return;
	if (!into->n || from->min < into->min)
		into->min = from->min;
	if (!into->n || from->max > into->max)
		into->max = from->max;
	into->sum += from->sum;
	into->n += from->n;
}

/* Merges bins pairwise into the lower half (left == 0) or the upper half
 * (left == 1) of the same array. */
static void merge_series(struct rtlbin *b, int left)
{
	const size_t h = TIMELINE_BINS / 2;
	if (!left) {
		for (size_t j = 0; j < h; j++) {
			struct rtlbin x = b[2 * j];
			bin_merge(&x, &b[2 * j + 1]);
			b[j] = x;
		}
		memset(b + h, 0, h * sizeof(*b));
	} else {
		for (size_t j = h; j-- > 0;) {
			struct rtlbin x = b[2 * j];
			bin_merge(&x, &b[2 * j + 1]);
			b[h + j] = x;
		}
		memset(b, 0, h * sizeof(*b));
	}
}

static void merge_thread(uint32_t *b, int left)
{
	const size_t h = TIMELINE_BINS / 2;
	if (!left) {
		for (size_t j = 0; j < h; j++)
			b[j] = b[2 * j] + b[2 * j + 1];
		memset(b + h, 0, h * sizeof(*b));
	} else {
		for (size_t j = h; j-- > 0;)
			b[h + j] = b[2 * j] + b[2 * j + 1];
		memset(b, 0, h * sizeof(*b));
	}
}

static void widen(struct rtimeline *tl, int left)
{
	for (size_t i = 0; i < tl->ns; i++)
		if (tl->s[i].bins)
			merge_series(tl->s[i].bins, left);
	for (size_t i = 0; i < tl->nt; i++)
		merge_thread(tl->t[i].bins, left);
	if (left)
		tl->origin -= (int64_t)TIMELINE_BINS << tl->shift;
	tl->shift++;
}

/* The bin of ts, widening the range until it holds ts. */
static size_t bin_get(struct rtimeline *tl, uint64_t ts)
{
	int64_t t = ts > INT64_MAX ? INT64_MAX : (int64_t)ts;
	if (!tl->have_range) {
		tl->have_range = 1;
		tl->origin = t;
		tl->shift = TIMELINE_SHIFT0;
	}
	while (t < tl->origin && tl->shift < 62)
		widen(tl, 1);
	if (t < tl->origin)
		return 0;
	uint64_t d = (uint64_t)(t - tl->origin);
	while ((d >> tl->shift) >= TIMELINE_BINS && tl->shift < 62)
		widen(tl, 0);
	uint64_t b = d >> tl->shift;
	return b < TIMELINE_BINS ? (size_t)b : TIMELINE_BINS - 1;
}

uint64_t timeline_width(const struct rtimeline *tl)
{
	return tl->have_range ? (uint64_t)1 << tl->shift : 0;
}

int64_t timeline_bin_start(const struct rtimeline *tl, size_t i)
{
	return tl->have_range ? tl->origin + ((int64_t)i << tl->shift) : 0;
}

long timeline_bin_of(const struct rtimeline *tl, uint64_t ts)
{
	if (!tl->have_range)
		return -1;
	int64_t t = ts > INT64_MAX ? INT64_MAX : (int64_t)ts;
	if (t < tl->origin)
		return -1;
	uint64_t b = (uint64_t)(t - tl->origin) >> tl->shift;
	return b < TIMELINE_BINS ? (long)b : TIMELINE_BINS;
}

/* ---- series and threads ---- */

const struct rtlseries *timeline_series(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t index)
{
	long i = keymap_find(&tl->skeys, pid, image, index);
	return i < 0 ? NULL : &tl->s[i];
}

const struct rtlthread *timeline_thread(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t tid)
{
	long i = keymap_find(&tl->tkeys, pid, image, tid);
	return i < 0 ? NULL : &tl->t[i];
}

/* The series of (pid, image, index), created if new; NULL when out of
 * memory. */
static struct rtlseries *series_get(struct rtimeline *tl, uint32_t pid,
				    uint32_t image, uint32_t index)
{
	int added;
	long i = keymap_add(&tl->skeys, pid, image, index, &tl->s, &tl->ns,
			    &tl->caps, sizeof(*tl->s), &added);
	if (i < 0)
		return NULL;
	if (added)
		tl->s[i] = (struct rtlseries){.pid = pid, .image = image,
					      .index = index, .rates = 1};
	return &tl->s[i];
}

/* The thread (pid, image, tid), created if new; NULL when out of
 * memory. */
static struct rtlthread *thread_get(struct rtimeline *tl, uint32_t pid,
				    uint32_t image, uint32_t tid)
{
	if (tl->tlast) {
		struct rtlthread *t = &tl->t[tl->tlast - 1];
		if (t->tid == tid && t->pid == pid && t->image == image)
			return t;
	}
	long i = keymap_find(&tl->tkeys, pid, image, tid);
	if (i < 0) {
		/* its bins first: a thread is never without them */
		int added;
		uint32_t *bins = calloc(TIMELINE_BINS, sizeof(*bins));
		if (!bins || (i = keymap_add(&tl->tkeys, pid, image, tid,
					     &tl->t, &tl->nt, &tl->capt,
					     sizeof(*tl->t), &added)) < 0) {
			free(bins);
			return NULL;
		}
		tl->t[i] = (struct rtlthread){pid, image, tid, bins};
	}
	tl->tlast = (size_t)i + 1;
	return &tl->t[i];
}

/* ---- metric values ---- */

/* The series' bins, made on its first value; NULL when out of memory. */
static struct rtlbin *series_bins(struct rtlseries *s)
{
	if (!s->bins)
		s->bins = calloc(TIMELINE_BINS, sizeof(*s->bins));
	return s->bins;
}

static int plain_add(struct rtimeline *tl, struct rtlseries *s, uint64_t ts,
		     double v)
{
	size_t b = bin_get(tl, ts);
	if (!series_bins(s))
		return MAPS_ENOMEM;
	bin_add(&s->bins[b], v);
	return 0;
}

struct placing {
	struct rtimeline *tl;  /* NULL: draining on a copy */
	const struct rtimeline *range;
	struct rtlbin *bins;   /* where rates go: the series' or a copy */
};

/* A rate placed in time order (window_rate_fn) into the bin of its
 * time. */
static void rate_seen(void *ctx, uint64_t ts, double rate)
{
	struct placing *pl = ctx;
	long b = pl->tl ? (long)bin_get(pl->tl, ts)
			: timeline_bin_of(pl->range, ts);
	if (b >= 0 && b < TIMELINE_BINS)
		bin_add(&pl->bins[b], rate);
}

static int rate_add(struct rtimeline *tl, struct rtlseries *s, uint64_t ts,
		    double v)
{
	if (!window_late(&s->win, ts)) {
		/* the range follows every value, placed or not, so that
		 * the bins a copy drains into already exist */
		(void)bin_get(tl, ts);
		if (!series_bins(s))
			return MAPS_ENOMEM;
	}
	struct placing pl = {tl, tl, s->bins};
	return window_add(&s->win, ts, v, rate_seen, &pl);
}

static int define(struct rtimeline *tl, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_def *d = &ev->ev_u.mdef;
	struct rtlseries *s = series_get(tl, ev->ev_pid, ev->ev_image,
					 d->md_index);
	if (!s)
		return MAPS_ENOMEM;
	if (s->defined)
		return 0; /* defined twice: the first stands, as in metrics.c */
	s->defined = 1;
	if (d->md_flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME)
		return 0;
	/* not a rate after all: what waited in the window are plain values,
	 * and no rate was placed (the window only places when full, and a
	 * full window of a plain metric is unlikely but possible) */
	s->rates = 0;
	for (size_t i = 0; i < s->win.n; i++)
		if (plain_add(tl, s, s->win.pt[i].ts, s->win.pt[i].v))
			return MAPS_ENOMEM;
	window_free(&s->win);
	return 0;
}

static int value(struct rtimeline *tl, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_value *v = &ev->ev_u.mval;
	double d;
	if (!metrics_value(v, &d))
		return 0;
	struct rtlseries *s = series_get(tl, ev->ev_pid, ev->ev_image,
					 v->mv_index);
	if (!s)
		return MAPS_ENOMEM;
	return s->rates ? rate_add(tl, s, ev->ev_ts, d)
			: plain_add(tl, s, ev->ev_ts, d);
}

static int mark(struct rtimeline *tl, const struct maplog_ev *ev)
{
	(void)bin_get(tl, ev->ev_ts);
	/* region begins and ends are model/regions.c's, not marks */
	if (ev->ev_u.mark.mk_value == MAPLOG_MARK_REGION_BEGIN ||
	    ev->ev_u.mark.mk_value == MAPLOG_MARK_REGION_END)
		return 0;
	if (tl->nmarks == TIMELINE_MARKS) {
		tl->marks_left_out++;
		return 0;
	}
	if (!tl->marks)
		tl->marks = calloc(TIMELINE_MARKS, sizeof(*tl->marks));
	if (!tl->marks)
		return MAPS_ENOMEM;
	const char *txt = ev->ev_u.mark.mk_text ? ev->ev_u.mark.mk_text : "";
	char *text = strndup(txt, TIMELINE_MARK_TEXT);
	if (!text)
		return MAPS_ENOMEM;
	tl->marks[tl->nmarks++] = (struct rtlmark){
		ev->ev_ts, ev->ev_pid, ev->ev_u.mark.mk_tid,
		ev->ev_u.mark.mk_value, text,
	};
	return 0;
}

int timeline_fold(struct rtimeline *tl, const struct maplog_ev *ev)
{
	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE: {
		struct rtlthread *t = thread_get(tl, ev->ev_pid, ev->ev_image,
						 ev->ev_u.sample.sa_tid);
		if (!t)
			return MAPS_ENOMEM;
		t->bins[bin_get(tl, ev->ev_ts)]++;
		return 0;
	}
	case MAPLOG_TYPE_METRIC_DEF:
		return define(tl, ev);
	case MAPLOG_TYPE_METRIC_VALUE:
		return value(tl, ev);
	case MAPLOG_TYPE_MARK:
		return mark(tl, ev);
	default:
		return 0;
	}
}

void timeline_series_bins(const struct rtimeline *tl,
			  const struct rtlseries *s, struct rtlbin *out)
{
	if (s->bins)
		memcpy(out, s->bins, TIMELINE_BINS * sizeof(*out));
	else
		memset(out, 0, TIMELINE_BINS * sizeof(*out));
	struct placing pl = {NULL, tl, out};
	window_drain(&s->win, rate_seen, &pl);
}
