/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter: which samples a report counts (mapreport --pid, --tid, --comm,
 * --time).  The model asks filter_keep() about every sample as it reads
 * the logs, before the sample is counted anywhere (threads, processes,
 * stacks, the timeline), so every output that is written from the model
 * shows only the samples kept.
 *
 * A sample is kept when it passes every kind of filter given: its pid is
 * one of the --pid values (when any), its tid one of the --tid values,
 * its process's program name (the last part of the executable's path) or
 * its thread's name (as recorded when the thread began) one of the
 * --comm values, and its time, in seconds from the run's start (the
 * earliest record of all the logs), within [from, to) of --time.  Values
 * of one kind are alternatives.  Records other than samples are all read
 * as usual, but for metric values, which are kept within --time only,
 * and user marks, which the timeline (and the exports' marks: see
 * report/out/rescan.h) keeps within --time only; the processes whose
 * metrics a report shows are chosen after reading
 * (model_narrow_metrics() in model/model.h, which asks
 * filter_keep_thread()).
 */
#ifndef MAPSAMPLE_MODEL_FILTER_H
#define MAPSAMPLE_MODEL_FILTER_H

#include <stddef.h>
#include <stdint.h>

struct rfilter {
	uint32_t *fi_pids;      /* --pid values, fi_npids of them */
	size_t fi_npids, fi_cappids;
	uint32_t *fi_tids;      /* --tid values */
	size_t fi_ntids, fi_captids;
	char **fi_comms;        /* --comm values */
	size_t fi_ncomms, fi_capcomms;
	int fi_time;            /* --time given */
	int fi_from_set, fi_to_set;
	double fi_from, fi_to;  /* seconds from the run's start */
	uint64_t fi_t0;         /* ns of CLOCK_MONOTONIC: the run's start,
				 * set by filter_run_start() */
	uint64_t fi_dropped;    /* samples left out so far */
	uint32_t *fi_ranks;     /* --rank values, fi_nranks of them */
	size_t fi_nranks, fi_capranks;
};

/* Empties f (no filter: every sample kept). */
void filter_init(struct rfilter *f);

/* Frees what f holds and empties it. */
void filter_free(struct rfilter *f);

/* Whether f selects anything (some option was given). */
int filter_active(const struct rfilter *f);

/*
 * Adds one option's value to f: filter_add_pid and filter_add_tid take a
 * decimal number from 1 to 2^32 - 1, filter_add_comm a name,
 * filter_add_time "FROM:TO" in seconds (decimals allowed; either side may
 * be empty for the run's start or end; FROM below TO; a later --time
 * replaces an earlier one).  Each returns 0, MAPS_EINVAL when the value
 * does not read as said (f unchanged), or MAPS_ENOMEM.
 */
int filter_add_pid(struct rfilter *f, const char *arg);
int filter_add_tid(struct rfilter *f, const char *arg);
int filter_add_comm(struct rfilter *f, const char *arg);
int filter_add_time(struct rfilter *f, const char *arg);

/*
 * For --time: reads the logs paths[0..n) once to find the run's start
 * (the earliest record's time) into f->fi_t0; logs that cannot be read
 * are passed over (the model's own reading reports them).  Returns 0 or
 * MAPS_ENOMEM.  Nothing to do (0) without --time.
 */
int filter_run_start(struct rfilter *f, const char *const *paths, size_t n);

/*
 * Whether a sample of process pid with program name proc (or NULL),
 * thread tid named thread (or NULL), taken at ts (ns of CLOCK_MONOTONIC)
 * passes f.  Counts it in f->fi_dropped when not.
 */
int filter_keep(struct rfilter *f, uint32_t pid, const char *proc,
		uint32_t tid, const char *thread, uint64_t ts);

/* filter_keep() without counting anything; ts FILTER_ANY_TIME: whether
 * the thread passes the filters other than --time. */
#define FILTER_ANY_TIME UINT64_MAX
int filter_passes(const struct rfilter *f, uint32_t pid, const char *proc,
		  uint32_t tid, const char *thread, uint64_t ts);

/* The times --time keeps, [*from, *to) in ns of CLOCK_MONOTONIC (0 and
 * UINT64_MAX without --time; f->fi_t0 must be set). */
void filter_time_ns(const struct rfilter *f, uint64_t *from, uint64_t *to);

/*
 * --rank N: filter_add_rank takes a decimal number from 0 to 2^31 - 1
 * (0, MAPS_EINVAL, MAPS_ENOMEM, as above).  filter_keep_rank says whether
 * a sample of a process shown as rank (its MPI rank when its log names
 * one, else its index among the processes of the report: report/ranks.h)
 * passes the --rank values of f (any, when none), and counts it in
 * f->fi_dropped when not.  A sample is kept only when filter_keep keeps
 * it too.
 */
int filter_add_rank(struct rfilter *f, const char *arg);
int filter_keep_rank(struct rfilter *f, int32_t rank);
/* filter_keep_rank() without counting. */
int filter_passes_rank(const struct rfilter *f, int32_t rank);

/*
 * For the metrics, which are measured per process (model_narrow_metrics()
 * in model/model.h).  filter_keep_time: whether ts (ns of
 * CLOCK_MONOTONIC) is within --time (1 without it).  filter_keep_thread:
 * whether a sample of thread tid named thread (0 and NULL: no thread)
 * of process pid, program proc, shown as rank (as filter_keep_rank)
 * would pass every filter but --time.  filter_by_thread: whether --tid
 * or --comm was given (they may choose threads, not processes).  None
 * counts anything in f->fi_dropped.
 */
int filter_keep_time(const struct rfilter *f, uint64_t ts);
int filter_keep_thread(const struct rfilter *f, uint32_t pid,
		       const char *proc, int32_t rank, uint32_t tid,
		       const char *thread);
int filter_by_thread(const struct rfilter *f);

/*
 * Describes f in words for a report's header, as the options would be
 * written ("--tid 1234 --time 1.5:3"), into buf.  Returns buf ("" when
 * f selects nothing).
 */
const char *filter_str(const struct rfilter *f, char *buf, size_t len);

#endif
