/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logsynth: writes deterministic synthetic mapsample logs with the real
 * encoder (lib/log/mapwrite), for tests, fuzz seeds and benchmarks.
 *
 * A synthetic program has a few modules (an executable and libraries at
 * realistic addresses) and a call tree; each thread samples stacks drawn
 * from that tree with a skewed (Zipf-like) popularity, leaf PCs spread
 * over the hot functions' bodies, so stacks repeat the way real ones do.
 * Everything follows from the seed: the same options give the same bytes.
 */
#ifndef MAPSAMPLE_LOGSYNTH_H
#define MAPSAMPLE_LOGSYNTH_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

struct logsynth_opts {
	uint64_t samples;        /* total samples over all threads */
	uint32_t processes;      /* >= 1; processes after the first are forked */
	uint32_t threads;        /* threads per process, >= 1 */
	uint32_t distinct_stacks;/* distinct stacks per process */
	uint32_t min_depth;      /* stack depth range */
	uint32_t max_depth;
	uint32_t chunk_size;     /* bytes per chunk (multiple of 8) */
	uint32_t data_offset;    /* first chunk (64, or 4096 like the sampler) */
	uint64_t seed;
	int all_types;           /* also write every other record type */
	int leave_open;          /* last chunk of each stream left unsealed */
	int no_dedup;            /* write every stack in full */
	int metrics;             /* write the metrics scenario instead */
	uint32_t pid_base;       /* pid of the first process; 0: 4000 (the
				  * ranks of a job, one log each, need
				  * pids of their own) */
	int job;                 /* the job scenario below (all_types
				  * should be off) */
	int32_t job_rank;        /* this log's rank in it */
	uint32_t job_size;       /* ranks of that job */
	int recursive;           /* below main, each frame one of 3
				  * functions, as in a recursion (many
				  * call-tree nodes, few functions and
				  * calls) */
};

/*
 * The job scenario (job set): the log of one rank of an MPI job as
 * mapsample writes it under mpirun with the mpi, io and memory plugins.
 * Its process has a JOB record (rank job_rank of job_size, job id
 * "bench.1", launcher "openmpi", source "MPI"); the metric definitions of
 * six built-in metrics (com.mapsample.metrics.mpi.time, .mpi.collective_time,
 * .mpi.p2p_time, .mpi.sent, .io.read and .memory.rss, with their plugins'
 * units, types and flags); one value of each at every sample, in the
 * sampling thread's chunk; and MPI_CALLS records for MPI_Barrier,
 * MPI_Allreduce, MPI_Send and MPI_Recv at the end.  Values follow from
 * the seed and the rank.
 */

/*
 * The metrics scenario (metrics set): a fixed, hand-checkable log for the
 * report's metrics section.  Two processes on one host, each with its
 * metric definitions (indexes numbered differently in each) written to
 * its process stream, so after the values in the file, and values taken
 * at metric ticks by its threads, in those threads' chunks:
 *
 *   pid 6000, threads 6000 and 6001 taking turns, ticks at 10.0, 10.1,
 *   10.3, 10.4, 10.6, 10.7, 10.9 and 11.0 s (so the file holds the even
 *   ticks before the odd ones);
 *   pid 7000, thread 7000, ticks at 20.0, 20.5, 21.0, 21.5 and 22.0 s.
 *
 * Metrics: "CPU utilization" (%, one NONE), "Read rate" (B/s, deltas
 * divided by sample time, one NONE), "Node power" (W, divided, one per
 * node: values from pid 6000 only), "com.example.syscalls" (calls/s,
 * divided, no display name), "RSS" (B), "Lock wait" (ns) and "Flaky
 * counter" (/s: NONE at every tick, with running error counts) and "CPU
 * busy" (%, divided: its total is CPU seconds).  Plugin
 * errors: libbroken.so in both processes, libslow.so in the first.  One
 * value names an index that no definition gives.  A few samples per
 * thread.  The values themselves are in logsynth.c.  Only chunk_size,
 * data_offset, no_dedup, leave_open and the stack shape options apply.
 */

/* Sensible defaults: 10000 samples, 1 process, 4 threads, 2000 stacks,
 * depth 8..32, 1 MiB chunks, data offset 64, all types. */
void logsynth_defaults(struct logsynth_opts *o);

/* What was written, for tests to compare against the parser's view. */
struct logsynth_result {
	uint64_t bytes;                       /* total log size */
	uint64_t chunks;
	uint64_t records[MAPLOG_TYPE_MAX_];   /* by type, STACK included */
	uint64_t weight_sum;                  /* sum of sample weights */
	uint64_t pc_sum;                      /* sum of all sample PCs */
	uint64_t frames;                      /* sum of sample depths */
};

/* Record type numbers below MAPLOG_TYPE_MAX_ that this tree reserves
 * but does not define yet (maplog.h): no writer, no name, read as
 * unknown. */
static inline int logsynth_type_reserved(int t)
{
	(void)t;
	return 0;
}

/* Receives the log in order; returns 0 to go on. */
typedef int (*logsynth_sink)(void *ctx, const void *buf, size_t len);

/* Writes a log to sink.  Returns 0 or a MAPS_E* code. */
int logsynth_write(const struct logsynth_opts *o, logsynth_sink sink,
		   void *ctx, struct logsynth_result *res);

/* Writes a log to fd.  Returns 0 or a MAPS_E* code. */
int logsynth_to_fd(const struct logsynth_opts *o, int fd,
		   struct logsynth_result *res);

/* Writes a log into a malloc'd buffer (*out, *len; free it).  Returns 0 or
 * a MAPS_E* code. */
int logsynth_to_mem(const struct logsynth_opts *o, uint8_t **out,
		    size_t *len, struct logsynth_result *res);

#endif
