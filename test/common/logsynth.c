/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logsynth: deterministic synthetic logs (see logsynth.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log/mapwrite.h"
#include "logsynth.h"
#include "logsynth_job.h"

#define NMOD 4
#define NFUNC 256
#define MAX_THREADS 1024

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* Skewed pick in [0, n): low indices much more likely (u^3). */
static uint32_t rnd_skew(struct rng *r, uint32_t n)
{
	double u = (double)(rnd(r) >> 11) / 9007199254740992.0;
	uint32_t i = (uint32_t)(u * u * u * n);
	return i < n ? i : n - 1;
}

struct module {
	const char *path;
	uint64_t base;
	uint64_t size;
	uint8_t buildid[20];
	uint64_t fstart[NFUNC];
	uint32_t fsize[NFUNC];
};

struct stream {
	struct mapw_chunk c;
	struct mapw_stab stab;
	uint8_t *mem;
	void *stabmem;
	struct mapw_chunk_id id;
	uint64_t ts;
	int started;
};

struct synth {
	const struct logsynth_opts *o;
	logsynth_sink sink;
	void *ctx;
	struct logsynth_result *res;
	struct rng rng;
	struct module mod[NMOD];
	uint64_t *stacks;     /* distinct_stacks * max_depth */
	uint32_t *depth;
};

static int emit(struct synth *s, const void *b, size_t n)
{
	s->res->bytes += n;
	return s->sink(s->ctx, b, n) ? MAPS_EIO : 0;
}

static int flush(struct synth *s, struct stream *st, int seal, int final)
{
	if (!st->started)
		return 0;
	(void)final; /* written in order, so every chunk can be trimmed */
	mapw_chunk_trim(&st->c);
	if (seal)
		mapw_chunk_seal(&st->c);
	s->res->chunks++;
	st->started = 0;
	return emit(s, st->mem, st->c.cap);
}

static int stream_init(struct synth *s, struct stream *st, uint32_t pid,
		       uint32_t tid, uint64_t ts)
{
	memset(st, 0, sizeof(*st));
	st->mem = calloc(1, s->o->chunk_size);
	if (!s->o->no_dedup) {
		/* at most one stack per 128 bytes of chunk */
		uint32_t nslots = 64;
		while (nslots < s->o->chunk_size / 64)
			nslots *= 2;
		uint32_t frames = s->o->chunk_size / 8;
		st->stabmem = calloc(1, mapw_stab_size(nslots, frames));
		if (!st->stabmem ||
		    mapw_stab_init(&st->stab, st->stabmem, nslots, frames))
			return MAPS_ENOMEM;
	}
	if (!st->mem)
		return MAPS_ENOMEM;
	st->id.pid = pid;
	st->id.tid = tid;
	st->ts = ts;
	return 0;
}

static void stream_free(struct stream *st)
{
	free(st->mem);
	free(st->stabmem);
}

static int stream_open(struct synth *s, struct stream *st, uint64_t ts)
{
	memset(st->mem, 0, s->o->chunk_size);
	int rc = mapw_chunk_open(&st->c, st->mem, s->o->chunk_size, &st->id,
				 ts, s->o->no_dedup ? NULL : &st->stab);
	if (rc)
		return rc;
	st->id.seq++;
	st->started = 1;
	return 0;
}

/* Appends ev (or a sample) to the stream, rolling to a new chunk when
 * the current one is full. */
static int put(struct synth *s, struct stream *st, const struct maplog_ev *ev)
{
	for (int tries = 0; tries < 2; tries++) {
		if (!st->started) {
			int rc = stream_open(s, st, ev->ev_ts);
			if (rc)
				return rc;
		}
		uint32_t before = st->c.nstacks;
		int rc = mapw_event(&st->c, ev);
		if (rc == 0) {
			s->res->records[ev->ev_type]++;
			s->res->records[MAPLOG_TYPE_STACK] +=
				st->c.nstacks - before;
			return 0;
		}
		if (rc != MAPS_ENOSPC)
			return rc;
		rc = flush(s, st, 1, 0);
		if (rc)
			return rc;
	}
	return MAPS_EBADSIZE;
}

static void make_modules(struct synth *s)
{
	static const char *const paths[NMOD] = {
		/* fictional paths: no real file may match a made-up build-id */
		"/nonexistent/synthapp/bin/synthapp",
		"/nonexistent/synthapp/lib/libc.so.6",
		"/nonexistent/synthapp/lib/libm.so.6",
		"/nonexistent/synthapp/lib/libsolver.so",
	};
	static const uint64_t bases[NMOD] = {
		0x555555554000ull, 0x7ffff7d80000ull, 0x7ffff7c90000ull,
		0x7ffff7a00000ull,
	};
	for (int m = 0; m < NMOD; m++) {
		struct module *md = &s->mod[m];
		md->path = paths[m];
		md->base = bases[m];
		uint64_t at = md->base + 0x1000;
		for (int f = 0; f < NFUNC; f++) {
			md->fstart[f] = at;
			md->fsize[f] = 64 + rnd_below(&s->rng, 2048);
			at += (md->fsize[f] + 15) & ~15ull;
		}
		md->size = at - md->base + 0x1000;
		for (int i = 0; i < 20; i++)
			md->buildid[i] = (uint8_t)rnd(&s->rng);
	}
}

/* A PC inside function f of module m; call sites are spread over the
 * function, leaves anywhere in it. */
static uint64_t pc_in(struct synth *s, int m, int f)
{
	struct module *md = &s->mod[m];
	return md->fstart[f] + 1 + rnd_below(&s->rng, md->fsize[f] - 1);
}

/* Stacks share root-side spines, as real call trees do. */
static void make_stacks(struct synth *s)
{
	const struct logsynth_opts *o = s->o;
	uint32_t maxd = o->max_depth;
	enum { NSPINE = 64 };
	uint64_t spine[NSPINE][64];
	for (int i = 0; i < NSPINE; i++) {
		spine[i][0] = s->mod[1].fstart[3] + 0x2a; /* libc start */
		spine[i][1] = s->mod[0].fstart[0] + 0x40; /* main */
		for (int d = 2; d < 64; d++) {
			int m = rnd_below(&s->rng, 8) < 6 ? 0 : 3;
			spine[i][d] = pc_in(s, m, rnd_skew(&s->rng, NFUNC));
		}
	}
	for (uint32_t k = 0; k < o->distinct_stacks; k++) {
		uint32_t d = o->min_depth +
			     rnd_below(&s->rng, maxd - o->min_depth + 1);
		uint64_t *st = s->stacks + (size_t)k * maxd;
		uint64_t *sp = spine[rnd_skew(&s->rng, NSPINE)];
		uint32_t shared = d > 2 ? 2 + rnd_below(&s->rng, d - 1) : d;
		if (o->recursive) /* the recursion is all below main */
			shared = 2;
		if (shared > 64)
			shared = 64;
		if (shared > d)
			shared = d;
		/* root-most frame is last */
		for (uint32_t i = 0; i < shared; i++)
			st[d - 1 - i] = sp[i];
		for (uint32_t i = shared; i < d; i++) {
			int m = rnd_below(&s->rng, 4);
			st[d - 1 - i] = o->recursive
					? s->mod[0].fstart[5 + rnd_below(&s->rng, 3)] + 0x10
					: pc_in(s, m, rnd_skew(&s->rng, NFUNC));
		}
		s->depth[k] = d;
	}
}

/* Records ev[0..n) to st (the job scenario's, logsynth_job.h). */
static int put_all(struct synth *s, struct stream *st,
		   const struct maplog_ev *ev, size_t n)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = put(s, st, &ev[i]);
	return rc;
}

static int proc_records(struct synth *s, struct stream *ps, uint32_t pid,
			uint32_t ppid, uint64_t ts)
{
	const struct logsynth_opts *o = s->o;
	struct maplog_ev ev;
	static const char *const argv[] = {"synthapp", "--size", "large",
					   "input file.dat", NULL};
	int rc;
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
		.in_ppid = ppid,
		.in_wall_sec = 1795000000 + (int64_t)pid,
		.in_wall_nsec = 123456789,
		.in_argc = 4,
		.in_argv = argv,
		.in_host = "node001.example",
		.in_exe = s->mod[0].path,
	};
	if ((rc = put(s, ps, &ev)))
		return rc;
	for (int m = 0; m < NMOD; m++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MAP_IN;
		ev.ev_ts = ts + 1 + m;
		ev.ev_u.map_in = (struct maplog_ev_map_in){
			.mi_start = s->mod[m].base,
			.mi_end = s->mod[m].base + s->mod[m].size,
			.mi_offset = 0,
			.mi_bias = m == 0 ? s->mod[m].base : s->mod[m].base,
			.mi_seq = (uint64_t)m,
			.mi_flags = m == 0 ? MAPLOG_MAP_MAIN : 0,
			.mi_buildid_len = 20,
			.mi_buildid = s->mod[m].buildid,
			.mi_path = s->mod[m].path,
		};
		if ((rc = put(s, ps, &ev)))
			return rc;
	}
	struct maplog_ev ev_job[LOGSYNTH_JOB_MAX];
	if (o->job)
		return put_all(s, ps, ev_job,
			       logsynth_job_defs(o, ts, ev_job));
	if (!o->all_types)
		return 0;
	static const char *const ids[2] = {"com.example.mem.rss",
					   "com.example.io.rate"};
	for (uint32_t i = 0; i < 2; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
		ev.ev_ts = ts + 10;
		ev.ev_u.mdef = (struct maplog_ev_metric_def){
			.md_index = i,
			.md_datatype = i ? MAPLOG_DT_DOUBLE : MAPLOG_DT_U64,
			.md_flags = i ? MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME : 0,
			.md_id = ids[i],
			.md_name = i ? "I/O rate" : "RSS",
			.md_units = i ? "B/s" : "B",
			.md_description = "synthetic metric <&>\"'",
			.md_domain = "time",
			.md_colour = i ? "#00ff00" : "rgb(255, 0, 0)",
			.md_group = "Synthetic",
			.md_plugin = "libsynth.so",
		};
		if ((rc = put(s, ps, &ev)))
			return rc;
	}
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PLUGIN_ERROR;
	ev.ev_ts = ts + 11;
	ev.ev_u.perr.pe_plugin = "libbroken.so";
	ev.ev_u.perr.pe_message = "could not open /sys/class/powercap";
	return put(s, ps, &ev);
}

/* ---- the metrics scenario (see logsynth.h) ---- */

enum {
	M_CPU, M_READ, M_POWER, M_SYSCALLS, M_RSS, M_LOCK, M_FLAKY, M_BUSY,
	NMDEF
};

static const struct {
	const char *id, *name, *units;
	uint32_t datatype, flags;
} mdefs[NMDEF] = {
	{"com.example.cpu.util", "CPU utilization", "%", MAPLOG_DT_DOUBLE, 0},
	{"com.example.io.read", "Read rate", "B/s", MAPLOG_DT_U64,
	 MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
	{"com.example.node.power", "Node power", "W", MAPLOG_DT_DOUBLE,
	 MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME | MAPLOG_MD_ONE_PER_NODE},
	{"com.example.syscalls", "", "calls/s", MAPLOG_DT_U64,
	 MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
	{"com.example.mem.rss", "RSS", "B", MAPLOG_DT_U64, MAPLOG_MD_BACKFILL},
	{"com.example.lock.wait", "Lock wait", "ns", MAPLOG_DT_U64, 0},
	{"com.example.flaky", "Flaky counter", "/s", MAPLOG_DT_U64,
	 MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
	{"com.example.cpu.busy", "CPU busy", "%", MAPLOG_DT_DOUBLE,
	 MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
};

#define MAXTICK 8
#define NOV NAN     /* the getter had no value */
#define SKIP (-1.0) /* not taken in this process (one per node) */

struct mproc {
	uint32_t pid;
	uint32_t threads;       /* tick k is taken by thread pid + k % threads */
	uint64_t t0;            /* first tick, ns */
	uint32_t nticks;
	uint32_t tick_ms[MAXTICK];
	uint32_t index[NMDEF];  /* md_index of each metric here */
	double v[NMDEF][MAXTICK];
	const char *flaky_msg;
	int slow_plugin;        /* also a start function that failed */
	int orphan;             /* a value of index 9, never defined */
};

/* Values are deltas for the metrics divided by sample time.  Rates of
 * pid 6000's Read rate: 1000 KiB/s, 0, (none), 10 MiB/s over 0.3 s,
 * 1048580 B/s, 1048575 B/s, 5 KiB/s.  CPU busy's deltas are in %*s. */
static const struct mproc mprocs[2] = {
	{
		.pid = 6000,
		.threads = 2,
		.t0 = 10000000000ull,
		.nticks = 8,
		.tick_ms = {0, 100, 300, 400, 600, 700, 900, 1000},
		.index = {0, 1, 2, 3, 4, 5, 6, 7},
		.v = {
			[M_CPU] = {10, 20, NOV, 40, 50, 60, 70, 90.5},
			[M_READ] = {4096, 102400, 0, NOV, 3145728, 104858,
				    209715, 512},
			[M_POWER] = {55.25, 15, 32, 14, 36, 15.5, 30, 150.2},
			[M_SYSCALLS] = {100, 1250, 2000, 1000, 4000, 500, 2000,
					1000},
			[M_RSS] = {1048576, 2097152, 3145728, 4194304, 5242880,
				   6291456, 7340032, 8388608},
			[M_LOCK] = {800, 1500, 250000, 2500000, 999, 1000, 40,
				    3000000000.0},
			[M_FLAKY] = {NOV, NOV, NOV, NOV, NOV, NOV, NOV, NOV},
			[M_BUSY] = {2, 5, 20, 2.5, 10, 10, 0, 7.5},
		},
		.flaky_msg = "counter read failed: EIO",
		.slow_plugin = 1,
	},
	{
		.pid = 7000,
		.threads = 1,
		.t0 = 20000000000ull,
		.nticks = 5,
		.tick_ms = {0, 500, 1000, 1500, 2000},
		.index = {1, 0, 4, 3, 5, 6, 2, 7},
		.v = {
			[M_CPU] = {5, 15, 25, 35, 45.25},
			[M_READ] = {1000, 512000, 1024000, 0, 1048576},
			[M_POWER] = {SKIP, SKIP, SKIP, SKIP, SKIP},
			[M_SYSCALLS] = {7, 5000, 5000, 5000, 5000},
			[M_RSS] = {0, 1023, 1024, 2048, 4096},
			[M_LOCK] = {100, 200, 300, 400, 500},
			[M_FLAKY] = {NOV, NOV, NOV, NOV, NOV},
			[M_BUSY] = {1, 25, 50, 0, 13},
		},
		.flaky_msg = "counter read failed: EAGAIN",
		.orphan = 1,
	},
};

static int scenario_value(struct synth *s, struct stream *st, uint64_t ts,
			  uint32_t index, uint32_t datatype, double v)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_ts = ts;
	ev.ev_u.mval.mv_index = index;
	if (isnan(v)) {
		ev.ev_u.mval.mv_kind = MAPLOG_VALUE_NONE;
	} else if (datatype == MAPLOG_DT_U64) {
		ev.ev_u.mval.mv_kind = MAPLOG_VALUE_U64;
		ev.ev_u.mval.mv_v.u64 = (uint64_t)v;
	} else {
		ev.ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
		ev.ev_u.mval.mv_v.dbl = v;
	}
	return put(s, st, &ev);
}

/* Samples, then every metric of tick k, into the ticking thread's chunk. */
static int scenario_tick(struct synth *s, const struct mproc *mp,
			 struct stream *st, uint32_t k, uint64_t *flaky_errors)
{
	uint64_t ts = mp->t0 + (uint64_t)mp->tick_ms[k] * 1000000;
	struct maplog_ev ev;
	int rc;
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t sk = rnd_skew(&s->rng, s->o->distinct_stacks);
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_SAMPLE;
		ev.ev_ts = ts - (3 - i) * 1000000;
		ev.ev_u.sample.sa_weight = 1000000;
		ev.ev_u.sample.sa_npc = s->depth[sk];
		ev.ev_u.sample.sa_pc = s->stacks + (size_t)sk * s->o->max_depth;
		if ((rc = put(s, st, &ev)))
			return rc;
	}
	for (int m = 0; m < NMDEF; m++) {
		double v = mp->v[m][k];
		if (v == SKIP)
			continue;
		if ((rc = scenario_value(s, st, ts, mp->index[m],
					 mdefs[m].datatype, v)))
			return rc;
		if (m == M_FLAKY && isnan(v)) {
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_METRIC_ERROR;
			ev.ev_ts = ts;
			ev.ev_u.merr.me_index = mp->index[m];
			ev.ev_u.merr.me_count = ++*flaky_errors;
			ev.ev_u.merr.me_message = mp->flaky_msg;
			if ((rc = put(s, st, &ev)))
				return rc;
		}
	}
	if (mp->orphan && k == 2)
		return scenario_value(s, st, ts, 9, MAPLOG_DT_U64, 1);
	return 0;
}

static int scenario_proc(struct synth *s, const struct mproc *mp)
{
	struct stream st[3];
	uint64_t t0 = mp->t0 - 50000000; /* start 50 ms before the first tick */
	uint64_t tend = mp->t0 + (uint64_t)mp->tick_ms[mp->nticks - 1] * 1000000;
	uint64_t flaky_errors = 0;
	struct maplog_ev ev;
	int rc;
	memset(st, 0, sizeof(st));
	struct stream *ps = &st[mp->threads];
	for (uint32_t t = 0; t <= mp->threads; t++)
		if ((rc = stream_init(s, &st[t], mp->pid,
				      t < mp->threads ? mp->pid + t : 0, t0)))
			goto out;
	make_stacks(s);
	if ((rc = proc_records(s, ps, mp->pid, 1, t0)))
		goto out;
	for (int m = 0; m < NMDEF; m++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
		ev.ev_ts = t0 + 10;
		ev.ev_u.mdef = (struct maplog_ev_metric_def){
			.md_index = mp->index[m],
			.md_datatype = mdefs[m].datatype,
			.md_flags = mdefs[m].flags,
			.md_id = mdefs[m].id,
			.md_name = mdefs[m].name,
			.md_units = mdefs[m].units,
			.md_description = "scenario metric",
			.md_domain = "time",
			.md_colour = "#336699",
			.md_group = "Scenario",
			.md_plugin = "libscenario.so",
		};
		if ((rc = put(s, ps, &ev)))
			goto out;
	}
	for (int e = 0; e < 1 + mp->slow_plugin; e++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_PLUGIN_ERROR;
		ev.ev_ts = t0 + 11;
		ev.ev_u.perr.pe_plugin = e ? "libslow.so" : "libbroken.so";
		ev.ev_u.perr.pe_message =
			e ? "start function failed"
			  : "could not open /sys/class/powercap";
		if ((rc = put(s, ps, &ev)))
			goto out;
	}
	for (uint32_t t = 0; t < mp->threads; t++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
		ev.ev_ts = t0 + 100 + t;
		ev.ev_u.tbegin.tb_tid = mp->pid + t;
		ev.ev_u.tbegin.tb_creator = t ? mp->pid : 0;
		ev.ev_u.tbegin.tb_name = t ? "worker" : "synthapp";
		if ((rc = put(s, ps, &ev)))
			goto out;
	}
	for (uint32_t k = 0; k < mp->nticks; k++) {
		uint32_t t = k % mp->threads;
		if ((rc = scenario_tick(s, mp, &st[t], k, &flaky_errors)))
			goto out;
	}
	for (uint32_t t = 0; t < mp->threads; t++) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_THREAD_END;
		ev.ev_ts = tend + 1 + t;
		ev.ev_u.tend.te_tid = mp->pid + t;
		ev.ev_u.tend.te_samples = 3 * ((mp->nticks + mp->threads - 1 - t) /
					       mp->threads);
		ev.ev_u.tend.te_cpu_ns = ev.ev_u.tend.te_samples * 1000000;
		ev.ev_u.tend.te_wall_ns = tend - t0;
		if ((rc = put(s, ps, &ev)))
			goto out;
	}
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
	ev.ev_ts = tend + 4;
	ev.ev_u.exit.px_pid = mp->pid;
	ev.ev_u.exit.px_how = MAPLOG_EXIT_NORMAL;
	if ((rc = put(s, ps, &ev)))
		goto out;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_CLOSE;
	ev.ev_ts = tend + 5;
	ev.ev_u.close.cl_samples = 3 * mp->nticks;
	ev.ev_u.close.cl_threads = mp->threads;
	if ((rc = put(s, ps, &ev)))
		goto out;
	/* threads' chunks first, the process stream last: every value is
	 * in the file before its definition */
	for (uint32_t t = 0; t <= mp->threads; t++)
		if ((rc = flush(s, &st[t], !s->o->leave_open, 1)))
			goto out;
out:
	for (uint32_t t = 0; t <= mp->threads; t++)
		stream_free(&st[t]);
	return rc;
}

static int metrics_scenario(struct synth *s)
{
	struct logsynth_opts o = *s->o;
	o.all_types = 0; /* proc_records: no metrics of its own */
	s->o = &o;
	int rc = 0;
	for (size_t p = 0; p < sizeof(mprocs) / sizeof(*mprocs) && !rc; p++)
		rc = scenario_proc(s, &mprocs[p]);
	return rc;
}

int logsynth_write(const struct logsynth_opts *o, logsynth_sink sink,
		   void *ctx, struct logsynth_result *res)
{
	struct logsynth_result dummy;
	struct synth s;
	int rc = 0;
	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	if (!o || o->processes < 1 || o->threads < 1 ||
	    o->threads > MAX_THREADS || o->distinct_stacks < 1 ||
	    o->min_depth < 1 || o->max_depth < o->min_depth ||
	    o->max_depth > MAPLOG_MAX_FRAMES || (o->chunk_size & 7) ||
	    o->chunk_size < 1024 || o->data_offset < MAPLOG_FILE_HEADER_SIZE ||
	    (o->data_offset & 7))
		return MAPS_EINVAL;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.sink = sink;
	s.ctx = ctx;
	s.res = res;
	s.rng.s = o->seed;
	s.stacks = malloc((size_t)o->distinct_stacks * o->max_depth *
			  sizeof(uint64_t));
	s.depth = malloc((size_t)o->distinct_stacks * sizeof(uint32_t));
	struct stream *ts = calloc(o->threads + 1, sizeof(*ts));
	uint8_t *hdr = calloc(1, o->data_offset);
	if (!s.stacks || !s.depth || !ts || !hdr) {
		rc = MAPS_ENOMEM;
		goto out;
	}
	make_modules(&s);
	mapw_file_header(hdr, o->data_offset);
	if ((rc = emit(&s, hdr, o->data_offset)))
		goto out;
	if (o->metrics) {
		rc = metrics_scenario(&s);
		goto out;
	}

	struct maplog_ev ev_job[LOGSYNTH_JOB_MAX];
	uint64_t per_proc = o->samples / o->processes;
	uint32_t base = o->pid_base ? o->pid_base : 4000;
	for (uint32_t p = 0; p < o->processes; p++) {
		uint32_t pid = base + p;
		uint64_t t0 = 1000000000ull * (1 + p);
		uint64_t nsamp = per_proc + (p == 0 ? o->samples % o->processes
						    : 0);
		make_stacks(&s);
		struct stream *ps = &ts[o->threads];
		if ((rc = stream_init(&s, ps, pid, 0, t0)))
			goto out;
		for (uint32_t t = 0; t < o->threads; t++)
			if ((rc = stream_init(&s, &ts[t], pid, pid + t, t0)))
				goto out;
		if ((rc = proc_records(&s, ps, pid, p ? base : 1, t0)))
			goto out;
		struct maplog_ev ev;
		for (uint32_t t = 0; t < o->threads; t++) {
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
			ev.ev_ts = t0 + 100 + t;
			ev.ev_u.tbegin.tb_tid = pid + t;
			ev.ev_u.tbegin.tb_creator = t ? pid : 0;
			ev.ev_u.tbegin.tb_name = t ? "worker" : "synthapp";
			if ((rc = put(&s, ps, &ev)))
				goto out;
		}
		for (uint64_t i = 0; i < nsamp; i++) {
			uint32_t t = (uint32_t)(i % o->threads);
			struct stream *st = &ts[t];
			uint64_t w = 1000000 - 20000 + rnd_below(&s.rng, 40000);
			st->ts += w + rnd_below(&s.rng, 5000);
			uint32_t k = rnd_skew(&s.rng, o->distinct_stacks);
			uint64_t *stk = s.stacks + (size_t)k * o->max_depth;
			uint32_t d = s.depth[k];
			uint64_t saved = stk[0];
			/* hot leaves move around inside their function */
			if (rnd_below(&s.rng, 4) == 0)
				stk[0] += 4 * rnd_below(&s.rng, 16);
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_SAMPLE;
			ev.ev_ts = st->ts;
			ev.ev_u.sample.sa_weight = w;
			ev.ev_u.sample.sa_npc = d;
			ev.ev_u.sample.sa_pc = stk;
			rc = put(&s, st, &ev);
			for (uint32_t f = 0; f < d; f++)
				res->pc_sum += stk[f];
			stk[0] = saved;
			if (rc)
				goto out;
			res->weight_sum += w;
			res->frames += d;
			if (o->job &&
			    (rc = put_all(&s, st, ev_job,
					  logsynth_job_values(rnd(&s.rng),
							      st->ts, i,
							      ev_job))))
				goto out;
			if (!o->all_types)
				continue;
			if (i % 16 == (uint64_t)t) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
				ev.ev_ts = st->ts;
				ev.ev_u.mval.mv_index = (uint32_t)(i / 16) & 1;
				if (ev.ev_u.mval.mv_index) {
					ev.ev_u.mval.mv_kind =
						MAPLOG_VALUE_DOUBLE;
					ev.ev_u.mval.mv_v.dbl = 0.5 * (double)i;
				} else {
					ev.ev_u.mval.mv_kind = MAPLOG_VALUE_U64;
					ev.ev_u.mval.mv_v.u64 = 1000 * i;
				}
				if ((rc = put(&s, st, &ev)))
					goto out;
			}
			if (i % 997 == 5) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_DROP;
				ev.ev_ts = st->ts;
				ev.ev_u.drop.dr_tid = pid + t;
				ev.ev_u.drop.dr_reason = MAPLOG_DROP_IN_SAMPLER;
				ev.ev_u.drop.dr_count = 1;
				if ((rc = put(&s, st, &ev)))
					goto out;
			}
			if (i % 1999 == 7) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_MARK;
				ev.ev_ts = st->ts;
				ev.ev_u.mark.mk_tid = pid + t;
				ev.ev_u.mark.mk_value = i;
				ev.ev_u.mark.mk_text = "phase";
				if ((rc = put(&s, st, &ev)))
					goto out;
			}
			if (i % 4001 == 9) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
				ev.ev_ts = st->ts;
				ev.ev_u.mval.mv_index = 1;
				ev.ev_u.mval.mv_kind = MAPLOG_VALUE_NONE;
				if ((rc = put(&s, st, &ev)))
					goto out;
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_METRIC_ERROR;
				ev.ev_ts = st->ts;
				ev.ev_u.merr.me_index = 1;
				ev.ev_u.merr.me_count = 1 + i / 4001;
				ev.ev_u.merr.me_message = "read failed";
				if ((rc = put(&s, st, &ev)))
					goto out;
			}
		}
		uint64_t tend = t0;
		for (uint32_t t = 0; t < o->threads; t++) {
			if (ts[t].ts > tend)
				tend = ts[t].ts;
			if (o->all_types && t == 1) {
				/* the worker renamed itself */
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_THREAD_NAME;
				ev.ev_ts = ts[t].ts + 1;
				ev.ev_u.tname.tn_tid = pid + t;
				ev.ev_u.tname.tn_name = "renamed";
				if ((rc = put(&s, ps, &ev)))
					goto out;
			}
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_THREAD_END;
			ev.ev_ts = ts[t].ts + 1;
			ev.ev_u.tend.te_tid = pid + t;
			ev.ev_u.tend.te_samples = nsamp / o->threads;
			ev.ev_u.tend.te_cpu_ns = ts[t].ts - t0;
			ev.ev_u.tend.te_wall_ns = ts[t].ts - t0;
			if ((rc = put(&s, ps, &ev)))
				goto out;
		}
		if (o->all_types) {
			for (uint32_t c = 1; p == 0 && c < o->processes; c++) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_PROC_FORK;
				ev.ev_ts = tend + c;
				ev.ev_u.fork.fk_ppid = pid;
				ev.ev_u.fork.fk_pid = base + c;
				if ((rc = put(&s, ps, &ev)))
					goto out;
			}
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_MAP_OUT;
			ev.ev_ts = tend + 2;
			ev.ev_u.map_out.mo_start = s.mod[3].base;
			ev.ev_u.map_out.mo_end = s.mod[3].base + s.mod[3].size;
			ev.ev_u.map_out.mo_seq = 3;
			if ((rc = put(&s, ps, &ev)))
				goto out;
			if (p + 1 == o->processes) {
				memset(&ev, 0, sizeof(ev));
				ev.ev_type = MAPLOG_TYPE_PROC_EXEC;
				ev.ev_ts = tend + 3;
				ev.ev_u.exec.ex_pid = pid;
				ev.ev_u.exec.ex_image = 1;
				ev.ev_u.exec.ex_path = "/bin/true";
				if ((rc = put(&s, ps, &ev)))
					goto out;
			}
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_MPI_CALLS;
			ev.ev_ts = tend + 3;
			ev.ev_u.mpi.mc_function = "MPI_Barrier";
			ev.ev_u.mpi.mc_calls = 3 + p;
			ev.ev_u.mpi.mc_time_ns = 1000000 * (p + 1);
			if ((rc = put(&s, ps, &ev)))
				goto out;
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
			ev.ev_ts = tend + 4;
			ev.ev_u.exit.px_pid = pid;
			ev.ev_u.exit.px_how = p ? MAPLOG_EXIT_SIGNALED
						: MAPLOG_EXIT_NORMAL;
			ev.ev_u.exit.px_code = p ? 9 : 0;
			if ((rc = put(&s, ps, &ev)))
				goto out;
			/* the process's rank in a job of o->processes */
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_JOB;
			ev.ev_ts = tend + 4;
			ev.ev_u.job.jb_rank = (int32_t)p;
			ev.ev_u.job.jb_size = o->processes;
			ev.ev_u.job.jb_job_id = "4211.0";
			ev.ev_u.job.jb_launcher = "slurm";
			ev.ev_u.job.jb_source = "SLURM_PROCID";
			if ((rc = put(&s, ps, &ev)))
				goto out;
		}
		if (o->job &&
		    (rc = put_all(&s, ps, ev_job,
				  logsynth_job_calls(o, tend + 3, ev_job))))
			goto out;
		/* a file a substrate plugin wrote (MANIFEST) */
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MANIFEST;
		ev.ev_ts = tend + 5;
		ev.ev_u.manifest.mf_plugin = "otf2";
		ev.ev_u.manifest.mf_path = "/tmp/run.maplog.otf2/traces.otf2";
		ev.ev_u.manifest.mf_description = "OTF2 trace";
		if ((rc = put(&s, ps, &ev)))
			goto out;
		/* a perf map copied at the end (mapsample-log(5), FILE) */
		static const uint8_t pmap[] = "7f0000001000 40 jit_fn\n";
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_FILE;
		ev.ev_ts = tend + 5;
		ev.ev_u.file.fi_pid = pid;
		ev.ev_u.file.fi_kind = "perf-map";
		ev.ev_u.file.fi_name = "/tmp/perf.map";
		ev.ev_u.file.fi_data = pmap;
		ev.ev_u.file.fi_len = sizeof(pmap) - 1;
		if ((rc = put(&s, ps, &ev)))
			goto out;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_CLOSE;
		ev.ev_ts = tend + 5;
		ev.ev_u.close.cl_samples = nsamp;
		ev.ev_u.close.cl_threads = o->threads;
		if ((rc = put(&s, ps, &ev)))
			goto out;
		int seal = !o->leave_open;
		for (uint32_t t = 0; t <= o->threads; t++) {
			if ((rc = flush(&s, &ts[t], seal, 1)))
				goto out;
			stream_free(&ts[t]);
			memset(&ts[t], 0, sizeof(ts[t]));
		}
	}
out:
	if (ts)
		for (uint32_t t = 0; t <= o->threads; t++)
			stream_free(&ts[t]);
	free(ts);
	free(hdr);
	free(s.stacks);
	free(s.depth);
	return rc;
}

void logsynth_defaults(struct logsynth_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->samples = 10000;
	o->processes = 1;
	o->threads = 4;
	o->distinct_stacks = 2000;
	o->min_depth = 8;
	o->max_depth = 32;
	o->chunk_size = 1024 * 1024;
	o->data_offset = 64;
	o->seed = 1;
	o->all_types = 1;
}

static int fd_sink(void *ctx, const void *buf, size_t len)
{
	int fd = *(int *)ctx;
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int logsynth_to_fd(const struct logsynth_opts *o, int fd,
		   struct logsynth_result *res)
{
	return logsynth_write(o, fd_sink, &fd, res);
}

struct membuf {
	uint8_t *p;
	size_t len, cap;
};

static int mem_sink(void *ctx, const void *buf, size_t len)
{
	struct membuf *m = ctx;
	if (m->cap - m->len < len) {
		size_t cap = m->cap ? m->cap : 65536;
		while (cap - m->len < len)
			cap *= 2;
		uint8_t *n = realloc(m->p, cap);
		if (!n)
			return -1;
		m->p = n;
		m->cap = cap;
	}
	memcpy(m->p + m->len, buf, len);
	m->len += len;
	return 0;
}

int logsynth_to_mem(const struct logsynth_opts *o, uint8_t **out,
		    size_t *len, struct logsynth_result *res)
{
	struct membuf m = {0};
	int rc = logsynth_write(o, mem_sink, &m, res);
	if (rc) {
		free(m.p);
		return rc;
	}
	*out = m.p;
	*len = m.len;
	return 0;
}
