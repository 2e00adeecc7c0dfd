/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the log parser (lib/log/maplog.c), fed by the real encoder
 * (lib/log/mapwrite.c) and the logsynth generator: every record type and
 * stack shape round-trips field by field; one stream read whole, in 1-byte
 * or random pieces, from a file or from a pipe gives the same events; a log
 * cut at every byte offset yields exactly the whole records before the cut;
 * damaged, displaced, padded and open chunks are reported and skipped as
 * maplog(3) promises; and the API corners (feed on a file parser,
 * REQUIRE_DATA, type names, error strings, stats) behave.  An independent
 * walker over the chunk and record framing gives the expected offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include <mapsample/maplog.h>
#include "log/mapwrite.h"
#include "../common/logsynth.h"

/*
 * Check records a location for every passing ck_assert; loops that check
 * millions of things use this instead.
 */
#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

#define CH_HDR MAPLOG_CHUNK_HEADER_SIZE
#define TEST_PID 4242u
#define TEST_TID 17u
#define TEST_IMAGE 3u
/* Record types 19 to 21 are reserved (maplog.h): no name, no record */
#define TEST_SEQ 9u

/* ------------------------------------------------------------------ */
/* Small helpers */

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

static void write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		REQUIRE(n > 0, "write: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
}

/* An unlinked temporary file holding len bytes, positioned at 0. */
static int tmp_fd(const uint8_t *b, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/test_maplog.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	write_all(fd, b, len);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static uint8_t *memdup(const uint8_t *b, size_t len)
{
	uint8_t *m = xcalloc(len);
	memcpy(m, b, len);
	return m;
}

/* A copy of b with n bytes of ins inserted at offset at. */
static uint8_t *insert_bytes(const uint8_t *b, size_t len, size_t at,
			     const uint8_t *ins, size_t n)
{
	uint8_t *m = xcalloc(len + n);
	memcpy(m, b, at);
	memcpy(m + at, ins, n);
	memcpy(m + at + n, b + at, len - at);
	return m;
}

static struct maplog_ev ev_make(enum maplog_type type, uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = type;
	ev.ev_ts = ts;
	return ev;
}

static uint8_t *synth(const struct logsynth_opts *o, size_t *len,
		      struct logsynth_result *res)
{
	uint8_t *b = NULL;
	ck_assert_int_eq(logsynth_to_mem(o, &b, len, res), 0);
	ck_assert_ptr_nonnull(b);
	return b;
}

/* ------------------------------------------------------------------ */
/* A log being written with mapw_*: a file header, then chunks. */

struct wlog {
	uint8_t *buf;
	size_t len, cap;
	uint32_t chunk_cap;
	struct mapw_chunk c;
	struct mapw_stab stab;
	void *stabmem;
	struct mapw_chunk_id id;
	int open;
	unsigned chunks;
};

static void wlog_init(struct wlog *w, uint32_t chunk_cap, uint32_t nslots,
		      uint32_t frames)
{
	memset(w, 0, sizeof(*w));
	w->chunk_cap = chunk_cap;
	w->cap = MAPLOG_FILE_HEADER_SIZE + 2 * (size_t)chunk_cap;
	w->buf = xcalloc(w->cap);
	mapw_file_header(w->buf, MAPLOG_FILE_HEADER_SIZE);
	w->len = MAPLOG_FILE_HEADER_SIZE;
	if (nslots) {
		w->stabmem = xcalloc(mapw_stab_size(nslots, frames));
		ck_assert_int_eq(mapw_stab_init(&w->stab, w->stabmem, nslots,
						frames),
				 0);
	}
	w->id.pid = TEST_PID;
	w->id.tid = TEST_TID;
	w->id.image = TEST_IMAGE;
	w->id.seq = TEST_SEQ;
}

static void wlog_free(struct wlog *w)
{
	free(w->buf);
	free(w->stabmem);
}

static void wlog_open(struct wlog *w, uint64_t base_ts)
{
	ck_assert(!w->open);
	if (w->cap - w->len < w->chunk_cap) {
		size_t cap = 2 * w->cap + w->chunk_cap;
		uint8_t *n = realloc(w->buf, cap);
		ck_assert_ptr_nonnull(n);
		memset(n + w->cap, 0, cap - w->cap);
		w->buf = n;
		w->cap = cap;
	}
	ck_assert_int_eq(mapw_chunk_open(&w->c, w->buf + w->len, w->chunk_cap,
					 &w->id, base_ts,
					 w->stabmem ? &w->stab : NULL),
			 0);
	w->open = 1;
}

static void wlog_close(struct wlog *w, int trim, int seal)
{
	ck_assert(w->open);
	if (trim)
		mapw_chunk_trim(&w->c);
	if (seal)
		mapw_chunk_seal(&w->c);
	w->len += w->c.cap;
	w->id.seq++;
	w->open = 0;
	w->chunks++;
}

/* Appends ev, going on in a new chunk when the current one is full. */
static void wlog_put(struct wlog *w, const struct maplog_ev *ev)
{
	if (!w->open)
		wlog_open(w, ev->ev_ts);
	int rc = mapw_event(&w->c, ev);
	if (rc == MAPS_ENOSPC) {
		wlog_close(w, 1, 1);
		wlog_open(w, ev->ev_ts);
		rc = mapw_event(&w->c, ev);
	}
	REQUIRE(rc == 0, "mapw_event(%s): %s", maplog_type_name(ev->ev_type),
		maps_strerror(rc));
}

/* Appends one raw record (body starts with the timestamp delta). */
static void raw_record(struct mapw_chunk *c, int type, const uint8_t *body,
		       size_t n)
{
	uint8_t *p = c->base + CH_HDR + c->used;
	ck_assert_uint_ge(mapw_chunk_room(c), 1 + MAPLOG_VARINT_MAX + n);
	*p++ = (uint8_t)type;
	p = maplog_put_varint(p, n);
	memcpy(p, body, n);
	p += n;
	c->used = (uint32_t)(p - (c->base + CH_HDR));
	maplog_st32(c->base + MAPLOG_CH_USED, c->used);
}

struct body {
	uint8_t b[512];
	size_t n;
};

static void body_u(struct body *b, uint64_t v)
{
	b->n = (size_t)(maplog_put_varint(b->b + b->n, v) - b->b);
}

static void body_s(struct body *b, int64_t v)
{
	body_u(b, maplog_zigzag(v));
}

static void body_str(struct body *b, const char *s)
{
	size_t n = strlen(s);
	body_u(b, n);
	memcpy(b->b + b->n, s, n);
	b->n += n;
}

/* ------------------------------------------------------------------ */
/* Digests of events, so that whole parses can be compared. */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ull;
	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ull;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	REQUIRE(s != NULL, "string field of an event is NULL");
	size_t n = strlen(s);
	h = mix(h, n);
	for (size_t i = 0; i < n; i++)
		h = mix(h, (uint8_t)s[i]);
	return h;
}

static uint64_t mix_dbl(uint64_t h, double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	return mix(h, v);
}

static uint64_t ev_digest(const struct maplog_ev *ev)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const struct maplog_ev_initialize *in = &ev->ev_u.init;
	const struct maplog_ev_metric_def *md = &ev->ev_u.mdef;
	const struct maplog_ev_map_in *mi = &ev->ev_u.map_in;
	const struct maplog_ev_sample *sa = &ev->ev_u.sample;

	switch (ev->ev_state) {
	case MAPLOG_EOF:
		h = mix(h, (uint64_t)ev->ev_u.eof.eof_truncated);
		h = mix(h, ev->ev_u.eof.eof_dropped);
		return mix(h, ev->ev_u.eof.eof_missing);
	case MAPLOG_ERROR:
		return mix(h, ev->ev_u.error.er_length);
	default:
		break;
	}
	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE:
		h = mix(h, in->in_version_major);
		h = mix(h, in->in_version_minor);
		h = mix(h, in->in_clock);
		h = mix(h, in->in_timer);
		h = mix(h, in->in_rate_asked);
		h = mix(h, in->in_period_ns);
		h = mix(h, in->in_signal);
		h = mix(h, in->in_max_depth);
		h = mix(h, in->in_pid);
		h = mix(h, in->in_ppid);
		h = mix(h, (uint64_t)in->in_wall_sec);
		h = mix(h, in->in_wall_nsec);
		h = mix(h, in->in_argc);
		REQUIRE(in->in_argv != NULL, "in_argv NULL");
		for (uint32_t i = 0; i < in->in_argc; i++)
			h = mix_str(h, in->in_argv[i]);
		REQUIRE(in->in_argv[in->in_argc] == NULL,
			"in_argv[in_argc] not NULL");
		h = mix_str(h, in->in_host);
		h = mix_str(h, in->in_exe);
		break;
	case MAPLOG_TYPE_METRIC_DEF:
		h = mix(h, md->md_index);
		h = mix(h, md->md_datatype);
		h = mix(h, md->md_flags);
		h = mix_str(h, md->md_id);
		h = mix_str(h, md->md_name);
		h = mix_str(h, md->md_units);
		h = mix_str(h, md->md_description);
		h = mix_str(h, md->md_domain);
		h = mix_str(h, md->md_colour);
		h = mix_str(h, md->md_group);
		h = mix_str(h, md->md_plugin);
		break;
	case MAPLOG_TYPE_PLUGIN_ERROR:
		h = mix_str(h, ev->ev_u.perr.pe_plugin);
		h = mix_str(h, ev->ev_u.perr.pe_message);
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		h = mix(h, ev->ev_u.merr.me_index);
		h = mix(h, ev->ev_u.merr.me_count);
		h = mix_str(h, ev->ev_u.merr.me_message);
		break;
	case MAPLOG_TYPE_MAP_IN:
		h = mix(h, mi->mi_start);
		h = mix(h, mi->mi_end);
		h = mix(h, mi->mi_offset);
		h = mix(h, mi->mi_bias);
		h = mix(h, mi->mi_seq);
		h = mix(h, mi->mi_flags);
		h = mix(h, mi->mi_buildid_len);
		for (uint32_t i = 0; i < mi->mi_buildid_len; i++)
			h = mix(h, mi->mi_buildid[i]);
		h = mix_str(h, mi->mi_path);
		break;
	case MAPLOG_TYPE_MAP_OUT:
		h = mix(h, ev->ev_u.map_out.mo_start);
		h = mix(h, ev->ev_u.map_out.mo_end);
		h = mix(h, ev->ev_u.map_out.mo_seq);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		h = mix(h, ev->ev_u.tbegin.tb_tid);
		h = mix(h, ev->ev_u.tbegin.tb_creator);
		h = mix_str(h, ev->ev_u.tbegin.tb_name);
		break;
	case MAPLOG_TYPE_THREAD_END:
		h = mix(h, ev->ev_u.tend.te_tid);
		h = mix(h, ev->ev_u.tend.te_samples);
		h = mix(h, ev->ev_u.tend.te_dropped);
		h = mix(h, ev->ev_u.tend.te_cpu_ns);
		h = mix(h, ev->ev_u.tend.te_wall_ns);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		h = mix(h, ev->ev_u.fork.fk_ppid);
		h = mix(h, ev->ev_u.fork.fk_pid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		h = mix(h, ev->ev_u.exec.ex_pid);
		h = mix(h, ev->ev_u.exec.ex_image);
		h = mix_str(h, ev->ev_u.exec.ex_path);
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		h = mix(h, ev->ev_u.exit.px_pid);
		h = mix(h, ev->ev_u.exit.px_how);
		h = mix(h, (uint64_t)(int64_t)ev->ev_u.exit.px_code);
		break;
	case MAPLOG_TYPE_SAMPLE:
		h = mix(h, sa->sa_tid);
		h = mix(h, sa->sa_npc);
		h = mix(h, sa->sa_weight);
		h = mix(h, sa->sa_stack);
		REQUIRE(sa->sa_pc != NULL, "sa_pc NULL");
		for (uint32_t i = 0; i < sa->sa_npc; i++)
			h = mix(h, sa->sa_pc[i]);
		break;
	case MAPLOG_TYPE_METRIC_VALUE:
		h = mix(h, ev->ev_u.mval.mv_index);
		h = mix(h, ev->ev_u.mval.mv_kind);
		if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_U64)
			h = mix(h, ev->ev_u.mval.mv_v.u64);
		else if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_DOUBLE)
			h = mix_dbl(h, ev->ev_u.mval.mv_v.dbl);
		break;
	case MAPLOG_TYPE_DROP:
		h = mix(h, ev->ev_u.drop.dr_tid);
		h = mix(h, ev->ev_u.drop.dr_reason);
		h = mix(h, ev->ev_u.drop.dr_count);
		break;
	case MAPLOG_TYPE_MARK:
		h = mix(h, ev->ev_u.mark.mk_tid);
		h = mix(h, ev->ev_u.mark.mk_value);
		h = mix_str(h, ev->ev_u.mark.mk_text);
		break;
	case MAPLOG_TYPE_CLOSE:
		h = mix(h, ev->ev_u.close.cl_samples);
		h = mix(h, ev->ev_u.close.cl_dropped);
		h = mix(h, ev->ev_u.close.cl_threads);
		break;
	case MAPLOG_TYPE_JOB:
		h = mix(h, (uint64_t)(int64_t)ev->ev_u.job.jb_rank);
		h = mix(h, ev->ev_u.job.jb_size);
		h = mix(h, ev->ev_u.job.jb_role);
		h = mix_str(h, ev->ev_u.job.jb_job_id);
		h = mix_str(h, ev->ev_u.job.jb_launcher);
		h = mix_str(h, ev->ev_u.job.jb_source);
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		h = mix_str(h, ev->ev_u.mpi.mc_function);
		h = mix(h, ev->ev_u.mpi.mc_calls);
		h = mix(h, ev->ev_u.mpi.mc_time_ns);
		h = mix(h, ev->ev_u.mpi.mc_sent);
		h = mix(h, ev->ev_u.mpi.mc_received);
		break;
	case MAPLOG_TYPE_MANIFEST:
		h = mix_str(h, ev->ev_u.manifest.mf_plugin);
		h = mix_str(h, ev->ev_u.manifest.mf_path);
		h = mix_str(h, ev->ev_u.manifest.mf_description);
		break;
	case MAPLOG_TYPE_FILE:
		h = mix(h, ev->ev_u.file.fi_pid);
		h = mix(h, ev->ev_u.file.fi_flags);
		h = mix(h, ev->ev_u.file.fi_offset);
		h = mix_str(h, ev->ev_u.file.fi_kind);
		h = mix_str(h, ev->ev_u.file.fi_name);
		for (uint32_t i = 0; i < ev->ev_u.file.fi_len; i++)
			h = mix(h, ev->ev_u.file.fi_data[i]);
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		h = mix(h, ev->ev_u.tname.tn_tid);
		h = mix_str(h, ev->ev_u.tname.tn_name);
		break;
	default:
		ck_abort_msg("record of type %d returned", (int)ev->ev_type);
	}
	return h;
}

/* ------------------------------------------------------------------ */
/* Whole parses as lists of items */

struct item {
	int state, type, error;
	uint64_t offset, count, ts;
	uint32_t pid, tid, image, seq;
	uint64_t digest;
	int eof_truncated;
	uint64_t eof_dropped, eof_missing;
};

struct items {
	struct item *v;
	size_t n, cap;
	struct maplog_stats st;
	/* totals over OK records */
	uint64_t by_type[MAPLOG_TYPE_MAX_];
	uint64_t pc_sum, weight_sum, frames;
};

static void items_free(struct items *it)
{
	free(it->v);
	memset(it, 0, sizeof(*it));
}

static void items_push(struct items *it, const struct maplog_ev *ev)
{
	if (it->n == it->cap) {
		it->cap = it->cap ? 2 * it->cap : 256;
		it->v = realloc(it->v, it->cap * sizeof(*it->v));
		ck_assert_ptr_nonnull(it->v);
	}
	struct item *x = &it->v[it->n++];
	memset(x, 0, sizeof(*x));
	x->state = ev->ev_state;
	x->type = ev->ev_type;
	x->error = ev->ev_error;
	x->offset = ev->ev_offset;
	x->count = ev->ev_count;
	x->ts = ev->ev_ts;
	x->pid = ev->ev_pid;
	x->tid = ev->ev_tid;
	x->image = ev->ev_image;
	x->seq = ev->ev_chunk_seq;
	x->digest = ev_digest(ev);
	if (ev->ev_state == MAPLOG_EOF) {
		x->eof_truncated = ev->ev_u.eof.eof_truncated;
		x->eof_dropped = ev->ev_u.eof.eof_dropped;
		x->eof_missing = ev->ev_u.eof.eof_missing;
	}
	if (ev->ev_state != MAPLOG_OK)
		return;
	REQUIRE(ev->ev_type > 0 && ev->ev_type < MAPLOG_TYPE_MAX_ &&
			ev->ev_type != MAPLOG_TYPE_STACK,
		"OK event of type %d", (int)ev->ev_type);
	it->by_type[ev->ev_type]++;
	if (ev->ev_type == MAPLOG_TYPE_SAMPLE) {
		for (uint32_t i = 0; i < ev->ev_u.sample.sa_npc; i++)
			it->pc_sum += ev->ev_u.sample.sa_pc[i];
		it->frames += ev->ev_u.sample.sa_npc;
		it->weight_sum += ev->ev_u.sample.sa_weight;
	}
}

/*
 * The ev_offset of an EOF that is not truncated is not compared: where a
 * trailing stretch of zeros is, it depends on how the bytes were fed (see
 * maplog_eof_offset_stable).
 */
static int item_same(const struct item *a, const struct item *b,
		     int with_count)
{
	int loose = a->state == MAPLOG_EOF && b->state == MAPLOG_EOF &&
		    !a->eof_truncated && !b->eof_truncated;
	return a->state == b->state && a->type == b->type &&
	       a->error == b->error && (loose || a->offset == b->offset) &&
	       (!with_count || a->count == b->count) && a->ts == b->ts &&
	       a->pid == b->pid && a->tid == b->tid && a->image == b->image &&
	       a->seq == b->seq && a->digest == b->digest &&
	       a->eof_truncated == b->eof_truncated &&
	       a->eof_dropped == b->eof_dropped &&
	       a->eof_missing == b->eof_missing;
}

static const char *item_str(const struct item *x, char *buf, size_t n)
{
	snprintf(buf, n,
		 "{state %d type %s error %d off %llu count %llu ts %llu "
		 "pid %u tid %u image %u seq %u digest %016llx "
		 "eof %d/%llu/%llu}",
		 x->state, maplog_type_name(x->type), x->error,
		 (unsigned long long)x->offset, (unsigned long long)x->count,
		 (unsigned long long)x->ts, x->pid, x->tid, x->image, x->seq,
		 (unsigned long long)x->digest, x->eof_truncated,
		 (unsigned long long)x->eof_dropped,
		 (unsigned long long)x->eof_missing);
	return buf;
}

static void items_eq(const struct items *want, const struct items *got,
		     const char *what)
{
	char b1[512], b2[512];
	size_t n = want->n < got->n ? want->n : got->n;
	for (size_t i = 0; i < n; i++)
		REQUIRE(item_same(&want->v[i], &got->v[i], 1),
			"%s: event %zu differs:\n want %s\n got  %s", what, i,
			item_str(&want->v[i], b1, sizeof(b1)),
			item_str(&got->v[i], b2, sizeof(b2)));
	REQUIRE(want->n == got->n, "%s: %zu events, expected %zu", what,
		got->n, want->n);
}

enum feed {
	FEED_WHOLE,      /* everything, then the end, before the first read */
	FEED_BYTES,      /* one byte per REQUIRE_DATA */
	FEED_RANDOM,     /* random pieces per REQUIRE_DATA */
	FEED_INTERLEAVE, /* a random piece before every read */
	FEED_FD,         /* the parser reads its descriptor */
};

static void feed_piece(maplog *p, const uint8_t *b, size_t len, size_t *fed,
		       size_t want)
{
	static uint8_t scratch[8192];
	if (want > len - *fed)
		want = len - *fed;
	while (want) {
		size_t n = want < sizeof(scratch) ? want : sizeof(scratch);
		/* the parser copies: scribble over the bytes it was given */
		memcpy(scratch, b + *fed, n);
		REQUIRE(maplog_feed(p, scratch, n) == 0, "maplog_feed: %s",
			maps_strerror(maplog_error(p)));
		memset(scratch, 0xa5, n);
		*fed += n;
		want -= n;
	}
}

static size_t piece_size(enum feed mode, uint64_t *s)
{
	switch (mode) {
	case FEED_BYTES:
		return 1;
	case FEED_RANDOM:
		return rng_below(s, 2) ? 1 + rng_below(s, 16)
				       : 1 + rng_below(s, 6000);
	default:
		return 1 + rng_below(s, 700);
	}
}

/* Reads p to the end (EOF, or a fatal error seen twice). */
static void drive(maplog *p, const uint8_t *b, size_t len, enum feed mode,
		  uint64_t seed, struct items *out)
{
	size_t fed = 0;
	int ended = 0;
	unsigned errors = 0;
	uint64_t s = seed | 1;
	struct maplog_ev ev;

	memset(out, 0, sizeof(*out));
	if (mode == FEED_WHOLE) {
		feed_piece(p, b, len, &fed, len);
		ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
		ended = 1;
	}
	for (uint64_t iter = 0;; iter++) {
		REQUIRE(iter < 8 * (uint64_t)len + 100000,
			"parser does not reach the end");
		if (mode == FEED_INTERLEAVE && fed < len)
			feed_piece(p, b, len, &fed, piece_size(mode, &s));
		memset(&ev, 0x5a, sizeof(ev));
		int rc = maplog_read(p, &ev);
		if (rc == 0) {
			REQUIRE(ev.ev_state == MAPLOG_OK,
				"read 0 with state %d", ev.ev_state);
			/* event pointers stay valid until the next read,
			 * whatever is fed in between */
			if (mode == FEED_INTERLEAVE && fed < len)
				feed_piece(p, b, len, &fed,
					   4 * piece_size(mode, &s));
			items_push(out, &ev);
			continue;
		}
		REQUIRE(rc == -1, "maplog_read returned %d", rc);
		if (ev.ev_state == MAPLOG_REQUIRE_DATA) {
			REQUIRE(mode != FEED_FD && !ended,
				"REQUIRE_DATA from a file or an ended stream");
			if (fed == len) {
				ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
				ended = 1;
			} else {
				feed_piece(p, b, len, &fed,
					   piece_size(mode, &s));
			}
			continue;
		}
		items_push(out, &ev);
		if (ev.ev_state == MAPLOG_EOF) {
			/* every later call returns the same EOF */
			struct item first = out->v[out->n - 1];
			for (int k = 0; k < 2; k++) {
				rc = maplog_read(p, &ev);
				items_push(out, &ev);
				out->n--;
				REQUIRE(rc == -1 &&
						item_same(&first,
							  &out->v[out->n], 1) &&
						first.offset ==
							out->v[out->n].offset,
					"EOF not repeated (state %d)",
					ev.ev_state);
			}
			break;
		}
		REQUIRE(ev.ev_state == MAPLOG_ERROR, "bad state %d",
			ev.ev_state);
		REQUIRE(ev.ev_error < 0, "error code %d", ev.ev_error);
		int code = ev.ev_error;
		if (code == MAPS_EMAGIC || code == MAPS_EVERSION) {
			for (int k = 0; k < 2; k++) {
				rc = maplog_read(p, &ev);
				REQUIRE(rc == -1 &&
						ev.ev_state == MAPLOG_ERROR &&
						ev.ev_error == code,
					"fatal error %d not repeated", code);
			}
			break;
		}
		REQUIRE(++errors < 100000, "endless errors");
	}
	ck_assert_int_eq(maplog_stats(p, &out->st), 0);
}

static void parse_mem(const uint8_t *b, size_t len, enum feed mode,
		      uint64_t seed, struct items *out)
{
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	drive(p, b, len, mode, seed, out);
	maplog_close(p);
}

static void parse_fd(int fd, struct items *out)
{
	maplog *p = maplog_open(fd);
	ck_assert_ptr_nonnull(p);
	drive(p, NULL, 0, FEED_FD, 0, out);
	maplog_close(p);
}

static void parse_file(const uint8_t *b, size_t len, struct items *out)
{
	int fd = tmp_fd(b, len);
	parse_fd(fd, out);
	close(fd);
}

/*
 * Parses b from a regular file in which the log starts at byte prefix
 * (the descriptor positioned there), so the parser reads it with read(2)
 * instead of mapping it.
 */
static void parse_file_at(const uint8_t *b, size_t len, size_t prefix,
			  struct items *out)
{
	uint8_t *m = xcalloc(prefix + len);
	memset(m, 0x4d, prefix);
	memcpy(m + prefix, b, len);
	int fd = tmp_fd(m, prefix + len);
	free(m);
	ck_assert_int_eq(lseek(fd, (off_t)prefix, SEEK_SET), (off_t)prefix);
	parse_fd(fd, out);
	close(fd);
}

/* Parses b as it comes out of a pipe written by a child process. */
static void parse_pipe(const uint8_t *b, size_t len, struct items *out)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		signal(SIGPIPE, SIG_DFL);
		/* uneven writes, so reads return odd amounts */
		uint64_t s = 99;
		size_t at = 0;
		while (at < len) {
			size_t n = 1 + rng_below(&s, 70000);
			if (n > len - at)
				n = len - at;
			const uint8_t *q = b + at;
			size_t left = n;
			while (left) {
				ssize_t w = write(fds[1], q, left);
				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					_exit(1);
				q += w;
				left -= (size_t)w;
			}
			at += n;
		}
		_exit(0);
	}
	close(fds[1]);
	parse_fd(fds[0], out);
	close(fds[0]);
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

/* The OK items of a parse. */
static void ok_items(const struct items *all, struct items *ok)
{
	memset(ok, 0, sizeof(*ok));
	for (size_t i = 0; i < all->n; i++) {
		if (all->v[i].state != MAPLOG_OK)
			continue;
		if (ok->n == ok->cap) {
			ok->cap = ok->cap ? 2 * ok->cap : 256;
			ok->v = realloc(ok->v, ok->cap * sizeof(*ok->v));
			ck_assert_ptr_nonnull(ok->v);
		}
		ok->v[ok->n++] = all->v[i];
	}
}

static const struct item *last_item(const struct items *it)
{
	REQUIRE(it->n > 0, "no events at all");
	return &it->v[it->n - 1];
}

/* ------------------------------------------------------------------ */
/* An independent walk over the framing: where chunks and records are. */

struct wchunk {
	uint64_t off;
	uint32_t cap, used, flags;
	size_t first_rec, nrec; /* in walk.r */
};

struct wrec {
	uint64_t off, end;
	size_t chunk;
	int type;
};

struct walk {
	uint32_t doff;
	struct wchunk *c;
	size_t nc;
	struct wrec *r;
	size_t nr;
	/* records that come out of a parse (not STACK) */
	struct wrec *ok;
	size_t nok;
};

static void walk_free(struct walk *w)
{
	free(w->c);
	free(w->r);
	free(w->ok);
	memset(w, 0, sizeof(*w));
}

static void walk_log(const uint8_t *b, size_t len, struct walk *w)
{
	size_t ccap = 64, rcap = 1024;
	memset(w, 0, sizeof(*w));
	w->c = xcalloc(ccap * sizeof(*w->c));
	w->r = xcalloc(rcap * sizeof(*w->r));
	w->ok = xcalloc(rcap * sizeof(*w->ok));
	ck_assert_uint_ge(len, MAPLOG_FILE_HEADER_SIZE);
	w->doff = maplog_ld32(b + MAPLOG_FH_DATA_OFFSET);
	uint64_t off = w->doff;
	while (off + 8 <= len) {
		if (maplog_ld64(b + off) == 0) {
			off += 8;
			continue;
		}
		REQUIRE(maplog_ld32(b + off) == MAPLOG_CHUNK_MAGIC,
			"walk: no chunk at %llu", (unsigned long long)off);
		if (w->nc == ccap) {
			ccap *= 2;
			w->c = realloc(w->c, ccap * sizeof(*w->c));
			ck_assert_ptr_nonnull(w->c);
		}
		struct wchunk *c = &w->c[w->nc++];
		c->off = off;
		c->cap = maplog_ld32(b + off + MAPLOG_CH_CAPACITY);
		c->used = maplog_ld32(b + off + MAPLOG_CH_USED);
		c->flags = maplog_ld32(b + off + MAPLOG_CH_FLAGS);
		c->first_rec = w->nr;
		REQUIRE(c->cap >= CH_HDR + c->used && off + c->cap <= len,
			"walk: bad chunk at %llu", (unsigned long long)off);
		const uint8_t *q = b + off + CH_HDR, *e = q + c->used;
		while (q < e) {
			const uint8_t *r0 = q;
			int type = *q++;
			uint64_t n;
			REQUIRE(maplog_get_varint(&q, e, &n) == 0 &&
					n <= (uint64_t)(e - q),
				"walk: bad record at %zu", (size_t)(r0 - b));
			q += n;
			if (w->nr == rcap) {
				rcap *= 2;
				w->r = realloc(w->r, rcap * sizeof(*w->r));
				w->ok = realloc(w->ok, rcap * sizeof(*w->ok));
				ck_assert_ptr_nonnull(w->r);
				ck_assert_ptr_nonnull(w->ok);
			}
			struct wrec rec = {(uint64_t)(r0 - b),
					   (uint64_t)(q - b), w->nc - 1, type};
			w->r[w->nr++] = rec;
			if (type != MAPLOG_TYPE_STACK)
				w->ok[w->nok++] = rec;
		}
		c->nrec = w->nr - c->first_rec;
		off += c->cap;
	}
}

/* The chunk holding offset off, or -1. */
static long walk_chunk_at(const struct walk *w, uint64_t off)
{
	size_t lo = 0, hi = w->nc;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->c[mid].off + w->c[mid].cap <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->nc && w->c[lo].off <= off)
		return (long)lo;
	return -1;
}

/* Checks that a full parse returns exactly the records the walk found. */
static void check_against_walk(const struct items *full,
			       const struct walk *w)
{
	struct items ok;
	ok_items(full, &ok);
	ck_assert_uint_eq(ok.n, w->nok);
	for (size_t i = 0; i < ok.n; i++) {
		REQUIRE(ok.v[i].offset == w->ok[i].off &&
				ok.v[i].type == w->ok[i].type,
			"record %zu: offset %llu type %d, walk says %llu %d", i,
			(unsigned long long)ok.v[i].offset, ok.v[i].type,
			(unsigned long long)w->ok[i].off, w->ok[i].type);
		REQUIRE(ok.v[i].count == i + 1, "ev_count %llu for record %zu",
			(unsigned long long)ok.v[i].count, i);
	}
	items_free(&ok);
}

/* ------------------------------------------------------------------ */
/* 1. Every record type round-trips */

static const char *const test_argv[] = {
	"/usr/bin/prog",
	"--name=\"a b\" 'c' \\ $HOME",
	"",
	"tab\there\nnewline \xc3\xa9\xe2\x82\xac\x01\x7f\xff",
	NULL,
};

/* 0 for a number below MAPLOG_TYPE_MAX_ that no record type has yet
 * (numbers are given out to types added side by side), else 1. */
static int type_defined(int t)
{
	return strcmp(maplog_type_name(t), "unknown") != 0;
}

static void check_str(const char *got, const char *want, const char *what)
{
	ck_assert_msg(got != NULL, "%s is NULL", what);
	ck_assert_msg(strcmp(got, want ? want : "") == 0,
		      "%s: got \"%s\", want \"%s\"", what, got,
		      want ? want : "");
}

static void check_event(const struct maplog_ev *got,
			const struct maplog_ev *want, uint32_t chunk_tid)
{
	const struct maplog_ev_initialize *gi = &got->ev_u.init,
					  *wi = &want->ev_u.init;
	const struct maplog_ev_metric_def *gm = &got->ev_u.mdef,
					  *wm = &want->ev_u.mdef;
	const struct maplog_ev_map_in *gp = &got->ev_u.map_in,
				      *wp = &want->ev_u.map_in;

	ck_assert_int_eq(got->ev_state, MAPLOG_OK);
	ck_assert_int_eq(got->ev_type, want->ev_type);
	ck_assert_uint_eq(got->ev_ts, want->ev_ts);
	ck_assert_uint_eq(got->ev_pid, TEST_PID);
	ck_assert_uint_eq(got->ev_tid, chunk_tid);
	ck_assert_uint_eq(got->ev_image, TEST_IMAGE);
	ck_assert_int_eq(got->ev_error, 0);
	switch (want->ev_type) {
	case MAPLOG_TYPE_INITIALIZE: {
		ck_assert_uint_eq(gi->in_version_major, wi->in_version_major);
		ck_assert_uint_eq(gi->in_version_minor, wi->in_version_minor);
		ck_assert_uint_eq(gi->in_clock, wi->in_clock);
		ck_assert_uint_eq(gi->in_timer, wi->in_timer);
		ck_assert_uint_eq(gi->in_rate_asked, wi->in_rate_asked);
		ck_assert_uint_eq(gi->in_period_ns, wi->in_period_ns);
		ck_assert_uint_eq(gi->in_signal, wi->in_signal);
		ck_assert_uint_eq(gi->in_max_depth, wi->in_max_depth);
		ck_assert_uint_eq(gi->in_pid, wi->in_pid);
		ck_assert_uint_eq(gi->in_ppid, wi->in_ppid);
		ck_assert_int_eq(gi->in_wall_sec, wi->in_wall_sec);
		ck_assert_uint_eq(gi->in_wall_nsec, wi->in_wall_nsec);
		uint32_t argc = wi->in_argv ? wi->in_argc : 0;
		ck_assert_uint_eq(gi->in_argc, argc);
		ck_assert_ptr_nonnull(gi->in_argv);
		for (uint32_t i = 0; i < argc; i++)
			check_str(gi->in_argv[i], wi->in_argv[i], "in_argv[i]");
		ck_assert_ptr_null(gi->in_argv[argc]);
		check_str(gi->in_host, wi->in_host, "in_host");
		check_str(gi->in_exe, wi->in_exe, "in_exe");
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF:
		ck_assert_uint_eq(gm->md_index, wm->md_index);
		ck_assert_uint_eq(gm->md_datatype, wm->md_datatype);
		ck_assert_uint_eq(gm->md_flags, wm->md_flags);
		check_str(gm->md_id, wm->md_id, "md_id");
		check_str(gm->md_name, wm->md_name, "md_name");
		check_str(gm->md_units, wm->md_units, "md_units");
		check_str(gm->md_description, wm->md_description,
			  "md_description");
		check_str(gm->md_domain, wm->md_domain, "md_domain");
		check_str(gm->md_colour, wm->md_colour, "md_colour");
		check_str(gm->md_group, wm->md_group, "md_group");
		check_str(gm->md_plugin, wm->md_plugin, "md_plugin");
		break;
	case MAPLOG_TYPE_PLUGIN_ERROR:
		check_str(got->ev_u.perr.pe_plugin, want->ev_u.perr.pe_plugin,
			  "pe_plugin");
		check_str(got->ev_u.perr.pe_message,
			  want->ev_u.perr.pe_message, "pe_message");
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		ck_assert_uint_eq(got->ev_u.merr.me_index,
				  want->ev_u.merr.me_index);
		ck_assert_uint_eq(got->ev_u.merr.me_count,
				  want->ev_u.merr.me_count);
		check_str(got->ev_u.merr.me_message,
			  want->ev_u.merr.me_message, "me_message");
		break;
	case MAPLOG_TYPE_MAP_IN: {
		uint32_t n = wp->mi_buildid ? wp->mi_buildid_len : 0;
		ck_assert_uint_eq(gp->mi_start, wp->mi_start);
		ck_assert_uint_eq(gp->mi_end, wp->mi_end);
		ck_assert_uint_eq(gp->mi_offset, wp->mi_offset);
		ck_assert_uint_eq(gp->mi_bias, wp->mi_bias);
		ck_assert_uint_eq(gp->mi_seq, wp->mi_seq);
		ck_assert_uint_eq(gp->mi_flags, wp->mi_flags);
		ck_assert_uint_eq(gp->mi_buildid_len, n);
		if (n)
			ck_assert_mem_eq(gp->mi_buildid, wp->mi_buildid, n);
		check_str(gp->mi_path, wp->mi_path, "mi_path");
		break;
	}
	case MAPLOG_TYPE_MAP_OUT:
		ck_assert_uint_eq(got->ev_u.map_out.mo_start,
				  want->ev_u.map_out.mo_start);
		ck_assert_uint_eq(got->ev_u.map_out.mo_end,
				  want->ev_u.map_out.mo_end);
		ck_assert_uint_eq(got->ev_u.map_out.mo_seq,
				  want->ev_u.map_out.mo_seq);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		ck_assert_uint_eq(got->ev_u.tbegin.tb_tid,
				  want->ev_u.tbegin.tb_tid);
		ck_assert_uint_eq(got->ev_u.tbegin.tb_creator,
				  want->ev_u.tbegin.tb_creator);
		check_str(got->ev_u.tbegin.tb_name, want->ev_u.tbegin.tb_name,
			  "tb_name");
		break;
	case MAPLOG_TYPE_THREAD_END:
		ck_assert_uint_eq(got->ev_u.tend.te_tid,
				  want->ev_u.tend.te_tid);
		ck_assert_uint_eq(got->ev_u.tend.te_samples,
				  want->ev_u.tend.te_samples);
		ck_assert_uint_eq(got->ev_u.tend.te_dropped,
				  want->ev_u.tend.te_dropped);
		ck_assert_uint_eq(got->ev_u.tend.te_cpu_ns,
				  want->ev_u.tend.te_cpu_ns);
		ck_assert_uint_eq(got->ev_u.tend.te_wall_ns,
				  want->ev_u.tend.te_wall_ns);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		ck_assert_uint_eq(got->ev_u.fork.fk_ppid,
				  want->ev_u.fork.fk_ppid);
		ck_assert_uint_eq(got->ev_u.fork.fk_pid,
				  want->ev_u.fork.fk_pid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		ck_assert_uint_eq(got->ev_u.exec.ex_pid,
				  want->ev_u.exec.ex_pid);
		ck_assert_uint_eq(got->ev_u.exec.ex_image,
				  want->ev_u.exec.ex_image);
		check_str(got->ev_u.exec.ex_path, want->ev_u.exec.ex_path,
			  "ex_path");
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		ck_assert_uint_eq(got->ev_u.exit.px_pid,
				  want->ev_u.exit.px_pid);
		ck_assert_uint_eq(got->ev_u.exit.px_how,
				  want->ev_u.exit.px_how);
		ck_assert_int_eq(got->ev_u.exit.px_code,
				 want->ev_u.exit.px_code);
		break;
	case MAPLOG_TYPE_SAMPLE: {
		const struct maplog_ev_sample *gs = &got->ev_u.sample,
					      *ws = &want->ev_u.sample;
		ck_assert_uint_eq(gs->sa_tid,
				  ws->sa_tid ? ws->sa_tid : chunk_tid);
		ck_assert_uint_eq(gs->sa_weight, ws->sa_weight);
		ck_assert_uint_eq(gs->sa_npc, ws->sa_npc);
		ck_assert_ptr_nonnull(gs->sa_pc);
		if (ws->sa_npc)
			ck_assert_mem_eq(gs->sa_pc, ws->sa_pc,
					 ws->sa_npc * sizeof(uint64_t));
		ck_assert_uint_eq(gs->sa_stack == 0, ws->sa_npc == 0);
		break;
	}
	case MAPLOG_TYPE_METRIC_VALUE:
		ck_assert_uint_eq(got->ev_u.mval.mv_index,
				  want->ev_u.mval.mv_index);
		ck_assert_uint_eq(got->ev_u.mval.mv_kind,
				  want->ev_u.mval.mv_kind);
		if (want->ev_u.mval.mv_kind == MAPLOG_VALUE_U64)
			ck_assert_uint_eq(got->ev_u.mval.mv_v.u64,
					  want->ev_u.mval.mv_v.u64);
		else if (want->ev_u.mval.mv_kind == MAPLOG_VALUE_DOUBLE)
			ck_assert_mem_eq(&got->ev_u.mval.mv_v.dbl,
					 &want->ev_u.mval.mv_v.dbl, 8);
		break;
	case MAPLOG_TYPE_DROP:
		ck_assert_uint_eq(got->ev_u.drop.dr_tid,
				  want->ev_u.drop.dr_tid);
		ck_assert_uint_eq(got->ev_u.drop.dr_reason,
				  want->ev_u.drop.dr_reason);
		ck_assert_uint_eq(got->ev_u.drop.dr_count,
				  want->ev_u.drop.dr_count);
		break;
	case MAPLOG_TYPE_MARK:
		ck_assert_uint_eq(got->ev_u.mark.mk_tid,
				  want->ev_u.mark.mk_tid);
		ck_assert_uint_eq(got->ev_u.mark.mk_value,
				  want->ev_u.mark.mk_value);
		check_str(got->ev_u.mark.mk_text, want->ev_u.mark.mk_text,
			  "mk_text");
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		check_str(got->ev_u.mpi.mc_function,
			  want->ev_u.mpi.mc_function, "mc_function");
		ck_assert_uint_eq(got->ev_u.mpi.mc_calls,
				  want->ev_u.mpi.mc_calls);
		ck_assert_uint_eq(got->ev_u.mpi.mc_time_ns,
				  want->ev_u.mpi.mc_time_ns);
		ck_assert_uint_eq(got->ev_u.mpi.mc_sent,
				  want->ev_u.mpi.mc_sent);
		ck_assert_uint_eq(got->ev_u.mpi.mc_received,
				  want->ev_u.mpi.mc_received);
		break;
	case MAPLOG_TYPE_CLOSE:
		ck_assert_uint_eq(got->ev_u.close.cl_samples,
				  want->ev_u.close.cl_samples);
		ck_assert_uint_eq(got->ev_u.close.cl_dropped,
				  want->ev_u.close.cl_dropped);
		ck_assert_uint_eq(got->ev_u.close.cl_threads,
				  want->ev_u.close.cl_threads);
		break;
	case MAPLOG_TYPE_JOB:
		ck_assert_int_eq(got->ev_u.job.jb_rank, want->ev_u.job.jb_rank);
		ck_assert_uint_eq(got->ev_u.job.jb_size, want->ev_u.job.jb_size);
		ck_assert_uint_eq(got->ev_u.job.jb_role, want->ev_u.job.jb_role);
		check_str(got->ev_u.job.jb_job_id, want->ev_u.job.jb_job_id,
			  "jb_job_id");
		check_str(got->ev_u.job.jb_launcher,
			  want->ev_u.job.jb_launcher, "jb_launcher");
		check_str(got->ev_u.job.jb_source, want->ev_u.job.jb_source,
			  "jb_source");
		break;
	case MAPLOG_TYPE_MANIFEST:
		check_str(got->ev_u.manifest.mf_plugin,
			  want->ev_u.manifest.mf_plugin, "mf_plugin");
		check_str(got->ev_u.manifest.mf_path,
			  want->ev_u.manifest.mf_path, "mf_path");
		check_str(got->ev_u.manifest.mf_description,
			  want->ev_u.manifest.mf_description, "mf_description");
		break;
	case MAPLOG_TYPE_FILE:
		ck_assert_uint_eq(got->ev_u.file.fi_pid, want->ev_u.file.fi_pid);
		ck_assert_uint_eq(got->ev_u.file.fi_flags,
				  want->ev_u.file.fi_flags);
		ck_assert_uint_eq(got->ev_u.file.fi_offset,
				  want->ev_u.file.fi_offset);
		check_str(got->ev_u.file.fi_kind, want->ev_u.file.fi_kind,
			  "fi_kind");
		check_str(got->ev_u.file.fi_name, want->ev_u.file.fi_name,
			  "fi_name");
		ck_assert_uint_eq(got->ev_u.file.fi_len, want->ev_u.file.fi_len);
		ck_assert(memcmp(got->ev_u.file.fi_data,
				 want->ev_u.file.fi_data,
				 want->ev_u.file.fi_len) == 0);
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		ck_assert_uint_eq(got->ev_u.tname.tn_tid,
				  want->ev_u.tname.tn_tid);
		check_str(got->ev_u.tname.tn_name, want->ev_u.tname.tn_name,
			  "tn_name");
		break;
	default:
		ck_abort_msg("unexpected type %d", (int)want->ev_type);
	}
}

#define MAX_WANT 64

/* Fills want[] with one or more records of every type; returns how many. */
static size_t all_type_events(struct maplog_ev *want)
{
	static uint8_t bid20[20], bid255[255];
	static char longmsg[301];
	static uint64_t pcs3[3] = {0x7ffff7a01234ull, 0x555555555abcull,
				   0x555555554f00ull};
	static uint64_t pcs32[32];
	double d;
	uint64_t bits;
	size_t n = 0;
	struct maplog_ev *e;

	for (int i = 0; i < 20; i++)
		bid20[i] = (uint8_t)(i * 37 + (i == 0 ? 0 : 1));
	bid20[7] = 0;
	bid20[8] = 0xff;
	for (int i = 0; i < 255; i++)
		bid255[i] = (uint8_t)(255 - i);
	for (int i = 0; i < 300; i++)
		longmsg[i] = (char)('!' + i % 90);
	longmsg[300] = 0;
	for (int i = 0; i < 32; i++)
		pcs32[i] = 0x7f0000000000ull + (uint64_t)(31 - i) * 0x1234567;

	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_INITIALIZE, 5000000000ull);
	e->ev_u.init = (struct maplog_ev_initialize){
		.in_version_major = 1,
		.in_version_minor = 7,
		.in_clock = MAPLOG_CLOCK_WALL,
		.in_timer = MAPLOG_TIMER_ITIMER_PROF,
		.in_rate_asked = 997,
		.in_period_ns = 1003009,
		.in_signal = 34,
		.in_max_depth = 511,
		.in_pid = 4242,
		.in_ppid = 4241,
		.in_wall_sec = -1234567890123ll,
		.in_wall_nsec = 999999999,
		.in_argc = 4,
		.in_argv = test_argv,
		.in_host = "h\xc3\xa9llo.example \"quoted\"",
		.in_exe = NULL,
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_INITIALIZE, 5000000007ull);
	e->ev_u.init = (struct maplog_ev_initialize){
		.in_version_major = UINT32_MAX,
		.in_version_minor = UINT32_MAX - 1,
		.in_clock = 7,
		.in_timer = 9,
		.in_rate_asked = UINT64_MAX,
		.in_period_ns = UINT64_MAX - 1,
		.in_signal = UINT32_MAX,
		.in_max_depth = UINT32_MAX,
		.in_pid = UINT32_MAX,
		.in_ppid = 1,
		.in_wall_sec = INT64_MIN,
		.in_wall_nsec = UINT32_MAX,
		.in_argc = 3, /* ignored: no argv */
		.in_argv = NULL,
		.in_host = NULL,
		.in_exe = "/opt/x y/\xe2\x98\x83",
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_INITIALIZE, 4999999000ull); /* backwards */
	e->ev_u.init = want[0].ev_u.init;
	e->ev_u.init.in_wall_sec = INT64_MAX;
	e->ev_u.init.in_argc = 2; /* fewer than argv holds */

	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_DEF, 4999999000ull); /* same ts */
	e->ev_u.mdef = (struct maplog_ev_metric_def){
		.md_index = 7,
		.md_datatype = MAPLOG_DT_DOUBLE,
		.md_flags = MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME |
			    MAPLOG_MD_ONE_PER_NODE | MAPLOG_MD_BACKFILL,
		.md_id = "com.example.power",
		.md_name = "Power <W> & \"more\"",
		.md_units = "W",
		.md_description = "line one\nline two\ttab",
		.md_domain = "time",
		.md_colour = "rgb(255, 0, 0)",
		.md_group = "Energy",
		.md_plugin = "libpower.so",
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_DEF, 1); /* far backwards */
	e->ev_u.mdef = (struct maplog_ev_metric_def){
		.md_index = UINT32_MAX,
		.md_datatype = MAPLOG_DT_U64,
		.md_flags = 0x80000000u,
		.md_id = "x",
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PLUGIN_ERROR, UINT64_MAX - 1);
	e->ev_u.perr.pe_plugin = "libbroken.so";
	e->ev_u.perr.pe_message = longmsg;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PLUGIN_ERROR, 0);
	e->ev_u.perr.pe_plugin = NULL;
	e->ev_u.perr.pe_message = "";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_ERROR, 6000000000ull);
	e->ev_u.merr.me_index = 3;
	e->ev_u.merr.me_count = UINT64_MAX;
	e->ev_u.merr.me_message = "read: \"EIO\"";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_ERROR, 6000000001ull);
	e->ev_u.merr.me_index = 0;
	e->ev_u.merr.me_count = 1;
	e->ev_u.merr.me_message = NULL;

	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MAP_IN, 6000000002ull);
	e->ev_u.map_in = (struct maplog_ev_map_in){
		.mi_start = 0x7f0000001000ull,
		.mi_end = 0x7f0000024000ull,
		.mi_offset = 0x2000,
		.mi_bias = 0x7effff000000ull,
		.mi_seq = 123456789012ull,
		.mi_flags = MAPLOG_MAP_MAIN | MAPLOG_MAP_DLOPEN,
		.mi_buildid_len = 20,
		.mi_buildid = bid20,
		.mi_path = "/lib/x86_64/lib\xc3\xa9 \xc3\x9f.so (deleted)",
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MAP_IN, 6000000003ull);
	e->ev_u.map_in = (struct maplog_ev_map_in){
		.mi_start = UINT64_MAX - 0x1000,
		.mi_end = UINT64_MAX,
		.mi_offset = UINT64_MAX,
		.mi_bias = 1,
		.mi_seq = UINT64_MAX,
		.mi_flags = MAPLOG_MAP_VDSO,
		.mi_buildid_len = 255,
		.mi_buildid = bid255,
		.mi_path = NULL,
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MAP_IN, 6000000003ull);
	e->ev_u.map_in = (struct maplog_ev_map_in){
		.mi_start = 0x400000,
		.mi_end = 0x400000,
		.mi_buildid_len = 5, /* no bytes: written as none */
		.mi_buildid = NULL,
		.mi_path = "",
	};
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MAP_OUT, 6000000004ull);
	e->ev_u.map_out.mo_start = 0x7f0000001000ull;
	e->ev_u.map_out.mo_end = 0x7f0000024000ull;
	e->ev_u.map_out.mo_seq = 123456789012ull;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_THREAD_BEGIN, 6000000005ull);
	e->ev_u.tbegin.tb_tid = 4243;
	e->ev_u.tbegin.tb_creator = 4242;
	e->ev_u.tbegin.tb_name = "worker #1 \xe2\x80\x94 io";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_THREAD_BEGIN, 6000000006ull);
	e->ev_u.tbegin.tb_tid = UINT32_MAX;
	e->ev_u.tbegin.tb_creator = 0;
	e->ev_u.tbegin.tb_name = NULL;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_THREAD_END, 7000000000ull);
	e->ev_u.tend.te_tid = 4243;
	e->ev_u.tend.te_samples = 1000001;
	e->ev_u.tend.te_dropped = 17;
	e->ev_u.tend.te_cpu_ns = 0x123456789abcdefull;
	e->ev_u.tend.te_wall_ns = UINT64_MAX;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_FORK, 7000000001ull);
	e->ev_u.fork.fk_ppid = 4242;
	e->ev_u.fork.fk_pid = 4300;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_EXEC, 7000000002ull);
	e->ev_u.exec.ex_pid = 4300;
	e->ev_u.exec.ex_image = 5;
	e->ev_u.exec.ex_path = "/bin/sh -c 'x'";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_EXIT, 7000000003ull);
	e->ev_u.exit.px_pid = 4300;
	e->ev_u.exit.px_how = MAPLOG_EXIT_SIGNALED;
	e->ev_u.exit.px_code = 9;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_EXIT, 7000000004ull);
	e->ev_u.exit.px_pid = 4242;
	e->ev_u.exit.px_how = MAPLOG_EXIT_NORMAL;
	e->ev_u.exit.px_code = -1;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_EXIT, 7000000005ull);
	e->ev_u.exit.px_pid = 1;
	e->ev_u.exit.px_how = MAPLOG_EXIT_NORMAL;
	e->ev_u.exit.px_code = INT32_MIN;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_PROC_EXIT, 7000000006ull);
	e->ev_u.exit.px_pid = 2;
	e->ev_u.exit.px_how = MAPLOG_EXIT_NORMAL;
	e->ev_u.exit.px_code = INT32_MAX;

	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_VALUE, 7000000007ull);
	e->ev_u.mval.mv_index = 7;
	e->ev_u.mval.mv_kind = MAPLOG_VALUE_U64;
	e->ev_u.mval.mv_v.u64 = UINT64_MAX;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_VALUE, 7000000008ull);
	e->ev_u.mval.mv_index = 8;
	e->ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	e->ev_u.mval.mv_v.dbl = -1.5e300;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_VALUE, 7000000009ull);
	e->ev_u.mval.mv_index = 9;
	e->ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	e->ev_u.mval.mv_v.dbl = -0.0;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_VALUE, 7000000010ull);
	e->ev_u.mval.mv_index = 10;
	e->ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	bits = 0x7ff8000000000123ull; /* a NaN with a payload */
	memcpy(&d, &bits, 8);
	e->ev_u.mval.mv_v.dbl = d;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_METRIC_VALUE, 7000000011ull);
	e->ev_u.mval.mv_index = 11;
	e->ev_u.mval.mv_kind = MAPLOG_VALUE_NONE;
	e->ev_u.mval.mv_v.u64 = 77; /* not written */
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_DROP, 7000000012ull);
	e->ev_u.drop.dr_tid = 4243;
	e->ev_u.drop.dr_reason = MAPLOG_DROP_OVERRUN;
	e->ev_u.drop.dr_count = 1ull << 40;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MARK, 7000000013ull);
	e->ev_u.mark.mk_tid = 4244;
	e->ev_u.mark.mk_value = 0xdeadbeefcafeull;
	e->ev_u.mark.mk_text = "phase \"2\" \xe2\x86\x92 solve";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MARK, 7000000014ull);
	e->ev_u.mark.mk_tid = 0;
	e->ev_u.mark.mk_value = 0;
	e->ev_u.mark.mk_text = NULL;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MPI_CALLS, 7000000015ull);
	e->ev_u.mpi.mc_function = "MPI_Allreduce";
	e->ev_u.mpi.mc_calls = 123457;
	e->ev_u.mpi.mc_time_ns = 1ull << 50;
	e->ev_u.mpi.mc_sent = 0xfedcba9876543210ull;
	e->ev_u.mpi.mc_received = 0;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MANIFEST, 7400000000ull);
	e->ev_u.manifest.mf_plugin = "otf2";
	e->ev_u.manifest.mf_path = "/data/run 1.maplog.otf2/traces.otf2";
	e->ev_u.manifest.mf_description = "";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_FILE, 7500000000ull);
	e->ev_u.file.fi_pid = 4242;
	e->ev_u.file.fi_flags = MAPLOG_FILE_CUT;
	e->ev_u.file.fi_offset = 1u << 20;
	e->ev_u.file.fi_kind = "perf-map";
	e->ev_u.file.fi_name = "/tmp/perf-4242.map";
	e->ev_u.file.fi_data = (const uint8_t *)"7f00 10 a\n\0\xff";
	e->ev_u.file.fi_len = 12;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_THREAD_NAME, 7600000000ull);
	e->ev_u.tname.tn_tid = 4243;
	e->ev_u.tname.tn_name = "renamed \xe2\x80\x94 io";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_CLOSE, 8000000000ull);
	e->ev_u.close.cl_samples = 123456;
	e->ev_u.close.cl_dropped = 78;
	e->ev_u.close.cl_threads = 9;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_JOB, 8000000001ull);
	e->ev_u.job.jb_rank = 1023;
	e->ev_u.job.jb_size = 4096;
	e->ev_u.job.jb_role = MAPLOG_JOB_APPLICATION;
	e->ev_u.job.jb_job_id = "4211.0";
	e->ev_u.job.jb_launcher = "slurm";
	e->ev_u.job.jb_source = "SLURM_PROCID";
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_JOB, 8000000002ull);
	e->ev_u.job.jb_rank = -1;
	e->ev_u.job.jb_size = 0;
	e->ev_u.job.jb_role = MAPLOG_JOB_LAUNCHER;
	e->ev_u.job.jb_job_id = NULL;
	e->ev_u.job.jb_launcher = "openmpi";
	e->ev_u.job.jb_source = "";

	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_SAMPLE, 8000000001ull);
	e->ev_u.sample.sa_weight = 1000000;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_SAMPLE, 8000000002ull);
	e->ev_u.sample.sa_tid = 99;
	e->ev_u.sample.sa_weight = 999999;
	e->ev_u.sample.sa_npc = 3;
	e->ev_u.sample.sa_pc = pcs3;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_SAMPLE, 7999999999ull); /* backwards */
	e->ev_u.sample.sa_weight = UINT64_MAX;
	e->ev_u.sample.sa_npc = 3;
	e->ev_u.sample.sa_pc = pcs3;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_SAMPLE, 8000000003ull);
	e->ev_u.sample.sa_tid = UINT32_MAX;
	e->ev_u.sample.sa_weight = 0;
	e->ev_u.sample.sa_npc = 32;
	e->ev_u.sample.sa_pc = pcs32;
	e = &want[n++];
	*e = ev_make(MAPLOG_TYPE_MARK, 8000000004ull);
	e->ev_u.mark.mk_tid = 1;
	e->ev_u.mark.mk_value = 2;
	e->ev_u.mark.mk_text = "last";
	ck_assert_uint_le(n, MAX_WANT);
	return n;
}

START_TEST(maplog_roundtrip_all_types)
{
	struct maplog_ev want[MAX_WANT], ev;
	size_t n = all_type_events(want);
	int seen[MAPLOG_TYPE_MAX_] = {0};
	struct wlog w;

	wlog_init(&w, 64 * 1024, 256, 4096);
	for (size_t i = 0; i < n; i++) {
		wlog_put(&w, &want[i]);
		seen[want[i].ev_type] = 1;
	}
	wlog_close(&w, 1, 1);
	ck_assert_uint_eq(w.chunks, 1);
	for (int t = 1; t < MAPLOG_TYPE_MAX_; t++)
		ck_assert_msg(seen[t] || t == MAPLOG_TYPE_STACK ||
				      !type_defined(t),
			      "type %d not covered", t);

	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_feed(p, w.buf, w.len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	uint64_t last_off = 0;
	for (size_t i = 0; i < n; i++) {
		memset(&ev, 0x77, sizeof(ev));
		ck_assert_int_eq(maplog_read(p, &ev), 0);
		check_event(&ev, &want[i], TEST_TID);
		ck_assert_uint_eq(ev.ev_chunk_seq, TEST_SEQ);
		ck_assert_uint_eq(ev.ev_count, i + 1);
		ck_assert_uint_gt(ev.ev_offset, last_off);
		ck_assert_uint_ge(ev.ev_offset,
				  MAPLOG_FILE_HEADER_SIZE + CH_HDR);
		ck_assert_uint_lt(ev.ev_offset, w.len);
		last_off = ev.ev_offset;
	}
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
	ck_assert_uint_eq(ev.ev_count, n);
	struct maplog_stats st;
	ck_assert_int_eq(maplog_stats(p, &st), 0);
	ck_assert_uint_eq(st.st_records, n);
	ck_assert_uint_eq(st.st_samples, 4);
	ck_assert_uint_eq(st.st_chunks, 1);
	ck_assert_uint_eq(st.st_bytes, w.len);
	ck_assert_uint_eq(st.st_damaged, 0);
	maplog_close(p);
	wlog_free(&w);
}
END_TEST

/* The same records split over many small chunks, on a process stream
 * (tid 0) and with several chunk sequence numbers. */
START_TEST(maplog_roundtrip_small_chunks)
{
	struct maplog_ev want[MAX_WANT], ev;
	size_t n = all_type_events(want);
	struct wlog w;
	uint32_t seq_seen = TEST_SEQ;

	wlog_init(&w, 512, 64, 64);
	w.id.tid = 0;
	for (size_t i = 0; i < n; i++)
		wlog_put(&w, &want[i]);
	wlog_close(&w, 0, 1); /* untrimmed: unused capacity is skipped */
	ck_assert_uint_gt(w.chunks, 3);

	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_feed(p, w.buf, w.len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(maplog_read(p, &ev), 0);
		check_event(&ev, &want[i], 0);
		ck_assert_uint_ge(ev.ev_chunk_seq, seq_seen);
		seq_seen = ev.ev_chunk_seq;
	}
	ck_assert_uint_eq(seq_seen, TEST_SEQ + w.chunks - 1);
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
	maplog_close(p);
	wlog_free(&w);
}
END_TEST

/* maplog.h: event pointers stay valid until the next maplog_read(), so
 * also across a maplog_feed() that has to grow (move) the buffer. */
START_TEST(maplog_pointers_survive_feed)
{
	struct maplog_ev want[MAX_WANT], ev;
	size_t n = all_type_events(want);
	struct wlog w;

	wlog_init(&w, 64 * 1024, 256, 4096);
	for (size_t i = 0; i < n; i++)
		wlog_put(&w, &want[i]);
	wlog_close(&w, 1, 1);
	size_t first = w.len;
	w.chunk_cap = 2u << 20;
	struct maplog_ev m = ev_make(MAPLOG_TYPE_MARK, 1);
	wlog_put(&w, &m);
	wlog_close(&w, 0, 1);
	for (size_t i = 0; i < n; i++) {
		maplog *p = maplog_open(MAPLOG_FD_NONE);
		ck_assert_int_eq(maplog_feed(p, w.buf, first), 0);
		for (size_t k = 0; k <= i; k++)
			ck_assert_int_eq(maplog_read(p, &ev), 0);
		ck_assert_int_eq(maplog_feed(p, w.buf + first, w.len - first),
				 0);
		check_event(&ev, &want[i], TEST_TID);
		maplog_close(p);
	}
	wlog_free(&w);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Samples and stacks */

struct samp {
	uint64_t ts, weight;
	uint32_t tid, npc;
	const uint64_t *pc;
};

/* Parses log b and checks it holds exactly the samples s[0..n). */
static void check_samples(const uint8_t *b, size_t len, const struct samp *s,
			  size_t n, uint32_t chunk_tid)
{
	struct maplog_ev ev;
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_feed(p, b, len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	for (size_t i = 0; i < n; i++) {
		int rc = maplog_read(p, &ev);
		REQUIRE(rc == 0, "sample %zu: state %d error %s at %llu", i,
			ev.ev_state, maps_strerror(ev.ev_error),
			(unsigned long long)ev.ev_offset);
		REQUIRE(ev.ev_type == MAPLOG_TYPE_SAMPLE, "sample %zu: type %d",
			i, ev.ev_type);
		const struct maplog_ev_sample *g = &ev.ev_u.sample;
		REQUIRE(ev.ev_ts == s[i].ts, "sample %zu: ts %llu want %llu", i,
			(unsigned long long)ev.ev_ts,
			(unsigned long long)s[i].ts);
		REQUIRE(g->sa_tid == (s[i].tid ? s[i].tid : chunk_tid),
			"sample %zu: tid %u", i, g->sa_tid);
		REQUIRE(g->sa_weight == s[i].weight, "sample %zu: weight", i);
		REQUIRE(g->sa_npc == s[i].npc, "sample %zu: %u frames, want %u",
			i, g->sa_npc, s[i].npc);
		REQUIRE(g->sa_pc != NULL, "sample %zu: sa_pc NULL", i);
		for (uint32_t f = 0; f < s[i].npc; f++)
			REQUIRE(g->sa_pc[f] == s[i].pc[f],
				"sample %zu frame %u: %#llx, want %#llx", i, f,
				(unsigned long long)g->sa_pc[f],
				(unsigned long long)s[i].pc[f]);
	}
	int rc = maplog_read(p, &ev);
	REQUIRE(rc == -1 && ev.ev_state == MAPLOG_EOF &&
			!ev.ev_u.eof.eof_truncated,
		"after the samples: rc %d state %d error %s", rc, ev.ev_state,
		maps_strerror(ev.ev_error));
	maplog_close(p);
}

/* Writes samples s[0..n) through mapw_event and parses them back. */
static unsigned roundtrip_samples(const struct samp *s, size_t n,
				  uint32_t chunk_cap, uint32_t nslots,
				  uint32_t frames)
{
	struct wlog w;
	wlog_init(&w, chunk_cap, nslots, frames);
	for (size_t i = 0; i < n; i++) {
		struct maplog_ev ev = ev_make(MAPLOG_TYPE_SAMPLE, s[i].ts);
		ev.ev_u.sample.sa_tid = s[i].tid;
		ev.ev_u.sample.sa_weight = s[i].weight;
		ev.ev_u.sample.sa_npc = s[i].npc;
		ev.ev_u.sample.sa_pc = s[i].pc;
		wlog_put(&w, &ev);
	}
	if (w.open)
		wlog_close(&w, 1, 1);
	check_samples(w.buf, w.len, s, n, TEST_TID);
	unsigned chunks = w.chunks;
	wlog_free(&w);
	return chunks;
}

static void random_stack(uint64_t *s, uint64_t *pc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		switch (rng_below(s, 4)) {
		case 0:
			pc[i] = 0x555555554000ull + rng_below(s, 1u << 22);
			break;
		case 1:
			pc[i] = 0x7ffff7a00000ull + rng_below(s, 1u << 24);
			break;
		case 2:
			pc[i] = rng(s); /* anywhere: 10-byte deltas */
			break;
		default:
			pc[i] = 0xffffffff81000000ull + rng_below(s, 1u << 20);
			break;
		}
	}
}

/* Stack shapes that exercise the encoder's reuse of written stacks. */
START_TEST(maplog_sample_stack_shapes)
{
	uint64_t seed = 42;
	enum { NS = 40 };
	static uint64_t A[32], A2[32], A3[32], B[16], BX[18], C[7],
		D[MAPLOG_MAX_FRAMES], E[MAPLOG_MAX_FRAMES],
		F[MAPLOG_MAX_FRAMES];
	struct samp s[NS];
	size_t n = 0;
	uint64_t ts = 10000000000ull;

	random_stack(&seed, A, 32);
	memcpy(A2, A, sizeof(A));
	A2[0] += 0x10;             /* leaf-only variant */
	memcpy(A3, A, sizeof(A));
	A3[0] -= 0x1000;           /* leaf-only, negative delta */
	random_stack(&seed, B, 16);
	BX[0] = 0x400123;
	BX[1] = 0x400456;          /* B extended by two leaf frames */
	memcpy(BX + 2, B, sizeof(B));
	random_stack(&seed, C, 7);
	random_stack(&seed, D, MAPLOG_MAX_FRAMES);
	random_stack(&seed, E, MAPLOG_MAX_FRAMES);
	random_stack(&seed, F, 8); /* E with 8 other leaf frames */
	memcpy(F + 8, E + 8, (MAPLOG_MAX_FRAMES - 8) * sizeof(*F));

#define ADD(pcs, cnt, t)                                                       \
	do {                                                                   \
		s[n].ts = ts;                                                  \
		s[n].weight = 1000000 + n;                                     \
		s[n].tid = (t);                                                \
		s[n].npc = (cnt);                                              \
		s[n].pc = (pcs);                                               \
		n++;                                                           \
		ts += (n % 5 == 4) ? (uint64_t)-777 : 1000003;                 \
	} while (0)
	ADD(NULL, 0, 0);               /* no frames */
	ADD(A + 31, 1, 0);             /* one frame */
	ADD(A, 32, 0);                 /* 32 frames */
	ADD(A, 32, 0);                 /* repeated */
	ADD(A, 32, 777);               /* repeated, explicit tid */
	ADD(A2, 32, 0);                /* leaf-only variant */
	ADD(A3, 32, 0);                /* another */
	ADD(A3 + 5, 27, 0);            /* proper suffix of previous */
	ADD(B, 16, 0);                 /* new: leaf base after a suffix */
	ADD(BX, 18, 0);                /* extends previous */
	ADD(B + 3, 13, 0);             /* suffix again */
	ADD(C, 7, 0);                  /* new after a suffix */
	ADD(B + 3, 13, TEST_TID);      /* repeated suffix, tid = chunk's */
	ADD(A + 1, 31, 0);             /* drop one leaf frame */
	ADD(A2, 32, 0);                /* repeated after others */
	ADD(A + 30, 2, 0);             /* 2-frame suffix */
	ADD(A + 31, 1, 0);             /* 1-frame suffix */
	ADD(A + 29, 3, 0);             /* grows by one */
	ADD(D, MAPLOG_MAX_FRAMES, 0);  /* the deepest stack */
	ADD(D, MAPLOG_MAX_FRAMES, 0);  /* repeated */
	ADD(D + 1, MAPLOG_MAX_FRAMES - 1, 0);
	ADD(D + 4000, MAPLOG_MAX_FRAMES - 4000, 0);
	ADD(E, MAPLOG_MAX_FRAMES, 0);  /* new, deepest */
	ADD(F, MAPLOG_MAX_FRAMES, 0);  /* same callers, 8 new leaf frames */
	ADD(E + 4, MAPLOG_MAX_FRAMES - 4, 0); /* suffix of the one before */
	ADD(NULL, 0, 5);               /* no frames, explicit tid */
	ADD(A, 32, 0);
	ADD(C + 6, 1, 0);
	ADD(C, 7, 0);
#undef ADD
	ck_assert_uint_le(n, NS);

	/* one big chunk with a table, tiny tables, and no table */
	ck_assert_uint_eq(roundtrip_samples(s, n, 512 * 1024, 1024, 65536), 1);
	ck_assert_uint_gt(roundtrip_samples(s, n, 64 * 1024, 4, 8192), 1);
	ck_assert_uint_gt(roundtrip_samples(s, n, 64 * 1024, 16, 40), 1);
	roundtrip_samples(s, n, 128 * 1024, 0, 0);
}
END_TEST

/* Random sequences of repeats, leaf variants, suffixes and extensions. */
static void random_samples(uint64_t seed, uint32_t nsamp, uint32_t chunk_cap,
			   uint32_t nslots, uint32_t frames)
{
	enum { MAXD = 80, HIST = 48 };
	uint64_t s = seed;
	uint64_t *arena = xcalloc((size_t)nsamp * MAXD * sizeof(uint64_t));
	struct samp *sm = xcalloc(nsamp * sizeof(*sm));
	uint64_t ts = 1000000000ull;

	for (uint32_t i = 0; i < nsamp; i++) {
		uint64_t *pc = arena + (size_t)i * MAXD;
		uint32_t n = 0;
		const struct samp *prev = i ? &sm[i - 1] : NULL;
		const struct samp *h =
			i ? &sm[i - 1 - rng_below(&s, i < HIST ? i : HIST)]
			  : NULL;
		uint32_t op = rng_below(&s, 100);
		if (!h || op < 8) {
			n = rng_below(&s, 8) ? 1 + rng_below(&s, 60) : 0;
			random_stack(&s, pc, n);
		} else if (op < 40) { /* repeat */
			n = h->npc;
			memcpy(pc, h->pc, n * sizeof(*pc));
		} else if (op < 55) { /* leaf variant */
			n = h->npc;
			memcpy(pc, h->pc, n * sizeof(*pc));
			if (n)
				pc[0] += (uint64_t)(int64_t)(
					(int32_t)rng_below(&s, 4096) - 2048);
		} else if (op < 68) { /* suffix of the previous sample */
			if (prev->npc > 1) {
				uint32_t d = 1 + rng_below(&s, prev->npc - 1);
				n = prev->npc - d;
				memcpy(pc, prev->pc + d, n * sizeof(*pc));
			}
		} else if (op < 80) { /* extension of the previous sample */
			uint32_t k = 1 + rng_below(&s, 5);
			n = prev->npc + k;
			if (n > MAXD) {
				n = MAXD;
				k = n - prev->npc;
			}
			random_stack(&s, pc, k);
			memcpy(pc + k, prev->pc, prev->npc * sizeof(*pc));
		} else if (op < 90) { /* suffix of an older sample */
			uint32_t d = h->npc ? rng_below(&s, h->npc) : 0;
			n = h->npc - d;
			memcpy(pc, h->pc + d, n * sizeof(*pc));
		} else { /* a caller changed */
			n = h->npc;
			memcpy(pc, h->pc, n * sizeof(*pc));
			if (n > 2)
				pc[1 + rng_below(&s, n - 2)] ^= 0x40;
		}
		/* timestamps wander, backwards too */
		ts += (uint64_t)((int64_t)rng_below(&s, 3000000) - 500000);
		sm[i].ts = ts;
		sm[i].weight = 900000 + rng_below(&s, 200000);
		sm[i].tid = rng_below(&s, 8) ? 0 : 1 + rng_below(&s, 100000);
		sm[i].npc = n;
		sm[i].pc = pc;
	}
	roundtrip_samples(sm, nsamp, chunk_cap, nslots, frames);
	free(arena);
	free(sm);
}

START_TEST(maplog_sample_random_stacks)
{
	random_samples(1, 3000, 256 * 1024, 4096, 32768);
	random_samples(2, 3000, 4096, 16, 512);
	random_samples(3, 2000, 2048, 64, 256);
	random_samples(4, 2000, 8192, 0, 0);
	random_samples(5, 3000, 64 * 1024, 8, 4096);
}
END_TEST

/* Distinct stacks fill the table: ENOSPC with room left, known stacks
 * still go in, and a new chunk takes the rejected stack. */
START_TEST(maplog_stack_table_full)
{
	enum { NSLOTS = 16, NSTK = 12, DEPTH = 8 };
	static uint64_t stk[NSTK][DEPTH];
	struct samp s[64];
	size_t n = 0;
	uint64_t seed = 7, ts = 5000000;
	struct wlog w;

	for (int i = 0; i < NSTK; i++)
		random_stack(&seed, stk[i], DEPTH);
	wlog_init(&w, 64 * 1024, NSLOTS, 4096);
	wlog_open(&w, ts);
	int i, rc = 0;
	for (i = 0; i < NSTK; i++) {
		ts += 1000;
		rc = mapw_sample(&w.c, ts, 0, 1000, DEPTH, stk[i]);
		if (rc)
			break;
		s[n++] = (struct samp){ts, 1000, 0, DEPTH, stk[i]};
	}
	ck_assert_int_eq(rc, MAPS_ENOSPC);
	ck_assert_int_eq(i, NSLOTS / 2);
	ck_assert_uint_gt(mapw_chunk_room(&w.c), 60000);
	/* a stack already in the table, and no stack, still fit */
	ts += 1000;
	ck_assert_int_eq(mapw_sample(&w.c, ts, 0, 1000, DEPTH, stk[2]), 0);
	s[n++] = (struct samp){ts, 1000, 0, DEPTH, stk[2]};
	ck_assert_int_eq(mapw_sample(&w.c, ts, 0, 1000, 0, NULL), 0);
	s[n++] = (struct samp){ts, 1000, 0, 0, NULL};
	/* still rejected, nothing written */
	uint32_t used = w.c.used;
	ck_assert_int_eq(mapw_sample(&w.c, ts, 0, 1000, DEPTH, stk[i]),
			 MAPS_ENOSPC);
	ck_assert_uint_eq(w.c.used, used);
	wlog_close(&w, 1, 1);
	wlog_open(&w, ts);
	for (int j = i; j < NSTK; j++) {
		ts += 1000;
		ck_assert_int_eq(mapw_sample(&w.c, ts, 0, 1000, DEPTH, stk[j]),
				 0);
		s[n++] = (struct samp){ts, 1000, 0, DEPTH, stk[j]};
	}
	ts += 1000; /* and a stack of the first chunk, anew */
	ck_assert_int_eq(mapw_sample(&w.c, ts, 0, 1000, DEPTH, stk[0]), 0);
	s[n++] = (struct samp){ts, 1000, 0, DEPTH, stk[0]};
	wlog_close(&w, 1, 1);
	check_samples(w.buf, w.len, s, n, TEST_TID);
	wlog_free(&w);

	/* the frame arena fills too: 40 frames hold two 16-frame stacks */
	static uint64_t big[4][16];
	for (int j = 0; j < 4; j++)
		random_stack(&seed, big[j], 16);
	wlog_init(&w, 64 * 1024, 64, 40);
	wlog_open(&w, 0);
	n = 0;
	for (int j = 0; j < 2; j++) {
		ck_assert_int_eq(mapw_sample(&w.c, 10 + j, 0, 5, 16, big[j]),
				 0);
		s[n++] = (struct samp){10 + (uint64_t)j, 5, 0, 16, big[j]};
	}
	ck_assert_int_eq(mapw_sample(&w.c, 12, 0, 5, 16, big[2]), MAPS_ENOSPC);
	ck_assert_int_eq(mapw_sample(&w.c, 12, 0, 5, 16, big[1]), 0);
	s[n++] = (struct samp){12, 5, 0, 16, big[1]};
	wlog_close(&w, 1, 1);
	/* a stack larger than the arena goes in alone at a chunk's start */
	static uint64_t huge[64];
	random_stack(&seed, huge, 64);
	wlog_open(&w, 20);
	ck_assert_int_eq(mapw_sample(&w.c, 20, 0, 5, 64, huge), 0);
	s[n++] = (struct samp){20, 5, 0, 64, huge};
	ck_assert_int_eq(mapw_sample(&w.c, 21, 0, 5, 0, NULL), 0);
	s[n++] = (struct samp){21, 5, 0, 0, NULL};
	wlog_close(&w, 1, 1);
	wlog_open(&w, 22);
	ck_assert_int_eq(mapw_sample(&w.c, 22, 0, 5, 16, big[2]), 0);
	s[n++] = (struct samp){22, 5, 0, 16, big[2]};
	ck_assert_int_eq(mapw_sample(&w.c, 23, 0, 5, 64, huge), MAPS_ENOSPC);
	wlog_close(&w, 1, 1);
	check_samples(w.buf, w.len, s, n, TEST_TID);
	wlog_free(&w);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 2. One stream, many ways of reading it */

static void synth_opts_multi(struct logsynth_opts *o)
{
	logsynth_defaults(o);
	o->samples = 2000;
	o->processes = 3;
	o->threads = 3;
	o->distinct_stacks = 300;
	o->min_depth = 1;
	o->max_depth = 48;
	o->chunk_size = 2048;
	o->seed = 11;
	o->all_types = 1;
}

START_TEST(maplog_stream_equivalence)
{
	struct logsynth_opts o;
	struct logsynth_result res;
	struct items whole, other;
	struct walk w;
	size_t len;
	char what[256];

	synth_opts_multi(&o);
	uint8_t *b = synth(&o, &len, &res);
	ck_assert_uint_gt(res.chunks, 50);

	parse_mem(b, len, FEED_WHOLE, 0, &whole);
	const struct item *eof = last_item(&whole);
	ck_assert_int_eq(eof->state, MAPLOG_EOF);
	ck_assert_int_eq(eof->eof_truncated, 0);
	walk_log(b, len, &w);
	ck_assert_uint_eq(w.nc, res.chunks);
	check_against_walk(&whole, &w);
	ck_assert_uint_eq(whole.n, w.nok + 1);

	/* events carry their chunk's stream identity */
	uint32_t pids = 0;
	for (size_t i = 0; i + 1 < whole.n; i++) {
		const struct item *x = &whole.v[i];
		long k = walk_chunk_at(&w, x->offset);
		ck_assert_int_ge(k, 0);
		const uint8_t *h = b + w.c[k].off;
		REQUIRE(x->pid == maplog_ld32(h + MAPLOG_CH_PID) &&
				x->tid == maplog_ld32(h + MAPLOG_CH_TID) &&
				x->image == maplog_ld32(h + MAPLOG_CH_IMAGE) &&
				x->seq == maplog_ld32(h + MAPLOG_CH_SEQ),
			"event %zu: wrong stream identity", i);
		pids |= 1u << (x->pid - 4000);
	}
	ck_assert_uint_eq(pids, 7);

	parse_mem(b, len, FEED_BYTES, 0, &other);
	items_eq(&whole, &other, "1-byte pieces");
	items_free(&other);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		parse_mem(b, len, FEED_RANDOM, seed, &other);
		snprintf(what, sizeof(what), "random pieces, seed %llu",
			 (unsigned long long)seed);
		items_eq(&whole, &other, what);
		items_free(&other);
		parse_mem(b, len, FEED_INTERLEAVE, seed, &other);
		snprintf(what, sizeof(what), "interleaved feeds, seed %llu",
			 (unsigned long long)seed);
		items_eq(&whole, &other, what);
		items_free(&other);
	}
	parse_file(b, len, &other);
	items_eq(&whole, &other, "file");
	items_free(&other);
	parse_file_at(b, len, 13, &other);
	items_eq(&whole, &other, "file read from byte 13");
	items_free(&other);
	parse_pipe(b, len, &other);
	items_eq(&whole, &other, "pipe");
	items_free(&other);

	/* data_offset past the header: the padding is skipped */
	free(b);
	o.data_offset = 4096;
	b = synth(&o, &len, &res);
	parse_mem(b, len, FEED_WHOLE, 0, &other);
	ck_assert_uint_eq(other.n, whole.n);
	for (size_t i = 0; i < whole.n; i++) {
		struct item x = other.v[i];
		if (x.state == MAPLOG_OK)
			x.offset -= 4096 - 64;
		else
			x.offset = whole.v[i].offset;
		REQUIRE(item_same(&whole.v[i], &x, 1),
			"data_offset 4096: event %zu differs", i);
	}
	items_free(&other);
	struct items f;
	parse_file(b, len, &f);
	parse_mem(b, len, FEED_BYTES, 0, &other);
	items_eq(&f, &other, "data_offset 4096, file vs bytes");
	items_free(&other);
	items_free(&f);

	items_free(&whole);
	walk_free(&w);
	free(b);
}
END_TEST

START_TEST(maplog_stats_counters)
{
	struct logsynth_opts o;
	struct logsynth_result res;
	struct items it;
	size_t len;

	synth_opts_multi(&o);
	uint8_t *b = synth(&o, &len, &res);
	for (int mode = 0; mode < 2; mode++) {
		if (mode == 0)
			parse_mem(b, len, FEED_RANDOM, 5, &it);
		else
			parse_file(b, len, &it);
		const struct maplog_stats *st = &it.st;
		uint64_t records = 0;
		for (int t = 1; t < MAPLOG_TYPE_MAX_; t++) {
			if (t == MAPLOG_TYPE_STACK)
				continue;
			ck_assert_msg(it.by_type[t] == res.records[t],
				      "type %s: %llu read, %llu written",
				      maplog_type_name(t),
				      (unsigned long long)it.by_type[t],
				      (unsigned long long)res.records[t]);
			records += res.records[t];
		}
		ck_assert_uint_gt(res.records[MAPLOG_TYPE_STACK], 0);
		ck_assert_uint_eq(st->st_records, records);
		ck_assert_uint_eq(st->st_samples,
				  res.records[MAPLOG_TYPE_SAMPLE]);
		ck_assert_uint_eq(st->st_chunks, res.chunks);
		ck_assert_uint_eq(st->st_bytes, len);
		ck_assert_uint_eq(st->st_open_chunks, 0);
		ck_assert_uint_eq(st->st_damaged, 0);
		ck_assert_uint_eq(st->st_skipped_bytes, 0);
		ck_assert_uint_eq(st->st_unknown, 0);
		ck_assert_int_eq(st->st_truncated, 0);
		ck_assert_uint_eq(st->st_truncated_bytes, 0);
		ck_assert_uint_eq(st->st_version_major, MAPLOG_VERSION_MAJOR);
		ck_assert_uint_eq(st->st_version_minor, MAPLOG_VERSION_MINOR);
		ck_assert_uint_eq(it.pc_sum, res.pc_sum);
		ck_assert_uint_eq(it.weight_sum, res.weight_sum);
		ck_assert_uint_eq(it.frames, res.frames);
		ck_assert_uint_eq(last_item(&it)->count, records);
		items_free(&it);
	}
	free(b);
}
END_TEST

/* An unlinked sparse file: prefix bytes of 'M', then the log b of len
 * bytes of which only [0, a) and [c, len) are written; fd at the log. */
static int sparse_fd(const uint8_t *b, size_t len, size_t a, size_t c,
		     size_t prefix)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	uint8_t pre[64];
	snprintf(path, sizeof(path), "%s/test_maplog.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_uint_le(prefix, sizeof(pre));
	memset(pre, 'M', sizeof(pre));
	ck_assert_int_eq(ftruncate(fd, (off_t)(prefix + len)), 0);
	ck_assert_int_eq(pwrite(fd, pre, prefix, 0), (ssize_t)prefix);
	ck_assert_int_eq(pwrite(fd, b, a, (off_t)prefix), (ssize_t)a);
	ck_assert_int_eq(pwrite(fd, b + c, len - c, (off_t)(prefix + c)),
			 (ssize_t)(len - c));
	ck_assert_int_eq(lseek(fd, (off_t)prefix, SEEK_SET), (off_t)prefix);
	return fd;
}

/* A log with a 9 MiB chunk of unused capacity, then more chunks;
 * *a and *c delimit the zeros. */
static size_t big_hole_log(struct wlog *w, struct maplog_ev *want,
			   size_t *a, size_t *c)
{
	const uint32_t big = 9u << 20;
	size_t n = all_type_events(want);
	wlog_init(w, big, 256, 4096);
	for (size_t i = 0; i < 10; i++)
		wlog_put(w, &want[i]);
	wlog_close(w, 0, 1); /* untrimmed: 9 MiB of nothing */
	w->chunk_cap = 4096;
	for (size_t i = 10; i < n; i++)
		wlog_put(w, &want[i]);
	wlog_close(w, 1, 1);
	ck_assert_uint_gt(w->len, big);
	*a = 64 + CH_HDR + maplog_ld32(w->buf + 64 + MAPLOG_CH_USED);
	*c = 64 + big;
	return n;
}

/* Reads the log from a sparse file starting at byte prefix, whole and
 * cut inside the unused capacity, and compares with the memory parse. */
static void check_big_hole_file(const struct wlog *w, size_t a, size_t c,
				size_t prefix, const struct items *mem)
{
	struct items other;
	char what[128];
	int fd = sparse_fd(w->buf, w->len, a, c, prefix);

	snprintf(what, sizeof(what), "sparse file, log at byte %zu", prefix);
	parse_fd(fd, &other);
	items_eq(mem, &other, what);
	ck_assert_uint_eq(other.st.st_bytes, w->len);
	items_free(&other);
	/* the file ends inside the unused capacity: not truncated */
	ck_assert_int_eq(ftruncate(fd, (off_t)(prefix + (a + c) / 2)), 0);
	ck_assert_int_eq(lseek(fd, (off_t)prefix, SEEK_SET), (off_t)prefix);
	parse_fd(fd, &other);
	ck_assert_uint_eq(other.n, 11);
	for (size_t k = 0; k < 10; k++)
		REQUIRE(item_same(&mem->v[k], &other.v[k], 1),
			"%s, cut in the capacity: event %zu", what, k);
	ck_assert_int_eq(last_item(&other)->state, MAPLOG_EOF);
	ck_assert_int_eq(last_item(&other)->eof_truncated, 0);
	ck_assert_int_eq(other.st.st_truncated, 0);
	items_free(&other);
	close(fd);
}

/*
 * A chunk with far more unused capacity than one read(2) block: a file
 * parser maps it, a pipe parser reads through it, and the events are the
 * same.
 */
START_TEST(maplog_big_unused_capacity)
{
	struct maplog_ev want[MAX_WANT];
	struct wlog w;
	struct items mem, other;
	size_t a, c;
	size_t n = big_hole_log(&w, want, &a, &c);

	parse_mem(w.buf, w.len, FEED_WHOLE, 0, &mem);
	ck_assert_uint_eq(mem.n, n + 1);
	ck_assert_int_eq(last_item(&mem)->state, MAPLOG_EOF);
	ck_assert_int_eq(last_item(&mem)->eof_truncated, 0);
	ck_assert_uint_eq(mem.st.st_bytes, w.len);
	check_big_hole_file(&w, a, c, 0, &mem);
	parse_pipe(w.buf, w.len, &other);
	items_eq(&mem, &other, "pipe");
	items_free(&other);
	parse_mem(w.buf, w.len, FEED_RANDOM, 3, &other);
	items_eq(&mem, &other, "random pieces");
	items_free(&other);
	items_free(&mem);
	wlog_free(&w);
}
END_TEST

/*
 * maplog_open(): fd is "positioned at the start of a log", which need not
 * be the start of the file; such a file is read(2), and the parser seeks
 * over unused capacity.  Offsets stay those of the log.
 */
START_TEST(maplog_file_not_at_start)
{
	struct maplog_ev want[MAX_WANT];
	struct wlog w;
	struct items mem;
	size_t a, c;

	big_hole_log(&w, want, &a, &c);
	parse_mem(w.buf, w.len, FEED_WHOLE, 0, &mem);
	check_big_hole_file(&w, a, c, 8, &mem);
	check_big_hole_file(&w, a, c, 13, &mem);
	items_free(&mem);
	wlog_free(&w);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 3. Truncation at every byte offset */

struct cut_expect {
	size_t nrec;
	int truncated;
	uint64_t dropped, missing; /* exact when in a chunk's payload */
	int in_header;             /* cut inside a chunk header */
};

static struct cut_expect expect_cut(const struct walk *w, size_t cut)
{
	struct cut_expect e = {0, 0, 0, 0, 0};
	size_t lo = 0, hi = w->nok;
	while (lo < hi) { /* records wholly before the cut */
		size_t mid = (lo + hi) / 2;
		if (w->ok[mid].end <= cut)
			lo = mid + 1;
		else
			hi = mid;
	}
	e.nrec = lo;
	if (cut == 0)
		return e;
	if (cut < MAPLOG_FILE_HEADER_SIZE) {
		e.truncated = 1;
		e.dropped = cut;
		e.in_header = 1;
		return e;
	}
	long k = walk_chunk_at(w, cut);
	if (k < 0)
		return e;
	const struct wchunk *c = &w->c[k];
	uint64_t pend = c->off + CH_HDR + c->used;
	if (cut <= c->off || cut >= pend)
		return e; /* at a boundary, or in unused space */
	e.truncated = 1;
	if (cut < c->off + CH_HDR) {
		e.in_header = 1;
		e.dropped = cut - c->off;
		return e;
	}
	uint64_t last = c->off + CH_HDR;
	for (size_t r = c->first_rec; r < c->first_rec + c->nrec; r++)
		if (w->r[r].end <= cut)
			last = w->r[r].end;
	e.dropped = cut - last;
	e.missing = pend - cut;
	return e;
}

static void check_cut(const struct items *full, const struct walk *w,
		      size_t cut, const struct items *got)
{
	struct cut_expect e = expect_cut(w, cut);
	REQUIRE(got->n == e.nrec + 1,
		"cut %zu: %zu events, want %zu records + EOF", cut, got->n,
		e.nrec);
	for (size_t i = 0; i < e.nrec; i++)
		REQUIRE(item_same(&full->v[i], &got->v[i], 1),
			"cut %zu: record %zu differs", cut, i);
	const struct item *x = &got->v[e.nrec];
	REQUIRE(x->state == MAPLOG_EOF, "cut %zu: ends with state %d (%s)",
		cut, x->state, maps_strerror(x->error));
	REQUIRE(x->count == e.nrec, "cut %zu: EOF count %llu", cut,
		(unsigned long long)x->count);
	REQUIRE(x->eof_truncated == e.truncated,
		"cut %zu: eof_truncated %d, want %d", cut, x->eof_truncated,
		e.truncated);
	REQUIRE(got->st.st_truncated == e.truncated,
		"cut %zu: st_truncated %d", cut, got->st.st_truncated);
	REQUIRE(x->offset <= cut, "cut %zu: EOF at %llu", cut,
		(unsigned long long)x->offset);
	if (!e.truncated) {
		REQUIRE(x->eof_dropped == 0 && x->eof_missing == 0,
			"cut %zu: EOF not truncated, but dropped %llu "
			"missing %llu",
			cut, (unsigned long long)x->eof_dropped,
			(unsigned long long)x->eof_missing);
	} else if (e.in_header) {
		REQUIRE(x->eof_dropped == e.dropped,
			"cut %zu: eof_dropped %llu, want %llu", cut,
			(unsigned long long)x->eof_dropped,
			(unsigned long long)e.dropped);
		REQUIRE(cut < MAPLOG_FILE_HEADER_SIZE ||
				x->eof_missing >= CH_HDR - e.dropped,
			"cut %zu: eof_missing %llu", cut,
			(unsigned long long)x->eof_missing);
	} else {
		REQUIRE(x->eof_dropped == e.dropped &&
				x->eof_missing == e.missing,
			"cut %zu: dropped/missing %llu/%llu, want %llu/%llu",
			cut, (unsigned long long)x->eof_dropped,
			(unsigned long long)x->eof_missing,
			(unsigned long long)e.dropped,
			(unsigned long long)e.missing);
		REQUIRE(got->st.st_truncated_bytes == e.dropped + e.missing,
			"cut %zu: st_truncated_bytes", cut);
	}
	REQUIRE(got->st.st_damaged == 0, "cut %zu: damage reported", cut);
}

static void truncate_everywhere(const struct logsynth_opts *o)
{
	struct items full, got, other;
	struct walk w;
	size_t len;
	uint8_t *b = synth(o, &len, NULL);

	walk_log(b, len, &w);
	ck_assert_uint_ge(w.nc, 8);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	check_against_walk(&full, &w);

	for (size_t cut = 0; cut <= len; cut++) {
		/* the bytes after the cut are not there at all */
		uint8_t *m = memdup(b, cut);
		parse_mem(m, cut, FEED_WHOLE, 0, &got);
		check_cut(&full, &w, cut, &got);
		if (cut % 7 == 0) {
			parse_mem(m, cut, FEED_RANDOM, cut, &other);
			REQUIRE(got.n == other.n, "cut %zu: pieces differ",
				cut);
			for (size_t i = 0; i < got.n; i++)
				REQUIRE(item_same(&got.v[i], &other.v[i], 1),
					"cut %zu: random pieces differ at %zu",
					cut, i);
			items_free(&other);
		}
		if (cut % 61 == 0 || cut == len - 1) {
			parse_file(m, cut, &other);
			REQUIRE(got.n == other.n, "cut %zu: file differs", cut);
			for (size_t i = 0; i < got.n; i++)
				REQUIRE(item_same(&got.v[i], &other.v[i], 1),
					"cut %zu: file differs at %zu", cut, i);
			items_free(&other);
		}
		items_free(&got);
		free(m);
	}
	items_free(&full);
	walk_free(&w);
	free(b);
}

static void synth_opts_small(struct logsynth_opts *o)
{
	logsynth_defaults(o);
	o->samples = 120;
	o->processes = 2;
	o->threads = 2;
	o->distinct_stacks = 30;
	o->min_depth = 1;
	o->max_depth = 24;
	o->chunk_size = 1024;
	o->data_offset = 128;
	o->seed = 5;
	o->all_types = 1;
}

START_TEST(maplog_truncate_every_offset)
{
	struct logsynth_opts o;
	synth_opts_small(&o);
	truncate_everywhere(&o);
}
END_TEST

START_TEST(maplog_truncate_every_offset_open)
{
	struct logsynth_opts o;
	synth_opts_small(&o);
	o.leave_open = 1;
	o.data_offset = 64;
	o.samples = 80;
	o.seed = 6;
	truncate_everywhere(&o);
}
END_TEST

/* A truncated memory stream that is never ended keeps asking for data,
 * and the records it can give are all given first. */
START_TEST(maplog_truncate_unended)
{
	struct logsynth_opts o;
	struct items full;
	struct walk w;
	struct maplog_ev ev;
	size_t len;

	synth_opts_small(&o);
	uint8_t *b = synth(&o, &len, NULL);
	walk_log(b, len, &w);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	for (size_t cut = 0; cut <= len; cut += 37) {
		struct cut_expect e = expect_cut(&w, cut);
		maplog *p = maplog_open(MAPLOG_FD_NONE);
		ck_assert_int_eq(maplog_feed(p, b, cut), 0);
		size_t nrec = 0;
		for (;;) {
			int rc = maplog_read(p, &ev);
			if (rc == -1)
				break;
			nrec++;
		}
		REQUIRE(ev.ev_state == MAPLOG_REQUIRE_DATA,
			"cut %zu: state %d before the end", cut, ev.ev_state);
		/* a sealed chunk is only decoded whole */
		REQUIRE(nrec <= e.nrec, "cut %zu: %zu records", cut, nrec);
		ck_assert_int_eq(maplog_read(p, &ev), -1);
		ck_assert_int_eq(ev.ev_state, MAPLOG_REQUIRE_DATA);
		ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
		for (;;) {
			int rc = maplog_read(p, &ev);
			if (rc == -1)
				break;
			nrec++;
		}
		REQUIRE(ev.ev_state == MAPLOG_EOF && nrec == e.nrec &&
				ev.ev_u.eof.eof_truncated == e.truncated,
			"cut %zu: state %d, %zu records, truncated %d", cut,
			ev.ev_state, nrec, ev.ev_u.eof.eof_truncated);
		maplog_close(p);
	}
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 4. Damage */

static void synth_opts_damage(struct logsynth_opts *o)
{
	logsynth_defaults(o);
	o->samples = 1000;
	o->processes = 2;
	o->threads = 3;
	o->distinct_stacks = 150;
	o->min_depth = 1;
	o->max_depth = 32;
	o->chunk_size = 2048;
	o->data_offset = 256;
	o->seed = 3;
	o->all_types = 1;
}

/* Checks that got holds full's records minus those in chunks [lo, hi)
 * of w, in order, with ev_count renumbered. */
static void check_records_without(const struct items *full,
				  const struct items *got,
				  uint64_t lo, uint64_t hi, int64_t shift,
				  uint64_t shift_from, const char *what)
{
	char b1[512], b2[512];
	struct items a, g;
	ok_items(full, &a);
	ok_items(got, &g);
	size_t j = 0;
	for (size_t i = 0; i < a.n; i++) {
		if (a.v[i].offset >= lo && a.v[i].offset < hi)
			continue;
		REQUIRE(j < g.n, "%s: only %zu records", what, g.n);
		struct item x = a.v[i];
		if (x.offset >= shift_from)
			x.offset = (uint64_t)((int64_t)x.offset + shift);
		x.count = j + 1;
		REQUIRE(item_same(&x, &g.v[j], 1),
			"%s: record %zu differs:\n want %s\n got  %s", what, j,
			item_str(&x, b1, sizeof(b1)),
			item_str(&g.v[j], b2, sizeof(b2)));
		j++;
	}
	REQUIRE(j == g.n, "%s: %zu records, want %zu", what, g.n, j);
	items_free(&a);
	items_free(&g);
}

static size_t count_state(const struct items *it, int state)
{
	size_t n = 0;
	for (size_t i = 0; i < it->n; i++)
		n += it->v[i].state == state;
	return n;
}

static const struct item *first_error(const struct items *it)
{
	for (size_t i = 0; i < it->n; i++)
		if (it->v[i].state == MAPLOG_ERROR)
			return &it->v[i];
	return NULL;
}

/* Random bytes of one chunk's header or payload changed: that chunk is
 * reported once and lost, every other one is read. */
START_TEST(maplog_corrupt_one_chunk)
{
	struct logsynth_opts o;
	struct items full, got, other;
	struct walk w;
	size_t len;
	uint64_t s = 2024;

	synth_opts_damage(&o);
	uint8_t *b = synth(&o, &len, NULL);
	walk_log(b, len, &w);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	check_against_walk(&full, &w);
	uint8_t *m = xcalloc(len);

	for (int iter = 0; iter < 1000; iter++) {
		memcpy(m, b, len);
		size_t k = rng_below(&s, (uint32_t)w.nc);
		const struct wchunk *c = &w.c[k];
		uint32_t span = CH_HDR + c->used;
		int nflip = 1 + (int)rng_below(&s, 4);
		uint32_t at[4];
		for (int f = 0; f < nflip; f++) {
			uint32_t x;
			int dup;
			do {
				/* not the flags word: see corrupt_flags */
				do
					x = rng_below(&s, span);
				while (x >= MAPLOG_CH_FLAGS &&
				       x < MAPLOG_CH_FLAGS + 4);
				dup = 0;
				for (int g = 0; g < f; g++)
					dup |= at[g] == x;
			} while (dup);
			at[f] = x;
			m[c->off + x] ^= (uint8_t)(1 + rng_below(&s, 255));
		}
		char what[256];
		snprintf(what, sizeof(what),
			 "iteration %d: chunk %zu at %llu, %d flips at +%u",
			 iter, k, (unsigned long long)c->off, nflip, at[0]);
		parse_mem(m, len, FEED_WHOLE, 0, &got);
		REQUIRE(count_state(&got, MAPLOG_ERROR) == 1,
			"%s: %zu errors", what,
			count_state(&got, MAPLOG_ERROR));
		const struct item *e = first_error(&got);
		REQUIRE(e->offset >= c->off && e->offset < c->off + c->cap,
			"%s: error at %llu", what,
			(unsigned long long)e->offset);
		REQUIRE(e->error == MAPS_ECHECKSUM ||
				e->error == MAPS_EBADSIZE ||
				e->error == MAPS_EGARBAGE,
			"%s: error %d (%s)", what, e->error,
			maps_strerror(e->error));
		const struct item *eof = last_item(&got);
		REQUIRE(eof->state == MAPLOG_EOF && !eof->eof_truncated,
			"%s: ends with state %d", what, eof->state);
		check_records_without(&full, &got, c->off, c->off + c->cap,
				      0, 0, what);
		/* records before the damage came before the report */
		for (size_t i = 0; got.v[i].state != MAPLOG_ERROR; i++)
			REQUIRE(got.v[i].offset < c->off,
				"%s: record after the damage before the report",
				what);
		REQUIRE(got.st.st_damaged == 1, "%s: st_damaged %llu", what,
			(unsigned long long)got.st.st_damaged);
		REQUIRE(got.st.st_skipped_bytes == c->cap,
			"%s: st_skipped_bytes %llu, chunk is %u", what,
			(unsigned long long)got.st.st_skipped_bytes, c->cap);
		REQUIRE(got.st.st_chunks == w.nc - 1, "%s: st_chunks", what);
		if (iter % 10 == 0) {
			parse_mem(m, len, FEED_RANDOM, (uint64_t)iter, &other);
			items_eq(&got, &other, what);
			items_free(&other);
		}
		if (iter % 50 == 0) {
			parse_file(m, len, &other);
			items_eq(&got, &other, what);
			items_free(&other);
		}
		items_free(&got);
	}
	free(m);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* Random bytes changed anywhere, several chunks at once: no crash, no
 * record that differs from the original, every undamaged chunk read. */
START_TEST(maplog_corrupt_anywhere)
{
	struct logsynth_opts o;
	struct items full, got, other;
	struct walk w;
	size_t len;
	uint64_t s = 77;
	char b1[512], b2[512];

	synth_opts_damage(&o);
	o.seed = 4;
	uint8_t *b = synth(&o, &len, NULL);
	walk_log(b, len, &w);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	struct items fok;
	ok_items(&full, &fok);
	uint8_t *m = xcalloc(len);
	uint8_t *dmg = xcalloc(w.nc);   /* header or payload changed */
	uint8_t *trust = xcalloc(w.nc); /* still sealed: checksummed */

	for (int iter = 0; iter < 1000; iter++) {
		memcpy(m, b, len);
		memset(dmg, 0, w.nc);
		int nflip = 1 + (int)rng_below(&s, 8);
		int magic = 0, fh = 0;
		for (int f = 0; f < nflip; f++) {
			size_t x = rng_below(&s, (uint32_t)len);
			if (rng_below(&s, 16) == 0)
				x = rng_below(&s, MAPLOG_FILE_HEADER_SIZE);
			m[x] ^= (uint8_t)(1 + rng_below(&s, 255));
			if (x < 8)
				magic = 1;
			else if (x < MAPLOG_FH_ALLOC_END)
				fh = 1;
			long k = walk_chunk_at(&w, x);
			if (k < 0)
				continue;
			uint64_t r = x - w.c[k].off;
			if (r < CH_HDR + w.c[k].used &&
			    !(r >= MAPLOG_CH_FLAGS && r < MAPLOG_CH_FLAGS + 4))
				dmg[k] = 1;
		}
		for (size_t k = 0; k < w.nc; k++)
			trust[k] = (maplog_ld32(m + w.c[k].off +
						MAPLOG_CH_FLAGS) &
				    MAPLOG_CHUNK_SEALED) != 0;
		char what[256];
		snprintf(what, sizeof(what), "iteration %d", iter);
		parse_mem(m, len, FEED_WHOLE, 0, &got);
		if (magic) {
			REQUIRE(got.n == 1 && got.v[0].state == MAPLOG_ERROR &&
					got.v[0].error == MAPS_EMAGIC,
				"%s: bad magic not reported", what);
			items_free(&got);
			continue;
		}
		const struct item *eof = last_item(&got);
		REQUIRE(eof->state == MAPLOG_EOF,
			"%s: ends with state %d error %d", what, eof->state,
			eof->error);
		size_t j = 0;
		for (size_t i = 0; i < got.n; i++) {
			const struct item *x = &got.v[i];
			long k = walk_chunk_at(&w, x->offset);
			if (x->state == MAPLOG_ERROR) {
				REQUIRE((x->offset == 0 && fh) ||
						(k >= 0 && dmg[k]),
					"%s: error %d at %llu, nothing damaged "
					"there",
					what, x->error,
					(unsigned long long)x->offset);
				continue;
			}
			if (x->state != MAPLOG_OK)
				continue;
			REQUIRE(k >= 0, "%s: record outside chunks", what);
			if (dmg[k] && !trust[k])
				continue; /* open and damaged: anything goes */
			REQUIRE(!dmg[k], "%s: record at %llu from a damaged "
					 "sealed chunk",
				what, (unsigned long long)x->offset);
			/* the original record at that offset */
			while (j < fok.n && fok.v[j].offset < x->offset)
				j++;
			REQUIRE(j < fok.n, "%s: extra record", what);
			struct item y = fok.v[j];
			y.count = x->count;
			REQUIRE(item_same(&y, x, 1),
				"%s: record differs:\n want %s\n got  %s",
				what, item_str(&y, b1, sizeof(b1)),
				item_str(x, b2, sizeof(b2)));
		}
		/* every record of an undamaged chunk came out */
		size_t want = 0, have = 0;
		for (size_t i = 0; i < w.nok; i++)
			want += !dmg[w.ok[i].chunk];
		for (size_t i = 0; i < got.n; i++) {
			long k = walk_chunk_at(&w, got.v[i].offset);
			have += got.v[i].state == MAPLOG_OK && k >= 0 &&
				!dmg[k];
		}
		REQUIRE(want == have, "%s: %zu records of undamaged chunks, "
				      "want %zu",
			what, have, want);
		if (iter % 10 == 0) {
			parse_mem(m, len, FEED_INTERLEAVE, (uint64_t)iter,
				  &other);
			items_eq(&got, &other, what);
			items_free(&other);
		}
		items_free(&got);
	}
	free(dmg);
	free(trust);
	free(m);
	items_free(&fok);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* The flags word is outside both checksums: clearing the sealed bit makes
 * an open chunk, other bits are ignored. */
START_TEST(maplog_corrupt_flags)
{
	struct logsynth_opts o;
	struct items full, got;
	struct walk w;
	size_t len;

	synth_opts_damage(&o);
	uint8_t *b = synth(&o, &len, NULL);
	walk_log(b, len, &w);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	uint8_t *m = xcalloc(len);
	for (size_t k = 0; k < w.nc; k += 7) {
		memcpy(m, b, len);
		maplog_st32(m + w.c[k].off + MAPLOG_CH_FLAGS, 0);
		parse_mem(m, len, FEED_WHOLE, 0, &got);
		items_eq(&full, &got, "sealed bit cleared");
		ck_assert_uint_eq(got.st.st_open_chunks, 1);
		items_free(&got);
		maplog_st32(m + w.c[k].off + MAPLOG_CH_FLAGS,
			    MAPLOG_CHUNK_SEALED | 0x80000100u);
		parse_mem(m, len, FEED_WHOLE, 0, &got);
		items_eq(&full, &got, "unknown flag bits");
		ck_assert_uint_eq(got.st.st_open_chunks, 0);
		items_free(&got);
	}
	free(m);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* Bytes that are not chunks between chunks: one report, then the next
 * chunk.  g bytes are inserted before chunk k (k == nc: at the end). */
static void check_inserted(const uint8_t *b, size_t len, const struct walk *w,
			   const struct items *full, size_t k,
			   const uint8_t *g, size_t glen, int zeros)
{
	struct items got, other;
	char what[256];
	uint64_t at = k < w->nc ? w->c[k].off : len;
	uint8_t *m = insert_bytes(b, len, (size_t)at, g, glen);

	snprintf(what, sizeof(what), "%zu %s bytes before chunk %zu of %zu",
		 glen, zeros ? "zero" : "garbage", k, w->nc);
	parse_mem(m, len + glen, FEED_WHOLE, 0, &got);
	check_records_without(full, &got, 0, 0, (int64_t)glen, at, what);
	const struct item *eof = last_item(&got);
	REQUIRE(eof->state == MAPLOG_EOF, "%s: ends with state %d", what,
		eof->state);
	size_t nerr = count_state(&got, MAPLOG_ERROR);
	if (zeros) {
		REQUIRE(nerr == 0 && !eof->eof_truncated,
			"%s: %zu errors, truncated %d", what, nerr,
			eof->eof_truncated);
		REQUIRE(got.st.st_damaged == 0 && got.st.st_skipped_bytes == 0,
			"%s: zeros counted as damage", what);
	} else if (k == w->nc && glen < CH_HDR) {
		/* a short tail cannot be told from a cut chunk header */
		REQUIRE(nerr == 1 || eof->eof_truncated,
			"%s: not reported", what);
	} else {
		REQUIRE(nerr == 1, "%s: %zu errors", what, nerr);
		const struct item *e = first_error(&got);
		REQUIRE(e->offset == at,
			"%s: error at %llu, garbage at %llu", what,
			(unsigned long long)e->offset,
			(unsigned long long)at);
		REQUIRE(e->error == MAPS_EGARBAGE || e->error == MAPS_ECHECKSUM,
			"%s: error %s", what, maps_strerror(e->error));
		REQUIRE(!eof->eof_truncated, "%s: truncated", what);
		REQUIRE(got.st.st_skipped_bytes == glen,
			"%s: st_skipped_bytes %llu", what,
			(unsigned long long)got.st.st_skipped_bytes);
	}
	parse_mem(m, len + glen, FEED_BYTES, 0, &other);
	items_eq(&got, &other, what);
	items_free(&other);
	parse_file(m, len + glen, &other);
	items_eq(&got, &other, what);
	items_free(&other);
	items_free(&got);
	free(m);
}

static void inserted_setup(uint8_t **b, size_t *len, struct walk *w,
			   struct items *full)
{
	struct logsynth_opts o;
	synth_opts_damage(&o);
	o.samples = 300;
	*b = synth(&o, len, NULL);
	walk_log(*b, *len, w);
	parse_mem(*b, *len, FEED_WHOLE, 0, full);
}

START_TEST(maplog_garbage_aligned)
{
	uint8_t *b, g[200];
	size_t len;
	struct walk w;
	struct items full;
	uint64_t s = 5;

	inserted_setup(&b, &len, &w, &full);
	for (size_t i = 0; i < sizeof(g); i++)
		g[i] = (uint8_t)rng(&s);
	static const size_t ks[] = {0, 1, 5};
	for (size_t i = 0; i < 3; i++) {
		check_inserted(b, len, &w, &full, ks[i], g, 8, 0);
		check_inserted(b, len, &w, &full, ks[i], g, 40, 0);
		check_inserted(b, len, &w, &full, ks[i], g, 200, 0);
	}
	/* a chunk magic followed by junk */
	uint8_t mg[64];
	memcpy(mg, g, sizeof(mg));
	maplog_st32(mg, MAPLOG_CHUNK_MAGIC);
	check_inserted(b, len, &w, &full, 3, mg, 64, 0);
	check_inserted(b, len, &w, &full, 3, mg, 8, 0);
	/* at the very end */
	check_inserted(b, len, &w, &full, w.nc, g, 64, 0);
	check_inserted(b, len, &w, &full, w.nc, g, 40, 0);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* Garbage whose length is not a multiple of 8 shifts every later chunk
 * off the 8-byte grid; the chunks after it are still good and must be
 * found. */
START_TEST(maplog_garbage_unaligned)
{
	uint8_t *b, g[64];
	size_t len;
	struct walk w;
	struct items full;
	uint64_t s = 6;

	inserted_setup(&b, &len, &w, &full);
	for (size_t i = 0; i < sizeof(g); i++)
		g[i] = (uint8_t)(rng(&s) | 1);
	check_inserted(b, len, &w, &full, 2, g, 13, 0);
	check_inserted(b, len, &w, &full, 2, g, 1, 0);
	check_inserted(b, len, &w, &full, 0, g, 61, 0);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* Zero-filled space (reserved, never written) between chunks is skipped
 * silently. */
START_TEST(maplog_zero_gap)
{
	uint8_t *b;
	static uint8_t z[8192];
	size_t len;
	struct walk w;
	struct items full;

	inserted_setup(&b, &len, &w, &full);
	static const size_t zl[] = {8, 40, 48, 56, 4096, 8192};
	for (size_t i = 0; i < sizeof(zl) / sizeof(zl[0]); i++) {
		check_inserted(b, len, &w, &full, 0, z, zl[i], 1);
		check_inserted(b, len, &w, &full, 3, z, zl[i], 1);
		check_inserted(b, len, &w, &full, w.nc, z, zl[i], 1);
	}
	check_inserted(b, len, &w, &full, w.nc, z, 24, 1);
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* The same bytes fed differently end in the same EOF event. */
START_TEST(maplog_eof_offset_stable)
{
	uint8_t *b;
	static uint8_t z[64];
	size_t len;
	struct walk w;
	struct items full, got;

	inserted_setup(&b, &len, &w, &full);
	static const size_t zl[] = {24, 56, 64};
	for (size_t i = 0; i < 3; i++) {
		uint8_t *m = insert_bytes(b, len, len, z, zl[i]);
		uint64_t at[4];
		for (int mode = 0; mode < 4; mode++) {
			if (mode == 3)
				parse_file(m, len + zl[i], &got);
			else
				parse_mem(m, len + zl[i],
					  (enum feed)(FEED_WHOLE + mode), 9,
					  &got);
			const struct item *eof = last_item(&got);
			ck_assert_int_eq(eof->state, MAPLOG_EOF);
			ck_assert_int_eq(eof->eof_truncated, 0);
			at[mode] = eof->offset;
			items_free(&got);
		}
		ck_assert_msg(at[0] == at[1] && at[0] == at[2] &&
				      at[0] == at[3],
			      "log + %zu zero bytes: EOF ev_offset %llu whole, "
			      "%llu in 1-byte pieces, %llu in random pieces, "
			      "%llu from a file",
			      zl[i], (unsigned long long)at[0],
			      (unsigned long long)at[1],
			      (unsigned long long)at[2],
			      (unsigned long long)at[3]);
		free(m);
	}
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

static void expect_fatal(const uint8_t *b, size_t len, int code)
{
	struct items got;
	parse_mem(b, len, FEED_WHOLE, 0, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_int_eq(got.v[0].state, MAPLOG_ERROR);
	ck_assert_int_eq(got.v[0].error, code);
	ck_assert_uint_eq(got.v[0].count, 0);
	items_free(&got);
	parse_mem(b, len, FEED_BYTES, 0, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_int_eq(got.v[0].error, code);
	items_free(&got);
	parse_file(b, len, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_int_eq(got.v[0].error, code);
	items_free(&got);
}

START_TEST(maplog_bad_magic)
{
	struct logsynth_opts o;
	size_t len;
	struct maplog_ev ev;

	synth_opts_small(&o);
	uint8_t *b = synth(&o, &len, NULL);
	for (int i = 0; i < 8; i++) {
		uint8_t *m = memdup(b, len);
		m[i] ^= 0x20;
		expect_fatal(m, len, MAPS_EMAGIC);
		free(m);
	}
	/* an ELF file is not a log */
	static const uint8_t elf[80] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	expect_fatal(elf, sizeof(elf), MAPS_EMAGIC);
	/* nor is a short text */
	expect_fatal((const uint8_t *)"hello", 5, MAPS_EMAGIC);

	/* every later read fails the same way */
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_feed(p, elf, sizeof(elf)), 0);
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(maplog_read(p, &ev), -1);
		ck_assert_int_eq(ev.ev_state, MAPLOG_ERROR);
		ck_assert_int_eq(ev.ev_error, MAPS_EMAGIC);
		ck_assert_int_eq(maplog_error(p), MAPS_EMAGIC);
		if (i == 2)
			ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	}
	struct maplog_stats st;
	ck_assert_int_eq(maplog_stats(p, &st), 0);
	ck_assert_uint_eq(st.st_damaged, 1); /* one damage, reported 5 times */
	ck_assert_uint_eq(st.st_records, 0);
	maplog_close(p);

	/* a short prefix of a real header is a truncated log */
	struct items got;
	parse_mem(b, 5, FEED_WHOLE, 0, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_int_eq(got.v[0].state, MAPLOG_EOF);
	ck_assert_int_eq(got.v[0].eof_truncated, 1);
	ck_assert_uint_eq(got.v[0].eof_dropped, 5);
	items_free(&got);
	free(b);
}
END_TEST

static void set_header(uint8_t *m, unsigned off, unsigned bytes, uint32_t v)
{
	if (bytes == 2)
		maplog_st16(m + off, (uint16_t)v);
	else
		maplog_st32(m + off, v);
	maplog_st32(m + MAPLOG_FH_CRC, maplog_crc32c(0, m, MAPLOG_FH_CRC));
}

START_TEST(maplog_bad_version)
{
	struct logsynth_opts o;
	struct items full, got;
	size_t len;

	synth_opts_small(&o);
	uint8_t *b = synth(&o, &len, NULL);
	parse_mem(b, len, FEED_WHOLE, 0, &full);
	static const uint32_t majors[] = {0, 2, 0xffff};
	for (int i = 0; i < 3; i++) {
		uint8_t *m = memdup(b, len);
		set_header(m, MAPLOG_FH_VMAJOR, 2, majors[i]);
		expect_fatal(m, len, MAPS_EVERSION);
		free(m);
	}
	/* a newer minor version is read, and reported */
	uint8_t *m = memdup(b, len);
	set_header(m, MAPLOG_FH_VMINOR, 2, 9);
	set_header(m, MAPLOG_FH_FLAGS, 4, 0x12345678u);
	parse_mem(m, len, FEED_WHOLE, 0, &got);
	items_eq(&full, &got, "minor version 9, unknown file flags");
	ck_assert_uint_eq(got.st.st_version_major, 1);
	ck_assert_uint_eq(got.st.st_version_minor, 9);
	items_free(&got);
	free(m);
	items_free(&full);
	free(b);
}
END_TEST

/* A damaged file header is reported, and the chunks are read anyway. */
START_TEST(maplog_header_damaged)
{
	struct logsynth_opts o;
	struct items full, got, other;
	size_t len;

	for (int doff = 0; doff < 2; doff++) {
		synth_opts_small(&o);
		o.data_offset = doff ? 4096 : 64;
		uint8_t *b = synth(&o, &len, NULL);
		parse_mem(b, len, FEED_WHOLE, 0, &full);
		for (unsigned at = 8; at < MAPLOG_FH_ALLOC_END; at++) {
			uint8_t *m = memdup(b, len);
			m[at] ^= 0x04;
			parse_mem(m, len, FEED_WHOLE, 0, &got);
			ck_assert_uint_eq(got.n, full.n + 1);
			ck_assert_int_eq(got.v[0].state, MAPLOG_ERROR);
			ck_assert_int_eq(got.v[0].error, MAPS_ECHECKSUM);
			ck_assert_uint_eq(got.v[0].offset, 0);
			for (size_t i = 0; i < full.n; i++)
				REQUIRE(item_same(&full.v[i], &got.v[i + 1], 1),
					"byte %u: event %zu differs", at, i);
			parse_mem(m, len, FEED_RANDOM, at, &other);
			items_eq(&got, &other, "damaged header, pieces");
			items_free(&other);
			items_free(&got);
			free(m);
		}
		/* an impossible data offset, with a good checksum */
		static const uint32_t bad[] = {0, 60, 4097,
					       MAPLOG_MAX_DATA_OFFSET + 8};
		for (int i = 0; i < 4; i++) {
			uint8_t *m = memdup(b, len);
			set_header(m, MAPLOG_FH_DATA_OFFSET, 4, bad[i]);
			parse_mem(m, len, FEED_WHOLE, 0, &got);
			ck_assert_int_eq(got.v[0].state, MAPLOG_ERROR);
			ck_assert_uint_eq(got.n, full.n + 1);
			items_free(&got);
			free(m);
		}
		/* the writers' cursor is not part of the checksum */
		uint8_t *m = memdup(b, len);
		maplog_st64(m + MAPLOG_FH_ALLOC_END, 0x123456789ull);
		parse_mem(m, len, FEED_WHOLE, 0, &got);
		items_eq(&full, &got, "alloc_end changed");
		items_free(&got);
		free(m);
		items_free(&full);
		free(b);
	}
}
END_TEST

/* A chunk whose used field claims more than its capacity. */
START_TEST(maplog_used_too_big)
{
	uint8_t *b;
	size_t len;
	struct walk w;
	struct items full, got;

	inserted_setup(&b, &len, &w, &full);
	static const size_t ks[] = {0, 2, 9};
	for (int i = 0; i < 3; i++) {
		const struct wchunk *c = &w.c[ks[i] < w.nc ? ks[i] : w.nc - 1];
		const uint32_t vals[] = {c->cap - CH_HDR + 1, c->cap,
					 UINT32_MAX};
		for (int v = 0; v < 3; v++) {
			uint8_t *m = memdup(b, len);
			maplog_st32(m + c->off + MAPLOG_CH_USED, vals[v]);
			parse_mem(m, len, FEED_WHOLE, 0, &got);
			ck_assert_uint_eq(count_state(&got, MAPLOG_ERROR), 1);
			const struct item *e = first_error(&got);
			ck_assert_int_eq(e->error, MAPS_EBADSIZE);
			ck_assert_uint_eq(e->offset, c->off);
			check_records_without(&full, &got, c->off,
					      c->off + c->cap, 0, 0,
					      "used > capacity");
			ck_assert_uint_eq(got.st.st_skipped_bytes, c->cap);
			items_free(&got);
			free(m);
		}
	}
	items_free(&full);
	walk_free(&w);
	free(b);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 5. Open chunks */

START_TEST(maplog_open_chunks)
{
	struct logsynth_opts o;
	struct logsynth_result rs, ro;
	struct items sealed, open, other;
	size_t ls, lo;

	synth_opts_multi(&o);
	uint8_t *bs = synth(&o, &ls, &rs);
	o.leave_open = 1;
	uint8_t *bo = synth(&o, &lo, &ro);
	ck_assert_uint_eq(ls, lo);
	ck_assert_int_ne(memcmp(bs, bo, ls), 0);

	parse_mem(bs, ls, FEED_WHOLE, 0, &sealed);
	parse_mem(bo, lo, FEED_WHOLE, 0, &open);
	items_eq(&sealed, &open, "left open");
	ck_assert_uint_eq(open.st.st_open_chunks,
			  o.processes * (o.threads + 1));
	ck_assert_uint_eq(open.st.st_chunks, ro.chunks);
	ck_assert_uint_eq(sealed.st.st_open_chunks, 0);
	parse_mem(bo, lo, FEED_BYTES, 0, &other);
	items_eq(&open, &other, "left open, 1-byte pieces");
	items_free(&other);
	parse_file(bo, lo, &other);
	items_eq(&open, &other, "left open, file");
	items_free(&other);
	items_free(&sealed);
	items_free(&open);
	free(bs);
	free(bo);
}
END_TEST

/* A reader of shared memory sees `used` stop anywhere between records:
 * the records up to it are read, the bytes after it ignored. */
START_TEST(maplog_open_chunk_used)
{
	struct maplog_ev want[MAX_WANT], ev;
	size_t n = all_type_events(want);
	uint32_t used_after[MAX_WANT + 1];
	struct wlog w;

	wlog_init(&w, 16384, 64, 1024);
	wlog_open(&w, 5000000000ull);
	used_after[0] = 0;
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(mapw_event(&w.c, &want[i]), 0);
		used_after[i + 1] = w.c.used;
	}
	size_t len = MAPLOG_FILE_HEADER_SIZE + w.c.cap;
	for (size_t k = 0; k <= n; k++) {
		uint8_t *m = memdup(w.buf, len);
		maplog_st32(m + MAPLOG_FILE_HEADER_SIZE + MAPLOG_CH_USED,
			    used_after[k]);
		maplog *p = maplog_open(MAPLOG_FD_NONE);
		ck_assert_int_eq(maplog_feed(p, m, len), 0);
		ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
		for (size_t i = 0; i < k; i++) {
			ck_assert_int_eq(maplog_read(p, &ev), 0);
			check_event(&ev, &want[i], TEST_TID);
		}
		ck_assert_int_eq(maplog_read(p, &ev), -1);
		ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
		ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
		struct maplog_stats st;
		maplog_stats(p, &st);
		ck_assert_uint_eq(st.st_open_chunks, 1);
		ck_assert_uint_eq(st.st_records, k);
		maplog_close(p);
		free(m);
	}
	wlog_free(&w);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Records the parser does not know, or cannot decode */

/* Unknown record types are skipped; bytes past known fields ignored. */
START_TEST(maplog_unknown_and_extended)
{
	struct wlog w;
	struct body bd;
	struct maplog_ev ev, e1, e2;
	uint64_t pcs[3] = {0x1000, 0x2000, 0x3000};

	wlog_init(&w, 4096, 64, 1024);
	wlog_open(&w, 1000);
	e1 = ev_make(MAPLOG_TYPE_MARK, 1500);
	e1.ev_u.mark.mk_text = "before";
	ck_assert_int_eq(mapw_event(&w.c, &e1), 0);
	/* type 42, and type 0, each with a zero ts delta and a body */
	memset(&bd, 0, sizeof(bd));
	body_u(&bd, 0);
	body_str(&bd, "future record");
	raw_record(&w.c, 42, bd.b, bd.n);
	raw_record(&w.c, 0, bd.b, bd.n);
	raw_record(&w.c, 255, bd.b, 1);
	/* a mark with two fields appended */
	memset(&bd, 0, sizeof(bd));
	body_s(&bd, 100); /* ts 1600 */
	body_u(&bd, 77);
	body_u(&bd, 88);
	body_str(&bd, "extended");
	body_u(&bd, 123456);
	body_str(&bd, "appended field");
	raw_record(&w.c, MAPLOG_TYPE_MARK, bd.b, bd.n);
	/* a stack of 3 frames, and a sample with a field after its tid */
	memset(&bd, 0, sizeof(bd));
	body_s(&bd, 0);
	body_u(&bd, 0);  /* base */
	body_u(&bd, 0);  /* drop */
	body_u(&bd, 3);  /* new frames */
	body_s(&bd, 0x1000);
	body_s(&bd, 0x1000);
	body_s(&bd, 0x1000);
	raw_record(&w.c, MAPLOG_TYPE_STACK, bd.b, bd.n);
	memset(&bd, 0, sizeof(bd));
	body_s(&bd, 10); /* ts 1610 */
	body_u(&bd, 1);
	body_u(&bd, 500);
	body_u(&bd, 31337);
	body_u(&bd, 99);
	body_str(&bd, "more");
	raw_record(&w.c, MAPLOG_TYPE_SAMPLE, bd.b, bd.n);
	w.c.last_ts = 1610;
	e2 = ev_make(MAPLOG_TYPE_MARK, 1700);
	e2.ev_u.mark.mk_text = "after";
	ck_assert_int_eq(mapw_event(&w.c, &e2), 0);
	wlog_close(&w, 1, 1);

	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_feed(p, w.buf, w.len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	check_event(&ev, &e1, TEST_TID);
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_int_eq(ev.ev_type, MAPLOG_TYPE_MARK);
	ck_assert_uint_eq(ev.ev_ts, 1600);
	ck_assert_uint_eq(ev.ev_count, 2);
	ck_assert_uint_eq(ev.ev_u.mark.mk_tid, 77);
	ck_assert_uint_eq(ev.ev_u.mark.mk_value, 88);
	ck_assert_str_eq(ev.ev_u.mark.mk_text, "extended");
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_int_eq(ev.ev_type, MAPLOG_TYPE_SAMPLE);
	ck_assert_uint_eq(ev.ev_ts, 1610);
	ck_assert_uint_eq(ev.ev_u.sample.sa_tid, 31337);
	ck_assert_uint_eq(ev.ev_u.sample.sa_weight, 500);
	ck_assert_uint_eq(ev.ev_u.sample.sa_npc, 3);
	ck_assert_mem_eq(ev.ev_u.sample.sa_pc, pcs, sizeof(pcs));
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	check_event(&ev, &e2, TEST_TID);
	ck_assert_uint_eq(ev.ev_count, 4);
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	struct maplog_stats st;
	maplog_stats(p, &st);
	ck_assert_uint_eq(st.st_unknown, 3);
	ck_assert_uint_eq(st.st_damaged, 0);
	ck_assert_uint_eq(st.st_records, 4);
	maplog_close(p);
	wlog_free(&w);
}
END_TEST

/* Writes a chunk: a mark, one raw record, a mark; then a second chunk
 * with a mark.  Returns the log; *bad_off is the raw record's offset. */
static void bad_record_log(struct wlog *w, int type, const struct body *bd,
			   int seal, uint64_t *bad_off)
{
	struct maplog_ev e = ev_make(MAPLOG_TYPE_MARK, 100);
	wlog_init(w, 2048, 64, 1024);
	wlog_open(w, 100);
	e.ev_u.mark.mk_text = "good 1";
	ck_assert_int_eq(mapw_event(&w->c, &e), 0);
	*bad_off = (uint64_t)(w->c.base + CH_HDR + w->c.used - w->buf);
	raw_record(&w->c, type, bd->b, bd->n);
	e.ev_u.mark.mk_text = "good 2";
	ck_assert_int_eq(mapw_event(&w->c, &e), 0);
	wlog_close(w, 1, seal);
	wlog_open(w, 200);
	e.ev_ts = 200;
	e.ev_u.mark.mk_text = "next chunk";
	ck_assert_int_eq(mapw_event(&w->c, &e), 0);
	wlog_close(w, 1, 1);
}

/* Checks: "good 1", an error at bad_off, then (the rest of the chunk,
 * if the parser goes on there and) "next chunk", EOF. */
static void check_bad_record(const struct wlog *w, uint64_t bad_off,
			     int code, const char *what)
{
	struct maplog_ev ev;
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_feed(p, w->buf, w->len), 0);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	ck_assert_int_eq(maplog_read(p, &ev), 0);
	ck_assert_str_eq(ev.ev_u.mark.mk_text, "good 1");
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_msg(ev.ev_state == MAPLOG_ERROR && ev.ev_error == code,
		      "%s: state %d error %s, want %s", what, ev.ev_state,
		      maps_strerror(ev.ev_error), maps_strerror(code));
	ck_assert_uint_eq(ev.ev_offset, bad_off);
	ck_assert_uint_eq(ev.ev_count, 1);
	int rc;
	while ((rc = maplog_read(p, &ev)) == 0 &&
	       strcmp(ev.ev_u.mark.mk_text, "next chunk") != 0)
		ck_assert_str_eq(ev.ev_u.mark.mk_text, "good 2");
	ck_assert_msg(rc == 0, "%s: next chunk lost: state %d error %s", what,
		      ev.ev_state, maps_strerror(ev.ev_error));
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	struct maplog_stats st;
	maplog_stats(p, &st);
	ck_assert_uint_eq(st.st_damaged, 1);
	maplog_close(p);
}

/* Records that do not decode: in open chunks (a writer died mid-way and
 * memory was damaged) and in sealed ones (a writer bug). */
START_TEST(maplog_bad_records)
{
	struct wlog w;
	struct body bd;
	uint64_t off;

	for (int seal = 0; seal < 2; seal++) {
		/* metric value of unknown kind */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1);
		body_u(&bd, 9);
		bad_record_log(&w, MAPLOG_TYPE_METRIC_VALUE, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "value kind 9");
		wlog_free(&w);
		/* a double with too few bytes */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1);
		body_u(&bd, MAPLOG_VALUE_DOUBLE);
		body_u(&bd, 1);
		bad_record_log(&w, MAPLOG_TYPE_METRIC_VALUE, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "short double");
		wlog_free(&w);
		/* a metric index over 32 bits */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1ull << 33);
		body_u(&bd, MAPLOG_VALUE_U64);
		body_u(&bd, 7);
		bad_record_log(&w, MAPLOG_TYPE_METRIC_VALUE, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "metric index");
		wlog_free(&w);
		/* a u64 value cut off by the record's end */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1);
		body_u(&bd, MAPLOG_VALUE_U64);
		body_u(&bd, 0x80);
		bd.n--;
		bad_record_log(&w, MAPLOG_TYPE_METRIC_VALUE, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "cut-off value");
		wlog_free(&w);
		/* a string longer than its record */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1);
		body_u(&bd, 2);
		body_u(&bd, 200);
		bad_record_log(&w, MAPLOG_TYPE_MARK, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "long string");
		wlog_free(&w);
		/* a u32 field over 32 bits */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1ull << 40);
		body_u(&bd, 2);
		bad_record_log(&w, MAPLOG_TYPE_PROC_FORK, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "u32 overflow");
		wlog_free(&w);
		/* exit code past int32 */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 1);
		body_u(&bd, 0);
		body_s(&bd, (int64_t)INT32_MAX + 1);
		bad_record_log(&w, MAPLOG_TYPE_PROC_EXIT, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "exit code");
		wlog_free(&w);
		/* a sample naming a stack never defined */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 5);
		body_u(&bd, 1000);
		bad_record_log(&w, MAPLOG_TYPE_SAMPLE, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADSTACK, "undefined stack");
		wlog_free(&w);
		/* a stack with a base never defined, and one too deep */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 3);
		body_u(&bd, 0);
		body_u(&bd, 1);
		body_s(&bd, 8);
		bad_record_log(&w, MAPLOG_TYPE_STACK, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "stack base");
		wlog_free(&w);
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 0);
		body_u(&bd, 0);
		body_u(&bd, MAPLOG_MAX_FRAMES + 1);
		bad_record_log(&w, MAPLOG_TYPE_STACK, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "stack depth");
		wlog_free(&w);
		/* a record with no timestamp */
		memset(&bd, 0, sizeof(bd));
		bad_record_log(&w, MAPLOG_TYPE_MARK, &bd, seal, &off);
		check_bad_record(&w, off, MAPS_EBADRECORD, "empty record");
		wlog_free(&w);
	}
}
END_TEST

/*
 * A STACK record of a chunk does not decode (an open chunk a dying writer
 * left, or a writer bug under a good checksum).  Stack ids are positions
 * in the chunk, so a sample after it that names the next stack must not
 * come back with another stack's frames: it is damage too, or skipped
 * with the rest of the chunk.
 */
START_TEST(maplog_bad_stack_skips_chunk)
{
	struct wlog w;
	struct body bd;
	struct maplog_ev ev;
	uint64_t s1[2] = {0x1000, 0x2000}, s3[1] = {0x9000};

	for (int seal = 0; seal < 2; seal++) {
		wlog_init(&w, 2048, 0, 0);
		wlog_open(&w, 100);
		/* stack 1 and a sample of it, by the encoder */
		ck_assert_int_eq(mapw_sample(&w.c, 100, 0, 1, 2, s1), 0);
		/* stack 2: names a base that does not exist */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 7);
		body_u(&bd, 0);
		body_u(&bd, 1);
		body_s(&bd, 0x10);
		uint64_t bad_off =
			(uint64_t)(w.c.base + CH_HDR + w.c.used - w.buf);
		raw_record(&w.c, MAPLOG_TYPE_STACK, bd.b, bd.n);
		/* stack 3: good, leaf 0x9000 (last leaf was 0x1000) */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 0);
		body_u(&bd, 0);
		body_u(&bd, 0);
		body_u(&bd, 1);
		body_s(&bd, 0x8000);
		raw_record(&w.c, MAPLOG_TYPE_STACK, bd.b, bd.n);
		/* a sample of stack 2 */
		memset(&bd, 0, sizeof(bd));
		body_s(&bd, 1);
		body_u(&bd, 2);
		body_u(&bd, 1);
		raw_record(&w.c, MAPLOG_TYPE_SAMPLE, bd.b, bd.n);
		wlog_close(&w, 1, seal);
		wlog_open(&w, 200);
		ck_assert_int_eq(mapw_sample(&w.c, 200, 0, 1, 1, s3), 0);
		wlog_close(&w, 1, 1);

		maplog *p = maplog_open(MAPLOG_FD_NONE);
		ck_assert_int_eq(maplog_feed(p, w.buf, w.len), 0);
		ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
		ck_assert_int_eq(maplog_read(p, &ev), 0);
		ck_assert_uint_eq(ev.ev_u.sample.sa_npc, 2);
		ck_assert_int_eq(maplog_read(p, &ev), -1);
		ck_assert_int_eq(ev.ev_state, MAPLOG_ERROR);
		ck_assert_int_eq(ev.ev_error, MAPS_EBADRECORD);
		ck_assert_uint_eq(ev.ev_offset, bad_off);
		/* next: the sample of the second chunk, or more damage
		 * reports; never a sample with stack 3's frames as 2's */
		int rc;
		while ((rc = maplog_read(p, &ev)) == -1 &&
		       ev.ev_state == MAPLOG_ERROR)
			;
		ck_assert_int_eq(rc, 0);
		ck_assert_msg(ev.ev_chunk_seq == TEST_SEQ + 1,
			      "sealed %d: a sample of the damaged chunk was "
			      "returned after the damage (stack of %u frames, "
			      "leaf %#llx)",
			      seal, ev.ev_u.sample.sa_npc,
			      (unsigned long long)ev.ev_u.sample.sa_pc[0]);
		ck_assert_uint_eq(ev.ev_u.sample.sa_pc[0], 0x9000);
		maplog_close(p);
		wlog_free(&w);
	}
}
END_TEST

/*
 * The encoder takes any build-id length and argument count; what it
 * writes must read back, or it must refuse to write it.
 */
static void check_written_or_refused(const struct maplog_ev *e,
				     uint32_t chunk_cap)
{
	struct wlog w;
	struct maplog_ev ev;
	wlog_init(&w, chunk_cap, 0, 0);
	wlog_open(&w, e->ev_ts);
	uint8_t *before = memdup(w.c.base, chunk_cap);
	int rc = mapw_event(&w.c, e);
	if (rc != 0) {
		ck_assert_msg(rc == MAPS_EINVAL || rc == MAPS_EBADSIZE,
			      "refused with %s", maps_strerror(rc));
		ck_assert_mem_eq(w.c.base, before, CH_HDR);
	} else {
		wlog_close(&w, 1, 1);
		maplog *p = maplog_open(MAPLOG_FD_NONE);
		ck_assert_int_eq(maplog_feed(p, w.buf, w.len), 0);
		ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
		rc = maplog_read(p, &ev);
		ck_assert_msg(rc == 0,
			      "mapw_event wrote a %s record the parser "
			      "rejects: %s",
			      maplog_type_name(e->ev_type),
			      maps_strerror(ev.ev_error));
		check_event(&ev, e, TEST_TID);
		maplog_close(p);
	}
	free(before);
	wlog_free(&w);
}

START_TEST(maplog_buildid_long)
{
	static uint8_t bid[300];
	for (int i = 0; i < 300; i++)
		bid[i] = (uint8_t)i;
	struct maplog_ev e = ev_make(MAPLOG_TYPE_MAP_IN, 1);
	e.ev_u.map_in.mi_start = 0x1000;
	e.ev_u.map_in.mi_end = 0x2000;
	e.ev_u.map_in.mi_buildid = bid;
	e.ev_u.map_in.mi_buildid_len = 256;
	e.ev_u.map_in.mi_path = "/lib/libbig-buildid.so";
	check_written_or_refused(&e, 4096);
}
END_TEST

START_TEST(maplog_argc_limit)
{
	const uint32_t argc = MAPLOG_MAX_ARGC + 1;
	const char **argv = xcalloc((argc + 1) * sizeof(*argv));
	for (uint32_t i = 0; i < argc; i++)
		argv[i] = "";
	argv[1] = "x";
	struct maplog_ev e = ev_make(MAPLOG_TYPE_INITIALIZE, 1);
	e.ev_u.init.in_argc = argc;
	e.ev_u.init.in_argv = argv;
	check_written_or_refused(&e, 256 * 1024);
	free(argv);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Varints (maplog_format.h) */

/* Decodes the encoding of v placed at every offset of a buffer whose
 * valid bytes end at various distances past the field. */
static void check_varint(uint64_t v)
{
	uint8_t enc[MAPLOG_VARINT_MAX + 2];
	uint8_t buf[32];
	unsigned n = (unsigned)(maplog_put_varint(enc, v) - enc);
	REQUIRE(n == maplog_varint_len(v), "%#llx: %u bytes, len says %u",
		(unsigned long long)v, n, maplog_varint_len(v));
	REQUIRE(n >= 1 && n <= MAPLOG_VARINT_MAX, "%u bytes", n);
	for (unsigned tail = 0; tail <= 12; tail++) {
		/* followed by bytes with and without the top bit */
		memset(buf, tail & 1 ? 0xff : 0x00, sizeof(buf));
		uint8_t *at = buf + sizeof(buf) - tail - n;
		memcpy(at, enc, n);
		const uint8_t *q = at;
		uint64_t out = ~v;
		REQUIRE(maplog_get_varint_lim(&q, at + n, at + n + tail,
					      &out) == 0 &&
				out == v && q == at + n,
			"%#llx (%u bytes, %u after): got %#llx, %td bytes",
			(unsigned long long)v, n, tail,
			(unsigned long long)out, q - at);
		for (int how = 0; how < 32; how++) {
			if ((how & MAPLOG_V_PEXT) && !maplog_cpu_pext())
				continue;
			/* MAPLOG_V_LATE: the caller ensures 8 bytes */
			int late = how & MAPLOG_V_LATE;
			if (late && n + tail < 8)
				continue;
			/* MAPLOG_V_SHORTONLY: up to 8 bytes, from 8 loadable
			 * ones, or a first byte alone with MAPLOG_V_BYTE1 */
			int shortonly = how & MAPLOG_V_SHORTONLY;
			int ok = !shortonly ||
				 (n == 1 && (how & MAPLOG_V_BYTE1)) ||
				 (n <= 8 && n + tail >= 8);
			q = at;
			out = ~v;
			int got = maplog_varint_core(&q, at + n, at + n + tail,
						     &out, how);
			if (ok)
				REQUIRE(got == 0 && out == v && q == at + n,
					"%#llx (%u bytes, %u after): how %d "
					"got %#llx",
					(unsigned long long)v, n, tail, how,
					(unsigned long long)out);
			else
				REQUIRE(got == -1 && q == at,
					"%#llx (%u bytes, %u after): how %d "
					"short only, decoded",
					(unsigned long long)v, n, tail, how);
			q = at;
			int rc = maplog_varint_core(&q, at + n - 1,
						    at + n + tail, &out, how);
			/* late, a value of up to 8 bytes is decoded and
			 * leaves the cursor past the end */
			if (late && n <= 8)
				REQUIRE(rc == 0 && out == v && q == at + n,
					"%#llx cut to %u bytes (%u after): "
					"how %d late",
					(unsigned long long)v, n - 1, tail,
					how);
			else
				REQUIRE(rc == -1 && q == at,
					"%#llx cut to %u bytes (%u after): "
					"how %d",
					(unsigned long long)v, n - 1, tail,
					how);
		}
		q = at;
		REQUIRE(maplog_get_varint(&q, at + n, &out) == 0 && out == v,
			"%#llx: maplog_get_varint", (unsigned long long)v);
		/* the field is one byte short: fails, even with bytes after */
		q = at;
		REQUIRE(maplog_get_varint_lim(&q, at + n - 1, at + n + tail,
					      &out) == -1 &&
				q == at,
			"%#llx cut to %u bytes (%u after) decoded",
			(unsigned long long)v, n - 1, tail);
	}
	REQUIRE(maplog_unzigzag(maplog_zigzag((int64_t)v)) == (int64_t)v,
		"zigzag %#llx", (unsigned long long)v);
}

START_TEST(maplog_varint)
{
	uint64_t s = 17;
	for (unsigned k = 0; k < 64; k++) {
		uint64_t p2 = 1ull << k;
		check_varint(p2 - 1);
		check_varint(p2);
		check_varint(p2 + 1);
		check_varint(~(p2 - 1));
	}
	check_varint(UINT64_MAX);
	for (int i = 0; i < 2000; i++)
		check_varint(rng(&s) >> rng_below(&s, 64));
	ck_assert_uint_eq(maplog_zigzag(0), 0);
	ck_assert_uint_eq(maplog_zigzag(-1), 1);
	ck_assert_uint_eq(maplog_zigzag(1), 2);
	ck_assert_uint_eq(maplog_zigzag(INT64_MIN), UINT64_MAX);
	ck_assert_uint_eq(maplog_zigzag(INT64_MAX), UINT64_MAX - 1);

	/* more than 10 bytes of continuation: not a varint */
	uint8_t bad[16];
	uint64_t out;
	memset(bad, 0x80, sizeof(bad));
	const uint8_t *q = bad;
	ck_assert_int_eq(maplog_get_varint_lim(&q, bad + 16, bad + 16, &out),
			 -1);
	for (int how = 0; how < 32; how++) {
		if ((how & MAPLOG_V_PEXT) && !maplog_cpu_pext())
			continue;
		q = bad;
		ck_assert_int_eq(maplog_varint_core(&q, bad + 16, bad + 16,
						    &out, how),
				 -1);
	}
	q = bad;
	ck_assert_int_eq(maplog_get_varint(&q, bad + 11, &out), -1);
	q = bad;
	ck_assert_int_eq(maplog_get_varint(&q, bad, &out), -1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* 6. API corners */

START_TEST(maplog_feed_on_file)
{
	struct maplog_ev ev;
	int fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	maplog *p = maplog_open(fd);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(maplog_error(p), 0);
	ck_assert_int_eq(maplog_feed(p, "MAPSLOG", 8), -1);
	ck_assert_int_eq(maplog_error(p), MAPS_ENOTSUP);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), -1);
	ck_assert_int_eq(maplog_error(p), MAPS_ENOTSUP);
	/* an empty file: EOF, not truncated, nothing read */
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
	ck_assert_uint_eq(ev.ev_count, 0);
	maplog_close(p);
	/* the parser does not close its descriptor */
	ck_assert_int_eq(fcntl(fd, F_GETFD), 0);
	close(fd);
}
END_TEST

START_TEST(maplog_require_data)
{
	struct logsynth_opts o;
	struct logsynth_result res;
	struct maplog_ev ev;
	size_t len;

	synth_opts_small(&o);
	uint8_t *b = synth(&o, &len, &res);
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_ptr_nonnull(p);
	/* nothing yet */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(maplog_read(p, &ev), -1);
		ck_assert_int_eq(ev.ev_state, MAPLOG_REQUIRE_DATA);
		ck_assert_uint_eq(ev.ev_count, 0);
	}
	/* zero bytes with a pointer do not end the stream */
	ck_assert_int_eq(maplog_feed(p, b, 0), 0);
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_REQUIRE_DATA);
	ck_assert_int_eq(maplog_feed(p, b, len), 0);
	uint64_t n = 0, records = 0;
	while (maplog_read(p, &ev) == 0)
		n++;
	for (int t = 1; t < MAPLOG_TYPE_MAX_; t++)
		records += t == MAPLOG_TYPE_STACK ? 0 : res.records[t];
	ck_assert_uint_eq(n, records);
	/* the whole log is in: still REQUIRE_DATA until the end is said */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ev.ev_state, MAPLOG_REQUIRE_DATA);
		ck_assert_uint_eq(ev.ev_count, n);
		ck_assert_int_eq(maplog_read(p, &ev), -1);
	}
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
	ck_assert_uint_eq(ev.ev_count, n);
	maplog_close(p);

	/* an empty memory stream */
	p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_feed(p, NULL, 0), 0);
	ck_assert_int_eq(maplog_read(p, &ev), -1);
	ck_assert_int_eq(ev.ev_state, MAPLOG_EOF);
	ck_assert_int_eq(ev.ev_u.eof.eof_truncated, 0);
	ck_assert_uint_eq(ev.ev_count, 0);
	maplog_close(p);
	free(b);
}
END_TEST

START_TEST(maplog_type_names)
{
	const char *names[MAPLOG_TYPE_MAX_];
	for (int t = 1; t < MAPLOG_TYPE_MAX_; t++) {
		names[t] = maplog_type_name(t);
		if (logsynth_type_reserved(t)) {
			ck_assert_str_eq(names[t], "unknown");
			names[t] = "";
			continue;
		}
		ck_assert_ptr_nonnull(names[t]);
		if (!type_defined(t))
			continue;
		ck_assert_msg(*names[t] && strcmp(names[t], "unknown") != 0,
			      "type %d has no name", t);
		for (int u = 1; u < t; u++)
			ck_assert_msg(strcmp(names[t], names[u]) != 0,
				      "types %d and %d are both \"%s\"", u, t,
				      names[t]);
	}
	ck_assert_str_eq(maplog_type_name(MAPLOG_TYPE_SAMPLE), "sample");
	ck_assert_str_eq(maplog_type_name(MAPLOG_TYPE_MAP_IN), "map-in");
	ck_assert_str_eq(maplog_type_name(MAPLOG_TYPE_JOB), "job");
	ck_assert_str_eq(maplog_type_name(MAPLOG_TYPE_MPI_CALLS), "mpi-calls");
	static const int bad[] = {0, -1, MAPLOG_TYPE_MAX_, 255, 100000,
				  INT32_MIN};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_str_eq(maplog_type_name(bad[i]), "unknown");
}
END_TEST

START_TEST(maplog_strerror_all)
{
	enum { LO = MAPS_ENOTSUP };
	const char *s[1 - LO];
	for (int c = 0; c >= LO; c--) {
		s[-c] = maps_strerror(c);
		ck_assert_ptr_nonnull(s[-c]);
		ck_assert_msg(*s[-c], "code %d: empty", c);
		for (int d = 0; d > c; d--)
			ck_assert_msg(strcmp(s[-c], s[-d]) != 0,
				      "codes %d and %d share \"%s\"", c, d,
				      s[-c]);
	}
	static const int unknown[] = {LO - 1, 1, -1000, INT32_MIN, INT32_MAX};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		const char *u = maps_strerror(unknown[i]);
		ck_assert_ptr_nonnull(u);
		for (int c = 0; c >= LO; c--)
			ck_assert_str_ne(u, s[-c]);
	}
}
END_TEST

START_TEST(maplog_null_args)
{
	struct maplog_ev ev;
	struct maplog_stats st;
	ck_assert_int_eq(maplog_read(NULL, &ev), -1);
	ck_assert_int_ne(maplog_stats(NULL, &st), 0);
	ck_assert_int_ne(maplog_error(NULL), 0);
	ck_assert_int_eq(maplog_feed(NULL, "x", 1), -1);
	maplog_close(NULL);
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	ck_assert_int_eq(maplog_read(p, NULL), -1);
	ck_assert_int_ne(maplog_stats(p, NULL), 0);
	maplog_close(p);
}
END_TEST

static Suite *maplog_suite(void)
{
	Suite *s = suite_create("maplog");
	TCase *tc;

	tc = tcase_create("roundtrip");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, maplog_roundtrip_all_types);
	tcase_add_test(tc, maplog_roundtrip_small_chunks);
	tcase_add_test(tc, maplog_pointers_survive_feed);
	tcase_add_test(tc, maplog_sample_stack_shapes);
	tcase_add_test(tc, maplog_sample_random_stacks);
	tcase_add_test(tc, maplog_stack_table_full);
	suite_add_tcase(s, tc);

	tc = tcase_create("streams");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, maplog_stream_equivalence);
	tcase_add_test(tc, maplog_stats_counters);
	tcase_add_test(tc, maplog_big_unused_capacity);
	tcase_add_test(tc, maplog_file_not_at_start);
	suite_add_tcase(s, tc);

	tc = tcase_create("truncation");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, maplog_truncate_every_offset);
	tcase_add_test(tc, maplog_truncate_every_offset_open);
	tcase_add_test(tc, maplog_truncate_unended);
	suite_add_tcase(s, tc);

	tc = tcase_create("damage");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, maplog_corrupt_one_chunk);
	tcase_add_test(tc, maplog_corrupt_anywhere);
	tcase_add_test(tc, maplog_corrupt_flags);
	tcase_add_test(tc, maplog_garbage_aligned);
	tcase_add_test(tc, maplog_garbage_unaligned);
	tcase_add_test(tc, maplog_zero_gap);
	tcase_add_test(tc, maplog_eof_offset_stable);
	tcase_add_test(tc, maplog_bad_magic);
	tcase_add_test(tc, maplog_bad_version);
	tcase_add_test(tc, maplog_header_damaged);
	tcase_add_test(tc, maplog_used_too_big);
	suite_add_tcase(s, tc);

	tc = tcase_create("open");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, maplog_open_chunks);
	tcase_add_test(tc, maplog_open_chunk_used);
	suite_add_tcase(s, tc);

	tc = tcase_create("records");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, maplog_unknown_and_extended);
	tcase_add_test(tc, maplog_bad_records);
	tcase_add_test(tc, maplog_bad_stack_skips_chunk);
	tcase_add_test(tc, maplog_buildid_long);
	tcase_add_test(tc, maplog_argc_limit);
	suite_add_tcase(s, tc);

	tc = tcase_create("api");
	tcase_add_test(tc, maplog_varint);
	tcase_add_test(tc, maplog_feed_on_file);
	tcase_add_test(tc, maplog_require_data);
	tcase_add_test(tc, maplog_type_names);
	tcase_add_test(tc, maplog_strerror_all);
	tcase_add_test(tc, maplog_null_args);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* Where the CPU lets parsers decode with pext, the suite runs a
	 * second time with the portable decoders, so that both stay tested
	 * on such machines (elsewhere only the portable ones exist). */
	int runs = maplog_cpu_pext() ? 2 : 1, failed = 0;
	for (int portable = 0; portable < runs; portable++) {
		maplog_cpu_force_portable(portable);
		printf("maplog: decoders %s\n",
		       maplog_cpu_pext() ? "with pext (BMI2)" : "portable");
		SRunner *sr = srunner_create(maplog_suite());
		srunner_run_all(sr, CK_NORMAL);
		failed += srunner_ntests_failed(sr);
		srunner_free(sr);
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
