/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text: the text report, mapreport's default output on standard output
 * (see text.h): run header, processes, threads, the metrics section
 * (text_metrics.c), partial reports (partial_text.c), and the
 * top-functions tables.
 */
#include <inttypes.h>
#include <string.h>

#include "report/out/text.h"
#include "report/out/text_calls.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The run header, processes and threads tables. */
static void run_header(const struct model *m, FILE *out)
{
	const struct rproc *first = model_first_proc(m);
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;

	fprintf(out, "mapsample report\n");
	if (first) {
		fprintf(out, "  Command:    %s\n", first->cmdline);
		fprintf(out, "  Host:       %s\n", first->host);
		char when[64];
		if (!model_start_str(first, "%Y-%m-%d %H:%M:%S UTC", when,
				     sizeof(when)))
			strcpy(when, "?");
		fprintf(out, "  Start:      %s\n", when);
	}
	fprintf(out, "  Duration:   %.3f s\n", model_run_seconds(m));
	fprintf(out, "  Processes:  %zu    Threads: %zu\n", m->nprocs,
		m->nthreads);
	fprintf(out, "  Samples:    %" PRIu64 "    Dropped: %" PRIu64 "\n",
		m->samples, m->dropped);
	if (m->filter && filter_active(m->filter)) {
		char f[512];
		fprintf(out, "  Filter:     %s (%" PRIu64 " samples left out)\n",
			filter_str(m->filter, f, sizeof(f)),
			m->filter->fi_dropped);
	}
	if (first) {
		fprintf(out, "  Sampling:   %s, %s, signal %u\n",
			model_clock_name(first->clock), model_timer_name(first->timer),
			first->signal);
		fprintf(out, "  Rate:       asked %" PRIu64
			     " Hz per thread; achieved %.1f samples per "
			     "second of %s\n",
			first->rate_asked, model_rate(m),
			model_clock_name(first->clock));
	}

	fprintf(out, "\nProcesses\n");
	fprintf(out, "  %8s %5s %10s %7s  %-14s %s\n", "PID", "IMAGE",
		"SAMPLES", "%", "EXIT", "COMMAND");
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		char ex[32] = "-";
		if (p->exited)
			snprintf(ex, sizeof(ex), "%s %d",
				 p->exit_how == MAPLOG_EXIT_SIGNALED ? "signal"
								     : "status",
				 p->exit_code);
		fprintf(out, "  %8u %5u %10" PRIu64 " %6.2f%%  %-14s %s\n",
			p->pid, p->image, p->samples, pct(p->samples, m->samples),
			ex, p->cmdline ? p->cmdline : "(no initialize record)");
	}

	fprintf(out, "\nThreads\n");
	fprintf(out, "  %8s %5s %8s %-16s %10s %7s %10s %10s\n", "PID", "IMAGE",
		"TID", "NAME", "SAMPLES", "%", wall ? "WALL-S" : "CPU-S",
		"RATE");
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		double secs = model_thread_seconds(t, wall);
		fprintf(out, "  %8u %5u %8u %-16s %10" PRIu64 " %6.2f%% %10.3f "
			     "%10.1f%s\n",
			t->pid, t->image, t->tid, t->name ? t->name : "-",
			t->samples, pct(t->samples, m->samples), secs,
			secs > 0 ? (double)t->samples / secs : 0.0,
			t->ended ? "" : " *");
	}
	for (size_t i = 0; i < m->nthreads; i++)
		if (!m->threads[i].ended) {
			fprintf(out, "  * no end recorded (killed?): time "
				     "from its samples' weights\n");
			break;
		}
}

/* One top-functions table: by self or by total samples. */
static void table(const struct analysis *a, const struct model *m, FILE *out,
		  unsigned top, int by_total)
{
	const uint32_t *ord = by_total ? a->top_total : a->top_self;
	size_t n = by_total ? a->ntop_total : a->ntop_self;
	fprintf(out, "\nTop functions by %s samples\n",
		by_total ? "total" : "self");
	fprintf(out, "  %7s %8s %7s %8s  %-40s %s\n", "SELF%", "SELF", "TOTAL%",
		"TOTAL", "FUNCTION", "LOCATION");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct rfunc *f = &a->funcs[ord[i]];
		char loc[512];
		if (f->file) {
			const char *b = strrchr(f->file, '/');
			snprintf(loc, sizeof(loc), "%s:%d (%s)", b ? b + 1 : f->file,
				 f->line, f->module);
		} else {
			snprintf(loc, sizeof(loc), "(%s)", f->module);
		}
		fprintf(out, "  %6.2f%% %8" PRIu64 " %6.2f%% %8" PRIu64
			     "  %-40s %s\n",
			pct(f->self, m->samples), f->self,
			pct(f->total, m->samples), f->total, f->name, loc);
	}
}

/* The top-functions tables (by self, by total samples), top rows each;
 * nothing when top is 0 or m has no samples. */
static void functions(const struct analysis *a, const struct model *m,
		      FILE *out, unsigned top)
{
	if (!top || !m->samples)
		return;
	table(a, m, out, top, 0);
	table(a, m, out, top, 1);
}

int text_emit(const struct output_in *in, FILE *out)
{
	const struct model *m = in->oi_model;
	run_header(m, out);
	int rc = text_metrics(&m->metrics, out);
	if (!rc)
		rc = text_partial(in->oi_partial, out);
	if (!rc)
		functions(in->oi_analysis, m, out, in->oi_top);
	if (!rc)
		rc = text_calls(in, out);
	if (!rc && in->oi_lines)
		rc = text_lines(in, out);
	return rc;
}
