/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwork: an MPI program whose MPI traffic is known exactly, for the
 * mpi plugin's tests (test/integration/mapsample-mpi.sh).  Built with
 * each MPI's compiler wrapper (mpicc.openmpi, mpicc.mpich).
 *
 *   mpiwork [ROUNDS [WORK [exit]]]   (defaults 4 and 30000000)
 *
 * Each of ROUNDS rounds: every rank computes (rank 0 twice as long as
 * the others), then MPI_Barrier, then one MPI_Allreduce of 1000
 * doubles, then rank 0 sends 4096 bytes (MPI_BYTE) to every other
 * rank, which receives them with MPI_Recv and answers with 512 ints
 * (MPI_INT) that rank 0 receives with MPI_Recv from MPI_ANY_SOURCE.  So per round, rank 0
 * sends 4096 * (size - 1) bytes with MPI_Send and receives 2048 *
 * (size - 1) with MPI_Recv; every other rank receives 4096 and sends
 * 2048; every rank gives and gets 8000 bytes in MPI_Allreduce.  The
 * ranks other than 0 wait for rank 0 in the Barrier: their share of time
 * in MPI is the larger.  Prints the checksum on rank 0.  With "exit" as
 * third argument, ends with exit(0) without calling MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLREDUCE_N 1000
#define SEND_BYTES 4096
#define ANSWER_INTS 512

/* Work the compiler cannot drop: n steps of a multiplicative hash. */
static double compute(unsigned long n, unsigned long seed)
{
	volatile unsigned long x = seed | 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return (double)(x >> 40);
}

int main(int argc, char **argv)
{
	int rank, size;
	int rounds = argc > 1 ? atoi(argv[1]) : 4;
	unsigned long work = argc > 2 ? strtoul(argv[2], NULL, 10) : 30000000ul;
	static double in[ALLREDUCE_N], out[ALLREDUCE_N];
	static char msg[SEND_BYTES];
	static int answer[ANSWER_INTS];
	double sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int r = 0; r < rounds; r++) {
		double v = compute(rank == 0 ? 2 * work : work,
				   (unsigned long)(rank + r));
		for (int i = 0; i < ALLREDUCE_N; i++)
			in[i] = v + i;
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Allreduce(in, out, ALLREDUCE_N, MPI_DOUBLE, MPI_SUM,
			      MPI_COMM_WORLD);
		sum += out[0];
		if (rank == 0) {
			memset(msg, r, sizeof(msg));
			for (int p = 1; p < size; p++)
				MPI_Send(msg, SEND_BYTES, MPI_BYTE, p, 1,
					 MPI_COMM_WORLD);
			/* from whoever answers first: the substrate events
			 * name the peer from the status */
			for (int p = 1; p < size; p++) {
				MPI_Status st;
				MPI_Recv(answer, ANSWER_INTS, MPI_INT,
					 MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
			}
		} else {
			MPI_Status st;
			MPI_Recv(msg, SEND_BYTES, MPI_BYTE, 0, 1,
				 MPI_COMM_WORLD, &st);
			answer[0] = msg[0];
			MPI_Send(answer, ANSWER_INTS, MPI_INT, 0, 2,
				 MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("mpiwork: %d ranks, %d rounds, checksum %.0f\n", size,
		       rounds, sum);
	if (argc > 3 && strcmp(argv[3], "exit") == 0) {
		fflush(stdout);
		exit(0);
	}
	MPI_Finalize();
	return 0;
}
