/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * window: the time-order window of rate series (window.h).
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/window.h"

/* Where placed values go: their rates to rate, or, when placed is not
 * NULL, each value with its predecessor's time to placed. */
struct sink {
	window_rate_fn rate;
	window_place_fn placed;
	void *ctx;
};

/* Places (ts, v) after the values placed so far (time order): its rate
 * is v over the time since the last one; the first value, or one at the
 * time of the last, has none. */
static void place(int *have_wm, uint64_t *wm, uint64_t ts, double v,
		  const struct sink *to)
{
	if (to->placed)
		to->placed(to->ctx, ts, v, *have_wm, *wm);
	else if (*have_wm && ts > *wm)
		to->rate(to->ctx, ts, v / ((double)(ts - *wm) / 1e9));
	if (!*have_wm || ts > *wm)
		*wm = ts;
	*have_wm = 1;
}

static void heap_up(struct window_point *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		if (h[p].ts <= h[i].ts)
			break;
		struct window_point t = h[p];
		h[p] = h[i];
		h[i] = t;
		i = p;
	}
}

static void heap_down(struct window_point *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && h[l].ts < h[m].ts)
			m = l;
		if (l + 1 < n && h[l + 1].ts < h[m].ts)
			m = l + 1;
		if (m == i)
			break;
		struct window_point t = h[m];
		h[m] = h[i];
		h[i] = t;
		i = m;
	}
}

int window_late(const struct window *w, uint64_t ts)
{
	return w->have_wm && ts <= w->wm;
}

static int add(struct window *w, uint64_t ts, double v, const struct sink *to)
{
	if (window_late(w, ts)) {
		w->late++;
		return 0;
	}
	if (w->n == WINDOW_MAX) {
		if (ts < w->pt[0].ts) {
			/* the earliest of all */
			place(&w->have_wm, &w->wm, ts, v, to);
			return 0;
		}
		struct window_point p = w->pt[0];
		w->pt[0] = (struct window_point){ts, v};
		heap_down(w->pt, w->n, 0);
		place(&w->have_wm, &w->wm, p.ts, p.v, to);
		return 0;
	}
	/* capacities double from 16, so they reach WINDOW_MAX exactly */
	if (mem_grow(&w->pt, &w->cap, w->n, sizeof(*w->pt)))
		return MAPS_ENOMEM;
	w->pt[w->n] = (struct window_point){ts, v};
	heap_up(w->pt, w->n++);
	return 0;
}

static int cmp_point(const void *a, const void *b)
{
	const struct window_point *p = a, *q = b;
	return p->ts < q->ts ? -1 : p->ts > q->ts;
}

static void drain(const struct window *w, const struct sink *to)
{
	if (!w->n)
		return;
	struct window_point sorted[WINDOW_MAX];
	memcpy(sorted, w->pt, w->n * sizeof(*sorted));
	qsort(sorted, w->n, sizeof(*sorted), cmp_point);
	int have_wm = w->have_wm;
	uint64_t wm = w->wm;
	for (size_t i = 0; i < w->n; i++)
		place(&have_wm, &wm, sorted[i].ts, sorted[i].v, to);
}

int window_add(struct window *w, uint64_t ts, double v, window_rate_fn fn,
	       void *ctx)
{
	struct sink to = {fn, NULL, ctx};
	return add(w, ts, v, &to);
}

int window_add_placed(struct window *w, uint64_t ts, double v,
		      window_place_fn fn, void *ctx)
{
	struct sink to = {NULL, fn, ctx};
	return add(w, ts, v, &to);
}

void window_drain(const struct window *w, window_rate_fn fn, void *ctx)
{
	struct sink to = {fn, NULL, ctx};
	drain(w, &to);
}

void window_drain_placed(const struct window *w, window_place_fn fn,
			 void *ctx)
{
	struct sink to = {NULL, fn, ctx};
	drain(w, &to);
}

void window_free(struct window *w)
{
	free(w->pt);
	memset(w, 0, sizeof(*w));
}
