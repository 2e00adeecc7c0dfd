/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sample: the stack sample, the first callback the sampling handler runs
 * (handler.c; registered by the constructor), and the choice of stack
 * walk.
 *
 * sample_stack() is async-signal-safe end to end: it walks the stack with
 * libunwind's local unwinder (whose dl_iterate_phdr calls we answer from
 * a snapshot while in_handler is set, see objects.c) and encodes into
 * its thread's chunk with mapwrite (stream.c), which maps a new chunk
 * with raw system calls when one fills.  It never takes a lock and never
 * calls malloc.
 *
 * Two libunwind walks, the same addresses:
 * - the fast trace, unw_backtrace(): libunwind keeps a per-thread cache of
 *   frame shapes (where the CFA, return address and saved RBP are) keyed
 *   by address, so a frame seen before costs a hash lookup and two loads
 *   instead of a DWARF evaluation (measured here: 0.7 us + 8 ns per frame
 *   against about 300 ns per frame).  It starts in the callback itself,
 *   so the handler's frames and the signal frame come first and are cut
 *   off at the pair (signal trampoline, interrupted PC).  Its memory comes
 *   from libunwind's mmap-backed pool, made for use in signal handlers;
 *   the first call of each thread creates that thread's cache and sets a
 *   pthread key (done outside the handler for every thread we start:
 *   sample_thread_warm_up());
 * - the step walk, unw_init_local2() on the signal context and unw_step().
 * The fast trace is used when the start-up self-test (walks_agree()) saw
 * both report the same addresses, unless MAPSAMPLE_UNWIND=step asks for
 * the step walk, and only until the first dlclose(): its cache cannot be
 * flushed, and code loaded later at the same address would be walked with
 * the old shapes.  Whenever it does not find the interrupted frame, the
 * step walk runs instead.
 *
 * Both walks take libunwind's locks: on every step the lock of the
 * address space's register-state cache (libunwind 1.6 as Debian builds
 * it has no per-thread cache: UNW_CACHE_PER_THREAD, which the
 * constructor asks for, silently becomes UNW_CACHE_GLOBAL), held across
 * the lookup of the frame's unwind information, and the locks of its
 * memory pools.  A fork child inherits them as they were at the fork,
 * held for ever if another thread held them then, and its own first walk
 * hangs there.  So before a fork every walk must be over and no new one
 * may start (process_fork_prepare()): the handler's walks drop while
 * S.forking is set, and the walks made outside the handler (the
 * warm-ups) count themselves in `walkers` and wait for the fork to end
 * before they start.  When the fork could not wait that long, the child
 * walks no stack at all (sample_after_fork_child()): its samples keep
 * only the interrupted address, counted as unwind drops.
 *
 * One more holder of a pool lock is not a walk: at a thread's exit the
 * destructor of libunwind's trace-cache key gives the thread's cache back
 * to its pool under the pool's lock.  A thread ending while another
 * forked left that lock held in the child, whose next new thread then
 * hung in its warm-up (test/programs/forkthreads: 6 runs of 6 with
 * liblockwiden).  So pthread_key_create() (interpose.c) registers that
 * destructor wrapped (sample_key_dtor()): it runs as a walk, counted in
 * `walkers` after any fork under way, and not at all in a child that
 * walks no stack (the cache's pages are left; the thread is ending).
 *
 * Calls stream.c and objects.c below it and lib/pluginapi's warnings.
 */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <libunwind.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

/* Frames of the handler and its callback that the fast trace walks
 * before the signal frame: a handful; room for more. */
#define WALK_SLACK 32

/* One buffer for both walks: libunwind fills void pointers, the log
 * takes 64-bit words (the same bytes on the 64-bit targets we build). */
union walk_buf {
	void *v[SAMPLER_MAX_DEPTH + WALK_SLACK];
	uint64_t u[SAMPLER_MAX_DEPTH + WALK_SLACK];
};
_Static_assert(sizeof(void *) == sizeof(uint64_t), "64-bit addresses");

/* 1: the handler tries the fast trace first (see the top of this file). */
static int fast_walk;
/* Walks outside the handler under way (walk_enter()). */
static int walkers;
/* 1 in a fork child whose parent forked while a walk may still have
 * held one of libunwind's locks: no stack walk in this process image. */
static int no_walk;
/* MAPSAMPLE_UNWIND=fast or step: that walk, and a line at the end with
 * how many samples each walk took (test/integration/mapsample-basic.sh). */
static int walk_report;
static uint64_t walks_fast, walks_step;

/* The step walk from the signal context; frames, 0 when it failed.
 * Async-signal-safe. */
static uint32_t walk_step(union walk_buf *pc, uint32_t depth, ucontext_t *uc)
{
	uint32_t n = 0;
	unw_cursor_t cur;
	if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME))
		return 0;
	do {
		unw_word_t ip;
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		pc->u[n++] = ip;
	} while (n < depth && unw_step(&cur) > 0);
	return n;
}

/* The fast trace, called from a callback of the handler whose return
 * address is tramp (the signal trampoline); keeps the frames from the
 * interrupted one, ip0, on.  Frames, or 0 when the pair (tramp, ip0) is
 * not among the first WALK_SLACK addresses.  Async-signal-safe. */
static __attribute__((noinline)) uint32_t
walk_fast(union walk_buf *pc, uint32_t depth, uint64_t ip0, uint64_t tramp)
{
	int n = unw_backtrace(pc->v, (int)(depth + WALK_SLACK));
	for (int i = 0; i + 1 < n && i < WALK_SLACK; i++) {
		if (pc->u[i] != tramp || pc->u[i + 1] != ip0)
			continue;
		uint32_t m = (uint32_t)(n - i - 1);
		if (m > depth)
			m = depth;
		__builtin_memmove(pc->u, pc->u + i + 1, m * sizeof(uint64_t));
		return m;
	}
	return 0;
}

/*
 * Start-up self-test, outside signal context: do the fast trace and the
 * step walk report the same return addresses for this call chain?  (Both
 * give raw return addresses in the libunwind we build against; a version
 * that moved them back by one byte would fail here and get the step walk.)
 */
static __attribute__((noinline)) int walks_agree(void)
{
	void *fast[64];
	uint64_t slow[64];
	int nf = unw_backtrace(fast, 64);
	unw_context_t ctx;
	unw_cursor_t cur;
	int ns = 0;
	unw_getcontext(&ctx);
	if (unw_init_local(&cur, &ctx))
		return 0;
	do {
		unw_word_t ip;
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		slow[ns++] = ip;
	} while (ns < 64 && unw_step(&cur) > 0);
	/* [0] differs: the call of unw_backtrace, the call of unw_getcontext */
	int common = nf < ns ? nf : ns;
	if (common < 3)
		return 0;
	for (int i = 1; i < common; i++)
		if ((uint64_t)fast[i] != slow[i])
			return 0;
	return 1;
}

/* Before a walk outside signal context: counts it in `walkers`, first
 * waiting for a fork under way to end (see the top of this file).  The
 * store and the load are sequentially consistent, as are S.forking's
 * store and the load of `walkers` in process_fork_prepare(): a fork sees
 * the walk, or the walk sees the fork.  Returns 0 when no walk may be
 * made (sample_after_fork_child()); else walk_leave() follows. */
static int walk_enter(void)
{
	for (;;) {
		if (__atomic_load_n(&no_walk, __ATOMIC_RELAXED))
			return 0;
		__atomic_add_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&S.forking, __ATOMIC_SEQ_CST))
			return 1;
		__atomic_sub_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&S.forking, __ATOMIC_SEQ_CST))
			sched_yield();
	}
}

static void walk_leave(void)
{
	__atomic_sub_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
}

int sample_walkers(void)
{
	return __atomic_load_n(&walkers, __ATOMIC_SEQ_CST);
}

/* libunwind's text, found before its first call creates its key */
static uint64_t unw_lo, unw_hi;
/* the destructor it registered for its trace-cache key */
static sample_dtor_fn unw_dtor;

static void unw_dtor_walk(void *v)
{
	sample_dtor_fn dtor = __atomic_load_n(&unw_dtor, __ATOMIC_ACQUIRE);
	if (dtor && walk_enter()) {
		dtor(v);
		walk_leave();
	}
}

sample_dtor_fn sample_key_dtor(sample_dtor_fn dtor)
{
	uint64_t a = (uint64_t)(uintptr_t)dtor;
	if (!dtor || a < unw_lo || a >= unw_hi)
		return dtor;
	sample_dtor_fn none = NULL;
	/* one key in the libunwind we build against; another destructor
	 * of its (another version's) is left as it is */
	if (!__atomic_compare_exchange_n(&unw_dtor, &none, dtor, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
	    none != dtor)
		return dtor;
	return unw_dtor_walk;
}

void sample_after_fork_child(int locks_free)
{
	/* the walks were the parent's other threads' */
	walkers = 0;
	if (!locks_free)
		__atomic_store_n(&no_walk, 1, __ATOMIC_RELAXED);
}

void sample_fast_walk_off(void)
{
	__atomic_store_n(&fast_walk, 0, __ATOMIC_RELAXED);
}

void sample_thread_warm_up(void)
{
	if (__atomic_load_n(&fast_walk, __ATOMIC_RELAXED) && walk_enter()) {
		/* As in the handler, dl_iterate_phdr answers from the snapshot
		 * (objects.c).  On a cache miss libunwind looks the object up
		 * while it holds its cache lock; with glibc's dl_iterate_phdr it
		 * would wait there for the loader lock, which another thread
		 * may hold in dlopen while its sampling handler waits for that
		 * same cache lock: the deadlock of SAMPLER-NOTES item 10, seen
		 * when threads start during dlopen (test/programs/dlloop with
		 * SPAWN 1). */
		int was = in_handler;
		in_handler = 1;
		void *b[2];
		unw_backtrace(b, 2);
		in_handler = was;
		walk_leave();
	}
}

void sample_stack(struct tslot *t, const struct handler_tick *tick)
{
	union walk_buf pc;
	uint32_t n = 0;
	int was = in_handler; /* set if this interrupted a warm-up */
	in_handler = 1;
	int walk = !__atomic_load_n(&no_walk, __ATOMIC_RELAXED);
	if (walk && __atomic_load_n(&fast_walk, __ATOMIC_RELAXED))
		n = walk_fast(&pc, S.cfg.depth, tick->ip, tick->tramp);
	if (n == 0 && walk) {
		n = walk_step(&pc, S.cfg.depth, tick->uc);
		/* counted per sample written (a tick that stands for
		 * several periods is one walk and that many samples) */
		if (walk_report)
			__atomic_fetch_add(&walks_step, tick->repeat,
					   __ATOMIC_RELAXED);
	} else if (walk_report) {
		__atomic_fetch_add(&walks_fast, tick->repeat, __ATOMIC_RELAXED);
	}
	in_handler = was;
	if (n == 0) {
		pc.u[n++] = tick->ip;
		slot_drop(t, MAPLOG_DROP_UNWIND, 1);
	}
	/* a tick that stands for several periods (handler.c): as many
	 * samples, the weight shared out, the last taking the rest */
	uint64_t w = tick->weight / tick->repeat;
	for (uint32_t i = 0; i < tick->repeat; i++) {
		uint64_t wi = i + 1 < tick->repeat
				      ? w
				      : tick->weight - w * (tick->repeat - 1);
		substrate_sample(t, tick->ts, wi, n, pc.u, 0);
		if (stream_sample(t, tick->ts, wi, n, pc.u) == 0)
			t->samples++;
		else
			slot_drop(t, MAPLOG_DROP_BUFFER_FULL, 1);
		if ((t->samples & 255) == 0)
			stream_flush_drops(t);
	}
	substrate_drops(t);
}

/*
 * Walks our own stack once outside signal context so libunwind has
 * resolved its lazy symbols and built its caches for the objects loaded
 * now before the first signal arrives.
 */
void sample_warm_up(void)
{
	unw_context_t ctx;
	unw_cursor_t cur;
	/* before libunwind's first call registers its key's destructor */
	uint64_t lo, hi;
	if (objects_text_of((uint64_t)(uintptr_t)&unw_backtrace, &lo, &hi) == 0) {
		unw_lo = lo;
		unw_hi = hi;
	}
	/* a thread that ran before the constructor may fork meanwhile */
	int entered = walk_enter();
	unw_getcontext(&ctx);
	if (unw_init_local(&cur, &ctx) == 0) {
		int n = 0;
		while (n++ < 64 && unw_step(&cur) > 0)
			;
	}
	const char *u = getenv("MAPSAMPLE_UNWIND");
	int want = !(u && strcmp(u, "step") == 0);
	walk_report = u && (strcmp(u, "step") == 0 || strcmp(u, "fast") == 0);
	walks_fast = walks_step = 0;
	/* the self-test also creates this thread's fast-trace cache */
	int ok = want && walks_agree();
	if (entered)
		walk_leave();
	if (want && !ok && walk_report)
		pluginapi_warn("libunwind's fast trace and step walk "
			       "disagree at start-up; using the step walk");
	__atomic_store_n(&fast_walk, ok, __ATOMIC_RELAXED);
}

void sample_walk_report(int sigctx)
{
	if (walk_report && !sigctx)
		pluginapi_warn("stack walks: pid %u fast %llu step %llu",
			       S.pid,
			       (unsigned long long)__atomic_load_n(
				       &walks_fast, __ATOMIC_RELAXED),
			       (unsigned long long)__atomic_load_n(
				       &walks_step, __ATOMIC_RELAXED));
}
