/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_mpi.c: the HTML report's "MPI call statistics" section
 * (report/mpi.h), the text report's table (text_mpi.c) as HTML: one row
 * per MPI function and quantity, mean, min [rank] and max [rank]
 * across ranks, and the filters that cannot narrow them.  Written only
 * when the logs hold MPI call statistics.
 */
#include <inttypes.h>
#include <stdio.h>

#include <mapsample/maps_error.h>

#include "report/mpi.h"
#include "report/out/html_i.h"

/* Value v of quantity q: time in seconds, the others as integers. */
static void cell(FILE *out, int q, double v)
{
	if (q == MPI_Q_TIME)
		fprintf(out, "%.6f", v / 1e9);
	else if (v == (double)(uint64_t)v)
		fprintf(out, "%" PRIu64, (uint64_t)v);
	else
		fprintf(out, "%.1f", v);
}

int html_mpi_section(FILE *out, const struct model *m)
{
	struct mpi_stats s;
	if (mpi_stats(m, &s))
		return MAPS_ENOMEM;
	if (!s.nfn)
		return 0;
	fprintf(out, "<section id=\"mpi\">\n<h2>MPI call statistics</h2>\n"
		     "<p>%u ranks; per rank: mean, min [rank], max [rank]; "
		     "time in s, bytes in B.</p>\n<table>\n<thead><tr>"
		     "<th>Function</th><th>Quantity</th><th class=\"n\">Mean"
		     "</th><th class=\"n\">Min [rank]</th><th class=\"n\">"
		     "Max [rank]</th></tr></thead>\n<tbody>\n",
		s.nranks);
	for (size_t f = 0; f < s.nfn; f++) {
		const struct mpi_fnstat *x = &s.fn[f];
		for (int q = 0; q < MPI_NQTY; q++) {
			fputs("<tr><td class=\"f\">", out);
			H(x->function);
			fprintf(out, "</td><td>%s</td><td class=\"n\">",
				mpi_qty_name(q));
			cell(out, q, x->q[q].mean);
			fputs("</td><td class=\"n\">", out);
			cell(out, q, (double)x->q[q].min);
			fprintf(out, " [%d]</td><td class=\"n\">",
				x->q[q].min_rank);
			cell(out, q, (double)x->q[q].max);
			fprintf(out, " [%d]</td></tr>\n", x->q[q].max_rank);
		}
	}
	fputs("</tbody>\n</table>\n", out);
	/* the filters that cannot narrow them, as the text report says */
	const char *opt[MPI_UNNARROWED_MAX];
	size_t nopt = mpi_unnarrowed(m, opt);
	if (nopt) {
		fputs("<p class=\"note\" id=\"mpi-scope\">The logs hold each "
		      "process's totals, written at MPI_Finalize, not its "
		      "calls: these are the whole-run figures of the processes "
		      "kept, not narrowed by ", out);
		for (size_t i = 0; i < nopt; i++)
			fprintf(out, "%s%s", i ? ", " : "", opt[i]);
		fputs(".</p>\n", out);
	}
	fputs("</section>\n", out);
	mpi_stats_free(&s);
	return 0;
}
