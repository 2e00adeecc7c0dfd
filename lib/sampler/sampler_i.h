/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libmapsampler internals shared by its modules.
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
 *
 *   Process records (initialize, map-in, thread begin/end, fork, exec,
 *   exit) go to the process stream (tid 0) under proc_lock, which the
 *   signal handler never takes.  Code that runs in signal context writes
 *   its records into its own thread's chunk instead.
 *
 *   Context rules: functions marked "async-signal-safe" may run in the
 *   sampling handler or a fatal-signal handler; they use raw system calls,
 *   no malloc, no stdio, no locks.
 */
#ifndef MAPSAMPLE_SAMPLER_I_H
#define MAPSAMPLE_SAMPLER_I_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "log/mapwrite.h"

#define MAPS_HIDDEN __attribute__((visibility("hidden")))
#define MAPS_EXPORT __attribute__((visibility("default")))

#define SAMPLER_MAX_THREADS 4096
#define SAMPLER_MAX_DEPTH 512
#define SAMPLER_DEFAULT_CHUNK (256u << 10)
#define SAMPLER_SPARES 4
#define SAMPLER_TICK_HZ 250  /* up to this rate: POSIX CPU timers */
/* Default metric interval (MAPSAMPLE_METRIC_INTERVAL, --metric-interval) */
#define SAMPLER_METRIC_INTERVAL_MS 100
/* onePerNode metrics: at most this often (or the metric interval) */
#define SAMPLER_NODE_INTERVAL_MS 1000

enum timer_kind {
	TK_NONE = 0,
	TK_PERF,    /* perf_event task-clock, signal on overflow */
	TK_POSIX,   /* timer_create with SIGEV_THREAD_ID */
};

struct tslot {
	int tid;                 /* 0: free; claimed with CAS */
	int busy;                /* the owner is writing to the chunk */
	int closing;             /* the closer wants the slot */
	int armed;
	enum timer_kind tk;
	int perf_fd;
	timer_t timer;
	uint32_t seq;            /* chunks opened on this stream */
	int have_chunk;
	struct mapw_chunk chunk;
	struct mapw_stab stab;
	void *stabmem;
	size_t stabsize;
	uint64_t samples;
	uint64_t dropped[6];     /* by enum maplog_drop_reason */
	uint64_t dropped_done[6];/* of those, written as DROP records */
	uint64_t start_ts;
	uint64_t cpu_start_ns;
	uint32_t creator;
};

struct sampler_cfg {
	uint64_t freq;           /* samples per second per thread */
	int wall;                /* wall-clock instead of CPU time */
	unsigned depth;          /* stack depth cap */
	int signo;               /* sampling signal */
	uint32_t chunk_size;
	int force_posix;         /* POSIX CPU timers, not perf events */
	char path[4096];         /* log file */
};

struct sampler {
	int enabled;             /* 0 when not set up, or after a failure */
	int stopping;            /* process is closing: handlers drop */
	struct sampler_cfg cfg;
	uint64_t period_ns;
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
	/* spare chunks: a lock-free stack of pre-mapped chunks */
	void *spare[SAMPLER_SPARES];
	int wake_fd;             /* eventfd the handler writes to refill */
	pthread_t writer;
	int writer_running;
};

extern struct sampler S MAPS_HIDDEN;

/* ---- time (async-signal-safe: vDSO clock_gettime) ---- */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- stream.c: the shared log file and chunks ---- */

/* Opens cfg.path and maps its header page.  Returns 0 or -errno. */
MAPS_HIDDEN int stream_open_file(void);
/* Unmaps and closes the log file (after the last seal). */
MAPS_HIDDEN void stream_close_file(void);
/* Maps a fresh chunk of cfg.chunk_size bytes; NULL on failure.
 * Async-signal-safe (raw mmap/pwrite, atomic add). */
MAPS_HIDDEN void *stream_new_chunk(void);
/* Appends ev to slot's chunk, opening the next chunk when full; samples
 * via stream_sample.  Returns 0 or a MAPS_E* code.  Async-signal-safe
 * provided the caller is the slot's only writer. */
MAPS_HIDDEN int stream_put(struct tslot *t, const struct maplog_ev *ev);
MAPS_HIDDEN int stream_sample(struct tslot *t, uint64_t ts, uint64_t weight,
			      uint32_t npc, const uint64_t *pc);
/* Writes pending drop counts of t as DROP records.  Async-signal-safe. */
MAPS_HIDDEN void stream_flush_drops(struct tslot *t);
/* Seals t's chunk.  Async-signal-safe. */
MAPS_HIDDEN void stream_seal(struct tslot *t);
/* Sets up t's stack table memory (mmap).  Returns 0 or -1. */
MAPS_HIDDEN int stream_slot_init(struct tslot *t, int tid);
/* Forgets t's chunk and table without sealing (fork child). */
MAPS_HIDDEN void stream_slot_forget(struct tslot *t);
/* Writer thread: keeps spare chunks mapped. */
MAPS_HIDDEN void stream_start_writer(void);
MAPS_HIDDEN void stream_stop_writer(void);
/* Process-stream helpers (take proc_lock; not for signal context). */
MAPS_HIDDEN void proc_put(struct maplog_ev *ev);

/* ---- timer.c ---- */
/* Arms t's timer for thread t->tid.  Returns 0 or -1. */
MAPS_HIDDEN int timer_arm(struct tslot *t);
/* Disarms and releases t's timer.  Safe from any thread. */
MAPS_HIDDEN void timer_disarm(struct tslot *t);
/* Re-enables a one-shot perf event after a sample.  Async-signal-safe. */
MAPS_HIDDEN void timer_rearm(struct tslot *t);

/* ---- sample.c ---- */
MAPS_HIDDEN void sample_handler(int sig, siginfo_t *si, void *uc);
MAPS_HIDDEN struct tslot *slot_self(void);
MAPS_HIDDEN struct tslot *slot_claim(int tid);
MAPS_HIDDEN void slot_release(struct tslot *t);
/* Drops the calling thread's cached slot (a fork child starts afresh). */
MAPS_HIDDEN void slot_forget_self(void);
/* Waits until the owner of t is out of its handler, then keeps it out. */
MAPS_HIDDEN void slot_quiesce(struct tslot *t);
/* Warms libunwind up and picks the stack walk (once, at start-up). */
MAPS_HIDDEN void sample_warm_up(void);
/* Creates the calling thread's fast-trace cache outside signal context. */
MAPS_HIDDEN void sample_thread_warm_up(void);
/* The step walk from now on (code was unloaded: see sample.c). */
MAPS_HIDDEN void sample_fast_walk_off(void);
/* With MAPSAMPLE_UNWIND=fast|step, prints how many samples each walk took
 * (not from a signal handler: sigctx). */
MAPS_HIDDEN void sample_walk_report(int sigctx);

/* ---- dlsearch.c ---- */
/* open_fn(file, mode) as if called from caller's object: $ORIGIN and the
 * library search path are the caller's.  Not async-signal-safe. */
MAPS_HIDDEN void *dlsearch_open(const void *caller, const char *file,
				int mode, void *(*open_fn)(const char *, int));

/* ---- maps.c: loaded objects ---- */
/* Writes a MAP_IN record for every loaded object (process start, fork
 * child).  Caller holds no lock. */
MAPS_HIDDEN void maps_record_all(void);
/* After dlopen/dlclose: MAP_IN/MAP_OUT for what changed, new snapshot. */
MAPS_HIDDEN void maps_rescan(void);
/* Rebuilds the copy of the loaded objects that dl_iterate_phdr answers
 * from in signal context (not async-signal-safe: malloc, loader lock). */
MAPS_HIDDEN void maps_snapshot(void);
MAPS_HIDDEN extern __thread int in_handler
	__attribute__((tls_model("initial-exec")));

/* ---- sampler.c: thread and process life ---- */
MAPS_HIDDEN void thread_begin(struct tslot *t, uint32_t creator);
MAPS_HIDDEN void thread_end(struct tslot *t);
/* Closes every stream; how/code: the exit if known (how < 0: unknown);
 * sigctx: only async-signal-safe steps (signal handler, _exit). */
MAPS_HIDDEN void process_finish(int how, int code, int sigctx);
MAPS_HIDDEN void process_after_fork_child(void);
MAPS_HIDDEN void process_before_exec(const char *path);
MAPS_HIDDEN void process_exec_failed(void);
MAPS_HIDDEN uint32_t sys_gettid(void);
/* sigaction() for a fatal signal the sampler holds for the program:
 * answers and sets the program's view (see sampler.c); returns 1 if sig
 * is held (done), 0 if the caller must go on to the real sigaction. */
MAPS_HIDDEN int fatal_sigaction(int sig, const struct sigaction *act,
				struct sigaction *old);
/* 1 once the program set a handler of its own for the sampling signal
 * (it never gets it: interpose.c); told at the end of the process. */
MAPS_HIDDEN extern int app_wants_signal;

/* ---- metrics.c: metric plugins (see its header comment) ---- */
MAPS_HIDDEN void metrics_load(void);
MAPS_HIDDEN void metrics_start(void);
/* Caller holds proc_lock (or is alone); sigctx: async-signal-safe only */
MAPS_HIDDEN void metrics_end(int sigctx);
MAPS_HIDDEN void metrics_after_fork_child(void);
/* Async-signal-safe as far as the plugins' getters are. */
MAPS_HIDDEN void metrics_tick_from_handler(struct tslot *t, uint64_t ts);
MAPS_HIDDEN void metrics_idle(void);
MAPS_HIDDEN int metrics_poll_ms(void);

/* ---- io.c: I/O accounting for mapsample_io_bytes() ---- */
MAPS_HIDDEN void io_start(void);
MAPS_HIDDEN void io_rebase(void);
/* libunwind's address checks (io.c): FIFOs before its initialization,
 * then find its pipe; maps_unw_checks counts checks in our handler
 * (interpose.c), incremented before the check's I/O happens */
MAPS_HIDDEN void io_fifos(uint64_t set[16]);
MAPS_HIDDEN void io_find_unwind_pipe(const uint64_t before[16]);
MAPS_HIDDEN extern uint64_t maps_unw_checks;
MAPS_HIDDEN void io_after_fork_child(void);
/* The sampler's own bytes through read/write-like calls, excluded from
 * the program's I/O (relaxed atomics). */
MAPS_HIDDEN extern uint64_t maps_own_bytes_read;
MAPS_HIDDEN extern uint64_t maps_own_bytes_written;
static inline void own_io(uint64_t *counter, long n)
{
	if (n > 0)
		__atomic_fetch_add(counter, (uint64_t)n, __ATOMIC_RELAXED);
}
/* For I/O that other threads may be counting while it happens: count the
 * bytes before the call (own_io_pre), correct after it (own_io_post).
 * A reader then sees the program's bytes too low for a moment, never too
 * high, and mapsample_io_bytes() never goes backwards.  Async-signal-safe. */
static inline void own_io_pre(uint64_t *counter, long expect)
{
	__atomic_fetch_add(counter, (uint64_t)expect, __ATOMIC_RELAXED);
}
static inline long own_io_post(uint64_t *counter, long expect, long got)
{
	long moved = got > 0 ? got : 0;
	if (moved != expect)
		__atomic_fetch_sub(counter, (uint64_t)(expect - moved),
				   __ATOMIC_RELAXED);
	return got;
}

/* ---- interpose.c ---- */
MAPS_HIDDEN void interpose_init(void);
MAPS_HIDDEN int real_sigaction(int, const struct sigaction *,
			       struct sigaction *);
MAPS_HIDDEN int real_pthread_sigmask(int, const sigset_t *, sigset_t *);
/* Starts a thread of ours: not sampled, not recorded. */
MAPS_HIDDEN int real_pthread_create_call(pthread_t *, const pthread_attr_t *,
					 void *(*)(void *), void *);

#endif
