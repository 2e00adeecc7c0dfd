/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrate_put: the producer side of the substrate plugins' rings
 * (substrate_run.c's design note says why rings, and why a batch per
 * location).  A producer is whoever holds the location's slot busy flag:
 * the sampling handler, the off-CPU sampler, the thread's own mark or MPI
 * call, a dispatcher flushing a batch its thread left waiting.  Each
 * record goes into the location's batch (st_buf); the batch goes to the
 * rings of the plugins that take its records' types in one copy, with one
 * release store of each ring's head.  Everything here is
 * async-signal-safe: plain stores, atomics, at most one futex(2) call
 * (the wake-up of a dispatcher); no lock, no allocation.
 * Calls nothing of the host's above it (substrate.c, substrate_run.c).
 */
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "sampler/sampler_i.h"

_Static_assert(MAPSAMPLE_SUBSTRATES_NUM_EVENTS <= 32,
	       "SUB.take: one bit per event type");
_Static_assert(SUB_LOG_REASONS == MAPLOG_DROP_MARK + 1,
	       "SUB_LOG_REASONS: one per enum maplog_drop_reason");

/* Room in r for need bytes at head (with the pad to the ring's end
 * that keeps a record whole: *pad).  The dispatcher's tail is read only
 * when the ring looks half full by the last tail seen (its cache line
 * stays where it is written).  Async-signal-safe. */
static int ring_room(struct sub_ring *r, uint64_t head, uint32_t need,
		     uint64_t *pad)
{
	uint64_t off = head % SUBSTRATE_RING;
	*pad = off + need > SUBSTRATE_RING ? SUBSTRATE_RING - off : 0;
	if (head + *pad + need - r->tail_seen > SUBSTRATE_RING)
		r->tail_seen = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	return r->buf && head + *pad + need - r->tail_seen <= SUBSTRATE_RING;
}

/* The pad record of pad bytes (none when 0) at head in r; returns where
 * the next record goes.  Async-signal-safe. */
static uint64_t ring_pad(struct sub_ring *r, uint64_t head, uint64_t pad)
{
	if (pad) {
		struct sub_rec *pr =
			(struct sub_rec *)(r->buf + head % SUBSTRATE_RING);
		pr->size = (uint32_t)pad;
		pr->type = SUB_REC_PAD;
	}
	return head + pad;
}

/* A record r had no room for, counted: a loss the log counts (a DROP
 * record of a reason below SUB_LOG_REASONS) must not be lost itself, nor
 * told as one event of the plugin's: kept by reason, told by drain()
 * when the ring has room again.  Async-signal-safe. */
static void ring_lost(struct sub_ring *r, const struct sub_rec *rec,
		      const struct sub_rec_bc *bc)
{
	if (rec->type == MAPSAMPLE_EVENT_DROP && rec->a < SUB_LOG_REASONS) {
		__atomic_fetch_add(&r->log_lost[rec->a], bc->b,
				   __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&r->lost, 1, __ATOMIC_RELAXED);
	}
}

/* Publishes head (a release store: the records before it are whole) and
 * wakes p's dispatcher when the ring is half full, once per half ring.
 * Async-signal-safe: one release store, at most one futex(2) call. */
static void ring_publish(struct sub_plugin *p, struct sub_ring *r,
			 uint64_t head)
{
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	if (head - r->tail_seen >= SUBSTRATE_RING / 2) {
		r->tail_seen = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		if (head - r->tail_seen >= SUBSTRATE_RING / 2)
			subrun_wake(p);
	}
}

/* The records of [rec, end) that p takes (take: its SUB.take bits) into
 * r, those without room counted.  Async-signal-safe. */
static void ring_put_all(struct sub_plugin *p, struct sub_ring *r,
			 uint32_t take, const uint8_t *rec, const uint8_t *end)
{
	uint64_t head = r->head, start = head;
	for (; rec < end; rec += ((const struct sub_rec *)rec)->size) {
		const struct sub_rec *h = (const struct sub_rec *)rec;
		if (!(take >> h->type & 1))
			continue;
		uint64_t pad;
		if (ring_room(r, head, h->size, &pad)) {
			head = ring_pad(r, head, pad);
			memcpy(r->buf + head % SUBSTRATE_RING, h, h->size);
			head += h->size;
		} else {
			struct sub_rec_bc bc = {0, 0};
			if (h->type != MAPSAMPLE_EVENT_SAMPLE)
				memcpy(&bc, h + 1, sizeof(bc));
			ring_lost(r, h, &bc);
		}
	}
	if (head != start)
		ring_publish(p, r, head);
}

void subrun_off(struct sub_plugin *p)
{
	__atomic_store_n(&SUB.take[plugin_index(p)], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->off, 1, __ATOMIC_RELEASE);
}

void subrun_wake(struct sub_plugin *p)
{
	if (!__atomic_exchange_n(&p->wake, 1, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &p->wake, FUTEX_WAKE_PRIVATE, 1, NULL,
			NULL, 0);
}

void subrun_flush(struct mapsample_location *loc)
{
	uint32_t fill = loc->st_fill;
	if (!fill)
		return;
	for (int i = 0; i < SUB.n; i++) {
		uint32_t take = __atomic_load_n(&SUB.take[i], __ATOMIC_RELAXED);
		if (take)
			ring_put_all(&SUB.p[i], &loc->ring[i], take,
				     loc->st_buf, loc->st_buf + fill);
	}
	__atomic_store_n(&loc->st_fill, 0, __ATOMIC_RELAXED);
}

/* The record h (with bc unless a SAMPLE, pc, text as h says) at at.
 * Async-signal-safe. */
static void rec_write(uint8_t *at, const struct sub_rec *h,
		      const struct sub_rec_bc *bc, const uint64_t *pc,
		      const char *text)
{
	memcpy(at, h, sizeof(*h));
	at += sizeof(*h);
	if (h->type != MAPSAMPLE_EVENT_SAMPLE) {
		memcpy(at, bc, sizeof(*bc));
		at += sizeof(*bc);
	}
	if (h->npc) {
		memcpy(at, pc, (size_t)h->npc * 8);
		at += (size_t)h->npc * 8;
	}
	if (h->tlen)
		memcpy(at, text, h->tlen);
}

/* The record of type into loc's batch, when some plugin takes it; next
 * (may be NULL) gets where the location's next record goes.  A record
 * longer than the batch (a stack of some 250 frames and more) goes to
 * the rings at once, after the batch.  Async-signal-safe. */
static void put_all(struct mapsample_location *loc, uint16_t type,
		    uint64_t ts, uint64_t a, uint64_t b, uint64_t c, int64_t d,
		    uint32_t npc, const uint64_t *pc, const char *text,
		    const void **next)
{
	/* one line of SUB (the handler's), not the plugins' own lines */
	uint32_t any = 0;
	for (int i = 0; i < SUB.n; i++)
		any |= __atomic_load_n(&SUB.take[i], __ATOMIC_RELAXED);
	if (!(any >> type & 1))
		return;
	struct sub_rec h;
	struct sub_rec_bc bc = {b, c};
	size_t tl = text ? strnlen(text, 1024) : 0;
	size_t sz = rec_head(type) + (size_t)npc * 8 + tl;
	h.size = (uint32_t)((sz + 7) & ~(size_t)7);
	h.type = type;
	h.tlen = (uint16_t)tl;
	h.npc = npc;
	h.d = (int32_t)d;
	h.ts = ts;
	h.a = a;
	uint32_t fill = loc->st_fill;
	if (fill && (fill + h.size > SUB_STAGE ||
		     (ts > loc->st_first && ts - loc->st_first > SUB_STAGE_NS))) {
		subrun_flush(loc);
		fill = 0;
	}
	if (h.size > SUB_STAGE) {
		for (int i = 0; i < SUB.n; i++) {
			if (!(__atomic_load_n(&SUB.take[i], __ATOMIC_RELAXED) >>
				      type & 1))
				continue;
			struct sub_ring *r = &loc->ring[i];
			uint64_t pad, head = r->head;
			if (!ring_room(r, head, h.size, &pad)) {
				ring_lost(r, &h, &bc);
				continue;
			}
			head = ring_pad(r, head, pad);
			rec_write(r->buf + head % SUBSTRATE_RING, &h, &bc, pc,
				  text);
			ring_publish(&SUB.p[i], r, head + h.size);
		}
		return;
	}
	rec_write(loc->st_buf + fill, &h, &bc, pc, text);
	if (!fill)
		__atomic_store_n(&loc->st_first, ts, __ATOMIC_RELAXED);
	__atomic_store_n(&loc->st_fill, fill + h.size, __ATOMIC_RELAXED);
	/* the image ends: nothing may wait in the batch for a flush that
	 * would come too late */
	if (__atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE))
		subrun_flush(loc);
	else if (next)
		*next = loc->st_buf + fill + h.size;
}

void subrun_put(struct mapsample_location *loc, uint16_t type, uint64_t ts,
		uint64_t a, uint64_t b, uint64_t c, int64_t d,
		uint32_t npc, const uint64_t *pc, const char *text)
{
	put_all(loc, type, ts, a, b, c, d, npc, pc, text, NULL);
}

void subrun_sample(struct mapsample_location *loc, uint64_t ts, uint64_t w,
		   uint32_t npc, const uint64_t *pc, int wall,
		   const void **next)
{
	*next = NULL;
	put_all(loc, MAPSAMPLE_EVENT_SAMPLE, ts, w, 0, 0, wall, npc, pc, NULL,
		next);
}

/* ---- losses, and the end of the image ---- */

/* t's losses since it last told them, to l (t's writer: busy held, or
 * closing).  Async-signal-safe. */
static void tell_drops(struct tslot *t, struct mapsample_location *l)
{
	/* the counts only grow: the same total as last time, nothing new
	 * (t->drops, on a line the handler has written already, where
	 * the seven counts cost a line more per sample; it is read
	 * before the loop, so a loss added meanwhile (a mark's, in a
	 * handler that interrupted this one) makes the next total
	 * differ) */
	uint64_t sum = __atomic_load_n(&t->drops, __ATOMIC_RELAXED);
	uint64_t *seen = &SUB.cur[t - S.slots].drops_seen;
	if (sum == __atomic_load_n(seen, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(seen, sum, __ATOMIC_RELAXED);
	uint64_t ts = 0;
	for (uint32_t r = 0; r < SUB_LOG_REASONS; r++) {
		uint64_t n = __atomic_load_n(&t->dropped[r], __ATOMIC_RELAXED);
		if (n <= t->dropped_told[r])
			continue;
		if (!ts)
			ts = now_ns();
		subrun_put(l, MAPSAMPLE_EVENT_DROP, ts, r,
			   n - t->dropped_told[r], 0, 0, 0, NULL, NULL);
		t->dropped_told[r] = n;
	}
}

void substrate_drops(struct tslot *t)
{
	if (!SUB.n || t < S.slots || t >= S.slots + SAMPLER_MAX_THREADS)
		return;
	struct mapsample_location *l =
		__atomic_load_n(&SUB.cur[t - S.slots].loc, __ATOMIC_ACQUIRE);
	if (l && !__atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE))
		tell_drops(t, l);
}

/* At the end of the image, the losses of the threads still there (the
 * main thread's last marks) and their batches, before their locations
 * end; a slot whose writer stays at work (the calling thread's own, when
 * this interrupted its handler) keeps them.  Async-signal-safe. */
void subrun_flush_all(void)
{
	for (int i = 0, n = slot_limit(); i < n; i++) {
		struct tslot *t = &S.slots[i];
		struct mapsample_location *l =
			__atomic_load_n(&SUB.cur[i].loc, __ATOMIC_ACQUIRE);
		if (!l || __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0 ||
		    !slot_busy_wait(t))
			continue;
		tell_drops(t, l);
		subrun_flush(l);
		__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	}
}
