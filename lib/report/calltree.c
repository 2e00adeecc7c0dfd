/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * calltree: the run's call tree from the analysis's stacks (calltree.h).
 *
 * Names are interned by content (open addressing on an FNV-1a hash), so
 * the same function name from two processes or two modules is one name;
 * nodes are found by (parent, name) in a second table.  Once every stack
 * is in, the children of each node are made contiguous in ct_kids, in
 * parent order, and each node's sorted by (value descending, name).
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/calltree.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t node_key(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/* The hash of name i and of node i, for index_room. */
static uint64_t name_hash_at(const struct calltree *t, size_t i)
{
	return str_hash(t->ct_names[i]);
}

static uint64_t node_hash_at(const struct calltree *t, size_t i)
{
	return node_key(t->ct_nodes[i].cn_parent, t->ct_nodes[i].cn_name);
}

/*
 * Makes the lookup table *tab (*cap slots of an entry's index + 1, 0 for
 * none; open addressing) hold one more than its entries from .. n - 1
 * at most half full: when it would be fuller, a table twice the size
 * (first slots at first) with those entries placed by hash.  0 or -1
 * when out of memory.
 */
static int index_room(const struct calltree *t, uint32_t **tab, size_t *cap,
		      size_t first, size_t from, size_t n,
		      uint64_t (*hash)(const struct calltree *, size_t))
{
	if ((n + 1) * 2 <= *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : first;
	uint32_t *h = calloc(nc, sizeof(*h));
	if (!h)
		return -1;
	for (size_t i = from; i < n; i++) {
		size_t j = hash(t, i) & (nc - 1);
		while (h[j])
			j = (j + 1) & (nc - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(*tab);
	*tab = h;
	*cap = nc;
	return 0;
}

/* The id of name s, added if new; -1 when out of memory. */
static int64_t name_id(struct calltree *t, const char *s)
{
	if (index_room(t, &t->ct_namehash, &t->ct_capnamehash, 1024, 0,
		       t->ct_nnames, name_hash_at))
		return -1;
	size_t mask = t->ct_capnamehash - 1;
	size_t j = str_hash(s) & mask;
	for (; t->ct_namehash[j]; j = (j + 1) & mask)
		if (!strcmp(t->ct_names[t->ct_namehash[j] - 1], s))
			return t->ct_namehash[j] - 1;
	if (t->ct_nnames == t->ct_capnames &&
	    mem_reserve(&t->ct_names, &t->ct_capnames, t->ct_nnames + 1,
			sizeof(*t->ct_names), 1024))
		return -1;
	t->ct_names[t->ct_nnames] = s;
	t->ct_namehash[j] = (uint32_t)++t->ct_nnames;
	return (int64_t)t->ct_nnames - 1;
}

/* The node of name under parent, added if new; -1 when out of memory.
 * The root is in no table: it is no one's child. */
static int64_t node_get(struct calltree *t, uint32_t parent, int64_t name)
{
	if (name < 0 || index_room(t, &t->ct_hash, &t->ct_caphash, 4096, 1,
				   t->ct_n, node_hash_at))
		return -1;
	size_t mask = t->ct_caphash - 1;
	size_t j = node_key(parent, (uint32_t)name) & mask;
	for (; t->ct_hash[j]; j = (j + 1) & mask) {
		const struct calltree_node *f = &t->ct_nodes[t->ct_hash[j] - 1];
		if (f->cn_parent == parent && f->cn_name == name)
			return t->ct_hash[j] - 1;
	}
	if (t->ct_n == t->ct_cap &&
	    mem_reserve(&t->ct_nodes, &t->ct_cap, t->ct_n + 1,
			sizeof(*t->ct_nodes), 4096))
		return -1;
	struct calltree_node *f = &t->ct_nodes[t->ct_n];
	memset(f, 0, sizeof(*f));
	f->cn_name = (uint32_t)name;
	f->cn_parent = parent;
	f->cn_depth = t->ct_nodes[parent].cn_depth + 1;
	t->ct_hash[j] = (uint32_t)++t->ct_n;
	return (int64_t)t->ct_n - 1;
}

static const struct calltree *sort_tree; /* qsort has no context */

/* Siblings: biggest first, then by name (siblings' names differ). */
static int cmp_kid(const void *a, const void *b)
{
	const struct calltree_node *x = &sort_tree->ct_nodes[*(const uint32_t *)a];
	const struct calltree_node *y = &sort_tree->ct_nodes[*(const uint32_t *)b];
	if (x->cn_value != y->cn_value)
		return x->cn_value < y->cn_value ? 1 : -1;
	return strcmp(sort_tree->ct_names[x->cn_name],
		      sort_tree->ct_names[y->cn_name]);
}

/* Adds the stack in slot si of m's stack table; fname maps the
 * analysis's function ids to name ids. */
static int add_stack(struct calltree *t, const struct model *m,
		     const struct analysis *a, const uint32_t *fname, size_t si)
{
	const struct rstack *s = &m->stacks[si];
	int64_t cur = node_get(t, 0, name_id(t, model_proc_name(m, s->pid,
								 s->image)));
	if (cur < 0)
		return MAPS_ENOMEM;
	t->ct_nodes[0].cn_value += s->count;
	t->ct_nodes[cur].cn_value += s->count;
	const uint32_t *e = a->exp + a->exp_off[si];
	for (uint32_t k = a->exp_n[si]; k-- > 0;) {
		cur = node_get(t, (uint32_t)cur, fname[e[k]]);
		if (cur < 0)
			return MAPS_ENOMEM;
		t->ct_nodes[cur].cn_value += s->count;
	}
	t->ct_nodes[cur].cn_self += s->count;
	return 0;
}

/* Lists the children of each node in ct_kids, contiguous and in parent
 * order (a counting sort), then sorts each node's, biggest first.  0 or
 * MAPS_ENOMEM. */
static int order_kids(struct calltree *t)
{
	t->ct_kids = calloc(t->ct_n, sizeof(*t->ct_kids));
	if (!t->ct_kids)
		return MAPS_ENOMEM;
	struct calltree_node *n = t->ct_nodes;
	for (size_t i = 1; i < t->ct_n; i++)
		n[n[i].cn_parent].cn_nkids++;
	uint32_t at = 0;
	for (size_t i = 0; i < t->ct_n; i++) {
		n[i].cn_kid0 = at;
		at += n[i].cn_nkids;
		n[i].cn_nkids = 0;
	}
	for (size_t i = 1; i < t->ct_n; i++) {
		struct calltree_node *p = &n[n[i].cn_parent];
		t->ct_kids[p->cn_kid0 + p->cn_nkids++] = (uint32_t)i;
	}
	sort_tree = t;
	for (size_t i = 0; i < t->ct_n; i++)
		if (n[i].cn_nkids > 1)
			qsort(t->ct_kids + n[i].cn_kid0, n[i].cn_nkids,
			      sizeof(*t->ct_kids), cmp_kid);
	return 0;
}

int calltree_build(struct calltree *t, const struct model *m,
		   const struct analysis *a)
{
	uint32_t *fname = NULL;
	memset(t, 0, sizeof(*t));
	if (mem_reserve(&t->ct_nodes, &t->ct_cap, 1, sizeof(*t->ct_nodes),
			4096))
		goto fail;
	memset(&t->ct_nodes[0], 0, sizeof(t->ct_nodes[0]));
	t->ct_n = 1;
	int64_t root = name_id(t, "all");
	if (root < 0)
		goto fail;
	t->ct_nodes[0].cn_name = (uint32_t)root;
	/* each function's name looked up once, not once per frame */
	fname = malloc((a->nfuncs ? a->nfuncs : 1) * sizeof(*fname));
	if (!fname)
		goto fail;
	for (size_t i = 0; i < a->nfuncs; i++) {
		int64_t id = name_id(t, a->funcs[i].name);
		if (id < 0)
			goto fail;
		fname[i] = (uint32_t)id;
	}
	for (size_t si = 0; si < m->capstacks; si++)
		if (m->stacks[si].used && m->stacks[si].count &&
		    !a->own[si] && add_stack(t, m, a, fname, si))
			goto fail;
	free(fname);
	fname = NULL;
	if (order_kids(t))
		goto fail;
	/* the lookup tables are for building only */
	free(t->ct_hash);
	free(t->ct_namehash);
	t->ct_hash = t->ct_namehash = NULL;
	t->ct_caphash = t->ct_capnamehash = 0;
	return 0;
fail:
	free(fname);
	calltree_free(t);
	return MAPS_ENOMEM;
}

void calltree_free(struct calltree *t)
{
	free(t->ct_nodes);
	free(t->ct_kids);
	free(t->ct_names);
	free(t->ct_hash);
	free(t->ct_namehash);
	memset(t, 0, sizeof(*t));
}

int calltree_walk(const struct calltree *t, uint64_t min,
		  int (*fn)(const struct calltree *t, uint32_t node,
			    void *arg),
		  void *arg)
{
	uint32_t *stack = calloc(t->ct_n + 1, sizeof(*stack));
	if (!stack)
		return MAPS_ENOMEM;
	size_t sp = 0;
	int rc = 0;
	stack[sp++] = 0;
	while (sp && !rc) {
		uint32_t i = stack[--sp];
		rc = fn(t, i, arg);
		const struct calltree_node *f = &t->ct_nodes[i];
		/* push in reverse so the biggest child comes out first */
		for (uint32_t k = f->cn_nkids; k-- > 0;) {
			uint32_t c = t->ct_kids[f->cn_kid0 + k];
			if (t->ct_nodes[c].cn_value >= min)
				stack[sp++] = c;
		}
	}
	free(stack);
	return rc;
}
