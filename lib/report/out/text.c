/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text: the text report, mapreport's default output on standard output
 * (see text.h): run header, processes, threads, the metrics section
 * (text_metrics.c), partial reports (partial_text.c), and the
 * top-functions tables.
 */
#include <inttypes.h>
#include <string.h>

#include "report/out/job.h"
#include "report/out/text.h"
#include "report/shorten.h"
#include "report/out/text_calls.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The run header. */
static void run_header(const struct model *m, FILE *out)
{
	const struct rproc *first = model_first_proc(m);

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
	fprintf(out, "  Samples:    %" PRIu64 "    Dropped: %" PRIu64,
		m->samples, m->dropped);
	if (m->marks_lost)
		fprintf(out, "    Marks lost: %" PRIu64, m->marks_lost);
	fputc('\n', out);
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
}

/* The program's regions (model/regions.h): entries, wall-clock time
 * inside and samples inside, by name in the order first entered; with
 * --region, how many samples it kept.  Nothing when there are none. */
static void regions(const struct model *m, FILE *out)
{
	const struct regions *rg = m->regions;
	if (!rg || !rg->nnames)
		return;
	fprintf(out, "\nRegions\n");
	fprintf(out, "  %-24s %8s %10s %10s %7s\n", "REGION", "COUNT",
		"WALL-S", "SAMPLES", "%");
	for (size_t i = 0; i < rg->nnames; i++) {
		const struct rregion *r = &rg->names[i];
		fprintf(out, "  %-24s %8" PRIu64 " %10.3f %10" PRIu64
			     " %6.2f%%%s\n",
			r->name, r->count, (double)r->ns / 1e9, r->samples,
			pct(r->samples, m->samples), r->open ? " *" : "");
	}
	for (size_t i = 0; i < rg->nnames; i++)
		if (rg->names[i].open) {
			fprintf(out, "  * entered but not ended: counted up "
				     "to its thread's end\n");
			break;
		}
	if (rg->unmatched_ends)
		fprintf(out, "  %" PRIu64 " region ends without a region "
			     "begun were ignored\n", rg->unmatched_ends);
	if (rg->filter)
		fprintf(out, "  --region %s: %" PRIu64 " samples inside kept, "
			     "%" PRIu64 " outside left out of this report\n",
			rg->filter, rg->kept, rg->left_out);
	if (m->filter && filter_active(m->filter))
		fprintf(out, "  narrowed to the filters: the entries the kept "
			     "threads began%s, their time inside%s and the "
			     "samples kept\n",
			m->filter->fi_time ? " within --time" : "",
			m->filter->fi_time ? " within it" : "");
}

/* One top-functions table: by self or by total samples. */
/* The width of the FUNCTION column; longer names are elided to it
 * unless --full-names. */
#define NAME_WIDTH 60

static void table(const struct analysis *a, const struct model *m, FILE *out,
		  unsigned top, int by_total, int full)
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
		char shortn[1024], cut[NAME_WIDTH + 1];
		const char *name = f->name;
		if (!full) {
			name_shorten(f->name, shortn, sizeof(shortn));
			name = name_elide(shortn, NAME_WIDTH, cut, sizeof(cut));
		}
		fprintf(out, "  %6.2f%% %8" PRIu64 " %6.2f%% %8" PRIu64
			     "  %-40s %s\n",
			pct(f->self, m->samples), f->self,
			pct(f->total, m->samples), f->total, name, loc);
	}
}

/* Why a run has no samples, and what to do: most often every thread
 * ran for less than one sample period of the sampling clock. */
static void no_samples(const struct model *m, FILE *out)
{
	const struct rproc *first = model_first_proc(m);
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	double longest = 0, period = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		double secs = model_thread_seconds(&m->threads[i], wall);
		if (secs > longest)
			longest = secs;
	}
	if (first && first->period_ns)
		period = (double)first->period_ns / 1e9;
	else if (first && first->rate_asked)
		period = 1.0 / (double)first->rate_asked;
	const char *clk = wall ? "wall-clock time" : "CPU time";
	if (!m->nthreads) {
		fprintf(out, "\nNo samples: the logs record no thread.\n");
	} else if (period > 0 && longest < period) {
		fprintf(out, "\nNo samples: no thread ran for one sample "
			     "period (%.4g s of %s at %.0f Hz; the longest "
			     "ran %.4g s).  ",
			period, clk, 1.0 / period, longest);
		/* a rate that gives the longest thread ten samples */
		double hz = longest > 0 ? 10.0 / longest : 1e9;
		if (hz <= 10000)
			fprintf(out, "Raise the rate (mapsample -F %.0f) or "
				     "profile a longer run.\n", hz);
		else
			fprintf(out, "Too short to sample even at 10000 Hz "
				     "(mapsample -F 10000): profile a longer "
				     "run.\n");
	} else {
		fprintf(out, "\nNo samples, though a thread ran %.4g s of %s "
			     "(%.4g s per sample): none reached the log; see "
			     "Dropped above and mapsample's messages.\n",
			longest, clk, period);
	}
}

/* The top-functions tables (by self, by total samples), top rows each,
 * and how many samples were the sampler's own; nothing when top is 0;
 * why, when m has no samples. */
static void functions(const struct analysis *a, const struct model *m,
		      FILE *out, unsigned top, int full)
{
	if (!m->samples) {
		no_samples(m, out);
		return;
	}
	if (!top)
		return;
	table(a, m, out, top, 0, full);
	table(a, m, out, top, 1, full);
	if (a->own_samples)
		fprintf(out, "\n%" PRIu64 " samples (%.2f%%) were taken in "
			     "mapsample's own start-up and exit code on the "
			     "program's threads: no function above is charged "
			     "with them.\n",
			a->own_samples, pct(a->own_samples, m->samples));
}

/* "Substrate plugin files": what substrate plugins wrote (MANIFEST
 * records), when they wrote any. */
static void substrate_files(const struct model *m, FILE *out)
{
	if (!m->nmanifests)
		return;
	fprintf(out, "\nSubstrate plugin files\n");
	for (size_t i = 0; i < m->nmanifests; i++) {
		const struct rmanifest *r = &m->manifests[i];
		fputs("  ", out);
		text_put_clean(out, r->plugin);
		fputs(": ", out);
		text_put_clean(out, r->path);
		if (r->description[0]) {
			fputs(" (", out);
			text_put_clean(out, r->description);
			fputc(')', out);
		}
		char pb[48];
		fprintf(out, ", process %s\n",
			model_pid_str(m, r->pid, pb, sizeof(pb)));
	}
}

int text_emit(const struct output_in *in, FILE *out)
{
	const struct model *m = in->oi_model;
	run_header(m, out);
	int rc = job_text_summary(in, out);
	if (rc)
		return rc;
	if ((rc = text_procs(m, in->oi_images, out)))
		return rc;
	if ((rc = job_text_ranks(in, out)))
		return rc;
	regions(m, out);
	rc = text_metrics(&m->metrics, m, out);
	if (!rc)
		rc = text_partial(in->oi_partial, out);
	if (!rc)
		functions(in->oi_analysis, m, out, in->oi_top,
			  in->oi_full_names);
	if (!rc)
		rc = text_calls(in, out);
	if (!rc && in->oi_lines)
		rc = text_lines(in, out);
	if (!rc)
		rc = text_mpi(m, out);
	if (!rc)
		substrate_files(m, out);
	return rc;
}
