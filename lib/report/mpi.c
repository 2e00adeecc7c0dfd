/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report/mpi: MPI call statistics across ranks and the classification
 * of samples taken inside MPI (see mpi.h).  No formatting.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/mpi.h"

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

/* A process with MPI statistics: its place in the model and its rank. */
struct who {
	uint32_t pid, image;
	int32_t rank;
};

static int by_time(const void *a, const void *b)
{
	const struct mpi_fnstat *x = a, *y = b;
	if (x->total[MPI_Q_TIME] != y->total[MPI_Q_TIME])
		return x->total[MPI_Q_TIME] < y->total[MPI_Q_TIME] ? 1 : -1;
	return strcmp(x->function, y->function);
}

int mpi_stats(const struct model *m, struct mpi_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (!m->nmpicalls)
		return 0;
	struct who *w = calloc(m->nmpicalls, sizeof(*w));
	struct mpi_fnstat *fn = calloc(m->nmpicalls, sizeof(*fn));
	if (!w || !fn) {
		free(w);
		free(fn);
		return MAPS_ENOMEM;
	}
	/* the processes, in model order, and the functions */
	size_t nw = 0, nfn = 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		int has = 0;
		for (size_t k = 0; k < m->nmpicalls && !has; k++)
			has = m->mpicalls[k].pid == p->pid &&
			      m->mpicalls[k].image == p->image;
		if (!has)
			continue;
		w[nw].pid = p->pid;
		w[nw].image = p->image;
		w[nw].rank = p->rank >= 0 ? p->rank : (int32_t)nw;
		nw++;
	}
	for (size_t k = 0; k < m->nmpicalls; k++) {
		size_t f = 0;
		while (f < nfn && strcmp(fn[f].function, m->mpicalls[k].function))
			f++;
		if (f == nfn)
			fn[nfn++].function = m->mpicalls[k].function;
	}
	for (size_t f = 0; f < nfn; f++) {
		struct mpi_fnstat *x = &fn[f];
		for (int q = 0; q < MPI_NQTY; q++) {
			x->q[q].min = UINT64_MAX;
			x->q[q].min_rank = x->q[q].max_rank = -1;
		}
		for (size_t r = 0; r < nw; r++) {
			const struct rmpicall *c = NULL;
			for (size_t k = 0; k < m->nmpicalls && !c; k++)
				if (m->mpicalls[k].pid == w[r].pid &&
				    m->mpicalls[k].image == w[r].image &&
				    !strcmp(m->mpicalls[k].function,
					    x->function))
					c = &m->mpicalls[k];
			if (c && c->calls)
				x->ranks_calling++;
			for (int q = 0; q < MPI_NQTY; q++) {
				uint64_t v = c ? qty(c, q) : 0;
				struct mpi_spread *sp = &x->q[q];
				x->total[q] += v;
				if (v < sp->min || (v == sp->min &&
						    w[r].rank < sp->min_rank)) {
					sp->min = v;
					sp->min_rank = w[r].rank;
				}
				if (sp->max_rank < 0 || v > sp->max ||
				    (v == sp->max && w[r].rank < sp->max_rank)) {
					sp->max = v;
					sp->max_rank = w[r].rank;
				}
			}
		}
		for (int q = 0; q < MPI_NQTY; q++)
			x->q[q].mean = nw ? (double)x->total[q] / (double)nw
					  : 0.0;
	}
	free(w);
	qsort(fn, nfn, sizeof(*fn), by_time);
	s->fn = fn;
	s->nfn = nfn;
	s->nranks = (uint32_t)nw;
	return 0;
}

void mpi_stats_free(struct mpi_stats *s)
{
	free(s->fn);
	memset(s, 0, sizeof(*s));
}

int mpi_module(const char *path)
{
	static const char *const prefix[] = {
		"libmpi", "libmpich", "libopen-pal", "libopen-rte", "libpmix",
		"libucp", "libuct", "libucs", "libucm", "libfabric", "libpsm",
		"libmapsample-mpiwrap", "mca_",
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
