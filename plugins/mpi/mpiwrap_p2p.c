/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_p2p: the point-to-point wrappers of libmapsample-mpiwrap.so
 * (mpiwrap.c has the design notes): sends and receives, probes, the
 * Wait and Test calls, persistent requests (MPI_Send_init ...
 * MPI_Start, MPI_Startall) and matched probes (MPI_Mprobe, MPI_Improbe,
 * MPI_Mrecv, MPI_Imrecv).  All of class MPIW_P2P.
 *
 * A persistent request moves its bytes each time it is started: the
 * *_init call records the request's bytes (count times the size of its
 * type) and direction in a table keyed by the request handle, and
 * MPI_Start and MPI_Startall count them.  The table has PREQ_SLOTS
 * entries under a mutex (the wrappers run in the program's threads,
 * never in a signal handler); a handle reused by the MPI library for a
 * new persistent request replaces the old entry, and a request that
 * finds no room is started uncounted in bytes (its calls still count).
 * Entries are not removed at MPI_Request_free (not wrapped): an MPI-4
 * persistent collective (not wrapped either) started with MPI_Start
 * whose handle an earlier, freed point-to-point request had would count
 * that request's bytes.
 */
#include <pthread.h>
#include <stdint.h>

#include "mpiwrap_i.h"

/* Blocking sends: (buf, count, type, dest, tag, comm). */
#define SEND(fn)                                                           \
	EXPORT int MPI_##fn(const void *buf, int count, mpiw_h dt,         \
			    int dest, int tag, mpiw_h comm)                \
	{                                                                  \
		REAL(fn, int (*)(const void *, int, mpiw_h, int, int,      \
				 mpiw_h));                                 \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(buf, count, dt, dest, tag, comm);          \
		leave_peer(W_##fn, t0, rc ? 0 : mpiw_bytes(count, dt), 0, dest); \
		return rc;                                                 \
	}
SEND(Send)
SEND(Bsend)
SEND(Ssend)
SEND(Rsend)

/* Non-blocking sends: (buf, count, type, dest, tag, comm, request). */
#define ISEND(fn)                                                          \
	EXPORT int MPI_##fn(const void *buf, int count, mpiw_h dt,         \
			    int dest, int tag, mpiw_h comm, void *req)     \
	{                                                                  \
		REAL(fn, int (*)(const void *, int, mpiw_h, int, int,      \
				 mpiw_h, void *));                         \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(buf, count, dt, dest, tag, comm, req);     \
		leave_peer(W_##fn, t0, rc ? 0 : mpiw_bytes(count, dt), 0, dest); \
		return rc;                                                 \
	}
ISEND(Isend)
ISEND(Ibsend)
ISEND(Issend)
ISEND(Irsend)

EXPORT int MPI_Recv(void *buf, int count, mpiw_h dt, int src, int tag,
		    mpiw_h comm, void *status)
{
	REAL(Recv, int (*)(void *, int, mpiw_h, int, int, mpiw_h, void *));
	struct mpiw_status own;
	void *st = ignored(status) ? (void *)&own : status;
	uint64_t t0 = enter(W_Recv);
	int rc = Recv_p(buf, count, dt, src, tag, comm, st);
	leave_peer(W_Recv, t0, 0, rc ? 0 : mpiw_received(st, dt),
		   mpiw_source_of(src, rc, st));
	return rc;
}

EXPORT int MPI_Irecv(void *buf, int count, mpiw_h dt, int src, int tag,
		     mpiw_h comm, void *req)
{
	REAL(Irecv, int (*)(void *, int, mpiw_h, int, int, mpiw_h, void *));
	uint64_t t0 = enter(W_Irecv);
	int rc = Irecv_p(buf, count, dt, src, tag, comm, req);
	leave_peer(W_Irecv, t0, 0, rc ? 0 : mpiw_bytes(count, dt), src);
	return rc;
}

EXPORT int MPI_Sendrecv(const void *sbuf, int scount, mpiw_h sdt, int dest,
			int stag, void *rbuf, int rcount, mpiw_h rdt, int src,
			int rtag, mpiw_h comm, void *status)
{
	REAL(Sendrecv, int (*)(const void *, int, mpiw_h, int, int, void *,
			       int, mpiw_h, int, int, mpiw_h, void *));
	struct mpiw_status own;
	void *st = ignored(status) ? (void *)&own : status;
	uint64_t t0 = enter(W_Sendrecv);
	int rc = Sendrecv_p(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt,
			    src, rtag, comm, st);
	leave_peer(W_Sendrecv, t0, rc ? 0 : mpiw_bytes(scount, sdt),
		   rc ? 0 : mpiw_received(st, rdt),
		   dest >= 0 ? dest : mpiw_source_of(src, rc, st));
	return rc;
}

EXPORT int MPI_Sendrecv_replace(void *buf, int count, mpiw_h dt, int dest,
				int stag, int src, int rtag, mpiw_h comm,
				void *status)
{
	REAL(Sendrecv_replace, int (*)(void *, int, mpiw_h, int, int, int,
				       int, mpiw_h, void *));
	struct mpiw_status own;
	void *st = ignored(status) ? (void *)&own : status;
	uint64_t t0 = enter(W_Sendrecv_replace);
	int rc = Sendrecv_replace_p(buf, count, dt, dest, stag, src, rtag,
				    comm, st);
	leave_peer(W_Sendrecv_replace, t0, rc ? 0 : mpiw_bytes(count, dt),
		   rc ? 0 : mpiw_received(st, dt),
		   dest >= 0 ? dest : mpiw_source_of(src, rc, st));
	return rc;
}

EXPORT int MPI_Probe(int src, int tag, mpiw_h comm, void *status)
{
	REAL(Probe, int (*)(int, int, mpiw_h, void *));
	uint64_t t0 = enter(W_Probe);
	int rc = Probe_p(src, tag, comm, status);
	leave_peer(W_Probe, t0, 0, 0, mpiw_source_of(src, rc, status));
	return rc;
}

EXPORT int MPI_Iprobe(int src, int tag, mpiw_h comm, int *flag,
		      void *status)
{
	REAL(Iprobe, int (*)(int, int, mpiw_h, int *, void *));
	uint64_t t0 = enter(W_Iprobe);
	int rc = Iprobe_p(src, tag, comm, flag, status);
	leave_peer(W_Iprobe, t0, 0, 0,
		   src >= 0 ? src
			    : mpiw_source_of(src, rc || !flag || !*flag, status));
	return rc;
}

/* Completion: passed through, timed, no bytes (counted when posted). */
PASS2(Wait, void *, void *)
PASS3(Waitall, int, void *, void *)
PASS4(Waitany, int, void *, int *, void *)
PASS5(Waitsome, int, void *, int *, int *, void *)
PASS3(Test, void *, int *, void *)
PASS4(Testall, int, void *, int *, void *)
PASS5(Testany, int, void *, int *, int *, void *)
PASS5(Testsome, int, void *, int *, int *, void *)


/* ---- persistent requests ---- */

#define PREQ_SLOTS 4096 /* a power of two */

struct preq {
	mpiw_h q_handle;   /* 0: a free slot */
	uint64_t q_sent;   /* bytes a start sends */
	uint64_t q_recv;   /* or receives (the size posted) */
	int32_t q_peer;
};

static struct preq preqs[PREQ_SLOTS];
static pthread_mutex_t preq_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t preq_hash(mpiw_h h)
{
	uint64_t x = (uint64_t)h * 0x9e3779b97f4a7c15u;
	return (size_t)(x >> 52) & (PREQ_SLOTS - 1);
}

/* Records the request *req made by a successful *_init call. */
static void preq_put(const void *req, uint64_t sent, uint64_t recv,
		     int32_t peer)
{
	mpiw_h h = handle_at(req, 0);
	if (!h)
		return;
	pthread_mutex_lock(&preq_lock);
	size_t i = preq_hash(h), n = 0;
	while (preqs[i].q_handle && preqs[i].q_handle != h &&
	       ++n < PREQ_SLOTS)
		i = (i + 1) & (PREQ_SLOTS - 1);
	if (n < PREQ_SLOTS)
		preqs[i] = (struct preq){h, sent, recv, peer};
	pthread_mutex_unlock(&preq_lock);
}

/* Adds the bytes of the persistent request whose handle is h. */
static void preq_get(mpiw_h h, uint64_t *sent, uint64_t *recv,
		     int32_t *peer)
{
	if (!h)
		return;
	pthread_mutex_lock(&preq_lock);
	size_t i = preq_hash(h), n = 0;
	while (preqs[i].q_handle && preqs[i].q_handle != h &&
	       ++n < PREQ_SLOTS)
		i = (i + 1) & (PREQ_SLOTS - 1);
	if (n < PREQ_SLOTS && preqs[i].q_handle == h) {
		*sent += preqs[i].q_sent;
		*recv += preqs[i].q_recv;
		*peer = preqs[i].q_peer;
	}
	pthread_mutex_unlock(&preq_lock);
}

/* Persistent sends: (buf, count, type, dest, tag, comm, request); no
 * bytes until started. */
#define SEND_INIT(fn)                                                      \
	EXPORT int MPI_##fn(const void *buf, int count, mpiw_h dt,         \
			    int dest, int tag, mpiw_h comm, void *req)     \
	{                                                                  \
		REAL(fn, int (*)(const void *, int, mpiw_h, int, int,      \
				 mpiw_h, void *));                         \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(buf, count, dt, dest, tag, comm, req);     \
		leave_peer(W_##fn, t0, 0, 0, dest);                        \
		if (!rc)                                                   \
			preq_put(req, mpiw_bytes(count, dt), 0, dest);     \
		return rc;                                                 \
	}
SEND_INIT(Send_init)
SEND_INIT(Bsend_init)
SEND_INIT(Ssend_init)
SEND_INIT(Rsend_init)

EXPORT int MPI_Recv_init(void *buf, int count, mpiw_h dt, int src, int tag,
			 mpiw_h comm, void *req)
{
	REAL(Recv_init, int (*)(void *, int, mpiw_h, int, int, mpiw_h,
				void *));
	uint64_t t0 = enter(W_Recv_init);
	int rc = Recv_init_p(buf, count, dt, src, tag, comm, req);
	leave_peer(W_Recv_init, t0, 0, 0, src);
	if (!rc)
		preq_put(req, 0, mpiw_bytes(count, dt), src);
	return rc;
}

EXPORT int MPI_Start(void *req)
{
	REAL(Start, int (*)(void *));
	uint64_t s = 0, r = 0;
	int32_t peer = -1;
	if (req)
		preq_get(handle_at(req, 0), &s, &r, &peer);
	uint64_t t0 = enter(W_Start);
	int rc = Start_p(req);
	leave_peer(W_Start, t0, rc ? 0 : s, rc ? 0 : r, peer);
	return rc;
}

EXPORT int MPI_Startall(int n, void *reqs)
{
	REAL(Startall, int (*)(int, void *));
	uint64_t s = 0, r = 0;
	int32_t peer = -1;
	for (int i = 0; reqs && i < n; i++)
		preq_get(handle_at(reqs, i), &s, &r, &peer);
	uint64_t t0 = enter(W_Startall);
	int rc = Startall_p(n, reqs);
	leave(W_Startall, t0, rc ? 0 : s, rc ? 0 : r);
	return rc;
}

/* ---- matched probes ---- */

EXPORT int MPI_Mprobe(int src, int tag, mpiw_h comm, void *msg,
		      void *status)
{
	REAL(Mprobe, int (*)(int, int, mpiw_h, void *, void *));
	uint64_t t0 = enter(W_Mprobe);
	int rc = Mprobe_p(src, tag, comm, msg, status);
	leave_peer(W_Mprobe, t0, 0, 0, mpiw_source_of(src, rc, status));
	return rc;
}

EXPORT int MPI_Improbe(int src, int tag, mpiw_h comm, int *flag, void *msg,
		       void *status)
{
	REAL(Improbe, int (*)(int, int, mpiw_h, int *, void *, void *));
	uint64_t t0 = enter(W_Improbe);
	int rc = Improbe_p(src, tag, comm, flag, msg, status);
	leave_peer(W_Improbe, t0, 0, 0,
		   src >= 0 ? src
			    : mpiw_source_of(src, rc || !flag || !*flag,
					     status));
	return rc;
}

/* MPI_Mrecv: the bytes its status says arrived, and their source. */
EXPORT int MPI_Mrecv(void *buf, int count, mpiw_h dt, void *msg,
		     void *status)
{
	REAL(Mrecv, int (*)(void *, int, mpiw_h, void *, void *));
	struct mpiw_status own;
	void *st = ignored(status) ? (void *)&own : status;
	uint64_t t0 = enter(W_Mrecv);
	int rc = Mrecv_p(buf, count, dt, msg, st);
	leave_peer(W_Mrecv, t0, 0, rc ? 0 : mpiw_received(st, dt),
		   mpiw_source_of(-1, rc, st));
	return rc;
}

/* MPI_Imrecv: the size posted, as MPI_Irecv. */
EXPORT int MPI_Imrecv(void *buf, int count, mpiw_h dt, void *msg, void *req)
{
	REAL(Imrecv, int (*)(void *, int, mpiw_h, void *, void *));
	uint64_t t0 = enter(W_Imrecv);
	int rc = Imrecv_p(buf, count, dt, msg, req);
	leave(W_Imrecv, t0, 0, rc ? 0 : mpiw_bytes(count, dt));
	return rc;
}
