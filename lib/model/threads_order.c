/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * threads_order: the threads of a model in the order of their process
 * images (model_images_order(), images.c), for the Processes and Threads tables of
 * the text and HTML reports.  Calls model.c; nothing below calls in.
 */
#include <stdlib.h>

#include <mapsample/maps_error.h>

#include "model/model.h"

static int by_tkey(const void *a, const void *b)
{
	const struct model_tkey *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int model_threads_order(const struct model *m, const size_t *order,
			struct model_tkey *tk)
{
	size_t np = m->nprocs;
	size_t *pos = calloc(np ? np : 1, sizeof(*pos));
	if (!pos)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < np; i++)
		pos[order[i]] = i;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		const struct rproc *p = model_find_proc(m, t->pid, t->image);
		tk[i] = (struct model_tkey){p ? pos[p - m->procs] : np, i};
	}
	free(pos);
	qsort(tk, m->nthreads, sizeof(*tk), by_tkey);
	return 0;
}
