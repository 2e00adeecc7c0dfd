/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mklog: write a synthetic mapsample log (test/common/logsynth) to a file,
 * for the demo, benchmarks and fuzz seeds.
 *
 *   mklog [-n SAMPLES] [-p PROCESSES] [-t THREADS] [-k STACKS]
 *         [-d MIN:MAX] [-c CHUNK] [-s SEED] [--open] [--plain]
 *         [--no-dedup] [--recursive] OUT
 *   mklog --metrics [-c CHUNK] [-s SEED] [--open] OUT
 *
 * --metrics writes the fixed metrics scenario (logsynth.h) instead of
 * random samples; --recursive makes stacks that are a recursion through
 * 3 functions below main.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "logsynth.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mklog [-n SAMPLES] [-p PROCESSES] [-t THREADS] "
		   "[-k STACKS] [-d MIN:MAX] [-c CHUNK_BYTES] [-s SEED] "
		   "[--open] [--plain] [--no-dedup] [--recursive] OUT\n"
		   "       mklog --metrics [-c CHUNK_BYTES] [-s SEED] [--open] OUT\n");
}

static unsigned long long num(const char *s, const char *what)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 0);
	if (!*s || *e) {
		fprintf(stderr, "mklog: %s: not a number: %s\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct logsynth_opts o;
	logsynth_defaults(&o);
	static const struct option lo[] = {
		{"open", no_argument, NULL, 'O'},
		{"plain", no_argument, NULL, 'P'},
		{"recursive", no_argument, NULL, 'R'},
		{"no-dedup", no_argument, NULL, 'D'},
		{"metrics", no_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "n:p:t:k:d:c:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n': o.samples = num(optarg, "-n"); break;
		case 'p': o.processes = (uint32_t)num(optarg, "-p"); break;
		case 't': o.threads = (uint32_t)num(optarg, "-t"); break;
		case 'k': o.distinct_stacks = (uint32_t)num(optarg, "-k"); break;
		case 'c': o.chunk_size = (uint32_t)num(optarg, "-c"); break;
		case 's': o.seed = num(optarg, "-s"); break;
		case 'd': {
			char *colon = strchr(optarg, ':');
			if (!colon) {
				fprintf(stderr, "mklog: -d wants MIN:MAX\n");
				return 2;
			}
			*colon = 0;
			o.min_depth = (uint32_t)num(optarg, "-d");
			o.max_depth = (uint32_t)num(colon + 1, "-d");
			break;
		}
		case 'O': o.leave_open = 1; break;
		case 'P': o.all_types = 0; break;
		case 'D': o.no_dedup = 1; break;
		case 'R': o.recursive = 1; break;
		case 'M': o.metrics = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	int fd = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	struct logsynth_result r;
	int rc = logsynth_to_fd(&o, fd, &r);
	if (close(fd) || rc) {
		fprintf(stderr, "mklog: %s: %s\n", argv[optind],
			rc ? maps_strerror(rc) : "close failed");
		return 1;
	}
	printf("%llu bytes, %llu samples, %llu stacks, %llu chunks, "
	       "%.2f bytes/sample\n",
	       (unsigned long long)r.bytes,
	       (unsigned long long)r.records[MAPLOG_TYPE_SAMPLE],
	       (unsigned long long)r.records[MAPLOG_TYPE_STACK],
	       (unsigned long long)r.chunks,
	       r.records[MAPLOG_TYPE_SAMPLE]
		       ? (double)r.bytes / (double)r.records[MAPLOG_TYPE_SAMPLE]
		       : 0.0);
	return 0;
}
