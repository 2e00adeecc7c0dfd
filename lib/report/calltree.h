/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * calltree: the call tree of a run, built once from the analysis's
 * symbolized stacks for the outputs that draw or list paths (the HTML
 * flame graph and its call-tree table, the folded stacks).
 *
 * Stacks are merged across processes by name: under the root ("all")
 * one node per program name (model_proc_name), under it the outermost
 * function, and so on to the leaf, a node per distinct path of names.
 * A node's value is the samples whose stack passes through it, its self
 * the samples whose stack ends at it.  The stacks of the sampler's own
 * work (analysis.own) are left out.  Children are listed biggest first,
 * then by name, so walks are the same for the same logs.
 */
#ifndef MAPSAMPLE_REPORT_CALLTREE_H
#define MAPSAMPLE_REPORT_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "report/analyze.h"

struct calltree_node {
	uint32_t cn_name;   /* index in ct_names */
	uint32_t cn_parent; /* node index (the root's is 0, itself) */
	uint32_t cn_depth;  /* root 0, program 1, outermost function 2 ... */
	uint32_t cn_kid0;   /* children: ct_kids[cn_kid0 .. cn_kid0 + */
	uint32_t cn_nkids;  /* cn_nkids) */
	uint64_t cn_value;  /* samples whose stack holds this path */
	uint64_t cn_self;   /* samples whose stack ends here */
};

struct calltree {
	struct calltree_node *ct_nodes; /* ct_n of them; [0] is the root */
	size_t ct_n;
	uint32_t *ct_kids;        /* node ids by parent, biggest first */
	const char **ct_names;    /* distinct names, ct_nnames of them; the
				   * strings are the model's and analysis's */
	size_t ct_nnames;
	/* while building: capacities and the hash tables of (parent, name)
	 * to node and of names */
	size_t ct_cap, ct_capnames;
	uint32_t *ct_hash, *ct_namehash;
	size_t ct_caphash, ct_capnamehash;
};

/*
 * Builds t from every stack of m with samples, as a (the analysis of m)
 * expanded them; t refers to the strings of m and a, which must outlive
 * it.  Returns 0, or MAPS_ENOMEM with t empty (calltree_free is still
 * safe).
 */
int calltree_build(struct calltree *t, const struct model *m,
		   const struct analysis *a);

/* Frees what t holds; t may be zeroed or failed to build. */
void calltree_free(struct calltree *t);

/*
 * Calls fn on the root and, depth first, every node whose value is at
 * least min (children biggest first; a node below min is skipped with
 * its subtree).  Iterative: stacks can be thousands of frames deep.
 * Stops at the first fn that returns non-zero and returns that; returns
 * 0 when all were visited, MAPS_ENOMEM when out of memory.
 */
int calltree_walk(const struct calltree *t, uint64_t min,
		  int (*fn)(const struct calltree *t, uint32_t node,
			    void *arg),
		  void *arg);

#endif
