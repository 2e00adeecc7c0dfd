/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiranks: a small MPI program for the launch tests.  Every rank burns
 * CPU in rank_work() for about MS milliseconds of CPU time (argument 1,
 * default 300), rank 0 twice as long, then all meet in a barrier and an
 * allreduce of their ranks.  Once MPI_Init has run it tells the sampler
 * its rank as MPI sees it, the way a PMPI wrapper does
 * (mapsample_job_rank, looked up with dlsym: the program runs without
 * mapsample too).  Prints "rank R of N" and, on rank 0, "sum S".
 * Built with mpicc.openmpi and mpicc.mpich when configure finds them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long rank_work(double secs)
{
	volatile unsigned long x = 1;
	double end = cpu_seconds() + secs;
	while (cpu_seconds() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	void (*tell)(int, int) =
		(void (*)(int, int))dlsym(RTLD_DEFAULT, "mapsample_job_rank");
	if (tell)
		tell(rank, size);
	double ms = argc > 1 ? atof(argv[1]) : 300;
	rank_work((rank == 0 ? 2 : 1) * ms / 1000.0);
	MPI_Barrier(MPI_COMM_WORLD);
	int sum = 0;
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d\n", rank, size);
	if (rank == 0)
		printf("sum %d\n", sum);
	MPI_Finalize();
	return 0;
}
