/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_ranks: the logs of a synthetic MPI job, one per rank, for
 * test/bench/ranks.sh.  Each is a test/common/logsynth log of one process
 * of THREADS threads with SAMPLES samples, its own pid (ranks on many
 * nodes may share pids; here they do not, so the report has one row per
 * rank) and its own seed, written with the project's encoder.  Unless -s
 * is given, each log is logsynth's job scenario: a JOB record (its rank,
 * RANKS, one job id), six metrics of the mpi, io and memory plugins with a
 * value at every sample, and MPI_CALLS records, as mapsample writes them
 * under mpirun; -s writes logsynth's default logs instead (the logs of
 * earlier benchmarks: every rank says it is rank 0 of 1, and two
 * metrics no built-in report uses have a value every 16 samples).
 *
 *   bench_ranks [-r RANKS] [-n SAMPLES] [-t THREADS] [-k STACKS] [-d] [-s]
 *               DIR
 *
 * writes DIR/rank-NNNNN.maplog for ranks 0 to RANKS-1 (default 64 ranks
 * of 10000 samples, 4 threads, 2000 distinct stacks each).  Exits 0, or
 * 1 when a log cannot be written (said on standard error).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test/common/logsynth.h"

int main(int argc, char **argv)
{
	struct logsynth_opts o;
	logsynth_defaults(&o);
	unsigned long ranks = 64;
	int c, distinct = 0;
	o.all_types = 0;
	o.job = 1;
	while ((c = getopt(argc, argv, "r:n:t:k:ds")) != -1) {
		switch (c) {
		case 'd': distinct = 1; break;
		case 's': o.job = 0; o.all_types = 1; break;
		case 'r': ranks = strtoul(optarg, NULL, 10); break;
		case 'n': o.samples = strtoull(optarg, NULL, 10); break;
		case 't': o.threads = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'k':
			o.distinct_stacks = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: bench_ranks [-r RANKS] "
					"[-n SAMPLES] [-t THREADS] [-k STACKS] "
					"[-d] [-s] DIR\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !ranks || ranks > 100000 || !o.threads ||
	    o.threads > 64) {
		fprintf(stderr, "bench_ranks: give one DIR; 1 to 100000 ranks, "
				"1 to 64 threads\n");
		return 2;
	}
	const char *dir = argv[optind];
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "bench_ranks: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (unsigned long r = 0; r < ranks; r++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/rank-%05lu.maplog", dir, r);
		o.seed = distinct ? r + 1 : 1;
		o.pid_base = 10000 + (uint32_t)r * 128;
		o.job_rank = (int32_t)r;
		o.job_size = (uint32_t)ranks;
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		struct logsynth_result res;
		if (fd < 0 || logsynth_to_fd(&o, fd, &res) || close(fd)) {
			fprintf(stderr, "bench_ranks: %s: cannot write\n", path);
			return 1;
		}
	}
	return 0;
}
