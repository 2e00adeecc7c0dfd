/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace: the run in the Chrome trace event format (mapreport --trace
 * FILE), the JSON object with "traceEvents" that Perfetto's UI
 * (ui.perfetto.dev) and chrome://tracing open: a track per thread with
 * what it ran over time, the user marks, and the metrics as counters.
 */
#ifndef MAPSAMPLE_REPORT_OUT_TRACE_H
#define MAPSAMPLE_REPORT_OUT_TRACE_H

#include <stdio.h>

#include "report/out/output.h"

/*
 * Writes in's run to out as one Chrome trace: "process_name" and
 * "thread_name" metadata events (ph "M") for every process image and
 * thread; per thread, the samples as complete events (ph "X") named by
 * their leaf function, consecutive samples of one function merged into
 * one slice; each user mark as an instant event (ph "i") on its thread;
 * each metric of each process as a counter (ph "C") with its mean over
 * each bin of the model's timeline (in->oi_model must have been read
 * with the timeline on).  Times are microseconds from the run's first
 * record.  Reads in's logs again (report/out/rescan.h).  The "trace"
 * back-end's emit (output.h).  Returns 0, MAPS_ENOMEM (the output is cut
 * short), or MAPS_EIO on a write error.
 */
int trace_emit(const struct output_in *in, FILE *out);

#endif
