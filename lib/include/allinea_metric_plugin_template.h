/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_metric_plugin_template.h: the functions a metric plugin library
 * implements, and examples of the ones it may implement.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (sections 7.2 and 8.3,
 * include/allinea_metric_plugin_template.h) and the Arm MAP "Metric
 * Plugin Template" page (which adds the start/stop callbacks and
 * backfilled metrics); a plugin written for Arm MAP compiles unchanged
 * against these headers.  The declarations are the documented ones; this
 * text is mapsample's own.
 *
 * Including this header is optional; it lets the compiler check a
 * plugin's definitions against the documented signatures.
 */
#ifndef ALLINEA_METRIC_PLUGIN_TEMPLATE_H
#define ALLINEA_METRIC_PLUGIN_TEMPLATE_H

#include "allinea_metric_plugin_types.h"

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Called once when the profiler unloads the plugin library, outside any
 * signal handler: any function may be used, libc malloc/free included.
 * Release what allinea_plugin_initialize() acquired.  plugin_id: opaque
 * handle for allinea_set_plugin_error_message(f).  data: unused, always
 * NULL.  Returns 0, or -1 after setting a plugin error message (which the
 * user may not see, the run being over).
 */
MAPSAMPLE_PLUGIN_API int allinea_plugin_cleanup(plugin_id_t plugin_id,
	void *data);

/*
 * Called once when the profiler loads the plugin library, outside any
 * signal handler: any function may be used.  Set up data structures and
 * check that the metrics can be read here.  plugin_id: opaque handle for
 * allinea_set_plugin_error_message(f).  data: unused, always NULL.
 * Returns 0, or -1 after allinea_set_plugin_error_message(f) when the
 * plugin cannot work on this system; its metrics are then not sampled.
 */
MAPSAMPLE_PLUGIN_API int allinea_plugin_initialize(plugin_id_t plugin_id,
	void *data);

/*
 * Example of a getter of a floating-point metric (<dataType>double
 * </dataType>).  Do not implement this name: implement getters of this
 * signature under names of your own and name them in the functionName
 * attribute of the metric's <source> element.
 *
 * id: the metric's handle, for allinea_set_metric_error_message(f).
 * currentSampleTime: in, the time of this sample (CLOCK_MONOTONIC, as
 * allinea_get_current_time()); out, a getter may overwrite it with a
 * fresh allinea_get_current_time() taken where it reads the value — but
 * not for a backfilled metric (<backfill>true</backfill>), where it is the
 * earlier time of the sample being filled in.  Never NULL.
 * outValue: where to store the value.  Never NULL.
 * Returns 0 when *outValue was written, non-zero after
 * allinea_set_metric_error_message(f) otherwise.
 *
 * Runs in a signal handler: async-signal-safe calls only (the
 * allinea_safe_* functions are).
 */
MAPSAMPLE_PLUGIN_API int mymetric_getDoubleValue(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);

/* Example of a getter of an integer metric (<dataType>uint64_t
 * </dataType>); as mymetric_getDoubleValue() otherwise. */
MAPSAMPLE_PLUGIN_API int mymetric_getIntValue(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

/*
 * Example of an optional callback run when the sampler starts sampling,
 * named in <source><functions><start>...</start></functions></source>.
 * Not called from a signal handler.  Returns 0, or -1 after setting a
 * plugin error message.
 */
MAPSAMPLE_PLUGIN_API int start_profiling(plugin_id_t plugin_id);

/*
 * Example of an optional callback run after the sampler stops sampling,
 * named in <source><functions><stop>...</stop></functions></source>.
 * May be called from a signal handler: async-signal-safe calls only.
 * Returns 0, or -1 after setting a plugin error message.
 */
MAPSAMPLE_PLUGIN_API int stop_profiling(plugin_id_t plugin_id);

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_METRIC_PLUGIN_TEMPLATE_H */
