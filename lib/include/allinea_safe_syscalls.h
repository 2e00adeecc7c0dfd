/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * allinea_safe_syscalls.h: async-signal-safe I/O and utility functions for
 * metric plugins.
 *
 * mapsample implements the Allinea/Arm MAP Metric Plugin Interface as
 * documented in "Allinea Metric Plugin Interface" (sections 7.1 and 8.6,
 * include/allinea_safe_syscalls.h); a plugin written for Arm MAP compiles
 * unchanged against these headers.  The declarations are the documented
 * ones; this text is mapsample's own.  <time.h> and <sys/types.h> are
 * included besides the documented <stdarg.h>, <stdlib.h> and <stddef.h>
 * so that the header stands alone (struct timespec, ssize_t).
 *
 * Every function here may be called from a metric getter, that is from a
 * signal handler.  I/O done through allinea_safe_open(), _read*(),
 * _write() and _close() is left out of the profiler's own I/O metrics.
 */
#ifndef ALLINEA_SAFE_SYSCALLS_H
#define ALLINEA_SAFE_SYSCALLS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The current time on the profiler's clock (CLOCK_MONOTONIC), the clock
 * of the currentSampleTime given to getters.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API struct timespec allinea_get_current_time(void);

/* Closes fd, opened by allinea_safe_open().  Returns 0, or -1 with errno
 * set.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API int allinea_safe_close(int fd);

/* Formats as fprintf(3) does and writes the result to fd.
 * Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void allinea_safe_fprintf(int fd, const char *format,
	...) MAPSAMPLE_PLUGIN_PRINTF(2, 3);

/* Opens file (absolute or relative path) with open(2)'s oflags (O_RDONLY,
 * O_WRONLY, O_RDWR, ...) and, with O_CREAT, a mode_t mode.  Returns the
 * descriptor, or -1 with errno set.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API int allinea_safe_open(const char *file, int oflags,
	...);

/* Formats as printf(3) does and writes the result to standard output.
 * Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void allinea_safe_printf(const char *format, ...)
	MAPSAMPLE_PLUGIN_PRINTF(1, 2);

/* Reads up to count bytes from fd into buf.  Returns the number read (0
 * at end of file), or -1 with errno set.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API ssize_t allinea_safe_read(int fd, void *buf,
	size_t count);

/* Reads fd to its end into buf, at most count bytes.  Returns the number
 * read, or -1 with errno set (also when a read fails after others
 * succeeded).  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API ssize_t allinea_safe_read_all(int fd, void *buf,
	size_t count);

/* Reads one line from fd into buf (count bytes), without its final '\n'
 * and with a terminating '\0'; a longer line is truncated, but consumed
 * whole.  Returns the number of bytes consumed, the '\n' included (so an
 * empty line gives 1 and only the end of file gives 0), or -1 with errno
 * set.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API ssize_t allinea_safe_read_line(int fd, void *buf,
	size_t count);

/* As allinea_safe_fprintf(), with the arguments in ap.
 * Async-signal-safe. */
MAPSAMPLE_PLUGIN_API void allinea_safe_vfprintf(int fd, const char *format,
	va_list ap) MAPSAMPLE_PLUGIN_PRINTF(2, 0);

/* Writes count bytes from buf to fd, looping over short writes.  Returns
 * the number written (less than count only when a write failed after
 * some were written), or -1 with errno set.  Async-signal-safe. */
MAPSAMPLE_PLUGIN_API ssize_t allinea_safe_write(int fd, const void *buf,
	size_t count);

#ifdef __cplusplus
}
#endif
#endif /* ALLINEA_SAFE_SYSCALLS_H */
