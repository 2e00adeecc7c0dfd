/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sample: the sampling signal handler and the thread-slot table.
 *
 * The handler is async-signal-safe end to end: it reads the clock through
 * the vDSO, walks the stack with libunwind's local unwinder (whose
 * dl_iterate_phdr calls we answer from a snapshot while in_handler is
 * set, see maps.c), encodes into its thread's chunk with mapwrite, and
 * maps a new chunk with raw system calls when one fills.  It never takes
 * a lock and never calls malloc.  errno is saved and restored.
 *
 * Two libunwind walks, the same addresses:
 * - the fast trace, unw_backtrace(): libunwind keeps a per-thread cache of
 *   frame shapes (where the CFA, return address and saved RBP are) keyed
 *   by address, so a frame seen before costs a hash lookup and two loads
 *   instead of a DWARF evaluation (measured here: 0.7 us + 8 ns per frame
 *   against about 300 ns per frame).  It starts in the handler itself, so
 *   the handler's frames and the signal frame come first and are cut off
 *   at the pair (signal trampoline, interrupted PC).  Its memory comes
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
 * A slot's `busy` flag is both the recursion guard (a signal that lands
 * while the thread is already inside the handler is dropped and counted)
 * and one half of the handshake with a closer (see sampler_i.h).
 */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <libunwind.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

static __thread struct tslot *my_slot __attribute__((tls_model("initial-exec")));

uint32_t sys_gettid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* Finds the slot of tid, or NULL.  Async-signal-safe. */
static struct tslot *slot_find(int tid)
{
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
		if (__atomic_load_n(&S.slots[i].tid, __ATOMIC_ACQUIRE) == tid)
			return &S.slots[i];
	return NULL;
}

/*
 * The calling thread's slot, or NULL.  Cached in a thread-local, which is
 * cleared wherever a thread's slot can change: slot_release() on the
 * thread itself, and slot_forget_self() in a fork child.  No system call
 * once cached.  Async-signal-safe.
 */
struct tslot *slot_self(void)
{
	struct tslot *t = my_slot;
	if (t)
		return t;
	t = slot_find((int)sys_gettid());
	my_slot = t;
	return t;
}

void slot_forget_self(void)
{
	my_slot = NULL;
}

struct tslot *slot_claim(int tid)
{
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		int expect = 0;
		struct tslot *t = &S.slots[i];
		if (__atomic_load_n(&t->tid, __ATOMIC_RELAXED) != 0)
			continue;
		if (__atomic_compare_exchange_n(&t->tid, &expect, -1, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			/* owned, not yet visible to slot_find */
			t->busy = 0;
			t->closing = 0;
			t->armed = 0;
			t->tk = TK_NONE;
			t->perf_fd = -1;
			if (stream_slot_init(t, tid)) {
				__atomic_store_n(&t->tid, 0, __ATOMIC_RELEASE);
				return NULL;
			}
			__atomic_store_n(&t->tid, tid, __ATOMIC_RELEASE);
			return t;
		}
	}
	return NULL;
}

void slot_quiesce(struct tslot *t)
{
	__atomic_store_n(&t->closing, 1, __ATOMIC_SEQ_CST);
	/* a handler that set busy before seeing closing finishes quickly;
	 * bound the wait in case its thread was stopped (it is then not
	 * writing either) */
	for (int i = 0; i < 100000 && __atomic_load_n(&t->busy, __ATOMIC_SEQ_CST);
	     i++)
		sched_yield();
}

void slot_release(struct tslot *t)
{
	if (my_slot == t)
		my_slot = NULL;
	__atomic_store_n(&t->tid, 0, __ATOMIC_RELEASE);
}

/* Is pc inside libmapsampler itself? */
static int in_self(uint64_t pc)
{
	return pc >= S.self_lo && pc < S.self_hi;
}

/* Frames of the handler itself that the fast trace walks before the
 * signal frame: a handful; room for more. */
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

/* The fast trace, called from the handler whose return address is
 * tramp (the signal trampoline); keeps the frames from the interrupted
 * one, ip0, on.  Frames, or 0 when the pair (tramp, ip0) is not among
 * the first WALK_SLACK addresses.  Async-signal-safe. */
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

void sample_fast_walk_off(void)
{
	__atomic_store_n(&fast_walk, 0, __ATOMIC_RELAXED);
}

void sample_thread_warm_up(void)
{
	if (__atomic_load_n(&fast_walk, __ATOMIC_RELAXED)) {
		void *b[2];
		unw_backtrace(b, 2);
	}
}

void sample_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	int saved_errno = errno;
	struct tslot *t = slot_self();
	if (!t || !__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE)) {
		__atomic_fetch_add(&S.unregistered, 1, __ATOMIC_RELAXED);
		errno = saved_errno;
		return;
	}
	if (__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST)) {
		/* landed inside our own handler on this thread: this overflow
		 * disabled the one-shot perf event again, so re-enable it */
		t->dropped[MAPLOG_DROP_IN_SAMPLER]++;
		timer_rearm(t);
		errno = saved_errno;
		return;
	}
	if (__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE))
		goto out;

	uint64_t ts = now_ns();
	uint64_t weight = S.period_ns;
	if (si->si_code == SI_TIMER && si->si_overrun > 0)
		weight *= (uint64_t)si->si_overrun + 1;

	ucontext_t *uc = ucv;
	union walk_buf pc;
	uint32_t n = 0;
	uint64_t ip0 = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	if (in_self(ip0)) {
		t->dropped[MAPLOG_DROP_IN_SAMPLER]++;
		goto rearm;
	}
	in_handler = 1;
	if (__atomic_load_n(&fast_walk, __ATOMIC_RELAXED))
		n = walk_fast(&pc, S.cfg.depth, ip0,
			      (uint64_t)__builtin_return_address(0));
	if (n == 0) {
		n = walk_step(&pc, S.cfg.depth, uc);
		if (walk_report)
			__atomic_fetch_add(&walks_step, 1, __ATOMIC_RELAXED);
	} else if (walk_report) {
		__atomic_fetch_add(&walks_fast, 1, __ATOMIC_RELAXED);
	}
	in_handler = 0;
	if (n == 0) {
		pc.u[n++] = ip0;
		t->dropped[MAPLOG_DROP_UNWIND]++;
	}
	if (stream_sample(t, ts, weight, n, pc.u) == 0)
		t->samples++;
	else
		t->dropped[MAPLOG_DROP_BUFFER_FULL]++;
	if ((t->samples & 255) == 0)
		stream_flush_drops(t);
	metrics_tick_from_handler(t, ts);
rearm:
	timer_rearm(t);
out:
	__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	errno = saved_errno;
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
	if (want && !ok && walk_report)
		pluginapi_warn("libunwind's fast trace and step walk disagree at "
			  "start-up; using the step walk");
	__atomic_store_n(&fast_walk, ok, __ATOMIC_RELAXED);
}

void sample_walk_report(int sigctx)
{
	if (walk_report && !sigctx)
		pluginapi_warn("stack walks: pid %u fast %llu step %llu", S.pid,
			  (unsigned long long)__atomic_load_n(&walks_fast,
							      __ATOMIC_RELAXED),
			  (unsigned long long)__atomic_load_n(&walks_step,
							      __ATOMIC_RELAXED));
}
