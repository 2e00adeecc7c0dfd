/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the report's metric statistics (lib/model/metrics.c),
 * driven with records as the parser returns them: plain metrics, rates
 * from deltas and times (the first value of a process has none), values
 * out of time order inside and beyond the reordering window, values
 * before their definition, per-process index numbering, NONE values,
 * error counts, the bounds on memory, and keeping the values of some
 * processes only (metrics_keep, for the report's filters).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "model/metrics.h"
#include "model/model.h"
#include "report/out/text.h"

#define S 1000000000ull /* ns per second */

static struct rmetrics X;
static struct model M; /* no process: pids shown as they are */

static void setup(void)
{
	metrics_init(&X);
}

static void teardown(void)
{
	metrics_free(&X);
}

static void def(uint32_t pid, uint32_t index, const char *id,
		const char *units, uint32_t flags)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
	ev.ev_pid = pid;
	ev.ev_u.mdef = (struct maplog_ev_metric_def){
		.md_index = index,
		.md_datatype = MAPLOG_DT_DOUBLE,
		.md_flags = flags,
		.md_id = id,
		.md_name = "",
		.md_units = units,
		.md_description = "",
		.md_domain = "time",
		.md_colour = "",
		.md_group = "",
		.md_plugin = "libt.so",
	};
	metrics_fold(&X, &ev);
}

static void val_kind(uint32_t pid, uint32_t index, uint64_t ts,
		     uint32_t kind, double v)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_pid = pid;
	ev.ev_ts = ts;
	ev.ev_u.mval.mv_index = index;
	ev.ev_u.mval.mv_kind = kind;
	if (kind == MAPLOG_VALUE_U64)
		ev.ev_u.mval.mv_v.u64 = (uint64_t)v;
	else
		ev.ev_u.mval.mv_v.dbl = v;
	metrics_fold(&X, &ev);
}

static void val(uint32_t pid, uint32_t index, uint64_t ts, double v)
{
	val_kind(pid, index, ts, MAPLOG_VALUE_DOUBLE, v);
}

static void merr(uint32_t pid, uint32_t index, uint64_t ts, uint64_t count,
		 const char *msg)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_ERROR;
	ev.ev_pid = pid;
	ev.ev_ts = ts;
	ev.ev_u.merr.me_index = index;
	ev.ev_u.merr.me_count = count;
	ev.ev_u.merr.me_message = msg;
	metrics_fold(&X, &ev);
}

static void perr(uint32_t pid, const char *plugin, const char *msg)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PLUGIN_ERROR;
	ev.ev_pid = pid;
	ev.ev_u.perr.pe_plugin = plugin;
	ev.ev_u.perr.pe_message = msg;
	metrics_fold(&X, &ev);
}

static struct rmsummary row(size_t i)
{
	struct rmsummary r;
	ck_assert_uint_lt(i, X.nm);
	metrics_summary(&X, i, &r);
	return r;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}

#define NEAR(a, b) ck_assert_msg(near((a), (b)), "%s = %.17g, expected %.17g", \
				 #a, (double)(a), (double)(b))

START_TEST(metrics_plain)
{
	def(10, 0, "cpu", "%", 0);
	val(10, 0, 3 * S, 30);
	val(10, 0, 1 * S, 10);
	val_kind(10, 0, 2 * S, MAPLOG_VALUE_NONE, 0);
	val(10, 0, 4 * S, 80);
	val(10, 0, 5 * S, NAN); /* a getter's NaN is no value */
	val_kind(10, 0, 6 * S, MAPLOG_VALUE_U64, 40);
	struct rmsummary r = row(0);
	ck_assert_int_eq(r.rate, 0);
	ck_assert_uint_eq(r.values, 4);
	ck_assert_uint_eq(r.none, 2);
	ck_assert_uint_eq(r.procs, 1);
	ck_assert(r.have_minmax && r.have_mean);
	NEAR(r.min, 10);
	NEAR(r.max, 80);
	NEAR(r.mean, 40);
	ck_assert_uint_eq(r.late, 0);
	/* plain series keep no window */
	ck_assert_ptr_null(X.s[0].win.pt);
}
END_TEST

/* A rate series: value k at time t[k] is the delta since t[k-1]. */
static const uint64_t T[] = {10 * S, 10 * S + S / 10, 10 * S + 3 * S / 10,
			     11 * S, 11 * S + S / 2, 13 * S};
static const double D[] = {500, 100, 400, 0, 1000, 6000};
#define NT (sizeof(T) / sizeof(*T))

static void check_rate_row(void)
{
	struct rmsummary r = row(0);
	ck_assert_int_eq(r.rate, 1);
	ck_assert_uint_eq(r.values, NT);
	/* rates: 100/0.1, 400/0.2, 0/0.7, 1000/0.5, 6000/1.5 */
	NEAR(r.min, 0);
	NEAR(r.max, 4000);
	/* mean over time: deltas after the first over first to last */
	NEAR(r.mean, (100.0 + 400 + 0 + 1000 + 6000) / 3.0);
	/* the total includes the first delta */
	NEAR(r.total, 8000);
	ck_assert_uint_eq(r.late, 0);
}

START_TEST(metrics_rate_in_order)
{
	def(10, 3, "io", "B/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	for (size_t k = 0; k < NT; k++)
		val(10, 3, T[k], D[k]);
	check_rate_row();
}
END_TEST

START_TEST(metrics_rate_interleaved)
{
	/* two threads' chunks: the even values, then the odd ones */
	def(10, 3, "io", "B/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	for (size_t k = 0; k < NT; k += 2)
		val(10, 3, T[k], D[k]);
	for (size_t k = 1; k < NT; k += 2)
		val(10, 3, T[k], D[k]);
	check_rate_row();
	/* asking twice gives the same; the window is not consumed */
	check_rate_row();
}
END_TEST

START_TEST(metrics_rate_reversed)
{
	def(10, 3, "io", "B/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	for (size_t k = NT; k-- > 0;)
		val(10, 3, T[k], D[k]);
	check_rate_row();
}
END_TEST

START_TEST(metrics_none_keeps_interval)
{
	/* no value at 2 s: the delta at 3 s covers 1 s to 3 s */
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	val(10, 0, 1 * S, 7);
	val_kind(10, 0, 2 * S, MAPLOG_VALUE_NONE, 0);
	val(10, 0, 3 * S, 100);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.values, 2);
	ck_assert_uint_eq(r.none, 1);
	NEAR(r.min, 50);
	NEAR(r.max, 50);
	NEAR(r.mean, 50);
	NEAR(r.total, 107);
}
END_TEST

START_TEST(metrics_first_value_has_no_rate)
{
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	val(10, 0, 1 * S, 1e9);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.values, 1);
	ck_assert_int_eq(r.have_minmax, 0);
	ck_assert_int_eq(r.have_mean, 0);
	NEAR(r.total, 1e9);
}
END_TEST

START_TEST(metrics_leading_none_starts_interval)
{
	/* the getter's first call (no value, at 1 s) starts the first
	 * interval; values arrive out of time order */
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	val(10, 0, 4 * S, 30);
	val(10, 0, 3 * S, 20);
	val_kind(10, 0, 1 * S, MAPLOG_VALUE_NONE, 0);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.values, 2);
	ck_assert_uint_eq(r.none, 0); /* not worth a note */
	NEAR(r.min, 10);
	NEAR(r.max, 30);
	NEAR(r.mean, 50.0 / 3);
	NEAR(r.total, 50);
}
END_TEST

START_TEST(metrics_window_bounds)
{
	/* more values than the window, in order, then one that is too
	 * old to place: counted late, in TOTAL and VALUES, not in MAX */
	uint64_t n = METRICS_WINDOW + 500;
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	val(10, 0, 1 * S, 1);
	for (uint64_t k = 1; k <= n; k++)
		val(10, 0, (1 + k) * S, (double)(k % 7));
	val(10, 0, 2 * S + S / 2, 1000);
	ck_assert_uint_le(X.s[0].win.cap, METRICS_WINDOW);
	ck_assert_uint_le(X.s[0].win.n, METRICS_WINDOW);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.late, 1);
	ck_assert_uint_eq(r.values, n + 2);
	NEAR(r.max, 6);
	NEAR(r.min, 0);
	double sum = 1 + 1000;
	for (uint64_t k = 1; k <= n; k++)
		sum += (double)(k % 7);
	NEAR(r.total, sum);
	/* the late value is inside first..last: the exact mean has it */
	NEAR(r.mean, (sum - 1) / (double)n);
}
END_TEST

START_TEST(metrics_window_reorders_chunks)
{
	/* four threads, each writing every fourth value in chunks of 500
	 * values; the file has thread 0's first chunk, then thread 1's...
	 * All within the window: the rates are exact. */
	enum { NTH = 4, PER = 500, CH = 3 };
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	for (int c = 0; c < CH; c++)
		for (int t = 0; t < NTH; t++)
			for (int i = 0; i < PER; i++) {
				uint64_t k = (uint64_t)(c * PER + i) * NTH +
					     (uint64_t)t;
				/* interval (k % 3 + 1) ms, rate 1000 + k */
				uint64_t ts = 0;
				for (uint64_t j = 1; j <= k; j++)
					ts += (j % 3 + 1) * 1000000;
				double d = k ? (double)(1000 + k) *
						       (double)(k % 3 + 1) / 1000
					     : 5;
				val(10, 0, S + ts, d);
			}
	uint64_t n = (uint64_t)CH * NTH * PER;
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.late, 0);
	ck_assert_uint_eq(r.values, n);
	NEAR(r.min, 1001);
	NEAR(r.max, 1000.0 + (double)(n - 1));
}
END_TEST

START_TEST(metrics_value_before_definition)
{
	val(10, 2, 1 * S, 5);
	val(10, 2, 2 * S, 7);
	ck_assert_uint_eq(X.nm, 0);
	def(10, 2, "rss", "B", 0);
	ck_assert_ptr_null(X.s[0].win.pt); /* a plain metric: window gone */
	val(10, 2, 3 * S, 9);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.values, 3);
	NEAR(r.min, 5);
	NEAR(r.max, 9);
	NEAR(r.mean, 7);

	/* and a rate metric defined late keeps its rates */
	val(11, 0, 2 * S, 300);
	val(11, 0, 1 * S, 40);
	def(11, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	r = row(1);
	NEAR(r.min, 300);
	NEAR(r.total, 340);
}
END_TEST

/* One metric, indexes 0 and 5 in two processes, another metric only in
 * the first.  "io" (a rate): process 10 rates 10, 30 over 1 s each (mean
 * 20), process 20 one rate of 100 over 2 s; "cpu": 50 in process 10,
 * 10 and 20 in process 20. */
static void two_processes(void)
{
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	def(10, 1, "cpu", "%", 0);
	def(20, 5, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	def(20, 0, "cpu", "%", 0);
	val(10, 0, 1 * S, 99);
	val(10, 0, 2 * S, 10);
	val(10, 0, 3 * S, 30);
	val(20, 5, 1 * S, 1);
	val(20, 5, 3 * S, 200);
	val(10, 1, 1 * S, 50);
	val(20, 0, 1 * S, 10);
	val(20, 0, 2 * S, 20);
}

START_TEST(metrics_processes)
{
	two_processes();
	ck_assert_uint_eq(X.nm, 2);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.procs, 2);
	ck_assert_uint_eq(r.values, 5);
	NEAR(r.min, 10);
	NEAR(r.max, 100);
	NEAR(r.mean, (20.0 + 100) / 2);
	NEAR(r.total, 99 + 10 + 30 + 1 + 200);
	r = row(1);
	ck_assert_uint_eq(r.procs, 2);
	NEAR(r.mean, (50 + 15) / 2.0);
	NEAR(r.min, 10);
	NEAR(r.max, 50);
	/* same pid, new exec image: a process image of its own */
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_pid = 10;
	ev.ev_image = 1;
	ev.ev_ts = 9 * S;
	ev.ev_u.mval.mv_index = 1;
	ev.ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
	ev.ev_u.mval.mv_v.dbl = 1;
	metrics_fold(&X, &ev);
	r = row(1);
	ck_assert_uint_eq(r.values, 3); /* image 1 defined nothing */
}
END_TEST

START_TEST(metrics_summary_of_process)
{
	/* each process's summary alone, and every process's with
	 * METRICS_ALL_PIDS */
	two_processes();
	struct rmsummary r;
	metrics_summary_of(&X, 0, 10, &r);
	ck_assert_uint_eq(r.procs, 1);
	ck_assert_uint_eq(r.values, 3);
	NEAR(r.min, 10);
	NEAR(r.max, 30);
	NEAR(r.mean, 20);
	NEAR(r.total, 99 + 10 + 30);
	metrics_summary_of(&X, 0, 20, &r);
	ck_assert_uint_eq(r.values, 2);
	NEAR(r.mean, 100);
	NEAR(r.total, 201);
	metrics_summary_of(&X, 1, 20, &r);
	ck_assert_uint_eq(r.procs, 1);
	NEAR(r.mean, 15);
	NEAR(r.min, 10);
	NEAR(r.max, 20);
	metrics_summary_of(&X, 1, 30, &r); /* no such process */
	ck_assert_uint_eq(r.values, 0);
	ck_assert_uint_eq(r.procs, 0);
	metrics_summary_of(&X, 1, METRICS_ALL_PIDS, &r);
	ck_assert_uint_eq(r.procs, 2);
	NEAR(r.mean, (50 + 15) / 2.0);
}
END_TEST

START_TEST(metrics_errors)
{
	def(10, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	def(20, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	/* running counts, out of order */
	merr(10, 0, 5 * S, 3, "read failed");
	merr(10, 0, 2 * S, 1, "read failed");
	merr(10, 0, 4 * S, 2, "read failed");
	merr(20, 0, 1 * S, 1, "first of all");
	merr(20, 0, 3 * S, 2, "first of all");
	merr(30, 7, 1 * S, 4, "orphan");
	perr(10, "libx.so", "no device");
	perr(20, "libx.so", "no device");
	perr(20, "liby.so", "start failed");
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.errors, 5);
	ck_assert_str_eq(r.err_msg, "first of all");
	ck_assert_uint_eq(X.npe, 2);
	ck_assert_uint_eq(X.pe[0].count, 2);
	ck_assert_uint_eq(X.pe[1].count, 1);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	text_metrics(&X, &M, f);
	fclose(f);
	ck_assert_msg(strstr(buf, "\nMetric plugin errors\n"
				  "  libx.so: no device (2 processes)\n"
				  "  liby.so: start failed (1 process)\n"
				  "  io: 5 errors, first: first of all\n"
				  "  metric #7 of process 30 (no definition): "
				  "4 errors, first: orphan\n"),
		      "%s", buf);
	free(buf);
}
END_TEST

/* A metric error of a process whose pid an earlier log had: its line
 * names the pid on its host and its log (model_pid_str()), not the
 * number the model keys it under. */
START_TEST(metrics_errors_pid_shown)
{
	struct rproc p = {.pid = MODEL_PID_REMAP, .os_pid = 30, .log = 1,
			  .rank = -1};
	struct pidkey pm = {1, 30, MODEL_PID_REMAP};
	struct model m;
	memset(&m, 0, sizeof(m));
	m.procs = &p;
	m.nprocs = 1;
	m.pk.v = &pm;
	m.pk.n = 1;
	merr(MODEL_PID_REMAP, 7, 1 * S, 4, "orphan");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	text_metrics(&X, &m, f);
	fclose(f);
	ck_assert_msg(strstr(buf, "  metric #7 of process 30 (log 2) (no "
				  "definition): 4 errors, first: orphan\n"),
		      "%s", buf);
	free(buf);
}
END_TEST

START_TEST(metrics_report_empty_and_orphans)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	text_metrics(&X, &M, f);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	free(buf);

	val(10, 4, 1 * S, 1);
	val(10, 4, 2 * S, 1);
	val(10, 5, 2 * S, 1);
	f = open_memstream(&buf, &len);
	text_metrics(&X, &M, f);
	fclose(f);
	ck_assert_str_eq(buf, "\nMetrics\n  3 values of 2 metrics with no "
			      "definition in the logs left out (damaged "
			      "log?)\n");
	free(buf);
}
END_TEST

START_TEST(metrics_memory_bounded)
{
	/* a million values over 3 processes and 2 metrics: the series and
	 * their windows stay as they are */
	for (uint32_t p = 0; p < 3; p++) {
		def(p, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
		def(p, 1, "cpu", "%", 0);
	}
	uint64_t ncpu = 0;
	for (uint64_t k = 0; k < 1000000; k++) {
		val((uint32_t)(k % 3), (uint32_t)(k / 3 % 2), S + k * 1000,
		    (double)(k % 11));
		ncpu += k / 3 % 2;
	}
	ck_assert_uint_eq(X.ns, 6);
	ck_assert_uint_eq(X.nm, 2);
	for (size_t i = 0; i < X.ns; i++)
		ck_assert_uint_le(X.s[i].win.cap, METRICS_WINDOW);
	struct rmsummary r = row(1);
	ck_assert_uint_eq(r.values, ncpu);
	NEAR(r.max, 10);
}
END_TEST

START_TEST(metrics_cells)
{
	/* 200000 values 50 us apart over 10 s in two processes, in no time
	 * order: each is in the cell of its time, the cells hold all of
	 * them with the value at each cell's earliest time, and there are
	 * at most METRICS_RUN_CELLS cells over the run (so they were
	 * widened, and hold several values each) */
	def(1, 0, "cpu", "%", 0);
	def(2, 0, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	size_t most = 0;
	for (uint64_t k = 0; k < 200000; k++) {
		uint64_t tick = k * 7919 % 200000;
		val((uint32_t)(1 + k % 2), 0, S + tick * 50000,
		    (double)(tick % 13));
	}
	ck_assert_uint_eq(X.ns, 2);
	ck_assert_uint_gt(X.cshift, 0);
	ck_assert_uint_le(X.ncells, METRICS_MAX_CELLS);
	for (size_t i = 0; i < X.ns; i++) {
		const struct rmseries *s = &X.s[i];
		uint64_t n = 0;
		double sum = 0;
		ck_assert_uint_le(s->nc, METRICS_RUN_CELLS);
		ck_assert_uint_eq(s->c0, s->first_ts >> X.cshift);
		ck_assert_uint_eq(s->c0 + s->nc - 1, s->last_ts >> X.cshift);
		for (size_t j = 0; j < s->nc; j++) {
			const struct rmcell *c = &s->cells[j];
			if (!c->n)
				continue;
			ck_assert_uint_eq(c->min_ts >> X.cshift, s->c0 + j);
			ck_assert_uint_eq(c->max_ts >> X.cshift, s->c0 + j);
			ck_assert(c->min_v ==
				  (double)((c->min_ts - S) / 50000 % 13));
			if (c->n > most)
				most = c->n;
			n += c->n;
			sum += c->sum;
		}
		ck_assert_uint_eq(n, s->n);
		ck_assert(sum == s->sum);
	}
	ck_assert_uint_ge(most, 2);
}
END_TEST

static int keep_pid20(void *ctx, uint32_t pid, uint32_t image)
{
	(void)ctx;
	(void)image;
	return pid == 20;
}

/* metrics_keep: the series and plugin errors of the processes kept
 * only; definitions stay; values folded later find their series. */
START_TEST(metrics_keep_processes)
{
	def(10, 0, "cpu", "%", 0);
	def(20, 3, "cpu", "%", 0);
	def(10, 1, "io", "/s", MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME);
	val(10, 0, 1 * S, 90);
	val(10, 0, 2 * S, 70);
	val(20, 3, 1 * S, 10);
	val(20, 3, 2 * S, 30);
	val(10, 1, 1 * S, 5);
	val(10, 1, 2 * S, 5);
	merr(10, 0, 2 * S, 4, "of 10");
	perr(10, "libgone.so", "no device");
	perr(10, "libhalf.so", "no file");
	perr(20, "libhalf.so", "no file");
	ck_assert_uint_eq(row(0).procs, 2);
	ck_assert_int_eq(metrics_keep(&X, keep_pid20, NULL), 0);
	ck_assert_uint_eq(X.nm, 2);
	struct rmsummary r = row(0);
	ck_assert_uint_eq(r.procs, 1);
	ck_assert_uint_eq(r.values, 2);
	NEAR(r.min, 10);
	NEAR(r.max, 30);
	NEAR(r.mean, 20);
	ck_assert_uint_eq(r.errors, 0);
	r = row(1);
	ck_assert_uint_eq(r.values, 0);
	ck_assert(!r.have_mean && !r.have_minmax);
	ck_assert_uint_eq(X.npe, 1);
	ck_assert_str_eq(X.pe[0].plugin, "libhalf.so");
	ck_assert_uint_eq(X.pe[0].count, 1);
	/* the index was made anew: the series of (20, 3) again */
	size_t ns = X.ns;
	val(20, 3, 3 * S, 50);
	ck_assert_uint_eq(X.ns, ns);
	ck_assert_uint_eq(row(0).values, 3);
	NEAR(row(0).max, 50);
}
END_TEST

/* What window_add_placed() told: each value placed, with the time of
 * the one placed before it. */
struct placed_log {
	uint64_t ts[16], prev[16];
	double v[16];
	int have_prev[16];
	int n;
};

static void placed_one(void *ctx, uint64_t ts, double v, int have_prev,
		       uint64_t prev)
{
	struct placed_log *l = ctx;
	ck_assert_int_lt(l->n, 16);
	l->ts[l->n] = ts;
	l->v[l->n] = v;
	l->have_prev[l->n] = have_prev;
	l->prev[l->n++] = prev;
}

/* The placed form of the window: values out of order come out in time
 * order, each with its predecessor's time (none for the first); a value
 * older than one placed is late and never told; draining tells the rest
 * and leaves the window as it was. */
START_TEST(metrics_window_placed)
{
	struct window w = {0};
	struct placed_log l = {0};
	static const uint64_t ts[] = {30, 10, 20, 40};
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(window_add_placed(&w, ts[i], (double)i, placed_one,
						   &l),
				 0);
	ck_assert_int_eq(l.n, 0); /* all held back: the window is not full */
	window_drain_placed(&w, placed_one, &l);
	ck_assert_int_eq(l.n, 4);
	static const uint64_t want[] = {10, 20, 30, 40};
	static const double wv[] = {1, 2, 0, 3};
	for (int i = 0; i < 4; i++) {
		ck_assert_uint_eq(l.ts[i], want[i]);
		ck_assert(l.v[i] == wv[i]);
		ck_assert_int_eq(l.have_prev[i], i > 0);
		if (i)
			ck_assert_uint_eq(l.prev[i], want[i - 1]);
	}
	ck_assert_uint_eq(w.n, 4); /* drained on a copy */
	ck_assert_int_eq(w.have_wm, 0);
	/* fill the window: the earliest values are placed as it overflows */
	l.n = 0;
	for (uint64_t t = 100; t < 100 + WINDOW_MAX; t++)
		ck_assert_int_eq(window_add_placed(&w, t, 1, placed_one, &l), 0);
	ck_assert_int_eq(l.n, 4);
	ck_assert_uint_eq(l.ts[0], 10);
	ck_assert_uint_eq(l.ts[3], 40);
	/* 15 is older than 40, placed: late */
	ck_assert_int_eq(window_add_placed(&w, 15, 9, placed_one, &l), 0);
	ck_assert_uint_eq(w.late, 1);
	ck_assert_int_eq(l.n, 4);
	window_free(&w);
}
END_TEST

/* Compensated sums do not depend on the order of the values: 0.1 ten
 * times, 0.35 and 0.65 a hundred times each, 1e16 and -1e16 in three
 * orders give one sum, where adding up plainly gives several. */
START_TEST(metrics_sum_order)
{
	double v[212];
	size_t n = 0;
	v[n++] = 1e16;
	for (int i = 0; i < 10; i++)
		v[n++] = 0.1;
	for (int i = 0; i < 100; i++) {
		v[n++] = 0.35;
		v[n++] = 0.65;
	}
	v[n++] = -1e16;
	double sums[3], plain[3];
	for (int order = 0; order < 3; order++) {
		double hi = 0, lo = 0, p = 0;
		for (size_t i = 0; i < n; i++) {
			/* forward, backward, odd places then even */
			size_t k = order == 0   ? i
				   : order == 1 ? n - 1 - i
				   : i < n / 2  ? 2 * i + 1
						: 2 * (i - n / 2);
			metrics_sum_add(&hi, &lo, v[k]);
			p += v[k];
		}
		sums[order] = hi;
		plain[order] = p;
	}
	ck_assert(sums[0] == sums[1] && sums[1] == sums[2]);
	ck_assert(fabs(sums[0] - 101.0) < 1e-12);
	/* the plain sums differ: the case is a real one */
	ck_assert(plain[0] != plain[1] || plain[1] != plain[2]);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, metrics_plain);
	tcase_add_test(tc, metrics_rate_in_order);
	tcase_add_test(tc, metrics_rate_interleaved);
	tcase_add_test(tc, metrics_rate_reversed);
	tcase_add_test(tc, metrics_none_keeps_interval);
	tcase_add_test(tc, metrics_first_value_has_no_rate);
	tcase_add_test(tc, metrics_leading_none_starts_interval);
	tcase_add_test(tc, metrics_window_bounds);
	tcase_add_test(tc, metrics_window_reorders_chunks);
	tcase_add_test(tc, metrics_window_placed);
	tcase_add_test(tc, metrics_sum_order);
	tcase_add_test(tc, metrics_value_before_definition);
	tcase_add_test(tc, metrics_processes);
	tcase_add_test(tc, metrics_errors);
	tcase_add_test(tc, metrics_errors_pid_shown);
	tcase_add_test(tc, metrics_report_empty_and_orphans);
	tcase_add_test(tc, metrics_memory_bounded);
	tcase_add_test(tc, metrics_cells);
	tcase_add_test(tc, metrics_keep_processes);
	tcase_add_test(tc, metrics_summary_of_process);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(metrics_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
