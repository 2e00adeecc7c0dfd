/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report/mpi: MPI in the reports.  mpi_stats() turns the run model's
 * per-process MPI call totals (MPI_CALLS records) into Arm MAP's "MPI
 * call statistics": per MPI function, calls, time, bytes sent and
 * received, each as mean, min and max across the ranks, with the rank
 * where the min and the max occur.  mpi_module() and mpi_stack() say
 * whether a sample was taken inside MPI: any frame in a module of an MPI
 * library (or of the communication libraries under it), whatever its
 * internal functions are called.
 *
 * A process's rank is its struct rproc rank when the log gave one, else
 * its index among the processes that have MPI call statistics.
 */
#ifndef MAPSAMPLE_REPORT_MPI_H
#define MAPSAMPLE_REPORT_MPI_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* The quantities of a function's row. */
enum mpi_qty { MPI_Q_CALLS, MPI_Q_TIME, MPI_Q_SENT, MPI_Q_RECEIVED,
	       MPI_NQTY };

/* Mean, min and max of one quantity across ranks; a rank that never
 * called the function counts 0. */
struct mpi_spread {
	double mean;
	uint64_t min, max;
	int32_t min_rank, max_rank;
};

struct mpi_fnstat {
	const char *function;          /* points into the model */
	uint32_t ranks_calling;        /* ranks with at least one call */
	uint64_t total[MPI_NQTY];      /* summed over ranks */
	struct mpi_spread q[MPI_NQTY]; /* time in ns, bytes in B */
};

/* A process with MPI statistics. */
struct mpi_rank {
	size_t proc;                   /* its index in the model's procs */
	int32_t rank;
};

struct mpi_stats {
	struct mpi_fnstat *fn;         /* by total time, longest first */
	size_t nfn;
	uint32_t nranks;               /* processes with MPI statistics */
	struct mpi_rank *ranks;        /* nranks of them, in model order */
};

/* Fills *s from m.  s->nfn is 0 when the logs hold no MPI call
 * statistics.  Returns 0 or MAPS_ENOMEM (s then empty). */
int mpi_stats(const struct model *m, struct mpi_stats *s);
void mpi_stats_free(struct mpi_stats *s);

/* The options of m's filter (model.filter) that cannot narrow its MPI
 * call statistics, which are each process's totals written at
 * MPI_Finalize, not its calls: those given of "--tid", "--comm" and
 * "--time", in that order, into opt.  Returns how many: 0 when the
 * figures follow the filters (none given, or only --pid and --rank,
 * which choose whole processes). */
#define MPI_UNNARROWED_MAX 3
size_t mpi_unnarrowed(const struct model *m,
		      const char *opt[MPI_UNNARROWED_MAX]);

/* Name of quantity q for tables and JSON: "calls", "time", "sent",
 * "received". */
const char *mpi_qty_name(int q);

/* 1 when the file at path is a module of an MPI library or of the
 * transport libraries MPI runs on (libmpi*, libmpich*, libopen-pal,
 * libopen-rte, libpmix, libucp/libuct/libucs/libucm, libfabric,
 * libpsm*, libinfinipath, Open MPI's mca_* components,
 * libmapsample-mpiwrap), else 0. */
int mpi_module(const char *path);

/* Whether the stack of npc PCs (leaf first) of process image (pid,
 * image) was in MPI: the index of its outermost frame in an MPI module
 * (the MPI call the application made is that frame's function), or -1. */
int mpi_stack(const struct model *m, uint32_t pid, uint32_t image,
	      uint32_t npc, const uint64_t *pc);

/* Samples of each process image of m (m->procs order: in_mpi has
 * m->nprocs entries) taken inside MPI, as mpi_stack() says.  Returns 0
 * or MAPS_ENOMEM. */
int mpi_proc_samples(const struct model *m, uint64_t *in_mpi);

/* Folds the MPI library's own frames into the MPI call the program
 * made: every stack of m that was in MPI (mpi_stack()) is cut so that
 * its outermost frame in an MPI module is its leaf (its PC made that
 * of the call instruction, one byte before the return address), as the
 * top functions, the call tree, the flame graph and the exports then
 * show it.  Call it after the last model_load() (the stack table is not
 * searched again).  *folded gets the number of stacks cut.  Returns 0
 * or MAPS_ENOMEM (some stacks may be cut: m can only be freed). */
int mpi_fold(struct model *m, size_t *folded);

#endif
