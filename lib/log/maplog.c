/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libmaplog: the mapsample log parser (API in mapsample/maplog.h, layout
 * in maplog_format.h, user documentation in maplog(3) and mapsample-log(5)).
 * This file is the API, the state machine and the framing loop; the
 * record bodies, the input buffer and the CPU check are the files named
 * in maplog_i.h, which this one calls (never the other way round).
 *
 * API NOTES
 *   One state machine serves files and memory streams.  Bytes sit in one
 *   growable buffer (maplog_input.c): a file parser fills it with read(2)
 *   in large blocks, a memory parser with maplog_feed().  A chunk is decoded only once its
 *   whole payload is in the buffer (and, when sealed, its checksum
 *   matches), so records never straddle a refill and the payload is not
 *   moved while its records are being returned.
 *
 *   Phases: FILEHDR -> SKIP (padding) -> CHUNK -> PAYLOAD -> SKIP (unused
 *   capacity) -> CHUNK ...  Damage sends CHUNK to RESYNC, which looks at
 *   every 8-byte aligned offset for a chunk header whose own checksum
 *   holds.  A checksum mismatch loses exactly one chunk.  A stream that
 *   ends inside a chunk yields the chunk's whole records, then EOF with
 *   eof_truncated set.
 *
 *   Pointers handed out in events point into the buffer, the stack table
 *   or the scratch area, all of which stay put until the next read.
 *
 *   The common records are decoded by read_fast(), compiled twice: with
 *   BMI2's pext gathering the 7-bit groups of varints, for parsers opened
 *   on CPUs that run pext in hardware (maplog_cpu_pext()), and portable.
 *   maplog_read() jumps to the copy its parser chose at maplog_open().
 *   Nothing here is called from signal handlers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maplog_i.h"

static const uint64_t no_frames[1];

/* ------------------------------------------------------------------ */
/* Opening and closing */

maplog *maplog_open(int fd)
{
	maplog *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->fd = fd;
	p->phase = P_FILEHDR;
	p->pext = maplog_cpu_pext();
	/* A regular file is parsed in place from a mapping: no copy out of
	 * the page cache.  The parser then sees the file as it was at open
	 * time; pipes, files not read from their start, and files that
	 * cannot be mapped are read(2). */
	struct stat st;
	if (fd != MAPLOG_FD_NONE && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= SIZE_MAX) {
		void *m = lseek(fd, 0, SEEK_CUR) == 0
				  ? mmap(NULL, (size_t)st.st_size, PROT_READ,
					 MAP_PRIVATE | MAP_POPULATE, fd, 0)
				  : MAP_FAILED;
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			p->buf = m;
			p->bcap = p->bend = (size_t)st.st_size;
			p->mapped = 1;
			p->ended = 1;
			return p;
		}
	}
	if (fd != MAPLOG_FD_NONE) {
		p->fd_start = lseek(fd, 0, SEEK_CUR);
		if (p->fd_start < 0)
			p->fd_start = 0; /* a pipe: offsets count from here */
	}
	p->bcap = fd == MAPLOG_FD_NONE ? 4096 : 2 * READ_BLOCK;
	p->buf = malloc(p->bcap);
	if (!p->buf) {
		free(p);
		return NULL;
	}
	return p;
}

void maplog_close(maplog *p)
{
	if (!p)
		return;
	if (p->mapped)
		munmap(p->buf, p->bcap);
	else
		free(p->buf);
	free(p->s_off);
	free(p->s_n);
	free(p->fr);
	free(p->sc);
	free(p->argv);
	free(p);
}

int maplog_error(const maplog *p)
{
	return p ? p->last_error : MAPS_EINVAL;
}

int maplog_stats(const maplog *p, struct maplog_stats *st)
{
	if (!p || !st)
		return MAPS_EINVAL;
	*st = p->st;
	return 0;
}

static const char *const type_names[MAPLOG_TYPE_MAX_] = {
	[MAPLOG_TYPE_INITIALIZE] = "initialize",
	[MAPLOG_TYPE_METRIC_DEF] = "metric-def",
	[MAPLOG_TYPE_PLUGIN_ERROR] = "plugin-error",
	[MAPLOG_TYPE_METRIC_ERROR] = "metric-error",
	[MAPLOG_TYPE_MAP_IN] = "map-in",
	[MAPLOG_TYPE_MAP_OUT] = "map-out",
	[MAPLOG_TYPE_THREAD_BEGIN] = "thread-begin",
	[MAPLOG_TYPE_THREAD_END] = "thread-end",
	[MAPLOG_TYPE_PROC_FORK] = "proc-fork",
	[MAPLOG_TYPE_PROC_EXEC] = "proc-exec",
	[MAPLOG_TYPE_PROC_EXIT] = "proc-exit",
	[MAPLOG_TYPE_SAMPLE] = "sample",
	[MAPLOG_TYPE_STACK] = "stack",
	[MAPLOG_TYPE_METRIC_VALUE] = "metric-value",
	[MAPLOG_TYPE_DROP] = "drop",
	[MAPLOG_TYPE_MARK] = "mark",
	[MAPLOG_TYPE_CLOSE] = "close",
	[MAPLOG_TYPE_JOB] = "job",
	[MAPLOG_TYPE_MPI_CALLS] = "mpi-calls",
	[MAPLOG_TYPE_MANIFEST] = "manifest",
	[MAPLOG_TYPE_FILE] = "file",
	[MAPLOG_TYPE_THREAD_NAME] = "thread-name",
};

const char *maplog_type_name(int type)
{
	if (type > 0 && type < MAPLOG_TYPE_MAX_ && type_names[type])
		return type_names[type];
	return "unknown";
}

/* ------------------------------------------------------------------ */
/* Events */

static void ev_reset(struct maplog_ev *ev, enum maplog_state st)
{
	ev->ev_state = st;
	ev->ev_type = MAPLOG_TYPE_NONE;
	ev->ev_error = 0;
	ev->ev_ts = 0;
	ev->ev_pid = ev->ev_tid = ev->ev_image = ev->ev_chunk_seq = 0;
}

static int ret_need(maplog *p, struct maplog_ev *ev)
{
	ev_reset(ev, MAPLOG_REQUIRE_DATA);
	ev->ev_offset = cur_off(p) + avail(p);
	ev->ev_count = p->st.st_records;
	return -1;
}

static int ret_eof(maplog *p, struct maplog_ev *ev, int truncated,
		   uint64_t dropped, uint64_t missing, uint64_t at)
{
	if (p->fd == MAPLOG_FD_NONE && !p->ended)
		return ret_need(p, ev);
	if (p->phase == P_DONE) {
		truncated = p->eof.eof_truncated;
		dropped = p->eof.eof_dropped;
		missing = p->eof.eof_missing;
		at = p->eof_at;
	} else {
		p->phase = P_DONE;
		p->eof_at = at;
		p->eof.eof_truncated = truncated;
		p->eof.eof_dropped = dropped;
		p->eof.eof_missing = missing;
	}
	ev_reset(ev, MAPLOG_EOF);
	ev->ev_offset = at;
	ev->ev_count = p->st.st_records;
	memset(&ev->ev_u.eof, 0, sizeof(ev->ev_u.eof));
	ev->ev_u.eof.eof_truncated = truncated;
	ev->ev_u.eof.eof_dropped = dropped;
	ev->ev_u.eof.eof_missing = missing;
	if (truncated) {
		p->st.st_truncated = 1;
		p->st.st_truncated_bytes = dropped + missing;
	}
	return -1;
}

static int ret_error(maplog *p, struct maplog_ev *ev, int code, uint64_t at,
		     uint64_t length)
{
	ev_reset(ev, MAPLOG_ERROR);
	ev->ev_error = code;
	ev->ev_offset = at;
	ev->ev_count = p->st.st_records;
	ev->ev_u.error.er_length = length;
	p->last_error = code;
	if (code != MAPS_EIO && code != MAPS_ENOMEM)
		p->st.st_damaged++;
	return -1;
}


/* ------------------------------------------------------------------ */
/* Stack table */

/* The decoders of parsers with p->pext are compiled for CPUs with BMI1
 * and BMI2 (andn, blsmsk, shlx...), which maplog_cpu_pext() requires */
#if MAPLOG_HAVE_PEXT
#define PEXT_TARGET __attribute__((target("bmi,bmi2")))
#else
#define PEXT_TARGET
#endif

/* Room for one more stack id; 0 or MAPS_ENOMEM. */
static int stack_room(maplog *p)
{
	if (p->s_count < p->s_cap)
		return 0;
	uint32_t cap = p->s_cap ? p->s_cap * 2 : 256;
	uint32_t *o = realloc(p->s_off, cap * sizeof(*o));
	if (!o)
		return MAPS_ENOMEM;
	p->s_off = o;
	uint32_t *nn = realloc(p->s_n, cap * sizeof(*nn));
	if (!nn)
		return MAPS_ENOMEM;
	p->s_n = nn;
	p->s_cap = cap;
	return 0;
}

/* The n frame deltas of a STACK record, the first from leaf, into out;
 * 0 or -1.  how: maplog_varint_core's (MAPLOG_V_LATE only when 10 bytes
 * per frame can be loaded; the caller then compares *pp with e). */
static inline __attribute__((always_inline)) int
frame_deltas(const uint8_t **pp, const uint8_t *e, const uint8_t *lim,
	     uint64_t *out, uint64_t n, uint64_t leaf, const int how)
{
	const uint8_t *q = *pp;
	uint64_t prev = leaf;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t z;
		if (maplog_varint_core(&q, e, lim, &z, how))
			return -1;
		prev += (uint64_t)maplog_unzigzag(z);
		out[i] = prev;
	}
	*pp = q;
	return 0;
}

/* STACK body: base id (0: none), frames dropped from base's leaf end,
 * n new frames (zigzag deltas, the first from the previous STACK's leaf).
 * The stack is the new frames followed by base[drop..].  px is 0 or
 * MAPLOG_V_PEXT: add_stack() and add_stack_pext() are its two copies. */
static inline __attribute__((always_inline)) int
add_stack_how(maplog *p, struct in *r, const int px)
{
	uint64_t base = get_u_how(r, px);
	uint64_t drop = get_u_how(r, MAPLOG_V_BYTE1 | px);
	uint64_t n = get_u_how(r, MAPLOG_V_BYTE1 | px);
	if (r->bad || base > p->s_count || n > MAPLOG_MAX_FRAMES)
		return MAPS_EBADRECORD;
	uint64_t bn = base ? p->s_n[base - 1] : 0;
	if (bn == VOID_STACK || drop > bn)
		return MAPS_EBADRECORD;
	uint64_t keep = bn - drop;
	if (n + keep > MAPLOG_MAX_FRAMES || n > (uint64_t)(r->e - r->p))
		return MAPS_EBADRECORD;
	if (stack_room(p))
		return MAPS_ENOMEM;
	/* A STACK record of a few bytes may copy thousands of its base's
	 * frames: bound what one chunk can make the reader hold, to its
	 * payload size plus 1 Mi frames (8 MiB), far above what the sampler
	 * writes (at most nslots/2 stacks of at most 512 frames). */
	size_t need = p->fr_used + n + keep;
	if (need > UINT32_MAX || need > (size_t)p->c_used + MAPLOG_CHUNK_FRAMES)
		return MAPS_EBADRECORD;
	if (need > p->fr_cap || !p->fr) {
		/* allocated even for an empty stack: no arithmetic on NULL */
		size_t cap = p->fr_cap ? p->fr_cap : 4096;
		while (cap < need)
			cap *= 2;
		uint64_t *f = realloc(p->fr, cap * sizeof(*f));
		if (!f)
			return MAPS_ENOMEM;
		p->fr = f;
		p->fr_cap = cap;
	}
	uint64_t *out = p->fr + p->fr_used;
	/* the cursor in a local: through r it went to memory and back on
	 * every frame (out[] may alias it, as far as the compiler knows) */
	const uint8_t *q = r->p;
	const uint8_t *const e = r->e, *const lim = r->lim;
	/* with 10 loadable bytes per frame (nearly always: lim is the end of
	 * the buffer), end checks once after the frames (MAPLOG_V_LATE) */
	if ((uint64_t)(lim - q) >= 10 * n) {
		if (frame_deltas(&q, e, lim, out, n, p->leaf,
				 MAPLOG_V_LATE | px) ||
		    q > e)
			return MAPS_EBADRECORD;
	} else if (frame_deltas(&q, e, lim, out, n, p->leaf, px)) {
		return MAPS_EBADRECORD;
	}
	r->p = q;
	if (n)
		p->leaf = out[0];
	if (keep)
		memcpy(out + n, p->fr + p->s_off[base - 1] + drop,
		       keep * sizeof(*out));
	p->s_off[p->s_count] = (uint32_t)p->fr_used;
	p->s_n[p->s_count] = (uint32_t)(n + keep);
	p->s_count++;
	p->fr_used = need;
	return 0;
}

static __attribute__((noinline)) int add_stack(maplog *p, struct in *r)
{
	return add_stack_how(p, r, 0);
}

/* add_stack() for parsers with p->pext */
static __attribute__((noinline)) PEXT_TARGET int add_stack_pext(maplog *p,
								 struct in *r)
{
	return add_stack_how(p, r, MAPLOG_V_PEXT);
}

/* Takes the next stack id for a STACK record that did not decode, so
 * that the ids after it still match; samples naming it are damage. */
static void add_void_stack(maplog *p)
{
	if (stack_room(p))
		return;
	p->s_off[p->s_count] = 0;
	p->s_n[p->s_count] = VOID_STACK;
	p->s_count++;
}

/* ------------------------------------------------------------------ */
/* Chunks */

static void chunk_done(maplog *p)
{
	/* bpos is the chunk start; step over header, payload and the
	 * unused capacity */
	size_t in_buf = p->r_end - p->bpos;
	consume(p, in_buf);
	uint64_t total = p->c_cap;
	p->skip = total > in_buf ? total - in_buf : 0;
	p->phase = P_SKIP;
}

static int is_chunk_header(const uint8_t *h)
{
	if (maplog_ld32(h + MAPLOG_CH_MAGIC) != MAPLOG_CHUNK_MAGIC)
		return 0;
	if (maplog_ld32(h + MAPLOG_CH_HCRC) !=
	    maplog_crc32c(0, h, MAPLOG_CH_HCRC))
		return 0;
	uint32_t cap = maplog_ld32(h + MAPLOG_CH_CAPACITY);
	return cap >= MAPLOG_CHUNK_HEADER_SIZE && !(cap & 7) &&
	       cap <= MAPLOG_MAX_CHUNK;
}

/*
 * Looks for the next good chunk header at any byte offset (damage may
 * insert or remove bytes, shifting everything after it off the 8-byte
 * grid): the magic's first byte with memchr, then the whole header and
 * its checksum.
 */
static int resync(maplog *p, struct maplog_ev *ev)
{
	static const uint8_t first = (uint8_t)(MAPLOG_CHUNK_MAGIC & 0xff);
	for (;;) {
		while (avail(p) >= MAPLOG_CHUNK_HEADER_SIZE) {
			const uint8_t *b = p->buf + p->bpos;
			size_t room = avail(p) - MAPLOG_CHUNK_HEADER_SIZE + 1;
			const uint8_t *hit = memchr(b, first, room);
			size_t skip = hit ? (size_t)(hit - b) : room;
			consume(p, skip);
			p->st.st_skipped_bytes += skip;
			if (!hit)
				break;
			if (is_chunk_header(p->buf + p->bpos)) {
				p->phase = P_CHUNK;
				return 1;
			}
			consume(p, 1);
			p->st.st_skipped_bytes += 1;
		}
		int rc = maplog_ensure(p, MAPLOG_CHUNK_HEADER_SIZE);
		if (rc < 0)
			return ret_error(p, ev, rc, cur_off(p), 0);
		if (rc == 0)
			break;
	}
	if (p->fd == MAPLOG_FD_NONE && !p->ended)
		return ret_need(p, ev);
	/* the damage ran to the end of the stream */
	p->st.st_skipped_bytes += avail(p);
	consume(p, avail(p));
	return ret_eof(p, ev, 0, 0, 0, cur_off(p));
}

static int file_header(maplog *p, struct maplog_ev *ev)
{
	int rc = maplog_ensure(p, MAPLOG_FILE_HEADER_SIZE);
	if (rc < 0)
		return ret_error(p, ev, rc, 0, 0);
	if (rc == 0) {
		if (!p->ended)
			return ret_need(p, ev);
		size_t a = avail(p);
		if (a && memcmp(p->buf + p->bpos, MAPLOG_FILE_MAGIC,
				a < 8 ? a : 8)) {
			p->phase = P_FATAL;
			p->fatal_error = MAPS_EMAGIC;
			return ret_error(p, ev, MAPS_EMAGIC, 0, 0);
		}
		return ret_eof(p, ev, a > 0, a, 0, 0);
	}
	const uint8_t *h = p->buf + p->bpos;
	if (memcmp(h + MAPLOG_FH_MAGIC, MAPLOG_FILE_MAGIC, 8)) {
		p->phase = P_FATAL;
		p->fatal_error = MAPS_EMAGIC;
		return ret_error(p, ev, MAPS_EMAGIC, 0, 0);
	}
	uint32_t crc = maplog_ld32(h + MAPLOG_FH_CRC);
	uint32_t doff = maplog_ld32(h + MAPLOG_FH_DATA_OFFSET);
	if (crc != maplog_crc32c(0, h, MAPLOG_FH_CRC) ||
	    doff < MAPLOG_FILE_HEADER_SIZE || doff > MAPLOG_MAX_DATA_OFFSET ||
	    (doff & 7)) {
		/* header damaged: look for chunks after it */
		consume(p, MAPLOG_FILE_HEADER_SIZE);
		p->phase = P_RESYNC;
		return ret_error(p, ev, MAPS_ECHECKSUM, 0,
				 MAPLOG_FILE_HEADER_SIZE);
	}
	p->st.st_version_major = maplog_ld16(h + MAPLOG_FH_VMAJOR);
	p->st.st_version_minor = maplog_ld16(h + MAPLOG_FH_VMINOR);
	if (p->st.st_version_major != MAPLOG_VERSION_MAJOR) {
		p->phase = P_FATAL;
		p->fatal_error = MAPS_EVERSION;
		return ret_error(p, ev, MAPS_EVERSION, MAPLOG_FH_VMAJOR, 0);
	}
	consume(p, MAPLOG_FILE_HEADER_SIZE);
	p->skip = doff - MAPLOG_FILE_HEADER_SIZE;
	p->phase = P_SKIP;
	return 1;
}

/* Starts the chunk at bpos; returns 1 to go on decoding, or an event. */
static int chunk_begin(maplog *p, struct maplog_ev *ev)
{
	int rc = maplog_ensure(p, MAPLOG_CHUNK_HEADER_SIZE);
	if (rc < 0)
		return ret_error(p, ev, rc, cur_off(p), 0);
	if (rc == 0) {
		if (!p->ended)
			return ret_need(p, ev);
		const uint8_t *h = p->buf + p->bpos;
		size_t a = avail(p), i = 0;
		while (i < a && h[i] == 0)
			i++;
		uint64_t at = cur_off(p);
		consume(p, a);
		if (i == a) /* only unused zero space remains */
			return ret_eof(p, ev, 0, 0, 0, at + a);
		/* a cut-off chunk header: it starts where the zeros end, which
		 * does not depend on how the bytes arrived */
		return ret_eof(p, ev, 1, a - i, MAPLOG_CHUNK_HEADER_SIZE - (a - i),
			       at + i);
	}
	const uint8_t *h = p->buf + p->bpos;
	if (maplog_ld64(h) == 0) {
		/* unused space: a chunk reserved but never started */
		size_t a = avail(p) & ~(size_t)7, i = 8;
		while (i + 8 <= a && maplog_ld64(h + i) == 0)
			i += 8;
		consume(p, i);
		return 1;
	}
	uint64_t at = cur_off(p);
	if (maplog_ld32(h + MAPLOG_CH_MAGIC) != MAPLOG_CHUNK_MAGIC) {
		/* resync looks from the next byte: a chunk may start there */
		p->phase = P_RESYNC;
		consume(p, 1);
		p->st.st_skipped_bytes += 1;
		return ret_error(p, ev, MAPS_EGARBAGE, at, 0);
	}
	if (!is_chunk_header(h)) {
		int code = maplog_ld32(h + MAPLOG_CH_HCRC) !=
					   maplog_crc32c(0, h, MAPLOG_CH_HCRC)
				   ? MAPS_ECHECKSUM
				   : MAPS_EBADSIZE;
		p->phase = P_RESYNC;
		consume(p, 1);
		p->st.st_skipped_bytes += 1;
		return ret_error(p, ev, code, at, MAPLOG_CHUNK_HEADER_SIZE);
	}
	p->c_off = at;
	p->c_cap = maplog_ld32(h + MAPLOG_CH_CAPACITY);
	p->c_pid = maplog_ld32(h + MAPLOG_CH_PID);
	p->c_tid = maplog_ld32(h + MAPLOG_CH_TID);
	p->c_image = maplog_ld32(h + MAPLOG_CH_IMAGE);
	p->c_seq = maplog_ld32(h + MAPLOG_CH_SEQ);
	p->ts = maplog_ld64(h + MAPLOG_CH_BASE_TS);
	uint32_t flags = maplog_ld32(h + MAPLOG_CH_FLAGS);
	p->c_used = maplog_ld32(h + MAPLOG_CH_USED);
	if (p->c_used > p->c_cap - MAPLOG_CHUNK_HEADER_SIZE) {
		p->r_end = p->bpos + MAPLOG_CHUNK_HEADER_SIZE;
		p->st.st_skipped_bytes += p->c_cap;
		chunk_done(p);
		return ret_error(p, ev, MAPS_EBADSIZE, at, p->c_cap);
	}
	size_t whole = MAPLOG_CHUNK_HEADER_SIZE + (size_t)p->c_used;
	rc = maplog_ensure(p, whole);
	if (rc < 0)
		return ret_error(p, ev, rc, at, 0);
	if (rc == 0 && !p->ended)
		return ret_need(p, ev);
	h = p->buf + p->bpos; /* maplog_ensure may have moved it */
	p->c_partial = rc == 0;
	p->c_missing = p->c_partial ? whole - avail(p) : 0;
	size_t have = p->c_partial ? avail(p) : whole;
	if ((flags & MAPLOG_CHUNK_SEALED) && !p->c_partial) {
		uint32_t crc = maplog_ld32(h + MAPLOG_CH_PCRC);
		if (crc != maplog_crc32c(0, h + MAPLOG_CHUNK_HEADER_SIZE,
					 p->c_used)) {
			p->r_end = p->bpos + whole;
			p->st.st_skipped_bytes += p->c_cap;
			chunk_done(p);
			return ret_error(p, ev, MAPS_ECHECKSUM, at, p->c_cap);
		}
	} else if (!(flags & MAPLOG_CHUNK_SEALED)) {
		p->st.st_open_chunks++;
	}
	p->st.st_chunks++;
	p->r_pos = p->bpos + MAPLOG_CHUNK_HEADER_SIZE;
	p->r_end = p->bpos + have;
	p->leaf = 0;
	p->s_count = 0;
	p->fr_used = 0;
	p->phase = P_PAYLOAD;
	return 1;
}

/* The end of the records of the current chunk. */
static int payload_end(maplog *p, struct maplog_ev *ev, size_t rec)
{
	if (p->c_partial) {
		uint64_t at = p->boff + rec;
		uint64_t dropped = p->r_end - rec;
		consume(p, p->r_end - p->bpos);
		return ret_eof(p, ev, 1, dropped, p->c_missing, at);
	}
	chunk_done(p);
	return 1;
}

/* Returns 0 with a record in ev, 1 to go on, or -1 with an event.  The
 * common records are decoded by maplog_read()'s own loop first; this
 * decodes any record (again, for those that loop left: damaged ones). */
static int payload(maplog *p, struct maplog_ev *ev)
{
	const uint8_t *buf = p->buf;
	while (p->r_pos < p->r_end) {
		size_t rec = p->r_pos;
		const uint8_t *q = buf + rec + 1;
		const uint8_t *end = buf + p->r_end;
		int type = buf[rec];
		uint64_t len;
		if (maplog_get_varint_lim(&q, end, buf + p->bend, &len) ||
		    len > (uint64_t)(end - q)) {
			if (p->c_partial)
				return payload_end(p, ev, rec);
			uint64_t at = p->boff + rec;
			uint64_t lost = p->r_end - rec;
			p->st.st_skipped_bytes += lost;
			chunk_done(p);
			return ret_error(p, ev, MAPS_EBADRECORD, at, lost);
		}
		struct in r = {q, q + len, buf + p->bend, 0};
		p->r_pos = (size_t)(r.e - buf);
		uint64_t dz = get_u_how(&r, MAPLOG_V_BYTE1 | MAPLOG_V_SHORT);
		if (r.bad) {
			p->st.st_skipped_bytes += (uint64_t)(r.e - buf) - rec;
			return ret_error(p, ev, MAPS_EBADRECORD, p->boff + rec,
					 (uint64_t)(r.e - buf) - rec);
		}
		p->ts += (uint64_t)maplog_unzigzag(dz);

		if (type == MAPLOG_TYPE_SAMPLE) {
			/* one or two bytes, depending on where the stack
			 * was defined in the chunk */
			uint64_t sid = get_u_how(&r, MAPLOG_V_SHORT);
			uint64_t weight =
				get_u_how(&r, MAPLOG_V_BYTE1 | MAPLOG_V_SHORT);
			uint64_t tid = p->c_tid;
			if (r.p < r.e)
				tid = get_u(&r);
			if (r.bad || sid > p->s_count || tid > UINT32_MAX ||
			    (sid && p->s_n[sid - 1] == VOID_STACK)) {
				p->st.st_skipped_bytes +=
					(uint64_t)(r.e - buf) - rec;
				return ret_error(p, ev,
						 r.bad ? MAPS_EBADRECORD
						       : MAPS_EBADSTACK,
						 p->boff + rec,
						 (uint64_t)(r.e - buf) - rec);
			}
			struct maplog_ev_sample *s = &ev->ev_u.sample;
			s->sa_tid = (uint32_t)tid;
			s->sa_weight = weight;
			s->sa_stack = (uint32_t)sid;
			if (sid) {
				s->sa_npc = p->s_n[sid - 1];
				s->sa_pc = p->fr + p->s_off[sid - 1];
			} else {
				s->sa_npc = 0;
				s->sa_pc = no_frames;
			}
			p->st.st_samples++;
		} else if (type == MAPLOG_TYPE_STACK) {
			int rc = add_stack(p, &r);
			if (rc) {
				/* keep later ids in step: this id is void */
				add_void_stack(p);
				p->st.st_skipped_bytes +=
					(uint64_t)(r.e - buf) - rec;
				return ret_error(p, ev, rc, p->boff + rec,
						 (uint64_t)(r.e - buf) - rec);
			}
			continue;
		} else if (type <= 0 || type >= MAPLOG_TYPE_MAX_) {
			p->st.st_unknown++;
			continue;
		} else {
			int rc = maplog_decode_body(p, type, &r, ev);
			if (rc == MAPS_EINVAL) {
				/* a number below MAPLOG_TYPE_MAX_ that this
				 * parser has no body for: skipped as unknown */
				p->st.st_unknown++;
				continue;
			}
			if (rc) {
				p->st.st_skipped_bytes +=
					(uint64_t)(r.e - buf) - rec;
				return ret_error(p, ev, rc, p->boff + rec,
						 (uint64_t)(r.e - buf) - rec);
			}
		}
		ev->ev_state = MAPLOG_OK;
		ev->ev_type = (enum maplog_type)type;
		ev->ev_error = 0;
		ev->ev_offset = p->boff + rec;
		ev->ev_count = ++p->st.st_records;
		ev->ev_ts = p->ts;
		ev->ev_pid = p->c_pid;
		ev->ev_tid = p->c_tid;
		ev->ev_image = p->c_image;
		ev->ev_chunk_seq = p->c_seq;
		return 0;
	}
	return payload_end(p, ev, p->r_pos);
}

/* maplog_read() for all but the common records: the phases, damage,
 * the rare record types. */
static __attribute__((noinline)) int read_slow(maplog *p,
					       struct maplog_ev *ev)
{
	for (;;) {
		int rc;
		switch (p->phase) {
		case P_FATAL:
			/* reported (and counted) once already */
			p->st.st_damaged--;
			return ret_error(p, ev, p->fatal_error, 0, 0);
		case P_DONE:
			return ret_eof(p, ev, 0, 0, 0, 0);
		case P_FILEHDR:
			rc = file_header(p, ev);
			break;
		case P_SKIP:
			rc = maplog_skip(p);
			if (rc < 0)
				return ret_error(p, ev, rc, cur_off(p), 0);
			if (rc == 0) {
				if (p->fd == MAPLOG_FD_NONE && !p->ended)
					return ret_need(p, ev);
				/* unused capacity may run past the end */
				return ret_eof(p, ev, 0, 0, 0, cur_off(p));
			}
			p->phase = P_CHUNK;
			continue;
		case P_CHUNK:
			rc = chunk_begin(p, ev);
			break;
		case P_PAYLOAD:
			rc = payload(p, ev);
			if (rc == 0)
				return 0;
			break;
		case P_RESYNC:
			rc = resync(p, ev);
			break;
		default:
			return -1;
		}
		if (rc < 0)
			return -1;
	}
}

/* A STACK record met by maplog_read()'s loop that did not decode. */
static __attribute__((noinline)) int stack_bad(maplog *p,
					       struct maplog_ev *ev, int rc,
					       size_t rec)
{
	/* keep later ids in step: this id is void */
	add_void_stack(p);
	p->st.st_skipped_bytes += p->r_pos - rec;
	return ret_error(p, ev, rc, p->boff + rec, p->r_pos - rec);
}

/* Bytes from a record's start that read_fast() may load (at most 5
 * varints from rec + 1, so the last starts by rec + 41 and 8 bytes are
 * loaded there): it leaves the records closer than that to the end of
 * the buffer to read_slow() */
#define FAST_ROOM 64

/* read_fast()'s returns besides 0: a STACK record to decode, a record
 * for read_slow() */
#define FAST_STACK 1
#define FAST_SLOW 2

/*
 * Samples, stacks and metric values, nearly all of a log, are framed in
 * this small piece of code, which needs no phase dispatch and calls
 * nothing (read_slow() and read_stacks_*() are tail calls of its
 * callers), so that a sample or a metric value costs the saving of few
 * registers, if any: with add_stack() called from here, gcc 12 saved six
 * registers and spilled two values for every record.  Returns 0 with ev
 * filled; FAST_STACK for a STACK record, whose fields (p->k_body up to p->r_pos, the record at p->k_rec) are for
 * fast_stack(); FAST_SLOW for a record it does not take (other types, a
 * varint longer than 8 bytes, anything that does not decode), left
 * untouched to read_slow(), which decodes it again and reports damage.
 * px is 0 or MAPLOG_V_PEXT: it is compiled once for each, and
 * maplog_read() picks one per call.
 */
static inline __attribute__((always_inline)) int
read_fast(maplog *p, struct maplog_ev *ev, const int px)
{
	const uint8_t *const buf = p->buf;
	const uint8_t *const lim = buf + p->bend;
	const uint8_t *const end = buf + p->r_end;
	/* the varints are read with MAPLOG_V_LATE (see FAST_ROOM), and r.p
	 * compared with r.e after each group of fields; without the byte
	 * loop for long ones (MAPLOG_V_SHORTONLY), fewer registers */
	const int lt = MAPLOG_V_LATE | MAPLOG_V_SHORTONLY | px;
	do {
		const uint8_t *rec = buf + p->r_pos;
		if (rec >= end || lim - rec < FAST_ROOM)
			break;
		const uint8_t *q = rec + 1;
		uint64_t len;
		if (maplog_varint_core(&q, end, lim, &len,
				       MAPLOG_V_BYTE1 | lt) ||
		    q > end || len > (uint64_t)(end - q))
			break;
		struct in r = {q, q + len, lim, 0};
		uint64_t dz = get_u_how(&r, MAPLOG_V_BYTE1 | MAPLOG_V_SHORT | lt);
		if (r.bad || r.p > r.e)
			break;
		int type = rec[0];
		/* results go to ev as soon as they are known, which frees
		 * registers: ev is the caller's, and read_slow() fills it
		 * again for a record left to it */
		ev->ev_ts = p->ts + (uint64_t)maplog_unzigzag(dz);
		ev->ev_offset = p->boff + (size_t)(rec - buf);
		if (type == MAPLOG_TYPE_SAMPLE) {
			uint64_t sid = get_u_how(&r, MAPLOG_V_SHORT | lt);
			ev->ev_u.sample.sa_weight = get_u_how(
				&r, MAPLOG_V_BYTE1 | MAPLOG_V_SHORT | lt);
			uint64_t tid = p->c_tid;
			if (r.p < r.e)
				tid = get_u_how(&r, MAPLOG_V_BYTE1 | lt);
			if (r.bad || r.p > r.e || sid > p->s_count ||
			    tid > UINT32_MAX)
				break;
			uint32_t npc = 0;
			const uint64_t *pc = no_frames;
			if (sid) {
				npc = p->s_n[sid - 1];
				if (npc == VOID_STACK)
					break;
				pc = p->fr + p->s_off[sid - 1];
			}
			p->st.st_samples++;
			struct maplog_ev_sample *s = &ev->ev_u.sample;
			s->sa_tid = (uint32_t)tid;
			s->sa_npc = npc;
			s->sa_pc = pc;
			s->sa_stack = (uint32_t)sid;
		} else if (type == MAPLOG_TYPE_METRIC_VALUE) {
			/* no strings: no scratch area, unlike maplog_decode_body() */
			uint64_t index = get_u_how(&r, MAPLOG_V_BYTE1 | lt);
			uint64_t kind = get_u_how(&r, MAPLOG_V_BYTE1 | lt);
			uint64_t v = 0;
			if (kind == MAPLOG_VALUE_U64) {
				v = get_u_how(&r, MAPLOG_V_BYTE1 | lt);
			} else if (kind == MAPLOG_VALUE_DOUBLE) {
				if (r.e - r.p < 8) /* also when r.p > r.e */
					break;
				v = maplog_ld64(r.p);
			} else if (kind != MAPLOG_VALUE_NONE) {
				break;
			}
			if (r.bad || r.p > r.e || index > UINT32_MAX)
				break;
			struct maplog_ev_metric_value *m = &ev->ev_u.mval;
			m->mv_index = (uint32_t)index;
			m->mv_kind = (uint32_t)kind;
			memcpy(&m->mv_v, &v, 8);
		} else if (type == MAPLOG_TYPE_STACK) {
			p->k_rec = (size_t)(rec - buf);
			p->k_body = (size_t)(r.p - buf);
			p->r_pos = (size_t)(r.e - buf);
			p->ts += (uint64_t)maplog_unzigzag(dz);
			return FAST_STACK;
		} else {
			break;
		}
		uint64_t count = ++p->st.st_records;
		p->r_pos = (size_t)(r.e - buf);
		p->ts = ev->ev_ts;
		ev->ev_state = MAPLOG_OK;
		ev->ev_type = (enum maplog_type)type;
		ev->ev_error = 0;
		ev->ev_count = count;
		ev->ev_pid = p->c_pid;
		ev->ev_tid = p->c_tid;
		ev->ev_image = p->c_image;
		ev->ev_chunk_seq = p->c_seq;
		return 0;
	} while (0);
	return FAST_SLOW;
}

/* The STACK record read_fast() returned FAST_STACK for: 0, or -1 with
 * ev holding the error, as payload() reports it. */
static inline __attribute__((always_inline)) int
fast_stack(maplog *p, struct maplog_ev *ev, const int px)
{
	const uint8_t *const buf = p->buf;
	struct in r = {buf + p->k_body, buf + p->r_pos, buf + p->bend, 0};
	int rc = px ? add_stack_pext(p, &r) : add_stack(p, &r);
	return rc ? stack_bad(p, ev, rc, p->k_rec) : 0;
}

/* STACK records met by read_fast(), and the records after them: the
 * loop that read_fast() would have been, had it called add_stack() */
static inline __attribute__((always_inline)) int
read_stacks(maplog *p, struct maplog_ev *ev, const int px)
{
	int k;
	do {
		if (fast_stack(p, ev, px))
			return -1;
	} while ((k = read_fast(p, ev, px)) == FAST_STACK);
	return k == FAST_SLOW ? read_slow(p, ev) : k;
}

static __attribute__((noinline)) int read_stacks_portable(maplog *p,
							  struct maplog_ev *ev)
{
	return read_stacks(p, ev, 0);
}

static __attribute__((noinline)) PEXT_TARGET int
read_stacks_pext(maplog *p, struct maplog_ev *ev)
{
	return read_stacks(p, ev, MAPLOG_V_PEXT);
}

/* read_fast(), then what its answer asks for: read_slow() and
 * read_stacks_*() are tail calls. */
static inline __attribute__((always_inline)) int
read_entry(maplog *p, struct maplog_ev *ev, const int px)
{
	int k = read_fast(p, ev, px);
	if (k == FAST_STACK)
		return px ? read_stacks_pext(p, ev) : read_stacks_portable(p, ev);
	return k == FAST_SLOW ? read_slow(p, ev) : k;
}

/* The two copies of read_entry(): maplog_read() jumps to one of them, and
 * does nothing that would need registers saved, so that it adds only a
 * few instructions to a call. */
static __attribute__((noinline)) int read_fast_portable(maplog *p,
							struct maplog_ev *ev)
{
	return read_entry(p, ev, 0);
}

static __attribute__((noinline)) PEXT_TARGET int
read_fast_pext(maplog *p, struct maplog_ev *ev)
{
	return read_entry(p, ev, MAPLOG_V_PEXT);
}

int maplog_read(maplog *p, struct maplog_ev *ev)
{
	if (!p || !ev)
		return -1;
	if (p->phase != P_PAYLOAD)
		return read_slow(p, ev);
	if (p->pext)
		return read_fast_pext(p, ev);
	return read_fast_portable(p, ev);
}

