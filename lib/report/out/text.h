/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text: the text report (mapreport's default output, on standard output):
 * run header, processes and threads, metrics and metric plugin errors,
 * partial reports, top functions by self and by total samples.  Written
 * by text.c, with the metrics part in text_metrics.c and the partial
 * reports in partial_text.c.
 */
#ifndef MAPSAMPLE_REPORT_OUT_TEXT_H
#define MAPSAMPLE_REPORT_OUT_TEXT_H

#include <stdio.h>

#include "model/model.h"
#include "report/out/output.h"
#include "report/partial_eval.h"

/*
 * The text report of in (its model, analysis, partial reports, top rows)
 * to out: the "text" back-end's emit (output.h).  Returns 0, or
 * MAPS_ENOMEM (the report is cut short).  Write errors are not reported:
 * the text report never failed on them.
 */
int text_emit(const struct output_in *in, FILE *out);

/* The text report's partial-report sections, to out; nothing when r has
 * no report.  Returns 0, or MAPS_ENOMEM (the sections are cut short). */
int text_partial(const struct partial_result *r, FILE *out);

/* The report's "Metrics" and "Metric plugin errors" parts of x, the
 * metrics of m (whose processes name the pids), to out; nothing when the
 * logs hold no metric records.  Returns 0, or MAPS_ENOMEM with nothing
 * written. */
int text_metrics(const struct rmetrics *x, const struct model *m,
		 FILE *out);
/* Prints s (nothing for NULL) with control characters as spaces (text
 * from a log, a plugin or a user's file).  text_clean.c. */
void text_put_clean(FILE *out, const char *s);

/* The MPI call statistics and the samples in MPI (text_mpi.c), when the
 * logs hold MPI call statistics.  Returns 0 or MAPS_ENOMEM. */
int text_mpi(const struct model *m, FILE *out);

/* The Processes and Threads tables (text_procs.c): a process's exec'd
 * images together under a line for the process and its exec chain, at
 * most images of them listed (0: all).  Returns 0 or MAPS_ENOMEM (the
 * tables not written). */
int text_procs(const struct model *m, unsigned images, FILE *out);

#endif
