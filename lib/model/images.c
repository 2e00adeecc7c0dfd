/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * images: the programs one process ran by exec, for the reports.
 *
 * A process (one pid) that execs keeps its pid and gets a new image: the
 * sampler numbers them 0, 1, ... (MAPSAMPLE_IMAGE) and each image writes
 * its own initialize record, threads and samples, so each is a process
 * image of the model (rproc, keyed by pid and image).  The image that
 * execs writes a PROC_EXEC record naming the program; a failed attempt
 * (a shell trying each folder of PATH) writes one too and goes on, so
 * the last record before the next image is the one that worked.
 *
 * The reports list a process's images together, in the order of the
 * exec chain (model_images_order()), and name the chain
 * (model_images_chain()).  Nothing here is called by model.c's reading
 * except model_image_exec().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/model.h"

int model_image_exec(struct rproc *p, const struct maplog_ev_proc_exec *ex)
{
	char *path = mem_strdup(ex->ex_path ? ex->ex_path : "");
	if (!path)
		return MAPS_ENOMEM;
	free(p->exec_path);
	p->exec_path = path;
	p->exec_tries++;
	return 0;
}

/* The sort: by the first position of the pid, then by image. */
struct img_key {
	size_t first;   /* index of the pid's first image in m->procs */
	uint32_t image;
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct img_key *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

size_t model_images_order(const struct model *m, size_t *order)
{
	size_t n = m->nprocs;
	struct img_key *k = calloc(n ? n : 1, sizeof(*k));
	struct keymap first = {0};
	if (!k)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct rproc *p = &m->procs[i];
		long f = keymap_find(&first, p->pid, 0, 0);
		if (f < 0) {
			if (keymap_put(&first, p->pid, 0, 0, i)) {
				keymap_free(&first);
				free(k);
				return 0;
			}
			f = (long)i;
		}
		k[i] = (struct img_key){(size_t)f, p->image, i};
	}
	keymap_free(&first);
	qsort(k, n, sizeof(*k), by_key);
	for (size_t i = 0; i < n; i++)
		order[i] = k[i].i;
	free(k);
	return n;
}

size_t model_images_run(const struct model *m, const size_t *order,
			size_t n, size_t i)
{
	size_t j = i + 1;
	while (j < n && m->procs[order[j]].pid == m->procs[order[i]].pid)
		j++;
	return j - i;
}

/* Appends s to buf (len bytes, used *at), cut at its end. */
static void put(char *buf, size_t len, size_t *at, const char *s)
{
	size_t l = strlen(s);
	if (*at + 1 >= len)
		return;
	if (l > len - 1 - *at)
		l = len - 1 - *at;
	memcpy(buf + *at, s, l);
	*at += l;
	buf[*at] = 0;
}

/* The program of image p: its executable's last part. */
static const char *prog(const struct rproc *p)
{
	if (!p->exe || !*p->exe)
		return "[unknown]";
	const char *s = strrchr(p->exe, '/');
	return s ? s + 1 : p->exe;
}

const char *model_images_chain(const struct model *m, const size_t *order,
			       size_t n, char *buf, size_t len)
{
	size_t at = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < n;) {
		const struct rproc *p = &m->procs[order[i]];
		const char *name = prog(p);
		size_t j = i + 1;
		while (j < n && strcmp(prog(&m->procs[order[j]]), name) == 0)
			j++;
		if (i)
			put(buf, len, &at, " -> ");
		put(buf, len, &at, name);
		if (j - i > 1) {
			char x[32];
			snprintf(x, sizeof(x), " x%zu", j - i);
			put(buf, len, &at, x);
		}
		i = j;
	}
	return buf;
}
