/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * maplog_format: the on-disk layout of mapsample logs, version 1, and
 * its primitives (little-endian fields, varints, the CRC32C checksum):
 * the module header of lib/log for everything that writes, reads or
 * patches log bytes itself -- the encoder (mapwrite.c, mapwrite.h), the
 * parser (maplog*.c), the sampler and launcher (which share the file
 * header's alloc_end cursor), and the tests and fuzz seeds that build
 * damaged logs by hand.  Not installed: programs read logs through
 * mapsample/maplog.h.  mapsample-log(5) is the user-facing description;
 * keep both in step.
 *
 * FORMAT NOTES
 *   All integers little-endian.  A file is a 64-byte file header, padding
 *   up to data_offset, then chunks laid end to end (each a multiple of 8
 *   bytes long).  Chunks are self-contained: record timestamps are deltas
 *   from the chunk's base_ts, and stack ids are defined inside the chunk,
 *   so any chunk decodes without the others and damage never spreads past
 *   the chunk it hits.
 *
 *   A chunk is written by one writer (one thread, or one process's
 *   process-level stream).  It is "open" while being filled: `used` grows
 *   record by record (release store) and the parser trusts records up to
 *   `used`.  Sealing writes payload_crc, then sets MAPLOG_CHUNK_SEALED.
 *   A chunk left open (writer killed) is read up to `used`, without a
 *   checksum.  Bytes between used and capacity are unused.
 *
 *   Record: u8 type, varint len (bytes after the len field), zigzag varint
 *   timestamp delta from the previous record of the chunk (base_ts for the
 *   first), then the body.  Readers ignore body bytes past the fields they
 *   know and skip records of unknown type, so fields may be appended and
 *   types added without a major version change.
 */
#ifndef MAPSAMPLE_MAPLOG_FORMAT_H
#define MAPSAMPLE_MAPLOG_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mapsample/maplog.h>

/* File header */
#define MAPLOG_FILE_MAGIC "MAPSLOG"   /* 8 bytes with the NUL */
#define MAPLOG_FILE_HEADER_SIZE 64u
#define MAPLOG_FH_MAGIC 0       /* 8 bytes */
#define MAPLOG_FH_VMAJOR 8      /* u16 */
#define MAPLOG_FH_VMINOR 10     /* u16 */
#define MAPLOG_FH_FLAGS 12      /* u32 */
#define MAPLOG_FH_DATA_OFFSET 16 /* u32: first chunk, multiple of 8 */
#define MAPLOG_FH_CRC 20        /* u32: CRC32C of bytes 0..19 */
#define MAPLOG_FH_ALLOC_END 24  /* u64: writers' shared cursor; not in CRC */
#define MAPLOG_FH_PIDNS 32      /* u64: pid namespace of the first writer;
				   not in CRC (mapsample-log(5)) */
#define MAPLOG_MAX_DATA_OFFSET (1u << 20)

/* Chunk header */
#define MAPLOG_CHUNK_MAGIC 0x314b434du /* "MCK1" */
#define MAPLOG_CHUNK_HEADER_SIZE 48u
#define MAPLOG_CH_MAGIC 0       /* u32 */
#define MAPLOG_CH_CAPACITY 4    /* u32: whole chunk, header included */
#define MAPLOG_CH_PID 8         /* u32 */
#define MAPLOG_CH_TID 12        /* u32: 0 for the process stream */
#define MAPLOG_CH_IMAGE 16      /* u32: exec generation */
#define MAPLOG_CH_SEQ 20        /* u32: chunk number in its stream */
#define MAPLOG_CH_BASE_TS 24    /* u64: CLOCK_MONOTONIC ns */
#define MAPLOG_CH_HCRC 32       /* u32: CRC32C of bytes 0..31 */
#define MAPLOG_CH_FLAGS 36      /* u32, mutable: MAPLOG_CHUNK_SEALED */
#define MAPLOG_CH_USED 40       /* u32, mutable: payload bytes committed */
#define MAPLOG_CH_PCRC 44       /* u32: CRC32C of payload, when sealed */
#define MAPLOG_CHUNK_SEALED 0x1u
#define MAPLOG_MAX_CHUNK (64u << 20)   /* larger capacity: damage */

/* Limits a reader enforces so that damage cannot make it allocate wildly */
#define MAPLOG_MAX_FRAMES 4096u    /* frames in one stack */
#define MAPLOG_MAX_ARGC 65536u     /* arguments in an initialize record */
#define MAPLOG_CHUNK_FRAMES (1u << 20) /* stack frames one chunk may make a
                                          reader hold beyond its size */

/* ---- little-endian loads and stores (async-signal-safe) ---- */
static inline uint16_t maplog_ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t maplog_ld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}
static inline uint64_t maplog_ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}
static inline void maplog_st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void maplog_st32(uint8_t *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, 4);
}
static inline void maplog_st64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

/* ---- varints: unsigned LEB128 and zigzag (async-signal-safe) ---- */
#define MAPLOG_VARINT_MAX 10

static inline uint64_t maplog_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t maplog_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Bytes the varint encoding of v takes. */
static inline unsigned maplog_varint_len(uint64_t v)
{
	unsigned n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Writes v at p (room for MAPLOG_VARINT_MAX bytes); returns the end. */
static inline uint8_t *maplog_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* How maplog_varint_core() decodes (constants, so that each use gets
 * only the code it asks for): */
#define MAPLOG_V_BYTE1 1 /* test for a one-byte value first */
#define MAPLOG_V_SHORT 2 /* fold values of up to 4 bytes in 32 bits */
#define MAPLOG_V_PEXT 4  /* gather the 7-bit groups with one BMI2 pext:
			    only where maplog_cpu_pext() says so */
#define MAPLOG_V_LATE 8  /* the caller checks the end afterwards (see
			    maplog_varint_core) */
#define MAPLOG_V_SHORTONLY 16 /* values longer than 8 bytes fail: for a
				 fast path that leaves them to a slow one */

#if defined(__x86_64__) && defined(__GNUC__)
#define MAPLOG_HAVE_PEXT 1
/*
 * The low 7 bits of each byte of x, packed (BMI2 pext with the mask
 * 0x7f7f7f7f7f7f7f7f).  Written as asm so that it compiles in functions
 * built for any x86-64 (the builtin needs -mbmi2 with clang, even in code
 * that never runs); only callers that maplog_cpu_pext() allowed reach it.
 */
static inline __attribute__((always_inline)) uint64_t maplog_pext7(uint64_t x)
{
	uint64_t r;
	__asm__("pextq %2, %1, %0"
		: "=r"(r)
		: "r"(x), "r"(0x7f7f7f7f7f7f7f7full));
	return r;
}
#else
#define MAPLOG_HAVE_PEXT 0 /* MAPLOG_V_PEXT is ignored */
static inline uint64_t maplog_pext7(uint64_t x)
{
	return x;
}
#endif

/*
 * 1 when the decoders may use MAPLOG_V_PEXT: the CPU has BMI2 and runs pext
 * in hardware (not on AMD before family 0x19, where it is microcoded and
 * takes tens to hundreds of cycles), and maplog_cpu_force_portable() did
 * not turn it off.  Parsers read it when they are opened.
 */
int maplog_cpu_pext(void);

/* For tests: with on != 0, parsers opened afterwards use the portable
 * decoders whatever the CPU has; with 0, what maplog_cpu_pext() allows.
 * Not thread-safe: call it before opening parsers. */
void maplog_cpu_force_portable(int on);

/*
 * Reads a varint from [*pp, end), where the bytes up to lim (>= end) may
 * be loaded though they are not part of the value's field.  Returns 0 and
 * advances *pp, or -1 when the varint runs past end or is longer than 10
 * bytes.  With 8 loadable bytes, values of up to 8 bytes are gathered
 * without a loop: the 7-bit groups are masked and folded together in
 * three shift steps (two on 32 bits with MAPLOG_V_SHORT, for fields that
 * are steadily at most 4 bytes long: the test is then well predicted and
 * the masks fit in instructions).  MAPLOG_V_BYTE1 suits fields that are
 * steadily one byte long (record lengths) or steadily longer; without it
 * no branch depends on the length, for fields whose length changes from
 * record to record (stack ids, frame deltas).  MAPLOG_V_PEXT replaces
 * the masks and shifts with one pext (MAPLOG_V_SHORT is then moot); the
 * caller must have maplog_cpu_pext() true.
 *
 * MAPLOG_V_LATE leaves out the tests against lim and end for values of
 * up to 8 bytes, for runs of fields: the caller makes sure that 8 bytes
 * can be loaded from *pp, and compares *pp with end after the last field
 * (a value that runs past end returns 0 and leaves *pp past end; -1
 * still comes for the longer ones, read byte by byte up to end).  A
 * varint takes at most 10 bytes, so k fields can be read this way when
 * lim - *pp >= 10 * k - 2, even when one of them runs past end.
 *
 * MAPLOG_V_SHORTONLY returns -1 for any value longer than 8 bytes (and,
 * without MAPLOG_V_LATE, whenever 8 bytes cannot be loaded), leaving out
 * the byte loop: a fast path whose caller decodes such records again with
 * the full reader keeps fewer registers busy.
 */
static inline __attribute__((always_inline)) int
maplog_varint_core(const uint8_t **pp, const uint8_t *end,
		   const uint8_t *lim, uint64_t *out, const int how)
{
	const uint8_t *p = *pp;
	if ((how & MAPLOG_V_BYTE1) && ((how & MAPLOG_V_LATE) || p < end) &&
	    *p < 0x80) {
		*out = *p;
		*pp = p + 1;
		return 0;
	}
	if ((how & MAPLOG_V_LATE) || lim - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (__builtin_expect(stop != 0, 1)) {
			unsigned nb = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
			if (!(how & MAPLOG_V_LATE) && nb > (size_t)(end - p))
				return -1;
			/* stop ^ (stop - 1): the bits up to the stop byte's
			 * high bit, i.e. the varint's bytes, without a
			 * shift by a count derived from nb */
			uint64_t x = w & (stop ^ (stop - 1));
			*pp = p + nb;
			if ((how & MAPLOG_V_PEXT) && MAPLOG_HAVE_PEXT) {
				*out = maplog_pext7(x);
				return 0;
			}
			x &= 0x7f7f7f7f7f7f7f7full;
			if ((how & MAPLOG_V_SHORT) && (uint32_t)stop) {
				uint32_t y = (uint32_t)x;
				y = (y & 0x007f007fu) | ((y & 0x7f007f00u) >> 1);
				y = (y & 0x3fffu) | ((y & 0x3fff0000u) >> 2);
				*out = y;
				return 0;
			}
			x = (x & 0x007f007f007f007full) |
			    ((x & 0x7f007f007f007f00ull) >> 1);
			x = (x & 0x00003fff00003fffull) |
			    ((x & 0x3fff00003fff0000ull) >> 2);
			x = (x & 0x000000000fffffffull) |
			    ((x & 0x0fffffff00000000ull) >> 4);
			*out = x;
			return 0;
		}
	}
	if (how & MAPLOG_V_SHORTONLY)
		return -1;
	uint64_t v = 0;
	unsigned shift = 0;
	while (p < end && shift < 64) {
		uint8_t b = *p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80) {
			*out = v;
			*pp = p;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

/* The general-purpose reader: maplog_varint_core with MAPLOG_V_BYTE1. */
static inline __attribute__((always_inline)) int
maplog_get_varint_lim(const uint8_t **pp, const uint8_t *end,
		      const uint8_t *lim, uint64_t *out)
{
	return maplog_varint_core(pp, end, lim, out, MAPLOG_V_BYTE1);
}

/* Reads a varint from [*pp, end); see maplog_get_varint_lim. */
static inline __attribute__((always_inline)) int
maplog_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	return maplog_get_varint_lim(pp, end, end, out);
}

/* ---- CRC32C (Castagnoli), hardware-accelerated where the CPU has it ---- */

/*
 * CRC32C of len bytes, continuing from crc (0 to start).
 * Async-signal-safe: pure computation on the caller's memory.
 */
uint32_t maplog_crc32c(uint32_t crc, const void *buf, size_t len);

/* The same with the portable table code whatever the CPU has (tests). */
uint32_t maplog_crc32c_portable(uint32_t crc, const void *buf, size_t len);

/* 1 when maplog_crc32c() uses the hardware instruction, else 0. */
int maplog_crc32c_hw(void);

/* The implementations of maplog_crc32c(), worst to best: slicing-by-8
 * tables, the SSE4.2 crc32 instruction, folding with AVX-512 VPCLMULQDQ
 * (which leaves short buffers and the last bytes of long ones to crc32,
 * so it needs SSE4.2 as well). */
enum {
	MAPLOG_CRC_TABLE,
	MAPLOG_CRC_SSE42,
	MAPLOG_CRC_AVX512,
	MAPLOG_CRC_NIMPL_
};

/* 1 when this CPU runs impl (a MAPLOG_CRC_*), else 0. */
int maplog_crc32c_has(int impl);

/* The MAPLOG_CRC_* that maplog_crc32c() uses: the best the CPU runs. */
int maplog_crc32c_impl(void);

/* maplog_crc32c() computed with impl (the table code when the CPU cannot
 * run impl), for tests.  Async-signal-safe, as maplog_crc32c(). */
uint32_t maplog_crc32c_with(int impl, uint32_t crc, const void *buf,
			    size_t len);

#endif
