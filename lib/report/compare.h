/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare: what changed between two sets of runs, BASE and NEW, for
 * mapreport --compare (mapreport(1), COMPARING RUNS).  Each side is one
 * or more runs, each a model read from one log with its analysis.  The
 * comparison is a list of rows: the whole-run time, every function (by
 * self and by total samples), module, process name and metric (mean,
 * max and, for rate metrics, total) and partial report value, each with its figures on both sides, the change and how many
 * standard errors of the sampling noise that change is.  No formatting
 * here: the writers are lib/report/out/compare_*.c.
 *
 * NOISE MODEL
 *   A share p of N samples has the binomial variance p(1-p)/N.  Samples
 *   close in time are correlated, so each run's samples are also counted
 *   per block of time (report/compare_blocks.h) and the variance of the
 *   share estimated from its spread over the blocks (batch means, blocks
 *   as clusters of a ratio estimate), at CMP_LEVELS block lengths.  With
 *   several runs on a side, the variance of the mean of the per-run
 *   shares (their spread squared over the number of runs) is a third
 *   estimate.  Each side takes the largest, with its degrees of freedom
 *   (blocks or runs less one; infinite for the binomial one).  The
 *   significance of a change of share is the t statistic
 *   (p_new - p_base) / sqrt(var_base + var_new), with Welch-Satterthwaite
 *   degrees of freedom, turned into the normal deviate of the same tail
 *   probability, in sigma; of the block lengths, the least significant
 *   counts.  The whole-run time counts samples: its relative standard
 *   error is 1/sqrt(N), or the runs' spread when larger.  A metric has a
 *   noise estimate only from several runs on both sides (its sigma is
 *   NaN otherwise).  A partial report value never has one (sigma NaN):
 *   it is a metric combined over processes and time, whose spread a run
 *   does not say.  A metric's total is defined for the metrics
 *   divided by sample time (rates: B/s, /s, W, % of a CPU): the sum of
 *   the values the plugin returned before the division, over every
 *   process of the run, in the units before it (B, a count, J, seconds;
 *   the Metrics section's TOTAL, model/units.h units_undivided()): the
 *   integral of the rate over the run.  Other metrics are levels (RSS,
 *   load), whose sum over samples would count the sampling rate, so
 *   they have no total row.  Variation from run to run that is steady within a
 *   run (Python's hash seed, address layout, a busy machine) shows only
 *   in the spread of several runs.  With several runs on one side and
 *   one on the other, the lone run's variance is at least the other
 *   side's variance of one run (its spread squared; the same program's
 *   runs vary alike), with that side's degrees of freedom.  With one run
 *   on both sides nothing shows it, and a note says so.  For the
 *   whole-run time, whose only estimate within a run is the count of its
 *   samples, a side of one run has the variance between runs assumed
 *   (compare_run_noise(); default CMP_RUN_NOISE percent of its time, as
 *   a standard deviation) added to that count's: two runs of one build
 *   differ in CPU time by a few percent (xz: 3.3% standard deviation
 *   over 10 runs on a busy machine), which a long run's sample count
 *   alone would take for a change.
 */
#ifndef MAPSAMPLE_REPORT_COMPARE_H
#define MAPSAMPLE_REPORT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "report/analyze.h"
#include "report/compare_blocks.h"
#include "report/partial_eval.h"

/* What a row measures. */
enum cmp_kind {
	CMP_TIME,        /* whole-run CPU (or wall) seconds, name "total" */
	CMP_SELF,        /* a function's self samples */
	CMP_TOTAL,       /* a function's total samples */
	CMP_MODULE,      /* self samples in a module (loaded file) */
	CMP_PROCESS,     /* samples of the processes of one program */
	CMP_METRIC_MEAN, /* a metric's mean value */
	CMP_METRIC_MAX,  /* a metric's largest value */
	CMP_METRIC_TOTAL,/* a rate metric's total over the run */
	CMP_PARTIAL,     /* a partial report's value (a reportMetric) */
	CMP_NKINDS
};

/* One side of a row.  For sample rows value is the pooled samples, share
 * their fraction of the side's samples, seconds that share of the side's
 * time per run; for CMP_TIME value and seconds are the time per run; for
 * metrics value is the mean over runs of the per-run figure (share and
 * seconds NaN); partial report values are metrics. */
struct cmp_val {
	int present;       /* seen in at least one run of the side */
	double value, share, seconds;
	double spread;     /* standard deviation over the runs (of share for
			    * sample rows, of value else); NaN with one run */
};

struct cmp_row {
	enum cmp_kind kind;
	char *name;          /* function, module, program, metric id */
	char *module;        /* a function's module (NEW's, else BASE's) */
	char *units;         /* a metric's units, else NULL */
	char *key;           /* what rows are matched by (private) */
	double *runs;        /* the figure of each run, BASE's then NEW's
			      * (private) */
	double *blk;         /* per run and block length (CMP_LEVELS):
			      * sum over its blocks of c*c and of c*n (c the
			      * row's samples in the block, n all samples
			      * in it) (private) */
	struct cmp_val base, new;
	double d_pp;         /* change of share, percentage points (NaN for
			      * CMP_TIME and metrics) */
	double d_seconds;    /* change of seconds per run (NaN for metrics) */
	double d_value;      /* change of value (samples, seconds, metric) */
	double d_rel;        /* change relative to BASE, percent: of seconds,
			      * or of the metric's value; NaN when BASE is 0 */
	double sigma;        /* change over its standard error; NaN when no
			      * noise estimate; +-CMP_SIGMA_MAX when noise 0 */
};

#define CMP_SIGMA_MAX 999.0
/* The default standard deviation between runs of the whole-run time
 * assumed for a side of one run, percent of that time. */
#define CMP_RUN_NOISE 2.0
/* Block lengths of the within-run estimate: CMP_BLOCKS blocks a run,
 * then half as many twice as long, ... */
#define CMP_LEVELS 3

/* One side's summary. */
struct cmp_side {
	size_t nruns;
	uint64_t samples;    /* pooled */
	double seconds;      /* of the sampling clock, per run (mean) */
	int wall;            /* the sampling clock is wall time */
	char *program;       /* first run's program ("[unknown]") */
	char *command;       /* first run's command line, or NULL */
};

/* One run given to compare_run. */
struct cmp_run {
	const struct model *cr_model;
	const struct analysis *cr_analysis;
	/* the partial reports' values in the run (report/partial_eval.h),
	 * a row each of the report metrics with a value; NULL: none */
	const struct partial_result *cr_partial;
	/* the run's samples per stack per block of time
	 * (report/compare_blocks.h); NULL: none, no within-run estimate */
	const struct cmp_blocks *cr_blocks;
};

struct comparison {
	struct cmp_side base, new;
	struct cmp_row *rows;   /* by kind, then the largest change first */
	size_t nrows, caprows;
	char **notes;           /* one line each: "BASE and NEW run ..." */
	size_t nnotes, capnotes;
	double run_noise;       /* percent: the whole-run time's assumed
				 * variation between runs, for a side of
				 * one run (compare.h, NOISE MODEL) */
	/* private */
	uint32_t *idx;          /* rows by (kind, key): index + 1 */
	size_t capidx;
	size_t ncols;           /* runs: nbase + nnew */
	uint64_t *col_samples;  /* samples of each run */
	double *col_snn;        /* per run and block length: sum over its
				 * blocks of n*n */
	size_t *col_nblk;       /* per run and block length: blocks with
				 * samples (0: none) */
};

/*
 * Compares the runs base[0..nbase) with new[0..nnew) (both at least
 * one) into c.  Functions are matched by name across builds (names are
 * demangled); code without symbols ("module+0xOFFSET") only when its
 * module has the same build-id on both sides.  The models and analyses
 * may be freed afterwards: c keeps its own copies.  Returns 0, or
 * MAPS_ENOMEM with c empty.
 */
int compare_run(struct comparison *c, const struct cmp_run *base,
		size_t nbase, const struct cmp_run *new, size_t nnew);

/* compare_run() with run_noise (percent, >= 0; 0: none) instead of
 * CMP_RUN_NOISE as the whole-run time's standard deviation between runs
 * assumed for a side of one run. */
int compare_run_noise(struct comparison *c, const struct cmp_run *base,
		      size_t nbase, const struct cmp_run *new, size_t nnew,
		      double run_noise);

/* Frees what c holds (an empty or failed comparison too). */
void compare_free(struct comparison *c);

/* The kind's id in rules and JSON: "time", "self", "total", "module",
 * "process", "metric-mean", "metric-max", "metric-total", "partial". */
const char *compare_kind_id(enum cmp_kind k);

#endif
