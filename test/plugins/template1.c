/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * template1: a metric plugin written only from the reference's Metric
 * Plugin Template (section 7.2) and the Arm MAP "Metric Plugin Template"
 * page: the initialize/cleanup pair, an integer getter, a floating-point
 * getter that refreshes currentSampleTime, a backfilled getter that must
 * not, and the optional start/stop callbacks.  template1.xml describes it.
 *
 * It includes allinea_metric_plugin_template.h so that the compiler checks
 * every definition against the documented signatures;
 * test/integration/plugin-headers.sh compiles it with -Wall -Wextra
 * -pedantic -Werror, and the unit tests load it with dlopen.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"

/* The getters have no prototype in the headers (their names are ours). */
int template1_calls(metric_id_t id, struct timespec *currentSampleTime,
		    uint64_t *outValue);
int template1_calls_total(metric_id_t id,
			  struct timespec *currentSampleTime,
			  uint64_t *outValue);
int template1_uptime(metric_id_t id, struct timespec *currentSampleTime,
		     double *outValue);
int template1_backfill(metric_id_t id, struct timespec *currentSampleTime,
		       double *outValue);

#define ERROR_NO_CORES 1001
#define ERROR_NOT_STARTED 1002

static struct timespec loaded;
static uint64_t total;
static volatile int sampling;

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)data;
	if (allinea_get_logical_core_count() == 0) {
		allinea_set_plugin_error_messagef(plugin_id, ERROR_NO_CORES,
			"no CPU cores reported (%d physical)",
			allinea_get_physical_core_count());
		return -1;
	}
	loaded = allinea_get_current_time();
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int start_profiling(plugin_id_t plugin_id)
{
	(void)plugin_id;
	sampling = 1;
	return 0;
}

/* May run in a signal handler: only stores a flag. */
int stop_profiling(plugin_id_t plugin_id)
{
	(void)plugin_id;
	sampling = 0;
	return 0;
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Calls since the last sample (divideBySampleTime="true": a rate). */
int template1_calls(metric_id_t id, struct timespec *currentSampleTime,
		    uint64_t *outValue)
{
	(void)id;
	(void)currentSampleTime;
	total++;
	*outValue = 1;
	return 0;
}

/* Calls so far: the integral of template1_calls. */
int template1_calls_total(metric_id_t id,
			  struct timespec *currentSampleTime,
			  uint64_t *outValue)
{
	(void)id;
	(void)currentSampleTime;
	*outValue = total;
	return 0;
}

/* Seconds since the plugin was loaded, read at a fresh time stamp. */
int template1_uptime(metric_id_t id, struct timespec *currentSampleTime,
		     double *outValue)
{
	if (!sampling) {
		allinea_set_metric_error_message(id, ERROR_NOT_STARTED,
			"start_profiling was not called");
		return -1;
	}
	*currentSampleTime = allinea_get_current_time();
	*outValue = seconds(&loaded, currentSampleTime);
	return 0;
}

/* Backfilled: called later for a past sample; currentSampleTime is that
 * sample's time and must not be written. */
int template1_backfill(metric_id_t id, struct timespec *currentSampleTime,
		       double *outValue)
{
	(void)id;
	*outValue = seconds(&loaded, currentSampleTime);
	return 0;
}
