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
 * Excluded: the allinea_safe_* functions' bytes (pluginapi_safe_bytes_*,
 * counted by lib/pluginapi) and the sampler's own (io_own_bytes_*:
 * reading /proc/self/io itself, the eventfd that wakes the writer thread,
 * the one-byte writes that extend the log, thread names read from /proc,
 * and libunwind's).  libunwind checks, in signal context, each stack
 * address it reads that is not in its small cache of good pages: it calls
 * msync(2) (or mincore(2)) and then moves one byte of the address through
 * a pipe of its own, a write and a read of one byte.  We interpose msync
 * and mincore and count the checks made in our handler (io_unw_checks, one
 * byte written each); the bytes read are the checks less the bytes that
 * stayed in the pipe since counting started (ioctl FIONREAD on the pipe's
 * read end, found in the constructor as the non-blocking pipe libunwind
 * opened when it initialized).  No extra system call per sample.  The
 * pipe is shared with fork children, so in a process that forks the
 * counts can be off by the few bytes the other process left in it.
 *
 * The descriptor on /proc/self/io lives in the program's descriptor table,
 * where the program may close it (closefrom(), close_range(), Open MPI's
 * forked children closing everything) and put a file of its own on its
 * number (dup2, or an open after the close).  Before every read a raw
 * fstat compares st_dev and st_ino with the file we opened; on EBADF or
 * a mismatch the number is forgotten, never read nor closed (it is the
 * program's now), and /proc/self/io is opened again, quietly: the
 * counters are the process's, not the descriptor's, so the counts go on
 * where they were.  What this cannot tell: the program closing our
 * descriptor and opening /proc/self/io itself on the same number between
 * our check and our read; we read the same counters then.
 *
 * Counting starts when the sampler has set up in this process image, so
 * the dynamic loader's reads before main() and the plugins' loading are
 * not the program's.
 *
 * A leaf of the sampler: it calls only lib/pluginapi's counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mapsample/plugin.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

uint64_t io_own_bytes_read;
uint64_t io_own_bytes_written;

static int io_fd = -1;
static uint64_t io_dev, io_ino;   /* what io_fd was opened on */
static uint64_t base_r, base_w;
static uint64_t last_r, last_w;  /* last answers */

static int unw_pipe = -1;       /* read end of libunwind's check pipe */
static int unw_pending0;         /* bytes in it when counting started */
uint64_t io_unw_checks;          /* checks made in our handler */

/* Bytes waiting in libunwind's pipe.  Async-signal-safe. */
static int unw_pending(void)
{
	int n = 0;
	if (unw_pipe < 0 || syscall(SYS_ioctl, unw_pipe, FIONREAD, &n))
		return 0;
	return n;
}

/* The FIFOs open now, as a bit set of descriptors below 1024.  One
 * ppoll() with no events finds the open descriptors (the others come
 * back POLLNVAL), and only those are looked at: an fstat() of each of
 * the 1024 numbers, twice in every process, was most of the sampler's
 * system calls at start-up (test/bench/execcost.sh). */
void io_fifos(uint64_t set[16])
{
	memset(set, 0, 16 * sizeof(uint64_t));
	struct pollfd pfd[1024];
	for (int fd = 0; fd < 1024; fd++)
		pfd[fd] = (struct pollfd){.fd = fd, .events = 0};
	struct timespec zero = {0, 0};
	int scanned = syscall(SYS_ppoll, pfd, (unsigned long)1024, &zero,
			      NULL, (size_t)0) >= 0;
	for (int fd = 0; fd < 1024; fd++) {
		if (scanned && (pfd[fd].revents & POLLNVAL))
			continue;
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
			set[fd / 64] |= 1ull << (fd % 64);
	}
}

/* libunwind has initialized: its check pipe is the non-blocking,
 * read-only FIFO that was not open before. */
void io_find_unwind_pipe(const uint64_t before[16])
{
	uint64_t after[16];
	io_fifos(after);
	for (int fd = 0; fd < 1024; fd++) {
		if (!(after[fd / 64] & ~before[fd / 64] & (1ull << (fd % 64))))
			continue;
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) == O_RDONLY && (fl & O_NONBLOCK)) {
			unw_pipe = fd;
			return;
		}
	}
}

/* Makes io_fd a descriptor of ours on /proc/self/io: forgets one the
 * program closed or replaced (without closing it), opens the file when
 * needed, on a number >= 1000 out of the program's way.  Returns io_fd,
 * or -1 with errno set (the file cannot be opened).  Async-signal-safe. */
static int io_open(void)
{
	if (fd_still(io_fd, io_dev, io_ino))
		return io_fd;
	io_fd = -1;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/io",
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (syscall(SYS_fstat, fd, &st)) {
		int e = errno;
		syscall(SYS_close, fd);
		errno = e;
		return -1;
	}
	fd = fd_high(fd);
	io_dev = (uint64_t)st.st_dev;
	io_ino = (uint64_t)st.st_ino;
	io_fd = fd;
	return fd;
}

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
	if (io_open() < 0)
		return -1;
	char buf[512];
	/* what is excluded so far, taken before the read whose own bytes
	 * the kernel adds to rchar only after it returns */
	uint64_t ex_r =
		atomic_load_explicit(&pluginapi_safe_bytes_read, memory_order_relaxed) +
		__atomic_load_n(&io_own_bytes_read, __ATOMIC_RELAXED);
	uint64_t ex_w =
		atomic_load_explicit(&pluginapi_safe_bytes_written,
				     memory_order_relaxed) +
		__atomic_load_n(&io_own_bytes_written, __ATOMIC_RELAXED);
	uint64_t checks = __atomic_load_n(&io_unw_checks, __ATOMIC_RELAXED);
	long kept = (long)unw_pending() - unw_pending0;
	ex_w += checks;
	ex_r += kept < 0 || (uint64_t)kept > checks ? checks : checks - (uint64_t)kept;
	long n = syscall(SYS_pread64, io_fd, buf, sizeof(buf), 0);
	if (n <= 0)
		return -1;
	__atomic_fetch_add(&io_own_bytes_read, (uint64_t)n, __ATOMIC_RELAXED);
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
	/* a fork child's inherited copy names the parent: closed when it
	 * is still ours, forgotten when the program took its number */
	if (fd_still(io_fd, io_dev, io_ino))
		syscall(SYS_close, io_fd);
	io_fd = -1;
	if (io_open() < 0)
		return;
	last_r = last_w = 0;
	if (io_read(&base_r, &base_w)) {
		syscall(SYS_close, io_fd);
		io_fd = -1;
	}
}

/* Counts from now: after the plugins have loaded (the dynamic loader's
 * reads of their files are not the program's). */
void io_rebase(void)
{
	last_r = last_w = 0;
	__atomic_store_n(&io_unw_checks, 0, __ATOMIC_RELAXED);
	unw_pending0 = unw_pending();
	if (io_fd >= 0 && io_read(&base_r, &base_w)) {
		syscall(SYS_close, io_fd);
		io_fd = -1;
	}
}

/* A fork child counts from zero in its own /proc entry. */
void io_after_fork_child(void)
{
	__atomic_store_n(&io_own_bytes_read, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&io_own_bytes_written, 0, __ATOMIC_RELAXED);
	atomic_store_explicit(&pluginapi_safe_bytes_read, 0, memory_order_relaxed);
	atomic_store_explicit(&pluginapi_safe_bytes_written, 0,
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
