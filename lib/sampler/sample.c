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
 * A slot's `busy` flag is both the recursion guard (a signal that lands
 * while the thread is already inside the handler is dropped and counted)
 * and one half of the handshake with a closer (see sampler_i.h).
 */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <libunwind.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

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
	uint64_t pc[SAMPLER_MAX_DEPTH];
	uint32_t n = 0;
	uint64_t ip0 = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	if (in_self(ip0)) {
		t->dropped[MAPLOG_DROP_IN_SAMPLER]++;
		goto rearm;
	}
	in_handler = 1;
	unw_cursor_t cur;
	if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) ==
	    0) {
		do {
			unw_word_t ip;
			if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
				break;
			pc[n++] = ip;
		} while (n < S.cfg.depth && unw_step(&cur) > 0);
	}
	in_handler = 0;
	if (n == 0) {
		pc[n++] = ip0;
		t->dropped[MAPLOG_DROP_UNWIND]++;
	}
	if (stream_sample(t, ts, weight, n, pc) == 0)
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
}
