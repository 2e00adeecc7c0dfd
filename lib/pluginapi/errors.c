/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * errors.c: allinea_set_plugin_error_message(f) and
 * allinea_set_metric_error_message(f).  They format the message (the f
 * variants with pluginapi_vsnformat() into a 1 KiB stack buffer: longer
 * messages are cut at 1023 bytes) and hand it to the hooks the host (the
 * sampler) passed down with pluginapi_set_host(), which keep it
 * (pluginapi.h); without a host the message is dropped.  Nothing here
 * allocates or locks: async-signal-safe, as getters may report errors
 * from a signal handler.  A NULL message is passed on as "(null)"; a
 * format that pluginapi_vsnformat() rejects is passed on with what it
 * formatted before the error.
 */
#include <stdarg.h>

#include "allinea_metric_plugin_errors.h"
#include "pluginapi.h"

#define MSG_MAX 1024

/* Hands a plugin error to the host, if there is one.  Async-signal-safe. */
static void host_plugin_error(plugin_id_t plugin_id, int error_code,
	const char *msg)
{
	const struct pluginapi_host *h = pluginapi_get_host();

	if (h != NULL && h->ph_plugin_error != NULL)
		h->ph_plugin_error(plugin_id, error_code, msg);
}

/* Hands a metric error to the host, if there is one.  Async-signal-safe. */
static void host_metric_error(metric_id_t metric_id, int error_code,
	const char *msg)
{
	const struct pluginapi_host *h = pluginapi_get_host();

	if (h != NULL && h->ph_metric_error != NULL)
		h->ph_metric_error(metric_id, error_code, msg);
}

/* Reports that the plugin cannot work; call from initialize.
 * Async-signal-safe. */
void allinea_set_plugin_error_message(plugin_id_t plugin_id, int error_code,
	const char *error_message)
{
	pluginapi_enter();
	host_plugin_error(plugin_id, error_code,
		error_message != NULL ? error_message : "(null)");
	pluginapi_leave();
}

/* As allinea_set_plugin_error_message(), formatting error_message with
 * the arguments that follow.  Async-signal-safe. */
void allinea_set_plugin_error_messagef(plugin_id_t plugin_id,
	int error_code, const char *error_message, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	pluginapi_enter();
	if (error_message == NULL) {
		pluginapi_snformat(msg, sizeof(msg), "%s", "(null)");
	} else {
		va_start(ap, error_message);
		pluginapi_vsnformat(msg, sizeof(msg), error_message, ap);
		va_end(ap);
	}
	host_plugin_error(plugin_id, error_code, msg);
	pluginapi_leave();
}

/* Reports that reading a metric failed; call from the getter.
 * Async-signal-safe. */
void allinea_set_metric_error_message(metric_id_t metric_id, int error_code,
	const char *error_message)
{
	pluginapi_enter();
	host_metric_error(metric_id, error_code,
		error_message != NULL ? error_message : "(null)");
	pluginapi_leave();
}

/* As allinea_set_metric_error_message(), formatting error_message with
 * the arguments that follow.  Async-signal-safe. */
void allinea_set_metric_error_messagef(metric_id_t metric_id,
	int error_code, const char *error_message, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	pluginapi_enter();
	if (error_message == NULL) {
		pluginapi_snformat(msg, sizeof(msg), "%s", "(null)");
	} else {
		va_start(ap, error_message);
		pluginapi_vsnformat(msg, sizeof(msg), error_message, ap);
		va_end(ap);
	}
	host_metric_error(metric_id, error_code, msg);
	pluginapi_leave();
}
