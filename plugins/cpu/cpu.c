/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu: CPU time of the profiled process, user and system, as a percentage
 * of elapsed time (plugins/cpu/cpu.xml).
 *
 * Both metrics are divideBySampleTime: each getter returns the CPU
 * seconds spent since its previous call times 100, and the profiler
 * divides by the elapsed seconds, which gives a percentage.  All threads
 * count (getrusage(RUSAGE_SELF)), so a process with several busy threads
 * goes above 100 %.
 *
 * Design notes: the sampler calls the getters of one process one at a
 * time (never concurrently), so the plugin's state is plain static data.
 * The two getters called for the same sample (same *currentSampleTime)
 * share one getrusage() call.  The first call of each getter has no
 * previous value and leaves the profiler's sentinel; so does a call that
 * finds the counter lower than before (a fork() child restarts from 0).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_cpu_user(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_cpu_system(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);

/* The last reading, in microseconds, and the sample time it is for. */
static struct timespec reading_time;
static bool reading_valid;
static uint64_t reading_user_us, reading_system_us;

/* Each getter's previous value. */
struct delta {
	uint64_t d_prev;
	bool d_have;
};
static struct delta user_delta, system_delta;

static uint64_t timeval_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

/* Brings the reading up to date for sample time t.  Returns 0, or -1 after
 * reporting the error for metric id.  Async-signal-safe. */
static int update(metric_id_t id, const struct timespec *t)
{
	struct rusage ru;

	if (reading_valid && plugin_same_time(&reading_time, t))
		return 0;
	if (getrusage(RUSAGE_SELF, &ru)) {
		reading_valid = false;
		allinea_set_metric_error_messagef(id, errno,
			"getrusage(RUSAGE_SELF) failed (errno %d); CPU time "
			"cannot be measured in this process", errno);
		return -1;
	}
	reading_user_us = timeval_us(&ru.ru_utime);
	reading_system_us = timeval_us(&ru.ru_stime);
	reading_time = *t;
	reading_valid = true;
	return 0;
}

/* Stores in *out the CPU seconds since d's previous call times 100, unless
 * this is the first call or the counter went back.  Async-signal-safe. */
static void percent(struct delta *d, uint64_t now_us, double *out)
{
	if (d->d_have && now_us >= d->d_prev)
		*out = (double)(now_us - d->d_prev) / 1e4;
	d->d_prev = now_us;
	d->d_have = true;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: getrusage(RUSAGE_SELF) failed: %s; "
			"the cpu metrics need it", strerror(err));
		return -1;
	}
	reading_valid = false;
	user_delta.d_have = false;
	system_delta.d_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Getter of com.mapsample.metrics.cpu.user: user CPU seconds since the
 * previous call times 100 (divideBySampleTime).  Async-signal-safe. */
int mapsample_cpu_user(metric_id_t id, struct timespec *currentSampleTime,
		       double *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	percent(&user_delta, reading_user_us, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.cpu.system: system CPU seconds since
 * the previous call times 100 (divideBySampleTime).  Async-signal-safe. */
int mapsample_cpu_system(metric_id_t id, struct timespec *currentSampleTime,
			 double *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	percent(&system_delta, reading_system_us, outValue);
	return 0;
}
