/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * errors.c: allinea_set_plugin_error_message(f) and
 * allinea_set_metric_error_message(f).  They format the message (the f
 * variants with maps_vsnformat() into a 1 KiB stack buffer: longer
 * messages are cut at 1023 bytes) and hand it to the host, the sampler,
 * through maps_host_plugin_error() / maps_host_metric_error(), which keep
 * it (pluginapi.h).  Nothing here allocates or locks: async-signal-safe,
 * as getters may report errors from a signal handler.  A NULL message is
 * passed on as "(null)"; a format that maps_vsnformat() rejects is passed
 * on with what it formatted before the error.
 */
#include <stdarg.h>

#include "allinea_metric_plugin_errors.h"
#include "pluginapi.h"

#define MSG_MAX 1024

/* Reports that the plugin cannot work; call from initialize.
 * Async-signal-safe. */
void allinea_set_plugin_error_message(plugin_id_t plugin_id, int error_code,
	const char *error_message)
{
	maps_api_enter();
	maps_host_plugin_error(plugin_id, error_code,
		error_message != NULL ? error_message : "(null)");
	maps_api_leave();
}

/* As allinea_set_plugin_error_message(), formatting error_message with
 * the arguments that follow.  Async-signal-safe. */
void allinea_set_plugin_error_messagef(plugin_id_t plugin_id,
	int error_code, const char *error_message, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	maps_api_enter();
	if (error_message == NULL) {
		maps_snformat(msg, sizeof(msg), "%s", "(null)");
	} else {
		va_start(ap, error_message);
		maps_vsnformat(msg, sizeof(msg), error_message, ap);
		va_end(ap);
	}
	maps_host_plugin_error(plugin_id, error_code, msg);
	maps_api_leave();
}

/* Reports that reading a metric failed; call from the getter.
 * Async-signal-safe. */
void allinea_set_metric_error_message(metric_id_t metric_id, int error_code,
	const char *error_message)
{
	maps_api_enter();
	maps_host_metric_error(metric_id, error_code,
		error_message != NULL ? error_message : "(null)");
	maps_api_leave();
}

/* As allinea_set_metric_error_message(), formatting error_message with
 * the arguments that follow.  Async-signal-safe. */
void allinea_set_metric_error_messagef(metric_id_t metric_id,
	int error_code, const char *error_message, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	maps_api_enter();
	if (error_message == NULL) {
		maps_snformat(msg, sizeof(msg), "%s", "(null)");
	} else {
		va_start(ap, error_message);
		maps_vsnformat(msg, sizeof(msg), error_message, ap);
		va_end(ap);
	}
	maps_host_metric_error(metric_id, error_code, msg);
	maps_api_leave();
}
