/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream: the shared log file, chunk allocation and per-slot record
 * streams of libmapsampler (see the design notes in sampler_i.h).
 *
 * Chunk space comes from an atomic add on the file header's alloc_end, so
 * every process of the run appends to the same file without locks.  The
 * file grows by fallocate(2) of each new chunk, mode 0: its blocks are
 * reserved before the chunk is mapped, so writes through the mapping
 * never meet a full file system (which would be SIGBUS), and the size
 * only ever grows to the chunk's end (never shrinks, unlike ftruncate,
 * so racing processes cannot cut each other off).  Where the file system
 * has no fallocate, zeros written over the chunk reserve it instead.
 * RLIMIT_FSIZE is checked first, as the kernel would send SIGXFSZ for a
 * file grown past it.  When the log cannot grow (ENOSPC, EFBIG, EDQUOT)
 * the process stops opening chunks for samples (they count as dropped),
 * keeps what is mapped for its end records and says so once on stderr.
 * Spares still unused when the writer stops (the process ends or execs)
 * get their blocks back (a punched hole reads as zeros: unused space), so a run of many
 * short processes does not fill the disk with reserved chunks, and when
 * they are the last space handed out, alloc_end goes back over them, so
 * the next process reuses it.  A process keeps one spare until it takes
 * it, then SAMPLER_SPARES.  Each
 * process holds a shared flock() on the log, which tells a new run that
 * the log is in use (lib/launch/logfile.c).  The writer thread (writer.c) keeps SAMPLER_SPARES chunks mapped
 * ahead through stream_refill(), so the signal handler usually only
 * swaps a pointer, and pokes the writer through S.wake_fd when it took
 * one; when the spares run out the handler maps a chunk itself with raw
 * system calls.  Calls only lib/log's encoder, io.c's counters and
 * lib/pluginapi's warnings.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

/* Raw system calls: no wrappers of ours or anyone's in between, and
 * usable from signal handlers. */
static void *sys_mmap(void *a, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	long r = syscall(SYS_mmap, a, len, prot, flags, fd, off);
	return r < 0 && r > -4096 ? MAP_FAILED : (void *)r;
}

static int sys_munmap(void *a, size_t len)
{
	return (int)syscall(SYS_munmap, a, len);
}

/* Spare chunks: a lock-free set of pre-mapped chunks, filled by
 * stream_refill() and taken by take_chunk(); spare_off: their offsets in
 * the log, set before the chunk is published. */
static void *spare[SAMPLER_SPARES];
static uint64_t spare_off[SAMPLER_SPARES];
/* A spare was taken: the process fills chunks, keep SAMPLER_SPARES.
 * Until then one is enough (most short processes never take it), and
 * each costs an fallocate, a mapping and, at the end, a punched hole. */
static int spares_needed;

/* Gives the blocks of an unused chunk at off back to the file system
 * (its bytes stay zeros, read as unused space; the size stays).
 * Async-signal-safe. */
static int log_fd(void);

static void release_space(uint64_t off)
{
	int fd = log_fd();
	if (fd < 0)
		return;
	(void)syscall(SYS_fallocate, fd,
		      FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
		      (off_t)S.cfg.chunk_size);
	/* the last space handed out: hand it out again (the next process
	 * of a script reuses it, and the log does not grow by the spares
	 * of every process); its bytes are zeros by now */
	if (S.hdr) {
		uint64_t *end = (uint64_t *)(S.hdr + MAPLOG_FH_ALLOC_END);
		uint64_t expect = off + S.cfg.chunk_size;
		__atomic_compare_exchange_n(end, &expect, off, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
}

int stream_open_file(void)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, S.cfg.path,
			      O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fd = fd_high(fd);
	/* the run's mark on its log: never waits, and the log is written
	 * the same without it */
	(void)syscall(SYS_flock, fd, LOCK_SH | LOCK_NB);
	uint8_t *h = sys_mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			      fd, 0);
	if (h == MAP_FAILED) {
		int e = errno;
		syscall(SYS_close, fd);
		return -e;
	}
	if (memcmp(h, MAPLOG_FILE_MAGIC, 8) ||
	    maplog_ld32(h + MAPLOG_FH_DATA_OFFSET) < MAPLOG_FILE_HEADER_SIZE) {
		sys_munmap(h, 4096);
		syscall(SYS_close, fd);
		return -EINVAL;
	}
	struct stat st;
	if (syscall(SYS_fstat, fd, &st) == 0) {
		S.fd_dev = (uint64_t)st.st_dev;
		S.fd_ino = (uint64_t)st.st_ino;
	}
	S.fd = fd;
	S.hdr = h;
	return 0;
}

/*
 * The log's descriptor, checked (fd_still()): when the program closed
 * ours or put a file of its own on its number, the number is forgotten
 * (never closed, written or mapped: it is the program's now) and the log
 * is opened again by its name, if the name still leads to our log, on a
 * number out of the program's way.  Returns the descriptor, or -1 (errno
 * EBADF) when the log cannot be reached any more.  Async-signal-safe.
 */
static int log_fd(void)
{
	int fd = __atomic_load_n(&S.fd, __ATOMIC_ACQUIRE);
	if (fd_still(fd, S.fd_dev, S.fd_ino))
		return fd;
	int nfd = (int)syscall(SYS_openat, AT_FDCWD, S.cfg.path,
			       O_RDWR | O_CLOEXEC);
	if (nfd < 0 || !fd_still(nfd, S.fd_dev, S.fd_ino)) {
		if (nfd >= 0)
			syscall(SYS_close, nfd);
		errno = EBADF;
		return -1;
	}
	nfd = fd_high(nfd);
	(void)syscall(SYS_flock, nfd, LOCK_SH | LOCK_NB);
	/* another thread may have opened it again at the same time */
	if (!__atomic_compare_exchange_n(&S.fd, &fd, nfd, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		syscall(SYS_close, nfd);
		return fd;
	}
	return nfd;
}

void stream_release_spares(void)
{
	/* the last filled first: the spares were handed out in order, so
	 * each can give its space back to the one before */
	for (int i = SAMPLER_SPARES - 1; i >= 0; i--) {
		void *c = __atomic_exchange_n(&spare[i], NULL, __ATOMIC_ACQ_REL);
		if (c) {
			sys_munmap(c, S.cfg.chunk_size);
			release_space(spare_off[i]);
		}
	}
}

void stream_close_file(void)
{
	if (S.hdr) {
		stream_release_spares();
		sys_munmap(S.hdr, 4096);
		S.hdr = NULL;
	}
	if (fd_still(S.fd, S.fd_dev, S.fd_ino))
		syscall(SYS_close, S.fd);
	S.fd = -1;
}

/* The errno that stopped the log from growing, 0 while it grows. */
static int grow_errno;

/* Fills [off, off + size) of the log with zeros (a file system without
 * fallocate: written blocks are allocated blocks).  Returns 0 or -errno.
 * Async-signal-safe. */
static long reserve_by_writing(int fd, uint64_t off, uint64_t size)
{
	static const uint8_t zeros[4096];
	struct iovec iov[64];
	for (int i = 0; i < 64; i++) {
		iov[i].iov_base = (void *)zeros;
		iov[i].iov_len = sizeof(zeros);
	}
	while (size > 0) {
		uint64_t n = size < sizeof(iov) / sizeof(iov[0]) * sizeof(zeros)
				     ? size
				     : sizeof(iov) / sizeof(iov[0]) *
					       sizeof(zeros);
		int cnt = (int)((n + sizeof(zeros) - 1) / sizeof(zeros));
		iov[cnt - 1].iov_len = n - (uint64_t)(cnt - 1) * sizeof(zeros);
		io_own_pre(&io_own_bytes_written, (long)n);
		long w = io_own_post(&io_own_bytes_written, (long)n,
				     syscall(SYS_pwritev, fd, iov, cnt,
					     (long)off, 0L));
		iov[cnt - 1].iov_len = sizeof(zeros);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -ENOSPC;
		off += (uint64_t)w;
		size -= (uint64_t)w;
	}
	return 0;
}

/* Makes [off, off + size) of the log real file space: blocks allocated,
 * the file at least off + size long.  Returns 0 or -errno (EFBIG past
 * RLIMIT_FSIZE, checked here so the kernel raises no SIGXFSZ).
 * Async-signal-safe. */
static long reserve(int fd, uint64_t off, uint64_t size)
{
	struct {
		uint64_t cur, max; /* the kernel's struct rlimit64 */
	} lim;
	if (syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, NULL, &lim) == 0 &&
	    lim.cur != ~(uint64_t)0 && off + size > lim.cur)
		return -EFBIG;
	long r;
	do
		r = syscall(SYS_fallocate, fd, 0, (off_t)off, (off_t)size);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	return reserve_by_writing(fd, off, size);
}

/* Why the log cannot grow, for the one line that says so. */
static const char *grow_reason(int e)
{
	switch (e) {
	case ENOSPC:
		return "no space left on its file system (ENOSPC)";
	case EFBIG:
		return "the file size limit (RLIMIT_FSIZE, ulimit -f) is "
		       "reached (EFBIG)";
	case EDQUOT:
		return "the disk quota is used up (EDQUOT)";
	case EBADF:
		return "the program closed the sampler's descriptor on it and "
		       "its name no longer leads to it (moved, removed, or a "
		       "relative name after a chdir)";
	default:
		return "it cannot grow";
	}
}

/* stream_new_chunk(), and the chunk's offset in *at. */
static void *new_chunk(uint64_t *at)
{
	if (!S.hdr || __atomic_load_n(&grow_errno, __ATOMIC_RELAXED))
		return NULL;
	uint64_t size = S.cfg.chunk_size;
	uint64_t *end = (uint64_t *)(S.hdr + MAPLOG_FH_ALLOC_END);
	int fd = log_fd();
	uint64_t off = __atomic_fetch_add(end, size, __ATOMIC_SEQ_CST);
	long r = fd < 0 ? -EBADF : reserve(fd, off, size);
	if (r < 0) {
		/* give the space back when no one took any after it, so the
		 * header does not promise more than the file holds */
		uint64_t expect = off + size;
		__atomic_compare_exchange_n(end, &expect, off, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		int none = 0;
		if (__atomic_compare_exchange_n(&grow_errno, &none, (int)-r, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			pluginapi_warn("%s: %s; pid %u records no more "
				       "samples (they are counted as dropped) "
				       "and runs on",
				       S.cfg.path, grow_reason((int)-r),
				       (unsigned)S.pid);
		return NULL;
	}
	void *p = sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   fd, (off_t)off);
	*at = off;
	return p == MAP_FAILED ? NULL : p;
}

void *stream_new_chunk(void)
{
	uint64_t off;
	return new_chunk(&off);
}

/* A mapped chunk: a spare if there is one, else a new mapping.
 * Async-signal-safe. */
static void *take_chunk(void)
{
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		void *c = __atomic_exchange_n(&spare[i], NULL,
					      __ATOMIC_ACQ_REL);
		if (c) {
			__atomic_store_n(&spares_needed, 1, __ATOMIC_RELAXED);
			/* not when the program took its number: the writer
			 * makes a new one, and wakes by itself meanwhile */
			if (fd_still(S.wake_fd, S.wake_dev, S.wake_ino)) {
				uint64_t one = 1;
				io_own_pre(&io_own_bytes_written, 8);
				io_own_post(&io_own_bytes_written, 8,
					    syscall(SYS_write, S.wake_fd,
						    &one, 8));
			}
			return c;
		}
	}
	return stream_new_chunk();
}

static uint32_t log_pid;	/* stream_log_pid() */

uint32_t stream_log_pid(void)
{
	return log_pid ? log_pid : S.pid;
}

/* The start time of this process (/proc/self/stat field 22, clock ticks
 * after boot; the same after an exec), or 0. */
static uint64_t start_ticks(void)
{
	char buf[1024];
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/stat",
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	long n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	io_own(&io_own_bytes_read, n);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	char *p = strrchr(buf, ')'); /* the name may hold anything */
	if (!p)
		return 0;
	/* fields 3 to 21 follow the name, then the start time */
	for (int f = 3; f <= 22 && *p; f++) {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	uint64_t v = 0;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (uint64_t)(*p++ - '0');
	return v;
}

/* The pid this process has in the log.  A process in another pid
 * namespace than the run's first process (the log header keeps that
 * namespace) has a pid another process of the run may have too
 * (unshare -p twice gives two pid 1s): its pid gets bits 22 and up
 * (pids stay below 2^22) from its namespace and its start time (the
 * kernel reuses a namespace's number once it is gone), so that the two
 * are two processes in the log.  Two such processes with one pid still
 * meet in 1 of 511.  Bit 31 stays clear: mapreport keys processes it had
 * to renumber from 2^31 up (MODEL_PID_REMAP). */
void stream_set_log_pid(void)
{
	log_pid = S.pid;
	struct stat st;
	if (!S.hdr || stat("/proc/self/ns/pid", &st) != 0)
		return;
	uint64_t *first = (uint64_t *)(S.hdr + MAPLOG_FH_PIDNS);
	uint64_t ns = (uint64_t)st.st_ino, expect = 0;
	if (__atomic_compare_exchange_n(first, &expect, ns, 0,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) ||
	    expect == ns)
		return;
	uint64_t h = (ns ^ start_ticks() * 0xff51afd7ed558ccdull) *
		     0x9e3779b97f4a7c15ull;
	log_pid = (uint32_t)(1 + (h >> 32) % 511) << 22 |
		  (S.pid & ((1u << 22) - 1));
}

static int open_next(struct tslot *t, uint64_t ts)
{
	void *mem = take_chunk();
	if (!mem)
		return MAPS_ENOMEM;
	struct mapw_chunk_id id = {stream_log_pid(), (uint32_t)t->tid, S.image,
				   t->seq++};
	int rc = mapw_chunk_open(&t->chunk, mem, S.cfg.chunk_size, &id, ts,
				 t->stabmem ? &t->stab : NULL);
	if (rc) {
		sys_munmap(mem, S.cfg.chunk_size);
		return rc;
	}
	t->have_chunk = 1;
	return 0;
}

void stream_seal(struct tslot *t)
{
	if (!t->have_chunk)
		return;
	mapw_chunk_seal(&t->chunk);
	sys_munmap(t->chunk.base, S.cfg.chunk_size);
	t->have_chunk = 0;
}

int stream_put(struct tslot *t, const struct maplog_ev *ev)
{
	if (!t->have_chunk && open_next(t, ev->ev_ts))
		return MAPS_ENOMEM;
	int rc = mapw_event(&t->chunk, ev);
	if (rc == MAPS_ENOSPC) {
		stream_seal(t);
		if (open_next(t, ev->ev_ts))
			return MAPS_ENOMEM;
		rc = mapw_event(&t->chunk, ev);
	}
	return rc;
}

/* Bytes a chunk keeps free for its slot's end records (a DROP record of
 * each reason, a few dozen bytes each) once the log cannot grow: data
 * (samples, marks) goes elsewhere or is counted lost, so that the counts
 * of what was lost reach the log. */
#define END_RESERVE 512

/* Whether data may go into t's open chunk: always while the log grows;
 * once it cannot (full), only while END_RESERVE bytes stay free.
 * Async-signal-safe. */
static int data_fits(const struct tslot *t, int full)
{
	return !full || mapw_chunk_room(&t->chunk) > END_RESERVE;
}

int stream_put_data(struct tslot *t, const struct maplog_ev *ev)
{
	int full = __atomic_load_n(&grow_errno, __ATOMIC_RELAXED) != 0;
	if (!t->have_chunk && (full || open_next(t, ev->ev_ts)))
		return MAPS_ENOMEM;
	if (!data_fits(t, full))
		return MAPS_ENOMEM;
	int rc = mapw_event(&t->chunk, ev);
	if (rc == MAPS_ENOSPC) {
		stream_seal(t);
		if (full || open_next(t, ev->ev_ts))
			return MAPS_ENOMEM;
		rc = mapw_event(&t->chunk, ev);
	}
	return rc;
}

int stream_sample(struct tslot *t, uint64_t ts, uint64_t weight,
		  uint32_t npc, const uint64_t *pc)
{
	/* once the log cannot grow, the chunks left are for the end
	 * records (drops, thread ends, close) */
	int full = __atomic_load_n(&grow_errno, __ATOMIC_RELAXED) != 0;
	if (!t->have_chunk && (full || open_next(t, ts)))
		return MAPS_ENOMEM;
	if (!data_fits(t, full))
		return MAPS_ENOMEM;
	int rc = mapw_sample(&t->chunk, ts, 0, weight, npc, pc);
	if (rc == MAPS_ENOSPC) {
		stream_seal(t);
		if (full || open_next(t, ts))
			return MAPS_ENOMEM;
		rc = mapw_sample(&t->chunk, ts, 0, weight, npc, pc);
	}
	return rc;
}

void stream_flush_drops(struct tslot *t)
{
	stream_flush_drops_to(t, t);
}

void stream_flush_drops_to(struct tslot *t, struct tslot *dest)
{
	for (int r = 0; r <= MAPLOG_DROP_MARK; r++) {
		uint64_t n = __atomic_load_n(&t->dropped[r], __ATOMIC_RELAXED) -
			     t->dropped_done[r];
		if (!n)
			continue;
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_DROP;
		ev.ev_ts = now_ns();
		ev.ev_u.drop.dr_tid = (uint32_t)t->tid;
		ev.ev_u.drop.dr_reason = (uint32_t)r;
		ev.ev_u.drop.dr_count = n;
		if (stream_put(dest, &ev) == 0)
			t->dropped_done[r] += n;
	}
}

int stream_slot_init(struct tslot *t, int tid)
{
	uint32_t cs = S.cfg.chunk_size;
	uint32_t nslots = 64;
	while (nslots < cs / 64)
		nslots *= 2;
	uint32_t frames = cs / 8;
	size_t sz = mapw_stab_size(nslots, frames);
	sz = (sz + 4095) & ~(size_t)4095;
	if (!t->stabmem || t->stabsize != sz) {
		if (t->stabmem)
			sys_munmap(t->stabmem, t->stabsize);
		void *m = sys_mmap(NULL, sz, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			t->stabmem = NULL;
			return -1;
		}
		t->stabmem = m;
		t->stabsize = sz;
	}
	mapw_stab_init(&t->stab, t->stabmem, nslots, frames);
	t->have_chunk = 0;
	t->seq = 0;
	t->samples = 0;
	memset(t->dropped, 0, sizeof(t->dropped));
	t->drops = 0;
	memset(t->sub_hint, 0, sizeof(t->sub_hint));
	memset(t->dropped_done, 0, sizeof(t->dropped_done));
	memset(t->dropped_told, 0, sizeof(t->dropped_told));
	(void)tid;
	return 0;
}

void stream_slot_forget(struct tslot *t)
{
	if (t->have_chunk)
		sys_munmap(t->chunk.base, S.cfg.chunk_size);
	t->have_chunk = 0;
}

void stream_proc_put(struct maplog_ev *ev)
{
	pthread_mutex_lock(&S.proc_lock);
	if (S.hdr)
		stream_put(&S.proc, ev);
	pthread_mutex_unlock(&S.proc_lock);
}

void stream_refill(void)
{
	int want = __atomic_load_n(&spares_needed, __ATOMIC_RELAXED)
			   ? SAMPLER_SPARES
			   : 1;
	for (int i = 0; i < want; i++) {
		if (__atomic_load_n(&spare[i], __ATOMIC_ACQUIRE))
			continue;
		uint64_t off;
		void *c = new_chunk(&off);
		if (!c)
			return;
		/* only the writer fills: slot i is empty until the CAS */
		spare_off[i] = off;
		void *expect = NULL;
		if (!__atomic_compare_exchange_n(&spare[i], &expect, c, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			sys_munmap(c, S.cfg.chunk_size);
			release_space(off);
		}
	}
}

void stream_forget_spares(void)
{
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		if (spare[i])
			sys_munmap(spare[i], S.cfg.chunk_size);
		spare[i] = NULL;
	}
	spares_needed = 0;
}
