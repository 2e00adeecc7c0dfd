/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filter: the sample filters of mapreport (see filter.h).  The values are
 * few (one per option on the command line), so they are searched in
 * order; the model asks once per sample, and without a filter not at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/filter.h"
#include "model/logread.h"

void filter_init(struct rfilter *f)
{
	memset(f, 0, sizeof(*f));
}

void filter_free(struct rfilter *f)
{
	for (size_t i = 0; i < f->fi_ncomms; i++)
		free(f->fi_comms[i]);
	free(f->fi_comms);
	free(f->fi_pids);
	free(f->fi_tids);
	free(f->fi_ranks);
	memset(f, 0, sizeof(*f));
}

int filter_active(const struct rfilter *f)
{
	return f->fi_npids || f->fi_ntids || f->fi_ncomms || f->fi_time ||
	       f->fi_nranks;
}

/* A decimal id from 1 to UINT32_MAX into *id; 0 or MAPS_EINVAL. */
static int parse_id(const char *arg, uint32_t *id)
{
	char *e;
	if (*arg < '0' || *arg > '9')
		return MAPS_EINVAL;
	unsigned long long v = strtoull(arg, &e, 10);
	if (*e || v == 0 || v > UINT32_MAX)
		return MAPS_EINVAL;
	*id = (uint32_t)v;
	return 0;
}

/* Appends id to the list *v (n entries, room for *cap); 0 or
 * MAPS_ENOMEM. */
static int add_id(uint32_t **v, size_t *n, size_t *cap, uint32_t id)
{
	if (mem_grow(v, cap, *n, sizeof(**v)))
		return MAPS_ENOMEM;
	(*v)[(*n)++] = id;
	return 0;
}

int filter_add_pid(struct rfilter *f, const char *arg)
{
	uint32_t id;
	if (parse_id(arg, &id))
		return MAPS_EINVAL;
	return add_id(&f->fi_pids, &f->fi_npids, &f->fi_cappids, id);
}

int filter_add_tid(struct rfilter *f, const char *arg)
{
	uint32_t id;
	if (parse_id(arg, &id))
		return MAPS_EINVAL;
	return add_id(&f->fi_tids, &f->fi_ntids, &f->fi_captids, id);
}

int filter_add_comm(struct rfilter *f, const char *arg)
{
	if (!*arg)
		return MAPS_EINVAL;
	char *s = mem_strdup(arg);
	if (!s || mem_grow(&f->fi_comms, &f->fi_capcomms, f->fi_ncomms,
			   sizeof(*f->fi_comms))) {
		free(s);
		return MAPS_ENOMEM;
	}
	f->fi_comms[f->fi_ncomms++] = s;
	return 0;
}

/* One side of --time, s[0..n): empty (*set 0) or seconds, a finite
 * number from 0 up.  0 or MAPS_EINVAL. */
static int parse_secs(const char *s, size_t n, int *set, double *v)
{
	char buf[64], *e;
	*set = 0;
	if (n == 0)
		return 0;
	if (n >= sizeof(buf) || !((*s >= '0' && *s <= '9') || *s == '.'))
		return MAPS_EINVAL;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtod(buf, &e);
	if (*e || !isfinite(*v) || *v < 0)
		return MAPS_EINVAL;
	*set = 1;
	return 0;
}

int filter_add_time(struct rfilter *f, const char *arg)
{
	const char *colon = strchr(arg, ':');
	int fs, ts;
	double from = 0, to = 0;
	if (!colon || strchr(colon + 1, ':') ||
	    parse_secs(arg, (size_t)(colon - arg), &fs, &from) ||
	    parse_secs(colon + 1, strlen(colon + 1), &ts, &to) ||
	    (fs && ts && from >= to))
		return MAPS_EINVAL;
	f->fi_time = 1;
	f->fi_from_set = fs;
	f->fi_to_set = ts;
	f->fi_from = from;
	f->fi_to = to;
	return 0;
}

static int start_record(void *ctx, const struct maplog_ev *ev)
{
	struct rfilter *f = ctx;
	if (ev->ev_ts < f->fi_t0)
		f->fi_t0 = ev->ev_ts;
	return 0;
}

int filter_run_start(struct rfilter *f, const char *const *paths, size_t n)
{
	static const struct logread_tool tool = {.lt_any = start_record};
	if (!f->fi_time)
		return 0;
	f->fi_t0 = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		struct maplog_stats st;
		if (logread_file(paths[i], &tool, f, &st) == MAPS_ENOMEM)
			return MAPS_ENOMEM;
	}
	if (f->fi_t0 == UINT64_MAX)
		f->fi_t0 = 0;
	return 0;
}

static int has_id(const uint32_t *v, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return 1;
	return 0;
}

static int has_name(const struct rfilter *f, const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < f->fi_ncomms; i++)
		if (strcmp(f->fi_comms[i], name) == 0)
			return 1;
	return 0;
}

/* Whether ts (ns) is within --time. */
static int in_time(const struct rfilter *f, uint64_t ts)
{
	double s = ts >= f->fi_t0 ? (double)(ts - f->fi_t0) / 1e9 : 0.0;
	return (!f->fi_from_set || s >= f->fi_from) &&
	       (!f->fi_to_set || s < f->fi_to);
}

int filter_passes(const struct rfilter *f, uint32_t pid, const char *proc,
		  uint32_t tid, const char *thread, uint64_t ts)
{
	return !((f->fi_npids && !has_id(f->fi_pids, f->fi_npids, pid)) ||
		 (f->fi_ntids && !has_id(f->fi_tids, f->fi_ntids, tid)) ||
		 (f->fi_ncomms && !has_name(f, proc) &&
		  !has_name(f, thread)) ||
		 (ts != FILTER_ANY_TIME && f->fi_time && !in_time(f, ts)));
}

int filter_keep(struct rfilter *f, uint32_t pid, const char *proc,
		uint32_t tid, const char *thread, uint64_t ts)
{
	if (!filter_passes(f, pid, proc, tid, thread, ts)) {
		f->fi_dropped++;
		return 0;
	}
	return 1;
}

void filter_time_ns(const struct rfilter *f, uint64_t *from, uint64_t *to)
{
	*from = 0;
	*to = UINT64_MAX;
	if (!f->fi_time)
		return;
	/* the ns in_time() keeps: s >= from and s < to, s in seconds */
	if (f->fi_from_set && f->fi_from > 0)
		*from = f->fi_t0 + (uint64_t)ceil(f->fi_from * 1e9);
	if (f->fi_to_set)
		*to = f->fi_to > 0 ? f->fi_t0 + (uint64_t)ceil(f->fi_to * 1e9)
				   : f->fi_t0;
}

/* Appends the text s to buf (used bytes *at of len), cut at its end. */
static void put(char *buf, size_t len, size_t *at, const char *s)
{
	int n = snprintf(buf + *at, len - *at, "%s%s", *at ? " " : "", s);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

const char *filter_str(const struct rfilter *f, char *buf, size_t len)
{
	size_t at = 0;
	char one[128];
	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < f->fi_npids; i++) {
		snprintf(one, sizeof(one), "--pid %u", f->fi_pids[i]);
		put(buf, len, &at, one);
	}
	for (size_t i = 0; i < f->fi_ntids; i++) {
		snprintf(one, sizeof(one), "--tid %u", f->fi_tids[i]);
		put(buf, len, &at, one);
	}
	for (size_t i = 0; i < f->fi_ncomms; i++) {
		snprintf(one, sizeof(one), "--comm %s", f->fi_comms[i]);
		put(buf, len, &at, one);
	}
	if (f->fi_time) {
		char from[32] = "", to[32] = "";
		if (f->fi_from_set)
			snprintf(from, sizeof(from), "%g", f->fi_from);
		if (f->fi_to_set)
			snprintf(to, sizeof(to), "%g", f->fi_to);
		snprintf(one, sizeof(one), "--time %s:%s", from, to);
		put(buf, len, &at, one);
	}
	for (size_t i = 0; i < f->fi_nranks; i++) {
		snprintf(one, sizeof(one), "--rank %u", f->fi_ranks[i]);
		put(buf, len, &at, one);
	}
	return buf;
}

int filter_add_rank(struct rfilter *f, const char *arg)
{
	char *e;
	if (*arg < '0' || *arg > '9')
		return MAPS_EINVAL;
	unsigned long long v = strtoull(arg, &e, 10);
	if (*e || v > INT32_MAX)
		return MAPS_EINVAL;
	return add_id(&f->fi_ranks, &f->fi_nranks, &f->fi_capranks,
		      (uint32_t)v);
}

int filter_passes_rank(const struct rfilter *f, int32_t rank)
{
	return !f->fi_nranks ||
	       (rank >= 0 && has_id(f->fi_ranks, f->fi_nranks, (uint32_t)rank));
}

int filter_keep_rank(struct rfilter *f, int32_t rank)
{
	if (filter_passes_rank(f, rank))
		return 1;
	f->fi_dropped++;
	return 0;
}

int filter_keep_time(const struct rfilter *f, uint64_t ts)
{
	return !f->fi_time || in_time(f, ts);
}

int filter_keep_thread(const struct rfilter *f, uint32_t pid,
		       const char *proc, int32_t rank, uint32_t tid,
		       const char *thread)
{
	return (!f->fi_nranks ||
		(rank >= 0 &&
		 has_id(f->fi_ranks, f->fi_nranks, (uint32_t)rank))) &&
	       filter_passes(f, pid, proc, tid, thread, FILTER_ANY_TIME);
}

int filter_by_thread(const struct rfilter *f)
{
	return f->fi_ntids || f->fi_ncomms;
}
