/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * analyze: from distinct stacks to functions.  Every distinct stack of the
 * model is expanded once into functions (inline frames included, leaf
 * first) with the symbolizer, which itself looks each address up once.
 * A function's self count is the samples whose innermost frame it is; its
 * total count the samples whose stack holds it at least once (recursion
 * counted once).  Samples of the sampler's own work on the program's
 * threads (its code at the leaf, or its constructor or destructor in
 * the stack) are counted apart and charged to no function.  On demand
 * the functions are then ranked by each count;
 * writing them out is lib/report/out's.  A sample taken in a system call
 * gets a kernel frame below its user leaf (report/kframe.h): the user
 * leaf's address is looked at once, as the rest of its entry.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/analyze.h"
#include "report/kframe.h"

#define MAX_EXP 2048

static uint64_t ptr_hash(const void *a, const void *b)
{
	uint64_t h = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(uintptr_t)b * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

/* The function id of (name, module) into *id, added if new: names and
 * modules are interned by the symbolizer, so pointers compare.  0 or
 * MAPS_ENOMEM. */
static int func_get(struct analysis *a, const struct symframe *f,
		    uint32_t *id)
{
	if ((a->nfuncs + 1) * 2 > a->capidx) {
		size_t cap = a->capidx ? a->capidx * 2 : 1024;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < a->nfuncs; i++) {
			size_t j = ptr_hash(a->funcs[i].name, a->funcs[i].module) &
				   (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(a->idx);
		a->idx = t;
		a->capidx = cap;
	}
	size_t mask = a->capidx - 1;
	size_t j = ptr_hash(f->func, f->module) & mask;
	while (a->idx[j]) {
		struct rfunc *r = &a->funcs[a->idx[j] - 1];
		if (r->name == f->func && r->module == f->module) {
			*id = a->idx[j] - 1;
			return 0;
		}
		j = (j + 1) & mask;
	}
	if (a->nfuncs == a->capfuncs &&
	    mem_reserve(&a->funcs, &a->capfuncs, a->nfuncs + 1,
			sizeof(*a->funcs), 1024))
		return MAPS_ENOMEM;
	struct rfunc *r = &a->funcs[a->nfuncs];
	memset(r, 0, sizeof(*r));
	r->name = f->func;
	r->module = f->module;
	r->file = f->file;
	r->line = f->line;
	a->idx[j] = (uint32_t)++a->nfuncs;
	*id = (uint32_t)a->nfuncs - 1;
	return 0;
}

/* Samples per (function, file, line) of leaf frames: the hottest line
 * of each function is its location in the report. */
struct lineent {
	uint32_t func;
	const char *file;
	int line;
	uint64_t count;
};

/* Adds n samples to (func, file, line) in the table *tab; 0 or
 * MAPS_ENOMEM. */
static int line_add(uint32_t func, const char *file, int line, uint64_t n,
		    struct lineent **tab, size_t *cnt, size_t *cap)
{
	if ((*cnt + 1) * 2 > *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct lineent *t = calloc(nc, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < *cap; i++) {
			if (!(*tab)[i].count)
				continue;
			struct lineent *e = &(*tab)[i];
			size_t j = (ptr_hash(e->file, (void *)(uintptr_t)(e->func * 65536u + (unsigned)e->line))) & (nc - 1);
			while (t[j].count)
				j = (j + 1) & (nc - 1);
			t[j] = *e;
		}
		free(*tab);
		*tab = t;
		*cap = nc;
	}
	size_t mask = *cap - 1;
	size_t j = ptr_hash(file, (void *)(uintptr_t)(func * 65536u + (unsigned)line)) & mask;
	while ((*tab)[j].count) {
		struct lineent *e = &(*tab)[j];
		if (e->func == func && e->file == file && e->line == line) {
			e->count += n;
			return 0;
		}
		j = (j + 1) & mask;
	}
	(*tab)[j] = (struct lineent){func, file, line, n};
	(*cnt)++;
	return 0;
}

static int is_sampler(const char *path)
{
	const char *b = strrchr(path, '/');
	return strcmp(b ? b + 1 : path, "libmapsampler.so") == 0;
}

/* Whether path is the dynamic loader, which runs the constructors and
 * destructors of the libraries (glibc's ld-linux*.so, ld64.so, musl's
 * ld-musl*). */
static int is_loader(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	return !strncmp(b, "ld-linux", 8) || !strncmp(b, "ld64.so", 7) ||
	       !strncmp(b, "ld-musl", 7) || !strncmp(b, "ld.so", 5);
}

/* What one address of one process image expands into, worked out once:
 * stacks repeat their addresses, so most frames of most stacks are found
 * here without looking up the mapping, the symbolizer's cache and the
 * function table again.  Its functions are fids[first .. first + n). */
struct addrent {
	uint64_t pc;
	const char *file;   /* innermost frame's file and line */
	uint32_t pid, image;
	uint32_t first;
	int line;
	uint8_t n;          /* at most SYM_MAX_FRAMES */
	uint8_t leaf;       /* looked up as a leaf (pc) or return (pc - 1) */
	uint8_t skip;       /* the sampler's own frame: not the program's */
	uint8_t sampler;    /* in libmapsampler.so (leaf or not) */
	uint8_t loader;     /* in the dynamic loader */
	uint8_t used;
	uint32_t kfid;      /* a leaf in a system call: the kernel frame's
			     * function id + 1; 0: none */
};

struct addrcache {
	struct addrent *t;
	size_t n, cap;
	uint32_t *fids;
	size_t nfids, capfids;
};

static uint64_t addr_hash(uint64_t pc, uint32_t pid, uint32_t image, int leaf)
{
	uint64_t h = (pc ^ ((uint64_t)pid << 32 | image)) * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)leaf * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 31);
}

/* The entry of (pid, image, pc, leaf), filled if new; NULL when out of
 * memory. */
static const struct addrent *addr_get(struct analysis *a,
				      struct addrcache *c,
				      const struct model *m, uint32_t pid,
				      uint32_t image, uint64_t pc, int leaf)
{
	if ((c->n + 1) * 2 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4096;
		struct addrent *t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < c->cap; i++) {
			const struct addrent *e = &c->t[i];
			if (!e->used)
				continue;
			size_t j = addr_hash(e->pc, e->pid, e->image, e->leaf) &
				   (cap - 1);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = *e;
		}
		free(c->t);
		c->t = t;
		c->cap = cap;
	}
	size_t mask = c->cap - 1;
	size_t j = addr_hash(pc, pid, image, leaf) & mask;
	while (c->t[j].used) {
		const struct addrent *e = &c->t[j];
		if (e->pc == pc && e->pid == pid && e->image == image &&
		    e->leaf == leaf)
			return e;
		j = (j + 1) & mask;
	}
	struct symframe fr[SYM_MAX_FRAMES];
	const struct rmap *mp = model_find_map(m, pid, image, pc);
	int n;
	if (mp)
		n = sym_lookup(a->st, mp->path, mp->buildid, mp->buildid_len,
			       mp->bias, mp->start, mp->offset, pc, leaf, fr,
			       SYM_MAX_FRAMES);
	else
		n = sym_anon(a->st, model_find_proc(m, pid, image), pc,
			     leaf, fr);
	if (n < 0 || (c->nfids + (size_t)n > c->capfids &&
		      mem_reserve(&c->fids, &c->capfids, c->nfids + (size_t)n,
				  sizeof(*c->fids), 65536)))
		return NULL;
	for (int k = 0; k < n; k++)
		if (func_get(a, &fr[k], &c->fids[c->nfids + (size_t)k]))
			return NULL;
	uint32_t kfid = 0;
	const char *kname;
	if (leaf && mp && a->kf) {
		int rc = kframe_at(a->kf, mp->path, mp->buildid,
				   mp->buildid_len, pc - mp->start + mp->offset,
				   &kname);
		struct symframe kfr = {kname, NULL, 0, KFRAME_MODULE, 1};
		if (rc < 0 || (rc == 1 && func_get(a, &kfr, &kfid)))
			return NULL;
		kfid += rc == 1;
	}
	struct addrent *e = &c->t[j];
	e->pc = pc;
	e->pid = pid;
	e->image = image;
	e->leaf = (uint8_t)leaf;
	e->used = 1;
	/* the sampler's own frames (its wrapper around main, thread
	 * start-up) are not the program's */
	e->sampler = mp && is_sampler(mp->path);
	e->skip = !leaf && e->sampler;
	e->loader = mp && is_loader(mp->path);
	e->file = fr[0].file;
	e->line = fr[0].line;
	e->first = (uint32_t)c->nfids;
	e->n = (uint8_t)n;
	e->kfid = kfid;
	c->nfids += (size_t)n;
	c->n++;
	return e;
}

/* ---- functions by self and by total samples ---- */

static const struct rfunc *sort_base; /* qsort has no context argument */

/* By self samples, then total, then name; and by total, self, name.  Two
 * comparators rather than one with a flag: this sort is a tenth of a
 * text report's time on large runs. */
static int cmp_self(const void *x, const void *y)
{
	const struct rfunc *a = &sort_base[*(const uint32_t *)x];
	const struct rfunc *b = &sort_base[*(const uint32_t *)y];
	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int cmp_total(const void *x, const void *y)
{
	const struct rfunc *a = &sort_base[*(const uint32_t *)x];
	const struct rfunc *b = &sort_base[*(const uint32_t *)y];
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* Fills a->top_self (by_total 0) or a->top_total: the functions with
 * samples of that kind, most first, then by the other count and name.
 * 0 or MAPS_ENOMEM. */
static int rank_by(struct analysis *a, int by_total)
{
	uint32_t *ord = malloc((a->nfuncs ? a->nfuncs : 1) * sizeof(*ord));
	if (!ord)
		return MAPS_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < a->nfuncs; i++)
		if (by_total ? a->funcs[i].total : a->funcs[i].self)
			ord[n++] = (uint32_t)i;
	sort_base = a->funcs;
	qsort(ord, n, sizeof(*ord), by_total ? cmp_total : cmp_self);
	if (by_total) {
		a->top_total = ord;
		a->ntop_total = n;
	} else {
		a->top_self = ord;
		a->ntop_self = n;
	}
	return 0;
}

/* Whether (file, line) comes before (rfile, rline): by name, then line. */
static int line_before(const char *file, int line, const char *rfile,
		       int rline)
{
	int c = strcmp(file, rfile);
	return c < 0 || (c == 0 && line < rline);
}

static int kernel_frames = 1; /* analysis_kernel_frames */

void analysis_kernel_frames(int on)
{
	kernel_frames = on;
}

int analysis_run(struct analysis *a, const struct model *m)
{
	memset(a, 0, sizeof(*a));
	a->st = sym_new();
	a->kf = kernel_frames ? kframe_new() : NULL;
	a->exp_off = calloc(m->capstacks ? m->capstacks : 1, sizeof(uint32_t));
	a->exp_n = calloc(m->capstacks ? m->capstacks : 1, sizeof(uint32_t));
	a->own = calloc(m->capstacks ? m->capstacks : 1, 1);
	int rc = MAPS_ENOMEM;
	uint32_t *mark = NULL;
	size_t capmark = 0;
	struct lineent *lines = NULL;
	size_t nlines = 0, caplines = 0;
	uint32_t gen = 0;
	struct addrcache cache = {0};
	if (!a->st || !a->exp_off || !a->exp_n || !a->own ||
	    (kernel_frames && !a->kf))
		goto out;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used)
			continue;
		const uint64_t *pc = m->spc + s->off;
		uint32_t start = (uint32_t)a->nexp;
		const char *leaf_file = NULL;
		int leaf_line = 0;
		int own = 0, prev_sampler = 0;
		for (uint32_t i = 0; i < s->npc && a->nexp - start < MAX_EXP; i++) {
			const struct addrent *e = addr_get(a, &cache, m, s->pid,
							   s->image, pc[i],
							   i == 0);
			if (!e)
				goto out;
			/* the sampler's own work: its code at the leaf, or
			 * its constructor or destructor, called by the
			 * dynamic loader, anywhere in the stack */
			if ((i == 0 && e->sampler) || (prev_sampler && e->loader)) {
				own = 1;
				break;
			}
			prev_sampler = e->sampler;
			if (e->skip)
				continue;
			if (i == 0 && !e->kfid) {
				leaf_file = e->file;
				leaf_line = e->line;
			}
			if (a->nexp + e->n + 1 > a->capexp &&
			    mem_reserve(&a->exp, &a->capexp, a->nexp + e->n + 1,
					sizeof(uint32_t), 65536))
				goto out;
			if (i == 0 && e->kfid) /* the kernel's, below the leaf */
				a->exp[a->nexp++] = e->kfid - 1;
			memcpy(a->exp + a->nexp, cache.fids + e->first,
			       e->n * sizeof(uint32_t));
			a->nexp += e->n;
		}
		if (own) {
			a->nexp = start;
			a->own[si] = 1;
			a->own_samples += s->count;
		}
		a->exp_off[si] = start;
		a->exp_n[si] = (uint32_t)a->nexp - start;
		if (a->exp_n[si] == 0)
			continue;
		if (a->nfuncs > capmark) {
			size_t had = capmark;
			if (mem_reserve(&mark, &capmark, a->nfuncs, sizeof(*mark),
					1024))
				goto out;
			memset(mark + had, 0, (capmark - had) * sizeof(*mark));
		}
		gen++;
		a->funcs[a->exp[start]].self += s->count;
		if (line_add(a->exp[start], leaf_file, leaf_line, s->count,
			     &lines, &nlines, &caplines))
			goto out;
		for (uint32_t k = start; k < a->nexp; k++) {
			uint32_t f = a->exp[k];
			if (mark[f] == gen)
				continue;
			mark[f] = gen;
			a->funcs[f].total += s->count;
		}
	}
	/* each function's location: its hottest leaf line; of lines with as
	 * many samples, the first by file name and line (the table's order
	 * follows addresses, which change from run to run) */
	for (size_t i = 0; i < caplines; i++) {
		struct lineent *e = &lines[i];
		if (!e->count)
			continue;
		struct rfunc *r = &a->funcs[e->func];
		if (e->file && (e->count > r->line_count ||
				(e->count == r->line_count &&
				 line_before(e->file, e->line, r->file,
					     r->line)))) {
			r->line_count = e->count;
			r->file = e->file;
			r->line = e->line;
		}
	}
	rc = 0;
out:
	free(lines);
	free(mark);
	free(cache.t);
	free(cache.fids);
	if (rc)
		analysis_free(a);
	return rc;
}

int analysis_rank(struct analysis *a)
{
	if (a->top_self)
		return 0;
	if (rank_by(a, 0) || rank_by(a, 1)) {
		free(a->top_self);
		a->top_self = NULL;
		a->ntop_self = 0;
		return MAPS_ENOMEM;
	}
	return 0;
}

void analysis_free(struct analysis *a)
{
	sym_free(a->st);
	kframe_free(a->kf);
	free(a->top_self);
	free(a->top_total);
	free(a->funcs);
	free(a->idx);
	free(a->exp);
	free(a->exp_off);
	free(a->exp_n);
	free(a->own);
	memset(a, 0, sizeof(*a));
}

