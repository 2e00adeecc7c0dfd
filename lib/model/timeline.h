/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timeline: what a run did over time, in a fixed number of time bins.
 *
 * timeline_fold() takes the records of the logs in file order, as the
 * model reads them (model.c calls it for every record when the model's
 * timeline is switched on).  It keeps, per time bin, the samples of each
 * thread and the min, max, sum and count of each metric series (one
 * metric in one process image; for a metric divided by sample time, of
 * its rates: delta over the time since the series' previous value).
 *
 * The bins cover [origin, origin + TIMELINE_BINS << shift) ns of
 * CLOCK_MONOTONIC.  The range starts small (TIMELINE_SHIFT0) at the first
 * record; when a record falls after it, adjacent bins merge in pairs and
 * the bin width doubles; when one falls before it, the same merge moves
 * the old bins to the upper half.  So memory is TIMELINE_BINS x (series +
 * threads) bins, whatever the number of samples, plus the time-order
 * window of rate series (at most WINDOW_MAX values each, model/window.h:
 * values land in their threads' chunks, out of time order) and at most
 * TIMELINE_MARKS user marks.  Nothing here depends on the record order
 * except the rates, which follow the rules of metrics.c.
 */
#ifndef MAPSAMPLE_MODEL_TIMELINE_H
#define MAPSAMPLE_MODEL_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "model/keymap.h"
#include "model/window.h"

#define TIMELINE_BINS 512
#define TIMELINE_SHIFT0 20      /* first bin width: 2^20 ns, about 1 ms */
#define TIMELINE_MARKS 256      /* user marks kept (the earliest in file) */
#define TIMELINE_MARK_TEXT 200  /* bytes of a mark's text kept */

/* Values of one series in one bin. */
struct rtlbin {
	double min, max, sum;
	uint64_t n;
};

/* One metric (index md_index) of one process image. */
struct rtlseries {
	uint32_t pid, image, index;
	int defined;           /* its METRIC_DEF was seen */
	int rates;             /* divided by sample time, or not yet defined */
	struct rtlbin *bins;   /* TIMELINE_BINS, from the first value */
	struct window win;     /* rate series: time order; win.late: values
				* older than one already placed */
};

/* Samples of one thread per bin. */
struct rtlthread {
	uint32_t pid, image, tid;
	uint32_t *bins;        /* TIMELINE_BINS */
};

struct rtlmark {
	uint64_t ts;
	uint32_t pid, tid;
	uint64_t value;
	char *text;
};

struct rtimeline {
	int have_range;
	int64_t origin;        /* ns; start of bin 0 */
	unsigned shift;        /* bin width is 1 << shift ns */
	struct rtlseries *s;
	size_t ns, caps;
	struct keymap skeys;   /* (pid, image, index) -> s index */
	struct rtlthread *t;
	size_t nt, capt;
	struct keymap tkeys;   /* (pid, image, tid) -> t index */
	size_t tlast;          /* t index + 1 of the last sample's thread */
	struct rtlmark *marks;
	size_t nmarks;
	uint64_t marks_left_out;
};

void timeline_init(struct rtimeline *tl);
void timeline_free(struct rtimeline *tl);

/*
 * Folds ev into tl if it is a sample, metric definition, metric value or
 * user point mark (region begins and ends are model/regions.h's);
 * ignores other records.  Returns 0, or MAPS_ENOMEM when
 * memory ran out: tl then holds what was folded before (perhaps not all
 * of ev) and can still be freed.
 */
int timeline_fold(struct rtimeline *tl, const struct maplog_ev *ev);

/* Bin width in ns, and the start time of bin i (CLOCK_MONOTONIC ns);
 * both 0 before the first record. */
uint64_t timeline_width(const struct rtimeline *tl);
int64_t timeline_bin_start(const struct rtimeline *tl, size_t i);

/* The bin that holds time ts: -1 before bin 0, TIMELINE_BINS after the
 * last bin. */
long timeline_bin_of(const struct rtimeline *tl, uint64_t ts);

/* The series of (pid, image, index), or NULL. */
const struct rtlseries *timeline_series(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t index);

/* The thread (pid, image, tid), or NULL. */
const struct rtlthread *timeline_thread(const struct rtimeline *tl,
					uint32_t pid, uint32_t image,
					uint32_t tid);

/*
 * Writes the TIMELINE_BINS bins of series s into out, with the values its
 * time-order window still holds placed (on a copy: tl is not changed, and
 * folding can go on).  Bins with n == 0 have no value.
 */
void timeline_series_bins(const struct rtimeline *tl,
			  const struct rtlseries *s, struct rtlbin *out);

#endif
