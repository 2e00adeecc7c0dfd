/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runid: which run a log is of, so that mapreport merges the logs of one
 * run (the processes or ranks of one job, a log each) and tells apart
 * the logs of different runs (main.c refuses to merge them without
 * --merge; compare.c counts each run of a side once).
 *
 * The log holds no run id, so: the command line of the first process it
 * initializes, and the time (wall clock) from the first process's start
 * to the last one's last record: the processes of one run run at the
 * same time, two runs of one command one after the other.
 */
#ifndef MAPREPORT_RUNID_H
#define MAPREPORT_RUNID_H

#include <stddef.h>

#include "model/model.h"

/* Copies, not pointers into the model: a later log's records may
 * replace the very process (the same pid) and move the process array. */
struct run_id {
	char *command;        /* NULL: no initialize record (or no memory) */
	double start, end;    /* seconds since the epoch */
	char started[64];     /* the start, as a date */
	char *job;            /* the job id of its first process that
			       * names one (JOB records), or NULL */
};

/* Seconds two logs of one run may seem apart (clocks of two hosts). */
#define RUN_SLACK 1.0

/* The run of the processes m->procs[from..] (those the last log read
 * added).  Free its command and job with free(). */
struct run_id run_of(const struct model *m, size_t from);

/* Whether x and y are one run: the same command line, and times that
 * overlap (within RUN_SLACK).  0 when either has no command. */
int run_id_same(const struct run_id *x, const struct run_id *y);

/*
 * Whether x and y are one run for --compare, which takes each run of a
 * side for a sample of the variation between runs, so that runs of one
 * command made one after the other (within RUN_SLACK of each other) must
 * stay apart: logs that name a job are of one run when they name the
 * same job and run_id_same() holds; logs that name none, when they have
 * the same command and their times overlap, with no slack (the
 * processes of one run on one host).  0 when either has no command.
 */
int run_id_same_job(const struct run_id *x, const struct run_id *y);

#endif
