/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pidvalue: metrics whose values say where and when they were taken,
 * for the tests of mapreport's filters on metrics
 * (test/integration/mapreport-filter-metrics.sh): pv_pid gives the
 * calling process's pid, pv_clock the sample time in seconds of
 * CLOCK_MONOTONIC (the time the log records the value at).  Both
 * async-signal-safe (getpid(2) is; the time is only read).
 */
#include <unistd.h>

#include <allinea_metric_plugin_api.h>

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int pv_pid(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	*out = (uint64_t)getpid();
	return 0;
}

int pv_clock(metric_id_t id, struct timespec *t, double *out)
{
	(void)id;
	*out = (double)t->tv_sec + (double)t->tv_nsec / 1e9;
	return 0;
}
