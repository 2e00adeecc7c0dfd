/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * raw_io.c: the system calls lib/pluginapi makes for its own I/O (the
 * allinea_safe_* functions, the core counts, the configuration file) and
 * its warnings on standard error (pluginapi.h).  Every call goes to the
 * kernel through syscall(2), so that no LD_PRELOAD interposer (the
 * sampler's own included) sees it and no libc lock is taken, and every
 * byte moved by read(2)/write(2) is counted for the host (host.c).
 * Calls only format.c and host.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pluginapi.h"

/* --- raw system calls (pluginapi.h) --- */

/* Async-signal-safe. */
int pluginapi_raw_open(const char *path, int flags, mode_t mode)
{
	long r;

	do
		r = syscall(SYS_openat, AT_FDCWD, path, flags | O_LARGEFILE,
			mode);
	while (r == -1 && errno == EINTR);
	return (int)r;
}

/* Not retried on EINTR: Linux has closed fd by then.
 * Async-signal-safe. */
int pluginapi_raw_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* Async-signal-safe. */
ssize_t pluginapi_raw_read(int fd, void *buf, size_t count)
{
	long r;

	do
		r = syscall(SYS_read, fd, buf, count);
	while (r == -1 && errno == EINTR);
	if (r > 0)
		atomic_fetch_add_explicit(&pluginapi_safe_bytes_read,
			(uint64_t)r, memory_order_relaxed);
	return r;
}

/* Async-signal-safe. */
ssize_t pluginapi_raw_write(int fd, const void *buf, size_t count)
{
	const char *p = buf;
	size_t done = 0;

	while (done < count) {
		long r = syscall(SYS_write, fd, p + done, count - done);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (done > 0)
				break;	/* report what was written */
			return r == 0 ? 0 : -1;
		}
		atomic_fetch_add_explicit(&pluginapi_safe_bytes_written,
			(uint64_t)r, memory_order_relaxed);
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/* Async-signal-safe. */
void pluginapi_warn(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	memcpy(line, "mapsample: ", 11);
	va_start(ap, fmt);
	n = pluginapi_vsnformat(line + 11, sizeof(line) - 12, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	n += 11;
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	line[n++] = '\n';
	pluginapi_raw_write(STDERR_FILENO, line, (size_t)n);
}
