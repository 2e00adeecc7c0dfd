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
	s->off = (uint32_t)m->nspc;
	s->npc = n;
	m->nspc += n;
	if (n)
		m->spc[s->off]--;
	return 0;
}

/* Index of the stack (pid, image, pc[0..n)), added if new; -1 when out
 * of memory. */
static long stack_get(struct model *m, uint32_t pid, uint32_t image,
		      uint32_t n, const uint64_t *pc)
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
		m->c_valid = 0; /* indices moved */
	}
	uint64_t h = stack_hash(pid, image, n, pc);
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
			     (uint32_t)m->nstacks};
	m->nstacks++;
	return (long)j;
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
	if (!idx) {
		long j = stack_get(m, ev->ev_pid, ev->ev_image, s->sa_npc,
				   s->sa_pc);
		if (j < 0)
			return MAPS_ENOMEM;
		idx = (uint32_t)j + 1;
		if (m->c_valid)
			m->sidmap[s->sa_stack] = idx;
	}
	m->stacks[idx - 1].count++;
	m->stacks[idx - 1].weight += s->sa_weight;
	if (m->on_sample)
		return m->on_sample(m->on_sample_ctx, ev,
				    m->stacks[idx - 1].seq);
	return 0;
}
