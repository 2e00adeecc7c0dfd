/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_rma: the one-sided (RMA) wrappers of libmapsample-mpiwrap.so
 * (mpiwrap.c has the design notes).
 *
 * Class: point-to-point (MPIW_P2P), as Performance Reports splits MPI
 * time into collective and point-to-point only: each access moves data
 * between this process (the origin) and one target rank, which is the
 * peer the substrate host is told, and the passive- and general-active-
 * target synchronisation (MPI_Win_lock ... MPI_Win_sync) waits on those
 * accesses as MPI_Wait does on a request.  MPI_Win_fence is collective
 * over the window's group and is of class MPIW_COLLECTIVE.
 *
 * Bytes: the origin side's, as the call's origin arguments say (the
 * target's count and type describe the same data at the other end):
 * MPI_Put and MPI_Accumulate send origin_count * size; MPI_Get receives
 * it; MPI_Get_accumulate sends the origin data (none with MPI_NO_OP)
 * and receives result_count * size; MPI_Fetch_and_op sends one element
 * (none with MPI_NO_OP) and receives one; MPI_Compare_and_swap sends
 * two (the value and the one compared with) and receives one.  The R-
 * forms count as their twins, when posted.
 */
#include <stdint.h>

#include "mpiwrap_i.h"

/* RMA(fn, (params), (args), sent, received): MPI_fn timed, its bytes
 * counted on success, its target rank (trank) the peer. */
#define RMA(fn, params, args, sent, recvd)                                 \
	EXPORT int MPI_##fn params                                         \
	{                                                                  \
		REAL(fn, int (*)params);                                   \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p args;                                      \
		leave_peer(W_##fn, t0, rc ? 0 : (sent), rc ? 0 : (recvd),  \
			   trank);                                         \
		return rc;                                                 \
	}

#define A_PUT const void *oaddr, int ocount, mpiw_h odt, int trank, \
	mpiw_aint tdisp, int tcount, mpiw_h tdt
#define V_PUT oaddr, ocount, odt, trank, tdisp, tcount, tdt
RMA(Put, (A_PUT, mpiw_h win), (V_PUT, win), mpiw_bytes(ocount, odt), 0)
RMA(Rput, (A_PUT, mpiw_h win, void *req), (V_PUT, win, req),
    mpiw_bytes(ocount, odt), 0)

#define A_GET void *oaddr, int ocount, mpiw_h odt, int trank, \
	mpiw_aint tdisp, int tcount, mpiw_h tdt
RMA(Get, (A_GET, mpiw_h win), (V_PUT, win), 0, mpiw_bytes(ocount, odt))
RMA(Rget, (A_GET, mpiw_h win, void *req), (V_PUT, win, req), 0,
    mpiw_bytes(ocount, odt))

RMA(Accumulate, (A_PUT, mpiw_h op, mpiw_h win), (V_PUT, op, win),
    mpiw_bytes(ocount, odt), 0)
RMA(Raccumulate, (A_PUT, mpiw_h op, mpiw_h win, void *req),
    (V_PUT, op, win, req), mpiw_bytes(ocount, odt), 0)

#define A_GACC const void *oaddr, int ocount, mpiw_h odt, void *raddr, \
	int rcount, mpiw_h rdt, int trank, mpiw_aint tdisp, int tcount, \
	mpiw_h tdt, mpiw_h op
#define V_GACC oaddr, ocount, odt, raddr, rcount, rdt, trank, tdisp, tcount, \
	tdt, op
RMA(Get_accumulate, (A_GACC, mpiw_h win), (V_GACC, win),
    is_no_op(op) ? 0 : mpiw_bytes(ocount, odt), mpiw_bytes(rcount, rdt))
RMA(Rget_accumulate, (A_GACC, mpiw_h win, void *req), (V_GACC, win, req),
    is_no_op(op) ? 0 : mpiw_bytes(ocount, odt), mpiw_bytes(rcount, rdt))

RMA(Fetch_and_op,
    (const void *oaddr, void *raddr, mpiw_h dt, int trank, mpiw_aint tdisp,
     mpiw_h op, mpiw_h win),
    (oaddr, raddr, dt, trank, tdisp, op, win),
    is_no_op(op) ? 0 : mpiw_bytes(1, dt), mpiw_bytes(1, dt))

RMA(Compare_and_swap,
    (const void *oaddr, const void *caddr, void *raddr, mpiw_h dt, int trank,
     mpiw_aint tdisp, mpiw_h win),
    (oaddr, caddr, raddr, dt, trank, tdisp, win), mpiw_bytes(2, dt),
    mpiw_bytes(1, dt))

/* synchronisation: timed, no bytes */
PASS2(Win_fence, int, mpiw_h)
PASS4(Win_lock, int, int, int, mpiw_h)
PASS2(Win_unlock, int, mpiw_h)
PASS2(Win_lock_all, int, mpiw_h)
PASS1(Win_unlock_all, mpiw_h)
PASS2(Win_flush, int, mpiw_h)
PASS1(Win_flush_all, mpiw_h)
PASS2(Win_flush_local, int, mpiw_h)
PASS1(Win_flush_local_all, mpiw_h)
PASS3(Win_post, mpiw_h, int, mpiw_h)
PASS3(Win_start, mpiw_h, int, mpiw_h)
PASS1(Win_complete, mpiw_h)
PASS1(Win_wait, mpiw_h)
PASS1(Win_sync, mpiw_h)
