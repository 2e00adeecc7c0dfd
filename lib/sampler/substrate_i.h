/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The substrate-plugin host of libmapsampler (<mapsample/substrate.h>,
 * mapsample-substrate(3)): what its three files share and the hooks the
 * rest of the sampler calls.
 *
 *   substrate.c      loading, the checks, the callbacks offered to the
 *                    plugins, locations, the hooks of thread and process
 *                    life (fork, exec, end)
 *   substrate_run.c  the event queues and the per-plugin dispatcher
 *                    threads that deliver deferred events
 *   substrate_put.c  the producer side of the rings: the locations'
 *                    batches (async-signal-safe)
 *   substrate_defs.c definitions (handles and their names)
 *
 * substrate.c calls the other three, substrate_run.c calls substrate_put.c
 * and substrate_defs.c; none calls up.
 */
#ifndef MAPSAMPLE_SUBSTRATE_I_H
#define MAPSAMPLE_SUBSTRATE_I_H

#include <pthread.h>
#include <stdint.h>

#include <mapsample/substrate.h>

struct tslot;

#define SUBSTRATE_MAX 8                 /* plugins per run */
#define SUB_LOG_REASONS 7u /* enum maplog_drop_reason: 0..MAPLOG_DROP_MARK */
#define SUBSTRATE_RING (128u << 10)     /* bytes per location and plugin */
/* A location's batch (struct mapsample_location, st_*): the deferred
 * records its producers gathered, copied to the rings together once
 * SUB_STAGE bytes are there or the first is SUB_STAGE_NS old */
#define SUB_STAGE 2048u
#define SUB_STAGE_NS 20000000u          /* 20 ms */
/* a batch this old is flushed by a dispatcher (its thread puts nothing) */
#define SUB_STALE_NS 100000000u         /* 100 ms */

/* A single-producer, single-consumer ring of event records of one
 * location for one plugin.  The producer is whoever holds the location's
 * slot busy flag (the sampling handler, the off-CPU sampler, a mark or MPI
 * call of the thread); the consumer is the plugin's dispatcher.  head and
 * tail only grow; a record never wraps (a pad record fills the end). */
struct sub_ring {
	/* the producer's cache line */
	_Alignas(64) uint64_t head; /* bytes written (producer, release) */
	uint64_t tail_seen;     /* tail as the producer last read it */
	uint64_t lost;          /* records the ring had no room for */
	uint8_t *buf;           /* SUBSTRATE_RING bytes, mmap */
	/* the dispatcher's: written once per batch, read by the producer
	 * only when the ring looks half full */
	_Alignas(64) uint64_t tail; /* bytes consumed (dispatcher, release) */
	uint64_t lost_told;     /* of lost, told by a DROP event */
	/* losses the log counts (reasons below SUB_LOG_REASONS) whose DROP
	 * event found the ring full: the producer adds, drain() tells */
	uint64_t log_lost[SUB_LOG_REASONS];
	uint64_t log_lost_told[SUB_LOG_REASONS];
};

struct mapsample_location {
	uint32_t id;            /* unique in this process image */
	uint32_t pid, tid;
	int refs;               /* plugins not yet past delete_location,
				   children, the slot */
	struct mapsample_location *parent;
	uint32_t forks;         /* forks made from this location */
	uint32_t fork_seq;      /* the parent's fork count at our fork */
	int first;              /* the process image's first location */
	int forked;             /* first location of a fork child */
	uint32_t early;         /* samples of the thread taken before this
				   location existed (told by a DROP event
				   after create_location) */
	char name[32];
	void *data[SUBSTRATE_MAX];
	struct sub_ring ring[SUBSTRATE_MAX];
	int created[SUBSTRATE_MAX]; /* create_location delivered (in-handler
				       samples wait for it) */
	int slot;               /* its thread's slot (index into S.slots) */
	/* The batch (substrate_run.c), on lines only the location's
	 * producer (whoever holds the slot's busy flag) writes: the records
	 * in ring format, st_fill bytes, the first put at st_first.  A
	 * dispatcher reads st_fill and st_first, unlocked, only to see
	 * whether a batch has waited too long. */
	_Alignas(64) uint32_t st_fill;
	uint64_t st_first;
	_Alignas(64) uint8_t st_buf[SUB_STAGE];
};

/* A management message, delivered in order by the plugin's dispatcher. */
enum sub_msg_type {
	SUB_MSG_BEGIN = 1,      /* create, activate, THREAD/PROGRAM_BEGIN */
	SUB_MSG_END,            /* drain, THREAD_END, deactivate, delete */
	SUB_MSG_INIT_MPP,
	SUB_MSG_PROGRAM_END,    /* PROGRAM_END, pre_unify, write_data,
				   dump_manifest, finalize; last */
};

struct sub_msg {
	enum sub_msg_type type;
	struct mapsample_location *loc;
	uint64_t ts;
	int how, code;
};

struct sub_plugin {
	char name[64];
	char path[4096];
	void *dl;
	mapsample_substrate_plugin_info info;
	mapsample_substrates_callback *ev; /* NUM_EVENTS entries, or NULL */
	int in_handler;         /* SAMPLE events in the signal handler */
	int off;                /* refused or gone: no more calls */
	/* the dispatcher (its own cache lines: the handler reads the
	 * members above for every sample) */
	_Alignas(64) pthread_t thread;
	int running;
	int stop;               /* leave once the queue is empty */
	int hold, held;         /* fork: pause between calls / paused */
	int tid;
	int done;               /* the dispatcher has left its loop */
	uint32_t wake;          /* futex word: 1 when there is work to
				   look at (set by producers, cleared by
				   the dispatcher before each pass) */
	pthread_mutex_t qlock;  /* never taken in signal context */
	struct sub_msg *q;
	size_t qn, qcap, qdone;
	size_t qdelivered;      /* of qdone, delivered (a fork waits) */
	uint64_t told_defs;     /* new_definition_handle given up to here */
	uint64_t behind;        /* events dropped: the plugin fell behind */
	/* locations this dispatcher delivers (created, not yet deleted) */
	struct mapsample_location **live;
	size_t nlive, caplive;
};

struct sub_host {
	/* What the sampling handler reads for every sample, on one cache
	 * line: between two samples the program, the kernel or other
	 * processes on the CPU push the host's lines out of the caches,
	 * and each line the handler touches then costs a miss. */
	_Alignas(64) int n;     /* plugins loaded and initialized */
	/* plugins that take SAMPLE events deferred / in the handler: with
	 * neither, a sample costs the handler one test */
	int sample_deferred, sample_in_handler;
	int finishing;          /* the process image is ending */
	/* bit t of take[i]: plugin i takes events of type t deferred
	 * (through its ring); 0 once it is off (subrun_off()) */
	uint32_t take[SUBSTRATE_MAX];
	struct sub_plugin p[SUBSTRATE_MAX];
	/* the location of each thread slot (index into S.slots), read by
	 * the signal handler, and the sum of the slot's t->dropped[] when
	 * its losses were last looked at (substrate_drops(): while the sum
	 * is the same, no loss is new, and t->dropped_told, two more cache
	 * lines, is not read); one line holds four slots' */
	struct sub_cur {
		struct mapsample_location *loc;
		uint64_t drops_seen;
	} cur[4096] __attribute__((aligned(64)));
	/* samples of each slot's thread taken before its location was
	 * made (the main thread's timer runs before its thread_begin) */
	uint32_t early[4096];
	int mpi_expected;       /* an MPI launcher's variables are set */
	int mpi_done;           /* init_mpp asked for */
	uint32_t next_id;
	/* the end of an image that called _exit (substrate_finish with
	 * SIGCTX_EXIT): no message can be queued there, so each
	 * dispatcher, once its queue is empty, ends its plugin itself */
	int end_req;            /* set last (release) */
	int end_mpp;            /* init_mpp still owed */
	int end_how, end_code;
	uint64_t end_ts;
	/* dump_manifest, finalize and what follows for one plugin
	 * (substrate.c); called by the dispatcher on end_req */
	void (*end_plugin)(struct sub_plugin *p);
};

extern struct sub_host SUB __attribute__((visibility("hidden")));

/* Event record kinds in a ring (beyond the public event types). */
#define SUB_REC_PAD 0xffffu

/* A record in a ring: this header, then (unless a SAMPLE) b and c, then
 * npc program counters, then tlen bytes of text.  A SAMPLE's b and c are
 * always 0 and are left out: with the few frames of a typical stack the
 * record is then about a quarter shorter, and every byte of it travels
 * twice between two CPUs' caches (the handler writes it, the dispatcher
 * reads it), which is most of what a deferred plugin costs per sample. */
struct sub_rec {
	uint32_t size;          /* bytes, with what follows, multiple of 8 */
	uint16_t type;          /* MAPSAMPLE_EVENT_*, or SUB_REC_PAD */
	uint16_t tlen;          /* bytes of text after the PCs (no NUL) */
	uint32_t npc;
	int32_t d;              /* SAMPLE: wall; MPI_EXIT: the peer */
	uint64_t ts, a;
};
struct sub_rec_bc {
	uint64_t b, c;
};

static inline size_t rec_head(uint16_t type)
{
	return sizeof(struct sub_rec) +
	       (type == MAPSAMPLE_EVENT_SAMPLE ? 0 : sizeof(struct sub_rec_bc));
}

/* p's index in SUB.p */
static inline int plugin_index(const struct sub_plugin *p)
{
	return (int)(p - SUB.p);
}


/* ---- substrate_defs.c ---- */
/* The handle of (type, name), made on first use.  Not async-signal-safe
 * (malloc, a mutex). */
mapsample_handle subdefs_get(enum mapsample_handle_type type,
			     const char *name)
	__attribute__((visibility("hidden")));
/* Name and type of h (NULL / ANY when unknown); lock-free reads. */
const char *subdefs_name(mapsample_handle h)
	__attribute__((visibility("hidden")));
enum mapsample_handle_type subdefs_type(mapsample_handle h)
	__attribute__((visibility("hidden")));
/* Handles made so far (the last one). */
uint64_t subdefs_count(void) __attribute__((visibility("hidden")));
/* Fork: the child takes the lock afresh; prepare/parent hold it across. */
void subdefs_fork_prepare(void) __attribute__((visibility("hidden")));
void subdefs_fork_parent(void) __attribute__((visibility("hidden")));
void subdefs_fork_child(void) __attribute__((visibility("hidden")));

/* ---- substrate_put.c ---- */
/* Appends a record for every plugin that takes deferred events of this
 * type to loc's batch, which goes to their rings when it is full, old or
 * flushed (subrun_flush()).  The caller holds the slot's busy flag.  text
 * (may be NULL) is copied.  Async-signal-safe. */
void subrun_put(struct mapsample_location *loc, uint16_t type, uint64_t ts,
		uint64_t a, uint64_t b, uint64_t c, int64_t d,
		uint32_t npc, const uint64_t *pc, const char *text)
	__attribute__((visibility("hidden")));
/* subrun_put() of a SAMPLE (weight w, wall); *next gets where the
 * location's next record will go (for the next sample's handler to ask
 * for on entry: tslot.sub_hint).  Async-signal-safe. */
void subrun_sample(struct mapsample_location *loc, uint64_t ts, uint64_t w,
		   uint32_t npc, const uint64_t *pc, int wall,
		   const void **next) __attribute__((visibility("hidden")));
/* Copies loc's batch to the plugins' rings now.  The caller holds the
 * slot's busy flag (or the location has no producer left).
 * Async-signal-safe. */
void subrun_flush(struct mapsample_location *loc)
	__attribute__((visibility("hidden")));
/* Turns p off: no more events are put in its rings, no more calls
 * (p->off).  Async-signal-safe (two stores). */
void subrun_off(struct sub_plugin *p) __attribute__((visibility("hidden")));
/* Wakes p's dispatcher (once until it has looked).  Async-signal-safe
 * (an atomic exchange and at most one futex(2) call). */
void subrun_wake(struct sub_plugin *p) __attribute__((visibility("hidden")));
/* At the end of the image, every thread's new losses and batch to the
 * rings.  Async-signal-safe. */
void subrun_flush_all(void) __attribute__((visibility("hidden")));
/* ---- substrate_run.c ---- */
/* Queues a management message for every plugin.  Not in signal context. */
void subrun_msg(const struct sub_msg *m)
	__attribute__((visibility("hidden")));
/* Starts / stops (waits for, at most wait_ms before it gives up on a
 * plugin's backlog) every dispatcher. */
void subrun_start(void) __attribute__((visibility("hidden")));
void subrun_stop(int wait_ms) __attribute__((visibility("hidden")));
/* After SUB.end_req: wakes the dispatchers and waits until each has
 * ended its plugin, backlog_ms for the backlog (then dropped, counted)
 * and last_ms more for the last calls; then gives up on it.
 * Async-signal-safe (nanosleep, the vDSO clock). */
void subrun_end_wait(int backlog_ms, int last_ms)
	__attribute__((visibility("hidden")));
/* 1 if tid is a dispatcher of this process. */
int subrun_owns(int tid) __attribute__((visibility("hidden")));
/* Fork: pause the dispatchers between calls and hold the queue locks /
 * let them go on / in the child, start afresh. */
void subrun_fork_prepare(void) __attribute__((visibility("hidden")));
void subrun_fork_parent(void) __attribute__((visibility("hidden")));
void subrun_fork_child(void) __attribute__((visibility("hidden")));
/* Drops a reference to loc; frees it (and its rings) at zero. */
void subrun_unref(struct mapsample_location *loc)
	__attribute__((visibility("hidden")));
/* The plugin whose code the calling dispatcher thread runs, or NULL. */
struct sub_plugin *subrun_current(void) __attribute__((visibility("hidden")));

/* ---- substrate.c: the hooks (each one line where it is called) ---- */
/* Constructor, after mhost_load(): loads, checks and initializes the
 * plugins of MAPSAMPLE_SUBSTRATE_PLUGINS.  Not async-signal-safe. */
void substrate_load(void) __attribute__((visibility("hidden")));
/* End of start-up: init_mpp unless MPI is expected, dispatchers on. */
void substrate_start(void) __attribute__((visibility("hidden")));
/* A sampled thread begins (thread_begin) / ends while the process goes
 * on (thread_end, after thread_close).  Normal context. */
void substrate_thread_begin(struct tslot *t, uint32_t creator)
	__attribute__((visibility("hidden")));
void substrate_thread_end(struct tslot *t)
	__attribute__((visibility("hidden")));
/* A sample of t (t->busy held).  Async-signal-safe. */
void substrate_sample(struct tslot *t, uint64_t ts, uint64_t weight,
		      uint32_t npc, const uint64_t *pc, int wall)
	__attribute__((visibility("hidden")));
/* A metric value ev (METRIC_VALUE) of metric id, recorded into t's
 * stream (t->busy held); values recorded into the process stream (the
 * idle tick) are not delivered.  Async-signal-safe. */
struct maplog_ev;
void substrate_metric(struct tslot *t, const struct maplog_ev *ev,
		      const char *id) __attribute__((visibility("hidden")));
/* t's losses the log counts (t->dropped, by enum maplog_drop_reason)
 * since the last call: a DROP event each (t->busy held, or t closing).
 * Async-signal-safe. */
void substrate_drops(struct tslot *t) __attribute__((visibility("hidden")));
/* A mark of t (t->busy held): kind MAPLOG_MARK_*.  Async-signal-safe. */
void substrate_mark(struct tslot *t, uint64_t ts, uint64_t kind,
		    const char *name) __attribute__((visibility("hidden")));
/* The process image ends (close_all, S.stopping set): every location
 * ends, PROGRAM_END and the last management calls.  sigctx
 * SIGCTX_EXIT (_exit): async-signal-safe, the dispatchers make the
 * calls; any other sigctx: nothing is delivered. */
void substrate_finish(int how, int code, int sigctx)
	__attribute__((visibility("hidden")));
/* The fork wrapper: before, in the parent after (pid < 0: failed), and
 * in the child (process_after_fork_child). */
void substrate_fork_prepare(void) __attribute__((visibility("hidden")));
void substrate_fork_parent(int pid) __attribute__((visibility("hidden")));
void substrate_after_fork_child(void) __attribute__((visibility("hidden")));
/* process_solo_begin/end: the dispatchers off and on again. */
void substrate_solo(int begin) __attribute__((visibility("hidden")));
/* The exports for the MPI plugin's PMPI layer (substrate.c). */
void mapsample_mpi_init_done(int rank, int size)
	__attribute__((visibility("default")));
void mapsample_mpi_call(int enter, const char *function, uint64_t bytes_sent,
			uint64_t bytes_received, int32_t peer)
	__attribute__((visibility("default")));
/* A metric the sampler records (its METRIC_DEF): id and units, kept
 * for the handle_get_units callback; the strings must outlive the
 * process image.  Normal context. */
void substrate_metric_units(const char *id, const char *units)
	__attribute__((visibility("hidden")));
/* 1 if tid is one of the host's own threads. */
int substrate_owns(int tid) __attribute__((visibility("hidden")));

#endif
