/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * job: the process's place in a parallel job, recorded as JOB records
 * (mapsample-log(5)) on the process stream.  job_start() works it out
 * once per process image from the environment its launcher set and the
 * program's name (lib/log/mapjob.c) and writes the record when the
 * process is a rank or a launcher; a fork child of a launcher writes it
 * again (job_after_fork_child()), a fork child of a rank does not (it is
 * a helper of the rank, not the rank).
 *
 * mapsample_job_rank() is exported for the MPI library's side: a PMPI
 * wrapper calls it (looked up with dlsym(RTLD_DEFAULT)) once MPI_Init
 * has run, with the rank and size MPI_COMM_WORLD gives.  It writes a JOB
 * record with source "MPI", which readers take over what the variables
 * said.
 *
 * Calls stream.c below it; called by sampler.c and process.c.  Not
 * async-signal-safe: process records go through proc_lock.
 */
#include <stdio.h>
#include <string.h>

#include <mapsample/plugin.h>

#include "log/mapjob.h"
#include "sampler/sampler_i.h"

static struct mapjob job;
static int in_job;

/* Writes j as a JOB record on the process stream. */
static void put(const struct mapjob *j)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_JOB;
	ev.ev_ts = now_ns();
	mapjob_to_ev(j, &ev.ev_u.job);
	stream_proc_put(&ev);
}

void job_start(const char *exe)
{
	in_job = mapjob_detect(&job, exe);
	if (in_job)
		put(&job);
}

void job_after_fork_child(void)
{
	if (in_job && job.role == MAPLOG_JOB_LAUNCHER)
		put(&job);
}

/* Exported: the rank and size of this process in MPI_COMM_WORLD, from the
 * MPI library (rank >= 0, size > rank).  Writes a JOB record with source
 * "MPI" and the launcher and job id the environment gave.  Safe from any
 * thread, outside signal handlers; does nothing when the process is not
 * sampled or already closing. */
void mapsample_job_rank(int rank, int size)
{
	if (rank < 0 || size <= rank ||
	    !__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE))
		return;
	struct mapjob j = job;
	j.rank = rank;
	j.size = (uint32_t)size;
	j.role = MAPLOG_JOB_APPLICATION;
	snprintf(j.source, sizeof(j.source), "MPI");
	put(&j);
}
