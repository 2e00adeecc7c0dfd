/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_maplog: libFuzzer target for the log parser (lib/log/maplog.c), the
 * one parser of untrusted input.  Each input is parsed several ways
 * through the public API: (a) a memory stream fed whole and ended before
 * the first read; (b) fed in pieces whose sizes follow from the input,
 * reading until REQUIRE_DATA after each; (c) pieces again with only a few
 * reads between feeds, so bytes arrive while a chunk's records are being
 * returned; (d) a descriptor on a file, which the parser maps; for one
 * input in eight each, (e) a pipe (read(2); lseek fails) and (f) a file
 * positioned after other bytes (read(2) and lseek); where the CPU has the
 * parser decode with pext, (g) whole and (h) in pieces again with the
 * portable decoders (maplog_cpu_force_portable()).  Every event is held
 * to the API's promises, abort() otherwise: maplog_read returns 0 exactly
 * with MAPLOG_OK; OK records come at strictly increasing offsets with
 * ev_count going up by one; samples have at most MAPLOG_MAX_FRAMES
 * frames; every pointer an event hands out is read through (strings to
 * their NUL) and again before the next read; the parser makes progress,
 * ends, stays bounded in memory, and its totals match what it returned.
 * All ways must give the same events (state, type, offset, content):
 * where the stream is cut or how it is read cannot change the result.
 * In the libFuzzer build (FUZZ_MAPLOG_MUTATOR) a custom mutator mends the
 * checksums mutations break, so mutated records reach the decoder.
 * test/fuzz/replay.c runs the same checks over the corpus in make check;
 * FUZZ_MAPLOG_TRACE=1 prints every event, for triage.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mapsample/maplog.h>
#include "log/maplog_format.h"

/* Heap accounting, without a sanitizer's allocator in the way: replay in
 * plain builds checks the parser's memory; libFuzzer has -malloc_limit_mb */
#if defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define HEAP_CHECK 1
#endif
#if defined(__SANITIZE_ADDRESS__)
#undef HEAP_CHECK
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#undef HEAP_CHECK
#endif
#endif
#ifdef HEAP_CHECK
#include <malloc.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints what broke and aborts, so libFuzzer (or replay) reports it. */
#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "fuzz_maplog: %s:%d: check failed: " \
					"%s\n", __FILE__, __LINE__, #cond);  \
			abort();                                          \
		}                                                         \
	} while (0)

/* ------------------------------------------------------------------ */
/* Event digests: FNV-1a over everything an event says */

static uint64_t h_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t h_u64(uint64_t h, uint64_t v)
{
	return h_bytes(h, &v, sizeof(v));
}

/* Reads s through its NUL: ASan reports a bad pointer or a missing NUL. */
static uint64_t h_str(uint64_t h, const char *s)
{
	CHECK(s != NULL);
	return h_bytes(h, s, strlen(s) + 1);
}

/* Digest of the record in an OK event; reads every pointer it holds. */
static uint64_t digest_record(const struct maplog_ev *ev)
{
	uint64_t h = 0xcbf29ce484222325ull;
	h = h_u64(h, ev->ev_ts);
	h = h_u64(h, ((uint64_t)ev->ev_pid << 32) | ev->ev_tid);
	h = h_u64(h, ((uint64_t)ev->ev_image << 32) | ev->ev_chunk_seq);
	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE: {
		const struct maplog_ev_initialize *b = &ev->ev_u.init;
		h = h_u64(h, b->in_version_major);
		h = h_u64(h, b->in_version_minor);
		h = h_u64(h, b->in_clock);
		h = h_u64(h, b->in_timer);
		h = h_u64(h, b->in_rate_asked);
		h = h_u64(h, b->in_period_ns);
		h = h_u64(h, b->in_signal);
		h = h_u64(h, b->in_max_depth);
		h = h_u64(h, b->in_pid);
		h = h_u64(h, b->in_ppid);
		h = h_u64(h, (uint64_t)b->in_wall_sec);
		h = h_u64(h, b->in_wall_nsec);
		h = h_u64(h, b->in_argc);
		CHECK(b->in_argc <= MAPLOG_MAX_ARGC);
		CHECK(b->in_argv != NULL);
		for (uint32_t i = 0; i < b->in_argc; i++)
			h = h_str(h, b->in_argv[i]);
		CHECK(b->in_argv[b->in_argc] == NULL);
		h = h_str(h, b->in_host);
		h = h_str(h, b->in_exe);
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF: {
		const struct maplog_ev_metric_def *b = &ev->ev_u.mdef;
		h = h_u64(h, b->md_index);
		h = h_u64(h, b->md_datatype);
		h = h_u64(h, b->md_flags);
		h = h_str(h, b->md_id);
		h = h_str(h, b->md_name);
		h = h_str(h, b->md_units);
		h = h_str(h, b->md_description);
		h = h_str(h, b->md_domain);
		h = h_str(h, b->md_colour);
		h = h_str(h, b->md_group);
		h = h_str(h, b->md_plugin);
		break;
	}
	case MAPLOG_TYPE_PLUGIN_ERROR:
		h = h_str(h, ev->ev_u.perr.pe_plugin);
		h = h_str(h, ev->ev_u.perr.pe_message);
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		h = h_u64(h, ev->ev_u.merr.me_index);
		h = h_u64(h, ev->ev_u.merr.me_count);
		h = h_str(h, ev->ev_u.merr.me_message);
		break;
	case MAPLOG_TYPE_MAP_IN: {
		const struct maplog_ev_map_in *b = &ev->ev_u.map_in;
		h = h_u64(h, b->mi_start);
		h = h_u64(h, b->mi_end);
		h = h_u64(h, b->mi_offset);
		h = h_u64(h, b->mi_bias);
		h = h_u64(h, b->mi_seq);
		h = h_u64(h, b->mi_flags);
		h = h_u64(h, b->mi_buildid_len);
		CHECK(b->mi_buildid_len == 0 || b->mi_buildid != NULL);
		if (b->mi_buildid_len)
			h = h_bytes(h, b->mi_buildid, b->mi_buildid_len);
		h = h_str(h, b->mi_path);
		break;
	}
	case MAPLOG_TYPE_MAP_OUT:
		h = h_u64(h, ev->ev_u.map_out.mo_start);
		h = h_u64(h, ev->ev_u.map_out.mo_end);
		h = h_u64(h, ev->ev_u.map_out.mo_seq);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		h = h_u64(h, ev->ev_u.tbegin.tb_tid);
		h = h_u64(h, ev->ev_u.tbegin.tb_creator);
		h = h_str(h, ev->ev_u.tbegin.tb_name);
		break;
	case MAPLOG_TYPE_THREAD_END:
		h = h_u64(h, ev->ev_u.tend.te_tid);
		h = h_u64(h, ev->ev_u.tend.te_samples);
		h = h_u64(h, ev->ev_u.tend.te_dropped);
		h = h_u64(h, ev->ev_u.tend.te_cpu_ns);
		h = h_u64(h, ev->ev_u.tend.te_wall_ns);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		h = h_u64(h, ev->ev_u.fork.fk_ppid);
		h = h_u64(h, ev->ev_u.fork.fk_pid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		h = h_u64(h, ev->ev_u.exec.ex_pid);
		h = h_u64(h, ev->ev_u.exec.ex_image);
		h = h_str(h, ev->ev_u.exec.ex_path);
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		h = h_u64(h, ev->ev_u.exit.px_pid);
		h = h_u64(h, ev->ev_u.exit.px_how);
		h = h_u64(h, (uint64_t)(int64_t)ev->ev_u.exit.px_code);
		break;
	case MAPLOG_TYPE_SAMPLE: {
		const struct maplog_ev_sample *s = &ev->ev_u.sample;
		h = h_u64(h, s->sa_tid);
		h = h_u64(h, s->sa_weight);
		h = h_u64(h, s->sa_stack);
		h = h_u64(h, s->sa_npc);
		CHECK(s->sa_npc <= MAPLOG_MAX_FRAMES);
		CHECK(s->sa_npc == 0 || s->sa_pc != NULL);
		if (s->sa_npc)
			h = h_bytes(h, s->sa_pc,
				    s->sa_npc * sizeof(*s->sa_pc));
		break;
	}
	case MAPLOG_TYPE_METRIC_VALUE:
		h = h_u64(h, ev->ev_u.mval.mv_index);
		h = h_u64(h, ev->ev_u.mval.mv_kind);
		CHECK(ev->ev_u.mval.mv_kind <= MAPLOG_VALUE_NONE);
		h = h_u64(h, ev->ev_u.mval.mv_v.u64);
		break;
	case MAPLOG_TYPE_DROP:
		h = h_u64(h, ev->ev_u.drop.dr_tid);
		h = h_u64(h, ev->ev_u.drop.dr_reason);
		h = h_u64(h, ev->ev_u.drop.dr_count);
		break;
	case MAPLOG_TYPE_MARK:
		h = h_u64(h, ev->ev_u.mark.mk_tid);
		h = h_u64(h, ev->ev_u.mark.mk_value);
		h = h_str(h, ev->ev_u.mark.mk_text);
		break;
	case MAPLOG_TYPE_CLOSE:
		h = h_u64(h, ev->ev_u.close.cl_samples);
		h = h_u64(h, ev->ev_u.close.cl_dropped);
		h = h_u64(h, ev->ev_u.close.cl_threads);
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		h = h_str(h, ev->ev_u.mpi.mc_function);
		h = h_u64(h, ev->ev_u.mpi.mc_calls);
		h = h_u64(h, ev->ev_u.mpi.mc_time_ns);
		h = h_u64(h, ev->ev_u.mpi.mc_sent);
		h = h_u64(h, ev->ev_u.mpi.mc_received);
		break;
	case MAPLOG_TYPE_JOB:
		CHECK(ev->ev_u.job.jb_rank >= -1);
		h = h_u64(h, (uint64_t)(int64_t)ev->ev_u.job.jb_rank);
		h = h_u64(h, ev->ev_u.job.jb_size);
		h = h_u64(h, ev->ev_u.job.jb_role);
		h = h_str(h, ev->ev_u.job.jb_job_id);
		h = h_str(h, ev->ev_u.job.jb_launcher);
		h = h_str(h, ev->ev_u.job.jb_source);
		break;
	case MAPLOG_TYPE_MANIFEST:
		h = h_str(h, ev->ev_u.manifest.mf_plugin);
		h = h_str(h, ev->ev_u.manifest.mf_path);
		h = h_str(h, ev->ev_u.manifest.mf_description);
		break;
	case MAPLOG_TYPE_FILE:
		h = h_u64(h, ev->ev_u.file.fi_pid);
		h = h_u64(h, ev->ev_u.file.fi_flags);
		h = h_u64(h, ev->ev_u.file.fi_offset);
		h = h_str(h, ev->ev_u.file.fi_kind);
		h = h_str(h, ev->ev_u.file.fi_name);
		h = h_u64(h, ev->ev_u.file.fi_len);
		CHECK(ev->ev_u.file.fi_len == 0 || ev->ev_u.file.fi_data != NULL);
		if (ev->ev_u.file.fi_len)
			h = h_bytes(h, ev->ev_u.file.fi_data,
				    ev->ev_u.file.fi_len);
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		h = h_u64(h, ev->ev_u.tname.tn_tid);
		h = h_str(h, ev->ev_u.tname.tn_name);
		break;
	default:
		/* NONE, STACK and unknown types are never returned */
		CHECK(!"OK event with a type the parser must not return");
	}
	return h;
}

static uint64_t eof_digest(const struct maplog_ev *ev)
{
	uint64_t h = h_u64(0, (uint64_t)ev->ev_u.eof.eof_truncated);
	h = h_u64(h, ev->ev_u.eof.eof_dropped);
	return h_u64(h, ev->ev_u.eof.eof_missing);
}

/* ------------------------------------------------------------------ */
/* Traces: the events of one way of parsing, to compare the ways */

struct tev {
	int state;
	int type;
	int error;
	uint64_t offset;
	uint64_t count;
	uint64_t digest; /* record content, or EOF / error details */
};

struct trace {
	struct tev *v;
	size_t n, cap;
	struct maplog_stats st; /* totals at the end */
};

/* FUZZ_MAPLOG_TRACE=1 in the environment prints every event (triage). */
static int verbose;

static void trace_add(struct trace *t, const struct tev *e)
{
	if (verbose)
		fprintf(stderr, "  #%zu: state %d type %d error %d offset %llu "
				"count %llu digest %016llx\n",
			t->n, e->state, e->type, e->error,
			(unsigned long long)e->offset,
			(unsigned long long)e->count,
			(unsigned long long)e->digest);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct tev *v = realloc(t->v, cap * sizeof(*v));
		CHECK(v != NULL);
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *e;
}

/* ------------------------------------------------------------------ */
/* One way of parsing */

struct run {
	maplog *p;
	struct trace *t;
	size_t size;        /* bytes of input */
	int mem;            /* memory stream (not fd) */
	int ended;          /* memory stream: maplog_feed(NULL, 0) done */
	int done;           /* EOF or a fatal error seen */
	size_t reads, max_reads;
	uint64_t ok, samples;
	uint64_t last_ok_off;
	int have_ok;
	int truncated;      /* an EOF said truncated */
	/* the last event, to spot errors that repeat without progress */
	int prev_error;
	uint64_t prev_error_off, prev_error_bytes, prev_error_skipped;
	/* the last OK event, to read its pointers again */
	struct maplog_ev last;
	uint64_t last_digest;
	int last_valid;
};

static void run_init(struct run *r, maplog *p, struct trace *t, size_t size,
		     int mem)
{
	memset(r, 0, sizeof(*r));
	CHECK(p != NULL);
	r->p = p;
	r->t = t;
	r->size = size;
	r->mem = mem;
	r->max_reads = 4 * size + 1000;
}

/* Events hand out pointers valid until the next read: read them again. */
static void retouch(struct run *r)
{
	if (r->last_valid)
		CHECK(digest_record(&r->last) == r->last_digest);
}

static int is_fatal(int code)
{
	return code == MAPS_EMAGIC || code == MAPS_EVERSION;
}

/* One maplog_read and its checks; returns the state. */
static enum maplog_state step(struct run *r)
{
	struct maplog_ev ev;
	struct maplog_stats st;
	struct tev e;

	CHECK(!r->done);
	retouch(r);
	CHECK(++r->reads <= r->max_reads); /* no endless loop */
	memset(&ev, 0xa5, sizeof(ev));
	int rc = maplog_read(r->p, &ev);
	CHECK(rc == 0 || rc == -1);
	CHECK((rc == 0) == (ev.ev_state == MAPLOG_OK));
	CHECK(maplog_stats(r->p, &st) == 0);
	r->last_valid = 0;

	memset(&e, 0, sizeof(e));
	e.state = ev.ev_state;
	e.offset = ev.ev_offset;
	e.count = ev.ev_count;
	switch (ev.ev_state) {
	case MAPLOG_OK:
		CHECK(ev.ev_type > MAPLOG_TYPE_NONE &&
		      ev.ev_type < MAPLOG_TYPE_MAX_ &&
		      ev.ev_type != MAPLOG_TYPE_STACK);
		CHECK(strcmp(maplog_type_name(ev.ev_type), "unknown") != 0);
		CHECK(ev.ev_count == r->ok + 1);
		CHECK(!r->have_ok || ev.ev_offset > r->last_ok_off);
		CHECK(ev.ev_offset >= MAPLOG_FILE_HEADER_SIZE +
					      MAPLOG_CHUNK_HEADER_SIZE);
		CHECK(ev.ev_offset < r->size);
		r->ok++;
		if (ev.ev_type == MAPLOG_TYPE_SAMPLE)
			r->samples++;
		r->last_ok_off = ev.ev_offset;
		r->have_ok = 1;
		e.type = ev.ev_type;
		e.digest = digest_record(&ev);
		r->last = ev;
		r->last_digest = e.digest;
		r->last_valid = 1;
		r->prev_error = 0;
		break;
	case MAPLOG_EOF:
		CHECK(ev.ev_count == r->ok);
		CHECK(ev.ev_u.eof.eof_truncated == 0 ||
		      ev.ev_u.eof.eof_truncated == 1);
		CHECK(!ev.ev_u.eof.eof_truncated || st.st_truncated);
		CHECK(!r->mem || r->ended);
		r->truncated |= ev.ev_u.eof.eof_truncated;
		e.digest = eof_digest(&ev);
		r->done = 1;
		break;
	case MAPLOG_REQUIRE_DATA:
		CHECK(r->mem && !r->ended);
		CHECK(ev.ev_count == r->ok);
		r->prev_error = 0;
		return MAPLOG_REQUIRE_DATA; /* not part of the trace */
	case MAPLOG_ERROR:
		CHECK(ev.ev_count == r->ok);
		CHECK(ev.ev_error < 0 && ev.ev_error >= MAPS_ENOTSUP);
		CHECK(ev.ev_error != MAPS_ENOMEM && ev.ev_error != MAPS_EIO);
		CHECK(maplog_error(r->p) == ev.ev_error);
		e.error = ev.ev_error;
		e.digest = ev.ev_u.error.er_length;
		/* damage is reported once: the next call must move on */
		CHECK(!(r->prev_error == ev.ev_error &&
			r->prev_error_off == ev.ev_offset &&
			r->prev_error_bytes == st.st_bytes &&
			r->prev_error_skipped == st.st_skipped_bytes));
		r->prev_error = ev.ev_error;
		r->prev_error_off = ev.ev_offset;
		r->prev_error_bytes = st.st_bytes;
		r->prev_error_skipped = st.st_skipped_bytes;
		if (is_fatal(ev.ev_error)) {
			/* "every call fails again", and nothing else */
			struct maplog_ev again;
			CHECK(r->ok == 0);
			CHECK(maplog_read(r->p, &again) == -1);
			CHECK(again.ev_state == MAPLOG_ERROR &&
			      again.ev_error == ev.ev_error);
			r->done = 1;
		}
		break;
	default:
		CHECK(!"ev_state out of range");
	}
	CHECK(st.st_records == r->ok);
	CHECK(st.st_samples == r->samples);
	CHECK(st.st_bytes <= r->size);
	trace_add(r->t, &e);
	return ev.ev_state;
}

/* Reads to the end; after EOF the parser must stay at EOF. */
static void drain(struct run *r)
{
	while (!r->done)
		CHECK(step(r) != MAPLOG_REQUIRE_DATA);
	struct maplog_ev ev;
	const struct tev *last = r->t->n ? &r->t->v[r->t->n - 1] : NULL;
	if (last && last->state == MAPLOG_EOF) {
		/* "every later call returns the same EOF" */
		CHECK(maplog_read(r->p, &ev) == -1);
		CHECK(ev.ev_state == MAPLOG_EOF);
		CHECK(ev.ev_count == r->ok);
		CHECK(ev.ev_offset == last->offset);
		CHECK(eof_digest(&ev) == last->digest);
	}
	CHECK(maplog_stats(r->p, &r->t->st) == 0);
	CHECK(r->t->st.st_records == r->ok);
	CHECK(!r->truncated || r->t->st.st_truncated);
}

static void end_stream(struct run *r)
{
	CHECK(maplog_feed(r->p, NULL, 0) == 0);
	r->ended = 1;
}

/* ------------------------------------------------------------------ */
/* Piece sizes: a small generator seeded from the input */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Mostly small pieces, to cut headers and records; some large ones. */
static size_t piece(uint64_t *s, size_t left)
{
	static const size_t lim[4] = {8, 64, 1024, 16384};
	uint64_t x = rng_next(s);
	size_t n = 1 + (size_t)((x >> 2) % lim[x & 3]);
	return n < left ? n : left;
}

/* ------------------------------------------------------------------ */
/* The ways */

/* Bytes of heap in use, or 0 where that cannot be known. */
static size_t heap_in_use(void)
{
#ifdef HEAP_CHECK
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
#else
	return 0;
#endif
}

/*
 * (a) the whole stream at once, ended before the first read.  Damage must
 * not make the parser allocate wildly: what it (and the trace) hold at
 * the end stays within a few hundred times the input.
 */
static void parse_whole(const uint8_t *data, size_t size, struct trace *t)
{
	struct run r;
	size_t before = heap_in_use();
	run_init(&r, maplog_open(MAPLOG_FD_NONE), t, size, 1);
	CHECK(maplog_feed(r.p, data, size) == 0);
	end_stream(&r);
	drain(&r);
	size_t after = heap_in_use();
	if (verbose)
		fprintf(stderr, "fuzz_maplog: heap grew by %zu bytes for %zu "
				"bytes of input\n",
			after > before ? after - before : 0, size);
	CHECK(after <= before || after - before <= 256 * size + (32u << 20));
	maplog_close(r.p);
}

/*
 * (b) pieces, reading until REQUIRE_DATA after each, or (c) pieces with
 * at most a few reads after each, so the next piece often arrives while
 * a chunk's records are being returned; the last event's pointers must
 * survive the feed, since only a read may invalidate them.
 */
static void parse_pieces(const uint8_t *data, size_t size, uint64_t seed,
			 int few_reads, struct trace *t)
{
	struct run r;
	uint64_t s = seed;
	size_t at = 0;
	run_init(&r, maplog_open(MAPLOG_FD_NONE), t, size, 1);
	while (at < size && !r.done) {
		size_t n = piece(&s, size - at);
		CHECK(maplog_feed(r.p, data + at, n) == 0);
		at += n;
		retouch(&r);
		unsigned budget = few_reads ? (unsigned)(rng_next(&s) & 3)
					    : ~0u;
		while (budget-- > 0 && !r.done &&
		       step(&r) != MAPLOG_REQUIRE_DATA)
			;
	}
	end_stream(&r);
	drain(&r);
	maplog_close(r.p);
}

/* Writes all of data to fd; returns 0, or -1 if it would block. */
static int write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		size -= (size_t)n;
	}
	return 0;
}

static void parse_fd(int fd, size_t size, struct trace *t)
{
	struct run r;
	run_init(&r, maplog_open(fd), t, size, 0);
	/* a file parser takes no fed bytes */
	CHECK(maplog_feed(r.p, "x", 1) == -1);
	CHECK(maplog_error(r.p) == MAPS_ENOTSUP);
	drain(&r);
	maplog_close(r.p);
}

/*
 * (d) a file, which the parser maps, or (f) the same after `skip` bytes
 * of something else, positioned at the log: the parser reads it with
 * read(2) and skips with lseek.  Returns 0, or -1 if no file was made.
 */
static int parse_file(const uint8_t *data, size_t size, size_t skip,
		      struct trace *t)
{
	static const uint8_t junk[64] = "not part of the log";
	if (skip > sizeof(junk))
		skip = sizeof(junk);
	int fd = memfd_create("fuzz_maplog", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write_all(fd, junk, skip) || write_all(fd, data, size) ||
	    lseek(fd, (off_t)skip, SEEK_SET) != (off_t)skip) {
		close(fd);
		return -1;
	}
	parse_fd(fd, size, t);
	close(fd);
	return 0;
}

/* (e) a pipe holding the whole input; -1 if it does not fit. */
static int parse_pipe(const uint8_t *data, size_t size, struct trace *t)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		return -1;
	if (size > 65536)
		(void)fcntl(pfd[1], F_SETPIPE_SZ, (int)size);
	if (write_all(pfd[1], data, size)) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	close(pfd[1]);
	/* the parser expects a blocking descriptor */
	(void)fcntl(pfd[0], F_SETFL, 0);
	parse_fd(pfd[0], size, t);
	close(pfd[0]);
	return 0;
}

/* ------------------------------------------------------------------ */

static void print_tev(const char *way, size_t i, const struct trace *t)
{
	if (i >= t->n) {
		fprintf(stderr, "  %-6s #%zu: (none)\n", way, i);
		return;
	}
	const struct tev *e = &t->v[i];
	fprintf(stderr, "  %-6s #%zu: state %d type %d error %d offset %llu "
			"count %llu digest %016llx\n",
		way, i, e->state, e->type, e->error,
		(unsigned long long)e->offset, (unsigned long long)e->count,
		(unsigned long long)e->digest);
}

static int tev_eq(const struct tev *x, const struct tev *y)
{
	return x->state == y->state && x->type == y->type &&
	       x->error == y->error && x->offset == y->offset &&
	       x->count == y->count && x->digest == y->digest;
}

/* Aborts, naming the first difference, unless both ways saw the same. */
static void same_trace(const struct trace *a, const struct trace *b,
		       const char *way)
{
	size_t i = 0;
	while (i < a->n && i < b->n && tev_eq(&a->v[i], &b->v[i]))
		i++;
	if (i < a->n || i < b->n) {
		fprintf(stderr, "fuzz_maplog: way %s differs from (a) at "
				"event %zu of %zu/%zu:\n", way, i, a->n, b->n);
		if (i > 0)
			print_tev("(a)", i - 1, a);
		print_tev("(a)", i, a);
		print_tev(way, i, b);
		abort();
	}
	const struct maplog_stats *s = &a->st, *u = &b->st;
	CHECK(s->st_bytes == u->st_bytes);
	CHECK(s->st_records == u->st_records);
	CHECK(s->st_samples == u->st_samples);
	CHECK(s->st_chunks == u->st_chunks);
	CHECK(s->st_open_chunks == u->st_open_chunks);
	CHECK(s->st_damaged == u->st_damaged);
	CHECK(s->st_skipped_bytes == u->st_skipped_bytes);
	CHECK(s->st_unknown == u->st_unknown);
	CHECK(s->st_truncated == u->st_truncated);
	CHECK(s->st_truncated_bytes == u->st_truncated_bytes);
	CHECK(s->st_version_major == u->st_version_major);
	CHECK(s->st_version_minor == u->st_version_minor);
}

#ifdef FUZZ_MAPLOG_MUTATOR
/*
 * libFuzzer's mutations nearly always break a checksum, so on their own
 * they stay in the parser's damage paths.  Three times in four, mend the
 * checksums of what still looks like a file header and chunk headers
 * (and sealed payloads), so mutated records and sizes reach the decoder.
 */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

static void mend_checksums(uint8_t *d, size_t size, unsigned int seed)
{
	size_t at = MAPLOG_FILE_HEADER_SIZE;
	if (size < MAPLOG_FILE_HEADER_SIZE ||
	    memcmp(d, MAPLOG_FILE_MAGIC, 8) != 0)
		return;
	uint32_t doff = maplog_ld32(d + MAPLOG_FH_DATA_OFFSET);
	if (doff >= MAPLOG_FILE_HEADER_SIZE && !(doff & 7) && doff < size)
		at = doff;
	maplog_st32(d + MAPLOG_FH_CRC, maplog_crc32c(0, d, MAPLOG_FH_CRC));
	while (at + MAPLOG_CHUNK_HEADER_SIZE <= size) {
		uint8_t *h = d + at;
		uint32_t cap = maplog_ld32(h + MAPLOG_CH_CAPACITY);
		if (maplog_ld32(h + MAPLOG_CH_MAGIC) != MAPLOG_CHUNK_MAGIC ||
		    cap < MAPLOG_CHUNK_HEADER_SIZE || (cap & 7) ||
		    cap > MAPLOG_MAX_CHUNK) {
			at += 8;
			continue;
		}
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) % 8 == 0) { /* now and then, leave one */
			at += cap;
			continue;
		}
		maplog_st32(h + MAPLOG_CH_HCRC,
			    maplog_crc32c(0, h, MAPLOG_CH_HCRC));
		uint32_t used = maplog_ld32(h + MAPLOG_CH_USED);
		if ((maplog_ld32(h + MAPLOG_CH_FLAGS) & MAPLOG_CHUNK_SEALED) &&
		    used <= cap - MAPLOG_CHUNK_HEADER_SIZE &&
		    used <= size - at - MAPLOG_CHUNK_HEADER_SIZE)
			maplog_st32(h + MAPLOG_CH_PCRC,
				    maplog_crc32c(0, h + MAPLOG_CHUNK_HEADER_SIZE,
						  used));
		at += cap;
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	size = LLVMFuzzerMutate(data, size, max_size);
	if (seed % 4 != 0)
		mend_checksums(data, size, seed);
	return size;
}
#endif

/* Starts a way of parsing into t; says so when tracing. */
static void begin_way(struct trace *t, const char *name)
{
	t->n = 0;
	if (verbose)
		fprintf(stderr, "fuzz_maplog: way %s\n", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t none[1];
	static int init;
	struct trace ta, tb;
	if (!init) {
		const char *v = getenv("FUZZ_MAPLOG_TRACE");
		verbose = v && *v && strcmp(v, "0") != 0;
		init = 1;
	}
	if (!data)
		data = none;
	memset(&ta, 0, sizeof(ta));
	memset(&tb, 0, sizeof(tb));
	uint64_t seed = h_bytes(0xcbf29ce484222325ull, data, size);

	begin_way(&ta, "(a)");
	parse_whole(data, size, &ta);

	begin_way(&tb, "(b)");
	parse_pieces(data, size, seed, 0, &tb);
	same_trace(&ta, &tb, "(b)");

	begin_way(&tb, "(c)");
	parse_pieces(data, size, seed ^ 0x5bd1e995u, 1, &tb);
	same_trace(&ta, &tb, "(c)");

	begin_way(&tb, "(d)");
	if (parse_file(data, size, 0, &tb) == 0)
		same_trace(&ta, &tb, "(d)");

	/* a read(2) parser allocates megabytes, which under ASan costs more
	 * than all the rest: each of these for one input in eight */
	if ((seed & 7) == 0) {
		begin_way(&tb, "(e)");
		if (parse_pipe(data, size, &tb) == 0)
			same_trace(&ta, &tb, "(e)");
	}
	if ((seed & 7) == 4) {
		begin_way(&tb, "(f)");
		if (parse_file(data, size, 1 + (seed >> 8) % 63, &tb) == 0)
			same_trace(&ta, &tb, "(f)");
	}

	/* where parsers decode with pext (BMI2), the portable decoders must
	 * give the same: (g) whole and (h) in pieces, forced portable */
	if (maplog_cpu_pext()) {
		maplog_cpu_force_portable(1);
		begin_way(&tb, "(g)");
		parse_whole(data, size, &tb);
		same_trace(&ta, &tb, "(g)");
		begin_way(&tb, "(h)");
		parse_pieces(data, size, seed ^ 0x2545f491u, 0, &tb);
		same_trace(&ta, &tb, "(h)");
		maplog_cpu_force_portable(0);
	}

	free(ta.v);
	free(tb.v);
	return 0;
}
