/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ranks: see ranks.h.
 *
 * A sample is in MPI when a frame of its stack is in the MPI library
 * (modules libmpi*, libmpich*, libopen-pal*, libopen-rte*, libpmpi*) or
 * is an MPI_ or PMPI_ function; it is collective when the outermost such
 * function is a collective call.  A sample not in MPI is I/O when a
 * frame is a read/write-family call.  The rest is compute.  A process's
 * time in MPI is taken from the time-in-MPI metric instead when its log
 * holds one (the wrappers measure it exactly; samples only estimate it),
 * and the collective part is the wrappers' time in collective calls
 * over their time in all MPI calls (MPI_CALLS, rows_calls()), or else
 * keeps its share of the MPI samples: the
 * metric's seconds in MPI (mpi_seconds(), in the units of
 * plugins/mpi/mpi.xml), which are wall-clock seconds, over the process's
 * wall-clock seconds, or its seconds of the sampling clock when those
 * are more (threads busy at once).  Over the seconds of the sampling
 * clock alone, a process that got a fraction of a CPU (a loaded or
 * oversubscribed machine) spent more wall time in MPI than it had CPU
 * time, and every rank was all MPI.  A process's compute seconds are
 * those of its samples in neither MPI nor I/O whether or not the metric
 * is there: the sampling clock measures them exactly (CPU time), where
 * a wall-clock share of MPI applied to CPU seconds would not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/keymap.h"
#include "report/mpi.h"
#include "report/ranks.h"

static int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int ranks_is_mpi(const char *module, const char *func)
{
	if (mpi_module(module))
		return 1;
	return func && (prefix(func, "MPI_") || prefix(func, "PMPI_") ||
			prefix(func, "mpi_") || prefix(func, "pmpi_"));
}

/* The MPI call name of func without its P prefix and Fortran case:
 * "PMPI_Allreduce" -> "Allreduce", "mpi_bcast_" -> "bcast_". */
static const char *mpi_call(const char *func)
{
	if (prefix(func, "PMPI_") || prefix(func, "pmpi_"))
		return func + 5;
	if (prefix(func, "MPI_") || prefix(func, "mpi_"))
		return func + 4;
	return NULL;
}

int ranks_is_collective(const char *func)
{
	static const char *const coll[] = {
		"barrier", "bcast", "reduce", "allreduce", "reduce_scatter",
		"scan", "exscan", "gather", "gatherv", "allgather",
		"allgatherv", "scatter", "scatterv", "alltoall", "alltoallv",
		"alltoallw", "ibarrier", "ibcast", "ireduce", "iallreduce",
		"igather", "iallgather", "iscatter", "ialltoall",
		"neighbor_allgather", "neighbor_alltoall", "comm_split",
		"comm_dup", "comm_create", "win_fence",
		/* the rest of plugins/mpi's collectives (mpiwrap_i.h) */
		"igatherv", "iscatterv", "iallgatherv", "ialltoallv",
		"ialltoallw", "ireduce_scatter", "ireduce_scatter_block",
		"iscan", "iexscan", "reduce_scatter_block",
		"neighbor_allgatherv", "neighbor_alltoallv",
		"neighbor_alltoallw", "ineighbor_allgather",
		"ineighbor_allgatherv", "ineighbor_alltoall",
		"ineighbor_alltoallv", "ineighbor_alltoallw"};
	const char *c = func ? mpi_call(func) : NULL;
	if (!c)
		return 0;
	/* lower case, without the '_' Fortran bindings end in: "Bcast",
	 * "bcast_" -> "bcast" */
	size_t k = strlen(c);
	char full[40];
	size_t j = 0;
	for (; j < k && j + 1 < sizeof(full); j++)
		full[j] = (char)(c[j] >= 'A' && c[j] <= 'Z' ? c[j] + 32 : c[j]);
	full[j] = 0;
	while (j && full[j - 1] == '_')
		full[--j] = 0;
	for (size_t i = 0; i < sizeof(coll) / sizeof(coll[0]); i++)
		if (strcmp(full, coll[i]) == 0)
			return 1;
	return 0;
}

int ranks_is_io(const char *func)
{
	static const char *const io[] = {
		"read", "write", "pread", "pwrite", "pread64", "pwrite64",
		"readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2",
		"fread", "fwrite", "fread_unlocked", "fwrite_unlocked",
		"fflush", "fsync", "fdatasync", "sync_file_range", "fgets",
		"fputs", "getline", "getdelim", "sendfile",
		"copy_file_range", "open", "open64", "openat", "close",
		"fopen", "fclose", "io_submit", "io_getevents", "aio_read",
		"aio_write", "msync"};
	if (!func)
		return 0;
	/* glibc's internal names: __libc_write, __GI___libc_read,
	 * __write_nocancel, _IO_fwrite, __pread64 */
	const char *f = func;
	if (prefix(f, "__GI_"))
		f += 5;
	while (*f == '_')
		f++;
	if (prefix(f, "libc_"))
		f += 5;
	if (prefix(f, "IO_"))
		f += 3;
	size_t n = strlen(f);
	if (n > 9 && strcmp(f + n - 9, "_nocancel") == 0)
		n -= 9;
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++)
		if (strlen(io[i]) == n && strncmp(f, io[i], n) == 0)
			return 1;
	return 0;
}

int32_t ranks_of_proc(const struct model *m, size_t i)
{
	const struct rproc *p = &m->procs[i];
	return p->rank >= 0 ? p->rank : (int32_t)p->seq;
}

/* The seconds a process spent inside MPI calls by its series s of the
 * time-in-MPI metric mt, or -1 when the series says nothing usable.
 * The mpi plugin's metric (plugins/mpi/mpi.xml) is in %, not divided by
 * sample time: each value is the share of the wall time since the
 * previous value that the process's threads spent in MPI, added up over
 * the threads (two threads in MPI the whole time: 200%), so its seconds
 * are the values times the interval between them.  A metric divided by
 * sample time holds the time itself, one delta a value, in % (of a
 * second), s, ms, us or ns (its units are those per second: "ms/s"). */
static double mpi_seconds(const struct rmetric *mt, const struct rmseries *s)
{
	const char *u = mt->units ? mt->units : "";
	double v;
	if (!s->n)
		return -1;
	if (!(mt->flags & MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME)) {
		if (strcmp(u, "%") != 0 || s->n < 2 ||
		    s->last_ts <= s->first_ts)
			return -1;
		/* n values at a mean of (last - first) / (n - 1) apart,
		 * each for the interval before it */
		v = s->sum / 100.0 * ((double)(s->last_ts - s->first_ts) /
				      1e9 / (double)(s->n - 1));
	} else {
		static const struct {
			const char *u;
			double f;
		} scale[] = {{"%", 1e-2},  {"s", 1},      {"s/s", 1},
			     {"ms", 1e-3}, {"ms/s", 1e-3}, {"us", 1e-6},
			     {"us/s", 1e-6}, {"ns", 1e-9}, {"ns/s", 1e-9}};
		v = -1;
		for (size_t i = 0; i < sizeof(scale) / sizeof(scale[0]); i++)
			if (strcmp(u, scale[i].u) == 0)
				v = s->sum * scale[i].f;
		if (v < 0)
			return -1;
	}
	return isfinite(v) ? (v < 0 ? 0 : v) : -1;
}

/* Folds metric series s (of metric mt) into row r. */
static void row_metric(struct rank_row *r, const struct rmetric *mt,
		       const struct rmseries *s)
{
	if (!mt->id || !s->n)
		return;
	if (strcmp(mt->id, RANKS_MEM_PEAK) == 0 ||
	    (strcmp(mt->id, RANKS_MEM_RSS) == 0)) {
		if (!r->have_mem || s->vmax > r->mem_peak)
			r->mem_peak = s->vmax;
		r->have_mem = 1;
	} else if (strcmp(mt->id, RANKS_IO_READ) == 0) {
		r->io_read += s->sum;
		r->have_io_bytes = 1;
	} else if (strcmp(mt->id, RANKS_IO_WRITE) == 0) {
		r->io_write += s->sum;
		r->have_io_bytes = 1;
	} else if (strcmp(mt->id, RANKS_MPI_TIME) == 0) {
		/* a share of the process's seconds of the sampling clock,
		 * all its threads: a process whose MPI wall time exceeds
		 * them (waits that took no CPU time) is all MPI */
		double secs = mpi_seconds(mt, s);
		double base = r->mpi_wall > r->seconds ? r->mpi_wall
						       : r->seconds;
		if (secs >= 0 && base > 0) {
			/* each image of the process has a series */
			r->mpi_metric = 1;
			r->mpi_secs += secs;
			r->mpi = r->mpi_secs >= base ? 1
						     : r->mpi_secs / base;
		}
	}
}

/* What a function is, for the classification of stacks (bits). */
enum { F_MPI = 1, F_CALL = 2, F_COLL = 4, F_IO = 8 };

int ranks_stack_classes(const struct model *m, const struct analysis *an,
			uint8_t **out)
{
	uint8_t *cls = calloc(an->nfuncs ? an->nfuncs : 1, 1);
	uint8_t *sc = calloc(m->capstacks ? m->capstacks : 1, 1);
	if (!cls || !sc) {
		free(cls);
		free(sc);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < an->nfuncs; i++) {
		const struct rfunc *fn = &an->funcs[i];
		if (ranks_is_mpi(fn->module, fn->name))
			cls[i] = F_MPI | (mpi_call(fn->name) ? F_CALL : 0) |
				 (ranks_is_collective(fn->name) ? F_COLL : 0);
		else if (ranks_is_io(fn->name))
			cls[i] = F_IO;
	}
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used || !s->count || !an->exp_n[si])
			continue;
		int mpi = 0, coll = 0, io = 0;
		const uint32_t *f = an->exp + an->exp_off[si];
		for (uint32_t i = 0; i < an->exp_n[si]; i++) {
			uint8_t c = cls[f[i]];
			mpi |= c & F_MPI;
			io |= c & F_IO;
			/* the outermost MPI call decides */
			if (c & F_CALL)
				coll = (c & F_COLL) != 0;
		}
		sc[si] = mpi ? RANKS_C_MPI | (coll ? RANKS_C_COLL : 0)
			     : io ? RANKS_C_IO : 0;
	}
	free(cls);
	*out = sc;
	return 0;
}

/* Counts the stacks of m (expanded in an) into the rows by their class
 * (ranks_stack_classes()).  Returns 0 or MAPS_ENOMEM. */
static int rows_stacks(struct ranks *rk, const struct keymap *k,
		       const struct model *m, const struct analysis *an)
{
	uint8_t *sc;
	if (ranks_stack_classes(m, an, &sc))
		return MAPS_ENOMEM;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!sc[si])
			continue;
		long ri = keymap_find(k, s->pid, s->image, 0);
		if (ri < 0)
			continue;
		struct rank_row *r = &rk->r[ri];
		if (sc[si] & RANKS_C_MPI) {
			r->mpi_samples += s->count;
			if (sc[si] & RANKS_C_COLL)
				r->coll_samples += s->count;
		} else {
			r->io_samples += s->count;
		}
	}
	free(sc);
	return 0;
}

/* The collective part of each row's MPI time, where the time came from
 * the metric (mpi_metric) and the process has MPI call statistics
 * (MPI_CALLS): the wrappers' wall-clock time in collective calls over
 * their time in all MPI calls, which they measured exactly.  The
 * samples' split (coll_samples over mpi_samples) counts CPU time: an MPI
 * that waits off the CPU (Open MPI yields when it has more ranks than
 * cores) leaves few samples in a collective it waits in, and one that
 * busy-polls (MPICH) many, so the samples would tell the two apart where
 * the time does not.  Returns 0 or MAPS_ENOMEM. */
static int rows_calls(struct ranks *rk, const struct keymap *k,
		      const struct model *m)
{
	if (!m->nmpicalls || !rk->n)
		return 0;
	double *ns = calloc(2 * rk->n, sizeof(*ns)); /* collective, all */
	if (!ns)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < m->nmpicalls; i++) {
		const struct rmpicall *c = &m->mpicalls[i];
		long ri = keymap_find(k, c->pid, c->image, 0);
		if (ri < 0)
			continue;
		/* a rank's own calls, as with its MPI time */
		const struct rproc *p = model_find_proc(m, c->pid, c->image);
		if (p && p->is_rank_child)
			continue;
		if (ranks_is_collective(c->function))
			ns[2 * ri] += (double)c->time_ns;
		ns[2 * ri + 1] += (double)c->time_ns;
	}
	for (size_t i = 0; i < rk->n; i++) {
		struct rank_row *r = &rk->r[i];
		if (r->mpi_metric && ns[2 * i + 1] > 0)
			r->coll = r->mpi * ns[2 * i] / ns[2 * i + 1];
	}
	free(ns);
	return 0;
}

double ranks_wall(const struct model *m, const struct rproc *p)
{
	uint64_t from = 0, to = UINT64_MAX;
	if (m->filter)
		filter_time_ns(m->filter, &from, &to);
	uint64_t a = p->start_ts > from ? p->start_ts : from;
	uint64_t b = p->end_ts < to ? p->end_ts : to;
	return b > a ? (double)(b - a) / 1e9 : 0;
}

int ranks_build(struct ranks *rk, const struct model *m,
		const struct analysis *an)
{
	memset(rk, 0, sizeof(*rk));
	struct keymap k = {0};
	rk->clock = model_clock(m);
	int wall = rk->clock == MAPLOG_CLOCK_WALL;
	rk->r = calloc(m->nprocs ? m->nprocs : 1, sizeof(*rk->r));
	if (!rk->r)
		goto nomem;
	/* the ranks and other processes, then the ranks' children, whose
	 * figures are their rank's (a row of their own when the rank has
	 * no samples) */
	for (int pass = 0; pass < 2; pass++)
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		int child = p->is_rank_child && p->rank >= 0;
		if (!p->samples || p->is_launcher || child != pass)
			continue;
		size_t ri = rk->n;
		for (size_t j = 0; child && j < rk->n; j++)
			if (rk->r[j].is_rank && rk->r[j].rank == p->rank)
				ri = j;
		/* the images a process exec'd are that process: one row
		 * (id 1 keys the row of a pid) */
		long same = child ? -1 : keymap_find(&k, p->pid, 0, 1);
		if (same >= 0)
			ri = (size_t)same;
		else if (!child && keymap_put(&k, p->pid, 0, 1, ri))
			goto nomem;
		struct rank_row *r = &rk->r[ri];
		if (keymap_put(&k, p->pid, p->image, 0, ri))
			goto nomem;
		if (ri < rk->n) {
			r->samples += p->samples;
			if (same >= 0) {
				r->images++;
				if (p->exited && p->exit_how ==
						     MAPLOG_EXIT_SIGNALED)
					r->killed_by = p->exit_code;
				/* an image that knows its rank (its MPI
				 * library said) names the process's */
				if (!r->is_rank && p->rank >= 0) {
					r->rank = p->rank;
					r->is_rank = 1;
					rk->any_rank = 1;
				}
			}
			continue;
		}
		r->images = 1;
		r->rank = ranks_of_proc(m, i);
		r->is_rank = p->rank >= 0;
		rk->any_rank |= r->is_rank;
		r->pid = p->pid;
		/* the pid it had in its PID namespace (what ps showed),
		 * not the log's pid with the namespace's tag */
		r->os_pid = model_real_pid(m, p->pid);
		if (p->exited && p->exit_how == MAPLOG_EXIT_SIGNALED)
			r->killed_by = p->exit_code;
		r->image = p->image;
		r->host = p->host;
		r->samples = p->samples;
		if (m->timeline_on &&
		    !(r->bins = calloc(TIMELINE_BINS, sizeof(*r->bins))))
			goto nomem;
		rk->n++;
	}
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		long ri = keymap_find(&k, t->pid, t->image, 0);
		if (ri < 0 || !t->samples)
			continue;
		rk->r[ri].seconds += model_thread_seconds(t, wall);
		rk->r[ri].threads++;
	}
	for (size_t i = 0; m->timeline_on && i < m->timeline.nt; i++) {
		const struct rtlthread *t = &m->timeline.t[i];
		long ri = keymap_find(&k, t->pid, t->image, 0);
		if (ri < 0)
			continue;
		for (size_t b = 0; b < TIMELINE_BINS; b++)
			rk->r[ri].bins[b] += t->bins[b];
	}
	if (rows_stacks(rk, &k, m, an))
		goto nomem;
	for (size_t i = 0; i < rk->n; i++) {
		struct rank_row *r = &rk->r[i];
		double n = (double)r->samples;
		r->mpi = r->mpi_samples / n;
		r->coll = r->coll_samples / n;
		r->io = r->io_samples / n;
	}
	for (size_t i = 0; i < m->metrics.ns; i++) {
		const struct rmseries *s = &m->metrics.s[i];
		long ri = keymap_find(&k, s->pid, s->image, 0);
		if (ri < 0 || !s->metric)
			continue;
		struct rank_row *r = &rk->r[ri];
		const struct rmetric *mt = &m->metrics.m[s->metric - 1];
		/* a rank's MPI time is the rank's own, not its children's
		 * (the wrapper is in them too, with nothing to time) */
		const struct rproc *p = model_find_proc(m, s->pid, s->image);
		if (p && p->is_rank_child && mt->id &&
		    strcmp(mt->id, RANKS_MPI_TIME) == 0)
			continue;
		/* the wall time the metric's MPI time is a share of: the
		 * image's, first record to last, within --time's range */
		if (p && mt->id && strcmp(mt->id, RANKS_MPI_TIME) == 0 &&
		    p->end_ts > p->start_ts)
			r->mpi_wall += ranks_wall(m, p);
		double had = r->mpi;
		row_metric(r, mt, s);
		/* the metric's MPI time: the collective part keeps its
		 * share of the MPI samples */
		if (r->mpi_metric && r->mpi != had)
			r->coll = r->mpi_samples
					  ? r->mpi * (double)r->coll_samples /
						    (double)r->mpi_samples
					  : 0;
	}
	if (rows_calls(rk, &k, m))
		goto nomem;
	for (size_t i = 0; i < rk->n; i++) {
		struct rank_row *r = &rk->r[i];
		/* compute: the samples' (io is still theirs here) */
		double smpi = r->samples
				      ? (double)r->mpi_samples / (double)r->samples
				      : 0;
		r->compute = r->seconds * (1 - smpi - r->io);
		if (r->compute < 0)
			r->compute = 0;
		if (r->mpi + r->io > 1)
			r->io = 1 - r->mpi;
	}
	keymap_free(&k);
	ranks_stats(rk);
	return 0;
nomem:
	keymap_free(&k);
	ranks_free(rk);
	return MAPS_ENOMEM;
}

/* Folds value v of the row of rank into st (st->have set by the caller
 * at the end). */
static void stat_add(struct rank_stat *st, double v, int32_t rank, int first)
{
	if (first || v < st->min) {
		st->min = v;
		st->min_rank = rank;
	}
	if (first || v > st->max) {
		st->max = v;
		st->max_rank = rank;
	}
	st->mean += v;
}

void ranks_stats(struct ranks *rk)
{
	struct rank_stat *all[] = {&rk->samples, &rk->seconds, &rk->mpi,
				   &rk->io, &rk->compute, &rk->mem};
	for (size_t j = 0; j < sizeof(all) / sizeof(all[0]); j++)
		memset(all[j], 0, sizeof(*all[j]));
	rk->t_seconds = rk->t_mpi = rk->t_coll = rk->t_io = rk->t_compute = 0;
	rk->t_read = rk->t_write = 0;
	rk->have_io_bytes = rk->mpi_metric = 0;
	size_t nmem = 0;
	for (size_t i = 0; i < rk->n; i++) {
		const struct rank_row *r = &rk->r[i];
		int first = i == 0;
		stat_add(&rk->samples, (double)r->samples, r->rank, first);
		stat_add(&rk->seconds, r->seconds, r->rank, first);
		stat_add(&rk->mpi, r->mpi, r->rank, first);
		stat_add(&rk->io, r->io, r->rank, first);
		stat_add(&rk->compute, r->compute, r->rank, first);
		if (r->have_mem)
			stat_add(&rk->mem, r->mem_peak, r->rank, nmem++ == 0);
		rk->t_seconds += r->seconds;
		rk->t_mpi += r->seconds * r->mpi;
		rk->t_coll += r->seconds * r->coll;
		rk->t_io += r->seconds * r->io;
		rk->t_compute += r->compute;
		rk->t_read += r->io_read;
		rk->t_write += r->io_write;
		rk->have_io_bytes |= r->have_io_bytes;
		rk->mpi_metric |= r->mpi_metric;
	}
	if (rk->n) {
		for (size_t j = 0; j + 1 < sizeof(all) / sizeof(all[0]); j++) {
			all[j]->have = 1;
			all[j]->mean /= (double)rk->n;
		}
	}
	if (nmem) {
		rk->mem.have = 1;
		rk->mem.mean /= (double)nmem;
	}
	rk->imbalance = rk->compute.mean > 0
				? rk->compute.max / rk->compute.mean
				: 0;
}

long ranks_row_of(const struct ranks *rk, const struct model *m,
		  uint32_t pid, uint32_t image)
{
	const struct rproc *p = model_find_proc(m, pid, image);
	if (!p || !p->samples || p->is_launcher)
		return -1;
	/* as ranks_build() places them: a rank's child in its rank's row
	 * (or a row of its own, numbered as its rank), any other image in
	 * the row of its pid, made before the children's */
	if (p->is_rank_child && p->rank >= 0) {
		for (size_t j = 0; j < rk->n; j++)
			if (rk->r[j].is_rank && rk->r[j].rank == p->rank)
				return (long)j;
		return -1;
	}
	for (size_t j = 0; j < rk->n; j++)
		if (rk->r[j].pid == pid)
			return (long)j;
	return -1;
}

const struct rank_row *ranks_find(const struct ranks *rk, int32_t rank)
{
	for (size_t i = 0; i < rk->n; i++)
		if (rk->r[i].rank == rank)
			return &rk->r[i];
	return NULL;
}

void ranks_free(struct ranks *rk)
{
	for (size_t i = 0; rk->r && i < rk->n; i++)
		free(rk->r[i].bins);
	free(rk->r);
	memset(rk, 0, sizeof(*rk));
}
