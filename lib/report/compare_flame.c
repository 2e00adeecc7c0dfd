/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_flame: the differential flame graph's frames (see
 * compare_flame.h).  NEW's tree is walked depth first, parents before
 * children and children biggest first, so a frame starts where its
 * previous sibling ended, or where its parent starts; the frames left
 * out are the smallest of their siblings and leave no gap.  Each frame's
 * path is found in BASE's tree one step at a time: the BASE node of its
 * parent, then that node's child of the same name.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/compare_flame.h"

#define NONE UINT32_MAX

struct walk {
	struct cmp_flame *f;
	const struct calltree *base, *new;
	uint32_t *base_of;    /* NEW node -> BASE node, or NONE */
	double *next;         /* by depth: where the next frame starts */
	size_t capnext;
};

/* BASE's child of node b named name, or NONE. */
static uint32_t base_kid(const struct calltree *t, uint32_t b,
			 const char *name)
{
	const struct calltree_node *n = &t->ct_nodes[b];
	for (uint32_t k = 0; k < n->cn_nkids; k++) {
		uint32_t c = t->ct_kids[n->cn_kid0 + k];
		if (strcmp(t->ct_names[t->ct_nodes[c].cn_name], name) == 0)
			return c;
	}
	return NONE;
}

static int visit(const struct calltree *t, uint32_t i, void *arg)
{
	struct walk *w = arg;
	const struct calltree_node *n = &t->ct_nodes[i];
	const char *name = t->ct_names[n->cn_name];
	uint32_t b = NONE;
	if (i == 0)
		b = w->base->ct_n ? 0 : NONE;
	else if (w->base_of[n->cn_parent] != NONE)
		b = base_kid(w->base, w->base_of[n->cn_parent], name);
	w->base_of[i] = b;
	size_t d = n->cn_depth;
	if (d + 2 > w->capnext) {
		size_t had = w->capnext;
		if (mem_reserve(&w->next, &w->capnext, d + 2, sizeof(double),
				64))
			return MAPS_ENOMEM;
		memset(w->next + had, 0, (w->capnext - had) * sizeof(double));
	}
	double total = (double)t->ct_nodes[0].cn_value;
	double btotal = w->base->ct_n ? (double)w->base->ct_nodes[0].cn_value
				      : 0;
	struct cmp_flame *f = w->f;
	if (mem_grow(&f->cf, &f->cap, f->n, sizeof(*f->cf)))
		return MAPS_ENOMEM;
	struct cmp_frame *fr = &f->cf[f->n++];
	fr->cf_name = name;
	fr->cf_depth = n->cn_depth;
	fr->cf_x = w->next[d];
	fr->cf_w = total ? (double)n->cn_value / total : 0;
	fr->cf_base = b != NONE && btotal
			      ? (double)w->base->ct_nodes[b].cn_value / btotal
			      : 0;
	w->next[d + 1] = fr->cf_x; /* its children start where it does */
	w->next[d] += fr->cf_w;
	if (n->cn_depth > f->depth)
		f->depth = n->cn_depth;
	return 0;
}

int compare_flame(struct cmp_flame *f, const struct calltree *base,
		  const struct calltree *new, double min_share)
{
	memset(f, 0, sizeof(*f));
	if (!new->ct_n)
		return 0;
	struct walk w = {f, base, new, NULL, NULL, 0};
	w.base_of = malloc(new->ct_n * sizeof(uint32_t));
	int rc = MAPS_ENOMEM;
	if (w.base_of)
		rc = calltree_walk(new, (uint64_t)(min_share *
					(double)new->ct_nodes[0].cn_value),
				   visit, &w);
	free(w.base_of);
	free(w.next);
	if (rc)
		compare_flame_free(f);
	return rc;
}

void compare_flame_free(struct cmp_flame *f)
{
	free(f->cf);
	memset(f, 0, sizeof(*f));
}
