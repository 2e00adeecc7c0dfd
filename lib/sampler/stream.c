/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream: the shared log file, chunk allocation and per-slot record
 * streams of libmapsampler (see the design notes in sampler_i.h).
 *
 * Chunk space comes from an atomic add on the file header's alloc_end, so
 * every process of the run appends to the same file without locks.  The
 * file grows by a one-byte pwrite at the end of each new chunk (never
 * shrinks, unlike ftruncate, so racing processes cannot cut each other
 * off).  The writer thread (writer.c) keeps SAMPLER_SPARES chunks mapped
 * ahead through stream_refill(), so the signal handler usually only
 * swaps a pointer, and pokes the writer through S.wake_fd when it took
 * one; when the spares run out the handler maps a chunk itself with raw
 * system calls.  Calls only lib/log's encoder and io.c's counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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
 * stream_refill() and taken by take_chunk(). */
static void *spare[SAMPLER_SPARES];

int stream_open_file(void)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, S.cfg.path,
			      O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* keep our descriptor out of the way of programs that expect low
	 * numbers or close ranges of them */
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
	if (hi >= 0) {
		syscall(SYS_close, fd);
		fd = hi;
	}
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
	S.fd = fd;
	S.hdr = h;
	return 0;
}

void stream_close_file(void)
{
	if (S.hdr) {
		for (int i = 0; i < SAMPLER_SPARES; i++) {
			void *c = __atomic_exchange_n(&spare[i], NULL,
						      __ATOMIC_ACQ_REL);
			if (c)
				sys_munmap(c, S.cfg.chunk_size);
		}
		sys_munmap(S.hdr, 4096);
		S.hdr = NULL;
	}
	if (S.fd >= 0)
		syscall(SYS_close, S.fd);
	S.fd = -1;
}

void *stream_new_chunk(void)
{
	if (!S.hdr)
		return NULL;
	uint64_t size = S.cfg.chunk_size;
	uint64_t off = __atomic_fetch_add(
		(uint64_t *)(S.hdr + MAPLOG_FH_ALLOC_END), size,
		__ATOMIC_SEQ_CST);
	static const char zero;
	io_own_pre(&io_own_bytes_written, 1);
	long w = io_own_post(&io_own_bytes_written, 1,
			     syscall(SYS_pwrite64, S.fd, &zero, 1,
				     (off_t)(off + size - 1)));
	if (w != 1)
		return NULL;
	void *p = sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   S.fd, (off_t)off);
	return p == MAP_FAILED ? NULL : p;
}

/* A mapped chunk: a spare if there is one, else a new mapping.
 * Async-signal-safe. */
static void *take_chunk(void)
{
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		void *c = __atomic_exchange_n(&spare[i], NULL,
					      __ATOMIC_ACQ_REL);
		if (c) {
			if (S.wake_fd >= 0) {
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

static int open_next(struct tslot *t, uint64_t ts)
{
	void *mem = take_chunk();
	if (!mem)
		return MAPS_ENOMEM;
	struct mapw_chunk_id id = {S.pid, (uint32_t)t->tid, S.image, t->seq++};
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

int stream_sample(struct tslot *t, uint64_t ts, uint64_t weight,
		  uint32_t npc, const uint64_t *pc)
{
	if (!t->have_chunk && open_next(t, ts))
		return MAPS_ENOMEM;
	int rc = mapw_sample(&t->chunk, ts, 0, weight, npc, pc);
	if (rc == MAPS_ENOSPC) {
		stream_seal(t);
		if (open_next(t, ts))
			return MAPS_ENOMEM;
		rc = mapw_sample(&t->chunk, ts, 0, weight, npc, pc);
	}
	return rc;
}

void stream_flush_drops(struct tslot *t)
{
	for (int r = 0; r < 6; r++) {
		uint64_t n = t->dropped[r] - t->dropped_done[r];
		if (!n)
			continue;
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_DROP;
		ev.ev_ts = now_ns();
		ev.ev_u.drop.dr_tid = (uint32_t)t->tid;
		ev.ev_u.drop.dr_reason = (uint32_t)r;
		ev.ev_u.drop.dr_count = n;
		if (stream_put(t, &ev) == 0)
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
	memset(t->dropped_done, 0, sizeof(t->dropped_done));
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
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		if (__atomic_load_n(&spare[i], __ATOMIC_ACQUIRE))
			continue;
		void *c = stream_new_chunk();
		if (!c)
			return;
		void *expect = NULL;
		if (!__atomic_compare_exchange_n(&spare[i], &expect, c, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			sys_munmap(c, S.cfg.chunk_size);
	}
}

void stream_forget_spares(void)
{
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		if (spare[i])
			sys_munmap(spare[i], S.cfg.chunk_size);
		spare[i] = NULL;
	}
}
