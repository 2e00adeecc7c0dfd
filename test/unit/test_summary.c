/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/report/ranks.c and summary.c on made-up figures:
 * the statistics across ranks (min, mean, max and where they occur),
 * the load imbalance, the verdict for compute-, MPI- and I/O-bound jobs
 * and a single program, the advice and its figures, and the frame
 * classifiers (MPI library, collective calls, read/write family); the
 * MPI share from the mpi plugin's time-in-MPI metric in its units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "report/ranks.h"
#include "report/summary.h"

/* A job of n rows: row i is rank i with secs[i] seconds, mpi[i] and
 * io[i] of them in MPI and I/O (shares), coll[i] of them in
 * collective calls. */
static void job(struct ranks *rk, size_t n, const double *secs,
		const double *mpi, const double *coll, const double *io)
{
	memset(rk, 0, sizeof(*rk));
	rk->r = calloc(n, sizeof(*rk->r));
	ck_assert_ptr_nonnull(rk->r);
	rk->n = n;
	rk->any_rank = 1;
	for (size_t i = 0; i < n; i++) {
		struct rank_row *r = &rk->r[i];
		r->rank = (int32_t)i;
		r->is_rank = 1;
		r->samples = (uint64_t)(secs[i] * 100);
		r->seconds = secs[i];
		r->mpi = mpi ? mpi[i] : 0;
		r->coll = coll ? coll[i] : 0;
		r->io = io ? io[i] : 0;
		r->compute = r->seconds * (1 - r->mpi - r->io);
	}
	ranks_stats(rk);
}

START_TEST(summary_stats_and_imbalance)
{
	/* rank 0 computes twice what the others do; they wait in MPI */
	double secs[] = {4, 4, 4, 4};
	double mpi[] = {0, 0.5, 0.5, 0.5};
	double coll[] = {0, 0.5, 0.5, 0.5};
	struct ranks rk;
	job(&rk, 4, secs, mpi, coll, NULL);
	ck_assert(rk.compute.have);
	ck_assert_double_eq_tol(rk.compute.max, 4, 1e-9);
	ck_assert_int_eq(rk.compute.max_rank, 0);
	ck_assert_double_eq_tol(rk.compute.min, 2, 1e-9);
	ck_assert_int_eq(rk.compute.min_rank, 1);
	ck_assert_double_eq_tol(rk.compute.mean, 2.5, 1e-9);
	ck_assert_double_eq_tol(rk.imbalance, 4 / 2.5, 1e-9);
	ck_assert_int_eq(rk.mpi.max_rank, 1);
	ck_assert_double_eq_tol(rk.t_mpi, 6, 1e-9);
	ck_assert(!rk.mem.have);

	struct summary s;
	summary_make(&s, &rk, NULL, 4.2, "work", 0.5);
	/* 6 of 16 s in MPI: 37.5%, all collective */
	ck_assert_int_eq(s.kind, SUMMARY_MPI);
	ck_assert_double_eq_tol(s.mpi, 0.375, 1e-9);
	ck_assert_double_eq_tol(s.compute, 0.625, 1e-9);
	ck_assert_str_eq(s.verdict, "MPI-bound: 37.5% of time in MPI, 37.5% "
				    "in collective calls");
	ck_assert_uint_eq(s.nadvice, 2);
	ck_assert_ptr_nonnull(strstr(s.advice[0], "Load imbalance 1.60"));
	ck_assert_ptr_nonnull(strstr(s.advice[0], "rank 0 computes 4 s"));
	ck_assert_ptr_nonnull(strstr(s.advice[0], "mean of 2.5 s"));
	ck_assert_ptr_nonnull(strstr(s.advice[0], "up to 38%"));
	ck_assert_ptr_nonnull(strstr(s.advice[1], "100% of the MPI time is "
						  "in collective calls"));
	ranks_free(&rk);
}
END_TEST

START_TEST(summary_single_program)
{
	double secs[] = {2};
	double io[] = {0.05};
	struct ranks rk;
	job(&rk, 1, secs, NULL, NULL, io);
	rk.any_rank = 0;
	rk.r[0].is_rank = 0;
	struct summary s;
	summary_make(&s, &rk, NULL, 2.1, "hot_loop", 0.81);
	ck_assert_int_eq(s.kind, SUMMARY_COMPUTE);
	ck_assert_double_eq_tol(s.mpi, 0, 1e-12);
	ck_assert_double_eq_tol(s.imbalance, 0, 1e-12);
	ck_assert_str_eq(s.verdict, "Compute-bound: 95.0% of time in compute, "
				    "0.0% in MPI, 5.0% in I/O");
	/* no imbalance with one process; the hottest function instead */
	ck_assert_uint_eq(s.nadvice, 1);
	ck_assert_str_eq(s.advice[0], "Compute is 95.0% of the time; the "
				      "hottest function, hot_loop, has 81.0% "
				      "of the samples: start there");
	ranks_free(&rk);
}
END_TEST

START_TEST(summary_io_bound_one_rank)
{
	double secs[] = {10, 10, 10};
	double io[] = {0.9, 0, 0};
	struct ranks rk;
	job(&rk, 3, secs, NULL, NULL, io);
	struct summary s;
	summary_make(&s, &rk, NULL, 10, NULL, 0);
	/* 9 of 30 s in I/O: 30% */
	ck_assert_int_eq(s.kind, SUMMARY_IO);
	ck_assert_str_eq(s.verdict, "I/O-bound: 30.0% of time in read/write "
				    "calls, 70.0% in compute");
	/* rank 0 computes 1 s, the others 10 s: imbalance 10/7 */
	ck_assert_double_eq_tol(rk.imbalance, 10.0 / 7.0, 1e-9);
	ck_assert_int_eq(rk.compute.max_rank, 1);
	ck_assert_uint_eq(s.nadvice, 2);
	ck_assert_ptr_nonnull(strstr(s.advice[1], "I/O is done by one rank: "
						  "rank 0 has 100% of the "
						  "job's I/O time (90.0% of "
						  "its own time)"));
	ranks_free(&rk);
}
END_TEST

START_TEST(summary_balanced_compute)
{
	double secs[] = {3, 3.1, 2.95, 3.05};
	struct ranks rk;
	job(&rk, 4, secs, NULL, NULL, NULL);
	struct summary s;
	summary_make(&s, &rk, NULL, 3.2, "f", 0.2);
	ck_assert_int_eq(s.kind, SUMMARY_COMPUTE);
	ck_assert(rk.imbalance < SUMMARY_IMBALANCE);
	/* no imbalance advice below the threshold */
	ck_assert_uint_eq(s.nadvice, 1);
	ck_assert_ptr_nonnull(strstr(s.advice[0], "hottest function, f"));
	ranks_free(&rk);
}
END_TEST

START_TEST(summary_nothing)
{
	struct ranks rk;
	memset(&rk, 0, sizeof(rk));
	ranks_stats(&rk);
	struct summary s;
	summary_make(&s, &rk, NULL, 0, NULL, 0);
	ck_assert_int_eq(s.kind, SUMMARY_NONE);
	ck_assert_uint_eq(s.nadvice, 0);
	ck_assert_str_eq(summary_kind_id(s.kind), "none");
}
END_TEST

START_TEST(summary_memory_stats)
{
	double secs[] = {1, 1, 1};
	struct ranks rk;
	job(&rk, 3, secs, NULL, NULL, NULL);
	rk.r[0].have_mem = 1;
	rk.r[0].mem_peak = 100;
	rk.r[2].have_mem = 1;
	rk.r[2].mem_peak = 300;
	ranks_stats(&rk);
	ck_assert(rk.mem.have);
	ck_assert_double_eq_tol(rk.mem.mean, 200, 1e-9);
	ck_assert_int_eq(rk.mem.min_rank, 0);
	ck_assert_int_eq(rk.mem.max_rank, 2);
	ranks_free(&rk);
}
END_TEST

/* A model of one rank with two threads of 1 s of CPU time each, whose
 * log holds the mpi plugin's time-in-MPI metric as plugins/mpi/mpi.xml
 * defines it (units, flags) with n values of v each, 100 ms apart, and
 * whose process ran wall seconds (0: not known); the rank's MPI share
 * from ranks_build(), its compute seconds in *compute. */
/* The filter mpi_share_wall()'s model is read under (--time), or NULL. */
static struct rfilter *share_filter;

static double mpi_share_wall(const char *units, uint32_t flags, uint64_t n,
			     double v, double wall, double *compute)
{
	struct model m;
	model_init(&m);
	m.filter = share_filter;
	struct rproc p;
	memset(&p, 0, sizeof(p));
	p.pid = p.os_pid = 10;
	p.rank = 0;
	p.samples = 200;
	p.start_ts = 1000000000;
	p.end_ts = p.start_ts + (uint64_t)(wall * 1e9);
	struct rthread t[2];
	memset(t, 0, sizeof(t));
	for (int i = 0; i < 2; i++) {
		t[i].pid = 10;
		t[i].tid = 10 + (uint32_t)i;
		t[i].samples = 100;
		t[i].ended = 1;
		t[i].cpu_ns = t[i].wall_ns = 1000000000;
	}
	struct rmetric mt = {(char *)RANKS_MPI_TIME, (char *)"Time in MPI",
			     (char *)units, (char *)"mpi", flags,
			     MAPLOG_DT_DOUBLE};
	struct rmseries se;
	memset(&se, 0, sizeof(se));
	se.pid = 10;
	se.metric = 1;
	se.n = n;
	se.sum = v * (double)n;
	se.vmin = se.vmax = se.first_v = v;
	se.first_ts = 1000000000;
	se.last_ts = se.first_ts + (n - 1) * 100000000;
	m.procs = &p;
	m.nprocs = 1;
	m.threads = t;
	m.nthreads = 2;
	m.metrics.m = &mt;
	m.metrics.nm = 1;
	m.metrics.s = &se;
	m.metrics.ns = 1;
	struct analysis an;
	memset(&an, 0, sizeof(an));
	struct ranks rk;
	ck_assert_int_eq(ranks_build(&rk, &m, &an), 0);
	ck_assert_uint_eq(rk.n, 1);
	ck_assert(rk.r[0].mpi_metric);
	ck_assert_double_eq_tol(rk.r[0].seconds, 2, 1e-9);
	double share = rk.r[0].mpi;
	*compute = rk.r[0].compute;
	ranks_free(&rk);
	return share;
}

static double mpi_share_of(const char *units, uint32_t flags, uint64_t n,
			   double v)
{
	double compute;
	return mpi_share_wall(units, flags, n, v, 0, &compute);
}

START_TEST(summary_mpi_metric_units)
{
	/* mpi.xml: "%" of the wall time since the previous value, threads
	 * added up, not divided by sample time.  One of two threads in MPI
	 * half the time: 50% a value, 11 values 100 ms apart (1.1 s) is
	 * 0.55 s of the rank's 2 s, not half of them */
	ck_assert_double_eq_tol(mpi_share_of("%", 0, 11, 50), 0.275, 1e-9);
	/* both threads in MPI all the time: 200%, all of it */
	ck_assert_double_eq_tol(mpi_share_of("%", 0, 11, 200), 1, 1e-9);
	/* divided by sample time, the deltas are the time: 11 deltas of
	 * 50 ms in "ms/s" are 0.55 s; in "%" (of a second), 5 each */
	ck_assert_double_eq_tol(mpi_share_of("ms/s",
					     MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME,
					     11, 50),
				0.275, 1e-9);
	ck_assert_double_eq_tol(mpi_share_of("%",
					     MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME,
					     11, 5),
				0.275, 1e-9);
}
END_TEST

START_TEST(summary_mpi_metric_wall)
{
	/* a rank that got 2 s of CPU in 5 s of wall time (a loaded
	 * machine) and spent 3 s of wall time in MPI (40 values of 75%,
	 * 100 ms apart): 60% of its time in MPI, not all of it because 3 s
	 * exceed its 2 s of CPU; its compute seconds are its samples' (none
	 * in MPI here): 2 s, not 0 */
	double compute;
	ck_assert_double_eq_tol(mpi_share_wall("%", 0, 40, 75, 5, &compute),
				0.6, 1e-9);
	ck_assert_double_eq_tol(compute, 2, 1e-9);
	/* the wall time shorter than the CPU seconds (threads busy at
	 * once): the share is of those seconds, as without it */
	ck_assert_double_eq_tol(mpi_share_wall("%", 0, 11, 50, 1.2, &compute),
				0.275, 1e-9);
	ck_assert_double_eq_tol(compute, 2, 1e-9);
}
END_TEST

START_TEST(summary_mpi_metric_wall_time)
{
	/* under --time the metric holds the range's values, so the wall
	 * time their MPI time is a share of is the process's within the
	 * range: 10 values of 75% 100 ms apart (0.75 s in MPI) in a
	 * process of 5 s of wall time are 15% of it, and 30% of the 2.5 s
	 * of it that --time 0:2.5 keeps */
	double compute;
	ck_assert_double_eq_tol(mpi_share_wall("%", 0, 10, 75, 5, &compute),
				0.15, 1e-9);
	struct rfilter f;
	filter_init(&f);
	ck_assert_int_eq(filter_add_time(&f, "0:2.5"), 0);
	f.fi_t0 = 1000000000; /* the process's start */
	share_filter = &f;
	ck_assert_double_eq_tol(mpi_share_wall("%", 0, 10, 75, 5, &compute),
				0.3, 1e-9);
	share_filter = NULL;
	filter_free(&f);
}
END_TEST

/* One function's row of MPI call statistics: its totals over the ranks
 * (the spreads are not read by the summary). */
static struct mpi_fnstat fnstat(const char *f, uint64_t calls,
				uint64_t sent, uint64_t received)
{
	struct mpi_fnstat x;
	memset(&x, 0, sizeof(x));
	x.function = f;
	x.total[MPI_Q_CALLS] = calls;
	x.total[MPI_Q_SENT] = sent;
	x.total[MPI_Q_RECEIVED] = received;
	return x;
}

START_TEST(summary_p2p_messages)
{
	/* two balanced ranks, 60% in MPI, a sixth of it collective: the
	 * point-to-point line, with the bytes of its calls */
	double secs[] = {4, 4};
	double mpi[] = {0.6, 0.6};
	double coll[] = {0.1, 0.1};
	struct ranks rk;
	job(&rk, 2, secs, mpi, coll, NULL);
	/* 2000 sends and receives of 512 B; the collective call and
	 * MPI_Wait (no bytes) are not counted */
	struct mpi_fnstat small[] = {
		fnstat("MPI_Send", 1000, 512000, 0),
		fnstat("MPI_Recv", 1000, 0, 512000),
		fnstat("MPI_Allreduce", 10, 80000000, 80000000),
		fnstat("MPI_Wait", 500, 0, 0),
	};
	struct mpi_stats ms = {small, 4, 2, NULL};
	struct summary s;
	summary_make(&s, &rk, &ms, 4.1, "f", 0.2);
	ck_assert_int_eq(s.kind, SUMMARY_MPI);
	ck_assert_uint_eq(s.p2p_calls, 2000);
	ck_assert_double_eq_tol(s.p2p_bytes, 1024000, 1e-9);
	ck_assert_uint_eq(s.nadvice, 1);
	ck_assert_str_eq(s.advice[0],
			 "83% of the MPI time is in point-to-point calls "
			 "(50.0% of all time), which move 512 B a call on "
			 "average over 2000 calls: small messages, whose cost "
			 "is the latency of each; fewer, larger messages cut "
			 "it");
	/* 100 sends and receives of 1 MB: not small */
	struct mpi_fnstat large[] = {
		fnstat("MPI_Isend", 100, 100000000, 0),
		fnstat("MPI_Irecv", 100, 0, 100000000),
	};
	ms.fn = large;
	ms.nfn = 2;
	summary_make(&s, &rk, &ms, 4.1, "f", 0.2);
	ck_assert_uint_eq(s.nadvice, 1);
	ck_assert_ptr_nonnull(strstr(s.advice[0], "which move 1.0 MB a call "
						  "on average over 200 calls; "));
	ck_assert_ptr_null(strstr(s.advice[0], "small"));
	ck_assert_ptr_null(strstr(s.advice[0], "larger messages"));
	/* no MPI call statistics: no word on message sizes */
	summary_make(&s, &rk, NULL, 4.1, "f", 0.2);
	ck_assert_uint_eq(s.p2p_calls, 0);
	ck_assert_uint_eq(s.nadvice, 1);
	ck_assert_str_eq(s.advice[0],
			 "83% of the MPI time is in point-to-point calls "
			 "(50.0% of all time); non-blocking calls overlapping "
			 "compute hide it");
	ranks_free(&rk);
}
END_TEST

START_TEST(summary_classifiers)
{
	ck_assert(ranks_is_mpi("libmpi.so.40", "ompi_coll_base_barrier"));
	ck_assert(ranks_is_mpi("libmpich.so.12", "MPIDI_progress"));
	ck_assert(ranks_is_mpi("libopen-pal.so.40", "opal_progress"));
	ck_assert(ranks_is_mpi("app", "MPI_Send"));
	ck_assert(ranks_is_mpi("app", "pmpi_allreduce_"));
	ck_assert(!ranks_is_mpi("libc.so.6", "memcpy"));
	ck_assert(!ranks_is_mpi(NULL, "compute_mpi_like"));
	ck_assert(ranks_is_collective("MPI_Allreduce"));
	ck_assert(ranks_is_collective("PMPI_Barrier"));
	ck_assert(ranks_is_collective("mpi_bcast_"));
	ck_assert(!ranks_is_collective("MPI_Send"));
	ck_assert(!ranks_is_collective("MPI_Recv"));
	ck_assert(!ranks_is_collective("allreduce"));
	ck_assert(ranks_is_io("write"));
	ck_assert(ranks_is_io("__libc_write"));
	ck_assert(ranks_is_io("__GI___libc_read"));
	ck_assert(ranks_is_io("__write_nocancel"));
	ck_assert(ranks_is_io("_IO_fwrite"));
	ck_assert(ranks_is_io("__pread64"));
	ck_assert(ranks_is_io("fsync"));
	ck_assert(!ranks_is_io("writer_thread"));
	ck_assert(!ranks_is_io("memcpy"));
	ck_assert(!ranks_is_io(NULL));
}
END_TEST

static Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, summary_stats_and_imbalance);
	tcase_add_test(tc, summary_single_program);
	tcase_add_test(tc, summary_io_bound_one_rank);
	tcase_add_test(tc, summary_balanced_compute);
	tcase_add_test(tc, summary_nothing);
	tcase_add_test(tc, summary_memory_stats);
	tcase_add_test(tc, summary_classifiers);
	tcase_add_test(tc, summary_mpi_metric_units);
	tcase_add_test(tc, summary_mpi_metric_wall);
	tcase_add_test(tc, summary_mpi_metric_wall_time);
	tcase_add_test(tc, summary_p2p_messages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(summary_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
