/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * model_names: the words reports use for a model's clocks, timers,
 * notes, pids and processes (model.h).  Calls logread below it;
 * nothing of model.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mapsample/maplog.h>

#include "model/model.h"

const char *model_clock_name(uint32_t clock)
{
	return clock == MAPLOG_CLOCK_WALL ? "wall-clock time" : "CPU time";
}

const char *model_clock_id(uint32_t clock)
{
	return clock == MAPLOG_CLOCK_WALL ? "wall" : "cpu";
}

const char *model_clock_unit(uint32_t clock)
{
	return clock == MAPLOG_CLOCK_WALL ? "wall" : "CPU";
}

const char *model_timer_name(uint32_t timer)
{
	switch (timer) {
	case MAPLOG_TIMER_PERF_TASK_CLOCK: return "perf task-clock event";
	case MAPLOG_TIMER_POSIX_THREAD_CPU: return "POSIX thread CPU timer";
	case MAPLOG_TIMER_POSIX_MONOTONIC: return "POSIX monotonic timer";
	case MAPLOG_TIMER_ITIMER_PROF: return "setitimer(ITIMER_PROF)";
	case MAPLOG_TIMER_PERF_USER_POSIX_SYS:
		return "perf task-clock event (user time) and POSIX thread "
		       "CPU timer (system time)";
	}
	return "unknown timer";
}

const char *model_timer_id(uint32_t timer)
{
	switch (timer) {
	case MAPLOG_TIMER_PERF_TASK_CLOCK: return "perf-task-clock";
	case MAPLOG_TIMER_POSIX_THREAD_CPU: return "posix-thread-cpu";
	case MAPLOG_TIMER_POSIX_MONOTONIC: return "posix-monotonic";
	case MAPLOG_TIMER_ITIMER_PROF: return "itimer-prof";
	case MAPLOG_TIMER_PERF_USER_POSIX_SYS: return "perf-user+posix-sys";
	}
	return "unknown";
}

const char *model_note_str(const struct rnote *n, char *buf, size_t len)
{
	struct logread_problem p = {.lp_kind = (enum logread_kind)n->kind,
				    .lp_file = n->file,
				    .lp_offset = n->offset,
				    .lp_length = n->length,
				    .lp_code = n->code,
				    .lp_errno = (int)n->length,
				    .lp_records = n->records_before};
	p.lp_loss = n->loss;
	p.lp_pid = n->pid;
	p.lp_image = n->image;
	p.lp_tid = n->tid;
	p.lp_count = n->count;
	p.lp_total = n->total;
	return logread_problem_str(&p, buf, len);
}

uint32_t model_os_pid(const struct model *m, uint32_t pid)
{
	const struct pidkey *k = pidkeys_of(&m->pk, pid);
	if (k)
		return k->os_pid;
	return pid;
}

uint32_t model_real_pid(const struct model *m, uint32_t pid)
{
	return model_os_pid(m, pid) & (MODEL_PIDNS_TAG - 1);
}

uint32_t model_pid_ns(const struct model *m, uint32_t pid)
{
	return model_os_pid(m, pid) / MODEL_PIDNS_TAG;
}

int32_t model_pid_rank(const struct model *m, uint32_t pid)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid && m->procs[i].rank >= 0)
			return m->procs[i].rank;
	return -1;
}

uint32_t model_pid_log(const struct model *m, uint32_t pid)
{
	const struct pidkey *k = pidkeys_of(&m->pk, pid);
	if (k)
		return k->log + 1;
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid)
			return m->procs[i].log + 1;
	return 0;
}

uint32_t model_proc_num(const struct model *m, uint32_t pid)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid)
			return (uint32_t)i + 1;
	return (uint32_t)m->nprocs + 1;
}

const char *model_pid_str(const struct model *m, uint32_t pid, char *buf,
			  size_t len)
{
	uint32_t os = model_os_pid(m, pid);
	uint32_t real = os & (MODEL_PIDNS_TAG - 1), ns = os / MODEL_PIDNS_TAG;
	if (os == pid && !ns) {
		snprintf(buf, len, "%u", pid);
		return buf;
	}
	int32_t rank = model_pid_rank(m, pid);
	if (rank >= 0)
		snprintf(buf, len, "%u (rank %d)", real, (int)rank);
	else if (os != pid && ns)
		snprintf(buf, len, "%u (log %u, ns %u)", real,
			 model_pid_log(m, pid), ns);
	else if (os != pid)
		snprintf(buf, len, "%u (log %u)", real, model_pid_log(m, pid));
	else
		snprintf(buf, len, "%u (ns %u)", real, ns);
	return buf;
}

const char *model_proc_name(const struct model *m, uint32_t pid,
			    uint32_t image)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (p->pid == pid && p->image == image && p->exe && *p->exe) {
			const char *s = strrchr(p->exe, '/');
			return s ? s + 1 : p->exe;
		}
	}
	return "[unknown]";
}

const struct rproc *model_first_proc(const struct model *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].have_init)
			return &m->procs[i];
	return NULL;
}

size_t model_start_str(const struct rproc *p, const char *fmt, char *buf,
		       size_t len)
{
	time_t t = (time_t)p->wall_sec;
	struct tm tm;
	size_t n = 0;
	if (len && gmtime_r(&t, &tm))
		n = strftime(buf, len, fmt, &tm);
	if (!n && len)
		buf[0] = 0;
	return n;
}

const char *model_cut_note(const struct model *m)
{
	if (!m->nthreads || !m->threads[0].cut)
		return NULL;
	int time = m->filter && m->filter->fi_time;
	int region = m->regions && m->regions->filter;
	return time && region
		       ? "--time and --region: each thread's time is that of "
			 "its samples in the range and inside the region, from "
			 "their weights"
	       : time ? "--time: each thread's time is that of its samples "
			"in the range, from their weights"
		      : "--region: each thread's time is that of its samples "
			"inside the region, from their weights";
}
