/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * job: the summary (report/summary.h) and the per-rank figures
 * (report/ranks.h) in each output: text (job_text: the "Summary" section
 * after the run header and, with several processes, the "Ranks"
 * section), HTML (job_html_summary at the top of the page, job_html_ranks
 * with the per-rank table, the rank x time heat map and the metric
 * charts' min-max band across ranks); json.c writes the same figures
 * (job_build) as the members "performance" and "ranks".
 */
#ifndef MAPSAMPLE_REPORT_OUT_JOB_H
#define MAPSAMPLE_REPORT_OUT_JOB_H

#include <stdio.h>

#include "report/out/output.h"
#include "report/ranks.h"
#include "report/summary.h"

struct job {
	struct ranks rk;
	struct summary sm;
};

/* Fills j from in's model and analysis.  Returns 0 or MAPS_ENOMEM (j
 * then empty). */
int job_build(struct job *j, const struct output_in *in);
void job_free(struct job *j);

/* Rows of the Ranks tables beyond which only the slowest and fastest
 * are listed (all are in the JSON). */
#define JOB_ROWS 64

/* The text sections.  Return 0, or MAPS_ENOMEM. */
int job_text_summary(const struct output_in *in, FILE *out);
int job_text_ranks(const struct output_in *in, FILE *out);

/* The HTML sections.  Return 0, or MAPS_ENOMEM. */
int job_html_summary(const struct output_in *in, FILE *out);
int job_html_ranks(const struct output_in *in, FILE *out);

#endif
