/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runid: which run a log is of (runid.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/runid.h"

struct runid runid_of(const struct model *m, size_t from)
{
	struct runid id;
	memset(&id, 0, sizeof(id));
	strcpy(id.started, "?");
	const char *job = NULL;
	int several = 0;
	for (size_t i = from; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (!p->is_launcher && p->job_id && p->job_id[0]) {
			if (!job)
				job = p->job_id;
			else if (strcmp(job, p->job_id))
				several = 1;
		}
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
	if (id.command && job && !several && !(id.job_id = strdup(job))) {
		/* no memory: not checked, as with no record */
		free(id.command);
		id.command = NULL;
	}
	return id;
}

int runid_same(const struct runid *a, const struct runid *b)
{
	if (!a->command || !b->command)
		return 1;
	if (a->job_id && b->job_id)
		return strcmp(a->job_id, b->job_id) == 0;
	return strcmp(a->command, b->command) == 0 &&
	       b->start <= a->end + RUNID_SLACK &&
	       a->start <= b->end + RUNID_SLACK;
}

int runid_same_strict(const struct runid *a, const struct runid *b)
{
	if (!a->command || !b->command || !a->job_id != !b->job_id)
		return 0;
	if (a->job_id)
		return runid_same(a, b);
	return strcmp(a->command, b->command) == 0 && b->start < a->end &&
	       a->start < b->end;
}

void runid_free(struct runid *r)
{
	free(r->command);
	free(r->job_id);
	r->command = NULL;
	r->job_id = NULL;
}
