/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * model_regions: the regions narrowed as the model's filters narrow the
 * samples (see model_regions.h).  The filters are asked without
 * counting (filter_passes()), so the samples they left out are counted
 * once, by the model's pass.
 */
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/filter.h"
#include "model/keymap.h"
#include "model/logread.h"
#include "model/model_regions.h"
#include "model/regions.h"

struct mr {
	const struct model *m;
	struct keymap threads;  /* (pid, image, tid) -> m->threads index */
};

/* Whether the model keeps what thread (pid, image, tid) samples at ts
 * (FILTER_ANY_TIME: at some time). */
static int keeps(const struct mr *c, uint32_t pid, uint32_t image,
		 uint32_t tid, uint64_t ts)
{
	const struct model *m = c->m;
	const struct rproc *p = model_find_proc(m, pid, image);
	if (!p || (p->is_launcher && !m->launchers_on))
		return 0;
	if (!m->filter)
		return 1;
	long t = keymap_find(&c->threads, pid, image, tid);
	const char *prog = p->exe ? strrchr(p->exe, '/') : NULL;
	/* as the model's own test of a sample (model.c) */
	return filter_passes_rank(m->filter, p->rank >= 0 ? p->rank
							: (int32_t)p->seq) &&
	       filter_passes(m->filter, p->os_pid & (MODEL_PIDNS_TAG - 1),
			    prog ? prog + 1 : p->exe, tid,
			    t >= 0 ? m->threads[t].name : NULL, ts);
}

static int place_sample(void *ctx, const struct maplog_ev *ev)
{
	struct mr *c = ctx;
	if (keeps(c, ev->ev_pid, ev->ev_image, ev->ev_u.sample.sa_tid,
		  ev->ev_ts) &&
	    regions_fold(c->m->regions, ev) < 0)
		return MAPS_ENOMEM;
	return 0;
}

static int keep_thread(void *ctx, uint32_t pid, uint32_t image, uint32_t tid)
{
	return keeps(ctx, pid, image, tid, FILTER_ANY_TIME);
}

int model_regions_complete(struct model *m, const char *const *logs,
			   size_t n)
{
	struct regions *rg = m->regions;
	if (!rg)
		return 0;
	struct mr c = {m, {0}};
	int rc = MAPS_ENOMEM;
	for (size_t i = 0; i < m->nthreads; i++)
		if (keymap_put(&c.threads, m->threads[i].pid,
			       m->threads[i].image, m->threads[i].tid, i))
			goto out;
	if ((rc = regions_finish(rg)))
		goto out;
	if (!rg->counted && rg->nnames) {
		/* the samples placed in one more pass, with the pids the
		 * model keys its processes under (regions_complete() reads
		 * the logs' own) */
		static const struct logread_tool tool = {
			.lt_record = {[MAPLOG_TYPE_SAMPLE] = place_sample}};
		for (size_t i = 0; i < n; i++)
			if (model_reread(m, i, logs[i], &tool, &c) ==
			    MAPS_ENOMEM) {
				rc = MAPS_ENOMEM;
				goto out;
			}
	}
	rg->counted = 1;
	if (m->filter && filter_active(m->filter)) {
		uint64_t from, to;
		filter_time_ns(m->filter, &from, &to);
		regions_narrow(rg, keep_thread, &c, from, to);
	}
out:
	keymap_free(&c.threads);
	return rc;
}
