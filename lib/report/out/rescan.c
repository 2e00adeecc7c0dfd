/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rescan: the logs read again for the exports (see rescan.h).
 *
 * DESIGN NOTES
 *   The model's stack table is keyed by its own hash, private to
 *   model.c; here an index of our own over that table finds the slot of
 *   a sample's stack by (pid, image, PCs), built once per rescan.  The
 *   thread of a sample is found as the model finds it, with the last one
 *   cached: records come in per-thread chunks.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mapsample/maps_error.h>

#include "model/keymap.h"
#include "model/logread.h"
#include "model/spool.h"
#include "report/out/rescan.h"

static uint64_t pcs_hash(uint32_t pid, uint32_t image, uint32_t n,
			 const uint64_t *pc)
{
	uint64_t h = ((uint64_t)pid << 32 | image) * 0x9e3779b97f4a7c15ull ^ n;
	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ pc[i]) * 0xc2b2ae3d27d4eb4full;
		h ^= h >> 29;
	}
	return h;
}

struct scan {
	const struct model *m;
	const struct rescan_tool *t;
	void *ctx;
	uint32_t *idx;      /* slot + 1 of model stacks, by pcs_hash */
	size_t capidx;
	size_t thread;      /* the last sample's thread, or SIZE_MAX */
	uint64_t samples;   /* sample records read */
};

/* The PCs of stack st as the logs have them: a stack the model cut
 * (model_stack_cut(): an MPI call's library frames folded into it) is
 * found by its PCs before the cut. */
static uint32_t raw_npc(const struct rstack *st)
{
	return st->raw_npc ? st->raw_npc : st->npc;
}

static uint32_t raw_off(const struct rstack *st)
{
	return st->raw_npc ? st->raw_off : st->off;
}

/* Indexes every used stack slot of s->m.  0 or MAPS_ENOMEM. */
static int index_stacks(struct scan *s)
{
	const struct model *m = s->m;
	size_t cap = 16;
	while (cap < m->nstacks * 2 + 2)
		cap *= 2;
	if (!(s->idx = calloc(cap, sizeof(*s->idx))))
		return MAPS_ENOMEM;
	s->capidx = cap;
	for (size_t i = 0; i < m->capstacks; i++) {
		const struct rstack *st = &m->stacks[i];
		if (!st->used)
			continue;
		size_t j = pcs_hash(st->pid, st->image, raw_npc(st),
				    m->spc + raw_off(st)) & (cap - 1);
		while (s->idx[j])
			j = (j + 1) & (cap - 1);
		s->idx[j] = (uint32_t)i + 1;
	}
	return 0;
}

/* The model's stack slot of sample ev, or SIZE_MAX. */
static size_t find_stack(const struct scan *s, const struct maplog_ev *ev)
{
	const struct maplog_ev_sample *sa = &ev->ev_u.sample;
	const struct model *m = s->m;
	size_t mask = s->capidx - 1;
	size_t j = pcs_hash(ev->ev_pid, ev->ev_image, sa->sa_npc, sa->sa_pc) &
		   mask;
	for (; s->idx[j]; j = (j + 1) & mask) {
		const struct rstack *st = &m->stacks[s->idx[j] - 1];
		if (st->pid == ev->ev_pid && st->image == ev->ev_image &&
		    raw_npc(st) == sa->sa_npc &&
		    memcmp(m->spc + raw_off(st), sa->sa_pc,
			   sa->sa_npc * sizeof(*sa->sa_pc)) == 0)
			return s->idx[j] - 1;
	}
	return SIZE_MAX;
}

/* The model's thread of sample ev, or SIZE_MAX. */
static size_t find_thread(struct scan *s, const struct maplog_ev *ev)
{
	const struct model *m = s->m;
	uint32_t tid = ev->ev_u.sample.sa_tid;
	size_t i = s->thread;
	if (i < m->nthreads && m->threads[i].tid == tid &&
	    m->threads[i].pid == ev->ev_pid &&
	    m->threads[i].image == ev->ev_image)
		return i;
	for (i = m->nthreads; i-- > 0;)
		if (m->threads[i].tid == tid && m->threads[i].pid == ev->ev_pid &&
		    m->threads[i].image == ev->ev_image)
			return s->thread = i;
	return SIZE_MAX;
}

static int on_sample(void *ctx, const struct maplog_ev *ev)
{
	struct scan *s = ctx;
	s->samples++;
	size_t th = find_thread(s, ev), st = find_stack(s, ev);
	if (th == SIZE_MAX || st == SIZE_MAX ||
	    !model_sample_kept(s->m, ev, th))
		return 0; /* left out of the report (filters, --launchers) */
	return s->t->rt_sample(s->ctx, ev, th, st);
}

static int on_mark(void *ctx, const struct maplog_ev *ev)
{
	struct scan *s = ctx;
	if (!model_mark_kept(s->m, ev))
		return 0; /* out of --time's range, or not a chosen thread's */
	return s->t->rt_mark(s->ctx, ev);
}

static int on_metric(void *ctx, const struct maplog_ev *ev)
{
	struct scan *s = ctx;
	return s->t->rt_metric(s->ctx, ev);
}

int rescan_logs(const struct output_in *in, const struct rescan_tool *t,
		void *ctx)
{
	struct scan s = {in->oi_model, t, ctx, NULL, 0, SIZE_MAX, 0};
	struct logread_tool lt = {0};
	if (t->rt_sample)
		lt.lt_record[MAPLOG_TYPE_SAMPLE] = on_sample;
	if (t->rt_mark)
		lt.lt_record[MAPLOG_TYPE_MARK] = on_mark;
	if (t->rt_metric)
		lt.lt_record[MAPLOG_TYPE_METRIC_VALUE] = on_metric;
	int rc = index_stacks(&s);
	for (size_t i = 0; !rc && i < in->oi_nlogs; i++) {
		/* a FIFO was drained by the model's reading, and opening it
		 * again would wait for a writer: read again only from its
		 * copy (model/spool.h) */
		struct stat sb;
		if (stat(in->oi_logs[i], &sb) == 0 && !S_ISREG(sb.st_mode) &&
		    !spool_has(in->oi_logs[i])) {
			if (t->rt_sample || t->rt_metric)
				rc = MAPS_EIO;
			break;
		}
		rc = model_reread(in->oi_model, i, in->oi_logs[i], &lt, &s);
		if (rc > 0)
			rc = 0; /* damage was said when the model read it */
	}
	/* a log that cannot be read twice (a pipe) */
	if (!rc && t->rt_sample && s.samples != in->oi_model->samples_read)
		rc = MAPS_EIO;
	free(s.idx);
	return rc;
}

/* ---- samples per (thread, stack) ---- */

static int count_sample(void *ctx, const struct maplog_ev *ev, size_t thread,
			size_t stack)
{
	struct rescan_pairs *p = ctx;
	int added;
	long i = keymap_add(&p->rp_keys, (uint32_t)thread, (uint32_t)stack, 0,
			    &p->rp_v, &p->rp_n, &p->rp_cap, sizeof(*p->rp_v),
			    &added);
	if (i < 0)
		return MAPS_ENOMEM;
	struct rescan_pair *r = &p->rp_v[i];
	r->rp_thread = (uint32_t)thread;
	r->rp_stack = (uint32_t)stack;
	r->rp_count++;
	r->rp_weight += ev->ev_u.sample.sa_weight;
	return 0;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct rescan_pair *a = x, *b = y;
	if (a->rp_thread != b->rp_thread)
		return a->rp_thread < b->rp_thread ? -1 : 1;
	return a->rp_stack < b->rp_stack ? -1 : a->rp_stack > b->rp_stack;
}

int rescan_count(const struct output_in *in, struct rescan_pairs *p)
{
	static const struct rescan_tool t = {count_sample, NULL, NULL};
	int rc = rescan_logs(in, &t, p);
	keymap_free(&p->rp_keys); /* indices change with the sort */
	if (rc)
		return rc;
	qsort(p->rp_v, p->rp_n, sizeof(*p->rp_v), cmp_pair);
	return 0;
}

void rescan_pairs_free(struct rescan_pairs *p)
{
	free(p->rp_v);
	keymap_free(&p->rp_keys);
	memset(p, 0, sizeof(*p));
}
