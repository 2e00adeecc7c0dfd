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
 *   mapsample-metrics(5)); each family's file says how its calls count
 *   (mpiwrap_i.h lists the files).  Arguments MPI ignores (recvcount at
 *   a non-root, sendcount with MPI_IN_PLACE) are never read; bytes are
 *   counted only when the call returned MPI_SUCCESS.
 *
 *   Classes (mpiwrap.h, the function list in mpiwrap_i.h): collective,
 *   point-to-point (one-sided included but MPI_Win_fence, which is
 *   collective), MPI-IO (its own: in the time in MPI, neither of the
 *   other two) and other (MPI_Init, MPI_Finalize).
 *
 *   Arrays of handles (the types of the w forms, the requests of
 *   MPI_Startall) are read in the handle width of the program's MPI
 *   (mpiw_handle_width: 8 in Open MPI, 4 in the MPICH ABI, told apart
 *   as MPI_COMM_WORLD is); under another MPI they are not read and those
 *   calls count no bytes.
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

#include "mpiwrap_i.h"

#define MPIW_NAME(n, c) "MPI_" #n,
const char *const mpiw_names[W_N] = {MPIW_FUNCTIONS(MPIW_NAME)};
#define MPIW_CLASS(n, c) c,
const uint8_t mpiw_classes[W_N] = {MPIW_FUNCTIONS(MPIW_CLASS)};

struct mpiw_state mpiw_state_all = {
	.mw_version = MPIW_VERSION,
	.mw_nfn = W_N,
	.mw_name = mpiw_names,
	.mw_class = mpiw_classes,
};

__thread struct mpiw_thread *mpiw_self
	__attribute__((tls_model("initial-exec")));
static __thread int self_failed __attribute__((tls_model("initial-exec")));

/* The plugin's way to the totals (MPIW_STATE_SYMBOL). */
EXPORT struct mpiw_state *mapsample_mpiwrap_state(void)
{
	return &mpiw_state_all;
}

/* This thread's block, made at its first call (not on the fast path). */
__attribute__((noinline)) struct mpiw_thread *mpiw_self_new(void)
{
	if (self_failed)
		return NULL;
	struct mpiw_thread *t = calloc(1, sizeof(*t) +
					  W_N * sizeof(struct mpiw_fn));
	if (!t) {
		self_failed = 1;
		return NULL;
	}
	t->t_next = __atomic_load_n(&mpiw_state_all.mw_threads, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&mpiw_state_all.mw_threads, &t->t_next, t,
					    1, __ATOMIC_RELEASE,
					    __ATOMIC_ACQUIRE))
		;
	mpiw_self = t;
	return t;
}

/* The sum over the threads of field off of function f's counters. */
static uint64_t total(int f, size_t off)
{
	uint64_t v = 0;
	for (struct mpiw_thread *t = __atomic_load_n(&mpiw_state_all.mw_threads,
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
void *mpiw_need(const char *sym)
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

typedef int (*type_size_fn)(mpiw_h, int *);
typedef int (*comm_int_fn)(mpiw_h, int *);
typedef int (*get_count_fn)(void *, mpiw_h, int *);

/* Bytes in count elements of type dt (0 when count is not positive). */
uint64_t mpiw_bytes(int count, mpiw_h dt)
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
uint64_t mpiw_bytes_v(const int *counts, int n, mpiw_h dt)
{
	uint64_t total = 0;
	for (int i = 0; counts && i < n; i++)
		total += mpiw_bytes(counts[i], dt);
	return total;
}

int mpiw_comm_size(mpiw_h comm)
{
	REAL(Comm_size, comm_int_fn);
	int n = 0;
	return Comm_size_p(comm, &n) ? 0 : n;
}

int mpiw_comm_rank(mpiw_h comm)
{
	REAL(Comm_rank, comm_int_fn);
	int r = -1;
	return Comm_rank_p(comm, &r) ? -1 : r;
}

/* Bytes a completed receive of type dt brought, from its status. */
uint64_t mpiw_received(void *status, mpiw_h dt)
{
	REAL(Get_count, get_count_fn);
	int n = 0;
	if (Get_count_p(status, dt, &n) || n <= 0)
		return 0; /* MPI_UNDEFINED is negative */
	return mpiw_bytes(n, dt);
}

/* Where MPI_SOURCE lies in the program's MPI_Status, in bytes: 0 in
 * Open MPI (MPI_SOURCE is its first member), 8 in the MPICH ABI (after
 * count_lo and count_hi_and_cancelled); -1 under another MPI, whose
 * statuses are then not read.  Set by mpiw_after_init(). */
int mpiw_status_source_off = -1;
int mpiw_handle_width;
int mpiw_topo_cart;
mpiw_h mpiw_op_no_op;

mpi_call_fn mpiw_tell_call;

/* ---- the job's rank, and the totals at the end ---- */

typedef void (*job_rank_fn)(int, int);
typedef int (*mpi_calls_fn)(const char *, uint64_t, uint64_t, uint64_t,
			    uint64_t);
typedef int (*libver_fn)(char *, int *);

static int reported;

/* Hands the totals to the sampler, once. */
void mpiw_report(void)
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
			put(mpiw_names[f], calls,
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
		mpiw_status_source_off = 0;
		mpiw_handle_width = 8;
		mpiw_topo_cart = 1;
		mpiw_op_no_op = (mpiw_h)dlsym(RTLD_DEFAULT,
					      "ompi_mpi_op_no_op");
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
			mpiw_status_source_off = 8;
			mpiw_handle_width = 4;
			mpiw_topo_cart = 2;
			mpiw_op_no_op = 0x5800000e;
			return (mpiw_h)0x44000000;
		}
	}
	return 0;
}

/* After a successful MPI_Init: the rank to the sampler, and the totals
 * at exit should MPI_Finalize never come.  (atexit handlers run before
 * the libraries' destructors, the sampler's among them.) */
void mpiw_after_init(void)
{
	atexit(mpiw_report);
	job_rank_fn tell = (job_rank_fn)dlsym(RTLD_DEFAULT,
					      "mapsample_job_rank");
	/* the substrate host: MPI is up (init_mpp), then every call */
	job_rank_fn done = (job_rank_fn)dlsym(RTLD_DEFAULT,
					      "mapsample_mpi_init_done");
	mpi_call_fn tc = (mpi_call_fn)dlsym(RTLD_DEFAULT, "mapsample_mpi_call");
	mpiw_h world = comm_world();
	int rank = world ? mpiw_comm_rank(world) : -1;
	int size = world ? mpiw_comm_size(world) : 0;
	if (tell && rank >= 0 && size > 0)
		tell(rank, size);
	if (done)
		done(rank, size);
	if (tc)
		__atomic_store_n(&mpiw_tell_call, tc, __ATOMIC_RELAXED);
}

/* ---- the wrappers ---- */

EXPORT int MPI_Init(int *argc, char ***argv)
{
	REAL(Init, int (*)(int *, char ***));
	uint64_t t0 = enter(W_Init);
	int rc = Init_p(argc, argv);
	leave(W_Init, t0, 0, 0);
	if (rc == 0)
		mpiw_after_init();
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
		mpiw_after_init();
	return rc;
}

EXPORT int MPI_Finalize(void)
{
	REAL(Finalize, int (*)(void));
	uint64_t t0 = enter(W_Finalize);
	int rc = Finalize_p();
	leave(W_Finalize, t0, 0, 0);
	mpiw_report();
	return rc;
}
