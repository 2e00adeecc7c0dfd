/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_size: bytes per sample of the log format, against the size target
 * of the issue ("a stream of samples whose stacks repeat costs at most 24
 * bytes per sample on average") and the question of what one sample with a
 * 32-frame stack costs.  Streams of samples are encoded with mapw_* into
 * memory, one writer, chunk by chunk with a per-chunk stack table sized as
 * logsynth sizes it, and the committed bytes are sorted by kind (STACK
 * records, SAMPLE records, chunk headers, padding); logsynth logs (the
 * bytes mklog writes) are measured the same way.  It reports and exits 0;
 * it exits 1 only if the encoder fails or writes something unreadable.
 *
 *   bench_size [-n SAMPLES] [-s SEED]
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log/mapwrite.h"
#include "test/common/logsynth.h"

#define TARGET_BPS 24.0
#define NMOD 4
#define NFUNC 256
#define DEPTH32 32

/* ------------------------------------------------------------------ */
/* Deterministic random numbers and a program's address space, shaped like
 * logsynth's: an executable and three libraries at their usual places. */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* Skewed pick in [0, n): low indices much more likely (u^3), as logsynth. */
static uint32_t rnd_skew(struct rng *r, uint32_t n)
{
	double u = (double)(rnd(r) >> 11) / 9007199254740992.0;
	uint32_t i = (uint32_t)(u * u * u * n);
	return i < n ? i : n - 1;
}

struct prog {
	uint64_t fstart[NMOD][NFUNC];
	uint32_t fsize[NMOD][NFUNC];
};

static void prog_init(struct prog *g, struct rng *r)
{
	static const uint64_t bases[NMOD] = {
		0x555555554000ull, 0x7ffff7d80000ull, 0x7ffff7c90000ull,
		0x7ffff7a00000ull,
	};
	for (int m = 0; m < NMOD; m++) {
		uint64_t at = bases[m] + 0x1000;
		for (int f = 0; f < NFUNC; f++) {
			g->fstart[m][f] = at;
			g->fsize[m][f] = 64 + rnd_below(r, 2048);
			at += (g->fsize[m][f] + 15) & ~15ull;
		}
	}
}

static uint64_t pc_in(const struct prog *g, struct rng *r, int m, int f)
{
	return g->fstart[m][f] + 1 + rnd_below(r, g->fsize[m][f] - 1);
}

/* A stack of d frames (leaf first) with nothing in common with others. */
static void random_stack(const struct prog *g, struct rng *r, uint32_t d,
			 uint64_t *pc)
{
	for (uint32_t i = 0; i < d; i++)
		pc[i] = pc_in(g, r, (int)rnd_below(r, NMOD),
			      (int)rnd_below(r, NFUNC));
}

/*
 * n stacks of depth min..max that share root-side spines the way a call
 * tree does (as logsynth builds them): each takes 2..depth root frames
 * from one of 16 spines and random frames below.  Stack k is at
 * pc + k * max, its depth in depth[k].
 */
static void tree_stacks(const struct prog *g, struct rng *r, uint32_t n,
			uint32_t min, uint32_t max, uint64_t *pc,
			uint32_t *depth)
{
	enum { NSPINE = 16, SPLEN = 64 };
	uint64_t spine[NSPINE][SPLEN];
	for (int i = 0; i < NSPINE; i++) {
		spine[i][0] = g->fstart[1][3] + 0x2a; /* libc start */
		spine[i][1] = g->fstart[0][0] + 0x40; /* main */
		for (int d = 2; d < SPLEN; d++)
			spine[i][d] = pc_in(g, r, rnd_below(r, 8) < 6 ? 0 : 3,
					    (int)rnd_skew(r, NFUNC));
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t d = min + rnd_below(r, max - min + 1);
		uint64_t *st = pc + (size_t)k * max;
		const uint64_t *sp = spine[rnd_skew(r, NSPINE)];
		uint32_t shared = d > 2 ? 2 + rnd_below(r, d - 1) : d;
		if (shared > SPLEN)
			shared = SPLEN;
		if (shared > d)
			shared = d;
		for (uint32_t i = 0; i < shared; i++)
			st[d - 1 - i] = sp[i];
		for (uint32_t i = shared; i < d; i++)
			st[d - 1 - i] = pc_in(g, r, (int)rnd_below(r, NMOD),
					      (int)rnd_skew(r, NFUNC));
		depth[k] = d;
	}
}

/* ------------------------------------------------------------------ */
/* Where the bytes go */

struct acct {
	uint64_t file_hdr;  /* file header and padding up to the first chunk */
	uint64_t chunk_hdr; /* chunk headers */
	uint64_t pad;       /* padding of trimmed chunks to 8 bytes */
	uint64_t stack_b, sample_b, other_b; /* whole records, by kind */
	uint64_t stacks, samples, others, chunks;
	uint64_t stacks_based; /* STACK records that reuse a stored stack */
	uint64_t frames_new;   /* frames written in STACK records */
	uint64_t untrimmed;    /* bytes if no chunk but the last were trimmed */
};

static uint64_t acct_total(const struct acct *a)
{
	return a->file_hdr + a->chunk_hdr + a->pad + a->stack_b + a->sample_b +
	       a->other_b;
}

/* Sorts the records of the chunk at h by kind.  Returns the chunk's
 * capacity, or -1 if it does not parse. */
static long acct_chunk(struct acct *a, const uint8_t *h, size_t avail)
{
	if (avail < MAPLOG_CHUNK_HEADER_SIZE ||
	    maplog_ld32(h + MAPLOG_CH_MAGIC) != MAPLOG_CHUNK_MAGIC)
		return -1;
	uint32_t cap = maplog_ld32(h + MAPLOG_CH_CAPACITY);
	uint32_t used = maplog_ld32(h + MAPLOG_CH_USED);
	if (cap > avail || cap < MAPLOG_CHUNK_HEADER_SIZE ||
	    used > cap - MAPLOG_CHUNK_HEADER_SIZE)
		return -1;
	a->chunks++;
	a->chunk_hdr += MAPLOG_CHUNK_HEADER_SIZE;
	a->pad += cap - MAPLOG_CHUNK_HEADER_SIZE - used;
	const uint8_t *p = h + MAPLOG_CHUNK_HEADER_SIZE, *e = p + used;
	while (p < e) {
		const uint8_t *rec = p;
		int type = *p++;
		uint64_t len, v[4];
		if (maplog_get_varint(&p, e, &len) || len > (uint64_t)(e - p))
			return -1;
		const uint8_t *body = p;
		p += len;
		uint64_t n = (uint64_t)(p - rec);
		if (type == MAPLOG_TYPE_STACK) {
			/* ts delta, base, drop, new frames */
			for (int i = 0; i < 4; i++)
				if (maplog_get_varint(&body, p, &v[i]))
					return -1;
			a->stack_b += n;
			a->stacks++;
			a->stacks_based += v[1] != 0;
			a->frames_new += v[3];
		} else if (type == MAPLOG_TYPE_SAMPLE) {
			a->sample_b += n;
			a->samples++;
		} else {
			a->other_b += n;
			a->others++;
		}
	}
	return (long)cap;
}

/* Sorts a whole log (file header, chunks end to end) by kind. */
static int acct_log(struct acct *a, const uint8_t *buf, size_t len)
{
	if (len < MAPLOG_FILE_HEADER_SIZE)
		return -1;
	size_t off = maplog_ld32(buf + MAPLOG_FH_DATA_OFFSET);
	a->file_hdr += off;
	while (off < len) {
		long cap = acct_chunk(a, buf + off, len - off);
		if (cap < 0)
			return -1;
		off += (size_t)cap;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* One writer encoding samples chunk after chunk, as a sampler thread does */

struct enc {
	uint32_t chunk;
	uint8_t *mem;
	void *stabmem;
	struct mapw_stab stab;
	struct mapw_chunk c;
	struct mapw_chunk_id id;
	int open;
	int use_stab;
	uint32_t nslots, frames;
	struct acct a;
};

static int enc_init(struct enc *e, uint32_t chunk, int use_stab)
{
	memset(e, 0, sizeof(*e));
	e->chunk = chunk;
	e->use_stab = use_stab;
	e->mem = calloc(1, chunk);
	/* as logsynth: nslots the power of two >= chunk/64 (at least 64),
	 * arena chunk/8 frames */
	e->nslots = 64;
	while (e->nslots < chunk / 64)
		e->nslots *= 2;
	e->frames = chunk / 8;
	if (!e->mem)
		return MAPS_ENOMEM;
	if (use_stab) {
		e->stabmem = calloc(1, mapw_stab_size(e->nslots, e->frames));
		if (!e->stabmem || mapw_stab_init(&e->stab, e->stabmem,
						  e->nslots, e->frames))
			return MAPS_ENOMEM;
	}
	e->id.pid = 4000;
	e->id.tid = 4000;
	e->a.file_hdr = MAPLOG_FILE_HEADER_SIZE;
	e->a.untrimmed = MAPLOG_FILE_HEADER_SIZE;
	return 0;
}

static void enc_free(struct enc *e)
{
	free(e->mem);
	free(e->stabmem);
}

/* Seals the open chunk and accounts for it.  last: the stream ends here,
 * so an untrimmed writer would also stop at the data. */
static int enc_flush(struct enc *e, int last)
{
	if (!e->open)
		return 0;
	uint32_t cap = mapw_chunk_trim(&e->c);
	mapw_chunk_seal(&e->c);
	e->open = 0;
	e->a.untrimmed += last ? cap : e->chunk;
	return acct_chunk(&e->a, e->mem, cap) < 0 ? MAPS_EBADRECORD : 0;
}

static int enc_sample(struct enc *e, uint64_t ts, uint64_t weight,
		      uint32_t npc, const uint64_t *pc)
{
	for (int tries = 0; tries < 2; tries++) {
		if (!e->open) {
			int rc = mapw_chunk_open(&e->c, e->mem, e->chunk,
						 &e->id, ts,
						 e->use_stab ? &e->stab : NULL);
			if (rc)
				return rc;
			e->id.seq++;
			e->open = 1;
		}
		int rc = mapw_sample(&e->c, ts, 0, weight, npc, pc);
		if (rc != MAPS_ENOSPC)
			return rc;
		if ((rc = enc_flush(e, 0)))
			return rc;
	}
	return MAPS_EBADSIZE;
}

/* Sample clock as logsynth has it: 1 ms +- 20 us of weight, a little
 * more wall time between samples. */
struct clockgen {
	uint64_t ts;
};

static uint64_t next_sample(struct clockgen *k, struct rng *r, uint64_t *w)
{
	*w = 1000000 - 20000 + rnd_below(r, 40000);
	k->ts += *w + rnd_below(r, 5000);
	return k->ts;
}

/* ------------------------------------------------------------------ */
/* Scenarios */

enum scen {
	S_REPEAT200, /* (a) 200 stacks, depth 8..32, uniform picks */
	S_ZIPF2000,  /* (b) 2000 stacks, skewed picks, 25% leaf moves */
	S_FRESH32,   /* (c) a new random 32-frame stack every sample */
	S_FIXED32,   /* (d) one 32-frame stack every sample */
};

static const char *const scen_name[] = {
	"(a) 200 stacks, repeating",
	"(b) 2000 stacks + leaf var.",
	"(c) fresh 32-frame stack",
	"(d) one 32-frame stack",
};

static int run_scen(enum scen sc, uint32_t chunk, int use_stab,
		    uint64_t nsamples, uint64_t seed, struct acct *out)
{
	struct rng r = {seed};
	struct prog g;
	struct enc e;
	struct clockgen k = {1000000000ull};
	uint32_t nst = sc == S_REPEAT200 ? 200 : sc == S_ZIPF2000 ? 2000 : 1;
	uint64_t *stacks = malloc((size_t)nst * DEPTH32 * sizeof(uint64_t));
	uint32_t *depth = malloc(nst * sizeof(uint32_t));
	uint64_t cur[DEPTH32];
	int rc = enc_init(&e, chunk, use_stab);
	if (!stacks || !depth)
		rc = MAPS_ENOMEM;
	if (rc)
		goto out;
	prog_init(&g, &r);
	if (sc == S_REPEAT200 || sc == S_ZIPF2000)
		tree_stacks(&g, &r, nst, 8, DEPTH32, stacks, depth);
	else
		random_stack(&g, &r, DEPTH32, stacks);
	for (uint64_t i = 0; i < nsamples; i++) {
		uint64_t w, ts = next_sample(&k, &r, &w);
		const uint64_t *pc = stacks;
		uint32_t d = DEPTH32;
		switch (sc) {
		case S_REPEAT200: {
			uint32_t j = rnd_below(&r, nst);
			pc = stacks + (size_t)j * DEPTH32;
			d = depth[j];
			break;
		}
		case S_ZIPF2000: {
			uint32_t j = rnd_skew(&r, nst);
			d = depth[j];
			memcpy(cur, stacks + (size_t)j * DEPTH32,
			       d * sizeof(uint64_t));
			if (rnd_below(&r, 4) == 0)
				cur[0] += 4 * rnd_below(&r, 16);
			pc = cur;
			break;
		}
		case S_FRESH32:
			random_stack(&g, &r, DEPTH32, cur);
			pc = cur;
			break;
		case S_FIXED32:
			break;
		}
		if ((rc = enc_sample(&e, ts, w, d, pc)))
			goto out;
	}
	rc = enc_flush(&e, 1);
	*out = e.a;
out:
	enc_free(&e);
	free(stacks);
	free(depth);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Output */

static void header(const char *first)
{
	printf("%-30s %5s %8s %8s %8s %8s %8s %8s %6s\n", first, "chunk",
	       "B/sample", "stack", "sample", "hdr+pad", "other", "untrim",
	       "stk/1k");
}

static void acct_row(const char *name, uint32_t chunk, const struct acct *a)
{
	double n = a->samples ? (double)a->samples : 1.0;
	printf("%-30s %4uK %8.2f %8.2f %8.2f %8.2f %8.2f", name, chunk >> 10,
	       (double)acct_total(a) / n, (double)a->stack_b / n,
	       (double)a->sample_b / n,
	       (double)(a->file_hdr + a->chunk_hdr + a->pad) / n,
	       (double)a->other_b / n);
	if (a->untrimmed)
		printf(" %8.2f", (double)a->untrimmed / n);
	else
		printf(" %8s", "-");
	printf(" %6.1f\n", 1000.0 * (double)a->stacks / n);
}

struct cost {
	double sum;
	uint32_t min, max, n;
};

static void cost_add(struct cost *c, uint32_t b)
{
	if (!c->n || b < c->min)
		c->min = b;
	if (!c->n || b > c->max)
		c->max = b;
	c->sum += b;
	c->n++;
}

static double cost_mean(const struct cost *c)
{
	return c->n ? c->sum / c->n : 0.0;
}

/*
 * Bytes one sample with a 32-frame stack adds to a chunk (1 MiB, table as
 * above) that already holds `warm` stacks, so that stack ids take their
 * usual two bytes.  Measured as the growth of the committed payload.
 */
struct costs {
	struct cost repeat, leaf, few, fresh, notab;
};

static int sample_costs(uint64_t seed, struct costs *cs)
{
	struct rng r = {seed ^ 0x5eed};
	struct prog g;
	struct enc e, en;
	struct clockgen k = {1000000000ull};
	uint64_t s[DEPTH32], s2[DEPTH32], w, ts;
	const uint32_t chunk = 1u << 20, warm = 200, trials = 1000;
	int rc;
	memset(cs, 0, sizeof(*cs));
	prog_init(&g, &r);
	if ((rc = enc_init(&e, chunk, 1)) || (rc = enc_init(&en, chunk, 0)))
		goto out;
	for (uint32_t i = 0; i < warm; i++) {
		random_stack(&g, &r, DEPTH32, s);
		ts = next_sample(&k, &r, &w);
		if ((rc = enc_sample(&e, ts, w, DEPTH32, s)) ||
		    (rc = enc_sample(&en, ts, w, DEPTH32, s)))
			goto out;
	}
	for (uint32_t i = 0; i < trials; i++) {
		uint32_t seq = e.id.seq, u;
		random_stack(&g, &r, DEPTH32, s);
		/* new stack, no frame in common with any stored one */
		u = e.c.used;
		ts = next_sample(&k, &r, &w);
		if ((rc = enc_sample(&e, ts, w, DEPTH32, s)))
			goto out;
		cost_add(&cs->fresh, e.c.used - u);
		/* the same stack again */
		u = e.c.used;
		ts = next_sample(&k, &r, &w);
		if ((rc = enc_sample(&e, ts, w, DEPTH32, s)))
			goto out;
		cost_add(&cs->repeat, e.c.used - u);
		/* leaf moved inside its function: callers are stored */
		memcpy(s2, s, sizeof(s));
		s2[0] += 4 * (1 + rnd_below(&r, 15));
		u = e.c.used;
		ts = next_sample(&k, &r, &w);
		if ((rc = enc_sample(&e, ts, w, DEPTH32, s2)))
			goto out;
		cost_add(&cs->leaf, e.c.used - u);
		/* 4 leaf frames differ from the previous sample's stack */
		for (int f = 0; f < 4; f++)
			s2[f] = pc_in(&g, &r, 0, (int)rnd_below(&r, NFUNC));
		u = e.c.used;
		ts = next_sample(&k, &r, &w);
		if ((rc = enc_sample(&e, ts, w, DEPTH32, s2)))
			goto out;
		cost_add(&cs->few, e.c.used - u);
		if (e.id.seq != seq) {
			rc = MAPS_EBADSIZE; /* the chunk rolled: sizes wrong */
			goto out;
		}
		/* no stack table: every sample writes its stack */
		u = en.c.used;
		if ((rc = enc_sample(&en, ts, w, DEPTH32, s)))
			goto out;
		cost_add(&cs->notab, en.c.used - u);
	}
out:
	enc_free(&e);
	enc_free(&en);
	return rc;
}

static void cost_row(const char *name, const struct cost *c)
{
	printf("  %-52s %7.2f %5u %5u\n", name, cost_mean(c), c->min, c->max);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench_size [-n SAMPLES] [-s SEED]\n"
		   "  -n  samples per scenario (default 1000000)\n"
		   "  -s  seed (default 1)\n");
}

static unsigned long long num(const char *s, const char *what)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (!*s || *e || errno) {
		fprintf(stderr, "bench_size: %s: not a number: %s\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t nsamples = 1000000, seed = 1;
	int c;
	while ((c = getopt(argc, argv, "n:s:h")) != -1) {
		switch (c) {
		case 'n': nsamples = num(optarg, "-n"); break;
		case 's': seed = num(optarg, "-s"); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || nsamples < 1) {
		usage(stderr);
		return 2;
	}
	static const uint32_t chunks[2] = {256u << 10, 1u << 20};
	struct acct a;
	double repeating[2] = {0, 0}, fresh = 0, fixed = 0, synth = 0;
	int rc;

	printf("bench_size: %llu samples per row, one writer unless said, "
	       "seed %llu\n",
	       (unsigned long long)nsamples, (unsigned long long)seed);
	printf("stack table per chunk: slots = pow2 >= chunk/64, arena = "
	       "chunk/8 frames\n");
	printf("columns: bytes per sample in total and by kind:\n"
	       "  stack    STACK records\n"
	       "  sample   SAMPLE records\n"
	       "  hdr+pad  file and chunk headers, padding\n"
	       "  other    other records\n"
	       "  untrim   total if chunks were not trimmed (all but the "
	       "last; not known\n"
	       "           for logsynth logs, which trim every chunk)\n"
	       "  stk/1k   STACK records per 1000 samples\n\n");

	header("encoder (mapw_sample)");
	for (int sc = S_REPEAT200; sc <= S_FIXED32; sc++) {
		for (int ci = 0; ci < 2; ci++) {
			if ((rc = run_scen((enum scen)sc, chunks[ci], 1,
					   nsamples, seed, &a))) {
				fprintf(stderr, "bench_size: %s: %s\n",
					scen_name[sc], maps_strerror(rc));
				return 1;
			}
			acct_row(scen_name[sc], chunks[ci], &a);
			double bps = (double)acct_total(&a) / (double)a.samples;
			if (sc == S_REPEAT200)
				repeating[ci] = bps;
			if (sc == S_FRESH32 && ci == 1)
				fresh = bps;
			if (sc == S_FIXED32 && ci == 1)
				fixed = bps;
		}
	}
	if ((rc = run_scen(S_ZIPF2000, 1u << 20, 0, nsamples, seed, &a))) {
		fprintf(stderr, "bench_size: no table: %s\n",
			maps_strerror(rc));
		return 1;
	}
	acct_row("(b) without a stack table", 1u << 20, &a);

	printf("\n");
	header("logsynth log, 8 threads");
	static const struct {
		const char *name;
		uint32_t stacks;
		int all_types, no_dedup;
	} ls[] = {
		{"200 stacks, samples only", 200, 0, 0},
		{"2000 stacks, samples only", 2000, 0, 0},
		{"2000 stacks, all types", 2000, 1, 0},
		{"2000 stacks, no dedup", 2000, 0, 1},
	};
	for (size_t i = 0; i < sizeof(ls) / sizeof(ls[0]); i++) {
		for (int ci = 0; ci < 2; ci++) {
			if (ls[i].no_dedup && ci == 0)
				continue;
			struct logsynth_opts o;
			struct logsynth_result res;
			uint8_t *buf;
			size_t len;
			logsynth_defaults(&o);
			o.samples = nsamples;
			o.threads = 8;
			o.seed = seed;
			o.distinct_stacks = ls[i].stacks;
			o.all_types = ls[i].all_types;
			o.no_dedup = ls[i].no_dedup;
			o.chunk_size = chunks[ci];
			if ((rc = logsynth_to_mem(&o, &buf, &len, &res))) {
				fprintf(stderr, "bench_size: logsynth: %s\n",
					maps_strerror(rc));
				return 1;
			}
			memset(&a, 0, sizeof(a));
			if (acct_log(&a, buf, len) ||
			    acct_total(&a) != len ||
			    a.samples != res.records[MAPLOG_TYPE_SAMPLE]) {
				fprintf(stderr, "bench_size: logsynth log does "
						"not add up\n");
				free(buf);
				return 1;
			}
			/* untrim: unknown, logsynth trims every chunk */
			acct_row(ls[i].name, chunks[ci], &a);
			if (i == 1 && ci == 1)
				synth = (double)len / (double)a.samples;
			free(buf);
		}
	}

	struct costs cs;
	if ((rc = sample_costs(seed, &cs))) {
		fprintf(stderr, "bench_size: sample costs: %s\n",
			maps_strerror(rc));
		return 1;
	}
	printf("\none sample with a 32-frame stack, 1 ms apart, in a 1 MiB "
	       "chunk with >= 200\nstacks stored (ids take 2 bytes); bytes "
	       "committed (STACK + SAMPLE records):\n");
	printf("  %-52s %7s %5s %5s\n", "", "mean", "min", "max");
	cost_row("stack already in the chunk (SAMPLE only)", &cs.repeat);
	cost_row("new leaf PC, callers stored (STACK: 1 new frame)", &cs.leaf);
	cost_row("4 leaf frames differ from the previous sample's", &cs.few);
	cost_row("new stack, no frame in common (32 frames)", &cs.fresh);
	cost_row("no stack table (every sample writes 32 frames)",
		 &cs.notab);

	printf("\ntarget: repeating stacks <= %.0f B/sample: %.2f (256 KiB "
	       "chunks), %.2f (1 MiB): %s\n",
	       TARGET_BPS, repeating[0], repeating[1],
	       repeating[0] <= TARGET_BPS && repeating[1] <= TARGET_BPS
		       ? "met"
		       : "NOT met");
	printf("bench_size: repeating=%.2f B/sample (target <= %.0f) "
	       "repeating_256k=%.2f logsynth_default=%.2f fresh32=%.2f "
	       "fixed32=%.2f sample32_repeat=%.2f sample32_newleaf=%.2f "
	       "sample32_new=%.2f\n",
	       repeating[1], TARGET_BPS, repeating[0], synth, fresh, fixed,
	       cost_mean(&cs.repeat), cost_mean(&cs.leaf),
	       cost_mean(&cs.fresh));
	return 0;
}
