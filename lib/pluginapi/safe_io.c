/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * safe_io.c: allinea_safe_open(), _close(), _read(), _read_all(),
 * _read_line(), _write(), _printf(), _fprintf() and _vfprintf(), the I/O
 * functions metric plugins use in getters, that is in signal handlers.
 *
 * Design notes
 *   - Every call goes to the kernel through syscall(2), so that no
 *     LD_PRELOAD interposer (the sampler's own included) sees it and no
 *     libc lock is taken.
 *   - Every byte moved by read(2)/write(2) here (through raw_io.c) is
 *     added to pluginapi_safe_bytes_read / pluginapi_safe_bytes_written
 *     (relaxed atomics, host.c): the kernel counts them in /proc/self/io
 *     rchar/wchar and the sampler subtracts them, so plugin I/O stays
 *     out of the program's I/O metrics.  Bytes read_line() reads ahead
 *     and seeks back over are counted as the kernel counts them: once
 *     per read.
 *   - read and write retry on EINTR; write loops until everything is
 *     written.
 *   - read_line() reads blocks and seeks back over what follows the line
 *     only on files whose content is stored (regular files with blocks on
 *     a file system).  Everything else is read a byte at a time: pipes
 *     cannot seek, and generated files (/proc, /sys, cgroupfs) are
 *     regenerated when seeked, so a seek back could land mid-line in
 *     content that changed meanwhile (the cpu lines of /proc/stat).
 *   - The printf family formats into a 4 KiB stack buffer with
 *     pluginapi_vsnformat(): output longer than 4095 bytes is cut there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "allinea_safe_syscalls.h"
#include "pluginapi.h"

#define PRINTF_BUF 4096
#define LINE_BLOCK 512

/* --- the API --- */

/* Opens file with oflags and, with O_CREAT or O_TMPFILE, the mode that
 * follows.  Returns the descriptor, or -1 with errno.  Retried on EINTR.
 * Async-signal-safe. */
int allinea_safe_open(const char *file, int oflags, ...)
{
	mode_t mode = 0;
	int fd;

	pluginapi_enter();
	if ((oflags & O_CREAT) || (oflags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;
		va_start(ap, oflags);
		mode = (mode_t)va_arg(ap, unsigned int);
		va_end(ap);
	}
	fd = pluginapi_raw_open(file, oflags, mode);
	pluginapi_leave();
	return fd;
}

/* Closes fd.  Returns 0, or -1 with errno.  Async-signal-safe. */
int allinea_safe_close(int fd)
{
	int r;

	pluginapi_enter();
	r = pluginapi_raw_close(fd);
	pluginapi_leave();
	return r;
}

/* One read(2) of up to count bytes, retried on EINTR.  Returns the bytes
 * read (0 at end of file), or -1 with errno.  Async-signal-safe. */
ssize_t allinea_safe_read(int fd, void *buf, size_t count)
{
	ssize_t r;

	pluginapi_enter();
	r = pluginapi_raw_read(fd, buf, count);
	pluginapi_leave();
	return r;
}

/* Reads until end of file or count bytes.  Returns the bytes read, or -1
 * with errno if a read fails (what was read before is in buf, but the
 * count is lost).  Async-signal-safe. */
ssize_t allinea_safe_read_all(int fd, void *buf, size_t count)
{
	char *p = buf;
	size_t done = 0;
	ssize_t r = 0;

	pluginapi_enter();
	while (done < count) {
		r = pluginapi_raw_read(fd, p + done, count - done);
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	pluginapi_leave();
	return r < 0 ? -1 : (ssize_t)done;
}

/* Whether fd's content is stored, so that reading ahead and seeking back
 * gives the same bytes again (see the design notes).
 * Async-signal-safe. */
static bool can_read_ahead(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)	/* async-signal-safe in POSIX */
		return false;
	return S_ISREG(st.st_mode) && st.st_blocks > 0;
}

/*
 * Reads one line: the bytes up to and including the next '\n' or the end
 * of file are consumed; up to count - 1 of them, without the '\n', are
 * stored in buf with a '\0' after them (a longer line is cut, but still
 * consumed whole).  Returns the bytes consumed, the '\n' included (so an
 * empty line gives 1 and only the end of file gives 0), or -1 with errno
 * (EINVAL when count is 0).  Async-signal-safe.
 */
ssize_t allinea_safe_read_line(int fd, void *buf, size_t count)
{
	char *out = buf, blk[LINE_BLOCK];
	size_t stored = 0, consumed = 0;
	ssize_t ret;
	bool ahead;

	if (count == 0) {
		errno = EINVAL;
		return -1;
	}
	pluginapi_enter();
	ahead = can_read_ahead(fd);
	for (;;) {
		ssize_t r = pluginapi_raw_read(fd, blk,
			ahead ? sizeof(blk) : 1);
		size_t n, take;
		char *nl;

		if (r < 0) {
			ret = -1;
			goto out;
		}
		if (r == 0)
			break;
		n = (size_t)r;
		nl = memchr(blk, '\n', n);
		take = nl != NULL ? (size_t)(nl - blk) : n;
		if (stored < count - 1) {
			size_t k = count - 1 - stored;
			if (k > take)
				k = take;
			memcpy(out + stored, blk, k);
			stored += k;
		}
		if (nl != NULL) {
			size_t after = n - take - 1;
			consumed += take + 1;
			if (after > 0 &&
			    syscall(SYS_lseek, fd, -(off_t)after, SEEK_CUR) == -1) {
				ret = -1;
				goto out;
			}
			break;
		}
		consumed += n;
	}
	ret = (ssize_t)consumed;
out:
	out[stored] = '\0';
	pluginapi_leave();
	return ret;
}

/* Writes count bytes from buf, looping over short writes and retrying on
 * EINTR.  Returns count; or, when a write fails, the bytes written before
 * it if there were any (errno tells why it stopped), else -1 with errno.
 * Async-signal-safe. */
ssize_t allinea_safe_write(int fd, const void *buf, size_t count)
{
	ssize_t r;

	pluginapi_enter();
	r = pluginapi_raw_write(fd, buf, count);
	pluginapi_leave();
	return r;
}

/* Formats into a stack buffer and writes the result to fd; output past
 * 4095 bytes is cut.  A static function, so that the three printf
 * functions never reach each other through the dynamic linker.
 * Async-signal-safe. */
static void format_write(int fd, const char *format, va_list ap)
{
	char buf[PRINTF_BUF];
	int n;

	n = pluginapi_vsnformat(buf, sizeof(buf), format, ap);
	if (n > (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 1;
	if (n < 0)	/* a bad format: write what was formatted */
		n = (int)strlen(buf);
	pluginapi_raw_write(fd, buf, (size_t)n);
}

/* Formats as vfprintf(3) (see format.c for the conversions) and writes
 * the result to fd; output past 4095 bytes is cut.  Async-signal-safe. */
void allinea_safe_vfprintf(int fd, const char *format, va_list ap)
{
	pluginapi_enter();
	format_write(fd, format, ap);
	pluginapi_leave();
}

/* As allinea_safe_vfprintf().  Async-signal-safe. */
void allinea_safe_fprintf(int fd, const char *format, ...)
{
	va_list ap;

	pluginapi_enter();
	va_start(ap, format);
	format_write(fd, format, ap);
	va_end(ap);
	pluginapi_leave();
}

/* As allinea_safe_vfprintf() to standard output.  Async-signal-safe. */
void allinea_safe_printf(const char *format, ...)
{
	va_list ap;

	pluginapi_enter();
	va_start(ap, format);
	format_write(STDOUT_FILENO, format, ap);
	va_end(ap);
	pluginapi_leave();
}
