/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrate_run: how events reach substrate plugins.
 *
 * DESIGN NOTES
 *   Two designs were weighed: a host thread that decodes what the sampler
 *   has already committed to the log's chunks, and per-location rings
 *   drained by a dispatcher.  Decoding the log needs the parser (which
 *   the preloaded library does not carry), the per-stream stack tables
 *   and a way to follow chunks that another thread seals and swaps at any
 *   moment; and a slow plugin would have to pin chunks.  The rings cost
 *   one copy of the sample (its program counters) in the handler, into
 *   a batch that stays in the CPU's caches, and one more per plugin for
 *   a whole batch at a time (test/bench/substrate-cost.sh measures it),
 *   and they keep each plugin apart from the log and from the others.
 *   So:
 *
 *   - Each location has one ring per plugin (struct sub_ring): records of
 *     deferred events (samples, marks and regions, MPI calls, fork), one
 *     producer at a time (whoever holds the slot's busy flag: the
 *     sampling handler, the off-CPU sampler, the thread's own mark or MPI
 *     call), gathered in the location's batch (below), written with
 *     plain stores and published with a release store of head:
 *     async-signal-safe, no lock, no allocation.  A full ring
 *     drops the record and counts it (the plugin fell behind): the
 *     program never waits for a plugin.
 *   - Management messages (a location begins or ends, init_mpp, the end
 *     of the process image) go to a queue per plugin under its qlock,
 *     from normal context only.
 *   - Each plugin has a dispatcher thread of its own, so a plugin that
 *     blocks delays only itself.  It sleeps on a futex word (wake) until
 *     a management message comes, a ring gets half full (one wake-up
 *     per half ring, from the batch's copy: an exchange and at most one
 *     futex(2) call), the end asks, or IDLE_WAIT_NS passes; so samples
 *     cost no system call each and an idle run no polling.  It enters
 *     the plugin once per BATCH records, not per record.  Every pass it
 *     delivers the queued
 *     messages in order (a location's end drains its ring first, so no
 *     event follows delete_location), then drains the rings of the
 *     locations it has created, so create_location comes before any event
 *     of a location; per location, events come in the order they were
 *     recorded.  Before an event that names a handle the plugin has not
 *     seen, it gets new_definition_handle for every newer handle.
 *   - What a sample costs the handler is mostly cache misses: between two
 *     samples the host's lines leave the caches, and a ring's lines were
 *     last read by the dispatcher on another CPU, so every record written
 *     straight into a ring waited for lines to come back (that design
 *     cost some 7% of a sample's whole cost, test/bench/README.md).  So
 *     the producers write each record into the location's batch
 *     (st_buf: SUB_STAGE bytes on lines only they write, which stay in
 *     this CPU's caches), and the batch goes to the rings in one copy
 *     with one publication of head when it is full, when its first
 *     record is SUB_STAGE_NS old at the next put, when the location or
 *     the image ends, or, for a thread that puts nothing more, from a
 *     dispatcher once it is SUB_STALE_NS old (under the slot's busy
 *     flag, as a producer).  Records then wait at most SUB_STAGE_NS on
 *     a thread that runs, about SUB_STALE_NS plus IDLE_WAIT_NS on one
 *     that sleeps.  A SAMPLE record carries no unused words; the
 *     handler asks on entry for the batch's lines it will write
 *     (tslot.sub_hint), and the dispatcher reads ahead.
 *   - The dispatchers block every signal, are not sampled, leave the
 *     sampler's process_watch to its writer thread (both running it
 *     doubled its reads of /proc), stop around process_solo_begin/
 *     end, pause between calls before a fork (a child must not call into
 *     a plugin that another thread left in the middle of a call: a plugin
 *     that does not pause within FORK_WAIT_MS is off in the child, said
 *     once) and start afresh in a fork child.
 * Calls substrate_defs.c and the shared helpers; nothing above.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "sampler/sampler_i.h"

#define FORK_WAIT_MS 50
/* before a fork, the most the queued messages are waited for */
#define FORK_QUEUE_WAIT_MS 1000
/* An idle dispatcher waits this long for a wake-up before it looks at
 * the rings anyway: the longest a deferred event waits (a ring half
 * full wakes it at once) */
#define IDLE_WAIT_NS 200000000L /* 200 ms */
/* Records delivered between two checks for a fork's hold */
#define BATCH 64

/* How far ahead of the record it delivers the dispatcher fetches: some
 * ten records of a short stack, enough to cover the time a line takes
 * to come from the producer's CPU */
#define READ_AHEAD 1024

static __thread struct sub_plugin *running_plugin
	__attribute__((tls_model("initial-exec")));

struct sub_plugin *subrun_current(void)
{
	return running_plugin;
}

/* ---- management messages (normal context) ---- */

void subrun_msg(const struct sub_msg *m)
{
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		pthread_mutex_lock(&p->qlock);
		if (p->qn == p->qcap) {
			size_t cap = p->qcap ? p->qcap * 2 : 64;
			struct sub_msg *q = realloc(p->q, cap * sizeof(*q));
			if (!q) {
				pthread_mutex_unlock(&p->qlock);
				continue;
			}
			p->q = q;
			p->qcap = cap;
		}
		p->q[p->qn++] = *m;
		pthread_mutex_unlock(&p->qlock);
		subrun_wake(p);
	}
}

void subrun_unref(struct mapsample_location *loc)
{
	if (!loc || __atomic_sub_fetch(&loc->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	for (int i = 0; i < SUBSTRATE_MAX; i++)
		if (loc->ring[i].buf)
			munmap(loc->ring[i].buf, SUBSTRATE_RING);
	struct mapsample_location *parent = loc->parent;
	free(loc);
	subrun_unref(parent);
}

/* ---- the dispatcher ---- */

/* Around every call into the plugin: a fork waits for in_plugin to drop
 * after raising hold (both seq_cst: a Dekker handshake). */
static int enter(struct sub_plugin *p)
{
	for (;;) {
		__atomic_store_n(&p->held, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&p->hold, __ATOMIC_SEQ_CST))
			return !__atomic_load_n(&p->off, __ATOMIC_RELAXED);
		__atomic_store_n(&p->held, 0, __ATOMIC_SEQ_CST);
		struct timespec ms = {0, 1000000L};
		nanosleep(&ms, NULL);
	}
}

static void leave(struct sub_plugin *p)
{
	__atomic_store_n(&p->held, 0, __ATOMIC_SEQ_CST);
}

#define EV(p, T, type) ((T)(p)->ev[type])

/* Tells p every handle up to h it has not been told. */
static void tell_defs(struct sub_plugin *p, mapsample_handle h)
{
	while (p->told_defs < h) {
		p->told_defs++;
		if (p->info.new_definition_handle)
			p->info.new_definition_handle(
				p->told_defs, subdefs_type(p->told_defs));
	}
}

static void drop_event(struct sub_plugin *p, struct mapsample_location *loc,
		       uint32_t reason, uint64_t n)
{
	mapsample_event_drop_cb f =
		EV(p, mapsample_event_drop_cb, MAPSAMPLE_EVENT_DROP);
	if (f && n)
		f(loc, now_ns(), reason, n);
}

/* Region stacks per location and plugin, for REGION_EXIT (the mark API's
 * region end names no region). */
#define REGION_DEPTH 64
struct rstack {
	struct mapsample_location *loc;
	int depth;
	mapsample_handle h[REGION_DEPTH];
};

static mapsample_handle region_handle(struct sub_plugin *p,
				      struct mapsample_location *loc,
				      uint16_t type, const char *text)
{
	/* one small table per dispatcher: locations seen with regions */
	static __thread struct rstack *rs;
	static __thread size_t nrs;
	struct rstack *s = NULL;
	for (size_t i = 0; i < nrs; i++)
		if (rs[i].loc == loc)
			s = &rs[i];
	if (!s) {
		struct rstack *n = realloc(rs, (nrs + 1) * sizeof(*rs));
		if (!n)
			return MAPSAMPLE_INVALID_HANDLE;
		rs = n;
		s = &rs[nrs++];
		memset(s, 0, sizeof(*s));
		s->loc = loc;
	}
	(void)p;
	if (type == MAPSAMPLE_EVENT_REGION_EXIT) {
		if (s->depth == 0)
			return MAPSAMPLE_INVALID_HANDLE;
		return s->depth > REGION_DEPTH ? (s->depth--, 0)
					       : s->h[--s->depth];
	}
	mapsample_handle h = subdefs_get(MAPSAMPLE_HANDLE_TYPE_REGION, text);
	if (type == MAPSAMPLE_EVENT_REGION_ENTER) {
		if (s->depth < REGION_DEPTH)
			s->h[s->depth] = h;
		s->depth++;
	}
	return h;
}

static void deliver_rec(struct sub_plugin *p, struct mapsample_location *loc,
			const struct sub_rec *h)
{
	const uint8_t *at = (const uint8_t *)(h + 1);
	struct sub_rec_bc bc = {0, 0};
	if (h->type != MAPSAMPLE_EVENT_SAMPLE) {
		memcpy(&bc, at, sizeof(bc));
		at += sizeof(bc);
	}
	char text[1025];
	memcpy(text, at + (size_t)h->npc * 8, h->tlen);
	text[h->tlen] = 0;
	/* SAMPLE records: drain() calls the plugin itself */
	switch (h->type) {
	case MAPSAMPLE_EVENT_MARK:
	case MAPSAMPLE_EVENT_REGION_ENTER:
	case MAPSAMPLE_EVENT_REGION_EXIT: {
		mapsample_handle r = region_handle(p, loc, h->type, text);
		if (r == MAPSAMPLE_INVALID_HANDLE)
			break;
		tell_defs(p, r);
		EV(p, mapsample_event_region_cb, h->type)(loc, h->ts, r);
		break;
	}
	case MAPSAMPLE_EVENT_MPI_ENTER:
	case MAPSAMPLE_EVENT_MPI_EXIT: {
		mapsample_handle f =
			subdefs_get(MAPSAMPLE_HANDLE_TYPE_MPI_FUNCTION, text);
		tell_defs(p, f);
		if (h->type == MAPSAMPLE_EVENT_MPI_ENTER)
			EV(p, mapsample_event_mpi_enter_cb, h->type)(
				loc, h->ts, f, MAPSAMPLE_INVALID_HANDLE);
		else
			EV(p, mapsample_event_mpi_exit_cb, h->type)(
				loc, h->ts, f, h->a, bc.b, h->d);
		break;
	}
	case MAPSAMPLE_EVENT_METRIC: {
		mapsample_handle m =
			subdefs_get(MAPSAMPLE_HANDLE_TYPE_METRIC, text);
		double dbl;
		memcpy(&dbl, &bc.c, sizeof(dbl));
		tell_defs(p, m);
		EV(p, mapsample_event_metric_cb, h->type)(
			loc, h->ts, m, (int)h->a, (int)bc.b, bc.c, dbl);
		break;
	}
	case MAPSAMPLE_EVENT_FORK:
		EV(p, mapsample_event_fork_cb, h->type)(loc, h->ts,
						       (uint32_t)h->a);
		break;
	case MAPSAMPLE_EVENT_DROP:
		EV(p, mapsample_event_drop_cb, h->type)(loc, h->ts,
						       (uint32_t)h->a, bc.b);
		break;
	default:
		break;
	}
}

/* Delivers loc's ring for p up to what is there now; with hurry, drops
 * it (counted).  Returns the records handled. */
static size_t drain(struct sub_plugin *p, struct mapsample_location *loc,
		    int hurry)
{
	struct sub_ring *r = &loc->ring[plugin_index(p)];
	if (!r->buf)
		return 0;
	uint64_t tail = r->tail;
	uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	size_t n = 0;
	/* inside the plugin (enter) for up to BATCH records at a time; a
	 * fork's hold is looked at between any two (a plain load) */
	int in = 0, on = 1, batch = 0;
	/* the records ahead were written on the producer's CPU: their
	 * lines are asked for, each once, up to READ_AHEAD bytes ahead of
	 * the record being delivered (hints only, none past head) */
	uint64_t ahead = tail & ~(uint64_t)63;
	while (tail < head) {
		const struct sub_rec *h =
			(const struct sub_rec *)(r->buf + tail % SUBSTRATE_RING);
		for (; ahead < head && ahead < tail + READ_AHEAD; ahead += 64)
			__builtin_prefetch(r->buf + ahead % SUBSTRATE_RING);
		/* the end of the image stopped waiting for this backlog */
		hurry |= __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) > 1;
		if (h->type != SUB_REC_PAD) {
			if (in && (batch == BATCH ||
				   __atomic_load_n(&p->hold, __ATOMIC_SEQ_CST))) {
				leave(p);
				in = 0;
			}
			if (hurry) {
				__atomic_fetch_add(&r->lost, 1,
						   __ATOMIC_RELAXED);
			} else {
				if (!in) {
					on = enter(p);
					in = 1;
					batch = 0;
					running_plugin = p;
				}
				if (on && h->type == MAPSAMPLE_EVENT_SAMPLE)
					/* most records: no copy, no switch */
					EV(p, mapsample_event_sample_cb,
					   h->type)(loc, h->ts, h->a, h->npc,
						    (const uint64_t *)(h + 1),
						    h->d);
				else if (on)
					deliver_rec(p, loc, h);
				batch++;
			}
			n++;
		}
		tail += h->size;
		if (batch == BATCH)
			__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	}
	if (in)
		leave(p);
	__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	uint64_t lost = __atomic_load_n(&r->lost, __ATOMIC_RELAXED);
	if (lost > r->lost_told) {
		uint64_t d = lost - r->lost_told;
		r->lost_told = lost;
		__atomic_fetch_add(&p->behind, d, __ATOMIC_RELAXED);
		if (enter(p)) {
			drop_event(p, loc, MAPSAMPLE_DROP_PLUGIN_BEHIND, d);
			leave(p);
		}
	}
	for (uint32_t k = 0; k < SUB_LOG_REASONS; k++) {
		uint64_t ll = __atomic_load_n(&r->log_lost[k], __ATOMIC_RELAXED);
		if (ll > r->log_lost_told[k] && enter(p)) {
			drop_event(p, loc, k, ll - r->log_lost_told[k]);
			r->log_lost_told[k] = ll;
			leave(p);
		}
	}
	return n;
}

static void live_add(struct sub_plugin *p, struct mapsample_location *loc)
{
	if (p->nlive == p->caplive) {
		size_t cap = p->caplive ? p->caplive * 2 : 16;
		struct mapsample_location **n =
			realloc(p->live, cap * sizeof(*n));
		if (!n)
			return;
		p->live = n;
		p->caplive = cap;
	}
	p->live[p->nlive++] = loc;
}

static void live_del(struct sub_plugin *p, struct mapsample_location *loc)
{
	for (size_t i = 0; i < p->nlive; i++)
		if (p->live[i] == loc) {
			p->live[i] = p->live[--p->nlive];
			return;
		}
}

extern char **sub_argv __attribute__((visibility("hidden")));
extern int sub_argc __attribute__((visibility("hidden")));
extern const char *sub_exe __attribute__((visibility("hidden")));

/* The end of a location for p: THREAD_END (unless it is the first of the
 * image, whose PROGRAM_END comes instead), deactivate, delete. */
static void loc_end(struct sub_plugin *p, struct mapsample_location *loc,
		    uint64_t ts, int thread_end)
{
	mapsample_event_thread_cb te =
		EV(p, mapsample_event_thread_cb, MAPSAMPLE_EVENT_THREAD_END);
	if (thread_end && te)
		te(loc, ts);
	if (p->info.deactivate_cpu_location)
		p->info.deactivate_cpu_location(loc, loc->parent);
	if (p->info.delete_location)
		p->info.delete_location(loc);
	live_del(p, loc);
	subrun_unref(loc);
}

static void deliver_msg(struct sub_plugin *p, const struct sub_msg *m,
			int hurry)
{
	struct mapsample_location *loc = m->loc;
	int pi = plugin_index(p);
	switch (m->type) {
	case SUB_MSG_BEGIN: {
		if (!enter(p)) {
			subrun_unref(loc);
			return;
		}
		running_plugin = p;
		if (p->info.create_location)
			p->info.create_location(loc, loc->parent);
		if (p->info.activate_cpu_location)
			p->info.activate_cpu_location(loc, loc->parent,
						      loc->fork_seq);
		__atomic_store_n(&loc->created[pi], 1, __ATOMIC_RELEASE);
		live_add(p, loc);
		if (loc->first && !loc->forked && S.image > 0) {
			mapsample_event_exec_cb f = EV(
				p, mapsample_event_exec_cb, MAPSAMPLE_EVENT_EXEC);
			if (f)
				f(loc, m->ts, sub_exe);
		}
		if (loc->first && !loc->forked) {
			mapsample_event_program_begin_cb f =
				EV(p, mapsample_event_program_begin_cb,
				   MAPSAMPLE_EVENT_PROGRAM_BEGIN);
			if (f)
				f(loc, m->ts, sub_exe, sub_argc,
				  (const char *const *)sub_argv);
		} else {
			mapsample_event_thread_cb f =
				EV(p, mapsample_event_thread_cb,
				   MAPSAMPLE_EVENT_THREAD_BEGIN);
			if (f)
				f(loc, m->ts);
		}
		mapsample_event_drop_cb d =
			EV(p, mapsample_event_drop_cb, MAPSAMPLE_EVENT_DROP);
		if (loc->early && d && p->ev[MAPSAMPLE_EVENT_SAMPLE])
			d(loc, m->ts, MAPSAMPLE_DROP_BEFORE_LOCATION, loc->early);
		leave(p);
		break;
	}
	case SUB_MSG_END:
		drain(p, loc, hurry);
		if (loc->first) /* ends with PROGRAM_END */
			break;
		if (enter(p)) {
			running_plugin = p;
			loc_end(p, loc, m->ts, 1);
			leave(p);
		}
		break;
	case SUB_MSG_INIT_MPP:
		if (enter(p)) {
			running_plugin = p;
			if (m->how) /* the MPI layer said MPI_Init is done */
				tell_defs(p, subdefs_get(
					MAPSAMPLE_HANDLE_TYPE_PARADIGM, "MPI"));
			if (p->info.init_mpp)
				p->info.init_mpp();
			leave(p);
		}
		break;
	case SUB_MSG_PROGRAM_END: {
		struct mapsample_location *first = NULL;
		for (size_t i = p->nlive; i-- > 0;) {
			struct mapsample_location *l = p->live[i];
			drain(p, l, hurry);
			if (l->first) {
				first = l;
				continue;
			}
			if (enter(p)) {
				running_plugin = p;
				loc_end(p, l, m->ts, 1);
				leave(p);
			}
		}
		if (!enter(p))
			break;
		running_plugin = p;
		if (first) {
			mapsample_event_program_end_cb f =
				EV(p, mapsample_event_program_end_cb,
				   MAPSAMPLE_EVENT_PROGRAM_END);
			if (f)
				f(first, m->ts, m->how, m->code);
			loc_end(p, first, m->ts, 0);
		}
		if (p->info.pre_unify)
			p->info.pre_unify();
		if (p->info.write_data)
			p->info.write_data();
		/* dump_manifest and finalize: the caller, which records the
		 * manifest (substrate.c) */
		leave(p);
		break;
	}
	}
}

/* A batch that has waited SUB_STALE_NS (its thread has put nothing
 * since: it sleeps, or samples rarely), flushed here as its producer
 * would, when the slot's busy flag is free.  While the flag is held
 * here (a copy of at most SUB_STAGE bytes) the thread's own events count
 * as the sampler's losses, as when its handler is busy; an idle thread
 * has next to none.  Between enter() and leave(), so a fork waits for
 * it and no child inherits the flag held. */
static void flush_stale(struct sub_plugin *p, struct mapsample_location *loc,
			uint64_t now)
{
	uint64_t first = __atomic_load_n(&loc->st_first, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&loc->st_fill, __ATOMIC_RELAXED) ||
	    now < first || now - first < SUB_STALE_NS)
		return;
	struct tslot *t = &S.slots[loc->slot];
	enter(p);
	if (!__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST)) {
		if (__atomic_load_n(&SUB.cur[loc->slot].loc,
				    __ATOMIC_ACQUIRE) == loc)
			subrun_flush(loc);
		__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	}
	leave(p);
}

/* One pass: the queued messages, then the rings.  Returns 1 when there
 * was nothing to do. */
static int pass(struct sub_plugin *p)
{
	int idle = 1;
	int hurry = __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) > 1;
	for (;;) {
		struct sub_msg m;
		pthread_mutex_lock(&p->qlock);
		int have = p->qdone < p->qn;
		if (have)
			m = p->q[p->qdone++];
		pthread_mutex_unlock(&p->qlock);
		if (!have)
			break;
		idle = 0;
		deliver_msg(p, &m, hurry);
		__atomic_fetch_add(&p->qdelivered, 1, __ATOMIC_RELEASE);
	}
	uint64_t now = p->nlive ? now_ns() : 0;
	for (size_t i = 0; i < p->nlive; i++) {
		flush_stale(p, p->live[i], now);
		if (drain(p, p->live[i], hurry))
			idle = 0;
	}
	return idle;
}

/* The image ended through _exit (SUB.end_req): the calls the ending
 * thread could not make, made here, where any code may run. */
static void end_here(struct sub_plugin *p)
{
	int hurry = __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) > 1;
	if (SUB.end_mpp) {
		struct sub_msg m = {.type = SUB_MSG_INIT_MPP, .ts = SUB.end_ts};
		deliver_msg(p, &m, hurry);
	}
	struct sub_msg m = {.type = SUB_MSG_PROGRAM_END, .ts = SUB.end_ts,
			    .how = SUB.end_how, .code = SUB.end_code};
	deliver_msg(p, &m, hurry);
	if (SUB.end_plugin && enter(p)) {
		SUB.end_plugin(p);
		leave(p);
	}
}

static void *disp_main(void *arg)
{
	struct sub_plugin *p = arg;
	sigset_t all;
	sigfillset(&all);
	real_pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_store_n(&p->tid, (int)sys_gettid(), __ATOMIC_RELEASE);
	running_plugin = p;
	for (;;) {
		__atomic_store_n(&p->wake, 0, __ATOMIC_SEQ_CST);
		int idle = pass(p);
		if (idle && __atomic_load_n(&SUB.end_req, __ATOMIC_ACQUIRE)) {
			end_here(p);
			break;
		}
		if (idle && __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			break;
		if (idle) {
			/* until a producer wakes us (a message, a ring half
			 * full, the end) or IDLE_WAIT_NS passed */
			struct timespec ts = {0, IDLE_WAIT_NS};
			syscall(SYS_futex, &p->wake, FUTEX_WAIT_PRIVATE, 0, &ts,
				NULL, 0);
		}
	}
	__atomic_store_n(&p->tid, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

void subrun_start(void)
{
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		if (p->running || p->off)
			continue;
		p->stop = 0;
		p->done = 0;
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 256 << 10);
		if (sampler_thread_create(&p->thread, &a, disp_main, p) == 0)
			p->running = 1;
		pthread_attr_destroy(&a);
	}
}

void subrun_stop(int wait_ms)
{
	int self = (int)sys_gettid();
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		if (!p->running)
			continue;
		__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
		subrun_wake(p);
		if (__atomic_load_n(&p->tid, __ATOMIC_ACQUIRE) == self) {
			/* the process is ended from this very dispatcher (a
			 * plugin called exit): finish its queue here */
			__atomic_store_n(&p->stop, 2, __ATOMIC_RELEASE);
			while (!pass(p))
				;
			p->running = 0;
			continue;
		}
	}
	/* a backlog gets wait_ms to drain, then is dropped (counted) */
	uint64_t until = now_ns() + (uint64_t)wait_ms * 1000000u;
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		if (!p->running)
			continue;
		while (!__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) &&
		       now_ns() < until) {
			struct timespec ms = {0, 1000000L};
			nanosleep(&ms, NULL);
		}
		__atomic_store_n(&p->stop, 2, __ATOMIC_RELEASE);
		subrun_wake(p);
		pthread_join(p->thread, NULL);
		p->running = 0;
	}
}

void subrun_end_wait(int backlog_ms, int last_ms)
{
	int self = (int)sys_gettid();
	for (int i = 0; i < SUB.n; i++)
		if (SUB.p[i].running)
			subrun_wake(&SUB.p[i]);
	uint64_t t0 = now_ns();
	for (int round = 0; round < 2; round++) {
		uint64_t until = t0 + (uint64_t)backlog_ms * 1000000u +
				 (round ? (uint64_t)last_ms * 1000000u : 0);
		for (int i = 0; i < SUB.n; i++) {
			struct sub_plugin *p = &SUB.p[i];
			if (!p->running ||
			    __atomic_load_n(&p->tid, __ATOMIC_ACQUIRE) == self)
				continue;
			while (!__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) &&
			       now_ns() < until) {
				struct timespec ms = {0, 1000000L};
				nanosleep(&ms, NULL);
			}
			if (!round &&
			    !__atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) {
				/* the backlog's time is up: the rest is
				 * dropped, counted */
				__atomic_store_n(&p->stop, 2, __ATOMIC_RELEASE);
				subrun_wake(p);
			}
		}
	}
}

int subrun_owns(int tid)
{
	for (int i = 0; i < SUB.n; i++)
		if (tid && __atomic_load_n(&SUB.p[i].tid, __ATOMIC_ACQUIRE) == tid)
			return 1;
	return 0;
}

void subrun_fork_prepare(void)
{
	/* the messages queued so far delivered first (bounded): the child
	 * starts with an empty queue, and its first location names the
	 * forking thread's as parent, which its plugin must have created */
	uint64_t qt = now_ns() + FORK_QUEUE_WAIT_MS * 1000000ull;
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		if (!p->running || p->off ||
		    __atomic_load_n(&p->tid, __ATOMIC_ACQUIRE) == (int)sys_gettid())
			continue;
		subrun_wake(p);
		for (;;) {
			pthread_mutex_lock(&p->qlock);
			size_t queued = p->qn;
			pthread_mutex_unlock(&p->qlock);
			int left = __atomic_load_n(&p->qdelivered,
						   __ATOMIC_ACQUIRE) < queued;
			if (!left || now_ns() >= qt)
				break;
			struct timespec us = {0, 200000L};
			nanosleep(&us, NULL);
		}
	}
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		__atomic_store_n(&p->hold, 1, __ATOMIC_SEQ_CST);
	}
	uint64_t until = now_ns() + FORK_WAIT_MS * 1000000ull;
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		while (__atomic_load_n(&p->held, __ATOMIC_SEQ_CST) &&
		       now_ns() < until) {
			struct timespec us = {0, 100000L};
			nanosleep(&us, NULL);
		}
		pthread_mutex_lock(&p->qlock);
	}
	subdefs_fork_prepare();
}

void subrun_fork_parent(void)
{
	subdefs_fork_parent();
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		pthread_mutex_unlock(&p->qlock);
		__atomic_store_n(&p->hold, 0, __ATOMIC_SEQ_CST);
	}
}

void subrun_fork_child(void)
{
	subdefs_fork_child();
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		pthread_mutex_init(&p->qlock, NULL);
		if (p->held && !p->off) {
			/* its dispatcher was inside a call at the fork */
			subrun_off(p);
			fprintf(stderr, "mapsample: substrate plugin %s: busy "
					"in a call when process %d forked; off in "
					"the child\n", p->name, (int)getpid());
		}
		p->hold = 0;
		p->held = 0;
		p->running = 0;
		p->stop = 0;
		p->tid = 0;
		p->wake = 0;
		/* the parent's messages and locations are the parent's */
		p->qn = p->qdone = p->qdelivered = 0;
		p->nlive = 0;
		p->behind = 0;
	}
}
