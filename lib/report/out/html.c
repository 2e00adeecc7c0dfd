/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html: writes the HTML report (see html.h).
 *
 * DESIGN NOTES
 *   The page is written top to bottom in one pass over the model, the
 *   analysis, the timeline and the call tree: summary, processes and
 *   threads, metric charts and thread activity (html_chart.c: SVG, so
 *   they need no script), flame graph (html_flame.c: the call tree as
 *   JSON for report.js, with a static call-tree table in <noscript>), top
 *   functions, the function view (html_source.c: per top function its
 *   source lines, callers and callees, and the hottest files' source,
 *   as JSON for report.js), partial reports, errors.  Before them, the
 *   bar that narrows the page to a process, thread or time range, with
 *   its data (html_narrow.c: samples per flame-graph frame, thread and
 *   time bin, from a second reading of the logs).  This file writes the
 *   page and the sections without charts; html_i.h says how the files
 *   share their helpers without calling each other.
 *
 *   Safety: every string from a log, a binary or an XML file is written
 *   with htmlsafe_text() (HTML) or htmlsafe_json() (the JSON data); the
 *   only markup written raw is this file's own.  The page's scripts carry
 *   a random nonce that its Content-Security-Policy requires, so even a
 *   <script> that got in would not run, and nothing may be fetched.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <mapsample/maps_error.h>

#include "config.h"
#include "report/out/html.h"
#include "report/out/job.h"
#include "report/out/html_i.h"
#include "report/partial_eval.h"
#include "report/shorten.h"

extern const char html_css[];
extern const char html_js[];
extern const char html_js_narrow[];
extern const char html_js_charts[];
extern const char html_js_ranks[];
extern const char html_js_psel[];
extern const char html_js_perf[];
extern const char html_js_msel[];

/* ---- head, summary ---- */

static void head(FILE *out, const struct model *m, const char *nonce,
		 int partials)
{
	const struct rproc *p = model_first_proc(m);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n", out);
	fprintf(out, "<meta http-equiv=\"Content-Security-Policy\" content=\""
		     "default-src 'none'; script-src 'nonce-%s'; "
		     "style-src 'unsafe-inline'; img-src 'self'; "
		     "base-uri 'none'; form-action 'none'\">\n",
		nonce);
	fputs("<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n", out);
	fprintf(out, "<meta name=\"generator\" content=\"mapreport %s\">\n",
		PACKAGE_VERSION);
	fputs("<title>mapsample report", out);
	if (p && p->cmdline) {
		fputs(": ", out);
		H(p->cmdline);
	}
	fputs("</title>\n<style>\n", out);
	fputs(html_css, out);
	fputs("</style>\n</head>\n<body>\n<header><h1>mapsample report</h1>",
	      out);
	if (p && p->cmdline) {
		fputs("<p class=\"cmd\">", out);
		H(p->cmdline);
		fputs("</p>", out);
	}
	fputs("</header>\n<nav><a href=\"#performance\">Performance</a>"
	      "<a href=\"#summary\">Summary</a>"
	      "<a href=\"#metrics\">Metrics</a>"
	      "<a href=\"#activity\">Thread activity</a>"
	      "<a href=\"#flame\">Flame graph</a>"
	      "<a href=\"#functions\">Top functions</a>"
	      "<a href=\"#fnview\">Function view</a>", out);
	if (m->nmpicalls)
		fputs("<a href=\"#mpi\">MPI calls</a>", out);
	if (partials)
		fputs("<a href=\"#partial\">Partial reports</a>", out);
	fputs("<a href=\"#errors\">Errors</a></nav>\n<main>\n", out);
}

static void kv_row(FILE *out, const char *k, const char *v)
{
	fprintf(out, "<tr><th>%s</th><td>", k);
	H(v);
	fputs("</td></tr>\n", out);
}

/* The run's key facts, then the log's damage and symbol problems. */
static void run_table(FILE *out, const struct model *m,
		      const struct analysis *a)
{
	const struct rproc *p = model_first_proc(m);
	char b[512];
	fputs("<table class=\"kv\">\n", out);
	if (p) {
		kv_row(out, "Command", p->cmdline);
		kv_row(out, "Host", p->host);
		char when[64];
		if (!model_start_str(p, "%Y-%m-%d %H:%M:%S UTC", when,
				     sizeof(when)))
			strcpy(when, "?");
		kv_row(out, "Start", when);
	}
	snprintf(b, sizeof(b), "%.3f s", model_run_seconds(m));
	kv_row(out, "Duration", b);
	snprintf(b, sizeof(b), "%zu processes, %zu threads", m->nprocs,
		 m->nthreads);
	kv_row(out, "Processes", b);
	snprintf(b, sizeof(b), "%" PRIu64 " samples, %" PRIu64 " dropped",
		 m->samples, m->dropped);
	kv_row(out, "Samples", b);
	if (p) {
		snprintf(b, sizeof(b), "%s, %s, signal %u",
			 model_clock_name(p->clock), model_timer_name(p->timer),
			 p->signal);
		kv_row(out, "Sampling", b);
		snprintf(b, sizeof(b),
			 "asked %" PRIu64 " Hz per thread; achieved %.1f "
			 "samples per second of %s",
			 p->rate_asked, model_rate(m), model_clock_name(p->clock));
		kv_row(out, "Rate", b);
	}
	snprintf(b, sizeof(b), "%d file%s, %" PRIu64 " bytes, %" PRIu64
			       " records",
		 m->files, m->files == 1 ? "" : "s", m->bytes, m->records);
	kv_row(out, "Logs", b);
	fputs("</table>\n", out);
	char line[1024];
	for (size_t i = 0; i < m->nnotes; i++) {
		fputs("<p class=\"note warn\">", out);
		H(model_note_str(&m->notes[i], line, sizeof(line)));
		fputs("</p>\n", out);
	}
	const char *const *lines;
	size_t np = sym_problems(a->st, &lines);
	for (size_t i = 0; i < np; i++) {
		fputs("<p class=\"note\">", out);
		H(lines[i]);
		fputs("</p>\n", out);
	}
}

/* The Exit cell of process image q. */
static void exit_cell(FILE *out, const struct rproc *q)
{
	if (q->exited)
		fprintf(out, "<td>%s %d</td>",
			q->exit_how == MAPLOG_EXIT_SIGNALED ? "signal" : "status",
			q->exit_code);
	else if (q->exec_path)
		fputs("<td>exec</td>", out);
	else
		fputs("<td>-</td>", out);
}

/* The images of a process of n of them the tables show (at most max,
 * 0: all): the first head and the last tail, else hidden. */
static void images_shown(size_t n, unsigned max, size_t *head, size_t *tail)
{
	*head = n;
	*tail = 0;
	if (max >= 2 && n > max) {
		*head = (max + 1) / 2;
		*tail = max - *head;
	}
}

/* One row of the Processes table; sub: an image listed under the row
 * of its process. */
static void proc_row(FILE *out, const struct model *m, const struct rproc *q,
		     int sub)
{
	char pb[48];
	fprintf(out, "<tr data-pid=\"%u\" data-proc=\"%u\"><td "
		     "class=\"n\">%s</td><td class=\"n\">%u</td><td "
		     "class=\"n\">%" PRIu64 "</td>",
		model_real_pid(m, q->pid), model_proc_num(m, q->pid),
		model_pid_str(m, q->pid, pb, sizeof(pb)), q->image, q->samples);
	html_pct_cell(out, html_pct(q->samples, m->samples));
	exit_cell(out, q);
	fputs(sub ? "<td class=\"f sub\">" : "<td class=\"f\">", out);
	H(q->cmdline ? q->cmdline : "(no initialize record)");
	fputs("</td></tr>\n", out);
}

/*
 * The Processes table: a process that exec'd has a row for the process
 * (its images FIRST-LAST, samples, exit, exec chain) and its images
 * under it in chain order, at most images of them (0: all) with one row
 * for those left out.  hide[k] gets 1 for the image at order[k] left
 * out.
 */
static void procs_table(FILE *out, const struct model *m, const size_t *order,
			unsigned images, unsigned char *hide)
{
	fputs("<h3>Processes</h3>\n<table>\n<thead><tr><th class=\"n\">PID"
	      "</th><th class=\"n\">Image</th><th class=\"n\">Samples</th>"
	      "<th class=\"n\">%</th><th>Exit</th><th>Command</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	int capped = 0;
	for (size_t i = 0; i < m->nprocs;) {
		size_t n = model_images_run(m, order, m->nprocs, i), head, tail;
		images_shown(n, images, &head, &tail);
		if (n > 1) {
			const struct rproc *f = &m->procs[order[i]];
			const struct rproc *l = &m->procs[order[i + n - 1]];
			uint64_t s = 0;
			for (size_t j = i; j < i + n; j++)
				s += m->procs[order[j]].samples;
			char pb[48], chain[512];
			fprintf(out, "<tr class=\"chain\" data-pid=\"%u\" "
				     "data-proc=\"%u\"><td class=\"n\">%s</td>"
				     "<td class=\"n\">%u-%u</td><td "
				     "class=\"n\">%" PRIu64 "</td>",
				model_real_pid(m, f->pid),
				model_proc_num(m, f->pid),
				model_pid_str(m, f->pid, pb, sizeof(pb)),
				f->image, l->image, s);
			html_pct_cell(out, html_pct(s, m->samples));
			exit_cell(out, l);
			fprintf(out, "<td class=\"f\">exec chain of %zu images: ",
				n);
			H(model_images_chain(m, order + i, n, chain,
					     sizeof(chain)));
			fputs("</td></tr>\n", out);
		}
		for (size_t j = 0; j < n; j++) {
			if (j < head || j >= n - tail) {
				proc_row(out, m, &m->procs[order[i + j]], n > 1);
				continue;
			}
			hide[i + j] = 1;
			if (j != head)
				continue;
			uint64_t s = 0;
			for (size_t k = i + head; k < i + n - tail; k++)
				s += m->procs[order[k]].samples;
			fprintf(out, "<tr class=\"more\"><td class=\"n\">...</td>"
				     "<td class=\"n\">...</td><td class=\"n\">%"
				     PRIu64 "</td>", s);
			html_pct_cell(out, html_pct(s, m->samples));
			fprintf(out, "<td></td><td class=\"f sub\">%zu more "
				     "images (%u to %u)</td></tr>\n",
				n - head - tail, m->procs[order[i + head]].image,
				m->procs[order[i + n - tail - 1]].image);
			capped = 1;
		}
		i += n;
	}
	fputs("</tbody>\n</table>\n", out);
	if (capped)
		fputs("<p class=\"note\">mapreport --images all lists every "
		      "image of a process</p>\n", out);
}

/* The Threads table, in the order of the Processes table, the threads
 * of the images it left out (hide) left out too, with one row for
 * them. */
static void threads_table(FILE *out, const struct model *m,
			  const struct model_tkey *tk,
			  const unsigned char *hide)
{
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	fprintf(out, "<h3>Threads</h3>\n<table>\n<thead><tr><th class=\"n\">"
		     "PID</th><th class=\"n\">Image</th><th class=\"n\">TID"
		     "</th><th>Name</th><th class=\"n\">Samples</th>"
		     "<th class=\"n\">%%</th><th class=\"n\">%s</th>"
		     "<th class=\"n\">Rate</th></tr></thead>\n<tbody>\n",
		wall ? "Wall s" : "CPU s");
	int unended = 0;
	for (size_t k = 0; k < m->nthreads;) {
		if (tk[k].pos < m->nprocs && hide[tk[k].pos]) {
			uint64_t s = 0;
			double secs = 0;
			size_t nt = 0;
			for (; k < m->nthreads && tk[k].pos < m->nprocs &&
			       hide[tk[k].pos];
			     k++, nt++) {
				const struct rthread *h = &m->threads[tk[k].i];
				s += h->samples;
				secs += model_thread_seconds(h, wall);
			}
			fprintf(out, "<tr class=\"more\"><td class=\"n\">...</td>"
				     "<td class=\"n\">...</td><td class=\"n\">"
				     "...</td><td>%zu threads of images left "
				     "out</td><td class=\"n\">%" PRIu64 "</td>",
				nt, s);
			html_pct_cell(out, html_pct(s, m->samples));
			fprintf(out, "<td class=\"n\">%.3f</td><td class=\"n\">"
				     "%.1f</td></tr>\n",
				secs, secs > 0 ? (double)s / secs : 0.0);
			continue;
		}
		const struct rthread *t = &m->threads[tk[k++].i];
		double secs = model_thread_seconds(t, wall);
		char pb[48];
		fprintf(out, "<tr data-pid=\"%u\" data-tid=\"%u\" "
			     "data-proc=\"%u\"><td class=\"n\">%s</td><td "
			     "class=\"n\">%u</td><td class=\"n\">%u</td><td>",
			model_real_pid(m, t->pid), t->tid,
			model_proc_num(m, t->pid),
			model_pid_str(m, t->pid, pb, sizeof(pb)), t->image,
			t->tid);
		H(t->name ? t->name : "-");
		fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td>",
			t->samples);
		html_pct_cell(out, html_pct(t->samples, m->samples));
		fprintf(out, "<td class=\"n\">%.3f</td><td class=\"n\">%.1f%s"
			     "</td></tr>\n",
			secs, secs > 0 ? (double)t->samples / secs : 0.0,
			t->ended ? "" : " *");
		unended |= !t->ended;
	}
	fputs("</tbody>\n</table>\n", out);
	if (unended)
		fputs("<p class=\"note\">* no end recorded (killed?): time "
		      "from its samples' weights</p>\n",
		      out);
	if (model_cut_note(m)) {
		fputs("<p class=\"note\">", out);
		H(model_cut_note(m));
		fputs("</p>\n", out);
	}
}

/* The Processes and Threads tables (--images: images, 0 all).
 * Returns 0 or MAPS_ENOMEM (nothing written). */
static int procs_threads(FILE *out, const struct model *m, unsigned images)
{
	size_t np = m->nprocs;
	size_t *order = calloc(np ? np : 1, sizeof(*order));
	unsigned char *hide = calloc(np ? np : 1, 1);
	struct model_tkey *tk =
		calloc(m->nthreads ? m->nthreads : 1, sizeof(*tk));
	int rc = MAPS_ENOMEM;
	if (!order || !hide || !tk ||
	    (np && model_images_order(m, order) != np) ||
	    model_threads_order(m, order, tk))
		goto out;
	procs_table(out, m, order, images, hide);
	threads_table(out, m, tk, hide);
	rc = 0;
out:
	free(order);
	free(hide);
	free(tk);
	return rc;
}

/* The "Run summary" section: the run, its processes and threads. */
static int summary(FILE *out, const struct model *m,
		   const struct analysis *a, unsigned images)
{
	fputs("<section id=\"summary\">\n<h2>Run summary</h2>\n", out);
	run_table(out, m, a);
	int rc = procs_threads(out, m, images);
	fputs("</section>\n", out);
	return rc;
}

/* ---- top functions ---- */

static void func_table(FILE *out, const struct analysis *a,
		       const struct model *m, unsigned top, int by_total,
		       int full_names)
{
	const uint32_t *ord = by_total ? a->top_total : a->top_self;
	size_t n = by_total ? a->ntop_total : a->ntop_self;
	fprintf(out, "<h3>By %s samples</h3>\n<table class=\"funcs\">\n"
		     "<thead><tr>"
		     "<th class=\"n\">Self</th><th class=\"n\">Self %%</th>"
		     "<th class=\"n\">Total</th><th class=\"n\">Total %%</th>"
		     "<th>Function</th><th>Location</th></tr></thead>\n"
		     "<tbody>\n",
		by_total ? "total" : "self");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct rfunc *f = &a->funcs[ord[i]];
		fprintf(out, "<tr><td class=\"n\">%" PRIu64 "</td>", f->self);
		html_pct_cell(out, html_pct(f->self, m->samples));
		fprintf(out, "<td class=\"n\">%" PRIu64 "</td>", f->total);
		html_pct_cell(out, html_pct(f->total, m->samples));
		/* a long C++ name shortened (report/shorten.h), the whole
		 * name in the tooltip and in data-fn, which report.js takes
		 * for the function view */
		char sh[512] = "";
		if (!full_names)
			name_shorten(f->name, sh, sizeof(sh));
		if (!full_names && strcmp(sh, f->name)) {
			fputs("<td class=\"f\" data-fn=\"", out);
			H(f->name);
			fputs("\" title=\"", out);
			H(f->name);
			fputs("\">", out);
			H(sh);
		} else {
			fputs("<td class=\"f\">", out);
			H(f->name);
		}
		fputs("</td><td class=\"loc\">", out);
		if (f->file) {
			fputs("<span title=\"", out);
			H(f->file);
			fputs("\">", out);
			const char *b = strrchr(f->file, '/');
			H(b ? b + 1 : f->file);
			fprintf(out, ":%d</span> ", f->line);
		}
		fputs("(", out);
		H(f->module);
		fputs(")</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void functions(FILE *out, const struct analysis *a,
		      const struct model *m, unsigned top, int full_names)
{
	fputs("<section id=\"functions\">\n<h2>Top functions</h2>\n", out);
	if (!m->samples || !top) {
		fputs("<p class=\"nodata\">No samples.</p>\n</section>\n", out);
		return;
	}
	fputs("<p class=\"note\">Self: samples in the function itself; total: "
	      "samples with the function anywhere on the stack. Location: the "
	      "function's hottest source line. Click a function for its "
	      "source lines, callers and callees.</p>\n"
	      "<div id=\"fn-narrowed\" hidden></div>\n",
	      out);
	func_table(out, a, m, top, 0, full_names);
	func_table(out, a, m, top, 1, full_names);
	fputs("</section>\n", out);
}

/* ---- the function view and the selection ---- */

/* The empty function view that report.js fills when a function is
 * clicked, and its data (html_source.c). */
static int function_view(FILE *out, const struct output_in *in)
{
	fputs("<section id=\"fnview\">\n<h2>Function view</h2>\n"
	      "<p class=\"note\" id=\"fn-hint\">Click a function in the "
	      "tables of top functions or in the flame graph: its callers and "
	      "callees (samples with the call on the stack, each stack counted "
	      "once) and its source with self and total samples per line "
	      "(lines of at least a tenth of the function's samples marked) "
	      "show here.</p>\n<div id=\"fn-view\" hidden></div>\n",
	      out);
	int rc = in->oi_model->samples ? html_source_data(out, in) : 0;
	fputs("</section>\n", out);
	return rc;
}

/* The bar to narrow the page to a process or thread and a time range:
 * report.js makes its controls from the data of html_narrow.c. */
static int selection_bar(FILE *out, const struct output_in *in)
{
	fputs("<div id=\"nr-bar\" hidden><label>Narrow to <select "
	      "id=\"nr-select\"></select></label><span id=\"nr-range\">"
	      "</span><button id=\"nr-clear\" type=\"button\">Whole run"
	      "</button><span id=\"nr-status\"></span>\n<div id=\"nr-time\" "
	      "title=\"Drag to choose a time range\"></div></div>\n",
	      out);
	if (!in->oi_model->samples)
		return 0;
	return html_narrow_data(out, in, html_flame_min(in->oi_calltree));
}

/* ---- partial reports ---- */

const char *html_partial_colour_css(const struct partial_colour *c,
				    char *buf, size_t len)
{
	struct colour mc;
	if (!c->pc_css[0] ||
	    colour_parse(c->pc_css, COLOUR_FUNCTIONS_OK, &mc) ||
	    colour_css(&mc, buf, len))
		return NULL;
	return buf;
}

static void partial_entries(FILE *out, const struct partial_subsection *ss)
{
	if (!ss->ss_nentries)
		return;
	fputs("<table class=\"entries\">\n<tbody>\n", out);
	for (size_t k = 0; k < ss->ss_nentries; k++) {
		const struct partial_entry *en = &ss->ss_entries[k];
		char cb[32];
		const char *col =
			html_partial_colour_css(&en->en_colour, cb, sizeof(cb));
		/* the colour as a swatch: text in it could be unreadable
		 * (white, say) */
		fputs("<tr><td>", out);
		if (col)
			fprintf(out, "<span class=\"sw\" style=\"background:%s\">"
				     "</span>", col);
		H(en->en_name && en->en_name[0] ? en->en_name : en->en_id);
		fprintf(out, "</td><td class=\"n%s\">",
			en->en_state == PARTIAL_VALUE ? "" : " nodata");
		H(en->en_scaled);
		fputs("</td><td>", out);
		if (en->en_bar >= 0 && en->en_state == PARTIAL_VALUE) {
			double w = en->en_bar > 1 ? 1 : en->en_bar;
			fprintf(out, "<span class=\"cmpbox\" title=\"");
			H(en->en_group ? en->en_group : "");
			fprintf(out, ": %.0f%% of the largest\"><span "
				     "class=\"cmp\" style=\"width:%.1f%%;"
				     "background:%s\"></span></span>",
				w * 100, w * 100, col ? col : "#2f6fb2");
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static int partials(FILE *out, const struct partial_result *r)
{
	if (!r || !r->rs_nreports)
		return 0;
	fputs("<section id=\"partial\">\n<h2>Partial reports</h2>\n", out);
	for (size_t i = 0; i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		fputs("<div class=\"preport\" data-report=\"", out);
		H(pr->pr_name);
		fputs("\"><p class=\"note\">", out);
		H(pr->pr_name);
		fputs(" (", out);
		H(pr->pr_file);
		fputs(")</p>\n", out);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			const struct partial_subsection *ss =
				&pr->pr_subsections[j];
			char cb[32];
			const char *col = html_partial_colour_css(&ss->ss_colour, cb,
							     sizeof(cb));
			fputs("<div class=\"partial\" data-subsection=\"", out);
			H(ss->ss_id);
			fputs("\"", out);
			if (col)
				fprintf(out, " style=\"border-left-color:%s\"",
					col);
			fputs("><h3", out);
			if (col)
				fprintf(out, " style=\"color:%s\"", col);
			fputs(">", out);
			H(ss->ss_heading);
			fputs("</h3>\n", out);
			if (ss->ss_text) {
				char *t = htmlsafe_sanitize(ss->ss_text);
				if (!t)
					return MAPS_ENOMEM;
				fputs("<div class=\"ptext\">", out);
				fputs(t, out);
				fputs("</div>\n", out);
				free(t);
			}
			partial_entries(out, ss);
			fputs("</div>\n", out);
		}
		fputs("</div>\n", out);
	}
	fputs("</section>\n", out);
	return 0;
}

/* ---- errors ---- */

/* Starts the table of metric errors unless done (head_done); returns 1. */
static int metric_errors_head(FILE *out, int head_done)
{
	if (!head_done)
		fputs("<h3>Metrics</h3>\n<table>\n<thead><tr><th>Metric</th>"
		      "<th class=\"n\">Errors</th><th>First message</th></tr>"
		      "</thead>\n<tbody>\n",
		      out);
	return 1;
}

static void errors(FILE *out, const struct model *m,
		   const struct partial_set *ps)
{
	const struct rmetrics *x = &m->metrics;
	fputs("<section id=\"errors\">\n<h2>Errors</h2>\n",
	      out);
	int any = 0;
	if (x->npe) {
		any = 1;
		fputs("<h3>Metric plugins</h3>\n<table>\n<thead><tr><th>Plugin"
		      "</th><th>Message</th><th class=\"n\">Processes</th></tr>"
		      "</thead>\n<tbody>\n",
		      out);
		for (size_t i = 0; i < x->npe; i++) {
			fputs("<tr><td class=\"f\">", out);
			H(x->pe[i].plugin);
			fputs("</td><td>", out);
			H(x->pe[i].message);
			fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td></tr>\n",
				x->pe[i].count);
		}
		fputs("</tbody>\n</table>\n", out);
	}
	int head_done = 0;
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary r;
		metrics_summary(x, i, &r);
		if (!r.errors)
			continue;
		head_done = any = metric_errors_head(out, head_done);
		fputs("<tr><td>", out);
		H(metrics_display_name(r.metric));
		fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td><td>",
			r.errors);
		H(r.err_msg ? r.err_msg : "");
		fputs("</td></tr>\n", out);
	}
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (s->metric || !s->errors)
			continue;
		head_done = any = metric_errors_head(out, head_done);
		char pb[48];
		fprintf(out, "<tr><td>metric #%u of process %s (no definition)"
			     "</td><td class=\"n\">%" PRIu64 "</td><td>",
			s->index, model_pid_str(m, s->pid, pb, sizeof(pb)),
			s->errors);
		H(s->err_msg ? s->err_msg : "");
		fputs("</td></tr>\n", out);
	}
	if (head_done)
		fputs("</tbody>\n</table>\n", out);
	if (ps && ps->ps_ndiags) {
		any = 1;
		fputs("<h3>Partial report definitions</h3>\n", out);
		for (size_t i = 0; i < ps->ps_ndiags; i++) {
			const struct partial_diag *d = &ps->ps_diags[i];
			fprintf(out, "<p class=\"note%s\">",
				d->pd_severity == PARTIAL_ERROR ? " warn" : "");
			H(d->pd_text);
			fputs("</p>\n", out);
		}
		for (size_t i = 0; i < ps->ps_nfiles; i++) {
			const struct partial_file *f = &ps->ps_files[i];
			if (!f->pf_nerrors)
				continue;
			fputs("<p class=\"note warn\">", out);
			H(f->pf_path);
			fprintf(out, ": left out (%u error%s)</p>\n",
				f->pf_nerrors, f->pf_nerrors == 1 ? "" : "s");
		}
	}
	if (!any)
		fputs("<p class=\"nodata\">None.</p>\n", out);
	fputs("</section>\n", out);
}

/* A nonce for the page's scripts: 128 random bits in hex. */
static void make_nonce(char *buf, size_t len)
{
	unsigned char r[16];
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t v = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
			     (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)buf;
		for (size_t i = 0; i < sizeof(r); i++) {
			v = v * 6364136223846793005ull + 1442695040888963407ull;
			r[i] = (unsigned char)(v >> 56);
		}
	}
	for (size_t i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

int html_emit(const struct output_in *in, FILE *out)
{
	const struct model *m = in->oi_model;
	const struct analysis *a = in->oi_analysis;
	char nonce[40] = "";
	make_nonce(nonce, sizeof(nonce));
	const struct partial_result *pr = in->oi_partial;
	head(out, m, nonce, pr && pr->rs_nreports);
	int rc = job_html_summary(in, out);
	if (rc)
		return rc;
	if ((rc = selection_bar(out, in)))
		return rc;
	if ((rc = summary(out, m, a, in->oi_images)))
		return rc;
	if ((rc = job_html_ranks(in, out)))
		return rc;
	rc = html_chart_section(out, m);
	if (!rc)
		rc = html_activity_section(out, m);
	if (!rc)
		rc = html_flame_section(out, m, in->oi_calltree,
					in->oi_full_names);
	if (!rc) {
		functions(out, a, m, in->oi_top, in->oi_full_names);
		rc = function_view(out, in);
	}
	if (!rc)
		rc = html_mpi_section(out, m);
	if (!rc)
		rc = partials(out, pr);
	if (rc)
		return rc;
	errors(out, m, in->oi_partial_set);
	fprintf(out, "</main>\n<footer>Written by mapreport %s. One file: "
		     "nothing in it is loaded from elsewhere.</footer>\n",
		PACKAGE_VERSION);
	fprintf(out, "<script nonce=\"%s\">\n", nonce);
	fputs(html_js_charts, out);
	fputs(html_js_ranks, out);
	fputs(html_js_msel, out);
	fputs(html_js_psel, out);
	fputs(html_js_perf, out);
	fputs(html_js_narrow, out);
	fputs(html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	fflush(out);
	return ferror(out) ? MAPS_EIO : 0;
}
