/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pprof: the pprof profile writer (see pprof.h).
 *
 * DESIGN NOTES
 *   The profile is built as protoc-c messages (profile.pb-c.h, generated
 *   from profile.proto in the build tree), packed once, and compressed
 *   with zlib's deflate in gzip framing as it is written.  Every message
 *   and array lives in one arena freed at the end, so the many small
 *   pieces need no bookkeeping of their own.  Tables of strings,
 *   functions, mappings and locations are deduplicated with one small
 *   hash (struct kmap) keyed by two numbers.
 *
 *   A location is one sampled address of one process image: a leaf PC, or
 *   a return address (looked up at PC - 1 as the analysis does), with all
 *   the frames the symbolizer finds there, innermost first, as its lines.
 *   The sampler's own frames under the program's (libmapsampler.so, not
 *   as leaf) are left out, as in every other report.  Samples are the
 *   (thread, stack) pairs of the logs (rescan.h): values are their sample
 *   count and their weight in ns of the sampling clock.
 */
#include <inttypes.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/kframe.h"
#include "report/out/pprof.h"
#include "lib/report/out/profile.pb-c.h" /* generated, build tree */
#include "report/out/rescan.h"

/* ---- memory: one arena ---- */

struct ablock {
	struct ablock *next;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
};

/* ---- a hash of two numbers to an index ---- */

struct kent {
	uint64_t a, b;
	uint32_t v;         /* index + 1; 0: empty */
};

struct kmap {
	struct kent *t;
	size_t n, cap;
};

static uint64_t kmix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ b * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 31);
}

/* Room for one more key in k.  0 or MAPS_ENOMEM. */
static int kmap_room(struct kmap *k)
{
	if ((k->n + 1) * 2 <= k->cap)
		return 0;
	size_t cap = k->cap ? k->cap * 2 : 256;
	struct kent *t = calloc(cap, sizeof(*t));
	if (!t)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < k->cap; i++) {
		if (!k->t[i].v)
			continue;
		size_t j = kmix(k->t[i].a, k->t[i].b) & (cap - 1);
		while (t[j].v)
			j = (j + 1) & (cap - 1);
		t[j] = k->t[i];
	}
	free(k->t);
	k->t = t;
	k->cap = cap;
	return 0;
}

/* The builder's state. */
struct pp {
	const struct output_in *in;
	struct ablock *arena;
	struct kmap kstr, kfunc, kmaps, kloc;
	char **strs;
	size_t nstr, capstr;
	Pprofpb__Function **funcs;
	size_t nfunc, capfunc;
	Pprofpb__Mapping **maps;
	size_t nmap, capmap;
	Pprofpb__Location **locs;
	size_t nloc, caploc;
	Pprofpb__Sample **samples;
	size_t nsample, capsample;
	uint64_t *ids;      /* one stack's location ids, being built */
	size_t capids;
	Pprofpb__ValueType vt[3]; /* samples, clock time; the period's */
	Pprofpb__ValueType *vtp[2];
	int64_t comment;
};

/* n bytes from p's arena, aligned for anything; NULL when out of
 * memory. */
static void *alloc(struct pp *p, size_t n)
{
	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	struct ablock *b = p->arena;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > 60000 ? n : 60000;
		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = p->arena;
		b->used = 0;
		b->cap = cap;
		p->arena = b;
	}
	void *r = b->data + b->used;
	b->used += n;
	return r;
}

/* Appends x to the pointer array *arr of *n (room *cap).  0 or
 * MAPS_ENOMEM. */
static int push(void *arr, size_t *n, size_t *cap, void *x)
{
	if (*n == *cap && mem_grow(arr, cap, *n, sizeof(void *)))
		return MAPS_ENOMEM;
	(*(void ***)arr)[(*n)++] = x;
	return 0;
}

/* The string table index of s (NULL: ""), added if new; -1 when out of
 * memory. */
static int64_t str_id(struct pp *p, const char *s)
{
	if (!s)
		s = "";
	size_t len = strlen(s);
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	if (kmap_room(&p->kstr))
		return -1;
	size_t mask = p->kstr.cap - 1, j = kmix(h, len) & mask;
	for (; p->kstr.t[j].v; j = (j + 1) & mask)
		if (p->kstr.t[j].a == h && p->kstr.t[j].b == len &&
		    strcmp(p->strs[p->kstr.t[j].v - 1], s) == 0)
			return p->kstr.t[j].v - 1;
	char *c = alloc(p, len + 1);
	if (!c || push(&p->strs, &p->nstr, &p->capstr, c))
		return -1;
	memcpy(c, s, len + 1);
	p->kstr.t[j] = (struct kent){h, len, (uint32_t)p->nstr};
	p->kstr.n++;
	return (int64_t)p->nstr - 1;
}

/* The slot of key (a, b) in k: its entry (v set) or the empty slot where
 * it goes; NULL when out of memory. */
static struct kent *slot(struct kmap *k, uint64_t a, uint64_t b)
{
	if (kmap_room(k))
		return NULL;
	size_t mask = k->cap - 1, j = kmix(a, b) & mask;
	while (k->t[j].v && (k->t[j].a != a || k->t[j].b != b))
		j = (j + 1) & mask;
	return &k->t[j];
}

/* The id of the function of frame f, added if new; 0 when out of
 * memory. */
static uint64_t func_id(struct pp *p, const struct symframe *f)
{
	struct kent *e = slot(&p->kfunc, (uintptr_t)f->func,
			      (uintptr_t)f->file);
	if (!e)
		return 0;
	if (e->v)
		return e->v;
	Pprofpb__Function *fn = alloc(p, sizeof(*fn));
	if (!fn)
		return 0;
	pprofpb__function__init(fn);
	int64_t name = str_id(p, f->func), file = str_id(p, f->file);
	if (name < 0 || file < 0 ||
	    push(&p->funcs, &p->nfunc, &p->capfunc, fn))
		return 0;
	fn->id = p->nfunc;
	fn->name = fn->system_name = name;
	fn->filename = file;
	*e = (struct kent){(uintptr_t)f->func, (uintptr_t)f->file,
			   (uint32_t)p->nfunc};
	p->kfunc.n++;
	return fn->id;
}

/* The id of the mapping of mp, added if new; 0 when out of memory. */
static uint64_t map_id(struct pp *p, const struct rmap *mp)
{
	struct kent *e = slot(&p->kmaps, (uintptr_t)mp, 0);
	if (!e)
		return 0;
	if (e->v)
		return e->v;
	Pprofpb__Mapping *x = alloc(p, sizeof(*x));
	char hex[2 * sizeof(mp->buildid) + 1] = "";
	for (uint32_t i = 0; i < mp->buildid_len && i < sizeof(mp->buildid); i++)
		snprintf(hex + 2 * i, 3, "%02x", mp->buildid[i]);
	if (!x)
		return 0;
	pprofpb__mapping__init(x);
	int64_t file = str_id(p, mp->path), bid = str_id(p, hex);
	if (file < 0 || bid < 0 || push(&p->maps, &p->nmap, &p->capmap, x))
		return 0;
	x->id = p->nmap;
	x->memory_start = mp->start;
	x->memory_limit = mp->end;
	x->file_offset = mp->offset;
	x->filename = file;
	x->build_id = bid;
	/* named here: pprof need not look for the files */
	x->has_functions = x->has_filenames = x->has_line_numbers =
		x->has_inline_frames = 1;
	*e = (struct kent){(uintptr_t)mp, 0, (uint32_t)p->nmap};
	p->kmaps.n++;
	return x->id;
}

static int is_sampler(const char *path)
{
	const char *b = strrchr(path, '/');
	return strcmp(b ? b + 1 : path, "libmapsampler.so") == 0;
}

/* The location id of address pc of process image (pid, image), a leaf
 * or a return address, added if new: *id, 0 for the sampler's own frame
 * (left out).  Returns 0 or MAPS_ENOMEM. */
static int loc_id(struct pp *p, uint32_t pid, uint32_t image, uint64_t pc,
		  int leaf, uint64_t *id)
{
	const struct model *m = p->in->oi_model;
	struct kent *e = slot(&p->kloc, pc, (uint64_t)pid << 32 ^ image ^
						     (uint64_t)leaf << 63);
	if (!e)
		return MAPS_ENOMEM;
	if (e->v) {
		*id = e->v - 1;
		return 0;
	}
	const struct rmap *mp = model_find_map(m, pid, image, pc);
	struct symframe fr[32];
	int n = 0;
	uint64_t lid = 0;
	if (!mp || leaf || !is_sampler(mp->path)) {
		struct symtab *st = p->in->oi_analysis->st;
		n = mp ? sym_lookup(st, mp->path, mp->buildid, mp->buildid_len,
				    mp->bias, mp->start, mp->offset, pc, leaf,
				    fr, 32)
		       : sym_anon(st, model_find_proc(m, pid, image), pc,
				  leaf, fr);
		if (n < 0)
			return MAPS_ENOMEM;
		/* a leaf in a system call: the kernel's frame innermost
		 * (report/kframe.h), as the analysis has it */
		const char *kname;
		int kr = leaf && mp && p->in->oi_analysis->kf
				 ? kframe_at(p->in->oi_analysis->kf, mp->path,
					     mp->buildid, mp->buildid_len,
					     pc - mp->start + mp->offset, &kname)
				 : 0;
		if (kr < 0)
			return MAPS_ENOMEM;
		if (kr == 1 && n < 32) {
			memmove(fr + 1, fr, (size_t)n * sizeof(*fr));
			fr[0] = (struct symframe){kname, NULL, 0, KFRAME_MODULE,
						  1};
			n++;
		}
		Pprofpb__Location *l = alloc(p, sizeof(*l));
		Pprofpb__Line *lines = alloc(p, (size_t)n * sizeof(*lines));
		Pprofpb__Line **lp = alloc(p, (size_t)n * sizeof(*lp));
		if (!l || !lines || !lp ||
		    push(&p->locs, &p->nloc, &p->caploc, l))
			return MAPS_ENOMEM;
		pprofpb__location__init(l);
		l->id = lid = p->nloc;
		l->address = pc;
		if (mp && !(l->mapping_id = map_id(p, mp)))
			return MAPS_ENOMEM;
		for (int k = 0; k < n; k++) {
			pprofpb__line__init(&lines[k]);
			if (!(lines[k].function_id = func_id(p, &fr[k])))
				return MAPS_ENOMEM;
			lines[k].line = fr[k].line;
			lp[k] = &lines[k];
		}
		l->n_line = (size_t)n;
		l->line = lp;
	}
	/* the hash may have grown: find the slot again */
	if (!(e = slot(&p->kloc, pc, (uint64_t)pid << 32 ^ image ^
					     (uint64_t)leaf << 63)))
		return MAPS_ENOMEM;
	*e = (struct kent){pc, (uint64_t)pid << 32 ^ image ^ (uint64_t)leaf << 63,
			   (uint32_t)lid + 1};
	p->kloc.n++;
	*id = lid;
	return 0;
}

/* The labels of thread t: pid (the pid it had in its PID namespace),
 * tid, process and thread names, and what tells two processes of one
 * pid apart: "rank" (its MPI rank), else "log" (counted from 1, when
 * the report reads several logs), and "pid_ns" (its namespace tag,
 * model_pid_ns(), when not of its log's first PID namespace); into
 * *labels (n_labels of them).  0 or MAPS_ENOMEM. */
static int thread_labels(struct pp *p, const struct rthread *t,
			 Pprofpb__Label ***labels, size_t *nlabels)
{
	const struct model *m = p->in->oi_model;
	Pprofpb__Label *l = alloc(p, 7 * sizeof(*l));
	Pprofpb__Label **lp = alloc(p, 7 * sizeof(*lp));
	if (!l || !lp)
		return MAPS_ENOMEM;
	const char *keys[7];
	int64_t nums[7] = {0};
	const char *strs[7] = {0};
	size_t n = 0;
	int32_t rank = model_pid_rank(m, t->pid);
	uint32_t ns = model_pid_ns(m, t->pid);
	keys[n] = "pid";
	nums[n++] = model_real_pid(m, t->pid);
	keys[n] = "tid";
	nums[n++] = t->tid;
	keys[n] = "process";
	strs[n++] = model_proc_name(m, t->pid, t->image);
	if (t->name && *t->name) {
		keys[n] = "thread";
		strs[n++] = t->name;
	}
	if (rank >= 0) {
		keys[n] = "rank";
		nums[n++] = rank;
	} else if (m->nlogs > 1) {
		keys[n] = "log";
		nums[n++] = model_pid_log(m, t->pid);
	}
	if (ns) {
		keys[n] = "pid_ns";
		nums[n++] = ns;
	}
	for (size_t i = 0; i < n; i++) {
		pprofpb__label__init(&l[i]);
		if ((l[i].key = str_id(p, keys[i])) < 0)
			return MAPS_ENOMEM;
		if (strs[i] && (l[i].str = str_id(p, strs[i])) < 0)
			return MAPS_ENOMEM;
		if (!strs[i])
			l[i].num = nums[i];
		lp[i] = &l[i];
	}
	*labels = lp;
	*nlabels = n;
	return 0;
}

/* Adds the sample of pair r.  0 or MAPS_ENOMEM. */
static int add_sample(struct pp *p, const struct rescan_pair *r,
		      Pprofpb__Label **labels, size_t nlabels)
{
	const struct model *m = p->in->oi_model;
	const struct rstack *s = &m->stacks[r->rp_stack];
	if (s->npc > p->capids &&
	    mem_reserve(&p->ids, &p->capids, s->npc, sizeof(*p->ids), 256))
		return MAPS_ENOMEM;
	size_t n = 0;
	for (uint32_t i = 0; i < s->npc; i++) {
		uint64_t id;
		if (loc_id(p, s->pid, s->image, m->spc[s->off + i], i == 0,
			   &id))
			return MAPS_ENOMEM;
		if (id)
			p->ids[n++] = id;
	}
	if (!n)
		return 0;
	Pprofpb__Sample *x = alloc(p, sizeof(*x));
	uint64_t *ids = alloc(p, n * sizeof(*ids));
	int64_t *v = alloc(p, 2 * sizeof(*v));
	if (!x || !ids || !v ||
	    push(&p->samples, &p->nsample, &p->capsample, x))
		return MAPS_ENOMEM;
	pprofpb__sample__init(x);
	memcpy(ids, p->ids, n * sizeof(*ids));
	v[0] = (int64_t)r->rp_count;
	v[1] = (int64_t)r->rp_weight;
	x->n_location_id = n;
	x->location_id = ids;
	x->n_value = 2;
	x->value = v;
	x->n_label = nlabels;
	x->label = labels;
	return 0;
}

/* Fills prof with the run of p->in.  0 or MAPS_ENOMEM. */
static int build(struct pp *p, Pprofpb__Profile *prof)
{
	const struct model *m = p->in->oi_model;
	struct rescan_pairs pairs = {0};
	int rc = rescan_count(p->in, &pairs);
	if (rc)
		goto out;
	rc = MAPS_ENOMEM;
	Pprofpb__ValueType *vt = p->vt;
	p->vtp[0] = &vt[0];
	p->vtp[1] = &vt[1];
	for (int i = 0; i < 3; i++)
		pprofpb__value_type__init(&vt[i]);
	const char *clock = model_clock_id((uint32_t)model_clock(m));
	if (str_id(p, "") != 0 ||
	    (vt[0].type = str_id(p, "samples")) < 0 ||
	    (vt[0].unit = str_id(p, "count")) < 0 ||
	    (vt[1].type = vt[2].type = str_id(p, clock)) < 0 ||
	    (vt[1].unit = vt[2].unit = str_id(p, "nanoseconds")) < 0)
		goto out;
	Pprofpb__Label **labels = NULL;
	size_t nlabels = 0;
	for (size_t i = 0; i < pairs.rp_n; i++) {
		const struct rescan_pair *r = &pairs.rp_v[i];
		if ((i == 0 || r->rp_thread != pairs.rp_v[i - 1].rp_thread) &&
		    thread_labels(p, &m->threads[r->rp_thread], &labels,
				  &nlabels))
			goto out;
		if (add_sample(p, r, labels, nlabels))
			goto out;
	}
	const struct rproc *first = model_first_proc(m);
	prof->n_sample_type = 2;
	prof->sample_type = p->vtp;
	prof->period_type = &vt[2];
	if (first) {
		prof->period = (int64_t)first->period_ns;
		prof->time_nanos = first->wall_sec * 1000000000 +
				   first->wall_nsec;
	}
	prof->duration_nanos = (int64_t)(model_run_seconds(m) * 1e9);
	if ((p->comment = str_id(p, p->in->oi_generator)) < 0)
		goto out;
	prof->n_comment = 1;
	prof->comment = &p->comment;
	prof->n_sample = p->nsample;
	prof->sample = p->samples;
	prof->n_mapping = p->nmap;
	prof->mapping = p->maps;
	prof->n_location = p->nloc;
	prof->location = p->locs;
	prof->n_function = p->nfunc;
	prof->function = p->funcs;
	prof->n_string_table = p->nstr;
	prof->string_table = p->strs;
	rc = 0;
out:
	rescan_pairs_free(&pairs);
	return rc;
}

/* Writes buf[0..len) to out gzip-compressed.  0, MAPS_ENOMEM or
 * MAPS_EIO. */
static int gzip_write(const uint8_t *buf, size_t len, FILE *out)
{
	z_stream z = {0};
	/* 16 + window bits: gzip framing rather than zlib's */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return MAPS_ENOMEM;
	unsigned char chunk[65536];
	int rc = 0, zr;
	z.next_in = (Bytef *)buf;
	do {
		/* zlib counts in uInt: feed at most 1 GiB at a time */
		size_t left = len - (size_t)((const uint8_t *)z.next_in - buf);
		if (!z.avail_in)
			z.avail_in = (uInt)(left < (1u << 30) ? left : 1u << 30);
		int flush = z.avail_in == left ? Z_FINISH : Z_NO_FLUSH;
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, flush);
		if (zr == Z_STREAM_ERROR) {
			rc = MAPS_ENOMEM;
			break;
		}
		size_t have = sizeof(chunk) - z.avail_out;
		if (have && fwrite(chunk, 1, have, out) != have) {
			rc = MAPS_EIO;
			break;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return rc;
}

int pprof_emit(const struct output_in *in, FILE *out)
{
	struct pp p = {.in = in};
	Pprofpb__Profile prof;
	pprofpb__profile__init(&prof);
	uint8_t *buf = NULL;
	int rc = build(&p, &prof);
	if (!rc) {
		size_t len = pprofpb__profile__get_packed_size(&prof);
		if (!(buf = malloc(len ? len : 1)))
			rc = MAPS_ENOMEM;
		else
			rc = gzip_write(buf, pprofpb__profile__pack(&prof, buf),
					out);
	}
	free(buf);
	while (p.arena) {
		struct ablock *b = p.arena;
		p.arena = b->next;
		free(b);
	}
	free(p.kstr.t);
	free(p.kfunc.t);
	free(p.kmaps.t);
	free(p.kloc.t);
	free(p.strs);
	free(p.funcs);
	free(p.maps);
	free(p.locs);
	free(p.samples);
	free(p.ids);
	if (rc)
		return rc;
	return ferror(out) ? MAPS_EIO : 0;
}
