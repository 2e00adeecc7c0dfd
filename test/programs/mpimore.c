/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpimore: calls each family of MPI functions the mpi plugin's wrapper
 * wraps beyond mpiwork's, with known sizes, for
 * test/integration/metrics-mpi-more.sh (which holds the bytes each rank
 * must show): non-blocking collectives, MPI_Alltoallw, neighbourhood
 * collectives on a 1-D non-periodic Cartesian topology (ranks 0 and
 * N-1 have one neighbour), persistent requests, matched probes,
 * one-sided (fence, passive target, request-based, PSCW) and MPI-IO.
 *
 *   mpimore FILE [SPIN_MS]
 *
 * FILE: the MPI-IO file (made, written, read; removed by rank 0 at the
 * end).  SPIN_MS: before the last MPI_Win_fence and the last
 * MPI_Neighbor_alltoall, rank 0 computes for that long while the others
 * wait in them (default 300), so that their time shows in the
 * collective class.  Runs on exactly 4 ranks.  Exits 1 with a message
 * when an MPI call fails or data arrive wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NP 4

static int me, np;
static MPI_Status sts[4]; /* statuses of MPI_Waitall */

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "mpimore: rank %d: %s\n", me, what);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

static volatile double sink;

/* rank 0 computes for ms milliseconds */
static void spin(int ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	double x = 1;
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 1.0000001 + 1e-9;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 <
		 ms);
	sink = x;
}

static void collectives(void)
{
	static int sb[4096], rb[4096];
	static double ds[512], dr[512];
	int sc[NP], sd[NP], rc[NP], rd[NP];
	MPI_Datatype st[NP], rt[NP];
	MPI_Request q;
	for (int i = 0; i < 4096; i++)
		sb[i] = i;
	for (int i = 0; i < 512; i++)
		ds[i] = i;
	/* Alltoallw and Ialltoallw: 10*(j+1) ints to rank j, 10*(me+1) from
	 * each (displacements in bytes) */
	for (int j = 0, so = 0, ro = 0; j < NP; j++) {
		sc[j] = 10 * (j + 1), sd[j] = so, so += sc[j] * 4;
		rc[j] = 10 * (me + 1), rd[j] = ro, ro += rc[j] * 4;
		st[j] = rt[j] = MPI_INT;
	}
	check(!MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD),
	      "MPI_Alltoallw");
	check(!MPI_Ialltoallw(sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD,
			      &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ialltoallw");
	/* Iallgather: 100 ints */
	check(!MPI_Iallgather(sb, 100, MPI_INT, rb, 100, MPI_INT,
			      MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iallgather");
	/* Iallgatherv: rank i gives 10*(i+1) ints */
	for (int j = 0, o = 0; j < NP; j++)
		rc[j] = 10 * (j + 1), rd[j] = o, o += rc[j];
	check(!MPI_Iallgatherv(sb, 10 * (me + 1), MPI_INT, rb, rc, rd, MPI_INT,
			       MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iallgatherv");
	/* Ialltoall: 50 ints each way per rank */
	check(!MPI_Ialltoall(sb, 50, MPI_INT, rb, 50, MPI_INT, MPI_COMM_WORLD,
			     &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ialltoall");
	/* Ialltoallv: 5*(j+1) ints to rank j, 5*(me+1) from each */
	for (int j = 0, so = 0, ro = 0; j < NP; j++) {
		sc[j] = 5 * (j + 1), sd[j] = so, so += sc[j];
		rc[j] = 5 * (me + 1), rd[j] = ro, ro += rc[j];
	}
	check(!MPI_Ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT,
			      MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ialltoallv");
	/* Igather, Iscatter at root 0: 64 ints a rank */
	check(!MPI_Igather(sb, 64, MPI_INT, rb, 64, MPI_INT, 0, MPI_COMM_WORLD,
			   &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Igather");
	check(!MPI_Iscatter(sb, 64, MPI_INT, rb, 64, MPI_INT, 0, MPI_COMM_WORLD,
			    &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iscatter");
	/* Igatherv, Iscatterv at root 0: 8*(i+1) ints of rank i */
	for (int j = 0, o = 0; j < NP; j++)
		rc[j] = 8 * (j + 1), rd[j] = o, o += rc[j];
	check(!MPI_Igatherv(sb, 8 * (me + 1), MPI_INT, rb, rc, rd, MPI_INT, 0,
			    MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Igatherv");
	check(!MPI_Iscatterv(sb, rc, rd, MPI_INT, rb, 8 * (me + 1), MPI_INT, 0,
			     MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iscatterv");
	/* Ireduce_scatter: 3*(j+1) doubles to rank j */
	for (int j = 0; j < NP; j++)
		rc[j] = 3 * (j + 1);
	check(!MPI_Ireduce_scatter(ds, dr, rc, MPI_DOUBLE, MPI_SUM,
				   MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ireduce_scatter");
	/* Ireduce_scatter_block: 7 doubles a rank */
	check(!MPI_Ireduce_scatter_block(ds, dr, 7, MPI_DOUBLE, MPI_SUM,
					 MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ireduce_scatter_block");
	/* Iscan 9 doubles, Iexscan 11 */
	check(!MPI_Iscan(ds, dr, 9, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iscan");
	check(!MPI_Iexscan(ds, dr, 11, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
			   &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Iexscan");
}

/* neighbourhood collectives on a line of 4 (not periodic): neighbour 0
 * is me - 1, neighbour 1 me + 1 */
static void neighbours(int spin_ms)
{
	static int sb[1024], rb[1024];
	int dims[1] = {NP}, periods[1] = {0};
	MPI_Comm line;
	MPI_Request q;
	check(!MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line),
	      "MPI_Cart_create");
	/* allgather(v): 20 ints to and from each neighbour */
	int rc[2] = {20, 20}, rd[2] = {0, 20};
	check(!MPI_Neighbor_allgather(sb, 20, MPI_INT, rb, 20, MPI_INT, line),
	      "MPI_Neighbor_allgather");
	check(!MPI_Ineighbor_allgather(sb, 20, MPI_INT, rb, 20, MPI_INT, line,
				       &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ineighbor_allgather");
	check(!MPI_Neighbor_allgatherv(sb, 20, MPI_INT, rb, rc, rd, MPI_INT,
				       line),
	      "MPI_Neighbor_allgatherv");
	check(!MPI_Ineighbor_allgatherv(sb, 20, MPI_INT, rb, rc, rd, MPI_INT,
					line, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ineighbor_allgatherv");
	/* alltoall: 30 ints to and from each neighbour */
	if (me == 0)
		spin(spin_ms);
	check(!MPI_Neighbor_alltoall(sb, 30, MPI_INT, rb, 30, MPI_INT, line),
	      "MPI_Neighbor_alltoall");
	check(!MPI_Ineighbor_alltoall(sb, 30, MPI_INT, rb, 30, MPI_INT, line,
				      &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ineighbor_alltoall");
	/* alltoallv: 15 ints to the lower neighbour, 25 to the upper; so
	 * 25 come from the lower one and 15 from the upper */
	int sc[2] = {15, 25}, sd[2] = {0, 15}, vc[2] = {25, 15},
	    vd[2] = {0, 25};
	check(!MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, vc, vd, MPI_INT,
				      line),
	      "MPI_Neighbor_alltoallv");
	check(!MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, vc, vd,
				       MPI_INT, line, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ineighbor_alltoallv");
	/* alltoallw: the same blocks, displacements in bytes */
	MPI_Aint wsd[2] = {0, 60}, wrd[2] = {0, 100};
	MPI_Datatype t[2] = {MPI_INT, MPI_INT};
	check(!MPI_Neighbor_alltoallw(sb, sc, wsd, t, rb, vc, wrd, t, line),
	      "MPI_Neighbor_alltoallw");
	check(!MPI_Ineighbor_alltoallw(sb, sc, wsd, t, rb, vc, wrd, t, line,
				       &q) && !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_Ineighbor_alltoallw");
	MPI_Comm_free(&line);
}

/* persistent requests around the ring: 256 doubles to me + 1, from
 * me - 1; started 3 times one by one and twice with MPI_Startall; then
 * 128 doubles with MPI_Ssend_init and MPI_Recv_init, started once */
static void persistent(void)
{
	static double s[256], r[256];
	int to = (me + 1) % np, from = (me + np - 1) % np;
	MPI_Request q[2];
	check(!MPI_Recv_init(r, 256, MPI_DOUBLE, from, 3, MPI_COMM_WORLD, &q[0]),
	      "MPI_Recv_init");
	check(!MPI_Send_init(s, 256, MPI_DOUBLE, to, 3, MPI_COMM_WORLD, &q[1]),
	      "MPI_Send_init");
	for (int i = 0; i < 3; i++) {
		check(!MPI_Start(&q[0]) && !MPI_Start(&q[1]), "MPI_Start");
		check(!MPI_Waitall(2, q, sts), "MPI_Waitall");
	}
	for (int i = 0; i < 2; i++) {
		check(!MPI_Startall(2, q), "MPI_Startall");
		check(!MPI_Waitall(2, q, sts), "MPI_Waitall");
	}
	MPI_Request_free(&q[0]);
	MPI_Request_free(&q[1]);
	check(!MPI_Recv_init(r, 128, MPI_DOUBLE, from, 4, MPI_COMM_WORLD, &q[0]),
	      "MPI_Recv_init");
	check(!MPI_Ssend_init(s, 128, MPI_DOUBLE, to, 4, MPI_COMM_WORLD, &q[1]),
	      "MPI_Ssend_init");
	check(!MPI_Start(&q[0]) && !MPI_Start(&q[1]), "MPI_Start");
	check(!MPI_Waitall(2, q, sts), "MPI_Waitall");
	MPI_Request_free(&q[0]);
	MPI_Request_free(&q[1]);
}

/* matched probes: 300 ints from me - 1, twice */
static void matched(void)
{
	static int s[300], r[300];
	int to = (me + 1) % np, from = (me + np - 1) % np, flag = 0;
	MPI_Message m;
	MPI_Status st;
	MPI_Request q[2];
	check(!MPI_Isend(s, 300, MPI_INT, to, 7, MPI_COMM_WORLD, &q[0]),
	      "MPI_Isend");
	check(!MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &m, &st),
	      "MPI_Mprobe");
	check(st.MPI_SOURCE == from, "MPI_Mprobe: wrong source");
	check(!MPI_Mrecv(r, 300, MPI_INT, &m, MPI_STATUS_IGNORE), "MPI_Mrecv");
	check(!MPI_Wait(&q[0], MPI_STATUS_IGNORE), "MPI_Wait");
	check(!MPI_Isend(s, 300, MPI_INT, to, 8, MPI_COMM_WORLD, &q[0]),
	      "MPI_Isend");
	while (!flag)
		check(!MPI_Improbe(from, 8, MPI_COMM_WORLD, &flag, &m, &st),
		      "MPI_Improbe");
	check(!MPI_Imrecv(r, 300, MPI_INT, &m, &q[1]), "MPI_Imrecv");
	check(!MPI_Waitall(2, q, sts), "MPI_Waitall");
}

/* one-sided on a window of 1024 doubles (and 16 longs for the atomics),
 * every rank on its upper neighbour */
static void onesided(int spin_ms)
{
	static double w[1024], o[1024], res[1024];
	static long lw[16];
	long lo = 5, lc = 0, lr = 0;
	int to = (me + 1) % np, from = (me + np - 1) % np;
	MPI_Win win, lwin;
	MPI_Request q[4];
	check(!MPI_Win_create(w, sizeof(w), sizeof(double), MPI_INFO_NULL,
			      MPI_COMM_WORLD, &win),
	      "MPI_Win_create");
	check(!MPI_Win_create(lw, sizeof(lw), sizeof(long), MPI_INFO_NULL,
			      MPI_COMM_WORLD, &lwin),
	      "MPI_Win_create");
	/* active target, fence: Put 100, Get 50, Accumulate 25 doubles */
	check(!MPI_Win_fence(0, win), "MPI_Win_fence");
	check(!MPI_Put(o, 100, MPI_DOUBLE, to, 0, 100, MPI_DOUBLE, win),
	      "MPI_Put");
	check(!MPI_Get(res, 50, MPI_DOUBLE, to, 200, 50, MPI_DOUBLE, win),
	      "MPI_Get");
	check(!MPI_Accumulate(o, 25, MPI_DOUBLE, to, 300, 25, MPI_DOUBLE,
			      MPI_SUM, win),
	      "MPI_Accumulate");
	check(!MPI_Win_fence(0, win), "MPI_Win_fence");
	/* passive target, lock: Get_accumulate 10 doubles (and 10 with
	 * MPI_NO_OP), Fetch_and_op one double, Compare_and_swap one long */
	check(!MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win), "MPI_Win_lock");
	check(!MPI_Get_accumulate(o, 10, MPI_DOUBLE, res, 10, MPI_DOUBLE, to,
				  400, 10, MPI_DOUBLE, MPI_SUM, win),
	      "MPI_Get_accumulate");
	check(!MPI_Get_accumulate(o, 10, MPI_DOUBLE, res, 10, MPI_DOUBLE, to,
				  400, 10, MPI_DOUBLE, MPI_NO_OP, win),
	      "MPI_Get_accumulate");
	check(!MPI_Fetch_and_op(o, res, MPI_DOUBLE, to, 500, MPI_SUM, win),
	      "MPI_Fetch_and_op");
	check(!MPI_Win_flush(to, win), "MPI_Win_flush");
	check(!MPI_Win_unlock(to, win), "MPI_Win_unlock");
	check(!MPI_Win_lock(MPI_LOCK_SHARED, to, 0, lwin), "MPI_Win_lock");
	check(!MPI_Compare_and_swap(&lo, &lc, &lr, MPI_LONG, to, 0, lwin),
	      "MPI_Compare_and_swap");
	check(!MPI_Win_unlock(to, lwin), "MPI_Win_unlock");
	/* passive target, lock_all: the request-based forms (Rput 20,
	 * Rget 30, Raccumulate 5, Rget_accumulate 6 + 6 doubles) */
	check(!MPI_Win_lock_all(0, win), "MPI_Win_lock_all");
	check(!MPI_Rput(o, 20, MPI_DOUBLE, to, 600, 20, MPI_DOUBLE, win, &q[0]),
	      "MPI_Rput");
	check(!MPI_Rget(res + 100, 30, MPI_DOUBLE, to, 700, 30, MPI_DOUBLE, win,
			&q[1]),
	      "MPI_Rget");
	check(!MPI_Raccumulate(o, 5, MPI_DOUBLE, to, 800, 5, MPI_DOUBLE,
			       MPI_SUM, win, &q[2]),
	      "MPI_Raccumulate");
	check(!MPI_Rget_accumulate(o, 6, MPI_DOUBLE, res + 200, 6, MPI_DOUBLE,
				   to, 900, 6, MPI_DOUBLE, MPI_SUM, win, &q[3]),
	      "MPI_Rget_accumulate");
	check(!MPI_Waitall(4, q, sts), "MPI_Waitall");
	check(!MPI_Win_flush_all(win), "MPI_Win_flush_all");
	check(!MPI_Win_flush_local(to, win), "MPI_Win_flush_local");
	check(!MPI_Win_flush_local_all(win), "MPI_Win_flush_local_all");
	check(!MPI_Win_sync(win), "MPI_Win_sync");
	check(!MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
	/* general active target (PSCW): Put 4 doubles to the upper
	 * neighbour, exposed to the lower one */
	MPI_Group world, up, down;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &to, &up);
	MPI_Group_incl(world, 1, &from, &down);
	MPI_Barrier(MPI_COMM_WORLD);
	check(!MPI_Win_post(down, 0, win), "MPI_Win_post");
	check(!MPI_Win_start(up, 0, win), "MPI_Win_start");
	check(!MPI_Put(o, 4, MPI_DOUBLE, to, 1000, 4, MPI_DOUBLE, win),
	      "MPI_Put");
	check(!MPI_Win_complete(win), "MPI_Win_complete");
	check(!MPI_Win_wait(win), "MPI_Win_wait");
	MPI_Group_free(&up);
	MPI_Group_free(&down);
	MPI_Group_free(&world);
	/* the others wait for rank 0 in the fence (collective) */
	if (me == 0)
		spin(spin_ms);
	check(!MPI_Win_fence(0, win), "MPI_Win_fence");
	check(res[0] >= 0 && lr >= 0, "one-sided results");
	MPI_Win_free(&lwin);
	MPI_Win_free(&win);
}

/* MPI-IO on one file: rank r's region is bytes [r*16000, (r+1)*16000) */
static void fileio(const char *path)
{
	static int b[4096];
	MPI_File fh;
	MPI_Status st;
	MPI_Request q;
	int n = -1;
	MPI_Offset at = (MPI_Offset)me * 16000;
	for (int i = 0; i < 4096; i++)
		b[i] = i;
	check(!MPI_File_open(MPI_COMM_WORLD, path,
			     MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			     &fh),
	      "MPI_File_open");
	check(!MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
				 MPI_INFO_NULL),
	      "MPI_File_set_view");
	/* writes: at 4000 ints, at_all 1000; through the individual
	 * pointer 10 and 10 (all); shared 20, ordered 20; the I- forms 5,
	 * 5 (all), 6 at, 6 at_all, 7 shared */
	check(!MPI_File_write_at(fh, at, b, 4000, MPI_INT, &st), "write_at");
	MPI_Get_count(&st, MPI_INT, &n);
	check(n == 4000, "MPI_File_write_at: short write");
	check(!MPI_File_write_at_all(fh, at, b, 1000, MPI_INT,
				     MPI_STATUS_IGNORE),
	      "MPI_File_write_at_all");
	check(!MPI_File_write(fh, b, 10, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_write");
	check(!MPI_File_write_all(fh, b, 10, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_write_all");
	check(!MPI_File_write_shared(fh, b, 20, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_write_shared");
	check(!MPI_File_write_ordered(fh, b, 20, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_write_ordered");
	check(!MPI_File_iwrite(fh, b, 5, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iwrite");
	check(!MPI_File_iwrite_all(fh, b, 5, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iwrite_all");
	check(!MPI_File_iwrite_at(fh, at, b, 6, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iwrite_at");
	check(!MPI_File_iwrite_at_all(fh, at, b, 6, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iwrite_at_all");
	check(!MPI_File_iwrite_shared(fh, b, 7, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iwrite_shared");
	check(!MPI_File_sync(fh), "MPI_File_sync");
	MPI_Barrier(MPI_COMM_WORLD);
	/* reads, all inside the 64000 bytes written: at 300 ints, at_all
	 * 300; from offset 0, 200 and 200 (all); shared 100, ordered 100;
	 * the I- forms 50, 50 (all), 30 at, 30 at_all, 10 shared */
	check(!MPI_File_read_at(fh, at, b, 300, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read_at");
	check(!MPI_File_read_at_all(fh, at, b, 300, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read_at_all");
	check(!MPI_File_seek(fh, 0, MPI_SEEK_SET), "MPI_File_seek");
	check(!MPI_File_read(fh, b, 200, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read");
	check(!MPI_File_read_all(fh, b, 200, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read_all");
	check(!MPI_File_seek_shared(fh, 0, MPI_SEEK_SET),
	      "MPI_File_seek_shared");
	check(!MPI_File_read_shared(fh, b, 100, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read_shared");
	check(!MPI_File_read_ordered(fh, b, 100, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_read_ordered");
	check(!MPI_File_iread(fh, b, 50, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iread");
	check(!MPI_File_iread_all(fh, b, 50, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iread_all");
	check(!MPI_File_iread_at(fh, at, b, 30, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iread_at");
	check(!MPI_File_iread_at_all(fh, at, b, 30, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iread_at_all");
	check(!MPI_File_iread_shared(fh, b, 10, MPI_INT, &q) &&
		      !MPI_Wait(&q, MPI_STATUS_IGNORE),
	      "MPI_File_iread_shared");
	check(!MPI_File_close(&fh), "MPI_File_close");
	if (me == 0)
		MPI_File_delete(path, MPI_INFO_NULL);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc < 2 || np != NP) {
		if (me == 0)
			fprintf(stderr, "usage: mpirun -np %d mpimore FILE "
					"[SPIN_MS]\n", NP);
		MPI_Finalize();
		return 2;
	}
	int spin_ms = argc > 2 ? atoi(argv[2]) : 300;
	collectives();
	neighbours(spin_ms);
	persistent();
	matched();
	onesided(spin_ms);
	fileio(argv[1]);
	MPI_Finalize();
	if (me == 0)
		printf("mpimore: %d ranks done\n", np);
	return 0;
}
