/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * goodgetter: a well-behaved counter, loaded next to badgetter.c's
 * plugin in test/integration/metrics-faults.sh: it must go on after the
 * host stops the misbehaving plugin.  Async-signal-safe.
 */
#include <allinea_metric_plugin_api.h>

static uint64_t calls;

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

int gg_count(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	*out = ++calls;
	return 0;
}
