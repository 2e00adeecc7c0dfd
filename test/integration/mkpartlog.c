/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkpartlog: writes the deterministic logs of the partial-report tests
 * with the real encoder (lib/log/mapwrite).
 *
 *   mkpartlog OUT                 the partial scenario (below)
 *   mkpartlog --big N [-p P] OUT  P processes (default 1) with N metric
 *                                 ticks each, for the memory bound test
 *
 * The partial scenario (test/integration/mapreport-partial.sh works the
 * report's numbers out from it): metric ticks every 100 ms,
 *
 *   pid 100, threads 100 and 101 taking turns: ticks at 1.000 + k/10 s,
 *            k = 0..10; each thread's values in its own chunk, so the
 *            file holds the even ticks before the odd ones;
 *   pid 200, thread 200: ticks at 1.020 + k/10 s, k = 0..10;
 *   pid 300, thread 300: ticks at 1.530 + k/10 s, k = 0, 1, 3, 4, 5 (the
 *            tick at 1.730 s is missing).
 *
 * Metrics (each process numbers them differently):
 *
 *   com.allinea.metrics.sample.interrupts  "Interrupts", /s, divided by
 *       sample time, deltas: pid 100: 10*k at tick k (rate 100*k /s);
 *       pid 200: 50 (500 /s); pid 300: 7, 300, 400 (over 0.2 s), 100, 100
 *       (rates 3000, 2000, 1000, 1000 /s);
 *   com.example.mem  "Memory", B: pid 100: (k + 1) MiB; pid 200: 2 MiB;
 *       pid 300: 4 MiB;
 *   com.example.none  "Nothing", %: no value at any tick;
 *   com.example.once  "Once", /s, divided by sample time: one value per
 *       process, so no rate.
 *
 * A few samples per tick, so the processes and threads tables fill.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/maplog.h>

#include "log/mapwrite.h"

#define CHUNK (64u * 1024)
#define MS 1000000ull

struct stream {
	struct mapw_chunk c;
	struct mapw_chunk_id id;
	uint8_t mem[CHUNK];
	int open;
};

static int out_fd;

static void die(const char *what)
{
	fprintf(stderr, "mkpartlog: %s\n", what);
	exit(1);
}

static void emit(const void *b, size_t n)
{
	const char *p = b;
	while (n) {
		ssize_t w = write(out_fd, p, n);
		if (w <= 0)
			die("write failed");
		p += w;
		n -= (size_t)w;
	}
}

static void flush(struct stream *st)
{
	if (!st->open)
		return;
	mapw_chunk_trim(&st->c);
	mapw_chunk_seal(&st->c);
	emit(st->mem, st->c.cap);
	st->open = 0;
}

static void put(struct stream *st, const struct maplog_ev *ev)
{
	for (int tries = 0; tries < 2; tries++) {
		if (!st->open) {
			memset(st->mem, 0, sizeof(st->mem));
			if (mapw_chunk_open(&st->c, st->mem, CHUNK, &st->id,
					    ev->ev_ts, NULL))
				die("chunk open failed");
			st->id.seq++;
			st->open = 1;
		}
		int rc = mapw_event(&st->c, ev);
		if (!rc)
			return;
		if (rc != MAPS_ENOSPC)
			die("record not written");
		flush(st);
	}
	die("record larger than a chunk");
}

static struct stream *stream_new(uint32_t pid, uint32_t tid)
{
	struct stream *st = calloc(1, sizeof(*st));
	if (!st)
		die("out of memory");
	st->id.pid = pid;
	st->id.tid = tid;
	return st;
}

static void proc_begin(struct stream *ps, uint32_t pid, uint64_t ts)
{
	static const char *const argv[] = {"partialapp", "--steps", "10",
					   NULL};
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_INITIALIZE;
	ev.ev_ts = ts;
	ev.ev_u.init = (struct maplog_ev_initialize){
		.in_version_major = MAPLOG_VERSION_MAJOR,
		.in_version_minor = MAPLOG_VERSION_MINOR,
		.in_clock = MAPLOG_CLOCK_CPU,
		.in_timer = MAPLOG_TIMER_PERF_TASK_CLOCK,
		.in_rate_asked = 1000,
		.in_period_ns = 1000000,
		.in_signal = 38,
		.in_max_depth = 128,
		.in_pid = pid,
		.in_ppid = 1,
		.in_wall_sec = 1795000000,
		.in_argc = 3,
		.in_argv = argv,
		.in_host = "node001.example",
		.in_exe = "/nonexistent/partialapp",
	};
	put(ps, &ev);
}

static void define(struct stream *ps, uint64_t ts, uint32_t index,
		   const char *id, const char *name, const char *units,
		   uint32_t dt, uint32_t flags)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
	ev.ev_ts = ts;
	ev.ev_u.mdef = (struct maplog_ev_metric_def){
		.md_index = index,
		.md_datatype = dt,
		.md_flags = flags,
		.md_id = id,
		.md_name = name,
		.md_units = units,
		.md_description = "partial scenario metric",
		.md_domain = "time",
		.md_colour = "#336699",
		.md_group = "Partial",
		.md_plugin = "libpartial.so",
	};
	put(ps, &ev);
}

static void value(struct stream *st, uint64_t ts, uint32_t index,
		  uint64_t v, int none)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_ts = ts;
	ev.ev_u.mval.mv_index = index;
	ev.ev_u.mval.mv_kind = none ? MAPLOG_VALUE_NONE : MAPLOG_VALUE_U64;
	ev.ev_u.mval.mv_v.u64 = v;
	put(st, &ev);
}

static void sample(struct stream *st, uint64_t ts, uint32_t tid)
{
	static const uint64_t pcs[3] = {0x401100, 0x401200, 0x401300};
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_SAMPLE;
	ev.ev_ts = ts;
	ev.ev_u.sample.sa_tid = tid;
	ev.ev_u.sample.sa_weight = 1000000;
	ev.ev_u.sample.sa_npc = 3;
	ev.ev_u.sample.sa_pc = pcs;
	put(st, &ev);
}

static void thread_records(struct stream *ps, uint32_t tid, uint64_t t0,
			   uint64_t t1, uint64_t samples)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
	ev.ev_ts = t0;
	ev.ev_u.tbegin.tb_tid = tid;
	ev.ev_u.tbegin.tb_name = "partialapp";
	put(ps, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_END;
	ev.ev_ts = t1;
	ev.ev_u.tend.te_tid = tid;
	ev.ev_u.tend.te_samples = samples;
	ev.ev_u.tend.te_cpu_ns = samples * 1000000;
	ev.ev_u.tend.te_wall_ns = t1 - t0;
	put(ps, &ev);
}

static void proc_end(struct stream *ps, uint32_t pid, uint64_t ts,
		     uint64_t samples, uint64_t threads)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
	ev.ev_ts = ts;
	ev.ev_u.exit.px_pid = pid;
	put(ps, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_CLOSE;
	ev.ev_ts = ts + 1;
	ev.ev_u.close.cl_samples = samples;
	ev.ev_u.close.cl_threads = threads;
	put(ps, &ev);
}

enum { M_IRQ, M_MEM, M_NONE, M_ONCE, NM };

static void define_all(struct stream *ps, uint64_t ts, const uint32_t *index)
{
	define(ps, ts, index[M_IRQ], "com.allinea.metrics.sample.interrupts",
	       "Interrupts", "/s", MAPLOG_DT_U64,
	       MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	define(ps, ts, index[M_MEM], "com.example.mem", "Memory", "B",
	       MAPLOG_DT_U64, 0);
	define(ps, ts, index[M_NONE], "com.example.none", "Nothing", "%",
	       MAPLOG_DT_U64, 0);
	define(ps, ts, index[M_ONCE], "com.example.once", "Once", "/s",
	       MAPLOG_DT_U64, MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
}

/* One tick of the scenario: two samples, then the four metrics. */
static void tick(struct stream *st, uint32_t tid, uint64_t ts,
		 const uint32_t *index, uint64_t irq, uint64_t mem, int first)
{
	sample(st, ts - 2 * MS, tid);
	sample(st, ts - MS, tid);
	value(st, ts, index[M_IRQ], irq, 0);
	value(st, ts, index[M_MEM], mem, 0);
	value(st, ts, index[M_NONE], 0, 1);
	if (first)
		value(st, ts, index[M_ONCE], 42, 0);
}

static void scenario(void)
{
	static const uint32_t idx[3][NM] = {
		{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2},
	};
	const uint64_t s = 1000 * MS, mib = 1048576;

	/* pid 100: threads 100 and 101 take turns */
	struct stream *ps = stream_new(100, 0), *t[2] = {stream_new(100, 100),
							 stream_new(100, 101)};
	proc_begin(ps, 100, s - 50 * MS);
	define_all(ps, s - 50 * MS + 10, idx[0]);
	for (uint32_t k = 0; k <= 10; k++)
		tick(t[k % 2], 100 + k % 2, s + k * 100 * MS, idx[0], 10 * k,
		     (k + 1) * mib, k == 0);
	thread_records(ps, 100, s - 50 * MS + 100, s + 1001 * MS, 12);
	thread_records(ps, 101, s - 50 * MS + 101, s + 1002 * MS, 10);
	proc_end(ps, 100, s + 1003 * MS, 22, 2);
	/* the threads' chunks first: values before their definitions */
	flush(t[0]);
	flush(t[1]);
	flush(ps);

	/* pid 200 */
	struct stream *ps2 = stream_new(200, 0), *t2 = stream_new(200, 200);
	proc_begin(ps2, 200, s);
	define_all(ps2, s + 10, idx[1]);
	for (uint32_t k = 0; k <= 10; k++)
		tick(t2, 200, s + 20 * MS + k * 100 * MS, idx[1], 50, 2 * mib,
		     k == 0);
	thread_records(ps2, 200, s + 100, s + 1025 * MS, 22);
	proc_end(ps2, 200, s + 1026 * MS, 22, 1);
	flush(ps2);
	flush(t2);

	/* pid 300: no tick at 1.730 s */
	static const uint32_t k3[5] = {0, 1, 3, 4, 5};
	static const uint64_t irq3[5] = {7, 300, 400, 100, 100};
	struct stream *ps3 = stream_new(300, 0), *t3 = stream_new(300, 300);
	proc_begin(ps3, 300, s + 500 * MS);
	define_all(ps3, s + 500 * MS + 10, idx[2]);
	for (int i = 0; i < 5; i++)
		tick(t3, 300, s + 530 * MS + k3[i] * 100 * MS, idx[2], irq3[i],
		     4 * mib, i == 0);
	thread_records(ps3, 300, s + 500 * MS + 100, s + 1035 * MS, 10);
	proc_end(ps3, 300, s + 1036 * MS, 10, 1);
	flush(t3);
	flush(ps3);
	free(ps);
	free(t[0]);
	free(t[1]);
	free(ps2);
	free(t2);
	free(ps3);
	free(t3);
}

/* P processes, one thread each, n ticks 10 ms apart, all four metrics. */
static void big(uint64_t n, uint32_t procs)
{
	static const uint32_t idx[NM] = {0, 1, 2, 3};
	const uint64_t s = 1000 * MS;
	for (uint32_t p = 0; p < procs; p++) {
		uint32_t pid = 1000 + p;
		struct stream *ps = stream_new(pid, 0), *t = stream_new(pid, pid);
		proc_begin(ps, pid, s);
		define_all(ps, s + 10, idx);
		flush(ps);
		for (uint64_t k = 0; k < n; k++) {
			uint64_t ts = s + (k + 1) * 10 * MS + p * MS;
			value(t, ts, idx[M_IRQ], 10 + k % 7, 0);
			value(t, ts, idx[M_MEM], 1048576 * (1 + k % 5), 0);
		}
		flush(t);
		thread_records(ps, pid, s + 100, s + (n + 2) * 10 * MS, 0);
		proc_end(ps, pid, s + (n + 2) * 10 * MS + 1, 0, 1);
		flush(ps);
		free(ps);
		free(t);
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"big", required_argument, NULL, 'b'},
		{NULL, 0, NULL, 0},
	};
	unsigned long long n = 0, procs = 1;
	int c;
	while ((c = getopt_long(argc, argv, "p:", lo, NULL)) != -1) {
		switch (c) {
		case 'b': n = strtoull(optarg, NULL, 10); break;
		case 'p': procs = strtoull(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: mkpartlog [--big N [-p P]] "
					"OUT\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !procs) {
		fprintf(stderr, "usage: mkpartlog [--big N [-p P]] OUT\n");
		return 2;
	}
	out_fd = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out_fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	uint8_t hdr[64];
	mapw_file_header(hdr, sizeof(hdr));
	emit(hdr, sizeof(hdr));
	if (n)
		big(n, (uint32_t)procs);
	else
		scenario();
	if (close(out_fd))
		die("close failed");
	return 0;
}
