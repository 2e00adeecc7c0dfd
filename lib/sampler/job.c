/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * job: the process's place in a parallel job, recorded as JOB records
 * (mapsample-log(5)) on the process stream.  job_start() works it out
 * once per process image from the environment its launcher set and the
 * program's name (lib/log/mapjob.c) and writes the record when the
 * process is a rank or a launcher; a fork child of a launcher writes it
 * again (job_after_fork_child()).
 *
 * A rank's own children inherit its rank variables but are not the rank
 * (a rank running "sh -c", a helper it forks): they are recorded with
 * role MAPLOG_JOB_RANK_CHILD and the rank's number.  A fork child knows
 * it from its parent's memory; an image exec'd later knows it from
 * MAPSAMPLE_RANK_PID=PID:RANK, which every exec and spawn of a rank or
 * of its children passes on (interpose.c, job_rank_env()): an image
 * whose pid is not PID, with rank RANK, is a child; the rank's own exec
 * keeps its pid, and stays the rank.  A launcher passes no such
 * variable on, so the ranks it starts are ranks.
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
#include <stdlib.h>
#include <string.h>

#include <mapsample/plugin.h>

#include "log/mapjob.h"
#include "sampler/sampler_i.h"

static struct mapjob job;
static int in_job;
/* "PID:RANK" of the rank this process is or descends from; "" when not
 * in a job as a rank or a rank's child */
static char rank_of[32];

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
	rank_of[0] = 0;
	if (in_job && job.role == MAPLOG_JOB_APPLICATION && job.rank >= 0) {
		const char *v = getenv("MAPSAMPLE_RANK_PID");
		unsigned long pid;
		long rank;
		if (v && sscanf(v, "%lu:%ld", &pid, &rank) == 2 &&
		    rank == job.rank && pid != (unsigned long)S.pid) {
			job.role = MAPLOG_JOB_RANK_CHILD;
			snprintf(rank_of, sizeof(rank_of), "%lu:%ld", pid,
				 rank);
		} else {
			snprintf(rank_of, sizeof(rank_of), "%u:%ld", S.pid,
				 (long)job.rank);
		}
	}
	if (in_job)
		put(&job);
}

void job_after_fork_child(void)
{
	if (in_job && job.role == MAPLOG_JOB_APPLICATION && job.rank >= 0)
		job.role = MAPLOG_JOB_RANK_CHILD;
	if (in_job && job.role != MAPLOG_JOB_APPLICATION)
		put(&job);
}

const char *job_rank_env(void)
{
	if (in_job && job.role == MAPLOG_JOB_LAUNCHER)
		return "";
	return rank_of[0] ? rank_of : NULL;
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
	/* the process MPI calls rank is the rank, whatever its variables
	 * said; what it starts from now on is its child */
	job = j;
	in_job = 1;
	snprintf(rank_of, sizeof(rank_of), "%u:%d", S.pid, rank);
}
