/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_nbr: the neighbourhood collectives of libmapsample-mpiwrap.so
 * (MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,w) and their I-
 * forms; mpiwrap.c has the design notes), class MPIW_COLLECTIVE.
 *
 * A call sends a block to each out-neighbour of the communicator's
 * topology and receives one from each in-neighbour: its bytes are the
 * blocks (the counts of the v and w forms, in neighbour order) of the
 * neighbours that are ranks.  In a Cartesian topology a neighbour past
 * a non-periodic edge is MPI_PROC_NULL: its block moves nothing and is
 * not counted (neighbour 2d and 2d+1 are the source and the destination
 * of MPI_Cart_shift(comm, d, 1)).  Graph and distributed graph
 * topologies name ranks only; their degrees come from
 * MPI_Graph_neighbors_count and MPI_Dist_graph_neighbors_count.  Under
 * an MPI whose topology constants are not known (mpiwrap_i.h) the calls
 * are timed and counted without bytes.
 */
#include <stdint.h>

#include "mpiwrap_i.h"

#define NBR_MAX_DIMS 32

/* The neighbours of a communicator. */
struct nbrs {
	int in, out;                   /* degrees */
	int cart;                      /* 1: Cartesian, use real[] */
	unsigned char real[2 * NBR_MAX_DIMS]; /* neighbour i is a rank */
};

typedef int (*topo_test_fn)(mpiw_h, int *);
typedef int (*cartdim_fn)(mpiw_h, int *);
typedef int (*cart_shift_fn)(mpiw_h, int, int, int *, int *);
typedef int (*graph_count_fn)(mpiw_h, int, int *);
typedef int (*dist_count_fn)(mpiw_h, int *, int *, int *);

/* The neighbours of comm; 0, or -1 when they are not known. */
static int neighbours(mpiw_h comm, struct nbrs *nb)
{
	if (!mpiw_topo_cart)
		return -1;
	REAL(Topo_test, topo_test_fn);
	int kind = 0;
	if (Topo_test_p(comm, &kind))
		return -1;
	nb->cart = 0;
	if (kind == mpiw_topo_cart) {
		REAL(Cartdim_get, cartdim_fn);
		REAL(Cart_shift, cart_shift_fn);
		int nd = 0;
		if (Cartdim_get_p(comm, &nd) || nd < 0 || nd > NBR_MAX_DIMS)
			return -1;
		for (int d = 0; d < nd; d++) {
			int src = -1, dst = -1;
			if (Cart_shift_p(comm, d, 1, &src, &dst))
				return -1;
			nb->real[2 * d] = src >= 0;
			nb->real[2 * d + 1] = dst >= 0;
		}
		nb->in = nb->out = 2 * nd;
		nb->cart = 1;
		return 0;
	}
	if (kind == 3 - mpiw_topo_cart) { /* MPI_GRAPH */
		REAL(Graph_neighbors_count, graph_count_fn);
		return Graph_neighbors_count_p(comm, mpiw_comm_rank(comm),
					       &nb->in) ? -1
							: (nb->out = nb->in, 0);
	}
	if (kind == 3) { /* MPI_DIST_GRAPH */
		REAL(Dist_graph_neighbors_count, dist_count_fn);
		int weighted = 0;
		return Dist_graph_neighbors_count_p(comm, &nb->in, &nb->out,
						    &weighted) ? -1 : 0;
	}
	return -1;
}

static inline int is_real(const struct nbrs *nb, int i)
{
	return !nb->cart || nb->real[i];
}

/* Bytes of count * type to each real neighbour of n. */
static uint64_t each(const struct nbrs *nb, int n, int count, mpiw_h dt)
{
	uint64_t b = mpiw_bytes(count, dt), t = 0;
	for (int i = 0; i < n; i++)
		t += is_real(nb, i) ? b : 0;
	return t;
}

/* The sum of the counts of the real neighbours of n, of type dt or,
 * when types is not NULL, each of its own type. */
static uint64_t sum(const struct nbrs *nb, int n, const int *counts,
		    mpiw_h dt, const void *types)
{
	uint64_t t = 0;
	for (int i = 0; counts && i < n; i++)
		if (is_real(nb, i))
			t += mpiw_bytes(counts[i],
					types ? handle_at(types, i) : dt);
	return t;
}

/* NBR(fn, (params), (args), sent, received): MPI_fn timed, with the
 * bytes the two expressions give once the neighbours nb are known. */
#define SET2(a, b) s = (a), r = (b)
#define SET2_(...) SET2(__VA_ARGS__)
#define NBR(fn, params, args, ...)                                         \
	EXPORT int MPI_##fn params                                         \
	{                                                                  \
		REAL(fn, int (*)params);                                   \
		uint64_t t0 = enter(W_##fn), s = 0, r = 0;                 \
		int rc = fn##_p args;                                      \
		struct nbrs nb;                                            \
		if (!rc && neighbours(comm, &nb) == 0)                     \
			SET2_(__VA_ARGS__);                                \
		leave(W_##fn, t0, s, r);                                   \
		return rc;                                                 \
	}

#define P_CTX mpiw_h comm
#define P_REQ mpiw_h comm, void *req

#define A_AG const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	int rcount, mpiw_h rdt
#define V_AG sbuf, scount, sdt, rbuf, rcount, rdt
#define B_AG each(&nb, nb.out, scount, sdt), each(&nb, nb.in, rcount, rdt)
NBR(Neighbor_allgather, (A_AG, P_CTX), (V_AG, comm), B_AG)
NBR(Ineighbor_allgather, (A_AG, P_REQ), (V_AG, comm, req), B_AG)
NBR(Neighbor_alltoall, (A_AG, P_CTX), (V_AG, comm), B_AG)
NBR(Ineighbor_alltoall, (A_AG, P_REQ), (V_AG, comm, req), B_AG)

#define A_AGV const void *sbuf, int scount, mpiw_h sdt, void *rbuf, \
	const int *rcounts, const int *displs, mpiw_h rdt
#define V_AGV sbuf, scount, sdt, rbuf, rcounts, displs, rdt
#define B_AGV each(&nb, nb.out, scount, sdt), \
	sum(&nb, nb.in, rcounts, rdt, NULL)
NBR(Neighbor_allgatherv, (A_AGV, P_CTX), (V_AGV, comm), B_AGV)
NBR(Ineighbor_allgatherv, (A_AGV, P_REQ), (V_AGV, comm, req), B_AGV)

#define A_ATV const void *sbuf, const int *scounts, const int *sdispls, \
	mpiw_h sdt, void *rbuf, const int *rcounts, const int *rdispls, \
	mpiw_h rdt
#define V_ATV sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt
#define B_ATV sum(&nb, nb.out, scounts, sdt, NULL), \
	sum(&nb, nb.in, rcounts, rdt, NULL)
NBR(Neighbor_alltoallv, (A_ATV, P_CTX), (V_ATV, comm), B_ATV)
NBR(Ineighbor_alltoallv, (A_ATV, P_REQ), (V_ATV, comm, req), B_ATV)

/* the w forms: displacements in bytes (MPI_Aint), a type per block */
#define A_ATW const void *sbuf, const int *scounts, \
	const mpiw_aint *sdispls, const void *sdts, void *rbuf, \
	const int *rcounts, const mpiw_aint *rdispls, const void *rdts
#define V_ATW sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts
#define B_ATW sum(&nb, nb.out, scounts, 0, sdts), \
	sum(&nb, nb.in, rcounts, 0, rdts)
NBR(Neighbor_alltoallw, (A_ATW, P_CTX), (V_ATW, comm), B_ATW)
NBR(Ineighbor_alltoallw, (A_ATW, P_REQ), (V_ATW, comm, req), B_ATW)
