/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_mpi.c: the text report's "MPI call statistics" (report/mpi.h):
 * one row per MPI function and quantity, with the mean, min and max
 * across ranks and the ranks of the min and the max; and "Samples in
 * MPI": per process, the samples taken inside an MPI library.  Printed
 * only when the logs hold MPI call statistics.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/filter.h"
#include "report/mpi.h"
#include "report/out/text.h"

/* Writes value v of quantity q into buf: time in seconds, the others as
 * integers (calls, bytes). */
static const char *fmt(char *buf, size_t len, int q, double v)
{
	if (q == MPI_Q_TIME)
		snprintf(buf, len, "%.6f", v / 1e9);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

/* Samples per process image, and those inside MPI.  Returns 0 or
 * MAPS_ENOMEM. */
static int samples_in_mpi(const struct model *m, const struct mpi_stats *s,
			  FILE *out)
{
	uint64_t *in = calloc(m->nprocs ? m->nprocs : 1, sizeof(*in));
	if (!in || mpi_proc_samples(m, in)) {
		free(in);
		return MAPS_ENOMEM;
	}
	fprintf(out, "\nSamples in MPI (frames in an MPI library's "
		     "modules)\n");
	fprintf(out, "  %8s %5s %10s %10s %7s\n", "PID", "RANK", "SAMPLES",
		"IN-MPI", "MPI%");
	for (size_t r = 0; r < s->nranks; r++) {
		size_t i = s->ranks[r].proc;
		const struct rproc *p = &m->procs[i];
		fprintf(out, "  %8u %5d %10" PRIu64 " %10" PRIu64 " %6.1f%%\n",
			model_real_pid(m, p->pid), s->ranks[r].rank,
			p->samples, in[i],
			p->samples ? 100.0 * (double)in[i] /
					     (double)p->samples
				   : 0.0);
	}
	free(in);
	return 0;
}

int text_mpi(const struct model *m, FILE *out)
{
	struct mpi_stats s;
	if (mpi_stats(m, &s))
		return MAPS_ENOMEM;
	if (!s.nfn)
		return 0;
	fprintf(out, "\nMPI call statistics (%u ranks; per rank: mean, min "
		     "[rank], max [rank]; time in s, bytes in B)\n",
		s.nranks);
	fprintf(out, "  %-24s %-9s %16s %20s %20s\n", "FUNCTION", "QUANTITY",
		"MEAN", "MIN [RANK]", "MAX [RANK]");
	for (size_t f = 0; f < s.nfn; f++) {
		const struct mpi_fnstat *x = &s.fn[f];
		for (int q = 0; q < MPI_NQTY; q++) {
			char a[40], b[40], c[40], bb[56], cc[56];
			snprintf(bb, sizeof(bb), "%s [%d]",
				 fmt(b, sizeof(b), q, (double)x->q[q].min),
				 x->q[q].min_rank);
			snprintf(cc, sizeof(cc), "%s [%d]",
				 fmt(c, sizeof(c), q, (double)x->q[q].max),
				 x->q[q].max_rank);
			fprintf(out, "  %-24.24s %-9s %16s %20s %20s\n",
				x->function, mpi_qty_name(q),
				fmt(a, sizeof(a), q, x->q[q].mean), bb, cc);
		}
	}
	/* per process and without times: --pid and --rank narrow them
	 * (the processes kept), the others cannot */
	const char *opt[MPI_UNNARROWED_MAX];
	size_t nopt = mpi_unnarrowed(m, opt);
	if (nopt) {
		fputs("  The logs hold each process's totals, written at "
		      "MPI_Finalize, not its calls: these are the whole-run "
		      "figures of the processes kept, not narrowed by ", out);
		for (size_t i = 0; i < nopt; i++)
			fprintf(out, "%s%s", i ? ", " : "", opt[i]);
		fputc('\n', out);
	}
	int rc = samples_in_mpi(m, &s, out);
	mpi_stats_free(&s);
	return rc;
}
