/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disasm: samples per instruction of a function (see disasm.h).  Each
 * stack of the model is looked at address by address through the
 * symbolizer (which caches them); an address whose frames hold the
 * function is counted in the range of the function symbol around it
 * (symbolize.h's sym_func_range), found once per range.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/disasm.h"
#include "report/symbolize.h"

#define MAX_FRAMES SYM_MAX_FRAMES
#define MAX_RANGES 16

static struct drange *range_of(struct disasm *d, struct symtab *st,
			       const struct rmap *mp, uint64_t rel)
{
	for (size_t i = 0; i < d->d_n; i++)
		if (d->d_ranges[i].dr_path == mp->path &&
		    rel >= d->d_ranges[i].dr_lo && rel < d->d_ranges[i].dr_hi)
			return &d->d_ranges[i];
	uint64_t lo, hi;
	if (d->d_n >= MAX_RANGES ||
	    sym_func_range(st, mp->path, mp->buildid, mp->buildid_len, rel,
			   &lo, &hi))
		return NULL;
	if (mem_grow(&d->d_ranges, &d->d_cap, d->d_n, sizeof(*d->d_ranges)))
		return NULL;
	struct drange *r = &d->d_ranges[d->d_n++];
	memset(r, 0, sizeof(*r));
	r->dr_path = mp->path;
	r->dr_lo = lo;
	r->dr_hi = hi;
	return r;
}

/* Counts one address of a stack of count samples.  0 or MAPS_ENOMEM. */
static int count(struct drange *r, uint64_t rel, int self, uint64_t n,
		 uint32_t gen)
{
	struct dinsn *e = NULL;
	for (size_t i = 0; i < r->dr_n; i++)
		if (r->dr_insn[i].di_addr == rel)
			e = &r->dr_insn[i];
	if (!e) {
		if (mem_grow(&r->dr_insn, &r->dr_cap, r->dr_n,
			     sizeof(*r->dr_insn)))
			return MAPS_ENOMEM;
		e = &r->dr_insn[r->dr_n++];
		memset(e, 0, sizeof(*e));
		e->di_addr = rel;
	}
	if (self)
		e->di_self += n;
	if (e->di_gen != gen) {
		e->di_gen = gen;
		e->di_total += n;
	}
	return 0;
}

/* Whether stack si holds function func, by the analysis's expanded
 * stacks (report/analyze.h): most stacks are passed over this way. */
static int holds(const struct analysis *a, size_t si, uint32_t func)
{
	const uint32_t *e = a->exp + a->exp_off[si];
	for (uint32_t k = 0; k < a->exp_n[si]; k++)
		if (e[k] == func)
			return 1;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct dinsn *x = a, *y = b;
	return x->di_addr < y->di_addr ? -1 : x->di_addr > y->di_addr;
}

int disasm_build(struct disasm *d, const struct model *m,
		 const struct analysis *a, uint32_t func)
{
	memset(d, 0, sizeof(*d));
	const struct rfunc *f = &a->funcs[func];
	uint32_t gen = 0;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used || !s->count || !holds(a, si, func))
			continue;
		gen++;
		const uint64_t *pc = m->spc + s->off;
		for (uint32_t i = 0; i < s->npc; i++) {
			const struct rmap *mp = model_find_map(m, s->pid,
							       s->image, pc[i]);
			if (!mp)
				continue;
			struct symframe fr[MAX_FRAMES];
			int n = sym_lookup(a->st, mp->path, mp->buildid,
					   mp->buildid_len, mp->bias, mp->start,
					   mp->offset, pc[i], i == 0, fr,
					   MAX_FRAMES);
			if (n < 0)
				goto nomem;
			int k = 0;
			while (k < n && (fr[k].func != f->name ||
					 fr[k].module != f->module))
				k++;
			if (k == n)
				continue;
			uint64_t rel = pc[i] - mp->bias - (i ? 1 : 0);
			struct drange *r = range_of(d, a->st, mp, rel);
			if (!r) {
				if (i == 0)
					d->d_unplaced += s->count;
				continue;
			}
			if (count(r, rel, i == 0, s->count, gen))
				goto nomem;
		}
	}
	for (size_t i = 0; i < d->d_n; i++)
		qsort(d->d_ranges[i].dr_insn, d->d_ranges[i].dr_n,
		      sizeof(struct dinsn), by_addr);
	return 0;
nomem:
	disasm_free(d);
	return MAPS_ENOMEM;
}

void disasm_free(struct disasm *d)
{
	for (size_t i = 0; i < d->d_n; i++)
		free(d->d_ranges[i].dr_insn);
	free(d->d_ranges);
	memset(d, 0, sizeof(*d));
}
