/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logpool: the logs of a job (one per rank) decoded on a small pool of
 * threads, ahead of the one thread that folds them into the model, which
 * takes them in their order: what it is given of each log (records,
 * problems, progress, the result) is what logread_fd() gives, in the same
 * order, so a model read through a pool is the model read log after log.
 *
 * Memory stays bounded whatever the size of the logs: a few logs are read
 * ahead of the one being folded (the pool's threads, plus two), and of
 * each no more than a few MiB of decoded records wait to be folded (its
 * thread then waits).
 *
 * Not async-signal-safe.  One thread (the caller of logpool_start()) calls
 * logpool_read() and logpool_stop(); see logpool.c for the threading
 * model.
 */
#ifndef MAPSAMPLE_MODEL_LOGPOOL_H
#define MAPSAMPLE_MODEL_LOGPOOL_H

#include <stddef.h>

#include "model/logread.h"

struct logpool;

/*
 * Starts threads threads (1 to LOGPOOL_MAX_THREADS) reading the logs
 * paths[0 .. n) ahead, in that order.  paths and its strings must
 * outlive the pool.  Returns the pool, or NULL when memory ran out or a
 * thread could not be started (then nothing runs: read the logs without
 * a pool).
 */
struct logpool *logpool_start(const char *const *paths, size_t n,
			      unsigned threads);

#define LOGPOOL_MAX_THREADS 64

/*
 * Gives tool (with ctx) log i of pl as logread_fd() would have given it,
 * once a thread of the pool has read it (waiting for it as needed), and
 * st, if not NULL, the parser's counts.  Logs are taken in increasing
 * order, each once; a log skipped is dropped unread.  *open_errno gets
 * the errno of open(2) when the file could not be opened (then the tool
 * was given nothing and LOGREAD_UNREADABLE is returned), else 0.
 * Returns what logread_fd() returns: the code a callback of tool returned
 * to stop (the rest of the log is dropped), or MAPS_ENOMEM when memory
 * ran out in the pool's thread.
 */
int logpool_read(struct logpool *pl, size_t i,
		 const struct logread_tool *tool, void *ctx,
		 struct maplog_stats *st, int *open_errno);

/* Stops pl's threads (a log being read is dropped), waits for them and
 * frees pl.  pl may be NULL. */
void logpool_stop(struct logpool *pl);

#endif
