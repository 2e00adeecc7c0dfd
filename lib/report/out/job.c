/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * job: see job.h.  Each output builds the figures itself (job_build):
 * they are a pass over the processes, threads, distinct stacks and
 * metric series, nothing per sample.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/html_i.h"
#include "report/out/job.h"

int job_build(struct job *j, const struct output_in *in)
{
	memset(j, 0, sizeof(*j));
	const struct model *m = in->oi_model;
	const struct analysis *a = in->oi_analysis;
	if (ranks_build(&j->rk, m, a))
		return MAPS_ENOMEM;
	/* the hottest function: the first of the table by self samples
	 * (on a tie, the one with more total samples, then by name) */
	const struct rfunc *top = a && a->ntop_self ? &a->funcs[a->top_self[0]]
						    : NULL;
	/* the MPI call statistics, for the bytes of the point-to-point
	 * calls */
	struct mpi_stats ms;
	if (mpi_stats(m, &ms)) {
		ranks_free(&j->rk);
		return MAPS_ENOMEM;
	}
	summary_make(&j->sm, &j->rk, &ms, model_run_seconds(m),
		     top ? top->name : NULL,
		     top && m->samples ? (double)top->self / (double)m->samples
				       : 0);
	mpi_stats_free(&ms);
	return 0;
}

void job_free(struct job *j)
{
	ranks_free(&j->rk);
}

/* "rank" or "process": what the rows are, by whether the logs name
 * MPI ranks. */
static const char *row_word(const struct ranks *rk)
{
	return rk->any_rank ? "rank" : "process";
}

/* Its plural. */
static const char *rows_word(const struct ranks *rk)
{
	return rk->any_rank ? "ranks" : "processes";
}

/* A bar of '#' for share f (0..1) of width columns. */
static void bar(FILE *out, double f, int width)
{
	int n = (int)lround(f * width);
	for (int i = 0; i < n && i < width; i++)
		fputc('#', out);
}

int job_text_summary(const struct output_in *in, FILE *out)
{
	struct job j;
	if (job_build(&j, in))
		return MAPS_ENOMEM;
	const struct summary *s = &j.sm;
	fprintf(out, "\nSummary\n  %s\n", s->verdict);
	if (s->kind != SUMMARY_NONE) {
		fprintf(out, "  %.3f s of %s in %zu process%s, %.3f s "
			     "wall-clock%s\n",
			s->seconds, model_clock_name((uint32_t)j.rk.clock),
			s->nprocs, s->nprocs == 1 ? "" : "es", s->wall,
			s->mpi_metric ? "; MPI time from the time-in-MPI "
					"metric"
				      : "");
		const struct {
			const char *name;
			double f;
		} parts[] = {{"Compute", s->compute},
			     {"MPI", s->mpi},
			     {"I/O", s->io}};
		for (size_t i = 0; i < 3; i++) {
			fprintf(out, "  %-8s %6.1f%%  ", parts[i].name,
				parts[i].f * 100);
			bar(out, parts[i].f, 40);
			fputc('\n', out);
		}
	}
	for (size_t i = 0; i < s->nadvice; i++)
		fprintf(out, "  %s %s\n", i ? "       " : "Advice:", s->advice[i]);
	job_free(&j);
	return 0;
}

/* Bytes as the tables show them: "12.3 MiB". */
static const char *bytes(double b, char *buf, size_t len)
{
	static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	size_t k = 0;
	while (b >= 1024 && k + 1 < sizeof(u) / sizeof(u[0])) {
		b /= 1024;
		k++;
	}
	snprintf(buf, len, k ? "%.1f %s" : "%.0f %s", b, u[k]);
	return buf;
}

static int by_compute(const void *x, const void *y)
{
	const struct rank_row *a = *(const struct rank_row *const *)x;
	const struct rank_row *b = *(const struct rank_row *const *)y;
	return a->compute < b->compute ? 1 : a->compute > b->compute ? -1
				     : (a->rank > b->rank) - (a->rank < b->rank);
}

static int by_rank(const void *x, const void *y)
{
	const struct rank_row *a = *(const struct rank_row *const *)x;
	const struct rank_row *b = *(const struct rank_row *const *)y;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The rows a table lists, by rank: all, or past JOB_ROWS the JOB_ROWS/2
 * slowest and the JOB_ROWS/2 fastest.  *n gets their number; NULL when
 * out of memory. */
static const struct rank_row **rows_shown(const struct ranks *rk, size_t *n)
{
	const struct rank_row **v = calloc(rk->n ? rk->n : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < rk->n; i++)
		v[i] = &rk->r[i];
	*n = rk->n;
	if (rk->n > JOB_ROWS) {
		qsort(v, rk->n, sizeof(*v), by_compute);
		memmove(v + JOB_ROWS / 2, v + rk->n - JOB_ROWS / 2,
			JOB_ROWS / 2 * sizeof(*v));
		*n = JOB_ROWS;
	}
	qsort(v, *n, sizeof(*v), by_rank);
	return v;
}

/* One line of the across-ranks table. */
static void stat_line(FILE *out, const char *name, const struct rank_stat *st,
		      const char *fmt, double scale, const char *w)
{
	if (!st->have)
		return;
	char a[32], b[32], c[32];
	snprintf(a, sizeof(a), fmt, st->min * scale);
	snprintf(b, sizeof(b), fmt, st->mean * scale);
	snprintf(c, sizeof(c), fmt, st->max * scale);
	char at[40];
	snprintf(at, sizeof(at), "(%s %d)", w, (int)st->min_rank);
	fprintf(out, "  %-12s %12s %-14s %12s %12s (%s %d)\n", name, a, at,
		b, c, w, (int)st->max_rank);
}

int job_text_ranks(const struct output_in *in, FILE *out)
{
	struct job j;
	if (job_build(&j, in))
		return MAPS_ENOMEM;
	const struct ranks *rk = &j.rk;
	if (rk->n < 2) {
		job_free(&j);
		return 0;
	}
	size_t n;
	const struct rank_row **v = rows_shown(rk, &n);
	if (!v) {
		job_free(&j);
		return MAPS_ENOMEM;
	}
	int wall = rk->clock == MAPLOG_CLOCK_WALL;
	fprintf(out, "\nRanks: %zu %s%s\n", rk->n, rows_word(rk),
		rk->any_rank ? ""
			     : " (no MPI ranks in the logs: numbered by "
			       "their order in the report)");
	fprintf(out, "  %6s %8s %10s %9s %9s %6s %6s %10s  %s\n",
		rk->any_rank ? "RANK" : "PROC", "PID", "SAMPLES",
		wall ? "WALL-S" : "CPU-S", "COMPUTE-S", "MPI%", "I/O%",
		"MEM-PEAK", "HOST");
	for (size_t i = 0; i < n; i++) {
		const struct rank_row *r = v[i];
		char mem[32] = "-";
		if (r->have_mem)
			bytes(r->mem_peak, mem, sizeof(mem));
		char crash[48] = "";
		if (r->killed_by)
			snprintf(crash, sizeof(crash),
				 "  killed by signal %d (%s)", r->killed_by,
				 sigabbrev_np(r->killed_by)
					 ? sigabbrev_np(r->killed_by)
					 : "?");
		char imgs[40] = "";
		if (r->images > 1) /* it exec'd: one row, all its images */
			snprintf(imgs, sizeof(imgs), "  (%u images)",
				 r->images);
		fprintf(out, "  %6d %8u %10" PRIu64 " %9.3f %9.3f %5.1f%% "
			     "%5.1f%% %10s  %s%s%s%s\n",
			(int)r->rank, r->os_pid, r->samples, r->seconds,
			r->compute, r->mpi * 100, r->io * 100, mem,
			r->host ? r->host : "-", imgs, crash,
			r->rank == rk->compute.max_rank ? "  <- slowest" : "");
	}
	if (n < rk->n)
		fprintf(out, "  (%zu %s not listed: the %d slowest and the "
			     "%d fastest are; --json lists all)\n",
			rk->n - n, rows_word(rk), JOB_ROWS / 2, JOB_ROWS / 2);
	const char *w = row_word(rk);
	fprintf(out, "  Across the %s:\n  %-12s %12s %-14s %12s %12s\n",
		rows_word(rk), "", "MIN", "", "MEAN", "MAX");
	stat_line(out, "Samples", &rk->samples, "%.0f", 1, w);
	stat_line(out, wall ? "Wall-S" : "CPU-S", &rk->seconds, "%.3f", 1, w);
	stat_line(out, "Compute-S", &rk->compute, "%.3f", 1, w);
	stat_line(out, "MPI%", &rk->mpi, "%.1f%%", 100, w);
	stat_line(out, "I/O%", &rk->io, "%.1f%%", 100, w);
	if (rk->mem.have)
		stat_line(out, "Mem-peak MiB", &rk->mem, "%.1f", 1.0 / 1048576,
			  w);
	fprintf(out, "  Load imbalance (max/mean of compute): %.2f; slowest: "
		     "%s %d\n",
		rk->imbalance, w, (int)rk->compute.max_rank);
	free(v);
	job_free(&j);
	return 0;
}

/* ---- HTML ---- */

int job_html_summary(const struct output_in *in, FILE *out)
{
	struct job j;
	if (job_build(&j, in))
		return MAPS_ENOMEM;
	const struct summary *s = &j.sm;
	fputs("<section id=\"performance\">\n<h2>Performance summary</h2>\n"
	      "<p class=\"verdict\"><b>",
	      out);
	H(s->verdict);
	fputs("</b></p>\n", out);
	if (s->kind != SUMMARY_NONE) {
		fprintf(out, "<p>%.3f s of %s in %zu process%s, %.3f s "
			     "wall-clock%s.</p>\n<table>\n",
			s->seconds, model_clock_name((uint32_t)j.rk.clock),
			s->nprocs, s->nprocs == 1 ? "" : "es", s->wall,
			s->mpi_metric ? "; MPI time from the time-in-MPI metric"
				      : "");
		const char *names[] = {"Compute", "MPI", "I/O"};
		double f[] = {s->compute, s->mpi, s->io};
		for (size_t i = 0; i < 3; i++) {
			fprintf(out, "<tr><th>%s</th>", names[i]);
			html_pct_cell(out, f[i] * 100);
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	if (s->nadvice) {
		fputs("<ul class=\"advice\">\n", out);
		for (size_t i = 0; i < s->nadvice; i++) {
			fputs("<li>", out);
			H(s->advice[i]);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</section>\n", out);
	job_free(&j);
	return ferror(out) ? MAPS_EIO : 0;
}

/* The timeline bins of the x axis (the run, or the part of it --time
 * keeps: html_cols_init()), [*b0, *b0 + return); 0 when none. */
static size_t axis_bins(const struct html_cols *c, size_t *b0)
{
	*b0 = (size_t)c->b0;
	if (!c->ok || *b0 >= TIMELINE_BINS)
		return 0;
	size_t nb = c->n * c->per;
	return nb < TIMELINE_BINS - *b0 ? nb : TIMELINE_BINS - *b0;
}

/* Where the run's first and last records are on a chart whose x is px
 * per bin of m's timeline from bin b0's start (*x0, *x1), and the run's
 * seconds between them (*span): the svg's data-x0, data-x1 and
 * data-span, for narrow.js to shade a selected time range. */
static void run_edges(const struct model *m, size_t b0, double px,
		      double *x0, double *x1, double *span)
{
	double w = (double)timeline_width(&m->timeline);
	double o = (double)timeline_bin_start(&m->timeline, b0);
	*x0 = w > 0 ? ((double)m->first_ts - o) / w * px : 0;
	*x1 = w > 0 ? ((double)m->last_ts - o) / w * px : 0;
	*span = model_run_seconds(m);
}

#define HEAT_ROWS 128
#define HEAT_COLS 128

/* The rank x time heat map over the charts' time axis (ax): a row per
 * rank (groups of ranks past HEAT_ROWS), a column per time bin (merged
 * past HEAT_COLS), darker for more samples. */
static int heat_map(FILE *out, const struct model *m, const struct ranks *rk,
		    const struct rank_row **v, size_t n,
		    const struct html_cols *ax)
{
	size_t b0, nb = axis_bins(ax, &b0);
	if (!nb)
		return 0;
	size_t per_col = (nb + HEAT_COLS - 1) / HEAT_COLS;
	size_t cols = (nb + per_col - 1) / per_col;
	size_t per_row = (n + HEAT_ROWS - 1) / HEAT_ROWS;
	size_t rows = (n + per_row - 1) / per_row;
	double *cell = calloc(rows * cols, sizeof(*cell));
	if (!cell)
		return MAPS_ENOMEM;
	double peak = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; v[i]->bins && b < nb; b++) {
			double *c = &cell[(i / per_row) * cols + b / per_col];
			*c += v[i]->bins[b0 + b];
			if (*c > peak)
				peak = *c;
		}
	if (!(peak > 0)) {
		free(cell);
		return 0;
	}
	double secs = (double)timeline_width(&m->timeline) * (double)nb / 1e9;
	int cw = 6, rh = rows > 64 ? 4 : 10, left = 70;
	size_t w = left + cols * (size_t)cw, h = rows * (size_t)rh + 16;
	double x0, x1, span;
	run_edges(m, b0, (double)cw / (double)per_col, &x0, &x1, &span);
	fprintf(out, "<h3>Samples per %s over time</h3>\n<p>Darker: more "
		     "samples in that time slice (%.3f s each); a %s that "
		     "stays dark while others fade is slow.</p>\n"
		     "<svg class=\"heat timed\" width=\"%zu\" height=\"%zu\" "
		     "viewBox=\"0 0 %zu %zu\" data-x0=\"%.1f\" "
		     "data-x1=\"%.1f\" data-span=\"%.9g\" role=\"img\">\n",
		row_word(rk), secs / (double)cols, row_word(rk), w, h, w, h,
		left + x0, left + x1, span);
	for (size_t r = 0; r < rows; r++) {
		const struct rank_row *first = v[r * per_row];
		const struct rank_row *last =
			v[(r + 1) * per_row < n ? (r + 1) * per_row - 1 : n - 1];
		if (rh >= 10 || r % 8 == 0) {
			if (first == last)
				fprintf(out, "<text x=\"0\" y=\"%zu\" "
					     "font-size=\"9\">%s %d</text>\n",
					r * (size_t)rh + (size_t)rh - 1,
					row_word(rk), (int)first->rank);
			else
				fprintf(out, "<text x=\"0\" y=\"%zu\" "
					     "font-size=\"9\">%d-%d</text>\n",
					r * (size_t)rh + (size_t)rh - 1,
					(int)first->rank, (int)last->rank);
		}
		for (size_t c = 0; c < cols; c++) {
			double f = cell[r * cols + c] / peak;
			if (f <= 0)
				continue;
			fprintf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" "
				     "height=\"%d\" fill=\"#b03a2e\" "
				     "fill-opacity=\"%.2f\"/>\n",
				left + c * (size_t)cw, r * (size_t)rh, cw, rh, f);
		}
	}
	/* the axis's ends, in seconds from the run's start */
	fprintf(out, "<text x=\"%d\" y=\"%zu\" font-size=\"9\">%.2f s</text>"
		     "<text x=\"%zu\" y=\"%zu\" font-size=\"9\" "
		     "text-anchor=\"end\">%.2f s</text>\n</svg>\n",
		left, rows * (size_t)rh + 12, (double)(ax->t0 - ax->base) / 1e9,
		left + cols * (size_t)cw, rows * (size_t)rh + 12,
		(double)(ax->t1 - ax->base) / 1e9);
	free(cell);
	return 0;
}

#define BAND_W 600
#define BAND_H 120

/* The x of timeline bin b's middle in a band chart over the time axis
 * ax. */
static double band_x(const struct html_cols *ax, const struct rtimeline *tl,
		     size_t b)
{
	double mid = (double)(timeline_bin_start(tl, b) - (int64_t)ax->base) /
		     1e9 + (double)timeline_width(tl) / 2e9;
	return html_col_frac(ax, mid) * BAND_W;
}

/* Metric i's chart across the ranks over the time axis ax: per time
 * bin the min-max band of the processes' values and their mean (a
 * process's value in a bin: the mean of its values there).  Nothing
 * with fewer than two processes. */
static int band_chart(FILE *out, const struct model *m, size_t i,
		      const struct html_cols *ax)
{
	const struct rtimeline *tl = &m->timeline;
	size_t nser = 0;
	for (size_t k = 0; k < m->metrics.ns; k++)
		nser += m->metrics.s[k].metric == i + 1 && m->metrics.s[k].n;
	if (nser < 2)
		return 0;
	double *lo = malloc(TIMELINE_BINS * sizeof(double) * 3);
	struct rtlbin *b = malloc(TIMELINE_BINS * sizeof(*b));
	uint32_t *cnt = calloc(TIMELINE_BINS, sizeof(*cnt));
	if (!lo || !b || !cnt) {
		free(lo);
		free(b);
		free(cnt);
		return MAPS_ENOMEM;
	}
	double *hi = lo + TIMELINE_BINS, *sum = hi + TIMELINE_BINS;
	for (size_t k = 0; k < m->metrics.ns; k++) {
		const struct rmseries *ms = &m->metrics.s[k];
		if (ms->metric != i + 1)
			continue;
		const struct rtlseries *s =
			timeline_series(tl, ms->pid, ms->image, ms->index);
		if (!s || !s->bins)
			continue;
		timeline_series_bins(tl, s, b);
		for (size_t x = 0; x < TIMELINE_BINS; x++) {
			if (!b[x].n)
				continue;
			double val = b[x].sum / (double)b[x].n;
			if (!cnt[x] || val < lo[x])
				lo[x] = val;
			if (!cnt[x] || val > hi[x])
				hi[x] = val;
			sum[x] = (cnt[x] ? sum[x] : 0) + val;
			cnt[x]++;
		}
	}
	size_t nb = 0;
	double top = 0;
	for (size_t x = 0; x < TIMELINE_BINS; x++)
		if (cnt[x]) {
			nb = x + 1;
			if (hi[x] > top)
				top = hi[x];
		}
	const struct rmetric *mt = &m->metrics.m[i];
	if (nb >= 2 && ax->ok) {
		fputs("<figure class=\"band\"><figcaption>", out);
		H(metrics_display_name(mt));
		/* data-x0, data-x1, data-span: the run's first and last
		 * records on the axis, for narrow.js to shade a range */
		fprintf(out, " (%s): min-max across %zu processes, line the "
			     "mean; peak %.4g</figcaption>\n<svg class=\"timed\" "
			     "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			     "data-x0=\"%.1f\" data-x1=\"%.1f\" "
			     "data-span=\"%.9g\" role=\"img\"><polygon "
			     "fill=\"#85c1e9\" points=\"",
			mt->units ? mt->units : "", nser, top, BAND_W, BAND_H,
			BAND_W, BAND_H,
			html_col_frac(ax, ((double)m->first_ts - (double)ax->base) / 1e9) *
				BAND_W,
			html_col_frac(ax, ((double)m->last_ts - (double)ax->base) / 1e9) *
				BAND_W,
			model_run_seconds(m));
		double sy = top > 0 ? (BAND_H - 4) / top : 0;
		for (size_t x = 0; x < nb; x++)
			if (cnt[x])
				fprintf(out, "%.1f,%.1f ", band_x(ax, tl, x),
					BAND_H - hi[x] * sy);
		for (size_t x = nb; x-- > 0;)
			if (cnt[x])
				fprintf(out, "%.1f,%.1f ", band_x(ax, tl, x),
					BAND_H - lo[x] * sy);
		fputs("\"/><polyline fill=\"none\" stroke=\"#1b4f72\" "
		      "points=\"",
		      out);
		for (size_t x = 0; x < nb; x++)
			if (cnt[x])
				fprintf(out, "%.1f,%.1f ", band_x(ax, tl, x),
					BAND_H - sum[x] / cnt[x] * sy);
		fputs("\"/></svg></figure>\n", out);
	}
	free(lo);
	free(b);
	free(cnt);
	return 0;
}

int job_html_ranks(const struct output_in *in, FILE *out)
{
	struct job j;
	if (job_build(&j, in))
		return MAPS_ENOMEM;
	const struct ranks *rk = &j.rk;
	const struct model *m = in->oi_model;
	int rc = 0;
	size_t n;
	const struct rank_row **v = NULL;
	if (rk->n < 2)
		goto out;
	if (!(v = rows_shown(rk, &n))) {
		rc = MAPS_ENOMEM;
		goto out;
	}
	fprintf(out, "<section id=\"ranks\">\n<h2>Ranks</h2>\n<p>%zu %s; "
		     "load imbalance (max/mean of compute) %.2f, the slowest "
		     "%s %d.%s</p>\n",
		rk->n, rows_word(rk), rk->imbalance, row_word(rk),
		(int)rk->compute.max_rank,
		rk->any_rank ? "" : " No MPI ranks in the logs: processes "
				    "are numbered by their order.");
	fprintf(out, "<table>\n<thead><tr><th class=\"n\">%s</th><th "
		     "class=\"n\">PID</th><th class=\"n\">Samples</th><th "
		     "class=\"n\">Seconds</th><th class=\"n\">Compute s</th>"
		     "<th class=\"n\">MPI</th><th class=\"n\">I/O</th><th "
		     "class=\"n\">Memory peak</th><th>Host</th></tr></thead>"
		     "\n<tbody>\n",
		rk->any_rank ? "Rank" : "Process");
	for (size_t i = 0; i < n; i++) {
		const struct rank_row *r = v[i];
		char mem[32] = "-";
		if (r->have_mem)
			bytes(r->mem_peak, mem, sizeof(mem));
		/* data-proc: the process's number (model_proc_num()), for
		 * report.js to mark the rows of a selection */
		fprintf(out, "<tr%s data-proc=\"%u\"><td class=\"n\">%d</td>"
			     "<td class=\"n\">%u</td><td class=\"n\">%" PRIu64
			     "</td><td class=\"n\">%.3f</td><td class=\"n\">"
			     "%.3f</td>",
			r->rank == rk->compute.max_rank ? " class=\"slow\"" : "",
			model_proc_num(m, r->pid), (int)r->rank, r->os_pid,
			r->samples, r->seconds,
			r->compute);
		html_pct_cell(out, r->mpi * 100);
		html_pct_cell(out, r->io * 100);
		fprintf(out, "<td class=\"n\">%s</td><td>", mem);
		H(r->host ? r->host : "-");
		if (r->killed_by)
			fprintf(out, " <span class=\"crash\">killed by signal "
				     "%d (%s)</span>",
				r->killed_by,
				sigabbrev_np(r->killed_by)
					? sigabbrev_np(r->killed_by)
					: "?");
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (n < rk->n)
		fprintf(out, "<p>%zu %s not listed: the %d slowest and the %d "
			     "fastest are (the JSON report lists all).</p>\n",
			rk->n - n, rows_word(rk), JOB_ROWS / 2, JOB_ROWS / 2);
	if (m->timeline_on) {
		/* over the time axis of the metric charts */
		struct html_cols ax;
		html_cols_init(&ax, m);
		html_range_note(out, &ax, "ranks-range");
		rc = heat_map(out, m, rk, v, n, &ax);
		for (size_t i = 0; !rc && i < m->metrics.nm; i++)
			rc = band_chart(out, m, i, &ax);
	}
	fputs("</section>\n", out);
out:
	free(v);
	job_free(&j);
	if (!rc && ferror(out))
		rc = MAPS_EIO;
	return rc;
}
