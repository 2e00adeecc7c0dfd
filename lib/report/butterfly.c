/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * butterfly: callers and callees of one function (see butterfly.h).
 * One pass over the analysis's expanded stacks (function ids, leaf
 * first); per stack a generation number marks the callers and callees
 * already counted, so a stack counts once for each however deep the
 * recursion.  Memory is a few words per function of the analysis.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/butterfly.h"
#include "report/shorten.h"

/* Whether function name fn is the one asked for as name: the same, or
 * (loose 1) the same up to fn's argument list, or (loose 2) fn's short
 * form is name. */
static int name_is(const char *fn, const char *name, size_t len, int loose)
{
	char buf[1024];
	if (!loose)
		return strcmp(fn, name) == 0;
	if (loose == 1)
		return strncmp(fn, name, len) == 0 && fn[len] == '(';
	return name_shorten(fn, buf, sizeof(buf)) < sizeof(buf) &&
	       strcmp(buf, name) == 0;
}

size_t butterfly_match(const struct analysis *a, const char *name,
		       uint8_t *is_t)
{
	size_t n = 0, len = strlen(name);
	for (int loose = 0; loose < 3 && !n; loose++)
		for (size_t i = 0; i < a->nfuncs; i++)
			if (name_is(a->funcs[i].name, name, len, loose)) {
				is_t[i] = 1;
				n++;
			}
	return n;
}

static const struct analysis *sort_an; /* qsort has no context */

static int cmp_row(const void *x, const void *y)
{
	const struct butterfly_row *p = x, *q = y;
	if (p->br_samples != q->br_samples)
		return p->br_samples < q->br_samples ? 1 : -1;
	if (p->br_func == BUTTERFLY_ROOT || q->br_func == BUTTERFLY_ROOT)
		return p->br_func == BUTTERFLY_ROOT ? 1 : -1;
	int c = strcmp(sort_an->funcs[p->br_func].name,
		       sort_an->funcs[q->br_func].name);
	return c ? c : strcmp(sort_an->funcs[p->br_func].module,
			      sort_an->funcs[q->br_func].module);
}

/* The rows of the counts cnt[0..n] (cnt[n]: the root) that are not 0,
 * sorted, into *rows and *nrows.  0 or MAPS_ENOMEM. */
static int rows(const struct analysis *a, const uint64_t *cnt, size_t n,
		struct butterfly_row **rows, size_t *nrows)
{
	size_t k = 0;
	for (size_t i = 0; i <= n; i++)
		k += cnt[i] != 0;
	*rows = malloc((k ? k : 1) * sizeof(**rows));
	if (!*rows)
		return MAPS_ENOMEM;
	k = 0;
	for (size_t i = 0; i <= n; i++)
		if (cnt[i])
			(*rows)[k++] = (struct butterfly_row){
				i == n ? BUTTERFLY_ROOT : (uint32_t)i, cnt[i]};
	sort_an = a;
	qsort(*rows, k, sizeof(**rows), cmp_row);
	*nrows = k;
	return 0;
}

/* Adds c to cnt[f] unless stack gen already did (seen[f] == gen). */
static void count_once(uint64_t *cnt, uint32_t *seen, uint32_t f,
		       uint32_t gen, uint64_t c)
{
	if (seen[f] == gen)
		return;
	seen[f] = gen;
	cnt[f] += c;
}

int butterfly_build(struct butterfly *b, const struct model *m,
		    const struct analysis *a, const char *name)
{
	memset(b, 0, sizeof(*b));
	size_t nf = a->nfuncs;
	uint8_t *is_t = calloc(nf + 1, 1);
	/* callers (slot nf: the root) and callees, with their marks */
	uint64_t *ner = calloc(nf + 1, sizeof(*ner));
	uint64_t *nee = calloc(nf + 1, sizeof(*nee));
	uint32_t *ser = calloc(nf + 1, sizeof(*ser));
	uint32_t *see = calloc(nf + 1, sizeof(*see));
	int rc = MAPS_ENOMEM;
	if (!is_t || !ner || !nee || !ser || !see)
		goto out;
	b->bf_nfuncs = butterfly_match(a, name, is_t);
	b->bf_funcs = malloc((b->bf_nfuncs ? b->bf_nfuncs : 1) *
			     sizeof(*b->bf_funcs));
	if (!b->bf_funcs)
		goto out;
	for (size_t i = 0, k = 0; i < nf; i++)
		if (is_t[i])
			b->bf_funcs[k++] = (uint32_t)i;
	uint32_t gen = 0;
	for (size_t si = 0; b->bf_nfuncs && si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used || !s->count || !a->exp_n[si])
			continue;
		const uint32_t *e = a->exp + a->exp_off[si];
		uint32_t n = a->exp_n[si];
		int on = 0;
		gen++;
		for (uint32_t k = 0; k < n; k++) {
			if (!is_t[e[k]])
				continue;
			on = 1;
			count_once(ner, ser, k + 1 < n ? e[k + 1] : (uint32_t)nf,
				   gen, s->count);
			if (k > 0)
				count_once(nee, see, e[k - 1], gen, s->count);
		}
		if (on)
			b->bf_total += s->count;
		if (is_t[e[0]])
			b->bf_self += s->count;
	}
	if (rows(a, ner, nf, &b->bf_callers, &b->bf_ncallers) ||
	    rows(a, nee, nf, &b->bf_callees, &b->bf_ncallees))
		goto out;
	rc = 0;
out:
	free(is_t);
	free(ner);
	free(nee);
	free(ser);
	free(see);
	if (rc)
		butterfly_free(b);
	return rc;
}

void butterfly_free(struct butterfly *b)
{
	free(b->bf_funcs);
	free(b->bf_callers);
	free(b->bf_callees);
	memset(b, 0, sizeof(*b));
}
