/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run: running mapreport's picked output back-ends
 * (lib/report/out/output.h) and reading the partial report definitions,
 * for main.c and compare.c.
 */
#ifndef MAPREPORT_RUN_H
#define MAPREPORT_RUN_H

#include "cmd/mapreport/args.h"
#include "defs/partial.h"
#include "report/out/output.h"

/* Says "out of memory" on standard error; returns 1 (the exit status). */
int run_oom(void);

/* Picks the back-end named name to write to path (NULL: standard output)
 * into outs, which has a slot per row of output_backends. */
void pick(struct output *outs, const char *name, const char *path);

/* Opens the picked output o (its back-end's init).  Returns 0, or 1 when
 * it cannot be written (said on standard error). */
int start_output(struct output *o);

/* Runs the picked output o over in: init, emit, finish.  Returns 0, 1
 * when it could not be written (said on standard error), or MAPS_ENOMEM. */
int run_output(struct output *o, const struct output_in *in);

/*
 * The partial report definitions (mapreport(1), PARTIAL REPORTS), their
 * diagnostics said on standard error; a definition with an error is left
 * out and sets *status to 1.  NULL when out of memory.
 */
struct partial_set *load_partials(const struct args *a, int *status);

/* The value arg of --jobs into *jobs (0: auto).  Returns 0, or 1 when
 * it is neither a number from 1 to LOGPOOL_MAX_THREADS + 1 nor "auto"
 * (said on standard error). */
int run_jobs_option(const char *arg, unsigned *jobs);

/* --jobs auto: the CPUs online, at most 8 (past a few, the thread that
 * folds the logs into the model is the limit, not their decoding). */
unsigned run_auto_jobs(void);

/*
 * When reread (the report may read its logs more than once: the regions,
 * --region, --time, the exports, the HTML page's narrowing), arms
 * model/spool.h for those of logs[0..n) that are not regular files
 * (pipes, FIFOs, <(...)): they are copied to a temporary file as they are
 * read the first time, each problem of that said on standard error, and
 * every copy closed at exit.  Returns 0 or MAPS_ENOMEM.
 */
int run_spool(const char *const *logs, size_t n, int reread);

#endif
