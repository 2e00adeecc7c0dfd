/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/report/analyze.c and calltree.c on a log written
 * here with the real encoder: the sampler's own work on the program's
 * threads (libmapsampler.so's code at the leaf, or its constructor or
 * destructor, called by the dynamic loader, in the stack) is charged to
 * no function and no call tree path, and counted in own_samples; the
 * sampler's wrapper frames around the program's code, and the
 * program's own constructors, stay the program's.  The mapped files do
 * not exist, so frames are named FILE+0xOFFSET.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include <mapsample/maplog.h>

#include "log/mapwrite.h"
#include "report/analyze.h"
#include "report/calltree.h"

#define CHUNK (64u * 1024)
#define APP 0x400000ull
#define SAMPLER 0x7f0000000000ull
#define LOADER 0x7f1000000000ull
#define LIBC 0x7f2000000000ull

static uint8_t mem[CHUNK];
static struct mapw_chunk chunk;
static struct mapw_chunk_id cid;
static FILE *logfp;

static void put(const struct maplog_ev *ev)
{
	ck_assert_int_eq(mapw_event(&chunk, ev), 0);
}

static void stream(uint32_t tid, uint64_t ts)
{
	memset(mem, 0, sizeof(mem));
	cid.pid = 100;
	cid.tid = tid;
	cid.seq = 0; /* one chunk per stream: each stream's first */
	ck_assert_int_eq(mapw_chunk_open(&chunk, mem, CHUNK, &cid, ts, NULL), 0);
}

static void flush(void)
{
	mapw_chunk_trim(&chunk);
	mapw_chunk_seal(&chunk);
	ck_assert_uint_eq(fwrite(mem, 1, chunk.cap, logfp), chunk.cap);
}

static void map(uint64_t ts, uint64_t start, const char *path, uint32_t flags)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_MAP_IN;
	ev.ev_ts = ts;
	ev.ev_u.map_in = (struct maplog_ev_map_in){
		.mi_start = start, .mi_end = start + 0x100000,
		.mi_bias = start, .mi_flags = flags, .mi_path = path};
	put(&ev);
}

static void sample(uint64_t ts, const uint64_t *pc, uint32_t npc, int times)
{
	for (int i = 0; i < times; i++) {
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_SAMPLE;
		ev.ev_ts = ts + (uint64_t)i;
		ev.ev_u.sample = (struct maplog_ev_sample){
			.sa_tid = 100, .sa_npc = npc, .sa_weight = 1000000,
			.sa_pc = pc};
		put(&ev);
	}
}

/* The log: 10 samples of the program's main under the sampler's
 * wrapper, 3 in the sampler's code, 2 in libc called by the sampler's
 * constructor, 1 in the program's own constructor. */
static void write_log(const char *path)
{
	static const char *const argv[] = {"ownapp", NULL};
	static const uint64_t work[] = {APP + 0x1100, APP + 0x1200,
					SAMPLER + 0x1000, LIBC + 0x1000};
	static const uint64_t leaf[] = {SAMPLER + 0x2000, SAMPLER + 0x3000,
					LOADER + 0x1000};
	static const uint64_t ctor[] = {LIBC + 0x5000, SAMPLER + 0x3000,
					LOADER + 0x1000, LOADER + 0x2000};
	static const uint64_t appctor[] = {APP + 0x1300, LOADER + 0x1000};
	logfp = fopen(path, "wb");
	ck_assert_ptr_nonnull(logfp);
	uint8_t hdr[64];
	mapw_file_header(hdr, sizeof(hdr));
	ck_assert_uint_eq(fwrite(hdr, 1, sizeof(hdr), logfp), sizeof(hdr));
	const uint64_t t0 = 1000000000ull;
	stream(0, t0);
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_INITIALIZE;
	ev.ev_ts = t0;
	ev.ev_u.init = (struct maplog_ev_initialize){
		.in_version_major = MAPLOG_VERSION_MAJOR,
		.in_version_minor = MAPLOG_VERSION_MINOR,
		.in_clock = MAPLOG_CLOCK_CPU,
		.in_timer = MAPLOG_TIMER_PERF_TASK_CLOCK,
		.in_rate_asked = 1000, .in_period_ns = 1000000,
		.in_signal = 38, .in_max_depth = 128, .in_pid = 100,
		.in_ppid = 1, .in_wall_sec = 1795000000, .in_argc = 1,
		.in_argv = argv, .in_host = "node001.example",
		.in_exe = "/nonexistent/ownapp"};
	put(&ev);
	map(t0 + 1, APP, "/nonexistent/ownapp", MAPLOG_MAP_MAIN);
	map(t0 + 1, SAMPLER, "/nonexistent/libmapsampler.so", 0);
	map(t0 + 1, LOADER, "/nonexistent/ld-linux-x86-64.so.2", 0);
	map(t0 + 1, LIBC, "/nonexistent/libc.so.6", 0);
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
	ev.ev_ts = t0 + 2;
	ev.ev_u.tbegin.tb_tid = 100;
	ev.ev_u.tbegin.tb_name = "ownapp";
	put(&ev);
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_END;
	ev.ev_ts = t0 + 100000000;
	ev.ev_u.tend = (struct maplog_ev_thread_end){
		.te_tid = 100, .te_samples = 16, .te_cpu_ns = 16000000,
		.te_wall_ns = 100000000};
	put(&ev);
	flush();
	stream(100, t0 + 3);
	sample(t0 + 10, appctor, 2, 1);
	sample(t0 + 20, leaf, 3, 3);
	sample(t0 + 30, ctor, 4, 2);
	sample(t0 + 40, work, 4, 10);
	flush();
	ck_assert_int_eq(fclose(logfp), 0);
}

/* The total samples of the function named name, -1 when it has none. */
static int64_t total_of(const struct analysis *a, const char *name)
{
	for (size_t i = 0; i < a->nfuncs; i++)
		if (strcmp(a->funcs[i].name, name) == 0)
			return a->funcs[i].total ? (int64_t)a->funcs[i].total
						 : -1;
	return -1;
}

START_TEST(analyze_sampler_own_work)
{
	char path[] = "/tmp/test_analyze.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_log(path);
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, path, NULL, NULL), 0);
	unlink(path);
	ck_assert_uint_eq(m.samples, 16);
	struct analysis a;
	ck_assert_int_eq(analysis_run(&a, &m), 0);
	/* the program's: main under the sampler's wrapper, its own
	 * constructor under the loader */
	ck_assert_int_eq(total_of(&a, "ownapp+0x1200"), 10);
	ck_assert_int_eq(total_of(&a, "ownapp+0x1100"), 10);
	ck_assert_int_eq(total_of(&a, "ownapp+0x1300"), 1);
	/* the sampler's: its code, libc under its constructor, the loader
	 * frames above them */
	ck_assert_int_eq(total_of(&a, "libmapsampler.so+0x2000"), -1);
	ck_assert_int_eq(total_of(&a, "libc.so.6+0x5000"), -1);
	ck_assert_int_eq(total_of(&a, "ld-linux-x86-64.so.2+0x2000"), -1);
	ck_assert_int_eq(total_of(&a, "ld-linux-x86-64.so.2+0x1000"), 1);
	ck_assert_uint_eq(a.own_samples, 5);
	struct calltree t;
	ck_assert_int_eq(calltree_build(&t, &m, &a), 0);
	ck_assert_uint_eq(t.ct_nodes[0].cn_value, 11);
	for (size_t i = 0; i < t.ct_n; i++)
		ck_assert_msg(strcmp(t.ct_names[t.ct_nodes[i].cn_name],
				     "libc.so.6+0x5000") != 0,
			      "the sampler's constructor's call in the tree");
	calltree_free(&t);
	analysis_free(&a);
	model_free(&m);
}
END_TEST

/* Process image i of a model made here: the file /nonexistent/libshared.so
 * mapped at base, with build-id bid (one byte). */
static void shared_proc(struct rproc *p, uint32_t pid, uint64_t base,
			uint8_t bid)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->maps = calloc(1, sizeof(*p->maps));
	ck_assert_ptr_nonnull(p->maps);
	p->nmaps = p->capmaps = 1;
	p->maps[0] = (struct rmap){.start = base, .end = base + 0x100000,
				   .offset = 0, .bias = base,
				   .path = "/nonexistent/libshared.so",
				   .buildid_len = 1};
	p->maps[0].buildid[0] = bid;
}

/* The function ids of stack slot si, as a string of numbers. */
static void fids_of(const struct analysis *a, size_t si, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (uint32_t k = 0; k < a->exp_n[si] && used < n; k++)
		used += (size_t)snprintf(buf + used, n - used, "%u ",
					 a->exp[a->exp_off[si] + k]);
}

/* Three processes load the same file: two at different addresses with
 * the same build-id (ranks of one job under ASLR), one with another
 * build-id (another build at that path).  The first two's addresses at
 * the same file offsets are one entry each and give the same functions;
 * the third's are entries of their own. */
START_TEST(analyze_same_file_other_address)
{
	const uint64_t b1 = 0x7f1111000000ull, b2 = 0x7f2222000000ull,
		       b3 = 0x7f3333000000ull;
	struct rproc procs[3];
	shared_proc(&procs[0], 101, b1, 0xaa);
	shared_proc(&procs[1], 102, b2, 0xaa);
	shared_proc(&procs[2], 103, b3, 0xbb);
	uint64_t spc[6] = {b1 + 0x1100, b1 + 0x1200, b2 + 0x1100,
			   b2 + 0x1200, b3 + 0x1100, b3 + 0x1200};
	struct rstack stacks[8];
	memset(stacks, 0, sizeof(stacks));
	/* slots as a hash table leaves them: not in order, some empty */
	stacks[1] = (struct rstack){.pid = 101, .npc = 2, .off = 0,
				    .count = 3, .used = 1, .seq = 0};
	stacks[6] = (struct rstack){.pid = 102, .npc = 2, .off = 2,
				    .count = 5, .used = 1, .seq = 1};
	stacks[3] = (struct rstack){.pid = 103, .npc = 2, .off = 4,
				    .count = 7, .used = 1, .seq = 2};
	struct model m;
	memset(&m, 0, sizeof(m));
	m.procs = procs;
	m.nprocs = m.capprocs = 3;
	m.stacks = stacks;
	m.nstacks = 3;
	m.capstacks = 8;
	m.spc = spc;
	m.nspc = m.capspc = 6;
	struct analysis a;
	ck_assert_int_eq(analysis_run(&a, &m), 0);
	/* a leaf and a return address, for each of the two builds */
	ck_assert_uint_eq(a.naddrs, 4);
	ck_assert_uint_eq(a.nexpanded, 2);
	char s1[64], s2[64], s3[64];
	fids_of(&a, 1, s1, sizeof(s1));
	fids_of(&a, 6, s2, sizeof(s2));
	fids_of(&a, 3, s3, sizeof(s3));
	ck_assert_str_eq(s1, s2);
	ck_assert_str_eq(s1, s3); /* same names: see below */
	ck_assert_uint_eq(a.exp_n[1], 2);
	ck_assert_str_eq(a.funcs[a.exp[a.exp_off[6]]].name,
			 "libshared.so+0x1100");
	ck_assert_str_eq(a.funcs[a.exp[a.exp_off[6] + 1]].name,
			 "libshared.so+0x1200");
	/* both builds' functions have these names, and the two builds are
	 * one module name: one function each, with all the samples */
	ck_assert_int_eq(total_of(&a, "libshared.so+0x1100"), 15);
	ck_assert_int_eq(total_of(&a, "libshared.so+0x1200"), 15);
	ck_assert_uint_eq(a.nfuncs, 2);
	/* the file is missing: said once per build */
	const char *const *lines;
	ck_assert_uint_eq(sym_problems(a.st, &lines), 2);
	analysis_free(&a);
	for (int i = 0; i < 3; i++)
		free(procs[i].maps);
}
END_TEST

static Suite *analyze_suite(void)
{
	Suite *s = suite_create("analyze");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, analyze_sampler_own_work);
	tcase_add_test(tc, analyze_same_file_other_address);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(analyze_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
