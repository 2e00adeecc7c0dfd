/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_metric_plugin_api.h: the metric plugin API; includes all the
 * other API headers.  A metric plugin includes this one header.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (sections 7.1 and 8.1,
 * include/allinea_metric_plugin_api.h); a plugin written for Arm MAP
 * compiles unchanged against these headers, e.g. the reference's
 * custom1.c with
 *     cc -fPIC -shared $(pkg-config --cflags mapsample-plugin) \
 *         custom1.c -o libcustom1.so
 * The declarations are the documented ones; this text is mapsample's own.
 * See mapsample-metrics(5) for the definition files that make mapsample
 * load a plugin.
 *
 * The profiler (libmapsampler, preloaded into the profiled program)
 * provides every function declared here; a plugin library is linked
 * without it and leaves these symbols undefined.
 */
#ifndef ALLINEA_METRIC_PLUGIN_API_H
#define ALLINEA_METRIC_PLUGIN_API_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"
#include "allinea_metric_plugin_errors.h"
#include "allinea_safe_malloc.h"
#include "allinea_safe_syscalls.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number of logical CPU cores on this system, hyperthreads included;
 * -1 if unknown.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API int allinea_get_logical_core_count(void);

/* The number of physical CPU cores on this system, hyperthreads not
 * counted; -1 if unknown.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API int allinea_get_physical_core_count(void);

/*
 * Looks up the configuration value named variable for the metric metricId
 * and copies it, NUL-terminated, into value, a buffer of length bytes.
 * The reference lists this function without documenting it further;
 * mapsample-plugin(3) says where mapsample reads the values from and what
 * it returns.  Not async-signal-safe: call it from
 * allinea_plugin_initialize().
 */
MAPSAMPLE_PLUGIN_API int allinea_read_config_file(const char *variable,
	const char *metricId, char *value, int length);

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_METRIC_PLUGIN_API_H */
