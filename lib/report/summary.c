/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary: see summary.h.
 *
 * The verdict: MPI-bound when at least SUMMARY_BOUND of the time is in
 * MPI (and no less than in I/O), else I/O-bound when at least
 * SUMMARY_BOUND is in I/O, else compute-bound.  The advice, in this order
 * and at most SUMMARY_ADVICE lines: load imbalance (max / mean of compute
 * at least SUMMARY_IMBALANCE across two or more processes); where the
 * MPI time goes (collective or point-to-point) when MPI-bound, the
 * point-to-point line with the bytes its calls move on average (MPI call
 * statistics) and, under SUMMARY_SMALL_MSG bytes a call, that they are
 * small messages; I/O done
 * by one process of several, or I/O's share and bytes when I/O takes 10%
 * or more; the hottest function when compute-bound.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/shorten.h"
#include "report/summary.h"

const char *summary_kind_id(enum summary_kind k)
{
	switch (k) {
	case SUMMARY_COMPUTE: return "compute";
	case SUMMARY_MPI: return "mpi";
	case SUMMARY_IO: return "io";
	default: return "none";
	}
}

/* "rank 3" or "process 3": what a row is called. */
static const char *who(const struct ranks *rk)
{
	return rk->any_rank ? "rank" : "process";
}

/* Adds a line of advice to s (printf-style); quietly none past the
 * last slot. */
static void advise(struct summary *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void advise(struct summary *s, const char *fmt, ...)
{
	if (s->nadvice >= SUMMARY_ADVICE)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->advice[s->nadvice++], SUMMARY_TEXT, fmt, ap);
	va_end(ap);
}

/* Bytes for a sentence: "3.2 MB". */
static const char *mb(double b, char *buf, size_t len)
{
	if (b >= 1e9)
		snprintf(buf, len, "%.1f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, len, "%.1f MB", b / 1e6);
	else if (b >= 1e3)
		snprintf(buf, len, "%.1f kB", b / 1e3);
	else
		snprintf(buf, len, "%.0f B", b);
	return buf;
}

static void advise_imbalance(struct summary *s, const struct ranks *rk)
{
	if (rk->n < 2 || rk->imbalance < SUMMARY_IMBALANCE)
		return;
	double save = 1 - rk->compute.mean / rk->compute.max;
	advise(s,
	       "Load imbalance %.2f: %s %d computes %.3g s against a mean of "
	       "%.3g s over %zu %s; evening out the work would cut up to "
	       "%.0f%% of the slowest %s's compute time",
	       rk->imbalance, who(rk), (int)rk->compute.max_rank,
	       rk->compute.max, rk->compute.mean, rk->n,
	       rk->any_rank ? "ranks" : "processes", save * 100, who(rk));
}

/* The point-to-point calls of ms that moved bytes into s (p2p_calls,
 * p2p_bytes). */
static void p2p_messages(struct summary *s, const struct mpi_stats *ms)
{
	for (size_t i = 0; ms && i < ms->nfn; i++) {
		const struct mpi_fnstat *f = &ms->fn[i];
		double b = (double)f->total[MPI_Q_SENT] +
			   (double)f->total[MPI_Q_RECEIVED];
		/* MPI-IO's bytes (MPI_File_*) are read and written, not
		 * messages */
		if (!f->function || ranks_is_collective(f->function) ||
		    strncmp(f->function, "MPI_File_", 9) == 0 || b <= 0)
			continue;
		s->p2p_calls += f->total[MPI_Q_CALLS];
		s->p2p_bytes += b;
	}
}

static void advise_mpi(struct summary *s, const struct ranks *rk)
{
	char b[32];
	if (s->kind != SUMMARY_MPI || s->mpi <= 0)
		return;
	double cs = s->coll / s->mpi;
	double per = s->p2p_calls ? s->p2p_bytes / (double)s->p2p_calls : 0;
	if (cs < 0.5 && s->p2p_calls)
		advise(s,
		       "%.0f%% of the MPI time is in point-to-point calls "
		       "(%.1f%% of all time), which move %s a call on average "
		       "over %llu calls%s",
		       (1 - cs) * 100, (s->mpi - s->coll) * 100,
		       mb(per, b, sizeof(b)), (unsigned long long)s->p2p_calls,
		       per < SUMMARY_SMALL_MSG
			       ? ": small messages, whose cost is the latency "
				 "of each; fewer, larger messages cut it"
			       : "; non-blocking calls overlapping compute "
				 "hide it");
	else if (cs < 0.5)
		advise(s,
		       "%.0f%% of the MPI time is in point-to-point calls "
		       "(%.1f%% of all time); non-blocking calls overlapping "
		       "compute hide it",
		       (1 - cs) * 100, (s->mpi - s->coll) * 100);
	else
		advise(s,
		       "%.0f%% of the MPI time is in collective calls (%.1f%% "
		       "of all time): %s with less work wait there for the "
		       "others; fewer or non-blocking collectives overlap it "
		       "with compute",
		       cs * 100, s->coll * 100,
		       rk->any_rank ? "ranks" : "processes");
}

static void advise_io(struct summary *s, const struct ranks *rk)
{
	char r[32], w[32];
	if (s->io < 0.10 || rk->t_io <= 0)
		return;
	const struct rank_row *top = NULL;
	for (size_t i = 0; i < rk->n; i++)
		if (!top || rk->r[i].seconds * rk->r[i].io >
				    top->seconds * top->io)
			top = &rk->r[i];
	double part = top->seconds * top->io / rk->t_io;
	if (rk->n >= 2 && part >= 0.8) {
		advise(s,
		       "I/O is done by one %s: %s %d has %.0f%% of the job's "
		       "I/O time (%.1f%% of its own time); spreading it over "
		       "the %zu %s (or parallel I/O) would shorten it",
		       who(rk), who(rk), (int)top->rank, part * 100,
		       top->io * 100, rk->n,
		       rk->any_rank ? "ranks" : "processes");
	} else if (rk->have_io_bytes && s->seconds > 0) {
		advise(s,
		       "I/O takes %.1f%% of the time, %s read and %s written "
		       "(%.1f MB/s of the %.1f s sampled); larger, fewer "
		       "reads and writes cost less per byte",
		       s->io * 100, mb(rk->t_read, r, sizeof(r)),
		       mb(rk->t_write, w, sizeof(w)),
		       (rk->t_read + rk->t_write) / 1e6 / s->seconds,
		       s->seconds);
	} else {
		advise(s,
		       "I/O takes %.1f%% of the time (%.2f s in read/write "
		       "calls); larger, fewer reads and writes cost less "
		       "per byte",
		       s->io * 100, rk->t_io);
	}
}

void summary_make(struct summary *s, const struct ranks *rk,
		  const struct mpi_stats *ms, double wall, const char *top,
		  double top_share)
{
	memset(s, 0, sizeof(*s));
	p2p_messages(s, ms);
	s->nprocs = rk->n;
	s->seconds = rk->t_seconds;
	s->wall = wall;
	s->imbalance = rk->n >= 2 ? rk->imbalance : 0;
	s->mpi_metric = rk->mpi_metric;
	if (rk->t_seconds <= 0) {
		snprintf(s->verdict, sizeof(s->verdict),
			 "No samples: nothing to summarise");
		return;
	}
	s->mpi = rk->t_mpi / rk->t_seconds;
	s->coll = rk->t_coll / rk->t_seconds;
	s->io = rk->t_io / rk->t_seconds;
	s->compute = 1 - s->mpi - s->io;
	if (s->compute < 0)
		s->compute = 0;
	if (s->mpi >= SUMMARY_BOUND && s->mpi >= s->io) {
		s->kind = SUMMARY_MPI;
		snprintf(s->verdict, sizeof(s->verdict),
			 "MPI-bound: %.1f%% of time in MPI, %.1f%% in "
			 "collective calls",
			 s->mpi * 100, s->coll * 100);
	} else if (s->io >= SUMMARY_BOUND) {
		s->kind = SUMMARY_IO;
		snprintf(s->verdict, sizeof(s->verdict),
			 "I/O-bound: %.1f%% of time in read/write calls, "
			 "%.1f%% in compute",
			 s->io * 100, s->compute * 100);
	} else {
		s->kind = SUMMARY_COMPUTE;
		snprintf(s->verdict, sizeof(s->verdict),
			 "Compute-bound: %.1f%% of time in compute, %.1f%% in "
			 "MPI, %.1f%% in I/O",
			 s->compute * 100, s->mpi * 100, s->io * 100);
	}
	advise_imbalance(s, rk);
	advise_mpi(s, rk);
	advise_io(s, rk);
	if (s->kind == SUMMARY_COMPUTE && top && top_share > 0) {
		/* a C++ name shortened and cut, as the tables show it */
		char sh[512], el[80];
		name_shorten(top, sh, sizeof(sh));
		advise(s,
		       "Compute is %.1f%% of the time; the hottest function, "
		       "%s, has %.1f%% of the samples: start there",
		       s->compute * 100, name_elide(sh, 60, el, sizeof(el)),
		       top_share * 100);
	}
}
