/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * slot: the table of thread slots (struct tslot, sampler_i.h).  A thread
 * claims a slot by compare-and-swap on its tid and finds its own again
 * through a thread-local cache; a closer keeps a slot's owner out of the
 * handler with the busy/closing handshake (slot_quiesce()).  Lookups are
 * async-signal-safe: the sampling handler finds its thread's slot here.
 * Calls only stream.c (a claimed slot's stack table).
 */
#include <sched.h>

#include "sampler/sampler_i.h"

static __thread struct tslot *my_slot __attribute__((tls_model("initial-exec")));
static int slots_hi; /* slot_limit() */

int slot_limit(void)
{
	return __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
}

/* Finds the slot of tid, or NULL.  Async-signal-safe. */
struct tslot *slot_find(int tid)
{
	int n = slot_limit();
	for (int i = 0; i < n; i++)
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
			/* below the limit before anyone can find it */
			int hi = __atomic_load_n(&slots_hi, __ATOMIC_RELAXED);
			while (hi < i + 1 &&
			       !__atomic_compare_exchange_n(
				       &slots_hi, &hi, i + 1, 0,
				       __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				;
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
