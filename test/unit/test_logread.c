/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of logread (lib/model/logread.c), the one loop that reads
 * logs, on logs written by logsynth: a tool sees every record of every
 * type, in the same numbers as were written, across block boundaries;
 * damage and truncation are reported with their offsets and reading goes
 * on; a callback's negative return stops reading and is what logread
 * returns; a file that is no log, or cannot be opened, is unreadable.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include <mapsample/maps_error.h>

#include "../common/logsynth.h"
#include "log/maplog_format.h"
#include "model/logread.h"

/* Every record type up to MAPLOG_TYPE_MAX_ is written by logsynth */

/* What a tool was told. */
struct seen {
	uint64_t any;                        /* lt_any calls */
	uint64_t by_type[MAPLOG_TYPE_MAX_];  /* lt_record calls */
	uint64_t type_mismatch;              /* lt_record of another type */
	struct logread_problem prob[8];
	char prob_file[8][256];
	size_t nprob;
	uint64_t progress_calls, last_done, last_size;
	uint64_t stop_at;                    /* lt_any returns stop_code at
					      * this record (1-based); 0: never */
	int stop_code;
	int record_stop_type;                /* lt_record returns stop_code on
					      * the first of this type; 0: never */
	uint64_t offset_of;                  /* record number (1-based)... */
	uint64_t offset;                     /* ...and its ev_offset */
};

static int on_any(void *ctx, const struct maplog_ev *ev)
{
	struct seen *s = ctx;
	s->any++;
	if (s->any == s->offset_of)
		s->offset = ev->ev_offset;
	return s->stop_at && s->any == s->stop_at ? s->stop_code : 0;
}

/* One callback per type: each checks it is called for its own type. */
#define ON_TYPE(T)                                                         \
	static int on_##T(void *ctx, const struct maplog_ev *ev)           \
	{                                                                  \
		struct seen *s = ctx;                                      \
		if (ev->ev_type != MAPLOG_TYPE_##T)                        \
			s->type_mismatch++;                                \
		s->by_type[MAPLOG_TYPE_##T]++;                             \
		return s->record_stop_type == MAPLOG_TYPE_##T ? s->stop_code \
							      : 0;          \
	}
ON_TYPE(INITIALIZE)
ON_TYPE(METRIC_DEF)
ON_TYPE(PLUGIN_ERROR)
ON_TYPE(METRIC_ERROR)
ON_TYPE(MAP_IN)
ON_TYPE(MAP_OUT)
ON_TYPE(THREAD_BEGIN)
ON_TYPE(THREAD_END)
ON_TYPE(PROC_FORK)
ON_TYPE(PROC_EXEC)
ON_TYPE(PROC_EXIT)
ON_TYPE(SAMPLE)
ON_TYPE(METRIC_VALUE)
ON_TYPE(DROP)
ON_TYPE(MARK)
ON_TYPE(CLOSE)
ON_TYPE(JOB)
ON_TYPE(MPI_CALLS)
ON_TYPE(MANIFEST)
ON_TYPE(FILE)
ON_TYPE(THREAD_NAME)

static void on_problem(void *ctx, const struct logread_problem *p)
{
	struct seen *s = ctx;
	ck_assert_uint_lt(s->nprob, 8);
	s->prob[s->nprob] = *p;
	snprintf(s->prob_file[s->nprob], sizeof(s->prob_file[0]), "%s",
		 p->lp_file);
	s->prob[s->nprob].lp_file = s->prob_file[s->nprob];
	s->nprob++;
}

static void on_progress(void *ctx, uint64_t done, uint64_t size)
{
	struct seen *s = ctx;
	ck_assert_uint_ge(done, s->last_done);
	s->progress_calls++;
	s->last_done = done;
	s->last_size = size;
}

static const struct logread_tool every_type = {
	.lt_any = on_any,
	.lt_record = {
		[MAPLOG_TYPE_INITIALIZE] = on_INITIALIZE,
		[MAPLOG_TYPE_METRIC_DEF] = on_METRIC_DEF,
		[MAPLOG_TYPE_PLUGIN_ERROR] = on_PLUGIN_ERROR,
		[MAPLOG_TYPE_METRIC_ERROR] = on_METRIC_ERROR,
		[MAPLOG_TYPE_MAP_IN] = on_MAP_IN,
		[MAPLOG_TYPE_MAP_OUT] = on_MAP_OUT,
		[MAPLOG_TYPE_THREAD_BEGIN] = on_THREAD_BEGIN,
		[MAPLOG_TYPE_THREAD_END] = on_THREAD_END,
		[MAPLOG_TYPE_PROC_FORK] = on_PROC_FORK,
		[MAPLOG_TYPE_PROC_EXEC] = on_PROC_EXEC,
		[MAPLOG_TYPE_PROC_EXIT] = on_PROC_EXIT,
		[MAPLOG_TYPE_SAMPLE] = on_SAMPLE,
		[MAPLOG_TYPE_METRIC_VALUE] = on_METRIC_VALUE,
		[MAPLOG_TYPE_DROP] = on_DROP,
		[MAPLOG_TYPE_MARK] = on_MARK,
		[MAPLOG_TYPE_CLOSE] = on_CLOSE,
		[MAPLOG_TYPE_JOB] = on_JOB,
		[MAPLOG_TYPE_MPI_CALLS] = on_MPI_CALLS,
		[MAPLOG_TYPE_MANIFEST] = on_MANIFEST,
		[MAPLOG_TYPE_FILE] = on_FILE,
		[MAPLOG_TYPE_THREAD_NAME] = on_THREAD_NAME,
	},
	.lt_problem = on_problem,
	.lt_progress = on_progress,
};

static char tmpdir[] = "/tmp/test_logread-XXXXXX";

static void setup(void)
{
	strcpy(tmpdir, "/tmp/test_logread-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Writes bytes [0, len) of buf to tmpdir/name; returns the path. */
static const char *put_file(const char *name, const void *buf, size_t len)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];
	snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return p;
}

/* A small log with every record type: several chunks per stream. */
static uint8_t *small_log(size_t *len, struct logsynth_result *res)
{
	struct logsynth_opts o;
	logsynth_defaults(&o);
	o.samples = 600;
	o.processes = 2;
	o.threads = 3;
	o.distinct_stacks = 100;
	o.min_depth = 1;
	o.max_depth = 24;
	o.chunk_size = 2048;
	o.data_offset = 256;
	o.seed = 12;
	o.all_types = 1;
	uint8_t *b = NULL;
	ck_assert_int_eq(logsynth_to_mem(&o, &b, len, res), 0);
	ck_assert_ptr_nonnull(b);
	return b;
}

static void check_counts(const struct seen *s,
			 const struct logsynth_result *res)
{
	uint64_t sum = 0;
	for (int t = 1; t < MAPLOG_TYPE_MAX_; t++) {
		if (t == MAPLOG_TYPE_STACK) { /* never returned */
			ck_assert_uint_eq(s->by_type[t], 0);
			continue;
		}
		ck_assert_msg(s->by_type[t] == res->records[t],
			      "type %s: %llu records seen, %llu written",
			      maplog_type_name(t),
			      (unsigned long long)s->by_type[t],
			      (unsigned long long)res->records[t]);
		sum += s->by_type[t];
	}
	ck_assert_uint_eq(s->any, sum);
	ck_assert_uint_eq(s->type_mismatch, 0);
}

START_TEST(logread_every_type)
{
	size_t len;
	struct logsynth_result res;
	uint8_t *b = small_log(&len, &res);
	for (int t = 1; t < MAPLOG_TYPE_MAX_; t++)
		/* numbers no record type has yet ("unknown") are not written */
		if (t != MAPLOG_TYPE_STACK &&
		    strcmp(maplog_type_name(t), "unknown") != 0)
			ck_assert_msg(res.records[t] > 0, "no %s written",
				      maplog_type_name(t));
	const char *path = put_file("every.log", b, len);
	struct seen s = {0};
	struct maplog_stats st;
	ck_assert_int_eq(logread_file(path, &every_type, &s, &st),
			 LOGREAD_CLEAN);
	check_counts(&s, &res);
	ck_assert_uint_eq(s.nprob, 0);
	ck_assert_uint_eq(st.st_records, s.any);
	ck_assert_uint_eq(st.st_bytes, len);
	/* progress: at the start, then after each block, ending at the
	 * file's size */
	ck_assert_uint_ge(s.progress_calls, 2);
	ck_assert_uint_eq(s.last_done, len);
	ck_assert_uint_eq(s.last_size, len);
	free(b);
}
END_TEST

START_TEST(logread_across_blocks)
{
	/* a log of several MiB, chunks larger than some block remainders:
	 * the same records whether read from a file in blocks or from a
	 * pipe, where the size is unknown */
	struct logsynth_opts o;
	logsynth_defaults(&o);
	o.samples = 60000;
	o.chunk_size = 256 * 1024;
	o.seed = 5;
	struct logsynth_result res;
	uint8_t *b = NULL;
	size_t len;
	ck_assert_int_eq(logsynth_to_mem(&o, &b, &len, &res), 0);
	ck_assert_uint_gt(len, 2u << 20);
	const char *path = put_file("big.log", b, len);
	struct seen s = {0};
	ck_assert_int_eq(logread_file(path, &every_type, &s, NULL),
			 LOGREAD_CLEAN);
	check_counts(&s, &res);
	ck_assert_uint_ge(s.progress_calls, 4);

	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fd[0]);
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(fd[1], b + off, len - off);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fd[1]);
	struct seen p = {0};
	ck_assert_int_eq(logread_fd(fd[0], "pipe", &every_type, &p, NULL),
			 LOGREAD_CLEAN);
	close(fd[0]);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	check_counts(&p, &res);
	ck_assert_uint_eq(p.last_size, len); /* done, once size unknown */
	free(b);
}
END_TEST

START_TEST(logread_damage_reported)
{
	size_t len;
	struct logsynth_result res;
	uint8_t *b = small_log(&len, &res);
	struct seen clean = {0};
	clean.offset_of = 100;
	ck_assert_int_eq(logread_file(put_file("clean.log", b, len),
				      &every_type, &clean, NULL),
			 LOGREAD_CLEAN);

	/* bytes of the 100th record changed: its chunk (2048 bytes at
	 * most) is reported and skipped, the rest read */
	uint64_t at = clean.offset;
	ck_assert_uint_gt(at, 256);
	for (uint64_t i = at; i < at + 8; i++)
		b[i] ^= 0xa5;
	const char *path = put_file("damaged.log", b, len);
	struct seen s = {0};
	struct maplog_stats st;
	ck_assert_int_eq(logread_file(path, &every_type, &s, &st),
			 LOGREAD_DAMAGED);
	ck_assert_uint_eq(s.nprob, 1);
	const struct logread_problem *p = &s.prob[0];
	ck_assert_int_eq(p->lp_kind, LOGREAD_DAMAGE);
	ck_assert_str_eq(p->lp_file, path);
	ck_assert_uint_le(p->lp_offset, at);
	ck_assert_uint_gt(p->lp_offset + p->lp_length, at);
	ck_assert_uint_le(p->lp_length, 2048);
	ck_assert_uint_lt(p->lp_records, 100);
	ck_assert(p->lp_code == MAPS_ECHECKSUM || p->lp_code == MAPS_EBADSIZE ||
		  p->lp_code == MAPS_EGARBAGE);
	ck_assert_uint_le(p->lp_records, s.any);
	ck_assert_uint_lt(s.any, clean.any);
	ck_assert_uint_gt(s.any, 0);
	ck_assert_uint_eq(st.st_damaged, 1);
	ck_assert_uint_eq(st.st_skipped_bytes, p->lp_length);
	char line[512];
	logread_problem_str(p, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, path));
	ck_assert_ptr_nonnull(strstr(line, "damaged data at byte"));

	/* the same log cut in the middle of its last chunk: truncation,
	 * at an offset before the cut, after every record read */
	size_t cut = len - 1000;
	path = put_file("cut.log", b, cut);
	struct seen t = {0};
	ck_assert_int_eq(logread_file(path, &every_type, &t, NULL),
			 LOGREAD_DAMAGED);
	ck_assert_uint_eq(t.nprob, 2);
	ck_assert_int_eq(t.prob[0].lp_kind, LOGREAD_DAMAGE);
	ck_assert_uint_eq(t.prob[0].lp_offset, p->lp_offset);
	ck_assert_int_eq(t.prob[1].lp_kind, LOGREAD_TRUNCATED);
	ck_assert_int_eq(t.prob[1].lp_code, MAPS_ETRUNCATED);
	ck_assert_uint_le(t.prob[1].lp_offset, cut);
	ck_assert_uint_gt(t.prob[1].lp_offset + 2048, cut);
	ck_assert_uint_gt(t.prob[1].lp_length, 0);
	ck_assert_uint_eq(t.prob[1].lp_records, t.any);
	ck_assert_uint_lt(t.any, s.any);
	free(b);
}
END_TEST

/* Chunk n (0-based, counted from byte 256) of the small log made a
 * chunk left open (not sealed) whose second half was never written
 * (zeros) and whose `used` field is damaged to its whole capacity, so
 * the parser finds a record it cannot decode every few bytes up to the
 * chunk's end.  Returns the chunk's offset. */
static uint64_t damage_used(uint8_t *b, size_t len, int n)
{
	uint64_t off = 256;
	for (int k = 0; off + MAPLOG_CHUNK_HEADER_SIZE <= len; k++) {
		ck_assert_uint_eq(maplog_ld32(b + off + MAPLOG_CH_MAGIC),
				  MAPLOG_CHUNK_MAGIC);
		uint32_t cap = maplog_ld32(b + off + MAPLOG_CH_CAPACITY);
		uint32_t used = maplog_ld32(b + off + MAPLOG_CH_USED);
		if (k == n) {
			ck_assert_uint_gt(used, 1000);
			maplog_st32(b + off + MAPLOG_CH_FLAGS, 0);
			memset(b + off + MAPLOG_CHUNK_HEADER_SIZE + used / 2, 0,
			       cap - MAPLOG_CHUNK_HEADER_SIZE - used / 2);
			maplog_st32(b + off + MAPLOG_CH_USED,
				    cap - MAPLOG_CHUNK_HEADER_SIZE);
			return off;
		}
		off += cap;
	}
	ck_abort_msg("the log has no chunk %d", n);
	return 0;
}

START_TEST(logread_damage_regions)
{
	size_t len;
	struct logsynth_result res;
	uint8_t *b = small_log(&len, &res);
	uint64_t first = damage_used(b, len, 0);
	uint64_t second = damage_used(b, len, 4);
	ck_assert_uint_gt(second, first);
	const char *path = put_file("used.log", b, len);
	struct seen s = {0};
	ck_assert_int_eq(logread_file(path, &every_type, &s, NULL),
			 LOGREAD_DAMAGED);
	/* one problem per damaged chunk, then the total: not one per
	 * record that failed (hundreds here) */
	ck_assert_uint_eq(s.nprob, 3);
	uint64_t bytes = 0;
	for (int i = 0; i < 2; i++) {
		const struct logread_problem *p = &s.prob[i];
		uint64_t at = i ? second : first;
		uint32_t cap = maplog_ld32(b + at + MAPLOG_CH_CAPACITY);
		ck_assert_int_eq(p->lp_kind, LOGREAD_DAMAGE);
		ck_assert_int_eq(p->lp_loss, LOGREAD_LOSS_NONE);
		ck_assert_uint_gt(p->lp_offset, at);
		ck_assert_uint_le(p->lp_total, at + cap);
		ck_assert_uint_gt(p->lp_count, 10);
		ck_assert_uint_gt(p->lp_length, 0);
		bytes += p->lp_length;
		char line[512];
		logread_problem_str(p, line, sizeof(line));
		ck_assert_msg(strstr(line, " places, the first: ") != NULL,
			      "%s", line);
	}
	const struct logread_problem *t = &s.prob[2];
	ck_assert_int_eq(t->lp_kind, LOGREAD_DAMAGE);
	ck_assert_int_eq(t->lp_loss, LOGREAD_LOSS_REGIONS);
	ck_assert_uint_eq(t->lp_count, 2);
	ck_assert_uint_eq(t->lp_total, bytes);
	ck_assert_uint_eq(t->lp_length, 0);
	char line[512];
	logread_problem_str(t, line, sizeof(line));
	ck_assert_msg(strstr(line, "2 damaged regions in all") != NULL, "%s",
		      line);
	free(b);
}
END_TEST

START_TEST(logread_callback_stops)
{
	size_t len;
	struct logsynth_result res;
	uint8_t *b = small_log(&len, &res);
	const char *path = put_file("stop.log", b, len);

	/* lt_any stops at the 10th record: its code comes back, and that
	 * record reaches no lt_record callback */
	struct seen s = {0};
	s.stop_at = 10;
	s.stop_code = MAPS_EINVAL;
	ck_assert_int_eq(logread_file(path, &every_type, &s, NULL),
			 MAPS_EINVAL);
	ck_assert_uint_eq(s.any, 10);
	uint64_t typed = 0;
	for (int t = 0; t < MAPLOG_TYPE_MAX_; t++)
		typed += s.by_type[t];
	ck_assert_uint_eq(typed, 9);
	ck_assert_uint_eq(s.nprob, 0);

	/* an lt_record callback stops at the first sample */
	struct seen r = {0};
	r.record_stop_type = MAPLOG_TYPE_SAMPLE;
	r.stop_code = MAPS_ENOMEM;
	ck_assert_int_eq(logread_file(path, &every_type, &r, NULL),
			 MAPS_ENOMEM);
	ck_assert_uint_eq(r.by_type[MAPLOG_TYPE_SAMPLE], 1);
	ck_assert_uint_lt(r.any, res.records[MAPLOG_TYPE_SAMPLE]);

	/* a tool with no callback at all reads to the end */
	static const struct logread_tool none = {0};
	ck_assert_int_eq(logread_file(path, &none, NULL, NULL),
			 LOGREAD_CLEAN);
	free(b);
}
END_TEST

START_TEST(logread_unreadable)
{
	/* cannot be opened */
	char path[600];
	snprintf(path, sizeof(path), "%s/absent.log", tmpdir);
	struct seen s = {0};
	struct maplog_stats st;
	memset(&st, 0xff, sizeof(st));
	ck_assert_int_eq(logread_file(path, &every_type, &s, &st),
			 LOGREAD_UNREADABLE);
	ck_assert_uint_eq(s.nprob, 1);
	ck_assert_int_eq(s.prob[0].lp_kind, LOGREAD_FATAL);
	ck_assert_int_eq(s.prob[0].lp_code, MAPS_EIO);
	ck_assert_int_eq(s.prob[0].lp_errno, ENOENT);
	ck_assert_uint_eq(st.st_records, 0);
	ck_assert_uint_eq(s.any, 0);
	char line[512];
	logread_problem_str(&s.prob[0], line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, "cannot open"));

	/* not a log */
	static const char text[] = "this is not a mapsample log at all\n";
	const char *notlog = put_file("text.log", text, sizeof(text) - 1);
	struct seen n = {0};
	ck_assert_int_eq(logread_file(notlog, &every_type, &n, NULL),
			 LOGREAD_UNREADABLE);
	ck_assert_uint_eq(n.any, 0);
	ck_assert_uint_eq(n.nprob, 1);
	ck_assert_int_eq(n.prob[0].lp_kind, LOGREAD_FATAL);
	ck_assert_int_eq(n.prob[0].lp_code, MAPS_EMAGIC);
	ck_assert_uint_eq(n.prob[0].lp_offset, 0);
	logread_problem_str(&n.prob[0], line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, "not a mapsample log"));

	/* an empty file reads as a log with no record: not a problem
	 * here (logread.h), the caller decides */
	const char *empty = put_file("empty.log", "", 0);
	struct seen e = {0};
	ck_assert_int_eq(logread_file(empty, &every_type, &e, &st),
			 LOGREAD_CLEAN);
	ck_assert_uint_eq(e.any, 0);
	ck_assert_uint_eq(e.nprob, 0);
	ck_assert_uint_eq(st.st_records, 0);
}
END_TEST

static Suite *logread_suite(void)
{
	Suite *s = suite_create("logread");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, logread_every_type);
	tcase_add_test(tc, logread_across_blocks);
	tcase_add_test(tc, logread_damage_reported);
	tcase_add_test(tc, logread_damage_regions);
	tcase_add_test(tc, logread_callback_stops);
	tcase_add_test(tc, logread_unreadable);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(logread_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
