/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json: mapreport's JSON report (see json.h; the schema is documented in
 * mapreport(1), JSON SCHEMA), written with the writer of jsonw.c; the
 * metrics' members are json_metrics.c's.
 *
 * DESIGN NOTES
 *   The report is built from the same model, analysis and metric
 *   summaries as the text report, so the two agree; where the text
 *   report rounds for people (percentages, scaled units), the JSON report
 *   gives the raw number and its units.  Every member of the schema is
 *   always written (null when not known), so scripts need not test for
 *   absent keys.  Counts are integers (exact up to 2^53 in readers that
 *   use doubles); times are seconds as numbers.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/units.h"
#include "report/out/job.h"
#include "report/mpi.h"
#include "report/out/json.h"
#include "report/out/json_i.h"

/* ---- the report ---- */

static const char *note_kind(enum rnote_kind k)
{
	switch (k) {
	case RNOTE_DAMAGE: return "damaged";
	case RNOTE_TRUNCATED: return "truncated";
	case RNOTE_IO: return "read-error";
	case RNOTE_FATAL: return "unreadable";
	}
	return "unknown";
}

static double share(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void summary(struct jsonw *w, const struct model *m)
{
	const struct rproc *first = model_first_proc(m);
	jsonw_key(w, "summary");
	jsonw_object(w);
	k_str(w, "command", first ? first->cmdline : NULL);
	k_str(w, "host", first ? first->host : NULL);
	if (first) {
		char when[64];
		model_start_str(first, "%Y-%m-%dT%H:%M:%SZ", when,
				sizeof(when));
		k_str(w, "start", when[0] ? when : NULL);
		k_dbl(w, "start_unix",
		      (double)first->wall_sec + first->wall_nsec / 1e9);
	} else {
		k_null(w, "start");
		k_null(w, "start_unix");
	}
	double dur = model_run_seconds(m);
	k_dbl(w, "duration_s", dur);
	k_u64(w, "processes", m->nprocs);
	k_u64(w, "threads", m->nthreads);
	k_u64(w, "samples", m->samples);
	k_u64(w, "dropped", m->dropped);
	k_str(w, "clock", model_clock_id((uint32_t)model_clock(m)));
	k_str(w, "timer", first ? model_timer_id(first->timer) : NULL);
	jsonw_key(w, "signal");
	if (first)
		jsonw_u64(w, first->signal);
	else
		jsonw_null(w);
	jsonw_key(w, "rate_asked_hz");
	if (first)
		jsonw_u64(w, first->rate_asked);
	else
		jsonw_null(w);
	k_dbl(w, "rate_achieved_hz", model_rate(m));
	k_u64(w, "logs", (uint64_t)m->files);
	k_u64(w, "bytes", m->bytes);
	k_u64(w, "records", m->records);
	k_u64(w, "chunks", m->chunks);
	k_u64(w, "open_chunks", m->open_chunks);
	k_u64(w, "distinct_stacks", m->nstacks);
	k_bool(w, "complete", m->nnotes == 0);
	k_u64(w, "marks_lost", m->marks_lost);
	jsonw_object_end(w);
}

/* The images each process of m has (its pid's exec chain), by index of
 * m->procs; NULL when out of memory (then 1 each is said). */
static size_t *image_counts(const struct model *m)
{
	size_t n = m->nprocs;
	size_t *order = calloc(n ? n : 1, sizeof(*order));
	size_t *count = calloc(n ? n : 1, sizeof(*count));
	if (!order || !count || (n && model_images_order(m, order) != n)) {
		free(order);
		free(count);
		return NULL;
	}
	for (size_t i = 0; i < n;) {
		size_t k = model_images_run(m, order, n, i);
		for (size_t j = i; j < i + k; j++)
			count[order[j]] = k;
		i += k;
	}
	free(order);
	return count;
}

static void processes(struct jsonw *w, const struct model *m)
{
	size_t *images = image_counts(m);
	jsonw_key(w, "processes");
	jsonw_array(w);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		jsonw_object(w);
		k_u64(w, "pid", model_real_pid(m, p->pid));
		if (m->nlogs > 1)
			k_u64(w, "log", p->log);
		if (model_pid_ns(m, p->pid))
			k_u64(w, "pid_ns", model_pid_ns(m, p->pid));
		k_u64(w, "image", p->image);
		jsonw_key(w, "ppid");
		if (p->have_init)
			jsonw_u64(w, p->ppid);
		else
			jsonw_null(w);
		k_str(w, "command", p->have_init ? p->cmdline : NULL);
		k_str(w, "exe", p->have_init ? p->exe : NULL);
		k_str(w, "host", p->have_init ? p->host : NULL);
		k_u64(w, "samples", p->samples);
		k_dbl(w, "share", share(p->samples, m->samples));
		k_u64(w, "dropped", p->dropped);
		jsonw_key(w, "exit");
		if (p->exited) {
			jsonw_object(w);
			k_str(w, "how", p->exit_how == MAPLOG_EXIT_SIGNALED
						? "signal"
						: "status");
			jsonw_key(w, "code");
			jsonw_i64(w, p->exit_code);
			jsonw_object_end(w);
		} else {
			jsonw_null(w);
		}
		jsonw_key(w, "exec");
		if (p->exec_path) {
			jsonw_object(w);
			k_str(w, "path", p->exec_path);
			k_u64(w, "attempts", p->exec_tries);
			jsonw_object_end(w);
		} else {
			jsonw_null(w);
		}
		k_u64(w, "process_images", images ? images[i] : 1);
		k_u64(w, "merged_programs", p->reinits);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	free(images);
}

static void threads(struct jsonw *w, const struct model *m)
{
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	jsonw_key(w, "threads");
	jsonw_array(w);
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		double secs = model_thread_seconds(t, wall);
		jsonw_object(w);
		k_u64(w, "pid", model_real_pid(m, t->pid));
		if (m->nlogs > 1) {
			const struct rproc *p =
				model_find_proc(m, t->pid, t->image);
			k_u64(w, "log", p ? p->log : 0);
		}
		if (model_pid_ns(m, t->pid))
			k_u64(w, "pid_ns", model_pid_ns(m, t->pid));
		k_u64(w, "image", t->image);
		k_u64(w, "tid", t->tid);
		k_str(w, "name", t->name);
		k_u64(w, "samples", t->samples);
		k_dbl(w, "share", share(t->samples, m->samples));
		k_u64(w, "dropped", t->dropped);
		k_dbl(w, "seconds", secs);
		k_bool(w, "measured", model_thread_measured(t));
		k_dbl(w, "rate_hz", secs > 0 ? (double)t->samples / secs : 0.0);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

/* The program's regions (model/regions.h), by name in the order first
 * entered; with --region, "filter" names it. */
static void regions(struct jsonw *w, const struct model *m)
{
	const struct regions *rg = m->regions;
	jsonw_key(w, "regions");
	jsonw_array(w);
	for (size_t i = 0; rg && i < rg->nnames; i++) {
		const struct rregion *r = &rg->names[i];
		jsonw_object(w);
		k_str(w, "name", r->name);
		k_u64(w, "count", r->count);
		k_dbl(w, "seconds", (double)r->ns / 1e9);
		k_u64(w, "samples", r->samples);
		k_dbl(w, "share", share(r->samples, m->samples));
		k_dbl(w, "sample_seconds", (double)r->weight / 1e9);
		k_u64(w, "never_ended", r->open);
		k_bool(w, "filter", rg->filter && (long)i == rg->filter_id);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

static void functions(struct jsonw *w, const struct model *m,
		      const struct analysis *a, unsigned top, int by_total)
{
	/* seconds of the sampling clock, all threads: a function's share
	 * of the samples of that */
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	double secs = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		secs += model_thread_seconds(&m->threads[i], wall);
	jsonw_key(w, by_total ? "top_total" : "top_self");
	jsonw_array(w);
	const uint32_t *ord = NULL;
	size_t n = 0;
	if (a && top) {
		ord = by_total ? a->top_total : a->top_self;
		n = by_total ? a->ntop_total : a->ntop_self;
	}
	for (size_t i = 0; i < n && i < top; i++) {
		const struct rfunc *f = &a->funcs[ord[i]];
		jsonw_object(w);
		k_str(w, "name", f->name);
		k_str(w, "module", f->module);
		k_str(w, "file", f->file);
		jsonw_key(w, "line");
		if (f->file)
			jsonw_i64(w, f->line);
		else
			jsonw_null(w);
		k_u64(w, "self", f->self);
		k_dbl(w, "self_share", share(f->self, m->samples));
		k_u64(w, "total", f->total);
		k_dbl(w, "total_share", share(f->total, m->samples));
		k_dbl(w, "self_s", share(f->self, m->samples) * secs);
		k_dbl(w, "total_s", share(f->total, m->samples) * secs);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

/* "substrate_files": what substrate plugins wrote (MANIFEST records);
 * only when there are some. */
static void substrate_files(struct jsonw *w, const struct model *m)
{
	if (!m->nmanifests)
		return;
	jsonw_key(w, "substrate_files");
	jsonw_array(w);
	for (size_t i = 0; i < m->nmanifests; i++) {
		const struct rmanifest *r = &m->manifests[i];
		jsonw_object(w);
		k_str(w, "plugin", r->plugin);
		k_str(w, "path", r->path);
		k_str(w, "description", r->description);
		k_u64(w, "pid", model_real_pid(m, r->pid));
		if (model_pid_ns(m, r->pid))
			k_u64(w, "pid_ns", model_pid_ns(m, r->pid));
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

/* The MPI call statistics (report/mpi.h), and "mpi_calls_scope":
 * whether they are the whole run's of the processes kept ("whole_run")
 * for the filters given that cannot narrow them ("not_narrowed_by",
 * as the options are written; mpi_unnarrowed()).  Returns 0 or
 * MAPS_ENOMEM. */
static int mpi_calls(struct jsonw *w, const struct model *m)
{
	static const char *const key[MPI_NQTY] = {"calls", "time_ns", "sent",
						  "received"};
	struct mpi_stats s;
	if (mpi_stats(m, &s))
		return MAPS_ENOMEM;
	jsonw_key(w, "mpi_calls");
	jsonw_array(w);
	for (size_t f = 0; f < s.nfn; f++) {
		const struct mpi_fnstat *x = &s.fn[f];
		jsonw_object(w);
		k_str(w, "function", x->function);
		k_u64(w, "ranks_calling", x->ranks_calling);
		for (int q = 0; q < MPI_NQTY; q++) {
			jsonw_key(w, key[q]);
			jsonw_object(w);
			k_dbl(w, "mean", x->q[q].mean);
			k_u64(w, "min", x->q[q].min);
			jsonw_key(w, "min_rank");
			jsonw_i64(w, x->q[q].min_rank);
			k_u64(w, "max", x->q[q].max);
			jsonw_key(w, "max_rank");
			jsonw_i64(w, x->q[q].max_rank);
			jsonw_object_end(w);
		}
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	mpi_stats_free(&s);
	const char *opt[MPI_UNNARROWED_MAX];
	size_t nopt = mpi_unnarrowed(m, opt);
	jsonw_key(w, "mpi_calls_scope");
	jsonw_object(w);
	k_bool(w, "whole_run", nopt > 0);
	jsonw_key(w, "not_narrowed_by");
	jsonw_array(w);
	for (size_t i = 0; i < nopt; i++)
		jsonw_string(w, opt[i]);
	jsonw_array_end(w);
	jsonw_object_end(w);
	return 0;
}

/* Note n of a log as one object: of "damage" (damage set: "log", the
 * bytes lost and records before), or of "errors" ("file"). */
static void note_object(struct jsonw *w, const struct rnote *n, int damage)
{
	char line[1024];
	jsonw_object(w);
	k_str(w, "kind", note_kind(n->kind));
	k_str(w, damage ? "log" : "file", n->file);
	k_u64(w, "offset", n->offset);
	if (damage) {
		if (n->kind == RNOTE_DAMAGE || n->kind == RNOTE_TRUNCATED)
			k_u64(w, "bytes", n->length);
		else
			k_null(w, "bytes");
		k_u64(w, "records_before", n->records_before);
	}
	k_str(w, "message", model_note_str(n, line, sizeof(line)));
	jsonw_object_end(w);
}

void json_errors(struct jsonw *w, const struct model *const *models,
		 size_t nmodels, const struct partial_set *pset,
		 const struct output_problem *extra, size_t nextra)
{
	jsonw_key(w, "errors");
	jsonw_array(w);
	for (size_t k = 0; k < nmodels; k++) {
		const struct model *m = models[k];
		for (size_t i = 0; m && i < m->nnotes; i++)
			note_object(w, &m->notes[i], 0);
	}
	for (size_t i = 0; pset && i < pset->ps_nfiles; i++) {
		const struct partial_file *f = &pset->ps_files[i];
		if (!f->pf_nerrors)
			continue;
		char line[1024];
		snprintf(line, sizeof(line), "%s: partial report left out "
					     "(%u error%s)",
			 f->pf_path, f->pf_nerrors,
			 f->pf_nerrors == 1 ? "" : "s");
		jsonw_object(w);
		k_str(w, "kind", "partial-definition");
		k_str(w, "file", f->pf_path);
		k_null(w, "offset");
		k_str(w, "message", line);
		jsonw_object_end(w);
	}
	for (size_t i = 0; i < nextra; i++) {
		jsonw_object(w);
		k_str(w, "kind", extra[i].op_kind);
		k_str(w, "file", extra[i].op_file);
		k_null(w, "offset");
		k_str(w, "message", extra[i].op_message);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

static void notes(struct jsonw *w, const struct model *m,
		  const struct analysis *a)
{
	jsonw_key(w, "damage");
	jsonw_array(w);
	for (size_t i = 0; i < m->nnotes; i++)
		note_object(w, &m->notes[i], 1);
	jsonw_array_end(w);

	jsonw_key(w, "symbol_problems");
	jsonw_array(w);
	if (a) {
		const char *const *lines;
		size_t np = sym_problems(a->st, &lines);
		for (size_t i = 0; i < np; i++)
			jsonw_string(w, lines[i]);
	}
	jsonw_array_end(w);
}

static const char *partial_state_id(enum partial_state st)
{
	switch (st) {
	case PARTIAL_VALUE: return "value";
	case PARTIAL_NOT_RECORDED: return "not-recorded";
	case PARTIAL_NO_VALUE: return "no-value";
	}
	return "unknown";
}

static void k_colour(struct jsonw *w, const char *k,
		     const struct partial_colour *c)
{
	jsonw_key(w, k);
	if (!c->pc_text) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	k_str(w, "text", c->pc_text);
	k_str(w, "css", c->pc_css[0] ? c->pc_css : NULL);
	jsonw_object_end(w);
}

static void partial_entry(struct jsonw *w, const struct partial_entry *e)
{
	jsonw_object(w);
	k_str(w, "id", e->en_id);
	k_str(w, "name", e->en_name);
	k_str(w, "units", e->en_units);
	k_str(w, "group", e->en_group);
	k_str(w, "metric", e->en_metric_ref);
	k_str(w, "sample_value", partial_stat_name(e->en_sample_value));
	k_str(w, "aggregation", partial_stat_name(e->en_aggregation));
	k_bool(w, "recorded", e->en_recorded);
	k_str(w, "state", partial_state_id(e->en_state));
	if (e->en_state == PARTIAL_VALUE)
		k_dbl(w, "value", e->en_value);
	else
		k_null(w, "value");
	k_str(w, "text", e->en_scaled);
	if (e->en_bar >= 0)
		k_dbl(w, "bar", e->en_bar);
	else
		k_null(w, "bar");
	k_u64(w, "bins", e->en_bins);
	k_u64(w, "processes", e->en_procs);
	k_colour(w, "colour", &e->en_colour);
	jsonw_object_end(w);
}

static void partial(struct jsonw *w, const struct output_in *in)
{
	const struct partial_result *r = in->oi_partial;
	const struct partial_set *ps = in->oi_partial_set;
	jsonw_key(w, "partial_reports");
	jsonw_object(w);
	if (r && r->rs_bin_ns) {
		k_dbl(w, "bin_s", (double)r->rs_bin_ns / 1e9);
		k_u64(w, "bins", r->rs_nbins);
	} else {
		k_null(w, "bin_s");
		k_u64(w, "bins", 0);
	}
	if (r && r->rs_interval_ns)
		k_dbl(w, "metric_interval_s", (double)r->rs_interval_ns / 1e9);
	else
		k_null(w, "metric_interval_s");
	jsonw_key(w, "files");
	jsonw_array(w);
	for (size_t i = 0; ps && i < ps->ps_nfiles; i++) {
		const struct partial_file *f = &ps->ps_files[i];
		jsonw_object(w);
		k_str(w, "path", f->pf_path);
		k_bool(w, "used", f->pf_used);
		k_u64(w, "errors", f->pf_nerrors);
		k_u64(w, "warnings", f->pf_nwarnings);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "diagnostics");
	jsonw_array(w);
	for (size_t i = 0; ps && i < ps->ps_ndiags; i++) {
		const struct partial_diag *d = &ps->ps_diags[i];
		jsonw_object(w);
		k_str(w, "severity",
		      d->pd_severity == PARTIAL_ERROR ? "error" : "warning");
		k_str(w, "file", d->pd_file);
		k_u64(w, "line", d->pd_line);
		k_u64(w, "column", d->pd_col);
		k_str(w, "message", d->pd_text);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "reports");
	jsonw_array(w);
	for (size_t i = 0; r && i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		jsonw_object(w);
		k_str(w, "name", pr->pr_name);
		k_str(w, "file", pr->pr_file);
		jsonw_key(w, "subsections");
		jsonw_array(w);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			const struct partial_subsection *ss =
				&pr->pr_subsections[j];
			jsonw_object(w);
			k_str(w, "id", ss->ss_id);
			k_str(w, "heading", ss->ss_heading);
			k_colour(w, "colour", &ss->ss_colour);
			char *plain = ss->ss_text ? partial_plain_text(ss->ss_text)
						  : NULL;
			if (ss->ss_text && !plain)
				w->err = MAPS_ENOMEM;
			k_str(w, "text", plain);
			free(plain);
			jsonw_key(w, "entries");
			jsonw_array(w);
			for (size_t k = 0; k < ss->ss_nentries; k++)
				partial_entry(w, &ss->ss_entries[k]);
			jsonw_array_end(w);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}

/* ---- the summary and the ranks (report/out/job.h) ---- */

static void stat_obj(struct jsonw *w, const char *k, const struct rank_stat *s)
{
	jsonw_key(w, k);
	if (!s->have) {
		jsonw_null(w);
		return;
	}
	jsonw_object(w);
	k_dbl(w, "min", s->min);
	jsonw_key(w, "min_rank");
	jsonw_i64(w, s->min_rank);
	k_dbl(w, "mean", s->mean);
	k_dbl(w, "max", s->max);
	jsonw_key(w, "max_rank");
	jsonw_i64(w, s->max_rank);
	jsonw_object_end(w);
}

/* The members "performance" and "ranks" (mapreport(1), JSON SCHEMA). */
static void job(struct jsonw *w, const struct output_in *in)
{
	struct job j;
	if (job_build(&j, in)) {
		w->err = MAPS_ENOMEM;
		return;
	}
	const struct summary *s = &j.sm;
	const struct ranks *rk = &j.rk;
	jsonw_key(w, "performance");
	jsonw_object(w);
	jsonw_key(w, "kind");
	jsonw_string(w, summary_kind_id(s->kind));
	jsonw_key(w, "verdict");
	jsonw_string(w, s->verdict);
	jsonw_key(w, "advice");
	jsonw_array(w);
	for (size_t i = 0; i < s->nadvice; i++)
		jsonw_string(w, s->advice[i]);
	jsonw_array_end(w);
	k_dbl(w, "seconds", s->seconds);
	k_dbl(w, "wall_s", s->wall);
	k_dbl(w, "compute", s->compute);
	k_dbl(w, "mpi", s->mpi);
	k_dbl(w, "mpi_collective", s->coll);
	k_dbl(w, "io", s->io);
	k_bool(w, "mpi_from_metric", s->mpi_metric);
	/* the point-to-point calls that moved bytes, the advice's figure */
	k_u64(w, "mpi_p2p_calls", s->p2p_calls);
	k_dbl(w, "mpi_p2p_bytes", s->p2p_bytes);
	jsonw_object_end(w);

	jsonw_key(w, "ranks");
	jsonw_object(w);
	jsonw_key(w, "by");
	jsonw_string(w, rk->any_rank ? "rank" : "process");
	jsonw_key(w, "count");
	jsonw_u64(w, rk->n);
	k_dbl(w, "imbalance", rk->imbalance);
	stat_obj(w, "samples", &rk->samples);
	stat_obj(w, "seconds", &rk->seconds);
	stat_obj(w, "compute_s", &rk->compute);
	stat_obj(w, "mpi", &rk->mpi);
	stat_obj(w, "io", &rk->io);
	stat_obj(w, "memory_peak_bytes", &rk->mem);
	jsonw_key(w, "rows");
	jsonw_array(w);
	for (size_t i = 0; i < rk->n; i++) {
		const struct rank_row *r = &rk->r[i];
		jsonw_object(w);
		jsonw_key(w, "rank");
		jsonw_i64(w, r->rank);
		jsonw_key(w, "is_mpi_rank");
		jsonw_bool(w, r->is_rank);
		jsonw_key(w, "pid");
		jsonw_u64(w, r->os_pid);
		jsonw_key(w, "killed_by_signal");
		if (r->killed_by)
			jsonw_i64(w, r->killed_by);
		else
			jsonw_null(w);
		jsonw_key(w, "image");
		jsonw_u64(w, r->image);
		k_u64(w, "images", r->images);
		jsonw_key(w, "host");
		jsonw_string(w, r->host);
		jsonw_key(w, "threads");
		jsonw_u64(w, r->threads);
		jsonw_key(w, "samples");
		jsonw_u64(w, r->samples);
		k_dbl(w, "seconds", r->seconds);
		k_dbl(w, "compute_s", r->compute);
		k_dbl(w, "mpi", r->mpi);
		k_dbl(w, "mpi_collective", r->coll);
		k_dbl(w, "io", r->io);
		jsonw_key(w, "memory_peak_bytes");
		if (r->have_mem)
			jsonw_double(w, r->mem_peak);
		else
			jsonw_null(w);
		jsonw_key(w, "io_read_bytes");
		if (r->have_io_bytes)
			jsonw_double(w, r->io_read);
		else
			jsonw_null(w);
		jsonw_key(w, "io_write_bytes");
		if (r->have_io_bytes)
			jsonw_double(w, r->io_write);
		else
			jsonw_null(w);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
	job_free(&j);
}

int json_emit(const struct output_in *in, FILE *out)
{
	const struct model *m = in->oi_model;
	const struct analysis *a = in->oi_analysis;
	struct jsonw w;
	jsonw_init(&w, out);
	jsonw_object(&w);
	k_str(&w, "schema", JSON_SCHEMA);
	jsonw_key(&w, "version");
	jsonw_u64(&w, JSON_VERSION);
	k_str(&w, "generator", in->oi_generator);
	jsonw_key(&w, "logs");
	jsonw_array(&w);
	for (size_t i = 0; i < in->oi_nlogs; i++)
		jsonw_string(&w, in->oi_logs[i]);
	jsonw_array_end(&w);
	summary(&w, m);
	processes(&w, m);
	threads(&w, m);
	regions(&w, m);
	functions(&w, m, a, in->oi_top, 0);
	functions(&w, m, a, in->oi_top, 1);
	if (json_metrics(&w, m))
		return MAPS_ENOMEM;
	if (mpi_calls(&w, m))
		return MAPS_ENOMEM;
	substrate_files(&w, m);
	partial(&w, in);
	job(&w, in);
	notes(&w, m, a);
	json_errors(&w, &m, 1, in->oi_partial_set, NULL, 0);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}
