/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text report's writers (one per part of the text report).
 */
#ifndef MAPSAMPLE_REPORT_OUT_TEXT_H
#define MAPSAMPLE_REPORT_OUT_TEXT_H

#include <stdio.h>

#include "model/model.h"
#include "report/analyze.h"
#include "report/partial_eval.h"

/* The text report's partial-report sections, to out; nothing when r has
 * no report.  Returns 0, or MAPS_ENOMEM (the sections are cut short). */
int report_partial(const struct partial_result *r, FILE *out);

/* The text report's run header, processes and threads tables and
 * metrics part, to out.  Returns 0 or MAPS_ENOMEM. */
int report_text(const struct model *m, FILE *out);

/* The report's "Metrics" and "Metric plugin errors" parts, to out;
 * nothing when the logs hold no metric records.  Returns 0, or
 * MAPS_ENOMEM with nothing written. */
int report_metrics(const struct rmetrics *x, FILE *out);

/* The top-functions tables (by self, by total samples) of the analysis a
 * of m, top rows each; nothing when top is 0 or m has no samples. */
void report_functions(const struct analysis *a, const struct model *m,
		      FILE *out, unsigned top);

#endif
