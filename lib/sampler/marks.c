/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * marks: the calls of <mapsample/mark.h> as the sampler defines them.
 * libmapsampler.so is preloaded, so these definitions come before
 * libmapsample-mark's (which do nothing) and before the weak references
 * of MAPSAMPLE_MARK_WEAK: a program's mapsample_mark("x") lands here.
 *
 * Each call writes one MARK record (mapsample-log(5)) into the calling
 * thread's own stream, the one its samples go to, with the time and the
 * kind in mk_value (MAPLOG_MARK_POINT, _REGION_BEGIN, _REGION_END).  The
 * thread becomes the slot's writer as the sampling handler does, by
 * taking the slot's busy flag; if the flag is already held (the call
 * came from a signal handler that interrupted the sampler or another
 * mark on this thread) the mark is lost, never waited for; so is one
 * that finds no chunk space (once the log cannot grow, marks open no
 * chunk, as samples do not: the last ones are for the end records).
 * Lost marks are counted in the slot's
 * dropped[MAPLOG_DROP_MARK] (slot_drop(), atomically: the call that lost
 * it may have interrupted another that is counting) and written as DROP records of
 * that reason with the slot's other drops; a lost region end still
 * shows as a region never ended.
 * A sampling signal that lands while a mark is written finds the flag
 * held and drops its sample (counted, as any signal inside the sampler).
 * Threads without a slot, and calls before the sampler started or once
 * the process is closing, record nothing.
 *
 * Async-signal-safe: a thread-local lookup, atomics, the vDSO clock and
 * stream.c's record writer; no lock, no malloc.  Calls slot.c and
 * stream.c below it.
 */
#include <string.h>

#include <mapsample/mark.h>

#include "sampler/sampler_i.h"

/* Counts a mark of slot t that could not be written.  Async-signal-safe
 * (one atomic add). */
static void mark_lost(struct tslot *t)
{
	slot_drop(t, MAPLOG_DROP_MARK, 1);
}

/* Writes a MARK record of kind for name on the calling thread's stream.
 * Async-signal-safe. */
static void mark_put(uint64_t kind, const char *name)
{
	if (!__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE))
		return;
	struct tslot *t = slot_self();
	if (!t)
		return;
	if (__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST)) {
		mark_lost(t);
		return;
	}
	if (!__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE)) {
		/* the program may change or free name once we return, and a
		 * long one would fill chunks: copy at most the bytes kept */
		char text[MAPSAMPLE_MARK_NAME_MAX + 1];
		size_t n = name ? strnlen(name, MAPSAMPLE_MARK_NAME_MAX) : 0;
		memcpy(text, name ? name : "", n);
		text[n] = '\0';
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MARK;
		ev.ev_ts = now_ns();
		ev.ev_u.mark.mk_tid = (uint32_t)t->tid;
		ev.ev_u.mark.mk_value = kind;
		ev.ev_u.mark.mk_text = text;
		if (stream_put_data(t, &ev) != 0)
			mark_lost(t);
		substrate_mark(t, ev.ev_ts, kind, text);
	}
	__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
}

/* <mapsample/mark.h>: a point mark.  Async-signal-safe. */
MAPS_EXPORT void mapsample_mark(const char *name)
{
	mark_put(MAPLOG_MARK_POINT, name);
}

/* <mapsample/mark.h>: the calling thread enters region name.
 * Async-signal-safe. */
MAPS_EXPORT void mapsample_region_begin(const char *name)
{
	mark_put(MAPLOG_MARK_REGION_BEGIN, name);
}

/* <mapsample/mark.h>: the calling thread leaves its innermost region (the
 * reader keeps the stack: the record carries no name).
 * Async-signal-safe. */
MAPS_EXPORT void mapsample_region_end(void)
{
	mark_put(MAPLOG_MARK_REGION_END, NULL);
}
