/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * analyze: from distinct stacks to functions.  Every distinct stack of the
 * model is expanded into functions (inline frames included, leaf first)
 * with the symbolizer, which itself looks each address up once; stacks
 * of different processes that are the same code (the same files at the
 * same offsets, wherever each process loaded them: the ranks of a job)
 * are expanded once for all of them.
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

/* An address as the analysis keys it.  An address in a file: the
 * symbolizer's module of the file (path and build-id) and where in it the
 * address falls (its file offset, and the address less the load bias),
 * not the process: the same library loaded at different addresses by
 * 1024 ranks is one key.  An address in no file (JIT code, named from the
 * process's perf map): its process image and the address. */
struct akey {
	uint64_t off;       /* file offset; the address when mod is ANON */
	uint64_t rel;       /* address less the load bias; 0 when ANON */
	uint32_t mod;       /* the symbolizer's module, or ANON */
	uint32_t proc;      /* ANON: index + 1 of the process image in the
			     * model (0: none); else 0 */
};

#define ANON UINT32_MAX

/* What one address expands into (looked up as a leaf or not), worked
 * out once for the whole report: stacks repeat their addresses, and the
 * processes of a job run the same code, so most frames are found here
 * without looking up the symbolizer's cache and the function table
 * again.  Its functions are fids[first .. first + n). */
struct addrent {
	struct akey k;
	const char *file;   /* innermost frame's file and line */
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

/* A mapping of the model and the symbolizer's module of its file. */
struct mapmod {
	const struct rmap *map;
	uint32_t mod;
};

struct addrcache {
	struct addrent *t;
	size_t n, cap;
	uint32_t *fids;
	size_t nfids, capfids;
	struct mapmod *mm;  /* open addressing, by map */
	size_t nmm, capmm;
	const struct rmap *last_map; /* the map of the last map_mod */
	uint32_t last_mod;
};

static uint64_t key_hash(const struct akey *k, int leaf)
{
	uint64_t h = k->off ^
		     ((uint64_t)k->mod << 32 | k->proc) * 0x9e3779b97f4a7c15ull;
	h ^= (k->rel ^ (uint64_t)leaf) * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static int key_eq(const struct akey *x, const struct akey *y)
{
	return x->off == y->off && x->rel == y->rel && x->mod == y->mod &&
	       x->proc == y->proc;
}

/* The symbolizer's module of map mp into *mod (known by its path and
 * build-id; the file is opened by the first sym_lookup); 0 or
 * MAPS_ENOMEM. */
static int map_mod(struct analysis *a, struct addrcache *c,
		   const struct rmap *mp, uint32_t *mod)
{
	if (mp == c->last_map) {
		*mod = c->last_mod;
		return 0;
	}
	if ((c->nmm + 1) * 2 > c->capmm) {
		size_t cap = c->capmm ? c->capmm * 2 : 256;
		struct mapmod *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < c->capmm; i++) {
			if (!c->mm[i].map)
				continue;
			size_t j = ptr_hash(c->mm[i].map, NULL) & (cap - 1);
			while (t[j].map)
				j = (j + 1) & (cap - 1);
			t[j] = c->mm[i];
		}
		free(c->mm);
		c->mm = t;
		c->capmm = cap;
	}
	size_t mask = c->capmm - 1;
	size_t j = ptr_hash(mp, NULL) & mask;
	while (c->mm[j].map && c->mm[j].map != mp)
		j = (j + 1) & mask;
	if (!c->mm[j].map) {
		if (sym_module(a->st, mp->path, mp->buildid, mp->buildid_len,
			       &c->mm[j].mod))
			return MAPS_ENOMEM;
		c->mm[j].map = mp;
		c->nmm++;
	}
	c->last_map = mp;
	*mod = c->last_mod = c->mm[j].mod;
	return 0;
}

/* The key of address pc of process image p (index pi in the model; NULL
 * and -1: not known) into *k, and its mapping into *mpp (NULL: in no
 * file); 0 or MAPS_ENOMEM. */
static int key_of(struct analysis *a, struct addrcache *c,
		  const struct rproc *p, long pi, uint64_t pc,
		  struct akey *k, const struct rmap **mpp)
{
	const struct rmap *mp = NULL;
	/* latest mapping first: addresses can be reused after dlclose (as
	 * model_find_map) */
	for (size_t j = p ? p->nmaps : 0; j-- > 0;)
		if (pc >= p->maps[j].start && pc < p->maps[j].end) {
			mp = &p->maps[j];
			break;
		}
	*mpp = mp;
	if (!mp) {
		*k = (struct akey){pc, 0, ANON, (uint32_t)(pi + 1)};
		return 0;
	}
	k->off = pc - mp->start + mp->offset;
	k->rel = pc - mp->bias;
	k->proc = 0;
	return map_mod(a, c, mp, &k->mod);
}

/* The entry of key k (address pc of process image p, in mapping mp or
 * in none) looked up as a leaf or not, filled if new; NULL when out of
 * memory. */
static const struct addrent *addr_get(struct analysis *a,
				      struct addrcache *c,
				      const struct akey *k,
				      const struct rmap *mp,
				      const struct rproc *p, uint64_t pc,
				      int leaf)
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
			size_t j = key_hash(&e->k, e->leaf) & (cap - 1);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = *e;
		}
		free(c->t);
		c->t = t;
		c->cap = cap;
	}
	size_t mask = c->cap - 1;
	size_t j = key_hash(k, leaf) & mask;
	while (c->t[j].used) {
		const struct addrent *e = &c->t[j];
		if (key_eq(&e->k, k) && e->leaf == leaf)
			return e;
		j = (j + 1) & mask;
	}
	struct symframe fr[SYM_MAX_FRAMES];
	int n;
	if (mp)
		n = sym_lookup(a->st, mp->path, mp->buildid, mp->buildid_len,
			       mp->bias, mp->start, mp->offset, pc, leaf, fr,
			       SYM_MAX_FRAMES);
	else
		n = sym_anon(a->st, p, pc, leaf, fr);
	if (n < 0 || (c->nfids + (size_t)n > c->capfids &&
		      mem_reserve(&c->fids, &c->capfids, c->nfids + (size_t)n,
				  sizeof(*c->fids), 65536)))
		return NULL;
	for (int i = 0; i < n; i++)
		if (func_get(a, &fr[i], &c->fids[c->nfids + (size_t)i]))
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
	e->k = *k;
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

/* A distinct stack of keys (struct akey), expanded once: the ranks of a
 * job sample the same stacks, each in a process of its own, and each
 * is expanded here once for all of them.  Its keys are
 * memo.keys[key .. key + npc), its functions a->exp[exp_off ..
 * exp_off + exp_n) once expanded. */
struct stackent {
	uint64_t hash;
	size_t key;
	uint32_t npc;
	uint32_t exp_off, exp_n;
	const char *leaf_file;
	int leaf_line;
	uint8_t own;        /* the sampler's own work */
	uint8_t expanded;
};

struct stackmemo {
	struct stackent *e; /* in order of first sight */
	size_t n, cap;
	uint32_t *idx;      /* index + 1 of e, open addressing */
	size_t capidx;
	struct akey *keys;
	size_t nkeys, capkeys;
};

static uint64_t keys_hash(const struct akey *k, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ k[i].off) * 0xff51afd7ed558ccdull;
		h = (h ^ k[i].rel ^ ((uint64_t)k[i].mod << 32 | k[i].proc)) *
		    0xc4ceb9fe1a85ec53ull;
		h ^= h >> 29;
	}
	return h ^ (h >> 32);
}

/* The index in the memo of the stack of keys k[0 .. n) into *ix, added
 * (not expanded) if new; 0 or MAPS_ENOMEM. */
static int memo_get(struct stackmemo *mo, const struct akey *k, uint32_t n,
		    uint32_t *ix)
{
	if ((mo->n + 1) * 2 > mo->capidx) {
		size_t cap = mo->capidx ? mo->capidx * 2 : 1024;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < mo->n; i++) {
			size_t j = mo->e[i].hash & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(mo->idx);
		mo->idx = t;
		mo->capidx = cap;
	}
	uint64_t h = keys_hash(k, n);
	size_t mask = mo->capidx - 1;
	size_t j = h & mask;
	for (; mo->idx[j]; j = (j + 1) & mask) {
		const struct stackent *e = &mo->e[mo->idx[j] - 1];
		if (e->hash == h && e->npc == n) {
			const struct akey *ek = mo->keys + e->key;
			uint32_t i = 0;
			while (i < n && key_eq(&ek[i], &k[i]))
				i++;
			if (i == n) {
				*ix = mo->idx[j] - 1;
				return 0;
			}
		}
	}
	if ((mo->n == mo->cap &&
	     mem_reserve(&mo->e, &mo->cap, mo->n + 1, sizeof(*mo->e), 1024)) ||
	    (mo->nkeys + n > mo->capkeys &&
	     mem_reserve(&mo->keys, &mo->capkeys, mo->nkeys + n,
			 sizeof(*mo->keys), 4096)))
		return MAPS_ENOMEM;
	memcpy(mo->keys + mo->nkeys, k, n * sizeof(*k));
	mo->e[mo->n] = (struct stackent){h, mo->nkeys, n, 0, 0, NULL, 0, 0, 0};
	mo->nkeys += n;
	mo->idx[j] = (uint32_t)mo->n + 1;
	*ix = (uint32_t)mo->n++;
	return 0;
}

/* Process images of the same layout: the same files mapped at the same
 * addresses, in the same order (ranks that load their code at the same
 * addresses: address-space randomization off, or a synthetic job).  A
 * stack of the same addresses has the same keys in each, an address in
 * no file aside (keyed by its process).  layout[i] is the index of the
 * first process image of m whose mappings are those of m->procs[i]. */
static int maps_same(const struct rproc *p, const struct rproc *q)
{
	if (p->nmaps != q->nmaps)
		return 0;
	for (size_t j = 0; j < p->nmaps; j++) {
		const struct rmap *a = &p->maps[j], *b = &q->maps[j];
		if (a->start != b->start || a->end != b->end ||
		    a->offset != b->offset || a->bias != b->bias ||
		    a->buildid_len != b->buildid_len ||
		    memcmp(a->buildid, b->buildid, a->buildid_len) ||
		    strcmp(a->path, b->path))
			return 0;
	}
	return 1;
}

static uint64_t maps_hash(const struct rproc *p)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ p->nmaps;
	for (size_t j = 0; j < p->nmaps; j++) {
		const struct rmap *a = &p->maps[j];
		h = (h ^ a->start) * 0xff51afd7ed558ccdull;
		h = (h ^ a->end ^ (a->offset << 17)) * 0xc4ceb9fe1a85ec53ull;
		for (const char *c = a->path; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

/* The layout of every process image of m (see maps_same()), a new array
 * of m->nprocs; NULL when out of memory. */
static uint32_t *layouts_of(const struct model *m)
{
	size_t cap = 16;
	while (cap < m->nprocs * 2)
		cap *= 2;
	uint32_t *lay = malloc((m->nprocs ? m->nprocs : 1) * sizeof(*lay));
	uint32_t *t = calloc(cap, sizeof(*t)); /* first of a layout + 1 */
	uint64_t *h = malloc((m->nprocs ? m->nprocs : 1) * sizeof(*h));
	if (!lay || !t || !h) {
		free(lay);
		lay = NULL;
		goto out;
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		h[i] = maps_hash(&m->procs[i]);
		size_t j = h[i] & (cap - 1);
		for (; t[j]; j = (j + 1) & (cap - 1))
			if (h[t[j] - 1] == h[i] &&
			    maps_same(&m->procs[t[j] - 1], &m->procs[i]))
				break;
		if (!t[j])
			t[j] = (uint32_t)i + 1;
		lay[i] = t[j] - 1;
	}
out:
	free(t);
	free(h);
	return lay;
}

/* Stacks of the same frames (model.spc offset and length: the model
 * gives stacks of the same addresses the same frames) in process images
 * of the same layout: their entry in the memo, found without working out
 * their keys again. */
struct shareent {
	uint32_t off, npc, layout;
	uint32_t ix1;       /* the memo's index + 1; 0: a free slot */
};

struct sharetab {
	struct shareent *t;
	size_t n, cap;
};

static size_t share_slot(const struct sharetab *st, uint32_t off,
			 uint32_t npc, uint32_t layout)
{
	uint64_t h = ((uint64_t)off << 32 | npc) * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)layout * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 31;
	size_t mask = st->cap - 1, j = h & mask;
	while (st->t[j].ix1 && (st->t[j].off != off || st->t[j].npc != npc ||
				st->t[j].layout != layout))
		j = (j + 1) & mask;
	return j;
}

/* The memo index of frames (off, npc) in layout into *ix: 1 if known,
 * else 0. */
static int share_find(const struct sharetab *st, uint32_t off, uint32_t npc,
		      uint32_t layout, uint32_t *ix)
{
	if (!st->cap)
		return 0;
	const struct shareent *e = &st->t[share_slot(st, off, npc, layout)];
	if (!e->ix1)
		return 0;
	*ix = e->ix1 - 1;
	return 1;
}

/* Keeps ix as the memo index of frames (off, npc) in layout; 0 or
 * MAPS_ENOMEM. */
static int share_put(struct sharetab *st, uint32_t off, uint32_t npc,
		     uint32_t layout, uint32_t ix)
{
	if ((st->n + 1) * 2 > st->cap) {
		struct sharetab nt = {NULL, 0, st->cap ? st->cap * 2 : 1024};
		nt.t = calloc(nt.cap, sizeof(*nt.t));
		if (!nt.t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < st->cap; i++)
			if (st->t[i].ix1)
				nt.t[share_slot(&nt, st->t[i].off, st->t[i].npc,
						st->t[i].layout)] = st->t[i];
		nt.n = st->n;
		free(st->t);
		*st = nt;
	}
	st->t[share_slot(st, off, npc, layout)] =
		(struct shareent){off, npc, layout, ix + 1};
	st->n++;
	return 0;
}

/* The used slots of m's stack table in the order the stacks were first
 * read (their frames lie in that order in spc, and a log's stacks
 * together), into a new array of m->nstacks; NULL when out of memory,
 * or when the stacks' seq numbers are not 0 .. nstacks - 1 (then *bad
 * is set). */
static uint32_t *read_order(const struct model *m, int *bad)
{
	*bad = 0;
	uint32_t *ord = malloc((m->nstacks ? m->nstacks : 1) * sizeof(*ord));
	if (!ord)
		return NULL;
	memset(ord, 0xff, (m->nstacks ? m->nstacks : 1) * sizeof(*ord));
	size_t n = 0;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used)
			continue;
		if (s->seq >= m->nstacks || ord[s->seq] != UINT32_MAX) {
			*bad = 1;
			break;
		}
		ord[s->seq] = (uint32_t)si;
		n++;
	}
	if (*bad || n != m->nstacks) {
		*bad = 1;
		free(ord);
		return NULL;
	}
	return ord;
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

/* Expands the stack pc[0 .. npc) of process image p, whose keys are
 * k and mappings mps, into a->exp and fills *se (but its key); 0 or
 * MAPS_ENOMEM. */
static int expand(struct analysis *a, struct addrcache *cache,
		  const struct rproc *p, const uint64_t *pc, uint32_t npc,
		  const struct akey *k, const struct rmap *const *mps,
		  struct stackent *se)
{
	uint32_t start = (uint32_t)a->nexp;
	int prev_sampler = 0;
	se->own = 0;
	se->leaf_file = NULL;
	se->leaf_line = 0;
	for (uint32_t i = 0; i < npc && a->nexp - start < MAX_EXP; i++) {
		const struct addrent *e = addr_get(a, cache, &k[i], mps[i], p,
						   pc[i], i == 0);
		if (!e)
			return MAPS_ENOMEM;
		/* the sampler's own work: its code at the leaf, or its
		 * constructor or destructor, called by the dynamic loader,
		 * anywhere in the stack */
		if ((i == 0 && e->sampler) || (prev_sampler && e->loader)) {
			se->own = 1;
			break;
		}
		prev_sampler = e->sampler;
		if (e->skip)
			continue;
		if (i == 0 && !e->kfid) {
			se->leaf_file = e->file;
			se->leaf_line = e->line;
		}
		if (a->nexp + e->n + 1 > a->capexp &&
		    mem_reserve(&a->exp, &a->capexp, a->nexp + e->n + 1,
				sizeof(uint32_t), 65536))
			return MAPS_ENOMEM;
		if (i == 0 && e->kfid) /* the kernel's, below the leaf */
			a->exp[a->nexp++] = e->kfid - 1;
		memcpy(a->exp + a->nexp, cache->fids + e->first,
		       e->n * sizeof(uint32_t));
		a->nexp += e->n;
	}
	if (se->own)
		a->nexp = start;
	se->exp_off = start;
	se->exp_n = (uint32_t)a->nexp - start;
	return 0;
}

/* The keys of stack s of m into k and its mappings into mps (grown to
 * fit), and its process image into *pp; 0 or MAPS_ENOMEM. */
static int keys_of(struct analysis *a, struct addrcache *c,
		   const struct model *m, const struct rstack *s,
		   struct akey **k, size_t *capk, const struct rmap ***mps,
		   size_t *capmps, const struct rproc **pp)
{
	if ((s->npc > *capk &&
	     mem_reserve(k, capk, s->npc, sizeof(**k), 64)) ||
	    (s->npc > *capmps &&
	     mem_reserve(mps, capmps, s->npc, sizeof(**mps), 64)))
		return MAPS_ENOMEM;
	const struct rproc *p = model_find_proc(m, s->pid, s->image);
	long pi = p ? (long)(p - m->procs) : -1;
	const uint64_t *pc = m->spc + s->off;
	for (uint32_t i = 0; i < s->npc; i++)
		if (key_of(a, c, p, pi, pc[i], &(*k)[i], &(*mps)[i]))
			return MAPS_ENOMEM;
	*pp = p;
	return 0;
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
	struct stackmemo memo = {0};
	struct akey *keys = NULL;            /* one stack's, scratch */
	const struct rmap **mps = NULL;
	const struct rproc *p;
	size_t capkeys = 0, capmps = 0;
	uint32_t *ord = NULL;
	uint32_t *layout = NULL;
	struct sharetab share = {0};
	int bad;
	if (!a->st || !a->exp_off || !a->exp_n || !a->own ||
	    (kernel_frames && !a->kf))
		goto out;
	if (m->nprocs > 1 && !(layout = layouts_of(m)))
		goto out;
	/* first each stack's entry in the memo (in exp_off for now), the
	 * stacks taken in the order they were read: their frames, and
	 * their processes' mappings, are then read from memory in order */
	ord = read_order(m, &bad);
	if (!ord && !bad)
		goto out;
	for (size_t o = 0; o < m->capstacks; o++) {
		size_t si = o;
		if (ord && o >= m->nstacks)
			break;
		if (ord) {
			si = ord[o];
			/* the slots are all over the table: asked for early,
			 * the slot is in the cache when its turn comes */
			if (o + 16 < m->nstacks)
				__builtin_prefetch(&m->stacks[ord[o + 16]]);
		}
		const struct rstack *s = &m->stacks[si];
		if (!s->used)
			continue;
		if (m->nprocs <= 1) {
			/* one process: its stacks differ in their addresses,
			 * and so in their keys but where one file is mapped
			 * twice, whose addresses the cache shares anyway, so
			 * each stack is an entry of its own, without keys */
			if (memo.n == memo.cap &&
			    mem_reserve(&memo.e, &memo.cap, memo.n + 1,
					sizeof(*memo.e), 1024))
				goto out;
			memo.e[memo.n] = (struct stackent){0};
			a->exp_off[si] = (uint32_t)memo.n++;
			continue;
		}
		/* a stack of the same frames in a process of the same
		 * layout: the same keys, without working them out */
		const struct rproc *sp = model_find_proc(m, s->pid, s->image);
		uint32_t lay = sp ? layout[sp - m->procs] : 0;
		if (sp && share_find(&share, s->off, s->npc, lay,
				     &a->exp_off[si]))
			continue;
		if (keys_of(a, &cache, m, s, &keys, &capkeys, &mps, &capmps,
			    &p) ||
		    memo_get(&memo, keys, s->npc, &a->exp_off[si]))
			goto out;
		uint32_t k = 0;
		while (k < s->npc && keys[k].mod != ANON)
			k++;
		if (sp && k == s->npc &&
		    share_put(&share, s->off, s->npc, lay, a->exp_off[si]))
			goto out;
	}
	free(share.t); /* only the first pass looks keys up */
	share.t = NULL;
	free(memo.keys); /* only the first pass compares keys */
	memo.keys = NULL;
	free(memo.idx);
	memo.idx = NULL;
	/* then, in the table's order (the order functions are numbered
	 * in), each distinct stack expanded at its first slot, and every
	 * stack counted */
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used)
			continue;
		struct stackent *se = &memo.e[a->exp_off[si]];
		if (!se->expanded) {
			if (keys_of(a, &cache, m, s, &keys, &capkeys, &mps,
				    &capmps, &p) ||
			    expand(a, &cache, p, m->spc + s->off, s->npc, keys,
				   mps, se))
				goto out;
			se->expanded = 1;
		}
		if (se->own) {
			a->own[si] = 1;
			a->own_samples += s->count;
		}
		a->exp_off[si] = se->exp_off;
		a->exp_n[si] = se->exp_n;
		if (se->exp_n == 0)
			continue;
		if (a->nfuncs > capmark) {
			size_t had = capmark;
			if (mem_reserve(&mark, &capmark, a->nfuncs, sizeof(*mark),
					1024))
				goto out;
			memset(mark + had, 0, (capmark - had) * sizeof(*mark));
		}
		gen++;
		uint32_t start = se->exp_off, end = start + se->exp_n;
		a->funcs[a->exp[start]].self += s->count;
		if (line_add(a->exp[start], se->leaf_file, se->leaf_line,
			     s->count, &lines, &nlines, &caplines))
			goto out;
		for (uint32_t k = start; k < end; k++) {
			uint32_t f = a->exp[k];
			if (mark[f] == gen)
				continue;
			mark[f] = gen;
			a->funcs[f].total += s->count;
		}
	}
	a->naddrs = cache.n;
	a->nexpanded = memo.n;
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
	free(cache.mm);
	free(memo.e);
	free(memo.idx);
	free(memo.keys);
	free(ord);
	free(layout);
	free(share.t);
	free(keys);
	free(mps);
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

