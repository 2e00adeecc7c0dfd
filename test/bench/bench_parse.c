/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_parse: parser throughput on a synthetic log (test/common/logsynth,
 * written with the real encoder).  Times full parses with maplog_open(fd)
 * from the page cache and with one maplog_feed() of the whole file held in
 * memory, pinned to one CPU, and checks the parsed records against what
 * logsynth wrote so that a fast but wrong parser cannot pass.  It reports
 * against the targets of the issue (>= 1000 MB/s, >= 20e6 records/s) and
 * exits 0 whether they are met or not: a benchmark reports, it does not
 * gate.  It exits 1 only when the parse is wrong or cannot run.
 *
 *   bench_parse [-n SAMPLES] [-t THREADS] [-k STACKS] [-c CHUNK] [-P]
 *               [-r REPS] [-o PATH] [-C CPU]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mapsample/maplog.h>

#include "log/maplog_format.h" /* maplog_cpu_pext(), maplog_cpu_force_portable() */
#include "test/common/logsynth.h"

#define TARGET_MBPS 1000.0
#define TARGET_RECPS 20e6
#define IO_BLOCK (8u << 20)

/* What one parse saw: the consumer work the timed loop does. */
struct tally {
	uint64_t types[MAPLOG_TYPE_MAX_];
	uint64_t records;   /* OK events */
	uint64_t npc_sum;   /* sum of sa_npc */
	uint64_t weight_sum;/* sum of sa_weight */
	uint64_t leaf_xor;  /* xor of sa_pc[0]: touches the frames */
	uint64_t bytes;     /* st_bytes */
	uint64_t chunks;    /* st_chunks */
	int bad;            /* error event or truncated EOF */
	struct maplog_ev last;
};

struct timing {
	double t[64];
	unsigned n;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const struct timing *tm)
{
	double s[64];
	memcpy(s, tm->t, tm->n * sizeof(double));
	qsort(s, tm->n, sizeof(double), cmp_double);
	return tm->n & 1 ? s[tm->n / 2]
			 : (s[tm->n / 2 - 1] + s[tm->n / 2]) / 2;
}

static double best(const struct timing *tm)
{
	double b = tm->t[0];
	for (unsigned i = 1; i < tm->n; i++)
		if (tm->t[i] < b)
			b = tm->t[i];
	return b;
}

/* Pulls every record out of p, doing the minimal consumer work. */
static void drain(maplog *p, struct tally *t)
{
	struct maplog_ev ev;
	uint64_t types[MAPLOG_TYPE_MAX_] = {0};
	uint64_t npc = 0, weight = 0, leaf = 0;
	while (maplog_read(p, &ev) == 0) {
		types[(unsigned)ev.ev_type < MAPLOG_TYPE_MAX_ ? ev.ev_type
							      : 0]++;
		if (ev.ev_type == MAPLOG_TYPE_SAMPLE) {
			npc += ev.ev_u.sample.sa_npc;
			weight += ev.ev_u.sample.sa_weight;
			if (ev.ev_u.sample.sa_npc)
				leaf ^= ev.ev_u.sample.sa_pc[0];
		}
	}
	memcpy(t->types, types, sizeof(types));
	t->records = 0;
	for (int i = 0; i < MAPLOG_TYPE_MAX_; i++)
		t->records += types[i];
	t->npc_sum = npc;
	t->weight_sum = weight;
	t->leaf_xor = leaf;
	t->last = ev;
	t->bad = ev.ev_state != MAPLOG_EOF || ev.ev_u.eof.eof_truncated;
	struct maplog_stats st;
	maplog_stats(p, &st);
	t->bytes = st.st_bytes;
	t->chunks = st.st_chunks;
	if (st.st_damaged || st.st_unknown)
		t->bad = 1;
}

/* One parse of the file through read(2).  Returns seconds, or -1. */
static double parse_file(const char *path, struct tally *t)
{
	double t0 = now();
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	maplog *p = maplog_open(fd);
	if (!p) {
		close(fd);
		return -1;
	}
	drain(p, t);
	maplog_close(p);
	close(fd);
	return now() - t0;
}

/* One parse of the in-memory copy: open, one feed, end, read to EOF.
 * *feed gets the time maplog_feed took (it copies the bytes), *decode the
 * time of the read loop alone.  Returns the whole time, or -1. */
static double parse_mem(const uint8_t *buf, size_t len, struct tally *t,
			double *feed, double *decode)
{
	double t0 = now();
	maplog *p = maplog_open(MAPLOG_FD_NONE);
	if (!p)
		return -1;
	if (maplog_feed(p, buf, len) || maplog_feed(p, NULL, 0)) {
		maplog_close(p);
		return -1;
	}
	double t1 = now();
	drain(p, t);
	double t2 = now();
	maplog_close(p);
	double t3 = now();
	*feed = t1 - t0;
	*decode = t2 - t1;
	return t3 - t0;
}

/* Reads the whole file with read(2) and nothing else: the I/O floor. */
static double read_only(const char *path, uint8_t *scratch, uint64_t *sum)
{
	double t0 = now();
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n;
	uint64_t s = 0;
	while ((n = read(fd, scratch, IO_BLOCK)) > 0)
		s += scratch[n - 1]; /* keep the read from being dropped */
	close(fd);
	*sum += s;
	return n < 0 ? -1 : now() - t0;
}

/* 1 if the file at path holds exactly buf[0..len), else 0. */
static int same_file(const char *path, const uint8_t *buf, size_t len)
{
	struct stat sb;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) || (uint64_t)sb.st_size != len) {
		close(fd);
		return 0;
	}
	uint8_t *tmp = malloc(IO_BLOCK);
	size_t off = 0;
	int same = tmp != NULL;
	while (same && off < len) {
		ssize_t n = read(fd, tmp, IO_BLOCK);
		if (n <= 0 || (size_t)n > len - off ||
		    memcmp(tmp, buf + off, (size_t)n))
			same = 0;
		else
			off += (size_t)n;
	}
	free(tmp);
	close(fd);
	return same;
}

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
	size_t tn = strlen(path) + 32;
	char *tmp = malloc(tn);
	if (!tmp)
		return -1;
	snprintf(tmp, tn, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		off += (size_t)n;
	}
	int rc = 0;
	if (close(fd) || rename(tmp, path)) {
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	return rc;
}

/* Compares a parse with what logsynth wrote; prints what differs. */
static int verify(const struct tally *t, const struct logsynth_result *res,
		  const char *what)
{
	int ok = !t->bad;
	if (t->bad)
		fprintf(stderr, "bench_parse: %s: parse ended in state %d "
				"(error %d at byte %llu) or damaged/truncated\n",
			what, (int)t->last.ev_state, t->last.ev_error,
			(unsigned long long)t->last.ev_offset);
	for (int i = 0; i < MAPLOG_TYPE_MAX_; i++) {
		uint64_t want = i == MAPLOG_TYPE_STACK ? 0 : res->records[i];
		if (t->types[i] != want) {
			fprintf(stderr, "bench_parse: %s: %s records: parsed "
					"%llu, written %llu\n",
				what, maplog_type_name(i),
				(unsigned long long)t->types[i],
				(unsigned long long)want);
			ok = 0;
		}
	}
	if (t->weight_sum != res->weight_sum || t->npc_sum != res->frames ||
	    t->bytes != res->bytes || t->chunks != res->chunks) {
		fprintf(stderr, "bench_parse: %s: sums differ: weight %llu/%llu "
				"frames %llu/%llu bytes %llu/%llu chunks "
				"%llu/%llu (parsed/written)\n",
			what, (unsigned long long)t->weight_sum,
			(unsigned long long)res->weight_sum,
			(unsigned long long)t->npc_sum,
			(unsigned long long)res->frames,
			(unsigned long long)t->bytes,
			(unsigned long long)res->bytes,
			(unsigned long long)t->chunks,
			(unsigned long long)res->chunks);
		ok = 0;
	}
	return ok;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bench_parse [-n SAMPLES] [-t THREADS] [-k STACKS] "
		"[-c CHUNK_BYTES] [-P] [-p] [-r REPS] [-o PATH] [-C CPU]\n"
		"  -n  samples in the synthetic log (default 10000000)\n"
		"  -t  threads (default 8)\n"
		"  -k  distinct stacks (default 2000)\n"
		"  -c  chunk size in bytes (default 1048576)\n"
		"  -P  plain: samples (and stacks) only, no other record "
		"types\n"
		"  -p  portable decoders even where the CPU has fast BMI2 pext "
		"(what CPUs without it run)\n"
		"  -r  timed repetitions of each parse (default 5, max 64)\n"
		"  -o  log path (default $TMPDIR/mapsample-bench-<params>.log);"
		" reused when its bytes are what these parameters write\n"
		"  -C  CPU to pin to (default: the one it starts on; -1: none)\n");
}

static unsigned long long num(const char *s, const char *what)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (!*s || *e || errno) {
		fprintf(stderr, "bench_parse: %s: not a number: %s\n", what, s);
		exit(2);
	}
	return v;
}

static void row(const char *name, const struct timing *tm, double bytes,
		double records)
{
	double med = median(tm), b = best(tm);
	printf("%-26s %9.4f %9.4f %9.1f %9.1f", name, med, b,
	       bytes / med / 1e6, bytes / b / 1e6);
	if (records)
		printf(" %9.2f %8.2f\n", records / med / 1e6,
		       med / records * 1e9);
	else
		printf(" %9s %8s\n", "-", "-");
}

int main(int argc, char **argv)
{
	struct logsynth_opts o;
	logsynth_defaults(&o);
	o.samples = 10000000;
	o.threads = 8;
	unsigned reps = 5;
	long cpu_want = -2; /* -2: current CPU, -1: do not pin */
	const char *out = NULL;
	int c;
	while ((c = getopt(argc, argv, "n:t:k:c:Ppr:o:C:h")) != -1) {
		switch (c) {
		case 'n': o.samples = num(optarg, "-n"); break;
		case 't': o.threads = (uint32_t)num(optarg, "-t"); break;
		case 'k': o.distinct_stacks = (uint32_t)num(optarg, "-k"); break;
		case 'c': o.chunk_size = (uint32_t)num(optarg, "-c"); break;
		case 'P': o.all_types = 0; break;
		case 'p': maplog_cpu_force_portable(1); break;
		case 'r': reps = (unsigned)num(optarg, "-r"); break;
		case 'o': out = optarg; break;
		case 'C':
			cpu_want = strcmp(optarg, "-1") == 0
					   ? -1
					   : (long)num(optarg, "-C");
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || reps < 1 || reps > 64) {
		usage(stderr);
		return 2;
	}
	char defpath[4096];
	if (!out) {
		const char *tmp = getenv("TMPDIR");
		snprintf(defpath, sizeof(defpath),
			 "%s/mapsample-bench-n%llu-t%u-k%u-d%u:%u-c%u-s%llu%s.log",
			 tmp && *tmp ? tmp : "/tmp",
			 (unsigned long long)o.samples, o.threads,
			 o.distinct_stacks, o.min_depth, o.max_depth,
			 o.chunk_size, (unsigned long long)o.seed,
			 o.all_types ? "" : "-plain");
		out = defpath;
	}

	int cpu = -1;
	if (cpu_want != -1) {
		cpu_set_t set;
		cpu = cpu_want >= 0 ? (int)cpu_want : sched_getcpu();
		CPU_ZERO(&set);
		if (cpu >= 0)
			CPU_SET(cpu, &set);
		if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "bench_parse: cannot pin to CPU %d: %s; "
					"running unpinned\n",
				cpu, strerror(errno));
			cpu = -1;
		}
	}

	/* Generate in memory; the file is rewritten only if it differs. */
	struct logsynth_result res;
	uint8_t *mem = NULL;
	size_t len = 0;
	double tg = now();
	int rc = logsynth_to_mem(&o, &mem, &len, &res);
	tg = now() - tg;
	if (rc) {
		fprintf(stderr, "bench_parse: logsynth: %s\n",
			maps_strerror(rc));
		return 1;
	}
	int reused = same_file(out, mem, len);
	if (!reused && write_file(out, mem, len)) {
		fprintf(stderr, "bench_parse: %s: cannot write: %s; "
				"give a writable path with -o\n",
			out, strerror(errno));
		return 1;
	}

	uint8_t *scratch = malloc(IO_BLOCK);
	if (!scratch) {
		fprintf(stderr, "bench_parse: out of memory\n");
		return 1;
	}
	uint64_t sink = 0;
	if (read_only(out, scratch, &sink) < 0) { /* warm the page cache */
		fprintf(stderr, "bench_parse: %s: %s\n", out, strerror(errno));
		return 1;
	}

	char load[128] = "?";
	FILE *lf = fopen("/proc/loadavg", "r");
	if (lf) {
		if (fgets(load, sizeof(load), lf))
			load[strcspn(load, "\n")] = 0;
		fclose(lf);
	}

	struct timing t_read = {.n = 0}, t_file = {.n = 0}, t_mem = {.n = 0},
		      t_feed = {.n = 0}, t_dec = {.n = 0};
	struct tally tf, tmm;
	int ok = 1;
	for (unsigned i = 0; i < reps; i++) {
		double s = read_only(out, scratch, &sink);
		if (s < 0) {
			fprintf(stderr, "bench_parse: %s: %s\n", out,
				strerror(errno));
			return 1;
		}
		t_read.t[t_read.n++] = s;
	}
	for (unsigned i = 0; i < reps; i++) {
		memset(&tf, 0, sizeof(tf));
		double s = parse_file(out, &tf);
		if (s < 0) {
			fprintf(stderr, "bench_parse: %s: %s\n", out,
				strerror(errno));
			return 1;
		}
		t_file.t[t_file.n++] = s;
		ok &= verify(&tf, &res, "file parse");
	}
	for (unsigned i = 0; i < reps; i++) {
		double fd_s, dec_s;
		memset(&tmm, 0, sizeof(tmm));
		double s = parse_mem(mem, len, &tmm, &fd_s, &dec_s);
		if (s < 0) {
			fprintf(stderr, "bench_parse: memory parse: out of "
					"memory\n");
			return 1;
		}
		t_mem.t[t_mem.n++] = s;
		t_feed.t[t_feed.n++] = fd_s;
		t_dec.t[t_dec.n++] = dec_s;
		ok &= verify(&tmm, &res, "memory parse");
	}
	if (tf.leaf_xor != tmm.leaf_xor) {
		fprintf(stderr, "bench_parse: leaf PCs differ between file "
				"and memory parse\n");
		ok = 0;
	}

	double bytes = (double)len, recs = (double)tf.records;
	printf("bench_parse: synthetic log %s (%s)\n", out,
	       reused ? "reused" : "written");
	printf("  %llu bytes (%.1f MB), %llu chunks, %llu samples, "
	       "%llu records returned, %.2f bytes/sample\n",
	       (unsigned long long)len, bytes / 1e6,
	       (unsigned long long)res.chunks,
	       (unsigned long long)res.records[MAPLOG_TYPE_SAMPLE],
	       (unsigned long long)tf.records,
	       (double)len / (double)(res.records[MAPLOG_TYPE_SAMPLE]
					      ? res.records[MAPLOG_TYPE_SAMPLE]
					      : 1));
	printf("  %llu stack records (not returned), threads %u, stacks %u, "
	       "depth %u..%u, chunk %u, %s, generated in %.2f s\n",
	       (unsigned long long)res.records[MAPLOG_TYPE_STACK], o.threads,
	       o.distinct_stacks, o.min_depth, o.max_depth, o.chunk_size,
	       o.all_types ? "all record types" : "samples only", tg);
	if (cpu >= 0)
		printf("  pinned to CPU %d; ", cpu);
	else
		printf("  not pinned; ");
	printf("%u repetitions; decoders: %s; loadavg %s\n\n", reps,
	       maplog_cpu_pext() ? "BMI2 pext" : "portable", load);

	printf("%-26s %9s %9s %9s %9s %9s %8s\n", "", "median", "best",
	       "MB/s", "MB/s", "Mrec/s", "ns/rec");
	printf("%-26s %9s %9s %9s %9s %9s %8s\n", "mode", "s", "s", "(median)",
	       "(best)", "(median)", "(median)");
	row("read(2) of file, no parse", &t_read, bytes, 0);
	row("file: maplog_open(fd)", &t_file, bytes, recs);
	row("memory: open+feed+reads", &t_mem, bytes, recs);
	row("memory: maplog_feed only", &t_feed, bytes, 0);
	row("memory: maplog_read only", &t_dec, bytes, recs);

	printf("\nchecksums (file parse; memory parse %s):\n",
	       ok ? "identical" : "see errors");
	for (int i = 1; i < MAPLOG_TYPE_MAX_; i++)
		if (tf.types[i] || res.records[i])
			printf("  %-14s %12llu   written %12llu%s\n",
			       maplog_type_name(i),
			       (unsigned long long)tf.types[i],
			       (unsigned long long)res.records[i],
			       i == MAPLOG_TYPE_STACK ? " (not returned)" : "");
	printf("  sum sa_weight  %20llu   written %20llu\n",
	       (unsigned long long)tf.weight_sum,
	       (unsigned long long)res.weight_sum);
	printf("  sum sa_npc     %20llu   written %20llu\n",
	       (unsigned long long)tf.npc_sum, (unsigned long long)res.frames);
	printf("  xor leaf PC    %#20llx\n", (unsigned long long)tf.leaf_xor);

	double fmed = median(&t_file);
	double mbps = bytes / fmed / 1e6, recps = recs / fmed;
	double dmed = median(&t_dec);
	printf("\ntargets (file parse, median, single core):\n");
	printf("  %-24s %10.1f  %s\n", ">= 1000 MB/s", mbps,
	       mbps >= TARGET_MBPS ? "met" : "NOT met");
	printf("  %-24s %10.2fM %s\n", ">= 20M records/s", recps / 1e6,
	       recps >= TARGET_RECPS ? "met" : "NOT met");
	printf("bench_parse: MB/s=%.1f records/s=%.0f ns/record=%.2f "
	       "best_MB/s=%.1f mem_MB/s=%.1f mem_records/s=%.0f "
	       "samples=%llu bytes=%llu checksums=%s targets=%s\n",
	       mbps, recps, fmed / recs * 1e9, bytes / best(&t_file) / 1e6,
	       bytes / dmed / 1e6, recs / dmed,
	       (unsigned long long)res.records[MAPLOG_TYPE_SAMPLE],
	       (unsigned long long)len, ok ? "ok" : "MISMATCH",
	       mbps >= TARGET_MBPS && recps >= TARGET_RECPS ? "met"
							    : "not-met");
	free(scratch);
	free(mem);
	if (sink == 42) /* never true in practice; uses the sink */
		fputc('\n', stderr);
	return ok ? 0 : 1;
}
