/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap: libmapsample-mpiwrap.so, the mpi metric plugin's <preload>
 * library (plugins/mpi/mpi.xml).  Preloaded into the program, its MPI_*
 * functions come before the MPI library's: each one reads the clock,
 * calls the MPI library's PMPI_* twin, reads the clock again and adds
 * the call, its time and its bytes to the totals of mpiwrap.h, which the
 * plugin's getters read (mpi.c).  At MPI_Finalize, or at exit when the
 * program never called it, it hands the totals of every function to the
 * sampler (mapsample_mpi_calls of <mapsample/plugin.h>), which writes
 * them into the log as MPI_CALLS records; after MPI_Init it tells the
 * sampler the rank and the size of the job (mapsample_job_rank).  Both
 * are looked up with dlsym(RTLD_DEFAULT), so the library works without
 * the sampler, or with a sampler that lacks them.
 *
 * DESIGN NOTES
 *   One library for every MPI, linked against none.  The PMPI_* functions
 *   are looked up at run time (dlsym(RTLD_DEFAULT, "PMPI_Send"), on a
 *   function's first call), not linked: the same file is preloaded into
 *   programs built with Open MPI, MPICH or an MPICH-compatible library
 *   (Intel MPI, MVAPICH), and into programs with no MPI at all, where
 *   nothing of it runs.  What differs between those libraries is the
 *   type of the handles (MPI_Comm, MPI_Datatype, MPI_Op: pointers in Open
 *   MPI, ints in MPICH) and the values of the predefined ones.  The
 *   wrappers never look into a handle: they take each one as a
 *   register-wide integer (mpiw_h) and give it unchanged to the PMPI_*
 *   function, which reads it as its own type.  On the Linux calling
 *   conventions this library is built for (x86-64 and AArch64, where
 *   configure enables it), an int argument travels in a 64-bit register
 *   or an 8-byte stack slot, so passing it through that way hands the
 *   callee exactly what the caller gave.  Sizes come from the MPI
 *   library (PMPI_Type_size, PMPI_Get_count, PMPI_Comm_size,
 *   PMPI_Comm_rank), never from a header.  The only values of a
 *   particular ABI used are sentinels no real pointer can equal
 *   (MPI_STATUS_IGNORE is 0 in Open MPI and 1 in MPICH; MPI_IN_PLACE is
 *   1 and -1), and MPI_COMM_WORLD, for the rank after MPI_Init: the
 *   address of ompi_mpi_comm_world in Open MPI, 0x44000000 in the MPICH
 *   ABI (whose library version string is checked first); under any other
 *   MPI the rank is not told.
 *   The one field of a status read is MPI_SOURCE (the peer of a receive
 *   from MPI_ANY_SOURCE, for the substrate host's MPI_EXIT events): at
 *   byte 0 of Open MPI's MPI_Status and byte 8 of the MPICH ABI's, told
 *   apart as MPI_COMM_WORLD is; under any other MPI it is not read.
 *
 *   Bytes are those the call's buffers hold, as the application asked:
 *   a send counts count * size of its type, a receive what its status
 *   says arrived (MPI_Recv, MPI_Sendrecv) or, for MPI_Irecv, the size it
 *   posted (its request's status is not seen here).  Collectives count
 *   what this process gives and gets: MPI_Bcast count * size sent at the
 *   root and received elsewhere; MPI_Allreduce count * size both ways;
 *   MPI_Gather the root receives recvcount * size from each rank;
 *   MPI_Alltoall sendcount * size to each rank, and so on (mpi.xml,
 *   mapsample-metrics(5)).  Arguments MPI ignores (recvcount at a
 *   non-root, sendcount with MPI_IN_PLACE) are never read; bytes are
 *   counted only when the call returned MPI_SUCCESS.
 *
 *   Cost per call: two clock reads (clock_gettime, the vDSO) and a few
 *   plain adds into the calling thread's own counters (mpiwrap.h: no
 *   lock, no atomic read-modify-write); sends and receives also ask the
 *   library for the type's size, rooted collectives for the rank.
 *   Measured by test/bench/mpiwrap-cost.sh.
 *
 *   The MPI_* wrappers run in the program's threads, never in a signal
 *   handler; nothing here is async-signal-safe except the counters'
 *   reads, which the plugin's getters do.
 */
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpiwrap.h"

#define EXPORT __attribute__((visibility("default")))

/* The MPI_* definitions below have no prototypes in scope: they are
 * mpi.h's, which this file does not include (see the design notes). */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"


typedef uintptr_t mpiw_h; /* an MPI handle, passed through unread */

/* The functions wrapped: name, class. */
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
	X(Iallreduce, MPIW_COLLECTIVE)

#define MPIW_ENUM(n, c) W_##n,
enum { MPIW_FUNCTIONS(MPIW_ENUM) W_N };
#define MPIW_NAME(n, c) "MPI_" #n,
static const char *const names[W_N] = {MPIW_FUNCTIONS(MPIW_NAME)};
#define MPIW_CLASS(n, c) c,
static const uint8_t classes[W_N] = {MPIW_FUNCTIONS(MPIW_CLASS)};

static struct mpiw_state state = {
	.mw_version = MPIW_VERSION,
	.mw_nfn = W_N,
	.mw_name = names,
	.mw_class = classes,
};

/* This thread's block; NULL until its first MPI call (or when it could
 * not be allocated: the thread's calls are then not counted). */
static __thread struct mpiw_thread *self
	__attribute__((tls_model("initial-exec")));
static __thread int self_failed __attribute__((tls_model("initial-exec")));

/* The plugin's way to the totals (MPIW_STATE_SYMBOL). */
EXPORT struct mpiw_state *mapsample_mpiwrap_state(void)
{
	return &state;
}

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

/* This thread's block, made at its first call (not on the fast path). */
static __attribute__((noinline)) struct mpiw_thread *self_new(void)
{
	if (self_failed)
		return NULL;
	struct mpiw_thread *t = calloc(1, sizeof(*t) +
					  W_N * sizeof(struct mpiw_fn));
	if (!t) {
		self_failed = 1;
		return NULL;
	}
	t->t_next = __atomic_load_n(&state.mw_threads, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&state.mw_threads, &t->t_next, t,
					    1, __ATOMIC_RELEASE,
					    __ATOMIC_ACQUIRE))
		;
	self = t;
	return t;
}

/* The substrate host's MPI events (mapsample_mpi_call of the sampler),
 * once MPI_Init has returned and when the sampler has them: substrate
 * plugins get each call's enter and exit (mapsample-substrate(3)). */
typedef void (*mpi_call_fn)(int enter, const char *function, uint64_t sent,
			    uint64_t received, int32_t peer);
static mpi_call_fn tell_call;

/* A call of function f starts: returns its start time. */
static inline uint64_t enter(int f)
{
	mpi_call_fn tc = __atomic_load_n(&tell_call, __ATOMIC_RELAXED);
	if (tc)
		tc(1, names[f], 0, 0, -1);
	uint64_t t = now_ns();
	struct mpiw_thread *me = self ? self : self_new();
	if (me) {
		me->t_class = classes[f];
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
	struct mpiw_thread *me = self;
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
	mpi_call_fn tc = __atomic_load_n(&tell_call, __ATOMIC_RELAXED);
	if (tc)
		tc(0, names[f], sent, recv, peer < 0 ? -1 : peer);
}

static inline void leave(int f, uint64_t t0, uint64_t sent, uint64_t recv)
{
	leave_peer(f, t0, sent, recv, -1);
}

/* The sum over the threads of field off of function f's counters. */
static uint64_t total(int f, size_t off)
{
	uint64_t v = 0;
	for (struct mpiw_thread *t = __atomic_load_n(&state.mw_threads,
						     __ATOMIC_ACQUIRE);
	     t; t = t->t_next)
		v += __atomic_load_n((const uint64_t *)((const char *)&t->t_fn[f] +
							off),
				     __ATOMIC_RELAXED);
	return v;
}

/* ---- the MPI library's functions ---- */

/* dl_iterate_phdr callback: the first loaded object whose name holds
 * "libmpi" (libmpi.so, libmpich.so) and defines the symbol in *data. */
struct find_sym {
	const char *sym;
	void *addr;
};

static int find_in_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find_sym *f = data;
	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libmpi"))
		return 0;
	void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	f->addr = dlsym(h, f->sym);
	dlclose(h);
	return f->addr != NULL;
}

/* The address of sym in the program's MPI library: in the global scope,
 * or else in a libmpi loaded with RTLD_LOCAL (a plugin of an
 * interpreter that linked MPI), whose own MPI_* references still land
 * here.  On failure one line on stderr and the process ends (the
 * program called an MPI function that no MPI library in it has, which
 * its own link would have refused). */
static void *need(const char *sym)
{
	struct find_sym f = {sym, dlsym(RTLD_DEFAULT, sym)};
	if (!f.addr)
		dl_iterate_phdr(find_in_object, &f);
	if (!f.addr) {
		fprintf(stderr, "mapsample: libmapsample-mpiwrap.so: %s not "
				"found in the program's MPI library; run "
				"without the mpi metrics (--metrics "
				"default)\n", sym);
		abort();
	}
	return f.addr;
}

/* real(fn, type): the PMPI_ twin of MPI_fn, looked up once. */
#define REAL(fn, ...)                                                      \
	typedef __typeof__(__VA_ARGS__) fn##_t;                             \
	static fn##_t r_##fn;                                               \
	fn##_t fn##_p = __atomic_load_n(&r_##fn, __ATOMIC_RELAXED);         \
	if (!fn##_p) {                                                      \
		fn##_p = (fn##_t)need("PMPI_" #fn);                         \
		__atomic_store_n(&r_##fn, fn##_p, __ATOMIC_RELAXED);       \
	}

typedef int (*type_size_fn)(mpiw_h, int *);
typedef int (*comm_int_fn)(mpiw_h, int *);
typedef int (*get_count_fn)(void *, mpiw_h, int *);

/* Bytes in count elements of type dt (0 when count is not positive). */
static uint64_t bytes(int count, mpiw_h dt)
{
	if (count <= 0)
		return 0;
	REAL(Type_size, type_size_fn);
	int sz = 0;
	if (Type_size_p(dt, &sz) || sz <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)sz;
}

/* The sum of n counts of type dt. */
static uint64_t bytes_v(const int *counts, int n, mpiw_h dt)
{
	uint64_t total = 0;
	for (int i = 0; counts && i < n; i++)
		total += bytes(counts[i], dt);
	return total;
}

static int comm_size(mpiw_h comm)
{
	REAL(Comm_size, comm_int_fn);
	int n = 0;
	return Comm_size_p(comm, &n) ? 0 : n;
}

static int comm_rank(mpiw_h comm)
{
	REAL(Comm_rank, comm_int_fn);
	int r = -1;
	return Comm_rank_p(comm, &r) ? -1 : r;
}

/* Bytes a completed receive of type dt brought, from its status. */
static uint64_t received(void *status, mpiw_h dt)
{
	REAL(Get_count, get_count_fn);
	int n = 0;
	if (Get_count_p(status, dt, &n) || n <= 0)
		return 0; /* MPI_UNDEFINED is negative */
	return bytes(n, dt);
}

/* MPI_STATUS_IGNORE (0 or 1) or MPI_STATUSES_IGNORE: no real status. */
static inline int ignored(const void *status)
{
	return (uintptr_t)status < 4096;
}

/* Where MPI_SOURCE lies in the program's MPI_Status, in bytes: 0 in
 * Open MPI (MPI_SOURCE is its first member), 8 in the MPICH ABI (after
 * count_lo and count_hi_and_cancelled); -1 under another MPI, whose
 * statuses are then not read.  Set by after_init(). */
static int status_source_off = -1;

/* The peer of a receive from src: src itself when it names a rank; for
 * MPI_ANY_SOURCE (negative in every MPI, as MPI_PROC_NULL is) the
 * source the completed call's status gives, when it has a real one and
 * the MPI is known; else -1. */
static int32_t source_of(int src, int rc, const void *status)
{
	if (src >= 0)
		return src;
	if (rc || ignored(status) || status_source_off < 0)
		return -1;
	int s;
	memcpy(&s, (const unsigned char *)status + status_source_off,
	       sizeof(s));
	return s >= 0 ? s : -1;
}

/* MPI_IN_PLACE (1 in Open MPI, -1 in MPICH). */
static inline int in_place(const void *buf)
{
	return (uintptr_t)buf == 1 || (uintptr_t)buf == (uintptr_t)-1;
}

/* Room for any MPI's MPI_Status, for calls made with MPI_STATUS_IGNORE
 * whose received bytes are wanted. */
struct mpiw_status {
	_Alignas(16) unsigned char b[256];
};

/* ---- the job's rank, and the totals at the end ---- */

typedef void (*job_rank_fn)(int, int);
typedef int (*mpi_calls_fn)(const char *, uint64_t, uint64_t, uint64_t,
			    uint64_t);
typedef int (*libver_fn)(char *, int *);

static int reported;

/* Hands the totals to the sampler, once. */
static void report(void)
{
	if (__atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL))
		return;
	mpi_calls_fn put = (mpi_calls_fn)dlsym(RTLD_DEFAULT,
					       "mapsample_mpi_calls");
	if (!put)
		return;
	for (int f = 0; f < W_N; f++) {
		uint64_t calls = total(f, offsetof(struct mpiw_fn, f_calls));
		if (calls)
			put(names[f], calls,
			    total(f, offsetof(struct mpiw_fn, f_ns)),
			    total(f, offsetof(struct mpiw_fn, f_sent)),
			    total(f, offsetof(struct mpiw_fn, f_received)));
	}
}

/* MPI_COMM_WORLD of the program's MPI, or 0 when it is not one this
 * library knows (see the design notes). */
static mpiw_h comm_world(void)
{
	void *ompi = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
	if (ompi) {
		status_source_off = 0;
		return (mpiw_h)ompi;
	}
	libver_fn ver = (libver_fn)dlsym(RTLD_DEFAULT,
					 "PMPI_Get_library_version");
	static char v[16384]; /* MPI_MAX_LIBRARY_VERSION_STRING: 8192 */
	int len = 0;
	if (ver && ver(v, &len) == 0 && len > 0 && len < (int)sizeof(v)) {
		v[len] = '\0';
		if (strstr(v, "MPICH") || strstr(v, "Intel(R) MPI") ||
		    strstr(v, "MVAPICH")) {
			status_source_off = 8;
			return (mpiw_h)0x44000000;
		}
	}
	return 0;
}

/* After a successful MPI_Init: the rank to the sampler, and the totals
 * at exit should MPI_Finalize never come.  (atexit handlers run before
 * the libraries' destructors, the sampler's among them.) */
static void after_init(void)
{
	atexit(report);
	job_rank_fn tell = (job_rank_fn)dlsym(RTLD_DEFAULT,
					      "mapsample_job_rank");
	/* the substrate host: MPI is up (init_mpp), then every call */
	job_rank_fn done = (job_rank_fn)dlsym(RTLD_DEFAULT,
					      "mapsample_mpi_init_done");
	mpi_call_fn tc = (mpi_call_fn)dlsym(RTLD_DEFAULT, "mapsample_mpi_call");
	mpiw_h world = comm_world();
	int rank = world ? comm_rank(world) : -1;
	int size = world ? comm_size(world) : 0;
	if (tell && rank >= 0 && size > 0)
		tell(rank, size);
	if (done)
		done(rank, size);
	if (tc)
		__atomic_store_n(&tell_call, tc, __ATOMIC_RELAXED);
}

/* ---- the wrappers ---- */

EXPORT int MPI_Init(int *argc, char ***argv)
{
	REAL(Init, int (*)(int *, char ***));
	uint64_t t0 = enter(W_Init);
	int rc = Init_p(argc, argv);
	leave(W_Init, t0, 0, 0);
	if (rc == 0)
		after_init();
	return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required,
			   int *provided)
{
	REAL(Init_thread, int (*)(int *, char ***, int, int *));
	uint64_t t0 = enter(W_Init_thread);
	int rc = Init_thread_p(argc, argv, required, provided);
	leave(W_Init_thread, t0, 0, 0);
	if (rc == 0)
		after_init();
	return rc;
}

EXPORT int MPI_Finalize(void)
{
	REAL(Finalize, int (*)(void));
	uint64_t t0 = enter(W_Finalize);
	int rc = Finalize_p();
	leave(W_Finalize, t0, 0, 0);
	report();
	return rc;
}

/* Blocking sends: (buf, count, type, dest, tag, comm). */
#define SEND(fn)                                                           \
	EXPORT int MPI_##fn(const void *buf, int count, mpiw_h dt,         \
			    int dest, int tag, mpiw_h comm)                \
	{                                                                  \
		REAL(fn, int (*)(const void *, int, mpiw_h, int, int,      \
				 mpiw_h));                                 \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(buf, count, dt, dest, tag, comm);          \
		leave_peer(W_##fn, t0, rc ? 0 : bytes(count, dt), 0, dest); \
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
		leave_peer(W_##fn, t0, rc ? 0 : bytes(count, dt), 0, dest); \
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
	leave_peer(W_Recv, t0, 0, rc ? 0 : received(st, dt),
		   source_of(src, rc, st));
	return rc;
}

EXPORT int MPI_Irecv(void *buf, int count, mpiw_h dt, int src, int tag,
		     mpiw_h comm, void *req)
{
	REAL(Irecv, int (*)(void *, int, mpiw_h, int, int, mpiw_h, void *));
	uint64_t t0 = enter(W_Irecv);
	int rc = Irecv_p(buf, count, dt, src, tag, comm, req);
	leave_peer(W_Irecv, t0, 0, rc ? 0 : bytes(count, dt), src);
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
	leave_peer(W_Sendrecv, t0, rc ? 0 : bytes(scount, sdt),
		   rc ? 0 : received(st, rdt),
		   dest >= 0 ? dest : source_of(src, rc, st));
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
	leave_peer(W_Sendrecv_replace, t0, rc ? 0 : bytes(count, dt),
		   rc ? 0 : received(st, dt),
		   dest >= 0 ? dest : source_of(src, rc, st));
	return rc;
}

EXPORT int MPI_Probe(int src, int tag, mpiw_h comm, void *status)
{
	REAL(Probe, int (*)(int, int, mpiw_h, void *));
	uint64_t t0 = enter(W_Probe);
	int rc = Probe_p(src, tag, comm, status);
	leave_peer(W_Probe, t0, 0, 0, source_of(src, rc, status));
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
			    : source_of(src, rc || !flag || !*flag, status));
	return rc;
}

/* Completion: passed through, timed, no bytes (counted when posted). */
#define PASS2(fn, a, b)                                                    \
	EXPORT int MPI_##fn(a x1, b x2)                                    \
	{                                                                  \
		REAL(fn, int (*)(a, b));                                   \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(x1, x2);                                   \
		leave(W_##fn, t0, 0, 0);                                   \
		return rc;                                                 \
	}
#define PASS3(fn, a, b, c)                                                 \
	EXPORT int MPI_##fn(a x1, b x2, c x3)                              \
	{                                                                  \
		REAL(fn, int (*)(a, b, c));                                \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(x1, x2, x3);                               \
		leave(W_##fn, t0, 0, 0);                                   \
		return rc;                                                 \
	}
#define PASS4(fn, a, b, c, d)                                              \
	EXPORT int MPI_##fn(a x1, b x2, c x3, d x4)                        \
	{                                                                  \
		REAL(fn, int (*)(a, b, c, d));                             \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(x1, x2, x3, x4);                           \
		leave(W_##fn, t0, 0, 0);                                   \
		return rc;                                                 \
	}
#define PASS5(fn, a, b, c, d, e)                                           \
	EXPORT int MPI_##fn(a x1, b x2, c x3, d x4, e x5)                  \
	{                                                                  \
		REAL(fn, int (*)(a, b, c, d, e));                          \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(x1, x2, x3, x4, x5);                       \
		leave(W_##fn, t0, 0, 0);                                   \
		return rc;                                                 \
	}
PASS2(Wait, void *, void *)
PASS3(Waitall, int, void *, void *)
PASS4(Waitany, int, void *, int *, void *)
PASS5(Waitsome, int, void *, int *, int *, void *)
PASS3(Test, void *, int *, void *)
PASS4(Testall, int, void *, int *, void *)
PASS5(Testany, int, void *, int *, int *, void *)
PASS5(Testsome, int, void *, int *, int *, void *)

/* ---- collectives ---- */

EXPORT int MPI_Barrier(mpiw_h comm)
{
	REAL(Barrier, int (*)(mpiw_h));
	uint64_t t0 = enter(W_Barrier);
	int rc = Barrier_p(comm);
	leave(W_Barrier, t0, 0, 0);
	return rc;
}

EXPORT int MPI_Ibarrier(mpiw_h comm, void *req)
{
	REAL(Ibarrier, int (*)(mpiw_h, void *));
	uint64_t t0 = enter(W_Ibarrier);
	int rc = Ibarrier_p(comm, req);
	leave(W_Ibarrier, t0, 0, 0);
	return rc;
}

/* MPI_Bcast's bytes: sent at the root, received elsewhere. */
static void bcast_bytes(int count, mpiw_h dt, int root, mpiw_h comm,
			uint64_t *s, uint64_t *r)
{
	uint64_t b = bytes(count, dt);
	if (comm_rank(comm) == root)
		*s = b;
	else
		*r = b;
}

EXPORT int MPI_Bcast(void *buf, int count, mpiw_h dt, int root, mpiw_h comm)
{
	REAL(Bcast, int (*)(void *, int, mpiw_h, int, mpiw_h));
	uint64_t t0 = enter(W_Bcast), s = 0, r = 0;
	int rc = Bcast_p(buf, count, dt, root, comm);
	if (!rc)
		bcast_bytes(count, dt, root, comm, &s, &r);
	leave(W_Bcast, t0, s, r);
	return rc;
}

EXPORT int MPI_Ibcast(void *buf, int count, mpiw_h dt, int root,
		      mpiw_h comm, void *req)
{
	REAL(Ibcast, int (*)(void *, int, mpiw_h, int, mpiw_h, void *));
	uint64_t t0 = enter(W_Ibcast), s = 0, r = 0;
	int rc = Ibcast_p(buf, count, dt, root, comm, req);
	if (!rc)
		bcast_bytes(count, dt, root, comm, &s, &r);
	leave(W_Ibcast, t0, s, r);
	return rc;
}

EXPORT int MPI_Reduce(const void *sbuf, void *rbuf, int count, mpiw_h dt,
		      mpiw_h op, int root, mpiw_h comm)
{
	REAL(Reduce, int (*)(const void *, void *, int, mpiw_h, mpiw_h, int,
			     mpiw_h));
	uint64_t t0 = enter(W_Reduce), b = 0, r = 0;
	int rc = Reduce_p(sbuf, rbuf, count, dt, op, root, comm);
	if (!rc) {
		b = bytes(count, dt);
		r = comm_rank(comm) == root ? b : 0;
	}
	leave(W_Reduce, t0, b, r);
	return rc;
}

EXPORT int MPI_Ireduce(const void *sbuf, void *rbuf, int count, mpiw_h dt,
		       mpiw_h op, int root, mpiw_h comm, void *req)
{
	REAL(Ireduce, int (*)(const void *, void *, int, mpiw_h, mpiw_h, int,
			      mpiw_h, void *));
	uint64_t t0 = enter(W_Ireduce), b = 0, r = 0;
	int rc = Ireduce_p(sbuf, rbuf, count, dt, op, root, comm, req);
	if (!rc) {
		b = bytes(count, dt);
		r = comm_rank(comm) == root ? b : 0;
	}
	leave(W_Ireduce, t0, b, r);
	return rc;
}

/* (sbuf, rbuf, count, type, op, comm): count elements each way. */
#define ALLRED(fn)                                                         \
	EXPORT int MPI_##fn(const void *sbuf, void *rbuf, int count,       \
			    mpiw_h dt, mpiw_h op, mpiw_h comm)             \
	{                                                                  \
		REAL(fn, int (*)(const void *, void *, int, mpiw_h, mpiw_h, \
				 mpiw_h));                                 \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p(sbuf, rbuf, count, dt, op, comm);          \
		uint64_t b = rc ? 0 : bytes(count, dt);                    \
		leave(W_##fn, t0, b, b);                                   \
		return rc;                                                 \
	}
ALLRED(Allreduce)
ALLRED(Scan)
ALLRED(Exscan)

EXPORT int MPI_Iallreduce(const void *sbuf, void *rbuf, int count,
			  mpiw_h dt, mpiw_h op, mpiw_h comm, void *req)
{
	REAL(Iallreduce, int (*)(const void *, void *, int, mpiw_h, mpiw_h,
				 mpiw_h, void *));
	uint64_t t0 = enter(W_Iallreduce);
	int rc = Iallreduce_p(sbuf, rbuf, count, dt, op, comm, req);
	uint64_t b = rc ? 0 : bytes(count, dt);
	leave(W_Iallreduce, t0, b, b);
	return rc;
}

EXPORT int MPI_Reduce_scatter(const void *sbuf, void *rbuf,
			      const int *rcounts, mpiw_h dt, mpiw_h op,
			      mpiw_h comm)
{
	REAL(Reduce_scatter, int (*)(const void *, void *, const int *,
				     mpiw_h, mpiw_h, mpiw_h));
	uint64_t t0 = enter(W_Reduce_scatter), s = 0, r = 0;
	int rc = Reduce_scatter_p(sbuf, rbuf, rcounts, dt, op, comm);
	if (!rc && rcounts) {
		int n = comm_size(comm), me = comm_rank(comm);
		s = bytes_v(rcounts, n, dt);
		r = me >= 0 && me < n ? bytes(rcounts[me], dt) : 0;
	}
	leave(W_Reduce_scatter, t0, s, r);
	return rc;
}

EXPORT int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf,
				    int rcount, mpiw_h dt, mpiw_h op,
				    mpiw_h comm)
{
	REAL(Reduce_scatter_block, int (*)(const void *, void *, int,
					   mpiw_h, mpiw_h, mpiw_h));
	uint64_t t0 = enter(W_Reduce_scatter_block), s = 0, r = 0;
	int rc = Reduce_scatter_block_p(sbuf, rbuf, rcount, dt, op, comm);
	if (!rc) {
		r = bytes(rcount, dt);
		s = r * (uint64_t)comm_size(comm);
	}
	leave(W_Reduce_scatter_block, t0, s, r);
	return rc;
}

EXPORT int MPI_Gather(const void *sbuf, int scount, mpiw_h sdt, void *rbuf,
		      int rcount, mpiw_h rdt, int root, mpiw_h comm)
{
	REAL(Gather, int (*)(const void *, int, mpiw_h, void *, int, mpiw_h,
			     int, mpiw_h));
	uint64_t t0 = enter(W_Gather), s = 0, r = 0;
	int rc = Gather_p(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	if (!rc) {
		int at_root = comm_rank(comm) == root;
		if (at_root) {
			r = bytes(rcount, rdt) * (uint64_t)comm_size(comm);
			s = in_place(sbuf) ? bytes(rcount, rdt)
					   : bytes(scount, sdt);
		} else {
			s = bytes(scount, sdt);
		}
	}
	leave(W_Gather, t0, s, r);
	return rc;
}

EXPORT int MPI_Gatherv(const void *sbuf, int scount, mpiw_h sdt, void *rbuf,
		       const int *rcounts, const int *displs, mpiw_h rdt,
		       int root, mpiw_h comm)
{
	REAL(Gatherv, int (*)(const void *, int, mpiw_h, void *, const int *,
			      const int *, mpiw_h, int, mpiw_h));
	uint64_t t0 = enter(W_Gatherv), s = 0, r = 0;
	int rc = Gatherv_p(sbuf, scount, sdt, rbuf, rcounts, displs, rdt,
			   root, comm);
	if (!rc) {
		int me = comm_rank(comm);
		if (me == root) {
			int n = comm_size(comm);
			r = bytes_v(rcounts, n, rdt);
			s = in_place(sbuf) ? (rcounts && me < n
						      ? bytes(rcounts[me], rdt)
						      : 0)
					   : bytes(scount, sdt);
		} else {
			s = bytes(scount, sdt);
		}
	}
	leave(W_Gatherv, t0, s, r);
	return rc;
}

EXPORT int MPI_Scatter(const void *sbuf, int scount, mpiw_h sdt, void *rbuf,
		       int rcount, mpiw_h rdt, int root, mpiw_h comm)
{
	REAL(Scatter, int (*)(const void *, int, mpiw_h, void *, int, mpiw_h,
			      int, mpiw_h));
	uint64_t t0 = enter(W_Scatter), s = 0, r = 0;
	int rc = Scatter_p(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	if (!rc) {
		if (comm_rank(comm) == root) {
			s = bytes(scount, sdt) * (uint64_t)comm_size(comm);
			r = in_place(rbuf) ? bytes(scount, sdt)
					   : bytes(rcount, rdt);
		} else {
			r = bytes(rcount, rdt);
		}
	}
	leave(W_Scatter, t0, s, r);
	return rc;
}

EXPORT int MPI_Scatterv(const void *sbuf, const int *scounts,
			const int *displs, mpiw_h sdt, void *rbuf, int rcount,
			mpiw_h rdt, int root, mpiw_h comm)
{
	REAL(Scatterv, int (*)(const void *, const int *, const int *, mpiw_h,
			       void *, int, mpiw_h, int, mpiw_h));
	uint64_t t0 = enter(W_Scatterv), s = 0, r = 0;
	int rc = Scatterv_p(sbuf, scounts, displs, sdt, rbuf, rcount, rdt,
			    root, comm);
	if (!rc) {
		int me = comm_rank(comm);
		if (me == root) {
			int n = comm_size(comm);
			s = bytes_v(scounts, n, sdt);
			r = in_place(rbuf) ? (scounts && me < n
						      ? bytes(scounts[me], sdt)
						      : 0)
					   : bytes(rcount, rdt);
		} else {
			r = bytes(rcount, rdt);
		}
	}
	leave(W_Scatterv, t0, s, r);
	return rc;
}

EXPORT int MPI_Allgather(const void *sbuf, int scount, mpiw_h sdt,
			 void *rbuf, int rcount, mpiw_h rdt, mpiw_h comm)
{
	REAL(Allgather, int (*)(const void *, int, mpiw_h, void *, int,
				mpiw_h, mpiw_h));
	uint64_t t0 = enter(W_Allgather), s = 0, r = 0;
	int rc = Allgather_p(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	if (!rc) {
		r = bytes(rcount, rdt) * (uint64_t)comm_size(comm);
		s = in_place(sbuf) ? bytes(rcount, rdt) : bytes(scount, sdt);
	}
	leave(W_Allgather, t0, s, r);
	return rc;
}

EXPORT int MPI_Allgatherv(const void *sbuf, int scount, mpiw_h sdt,
			  void *rbuf, const int *rcounts, const int *displs,
			  mpiw_h rdt, mpiw_h comm)
{
	REAL(Allgatherv, int (*)(const void *, int, mpiw_h, void *,
				 const int *, const int *, mpiw_h, mpiw_h));
	uint64_t t0 = enter(W_Allgatherv), s = 0, r = 0;
	int rc = Allgatherv_p(sbuf, scount, sdt, rbuf, rcounts, displs, rdt,
			      comm);
	if (!rc) {
		int n = comm_size(comm), me = comm_rank(comm);
		r = bytes_v(rcounts, n, rdt);
		s = in_place(sbuf) ? (rcounts && me >= 0 && me < n
					      ? bytes(rcounts[me], rdt)
					      : 0)
				   : bytes(scount, sdt);
	}
	leave(W_Allgatherv, t0, s, r);
	return rc;
}

EXPORT int MPI_Alltoall(const void *sbuf, int scount, mpiw_h sdt, void *rbuf,
			int rcount, mpiw_h rdt, mpiw_h comm)
{
	REAL(Alltoall, int (*)(const void *, int, mpiw_h, void *, int, mpiw_h,
			       mpiw_h));
	uint64_t t0 = enter(W_Alltoall), s = 0, r = 0;
	int rc = Alltoall_p(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	if (!rc) {
		uint64_t n = (uint64_t)comm_size(comm);
		r = bytes(rcount, rdt) * n;
		s = in_place(sbuf) ? r : bytes(scount, sdt) * n;
	}
	leave(W_Alltoall, t0, s, r);
	return rc;
}

EXPORT int MPI_Alltoallv(const void *sbuf, const int *scounts,
			 const int *sdispls, mpiw_h sdt, void *rbuf,
			 const int *rcounts, const int *rdispls, mpiw_h rdt,
			 mpiw_h comm)
{
	REAL(Alltoallv, int (*)(const void *, const int *, const int *,
				mpiw_h, void *, const int *, const int *,
				mpiw_h, mpiw_h));
	uint64_t t0 = enter(W_Alltoallv), s = 0, r = 0;
	int rc = Alltoallv_p(sbuf, scounts, sdispls, sdt, rbuf, rcounts,
			     rdispls, rdt, comm);
	if (!rc) {
		int n = comm_size(comm);
		r = bytes_v(rcounts, n, rdt);
		s = in_place(sbuf) ? r : bytes_v(scounts, n, sdt);
	}
	leave(W_Alltoallv, t0, s, r);
	return rc;
}
