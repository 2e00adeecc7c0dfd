/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pprof: the run as a pprof profile (mapreport --pprof FILE), the
 * gzip-compressed protocol buffer that go tool pprof, and the viewers
 * that read its format, open.  The messages are described in
 * profile.proto; protoc-c generates their encoder at build time.
 */
#ifndef MAPSAMPLE_REPORT_OUT_PPROF_H
#define MAPSAMPLE_REPORT_OUT_PPROF_H

#include <stdio.h>

#include "report/out/output.h"

/*
 * Writes in's run to out as one gzip-compressed pprof profile: sample
 * types samples/count and cpu (or wall)/nanoseconds, the sampling period,
 * a location per sampled address with its lines (function, file, line;
 * inlined functions as more lines of the location, innermost first), a
 * mapping per loaded file that holds one, and a sample per stack and
 * thread labelled with pid, tid, thread and process names, and rank,
 * log or pid_ns where two processes have one pid.  Reads in's
 * logs again (report/out/rescan.h).  The "pprof" back-end's emit
 * (output.h).  Returns 0, MAPS_ENOMEM (nothing written), or MAPS_EIO on
 * a write error.
 */
int pprof_emit(const struct output_in *in, FILE *out);

#endif
