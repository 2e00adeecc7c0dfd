/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metrics: what a run's metric plugins measured, as running statistics.
 *
 * metrics_fold() takes the METRIC_DEF, METRIC_VALUE, PLUGIN_ERROR and
 * METRIC_ERROR records of the logs in file order.  A metric of the run is
 * one metric id; in each process image (pid, exec image) it has a series
 * holding count, min, max, sum, first and last time and error count.
 * Memory grows with the number of metrics and processes, never with the
 * number of values: a series of a metric divided by sample time also
 * keeps a window of at most METRICS_WINDOW values to put them back in
 * time order (model/window.h).  metrics_summary() turns a metric's series
 * into one row of the report (lib/report/out prints the section).
 *
 * Cells.  Each series also sums its values in time cells, for the partial
 * reports (lib/report/partial_eval.c), so that they need no second read
 * of the logs: cell j of the run holds the times t with t >> cshift == j,
 * one width 2^cshift ns for every series.  A series has the cells from
 * that of its earliest value to that of its latest.  The width doubles
 * (cells 2j and 2j + 1 merge) when the time from the earliest to the
 * latest value of the run would be more than METRICS_RUN_CELLS cells
 * (bins of a partial report are at least a thousandth of that time, so
 * a cell is then at most about a thirtieth of a bin), or the cells of
 * all series more than
 * METRICS_MAX_CELLS.  So memory is bounded by METRICS_MAX_CELLS cells of
 * 40 bytes, and by METRICS_RUN_CELLS cells a series, never by the number
 * of values.
 */
#ifndef MAPSAMPLE_MODEL_METRICS_H
#define MAPSAMPLE_MODEL_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include <mapsample/maplog.h>

#include "model/keymap.h"
#include "model/window.h"

/* Values of one series a rate metric holds back to restore time order. */
#define METRICS_WINDOW WINDOW_MAX

/* One metric id of the run, from its first definition. */
struct rmetric {
	char *id, *name, *units, *plugin;
	uint32_t flags;     /* MAPLOG_MD_* */
	uint32_t datatype;  /* enum maplog_datatype */
};

/* Rates of a series placed in time order: their min and max. */
struct rmrate {
	uint64_t n;         /* rates */
	double min, max;
};

/* Most time cells (struct rmcell) of all series together, and most
 * cells over the time the run's values span. */
#define METRICS_MAX_CELLS (1u << 22)
#define METRICS_RUN_CELLS 65536u

/* The values of a series in one time cell.  Nothing depends on the order
 * in which they came. */
struct rmcell {
	uint64_t min_ts, max_ts; /* earliest and latest time */
	double sum, min_v;  /* min_v: the value at min_ts */
	uint32_t n;         /* values; 0: an empty cell */
};

/* One metric in one process image. */
struct rmseries {
	uint32_t pid, image, index;
	uint32_t metric;    /* metrics index + 1; 0 until defined */
	int rates;          /* keeps the window: divided, or not yet defined */
	uint64_t n;         /* values */
	uint64_t none;      /* times with no value (or not a finite number) */
	uint64_t none_first_ts; /* earliest of those (valid when none) */
	double sum;         /* of all values (deltas, for rate metrics),
			     * rounded; sum_lo what rounding left out
			     * (metrics_sum_add()) */
	double sum_lo;
	double vmin, vmax;  /* of all values */
	uint64_t first_ts, last_ts;
	double first_v;     /* the value at first_ts */
	struct rmrate rate; /* of the values placed */
	struct window win;  /* time order; win.late: values too far out of
			     * order to place */
	uint64_t errors;    /* largest running error count seen */
	uint64_t err_ts;
	char *err_msg;      /* message of the earliest error record */
	struct rmcell *cells; /* cells c0 to c0 + nc - 1 (x->cshift) */
	uint64_t c0;
	size_t nc, capc;
};

/* A process image, by its model keys. */
struct rmproc {
	uint32_t pid, image;
};

struct rperr {
	char *plugin, *message;
	uint64_t count;     /* records: one per process that loaded it */
	struct rmproc *procs; /* the process of each record, count of them */
	size_t capprocs;
};

struct rmetrics {
	struct rmetric *m;
	size_t nm, capm;
	struct rmseries *s;
	size_t ns, caps;
	struct keymap keys; /* (pid, image, index) -> series index */
	struct rperr *pe;
	size_t npe, cappe;
	unsigned cshift;    /* cells are 2^cshift ns wide */
	size_t ncells;      /* cells allocated, all series */
	uint64_t clo, chi;  /* earliest and latest time in a cell */
	uint64_t cvalues;   /* values in cells */
};

/* One row of the metrics table. */
struct rmsummary {
	const struct rmetric *metric;
	int rate;           /* divided by sample time */
	uint64_t values, none, late;
	uint64_t procs;     /* series with values */
	int have_minmax, have_mean;
	double min, mean, max;
	double total;       /* rate metrics: sum of all deltas */
	uint64_t errors;
	const char *err_msg;/* earliest, NULL if none */
};

/* Adds v to the sum *hi + *lo, *hi being it rounded and *lo what
 * rounding left out (compensated summation, kept normalized): the sum is
 * then the exact sum rounded, in all but rare cases, whatever the order
 * of the values, so that a report adding them up in another order (the
 * HTML page's, per time bin) finds the same figure. */
static inline void metrics_sum_add(double *hi, double *lo, double v)
{
	double t = *hi + v;
	double e = (*hi >= 0 ? *hi : -*hi) >= (v >= 0 ? v : -v)
			   ? (*hi - t) + v
			   : (v - t) + *hi;
	double l = *lo + e;
	*hi = t + l;
	*lo = l - (*hi - t);
}

/* The name a report shows for metric mt: its display name, or its id
 * when it has none. */
const char *metrics_display_name(const struct rmetric *mt);

/* The number a METRIC_VALUE record holds: 1 with *d set when it holds a
 * finite number, 0 when it holds none (MAPLOG_VALUE_NONE, NaN, inf). */
int metrics_value(const struct maplog_ev_metric_value *v, double *d);

void metrics_init(struct rmetrics *x);
void metrics_free(struct rmetrics *x);

/*
 * Folds ev into x if it is a metric definition, value, plugin error or
 * metric error record; ignores other records.  Strings are copied.
 * Returns 0, or MAPS_ENOMEM when memory ran out: x then holds what was
 * folded before (perhaps not all of ev) and can still be freed.
 */
int metrics_fold(struct rmetrics *x, const struct maplog_ev *ev);

/* Fills *r with the row of metric i (0 <= i < x->nm); x is not changed,
 * so it can be called again after more records were folded. */
void metrics_summary(const struct rmetrics *x, size_t i,
		     struct rmsummary *r);

/* metrics_summary() of the series of process pid (a model key: every
 * image of it) alone, or of all with METRICS_ALL_PIDS. */
#define METRICS_ALL_PIDS UINT32_MAX
void metrics_summary_of(const struct rmetrics *x, size_t i, uint32_t pid,
			struct rmsummary *r);

/*
 * Keeps in x only what the process images (pid, image) for which
 * keep(ctx, pid, image) returns nonzero measured: their series and their
 * plugin errors (counts recounted); the metrics' definitions stay.  For
 * a report narrowed to some processes, after the logs were read.
 * Returns 0, or MAPS_ENOMEM (x then holds the series kept, but can only
 * be read and freed, no more folded).
 */
int metrics_keep(struct rmetrics *x,
		 int (*keep)(void *ctx, uint32_t pid, uint32_t image),
		 void *ctx);


#endif
