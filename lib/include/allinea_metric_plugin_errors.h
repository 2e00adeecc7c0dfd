/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_metric_plugin_errors.h: functions for reporting errors met by a
 * metric plugin library or by one of its metrics.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (sections 7.1 and 8.2,
 * include/allinea_metric_plugin_errors.h); a plugin written for Arm MAP
 * compiles unchanged against these headers.  The declarations are the
 * documented ones; this text is mapsample's own.
 *
 * The profiler (libmapsampler) provides these functions.
 */
#ifndef ALLINEA_METRIC_PLUGIN_ERRORS_H
#define ALLINEA_METRIC_PLUGIN_ERRORS_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reports that the plugin (the library, with all its metrics) cannot
 * work, e.g. because the interface it reads is missing on this system.
 * Call it only from allinea_plugin_initialize(), then return -1 from
 * there.  plugin_id: the handle allinea_plugin_initialize() was given.
 * error_code: a code of the plugin's choosing (an errno value is fine),
 * one per kind of failure.  error_message: plain text, no substitutions.
 */
MAPSAMPLE_PLUGIN_API void allinea_set_plugin_error_message(
	plugin_id_t plugin_id, int error_code, const char *error_message);

/* As allinea_set_plugin_error_message(), with printf-style substitution
 * of the arguments that follow into error_message. */
MAPSAMPLE_PLUGIN_API void allinea_set_plugin_error_messagef(
	plugin_id_t plugin_id, int error_code, const char *error_message, ...)
	MAPSAMPLE_PLUGIN_PRINTF(3, 4);

/*
 * Reports that reading a metric failed.  Call it from the metric getter
 * before returning non-zero.  metric_id: the handle the getter was given.
 * error_code and error_message as for allinea_set_plugin_error_message().
 * Async-signal-safe: getters may run in a signal handler.
 */
MAPSAMPLE_PLUGIN_API void allinea_set_metric_error_message(
	metric_id_t metric_id, int error_code, const char *error_message);

/* As allinea_set_metric_error_message(), with printf-style substitution
 * of the arguments that follow into error_message.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void allinea_set_metric_error_messagef(
	metric_id_t metric_id, int error_code, const char *error_message, ...)
	MAPSAMPLE_PLUGIN_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_METRIC_PLUGIN_ERRORS_H */
