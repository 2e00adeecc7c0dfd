/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan: the launcher's side of metric plugins: find and validate the
 * metric definition files, choose the metrics (--metrics), make the plan
 * the sampler reads (MAPSAMPLE_METRICS_PLAN), list them (--list-metrics)
 * and show the plugins' errors when the run ends.  (lib/model's metrics_*
 * are what a log says the metrics measured; plan_* is what to measure.)
 */
#ifndef MAPSAMPLE_CMD_PLAN_H
#define MAPSAMPLE_CMD_PLAN_H

#include <stddef.h>

struct plan_opts {
	const char **dirs;     /* --metrics-dir, in order */
	size_t ndirs;
	const char *select;    /* --metrics, items joined by ',' ; NULL: default */
	const char *installed; /* the built-in definitions' directory */
	int quiet;
	const char *auto_select; /* with no --metrics: items added to the
				  * default, each only when some metric has
				  * that name (no error otherwise); NULL:
				  * none */
};

struct plan {
	char *plan;            /* MAPSAMPLE_METRICS_PLAN value, NULL: none */
	char *preload;         /* ':'-separated <preload> libraries, or NULL */
	size_t nmetrics;
};

/* Loads, checks and selects into *out.  Prints diagnostics (stderr).
 * Returns 0, or -1 when the run must not go on (an explicitly asked metric
 * that is not available, an unknown --metrics item, a --metrics-dir that
 * is missing). */
int plan_prepare(const struct plan_opts *o, struct plan *out);

/* Frees what plan_prepare() put in p and clears it. */
void plan_free(struct plan *p);

/* --list-metrics: prints every definition found and whether it can run
 * (probe: runs `true` under the sampler with every metric).  sampler is
 * the sampler library path.  Returns the exit status. */
int plan_list(const struct plan_opts *o, const char *sampler);

struct rmetrics;
/* After the run: one line per plugin error and per metric with errors,
 * from the metrics of the loaded log.  Prints nothing when there are
 * none. */
void plan_report_errors(const struct rmetrics *x);

struct mapjob;
/* Sets MAPSAMPLE_RUN_ID unless set, so that onePerNode metrics are
 * computed once per node per run: the job id of job (mapjob_detect() on
 * this launcher's environment) when it is a rank of a job with one, which
 * every rank of the job on a node agrees on (MPICH's Hydra included,
 * whose ranks have no job variable), else the MPI job the environment
 * names (PMIx namespace, Open MPI job id, Slurm job and step), else this
 * launcher's pid and start time.  job may be NULL. */
void plan_set_run_id(const struct mapjob *job);

#endif
