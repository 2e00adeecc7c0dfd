/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text report: run header, processes, threads and the most sampled
 * leaf addresses named by module and offset.  Function names and call
 * stacks need symbolization, which this report does not do yet.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/model.h"

static const char *clock_name(uint32_t c)
{
	return c == MAPLOG_CLOCK_WALL ? "wall-clock time" : "CPU time";
}

static const char *timer_name(uint32_t t)
{
	switch (t) {
	case MAPLOG_TIMER_PERF_TASK_CLOCK: return "perf task-clock event";
	case MAPLOG_TIMER_POSIX_THREAD_CPU: return "POSIX thread CPU timer";
	case MAPLOG_TIMER_POSIX_MONOTONIC: return "POSIX monotonic timer";
	case MAPLOG_TIMER_ITIMER_PROF: return "setitimer(ITIMER_PROF)";
	}
	return "unknown timer";
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int cmp_pc(const void *a, const void *b)
{
	const struct rpc *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

void report_text(const struct model *m, FILE *out, unsigned top)
{
	const struct rproc *first = NULL;
	for (size_t i = 0; i < m->nprocs && !first; i++)
		if (m->procs[i].have_init)
			first = &m->procs[i];
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;

	fprintf(out, "mapsample report\n");
	if (first) {
		fprintf(out, "  Command:    %s\n", first->cmdline);
		fprintf(out, "  Host:       %s\n", first->host);
		time_t t = (time_t)first->wall_sec;
		struct tm tm;
		char when[64] = "?";
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC",
				 &tm);
		fprintf(out, "  Start:      %s\n", when);
	}
	double dur = m->last_ts >= m->first_ts && m->first_ts != UINT64_MAX
			     ? (double)(m->last_ts - m->first_ts) / 1e9
			     : 0.0;
	fprintf(out, "  Duration:   %.3f s\n", dur);
	fprintf(out, "  Processes:  %zu    Threads: %zu\n", m->nprocs,
		m->nthreads);
	fprintf(out, "  Samples:    %" PRIu64 "    Dropped: %" PRIu64 "\n",
		m->samples, m->dropped);
	if (first) {
		fprintf(out, "  Sampling:   %s, %s, signal %u\n",
			clock_name(first->clock), timer_name(first->timer),
			first->signal);
		fprintf(out, "  Rate:       asked %" PRIu64
			     " Hz per thread; achieved %.1f samples per "
			     "second of %s\n",
			first->rate_asked, model_rate(m),
			clock_name(first->clock));
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

	if (!m->npcs || !top)
		return;
	struct rpc *v = malloc(m->npcs * sizeof(*v));
	if (!v)
		return;
	size_t n = 0;
	for (size_t i = 0; i < m->cappcs; i++)
		if (m->pcs[i].count)
			v[n++] = m->pcs[i];
	qsort(v, n, sizeof(*v), cmp_pc);
	fprintf(out, "\nTop sampled addresses (leaf PC; self samples)\n");
	fprintf(out, "  %10s %7s  %s\n", "SAMPLES", "%", "LOCATION");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct rmap *mp =
			model_find_map(m, v[i].pid, v[i].image, v[i].pc);
		if (mp)
			fprintf(out, "  %10" PRIu64 " %6.2f%%  %s+%#" PRIx64 "\n",
				v[i].count, pct(v[i].count, m->samples),
				base_name(mp->path),
				v[i].pc - mp->start + mp->offset);
		else
			fprintf(out, "  %10" PRIu64 " %6.2f%%  [unknown] %#" PRIx64
				     "\n",
				v[i].count, pct(v[i].count, m->samples), v[i].pc);
	}
	free(v);
}
