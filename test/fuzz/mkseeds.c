/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkseeds: writes the seed corpus of fuzz_maplog into a directory, so the
 * committed seeds in test/fuzz/corpus/maplog can be regenerated
 * (`make fuzz-seeds`).  Four kinds: synthetic logs of several shapes from
 * test/common/logsynth (the real encoder); those logs damaged in known
 * ways (cut, a flipped byte, garbage between chunks, broken headers);
 * small hand-built chunks whose records sit on the parser's edges (every
 * record type with odd but valid values, unknown types, trailing body
 * bytes, undecodable records, the frame limit, zero gaps); and
 * reproducers of parser bugs (crash-*).  Everything is deterministic and
 * each seed stays small (at most 32 KiB): libFuzzer mutates small inputs
 * best.
 *
 *   mkseeds OUTDIR
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/mapwrite.h"
#include "logsynth.h"

#define MAX_SEED (32u << 10)

static const char *outdir;

/* ------------------------------------------------------------------ */
/* Byte buffers */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			fprintf(stderr, "mkseeds: out of memory\n");
			exit(1);
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put_u8(struct buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_var(struct buf *b, uint64_t v)
{
	uint8_t tmp[MAPLOG_VARINT_MAX];
	put(b, tmp, (size_t)(maplog_put_varint(tmp, v) - tmp));
}

static void put_zz(struct buf *b, int64_t v)
{
	put_var(b, maplog_zigzag(v));
}

static void put_str(struct buf *b, const char *s)
{
	put_var(b, strlen(s));
	put(b, s, strlen(s));
}

static void put_zeros(struct buf *b, size_t n)
{
	while (n--)
		put_u8(b, 0);
}

static void clear(struct buf *b)
{
	b->n = 0;
}

/* ------------------------------------------------------------------ */
/* Raw records and chunks, for what the encoder would never write */

/* Appends a record: type, length, timestamp delta, body. */
static void rec(struct buf *pl, uint8_t type, int64_t dts,
		const struct buf *body)
{
	struct buf r = {0};
	put_zz(&r, dts);
	if (body)
		put(&r, body->p, body->n);
	put_u8(pl, type);
	put_var(pl, r.n);
	put(pl, r.p, r.n);
	free(r.p);
}

struct chunk_opts {
	uint32_t pid, tid, image, seq;
	uint64_t base_ts;
	int sealed;
	uint32_t extra;     /* unused capacity after the payload */
	uint32_t used_plus; /* added to `used` after the checksum */
};

/* Appends a chunk holding payload pl. */
static void chunk(struct buf *out, const struct buf *pl,
		  const struct chunk_opts *o)
{
	uint8_t h[MAPLOG_CHUNK_HEADER_SIZE];
	uint32_t used = (uint32_t)pl->n;
	uint32_t cap = ((MAPLOG_CHUNK_HEADER_SIZE + used + 7) & ~7u) + o->extra;
	memset(h, 0, sizeof(h));
	maplog_st32(h + MAPLOG_CH_MAGIC, MAPLOG_CHUNK_MAGIC);
	maplog_st32(h + MAPLOG_CH_CAPACITY, cap);
	maplog_st32(h + MAPLOG_CH_PID, o->pid);
	maplog_st32(h + MAPLOG_CH_TID, o->tid);
	maplog_st32(h + MAPLOG_CH_IMAGE, o->image);
	maplog_st32(h + MAPLOG_CH_SEQ, o->seq);
	maplog_st64(h + MAPLOG_CH_BASE_TS, o->base_ts);
	maplog_st32(h + MAPLOG_CH_HCRC, maplog_crc32c(0, h, MAPLOG_CH_HCRC));
	maplog_st32(h + MAPLOG_CH_FLAGS, o->sealed ? MAPLOG_CHUNK_SEALED : 0);
	maplog_st32(h + MAPLOG_CH_USED, used + o->used_plus);
	if (o->sealed)
		maplog_st32(h + MAPLOG_CH_PCRC, maplog_crc32c(0, pl->p, used));
	put(out, h, sizeof(h));
	put(out, pl->p, pl->n);
	put_zeros(out, cap - MAPLOG_CHUNK_HEADER_SIZE - used);
}

/* The hash fuzz_maplog derives its choices from. */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static void file_header(struct buf *out, uint32_t data_offset)
{
	uint8_t h[MAPLOG_FILE_HEADER_SIZE];
	mapw_file_header(h, data_offset);
	put(out, h, sizeof(h));
	put_zeros(out, data_offset - MAPLOG_FILE_HEADER_SIZE);
}

/* Offset of chunk k (0 first) of a log, or 0 if there is none. */
static size_t chunk_at(const struct buf *log, unsigned k)
{
	size_t at = maplog_ld32(log->p + MAPLOG_FH_DATA_OFFSET);
	while (at + MAPLOG_CHUNK_HEADER_SIZE <= log->n) {
		if (k-- == 0)
			return at;
		at += maplog_ld32(log->p + at + MAPLOG_CH_CAPACITY);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Output */

static void save(const char *name, const void *d, size_t n)
{
	char path[4096];
	if (n > MAX_SEED) {
		fprintf(stderr, "mkseeds: %s: %zu bytes, over the %u limit\n",
			name, n, MAX_SEED);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, d, n) != (ssize_t)n || close(fd)) {
		fprintf(stderr, "mkseeds: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	printf("%-28s %6zu bytes\n", name, n);
}

static void synth(const struct logsynth_opts *o, struct buf *out)
{
	uint8_t *p;
	size_t n;
	int rc = logsynth_to_mem(o, &p, &n, NULL);
	if (rc) {
		fprintf(stderr, "mkseeds: logsynth: %s\n", maps_strerror(rc));
		exit(1);
	}
	clear(out);
	put(out, p, n);
	free(p);
}

static void small_opts(struct logsynth_opts *o)
{
	logsynth_defaults(o);
	o->samples = 60;
	o->threads = 2;
	o->distinct_stacks = 12;
	o->min_depth = 3;
	o->max_depth = 12;
	o->chunk_size = 4096;
	o->seed = 7;
}

/* ------------------------------------------------------------------ */
/* Seeds from the synthesiser, whole and damaged */

static void synth_seeds(void)
{
	struct logsynth_opts o;
	struct buf log = {0}, d = {0};

	/* one small chunk, samples only */
	small_opts(&o);
	o.samples = 12;
	o.threads = 1;
	o.distinct_stacks = 4;
	o.min_depth = 2;
	o.max_depth = 6;
	o.all_types = 0;
	synth(&o, &log);
	save("synth-tiny", log.p, log.n);

	/* every record type */
	small_opts(&o);
	synth(&o, &log);
	save("synth-all-types", log.p, log.n);

	/* the same, damaged */
	save("damaged-truncated", log.p, log.n * 2 / 3);
	save("damaged-truncated-in-header", log.p, 40);
	save("damaged-truncated-chunk-header",
	     log.p, chunk_at(&log, 1) + 20);
	clear(&d);
	put(&d, log.p, log.n);
	d.p[chunk_at(&d, 1) + MAPLOG_CHUNK_HEADER_SIZE + 9] ^= 0x10;
	save("damaged-flip-sealed-payload", d.p, d.n);
	clear(&d);
	put(&d, log.p, log.n);
	d.p[chunk_at(&d, 1) + MAPLOG_CH_PID] ^= 0x01;
	save("damaged-flip-chunk-header", d.p, d.n);
	clear(&d);
	put(&d, log.p, log.n);
	maplog_st32(d.p + chunk_at(&d, 0) + MAPLOG_CH_USED, 1u << 30);
	save("damaged-used-over-capacity", d.p, d.n);
	clear(&d);
	put(&d, log.p, log.n);
	d.p[MAPLOG_FH_DATA_OFFSET] ^= 0x08; /* header CRC no longer holds */
	save("damaged-file-header-crc", d.p, d.n);
	clear(&d);
	put(&d, log.p, log.n);
	maplog_st16(d.p + MAPLOG_FH_VMAJOR, 2);
	maplog_st32(d.p + MAPLOG_FH_CRC, maplog_crc32c(0, d.p, MAPLOG_FH_CRC));
	save("damaged-version", d.p, d.n);
	clear(&d);
	put(&d, log.p, log.n);
	memcpy(d.p, "NOTALOG", 8);
	save("damaged-magic", d.p, 256);
	{
		/* 40 bytes of garbage between chunks 1 and 2, some of it
		 * looking like a chunk magic */
		size_t c2 = chunk_at(&log, 2);
		static const uint8_t junk[] = "\x4d\x43\x4b\x31 junk between "
					      "chunks \x4d\x43\x4b\x31\xff";
		clear(&d);
		put(&d, log.p, c2);
		put(&d, junk, 40);
		put(&d, log.p + c2, log.n - c2);
		save("damaged-garbage-between-chunks", d.p, d.n);
	}

	/* several processes, many small chunks */
	small_opts(&o);
	o.processes = 3;
	o.threads = 3;
	o.samples = 150;
	o.chunk_size = 1024;
	o.seed = 11;
	synth(&o, &log);
	save("synth-multiproc-1k-chunks", log.p, log.n);

	/* writers killed: no chunk sealed */
	small_opts(&o);
	o.processes = 2;
	o.chunk_size = 2048;
	o.leave_open = 1;
	o.seed = 12;
	synth(&o, &log);
	save("synth-open-chunks", log.p, log.n);
	clear(&d);
	put(&d, log.p, log.n);
	d.p[chunk_at(&d, 2) + MAPLOG_CHUNK_HEADER_SIZE + 30] ^= 0x41;
	save("damaged-flip-open-payload", d.p, d.n);
	save("damaged-open-truncated", log.p, log.n - 100);

	/* every stack written whole */
	small_opts(&o);
	o.no_dedup = 1;
	o.all_types = 0;
	o.samples = 40;
	o.min_depth = 8;
	o.max_depth = 40;
	o.seed = 13;
	synth(&o, &log);
	save("synth-no-dedup", log.p, log.n);

	/* deep stacks: a few thousand frames */
	small_opts(&o);
	o.all_types = 0;
	o.threads = 1;
	o.samples = 3;
	o.distinct_stacks = 2;
	o.min_depth = 800;
	o.max_depth = 1800;
	o.chunk_size = 16384;
	o.seed = 14;
	synth(&o, &log);
	save("synth-deep-stacks", log.p, log.n);

	/* the sampler's layout: chunks from offset 4096 */
	small_opts(&o);
	o.all_types = 0;
	o.samples = 20;
	o.data_offset = 4096;
	o.seed = 15;
	synth(&o, &log);
	save("synth-data-offset-4096", log.p, log.n);

	free(log.p);
	free(d.p);
}

/* ------------------------------------------------------------------ */
/* Hand-built chunks */

/* Every record type, with edge values the encoder does not produce. */
static void raw_records(struct buf *pl)
{
	struct buf b = {0};

	clear(&b); /* INITIALIZE, no argv, empty strings */
	for (int i = 0; i < 10; i++)
		put_var(&b, (uint64_t)i);
	put_zz(&b, -5);
	put_var(&b, 999999999);
	put_str(&b, "");
	put_str(&b, "/x");
	put_var(&b, 0);
	rec(pl, MAPLOG_TYPE_INITIALIZE, 0, &b);

	clear(&b); /* INITIALIZE with argv and a trailing field */
	for (int i = 0; i < 10; i++)
		put_var(&b, UINT32_MAX);
	put_zz(&b, INT64_MIN);
	put_var(&b, 0);
	put_str(&b, "host");
	put_str(&b, "exe");
	put_var(&b, 3);
	put_str(&b, "a");
	put_str(&b, "");
	put_str(&b, "ccc");
	put_var(&b, 12345); /* a future field */
	rec(pl, MAPLOG_TYPE_INITIALIZE, -3, &b);

	clear(&b);
	put_var(&b, 0);
	put_var(&b, MAPLOG_DT_DOUBLE);
	put_var(&b, 7);
	for (int i = 0; i < 8; i++)
		put_str(&b, i & 1 ? "" : "s");
	rec(pl, MAPLOG_TYPE_METRIC_DEF, 1, &b);

	clear(&b);
	put_str(&b, "plug");
	put_str(&b, "msg");
	rec(pl, MAPLOG_TYPE_PLUGIN_ERROR, 1, &b);

	clear(&b);
	put_var(&b, 0);
	put_var(&b, UINT64_MAX);
	put_str(&b, "e");
	rec(pl, MAPLOG_TYPE_METRIC_ERROR, 1, &b);

	clear(&b); /* map-in, 255-byte build-id */
	put_var(&b, 0x400000);
	put_var(&b, 0x1000);
	put_var(&b, 0);
	put_var(&b, 0x400000);
	put_var(&b, 1);
	put_var(&b, MAPLOG_MAP_MAIN);
	put_var(&b, 255);
	for (int i = 0; i < 255; i++)
		put_u8(&b, (uint8_t)i);
	put_str(&b, "/bin/x");
	rec(pl, MAPLOG_TYPE_MAP_IN, 1, &b);

	clear(&b); /* map-in, no build-id, start + length wraps */
	put_var(&b, UINT64_MAX);
	put_var(&b, 2);
	for (int i = 0; i < 4; i++)
		put_var(&b, 0);
	put_var(&b, 0);
	put_str(&b, "");
	rec(pl, MAPLOG_TYPE_MAP_IN, 1, &b);

	clear(&b);
	put_var(&b, 0x400000);
	put_var(&b, 0x1000);
	put_var(&b, 1);
	rec(pl, MAPLOG_TYPE_MAP_OUT, 1, &b);

	clear(&b);
	put_var(&b, 42);
	put_var(&b, 0);
	put_str(&b, "t");
	rec(pl, MAPLOG_TYPE_THREAD_BEGIN, 1, &b);

	clear(&b);
	for (int i = 0; i < 5; i++)
		put_var(&b, (uint64_t)i);
	rec(pl, MAPLOG_TYPE_THREAD_END, 1, &b);

	clear(&b);
	put_var(&b, 1);
	put_var(&b, 2);
	rec(pl, MAPLOG_TYPE_PROC_FORK, 1, &b);

	clear(&b);
	put_var(&b, 2);
	put_var(&b, 1);
	put_str(&b, "/bin/y");
	rec(pl, MAPLOG_TYPE_PROC_EXEC, 1, &b);

	clear(&b);
	put_var(&b, 2);
	put_var(&b, MAPLOG_EXIT_NORMAL);
	put_zz(&b, INT32_MIN);
	rec(pl, MAPLOG_TYPE_PROC_EXIT, 1, &b);

	for (int k = 0; k <= 2; k++) {
		clear(&b);
		put_var(&b, 1);
		put_var(&b, (uint64_t)k);
		if (k == MAPLOG_VALUE_U64)
			put_var(&b, UINT64_MAX);
		if (k == MAPLOG_VALUE_DOUBLE) {
			uint8_t d[8];
			maplog_st64(d, 0x7ff8000000000001ull); /* a NaN */
			put(&b, d, 8);
		}
		rec(pl, MAPLOG_TYPE_METRIC_VALUE, 0, &b);
	}

	clear(&b);
	put_var(&b, 42);
	put_var(&b, MAPLOG_DROP_OTHER + 3); /* a reason from the future */
	put_var(&b, 1);
	rec(pl, MAPLOG_TYPE_DROP, 1, &b);

	clear(&b);
	put_var(&b, 42);
	put_var(&b, 1);
	put_str(&b, "mark");
	rec(pl, MAPLOG_TYPE_MARK, 1, &b);

	clear(&b); /* unknown types are skipped, whatever they hold */
	put_str(&b, "from the future");
	rec(pl, 200, 1, &b);
	rec(pl, 0, 1, &b);
	rec(pl, MAPLOG_TYPE_MAX_, 1, NULL);

	/* stacks: a root, one sharing it, one dropping frames of it */
	clear(&b);
	put_var(&b, 0);
	put_var(&b, 0);
	put_var(&b, 3);
	put_zz(&b, 0x401000);
	put_zz(&b, 0x10);
	put_zz(&b, -0x20);
	rec(pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b);
	put_var(&b, 1);
	put_var(&b, 1);
	put_var(&b, 1);
	put_zz(&b, 4);
	rec(pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b);
	put_var(&b, 2);
	put_var(&b, 3);
	put_var(&b, 0);
	rec(pl, MAPLOG_TYPE_STACK, 0, &b); /* empty stack */
	for (unsigned sid = 0; sid <= 3; sid++) {
		clear(&b);
		put_var(&b, sid);
		put_var(&b, 1000000);
		if (sid & 1)
			put_var(&b, 77); /* tid given */
		rec(pl, MAPLOG_TYPE_SAMPLE, 1000, &b);
	}

	clear(&b);
	for (int i = 0; i < 3; i++)
		put_var(&b, 1);
	rec(pl, MAPLOG_TYPE_CLOSE, 1, &b);
	free(b.p);
}

/* Records that do not decode, each followed by a good one. */
static void raw_errors(struct buf *pl)
{
	struct buf b = {0}, ok = {0};
	put_var(&ok, 1);
	put_var(&ok, 1);
	put_str(&ok, "ok");
	/* the good record */
#define GOOD() rec(pl, MAPLOG_TYPE_MARK, 1, &ok)

	rec(pl, MAPLOG_TYPE_MARK, 1, NULL); /* body missing */
	GOOD();
	clear(&b); /* timestamp varint too long */
	for (int i = 0; i < 11; i++)
		put_u8(&b, 0xff);
	put_u8(&b, 0);
	put_u8(pl, MAPLOG_TYPE_MARK);
	put_var(pl, b.n);
	put(pl, b.p, b.n);
	GOOD();
	clear(&b); /* string longer than the body */
	put_var(&b, 1);
	put_var(&b, 1);
	put_var(&b, 50);
	put(&b, "short", 5);
	rec(pl, MAPLOG_TYPE_MARK, 1, &b);
	GOOD();
	clear(&b); /* u32 field over 32 bits */
	put_var(&b, 1ull << 32);
	put_var(&b, 1);
	put_str(&b, "x");
	rec(pl, MAPLOG_TYPE_MARK, 1, &b);
	GOOD();
	clear(&b); /* sample of a stack never defined */
	put_var(&b, 9);
	put_var(&b, 1);
	rec(pl, MAPLOG_TYPE_SAMPLE, 1, &b);
	GOOD();
	clear(&b); /* sample tid over 32 bits */
	put_var(&b, 0);
	put_var(&b, 1);
	put_var(&b, 1ull << 40);
	rec(pl, MAPLOG_TYPE_SAMPLE, 1, &b);
	GOOD();
	clear(&b); /* stack based on one not defined */
	put_var(&b, 5);
	put_var(&b, 0);
	put_var(&b, 1);
	put_zz(&b, 1);
	rec(pl, MAPLOG_TYPE_STACK, 1, &b);
	GOOD();
	clear(&b); /* stack promising more frames than it holds */
	put_var(&b, 0);
	put_var(&b, 0);
	put_var(&b, 100);
	put_zz(&b, 1);
	rec(pl, MAPLOG_TYPE_STACK, 1, &b);
	GOOD();
	clear(&b); /* stack dropping frames from no base */
	put_var(&b, 0);
	put_var(&b, 1);
	put_var(&b, 0);
	rec(pl, MAPLOG_TYPE_STACK, 1, &b);
	GOOD();
	clear(&b); /* metric value of an unknown kind */
	put_var(&b, 0);
	put_var(&b, 9);
	rec(pl, MAPLOG_TYPE_METRIC_VALUE, 1, &b);
	GOOD();
	clear(&b); /* double cut short */
	put_var(&b, 0);
	put_var(&b, MAPLOG_VALUE_DOUBLE);
	put(&b, "1234", 4);
	rec(pl, MAPLOG_TYPE_METRIC_VALUE, 1, &b);
	GOOD();
	clear(&b); /* exit code out of range */
	put_var(&b, 1);
	put_var(&b, 0);
	put_zz(&b, (int64_t)INT32_MAX + 1);
	rec(pl, MAPLOG_TYPE_PROC_EXIT, 1, &b);
	GOOD();
	clear(&b); /* build-id over 255 bytes */
	for (int i = 0; i < 6; i++)
		put_var(&b, 1);
	put_var(&b, 256);
	put_zeros(&b, 256);
	put_str(&b, "p");
	rec(pl, MAPLOG_TYPE_MAP_IN, 1, &b);
	GOOD();
	clear(&b); /* argc larger than the body */
	for (int i = 0; i < 12; i++)
		put_var(&b, 1);
	put_str(&b, "h");
	put_str(&b, "e");
	put_var(&b, 1000);
	put_str(&b, "a");
	rec(pl, MAPLOG_TYPE_INITIALIZE, 1, &b);
	GOOD();
	/* record length running past the payload: the chunk ends here */
	put_u8(pl, MAPLOG_TYPE_MARK);
	put_var(pl, 5000);
	put(pl, "rest", 4);
	free(b.p);
	free(ok.p);
#undef GOOD
}

/* A stack of exactly MAPLOG_MAX_FRAMES frames, then one too many. */
static void raw_frame_limit(struct buf *pl)
{
	struct buf b = {0};
	const unsigned step = 128;
	for (unsigned s = 0; s < MAPLOG_MAX_FRAMES / step; s++) {
		clear(&b);
		put_var(&b, s); /* base: the previous stack */
		put_var(&b, 0);
		put_var(&b, step);
		for (unsigned i = 0; i < step; i++)
			put_zz(&b, i ? -8 : (int64_t)(0x500000 + s * 0x1000));
		rec(pl, MAPLOG_TYPE_STACK, 0, &b);
	}
	clear(&b);
	put_var(&b, MAPLOG_MAX_FRAMES / step);
	put_var(&b, 1000);
	rec(pl, MAPLOG_TYPE_SAMPLE, 5, &b);
	clear(&b); /* one frame too many */
	put_var(&b, MAPLOG_MAX_FRAMES / step);
	put_var(&b, 0);
	put_var(&b, 1);
	put_zz(&b, 1);
	rec(pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b); /* drop one, add one: exactly the limit again */
	put_var(&b, MAPLOG_MAX_FRAMES / step);
	put_var(&b, 1);
	put_var(&b, 1);
	put_zz(&b, 1);
	rec(pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b);
	put_var(&b, MAPLOG_MAX_FRAMES / step + 1);
	put_var(&b, 1000);
	rec(pl, MAPLOG_TYPE_SAMPLE, 5, &b);
	free(b.p);
}

static void raw_seeds(void)
{
	struct buf log = {0}, pl = {0};
	struct chunk_opts co = {.pid = 100, .tid = 0, .seq = 0,
				.base_ts = 1000000000, .sealed = 1};

	clear(&log);
	file_header(&log, 64);
	raw_records(&pl);
	chunk(&log, &pl, &co);
	save("raw-all-records", log.p, log.n);

	clear(&log);
	clear(&pl);
	file_header(&log, 64);
	raw_errors(&pl);
	co.sealed = 0;
	chunk(&log, &pl, &co);
	save("raw-record-errors", log.p, log.n);

	clear(&log);
	clear(&pl);
	file_header(&log, 64);
	raw_frame_limit(&pl);
	co.sealed = 1;
	co.tid = 101;
	chunk(&log, &pl, &co);
	save("raw-frame-limit", log.p, log.n);

	/* untrimmed chunks, a zeroed reserved region, and a last chunk
	 * whose capacity runs past the end of the file */
	clear(&log);
	clear(&pl);
	file_header(&log, 128);
	{
		struct buf b = {0};
		put_var(&b, 1);
		put_var(&b, 2);
		put_str(&b, "gap");
		rec(&pl, MAPLOG_TYPE_MARK, 0, &b);
		free(b.p);
	}
	co.tid = 0;
	co.extra = 64;
	chunk(&log, &pl, &co);
	put_zeros(&log, 200);
	co.seq = 1;
	co.extra = 0;
	co.sealed = 0;
	chunk(&log, &pl, &co);
	co.seq = 2;
	co.extra = 4096;
	co.sealed = 1;
	chunk(&log, &pl, &co);
	log.n -= 4000;
	save("raw-gaps-and-slack", log.p, log.n);

	/* an open chunk whose `used` exceeds what the stream holds */
	clear(&log);
	clear(&pl);
	file_header(&log, 64);
	{
		struct buf b = {0};
		put_var(&b, 1);
		put_var(&b, 2);
		put_str(&b, "cut");
		for (int i = 0; i < 4; i++)
			rec(&pl, MAPLOG_TYPE_MARK, 1, &b);
		free(b.p);
	}
	co.seq = 0;
	co.sealed = 0;
	co.extra = 256;
	co.used_plus = 200;
	chunk(&log, &pl, &co);
	log.n -= 256;
	save("raw-open-used-past-end", log.p, log.n);

	free(log.p);
	free(pl.p);
}

/*
 * Reproducers of parser bugs (crash-*), kept as regression tests.  Those
 * whose failure depends on how the stream is cut rely on fuzz_maplog's
 * piece-size generator: change that and they may stop reproducing.  The
 * corpus also holds reproducers saved from libFuzzer as they were found
 * (crash-feed-frees-map-in-buildid, crash-pieces-move-eof-in-zero-space);
 * they are not written here.
 */
static void crash_seeds(void)
{
	struct buf log = {0}, pl = {0}, b = {0};
	struct chunk_opts co = {.pid = 100, .base_ts = 1000000000,
				.sealed = 1};

	/* the first stack of a parser is empty: its frames start at
	 * NULL + 0, which UBSan reports (maplog.c add_stack) */
	file_header(&log, 64);
	put_var(&b, 0);
	put_var(&b, 0);
	put_var(&b, 0);
	rec(&pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b);
	put_var(&b, 1);
	put_var(&b, 1000);
	rec(&pl, MAPLOG_TYPE_SAMPLE, 1, &b);
	chunk(&log, &pl, &co);
	save("crash-empty-first-stack-null-offset", log.p, log.n);

	/* zeros, then less than a chunk header: the truncated EOF's offset
	 * and eof_dropped depend on how the bytes were fed (chunk_begin
	 * skips zero space only with a chunk header's worth buffered) */
	clear(&log);
	file_header(&log, 64);
	put_zeros(&log, 64);
	for (int i = 0; i < 30; i++)
		put_u8(&log, 1);
	save("crash-pieces-move-truncated-eof", log.p, log.n);

	/* one 4096-frame stack, then 6-byte STACK records that each copy
	 * it whole: 16 KiB of log make the parser hold 64 MiB of frames
	 * (memory grows ~4000 times faster than the input) */
	clear(&log);
	clear(&pl);
	file_header(&log, 64);
	clear(&b);
	put_var(&b, 0);
	put_var(&b, 0);
	put_var(&b, MAPLOG_MAX_FRAMES);
	put_zeros(&b, MAPLOG_MAX_FRAMES);
	rec(&pl, MAPLOG_TYPE_STACK, 0, &b);
	clear(&b);
	put_var(&b, 1);
	put_var(&b, 0);
	put_var(&b, 0);
	while (MAPLOG_FILE_HEADER_SIZE + MAPLOG_CHUNK_HEADER_SIZE + pl.n +
		       6 <= (16u << 10))
		rec(&pl, MAPLOG_TYPE_STACK, 0, &b);
	co.sealed = 0;
	chunk(&log, &pl, &co);
	save("crash-stack-copies-amplify-memory", log.p, log.n);

	/* the last chunk's capacity runs past the end of the file: read(2)
	 * on a file skips it with lseek, past the end, and reports EOF (and
	 * st_bytes) there.  The header's alloc_end field, outside the CRC,
	 * is chosen so that fuzz_maplog takes way (f) for this input. */
	clear(&log);
	clear(&pl);
	file_header(&log, 64);
	clear(&b);
	put_var(&b, 1);
	put_var(&b, 2);
	put_str(&b, "slack");
	rec(&pl, MAPLOG_TYPE_MARK, 0, &b);
	co.sealed = 1;
	co.used_plus = 0;
	co.extra = 4096;
	chunk(&log, &pl, &co);
	log.n -= 4000;
	for (uint64_t v = 0;; v++) {
		maplog_st64(log.p + MAPLOG_FH_ALLOC_END, v);
		if ((fnv1a(log.p, log.n) & 7) == 4)
			break;
	}
	save("crash-file-lseek-past-end", log.p, log.n);

	free(log.p);
	free(pl.p);
	free(b.p);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkseeds OUTDIR\n");
		return 2;
	}
	outdir = argv[1];
	synth_seeds();
	raw_seeds();
	crash_seeds();
	return 0;
}
