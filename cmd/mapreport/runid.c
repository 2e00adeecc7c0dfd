/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runid: which run a log is of (runid.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/mapreport/runid.h"

struct run_id run_of(const struct model *m, size_t from)
{
	struct run_id id = {NULL, 0, 0, "?", NULL};
	for (size_t i = from; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (!id.job && p->job_id && !p->is_launcher)
			id.job = strdup(p->job_id); /* NULL: as with none */
		if (!p->have_init || !p->cmdline)
			continue;
		double s = (double)p->wall_sec + p->wall_nsec / 1e9;
		double e = s + (p->end_ts > p->start_ts
					? (double)(p->end_ts - p->start_ts) / 1e9
					: 0.0);
		if (!id.command) {
			if (!(id.command = strdup(p->cmdline)))
				return id; /* not checked, as with no record */
			if (!model_start_str(p, "%Y-%m-%d %H:%M:%S UTC",
					     id.started, sizeof(id.started)))
				strcpy(id.started, "?");
			id.start = s;
			id.end = e;
		}
		if (s < id.start)
			id.start = s;
		if (e > id.end)
			id.end = e;
	}
	return id;
}

int run_id_same(const struct run_id *x, const struct run_id *y)
{
	return x->command && y->command &&
	       strcmp(x->command, y->command) == 0 &&
	       y->start <= x->end + RUN_SLACK &&
	       x->start <= y->end + RUN_SLACK;
}

int run_id_same_job(const struct run_id *x, const struct run_id *y)
{
	if (!x->command || !y->command || !x->job != !y->job)
		return 0;
	if (x->job)
		return strcmp(x->job, y->job) == 0 && run_id_same(x, y);
	return strcmp(x->command, y->command) == 0 && y->start < x->end &&
	       x->start < y->end;
}
