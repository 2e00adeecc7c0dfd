/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap.h: what the MPI wrapper library (mpiwrap.c, preloaded) shares
 * with the mpi metric plugin (mpi.c): the running totals the wrappers
 * add to and the getters read.  The plugin finds them with
 * dlsym(RTLD_DEFAULT, MPIW_STATE_SYMBOL), so either library loads
 * without the other.
 *
 * Every counter is changed with relaxed atomic adds only, by any thread,
 * and read with relaxed atomic loads (a reader may see one call's
 * fields half added; the next reading is whole).  Time in calls still
 * running counts too: mw_inflight[c] calls of class c are running and
 * mw_started[c] is the sum of their start times, so at time T they have
 * run mw_inflight[c] * T - mw_started[c] ns (unsigned arithmetic, which
 * wraps back to the right value).
 */
#ifndef MAPSAMPLE_MPIWRAP_H
#define MAPSAMPLE_MPIWRAP_H

#include <stdint.h>

#define MPIW_STATE_SYMBOL "mapsample_mpiwrap_state"
#define MPIW_VERSION 1

/* Classes of MPI functions. */
enum mpiw_class {
	MPIW_P2P = 0,        /* point-to-point, and waiting for requests */
	MPIW_COLLECTIVE = 1, /* collectives, blocking or not */
	MPIW_OTHER = 2,      /* MPI_Init, MPI_Init_thread, MPI_Finalize */
	MPIW_NCLASS = 3
};

/* The totals of one function. */
struct mpiw_fn {
	uint64_t f_calls;
	uint64_t f_ns;       /* ns inside the finished calls */
	uint64_t f_sent;     /* bytes */
	uint64_t f_received;
};

struct mpiw_state {
	uint32_t mw_version;          /* MPIW_VERSION */
	uint32_t mw_nfn;              /* entries of mw_fn, mw_name, mw_class */
	const char *const *mw_name;   /* "MPI_Send", ... */
	const uint8_t *mw_class;      /* enum mpiw_class */
	struct mpiw_fn *mw_fn;
	uint64_t mw_inflight[MPIW_NCLASS];
	uint64_t mw_started[MPIW_NCLASS];
};

/* Type of the function MPIW_STATE_SYMBOL names. */
typedef struct mpiw_state *(*mpiw_state_fn)(void);

#endif
