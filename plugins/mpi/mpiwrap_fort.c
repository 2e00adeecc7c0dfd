/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_fort: the Fortran bindings of the most used MPI calls, for an
 * MPI whose Fortran bindings do not call the C functions (Open MPI's
 * mpi_send_ calls PMPI_Send, so the C wrappers never see a Fortran
 * program's calls), in libmapsample-mpiwrap.so (mpiwrap.c has the
 * design notes).
 *
 * Wrapped: MPI_INIT, MPI_INIT_THREAD, MPI_FINALIZE, MPI_SEND, MPI_ISEND,
 * MPI_RECV, MPI_IRECV, MPI_WAIT, MPI_WAITALL, MPI_BARRIER, MPI_BCAST,
 * MPI_REDUCE, MPI_ALLREDUCE, each under the four names Fortran
 * compilers give it (mpi_send_, mpi_send__, mpi_send, MPI_SEND: the
 * mpif.h and "use mpi" bindings; the mpi_f08 module's are not seen).
 * Each calls the MPI library's own binding of the same call (the next
 * mpi_send_ after this library, dlsym(RTLD_NEXT)), so the MPI does all
 * the Fortran conversions.
 *
 * Whether to count: at the program's MPI_INIT (or MPI_INIT_THREAD) the
 * wrapper looks whether the library's binding went through the C
 * MPI_Init wrapper (this thread's count of MPI_Init grew).  If it did
 * (MPICH, whose bindings call the C functions), every Fortran call is
 * passed on uncounted and the C wrappers count it once; if not (Open
 * MPI), the Fortran wrappers count the calls as the C ones would, and
 * MPI_INIT does what the C MPI_Init wrapper does after it (the rank to
 * the sampler, the totals at exit).  A program that called the C
 * MPI_Init and then Fortran routines is counted in Fortran under Open
 * MPI only (its handle width says which MPI it is).
 *
 * Arguments are Fortran's: pointers to INTEGERs (MPI_Fint, a C int with
 * gfortran's default integer).  Handles are turned into C ones with
 * PMPI_Type_f2c and PMPI_Comm_f2c, a status with PMPI_Status_f2c; a
 * receive made with MPI_STATUS_IGNORE (Open MPI's
 * mpi_fortran_status_ignore_) gets a status of our own so its bytes can
 * be read.  Bytes as for the C calls: a send count * size, MPI_RECV what
 * its status says arrived, MPI_IRECV the size posted, the collectives as
 * their C twins (mpiwrap_coll.c).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiwrap_i.h"

typedef int fint;

/* 1: count the Fortran calls here; 0: pass them on (the C wrappers
 * count them); -1: not known yet. */
static int fort_count = -1;

/* The MPI's own binding sym (its mpi_x_ after this library). */
static void *fnext(const char *sym)
{
	void *p = dlsym(RTLD_NEXT, sym);
	if (!p) {
		fprintf(stderr, "mapsample: libmapsample-mpiwrap.so: %s not "
				"found in the program's MPI library; run "
				"without the mpi metrics (--metrics "
				"default)\n", sym);
		abort();
	}
	return p;
}

#define FNEXT(name, ...)                                                   \
	typedef __typeof__(__VA_ARGS__) name##_t;                           \
	static name##_t r_##name;                                           \
	name##_t name##_p = __atomic_load_n(&r_##name, __ATOMIC_RELAXED);   \
	if (!name##_p) {                                                    \
		name##_p = (name##_t)fnext(#name "_");                      \
		__atomic_store_n(&r_##name, name##_p, __ATOMIC_RELAXED);   \
	}

/* Whether this call should be counted here. */
static inline int counting(void)
{
	int c = __atomic_load_n(&fort_count, __ATOMIC_RELAXED);
	if (c < 0) /* a Fortran call after a C MPI_Init */
		c = mpiw_handle_width == 8;
	return c;
}

typedef uintptr_t (*f2c_fn)(fint);

static mpiw_h type_c(const fint *dt)
{
	REAL(Type_f2c, f2c_fn);
	return Type_f2c_p(*dt);
}

static mpiw_h comm_c(const fint *comm)
{
	REAL(Comm_f2c, f2c_fn);
	return Comm_f2c_p(*comm);
}

/* The four names of a Fortran binding, all the same function f. */
#define FNAMES(f, lower, upper)                                            \
	EXPORT __typeof__(f) lower##_ __attribute__((alias(#f)));          \
	EXPORT __typeof__(f) lower##__ __attribute__((alias(#f)));         \
	EXPORT __typeof__(f) lower __attribute__((alias(#f)));             \
	EXPORT __typeof__(f) upper __attribute__((alias(#f)));

/* this thread's MPI_Init calls so far (the C wrapper's) */
static uint64_t init_calls(void)
{
	struct mpiw_thread *me = mpiw_self;
	return me ? __atomic_load_n(&me->t_fn[W_Init].f_calls,
				    __ATOMIC_RELAXED) +
			    __atomic_load_n(&me->t_fn[W_Init_thread].f_calls,
					    __ATOMIC_RELAXED)
		  : 0;
}

static void f_init(fint *ierr)
{
	FNEXT(mpi_init, void (*)(fint *));
	uint64_t before = init_calls(), t0 = now_ns();
	mpi_init_p(ierr);
	if (init_calls() != before) {
		__atomic_store_n(&fort_count, 0, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&fort_count, 1, __ATOMIC_RELAXED);
	enter(W_Init);
	leave(W_Init, t0, 0, 0);
	if (*ierr == 0)
		mpiw_after_init();
}
FNAMES(f_init, mpi_init, MPI_INIT)

static void f_init_thread(fint *required, fint *provided, fint *ierr)
{
	FNEXT(mpi_init_thread, void (*)(fint *, fint *, fint *));
	uint64_t before = init_calls(), t0 = now_ns();
	mpi_init_thread_p(required, provided, ierr);
	if (init_calls() != before) {
		__atomic_store_n(&fort_count, 0, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&fort_count, 1, __ATOMIC_RELAXED);
	enter(W_Init_thread);
	leave(W_Init_thread, t0, 0, 0);
	if (*ierr == 0)
		mpiw_after_init();
}
FNAMES(f_init_thread, mpi_init_thread, MPI_INIT_THREAD)

static void f_finalize(fint *ierr)
{
	FNEXT(mpi_finalize, void (*)(fint *));
	if (!counting()) {
		mpi_finalize_p(ierr);
		return;
	}
	uint64_t t0 = enter(W_Finalize);
	mpi_finalize_p(ierr);
	leave(W_Finalize, t0, 0, 0);
	mpiw_report();
}
FNAMES(f_finalize, mpi_finalize, MPI_FINALIZE)

/* F_BODY(name, W, call, sent, received, peer): the wrapper's body */
#define F_BODY(name, w, call, sent, recvd, peer)                           \
	if (!counting()) {                                                 \
		name##_p call;                                             \
		return;                                                    \
	}                                                                  \
	uint64_t t0 = enter(w);                                            \
	name##_p call;                                                     \
	leave_peer(w, t0, *ierr ? 0 : (sent), *ierr ? 0 : (recvd), peer);

static void f_send(void *buf, fint *count, fint *dt, fint *dest, fint *tag,
		   fint *comm, fint *ierr)
{
	FNEXT(mpi_send, void (*)(void *, fint *, fint *, fint *, fint *,
				 fint *, fint *));
	F_BODY(mpi_send, W_Send, (buf, count, dt, dest, tag, comm, ierr),
	       mpiw_bytes(*count, type_c(dt)), 0, *dest)
}
FNAMES(f_send, mpi_send, MPI_SEND)

static void f_isend(void *buf, fint *count, fint *dt, fint *dest, fint *tag,
		    fint *comm, fint *req, fint *ierr)
{
	FNEXT(mpi_isend, void (*)(void *, fint *, fint *, fint *, fint *,
				  fint *, fint *, fint *));
	F_BODY(mpi_isend, W_Isend, (buf, count, dt, dest, tag, comm, req, ierr),
	       mpiw_bytes(*count, type_c(dt)), 0, *dest)
}
FNAMES(f_isend, mpi_isend, MPI_ISEND)

static void f_irecv(void *buf, fint *count, fint *dt, fint *src, fint *tag,
		    fint *comm, fint *req, fint *ierr)
{
	FNEXT(mpi_irecv, void (*)(void *, fint *, fint *, fint *, fint *,
				  fint *, fint *, fint *));
	F_BODY(mpi_irecv, W_Irecv, (buf, count, dt, src, tag, comm, req, ierr),
	       0, mpiw_bytes(*count, type_c(dt)), *src)
}
FNAMES(f_irecv, mpi_irecv, MPI_IRECV)

typedef int (*status_f2c_fn)(const fint *, void *);

/* Bytes a receive of type dt brought, from its Fortran status. */
static uint64_t f_received(const fint *fst, const fint *dt, int32_t *src)
{
	REAL(Status_f2c, status_f2c_fn);
	struct mpiw_status cst;
	if (Status_f2c_p(fst, &cst))
		return 0;
	*src = mpiw_source_of(*src, 0, &cst);
	return mpiw_received(&cst, type_c(dt));
}

static void f_recv(void *buf, fint *count, fint *dt, fint *src, fint *tag,
		   fint *comm, fint *status, fint *ierr)
{
	FNEXT(mpi_recv, void (*)(void *, fint *, fint *, fint *, fint *,
				 fint *, fint *, fint *));
	static fint *ignore;
	static int looked;
	if (!looked) {
		ignore = dlsym(RTLD_DEFAULT, "mpi_fortran_status_ignore_");
		looked = 1;
	}
	if (!counting()) {
		mpi_recv_p(buf, count, dt, src, tag, comm, status, ierr);
		return;
	}
	fint own[32]; /* room for any MPI's Fortran status */
	fint *st = status == ignore || !status ? own : status;
	uint64_t t0 = enter(W_Recv);
	mpi_recv_p(buf, count, dt, src, tag, comm, st, ierr);
	int32_t peer = *src;
	uint64_t r = *ierr ? 0 : f_received(st, dt, &peer);
	leave_peer(W_Recv, t0, 0, r, peer);
}
FNAMES(f_recv, mpi_recv, MPI_RECV)

static void f_wait(fint *req, fint *status, fint *ierr)
{
	FNEXT(mpi_wait, void (*)(fint *, fint *, fint *));
	F_BODY(mpi_wait, W_Wait, (req, status, ierr), 0, 0, -1)
}
FNAMES(f_wait, mpi_wait, MPI_WAIT)

static void f_waitall(fint *n, fint *reqs, fint *statuses, fint *ierr)
{
	FNEXT(mpi_waitall, void (*)(fint *, fint *, fint *, fint *));
	F_BODY(mpi_waitall, W_Waitall, (n, reqs, statuses, ierr), 0, 0, -1)
}
FNAMES(f_waitall, mpi_waitall, MPI_WAITALL)

static void f_barrier(fint *comm, fint *ierr)
{
	FNEXT(mpi_barrier, void (*)(fint *, fint *));
	F_BODY(mpi_barrier, W_Barrier, (comm, ierr), 0, 0, -1)
}
FNAMES(f_barrier, mpi_barrier, MPI_BARRIER)

static void f_bcast(void *buf, fint *count, fint *dt, fint *root, fint *comm,
		    fint *ierr)
{
	FNEXT(mpi_bcast, void (*)(void *, fint *, fint *, fint *, fint *,
				  fint *));
	if (!counting()) {
		mpi_bcast_p(buf, count, dt, root, comm, ierr);
		return;
	}
	uint64_t t0 = enter(W_Bcast), s = 0, r = 0;
	mpi_bcast_p(buf, count, dt, root, comm, ierr);
	if (!*ierr) {
		uint64_t b = mpiw_bytes(*count, type_c(dt));
		if (mpiw_comm_rank(comm_c(comm)) == *root)
			s = b;
		else
			r = b;
	}
	leave(W_Bcast, t0, s, r);
}
FNAMES(f_bcast, mpi_bcast, MPI_BCAST)

static void f_reduce(void *sbuf, void *rbuf, fint *count, fint *dt, fint *op,
		     fint *root, fint *comm, fint *ierr)
{
	FNEXT(mpi_reduce, void (*)(void *, void *, fint *, fint *, fint *,
				   fint *, fint *, fint *));
	if (!counting()) {
		mpi_reduce_p(sbuf, rbuf, count, dt, op, root, comm, ierr);
		return;
	}
	uint64_t t0 = enter(W_Reduce), s = 0, r = 0;
	mpi_reduce_p(sbuf, rbuf, count, dt, op, root, comm, ierr);
	if (!*ierr) {
		s = mpiw_bytes(*count, type_c(dt));
		r = mpiw_comm_rank(comm_c(comm)) == *root ? s : 0;
	}
	leave(W_Reduce, t0, s, r);
}
FNAMES(f_reduce, mpi_reduce, MPI_REDUCE)

static void f_allreduce(void *sbuf, void *rbuf, fint *count, fint *dt,
			fint *op, fint *comm, fint *ierr)
{
	FNEXT(mpi_allreduce, void (*)(void *, void *, fint *, fint *, fint *,
				      fint *, fint *));
	F_BODY(mpi_allreduce, W_Allreduce,
	       (sbuf, rbuf, count, dt, op, comm, ierr),
	       mpiw_bytes(*count, type_c(dt)), mpiw_bytes(*count, type_c(dt)),
	       -1)
}
FNAMES(f_allreduce, mpi_allreduce, MPI_ALLREDUCE)
