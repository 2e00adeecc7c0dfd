/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io: the program's I/O accounting, exported to plugins as
 * mapsample_io_bytes() (<mapsample/plugin.h>).
 *
 * Source: the kernel's per-process counters in /proc/self/io, rchar and
 * wchar: bytes passed through read(2)/write(2) and their relatives
 * (pread, readv, preadv, sendfile, splice, copy_file_range ...) by every
 * thread of the process, live or gone.  This sees what interposing libc
 * functions cannot: stdio's writes, which glibc makes through internal
 * aliases, static or inlined system calls, and I/O in libraries that
 * bypass the PLT.  Not counted: memory-mapped file I/O and I/O done by
 * other processes on the program's behalf.  rchar/wchar count bytes at
 * the system-call level, whether they hit storage, the page cache, a
 * pipe or a terminal.
 *
 * Excluded: the allinea_safe_* functions' bytes (maps_safe_bytes_*,
 * counted by lib/pluginapi) and the sampler's own (maps_own_bytes_*:
 * reading /proc/self/io itself, the eventfd that wakes the writer thread,
 * the one-byte writes that extend the log, thread names read from /proc,
 * and libunwind's: when it cannot unwind a frame from DWARF information
 * it validates addresses by writing a byte of them to a pipe and reading
 * it back.  It calls msync(2) or mincore(2) first, which we interpose:
 * the first such call in a sample notes the thread's own counters
 * (/proc/thread-self/io), and the handler adds what the thread moved
 * since to our own bytes when the unwinding is done.  Rare, so cheap.)
 * Counting starts when the sampler has set up in this process image, so
 * the dynamic loader's reads before main() and the plugins' loading are
 * not the program's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mapsample/plugin.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

uint64_t maps_own_bytes_read;
uint64_t maps_own_bytes_written;

static int io_fd = -1;
static uint64_t base_r, base_w;
static uint64_t last_r, last_w;  /* last answers */

/* Parses "name: N" from the text of /proc/self/io.  Async-signal-safe. */
static int io_field(const char *buf, size_t len, const char *name,
		    uint64_t *out)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i + nl < len; i++) {
		if ((i == 0 || buf[i - 1] == '\n') &&
		    memcmp(buf + i, name, nl) == 0 && buf[i + nl] == ':') {
			size_t j = i + nl + 1;
			while (j < len && buf[j] == ' ')
				j++;
			uint64_t v = 0;
			int any = 0;
			while (j < len && buf[j] >= '0' && buf[j] <= '9') {
				v = v * 10 + (uint64_t)(buf[j++] - '0');
				any = 1;
			}
			if (!any)
				return -1;
			*out = v;
			return 0;
		}
	}
	return -1;
}

/* rchar and wchar less everything excluded.  Async-signal-safe. */
static int io_read(uint64_t *r, uint64_t *w)
{
	if (io_fd < 0) {
		errno = ENOENT;
		return -1;
	}
	char buf[512];
	/* what is excluded so far, taken before the read whose own bytes
	 * the kernel adds to rchar only after it returns */
	uint64_t ex_r =
		atomic_load_explicit(&maps_safe_bytes_read, memory_order_relaxed) +
		__atomic_load_n(&maps_own_bytes_read, __ATOMIC_RELAXED);
	uint64_t ex_w =
		atomic_load_explicit(&maps_safe_bytes_written,
				     memory_order_relaxed) +
		__atomic_load_n(&maps_own_bytes_written, __ATOMIC_RELAXED);
	long n = syscall(SYS_pread64, io_fd, buf, sizeof(buf), 0);
	if (n <= 0)
		return -1;
	__atomic_fetch_add(&maps_own_bytes_read, (uint64_t)n, __ATOMIC_RELAXED);
	uint64_t rc, wc;
	if (io_field(buf, (size_t)n, "rchar", &rc) ||
	    io_field(buf, (size_t)n, "wchar", &wc)) {
		errno = EPROTO;
		return -1;
	}
	*r = rc - ex_r;
	*w = wc - ex_w;
	return 0;
}

/* Opens /proc/self/io for this process and takes the baseline. */
void io_start(void)
{
	if (io_fd >= 0)
		syscall(SYS_close, io_fd);
	io_fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/io",
			     O_RDONLY | O_CLOEXEC);
	if (io_fd < 0)
		return;
	int hi = fcntl(io_fd, F_DUPFD_CLOEXEC, 1000);
	if (hi >= 0) {
		syscall(SYS_close, io_fd);
		io_fd = hi;
	}
	last_r = last_w = 0;
	if (io_read(&base_r, &base_w)) {
		syscall(SYS_close, io_fd);
		io_fd = -1;
	}
}

static __thread int mark_on __attribute__((tls_model("initial-exec")));
static __thread uint64_t mark_r __attribute__((tls_model("initial-exec")));
static __thread uint64_t mark_w __attribute__((tls_model("initial-exec")));

/* This thread's rchar and wchar; *n: the bytes the read itself moved.
 * Async-signal-safe. */
static int thread_io(uint64_t *r, uint64_t *w, long *n)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/io",
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[512];
	*n = syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_close, fd);
	if (*n <= 0 || io_field(buf, (size_t)*n, "rchar", r) ||
	    io_field(buf, (size_t)*n, "wchar", w))
		return -1;
	return 0;
}

/* libunwind is about to validate an address (interposed msync/mincore
 * in the handler).  Async-signal-safe. */
void io_handler_mark(void)
{
	long n;
	if (mark_on || io_fd < 0)
		return;
	if (thread_io(&mark_r, &mark_w, &n) == 0)
		mark_on = 1;
	else
		own_io(&maps_own_bytes_read, n);
}

/* The unwinding is over: what this thread moved since the mark is ours.
 * Async-signal-safe. */
void io_handler_settle(void)
{
	if (!mark_on)
		return;
	mark_on = 0;
	uint64_t r, w;
	long n;
	if (thread_io(&r, &w, &n) == 0) {
		/* the mark's read is in r - mark_r; this read comes after */
		own_io(&maps_own_bytes_read, (long)(r - mark_r) + n);
		own_io(&maps_own_bytes_written, (long)(w - mark_w));
	}
}

/* Counts from now: after the plugins have loaded (the dynamic loader's
 * reads of their files are not the program's). */
void io_rebase(void)
{
	last_r = last_w = 0;
	if (io_fd >= 0 && io_read(&base_r, &base_w)) {
		syscall(SYS_close, io_fd);
		io_fd = -1;
	}
}

/* A fork child counts from zero in its own /proc entry. */
void io_after_fork_child(void)
{
	__atomic_store_n(&maps_own_bytes_read, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&maps_own_bytes_written, 0, __ATOMIC_RELAXED);
	atomic_store_explicit(&maps_safe_bytes_read, 0, memory_order_relaxed);
	atomic_store_explicit(&maps_safe_bytes_written, 0,
			      memory_order_relaxed);
	io_start();
}

/* Async-signal-safe. */
int mapsample_io_bytes(uint64_t *read_bytes, uint64_t *written_bytes)
{
	uint64_t r, w;
	if (!read_bytes || !written_bytes) {
		errno = EINVAL;
		return -1;
	}
	if (io_read(&r, &w))
		return -1;
	/* never backwards: a read that caught the sampler's own I/O between
	 * its count and the system call sees too little for a moment */
	r = r > base_r ? r - base_r : 0;
	w = w > base_w ? w - base_w : 0;
	uint64_t lr = __atomic_load_n(&last_r, __ATOMIC_RELAXED);
	uint64_t lw = __atomic_load_n(&last_w, __ATOMIC_RELAXED);
	if (r < lr)
		r = lr;
	if (w < lw)
		w = lw;
	__atomic_store_n(&last_r, r, __ATOMIC_RELAXED);
	__atomic_store_n(&last_w, w, __ATOMIC_RELAXED);
	*read_bytes = r;
	*written_bytes = w;
	return 0;
}
