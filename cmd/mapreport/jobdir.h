/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jobdir: a folder given to mapreport in place of logs, as the folder of
 * a job's logs (mapsample writes one per MPI or Slurm job, a log per rank
 * in it), stands for the logs in it.
 */
#ifndef MAPREPORT_JOBDIR_H
#define MAPREPORT_JOBDIR_H

#include <stddef.h>

/*
 * Replaces every folder in *logs (*nlogs paths) by the logs in it: its
 * files whose names end in ".maplog", not hidden, in name order (rank-0
 * before rank-1 ...; mapsample pads the ranks).  The new list is kept
 * for the life of the program (each call's list: it may be called more
 * than once).  Returns 0, -1 when out of memory, or 2
 * after saying on standard error which folder holds no log or cannot be
 * read (usage error).
 */
int jobdir_expand(const char *const **logs, size_t *nlogs);

#endif
