/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * window: puts the values of one metric series back in time order, for
 * metrics divided by sample time, whose rates need each value's
 * predecessor in time.  A process's values land in the chunks of the
 * threads that took them, and those chunks interleave in the file, so in
 * file order a series' times go back and forth.
 *
 * A window holds up to WINDOW_MAX values in a min-heap on time; when it
 * is full, the earliest is placed: its rate is its value (a delta) over
 * the time since the value placed before it.  A value older than one
 * already placed is late: counted, never placed.  So rates are exact
 * whenever no value arrives more than WINDOW_MAX values of its series out
 * of place, and memory is at most WINDOW_MAX values, whatever the number
 * of values.  window_drain() places what the window still holds on a
 * copy, so results can be asked for at any time and folding goes on.
 * The statistics (metrics.c) and the timeline (timeline.c) both keep
 * their rate series through it; what a rate becomes is theirs (a
 * window_rate_fn).
 */
#ifndef MAPSAMPLE_MODEL_WINDOW_H
#define MAPSAMPLE_MODEL_WINDOW_H

#include <stddef.h>
#include <stdint.h>

/* Values a window holds back to restore time order. */
#define WINDOW_MAX 4096

struct window_point {
	uint64_t ts;
	double v;
};

/* All zero is an empty window. */
struct window {
	struct window_point *pt; /* min-heap on ts, at most WINDOW_MAX */
	size_t n, cap;
	int have_wm;
	uint64_t wm;             /* time of the last value placed */
	uint64_t late;           /* values older than one already placed */
};

/* Told of each rate: rate is the value placed at ts over the seconds
 * since the value placed before it. */
typedef void (*window_rate_fn)(void *ctx, uint64_t ts, double rate);

/*
 * Adds the value v at time ts to w.  Values placed on the way (the
 * earliest, when w is full) go to fn with ctx.  Returns 0, or MAPS_ENOMEM
 * with w unchanged and the value not added.
 */
int window_add(struct window *w, uint64_t ts, double v, window_rate_fn fn,
	       void *ctx);

/* Whether a value at time ts would be late: older than (or as old as) a
 * value already placed. */
int window_late(const struct window *w, uint64_t ts);

/*
 * Places every value w holds, in time order, after those placed so far,
 * telling fn of each rate; w is not changed (the watermark is copied).
 * Needs no memory: WINDOW_MAX values on the stack (64 KiB).
 */
void window_drain(const struct window *w, window_rate_fn fn, void *ctx);

/* Told of each value placed, in time order: its time ts and value v,
 * and the time prev of the value placed before it (have_prev 0: it is
 * the first).  Its rate, when ts > prev, is v over the seconds since
 * prev; a value at the time of its predecessor has none. */
typedef void (*window_place_fn)(void *ctx, uint64_t ts, double v,
				int have_prev, uint64_t prev);

/* window_add() and window_drain() telling fn of each value placed, not
 * of its rate: for those who need to know which value a rate is
 * since. */
int window_add_placed(struct window *w, uint64_t ts, double v,
		      window_place_fn fn, void *ctx);
void window_drain_placed(const struct window *w, window_place_fn fn,
			 void *ctx);

/* Frees w's values and makes it empty (watermark and late count too). */
void window_free(struct window *w);

#endif
