/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * folded: collapsed stacks for flame graph tools (mapreport --folded),
 * one line per distinct symbolized stack (see folded.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/folded.h"

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fprintf(stderr, "mapreport: out of memory\n");
		exit(1);
	}
	return q;
}

struct fold {
	char *s;
	uint64_t count;
};

static int cmp_fold(const void *x, const void *y)
{
	return strcmp(((const struct fold *)x)->s, ((const struct fold *)y)->s);
}

/* Appends name to buf, with ';' (the separator) and newlines replaced. */
static void put_frame(char **buf, size_t *len, size_t *cap, const char *name)
{
	size_t n = strlen(name);
	if (*len + n + 2 > *cap) {
		*cap = (*len + n + 2) * 2;
		*buf = xrealloc(*buf, *cap);
	}
	if (*len)
		(*buf)[(*len)++] = ';';
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		(*buf)[(*len)++] = c == ';' ? ':' : c == '\n' ? ' ' : c;
	}
	(*buf)[*len] = 0;
}

int report_folded(const struct analysis *a, const struct model *m, FILE *out)
{
	struct fold *v = NULL;
	size_t nv = 0, capv = 0;
	char *buf = NULL;
	size_t cap = 0;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used || !s->count)
			continue;
		size_t len = 0;
		put_frame(&buf, &len, &cap, model_proc_name(m, s->pid, s->image));
		const uint32_t *e = a->exp + a->exp_off[si];
		for (uint32_t k = a->exp_n[si]; k-- > 0;)
			put_frame(&buf, &len, &cap, a->funcs[e[k]].name);
		if (nv == capv) {
			capv = capv ? capv * 2 : 1024;
			v = xrealloc(v, capv * sizeof(*v));
		}
		v[nv].s = strdup(buf);
		if (!v[nv].s) {
			fprintf(stderr, "mapreport: out of memory\n");
			exit(1);
		}
		v[nv++].count = s->count;
	}
	free(buf);
	qsort(v, nv, sizeof(*v), cmp_fold);
	for (size_t i = 0; i < nv; i++) {
		/* identical symbolized stacks from different addresses merge */
		uint64_t c = v[i].count;
		while (i + 1 < nv && strcmp(v[i].s, v[i + 1].s) == 0) {
			free(v[i].s);
			c += v[++i].count;
		}
		fprintf(out, "%s %" PRIu64 "\n", v[i].s, c);
		free(v[i].s);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}
