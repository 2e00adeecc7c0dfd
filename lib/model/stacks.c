/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report model: the distinct stacks of each process image and their
 * frames (see model.h's struct rstack).
 *
 * DESIGN NOTES
 *   model.stacks is keyed by (pid, image, frames): each process image
 *   counts its own samples on its own stacks.  Their frames live in
 *   model.spc, once for every stack of the same addresses whatever its
 *   process (model.frames finds them): the ranks of a job that load their
 *   code at the same addresses share one copy of each stack's frames,
 *   and a rank then costs its table slots (its counts), not a copy of
 *   its stacks.  Frames are never written in place once shared: a stack
 *   that changes its frames (model_stack_cut()) gets a copy of its own.
 *   The table's hash and order are those of the stack alone (pid, image
 *   and frames), so its slots, and the order readers walk it in, do not
 *   depend on what is shared.
 *
 *   Counting: a sample names its stack by an id of its chunk (sidmap).
 *   In the first log that id leads to the stack's slot, where the sample
 *   is counted.  In later logs (the table then holds other logs'
 *   stacks, a job's other ranks, and grows large) it leads to an entry
 *   of model.lstacks, the stacks of the log
 *   being read (a small table that stays in the cache), where its sample
 *   is counted; model_stacks_flush() adds those counts to the table at
 *   the end of the log (or when lstacks is full).  A stack new to the
 *   log is put in the table there too, its frames kept in model.lspc
 *   until then, the next ones' slots prefetched (in a job of many ranks
 *   each new stack is a slot far from the last, a cache miss each), or
 *   at once when model.on_sample wants its seq.  Either way stacks go in
 *   the table in the order first seen, so it is filled, and grows, as
 *   if each sample went to it: its slots and seq numbers are the same.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/model.h"

static uint64_t stack_hash(uint32_t pid, uint32_t image, uint32_t n,
			   const uint64_t *pc)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)pid << 32) ^ image ^
		     ((uint64_t)n << 20);
	for (uint32_t i = 0; i < n; i++) {
		h ^= pc[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

/* The hash of a frame sequence, whatever its process. */
static uint64_t frames_hash(uint32_t n, const uint64_t *pc)
{
	uint64_t h = 0xc2b2ae3d27d4eb4full ^ n;
	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ pc[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 31;
	}
	return h;
}

/* The offset in m->spc of the frames pc[0..n): those of an earlier stack
 * of the same addresses (another process's), else a copy appended.  0
 * or MAPS_ENOMEM. */
static int frames_get(struct model *m, uint32_t n, const uint64_t *pc,
		      uint32_t *off)
{
	if ((m->nframes + 1) * 2 > m->capframes) {
		size_t cap = m->capframes ? m->capframes * 2 : 1024;
		struct rframes *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < m->capframes; i++) {
			if (!m->frames[i].npc1)
				continue;
			size_t j = m->frames[i].hash & (cap - 1);
			while (t[j].npc1)
				j = (j + 1) & (cap - 1);
			t[j] = m->frames[i];
		}
		free(m->frames);
		m->frames = t;
		m->capframes = cap;
	}
	uint64_t h = frames_hash(n, pc);
	size_t mask = m->capframes - 1;
	size_t j = h & mask;
	for (; m->frames[j].npc1; j = (j + 1) & mask) {
		const struct rframes *f = &m->frames[j];
		if (f->hash == h && f->npc1 == n + 1 &&
		    memcmp(m->spc + f->off, pc, n * sizeof(*pc)) == 0) {
			*off = f->off;
			return 0;
		}
	}
	if (mem_reserve(&m->spc, &m->capspc, m->nspc + n, sizeof(*m->spc),
			4096))
		return MAPS_ENOMEM;
	memcpy(m->spc + m->nspc, pc, n * sizeof(*pc));
	m->frames[j] = (struct rframes){h, (uint32_t)m->nspc, n + 1};
	m->nframes++;
	*off = (uint32_t)m->nspc;
	m->nspc += n;
	return 0;
}

int model_stack_cut(struct model *m, struct rstack *s, uint32_t cut)
{
	uint32_t n = s->npc - cut;
	if (mem_reserve(&m->spc, &m->capspc, m->nspc + n, sizeof(*m->spc),
			4096))
		return MAPS_ENOMEM;
	memcpy(m->spc + m->nspc, m->spc + s->off + cut, n * sizeof(*m->spc));
	if (!s->raw_npc) {
		s->raw_off = s->off;
		s->raw_npc = s->npc;
	}
	s->off = (uint32_t)m->nspc;
	s->npc = n;
	m->nspc += n;
	if (n)
		m->spc[s->off]--;
	return 0;
}

/* The slot of the stack (pid, image, pc[0..n)) of hash h, or -1 when
 * the table has none; the table is not changed. */
static long stack_find(const struct model *m, uint64_t h, uint32_t pid,
		       uint32_t image, uint32_t n, const uint64_t *pc)
{
	if (!m->capstacks)
		return -1;
	size_t mask = m->capstacks - 1;
	for (size_t j = h & mask; m->stacks[j].used; j = (j + 1) & mask) {
		const struct rstack *s = &m->stacks[j];
		if (s->hash == h && s->pid == pid && s->image == image &&
		    s->npc == n &&
		    memcmp(m->spc + s->off, pc, n * sizeof(*pc)) == 0)
			return (long)j;
	}
	return -1;
}

/* Slot of the stack (pid, image, pc[0..n)) of hash h, added if new; -1
 * when out of memory. */
static long stack_get(struct model *m, uint64_t h, uint32_t pid,
		      uint32_t image, uint32_t n, const uint64_t *pc)
{
	if ((m->nstacks + 1) * 2 > m->capstacks) {
		size_t cap = m->capstacks ? m->capstacks * 2 : 1024;
		struct rstack *t = calloc(cap, sizeof(*t));
		if (!t)
			return -1;
		for (size_t i = 0; i < m->capstacks; i++) {
			if (!m->stacks[i].used)
				continue;
			size_t j = m->stacks[i].hash & (cap - 1);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = m->stacks[i];
		}
		free(m->stacks);
		m->stacks = t;
		m->capstacks = cap;
		m->sgen++; /* slots moved */
		m->c_valid = 0;
	}
	size_t mask = m->capstacks - 1;
	size_t j = h & mask;
	while (m->stacks[j].used) {
		struct rstack *s = &m->stacks[j];
		if (s->hash == h && s->pid == pid && s->image == image &&
		    s->npc == n &&
		    memcmp(m->spc + s->off, pc, n * sizeof(*pc)) == 0)
			return (long)j;
		j = (j + 1) & mask;
	}
	uint32_t off;
	if (frames_get(m, n, pc, &off))
		return -1;
	struct rstack *s = &m->stacks[j];
	*s = (struct rstack){h, pid, image, n, off, 0, 0, 1,
			     (uint32_t)m->nstacks, 0, 0};
	m->nstacks++;
	return (long)j;
}

/* rlstack.gen of a stack not yet put in the table: its frames are in
 * model.lspc */
#define PENDING UINT32_MAX

void model_stacks_flush(struct model *m)
{
	for (size_t i = 0; i < m->nlstacks; i++) {
		const struct rlstack *e = &m->lstacks[i];
		long j;
		if (e->gen == PENDING) {
			/* put in the table in the order first seen, the
			 * slots of the next ones asked for ahead: each is
			 * a cache miss in a table of a large job */
			if (i + 8 < m->nlstacks && m->capstacks)
				__builtin_prefetch(
					&m->stacks[m->lstacks[i + 8].hash &
						   (m->capstacks - 1)],
					1);
			j = stack_get(m, e->hash, e->pid, e->image, e->npc,
				      m->lspc + e->off);
			if (j < 0) {
				if (!m->error)
					m->error = MAPS_ENOMEM;
				break;
			}
		} else {
			j = e->gen == m->sgen
				    ? (long)e->slot
				    : stack_find(m, e->hash, e->pid, e->image,
						 e->npc, m->spc + e->off);
			if (j < 0)
				continue; /* cannot be: added when first seen */
		}
		m->stacks[j].count += e->count;
		m->stacks[j].weight += e->weight;
	}
	m->nlstacks = 0;
	m->nlspc = 0;
	if (m->caplidx)
		memset(m->lidx, 0, m->caplidx * sizeof(*m->lidx));
	m->c_valid = 0; /* the chunk's stack ids named entries of lstacks */
}

/* The stacks of the log being read that model_stacks_flush() counts at
 * once, at most: their memory stays small whatever the log. */
#define LSTACKS_MAX 65536

/* The index in m->lstacks of the stack (pid, image, pc[0..n)), added
 * (and to the table, in the order first seen) if new; -1 when out of
 * memory. */
static long local_get(struct model *m, uint32_t pid, uint32_t image,
		      uint32_t n, const uint64_t *pc)
{
	uint64_t h = stack_hash(pid, image, n, pc);
	if (m->caplidx) {
		size_t mask = m->caplidx - 1;
		for (size_t j = h & mask; m->lidx[j]; j = (j + 1) & mask) {
			const struct rlstack *e = &m->lstacks[m->lidx[j] - 1];
			const uint64_t *epc = (e->gen == PENDING ? m->lspc
								 : m->spc) +
					      e->off;
			if (e->hash == h && e->pid == pid &&
			    e->image == image && e->npc == n &&
			    memcmp(epc, pc, n * sizeof(*pc)) == 0)
				return (long)(m->lidx[j] - 1);
		}
	}
	if (m->nlstacks >= LSTACKS_MAX)
		model_stacks_flush(m);
	if ((m->nlstacks + 1) * 2 > m->caplidx) {
		size_t cap = m->caplidx ? m->caplidx * 2 : 1024;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return -1;
		for (size_t i = 0; i < m->nlstacks; i++) {
			size_t j = m->lstacks[i].hash & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(m->lidx);
		m->lidx = t;
		m->caplidx = cap;
	}
	if (mem_grow(&m->lstacks, &m->caplstacks, m->nlstacks,
		     sizeof(*m->lstacks)))
		return -1;
	if (m->on_sample) {
		/* its seq is wanted now: put in the table now */
		long g = stack_get(m, h, pid, image, n, pc);
		if (g < 0)
			return -1;
		const struct rstack *s = &m->stacks[g];
		m->lstacks[m->nlstacks] = (struct rlstack){
			h,	   pid,		 image,	 n, s->off,
			(uint32_t)g, m->sgen, s->seq, 0, 0};
	} else {
		if (mem_reserve(&m->lspc, &m->caplspc, m->nlspc + n,
				sizeof(*m->lspc), 4096))
			return -1;
		memcpy(m->lspc + m->nlspc, pc, n * sizeof(*pc));
		m->lstacks[m->nlstacks] = (struct rlstack){
			h, pid, image, n, (uint32_t)m->nlspc, 0, PENDING, 0, 0,
			0};
		m->nlspc += n;
	}
	size_t mask = m->caplidx - 1, j = h & mask;
	while (m->lidx[j])
		j = (j + 1) & mask;
	m->lidx[j] = (uint32_t)++m->nlstacks;
	return (long)(m->nlstacks - 1);
}

int model_stack_count(struct model *m, const struct maplog_ev *ev)
{
	const struct maplog_ev_sample *s = &ev->ev_u.sample;
	if (!m->c_valid || m->c_pid != ev->ev_pid || m->c_tid != ev->ev_tid ||
	    m->c_image != ev->ev_image || m->c_seq != ev->ev_chunk_seq) {
		if (m->capsid)
			memset(m->sidmap, 0, m->capsid * sizeof(*m->sidmap));
		m->c_pid = ev->ev_pid;
		m->c_tid = ev->ev_tid;
		m->c_image = ev->ev_image;
		m->c_seq = ev->ev_chunk_seq;
		m->c_valid = 1;
	}
	if (s->sa_stack >= m->capsid) {
		size_t old = m->capsid;
		if (mem_reserve(&m->sidmap, &m->capsid, (size_t)s->sa_stack + 1,
				sizeof(*m->sidmap), 1024))
			return MAPS_ENOMEM;
		memset(m->sidmap + old, 0,
		       (m->capsid - old) * sizeof(*m->sidmap));
	}
	uint32_t idx = m->sidmap[s->sa_stack];
	/* the first log is counted in the stack table itself, which holds
	 * its stacks only (a table of its own would be a second lookup);
	 * later logs on a table of their own (local_get()); the chunk's
	 * ids name slots of the one used */
	int first = m->nlogs <= 1;
	if (!idx) {
		long j = first ? stack_get(m,
					   stack_hash(ev->ev_pid, ev->ev_image,
						      s->sa_npc, s->sa_pc),
					   ev->ev_pid, ev->ev_image, s->sa_npc,
					   s->sa_pc)
			       : local_get(m, ev->ev_pid, ev->ev_image,
					   s->sa_npc, s->sa_pc);
		if (j < 0)
			return MAPS_ENOMEM;
		idx = (uint32_t)j + 1;
		m->sidmap[s->sa_stack] = idx;
	}
	uint64_t *count, *weight;
	uint32_t seq;
	if (first) {
		struct rstack *st = &m->stacks[idx - 1];
		count = &st->count;
		weight = &st->weight;
		seq = st->seq;
	} else {
		struct rlstack *e = &m->lstacks[idx - 1];
		count = &e->count;
		weight = &e->weight;
		seq = e->seq;
	}
	(*count)++;
	*weight += s->sa_weight;
	if (m->on_sample)
		return m->on_sample(m->on_sample_ctx, ev, seq);
	return 0;
}
