/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * regions: per-name region statistics and the --region sample filter
 * (see regions.h).
 *
 * DESIGN NOTES
 *   Collecting.  Before rg is ready, regions_fold() appends every region
 *   begin, region end and thread end to rg->ev with its thread, time and
 *   arrival number (which breaks ties of equal times in file order).
 *   Memory grows with region records, never with samples.
 *
 *   Building.  regions_finish() sorts the records by thread, then time,
 *   and replays each thread's with a stack of open regions.  Every change
 *   of the stack starts a segment: from its time to the next segment's,
 *   the thread was inside the distinct names listed for it (segnames).
 *   A thread's last segment lists none.
 *
 *   Placing.  A sample finds its thread with a keymap (the last one is
 *   remembered: consecutive samples are mostly one thread's) and its
 *   segment by binary search on time.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/logread.h"
#include "model/pidkeys.h"
#include "model/regions.h"

enum { RG_BEGIN = 1, RG_END = 2, RG_THREAD_END = 3 };

struct rg_ev {
	uint64_t ts;
	uint64_t order;
	uint32_t th;          /* index in rg->th */
	uint32_t name;        /* RG_BEGIN: index in rg->names */
	uint32_t kind;
};

struct rg_thread {
	uint32_t pid, image, tid;
	size_t seg0, nseg;
};

struct rg_seg {
	uint64_t from;
	uint32_t off, n;      /* names in segnames[off .. off + n) */
};

struct rg_entry {
	uint64_t from, to;
	uint32_t th;          /* index in rg->th */
	uint32_t name;        /* index in rg->names */
	int open;             /* never ended: closed at its thread's end */
};

void regions_init(struct regions *rg, const char *filter)
{
	memset(rg, 0, sizeof(*rg));
	rg->filter = filter;
	rg->filter_id = -1;
}

void regions_free(struct regions *rg)
{
	for (size_t i = 0; i < rg->nnames; i++)
		free(rg->names[i].name);
	free(rg->names);
	free(rg->ev);
	free(rg->th);
	keymap_free(&rg->tkeys);
	free(rg->seg);
	free(rg->segnames);
	free(rg->ent);
	memset(rg, 0, sizeof(*rg));
	rg->filter_id = -1;
}

long regions_find(const struct regions *rg, const char *name)
{
	for (size_t i = 0; i < rg->nnames; i++)
		if (strcmp(rg->names[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* The index of name, added if new; -1 when out of memory. */
static long name_get(struct regions *rg, const char *name)
{
	long i = regions_find(rg, name);
	if (i >= 0)
		return i;
	char *copy = mem_strdup(name);
	if (!copy || mem_grow(&rg->names, &rg->capnames, rg->nnames,
			      sizeof(*rg->names))) {
		free(copy);
		return -1;
	}
	rg->names[rg->nnames] = (struct rregion){.name = copy,
						 .first_ts = UINT64_MAX};
	return (long)rg->nnames++;
}

/* The index of thread (pid, image, tid), added if new; -1 when out of
 * memory. */
static long thread_get(struct regions *rg, uint32_t pid, uint32_t image,
		       uint32_t tid)
{
	int added;
	long i = keymap_add(&rg->tkeys, pid, image, tid, &rg->th, &rg->nth,
			    &rg->capth, sizeof(*rg->th), &added);
	if (i >= 0 && added) {
		rg->th[i].pid = pid;
		rg->th[i].image = image;
		rg->th[i].tid = tid;
	}
	return i;
}

/* Collects one region or thread-end record.  0 or MAPS_ENOMEM. */
static int collect(struct regions *rg, const struct maplog_ev *ev,
		   uint32_t tid, uint32_t kind)
{
	long th = thread_get(rg, ev->ev_pid, ev->ev_image, tid);
	if (th < 0)
		return MAPS_ENOMEM;
	long name = 0;
	if (kind == RG_BEGIN &&
	    (name = name_get(rg, ev->ev_u.mark.mk_text ? ev->ev_u.mark.mk_text
						       : "")) < 0)
		return MAPS_ENOMEM;
	if (mem_grow(&rg->ev, &rg->capev, rg->nev, sizeof(*rg->ev)))
		return MAPS_ENOMEM;
	rg->ev[rg->nev] = (struct rg_ev){ev->ev_ts, rg->nev, (uint32_t)th,
					 (uint32_t)name, kind};
	rg->nev++;
	return 0;
}

/* The segment of thread th at time ts, or NULL (outside every region). */
static const struct rg_seg *seg_at(const struct regions *rg,
				   const struct rg_thread *th, uint64_t ts)
{
	size_t lo = 0, hi = th->nseg;
	if (!hi)
		return NULL;
	const struct rg_seg *s = rg->seg + th->seg0;
	if (ts < s[0].from)
		return NULL;
	while (hi - lo > 1) {   /* s[lo].from <= ts < s[hi].from */
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].from <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return s[lo].n ? &s[lo] : NULL;
}

/* The segment of sample ev's thread at its time, or NULL; *tlast caches
 * the thread (its th index + 1). */
static const struct rg_seg *sample_seg(const struct regions *rg,
				       const struct maplog_ev *ev,
				       size_t *tlast)
{
	const struct maplog_ev_sample *sa = &ev->ev_u.sample;
	const struct rg_thread *th = NULL;
	if (*tlast) {
		th = &rg->th[*tlast - 1];
		if (th->tid != sa->sa_tid || th->pid != ev->ev_pid ||
		    th->image != ev->ev_image)
			th = NULL;
	}
	if (!th) {
		long i = keymap_find(&rg->tkeys, ev->ev_pid, ev->ev_image,
				     sa->sa_tid);
		*tlast = i < 0 ? 0 : (size_t)i + 1;
		th = i < 0 ? NULL : &rg->th[i];
	}
	return th ? seg_at(rg, th, ev->ev_ts) : NULL;
}

/* Whether segment s (or NULL: no region) holds the filter's region. */
static int seg_in_filter(const struct regions *rg, const struct rg_seg *s)
{
	const uint32_t *names = s ? rg->segnames + s->off : NULL;
	uint32_t n = s ? s->n : 0;
	for (uint32_t k = 0; k < n; k++)
		if (names[k] == (uint32_t)rg->filter_id)
			return 1;
	return 0;
}

int regions_keeps(const struct regions *rg, const struct maplog_ev *ev)
{
	if (!rg || !rg->filter)
		return 1;
	if (!rg->ready)
		return 0;
	size_t tlast = 0;
	return seg_in_filter(rg, sample_seg(rg, ev, &tlast));
}

/* Places one sample.  Returns 1 when the filter leaves it out, else 0. */
static int place(struct regions *rg, const struct maplog_ev *ev)
{
	const struct maplog_ev_sample *sa = &ev->ev_u.sample;
	const struct rg_seg *s = sample_seg(rg, ev, &rg->tlast);
	const uint32_t *names = s ? rg->segnames + s->off : NULL;
	uint32_t n = s ? s->n : 0;
	if (rg->filter) {
		if (!seg_in_filter(rg, s)) {
			rg->left_out++;
			return 1;
		}
		rg->kept++;
	}
	for (uint32_t k = 0; k < n; k++) {
		rg->names[names[k]].samples++;
		rg->names[names[k]].weight += sa->sa_weight;
	}
	return 0;
}

int regions_fold(struct regions *rg, const struct maplog_ev *ev)
{
	if (rg->ready)
		return ev->ev_type == MAPLOG_TYPE_SAMPLE ? place(rg, ev) : 0;
	if (ev->ev_ts > rg->last_ts)
		rg->last_ts = ev->ev_ts;
	if (ev->ev_type == MAPLOG_TYPE_THREAD_END)
		return collect(rg, ev, ev->ev_u.tend.te_tid, RG_THREAD_END);
	if (ev->ev_type != MAPLOG_TYPE_MARK)
		return 0;
	if (ev->ev_u.mark.mk_value == MAPLOG_MARK_REGION_BEGIN)
		return collect(rg, ev, ev->ev_u.mark.mk_tid, RG_BEGIN);
	if (ev->ev_u.mark.mk_value == MAPLOG_MARK_REGION_END)
		return collect(rg, ev, ev->ev_u.mark.mk_tid, RG_END);
	return 0;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct rg_ev *x = a, *y = b;
	if (x->th != y->th)
		return x->th < y->th ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* An open region on a thread's stack. */
struct open {
	uint32_t name;
	uint64_t since;
};

/* Starts a segment of thread th at ts with the distinct names of the
 * stack (replacing a segment of th that starts at the same time).
 * Returns 0 or MAPS_ENOMEM. */
static int seg_push(struct regions *rg, struct rg_thread *th, uint64_t ts,
		    const struct open *stack, size_t depth)
{
	if (th->nseg && rg->seg[rg->nseg - 1].from == ts) {
		rg->nsegnames = rg->seg[rg->nseg - 1].off;
		rg->nseg--;
		th->nseg--;
	}
	if (mem_grow(&rg->seg, &rg->capseg, rg->nseg, sizeof(*rg->seg)) ||
	    mem_reserve(&rg->segnames, &rg->capsegnames,
			rg->nsegnames + depth, sizeof(*rg->segnames), 64))
		return MAPS_ENOMEM;
	uint32_t off = (uint32_t)rg->nsegnames, n = 0;
	for (size_t i = 0; i < depth; i++) {
		uint32_t k = 0;
		while (k < n && rg->segnames[off + k] != stack[i].name)
			k++;
		if (k == n)
			rg->segnames[off + n++] = stack[i].name;
	}
	rg->nsegnames += n;
	if (!th->nseg)
		th->seg0 = rg->nseg;
	rg->seg[rg->nseg++] = (struct rg_seg){ts, off, n};
	th->nseg++;
	return 0;
}

/* Keeps the entry of name on thread th from `from` to `to`.  0 or
 * MAPS_ENOMEM. */
static int entry_add(struct regions *rg, uint32_t th, uint32_t name,
		     uint64_t from, uint64_t to, int open)
{
	if (mem_grow(&rg->ent, &rg->capent, rg->nent, sizeof(*rg->ent)))
		return MAPS_ENOMEM;
	rg->ent[rg->nent++] = (struct rg_entry){from, to > from ? to : from,
						th, name, open};
	return 0;
}

/* Closes every open region of the stack at ts, each counted as open
 * (never ended).  0 or MAPS_ENOMEM. */
static int close_all(struct regions *rg, uint32_t th, struct open *stack,
		     size_t *depth, uint64_t ts)
{
	while (*depth) {
		struct open *o = &stack[--*depth];
		rg->names[o->name].ns += ts > o->since ? ts - o->since : 0;
		rg->names[o->name].open++;
		if (entry_add(rg, th, o->name, o->since, ts, 1))
			return MAPS_ENOMEM;
	}
	return 0;
}

int regions_finish(struct regions *rg)
{
	if (rg->ready)
		return 0;
	rg->filter_id = rg->filter ? regions_find(rg, rg->filter) : -1;
	if (rg->nev)
		qsort(rg->ev, rg->nev, sizeof(*rg->ev), cmp_ev);
	struct open *stack = NULL;
	size_t depth = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; i < rg->nev && !rc;) {
		struct rg_thread *th = &rg->th[rg->ev[i].th];
		size_t j = i;
		for (; j < rg->nev && rg->ev[j].th == rg->ev[i].th && !rc; j++) {
			const struct rg_ev *e = &rg->ev[j];
			if (e->kind == RG_BEGIN) {
				if (mem_grow(&stack, &cap, depth,
					     sizeof(*stack))) {
					rc = MAPS_ENOMEM;
					break;
				}
				stack[depth++] = (struct open){e->name, e->ts};
				struct rregion *r = &rg->names[e->name];
				r->count++;
				if (e->ts < r->first_ts)
					r->first_ts = e->ts;
			} else if (e->kind == RG_END) {
				if (!depth) {
					rg->unmatched_ends++;
					continue;
				}
				struct open *o = &stack[--depth];
				rg->names[o->name].ns += e->ts - o->since;
				if ((rc = entry_add(rg, e->th, o->name,
						    o->since, e->ts, 0)))
					break;
			} else {
				if (!depth)
					continue;
				if ((rc = close_all(rg, e->th, stack, &depth,
						    e->ts)))
					break;
			}
			rc = seg_push(rg, th, e->ts, stack, depth);
		}
		if (!rc && depth) {
			/* the thread's end was not recorded: the run's */
			rc = close_all(rg, rg->ev[i].th, stack, &depth,
				       rg->last_ts);
			if (!rc)
				rc = seg_push(rg, th, rg->last_ts + 1, stack,
					      0);
		}
		depth = 0;
		i = j;
	}
	free(stack);
	free(rg->ev);
	rg->ev = NULL;
	rg->nev = rg->capev = 0;
	if (!rc)
		rg->ready = 1;
	return rc;
}

void regions_spans(const struct regions *rg, uint32_t pid, uint32_t image,
		   uint32_t tid, regions_span_fn fn, void *ctx)
{
	long i = rg->ready ? keymap_find(&rg->tkeys, pid, image, tid) : -1;
	if (i < 0 || !rg->th[i].nseg)
		return;
	const struct rg_thread *th = &rg->th[i];
	const struct rg_seg *sg = rg->seg + th->seg0;
	for (size_t k = 0; k + 1 < th->nseg; k++)
		if (sg[k].n)
			fn(ctx, sg[k].from, sg[k + 1].from,
			   rg->segnames[sg[k].off + sg[k].n - 1]);
}

/* regions_scan()'s pass: the regions and the keys of the logs' pids,
 * which the model gives them too (model/pidkeys.h). */
struct scan {
	struct regions *rg;
	struct pidkeys pk;
};

static int scan_record(void *ctx, const struct maplog_ev *ev)
{
	struct scan *sc = ctx;
	struct maplog_ev copy;
	if (pidkeys_see(&sc->pk, ev))
		return MAPS_ENOMEM;
	return regions_fold(sc->rg, pidkeys_rekey(&sc->pk, sc->pk.log, ev,
						  &copy));
}

int regions_scan(struct regions *rg, const char *const *logs, size_t n)
{
	static const struct logread_tool tool = {.lt_any = scan_record};
	struct scan sc = {rg, {0}};
	for (size_t i = 0; i < n; i++) {
		pidkeys_log(&sc.pk, (uint32_t)i);
		if (logread_file(logs[i], &tool, &sc, NULL) == MAPS_ENOMEM) {
			pidkeys_free(&sc.pk);
			return MAPS_ENOMEM;
		}
	}
	pidkeys_free(&sc.pk);
	int rc = regions_finish(rg);
	rg->counted = 1;  /* the model's pass places the samples */
	return rc;
}

static int count_sample(void *ctx, const struct maplog_ev *ev)
{
	(void)place(ctx, ev);
	return 0;
}

int regions_complete(struct regions *rg, const char *const *logs, size_t n)
{
	if (rg->counted)
		return 0;
	int rc = regions_finish(rg);
	if (rc)
		return rc;
	rg->counted = 1;
	if (!rg->nnames)
		return 0;
	static const struct logread_tool tool = {
		.lt_record = {[MAPLOG_TYPE_SAMPLE] = count_sample}};
	for (size_t i = 0; i < n; i++)
		if (logread_file(logs[i], &tool, rg, NULL) == MAPS_ENOMEM)
			return MAPS_ENOMEM;
	return 0;
}

int regions_entries(const struct regions *rg, regions_entry_fn fn,
		    void *ctx)
{
	for (size_t i = 0; i < rg->nent; i++) {
		const struct rg_entry *e = &rg->ent[i];
		const struct rg_thread *t = &rg->th[e->th];
		int rc = fn(ctx, e->name, t->pid, t->image, t->tid, e->from,
			    e->to, e->open);
		if (rc)
			return rc;
	}
	return 0;
}

uint32_t regions_sample_names(const struct regions *rg,
			      const struct maplog_ev *ev,
			      const uint32_t **names)
{
	size_t tlast = 0;
	const struct rg_seg *s = rg->ready ? sample_seg(rg, ev, &tlast) : NULL;
	*names = s ? rg->segnames + s->off : NULL;
	return s ? s->n : 0;
}

void regions_narrow(struct regions *rg, regions_thread_fn keep, void *ctx,
		    uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < rg->nnames; i++)
		rg->names[i].count = rg->names[i].ns = rg->names[i].open = 0;
	/* a thread's entries are together: ask once per thread */
	long last = -1;
	int kept = 0;
	for (size_t i = 0; i < rg->nent; i++) {
		const struct rg_entry *e = &rg->ent[i];
		if ((long)e->th != last) {
			const struct rg_thread *t = &rg->th[e->th];
			last = (long)e->th;
			kept = !keep || keep(ctx, t->pid, t->image, t->tid);
		}
		if (!kept)
			continue;
		struct rregion *r = &rg->names[e->name];
		uint64_t a = e->from > from ? e->from : from;
		uint64_t b = e->to < to ? e->to : to;
		if (b > a)
			r->ns += b - a;
		if (e->from >= from && e->from < to) {
			r->count++;
			r->open += e->open != 0;
		}
	}
}
