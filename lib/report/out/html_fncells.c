/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_fncells: the HTML page's exact call data for a selection (see
 * html_i.h).  The flame graph's cells (html_narrow.c) leave out the
 * frames under 1/20000 of the samples and may merge deep frames, so a
 * function's callers and callees in a small selection could come out
 * short.  Here every stack of the run is counted by function name, as
 * mapreport --callers and --callees count it: per (key, thread, time
 * bin) the samples of the stacks that hold the key, each stack once per
 * key however often it recurses, where a key is
 *   a function's total (stacks holding it),
 *   a function's self (stacks ending in it),
 *   a call from one function to another (stacks holding that call; the
 *   outermost function's caller is the program start).
 * html_narrow.c asks for it only where its cells of call-tree nodes are
 * not exact (deep frames merged into their callers' to fit): else the
 * page counts calls from those nodes.
 * report.js adds up the cells of a selection into the tables of
 * functions and any function's callers and callees.
 *
 * Counting: while the logs are read again, the samples per (stack slot,
 * thread, bin); then each slot's distinct keys (made once per slot) take
 * the samples of its cells.
 *
 * Size: cells grow with distinct (key, thread, bin) triples, never with
 * samples.  html_narrow.c halves the bins of its cells and these while
 * these are over their budget, down to half its bins; past that,
 * the keys with the fewest samples over the whole run are left out
 * until the cells fit, and the page is told which functions lost a key
 * (their callers or callees of a selection may then lack the smallest)
 * and the smallest key kept.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/html_i.h"

#define KEY_ROOT UINT32_MAX /* the caller of the outermost function */
#define KEY_TOTAL 0
#define KEY_SELF 1
#define KEY_CALL 2
/* the most (slot cell, key) pairs counted: some seconds */
#define FN_WORK_MAX 25000000

struct fn_key {
	uint32_t kind, a, b; /* KEY_*, function, callee (KEY_CALL) */
	uint64_t samples;    /* over the run, when the budget is applied */
	uint32_t cells;
};

/* a cell: id is a stack slot or a key */
struct fcell {
	uint32_t id, thread, bin;
	uint64_t count;
};

struct html_fncells {
	const struct model *m;
	const struct analysis *a;
	const struct calltree *t;
	struct fcell *sc;   /* by slot, as read */
	size_t nsc, capsc;
	struct keymap skeys;
	size_t *off;        /* slot s's keys: list[off[s] .. + cnt[s]) */
	uint32_t *cnt, *list;
	size_t nlist;
	const int32_t *fname; /* analysis function -> name of t, or -1 */
	struct fn_key *keys;
	size_t nkeys, capkeys;
	struct keymap kmap;
	struct fcell *fc;   /* by key */
	size_t nfc, capfc;
	uint32_t shift;     /* the fcells' bins: the scells' >> shift */
	uint64_t min_kept;  /* the smallest key kept when some were left out,
			     * else 0 */
	uint8_t *partial;   /* per name of t: lost a key */
};

struct html_fncells *html_fncells_new(const struct model *m,
				      const struct analysis *a,
				      const struct calltree *t,
				      const int32_t *fname)
{
	struct html_fncells *f = calloc(1, sizeof(*f));
	if (f) {
		f->m = m;
		f->a = a;
		f->t = t;
		f->fname = fname;
	}
	return f;
}

void html_fncells_free(struct html_fncells *f)
{
	if (!f)
		return;
	free(f->sc);
	keymap_free(&f->skeys);
	free(f->off);
	free(f->cnt);
	free(f->list);
	free(f->keys);
	keymap_free(&f->kmap);
	free(f->fc);
	free(f->partial);
	free(f);
}

int html_fncells_sample(struct html_fncells *f, size_t thread, size_t slot,
			uint32_t bin)
{
	int added;
	long i = keymap_add(&f->skeys, (uint32_t)slot, (uint32_t)thread, bin,
			    &f->sc, &f->nsc, &f->capsc, sizeof(*f->sc),
			    &added);
	if (i < 0)
		return MAPS_ENOMEM;
	if (added) {
		f->sc[i].id = (uint32_t)slot;
		f->sc[i].thread = (uint32_t)thread;
		f->sc[i].bin = bin;
	}
	f->sc[i].count++;
	return 0;
}

/* The index of key (kind, a, b), made when new; -1 out of memory. */
static long key_of(struct html_fncells *f, uint32_t kind, uint32_t a,
		   uint32_t b)
{
	int added;
	long i = keymap_add(&f->kmap, kind, a, b, &f->keys, &f->nkeys,
			    &f->capkeys, sizeof(*f->keys), &added);
	if (i >= 0 && added) {
		f->keys[i].kind = kind;
		f->keys[i].a = a;
		f->keys[i].b = b;
	}
	return i;
}

/* Appends key k to list unless this stack has it (seen[k] == gen). */
static int list_key(long k, uint32_t **list, size_t *n, size_t *cap,
		    uint32_t **seen, size_t *capseen, uint32_t gen)
{
	if (k < 0)
		return MAPS_ENOMEM;
	if ((size_t)k >= *capseen) {
		size_t c = *capseen ? *capseen : 256;
		while (c <= (size_t)k)
			c *= 2;
		uint32_t *s = realloc(*seen, c * sizeof(*s));
		if (!s)
			return MAPS_ENOMEM;
		memset(s + *capseen, 0, (c - *capseen) * sizeof(*s));
		*seen = s;
		*capseen = c;
	}
	if ((*seen)[k] == gen)
		return 0;
	(*seen)[k] = gen;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 1024;
		uint32_t *l = realloc(*list, c * sizeof(*l));
		if (!l)
			return MAPS_ENOMEM;
		*list = l;
		*cap = c;
	}
	(*list)[(*n)++] = (uint32_t)k;
	return 0;
}

static int cmp_fcell(const void *x, const void *y)
{
	const struct fcell *a = x, *b = y;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return a->bin < b->bin ? -1 : a->bin > b->bin;
}

/* Sorts the n cells c and merges those that are the same; returns how
 * many are left. */
static size_t merge_fcells(struct fcell *c, size_t n)
{
	if (n) /* qsort takes no NULL, even for none */
		qsort(c, n, sizeof(*c), cmp_fcell);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && !cmp_fcell(&c[w - 1], &c[i]))
			c[w - 1].count += c[i].count;
		else
			c[w++] = c[i];
	}
	return w;
}

int html_fncells_build(struct html_fncells *f, uint32_t shift)
{
	const struct analysis *a = f->a;
	const struct model *m = f->m;
	size_t nslots = m->capstacks;
	const int32_t *fname = f->fname;
	uint8_t *want = calloc(nslots ? nslots : 1, 1);
	uint32_t *seen = NULL;
	size_t caplist = 0, capseen = 0;
	struct keymap cm = {0};
	int rc = MAPS_ENOMEM;
	f->off = calloc(nslots ? nslots : 1, sizeof(*f->off));
	f->cnt = calloc(nslots ? nslots : 1, sizeof(*f->cnt));
	if (!want || !f->off || !f->cnt)
		goto out;
	for (size_t i = 0; i < f->nsc; i++)
		want[f->sc[i].id] = 1;
	uint32_t gen = 0;
	for (size_t si = 0; si < nslots; si++) {
		if (!want[si])
			continue;
		const uint32_t *e = a->exp + a->exp_off[si];
		uint32_t n = a->exp_n[si];
		f->off[si] = f->nlist;
		if (++gen == 0) { /* wrapped: forget every mark */
			memset(seen, 0, capseen * sizeof(*seen));
			gen = 1;
		}
		/* e[0] is the innermost frame, e[n - 1] the outermost */
		for (uint32_t k = 0; k < n; k++) {
			int32_t me = fname[e[k]];
			if (me < 0)
				continue;
			uint32_t caller = KEY_ROOT;
			for (uint32_t j = k + 1; j < n; j++)
				if (fname[e[j]] >= 0) {
					caller = (uint32_t)fname[e[j]];
					break;
				}
			if (list_key(key_of(f, KEY_TOTAL, (uint32_t)me, 0),
				     &f->list, &f->nlist, &caplist, &seen,
				     &capseen, gen) ||
			    (k == 0 &&
			     list_key(key_of(f, KEY_SELF, (uint32_t)me, 0),
				      &f->list, &f->nlist, &caplist, &seen,
				      &capseen, gen)) ||
			    list_key(key_of(f, KEY_CALL, caller, (uint32_t)me),
				     &f->list, &f->nlist, &caplist, &seen,
				     &capseen, gen))
				goto out;
		}
		f->cnt[si] = (uint32_t)(f->nlist - f->off[si]);
	}
	f->shift = shift;
	/* a cell per key of its slot for each slot cell: give up past
	 * FN_WORK_MAX of them */
	uint64_t work = 0;
	for (size_t i = 0; i < f->nsc; i++)
		work += f->cnt[f->sc[i].id];
	if (work > FN_WORK_MAX) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < f->nsc; i++) {
		const struct fcell *s = &f->sc[i];
		uint32_t bin = s->bin >> shift;
		for (uint32_t k = 0; k < f->cnt[s->id]; k++) {
			uint32_t key = f->list[f->off[s->id] + k];
			int added;
			long c = keymap_add(&cm, key, s->thread, bin, &f->fc,
					    &f->nfc, &f->capfc, sizeof(*f->fc),
					    &added);
			if (c < 0)
				goto out;
			if (added) {
				f->fc[c].id = key;
				f->fc[c].thread = s->thread;
				f->fc[c].bin = bin;
			}
			f->fc[c].count += s->count;
		}
	}
	f->nfc = merge_fcells(f->fc, f->nfc);
	rc = 0;
out:
	keymap_free(&cm);
	free(want);
	free(seen);
	return rc;
}

size_t html_fncells_count(const struct html_fncells *f)
{
	return f->nfc;
}

void html_fncells_halve(struct html_fncells *f)
{
	for (size_t i = 0; i < f->nfc; i++)
		f->fc[i].bin >>= 1;
	f->shift++;
	f->nfc = merge_fcells(f->fc, f->nfc);
}

/* qsort_r is not C11: the keys for the comparison through a file-scope
 * pointer (the report is made by one thread). */
static const struct fn_key *rank_keys;

/* Most samples first, then by key index. */
static int cmp_rank(const void *x, const void *y)
{
	const struct fn_key *k = rank_keys;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	if (k[i].samples != k[j].samples)
		return k[i].samples > k[j].samples ? -1 : 1;
	return i < j ? -1 : i > j;
}

int html_fncells_fit(struct html_fncells *f, size_t budget)
{
	if (f->nfc <= budget)
		return 0;
	uint32_t *order = malloc((f->nkeys ? f->nkeys : 1) * sizeof(*order));
	uint8_t *keep = calloc(f->nkeys ? f->nkeys : 1, 1);
	f->partial = calloc(f->t->ct_nnames ? f->t->ct_nnames : 1, 1);
	if (!order || !keep || !f->partial) {
		free(order);
		free(keep);
		return MAPS_ENOMEM;
	}
	for (size_t k = 0; k < f->nkeys; k++) {
		f->keys[k].samples = 0;
		f->keys[k].cells = 0;
		order[k] = (uint32_t)k;
	}
	for (size_t i = 0; i < f->nfc; i++) {
		f->keys[f->fc[i].id].samples += f->fc[i].count;
		f->keys[f->fc[i].id].cells++;
	}
	rank_keys = f->keys;
	if (f->nkeys) /* qsort takes no NULL, even for none */
		qsort(order, f->nkeys, sizeof(*order), cmp_rank);
	size_t used = 0;
	for (size_t r = 0; r < f->nkeys; r++) {
		const struct fn_key *k = &f->keys[order[r]];
		if (used + k->cells > budget)
			break;
		used += k->cells;
		keep[order[r]] = 1;
		f->min_kept = k->samples;
	}
	for (size_t k = 0; k < f->nkeys; k++) {
		if (keep[k])
			continue;
		const struct fn_key *x = &f->keys[k];
		f->partial[x->kind == KEY_CALL ? x->b : x->a] = 1;
		if (x->kind == KEY_CALL && x->a != KEY_ROOT)
			f->partial[x->a] = 1;
	}
	size_t w = 0;
	for (size_t i = 0; i < f->nfc; i++)
		if (keep[f->fc[i].id])
			f->fc[w++] = f->fc[i];
	f->nfc = w;
	free(order);
	free(keep);
	return 0;
}

void html_fncells_names(const struct html_fncells *f, uint8_t *used)
{
	for (size_t i = 0; i < f->nfc; i++) {
		const struct fn_key *k = &f->keys[f->fc[i].id];
		used[k->kind == KEY_CALL ? k->b : k->a] = 1;
		if (k->kind == KEY_CALL && k->a != KEY_ROOT)
			used[k->a] = 1;
	}
}

/* As html_i.h says: the last digit from DIGIT_END, the others from
 * DIGIT_MORE. */
static const char DIGIT_END[] = "0123456789abcdefghijklmnopqrstuv";
static const char DIGIT_MORE[] = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-";

void html_put_num(FILE *out, uint64_t v)
{
	char buf[16];
	int n = 0;
	buf[n++] = DIGIT_END[v & 31];
	for (v >>= 5; v; v >>= 5)
		buf[n++] = DIGIT_MORE[v & 31];
	while (n-- > 0)
		fputc(buf[n], out);
}

/* The n cells c (sorted by id, thread, bin) as strings, to be joined:
 * "!" and a number moves to a later id (by that many; thread and bin
 * back to 0), "." and a number to a later thread (bin back to 0); then
 * each cell is two numbers: its bin less the previous cell's (or 0), and
 * its samples.  The ids are renumbered by idn, which keeps their order. */
static void write_cells(FILE *out, const struct fcell *c, size_t n,
			const uint32_t *idn)
{
	uint32_t id = 0, thread = 0, bin = 0;
	for (size_t i = 0; i < n; i++, c++) {
		if (idn[c->id] != id) {
			fputc('!', out);
			html_put_num(out, idn[c->id] - id);
			id = idn[c->id];
			thread = bin = 0;
		}
		if (c->thread != thread) {
			fputc('.', out);
			html_put_num(out, c->thread - thread);
			thread = c->thread;
			bin = 0;
		}
		html_put_num(out, c->bin - bin);
		html_put_num(out, c->count);
		bin = c->bin;
		if (i % 32 == 31 && i + 1 < n)
			fputs("\",\n\"", out); /* short lines */
	}
}

int html_fncells_write(FILE *out, const struct html_fncells *f,
		       const uint32_t *pn, uint32_t nnames)
{
	const struct calltree *t = f->t;
	/* the keys written, numbered in order */
	uint32_t *kn = malloc((f->nkeys ? f->nkeys : 1) * sizeof(*kn));
	int rc = MAPS_ENOMEM;
	if (!kn)
		return rc;
	for (size_t k = 0; k < f->nkeys; k++)
		kn[k] = UINT32_MAX;
	for (size_t i = 0; i < f->nfc; i++)
		kn[f->fc[i].id] = 0;
	/* a key: two numbers, a function + 1 (0: the program start) and 0
	 * for its total, 1 for its self, a callee + 2 for a call */
	fputs(",\n\"fn\":{\"keys\":[\"", out);
	uint32_t nk = 0;
	for (size_t k = 0; k < f->nkeys; k++) {
		if (kn[k] == UINT32_MAX)
			continue;
		kn[k] = nk++;
		const struct fn_key *x = &f->keys[k];
		html_put_num(out, x->a == KEY_ROOT ? 0 : pn[x->a] + 1);
		html_put_num(out, x->kind == KEY_CALL ? pn[x->b] + 2
						 : x->kind == KEY_SELF);
		if (nk % 64 == 0)
			fputs("\",\n\"", out); /* short lines */
	}
	fputs("\"],\n\"cells\":[\"", out);
	write_cells(out, f->fc, f->nfc, kn);
	fputs("\"]", out);
	if (f->partial) {
		/* the smallest key kept, and the functions that lost a key
		 * as bits, 5 a character, lowest first: function i is bit
		 * i % 5 of character i / 5 (a digit of DIGIT_END) */
		fprintf(out, ",\n\"min\":%" PRIu64 ",\"partial\":[\"",
			f->min_kept);
		uint32_t bits = 0, next = nnames;
		uint8_t *is = calloc(next ? next : 1, 1);
		if (!is)
			goto out;
		for (size_t i = 0; i < t->ct_nnames; i++)
			if (f->partial[i] && pn[i] != UINT32_MAX)
				is[pn[i]] = 1;
		for (uint32_t i = 0; i < next; i++) {
			bits |= (uint32_t)is[i] << (i % 5);
			if (i % 5 == 4 || i + 1 == next) {
				fputc(DIGIT_END[bits], out);
				bits = 0;
			}
			if (i % 1280 == 1279 && i + 1 < next)
				fputs("\",\n\"", out); /* short lines */
		}
		free(is);
		fputs("\"]", out);
	}
	fputs("}", out);
	rc = 0;
out:
	free(kn);
	return rc;
}
