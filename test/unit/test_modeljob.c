/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the run model's parallel-job side (lib/model/model.c):
 * JOB records fill a process's rank, job size, job id and launcher, the
 * MPI library's word (source "MPI") wins over the variables whatever the
 * order; launcher processes are left out of the totals and tables unless
 * asked for; processes of two logs with the same pid (two hosts) stay
 * two processes, and a second pass (model_reread()) keys them as the
 * model did; outname's -o patterns (lib/launch/outname.c); which run
 * a log is of (lib/model/runid.c).
 * The logs are written here with the project's encoder.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "launch/outname.h"
#include "log/mapwrite.h"
#include "model/model.h"
#include "model/runid.h"

static char tmpdir[] = "/tmp/test_modeljob-XXXXXX";

static void setup(void)
{
	strcpy(tmpdir, "/tmp/test_modeljob-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A JOB record's description for one process of a log. */
struct jobrec {
	int32_t rank;
	uint32_t size, role;
	const char *id, *launcher, *source;
};

/* One process of a log: its pid, host, JOB records, samples. */
struct lproc {
	uint32_t pid;
	const char *host, *exe;
	const struct jobrec *jobs;
	size_t njobs;
	unsigned samples;
	int64_t wall;         /* its start, seconds since the epoch */
};

enum { CHUNK = 4096, HDR = 4096 };

/* Writes a log of the n processes p at tmpdir/name; returns its path.
 * Each process: a process-stream chunk (initialize, its JOB records,
 * thread begin), then a chunk of its main thread with its samples. */
static const char *write_log(const char *name, const struct lproc *p,
			     size_t n)
{
	static char path[8][512];
	static int k;
	char *out = path[k++ % 8];
	snprintf(out, sizeof(path[0]), "%s/%s", tmpdir, name);
	size_t len = HDR + 2 * n * CHUNK;
	uint8_t *buf = calloc(1, len);
	ck_assert_ptr_nonnull(buf);
	mapw_file_header(buf, HDR);
	uint64_t ts = 1000000000;
	for (size_t i = 0; i < n; i++) {
		uint8_t *pc = buf + HDR + 2 * i * CHUNK;
		struct mapw_chunk c;
		struct mapw_chunk_id id = {p[i].pid, 0, 0, 0};
		ck_assert_int_eq(mapw_chunk_open(&c, pc, CHUNK, &id, ts, NULL),
				 0);
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_INITIALIZE;
		ev.ev_ts = ts;
		const char *argv[] = {p[i].exe, NULL};
		ev.ev_u.init.in_version_major = MAPLOG_VERSION_MAJOR;
		ev.ev_u.init.in_pid = p[i].pid;
		ev.ev_u.init.in_rate_asked = 1000;
		ev.ev_u.init.in_period_ns = 1000000;
		ev.ev_u.init.in_host = p[i].host;
		ev.ev_u.init.in_wall_sec = p[i].wall;
		ev.ev_u.init.in_exe = p[i].exe;
		ev.ev_u.init.in_argc = 1;
		ev.ev_u.init.in_argv = argv;
		ck_assert_int_eq(mapw_event(&c, &ev), 0);
		for (size_t j = 0; j < p[i].njobs; j++) {
			memset(&ev, 0, sizeof(ev));
			ev.ev_type = MAPLOG_TYPE_JOB;
			ev.ev_ts = ts + 1 + j;
			ev.ev_u.job.jb_rank = p[i].jobs[j].rank;
			ev.ev_u.job.jb_size = p[i].jobs[j].size;
			ev.ev_u.job.jb_role = p[i].jobs[j].role;
			ev.ev_u.job.jb_job_id = p[i].jobs[j].id;
			ev.ev_u.job.jb_launcher = p[i].jobs[j].launcher;
			ev.ev_u.job.jb_source = p[i].jobs[j].source;
			ck_assert_int_eq(mapw_event(&c, &ev), 0);
		}
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
		ev.ev_ts = ts + 10;
		ev.ev_u.tbegin.tb_tid = p[i].pid;
		ck_assert_int_eq(mapw_event(&c, &ev), 0);
		mapw_chunk_seal(&c);
		struct mapw_chunk_id tid = {p[i].pid, p[i].pid, 0, 0};
		ck_assert_int_eq(mapw_chunk_open(&c, pc + CHUNK, CHUNK, &tid,
						 ts, NULL),
				 0);
		for (unsigned s = 0; s < p[i].samples; s++) {
			uint64_t frames[2] = {0x401000 + i, 0x402000};
			ck_assert_int_eq(mapw_sample(&c, ts + 100 + s, 0,
						     1000000, 2, frames),
					 0);
		}
		mapw_chunk_seal(&c);
	}
	/* the header's allocation cursor: the end of the last chunk */
	uint64_t end = len;
	memcpy(buf + MAPLOG_FH_ALLOC_END, &end, 8);
	FILE *f = fopen(out, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	free(buf);
	return out;
}

static const struct rproc *find(const struct model *m, uint32_t os_pid,
				const char *host)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].os_pid == os_pid && m->procs[i].host &&
		    strcmp(m->procs[i].host, host) == 0)
			return &m->procs[i];
	return NULL;
}

START_TEST(modeljob_fields_and_mpi_wins)
{
	/* the variables say 3, MPI says 1, the variables again 3: MPI's
	 * word stands, the job id and launcher are kept */
	static const struct jobrec r1[] = {
		{3, 4, MAPLOG_JOB_APPLICATION, "77.0", "slurm", "SLURM_PROCID"},
		{1, 4, MAPLOG_JOB_APPLICATION, "77.0", "slurm", "MPI"},
		{3, 4, MAPLOG_JOB_APPLICATION, "", "", "SLURM_PROCID"},
	};
	static const struct jobrec r2[] = {
		{2, 8, MAPLOG_JOB_APPLICATION, "ns", "openmpi",
		 "OMPI_COMM_WORLD_RANK"},
	};
	const struct lproc p[] = {
		{100, "a", "/bin/app", r1, 3, 5},
		{101, "a", "/bin/app", r2, 1, 7},
		{102, "a", "/bin/serial", NULL, 0, 2},
	};
	const char *log = write_log("fields.maplog", p, 3);
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, log, NULL, NULL), LOGREAD_CLEAN);
	const struct rproc *a = find(&m, 100, "a"), *b = find(&m, 101, "a"),
			   *c = find(&m, 102, "a");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(a->rank, 1);
	ck_assert_uint_eq(a->job_size, 4);
	ck_assert_str_eq(a->job_id, "77.0");
	ck_assert_str_eq(a->launcher, "slurm");
	ck_assert_int_eq(a->is_launcher, 0);
	ck_assert_int_eq(b->rank, 2);
	ck_assert_uint_eq(b->job_size, 8);
	ck_assert_str_eq(b->job_id, "ns");
	ck_assert_int_eq(c->rank, -1);
	ck_assert_ptr_null(c->job_id);
	ck_assert_uint_eq(m.samples, 14);
	model_free(&m);
}
END_TEST

START_TEST(modeljob_launchers_left_out)
{
	static const struct jobrec l[] = {
		{-1, 0, MAPLOG_JOB_LAUNCHER, "", "openmpi", ""},
	};
	static const struct jobrec r[] = {
		{0, 1, MAPLOG_JOB_APPLICATION, "9", "openmpi",
		 "OMPI_COMM_WORLD_RANK"},
	};
	const struct lproc p[] = {
		{200, "a", "/usr/bin/orterun", l, 1, 11},
		{201, "a", "/bin/app", r, 1, 4},
	};
	const char *log = write_log("launch.maplog", p, 2);
	for (int on = 0; on < 2; on++) {
		struct model m;
		model_init(&m);
		m.launchers_on = on;
		ck_assert_int_eq(model_load(&m, log, NULL, NULL),
				 LOGREAD_CLEAN);
		model_drop_launchers(&m);
		if (on) {
			ck_assert_uint_eq(m.samples, 15);
			ck_assert_uint_eq(m.launcher_samples, 0);
			ck_assert_uint_eq(m.nprocs, 2);
			ck_assert_int_eq(find(&m, 200, "a")->is_launcher, 1);
		} else {
			ck_assert_uint_eq(m.samples, 4);
			ck_assert_uint_eq(m.launcher_samples, 11);
			ck_assert_uint_eq(m.nprocs, 1);
			ck_assert_uint_eq(m.nthreads, 1);
			ck_assert_uint_eq(m.procs[0].os_pid, 201);
			uint64_t n = 0;
			for (size_t i = 0; i < m.capstacks; i++)
				if (m.stacks[i].used)
					n += m.stacks[i].count;
			ck_assert_uint_eq(n, 4);
		}
		model_free(&m);
	}
}
END_TEST

/* A second pass's tool: samples per model pid. */
struct pass2 {
	uint32_t pid[8];
	uint64_t n[8];
	size_t k;
};

static int count_pid(void *ctx, const struct maplog_ev *ev)
{
	struct pass2 *s = ctx;
	for (size_t i = 0; i < s->k; i++)
		if (s->pid[i] == ev->ev_pid) {
			s->n[i]++;
			return 0;
		}
	ck_assert_uint_lt(s->k, 8);
	s->pid[s->k] = ev->ev_pid;
	s->n[s->k++] = 1;
	return 0;
}

START_TEST(modeljob_same_pid_two_hosts)
{
	static const struct jobrec r0[] = {
		{0, 2, MAPLOG_JOB_APPLICATION, "5.0", "slurm", "SLURM_PROCID"},
	};
	static const struct jobrec r1[] = {
		{1, 2, MAPLOG_JOB_APPLICATION, "5.0", "slurm", "SLURM_PROCID"},
	};
	const struct lproc pa[] = {{4242, "node1", "/bin/app", r0, 1, 3}};
	const struct lproc pb[] = {{4242, "node2", "/bin/app", r1, 1, 6}};
	const char *la = write_log("rank-0.maplog", pa, 1);
	const char *lb = write_log("rank-1.maplog", pb, 1);
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, la, NULL, NULL), LOGREAD_CLEAN);
	ck_assert_int_eq(model_load(&m, lb, NULL, NULL), LOGREAD_CLEAN);
	ck_assert_uint_eq(m.nprocs, 2);
	ck_assert_uint_eq(m.nthreads, 2);
	const struct rproc *a = find(&m, 4242, "node1"),
			   *b = find(&m, 4242, "node2");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_ne(a->pid, b->pid);
	ck_assert_int_eq(a->rank, 0);
	ck_assert_int_eq(b->rank, 1);
	ck_assert_uint_eq(a->samples, 3);
	ck_assert_uint_eq(b->samples, 6);
	ck_assert_uint_eq(a->log, 0);
	ck_assert_uint_eq(b->log, 1);
	/* the threads of each are theirs */
	for (size_t i = 0; i < m.nthreads; i++)
		ck_assert_uint_eq(m.threads[i].samples,
				  m.threads[i].pid == a->pid ? 3 : 6);
	/* a second pass sees the model's keys */
	struct pass2 s = {0};
	static const struct logread_tool t = {
		.lt_record[MAPLOG_TYPE_SAMPLE] = count_pid};
	ck_assert_int_eq(model_reread(&m, 0, la, &t, &s), LOGREAD_CLEAN);
	ck_assert_int_eq(model_reread(&m, 1, lb, &t, &s), LOGREAD_CLEAN);
	ck_assert_uint_eq(s.k, 2);
	ck_assert_uint_eq(s.pid[0], a->pid);
	ck_assert_uint_eq(s.n[0], 3);
	ck_assert_uint_eq(s.pid[1], b->pid);
	ck_assert_uint_eq(s.n[1], 6);
	model_free(&m);
}
END_TEST

/* The pids a report shows: a process of another PID namespace (bits 22
 * and up of its pid in the log) as the pid it had there and its
 * namespace tag, a pid a second log had too by its log, and a small
 * number per process that keeps them all apart. */
START_TEST(modeljob_pid_labels)
{
	const uint32_t ns40 = 40u << 22 | 1, ns41 = 41u << 22 | 1;
	const struct lproc pa[] = {{77, "node1", "/bin/sh", NULL, 0, 1},
				   {ns40, "node1", "/bin/app", NULL, 0, 2},
				   {ns41, "node1", "/bin/app", NULL, 0, 3}};
	const struct lproc pb[] = {{77, "node2", "/bin/sh", NULL, 0, 4},
				   {ns40, "node2", "/bin/app", NULL, 0, 5}};
	const char *la = write_log("ns-a.maplog", pa, 3);
	const char *lb = write_log("ns-b.maplog", pb, 2);
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, la, NULL, NULL), LOGREAD_CLEAN);
	ck_assert_int_eq(model_load(&m, lb, NULL, NULL), LOGREAD_CLEAN);
	ck_assert_uint_eq(m.nprocs, 5);
	const struct rproc *p[5] = {
		find(&m, 77, "node1"), find(&m, ns40, "node1"),
		find(&m, ns41, "node1"), find(&m, 77, "node2"),
		find(&m, ns40, "node2")};
	static const char *const want[5] = {"77", "1 (ns 40)", "1 (ns 41)",
					    "77 (log 2)", "1 (log 2, ns 40)"};
	static const uint32_t real[5] = {77, 1, 1, 77, 1};
	static const uint32_t ns[5] = {0, 40, 41, 0, 40};
	static const uint32_t lg[5] = {1, 1, 1, 2, 2};
	char buf[48];
	for (int i = 0; i < 5; i++) {
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_str_eq(model_pid_str(&m, p[i]->pid, buf, sizeof(buf)),
				 want[i]);
		ck_assert_uint_eq(model_real_pid(&m, p[i]->pid), real[i]);
		ck_assert_uint_eq(model_pid_ns(&m, p[i]->pid), ns[i]);
		ck_assert_uint_eq(model_pid_log(&m, p[i]->pid), lg[i]);
		ck_assert_int_eq(model_pid_rank(&m, p[i]->pid), -1);
		uint32_t n = model_proc_num(&m, p[i]->pid);
		ck_assert_uint_ge(n, 1);
		ck_assert_uint_le(n, 5);
		for (int k = 0; k < i; k++)
			ck_assert_uint_ne(model_proc_num(&m, p[k]->pid), n);
	}
	ck_assert_uint_eq(model_proc_num(&m, 12345), 6);
	model_free(&m);
}
END_TEST

/* The ranks of a job sampling the same addresses: each process counts
 * its samples on stacks of its own, and their frames are kept once. */
START_TEST(modeljob_stacks_share_frames)
{
	static const struct lproc r0 = {500, "h", "/bin/app", NULL, 0, 3};
	static const struct lproc r1 = {600, "h", "/bin/app", NULL, 0, 5};
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, write_log("a.maplog", &r0, 1), NULL,
				    NULL),
			 LOGREAD_CLEAN);
	ck_assert_int_eq(model_load(&m, write_log("b.maplog", &r1, 1), NULL,
				    NULL),
			 LOGREAD_CLEAN);
	ck_assert_uint_eq(m.nstacks, 2);
	ck_assert_uint_eq(m.nspc, 2); /* one copy of the two frames */
	uint64_t counts[2] = {0, 0};
	uint32_t off = UINT32_MAX;
	for (size_t i = 0; i < m.capstacks; i++) {
		const struct rstack *s = &m.stacks[i];
		if (!s->used)
			continue;
		ck_assert(s->pid == 500 || s->pid == 600);
		counts[s->pid == 600] = s->count;
		ck_assert(off == UINT32_MAX || s->off == off);
		off = s->off;
		ck_assert_uint_eq(s->npc, 2);
		ck_assert_uint_eq(m.spc[s->off], 0x401000);
		ck_assert_uint_eq(m.spc[s->off + 1], 0x402000);
	}
	ck_assert_uint_eq(counts[0], 3);
	ck_assert_uint_eq(counts[1], 5);
	model_free(&m);
}
END_TEST

/* --pid is the pid people saw: a process of another PID namespace is
 * chosen by its pid there (without the log's namespace tag), and every
 * process of that pid is, whichever its log. */
START_TEST(modeljob_pid_filter_real_pid)
{
	static const struct lproc a = {2 * MODEL_PIDNS_TAG + 77, "h", "/bin/app",
				       NULL, 0, 3};
	static const struct lproc b = {77, "h2", "/bin/app", NULL, 0, 5};
	static const struct lproc c = {78, "h2", "/bin/app", NULL, 0, 4};
	struct rfilter f;
	filter_init(&f);
	ck_assert_int_eq(filter_add_pid(&f, "77"), 0);
	struct model m;
	model_init(&m);
	m.filter = &f;
	ck_assert_int_eq(model_load(&m, write_log("a.maplog", &a, 1), NULL,
				    NULL),
			 LOGREAD_CLEAN);
	ck_assert_int_eq(model_load(&m, write_log("b.maplog", &b, 1), NULL,
				    NULL),
			 LOGREAD_CLEAN);
	ck_assert_int_eq(model_load(&m, write_log("c.maplog", &c, 1), NULL,
				    NULL),
			 LOGREAD_CLEAN);
	ck_assert_uint_eq(m.samples, 3 + 5);
	model_free(&m);
	filter_free(&f);
}
END_TEST

START_TEST(modeljob_outname_patterns)
{
	struct mapjob j;
	memset(&j, 0, sizeof(j));
	j.rank = 7;
	j.size = 1024;
	snprintf(j.job_id, sizeof(j.job_id), "12/3 x");
	char out[256], why[512];
	ck_assert_int_eq(outname_expand("d-%j/r%r-%%.log", &j, 0, out,
					sizeof(out), why, sizeof(why)),
			 0);
	ck_assert_str_eq(out, "d-12_3_x/r0007-%.log");
	j.size = 10;
	ck_assert_int_eq(outname_expand("r%r", &j, 0, out, sizeof(out), why,
					sizeof(why)),
			 0);
	ck_assert_str_eq(out, "r7");
	/* %p: the pid given, the program's */
	ck_assert_int_eq(outname_expand("p%p", &j, 4321, out, sizeof(out),
					why, sizeof(why)),
			 0);
	ck_assert_str_eq(out, "p4321");
	ck_assert_int_eq(outname_expand("x%q", &j, 0, out, sizeof(out), why,
					sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "%q: unknown"));
	ck_assert_int_eq(outname_expand("x%", &j, 0, out, sizeof(out), why,
					sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "lone %"));
	j.rank = -1;
	j.job_id[0] = 0;
	ck_assert_int_eq(outname_expand("r%r", &j, 0, out, sizeof(out), why,
					sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "no MPI rank"));
	ck_assert_int_eq(outname_expand("j%j", &j, 0, out, sizeof(out), why,
					sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "no job id"));
	/* the default folder of a job: every rank agrees on it */
	j.rank = 3;
	j.size = 16;
	snprintf(j.job_id, sizeof(j.job_id), "4211.0");
	ck_assert_int_eq(outname_job_default("/x/app", &j, out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "app-16p-4211.0/rank-03.maplog");
	/* mkdir -p, twice (the second finds it there) */
	char p[512], failed[512];
	snprintf(p, sizeof(p), "%s/a/b/c/rank-0.maplog", tmpdir);
	ck_assert_int_eq(outname_mkdirs(p, failed, sizeof(failed)), 0);
	ck_assert_int_eq(outname_mkdirs(p, failed, sizeof(failed)), 0);
	snprintf(p, sizeof(p), "%s/a/b/c", tmpdir);
	ck_assert_int_eq(access(p, W_OK), 0);
}
END_TEST

/* The run of log path (its processes all). */
static struct runid run_of_log(const char *path)
{
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, path, NULL, NULL), LOGREAD_CLEAN);
	struct runid r = runid_of(&m, 0);
	model_free(&m);
	return r;
}

START_TEST(modeljob_runid)
{
	static const struct jobrec j1[] = {
		{0, 2, MAPLOG_JOB_APPLICATION, "host.100", "mpich", "PMI_RANK"},
	};
	static const struct jobrec j2[] = {
		{1, 2, MAPLOG_JOB_APPLICATION, "host.200", "mpich", "PMI_RANK"},
	};
	static const struct jobrec j1b[] = {
		{1, 2, MAPLOG_JOB_APPLICATION, "host.100", "mpich", "PMI_RANK"},
	};
	static const struct jobrec l[] = {
		{-1, 0, MAPLOG_JOB_LAUNCHER, "other", "mpich", ""},
	};
	/* two jobs of one command at the same time: told apart by their
	 * job ids, not taken for one run by their commands and times */
	const struct lproc a[] = {{300, "h", "/bin/app", j1, 1, 2, 5000}};
	const struct lproc b[] = {{301, "h", "/bin/app", j2, 1, 2, 5000}};
	struct runid ra = run_of_log(write_log("ja.maplog", a, 1));
	struct runid rb = run_of_log(write_log("jb.maplog", b, 1));
	ck_assert_str_eq(ra.command, "/bin/app");
	ck_assert_str_eq(ra.job_id, "host.100");
	ck_assert_str_eq(rb.job_id, "host.200");
	ck_assert_int_eq(runid_same(&ra, &rb), 0);
	/* one job's ranks on hosts whose clocks are 100 s apart, and the
	 * second program of an MPMD job: one run; a launcher's id does
	 * not count */
	const struct lproc c[] = {
		{400, "h2", "/bin/other", j1b, 1, 2, 5100},
		{401, "h2", "/usr/bin/mpiexec", l, 1, 1, 5100},
	};
	struct runid rc = run_of_log(write_log("jc.maplog", c, 2));
	ck_assert_str_eq(rc.job_id, "host.100");
	ck_assert_int_eq(runid_same(&ra, &rc), 1);
	ck_assert_int_eq(runid_same(&rc, &ra), 1);
	/* no job id on one side: the command and the times decide */
	const struct lproc d[] = {{500, "h", "/bin/app", NULL, 0, 2, 5000}};
	const struct lproc e[] = {{501, "h", "/bin/app", NULL, 0, 2, 5100}};
	struct runid rd = run_of_log(write_log("jd.maplog", d, 1));
	struct runid re = run_of_log(write_log("je.maplog", e, 1));
	ck_assert_ptr_null(rd.job_id);
	ck_assert_int_eq(runid_same(&ra, &rd), 1);
	ck_assert_int_eq(runid_same(&rd, &rb), 1);
	ck_assert_int_eq(runid_same(&rd, &re), 0);
	ck_assert_int_eq(runid_same(&rc, &rd), 0); /* other command */
	/* a log of processes of two jobs: no job id of its own */
	const struct lproc f[] = {
		{600, "h", "/bin/app", j1, 1, 2, 5000},
		{601, "h", "/bin/app", j2, 1, 2, 5000},
	};
	struct runid rf = run_of_log(write_log("jf.maplog", f, 2));
	ck_assert_ptr_null(rf.job_id);
	ck_assert_int_eq(runid_same(&rf, &ra), 1);
	/* nothing known: of any run */
	struct runid none;
	memset(&none, 0, sizeof(none));
	ck_assert_int_eq(runid_same(&none, &ra), 1);
	runid_free(&ra);
	runid_free(&rb);
	runid_free(&rc);
	runid_free(&rd);
	runid_free(&re);
	runid_free(&rf);
	ck_assert_ptr_null(rf.command);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("modeljob");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, modeljob_fields_and_mpi_wins);
	tcase_add_test(tc, modeljob_launchers_left_out);
	tcase_add_test(tc, modeljob_same_pid_two_hosts);
	tcase_add_test(tc, modeljob_outname_patterns);
	tcase_add_test(tc, modeljob_pid_labels);
	tcase_add_test(tc, modeljob_stacks_share_frames);
	tcase_add_test(tc, modeljob_pid_filter_real_pid);
	tcase_add_test(tc, modeljob_runid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
