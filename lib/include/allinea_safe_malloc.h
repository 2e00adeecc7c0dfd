/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_safe_malloc.h: async-signal-safe memory management for metric
 * plugins.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (sections 7.1 and 8.5,
 * include/allinea_safe_malloc.h); a plugin written for Arm MAP compiles
 * unchanged against these headers.  The declarations are the documented
 * ones; this text is mapsample's own.
 *
 * Metric getters may run inside a signal handler, where the libc
 * allocator must not be used.  These functions may be called there.
 * Memory from them is released with allinea_safe_free() only, and
 * allinea_safe_free() releases only memory from them.  When memory is
 * exhausted they print an error to stderr and abort the process; they
 * never return NULL for a request they accept (allinea_safe_calloc()
 * refuses an nmemb * size that overflows: NULL, errno ENOMEM).
 * mapsample-plugin(3) describes mapsample's implementation.
 */
#ifndef ALLINEA_SAFE_MALLOC_H
#define ALLINEA_SAFE_MALLOC_H

#include <stdlib.h>

#include "allinea_metric_plugin_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates size bytes, uninitialised.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void *allinea_safe_malloc(size_t size);

/* Frees ptr, which came from allinea_safe_malloc(), allinea_safe_calloc()
 * or allinea_safe_realloc(); NULL is allowed.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void allinea_safe_free(void *ptr);

/* Allocates nmemb * size bytes, zero-filled.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void *allinea_safe_calloc(size_t nmemb, size_t size);

/* Resizes ptr (from one of the functions above, or NULL to allocate) to
 * at least size bytes, moving it if needed; returns the new start.  Size
 * 0 frees ptr and returns NULL, as glibc's realloc(3).
 * Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void *allinea_safe_realloc(void *ptr, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_SAFE_MALLOC_H */
