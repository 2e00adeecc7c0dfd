/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outname: the name of the log of one run, for many processes at once.
 * Under mpirun or srun every rank runs its own mapsample; each must pick
 * a log of its own, and all of one job must agree on the folder they
 * share, without talking to each other: from what the launcher put in
 * their environment (lib/log/mapjob.h), never from their clocks.
 */
#ifndef MAPSAMPLE_OUTNAME_H
#define MAPSAMPLE_OUTNAME_H

#include <stddef.h>

#include "log/mapjob.h"

/*
 * Expands the -o pattern pat into out (len bytes): %r the rank, zero-
 * padded to the width of the job's last rank; %p pid, the profiled
 * program's (the process mapsample starts); %h the host name; %j the job id (characters other
 * than letters, digits, '.', '_' and '-' made '_'); %% a '%'.  j is the
 * job (mapjob_detect()), pid the program's pid.  Returns 0, or -1 with one line for the user in
 * why (whylen bytes): an unknown %x, %r or %j outside a job, a name too
 * long.
 */
int outname_expand(const char *pat, const struct mapjob *j, long pid,
		   char *out, size_t len, char *why, size_t whylen);

/*
 * The default log of program prog (a path) in job j, a rank of a job:
 * PROG-<SIZE>p-<JOBID>/rank-%r.maplog, expanded, into out.  When the
 * job has no id (a launcher that gives none, and no MAPSAMPLE_JOB_ID),
 * PROG-<SIZE>p-<HOST>-<PARENT PID>, where every rank started by one
 * process on one host agrees.  Returns 0 or -1 (too long).
 */
int outname_job_default(const char *prog, const struct mapjob *j, char *out,
			size_t len);

/*
 * Creates the folders of path (every folder before its last '/'), as
 * mkdir -p does, mode 0755 less the umask; folders that exist, or that
 * another process creates meanwhile, are fine.  Returns 0, or -1 with
 * errno (and the folder that failed in failed, failedlen bytes).
 */
int outname_mkdirs(const char *path, char *failed, size_t failedlen);

#endif
