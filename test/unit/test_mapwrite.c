/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the record encoder (lib/log/mapwrite.c): the file and
 * chunk headers it writes; that a record that does not fit leaves the
 * chunk, its bookkeeping and its stack table as they were, and that one
 * that fits exactly does; MAPS_EBADSIZE and MAPS_EINVAL; trimming and
 * sealing; that the header's `used` always covers whole records only, so
 * a reader of the shared memory never sees half a record; what samples
 * cost in bytes; and stack-table generations wrapping around.  The parser
 * reads back everything written here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <mapsample/maplog.h>
#include "log/mapwrite.h"

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

#define CH_HDR MAPLOG_CHUNK_HEADER_SIZE
#define FH MAPLOG_FILE_HEADER_SIZE

static const struct mapw_chunk_id test_id = {
	.pid = 4242, .tid = 17, .image = 3, .seq = 9};

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rng(s) % n);
}

static void *xcalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	ck_assert_ptr_nonnull(p);
	return p;
}

static void random_stack(uint64_t *s, uint64_t *pc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pc[i] = rng_below(s, 3) ? 0x555555554000ull +
						  rng_below(s, 1u << 22)
					: rng(s);
}

static struct maplog_ev ev_make(enum maplog_type type, uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = type;
	ev.ev_ts = ts;
	return ev;
}

static struct maplog_ev mark(uint64_t ts, const char *text)
{
	struct maplog_ev ev = ev_make(MAPLOG_TYPE_MARK, ts);
	ev.ev_u.mark.mk_text = text;
	return ev;
}

/* A table big enough for anything here. */
struct table {
	struct mapw_stab t;
	void *mem;
	size_t size;
};

static void table_init(struct table *tb, uint32_t nslots, uint32_t frames)
{
	tb->size = mapw_stab_size(nslots, frames);
	tb->mem = xcalloc(tb->size);
	ck_assert_int_eq(mapw_stab_init(&tb->t, tb->mem, nslots, frames), 0);
}

/*
 * Parses a log (file header at buf, chunks after it).  Returns the number
 * of records; *errors gets the number of MAPLOG_ERROR reports, *trunc the
 * EOF's truncated flag.  want_samples, when given, are the frames of the
 * samples in order (want_npc their depths).
 */
static size_t parse_count(const uint8_t *buf, size_t len, int *errors,
			  int *trunc, const uint64_t *const *want_pc,
			  const uint32_t *want_npc, size_t nwant)
{
	struct maplog_ev ev;
	size_t n = 0, ns = 0;
	*errors = 0;
	*trunc = 0;
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_feed(p, buf, len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	for (int iter = 0; iter < 1000000; iter++) {
		int rc = maplog_read(p, &ev);
		if (rc == 0) {
			n++;
			if (ev.ev_type != MAPLOG_TYPE_SAMPLE || !want_pc)
				continue;
			REQUIRE(ns < nwant, "more samples than written");
			REQUIRE(ev.ev_u.sample.sa_npc == want_npc[ns],
				"sample %zu: %u frames, want %u", ns,
				ev.ev_u.sample.sa_npc, want_npc[ns]);
			for (uint32_t f = 0; f < want_npc[ns]; f++)
				REQUIRE(ev.ev_u.sample.sa_pc[f] ==
						want_pc[ns][f],
					"sample %zu frame %u differs", ns, f);
			ns++;
			continue;
		}
		if (ev.ev_state == MAPLOG_ERROR) {
			(*errors)++;
			continue;
		}
		REQUIRE(ev.ev_state == MAPLOG_EOF, "state %d", ev.ev_state);
		*trunc = ev.ev_u.eof.eof_truncated;
		break;
	}
	if (want_pc)
		REQUIRE(ns == nwant, "%zu samples read, %zu written", ns,
			nwant);
	maplog_close(p);
	return n;
}

/* ------------------------------------------------------------------ */
/* Headers */

START_TEST(mapwrite_file_header)
{
	uint8_t h[FH + 8];
	memset(h, 0xee, sizeof(h));
	mapw_file_header(h, 4096);
	ck_assert_mem_eq(h, MAPLOG_FILE_MAGIC, 8);
	ck_assert_uint_eq(maplog_ld16(h + MAPLOG_FH_VMAJOR),
			  MAPLOG_VERSION_MAJOR);
	ck_assert_uint_eq(maplog_ld16(h + MAPLOG_FH_VMINOR),
			  MAPLOG_VERSION_MINOR);
	ck_assert_uint_eq(maplog_ld32(h + MAPLOG_FH_FLAGS), 0);
	ck_assert_uint_eq(maplog_ld32(h + MAPLOG_FH_DATA_OFFSET), 4096);
	ck_assert_uint_eq(maplog_ld32(h + MAPLOG_FH_CRC),
			  maplog_crc32c(0, h, MAPLOG_FH_CRC));
	ck_assert_uint_eq(maplog_ld64(h + MAPLOG_FH_ALLOC_END), 4096);
	for (unsigned i = MAPLOG_FH_ALLOC_END + 8; i < FH; i++)
		ck_assert_uint_eq(h[i], 0);
	for (unsigned i = FH; i < sizeof(h); i++)
		ck_assert_uint_eq(h[i], 0xee);

	/* a header alone is an empty log */
	int errors, trunc;
	mapw_file_header(h, FH);
	ck_assert_uint_eq(parse_count(h, FH, &errors, &trunc, NULL, NULL, 0),
			  0);
	ck_assert_int_eq(errors, 0);
	ck_assert_int_eq(trunc, 0);
}
END_TEST

START_TEST(mapwrite_chunk_header)
{
	static uint8_t mem[4096];
	struct mapw_chunk c;
	struct mapw_chunk_id id = {.pid = 0x01020304, .tid = 0x05060708,
				   .image = 0x090a0b0c, .seq = 0x0d0e0f10};

	memset(mem, 0xee, sizeof(mem));
	ck_assert_int_eq(mapw_chunk_open(&c, mem, 1024, &id,
					 0x1122334455667788ull, NULL),
			 0);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_MAGIC),
			  MAPLOG_CHUNK_MAGIC);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_CAPACITY), 1024);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_PID), id.pid);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_TID), id.tid);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_IMAGE), id.image);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_SEQ), id.seq);
	ck_assert_uint_eq(maplog_ld64(mem + MAPLOG_CH_BASE_TS),
			  0x1122334455667788ull);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_HCRC),
			  maplog_crc32c(0, mem, MAPLOG_CH_HCRC));
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_FLAGS), 0);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_USED), 0);
	ck_assert_uint_eq(mapw_chunk_room(&c), 1024 - CH_HDR);
	ck_assert_uint_eq(c.used, 0);
	ck_assert_uint_eq(c.cap, 1024);
	ck_assert_uint_eq(mem[CH_HDR], 0xee); /* payload not touched */

	struct maplog_ev ev = mark(0x1122334455667788ull + 5, "sealed");
	ck_assert_int_eq(mapw_event(&c, &ev), 0);
	uint32_t hcrc = maplog_ld32(mem + MAPLOG_CH_HCRC);
	mapw_chunk_seal(&c);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_FLAGS),
			  MAPLOG_CHUNK_SEALED);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_PCRC),
			  maplog_crc32c(0, mem + CH_HDR, c.used));
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_HCRC), hcrc);
	ck_assert_uint_eq(maplog_ld32(mem + MAPLOG_CH_USED), c.used);

	/* invalid arguments */
	ck_assert_int_eq(mapw_chunk_open(&c, mem, 1020, &id, 0, NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(&c, mem, CH_HDR + 56, &id, 0, NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(&c, mem, MAPLOG_MAX_CHUNK + 8, &id, 0,
					 NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(&c, NULL, 1024, &id, 0, NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(&c, mem, 1024, NULL, 0, NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(NULL, mem, 1024, &id, 0, NULL),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_chunk_open(&c, mem, CH_HDR + 64, &id, 0, NULL),
			 0);
	ck_assert_uint_eq(mapw_chunk_room(&c), 64);
}
END_TEST

START_TEST(mapwrite_stab_init)
{
	struct mapw_stab t;
	static uint64_t mem[4096];
	static const uint32_t bad[] = {0, 1, 3, 6, 12, 100, 0x80000001u};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(mapw_stab_init(&t, mem, bad[i], 16),
				 MAPS_EINVAL);
	ck_assert_int_eq(mapw_stab_init(NULL, mem, 16, 16), MAPS_EINVAL);
	ck_assert_int_eq(mapw_stab_init(&t, NULL, 16, 16), MAPS_EINVAL);
	ck_assert_int_eq(mapw_stab_init(&t, mem, 2, 0), 0);
	ck_assert_int_eq(mapw_stab_init(&t, mem, 64, 256), 0);
	ck_assert_uint_eq(t.nslots, 64);
	ck_assert_uint_eq(t.arena_cap, 256);
	ck_assert_uint_eq(t.count, 0);
	/* the layout fits in the size asked for */
	size_t sz = mapw_stab_size(64, 256);
	ck_assert_uint_le(sz, sizeof(mem));
	uint8_t *lo = (uint8_t *)mem, *hi = lo + sz;
	ck_assert((uint8_t *)t.slots >= lo && (uint8_t *)(t.slots + 64) <= hi);
	ck_assert((uint8_t *)t.ctx >= lo && (uint8_t *)(t.ctx + 64) <= hi);
	ck_assert((uint8_t *)t.arena >= lo &&
		  (uint8_t *)(t.arena + 256) <= hi);
	ck_assert((uint8_t *)t.id_off >= lo &&
		  (uint8_t *)(t.id_off + 32) <= hi);
	ck_assert((uint8_t *)t.id_n >= lo && (uint8_t *)(t.id_n + 32) <= hi);
	ck_assert_uint_gt(mapw_stab_size(128, 256), sz);
	ck_assert_uint_gt(mapw_stab_size(64, 257), sz);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Records that do not fit */

struct target {
	const char *name;
	struct maplog_ev ev;
	const uint64_t *pre_pc; /* a sample written first, or NULL */
	uint32_t pre_npc;
	int no_table;
};

enum { T_BASE = 1000000, T_AT = 2000000 };

static char big_text[2001];
static uint64_t stk_a[32], stk_a_leaf[32], stk_a_ext[33], stk_deep[200];
static const char *const tg_argv[] = {"prog", "--x=1", "", "last arg",
				      NULL};
static uint8_t tg_bid[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
			     11, 12, 13, 14, 15, 16, 17, 18, 19, 20};

static size_t make_targets(struct target *t)
{
	uint64_t s = 31;
	size_t n = 0;
	/* body: ts delta 3 bytes, tid, value, length, text */
	static char t121[122], t122[123];

	memset(big_text, 'q', sizeof(big_text) - 1);
	memset(t121, 'a', sizeof(t121) - 1);
	memset(t122, 'b', sizeof(t122) - 1);
	random_stack(&s, stk_a, 32);
	memcpy(stk_a_leaf, stk_a, sizeof(stk_a));
	stk_a_leaf[0] += 0x44;
	stk_a_ext[0] = 0x400000;
	memcpy(stk_a_ext + 1, stk_a, sizeof(stk_a));
	random_stack(&s, stk_deep, 200);

	memset(t, 0, 16 * sizeof(*t));
	t[n].name = "empty mark";
	t[n++].ev = mark(T_AT, "");
	t[n].name = "mark, body 127 bytes";
	t[n++].ev = mark(T_AT, t121);
	t[n].name = "mark, body 128 bytes";
	t[n++].ev = mark(T_AT, t122);
	t[n].name = "mark, 2000 bytes";
	t[n].ev = mark(T_AT, big_text);
	t[n].ev.ev_u.mark.mk_tid = UINT32_MAX;
	t[n++].ev.ev_u.mark.mk_value = UINT64_MAX;
	t[n].name = "initialize";
	t[n].ev = ev_make(MAPLOG_TYPE_INITIALIZE, T_AT);
	t[n].ev.ev_u.init.in_argc = 4;
	t[n].ev.ev_u.init.in_argv = tg_argv;
	t[n].ev.ev_u.init.in_host = "host";
	t[n++].ev.ev_u.init.in_exe = "/usr/bin/prog";
	t[n].name = "map-in";
	t[n].ev = ev_make(MAPLOG_TYPE_MAP_IN, T_AT);
	t[n].ev.ev_u.map_in.mi_start = 0x7f0000000000ull;
	t[n].ev.ev_u.map_in.mi_end = 0x7f0000100000ull;
	t[n].ev.ev_u.map_in.mi_buildid = tg_bid;
	t[n].ev.ev_u.map_in.mi_buildid_len = 20;
	t[n++].ev.ev_u.map_in.mi_path = "/lib/libc.so.6";
	t[n].name = "double metric value";
	t[n].ev = ev_make(MAPLOG_TYPE_METRIC_VALUE, T_AT);
	t[n].ev.ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	t[n++].ev.ev_u.mval.mv_v.dbl = 3.25;

	t[n].name = "sample, new 32-frame stack";
	t[n].ev = ev_make(MAPLOG_TYPE_SAMPLE, T_AT);
	t[n].ev.ev_u.sample.sa_weight = 1000000;
	t[n].ev.ev_u.sample.sa_npc = 32;
	t[n++].ev.ev_u.sample.sa_pc = stk_a;
	t[n] = t[n - 1];
	t[n].name = "sample, repeated stack";
	t[n].pre_pc = stk_a;
	t[n++].pre_npc = 32;
	t[n] = t[n - 1];
	t[n].name = "sample, leaf variant";
	t[n++].ev.ev_u.sample.sa_pc = stk_a_leaf;
	t[n] = t[n - 1];
	t[n].name = "sample, extends previous";
	t[n].ev.ev_u.sample.sa_npc = 33;
	t[n++].ev.ev_u.sample.sa_pc = stk_a_ext;
	t[n] = t[n - 1];
	t[n].name = "sample, suffix of previous";
	t[n].ev.ev_u.sample.sa_npc = 20;
	t[n++].ev.ev_u.sample.sa_pc = stk_a + 12;
	t[n].name = "sample, no frames, tid";
	t[n].ev = ev_make(MAPLOG_TYPE_SAMPLE, T_AT);
	t[n].ev.ev_u.sample.sa_tid = 123456;
	t[n++].ev.ev_u.sample.sa_weight = 7;
	t[n].name = "sample, new 200-frame stack";
	t[n].ev = ev_make(MAPLOG_TYPE_SAMPLE, T_AT);
	t[n].ev.ev_u.sample.sa_npc = 200;
	t[n++].ev.ev_u.sample.sa_pc = stk_deep;
	t[n] = t[n - 1];
	t[n].name = "sample, no stack table";
	t[n].ev.ev_u.sample.sa_npc = 32;
	t[n].ev.ev_u.sample.sa_pc = stk_a;
	t[n++].no_table = 1;
	ck_assert_uint_le(n, 16);
	return n;
}

/* Fills c with marks (timestamp unchanged) until exactly room bytes are
 * free. */
static void fill_to_room(struct mapw_chunk *c, uint32_t room)
{
	static char pad[128];
	uint32_t rem = mapw_chunk_room(c) - room;
	ck_assert_uint_ge(mapw_chunk_room(c), room);
	memset(pad, 'p', 110);
	while (rem) {
		uint32_t l = rem >= 112 ? 100 : rem - 6;
		REQUIRE(rem >= 6, "cannot pad %u bytes", rem);
		pad[l] = 0;
		struct maplog_ev ev = mark(c->last_ts, pad);
		uint32_t before = c->used;
		REQUIRE(mapw_event(c, &ev) == 0, "padding does not fit");
		REQUIRE(c->used == before + 6 + l, "pad record of %u bytes",
			c->used - before);
		pad[l] = 'p';
		rem -= 6 + l;
	}
	ck_assert_uint_eq(mapw_chunk_room(c), room);
}

struct setup {
	uint8_t *mem;
	uint32_t cap;
	struct mapw_chunk c;
	struct table tb;
};

/* A chunk with t's preceding sample, then padding down to room bytes. */
static void setup_chunk(struct setup *su, const struct target *t,
			uint32_t cap, uint32_t room)
{
	memset(su->mem, 0, cap + FH);
	mapw_file_header(su->mem, FH);
	ck_assert_int_eq(mapw_chunk_open(&su->c, su->mem + FH, cap, &test_id,
					 T_BASE,
					 t->no_table ? NULL : &su->tb.t),
			 0);
	if (t->pre_pc)
		ck_assert_int_eq(mapw_sample(&su->c, T_BASE, 0, 1, t->pre_npc,
					     t->pre_pc),
				 0);
	if (room != UINT32_MAX)
		fill_to_room(&su->c, room);
}

/* Bytes target t takes after its setup. */
static uint32_t target_size(struct setup *su, const struct target *t,
			    uint32_t cap)
{
	setup_chunk(su, t, cap, UINT32_MAX);
	uint32_t before = su->c.used;
	ck_assert_int_eq(mapw_event(&su->c, &t->ev), 0);
	return su->c.used - before;
}

static int chunk_same(const struct mapw_chunk *a, const struct mapw_chunk *b)
{
	return a->base == b->base && a->cap == b->cap && a->used == b->used &&
	       a->last_ts == b->last_ts && a->last_leaf == b->last_leaf &&
	       a->nstacks == b->nstacks && a->prev == b->prev &&
	       a->stab == b->stab;
}

/*
 * For every target and every room from 0 to its size: it fails with
 * MAPS_ENOSPC below its size, leaving what readers and later appends see
 * as it was, and fits exactly at its size.  strict: also no byte of the
 * chunk's memory changed (mapwrite.h: "writes nothing").
 */
static void enospc_all(int strict)
{
	struct target t[16];
	size_t nt = make_targets(t);
	struct setup su;
	const uint32_t cap = 8192;
	uint64_t s = 3;

	su.mem = xcalloc(FH + cap);
	table_init(&su.tb, 256, 4096);
	uint8_t *before = xcalloc(cap);
	uint8_t *tb_before = xcalloc(su.tb.size);

	for (size_t i = 0; i < nt; i++) {
		uint32_t size = target_size(&su, &t[i], cap);
		ck_assert_uint_lt(size, cap - 512);
		/* type, length varint, body */
		if (i == 1)
			ck_assert_uint_eq(size, 1 + 1 + 127);
		if (i == 2)
			ck_assert_uint_eq(size, 1 + 2 + 128);
		for (uint32_t room = 0; room <= size + 8; room++) {
			if (size > 300 && room > 40 && room + 40 < size &&
			    rng_below(&s, 16))
				continue;
			setup_chunk(&su, &t[i], cap, room);
			struct mapw_chunk cb = su.c;
			struct mapw_stab sb = su.tb.t;
			memcpy(before, su.c.base, cap);
			memcpy(tb_before, su.tb.mem, su.tb.size);
			int rc = mapw_event(&su.c, &t[i].ev);
			if (room >= size) {
				REQUIRE(rc == 0, "%s: no fit in %u bytes (%u)",
					t[i].name, room, size);
				REQUIRE(su.c.used == cb.used + size,
					"%s: %u bytes in room %u, %u alone",
					t[i].name, su.c.used - cb.used, room,
					size);
				if (room != size)
					continue;
				ck_assert_uint_eq(mapw_chunk_room(&su.c), 0);
				mapw_chunk_seal(&su.c);
				int errors, trunc;
				size_t n = parse_count(su.mem, FH + cap,
						       &errors, &trunc, NULL,
						       NULL, 0);
				REQUIRE(errors == 0 && !trunc,
					"%s: exact fit does not parse",
					t[i].name);
				REQUIRE(n >= 1, "%s: nothing parsed",
					t[i].name);
				continue;
			}
			REQUIRE(rc == MAPS_ENOSPC, "%s: room %u of %u: %s",
				t[i].name, room, size, maps_strerror(rc));
			REQUIRE(chunk_same(&cb, &su.c),
				"%s: room %u: chunk state changed", t[i].name,
				room);
			REQUIRE(memcmp(before, su.c.base,
				       CH_HDR + cb.used) == 0,
				"%s: room %u: header or records changed",
				t[i].name, room);
			REQUIRE(memcmp(tb_before, su.tb.mem, su.tb.size) == 0 &&
					memcmp(&sb, &su.tb.t, sizeof(sb)) == 0,
				"%s: room %u: stack table changed", t[i].name,
				room);
			if (strict) {
				size_t k = CH_HDR + cb.used;
				while (k < cap && before[k] == su.c.base[k])
					k++;
				REQUIRE(k == cap,
					"%s: room %u: failed append wrote "
					"byte %zu past the committed %u "
					"(%#x -> %#x)",
					t[i].name, room, k - CH_HDR - cb.used,
					cb.used, before[k], su.c.base[k]);
			}
		}
	}
	free(before);
	free(tb_before);
	free(su.tb.mem);
	free(su.mem);
}

START_TEST(mapwrite_enospc_unchanged)
{
	enospc_all(0);
}
END_TEST

/* mapwrite.h: "A function that runs out of room writes nothing". */
START_TEST(mapwrite_enospc_writes_nothing)
{
	enospc_all(1);
}
END_TEST

/*
 * A failed append, then trim and seal (a thread that found no free chunk
 * and exited): the capacity given back must be as clean as trim promises
 * ("a chunk whose tail a file writer will leave as zeros"), so the parser
 * reads the log without damage.
 */
START_TEST(mapwrite_trim_after_enospc)
{
	const uint32_t cap = 512;
	uint8_t *log = xcalloc(FH + 2 * cap);
	struct mapw_chunk c;
	struct maplog_ev ev;

	mapw_file_header(log, FH);
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, cap, &test_id, 10,
					 NULL),
			 0);
	static char text[1000];
	memset(text, 'q', sizeof(text) - 1);
	fill_to_room(&c, 100);
	ev = mark(20, text);
	ev.ev_u.mark.mk_tid = UINT32_MAX;
	ev.ev_u.mark.mk_value = UINT64_MAX;
	ck_assert_int_eq(mapw_event(&c, &ev), MAPS_ENOSPC);
	uint32_t ncap = mapw_chunk_trim(&c);
	ck_assert_uint_lt(ncap, cap);
	mapw_chunk_seal(&c);
	/* the log as a file writer leaves it: the old reservation */
	int errors, trunc;
	size_t n = parse_count(log, FH + cap, &errors, &trunc, NULL, NULL, 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_msg(errors == 0 && !trunc,
		      "trimmed chunk followed by %d damage reports "
		      "(truncated %d): the failed append left bytes in the "
		      "space trim gave back",
		      errors, trunc);
	free(log);
}
END_TEST

/*
 * JOB records (mapsample-log(5), type 18): the extremes of each field
 * read back as written; a rank below -1 (no process has one) is a
 * damaged record, reported, and reading goes on with the next.
 */
START_TEST(mapwrite_job_record)
{
	const uint32_t cap = 1024;
	uint8_t *log = xcalloc(FH + cap);
	struct mapw_chunk c;
	mapw_file_header(log, FH);
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, cap, &test_id, 10,
					 NULL),
			 0);
	static const int32_t ranks[] = {INT32_MAX, -1, -2, 0};
	for (size_t i = 0; i < 4; i++) {
		struct maplog_ev ev = ev_make(MAPLOG_TYPE_JOB, 20 + i);
		ev.ev_u.job.jb_rank = ranks[i];
		ev.ev_u.job.jb_size = i ? (uint32_t)i : UINT32_MAX;
		ev.ev_u.job.jb_role = (uint32_t)(i & 1);
		ev.ev_u.job.jb_job_id = i == 1 ? NULL : "1372454913";
		ev.ev_u.job.jb_launcher = "openmpi";
		ev.ev_u.job.jb_source = i == 3 ? "MPI" : "OMPI_COMM_WORLD_RANK";
		ck_assert_int_eq(mapw_event(&c, &ev), 0);
	}
	mapw_chunk_seal(&c);
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_feed(p, log, FH + cap), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	struct maplog_ev ev;
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_int_eq(ev.ev_type, MAPLOG_TYPE_JOB);
	ck_assert_int_eq(ev.ev_u.job.jb_rank, INT32_MAX);
	ck_assert_uint_eq(ev.ev_u.job.jb_size, UINT32_MAX);
	ck_assert_uint_eq(ev.ev_u.job.jb_role, MAPLOG_JOB_APPLICATION);
	ck_assert_str_eq(ev.ev_u.job.jb_job_id, "1372454913");
	ck_assert_str_eq(ev.ev_u.job.jb_source, "OMPI_COMM_WORLD_RANK");
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_int_eq(ev.ev_u.job.jb_rank, -1);
	ck_assert_uint_eq(ev.ev_u.job.jb_role, MAPLOG_JOB_LAUNCHER);
	ck_assert_str_eq(ev.ev_u.job.jb_job_id, "");
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_ERROR);
	ck_assert_int_eq(ev.ev_error, MAPS_EBADRECORD);
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_int_eq(ev.ev_u.job.jb_rank, 0);
	ck_assert_str_eq(ev.ev_u.job.jb_source, "MPI");
	ck_assert_str_eq(ev.ev_u.job.jb_launcher, "openmpi");
	maplog_close(p);
	free(log);
}
END_TEST

START_TEST(mapwrite_ebadsize)
{
	static uint8_t mem[FH + 1024];
	struct mapw_chunk c;
	static char text[200];
	memset(text, 'z', sizeof(text) - 1);

	/* a record that can never fit an empty chunk of this size */
	ck_assert_int_eq(mapw_chunk_open(&c, mem + FH, CH_HDR + 64, &test_id,
					 0, NULL),
			 0);
	struct maplog_ev ev = mark(0, text);
	uint8_t hdr[CH_HDR];
	memcpy(hdr, mem + FH, CH_HDR);
	ck_assert_int_eq(mapw_event(&c, &ev), MAPS_EBADSIZE);
	ck_assert_uint_eq(c.used, 0);
	ck_assert_mem_eq(mem + FH, hdr, CH_HDR);
	/* after a record: no room now, and no room ever */
	struct maplog_ev small = mark(0, "s");
	ck_assert_int_eq(mapw_event(&c, &small), 0);
	int rc = mapw_event(&c, &ev);
	ck_assert_msg(rc == MAPS_ENOSPC || rc == MAPS_EBADSIZE, "got %s",
		      maps_strerror(rc));
	/* one that fits exactly is fine */
	ck_assert_int_eq(mapw_chunk_open(&c, mem + FH, CH_HDR + 64, &test_id,
					 0, NULL),
			 0);
	text[58] = 0; /* 1+1 + ts 1 + tid 1 + value 1 + len 1 + 58 */
	ck_assert_int_eq(mapw_event(&c, &ev), 0);
	ck_assert_uint_eq(mapw_chunk_room(&c), 0);
}
END_TEST

/*
 * mapw_event: "MAPS_EBADSIZE if the record cannot fit even an empty
 * chunk of this size".  A caller that answers MAPS_ENOSPC with a fresh
 * chunk would otherwise retry a sample that never fits forever.
 */
START_TEST(mapwrite_sample_never_fits)
{
	static uint64_t pc[MAPLOG_MAX_FRAMES];
	static uint8_t mem[4096];
	struct mapw_chunk c;
	uint64_t s = 8;
	for (uint32_t i = 0; i < MAPLOG_MAX_FRAMES; i++)
		pc[i] = rng(&s);
	for (int table = 0; table < 2; table++) {
		struct table tb;
		table_init(&tb, 64, 8192);
		ck_assert_int_eq(mapw_chunk_open(&c, mem, sizeof(mem), &test_id,
						 0, table ? &tb.t : NULL),
				 0);
		struct maplog_ev ev = ev_make(MAPLOG_TYPE_SAMPLE, 5);
		ev.ev_u.sample.sa_npc = MAPLOG_MAX_FRAMES;
		ev.ev_u.sample.sa_pc = pc;
		int rc = mapw_event(&c, &ev);
		ck_assert_msg(rc == MAPS_EBADSIZE,
			      "a %u-frame sample in an empty %zu-byte chunk: "
			      "%s, want %s",
			      MAPLOG_MAX_FRAMES, sizeof(mem), maps_strerror(rc),
			      maps_strerror(MAPS_EBADSIZE));
		ck_assert_uint_eq(c.used, 0);
		free(tb.mem);
	}
}
END_TEST

START_TEST(mapwrite_einval)
{
	static uint8_t mem[16384];
	static uint64_t pc[MAPLOG_MAX_FRAMES + 1];
	struct mapw_chunk c;
	struct table tb;

	table_init(&tb, 64, 8192);
	ck_assert_int_eq(mapw_chunk_open(&c, mem, sizeof(mem), &test_id, 0,
					 &tb.t),
			 0);
	struct maplog_ev ok = mark(1, "ok");
	ck_assert_int_eq(mapw_event(&c, &ok), 0);
	uint8_t before[CH_HDR + 64];
	uint32_t used = c.used;
	ck_assert_uint_le(used, 64);
	memcpy(before, mem, CH_HDR + used);

	ck_assert_int_eq(mapw_sample(&c, 2, 0, 1, MAPLOG_MAX_FRAMES + 1, pc),
			 MAPS_EINVAL);
	ck_assert_int_eq(mapw_sample(&c, 2, 0, 1, UINT32_MAX, pc),
			 MAPS_EINVAL);
	struct maplog_ev ev = ev_make(MAPLOG_TYPE_SAMPLE, 2);
	ev.ev_u.sample.sa_npc = MAPLOG_MAX_FRAMES + 1;
	ev.ev_u.sample.sa_pc = pc;
	ck_assert_int_eq(mapw_event(&c, &ev), MAPS_EINVAL);
	static const int bad[] = {MAPLOG_TYPE_STACK, MAPLOG_TYPE_NONE,
				  MAPLOG_TYPE_MAX_, 31};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ev = ev_make((enum maplog_type)bad[i], 2);
		ck_assert_msg(mapw_event(&c, &ev) == MAPS_EINVAL, "type %d",
			      bad[i]);
	}
	ck_assert_uint_eq(c.used, used);
	ck_assert_mem_eq(mem, before, CH_HDR + used);
	/* MAPLOG_MAX_FRAMES itself is allowed */
	ck_assert_int_eq(mapw_sample(&c, 2, 0, 1, MAPLOG_MAX_FRAMES, pc), 0);
	free(tb.mem);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Trim and seal */

START_TEST(mapwrite_trim_seal)
{
	const uint32_t cap = 16384;
	uint8_t *log = xcalloc(FH + 3 * cap);
	struct mapw_chunk c;
	struct table tb;
	uint64_t s = 12;
	uint64_t pcs[10][12];
	const uint64_t *want_pc[40];
	uint32_t want_npc[40];
	size_t nw = 0;
	static char txt[64];

	table_init(&tb, 256, 4096);
	for (int i = 0; i < 10; i++)
		random_stack(&s, pcs[i], 12);
	for (int payload_mod = 0; payload_mod < 8; payload_mod++) {
		/* old bytes everywhere: trim must clear what it keeps */
		memset(log, 0xee, FH + 3 * cap);
		mapw_file_header(log, FH);
		size_t at = FH;
		nw = 0;
		size_t nrec = 0;
		for (int k = 0; k < 3; k++) {
			ck_assert_int_eq(mapw_chunk_open(&c, log + at, cap,
							 &test_id, 100, &tb.t),
					 0);
			for (int i = 0; i < 10; i++) {
				ck_assert_int_eq(mapw_sample(&c, 100 + i, 0, 1,
							     12, pcs[i]),
						 0);
				want_pc[nw] = pcs[i];
				want_npc[nw++] = 12;
				nrec++;
			}
			/* vary used mod 8 */
			memset(txt, 't', sizeof(txt) - 1);
			txt[payload_mod + 8 * k] = 0;
			struct maplog_ev ev = mark(200, txt);
			ck_assert_int_eq(mapw_event(&c, &ev), 0);
			nrec++;
			uint32_t used = c.used;
			uint32_t ncap = mapw_chunk_trim(&c);
			ck_assert_uint_eq(ncap, (CH_HDR + used + 7) & ~7u);
			ck_assert_uint_eq(c.cap, ncap);
			ck_assert_uint_eq(c.used, used);
			ck_assert_uint_eq(mapw_chunk_room(&c), ncap - CH_HDR -
							       used);
			uint8_t *h = log + at;
			ck_assert_uint_eq(maplog_ld32(h + MAPLOG_CH_CAPACITY),
					  ncap);
			ck_assert_uint_eq(maplog_ld32(h + MAPLOG_CH_HCRC),
					  maplog_crc32c(0, h, MAPLOG_CH_HCRC));
			for (uint32_t b = CH_HDR + used; b < ncap; b++)
				ck_assert_uint_eq(h[b], 0);
			if (k != 1)
				mapw_chunk_seal(&c); /* the middle one open */
			at += ncap;
		}
		int errors, trunc;
		size_t n = parse_count(log, at, &errors, &trunc, want_pc,
				       want_npc, nw);
		ck_assert_uint_eq(n, nrec);
		ck_assert_int_eq(errors, 0);
		ck_assert_int_eq(trunc, 0);
	}
	/* an empty chunk trims to its header */
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, cap, &test_id, 0, NULL),
			 0);
	ck_assert_uint_eq(mapw_chunk_trim(&c), CH_HDR);
	mapw_chunk_seal(&c);
	int errors, trunc;
	ck_assert_uint_eq(parse_count(log, FH + CH_HDR, &errors, &trunc, NULL,
				      NULL, 0),
			  0);
	ck_assert_int_eq(errors, 0);
	ck_assert_int_eq(trunc, 0);
	free(tb.mem);
	free(log);
}
END_TEST

/* ------------------------------------------------------------------ */
/* What a reader of the shared memory sees */

START_TEST(mapwrite_used_field)
{
	const uint32_t cap = 32768;
	uint8_t *log = xcalloc(FH + cap);
	uint8_t *snap = xcalloc(FH + cap);
	struct mapw_chunk c;
	struct table tb;
	uint64_t s = 21, pcs[8][24];
	static char txt[300];

	table_init(&tb, 1024, 8192);
	for (int i = 0; i < 8; i++)
		random_stack(&s, pcs[i], 24);
	memset(txt, 'w', sizeof(txt) - 1);
	mapw_file_header(log, FH);
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, cap, &test_id, 50,
					 &tb.t),
			 0);
	uint8_t hdr0[CH_HDR];
	memcpy(hdr0, log + FH, CH_HDR);
	for (size_t i = 0; i < 200; i++) {
		uint32_t before = c.used;
		int rc;
		uint32_t k = rng_below(&s, 10);
		if (k < 8) {
			uint32_t npc = 1 + rng_below(&s, 24);
			rc = mapw_sample(&c, 50 + i, rng_below(&s, 2) ? 0 : 99,
					 1000, npc, pcs[k] + 24 - npc);
		} else {
			txt[rng_below(&s, 299)] = 0;
			struct maplog_ev ev = mark(50 + i, txt);
			rc = mapw_event(&c, &ev);
			memset(txt, 'w', sizeof(txt) - 1);
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_gt(c.used, before);
		/* the one store readers look at says what is committed */
		ck_assert_uint_eq(maplog_ld32(log + FH + MAPLOG_CH_USED),
				  c.used);
		/* the rest of the header stays as opened */
		ck_assert_mem_eq(log + FH, hdr0, MAPLOG_CH_USED);
		ck_assert_uint_eq(maplog_ld32(log + FH + MAPLOG_CH_PCRC), 0);
		/* a reader taking a copy now gets i + 1 whole records */
		if (i % 7 == 0 || i > 190) {
			memcpy(snap, log, FH + cap);
			int errors, trunc;
			size_t n = parse_count(snap, FH + cap, &errors, &trunc,
					       NULL, NULL, 0);
			ck_assert_uint_eq(n, i + 1);
			ck_assert_int_eq(errors, 0);
			ck_assert_int_eq(trunc, 0);
		}
	}
	free(tb.mem);
	free(snap);
	free(log);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sizes */

static uint32_t cost(struct mapw_chunk *c, uint64_t ts, uint32_t tid,
		     uint32_t npc, const uint64_t *pc)
{
	uint32_t before = c->used;
	ck_assert_int_eq(mapw_sample(c, ts, tid, 1000000, npc, pc), 0);
	return c->used - before;
}

START_TEST(mapwrite_sample_sizes)
{
	static uint8_t log[FH + 65536];
	struct mapw_chunk c;
	struct table tb;
	uint64_t s = 99, a[32], b[32], leaf[32], ext[34];
	uint64_t ts = 1000000000ull;
	const uint64_t *want_pc[32];
	uint32_t want_npc[32];
	size_t nw = 0;

#define COST(npc, pc, tid)                                                     \
	(want_pc[nw] = (pc), want_npc[nw++] = (npc),                           \
	 cost(&c, ts += 1000000, (tid), (npc), (pc)))

	for (uint32_t i = 0; i < 32; i++)
		a[i] = 0x555555554000ull + 0x1000 * (32 - i) + 0x37 * i;
	random_stack(&s, b, 32);
	memcpy(leaf, a, sizeof(a));
	leaf[0] += 0x28;
	ext[0] = a[0] + 0x100;
	ext[1] = a[0] + 0x80;
	memcpy(ext + 2, a, sizeof(a));

	table_init(&tb, 1024, 8192);
	mapw_file_header(log, FH);
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, sizeof(log) - FH,
					 &test_id, ts, &tb.t),
			 0);
	uint32_t first = COST(32, a, 0);
	ck_assert_uint_eq(c.nstacks, 1);
	uint32_t again = COST(32, a, 0);
	ck_assert_msg(again <= 12, "repeated stack: %u bytes", again);
	ck_assert_uint_eq(c.nstacks, 1);
	ck_assert_uint_le(COST(32, a, 4321), 16);
	ck_assert_uint_eq(c.nstacks, 1);
	uint32_t lv = COST(32, leaf, 0);
	ck_assert_msg(lv <= 24, "leaf-only variant: %u bytes", lv);
	ck_assert_uint_eq(c.nstacks, 2);
	uint32_t sfx = COST(20, leaf + 12, 0);
	ck_assert_msg(sfx <= 20, "suffix of the previous stack: %u bytes", sfx);
	ck_assert_uint_eq(c.nstacks, 3);
	ck_assert_uint_le(COST(32, a, 0), 12);
	uint32_t ex = COST(34, ext, 0);
	ck_assert_msg(ex <= 26, "previous stack plus 2 frames: %u bytes", ex);
	ck_assert_uint_eq(c.nstacks, 4);
	uint32_t other = COST(32, b, 0);
	ck_assert_uint_eq(c.nstacks, 5);
	ck_assert_uint_le(COST(32, a, 0), 12); /* after another stack */
	ck_assert_uint_le(COST(0, NULL, 0), 10);
	ck_assert_uint_le(COST(34, ext, 0), 12);
	ck_assert_uint_le(COST(20, leaf + 12, 0), 12);
	ck_assert_uint_gt(first, 3 * again);
	ck_assert_uint_gt(other, 3 * again);
	mapw_chunk_seal(&c);
	int errors, trunc;
	ck_assert_uint_eq(parse_count(log, FH + c.cap, &errors, &trunc,
				      want_pc, want_npc, nw),
			  nw);
	ck_assert_int_eq(errors, 0);

	/* without a table every sample carries its stack */
	nw = 0;
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, sizeof(log) - FH,
					 &test_id, ts, NULL),
			 0);
	uint32_t t1 = COST(32, a, 0), t2 = COST(32, a, 0);
	ck_assert_uint_gt(t2, 32);
	ck_assert_uint_le(t2, t1);
	mapw_chunk_seal(&c);
	ck_assert_uint_eq(parse_count(log, FH + c.cap, &errors, &trunc,
				      want_pc, want_npc, nw),
			  nw);
	ck_assert_int_eq(errors, 0);
#undef COST
	free(tb.mem);
}
END_TEST

/* After a stack written with no new frames (a suffix of the one before)
 * the next new stack's first frame is still a delta from the last leaf
 * the reader saw. */
START_TEST(mapwrite_leaf_base)
{
	static uint8_t log[FH + 8192];
	uint64_t s1[6] = {0x7000, 0x6000, 0x5000, 0x4000, 0x3000, 0x2000};
	uint64_t s2[3] = {0x1234567, 0x222, 0x111};
	uint64_t s3[4] = {0x9999, 0x4000, 0x3000, 0x2000};
	const uint64_t *want_pc[8] = {s1, s1 + 2, s2, s1 + 4, s3, s1 + 1, s1};
	uint32_t want_npc[8] = {6, 4, 3, 2, 4, 5, 6};
	struct mapw_chunk c;
	int errors, trunc;

	for (int table = 0; table < 2; table++) {
		struct table tb;
		table_init(&tb, 64, 256);
		mapw_file_header(log, FH);
		ck_assert_int_eq(mapw_chunk_open(&c, log + FH, 8192 - 8,
						 &test_id, 0,
						 table ? &tb.t : NULL),
				 0);
		for (int i = 0; i < 7; i++)
			ck_assert_int_eq(mapw_sample(&c, (uint64_t)i, 0, 1,
						     want_npc[i], want_pc[i]),
					 0);
		mapw_chunk_seal(&c);
		ck_assert_uint_eq(parse_count(log, FH + c.cap, &errors, &trunc,
					      want_pc, want_npc, 7),
				  7);
		ck_assert_int_eq(errors, 0);
		free(tb.mem);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Table generations */

/*
 * Generation numbers empty the table in O(1); when they wrap, slots of
 * the first generations must not come back to life.  Chunk 0 (generation
 * 2) puts X third; chunks 1-4 write one small stack each, so X's slot, id
 * and frames stay in the table; chunk 5 is generation 2 again after the
 * wrap and must write X anew.
 */
START_TEST(mapwrite_gen_wrap)
{
	enum { DEPTH = 8, NCHUNK = 12 };
	static uint64_t p[DEPTH], q[DEPTH], x[DEPTH], r[DEPTH], sm[4];
	static uint64_t set[5][DEPTH];
	const uint32_t cap = 4096;
	uint8_t *log = xcalloc(FH + (size_t)NCHUNK * cap);
	const uint64_t *want_pc[NCHUNK * 32];
	uint32_t want_npc[NCHUNK * 32];
	size_t nw = 0, at = FH;
	struct mapw_chunk c;
	struct table tb;
	uint64_t s = 4, ts = 1000;

	random_stack(&s, p, DEPTH);
	random_stack(&s, q, DEPTH);
	random_stack(&s, x, DEPTH);
	random_stack(&s, r, DEPTH);
	random_stack(&s, sm, 4);
	for (int i = 0; i < 5; i++)
		random_stack(&s, set[i], DEPTH);
	table_init(&tb, 1024, 1024);
	mapw_file_header(log, FH);

#define SAMPLE(pc, n)                                                          \
	do {                                                                   \
		ck_assert_int_eq(mapw_sample(&c, ++ts, 0, 1000000, (n), (pc)), \
				 0);                                           \
		want_pc[nw] = (pc);                                            \
		want_npc[nw++] = (n);                                          \
	} while (0)

	for (int k = 0; k < NCHUNK; k++) {
		if (k == 1) /* four billion chunks later */
			tb.t.gen = UINT32_MAX - 3;
		ck_assert_int_eq(mapw_chunk_open(&c, log + at, cap, &test_id,
						 ts, &tb.t),
				 0);
		ck_assert_uint_ne(tb.t.gen, 0);
		if (k == 0) {
			ck_assert_uint_eq(tb.t.gen, 2);
			SAMPLE(p, DEPTH);
			SAMPLE(q, DEPTH);
			SAMPLE(x, DEPTH);
			ck_assert_uint_eq(c.nstacks, 3);
		} else if (k <= 4) {
			SAMPLE(r, DEPTH);
			SAMPLE(r, DEPTH);
			ck_assert_uint_eq(c.nstacks, 1);
		} else if (k == 5) {
			ck_assert_uint_eq(tb.t.gen, 2);
			SAMPLE(sm, 4);
			SAMPLE(p, DEPTH);
			SAMPLE(x, DEPTH);
			ck_assert_msg(c.nstacks == 3,
				      "generation 2 again: %u stacks written, "
				      "a stale slot was taken as a stack of "
				      "this chunk",
				      c.nstacks);
		} else {
			/* after the wrap, repeats are found as before */
			for (int rep = 0; rep < 3; rep++) {
				for (int i = 0; i < 5; i++) {
					uint32_t before = c.used;
					SAMPLE(set[(i + k) % 5], DEPTH);
					uint32_t cost = c.used - before;
					if (rep)
						ck_assert_uint_le(cost, 12);
				}
				ck_assert_uint_eq(c.nstacks, 5);
			}
		}
		mapw_chunk_trim(&c);
		mapw_chunk_seal(&c);
		at += c.cap;
	}
#undef SAMPLE
	int errors, trunc;
	ck_assert_uint_eq(parse_count(log, at, &errors, &trunc, want_pc,
				      want_npc, nw),
			  nw);
	ck_assert_int_eq(errors, 0);
	free(tb.mem);
	free(log);
}
END_TEST

/* FILE records (type 21) round-trip, bytes, kind, name, offset and
 * flags included, and a record of a type inside the parser's range that
 * it has no body for (19, reserved) is skipped, not reported as damage. */
START_TEST(mapwrite_file_record)
{
	size_t len = FH + 4096;
	uint8_t *log = xcalloc(len);
	mapw_file_header(log, FH);
	struct mapw_chunk c;
	ck_assert_int_eq(mapw_chunk_open(&c, log + FH, 4096, &test_id, 100,
					 NULL),
			 0);
	static const uint8_t data[] = "7f00 10 jit_a\n\0binary\xff";
	struct maplog_ev ev = ev_make(MAPLOG_TYPE_FILE, 110);
	ev.ev_u.file.fi_pid = 4242;
	ev.ev_u.file.fi_kind = "perf-map";
	ev.ev_u.file.fi_name = "/tmp/perf-4242.map";
	ev.ev_u.file.fi_data = data;
	ev.ev_u.file.fi_len = sizeof(data);
	ck_assert_int_eq(mapw_event(&c, &ev), 0);
	/* a MARK whose type byte becomes 42, a number no type has yet */
	uint32_t at = c.used;
	struct maplog_ev mk = mark(120, "reserved");
	ck_assert_int_eq(mapw_event(&c, &mk), 0);
	log[FH + CH_HDR + at] = 42;
	ev.ev_ts = 130;
	ev.ev_u.file.fi_offset = sizeof(data);
	ev.ev_u.file.fi_flags = MAPLOG_FILE_CUT;
	ev.ev_u.file.fi_len = 3;
	ck_assert_int_eq(mapw_event(&c, &ev), 0);
	mapw_chunk_seal(&c);

	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_feed(p, log, len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	struct maplog_ev r;
	int n = 0;
	while (maplog_read(p, &r) == 0) {
		ck_assert_int_eq(r.ev_type, MAPLOG_TYPE_FILE);
		const struct maplog_ev_file *f = &r.ev_u.file;
		ck_assert_uint_eq(f->fi_pid, 4242);
		ck_assert_str_eq(f->fi_kind, "perf-map");
		ck_assert_str_eq(f->fi_name, "/tmp/perf-4242.map");
		if (n == 0) {
			ck_assert_uint_eq(r.ev_ts, 110);
			ck_assert_uint_eq(f->fi_offset, 0);
			ck_assert_uint_eq(f->fi_flags, 0);
			ck_assert_uint_eq(f->fi_len, sizeof(data));
			ck_assert(memcmp(f->fi_data, data, sizeof(data)) == 0);
		} else {
			/* the skipped record's time delta still applied */
			ck_assert_uint_eq(r.ev_ts, 130);
			ck_assert_uint_eq(f->fi_offset, sizeof(data));
			ck_assert_uint_eq(f->fi_flags, MAPLOG_FILE_CUT);
			ck_assert_uint_eq(f->fi_len, 3);
			ck_assert(memcmp(f->fi_data, data, 3) == 0);
		}
		n++;
	}
	ck_assert_int_eq(r.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(n, 2);
	struct maplog_stats st;
	ck_assert_int_eq(maplog_stats(p, &st), 0);
	ck_assert_uint_eq(st.st_unknown, 1);
	ck_assert_uint_eq(st.st_damaged, 0);
	ck_assert_str_eq(maplog_type_name(MAPLOG_TYPE_FILE), "file");
	maplog_close(p);
	free(log);
}
END_TEST

static Suite *mapwrite_suite(void)
{
	Suite *s = suite_create("mapwrite");
	TCase *tc;

	tc = tcase_create("headers");
	tcase_add_test(tc, mapwrite_file_header);
	tcase_add_test(tc, mapwrite_chunk_header);
	tcase_add_test(tc, mapwrite_stab_init);
	suite_add_tcase(s, tc);

	tc = tcase_create("room");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mapwrite_enospc_unchanged);
	tcase_add_test(tc, mapwrite_enospc_writes_nothing);
	tcase_add_test(tc, mapwrite_trim_after_enospc);
	tcase_add_test(tc, mapwrite_ebadsize);
	tcase_add_test(tc, mapwrite_sample_never_fits);
	tcase_add_test(tc, mapwrite_einval);
	suite_add_tcase(s, tc);

	tc = tcase_create("chunks");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mapwrite_trim_seal);
	tcase_add_test(tc, mapwrite_used_field);
	suite_add_tcase(s, tc);

	tc = tcase_create("stacks");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mapwrite_sample_sizes);
	tcase_add_test(tc, mapwrite_leaf_base);
	tcase_add_test(tc, mapwrite_gen_wrap);
	tcase_add_test(tc, mapwrite_job_record);
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_add_test(tc, mapwrite_file_record);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mapwrite_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
