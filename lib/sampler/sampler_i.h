/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libmapsampler internals shared by its modules: the state they share
 * (S, defined in state.c) and each module's functions, in the order of
 * the layers below.
 *
 * DESIGN NOTES
 *   One log file per run, shared by every process of the run.  The
 *   launcher writes its header; each process maps the header page
 *   MAP_SHARED and reserves chunk space with an atomic add on the header's
 *   alloc_end cursor, so processes never coordinate otherwise.  Chunks are
 *   file-backed MAP_SHARED memory: a record is in the page cache the moment
 *   it is committed, and survives SIGKILL.
 *
 *   Threads live in a fixed table of slots (struct tslot), claimed by
 *   compare-and-swap on the tid.  A slot has one writer at a time: its own
 *   thread's signal handler, or, once the thread is gone or the process is
 *   closing, the closer, which first raises `closing` and then waits for
 *   `busy` to drop (both seq_cst: a Dekker handshake, no lock).
 *   With --wall, the off-CPU thread (offcpu.c) writes a blocked thread's
 *   samples into its slot as a third writer: it takes `busy` as the
 *   handler does, after raising `offcpu_busy`, which a thread closing
 *   its own slot waits for.
 *
 *   Process records (initialize, map-in, thread begin/end, fork, exec,
 *   exit) go to the process stream (tid 0) under proc_lock, which the
 *   signal handler never takes.  Code that runs in signal context writes
 *   its records into its own thread's chunk instead.
 *
 *   Context rules: functions marked "async-signal-safe" may run in the
 *   sampling handler or a fatal-signal handler; they use raw system calls,
 *   no malloc, no stdio, no locks.
 *
 *   Layers: each module calls only modules listed after it (and lib/log,
 *   lib/pluginapi, which call nothing of the sampler); nothing calls up.
 *   The sampling handler and the writer thread reach the modules above
 *   them only through callbacks those register (handler_register(),
 *   writer_set_idle()), as clients register with gperftools'
 *   profile-handler.
 *     sampler.c    constructor, destructor: reads the plan, wires the rest
 *     interpose.c  the wrapped libc calls
 *     sigown.c     whose signal the sampling signal is: the choice at
 *                  start, moves, the program's action and mask view
 *     fatal.c      fatal signals held for the program
 *     marks.c      the program's marks and regions (<mapsample/mark.h>)
 *     process.c    process life: start, exit, exec, fork child
 *     job.c        the process's place in a parallel job (JOB records)
 *     thread.c     thread life: begin, close, end
 *     writer.c     the writer thread: spare chunks, idle callback
 *     offcpu.c     --wall: samples of blocked threads, from a thread
 *     perfmap.c    the program's /tmp/perf-PID.map, copied at the end
 *     mhost.c      the metric host: plugins, ticks, their errors
 *     sample.c     the stack sample (a handler callback), stack walks
 *     substrate*.c substrate (event) plugins: loading, locations, the
 *                  per-plugin rings and dispatcher threads (substrate_i.h);
 *                  hooked in from thread.c, process.c, interpose.c's fork,
 *                  sample.c, offcpu.c, marks.c and mhost.c (one line each)
 *     handler.c    the sampling signal: guard, callbacks, rearm
 *     slot.c       the thread-slot table
 *     timer.c      per-thread timers
 *     objects.c    loaded objects: map-in/out, dl_iterate_phdr snapshot
 *     stream.c     the log file, chunks, record streams
 *     io.c         I/O accounting (mapsample_io_bytes)
 *     dlsearch.c   dlopen on behalf of a caller
 *     secure.c     execs in secure-execution mode (set-user-ID): said
 *     real.c       libc's functions behind our wrappers
 *     state.c      the shared state (data only)
 *   Callbacks: handler.c runs, in the order registered, sample_stack()
 *   then mhost_tick() on every sampling signal; writer.c runs
 *   mhost_idle() once per metric interval.  The constructor registers
 *   them; a fork child keeps them.
 *
 *   Async-signal safety: everything reachable from handler_signal() is
 *   async-signal-safe: slot_self(), timer_rearm() and the callbacks,
 *   sample_stack() (libunwind, answered by objects.c's dl_iterate_phdr
 *   snapshot and real.c's msync/mincore without lookups; stream.c's
 *   chunks; lib/log's encoder) and mhost_tick() (as far as the plugins'
 *   getters are, which use lib/pluginapi's async-signal-safe API).  So
 *   is what the fatal handler (fatal.c) and _exit reach:
 *   process_finish() with sigctx set.
 */
#ifndef MAPSAMPLE_SAMPLER_I_H
#define MAPSAMPLE_SAMPLER_I_H

#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "log/mapwrite.h"

#define MAPS_HIDDEN __attribute__((visibility("hidden")))
#define MAPS_EXPORT __attribute__((visibility("default")))

#define SAMPLER_MAX_THREADS 4096
#define SAMPLER_MAX_DEPTH 512
#define SAMPLER_DEFAULT_CHUNK (256u << 10)
#define SAMPLER_SPARES 4
/* Default metric interval (MAPSAMPLE_METRIC_INTERVAL, --metric-interval) */
#define SAMPLER_METRIC_INTERVAL_MS 100
/* onePerNode metrics: at most this often (or the metric interval) */
#define SAMPLER_NODE_INTERVAL_MS 1000

enum timer_kind {
	TK_NONE = 0,
	TK_PERF,    /* perf_event task-clock, signal on overflow */
	TK_POSIX,   /* timer_create with SIGEV_THREAD_ID */
	TK_MIXED,   /* both: the perf event counting user time only, the
		       POSIX timer kept only for ticks in system calls */
};

/* The timers asked for (--timer, MAPSAMPLE_TIMER). */
enum timer_mode {
	TM_MIXED = 0, /* default: perf event (user) + POSIX timer (system) */
	TM_PERF,      /* the perf event counting user and system time */
	TM_POSIX,     /* the POSIX CPU-time timer alone */
};

struct tslot {
	int tid;                 /* 0: free; claimed with CAS */
	int busy;                /* the owner is writing to the chunk */
	int closing;             /* the closer wants the slot */
	int armed;
	enum timer_kind tk;
	int perf_fd;
	uint64_t perf_dev, perf_ino; /* what perf_fd is (fd_still()) */
	timer_t timer;
	uint32_t seq;            /* chunks opened on this stream */
	int have_chunk;
	struct mapw_chunk chunk;
	struct mapw_stab stab;
	void *stabmem;
	size_t stabsize;
	uint64_t samples;
	/* dropped[] added up (slot_drop()): beside ucount, on a line the
	 * handler writes for every signal anyway, so that it learns
	 * whether any loss is new from one word (substrate_drops()) */
	uint64_t drops;
	/* Where the last sample's copy for a substrate plugin went: the
	 * location's slot entry (SUB.cur), the ring's producer line and
	 * the ring's next bytes; the handler asks for these lines on entry
	 * (sampler_prefetch()), so that they come while the stack is
	 * walked.  Hints only: stale or NULL does no harm */
	const void *sub_hint[3];
	/* The default timers' books (handler.c): the perf event's signals
	 * on this thread (ucount; any outcome), and at its last
	 * POSIX-timer signal its system and total CPU time (getrusage,
	 * us) and ucount; ktick_set 0 until the first.  ktick_debt: the CPU
	 * time (ns) no sample stands for yet; ktick_carry: system time
	 * (ns) charged and not yet written (less than a period after a
	 * tick in the kernel, at most S.fill_ns) */
	uint64_t ucount, ktick_ucount;
	int64_t ktick_sys, ktick_all;
	int ktick_set;
	int64_t ktick_debt;
	uint64_t ktick_carry;
	uint64_t dropped[7];     /* by enum maplog_drop_reason; [0, 6)
				    lose samples, MAPLOG_DROP_MARK marks;
				    added to through slot_drop() only */
	uint64_t dropped_done[7];/* of those, written as DROP records */
	uint64_t dropped_told[7];/* of those, told to substrate plugins
				   (substrate_drops()) */
	uint64_t start_ts;
	uint64_t cpu_start_ns;
	uint32_t creator;
	int offcpu_busy;         /* offcpu.c is writing a sample into the
				    slot (it holds busy too): a thread
				    closing its own slot waits for it */
};

struct sampler_cfg {
	uint64_t freq;           /* samples per second per thread */
	int wall;                /* wall-clock instead of CPU time */
	unsigned depth;          /* stack depth cap */
	int signo;               /* sampling signal */
	uint32_t chunk_size;
	enum timer_mode timer;   /* the timers asked for */
	char path[4096];         /* log file */
};

struct sampler {
	int enabled;             /* 0 when not set up, or after a failure */
	int stopping;            /* process is closing: handlers drop */
	int forking;             /* forks under way, waiting for the stack
				  * walkers to leave libunwind (process.c):
				  * handlers drop while it is not 0 */
	int offcpu_walking;      /* the off-CPU thread is walking stacks */
	int finished;            /* process_finish() ran (or a fatal signal) */
	struct sampler_cfg cfg;
	uint64_t period_ns;
	uint64_t fill_ns;         /* handler.c: kernel_samples() */
	enum timer_kind tk;      /* the kind this process managed to arm */
	uint32_t pid, image;
	int fd;                  /* log file, O_CLOEXEC, kept high */
	uint8_t *hdr;            /* header page, MAP_SHARED */
	pthread_mutex_t proc_lock;
	struct tslot proc;       /* process stream (tid 0) */
	struct tslot slots[SAMPLER_MAX_THREADS];
	uint64_t self_lo, self_hi;  /* our own text, for drops */
	uint64_t unregistered;   /* signals on threads without a slot */
	uint64_t samples_closed; /* samples of threads already ended */
	uint64_t exit_status_known;
	int exit_how, exit_code;
	/* process_watch(), called through this by the sampler's own
	 * threads (writer.c, offcpu.c), which name no module above them */
	void (*watch)(void);
	/* what S.fd and S.wake_fd were opened on (fd_still()) */
	uint64_t fd_dev, fd_ino, wake_dev, wake_ino;
	int wake_fd;             /* eventfd that wakes the writer thread:
				    written by stream.c (also in signal
				    context) when it takes a spare chunk */
};

/*
 * Whether descriptor fd is still the file (dev, ino) we opened on it.
 * Our descriptors live in the program's table, where the program may
 * close them (closefrom, close_range, a daemon closing everything) and
 * put files of its own on their numbers (dup2, or an open after the
 * close): before we read, write, map or grow through one, one raw fstat
 * says whether it is still ours.  What it cannot tell: the program
 * putting the very same file (or, for eventfds, which share one inode,
 * an eventfd of its own) on the very same number.  Async-signal-safe.
 */
/*
 * Moves descriptor fd (ours) to a number >= 1000, close-on-exec, out of
 * the way of programs that expect the lowest free numbers or close ranges
 * of them; where the limit on descriptors is below 1000 it stays where it
 * is.  Returns the descriptor to use.  Raw system calls: async-signal-safe.
 */
static inline int fd_high(int fd)
{
	int hi = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 1000);
	if (hi < 0)
		return fd;
	syscall(SYS_close, fd);
	return hi;
}

static inline int fd_still(int fd, uint64_t dev, uint64_t ino)
{
	struct stat st;
	return fd >= 0 && syscall(SYS_fstat, fd, &st) == 0 &&
	       (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino;
}

/* ---- state.c: the shared state ---- */
extern struct sampler S MAPS_HIDDEN;
/* Set by sample_stack() while it walks the stack in the handler, and by
 * sample_thread_warm_up() while it walks a new thread's: dl_iterate_phdr
 * answers from the snapshot (objects.c), msync/mincore count libunwind's
 * checks (interpose.c, io.c) and do no lookups (real.c). */
MAPS_HIDDEN extern __thread int in_handler
	__attribute__((tls_model("initial-exec")));

/* ---- shared helpers (async-signal-safe) ---- */
/* CLOCK_MONOTONIC now, ns (vDSO clock_gettime). */
/* Counts n losses of reason r on slot t: t->dropped[r] and the total
 * t->drops.  Atomic adds, as a mark may be lost in a signal handler
 * that interrupted this one on the same thread (marks.c).
 * Async-signal-safe. */
static inline void slot_drop(struct tslot *t, unsigned r, uint64_t n)
{
	__atomic_fetch_add(&t->dropped[r], n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->drops, n, __ATOMIC_RELAXED);
}

/* Asks for the cache line at p in a state fit for writing, without
 * waiting for it.  Async-signal-safe (an instruction that cannot fault,
 * whatever p is). */
static inline void prefetch_w(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	/* PREFETCHW; a no-op on the older CPUs that lack it */
	__asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1, 3);
#endif
}

/* The handler's first look at slot t: the lines its substrate plugins'
 * copy of the sample will write (t->sub_hint), asked for now.
 * Async-signal-safe (loads of t's own line and prefetches). */
static inline void sampler_prefetch(const struct tslot *t)
{
	if (!t->sub_hint[0])
		return;
	for (int i = 0; i < 3; i++)
		if (t->sub_hint[i])
			prefetch_w(t->sub_hint[i]);
}

/* Takes t's busy flag (becomes the slot's only writer), waiting a
 * bounded time for another thread that holds it for a moment (the
 * off-CPU sampler, a substrate dispatcher, a handler); 0 when it stays
 * held (by this thread's own interrupted handler, or a stuck holder).
 * Async-signal-safe (sched_yield(2)). */
static inline int slot_busy_wait(struct tslot *t)
{
	for (int k = 0; __atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST);
	     k++) {
		if (k == 2000)
			return 0;
		sched_yield();
	}
	return 1;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's id (a raw system call). */
static inline uint32_t sys_gettid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* The CPU-time clock of any thread of this process (the kernel's
 * MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)). */
static inline clockid_t thread_cpu_clock(int tid)
{
	return (clockid_t)((~(unsigned)tid << 3) | 6);
}

/* ---- real.c: libc's functions behind our wrappers ---- */
typedef int (*real_main_fn)(int, char **, char **);
/* Looks up every function below (constructor, before any handler is
 * installed).  Not async-signal-safe (dlsym). */
MAPS_HIDDEN void real_init(void);
/* The libc function of the same name, past our wrapper; each looks
 * itself up on first use if real_init() has not.  Async-signal-safe once
 * looked up (real_sigaction and real_pthread_sigmask run in the fatal
 * handler). */
MAPS_HIDDEN int real_pthread_key_create(pthread_key_t *, void (*)(void *));
MAPS_HIDDEN int real_pthread_create(pthread_t *, const pthread_attr_t *,
				    void *(*)(void *), void *);
/* The sampler's own threads (writer, off-CPU, substrate dispatchers):
 * real_pthread_create() with every signal blocked in the new thread
 * from its start. */
MAPS_HIDDEN int sampler_thread_create(pthread_t *, const pthread_attr_t *,
				      void *(*)(void *), void *);
MAPS_HIDDEN pid_t real_fork(void);
MAPS_HIDDEN int real_execve(const char *, char *const[], char *const[]);
MAPS_HIDDEN int real_execvpe(const char *, char *const[], char *const[]);
MAPS_HIDDEN int real_fexecve(int, char *const[], char *const[]);
MAPS_HIDDEN int real_posix_spawn(pid_t *, const char *,
				 const posix_spawn_file_actions_t *,
				 const posix_spawnattr_t *, char *const[],
				 char *const[]);
MAPS_HIDDEN int real_posix_spawnp(pid_t *, const char *,
				  const posix_spawn_file_actions_t *,
				  const posix_spawnattr_t *, char *const[],
				  char *const[]);
MAPS_HIDDEN void real_exit(int) __attribute__((noreturn));
MAPS_HIDDEN void real__exit(int) __attribute__((noreturn));
MAPS_HIDDEN void real__Exit(int) __attribute__((noreturn));
MAPS_HIDDEN void *real_dlopen(const char *, int);
MAPS_HIDDEN int real_dlclose(void *);
MAPS_HIDDEN int real_sigaction(int, const struct sigaction *,
			       struct sigaction *);
MAPS_HIDDEN int real_sigprocmask(int, const sigset_t *, sigset_t *);
MAPS_HIDDEN int real_pthread_sigmask(int, const sigset_t *, sigset_t *);
MAPS_HIDDEN int real___libc_start_main(real_main_fn, int, char **,
				       void (*)(void), void (*)(void),
				       void (*)(void), void *);
/* msync(2), mincore(2): libc's, or the raw system call if none was
 * found.  No lookup while in_handler is set: async-signal-safe there. */
/* The next definition of the libc function name past ours (dlsym
 * RTLD_NEXT), or NULL.  Not async-signal-safe: for wrappers that never
 * run in a handler (interpose.c's credential and namespace calls). */
MAPS_HIDDEN void *real_sym(const char *name);
MAPS_HIDDEN int real_msync(void *, size_t, int);
MAPS_HIDDEN int real_mincore(void *, size_t, unsigned char *);
/* glibc's dl_iterate_phdr (0 if none was found).  Not async-signal-safe:
 * it takes the loader lock. */
MAPS_HIDDEN int real_dl_iterate_phdr(int (*)(struct dl_phdr_info *, size_t,
					     void *),
				     void *);

/* ---- dlsearch.c ---- */
/* open_fn(file, mode) as if called from caller's object: $ORIGIN and the
 * library search path are the caller's.  Not async-signal-safe. */
MAPS_HIDDEN void *dlsearch_open(const void *caller, const char *file,
				int mode, void *(*open_fn)(const char *, int));

/* ---- io.c: I/O accounting for mapsample_io_bytes() ---- */
/* Opens /proc/self/io and takes the baseline (constructor). */
MAPS_HIDDEN void io_start(void);
/* Counts from now on (after the plugins have loaded). */
MAPS_HIDDEN void io_rebase(void);
/* libunwind's address checks (io.c): FIFOs before its initialization,
 * then find its pipe; io_unw_checks counts checks in our handler
 * (interpose.c), incremented before the check's I/O happens */
MAPS_HIDDEN void io_fifos(uint64_t set[16]);
MAPS_HIDDEN void io_find_unwind_pipe(const uint64_t before[16]);
MAPS_HIDDEN extern uint64_t io_unw_checks;
/* A fork child counts from zero in its own /proc entry. */
MAPS_HIDDEN void io_after_fork_child(void);
/* The sampler's own bytes through read/write-like calls, excluded from
 * the program's I/O (relaxed atomics). */
MAPS_HIDDEN extern uint64_t io_own_bytes_read;
MAPS_HIDDEN extern uint64_t io_own_bytes_written;
static inline void io_own(uint64_t *counter, long n)
{
	if (n > 0)
		__atomic_fetch_add(counter, (uint64_t)n, __ATOMIC_RELAXED);
}
/* For I/O that other threads may be counting while it happens: count the
 * bytes before the call (io_own_pre), correct after it (io_own_post).
 * A reader then sees the program's bytes too low for a moment, never too
 * high, and mapsample_io_bytes() never goes backwards.  Async-signal-safe. */
static inline void io_own_pre(uint64_t *counter, long expect)
{
	__atomic_fetch_add(counter, (uint64_t)expect, __ATOMIC_RELAXED);
}
static inline long io_own_post(uint64_t *counter, long expect, long got)
{
	long moved = got > 0 ? got : 0;
	if (moved != expect)
		__atomic_fetch_sub(counter, (uint64_t)(expect - moved),
				   __ATOMIC_RELAXED);
	return got;
}

/* ---- stream.c: the shared log file and chunks ---- */

/* Opens cfg.path and maps its header page.  Returns 0 or -errno. */
MAPS_HIDDEN int stream_open_file(void);
/* Unmaps and closes the log file (after the last seal). */
MAPS_HIDDEN void stream_close_file(void);
/* Maps a fresh chunk of cfg.chunk_size bytes, its file space reserved
 * first; NULL on failure, and from then on when the log cannot grow
 * (said once on stderr).  Async-signal-safe (raw mmap/fallocate,
 * atomic add). */
MAPS_HIDDEN void *stream_new_chunk(void);
/* Appends ev to slot's chunk, opening the next chunk when full; samples
 * via stream_sample.  Returns 0 or a MAPS_E* code.  Async-signal-safe
 * provided the caller is the slot's only writer. */
MAPS_HIDDEN int stream_put(struct tslot *t, const struct maplog_ev *ev);
MAPS_HIDDEN int stream_sample(struct tslot *t, uint64_t ts, uint64_t weight,
			      uint32_t npc, const uint64_t *pc);
/* stream_put for the program's own records (marks, marks.c): like
 * samples, they open no chunk once the log cannot grow, leaving the last
 * chunks to the end records.  Async-signal-safe, as stream_put. */
MAPS_HIDDEN int stream_put_data(struct tslot *t, const struct maplog_ev *ev);
/* Writes pending drop counts of t as DROP records.  Async-signal-safe. */
MAPS_HIDDEN void stream_flush_drops(struct tslot *t);
/* The same, written on dest's stream (the process stream, under
 * proc_lock, at a thread's close). */
MAPS_HIDDEN void stream_flush_drops_to(struct tslot *t, struct tslot *dest);
/* Seals t's chunk.  Async-signal-safe. */
MAPS_HIDDEN void stream_seal(struct tslot *t);
/* Sets up t's stack table memory (mmap).  Returns 0 or -1. */
MAPS_HIDDEN int stream_slot_init(struct tslot *t, int tid);
/* Forgets t's chunk and table without sealing (fork child). */
MAPS_HIDDEN void stream_slot_forget(struct tslot *t);
/* Appends ev to the process stream under proc_lock (not for signal
 * context). */
MAPS_HIDDEN void stream_proc_put(struct maplog_ev *ev);
/* Maps spare chunks until there are SAMPLER_SPARES (the writer thread).
 * Async-signal-safe, though only the writer calls it. */
MAPS_HIDDEN void stream_refill(void);
/* Unmaps the spare chunks (a fork child: they are the parent's). */
MAPS_HIDDEN void stream_forget_spares(void);
/* Unmaps the spare chunks and gives their reserved file space back (the
 * writer stopped: later chunks are mapped on demand).  Async-signal-safe. */
MAPS_HIDDEN void stream_release_spares(void);
/* Sets the pid of this process in the log from S.pid (start-up, a fork
 * child): S.pid, with high bits from its pid namespace when that is not
 * the run's first one (the log header keeps it). */
MAPS_HIDDEN void stream_set_log_pid(void);
/* The pid of this process in the log.  Async-signal-safe. */
MAPS_HIDDEN uint32_t stream_log_pid(void);

/* ---- objects.c: loaded objects ---- */
/* Writes a MAP_IN record for every loaded object (process start, fork
 * child).  Caller holds no lock. */
MAPS_HIDDEN void objects_record_all(void);
/* In a fork child: records the objects without the loader's lock. */
MAPS_HIDDEN void objects_after_fork_child(void);
/* After dlopen/dlclose: MAP_IN/MAP_OUT for what changed, new snapshot. */
MAPS_HIDDEN void objects_rescan(void);
/* Rebuilds the copy of the loaded objects that dl_iterate_phdr answers
 * from in signal context (not async-signal-safe: malloc, loader lock). */
MAPS_HIDDEN void objects_snapshot(void);
/* The executable segment that holds pc, in [*lo, *hi); 0 when found.
 * Normal context only: our dl_iterate_phdr (the loader's lock, or the
 * snapshot where that lock is suspect). */
MAPS_HIDDEN int objects_text_of(uint64_t pc, uint64_t *lo, uint64_t *hi);

/* ---- timer.c ---- */
/* Arms t's timer for thread t->tid.  Returns 0 or -1. */
MAPS_HIDDEN int timer_arm(struct tslot *t);
/* Disarms and releases t's timer.  Safe from any thread. */
MAPS_HIDDEN void timer_disarm(struct tslot *t);
/* Refreshes t's perf event when si is the signal of the last overflow
 * it was let have (timer.c).  Async-signal-safe. */
MAPS_HIDDEN void timer_rearm(struct tslot *t, const siginfo_t *si);
/* Drops t's timer without disarming it (a fork child: the parent's
 * timers are not the child's; closes a perf event's descriptor). */
MAPS_HIDDEN void timer_forget(struct tslot *t);
/* Points t's timer at the sampling signal cfg.signo now is (after a
 * move: sigown.c).  Async-signal-safe (raw system calls). */
MAPS_HIDDEN void timer_resignal(struct tslot *t);
/* Whether descriptor fd is (or was) one of our perf events, whose
 * signals are samples.  Async-signal-safe. */
MAPS_HIDDEN int timer_fd_ours(int fd);
/* From the writer thread: when the program closed t's perf event
 * descriptor or put a file on its number (the event is gone with it, and
 * no sample comes any more), forgets the number and arms a new event.
 * Not async-signal-safe. */
MAPS_HIDDEN void timer_check(struct tslot *t);

/* ---- guard.c: deadline and crash net around a getter ---- */
/* A getter still running after this long is stopped and its plugin
 * disabled (MAPSAMPLE_GETTER_TIMEOUT_MS overrides). */
#define GUARD_DEFAULT_MS 250
enum { GUARD_TIMEOUT = 1, GUARD_CRASH = 2 };
MAPS_HIDDEN extern sigjmp_buf guard_env;
MAPS_HIDDEN void guard_init(void);
MAPS_HIDDEN uint64_t guard_timeout_ms(void);
MAPS_HIDDEN void guard_enter(void);
MAPS_HIDDEN void guard_leave(void);
MAPS_HIDDEN int guard_why(int *sig);
MAPS_HIDDEN int guard_signal(const siginfo_t *si);
MAPS_HIDDEN int guard_catches(int sig);
MAPS_HIDDEN void guard_fault(int sig) __attribute__((noreturn));

/* ---- slot.c: the thread-slot table ---- */
/* The slot of thread tid, or NULL.  Async-signal-safe. */
MAPS_HIDDEN struct tslot *slot_find(int tid);
/* The calling thread's slot, or NULL.  Async-signal-safe. */
MAPS_HIDDEN struct tslot *slot_self(void);
/* Claims a free slot for tid and sets up its stream; NULL if none. */
MAPS_HIDDEN struct tslot *slot_claim(int tid);
/* Frees t (its thread is gone). */
MAPS_HIDDEN void slot_release(struct tslot *t);
/* Drops the calling thread's cached slot (a fork child starts afresh). */
MAPS_HIDDEN void slot_forget_self(void);
/* One past the highest slot index ever claimed in this process: loops
 * over S.slots stop there, so that a process with few threads never
 * touches the pages of the thousands of slots it does not use (each
 * first touch a page fault).  Async-signal-safe. */
MAPS_HIDDEN int slot_limit(void);
/* Waits until the owner of t is out of its handler, then keeps it out. */
MAPS_HIDDEN void slot_quiesce(struct tslot *t);

/* ---- handler.c: the sampling signal and its callbacks ---- */
/* What the handler knows of one sampling signal, for its callbacks. */
struct handler_tick {
	uint64_t ts;         /* CLOCK_MONOTONIC ns at the handler's entry */
	uint64_t weight;     /* ns of the sampled clock this sample stands
				for (timer overruns included) */
	uint32_t repeat;     /* samples to write for it (1, or the periods
				a tick of the system-time timer stands for:
				weight is their sum) */
	ucontext_t *uc;      /* the interrupted context */
	uint64_t ip;         /* the interrupted PC */
	uint64_t tramp;      /* the handler's return address: the signal
				trampoline */
};
/* A callback: runs in signal context on the thread of slot t, as t's
 * only writer (t->busy held), t and the process not closing.  Must be
 * async-signal-safe. */
typedef void (*handler_fn)(struct tslot *t, const struct handler_tick *tick);
#define HANDLER_MAX_CALLBACKS 4
/* Adds fn to the callbacks of every sampling signal, after those already
 * there.  Returns 0, or -1 when HANDLER_MAX_CALLBACKS are there.  From
 * the constructor, before handler_install(); not async-signal-safe. */
MAPS_HIDDEN int handler_register(handler_fn fn);
/* Makes the handler the action of signal signo (real_sigaction).
 * Async-signal-safe. */
MAPS_HIDDEN void handler_install(int signo);
/* Unblocks cfg.signo on the calling thread (its view: not blocked). */
MAPS_HIDDEN void handler_unblock(void);
/* What the handler does with a signal of its number that the sampler did
 * not send (the program's): set once by sigown.c.  Async-signal-safe. */
typedef void (*handler_foreign_fn)(int sig, siginfo_t *si, void *uc);
MAPS_HIDDEN void handler_set_foreign(handler_foreign_fn fn);
/* The calling thread's view of its mask: whether the program asked for
 * signal handler_mask_sig (the sampling signal when the thread last
 * looked) blocked, which the sampler keeps unblocked. */
MAPS_HIDDEN extern __thread int handler_app_blocked
	__attribute__((tls_model("initial-exec")));
MAPS_HIDDEN extern __thread int handler_mask_sig
	__attribute__((tls_model("initial-exec")));
/* After the sampling signal moved: the old one in mask as the program
 * left it, the new one out of it.  Async-signal-safe. */
MAPS_HIDDEN void handler_fix_mask(sigset_t *mask);

/* ---- sample.c: the stack sample ---- */
/* The handler callback that walks the interrupted stack and writes the
 * sample to t's stream (drops counted in t).  Async-signal-safe. */
MAPS_HIDDEN void sample_stack(struct tslot *t,
			      const struct handler_tick *tick);
/* Warms libunwind up and picks the stack walk (once, at start-up). */
MAPS_HIDDEN void sample_warm_up(void);
/* Creates the calling thread's fast-trace cache outside signal context. */
MAPS_HIDDEN void sample_thread_warm_up(void);
/* The step walk from now on (code was unloaded: see sample.c). */
MAPS_HIDDEN void sample_fast_walk_off(void);
/* Stack walks made outside the handler now (thread warm-ups): a fork
 * waits for them as for handlers (process_fork_prepare()). */
MAPS_HIDDEN int sample_walkers(void);
/* For pthread_key_create(): dtor itself, or when it is libunwind's (the
 * destructor of its per-thread trace cache) a wrapper that runs it as a
 * walk, which a fork waits for (see sample.c). */
typedef void (*sample_dtor_fn)(void *);
MAPS_HIDDEN sample_dtor_fn sample_key_dtor(sample_dtor_fn dtor);
/* In a fork child: locks_free 0 when the fork went on while a walk of
 * another thread may have held one of libunwind's locks; then this
 * process image walks no stack (samples keep the interrupted address). */
MAPS_HIDDEN void sample_after_fork_child(int locks_free);
/* With MAPSAMPLE_UNWIND=fast|step, prints how many samples each walk took
 * (not from a signal handler: sigctx). */
MAPS_HIDDEN void sample_walk_report(int sigctx);

/* ---- mhost.c: the metric host (see its header comment) ---- */
/* Passes the error hooks down to lib/pluginapi, then loads, initializes
 * and starts the plugins of the plan (constructor, before any timer is
 * armed). */
MAPS_HIDDEN void mhost_load(void);
/* Writes the definitions, plugin errors and a first tick (constructor,
 * fork child; normal context). */
MAPS_HIDDEN void mhost_start(void);
/* The process ends: last tick, backfill, <stop>, error counts.  Caller
 * holds proc_lock (or is alone); sigctx: async-signal-safe steps only */
MAPS_HIDDEN void mhost_end(int sigctx);
/* A fork child: counts, tick times and the node lock start afresh. */
MAPS_HIDDEN void mhost_after_fork_child(void);
/* The handler callback: a metric tick when one is due.
 * Async-signal-safe as far as the plugins' getters are. */
MAPS_HIDDEN void mhost_tick(struct tslot *t, const struct handler_tick *tick);
/* The writer's idle callback: the tick no handler took, the node lock. */
MAPS_HIDDEN void mhost_idle(void);
/* Milliseconds between idle ticks; -1: no metrics (no ticks at all). */
MAPS_HIDDEN int mhost_poll_ms(void);

/* ---- writer.c: the writer thread ---- */
/* Sets the callback the writer calls every ms milliseconds (and after
 * each wake-up); fn NULL: none, the writer only refills.  Before
 * writer_start(). */
MAPS_HIDDEN void writer_set_idle(void (*fn)(void), int ms);
/* Starts the writer thread (and its eventfd) unless it runs. */
MAPS_HIDDEN void writer_start(void);
/* Stops it and waits for it; closes the eventfd.  Returns 1 when the
 * thread was running, else 0. */
MAPS_HIDDEN int writer_stop(void);
/* 1 if tid is the writer thread of this process, else 0. */
MAPS_HIDDEN int writer_owns(int tid);
/* A fork child: the writer thread is the parent's; its eventfd closed. */
MAPS_HIDDEN void writer_after_fork_child(void);

/* ---- perfmap.c: the program's /tmp/perf-PID.map ---- */
/* From the writer thread: opens the map once it exists and keeps it
 * open.  Async-signal-safe. */
MAPS_HIDDEN void perfmap_check(void);
/* Looks once more and copies the map into the process stream as FILE
 * records.  Caller holds proc_lock.  Async-signal-safe. */
MAPS_HIDDEN void perfmap_embed(void);
/* A fork child: the open map is the parent's. */
MAPS_HIDDEN void perfmap_after_fork_child(void);

/* ---- offcpu.c: wall-clock samples of blocked threads ---- */
/* With --wall, starts the thread that samples blocked threads from
 * outside (no signal), once per process (a fork child starts its own).
 * Not async-signal-safe. */
MAPS_HIDDEN void offcpu_start(void);
/* 1 if tid is the off-CPU sampler's own thread (never sampled), else 0. */
MAPS_HIDDEN int offcpu_owns(int tid);
/* Stops that thread and waits for it to end (within one period).
 * Returns 1 when it ran in this process, else 0; offcpu_start() starts
 * it again.  Not async-signal-safe. */
MAPS_HIDDEN int offcpu_stop(void);

/* ---- thread.c: thread life ---- */
/* Records thread t (THREAD_BEGIN, created by creator) and arms its
 * timer. */
MAPS_HIDDEN void thread_begin(struct tslot *t, uint32_t creator);
/* Closes slot t: timer off, drops and THREAD_END written, chunk sealed.
 * Async-signal-safe when proc_ok is 0 (the process record then goes to
 * the thread's own chunk); with proc_ok the caller holds proc_lock. */
MAPS_HIDDEN void thread_close(struct tslot *t, int proc_ok);
/* The thread of t exits (the process goes on): closes and frees t. */
MAPS_HIDDEN void thread_end(struct tslot *t);

/* ---- process.c: process life ---- */
/* Keeps argc/argv, the parent and the exec generation for the
 * initialize record and sets the process up (constructor). */
MAPS_HIDDEN void process_init(int argc, char **argv);
/* Writes the INITIALIZE record to the process stream. */
MAPS_HIDDEN void process_write_initialize(void);
/* The path of this process's executable (/proc/self/exe), "" unknown. */
MAPS_HIDDEN const char *process_exe(void);

/* Threads that existed before the constructor (started by other
 * libraries' constructors), but self: claimed and begun from here. */
MAPS_HIDDEN void process_adopt_threads(uint32_t self);
/* Closes every stream once; how/code: the exit if known (how < 0:
 * unknown); sigctx: only async-signal-safe steps (signal handler,
 * _exit); SIGCTX_EXIT when the program called _exit, _Exit or
 * quick_exit (substrate plugins are still ended, on their own threads). */
#define SIGCTX_EXIT 2
MAPS_HIDDEN void process_finish(int how, int code, int sigctx);
/* In a fork child (fork wrapper): forgets the parent's slots, chunks,
 * timers and writer without sealing, and starts afresh. */
/* Around fork(): waits (half a second at most) until no other thread is
 * inside the sampling handler, the off-CPU walk or a thread's warm-up
 * walk (sample_walkers()), and keeps new ones out until
 * process_fork_done(), so the child inherits no lock of libunwind's (or
 * of a plugin's) held by a thread it does not have.  When the half
 * second runs out, the child walks no stack (sample_after_fork_child()). */
MAPS_HIDDEN void process_fork_prepare(void);
MAPS_HIDDEN void process_fork_done(void);
MAPS_HIDDEN void process_after_fork_child(void);
/* Before an exec of path: works out the next image's generation
 * (process_exec_image()), stops the writer, closes every stream. */
MAPS_HIDDEN void process_before_exec(const char *path);
/* The value of MAPSAMPLE_IMAGE ("pid:n") for the image this process
 * execs, after process_before_exec(); NULL before. */
MAPS_HIDDEN const char *process_exec_image(void);
/* The exec failed: timers back on, the writer again. */
MAPS_HIDDEN void process_exec_failed(void);
/* Around a call the kernel or libc wants made in a process with no
 * thread of ours (credential changes: glibc makes every thread repeat
 * them and aborts when one fails; unshare/setns of a user namespace need
 * a single-threaded process): begin stops the sampler's thread, end
 * starts it again.  They nest and may be called from any thread; not
 * async-signal-safe. */
/* On the sampler's own threads, about every 200 ms: when the program
 * has no thread left but ours, ends the process as it would have ended
 * without them (process.c says how).  Not async-signal-safe. */
MAPS_HIDDEN void process_watch(void);
MAPS_HIDDEN void process_solo_begin(void);
MAPS_HIDDEN void process_solo_end(void);

/* ---- job.c: the process's place in a parallel job ---- */
/* Works out the job from the environment and exe (the program's path)
 * and writes a JOB record when the process is a rank or a launcher
 * (constructor, after the initialize record). */
MAPS_HIDDEN void job_start(const char *exe);
/* A fork child: the JOB record again when the parent is a launcher, a
 * rank's child's record when it is a rank or a rank's child. */
MAPS_HIDDEN void job_after_fork_child(void);
/* The value of MAPSAMPLE_RANK_PID that this process's execs and spawns
 * pass on ("PID:RANK" of its rank), "" to pass none (a launcher), NULL
 * to leave the environment's as it is.  Async-signal-safe (reads a
 * static string): a vfork child calls it. */
MAPS_HIDDEN const char *job_rank_env(void);

/* ---- fatal.c: fatal signals ---- */
/* Holds the fatal signals the program left at SIG_DFL (constructor). */
MAPS_HIDDEN void fatal_install(void);
/* sigaction() for a fatal signal the sampler holds for the program:
 * answers and sets the program's view (see fatal.c); returns 1 if sig
 * is held (done), 0 if the caller must go on to the real sigaction. */
MAPS_HIDDEN int fatal_sigaction(int sig, const struct sigaction *act,
				struct sigaction *old);

/* ---- interpose.c ---- */
/* The thread key that ends threads, the saved variables (constructor,
 * after real_init()). */
MAPS_HIDDEN void interpose_init(void);

/* ---- sigown.c: whose signal the sampling signal is ---- */
/* Picks the sampling signal (a free one when the program already uses
 * the configured one) and takes its action over; before
 * handler_install() (constructor). */
MAPS_HIDDEN void sigown_start(void);
/* sigaction() of the program: 1 when sig is ours (old and act handled:
 * the program's view), 0 when the caller passes it on.  A handler set
 * for the sampling signal moves the samples to a free signal. */
MAPS_HIDDEN int sigown_sigaction(int sig, const struct sigaction *act,
				 struct sigaction *old);
/* The program waits for or sends sig (why: "waits for", "sends"): when
 * it is the sampling signal, the samples move to a free one. */
MAPS_HIDDEN void sigown_uses(int sig, const char *why);
MAPS_HIDDEN void sigown_uses_set(const sigset_t *set, const char *why);
/* sigprocmask()/pthread_sigmask() of the program through fn: the
 * sampling signal never blocked, old as the program set it. */
MAPS_HIDDEN int sigown_mask(int how, const sigset_t *set, sigset_t *old,
			    int (*fn)(int, const sigset_t *, sigset_t *));
/* Around an exec: the new image inherits the action and mask the program
 * set for the sampling signal; put back when the exec failed. */
MAPS_HIDDEN void sigown_before_exec(void);
MAPS_HIDDEN void sigown_exec_failed(void);

/* ---- secure.c: execs the loader will not preload into ---- */
/* When executing file (searched on PATH when search_path) runs in
 * secure-execution mode, says on one line that it runs unsampled and
 * returns 1; else 0.  Safe in a vfork child. */
MAPS_HIDDEN int secure_exec_note(const char *file, int search_path);

/* ---- substrate.c: substrate plugins (substrate_i.h) ---- */
#include "sampler/substrate_i.h"

#endif
