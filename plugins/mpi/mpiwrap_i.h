/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_i.h: what the files of libmapsample-mpiwrap.so share (the
 * library's design notes are in mpiwrap.c).  mpiwrap.c holds the
 * counters, the lookup of the PMPI_* functions, the sizes asked of the
 * MPI library and MPI_Init/MPI_Finalize; the wrappers are split by
 * family: mpiwrap_p2p.c (point-to-point, persistent requests, matched
 * probes, completion), mpiwrap_coll.c (collectives), mpiwrap_nbr.c
 * (neighbourhood collectives), mpiwrap_rma.c (one-sided),
 * mpiwrap_file.c (MPI-IO) and mpiwrap_fort.c (Fortran bindings that
 * bypass the C functions).  Every symbol here but the MPI_* wrappers is
 * hidden (-fvisibility=hidden).
 */
#ifndef MAPSAMPLE_MPIWRAP_I_H
#define MAPSAMPLE_MPIWRAP_I_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "mpiwrap.h"

#define EXPORT __attribute__((visibility("default")))

/* The MPI_* definitions have no prototypes in scope: they are mpi.h's,
 * which these files do not include (see mpiwrap.c's design notes). */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

typedef uintptr_t mpiw_h;   /* an MPI handle, passed through unread */
typedef intptr_t mpiw_aint; /* MPI_Aint: long in every 64-bit MPI */
typedef int64_t mpiw_off;   /* MPI_Offset: 64 bits in every MPI */

/* The functions wrapped: name, class (mpiwrap.h). */
#define MPIW_FUNCTIONS(X)                                                   \
	X(Init, MPIW_OTHER) X(Init_thread, MPIW_OTHER)                      \
	X(Finalize, MPIW_OTHER)                                             \
	X(Send, MPIW_P2P) X(Bsend, MPIW_P2P) X(Ssend, MPIW_P2P)             \
	X(Rsend, MPIW_P2P) X(Isend, MPIW_P2P) X(Ibsend, MPIW_P2P)           \
	X(Issend, MPIW_P2P) X(Irsend, MPIW_P2P) X(Recv, MPIW_P2P)           \
	X(Irecv, MPIW_P2P) X(Sendrecv, MPIW_P2P)                            \
	X(Sendrecv_replace, MPIW_P2P) X(Probe, MPIW_P2P)                    \
	X(Iprobe, MPIW_P2P) X(Wait, MPIW_P2P) X(Waitall, MPIW_P2P)          \
	X(Waitany, MPIW_P2P) X(Waitsome, MPIW_P2P) X(Test, MPIW_P2P)        \
	X(Testall, MPIW_P2P) X(Testany, MPIW_P2P) X(Testsome, MPIW_P2P)     \
	X(Barrier, MPIW_COLLECTIVE) X(Bcast, MPIW_COLLECTIVE)               \
	X(Reduce, MPIW_COLLECTIVE) X(Allreduce, MPIW_COLLECTIVE)            \
	X(Reduce_scatter, MPIW_COLLECTIVE)                                  \
	X(Reduce_scatter_block, MPIW_COLLECTIVE) X(Scan, MPIW_COLLECTIVE)   \
	X(Exscan, MPIW_COLLECTIVE) X(Gather, MPIW_COLLECTIVE)               \
	X(Gatherv, MPIW_COLLECTIVE) X(Scatter, MPIW_COLLECTIVE)             \
	X(Scatterv, MPIW_COLLECTIVE) X(Allgather, MPIW_COLLECTIVE)          \
	X(Allgatherv, MPIW_COLLECTIVE) X(Alltoall, MPIW_COLLECTIVE)         \
	X(Alltoallv, MPIW_COLLECTIVE) X(Ibarrier, MPIW_COLLECTIVE)          \
	X(Ibcast, MPIW_COLLECTIVE) X(Ireduce, MPIW_COLLECTIVE)              \
	X(Iallreduce, MPIW_COLLECTIVE)                                      \
	MPIW_FUNCTIONS_MORE(X)

/* The families added to the first list: the rest of the MPI-3.1 calls
 * that move data or wait. */
#define MPIW_FUNCTIONS_MORE(X)                                              \
	X(Alltoallw, MPIW_COLLECTIVE) X(Iallgather, MPIW_COLLECTIVE)        \
	X(Iallgatherv, MPIW_COLLECTIVE) X(Ialltoall, MPIW_COLLECTIVE)       \
	X(Ialltoallv, MPIW_COLLECTIVE) X(Ialltoallw, MPIW_COLLECTIVE)       \
	X(Igather, MPIW_COLLECTIVE) X(Igatherv, MPIW_COLLECTIVE)            \
	X(Iscatter, MPIW_COLLECTIVE) X(Iscatterv, MPIW_COLLECTIVE)          \
	X(Ireduce_scatter, MPIW_COLLECTIVE)                                 \
	X(Ireduce_scatter_block, MPIW_COLLECTIVE) X(Iscan, MPIW_COLLECTIVE) \
	X(Iexscan, MPIW_COLLECTIVE)                                         \
	X(Neighbor_allgather, MPIW_COLLECTIVE)                              \
	X(Neighbor_allgatherv, MPIW_COLLECTIVE)                             \
	X(Neighbor_alltoall, MPIW_COLLECTIVE)                               \
	X(Neighbor_alltoallv, MPIW_COLLECTIVE)                              \
	X(Neighbor_alltoallw, MPIW_COLLECTIVE)                              \
	X(Ineighbor_allgather, MPIW_COLLECTIVE)                             \
	X(Ineighbor_allgatherv, MPIW_COLLECTIVE)                            \
	X(Ineighbor_alltoall, MPIW_COLLECTIVE)                              \
	X(Ineighbor_alltoallv, MPIW_COLLECTIVE)                             \
	X(Ineighbor_alltoallw, MPIW_COLLECTIVE)                             \
	X(Send_init, MPIW_P2P) X(Bsend_init, MPIW_P2P)                      \
	X(Ssend_init, MPIW_P2P) X(Rsend_init, MPIW_P2P)                     \
	X(Recv_init, MPIW_P2P) X(Start, MPIW_P2P) X(Startall, MPIW_P2P)     \
	X(Mprobe, MPIW_P2P) X(Improbe, MPIW_P2P) X(Mrecv, MPIW_P2P)         \
	X(Imrecv, MPIW_P2P)                                                 \
	X(Put, MPIW_P2P) X(Get, MPIW_P2P) X(Accumulate, MPIW_P2P)           \
	X(Get_accumulate, MPIW_P2P) X(Fetch_and_op, MPIW_P2P)               \
	X(Compare_and_swap, MPIW_P2P) X(Rput, MPIW_P2P) X(Rget, MPIW_P2P)   \
	X(Raccumulate, MPIW_P2P) X(Rget_accumulate, MPIW_P2P)               \
	X(Win_fence, MPIW_COLLECTIVE) X(Win_lock, MPIW_P2P)                 \
	X(Win_unlock, MPIW_P2P) X(Win_lock_all, MPIW_P2P)                   \
	X(Win_unlock_all, MPIW_P2P) X(Win_flush, MPIW_P2P)                  \
	X(Win_flush_all, MPIW_P2P) X(Win_flush_local, MPIW_P2P)             \
	X(Win_flush_local_all, MPIW_P2P) X(Win_post, MPIW_P2P)              \
	X(Win_start, MPIW_P2P) X(Win_complete, MPIW_P2P)                    \
	X(Win_wait, MPIW_P2P) X(Win_sync, MPIW_P2P)                         \
	X(File_open, MPIW_FILE) X(File_close, MPIW_FILE)                    \
	X(File_sync, MPIW_FILE) X(File_set_view, MPIW_FILE)                 \
	X(File_read, MPIW_FILE) X(File_read_at, MPIW_FILE)                  \
	X(File_read_all, MPIW_FILE) X(File_read_at_all, MPIW_FILE)          \
	X(File_read_shared, MPIW_FILE) X(File_read_ordered, MPIW_FILE)      \
	X(File_write, MPIW_FILE) X(File_write_at, MPIW_FILE)                \
	X(File_write_all, MPIW_FILE) X(File_write_at_all, MPIW_FILE)        \
	X(File_write_shared, MPIW_FILE) X(File_write_ordered, MPIW_FILE)    \
	X(File_iread, MPIW_FILE) X(File_iread_at, MPIW_FILE)                \
	X(File_iread_all, MPIW_FILE) X(File_iread_at_all, MPIW_FILE)        \
	X(File_iread_shared, MPIW_FILE) X(File_iwrite, MPIW_FILE)           \
	X(File_iwrite_at, MPIW_FILE) X(File_iwrite_all, MPIW_FILE)          \
	X(File_iwrite_at_all, MPIW_FILE) X(File_iwrite_shared, MPIW_FILE)

#define MPIW_ENUM(n, c) W_##n,
enum { MPIW_FUNCTIONS(MPIW_ENUM) W_N };

extern const char *const mpiw_names[W_N];
extern const uint8_t mpiw_classes[W_N];
extern struct mpiw_state mpiw_state_all;

/* This thread's block; NULL until its first MPI call (or when it could
 * not be allocated: the thread's calls are then not counted). */
extern __thread struct mpiw_thread *mpiw_self
	__attribute__((tls_model("initial-exec")));
struct mpiw_thread *mpiw_self_new(void);

/* The substrate host's MPI events (mapsample_mpi_call of the sampler),
 * once MPI_Init has returned and when the sampler has them: substrate
 * plugins get each call's enter and exit (mapsample-substrate(3)). */
typedef void (*mpi_call_fn)(int enter, const char *function, uint64_t sent,
			    uint64_t received, int32_t peer);
extern mpi_call_fn mpiw_tell_call;

/* ---- the clock and the counters ---- */

static inline uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* *p += v by its only writer, readable whole by any thread. */
static inline void add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
}

/* A call of function f starts: returns its start time. */
static inline uint64_t enter(int f)
{
	mpi_call_fn tc = __atomic_load_n(&mpiw_tell_call, __ATOMIC_RELAXED);
	if (tc)
		tc(1, mpiw_names[f], 0, 0, -1);
	uint64_t t = now_ns();
	struct mpiw_thread *me = mpiw_self ? mpiw_self : mpiw_self_new();
	if (me) {
		me->t_class = mpiw_classes[f];
		__atomic_store_n(&me->t_start, t, __ATOMIC_RELAXED);
	}
	return t;
}

/* The call of f that started at t0 ended, having sent and received
 * those bytes; peer: the other rank of a point-to-point call (in the
 * call's communicator), -1 for collectives and when unknown. */
static inline void leave_peer(int f, uint64_t t0, uint64_t sent,
			      uint64_t recv, int32_t peer)
{
	uint64_t t = now_ns();
	struct mpiw_thread *me = mpiw_self;
	if (!me)
		return;
	struct mpiw_fn *c = &me->t_fn[f];
	add(&c->f_ns, t - t0);
	add(&c->f_calls, 1);
	__atomic_store_n(&me->t_start, 0, __ATOMIC_RELAXED);
	if (sent)
		add(&c->f_sent, sent);
	if (recv)
		add(&c->f_received, recv);
	mpi_call_fn tc = __atomic_load_n(&mpiw_tell_call, __ATOMIC_RELAXED);
	if (tc)
		tc(0, mpiw_names[f], sent, recv, peer < 0 ? -1 : peer);
}

static inline void leave(int f, uint64_t t0, uint64_t sent, uint64_t recv)
{
	leave_peer(f, t0, sent, recv, -1);
}

/* ---- the MPI library's functions ---- */

/* After a successful MPI_Init: the rank to the sampler, the totals at
 * exit (mpiwrap.c). */
void mpiw_after_init(void);
/* Hands the totals to the sampler, once. */
void mpiw_report(void);

/* The address of sym in the program's MPI library; on failure one line
 * on stderr and the process ends (mpiwrap.c). */
void *mpiw_need(const char *sym);

/* REAL(fn, type): fn_p, the PMPI_ twin of MPI_fn, looked up once. */
#define REAL(fn, ...)                                                      \
	typedef __typeof__(__VA_ARGS__) fn##_t;                             \
	static fn##_t r_##fn;                                               \
	fn##_t fn##_p = __atomic_load_n(&r_##fn, __ATOMIC_RELAXED);         \
	if (!fn##_p) {                                                      \
		fn##_p = (fn##_t)mpiw_need("PMPI_" #fn);                    \
		__atomic_store_n(&r_##fn, fn##_p, __ATOMIC_RELAXED);       \
	}

/* Bytes in count elements of type dt (0 when count is not positive). */
uint64_t mpiw_bytes(int count, mpiw_h dt);
/* The sum of n counts of type dt. */
uint64_t mpiw_bytes_v(const int *counts, int n, mpiw_h dt);
int mpiw_comm_size(mpiw_h comm);
int mpiw_comm_rank(mpiw_h comm);
/* Bytes a completed receive (or read) of type dt brought, from its
 * status. */
uint64_t mpiw_received(void *status, mpiw_h dt);

/* What the program's MPI is, known once MPI_Init has returned (set by
 * mpiwrap.c's after_init): the width in bytes of a handle in an array
 * of handles (MPI_Datatype[], MPI_Request[]: 8 in Open MPI, whose
 * handles are pointers, 4 in the MPICH ABI, whose are ints; 0 under an
 * MPI this library does not know, whose arrays are then not read), and
 * the value MPI_Topo_test gives for a Cartesian communicator (1 in Open
 * MPI, 2 in MPICH; MPI_GRAPH is the other, MPI_DIST_GRAPH is 3 in
 * both). */
extern int mpiw_handle_width;
extern int mpiw_topo_cart;
/* MPI_NO_OP (the address of ompi_mpi_op_no_op in Open MPI, 0x5800000e
 * in the MPICH ABI; 0: not known). */
extern mpiw_h mpiw_op_no_op;

/* Handle h (an argument) is MPI_NO_OP: compared in the handle's width,
 * as an int argument's upper register half is undefined. */
static inline int is_no_op(mpiw_h h)
{
	if (mpiw_handle_width == 4)
		return (uint32_t)h == (uint32_t)mpiw_op_no_op;
	return mpiw_op_no_op && h == mpiw_op_no_op;
}

/* Handle i of an array of handles (0 when the width is not known). */
static inline mpiw_h handle_at(const void *array, int i)
{
	if (mpiw_handle_width == 8)
		return ((const uint64_t *)array)[i];
	if (mpiw_handle_width == 4)
		return ((const uint32_t *)array)[i];
	return 0;
}

/* MPI_STATUS_IGNORE (0 or 1) or MPI_STATUSES_IGNORE: no real status. */
static inline int ignored(const void *status)
{
	return (uintptr_t)status < 4096;
}

/* MPI_IN_PLACE (1 in Open MPI, -1 in MPICH). */
static inline int in_place(const void *buf)
{
	return (uintptr_t)buf == 1 || (uintptr_t)buf == (uintptr_t)-1;
}

/* Where MPI_SOURCE lies in the program's MPI_Status (mpiwrap.c). */
extern int mpiw_status_source_off;

/* The peer of a receive from src: src itself when it names a rank; for
 * MPI_ANY_SOURCE (negative in every MPI, as MPI_PROC_NULL is) the
 * source the completed call's status gives, when it has a real one and
 * the MPI is known; else -1. */
static inline int32_t mpiw_source_of(int src, int rc, const void *status)
{
	if (src >= 0)
		return src;
	if (rc || ignored(status) || mpiw_status_source_off < 0)
		return -1;
	int s;
	memcpy(&s, (const unsigned char *)status + mpiw_status_source_off,
	       sizeof(s));
	return s >= 0 ? s : -1;
}

/* Room for any MPI's MPI_Status, for calls made with MPI_STATUS_IGNORE
 * whose received bytes are wanted. */
struct mpiw_status {
	_Alignas(16) unsigned char b[256];
};

/* Completion and synchronisation calls: passed through, timed, no
 * bytes.  PASSn(fn, types...) defines MPI_fn of n arguments. */
#define PASS_BODY(fn, proto, args)                                         \
	{                                                                  \
		REAL(fn, int (*)proto);                                    \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p args;                                      \
		leave(W_##fn, t0, 0, 0);                                   \
		return rc;                                                 \
	}
#define PASS1(fn, a) EXPORT int MPI_##fn(a x1) PASS_BODY(fn, (a), (x1))
#define PASS2(fn, a, b)                                                    \
	EXPORT int MPI_##fn(a x1, b x2) PASS_BODY(fn, (a, b), (x1, x2))
#define PASS3(fn, a, b, c)                                                 \
	EXPORT int MPI_##fn(a x1, b x2, c x3)                              \
	PASS_BODY(fn, (a, b, c), (x1, x2, x3))
#define PASS4(fn, a, b, c, d)                                              \
	EXPORT int MPI_##fn(a x1, b x2, c x3, d x4)                        \
	PASS_BODY(fn, (a, b, c, d), (x1, x2, x3, x4))
#define PASS5(fn, a, b, c, d, e)                                           \
	EXPORT int MPI_##fn(a x1, b x2, c x3, d x4, e x5)                  \
	PASS_BODY(fn, (a, b, c, d, e), (x1, x2, x3, x4, x5))
#define PASS6(fn, a, b, c, d, e, g)                                        \
	EXPORT int MPI_##fn(a x1, b x2, c x3, d x4, e x5, g x6)            \
	PASS_BODY(fn, (a, b, c, d, e, g), (x1, x2, x3, x4, x5, x6))

#endif
