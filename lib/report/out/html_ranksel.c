/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_ranksel: the data behind the HTML page's Ranks table in a
 * selection (see html_i.h), as the JSON element "rk-data", which
 * ranks.js adds up for the selected threads and time bins (the bins of
 * "nr-data").
 *
 * Per (thread, time bin): every sample (the sampler's own too, which
 * the flame graph's cells leave out and the Ranks table counts), the
 * sum of their weights (ns of the sampling clock) and those in MPI (and
 * of those, in a collective call) and in I/O, classified as report/ranks.c does (ranks_stack_classes()).
 * html_narrow.c gives each sample of its reading of the logs here, with
 * its bin among NR_BINS; the bins are merged to the page's when
 * written.  Per thread, the row of the Ranks table its samples count in
 * (ranks_row_of()) and its seconds over the whole run
 * (model_thread_seconds()); per process image, its row; per row, what
 * the table shows of it that no sample tells (rank, pid, host, the
 * signal that ended it, the whole-run memory peak and MPI share of the
 * time-in-MPI metric).  The memory peak of a time range ranks.js takes
 * from the metric values per bin of "msel-data" (html_msel.c).
 *
 * A selection's figures are then those of mapreport --pid, --tid and
 * --time FROM:TO on the bins' edges: samples, and the seconds of the
 * threads with samples, measured at their end without a time range and
 * the weights of the range's samples with one (model/model.h), then the
 * MPI and I/O shares and compute seconds as report/ranks.c makes them.
 * Size: threads x bins cells at most (the page's bins, after
 * html_narrow.c merged them), seven numbers each; past RK_CELLS of them
 * (some 2.5 MB of the page) the element holds the reason instead and
 * the table stays the whole run's, its selected rows marked.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/keymap.h"
#include "report/out/html_i.h"
#include "report/out/job.h"
#include "report/summary.h"

#define RK_CELLS 100000

struct rscell {
	uint32_t thread, bin;
	uint64_t samples, weight, mpi, io, coll;
};

struct html_ranksel {
	const struct model *m;
	unsigned fine;            /* bins of a sample */
	uint8_t *cls;             /* stack slot -> RANKS_C_* */
	struct rscell *c;
	size_t nc, capc;
	struct keymap keys;       /* (thread, bin) -> index in c */
};

struct html_ranksel *html_ranksel_new(const struct model *m,
				      const struct analysis *a, unsigned fine)
{
	struct html_ranksel *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->m = m;
	r->fine = fine;
	if (ranks_stack_classes(m, a, &r->cls)) {
		free(r);
		return NULL;
	}
	return r;
}

void html_ranksel_free(struct html_ranksel *r)
{
	if (!r)
		return;
	keymap_free(&r->keys);
	free(r->c);
	free(r->cls);
	free(r);
}

int html_ranksel_sample(struct html_ranksel *r, const struct maplog_ev *ev,
			size_t thread, size_t stack, uint32_t bin)
{
	int added;
	long i = keymap_add(&r->keys, (uint32_t)thread, bin, 0, &r->c, &r->nc,
			    &r->capc, sizeof(*r->c), &added);
	if (i < 0)
		return MAPS_ENOMEM;
	struct rscell *c = &r->c[i];
	if (added)
		*c = (struct rscell){(uint32_t)thread, bin, 0, 0, 0, 0, 0};
	c->samples++;
	c->weight += ev->ev_u.sample.sa_weight;
	if (r->cls[stack] & RANKS_C_MPI) {
		c->mpi++;
		c->coll += (r->cls[stack] & RANKS_C_COLL) != 0;
	} else if (r->cls[stack] & RANKS_C_IO)
		c->io++;
	return 0;
}

static int cmp_cell(const void *x, const void *y)
{
	const struct rscell *a = x, *b = y;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return a->bin < b->bin ? -1 : a->bin > b->bin;
}

/* The cells at bins of the page (bins of its fine): sorted, the same
 * merged. */
static void to_bins(struct html_ranksel *r, unsigned bins)
{
	for (size_t i = 0; i < r->nc; i++)
		r->c[i].bin = (uint32_t)((uint64_t)r->c[i].bin * bins / r->fine);
	if (r->nc) /* qsort takes no NULL, even for none */
		qsort(r->c, r->nc, sizeof(*r->c), cmp_cell);
	size_t w = 0;
	for (size_t i = 0; i < r->nc; i++) {
		struct rscell *c = &r->c[i];
		if (w && !cmp_cell(&r->c[w - 1], c)) {
			r->c[w - 1].samples += c->samples;
			r->c[w - 1].weight += c->weight;
			r->c[w - 1].mpi += c->mpi;
			r->c[w - 1].io += c->io;
			r->c[w - 1].coll += c->coll;
		} else {
			r->c[w++] = *c;
		}
	}
	r->nc = w;
}

/* The collective part of each row's time in MPI calls, by the call
 * statistics of its own processes (not a rank's children's), as
 * report/ranks.c takes it for the time-in-MPI metric (rows_calls()):
 * in frac (rk->n of them), -1 where the row has no call time.  Returns
 * 0 or MAPS_ENOMEM. */
static int calls_coll(const struct model *m, const struct ranks *rk,
		      double **frac)
{
	double *ns = calloc(2 * rk->n + 1, sizeof(*ns));
	if (!ns)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < m->nmpicalls; i++) {
		const struct rmpicall *c = &m->mpicalls[i];
		long ri = ranks_row_of(rk, m, c->pid, c->image);
		const struct rproc *p = model_find_proc(m, c->pid, c->image);
		if (ri < 0 || (p && p->is_rank_child))
			continue;
		if (ranks_is_collective(c->function))
			ns[2 * ri] += (double)c->time_ns;
		ns[2 * ri + 1] += (double)c->time_ns;
	}
	for (size_t i = 0; i < rk->n; i++)
		ns[i] = ns[2 * i + 1] > 0 ? ns[2 * i] / ns[2 * i + 1] : -1;
	*frac = ns;
	return 0;
}

/* The rows: [process number (model_proc_num(), the table's data-proc),
 * rank, pid in its PID namespace, host, signal that ended it or 0,
 * images, memory peak in bytes or null, MPI share of the time-in-MPI
 * metric over the whole run or null, the collective part of its MPI
 * calls' time or null (calls_coll())] in ranks_build()'s order. */
static void write_rows(FILE *out, const struct model *m,
		       const struct ranks *rk, const double *coll)
{
	fprintf(out, "\"any_rank\":%d,\"n\":%zu,\"rows\":[", rk->any_rank,
		rk->n);
	for (size_t i = 0; i < rk->n; i++) {
		const struct rank_row *w = &rk->r[i];
		fprintf(out, "%s[%u,%d,%u,", i ? ",\n" : "",
			model_proc_num(m, w->pid), (int)w->rank, w->os_pid);
		htmlsafe_json(out, w->host ? w->host : "-");
		fprintf(out, ",%d,%u,", w->killed_by, w->images);
		if (w->have_mem)
			fprintf(out, "%.17g,", w->mem_peak);
		else
			fputs("null,", out);
		if (w->mpi_metric)
			fprintf(out, "%.17g,", w->mpi);
		else
			fputs("null,", out);
		if (coll[i] >= 0)
			fprintf(out, "%.17g]", coll[i]);
		else
			fputs("null]", out);
	}
	fputc(']', out);
}

int html_ranksel_write(FILE *out, struct html_ranksel *r,
		       const struct output_in *in, unsigned bins)
{
	const struct model *m = r->m;
	struct job j;
	if (job_build(&j, in))
		return MAPS_ENOMEM;
	const struct ranks *rk = &j.rk;
	if (!rk->n) { /* no process with samples */
		job_free(&j);
		return 0;
	}
	to_bins(r, bins);
	if (r->nc > RK_CELLS) {
		fputs("<script type=\"application/json\" id=\"rk-data\">\n"
		      "{\"none\":\"the figures per thread and time are too "
		      "many for the page\"}\n</script>\n",
		      out);
		job_free(&j);
		return ferror(out) ? MAPS_EIO : 0;
	}
	int wall = rk->clock == MAPLOG_CLOCK_WALL;
	double *coll;
	if (calls_coll(m, rk, &coll)) {
		job_free(&j);
		return MAPS_ENOMEM;
	}
	/* wall, clock: the run's wall-clock seconds and its sampling
	 * clock, for the performance summary of a selection (perf.js) */
	/* sm: summary.h's thresholds, for perf.js to judge as
	 * summary_make() does: bound, imbalance, small message, advice
	 * lines and the bytes a sentence holds (with its NUL) */
	fprintf(out, "<script type=\"application/json\" id=\"rk-data\">\n"
		     "{\"bins\":%u,\"rows_max\":%d,\"wall\":%.17g,"
		     "\"sm\":[%.17g,%.17g,%d,%d,%d],\"clock\":",
		bins, JOB_ROWS, model_run_seconds(m), SUMMARY_BOUND,
		SUMMARY_IMBALANCE, SUMMARY_SMALL_MSG, SUMMARY_ADVICE,
		SUMMARY_TEXT);
	htmlsafe_json(out, model_clock_name((uint32_t)rk->clock));
	fputc(',', out);
	write_rows(out, m, rk, coll);
	free(coll);
	/* [process number, its row, first and last record in ns from the
	 * page's start, 1 for a rank's child, image] of each process image
	 * with a row: for the metric series of "msel-data" (html_msel.c) */
	fputs(",\n\"procs\":[", out);
	int first = 1;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		long row = ranks_row_of(rk, m, p->pid, p->image);
		if (row < 0)
			continue;
		fprintf(out, "%s[%u,%ld,%" PRIu64 ",%" PRIu64 ",%d,%" PRIu32 "]",
			first ? "" : ",", model_proc_num(m, p->pid), row,
			p->start_ts > m->first_ts ? p->start_ts - m->first_ts : 0,
			p->end_ts > m->first_ts ? p->end_ts - m->first_ts : 0,
			p->is_rank_child, p->image);
		first = 0;
	}
	/* a thread (as "nr-data" numbers them): [its row or -1, its
	 * seconds over the whole run, its process number and image] */
	fputs("],\n\"threads\":[", out);
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		fprintf(out, "%s[%ld,%.17g,%u,%" PRIu32 "]",
			i ? (i % 8 ? "," : ",\n") : "",
			ranks_row_of(rk, m, t->pid, t->image),
			model_thread_seconds(t, wall), model_proc_num(m, t->pid),
			t->image);
	}
	/* [thread, bin, samples, their weight in ns, in MPI, in I/O, in a
	 * collective MPI call] */
	fputs("],\n\"cells\":[", out);
	for (size_t i = 0; i < r->nc; i++) {
		const struct rscell *c = &r->c[i];
		fprintf(out, "%s%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			     ",%" PRIu64 ",%" PRIu64,
			i ? (i % 8 ? "," : ",\n") : "", c->thread, c->bin,
			c->samples, c->weight, c->mpi, c->io, c->coll);
	}
	fputs("]}\n</script>\n", out);
	job_free(&j);
	return ferror(out) ? MAPS_EIO : 0;
}
