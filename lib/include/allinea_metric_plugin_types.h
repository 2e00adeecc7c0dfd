/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_metric_plugin_types.h: types and typedefs used by the metric
 * plugin API.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (section 8.4,
 * include/allinea_metric_plugin_types.h) and the Arm MAP "Metric Plugin
 * Template" page; a plugin written for Arm MAP compiles unchanged against
 * these headers.  The file names, type names and declarations are the
 * documented ones; this text is mapsample's own.
 *
 * <time.h> is included besides the documented <stdint.h>: struct timespec
 * is used by the headers that include this one.
 *
 * Besides the two documented handle types, this header holds the macros
 * the other headers of the interface use on their declarations:
 *   MAPSAMPLE_PLUGIN_API   default symbol visibility, so that the profiler
 *                          side exports the API even when it is built with
 *                          -fvisibility=hidden, and a plugin built that way
 *                          still exports allinea_plugin_initialize() and
 *                          allinea_plugin_cleanup();
 *   MAPSAMPLE_PLUGIN_PRINTF(f, a)
 *                          printf format checking of the *printf and
 *                          *_messagef functions.  It is off unless the
 *                          plugin defines MAPSAMPLE_PLUGIN_CHECK_FORMATS
 *                          before including the headers: plugins written
 *                          for Arm MAP (the reference's own custom1.c
 *                          among them) must keep compiling warning-free.
 */
#ifndef ALLINEA_METRIC_PLUGIN_TYPES_H
#define ALLINEA_METRIC_PLUGIN_TYPES_H

#include <stdint.h>
#include <time.h>

/* struct timespec is part of the API (getters, allinea_get_current_time()),
 * but <time.h> defines it only for C11 and POSIX compilations.  With
 * glibc, define it for strict C89/C99 compilations (-std=c99) too. */
#if defined(__has_include)
#if __has_include(<bits/types/struct_timespec.h>)
#include <bits/types/struct_timespec.h>
#endif
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define MAPSAMPLE_PLUGIN_API __attribute__((visibility("default")))
#else
#define MAPSAMPLE_PLUGIN_API
#endif

#if defined(MAPSAMPLE_PLUGIN_CHECK_FORMATS) && defined(__GNUC__)
#define MAPSAMPLE_PLUGIN_PRINTF(fmt, args) \
	__attribute__((format(printf, fmt, args)))
#else
#define MAPSAMPLE_PLUGIN_PRINTF(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handle to a metric, passed to each metric getter call; give it
 * back to allinea_set_metric_error_message(f). */
typedef uintptr_t metric_id_t;

/* Opaque handle to a metric plugin (one loaded library), passed to
 * allinea_plugin_initialize() and allinea_plugin_cleanup(); give it back
 * to allinea_set_plugin_error_message(f). */
typedef uintptr_t plugin_id_t;

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_METRIC_PLUGIN_TYPES_H */
