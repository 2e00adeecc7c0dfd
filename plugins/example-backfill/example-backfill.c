/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * example-backfill: an example of a backfilled metric
 * (plugins/example-backfill/example-backfill.xml, <backfill>true</backfill>)
 * whose value depends only on the time it is asked for: the seconds from
 * the start of profiling (the source's <start> function) to the
 * *currentSampleTime given.  A backfilled getter is called after the
 * sample, with the time of the sample and not the current time; since
 * the value is a function of that time alone, a test can check that every
 * value was asked for the right sample.  Not in the default set.
 *
 * Design notes: the start function runs before sampling starts (not in a
 * signal handler); the getter only reads what it stored.  The getter must
 * not change *currentSampleTime (a backfilled metric's time is not an out
 * parameter).
 */
#include <errno.h>
#include <stdbool.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_backfill_start(plugin_id_t plugin_id);
MAPSAMPLE_PLUGIN_API int mapsample_backfill_elapsed(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);

static struct timespec start_time;
static bool started;

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	started = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Start function (<start>): records the time profiling starts on the
 * profiler's clock.  Always returns 0. */
int mapsample_backfill_start(plugin_id_t plugin_id)
{
	start_time = allinea_get_current_time();
	started = true;
	return 0;
}

/* Getter of com.mapsample.metrics.example-backfill.elapsed: seconds from
 * the start to *currentSampleTime (negative for a time before it).
 * Returns -1 with a metric error if the start function has not run.
 * Async-signal-safe. */
int mapsample_backfill_elapsed(metric_id_t id,
			       struct timespec *currentSampleTime,
			       double *outValue)
{
	if (!started) {
		allinea_set_metric_error_message(id, EAGAIN,
			"called before the start function "
			"mapsample_backfill_start; name it in <functions>"
			"<start> of the <source> in example-backfill.xml");
		return -1;
	}
	*outValue = plugin_seconds_between(&start_time, currentSampleTime);
	return 0;
}
