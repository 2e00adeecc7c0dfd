/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace: the Chrome trace event writer (see trace.h).
 *
 * DESIGN NOTES
 *   Events are written as the logs are read again (rescan.h), one per
 *   line, so memory stays one open slice per thread whatever the number
 *   of samples; the format does not ask for events in time order.  A
 *   slice is a run of samples of one thread with the same leaf function,
 *   each within two sampling periods of the one before; it ends at the
 *   next sample of its thread, or one period after its last sample, so
 *   a thread's slices never overlap.  The leaf function is the
 *   analysis's (inlined code by its own name, the sampler's frames left
 *   out).  Counters come from the model's timeline, the values the HTML
 *   report's charts draw.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/json.h"
#include "report/out/rescan.h"
#include "report/out/trace.h"

/* The open slice of one thread. */
struct slice {
	uint32_t func;      /* leaf function id; UINT32_MAX: none open */
	uint32_t proc;      /* the thread's process: model_proc_num() */
	uint64_t start, last;
	uint64_t n;
	uint64_t period;    /* ns between the thread's samples, nominal */
};

struct tr {
	const struct output_in *in;
	FILE *out;
	struct jsonw str;   /* at depth 0: writes a JSON string alone */
	struct slice *sl;   /* by model thread */
	uint64_t t0;        /* ns of the run's first record */
	int any;            /* an event was written */
};

/* Writes s as a JSON string (the JSON writer at depth 0 writes the
 * value alone, escaped, and holds no memory). */
static void str(struct tr *t, const char *s)
{
	jsonw_string(&t->str, s ? s : "");
}

/* Microseconds from the run's start to ts (0 before it). */
static double us(const struct tr *t, uint64_t ts)
{
	return ts > t->t0 ? (double)(ts - t->t0) / 1e3 : 0.0;
}

/* Writes the start of an event (after a comma and a new line if not the
 * first): name, ph, ts, pid, tid. */
static void event(struct tr *t, const char *name, const char *ph, double ts,
		  uint32_t pid, uint32_t tid)
{
	fputs(t->any ? ",\n{\"name\":" : "\n{\"name\":", t->out);
	t->any = 1;
	str(t, name);
	fprintf(t->out, ",\"ph\":\"%s\",\"ts\":%.3f,\"pid\":%" PRIu32
			",\"tid\":%" PRIu32,
		ph, ts, pid, tid);
}

/* Writes thread th's open slice, ending at end (ns), and closes it. */
static void close_slice(struct tr *t, size_t th, uint64_t end)
{
	struct slice *s = &t->sl[th];
	if (s->func == UINT32_MAX)
		return;
	const struct rthread *r = &t->in->oi_model->threads[th];
	event(t, t->in->oi_analysis->funcs[s->func].name, "X", us(t, s->start),
	      s->proc, r->tid);
	fprintf(t->out, ",\"dur\":%.3f,\"cat\":\"sample\",\"args\":"
			"{\"samples\":%" PRIu64 "}}",
		(double)(end - s->start) / 1e3, s->n);
	s->func = UINT32_MAX;
}

static int on_sample(void *ctx, const struct maplog_ev *ev, size_t th,
		     size_t stack)
{
	struct tr *t = ctx;
	const struct analysis *a = t->in->oi_analysis;
	if (!a->exp_n[stack])
		return 0;
	uint32_t f = a->exp[a->exp_off[stack]];
	struct slice *s = &t->sl[th];
	uint64_t ts = ev->ev_ts;
	if (s->func == f && ts >= s->last && ts - s->last <= 2 * s->period) {
		s->last = ts;
		s->n++;
		return 0;
	}
	if (s->func != UINT32_MAX)
		close_slice(t, th,
			    ts >= s->last && ts - s->last < s->period
				    ? ts : s->last + s->period);
	s->func = f;
	s->start = s->last = ts;
	s->n = 1;
	return ferror(t->out) ? MAPS_EIO : 0;
}

static int on_mark(void *ctx, const struct maplog_ev *ev)
{
	struct tr *t = ctx;
	const struct maplog_ev_mark *mk = &ev->ev_u.mark;
	event(t, mk->mk_text && *mk->mk_text ? mk->mk_text : "mark", "i",
	      us(t, ev->ev_ts), model_proc_num(t->in->oi_model, ev->ev_pid),
	      mk->mk_tid);
	fprintf(t->out, ",\"s\":\"t\",\"cat\":\"mark\",\"args\":{\"value\":%"
			PRIu64 "}}",
		mk->mk_value);
	return ferror(t->out) ? MAPS_EIO : 0;
}

/* The metadata events: a name for every process image and thread, and
 * the sampling period and process number of each thread into t->sl.
 * The trace's "pid" of a process is its number (model_proc_num()), one
 * per process even when two have one pid (PID namespaces, logs of
 * several hosts); its name says its pid as the text report does, and
 * its MPI rank; its args, beside the name, what the JSON report says of
 * it: pid, and rank, log, pid_ns when it has them. */
static void metadata(struct tr *t)
{
	const struct model *m = t->in->oi_model;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		char name[300], rk[32] = "";
		char pb[48];
		model_pid_str(m, p->pid, pb, sizeof(pb));
		if (p->rank >= 0 && !strstr(pb, "(rank "))
			snprintf(rk, sizeof(rk), " rank %d", (int)p->rank);
		snprintf(name, sizeof(name), "%s (pid %s%s)",
			 model_proc_name(m, p->pid, p->image), pb, rk);
		event(t, "process_name", "M", 0, model_proc_num(m, p->pid), 0);
		fputs(",\"args\":{\"name\":", t->out);
		str(t, name);
		fprintf(t->out, ",\"pid\":%" PRIu32, model_real_pid(m, p->pid));
		if (p->rank >= 0)
			fprintf(t->out, ",\"rank\":%" PRId32, p->rank);
		if (m->nlogs > 1)
			fprintf(t->out, ",\"log\":%" PRIu32, p->log);
		if (model_pid_ns(m, p->pid))
			fprintf(t->out, ",\"pid_ns\":%" PRIu32,
				model_pid_ns(m, p->pid));
		fputs("}}", t->out);
	}
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *r = &m->threads[i];
		char name[300];
		snprintf(name, sizeof(name), "%s %" PRIu32,
			 r->name && *r->name ? r->name : "thread", r->tid);
		uint32_t proc = model_proc_num(m, r->pid);
		event(t, "thread_name", "M", 0, proc, r->tid);
		fputs(",\"args\":{\"name\":", t->out);
		str(t, name);
		fputs("}}", t->out);
		uint64_t period = 0;
		for (size_t k = 0; k < m->nprocs; k++)
			if (m->procs[k].pid == r->pid &&
			    m->procs[k].image == r->image)
				period = m->procs[k].period_ns;
		if (!period && r->samples)
			period = r->weight / r->samples;
		t->sl[i] = (struct slice){UINT32_MAX, proc, 0, 0, 0,
					  period ? period : 1000000};
	}
}

/* The counters: every metric series' mean in each timeline bin.  0 or
 * MAPS_ENOMEM. */
static int counters(struct tr *t)
{
	const struct model *m = t->in->oi_model;
	const struct rtimeline *tl = &m->timeline;
	const struct rmetrics *x = &m->metrics;
	if (!tl->have_range)
		return 0;
	struct rtlbin *bins = calloc(TIMELINE_BINS, sizeof(*bins));
	if (!bins)
		return MAPS_ENOMEM;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *ms = &x->s[k];
		const struct rtlseries *s =
			timeline_series(tl, ms->pid, ms->image, ms->index);
		if (!ms->metric || !s)
			continue;
		const struct rmetric *mt = &x->m[ms->metric - 1];
		char name[300];
		snprintf(name, sizeof(name), mt->units && *mt->units ? "%s (%s)"
								    : "%s",
			 metrics_display_name(mt), mt->units);
		timeline_series_bins(tl, s, bins);
		uint32_t proc = model_proc_num(m, ms->pid);
		for (size_t i = 0; i < TIMELINE_BINS; i++) {
			if (!bins[i].n)
				continue;
			int64_t b = timeline_bin_start(tl, i);
			event(t, name, "C", us(t, b > 0 ? (uint64_t)b : 0),
			      proc, 0);
			fputs(",\"cat\":\"metric\",\"args\":{\"value\":", t->out);
			double v = bins[i].sum / (double)bins[i].n;
			fprintf(t->out, "%.17g}}", v);
		}
	}
	free(bins);
	return 0;
}

int trace_emit(const struct output_in *in, FILE *out)
{
	static const struct rescan_tool tool = {on_sample, on_mark, NULL};
	const struct model *m = in->oi_model;
	struct tr t = {.in = in, .out = out};
	jsonw_init(&t.str, out);
	t.t0 = m->first_ts == UINT64_MAX ? 0 : m->first_ts;
	if (!(t.sl = calloc(m->nthreads ? m->nthreads : 1, sizeof(*t.sl))))
		return MAPS_ENOMEM;
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":", out);
	str(&t, in->oi_generator);
	fputs("},\"traceEvents\":[", out);
	metadata(&t);
	int rc = rescan_logs(in, &tool, &t);
	for (size_t i = 0; !rc && i < m->nthreads; i++)
		close_slice(&t, i, t.sl[i].last + t.sl[i].period);
	if (!rc)
		rc = counters(&t);
	fputs("\n]}\n", out);
	free(t.sl);
	if (rc)
		return rc;
	return ferror(out) ? MAPS_EIO : 0;
}
