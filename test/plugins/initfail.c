/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * initfail: a metric plugin whose allinea_plugin_initialize() fails with
 * a message, as a plugin does when the machine lacks what it measures
 * (test/integration/metrics-host.sh: the message is shown, the plugin is
 * skipped and the other plugins go on).
 */
#include <allinea_metric_plugin_api.h>

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)data;
	allinea_set_plugin_error_messagef(plugin_id, 1000,
					  "Not supported (no %s here)",
					  "frobnicator");
	return -1;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int initfail_get(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	*out = 42;
	return 0;
}
