/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report/mpi: MPI call statistics across ranks and the classification
 * of samples taken inside MPI (see mpi.h).  No formatting.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/keymap.h"
#include "report/mpi.h"

size_t mpi_unnarrowed(const struct model *m,
		      const char *opt[MPI_UNNARROWED_MAX])
{
	const struct rfilter *f = m->filter;
	size_t n = 0;
	if (f && f->fi_ntids)
		opt[n++] = "--tid";
	if (f && f->fi_ncomms)
		opt[n++] = "--comm";
	if (f && f->fi_time)
		opt[n++] = "--time";
	return n;
}

const char *mpi_qty_name(int q)
{
	static const char *const n[MPI_NQTY] = {"calls", "time", "sent",
						"received"};
	return q >= 0 && q < MPI_NQTY ? n[q] : "?";
}

static uint64_t qty(const struct rmpicall *c, int q)
{
	switch (q) {
	case MPI_Q_CALLS:
		return c->calls;
	case MPI_Q_TIME:
		return c->time_ns;
	case MPI_Q_SENT:
		return c->sent;
	default:
		return c->received;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct mpi_fnstat *x = a, *y = b;
	if (x->total[MPI_Q_TIME] != y->total[MPI_Q_TIME])
		return x->total[MPI_Q_TIME] < y->total[MPI_Q_TIME] ? 1 : -1;
	return strcmp(x->function, y->function);
}

/*
 * One pass over the model's entries into a matrix of values by function,
 * rank and quantity (the processes found through a keymap, the functions
 * in a short list: MPI programs call a few dozen), then one over the
 * matrix: memory and time grow with functions x ranks, not with their
 * product with the entries.
 */
int mpi_stats(const struct model *m, struct mpi_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (!m->nmpicalls)
		return 0;
	int rc = MAPS_ENOMEM;
	struct keymap procs = {0}, seen = {0};
	int32_t *rank = calloc(m->nprocs ? m->nprocs : 1, sizeof(*rank));
	struct mpi_rank *rk = calloc(m->nprocs ? m->nprocs : 1, sizeof(*rk));
	struct mpi_fnstat *fn = calloc(m->nmpicalls, sizeof(*fn));
	uint32_t *fidx = calloc(m->nmpicalls, sizeof(*fidx));
	uint64_t *val = NULL;
	size_t nw = 0, nfn = 0;
	if (!rank || !rk || !fn || !fidx)
		goto out;
	/* the processes with statistics, in model order, and their ranks */
	for (size_t k = 0; k < m->nmpicalls; k++)
		if (keymap_find(&seen, m->mpicalls[k].pid,
				m->mpicalls[k].image, 0) < 0 &&
		    keymap_put(&seen, m->mpicalls[k].pid,
			       m->mpicalls[k].image, 0, 0))
			goto out;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (keymap_find(&procs, p->pid, p->image, 0) >= 0 ||
		    keymap_find(&seen, p->pid, p->image, 0) < 0)
			continue;
		if (keymap_put(&procs, p->pid, p->image, 0, nw))
			goto out;
		rk[nw].proc = i;
		rk[nw].rank = p->rank >= 0 ? p->rank : (int32_t)nw;
		rank[nw] = rk[nw].rank;
		nw++;
	}
	for (size_t k = 0; k < m->nmpicalls; k++) {
		size_t f = 0;
		while (f < nfn &&
		       strcmp(fn[f].function, m->mpicalls[k].function))
			f++;
		if (f == nfn)
			fn[nfn++].function = m->mpicalls[k].function;
		fidx[k] = (uint32_t)f;
	}
	val = calloc(nfn * (nw ? nw : 1) * MPI_NQTY, sizeof(*val));
	if (!val)
		goto out;
#define VAL(f, r, q) val[((f) * nw + (r)) * MPI_NQTY + (q)]
	for (size_t k = 0; k < m->nmpicalls; k++) {
		const struct rmpicall *c = &m->mpicalls[k];
		long r = keymap_find(&procs, c->pid, c->image, 0);
		if (r < 0)
			continue; /* an entry with no process: not counted */
		for (int q = 0; q < MPI_NQTY; q++)
			VAL(fidx[k], (size_t)r, q) += qty(c, q);
	}
	for (size_t f = 0; f < nfn; f++) {
		struct mpi_fnstat *x = &fn[f];
		for (int q = 0; q < MPI_NQTY; q++) {
			x->q[q].min = UINT64_MAX;
			x->q[q].min_rank = x->q[q].max_rank = -1;
		}
		for (size_t r = 0; r < nw; r++) {
			if (VAL(f, r, MPI_Q_CALLS))
				x->ranks_calling++;
			for (int q = 0; q < MPI_NQTY; q++) {
				uint64_t v = VAL(f, r, q);
				struct mpi_spread *sp = &x->q[q];
				x->total[q] += v;
				if (v < sp->min ||
				    (v == sp->min && rank[r] < sp->min_rank)) {
					sp->min = v;
					sp->min_rank = rank[r];
				}
				if (sp->max_rank < 0 || v > sp->max ||
				    (v == sp->max && rank[r] < sp->max_rank)) {
					sp->max = v;
					sp->max_rank = rank[r];
				}
			}
		}
		for (int q = 0; q < MPI_NQTY; q++) {
			x->q[q].mean = nw ? (double)x->total[q] / (double)nw
					  : 0.0;
			if (!nw)
				x->q[q].min = 0;
		}
	}
#undef VAL
	qsort(fn, nfn, sizeof(*fn), by_time);
	s->fn = fn;
	s->nfn = nfn;
	s->nranks = (uint32_t)nw;
	s->ranks = rk;
	fn = NULL;
	rk = NULL;
	rc = 0;
out:
	free(rk);
	keymap_free(&seen);
	free(val);
	free(fidx);
	free(fn);
	free(rank);
	keymap_free(&procs);
	return rc;
}

void mpi_stats_free(struct mpi_stats *s)
{
	free(s->fn);
	free(s->ranks);
	memset(s, 0, sizeof(*s));
}

int mpi_module(const char *path)
{
	static const char *const prefix[] = {
		"libmpi", "libmpich", "libpmpi", "libopen-pal", "libopen-rte",
		"libpmix", "libmca_",
		"libucp", "libuct", "libucs", "libucm", "libfabric", "libpsm",
		"libinfinipath", "libmapsample-mpiwrap", "mca_",
	};
	if (!path)
		return 0;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(base, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

int mpi_stack(const struct model *m, uint32_t pid, uint32_t image,
	      uint32_t npc, const uint64_t *pc)
{
	int outer = -1;
	for (uint32_t i = 0; i < npc; i++) {
		/* return addresses point after the call: look up pc - 1 */
		const struct rmap *mp = model_find_map(m, pid, image,
						       i ? pc[i] - 1 : pc[i]);
		if (mp && mpi_module(mp->path))
			outer = (int)i;
	}
	return outer;
}

/*
 * The MPI mappings of each process image of a model, found once, so
 * that classifying all its stacks costs frames x MPI mappings of the
 * stack's process, not frames x every mapping with a name comparison
 * each: mpi_fold() runs on every report.
 */
struct mpi_maps {
	size_t *first;  /* by process: first entry of idx */
	size_t *n;      /* by process: entries */
	const struct rmap **idx;
	size_t nidx;
};

static void maps_free(struct mpi_maps *x)
{
	free(x->first);
	free(x->n);
	free(x->idx);
	memset(x, 0, sizeof(*x));
}

/* Fills x from m.  Returns 0 or MAPS_ENOMEM. */
static int maps_init(struct mpi_maps *x, const struct model *m)
{
	memset(x, 0, sizeof(*x));
	size_t total = 0;
	for (size_t i = 0; i < m->nprocs; i++)
		for (size_t j = 0; j < m->procs[i].nmaps; j++)
			total += mpi_module(m->procs[i].maps[j].path);
	x->first = calloc(m->nprocs ? m->nprocs : 1, sizeof(*x->first));
	x->n = calloc(m->nprocs ? m->nprocs : 1, sizeof(*x->n));
	x->idx = calloc(total ? total : 1, sizeof(*x->idx));
	if (!x->first || !x->n || !x->idx) {
		maps_free(x);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		x->first[i] = x->nidx;
		/* latest mapping first, as model_find_map() */
		for (size_t j = p->nmaps; j-- > 0;)
			if (mpi_module(p->maps[j].path))
				x->idx[x->nidx++] = &p->maps[j];
		x->n[i] = x->nidx - x->first[i];
	}
	return 0;
}

/* The index of process image (pid, image) in m, from *hint on; -1 when
 * there is none. */
static long proc_index(const struct model *m, uint32_t pid, uint32_t image,
		       size_t *hint)
{
	if (*hint < m->nprocs && m->procs[*hint].pid == pid &&
	    m->procs[*hint].image == image)
		return (long)*hint;
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid && m->procs[i].image == image) {
			*hint = i;
			return (long)i;
		}
	return -1;
}

/* mpi_stack() for stack st of process index p with x.  A frame in a
 * mapping that is not MPI's but lies inside an MPI one (none do: the
 * mappings of one image do not overlap) would count as MPI. */
static int stack_outer(const struct model *m, const struct mpi_maps *x,
		       size_t p, const struct rstack *st)
{
	int outer = -1;
	const uint64_t *pc = m->spc + st->off;
	for (uint32_t i = 0; i < st->npc; i++) {
		uint64_t a = i ? pc[i] - 1 : pc[i];
		for (size_t k = 0; k < x->n[p]; k++) {
			const struct rmap *mp = x->idx[x->first[p] + k];
			if (a >= mp->start && a < mp->end) {
				outer = (int)i;
				break;
			}
		}
	}
	return outer;
}

int mpi_proc_samples(const struct model *m, uint64_t *in_mpi)
{
	struct mpi_maps x;
	memset(in_mpi, 0, m->nprocs * sizeof(*in_mpi));
	if (maps_init(&x, m))
		return MAPS_ENOMEM;
	size_t hint = 0;
	for (size_t k = 0; x.nidx && k < m->capstacks; k++) {
		const struct rstack *st = &m->stacks[k];
		if (!st->used || !st->count)
			continue;
		long p = proc_index(m, st->pid, st->image, &hint);
		if (p >= 0 && x.n[p] && stack_outer(m, &x, (size_t)p, st) >= 0)
			in_mpi[p] += st->count;
	}
	maps_free(&x);
	return 0;
}

int mpi_fold(struct model *m, size_t *folded)
{
	struct mpi_maps x;
	*folded = 0;
	if (maps_init(&x, m))
		return MAPS_ENOMEM;
	size_t hint = 0;
	for (size_t k = 0; x.nidx && k < m->capstacks; k++) {
		struct rstack *st = &m->stacks[k];
		if (!st->used)
			continue;
		long p = proc_index(m, st->pid, st->image, &hint);
		int i = p >= 0 && x.n[p] ? stack_outer(m, &x, (size_t)p, st)
					 : -1;
		if (i > 0) {
			/* the new leaf is a return address: the call
			 * instruction before it names the function that
			 * made the call (not code inlined after it); the
			 * frames are the stack's own from now on, those
			 * it shared left as they were */
			if (model_stack_cut(m, st, (uint32_t)i)) {
				maps_free(&x);
				return MAPS_ENOMEM;
			}
			(*folded)++;
		}
	}
	maps_free(&x);
	return 0;
}
