/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * speedscope: the run in speedscope's file format (mapreport
 * --speedscope FILE), JSON that https://www.speedscope.app and its
 * offline copies open: frames shared by all profiles, one "sampled"
 * profile per thread.
 */
#ifndef MAPSAMPLE_REPORT_OUT_SPEEDSCOPE_H
#define MAPSAMPLE_REPORT_OUT_SPEEDSCOPE_H

#include <stdio.h>

#include "report/out/output.h"

/*
 * Writes in's run to out as one speedscope file: a frame per function of
 * the analysis that a sample holds (name, and the file and line of its
 * hottest line when known), and per thread with samples a "sampled"
 * profile whose samples are its distinct stacks (root first, in the order
 * of their function names, so "time order" reads as a flame graph) with
 * their weights in ns of the sampling clock (unit "nanoseconds"; sample
 * counts, unit "none", when a log gave no weights).  Reads in's logs
 * again (report/out/rescan.h).  The "speedscope" back-end's emit
 * (output.h).  Returns 0, MAPS_ENOMEM, or MAPS_EIO on a write error.
 */
int speedscope_emit(const struct output_in *in, FILE *out);

#endif
