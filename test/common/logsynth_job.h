/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logsynth_job: the records of the job scenario (logsynth.h), for
 * logsynth.c to write.  Each function fills ev[0..n) and returns n (at
 * most LOGSYNTH_JOB_MAX); strings point to constants.
 */
#ifndef MAPSAMPLE_LOGSYNTH_JOB_H
#define MAPSAMPLE_LOGSYNTH_JOB_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "logsynth.h"

#define LOGSYNTH_JOB_MAX 8

/* The JOB record and the metric definitions, at ts. */
size_t logsynth_job_defs(const struct logsynth_opts *o, uint64_t ts,
			 struct maplog_ev *ev);

/* One value of each metric at sample i (taken at ts), drawn from the
 * random number r. */
size_t logsynth_job_values(uint64_t r, uint64_t ts, uint64_t i,
			   struct maplog_ev *ev);

/* The MPI_CALLS records of the rank, at ts. */
size_t logsynth_job_calls(const struct logsynth_opts *o, uint64_t ts,
			  struct maplog_ev *ev);

#endif
