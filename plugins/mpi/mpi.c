/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpi: time in MPI, calls and bytes (plugins/mpi/mpi.xml), read from the
 * totals that the wrapper library (mpiwrap.c, this plugin's <preload>)
 * keeps as the program calls MPI: the figures of Performance Reports'
 * MPI section.
 *
 *   mpi.time, mpi.collective_time, mpi.p2p_time: the share of the wall
 *     time since the previous sample spent inside MPI calls (all, the
 *     collectives, the point-to-point calls and waits), in percent;
 *     calls still running count up to the sample.  Threads add up: two
 *     threads inside MPI the whole time give 200%.
 *   mpi.calls, mpi.sent, mpi.received: calls and bytes since the
 *     previous sample (divideBySampleTime: per second); the bytes of
 *     the MPI-IO calls (class MPIW_FILE, read and written) are not
 *     messages and are left out; their time is in mpi.time.
 *
 * Design notes: the wrapper's totals are found once, in initialize, with
 * dlsym(RTLD_DEFAULT, MPIW_STATE_SYMBOL); without the wrapper library
 * (the plugin loaded with its <preload> left out) initialize says so
 * and the metrics are not recorded.  The getters read the totals with
 * relaxed atomic loads and keep the previous reading in static data:
 * the sampler calls the getters of one process one at a time.  A
 * getter's first call leaves the profiler's sentinel (no value).
 * Async-signal-safe: loads and arithmetic only.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "mpiwrap.h"
#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_mpi_time(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_mpi_collective_time(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_mpi_p2p_time(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_mpi_call_rate(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_mpi_sent(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_mpi_received(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

static struct mpiw_state *st;

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* ns spent in calls of class cls (all classes when cls < 0) up to the
 * CLOCK_MONOTONIC time now, running calls included. */
static uint64_t time_in(int cls, uint64_t now)
{
	uint64_t ns = 0;
	for (struct mpiw_thread *t = __atomic_load_n(&st->mw_threads,
						     __ATOMIC_ACQUIRE);
	     t; t = t->t_next) {
		for (uint32_t f = 0; f < st->mw_nfn; f++)
			if (cls < 0 || st->mw_class[f] == cls)
				ns += load(&t->t_fn[f].f_ns);
		uint64_t start = load(&t->t_start);
		if (start && start < now &&
		    (cls < 0 || __atomic_load_n(&t->t_class,
						__ATOMIC_RELAXED) == (uint32_t)cls))
			ns += now - start;
	}
	return ns;
}

/* A share of time: the previous reading and its time. */
struct share {
	uint64_t s_ns, s_at;
	bool s_have;
};
static struct share share_all, share_coll, share_p2p;

/* The percentage of the time since s's previous reading spent in class
 * cls.  Returns 0 with *out set, or 1 (first reading: no value). */
static int share_since(struct share *s, int cls, double *out)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	uint64_t now = ns_of(&t), ns = time_in(cls, now);
	int have = s->s_have && now > s->s_at;
	if (have)
		*out = ns >= s->s_ns ? 100.0 * (double)(ns - s->s_ns) /
					       (double)(now - s->s_at)
				     : 0.0;
	s->s_ns = ns;
	s->s_at = now;
	s->s_have = true;
	return have ? 0 : 1;
}

/* A count since the previous call. */
struct delta {
	uint64_t d_prev;
	bool d_have;
};
static struct delta calls_d, sent_d, recv_d;

static void since(struct delta *d, uint64_t now, uint64_t *out)
{
	if (d->d_have && now >= d->d_prev)
		*out = now - d->d_prev;
	d->d_prev = now;
	d->d_have = true;
}

/* The sum of one field (by offset) over the functions and threads;
 * without the MPI-IO functions (class MPIW_FILE) when no_file: their
 * bytes are read and written, not messages. */
static uint64_t sum(size_t off, bool no_file)
{
	uint64_t v = 0;
	for (struct mpiw_thread *t = __atomic_load_n(&st->mw_threads,
						     __ATOMIC_ACQUIRE);
	     t; t = t->t_next)
		for (uint32_t f = 0; f < st->mw_nfn; f++)
			if (!no_file || st->mw_class[f] != MPIW_FILE)
				v += load((const uint64_t *)((const char *)&t->t_fn[f] +
							     off));
	return v;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	mpiw_state_fn get = (mpiw_state_fn)dlsym(RTLD_DEFAULT,
						 MPIW_STATE_SYMBOL);
	st = get ? get() : NULL;
	if (!st || st->mw_version != MPIW_VERSION) {
		allinea_set_plugin_error_message(plugin_id, ENOENT,
			st ? "libmapsample-mpiwrap.so is of another version "
			     "than this plugin; install both from one build"
			   : "the MPI wrapper library libmapsample-mpiwrap.so "
			     "is not preloaded; keep the <preload> of "
			     "mpi.xml");
		st = NULL;
		return -1;
	}
	memset(&share_all, 0, sizeof(share_all));
	memset(&share_coll, 0, sizeof(share_coll));
	memset(&share_p2p, 0, sizeof(share_p2p));
	calls_d.d_have = sent_d.d_have = recv_d.d_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.time.  Async-signal-safe. */
int mapsample_mpi_time(metric_id_t id, struct timespec *currentSampleTime,
		       double *outValue)
{
	share_since(&share_all, -1, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.collective_time.
 * Async-signal-safe. */
int mapsample_mpi_collective_time(metric_id_t id,
				  struct timespec *currentSampleTime,
				  double *outValue)
{
	share_since(&share_coll, MPIW_COLLECTIVE, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.p2p_time.  Async-signal-safe. */
int mapsample_mpi_p2p_time(metric_id_t id, struct timespec *currentSampleTime,
			   double *outValue)
{
	share_since(&share_p2p, MPIW_P2P, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.calls (divideBySampleTime).
 * Async-signal-safe. */
int mapsample_mpi_call_rate(metric_id_t id, struct timespec *currentSampleTime,
			uint64_t *outValue)
{
	since(&calls_d, sum(offsetof(struct mpiw_fn, f_calls), false), outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.sent (divideBySampleTime).
 * Async-signal-safe. */
int mapsample_mpi_sent(metric_id_t id, struct timespec *currentSampleTime,
		       uint64_t *outValue)
{
	since(&sent_d, sum(offsetof(struct mpiw_fn, f_sent), true), outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.mpi.received (divideBySampleTime).
 * Async-signal-safe. */
int mapsample_mpi_received(metric_id_t id,
			   struct timespec *currentSampleTime,
			   uint64_t *outValue)
{
	since(&recv_d, sum(offsetof(struct mpiw_fn, f_received), true), outValue);
	return 0;
}
