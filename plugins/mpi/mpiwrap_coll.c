/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_coll: the collective wrappers of libmapsample-mpiwrap.so
 * (mpiwrap.c has the design notes), blocking and non-blocking, class
 * MPIW_COLLECTIVE.  A call counts what this process gives and gets, as
 * the application's arguments say: MPI_Bcast count * size sent at the
 * root and received elsewhere; MPI_Reduce count * size sent, and
 * received at the root; MPI_Allreduce, MPI_Scan, MPI_Exscan count *
 * size both ways; MPI_Gather the root receives recvcount * size from
 * each rank (its own block included), every rank sends its block;
 * MPI_Scatter the other way round; MPI_Allgather sends its block and
 * receives every rank's; MPI_Alltoall sendcount * size to each rank and
 * recvcount * size from each; the v and w forms the sums of their
 * counts (each with its own type in the w forms); MPI_Reduce_scatter
 * sends the sum of recvcounts and receives its own; with MPI_IN_PLACE
 * the block that stays in place counts as given.  An I- form counts as
 * its blocking twin, when it is posted.  Arguments MPI ignores
 * (recvcount at a non-root, sendcount with MPI_IN_PLACE) are never
 * read; bytes are counted only when the call returned MPI_SUCCESS.
 */
#include <stdint.h>

#include "mpiwrap_i.h"

/* COLL(fn, (params), (args), counting): MPI_fn timed, and on success
 * counting run to set s (bytes sent) and r (received). */
#define COLL(fn, params, args, ...)                                        \
	EXPORT int MPI_##fn params                                         \
	{                                                                  \
		REAL(fn, int (*)params);                                   \
		uint64_t t0 = enter(W_##fn), s = 0, r = 0;                 \
		int rc = fn##_p args;                                      \
		if (!rc) {                                                 \
			__VA_ARGS__;                                       \
		}                                                          \
		leave(W_##fn, t0, s, r);                                   \
		return rc;                                                 \
	}

#define P_CTX mpiw_h comm
#define P_REQ mpiw_h comm, void *req

/* ---- the bytes of each kind ---- */

static void bcast_bytes(int count, mpiw_h dt, int root, mpiw_h comm,
			uint64_t *s, uint64_t *r)
{
	uint64_t b = mpiw_bytes(count, dt);
	if (mpiw_comm_rank(comm) == root)
		*s = b;
	else
		*r = b;
}

static void reduce_bytes(int count, mpiw_h dt, int root, mpiw_h comm,
			 uint64_t *s, uint64_t *r)
{
	*s = mpiw_bytes(count, dt);
	*r = mpiw_comm_rank(comm) == root ? *s : 0;
}

static void rs_bytes(const int *rcounts, mpiw_h dt, mpiw_h comm,
		     uint64_t *s, uint64_t *r)
{
	if (!rcounts)
		return;
	int n = mpiw_comm_size(comm), me = mpiw_comm_rank(comm);
	*s = mpiw_bytes_v(rcounts, n, dt);
	*r = me >= 0 && me < n ? mpiw_bytes(rcounts[me], dt) : 0;
}

static void rsb_bytes(int rcount, mpiw_h dt, mpiw_h comm, uint64_t *s,
		      uint64_t *r)
{
	*r = mpiw_bytes(rcount, dt);
	*s = *r * (uint64_t)mpiw_comm_size(comm);
}

static void gather_bytes(const void *sbuf, int scount, mpiw_h sdt,
			 int rcount, mpiw_h rdt, int root, mpiw_h comm,
			 uint64_t *s, uint64_t *r)
{
	if (mpiw_comm_rank(comm) == root) {
		*r = mpiw_bytes(rcount, rdt) * (uint64_t)mpiw_comm_size(comm);
		*s = in_place(sbuf) ? mpiw_bytes(rcount, rdt)
				    : mpiw_bytes(scount, sdt);
	} else {
		*s = mpiw_bytes(scount, sdt);
	}
}

static void gatherv_bytes(const void *sbuf, int scount, mpiw_h sdt,
			  const int *rcounts, mpiw_h rdt, int root,
			  mpiw_h comm, uint64_t *s, uint64_t *r)
{
	int me = mpiw_comm_rank(comm);
	if (me == root) {
		int n = mpiw_comm_size(comm);
		*r = mpiw_bytes_v(rcounts, n, rdt);
		*s = in_place(sbuf) ? (rcounts && me < n
					       ? mpiw_bytes(rcounts[me], rdt)
					       : 0)
				    : mpiw_bytes(scount, sdt);
	} else {
		*s = mpiw_bytes(scount, sdt);
	}
}

static void scatter_bytes(const void *rbuf, int scount, mpiw_h sdt,
			  int rcount, mpiw_h rdt, int root, mpiw_h comm,
			  uint64_t *s, uint64_t *r)
{
	if (mpiw_comm_rank(comm) == root) {
		*s = mpiw_bytes(scount, sdt) * (uint64_t)mpiw_comm_size(comm);
		*r = in_place(rbuf) ? mpiw_bytes(scount, sdt)
				    : mpiw_bytes(rcount, rdt);
	} else {
		*r = mpiw_bytes(rcount, rdt);
	}
}

static void scatterv_bytes(const void *rbuf, const int *scounts, mpiw_h sdt,
			   int rcount, mpiw_h rdt, int root, mpiw_h comm,
			   uint64_t *s, uint64_t *r)
{
	int me = mpiw_comm_rank(comm);
	if (me == root) {
		int n = mpiw_comm_size(comm);
		*s = mpiw_bytes_v(scounts, n, sdt);
		*r = in_place(rbuf) ? (scounts && me < n
					       ? mpiw_bytes(scounts[me], sdt)
					       : 0)
				    : mpiw_bytes(rcount, rdt);
	} else {
		*r = mpiw_bytes(rcount, rdt);
	}
}

static void allgather_bytes(const void *sbuf, int scount, mpiw_h sdt,
			    int rcount, mpiw_h rdt, mpiw_h comm, uint64_t *s,
			    uint64_t *r)
{
	*r = mpiw_bytes(rcount, rdt) * (uint64_t)mpiw_comm_size(comm);
	*s = in_place(sbuf) ? mpiw_bytes(rcount, rdt) : mpiw_bytes(scount, sdt);
}

static void allgatherv_bytes(const void *sbuf, int scount, mpiw_h sdt,
			     const int *rcounts, mpiw_h rdt, mpiw_h comm,
			     uint64_t *s, uint64_t *r)
{
	int n = mpiw_comm_size(comm), me = mpiw_comm_rank(comm);
	*r = mpiw_bytes_v(rcounts, n, rdt);
	*s = in_place(sbuf) ? (rcounts && me >= 0 && me < n
				       ? mpiw_bytes(rcounts[me], rdt)
				       : 0)
			    : mpiw_bytes(scount, sdt);
}

static void alltoall_bytes(const void *sbuf, int scount, mpiw_h sdt,
			   int rcount, mpiw_h rdt, mpiw_h comm, uint64_t *s,
			   uint64_t *r)
{
	uint64_t n = (uint64_t)mpiw_comm_size(comm);
	*r = mpiw_bytes(rcount, rdt) * n;
	*s = in_place(sbuf) ? *r : mpiw_bytes(scount, sdt) * n;
}

static void alltoallv_bytes(const void *sbuf, const int *scounts,
			    mpiw_h sdt, const int *rcounts, mpiw_h rdt,
			    mpiw_h comm, uint64_t *s, uint64_t *r)
{
	int n = mpiw_comm_size(comm);
	*r = mpiw_bytes_v(rcounts, n, rdt);
	*s = in_place(sbuf) ? *r : mpiw_bytes_v(scounts, n, sdt);
}

/* The sum of n counts, each of its own type (an array of handles;
 * nothing under an MPI whose handle width is not known). */
static uint64_t bytes_w(const int *counts, const void *types, int n)
{
	uint64_t t = 0;
	if (!mpiw_handle_width)
		return 0;
	for (int i = 0; counts && types && i < n; i++)
		t += mpiw_bytes(counts[i], handle_at(types, i));
	return t;
}

static void alltoallw_bytes(const void *sbuf, const int *scounts,
			    const void *sdts, const int *rcounts,
			    const void *rdts, mpiw_h comm, uint64_t *s,
			    uint64_t *r)
{
	int n = mpiw_comm_size(comm);
	*r = bytes_w(rcounts, rdts, n);
	*s = in_place(sbuf) ? *r : bytes_w(scounts, sdts, n);
}

/* ---- the wrappers ---- */

PASS1(Barrier, mpiw_h)
PASS2(Ibarrier, mpiw_h, void *)

#define A_BCAST void *buf, int count, mpiw_h dt, int root
COLL(Bcast, (A_BCAST, P_CTX), (buf, count, dt, root, comm),
     bcast_bytes(count, dt, root, comm, &s, &r))
COLL(Ibcast, (A_BCAST, P_REQ), (buf, count, dt, root, comm, req),
     bcast_bytes(count, dt, root, comm, &s, &r))

#define A_REDUCE                                                           \
	const void *sbuf, void *rbuf, int count, mpiw_h dt, mpiw_h op, int root
COLL(Reduce, (A_REDUCE, P_CTX), (sbuf, rbuf, count, dt, op, root, comm),
     reduce_bytes(count, dt, root, comm, &s, &r))
COLL(Ireduce, (A_REDUCE, P_REQ),
     (sbuf, rbuf, count, dt, op, root, comm, req),
     reduce_bytes(count, dt, root, comm, &s, &r))

/* (sbuf, rbuf, count, type, op, comm): count elements each way. */
#define A_ALLRED const void *sbuf, void *rbuf, int count, mpiw_h dt, mpiw_h op
#define ALLRED(fn, ifn)                                                    \
	COLL(fn, (A_ALLRED, P_CTX), (sbuf, rbuf, count, dt, op, comm),     \
	     s = r = mpiw_bytes(count, dt))                                \
	COLL(ifn, (A_ALLRED, P_REQ),                                       \
	     (sbuf, rbuf, count, dt, op, comm, req),                       \
	     s = r = mpiw_bytes(count, dt))
ALLRED(Allreduce, Iallreduce)
ALLRED(Scan, Iscan)
ALLRED(Exscan, Iexscan)

#define A_RS const void *sbuf, void *rbuf, const int *rcounts, mpiw_h dt, \
	mpiw_h op
COLL(Reduce_scatter, (A_RS, P_CTX), (sbuf, rbuf, rcounts, dt, op, comm),
     rs_bytes(rcounts, dt, comm, &s, &r))
COLL(Ireduce_scatter, (A_RS, P_REQ),
     (sbuf, rbuf, rcounts, dt, op, comm, req),
     rs_bytes(rcounts, dt, comm, &s, &r))

#define A_RSB const void *sbuf, void *rbuf, int rcount, mpiw_h dt, mpiw_h op
COLL(Reduce_scatter_block, (A_RSB, P_CTX),
     (sbuf, rbuf, rcount, dt, op, comm),
     rsb_bytes(rcount, dt, comm, &s, &r))
COLL(Ireduce_scatter_block, (A_RSB, P_REQ),
     (sbuf, rbuf, rcount, dt, op, comm, req),
     rsb_bytes(rcount, dt, comm, &s, &r))

#define A_GATHER const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	int rcount, mpiw_h rdt, int root
#define V_GATHER sbuf, scount, sdt, rbuf, rcount, rdt, root
COLL(Gather, (A_GATHER, P_CTX), (V_GATHER, comm),
     gather_bytes(sbuf, scount, sdt, rcount, rdt, root, comm, &s, &r))
COLL(Igather, (A_GATHER, P_REQ), (V_GATHER, comm, req),
     gather_bytes(sbuf, scount, sdt, rcount, rdt, root, comm, &s, &r))

#define A_GATHERV const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	const int *rcounts, const int *displs, mpiw_h rdt, int root
#define V_GATHERV sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root
COLL(Gatherv, (A_GATHERV, P_CTX), (V_GATHERV, comm),
     gatherv_bytes(sbuf, scount, sdt, rcounts, rdt, root, comm, &s, &r))
COLL(Igatherv, (A_GATHERV, P_REQ), (V_GATHERV, comm, req),
     gatherv_bytes(sbuf, scount, sdt, rcounts, rdt, root, comm, &s, &r))

#define A_SCATTER A_GATHER
COLL(Scatter, (A_SCATTER, P_CTX), (V_GATHER, comm),
     scatter_bytes(rbuf, scount, sdt, rcount, rdt, root, comm, &s, &r))
COLL(Iscatter, (A_SCATTER, P_REQ), (V_GATHER, comm, req),
     scatter_bytes(rbuf, scount, sdt, rcount, rdt, root, comm, &s, &r))

#define A_SCATTERV const void *sbuf, const int *scounts, const int *displs, \
	mpiw_h sdt, void *rbuf, int rcount, mpiw_h rdt, int root
#define V_SCATTERV sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root
COLL(Scatterv, (A_SCATTERV, P_CTX), (V_SCATTERV, comm),
     scatterv_bytes(rbuf, scounts, sdt, rcount, rdt, root, comm, &s, &r))
COLL(Iscatterv, (A_SCATTERV, P_REQ), (V_SCATTERV, comm, req),
     scatterv_bytes(rbuf, scounts, sdt, rcount, rdt, root, comm, &s, &r))

#define A_ALLGATHER const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	int rcount, mpiw_h rdt
#define V_ALLGATHER sbuf, scount, sdt, rbuf, rcount, rdt
COLL(Allgather, (A_ALLGATHER, P_CTX), (V_ALLGATHER, comm),
     allgather_bytes(sbuf, scount, sdt, rcount, rdt, comm, &s, &r))
COLL(Iallgather, (A_ALLGATHER, P_REQ), (V_ALLGATHER, comm, req),
     allgather_bytes(sbuf, scount, sdt, rcount, rdt, comm, &s, &r))

#define A_ALLGATHERV const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	const int *rcounts, const int *displs, mpiw_h rdt
#define V_ALLGATHERV sbuf, scount, sdt, rbuf, rcounts, displs, rdt
COLL(Allgatherv, (A_ALLGATHERV, P_CTX), (V_ALLGATHERV, comm),
     allgatherv_bytes(sbuf, scount, sdt, rcounts, rdt, comm, &s, &r))
COLL(Iallgatherv, (A_ALLGATHERV, P_REQ), (V_ALLGATHERV, comm, req),
     allgatherv_bytes(sbuf, scount, sdt, rcounts, rdt, comm, &s, &r))

#define A_ALLTOALL A_ALLGATHER
COLL(Alltoall, (A_ALLTOALL, P_CTX), (V_ALLGATHER, comm),
     alltoall_bytes(sbuf, scount, sdt, rcount, rdt, comm, &s, &r))
COLL(Ialltoall, (A_ALLTOALL, P_REQ), (V_ALLGATHER, comm, req),
     alltoall_bytes(sbuf, scount, sdt, rcount, rdt, comm, &s, &r))

#define A_ALLTOALLV const void *sbuf, const int *scounts, \
	const int *sdispls, mpiw_h sdt, void *rbuf, const int *rcounts, \
	const int *rdispls, mpiw_h rdt
#define V_ALLTOALLV sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt
COLL(Alltoallv, (A_ALLTOALLV, P_CTX), (V_ALLTOALLV, comm),
     alltoallv_bytes(sbuf, scounts, sdt, rcounts, rdt, comm, &s, &r))
COLL(Ialltoallv, (A_ALLTOALLV, P_REQ), (V_ALLTOALLV, comm, req),
     alltoallv_bytes(sbuf, scounts, sdt, rcounts, rdt, comm, &s, &r))

/* the w forms: sdispls are bytes (int), sdts an array of type handles */
#define A_ALLTOALLW const void *sbuf, const int *scounts, \
	const int *sdispls, const void *sdts, void *rbuf, const int *rcounts, \
	const int *rdispls, const void *rdts
#define V_ALLTOALLW sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts
COLL(Alltoallw, (A_ALLTOALLW, P_CTX), (V_ALLTOALLW, comm),
     alltoallw_bytes(sbuf, scounts, sdts, rcounts, rdts, comm, &s, &r))
COLL(Ialltoallw, (A_ALLTOALLW, P_REQ), (V_ALLTOALLW, comm, req),
     alltoallw_bytes(sbuf, scounts, sdts, rcounts, rdts, comm, &s, &r))
