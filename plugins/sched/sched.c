/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched: context switches and page faults of the profiled process per
 * second (plugins/sched/sched.xml), from getrusage(RUSAGE_SELF): the
 * voluntary plus involuntary context switches (ru_nvcsw + ru_nivcsw) and
 * the minor plus major page faults (ru_minflt + ru_majflt) of all its
 * threads.  Both metrics are divideBySampleTime: each getter returns the
 * count since its previous call and the profiler divides by the elapsed
 * seconds.
 *
 * Design notes: the sampler calls the getters of one process one at a
 * time, so the state is plain static data.  The two getters called for
 * the same sample (same *currentSampleTime) share one getrusage() call.
 * The first call of each getter, and a call that finds a counter lower
 * than before (a fork() child restarts from 0), leave the profiler's
 * sentinel.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_sched_context_switches(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_sched_page_faults(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

/* The last reading and the sample time it is for. */
static struct timespec reading_time;
static bool reading_valid;
static uint64_t reading_switches, reading_faults;

/* Each getter's previous value. */
struct delta {
	uint64_t d_prev;
	bool d_have;
};
static struct delta switches_delta, faults_delta;

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
			"getrusage(RUSAGE_SELF) failed (errno %d); scheduling "
			"counts cannot be measured in this process", errno);
		return -1;
	}
	reading_switches = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	reading_faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	reading_time = *t;
	reading_valid = true;
	return 0;
}

/* Stores in *out the count since d's previous call, unless this is the
 * first call or the counter went back.  Async-signal-safe. */
static void count_since(struct delta *d, uint64_t now, uint64_t *out)
{
	if (d->d_have && now >= d->d_prev)
		*out = now - d->d_prev;
	d->d_prev = now;
	d->d_have = true;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: getrusage(RUSAGE_SELF) failed: %s; "
			"the sched metrics need it", strerror(err));
		return -1;
	}
	reading_valid = false;
	switches_delta.d_have = false;
	faults_delta.d_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Getter of com.mapsample.metrics.sched.context_switches: context
 * switches since the previous call (divideBySampleTime).
 * Async-signal-safe. */
int mapsample_sched_context_switches(metric_id_t id,
				     struct timespec *currentSampleTime,
				     uint64_t *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	count_since(&switches_delta, reading_switches, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.sched.page_faults: page faults since
 * the previous call (divideBySampleTime).  Async-signal-safe. */
int mapsample_sched_page_faults(metric_id_t id,
				struct timespec *currentSampleTime,
				uint64_t *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	count_since(&faults_delta, reading_faults, outValue);
	return 0;
}
