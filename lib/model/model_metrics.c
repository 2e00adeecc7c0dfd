/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * model_metrics: the metrics of a report narrowed by the filters
 * (model_narrow_metrics() in model.h).  Metrics are measured per
 * process, so the filters choose whole processes here: those whose pid,
 * rank and program name pass --pid, --rank and --comm, and, for --tid
 * and --comm naming threads, the processes of those threads.  --time
 * is applied as the values are read (model.c), not here.  Calls
 * model.c, metrics.c and filter.c; none of them calls it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/filter.h"
#include "model/model.h"

struct chosen {
	const struct model *m;
	unsigned char *proc;      /* by index of m->procs: chosen */
};

/* Whether a thread tid named name (0 and NULL: none) of process p
 * passes every filter of f but --time, as model.c asks of a sample. */
static int passes(const struct rfilter *f, const struct rproc *p,
		  uint32_t tid, const char *name)
{
	const char *prog = p->exe ? strrchr(p->exe, '/') : NULL;
	return filter_keep_thread(f, p->os_pid & (MODEL_PIDNS_TAG - 1),
				  prog ? prog + 1 : p->exe,
				  p->rank >= 0 ? p->rank : (int32_t)p->seq,
				  tid, name);
}

/* metrics_keep()'s question: is process image (pid, image) chosen? */
static int is_chosen(void *ctx, uint32_t pid, uint32_t image)
{
	const struct chosen *c = ctx;
	const struct rproc *p = model_find_proc(c->m, pid, image);
	return p && c->proc[p - c->m->procs];
}

int model_narrow_metrics(struct model *m)
{
	const struct rfilter *f = m->filter;
	if (!f || !filter_active(f))
		return 0;
	struct chosen c = {m, calloc(m->nprocs ? m->nprocs : 1, 1)};
	if (!c.proc)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < m->nprocs; i++)
		c.proc[i] = (unsigned char)passes(f, &m->procs[i], 0, NULL);
	for (size_t i = 0; filter_by_thread(f) && i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		const struct rproc *p = model_find_proc(m, t->pid, t->image);
		if (p && passes(f, p, t->tid, t->name))
			c.proc[p - m->procs] = 1;
	}
	int rc = metrics_keep(&m->metrics, is_chosen, &c);
	free(c.proc);
	return rc;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int model_metrics_pids(const struct model *m, uint32_t **pids, size_t *n)
{
	const struct rmetrics *x = &m->metrics;
	*n = 0;
	*pids = malloc((x->ns ? x->ns : 1) * sizeof(**pids));
	if (!*pids)
		return MAPS_ENOMEM;
	for (size_t k = 0; k < x->ns; k++)
		if (x->s[k].n)
			(*pids)[(*n)++] = x->s[k].pid;
	qsort(*pids, *n, sizeof(**pids), cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < *n; i++)
		if (!u || (*pids)[u - 1] != (*pids)[i])
			(*pids)[u++] = (*pids)[i];
	*n = u;
	return 0;
}

/* Appends the text s to buf (used bytes *at of len), cut at its end. */
static void put(char *buf, size_t len, size_t *at, const char *s)
{
	int n = snprintf(buf + *at, len - *at, "%s", s);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

#define SCOPE_LIST 4 /* processes named; the others counted */

const char *model_metrics_scope(const struct model *m, char *buf, size_t len)
{
	const struct rfilter *f = m->filter;
	size_t at = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	if (!f || !filter_active(f))
		return buf;
	uint32_t *pids;
	size_t n;
	char one[160];
	if (model_metrics_pids(m, &pids, &n)) {
		put(buf, len, &at, "values of the processes the filters choose");
		return buf;
	}
	if (!n) {
		put(buf, len, &at, "no values: no process the filters choose "
				   "has metric values");
		if (f->fi_time)
			put(buf, len, &at, " in the range of --time");
		free(pids);
		return buf;
	}
	put(buf, len, &at, n == 1 ? "values of process " : "values of processes ");
	for (size_t i = 0; i < n && i < SCOPE_LIST; i++) {
		char pb[48];
		snprintf(one, sizeof(one), "%s%s",
			 !i ? "" : i + 1 == n ? " and " : ", ",
			 model_pid_str(m, pids[i], pb, sizeof(pb)));
		put(buf, len, &at, one);
	}
	if (n > SCOPE_LIST) {
		snprintf(one, sizeof(one), " and %zu more", n - SCOPE_LIST);
		put(buf, len, &at, one);
	}
	if (!f->fi_time)
		put(buf, len, &at, " only");
	if (f->fi_time && f->fi_from_set && f->fi_to_set)
		snprintf(one, sizeof(one), ", taken %g s to %g s after the "
					   "run's start", f->fi_from, f->fi_to);
	else if (f->fi_time && f->fi_from_set)
		snprintf(one, sizeof(one), ", taken from %g s after the run's "
					   "start to its end", f->fi_from);
	else if (f->fi_time && f->fi_to_set)
		snprintf(one, sizeof(one), ", taken in the first %g s of the "
					   "run", f->fi_to);
	else
		one[0] = 0;
	put(buf, len, &at, one);
	if (filter_by_thread(f))
		put(buf, len, &at, "; for --tid and --comm, whole processes: "
				   "metrics are measured per process");
	free(pids);
	return buf;
}
