/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * folded: collapsed stacks for flame graph tools (mapreport --folded; see
 * folded.h), from the call tree (report/calltree.h): a line per node with
 * self samples, its path from the program down, sorted.  Names that read
 * the same once ';' and newlines are replaced merge into one line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/out/folded.h"

struct fold {
	char *s;
	uint64_t count;
};

/* The walk's state: the path to the node visited and the lines so far. */
struct folding {
	char *buf;          /* the path, names separated by ';' */
	size_t cap;
	size_t *len;        /* the path's length after depth d, by d */
	size_t caplen;
	struct fold *v;
	size_t nv, capv;
};

static int cmp_fold(const void *x, const void *y)
{
	return strcmp(((const struct fold *)x)->s, ((const struct fold *)y)->s);
}

/* Visits node i: its name after its parent's path; a line if stacks end
 * there. */
static int fold_node(const struct calltree *t, uint32_t i, void *arg)
{
	struct folding *g = arg;
	const struct calltree_node *f = &t->ct_nodes[i];
	uint32_t d = f->cn_depth;
	if (d == 0)
		return 0; /* the root is no frame */
	const char *name = t->ct_names[f->cn_name];
	size_t at = d > 1 ? g->len[d - 1] : 0, n = strlen(name);
	if ((at + n + 2 > g->cap &&
	     mem_reserve(&g->buf, &g->cap, at + n + 2, 1, 256)) ||
	    ((size_t)d >= g->caplen &&
	     mem_reserve(&g->len, &g->caplen, (size_t)d + 1, sizeof(*g->len),
			 64)))
		return MAPS_ENOMEM;
	if (at)
		g->buf[at++] = ';';
	for (size_t k = 0; k < n; k++) {
		char c = name[k];
		g->buf[at++] = c == ';' ? ':' : c == '\n' ? ' ' : c;
	}
	g->buf[at] = 0;
	g->len[d] = at;
	if (!f->cn_self)
		return 0;
	if (g->nv == g->capv && mem_grow(&g->v, &g->capv, g->nv, sizeof(*g->v)))
		return MAPS_ENOMEM;
	if (!(g->v[g->nv].s = mem_strdup(g->buf)))
		return MAPS_ENOMEM;
	g->v[g->nv++].count = f->cn_self;
	return 0;
}

int folded_emit(const struct output_in *in, FILE *out)
{
	struct folding g = {0};
	int rc = calltree_walk(in->oi_calltree, 1, fold_node, &g);
	if (!rc) {
		if (g.nv) /* none: g.v is NULL, which qsort may not get */
			qsort(g.v, g.nv, sizeof(*g.v), cmp_fold);
		for (size_t i = 0; i < g.nv; i++) {
			/* identical lines from different names merge */
			uint64_t c = g.v[i].count;
			while (i + 1 < g.nv && strcmp(g.v[i].s, g.v[i + 1].s) == 0)
				c += g.v[++i].count;
			fprintf(out, "%s %" PRIu64 "\n", g.v[i].s, c);
		}
	}
	for (size_t i = 0; i < g.nv; i++)
		free(g.v[i].s);
	free(g.v);
	free(g.buf);
	free(g.len);
	if (rc)
		return rc;
	return ferror(out) ? MAPS_EIO : 0;
}
