/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * maplog_i.h: the parser's state, private to the parser's files in
 * lib/log (nothing outside lib/log includes it; the layout they share is
 * maplog_format.h).
 *
 * DESIGN NOTES
 *   The parser is four files, each calling only the ones after it:
 *     maplog.c        the API, the state machine (phases, chunks,
 *                     damage) and the framing loop, whose hot part is
 *                     kept in that one file so that it inlines whole
 *     maplog_body.c   bodies of the rare record types
 *     maplog_input.c  the byte buffer: reading, feeding, skipping
 *     maplog_cpu.c    the choice of decoders for this CPU
 *   The functions declared here are hidden: libmaplog.so exports only
 *   the API of mapsample/maplog.h (and the helpers of maplog_format.h and
 *   mapwrite.h).  Nothing here is called from signal handlers.
 */
#ifndef MAPSAMPLE_MAPLOG_I_H
#define MAPSAMPLE_MAPLOG_I_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <mapsample/maplog.h>

#include "maplog_format.h"

#define MAPLOG_HIDDEN __attribute__((visibility("hidden")))

enum phase {
	P_FILEHDR,
	P_SKIP,
	P_CHUNK,
	P_PAYLOAD,
	P_RESYNC,
	P_FATAL,
	P_DONE,     /* EOF returned: every later read returns it again */
};

#define READ_BLOCK (4u << 20)

struct maplog {
	int fd;
	int mapped;         /* buf is a read-only mapping of the whole file */
	int ended;          /* no more bytes will come */
	int last_error;
	enum phase phase;
	int fatal_error;

	uint8_t *buf;
	size_t bcap;
	size_t bpos;        /* first unconsumed byte */
	size_t bend;        /* one past the last valid byte */
	uint64_t boff;      /* stream offset of buf[0] */
	uint64_t skip;      /* bytes still to skip in P_SKIP */
	off_t fd_start;     /* file position the stream starts at */

	/* current chunk */
	uint64_t c_off;
	uint32_t c_cap, c_used, c_pid, c_tid, c_image, c_seq;
	int c_partial;      /* stream ended inside this chunk's payload */
	uint64_t c_missing; /* payload bytes the stream lacks */
	size_t r_pos, r_end;
	size_t k_rec, k_body; /* a STACK record read_fast() left to
				 fast_stack(): its start and its fields */
	uint64_t ts;
	uint64_t leaf;

	/* stack table of the current chunk; id i at index i-1 */
	uint32_t *s_off;
	uint32_t *s_n;
	uint32_t s_count, s_cap;
	uint64_t *fr;
	size_t fr_used, fr_cap;

	/* strings of the current event */
	char *sc;
	size_t sc_cap, sc_used;
	const char **argv;
	size_t argv_cap;

	int pext;           /* decode with MAPLOG_V_PEXT (maplog_cpu_pext()) */

	struct maplog_stats st;
	struct maplog_ev_eof eof;  /* what P_DONE returns */
	uint64_t eof_at;
};

/* s_n value of a stack id whose STACK record was damaged */
#define VOID_STACK UINT32_MAX

/* ---- the buffer (maplog_input.c) ---- */

/* Bytes buffered from bpos on. */
static inline size_t avail(const maplog *p)
{
	return p->bend - p->bpos;
}

static inline uint64_t cur_off(const maplog *p)
{
	return p->boff + p->bpos;
}

static inline void consume(maplog *p, size_t n)
{
	p->bpos += n;
	p->st.st_bytes += n;
}

/*
 * Ensures need bytes from bpos.  Returns 1 when they are there, 0 when not
 * (stream ended, or a memory stream needs feeding), or a MAPS_E* code.
 */
MAPLOG_HIDDEN int maplog_ensure(maplog *p, size_t need);

/* Skips p->skip bytes; returns 1 when done, 0 when more bytes are needed
 * (or the stream ended), or a MAPS_E* code. */
MAPLOG_HIDDEN int maplog_skip(maplog *p);

/* ---- record bodies ---- */

/* A record being decoded: the cursor p runs up to the record's end e. */
struct in {
	const uint8_t *p;
	const uint8_t *e;   /* end of the record */
	const uint8_t *lim; /* end of valid memory, >= e: loads may reach it */
	int bad;
};

static inline __attribute__((always_inline)) uint64_t get_u(struct in *r)
{
	uint64_t v = 0;
	if (maplog_get_varint_lim(&r->p, r->e, r->lim, &v))
		r->bad = 1;
	return v;
}

/* get_u decoding as how says (MAPLOG_V_*; see maplog_varint_core) */
static inline __attribute__((always_inline)) uint64_t get_u_how(struct in *r,
								 const int how)
{
	uint64_t v = 0;
	if (maplog_varint_core(&r->p, r->e, r->lim, &v, how))
		r->bad = 1;
	return v;
}

static inline uint32_t get_u32(struct in *r)
{
	uint64_t v = get_u(r);
	if (v > UINT32_MAX)
		r->bad = 1;
	return (uint32_t)v;
}

/* Decodes the body of a record of type (not SAMPLE or STACK) from r into
 * ev (maplog_body.c); 0, MAPS_EINVAL for a type it does not know (the
 * caller skips the record), or another MAPS_E* code. */
MAPLOG_HIDDEN int maplog_decode_body(maplog *p, int type, struct in *r,
				     struct maplog_ev *ev);

#endif
