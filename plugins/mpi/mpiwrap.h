/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap.h: what the MPI wrapper library (mpiwrap.c, preloaded) shares
 * with the mpi metric plugin (mpi.c): the running totals the wrappers
 * add to and the getters read.  The plugin finds them with
 * dlsym(RTLD_DEFAULT, MPIW_STATE_SYMBOL), so either library loads
 * without the other.
 *
 * Each thread that calls MPI has its own block of counters (struct
 * mpiw_thread), which only it writes, with plain adds made as relaxed
 * atomic stores (no lock, no read-modify-write instruction); blocks are
 * pushed once onto a list (compare-and-swap) and never freed, so the
 * totals of threads that ended stay.  Readers (the plugin's getters, in
 * a signal handler of any thread, and the wrapper at MPI_Finalize) walk
 * the list and add up the blocks with relaxed loads: a reader may see
 * one call's fields half added; the next reading is whole.  A call still
 * running counts too: t_start is its start time (0: none running), so
 * at time T it has run T - t_start ns.
 */
#ifndef MAPSAMPLE_MPIWRAP_H
#define MAPSAMPLE_MPIWRAP_H

#include <stdint.h>

#define MPIW_STATE_SYMBOL "mapsample_mpiwrap_state"
#define MPIW_VERSION 3

/* Classes of MPI functions. */
enum mpiw_class {
	MPIW_P2P = 0,        /* point-to-point, and waiting for requests */
	MPIW_COLLECTIVE = 1, /* collectives, blocking or not */
	MPIW_OTHER = 2,      /* MPI_Init, MPI_Init_thread, MPI_Finalize */
	MPIW_FILE = 3,       /* MPI-IO (MPI_File_*): bytes written count as
				sent, read as received */
	MPIW_NCLASS = 4
};

/* The totals of one function. */
struct mpiw_fn {
	uint64_t f_calls;
	uint64_t f_ns;       /* ns inside the finished calls */
	uint64_t f_sent;     /* bytes */
	uint64_t f_received;
};

/* One thread's counters. */
struct mpiw_thread {
	struct mpiw_thread *t_next; /* the next block of the list */
	uint64_t t_start;           /* start of the running call, ns of
				       CLOCK_MONOTONIC; 0: none */
	uint32_t t_class;           /* its enum mpiw_class */
	struct mpiw_fn t_fn[];      /* mw_nfn entries */
};

struct mpiw_state {
	uint32_t mw_version;          /* MPIW_VERSION */
	uint32_t mw_nfn;              /* entries of t_fn, mw_name, mw_class */
	const char *const *mw_name;   /* "MPI_Send", ... */
	const uint8_t *mw_class;      /* enum mpiw_class */
	struct mpiw_thread *mw_threads; /* every thread's block */
};

/* Type of the function MPIW_STATE_SYMBOL names. */
typedef struct mpiw_state *(*mpiw_state_fn)(void);

#endif
