/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runid: which run a log is of, so that logs of different runs are not
 * reported (or compared) as one by mistake.  The one place that decides
 * whether two logs belong to one run: mapreport's merge check uses it,
 * and --compare's grouping of a side's logs into runs.
 *
 * A log's run is named by the job id of its processes (the JOB records'
 * job id: the launcher's, e.g. Open MPI's PMIx namespace, Slurm's
 * JOB.STEP, MAPSAMPLE_JOB_ID) when they have one, and by the command
 * line of its first process and the wall-clock time its processes span.
 * Two logs are of one run when both have a job id and the ids are equal
 * (whatever their clocks and commands say: ranks on hosts whose clocks
 * disagree, an MPMD job's programs); when either has none, when their
 * command lines are the same and their times overlap within
 * RUNID_SLACK seconds.
 */
#ifndef MAPSAMPLE_RUNID_H
#define MAPSAMPLE_RUNID_H

#include <stddef.h>

#include "model/model.h"

/* Seconds two logs of one run may seem apart when no job id says so
 * (clocks of two hosts). */
#define RUNID_SLACK 1.0

/* Copies, not pointers into the model: a later log's records may replace
 * the very process (the same pid) and move the process array. */
struct runid {
	char *command;        /* NULL: no initialize record (or no memory):
			       * nothing says which run the log is of */
	char *job_id;         /* the job id of its processes (launchers
			       * left out); NULL: none, or several that
			       * differ */
	double start, end;    /* seconds since the epoch */
	char started[64];     /* the start, as a date ("?": not known) */
};

/*
 * The run of the processes m->procs[from..] (those the last log read
 * added).  Returns it with copies of the strings, to free with
 * runid_free(); out of memory gives a run with no command, as a log
 * with no initialize record does.
 */
struct runid runid_of(const struct model *m, size_t from);

/*
 * 1 when the logs of runs a and b belong to one run (see above), else
 * 0.  A run with no command (nothing known) is of any run: 1.
 */
int runid_same(const struct runid *a, const struct runid *b);

/*
 * 1 when a and b are one run for --compare, which takes each run of a
 * side for a sample of the variation between runs, so that runs of one
 * command made one after the other must stay apart: when both have a job
 * id, as runid_same(); when neither has one, the same command line and
 * times that overlap with no slack (the processes of one run on one
 * host).  0 when only one has a job id, or either has no command.
 */
int runid_same_strict(const struct runid *a, const struct runid *b);

/* Frees r's strings; r is a run with nothing known after. */
void runid_free(struct runid *r);

#endif
