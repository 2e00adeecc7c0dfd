/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/report/mpi.c on hand-made models: the MPI call
 * statistics across ranks (mean, min and max with their ranks, a rank
 * that never called a function counting 0, ranks from the log or from
 * the processes' order, the longest total time first), which modules
 * are MPI's, and a stack's outermost MPI frame and its fold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "report/mpi.h"

static struct rproc procs[3];
static struct rmpicall calls[5];

/* Three processes, pids 10, 11, 12; ranks given by the log (rank >= 0)
 * or not (-1). */
static void make(struct model *m, int32_t r0, int32_t r1, int32_t r2)
{
	memset(m, 0, sizeof(*m));
	memset(procs, 0, sizeof(procs));
	int32_t r[3] = {r0, r1, r2};
	for (int i = 0; i < 3; i++) {
		procs[i].pid = 10 + (uint32_t)i;
		procs[i].rank = r[i];
	}
	/* MPI_Send: 3 calls on pid 10, 1 on pid 11, none on pid 12 */
	calls[0] = (struct rmpicall){.pid = 10, .function = "MPI_Send",
				     .calls = 3, .time_ns = 30, .sent = 300};
	calls[1] = (struct rmpicall){.pid = 11, .function = "MPI_Send",
				     .calls = 1, .time_ns = 10, .sent = 100};
	/* MPI_Barrier: everyone, the longest total time */
	calls[2] = (struct rmpicall){.pid = 10, .function = "MPI_Barrier",
				     .calls = 2, .time_ns = 5};
	calls[3] = (struct rmpicall){.pid = 11, .function = "MPI_Barrier",
				     .calls = 2, .time_ns = 500};
	calls[4] = (struct rmpicall){.pid = 12, .function = "MPI_Barrier",
				     .calls = 2, .time_ns = 700,
				     .received = 7};
	m->procs = procs;
	m->nprocs = 3;
	m->mpicalls = calls;
	m->nmpicalls = 5;
}

START_TEST(mpi_stats_across_ranks)
{
	struct model m;
	struct mpi_stats s;
	make(&m, -1, -1, -1);
	ck_assert_int_eq(mpi_stats(&m, &s), 0);
	ck_assert_uint_eq(s.nranks, 3);
	ck_assert_uint_eq(s.nfn, 2);
	ck_assert_str_eq(s.fn[0].function, "MPI_Barrier");
	ck_assert_str_eq(s.fn[1].function, "MPI_Send");
	const struct mpi_fnstat *b = &s.fn[0], *x = &s.fn[1];
	ck_assert_uint_eq(b->ranks_calling, 3);
	ck_assert_uint_eq(b->total[MPI_Q_TIME], 1205);
	ck_assert_uint_eq(b->q[MPI_Q_TIME].min, 5);
	ck_assert_int_eq(b->q[MPI_Q_TIME].min_rank, 0);
	ck_assert_uint_eq(b->q[MPI_Q_TIME].max, 700);
	ck_assert_int_eq(b->q[MPI_Q_TIME].max_rank, 2);
	ck_assert_double_eq_tol(b->q[MPI_Q_TIME].mean, 1205.0 / 3, 1e-9);
	/* a tie: the lowest rank */
	ck_assert_int_eq(b->q[MPI_Q_CALLS].min_rank, 0);
	ck_assert_int_eq(b->q[MPI_Q_CALLS].max_rank, 0);
	ck_assert_int_eq(b->q[MPI_Q_RECEIVED].max_rank, 2);
	/* rank 2 never sent: it counts 0 */
	ck_assert_uint_eq(x->ranks_calling, 2);
	ck_assert_uint_eq(x->q[MPI_Q_SENT].min, 0);
	ck_assert_int_eq(x->q[MPI_Q_SENT].min_rank, 2);
	ck_assert_uint_eq(x->q[MPI_Q_SENT].max, 300);
	ck_assert_int_eq(x->q[MPI_Q_SENT].max_rank, 0);
	ck_assert_double_eq_tol(x->q[MPI_Q_SENT].mean, 400.0 / 3, 1e-9);
	mpi_stats_free(&s);

	/* ranks from the logs */
	make(&m, 7, 3, 5);
	ck_assert_int_eq(mpi_stats(&m, &s), 0);
	ck_assert_int_eq(s.fn[0].q[MPI_Q_TIME].min_rank, 7);
	ck_assert_int_eq(s.fn[0].q[MPI_Q_TIME].max_rank, 5);
	ck_assert_int_eq(s.fn[1].q[MPI_Q_SENT].min_rank, 5);
	mpi_stats_free(&s);

	/* no statistics */
	m.nmpicalls = 0;
	ck_assert_int_eq(mpi_stats(&m, &s), 0);
	ck_assert_uint_eq(s.nfn, 0);
	ck_assert_str_eq(mpi_qty_name(MPI_Q_RECEIVED), "received");
}
END_TEST

START_TEST(mpi_modules)
{
	ck_assert_int_eq(mpi_module("/usr/lib/x86_64-linux-gnu/libmpi.so.40"), 1);
	ck_assert_int_eq(mpi_module("/usr/lib/libmpich.so.12"), 1);
	ck_assert_int_eq(mpi_module("/x/libopen-pal.so.40"), 1);
	ck_assert_int_eq(mpi_module("/x/openmpi/lib/openmpi3/mca_btl_vader.so"), 1);
	ck_assert_int_eq(mpi_module("/x/libucp.so.0"), 1);
	ck_assert_int_eq(mpi_module("libmapsample-mpiwrap.so"), 1);
	ck_assert_int_eq(mpi_module("/usr/lib/libc.so.6"), 0);
	ck_assert_int_eq(mpi_module("/home/me/mpiwork"), 0);
	ck_assert_int_eq(mpi_module("/home/me/libmpx/app"), 0);
	ck_assert_int_eq(mpi_module(NULL), 0);
}
END_TEST

START_TEST(mpi_stack_fold)
{
	static struct rmap maps[3] = {
		{.start = 0x1000, .end = 0x2000, .path = "/bin/app"},
		{.start = 0x10000, .end = 0x20000,
		 .path = "/usr/lib/libmpi.so.40"},
		{.start = 0x30000, .end = 0x40000,
		 .path = "/usr/lib/libopen-pal.so.40"},
	};
	static struct rproc p = {.pid = 5, .maps = maps, .nmaps = 3};
	/* leaf first: open-pal, open-pal, libmpi (MPI_Barrier), app, app */
	static const uint64_t pcs0[] = {0x30010, 0x30020, 0x10030, 0x1040,
					0x1050, 0x1060, 0x1070};
	uint64_t *pcs = malloc(sizeof(pcs0));
	ck_assert_ptr_nonnull(pcs);
	memcpy(pcs, pcs0, sizeof(pcs0));
	static struct rstack st[2] = {
		{.pid = 5, .npc = 5, .off = 0, .count = 4, .used = 1},
		{.pid = 5, .npc = 2, .off = 5, .count = 1, .used = 1},
	};
	struct model m;
	memset(&m, 0, sizeof(m));
	m.procs = &p;
	m.nprocs = 1;
	m.stacks = st;
	m.capstacks = 2;
	m.nstacks = 2;
	m.spc = pcs;
	m.nspc = m.capspc = 7;
	ck_assert_int_eq(mpi_stack(&m, 5, 0, 5, pcs), 2);
	ck_assert_int_eq(mpi_stack(&m, 5, 0, 2, pcs + 5), -1);
	uint64_t in[1];
	ck_assert_int_eq(mpi_proc_samples(&m, in), 0);
	ck_assert_uint_eq(in[0], 4);
	size_t n;
	ck_assert_int_eq(mpi_fold(&m, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(st[0].npc, 3);
	ck_assert_uint_eq(m.spc[st[0].off], 0x1002f); /* the call instruction */
	ck_assert_uint_eq(m.spc[st[0].off + 1], 0x1040);
	ck_assert_uint_eq(m.spc[st[0].off + 2], 0x1050);
	/* the frames it had are left as they were (another process's stack
	 * of the same addresses may share them): the cut stack has a copy */
	ck_assert_uint_ne(st[0].off, 2);
	ck_assert_int_eq(memcmp(m.spc, pcs0, sizeof(pcs0)), 0);
	ck_assert_uint_eq(st[1].off, 5);
	ck_assert_uint_eq(st[1].npc, 2);
	/* folded: the leaf is the MPI call, still in MPI */
	ck_assert_int_eq(mpi_stack(&m, 5, 0, st[0].npc, m.spc + st[0].off),
			 0);
	ck_assert_int_eq(mpi_proc_samples(&m, in), 0);
	ck_assert_uint_eq(in[0], 4);
	ck_assert_int_eq(mpi_fold(&m, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(m.spc);
}
END_TEST

static Suite *mpi_suite(void)
{
	Suite *s = suite_create("mpi");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, mpi_stats_across_ranks);
	tcase_add_test(tc, mpi_modules);
	tcase_add_test(tc, mpi_stack_fold);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mpi_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
