/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pluginapi.h: the internal side of lib/pluginapi, the implementation of
 * the Allinea/Arm MAP metric plugin API (lib/include/allinea_*.h) that
 * libmapsampler.so provides to metric plugins.  Everything declared here
 * is hidden and named pluginapi_*: the sampler (and the unit tests) use
 * it, plugins never see it.  The public API functions are defined in
 * safe_malloc.c, safe_io.c, format.c, sysinfo.c, errors.c and config.c.
 *
 * Contract with the host (the sampler), kept in host.c:
 *   - pluginapi_depth is non-zero while the calling thread is inside any
 *     allinea_* function.  The host must not call plugin code from a
 *     signal handler on a thread whose pluginapi_depth is non-zero; in
 *     return the allocator may hold a spinlock without risk of the holder
 *     being interrupted into the allocator on its own thread.
 *   - The host passes its hooks down with pluginapi_set_host() before any
 *     plugin runs; errors.c calls them with the formatted message.  They
 *     may be called from a signal handler and must be async-signal-safe.
 *     lib/pluginapi never calls up into the host by name.
 *   - pluginapi_safe_bytes_read / pluginapi_safe_bytes_written count every
 *     byte that lib/pluginapi moved with read(2)/write(2) system calls
 *     (the allinea_safe_* I/O functions, the core counts and the
 *     configuration file).  The host subtracts them from /proc/self/io
 *     rchar/wchar.
 *
 * DESIGN NOTES
 *   Calls go one way, from the API files down: errors.c, config.c,
 *   sysinfo.c, safe_io.c and safe_malloc.c call raw_io.c (system calls,
 *   warnings), format.c (the formatter) and host.c (the contract's
 *   state), and sysinfo.c calls safe_malloc.c's pluginapi_mem_*();
 *   raw_io.c calls format.c and host.c; format.c and host.c call
 *   nothing.
 */
#ifndef MAPSAMPLE_PLUGINAPI_H
#define MAPSAMPLE_PLUGINAPI_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "allinea_metric_plugin_types.h"

#define MAPS_HIDDEN __attribute__((visibility("hidden")))

/* Depth of allinea_* calls on this thread; see the contract above.  Read
 * it from a signal handler on the same thread as a plain int. */
extern MAPS_HIDDEN __thread int pluginapi_depth
	__attribute__((tls_model("initial-exec")));

/* Marks entry to and exit from an API function.  The signal fences keep
 * the compiler from moving the work of the function outside the marked
 * region, as a signal handler on this thread would see it.
 * Async-signal-safe. */
static inline void pluginapi_enter(void)
{
	pluginapi_depth++;
	atomic_signal_fence(memory_order_seq_cst);
}

static inline void pluginapi_leave(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	pluginapi_depth--;
}

/* Bytes moved by lib/pluginapi's read(2) and write(2) system calls in
 * this process.  A fork child starts with its parent's counts, while the
 * kernel starts the child's rchar/wchar at zero: the host takes a
 * baseline of both when it starts in a process and subtracts deltas.
 * Lock-free 64-bit atomics, updated with relaxed order. */
extern MAPS_HIDDEN _Atomic uint64_t pluginapi_safe_bytes_read;
extern MAPS_HIDDEN _Atomic uint64_t pluginapi_safe_bytes_written;

/*
 * The host's hooks: record a plugin error (from
 * allinea_set_plugin_error_message(f)) or a metric error (from
 * allinea_set_metric_error_message(f)).  msg is never NULL and lives only
 * for the call.  Both must be async-signal-safe.
 */
struct pluginapi_host {
	void (*ph_plugin_error)(plugin_id_t plugin, int code,
		const char *msg);
	void (*ph_metric_error)(metric_id_t metric, int code,
		const char *msg);
};

/* Makes host (static storage: it is kept, not copied) the one errors.c
 * reports to; NULL: the errors are dropped.  Call it before any plugin
 * runs (not async-signal-safe with respect to API calls in progress). */
MAPS_HIDDEN void pluginapi_set_host(const struct pluginapi_host *host);

/* The host set last, or NULL.  Async-signal-safe. */
MAPS_HIDDEN const struct pluginapi_host *pluginapi_get_host(void);

/*
 * Formats as vsnprintf(3) does, without locale, malloc or stdio: writes at
 * most size bytes into buf (always NUL-terminated when size > 0; buf may
 * be NULL when size is 0) and returns the length the whole output would
 * have, or -1 with errno EOVERFLOW (output longer than INT_MAX), EINVAL
 * (a format that ends inside a conversion) or EILSEQ (%lc/%ls of a value
 * that is no Unicode code point).  format.c lists the conversions and how
 * they differ from glibc.  Async-signal-safe.
 */
MAPS_HIDDEN int pluginapi_vsnformat(char *buf, size_t size, const char *fmt,
	va_list ap) __attribute__((format(printf, 3, 0)));
/* As pluginapi_vsnformat(), with the arguments inline.  Async-signal-safe. */
MAPS_HIDDEN int pluginapi_snformat(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Raw-syscall I/O for lib/pluginapi's own use (raw_io.c); none of them
 * touches pluginapi_depth.  pluginapi_raw_read() and pluginapi_raw_write()
 * retry on EINTR and add what they moved to the counters above;
 * pluginapi_raw_write() loops until everything is written (see
 * allinea_safe_write()).  pluginapi_raw_open() is openat(AT_FDCWD, path,
 * flags | O_LARGEFILE, mode).
 * Async-signal-safe.
 */
MAPS_HIDDEN int pluginapi_raw_open(const char *path, int flags, mode_t mode);
MAPS_HIDDEN int pluginapi_raw_close(int fd);
MAPS_HIDDEN ssize_t pluginapi_raw_read(int fd, void *buf, size_t count);
MAPS_HIDDEN ssize_t pluginapi_raw_write(int fd, const void *buf, size_t count);

/* allinea_safe_realloc() and allinea_safe_free() for lib/pluginapi's own
 * use: hidden, so that the calls bind inside the sampler whatever other
 * objects define, and without touching pluginapi_depth.
 * Async-signal-safe. */
MAPS_HIDDEN void *pluginapi_mem_realloc(void *ptr, size_t size);
MAPS_HIDDEN void pluginapi_mem_free(void *ptr);

/* Writes one line to standard error: "mapsample: " then the formatted
 * message then "\n" (the caller gives no newline), through
 * pluginapi_raw_write().  At most 1 KiB; longer lines are cut.
 * Async-signal-safe. */
MAPS_HIDDEN void pluginapi_warn(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* MAPSAMPLE_PLUGINAPI_H */
