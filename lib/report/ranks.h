/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ranks: figures per process of a job (per MPI rank) and across them.
 *
 * ranks_build() takes the model and its analysis and fills one row per
 * application process that has samples (launcher processes left out;
 * the processes a rank started, rproc.is_rank_child, add to their
 * rank's row):
 * its rank (the MPI rank when its log names one, else its index among
 * the processes of the report), samples, seconds of the sampling clock,
 * the share of its samples inside MPI and inside read/write-family calls,
 * its memory peak and I/O bytes (from the memory and I/O plugins' metrics
 * when recorded) and its compute seconds (the seconds of its samples in
 * neither).  The MPI share is taken from the time-in-MPI metric
 * (RANKS_MPI_TIME) where a process has one: the wall-clock time the
 * wrappers measured in MPI over the process's wall-clock time (within
 * --time's range under that filter; or its seconds of the sampling clock
 * when more: busy threads), which a loaded
 * machine that gives the process less CPU than wall time does not
 * distort; its compute seconds stay those of its samples, which measure
 * them on a loaded machine too.  ranks_stats() then computes min, mean and max across the rows
 * with the ranks where they occur and the load imbalance (max / mean of
 * compute seconds); it reads only the rows, so tests give it made-up
 * figures.  No formatting here (lib/report/out).
 */
#ifndef MAPSAMPLE_REPORT_RANKS_H
#define MAPSAMPLE_REPORT_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "report/analyze.h"

/* Metric ids the figures are refined with, when a log holds them. */
#define RANKS_MPI_TIME "com.mapsample.metrics.mpi.time"
#define RANKS_MEM_PEAK "com.mapsample.metrics.memory.peak_rss"
#define RANKS_MEM_RSS "com.mapsample.metrics.memory.rss"
#define RANKS_IO_READ "com.mapsample.metrics.io.read"
#define RANKS_IO_WRITE "com.mapsample.metrics.io.write"

/* One process of the job. */
struct rank_row {
	int32_t rank;        /* MPI rank, or the process index (is_rank 0) */
	int is_rank;
	uint32_t pid, image;
	const char *host;    /* the model's, or NULL */
	uint32_t threads;    /* threads with samples */
	uint64_t samples;
	uint64_t mpi_samples, coll_samples, io_samples;
	double seconds;      /* of the sampling clock, all its threads */
	double mpi, coll, io;/* shares of its time: in MPI, in collective
			      * MPI calls (with the metric's MPI time, split
			      * by the MPI call statistics' times when the
			      * log has them), in read/write-family calls */
	int mpi_metric;      /* mpi taken from RANKS_MPI_TIME */
	double compute;      /* seconds of its samples in neither MPI nor
			      * I/O: seconds * (1 - mpi_samples / samples
			      * - io) */
	int have_mem;
	double mem_peak;     /* bytes */
	int have_io_bytes;
	double io_read, io_write; /* bytes */
	/* per time bin of the timeline (TIMELINE_BINS), its samples; NULL
	 * when the model was read without the timeline */
	uint32_t *bins;
	uint32_t os_pid;     /* its pid on its host, in its PID namespace
			      * (model_real_pid(); pid: the model's key) */
	int killed_by;       /* the signal that ended it (a crash), or 0 */
	uint32_t images;     /* its process images: 1, or more when it
			      * exec'd (each a program of its own; the row
			      * is the process, image its first) */
	double mpi_secs;     /* seconds in MPI by the metric, all images */
	double mpi_wall;     /* wall-clock seconds of the images whose
			      * metric mpi_secs adds up (their first to
			      * last record) */
};

/* One figure across the rows. */
struct rank_stat {
	int have;            /* some row has the figure */
	double min, mean, max;
	int32_t min_rank, max_rank;
};

struct ranks {
	struct rank_row *r;
	size_t n;
	int any_rank;        /* some row has an MPI rank */
	int clock;           /* MAPLOG_CLOCK_* of the run */
	struct rank_stat samples, seconds, mpi, io, compute, mem;
	double imbalance;    /* max / mean of compute; 0 with no compute */
	/* the job's totals: seconds, and seconds in MPI, collective MPI
	 * calls, I/O and compute */
	double t_seconds, t_mpi, t_coll, t_io, t_compute;
	double t_read, t_write;  /* I/O bytes from the metrics */
	int have_io_bytes, mpi_metric;
};

/*
 * Fills rk from m and its analysis an (the rows, their timeline bins
 * when m has a timeline, then ranks_stats).  Returns 0 or MAPS_ENOMEM
 * (rk then empty).
 */
int ranks_build(struct ranks *rk, const struct model *m,
		const struct analysis *an);

/* Computes rk's statistics and totals from rk->r[0..n). */
void ranks_stats(struct ranks *rk);

/* Frees what rk holds. */
void ranks_free(struct ranks *rk);

/* The row of rank (or process index) rank, or NULL. */
const struct rank_row *ranks_find(const struct ranks *rk, int32_t rank);

/* Whether a frame of module (base name or path; mpi_module()) or function
 * name (MPI_*, PMPI_*, mpi_*, pmpi_*) is inside the
 * MPI library; whether it is a collective MPI call; whether it is a
 * read/write-family call (read, write, pread, fwrite, fsync ...). */
int ranks_is_mpi(const char *module, const char *func);
int ranks_is_collective(const char *func);
int ranks_is_io(const char *func);

/* Classes of samples (bits): in MPI, in a collective MPI call (with
 * RANKS_C_MPI), in a read/write-family call (never with RANKS_C_MPI). */
#define RANKS_C_MPI 1
#define RANKS_C_COLL 2
#define RANKS_C_IO 4

/* Into *cls (malloc'd, one byte per stack slot of m) the class of each
 * stack of m expanded in an, as ranks_build() counts them: RANKS_C_MPI
 * when a frame is in the MPI library (collective by the outermost MPI
 * call), else RANKS_C_IO when a frame is a read/write-family call, else
 * 0 (compute, and slots not used).  Returns 0 or MAPS_ENOMEM. */
int ranks_stack_classes(const struct model *m, const struct analysis *an,
			uint8_t **cls);

/* The index in rk->r (built from m) of the row the samples of process
 * image (pid, image) of m count in, or -1 (a launcher, an image without
 * samples). */
long ranks_row_of(const struct ranks *rk, const struct model *m,
		  uint32_t pid, uint32_t image);

/* The wall-clock seconds of process image p of m that the time-in-MPI
 * metric's MPI time is a share of: first record to last, cut to the
 * range of m's --time filter when it has one (the metric then holds the
 * range's values only). */
double ranks_wall(const struct model *m, const struct rproc *p);

/* The rank a report shows for process index i of m: its MPI rank when
 * known, else i. */
int32_t ranks_of_proc(const struct model *m, size_t i);

#endif
