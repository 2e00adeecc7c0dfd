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
 *   (or of a metric whose definition has not been read yet) keeps a
 *   min-heap of up to METRICS_WINDOW values; the earliest is placed when
 *   it is full, its rate being its delta over the time since the value
 *   placed before it.  The rate goes into the bin of its own time.  A
 *   value older than one already placed is late: counted, left out.
 *   When the definition says the metric is not divided, the window's
 *   values are placed as plain values.
 *
 *   Threads and series are found with open-addressing hashes; the last
 *   sample's thread is remembered, since consecutive samples in a chunk
 *   are one thread's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/timeline.h"

static void oom(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		oom();
	return p;
}

static void *xgrow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	size_t c = *cap ? *cap * 2 : 16;
	void *q = realloc(p, c * size);
	if (!q)
		oom();
	*cap = c;
	return q;
}

void timeline_init(struct rtimeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void timeline_free(struct rtimeline *tl)
{
	for (size_t i = 0; i < tl->ns; i++) {
		free(tl->s[i].bins);
		free(tl->s[i].win);
	}
	for (size_t i = 0; i < tl->nt; i++)
		free(tl->t[i].bins);
	for (size_t i = 0; i < tl->nmarks; i++)
		free(tl->marks[i].text);
	free(tl->s);
	free(tl->shash);
	free(tl->t);
	free(tl->thash);
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

/* ---- hashes ---- */

static uint64_t key_hash(uint32_t pid, uint32_t image, uint32_t id)
{
	uint64_t h = ((uint64_t)pid << 32 | image) * 0x9e3779b97f4a7c15ull;
	h ^= id * 0xff51afd7ed558ccdull;
	return h ^ (h >> 29);
}

/* Puts index i with hash h into the table *tab of *cap slots (a power
 * of two, or 0) holding n entries, growing it at half full; rehash(arg,
 * k) gives the hash of entry k < n when it grows. */
static void hash_put(uint32_t **tab, size_t *cap, size_t n, uint64_t h,
		     size_t i, uint64_t (*rehash)(const void *, size_t),
		     const void *arg)
{
	if ((n + 1) * 2 > *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		uint32_t *t = xcalloc(nc, sizeof(*t));
		for (size_t k = 0; k < n; k++) {
			size_t j = rehash(arg, k) & (nc - 1);
			while (t[j])
				j = (j + 1) & (nc - 1);
			t[j] = (uint32_t)k + 1;
		}
		free(*tab);
		*tab = t;
		*cap = nc;
	}
	size_t j = h & (*cap - 1);
	while ((*tab)[j])
		j = (j + 1) & (*cap - 1);
	(*tab)[j] = (uint32_t)i + 1;
}

static uint64_t series_key(const void *arg, size_t k)
{
	const struct rtlseries *s = &((const struct rtimeline *)arg)->s[k];
	return key_hash(s->pid, s->image, s->index);
}

static uint64_t thread_key(const void *arg, size_t k)
{
	const struct rtlthread *t = &((const struct rtimeline *)arg)->t[k];
	return key_hash(t->pid, t->image, t->tid);
}

static long series_find(const struct rtimeline *tl, uint32_t pid,
			uint32_t image, uint32_t index)
{
	if (!tl->capshash)
		return -1;
	size_t mask = tl->capshash - 1;
	for (size_t j = key_hash(pid, image, index) & mask; tl->shash[j];
	     j = (j + 1) & mask) {
		const struct rtlseries *s = &tl->s[tl->shash[j] - 1];
		if (s->pid == pid && s->image == image && s->index == index)
			return (long)tl->shash[j] - 1;
	}
	return -1;
}

static long thread_find(const struct rtimeline *tl, uint32_t pid,
			uint32_t image, uint32_t tid)
{
	if (!tl->capthash)
		return -1;
	size_t mask = tl->capthash - 1;
	for (size_t j = key_hash(pid, image, tid) & mask; tl->thash[j];
	     j = (j + 1) & mask) {
		const struct rtlthread *t = &tl->t[tl->thash[j] - 1];
		if (t->pid == pid && t->image == image && t->tid == tid)
			return (long)tl->thash[j] - 1;
	}
	return -1;
}

const struct rtlseries *timeline_series(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t index)
{
	long i = series_find(tl, pid, image, index);
	return i < 0 ? NULL : &tl->s[i];
}

const struct rtlthread *timeline_thread(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t tid)
{
	long i = thread_find(tl, pid, image, tid);
	return i < 0 ? NULL : &tl->t[i];
}

static struct rtlseries *series_get(struct rtimeline *tl, uint32_t pid,
				    uint32_t image, uint32_t index)
{
	long i = series_find(tl, pid, image, index);
	if (i >= 0)
		return &tl->s[i];
	hash_put(&tl->shash, &tl->capshash, tl->ns,
		 key_hash(pid, image, index), tl->ns, series_key, tl);
	tl->s = xgrow(tl->s, &tl->caps, tl->ns, sizeof(*tl->s));
	struct rtlseries *s = &tl->s[tl->ns++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->image = image;
	s->index = index;
	s->rates = 1; /* until the definition says otherwise */
	return s;
}

static struct rtlthread *thread_get(struct rtimeline *tl, uint32_t pid,
				    uint32_t image, uint32_t tid)
{
	if (tl->tlast) {
		struct rtlthread *t = &tl->t[tl->tlast - 1];
		if (t->tid == tid && t->pid == pid && t->image == image)
			return t;
	}
	long i = thread_find(tl, pid, image, tid);
	if (i < 0) {
		hash_put(&tl->thash, &tl->capthash, tl->nt,
			 key_hash(pid, image, tid), tl->nt, thread_key, tl);
		tl->t = xgrow(tl->t, &tl->capt, tl->nt, sizeof(*tl->t));
		struct rtlthread *t = &tl->t[tl->nt];
		t->pid = pid;
		t->image = image;
		t->tid = tid;
		t->bins = xcalloc(TIMELINE_BINS, sizeof(*t->bins));
		i = (long)tl->nt++;
	}
	tl->tlast = (size_t)i + 1;
	return &tl->t[i];
}

/* ---- metric values ---- */

static void plain_add(struct rtimeline *tl, struct rtlseries *s, uint64_t ts,
		      double v)
{
	size_t b = bin_get(tl, ts);
	if (!s->bins)
		s->bins = xcalloc(TIMELINE_BINS, sizeof(*s->bins));
	bin_add(&s->bins[b], v);
}

/* Places (ts, d) after the values placed so far; bins is where its rate
 * goes (the series' own bins, or a copy). */
static void rate_place(int *have_wm, uint64_t *wm, uint64_t ts, double d,
		       struct rtlbin *bins, long b)
{
	if (*have_wm && ts > *wm && b >= 0 && b < TIMELINE_BINS)
		bin_add(&bins[b], d / ((double)(ts - *wm) / 1e9));
	if (!*have_wm || ts > *wm)
		*wm = ts;
	*have_wm = 1;
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

static void rate_place_own(struct rtimeline *tl, struct rtlseries *s,
			   uint64_t ts, double d)
{
	long b = (long)bin_get(tl, ts);
	if (!s->bins)
		s->bins = xcalloc(TIMELINE_BINS, sizeof(*s->bins));
	rate_place(&s->have_wm, &s->wm, ts, d, s->bins, b);
}

static void window_add(struct rtimeline *tl, struct rtlseries *s, uint64_t ts,
		       double v)
{
	if (s->have_wm && ts <= s->wm) {
		s->late++;
		return;
	}
	/* the range follows every value, placed or not, so that the bins
	 * a copy drains into already exist */
	(void)bin_get(tl, ts);
	if (s->nwin == METRICS_WINDOW) {
		if (ts < s->win[0].ts) {
			rate_place_own(tl, s, ts, v);
			return;
		}
		struct rmpoint p = s->win[0];
		s->win[0] = (struct rmpoint){ts, v};
		heap_down(s->win, s->nwin, 0);
		rate_place_own(tl, s, p.ts, p.v);
		return;
	}
	if (s->nwin == s->capwin) {
		uint32_t cap = s->capwin ? s->capwin * 2 : 16;
		if (cap > METRICS_WINDOW)
			cap = METRICS_WINDOW;
		struct rmpoint *w = realloc(s->win, cap * sizeof(*w));
		if (!w)
			oom();
		s->win = w;
		s->capwin = cap;
	}
	s->win[s->nwin] = (struct rmpoint){ts, v};
	heap_up(s->win, s->nwin++);
}

static void define(struct rtimeline *tl, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_def *d = &ev->ev_u.mdef;
	struct rtlseries *s = series_get(tl, ev->ev_pid, ev->ev_image,
					 d->md_index);
	if (s->defined)
		return; /* defined twice: the first stands, as in metrics.c */
	s->defined = 1;
	if (d->md_flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME)
		return;
	/* not a rate after all: what waited in the window are plain values,
	 * and no rate was placed (the window only places when full, and a
	 * full window of a plain metric is unlikely but possible) */
	s->rates = 0;
	for (uint32_t i = 0; i < s->nwin; i++)
		plain_add(tl, s, s->win[i].ts, s->win[i].v);
	free(s->win);
	s->win = NULL;
	s->nwin = s->capwin = 0;
	s->late = 0;
	s->have_wm = 0;
}

static void value(struct rtimeline *tl, const struct maplog_ev *ev)
{
	const struct maplog_ev_metric_value *v = &ev->ev_u.mval;
	double d;
	if (v->mv_kind == MAPLOG_VALUE_U64)
		d = (double)v->mv_v.u64;
	else if (v->mv_kind == MAPLOG_VALUE_DOUBLE)
		d = v->mv_v.dbl;
	else
		return;
	if (!isfinite(d))
		return;
	struct rtlseries *s = series_get(tl, ev->ev_pid, ev->ev_image,
					 v->mv_index);
	if (s->rates)
		window_add(tl, s, ev->ev_ts, d);
	else
		plain_add(tl, s, ev->ev_ts, d);
}

static void mark(struct rtimeline *tl, const struct maplog_ev *ev)
{
	(void)bin_get(tl, ev->ev_ts);
	if (tl->nmarks == TIMELINE_MARKS) {
		tl->marks_left_out++;
		return;
	}
	if (!tl->marks)
		tl->marks = xcalloc(TIMELINE_MARKS, sizeof(*tl->marks));
	struct rtlmark *k = &tl->marks[tl->nmarks++];
	const char *txt = ev->ev_u.mark.mk_text ? ev->ev_u.mark.mk_text : "";
	k->ts = ev->ev_ts;
	k->pid = ev->ev_pid;
	k->tid = ev->ev_u.mark.mk_tid;
	k->value = ev->ev_u.mark.mk_value;
	k->text = strndup(txt, TIMELINE_MARK_TEXT);
	if (!k->text)
		oom();
}

void timeline_fold(struct rtimeline *tl, const struct maplog_ev *ev)
{
	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE: {
		struct rtlthread *t = thread_get(tl, ev->ev_pid, ev->ev_image,
						 ev->ev_u.sample.sa_tid);
		t->bins[bin_get(tl, ev->ev_ts)]++;
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF:
		define(tl, ev);
		break;
	case MAPLOG_TYPE_METRIC_VALUE:
		value(tl, ev);
		break;
	case MAPLOG_TYPE_MARK:
		mark(tl, ev);
		break;
	default:
		break;
	}
}

static int cmp_point(const void *a, const void *b)
{
	const struct rmpoint *p = a, *q = b;
	return p->ts < q->ts ? -1 : p->ts > q->ts;
}

void timeline_series_bins(const struct rtimeline *tl,
			  const struct rtlseries *s, struct rtlbin *out)
{
	if (s->bins)
		memcpy(out, s->bins, TIMELINE_BINS * sizeof(*out));
	else
		memset(out, 0, TIMELINE_BINS * sizeof(*out));
	if (!s->nwin)
		return;
	struct rmpoint *w = malloc(s->nwin * sizeof(*w));
	if (!w)
		oom();
	memcpy(w, s->win, s->nwin * sizeof(*w));
	qsort(w, s->nwin, sizeof(*w), cmp_point);
	int have_wm = s->have_wm;
	uint64_t wm = s->wm;
	for (uint32_t i = 0; i < s->nwin; i++) {
		long b = timeline_bin_of(tl, w[i].ts);
		rate_place(&have_wm, &wm, w[i].ts, w[i].v, out, b);
	}
	free(w);
}
