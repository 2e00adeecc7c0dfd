/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perfmap: the /tmp/perf-PID.map file of this process, copied into the
 * log at its end.
 *
 * JIT compilers (Node's --perf-basic-prof, Java's perf-map-agent, Python
 * 3.12's -X perf) name the code they make in /tmp/perf-PID.map, lines
 * "START SIZE name" (hex).  The writer thread looks for the file about
 * every 200 ms (perfmap_check()), and once it is there keeps a
 * descriptor open on it, so that a program that deletes the file before
 * it exits still has it read.  When the process closes its streams
 * (exit, exec, a fatal signal) perfmap_embed() looks once more and
 * copies the file into the process stream as FILE records of kind
 * "perf-map", in pieces that fit a chunk, up to PERFMAP_CAP bytes (the
 * last piece then says MAPLOG_FILE_CUT).  mapreport names the samples in
 * code no file maps from it, on any machine.
 *
 * Everything here uses raw system calls and static memory, no malloc and
 * no stdio: async-signal-safe (perfmap_embed() runs from the fatal
 * handler and _exit, under proc_lock).  The sampler's reads of the file
 * are kept out of the program's I/O counts (io_own).  Calls stream.c and
 * io.c below it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

/* The most of a perf map copied into the log (mapsample-log(5)). */
#define PERFMAP_CAP (16u << 20)
/* Bytes per FILE record: a quarter of the smallest chunk at most. */
#define PERFMAP_PIECE (16u << 10)

static int pm_fd = -1;          /* open on the map once seen */
static uint64_t pm_dev, pm_ino; /* what pm_fd is (fd_still()) */
static uint32_t pm_pid;         /* the process pm_fd was opened for */
static int pm_busy;             /* perfmap_check/embed at work */
static uint8_t pm_buf[PERFMAP_PIECE];

/* "/tmp/perf-PID.map" into buf (32 bytes).  Async-signal-safe. */
static void map_path(char *buf, uint32_t pid)
{
	char digits[12];
	int n = 0;
	do {
		digits[n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid);
	memcpy(buf, "/tmp/perf-", 10);
	int k = 10;
	while (n)
		buf[k++] = digits[--n];
	memcpy(buf + k, ".map", 5);
}

/* Opens the map of this process when there is one and pm_fd is not
 * already on it.  Caller holds pm_busy. */
static void look(void)
{
	if (pm_fd >= 0 && pm_pid == S.pid && fd_still(pm_fd, pm_dev, pm_ino))
		return;
	/* the program closed our descriptor or took its number: that
	 * number is the program's now, never closed by us */
	pm_fd = -1;
	char path[32];
	map_path(path, S.pid);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			      O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	struct stat st;
	/* a regular file owned by this user (not one someone else left in
	 * /tmp under our pid) */
	if (syscall(SYS_fstat, fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != (uid_t)syscall(SYS_geteuid)) {
		syscall(SYS_close, fd);
		return;
	}
	fd = fd_high(fd);
	pm_dev = (uint64_t)st.st_dev;
	pm_ino = (uint64_t)st.st_ino;
	pm_pid = S.pid;
	pm_fd = fd;
}

void perfmap_check(void)
{
	/* the writer may wake every few ms (metric intervals): look
	 * every 200 ms at most */
	static uint64_t last;
	uint64_t now = now_ns();
	if (now - last < 200000000u)
		return;
	last = now;
	if (__atomic_exchange_n(&pm_busy, 1, __ATOMIC_ACQUIRE))
		return;
	look();
	__atomic_store_n(&pm_busy, 0, __ATOMIC_RELEASE);
}

/* Appends one piece to the process stream. */
static int put_piece(uint64_t off, uint32_t len, uint32_t flags)
{
	char path[32];
	map_path(path, S.pid);
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_FILE;
	ev.ev_ts = now_ns();
	ev.ev_u.file.fi_pid = S.pid;
	ev.ev_u.file.fi_flags = flags;
	ev.ev_u.file.fi_offset = off;
	ev.ev_u.file.fi_kind = "perf-map";
	ev.ev_u.file.fi_name = path;
	ev.ev_u.file.fi_len = len;
	ev.ev_u.file.fi_data = pm_buf;
	return stream_put(&S.proc, &ev);
}

void perfmap_embed(void)
{
	/* the writer thread may be in look(): it is short and never
	 * blocks, so wait a little, then go without the copy */
	int tries = 0;
	while (__atomic_exchange_n(&pm_busy, 1, __ATOMIC_ACQUIRE)) {
		if (++tries > 1000)
			return;
		syscall(SYS_sched_yield);
	}
	look();
	if (pm_fd >= 0) {
		uint64_t off = 0;
		for (;;) {
			uint32_t want = PERFMAP_PIECE;
			if (off + want > PERFMAP_CAP)
				want = (uint32_t)(PERFMAP_CAP - off);
			io_own_pre(&io_own_bytes_read, (long)want);
			long n = io_own_post(&io_own_bytes_read, (long)want,
					     syscall(SYS_pread64, pm_fd,
						     pm_buf, want, off));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			uint32_t flags = 0;
			if (off + (uint64_t)n >= PERFMAP_CAP) {
				/* anything past the cap? */
				uint8_t one;
				if (syscall(SYS_pread64, pm_fd, &one, 1,
					    off + (uint64_t)n) == 1) {
					io_own(&io_own_bytes_read, 1);
					flags = MAPLOG_FILE_CUT;
				}
			}
			if (put_piece(off, (uint32_t)n, flags))
				break;
			off += (uint64_t)n;
			if (flags || off >= PERFMAP_CAP)
				break;
		}
		syscall(SYS_close, pm_fd);
		pm_fd = -1;
	}
	__atomic_store_n(&pm_busy, 0, __ATOMIC_RELEASE);
}

void perfmap_after_fork_child(void)
{
	/* the parent's map, not this process's */
	if (pm_fd >= 0 && fd_still(pm_fd, pm_dev, pm_ino))
		syscall(SYS_close, pm_fd);
	pm_fd = -1;
	pm_busy = 0;
}
