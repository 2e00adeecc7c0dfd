/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_seltab: the data behind the HTML page's Regions and MPI call
 * statistics tables in a selection (see html_i.h), as the JSON element
 * "st-data", which narrow.js adds up for the selected threads and time
 * bins (the bins of "nr-data").
 *
 * Regions, per (region name, thread, time bin): the entries begun in
 * the bin, the ns spent inside the region within the bin (each entry's
 * time cut at the bins' edges, so a range of bins adds up exactly) and
 * the samples taken inside it, placed in the bins as html_narrow.c
 * places them.  A selection's figures are then what mapreport --pid,
 * --tid and --time FROM:TO on the bins' edges give.  The samples need
 * the logs read once more (rescan.h), only when the logs hold regions.
 * Memory grows with the (name, thread, bin) triples; past ST_CELLS of
 * them the element says so and the page keeps the whole run's table.
 *
 * MPI: the logs hold each process's totals per MPI function (written at
 * MPI_Finalize), not its calls, so only a process can be split out:
 * per process with statistics, its rank (as report/mpi.h numbers them)
 * and its totals; the page computes the mean, min and max across the
 * selected processes and says that a thread's figures are its whole
 * process's and a time range's the whole run's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/keymap.h"
#include "model/regions.h"
#include "report/mpi.h"
#include "report/ranks.h"
#include "report/out/html_i.h"
#include "report/out/rescan.h"

#define ST_CELLS 200000

struct stcell {
	uint32_t name, thread, bin;
	uint64_t entries, ns, samples;
};

struct seltab {
	const struct model *m;
	struct keymap threads;    /* (pid, image, tid) -> m->threads index */
	uint64_t t0, span;
	unsigned fine, bins;      /* bins of a sample, then of the page */
	struct stcell *c;
	size_t nc, capc;
	struct keymap keys;       /* (name, thread, bin) -> index in c */
};

/* The cell of (name, thread, bin), or NULL when out of memory. */
static struct stcell *cell_get(struct seltab *s, uint32_t name,
			       uint32_t thread, uint32_t bin)
{
	int added;
	long i = keymap_add(&s->keys, name, thread, bin, &s->c, &s->nc,
			    &s->capc, sizeof(*s->c), &added);
	if (i < 0)
		return NULL;
	if (added)
		s->c[i] = (struct stcell){name, thread, bin, 0, 0, 0};
	return &s->c[i];
}

/* The start of bin b in ns of CLOCK_MONOTONIC. */
static uint64_t edge(const struct seltab *s, unsigned b)
{
	return s->t0 + (uint64_t)((unsigned __int128)s->span * b / s->bins);
}

/* The bin whose edges hold ts. */
static unsigned bin_of(const struct seltab *s, uint64_t ts)
{
	if (!s->span || ts <= s->t0)
		return 0;
	unsigned b = (unsigned)((unsigned __int128)(ts - s->t0) * s->bins /
				s->span);
	return b < s->bins ? b : s->bins - 1;
}

/* An entry of a region (regions_entry_fn): its start in the bin it
 * begins in, its time in each bin it spans. */
static int on_entry(void *ctx, uint32_t name, uint32_t pid, uint32_t image,
		    uint32_t tid, uint64_t from, uint64_t to, int open)
{
	struct seltab *s = ctx;
	(void)open;
	long th = keymap_find(&s->threads, pid, image, tid);
	if (th < 0)
		return 0; /* a thread the page does not list (a launcher's) */
	unsigned b = bin_of(s, from);
	struct stcell *c = cell_get(s, name, (uint32_t)th, b);
	if (!c)
		return MAPS_ENOMEM;
	c->entries++;
	for (uint64_t at = from; at < to; b++) {
		uint64_t end = b + 1 < s->bins ? edge(s, b + 1) : UINT64_MAX;
		uint64_t until = to < end ? to : end;
		if (until > at) {
			if (!(c = cell_get(s, name, (uint32_t)th, b)))
				return MAPS_ENOMEM;
			c->ns += until - at;
		}
		at = until;
	}
	return 0;
}

/* A sample (rescan.h): counted in each region it was taken inside, in
 * its bin as html_narrow.c computes it. */
static int on_sample(void *ctx, const struct maplog_ev *ev, size_t thread,
		     size_t stack)
{
	struct seltab *s = ctx;
	(void)stack;
	const uint32_t *names;
	uint32_t n = regions_sample_names(s->m->regions, ev, &names);
	if (!n)
		return 0;
	uint32_t bin = html_nr_bin(s->t0, s->span, s->fine, s->bins,
				   ev->ev_ts);
	for (uint32_t k = 0; k < n; k++) {
		struct stcell *c = cell_get(s, names[k], (uint32_t)thread, bin);
		if (!c)
			return MAPS_ENOMEM;
		c->samples++;
	}
	return 0;
}

/* "regions": names and cells, or a reason; 0 or MAPS_ENOMEM. */
static int regions_data(FILE *out, struct seltab *s,
			const struct output_in *in)
{
	const struct regions *rg = s->m->regions;
	fputs("\"regions\":", out);
	if (!rg || !rg->nnames || !rg->ready) {
		fputs("null", out);
		return 0;
	}
	int rc = regions_entries(rg, on_entry, s);
	if (!rc) {
		static const struct rescan_tool tool = {on_sample, NULL, NULL};
		rc = rescan_logs(in, &tool, s);
	}
	if (rc == MAPS_EIO || (!rc && s->nc > ST_CELLS)) {
		fprintf(out, "{\"none\":\"%s\"}",
			rc ? "the logs could not be read a second time"
			   : "the figures per thread and time are too many "
			     "for the page");
		return 0;
	}
	if (rc)
		return rc;
	fputs("{\"names\":[", out);
	for (size_t i = 0; i < rg->nnames; i++) {
		if (i)
			fputc(',', out);
		htmlsafe_json(out, rg->names[i].name);
	}
	/* [name, thread, bin, entries begun, ns inside, samples inside] */
	fputs("],\n\"cells\":[", out);
	for (size_t i = 0; i < s->nc; i++) {
		const struct stcell *c = &s->c[i];
		fprintf(out, "%s%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			i ? (i % 8 ? "," : ",\n") : "", c->name, c->thread,
			c->bin, c->entries, c->ns, c->samples);
	}
	fputs("]}", out);
	return 0;
}

/* "mpi": the functions (by total time, as the whole run's table), the
 * point-to-point ones among them ("p2p", their indexes), the
 * processes with statistics as [process number (model_proc_num()),
 * rank] and their totals as [function, process, calls, time in ns,
 * bytes sent, bytes received]; null without statistics. */
static int mpi_data(FILE *out, const struct model *m)
{
	struct mpi_stats s;
	if (mpi_stats(m, &s))
		return MAPS_ENOMEM;
	fputs("\"mpi\":", out);
	if (!s.nfn) {
		fputs("null", out);
		mpi_stats_free(&s);
		return 0;
	}
	fputs("{\"fns\":[", out);
	for (size_t f = 0; f < s.nfn; f++) {
		if (f)
			fputc(',', out);
		htmlsafe_json(out, s.fn[f].function);
	}
	/* the point-to-point functions: the performance summary counts
	 * their calls and bytes (report/summary.c) */
	fputs("],\"p2p\":[", out);
	int one = 0;
	for (size_t f = 0; f < s.nfn; f++)
		if (s.fn[f].function &&
		    !ranks_is_collective(s.fn[f].function) &&
		    strncmp(s.fn[f].function, "MPI_File_", 9) != 0) {
			fprintf(out, "%s%zu", one ? "," : "", f);
			one = 1;
		}
	fputs("],\"procs\":[", out);
	for (uint32_t r = 0; r < s.nranks; r++)
		fprintf(out, "%s[%u,%d]", r ? "," : "",
			model_proc_num(m, m->procs[s.ranks[r].proc].pid),
			(int)s.ranks[r].rank);
	fputs("],\n\"v\":[", out);
	int first = 1;
	for (uint32_t r = 0; r < s.nranks; r++) {
		const struct rproc *p = &m->procs[s.ranks[r].proc];
		for (size_t f = 0; f < s.nfn; f++) {
			uint64_t v[4] = {0, 0, 0, 0};
			int any = 0;
			for (size_t k = 0; k < m->nmpicalls; k++) {
				const struct rmpicall *c = &m->mpicalls[k];
				if (c->pid != p->pid || c->image != p->image ||
				    strcmp(c->function, s.fn[f].function))
					continue;
				any = 1;
				v[0] += c->calls;
				v[1] += c->time_ns;
				v[2] += c->sent;
				v[3] += c->received;
			}
			if (!any)
				continue;
			fprintf(out, "%s%zu,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				     ",%" PRIu64,
				first ? "" : ",\n", f, r, v[0], v[1], v[2], v[3]);
			first = 0;
		}
	}
	fputs("]}", out);
	mpi_stats_free(&s);
	return 0;
}

int html_seltab_data(FILE *out, const struct output_in *in, unsigned fine,
		     unsigned bins)
{
	const struct model *m = in->oi_model;
	if (!bins || !fine || (m->nmpicalls == 0 &&
			       (!m->regions || !m->regions->nnames)))
		return 0;
	struct seltab s = {.m = m, .fine = fine, .bins = bins};
	html_nr_span(m, &s.t0, &s.span);
	int rc = MAPS_ENOMEM;
	for (size_t i = 0; i < m->nthreads; i++)
		if (keymap_put(&s.threads, m->threads[i].pid,
			       m->threads[i].image, m->threads[i].tid, i))
			goto out;
	fprintf(out, "<script type=\"application/json\" id=\"st-data\">\n"
		     "{\"bins\":%u,", bins);
	if ((rc = regions_data(out, &s, in)))
		goto out;
	fputs(",\n", out);
	if ((rc = mpi_data(out, m)))
		goto out;
	fputs("}\n</script>\n", out);
out:
	keymap_free(&s.threads);
	keymap_free(&s.keys);
	free(s.c);
	return rc;
}
