/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * speedscope: the speedscope file writer (see speedscope.h).
 *
 * DESIGN NOTES
 *   The stacks are the analysis's expansion of the model's stacks
 *   (functions, inlined ones included, leaf first; the sampler's frames
 *   left out), so the frames are the report's functions.  The samples of
 *   a thread are its (thread, stack) pairs from a second reading of the
 *   logs (rescan.h), merged: memory and file size grow with distinct
 *   stacks per thread, never with the number of samples.  The order of
 *   the samples in time is therefore not kept; --trace keeps time.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/json.h"
#include "report/out/rescan.h"
#include "report/out/speedscope.h"

struct ss {
	const struct output_in *in;
	uint32_t *frame;    /* frame index + 1 by function id; 0: none yet */
	uint32_t *order;    /* function ids by frame index */
	size_t nframes;
};

/* The analysis's functions of model stack slot si, leaf first, and
 * their count. */
static const uint32_t *stack_funcs(const struct analysis *a, size_t si,
				   uint32_t *n)
{
	*n = a->exp_n[si];
	return a->exp + a->exp_off[si];
}

static const struct analysis *cmp_an; /* qsort has no context argument */

/* Compares two pairs of one thread by their stacks' function names, root
 * first; a stack that is a prefix of the other comes first. */
static int cmp_stack(const void *x, const void *y)
{
	const struct rescan_pair *p = x, *q = y;
	uint32_t na, nb;
	const uint32_t *a = stack_funcs(cmp_an, p->rp_stack, &na);
	const uint32_t *b = stack_funcs(cmp_an, q->rp_stack, &nb);
	for (uint32_t i = 0; i < na && i < nb; i++) {
		int c = strcmp(cmp_an->funcs[a[na - 1 - i]].name,
			       cmp_an->funcs[b[nb - 1 - i]].name);
		if (c)
			return c;
	}
	if (na != nb)
		return na < nb ? -1 : 1;
	return p->rp_stack < q->rp_stack ? -1 : p->rp_stack > q->rp_stack;
}

/* Numbers the frames: every function a sampled stack holds, in the order
 * the profiles first name them. */
static void number_frames(struct ss *s, const struct rescan_pairs *pairs)
{
	const struct analysis *a = s->in->oi_analysis;
	for (size_t i = 0; i < pairs->rp_n; i++) {
		uint32_t n;
		const uint32_t *f = stack_funcs(a, pairs->rp_v[i].rp_stack, &n);
		for (uint32_t k = n; k-- > 0;)
			if (!s->frame[f[k]]) {
				s->order[s->nframes] = f[k];
				s->frame[f[k]] = (uint32_t)++s->nframes;
			}
	}
}

/* The profile's name for thread t: "PROGRAM pid PID tid TID (NAME)". */
static void profile_name(const struct model *m, const struct rthread *t,
			 char *buf, size_t len)
{
	char pb[48];
	snprintf(buf, len, "%s pid %s tid %u%s%s%s",
		 model_proc_name(m, t->pid, t->image),
		 model_pid_str(m, t->pid, pb, sizeof(pb)), t->tid,
		 t->name && *t->name ? " (" : "", t->name ? t->name : "",
		 t->name && *t->name ? ")" : "");
}

/* Whether pairs x and y have the same functions in their stacks. */
static int same_funcs(const struct analysis *a, const struct rescan_pair *x,
		      const struct rescan_pair *y)
{
	uint32_t nx, ny;
	const uint32_t *fx = stack_funcs(a, x->rp_stack, &nx);
	const uint32_t *fy = stack_funcs(a, y->rp_stack, &ny);
	return nx == ny && memcmp(fx, fy, nx * sizeof(*fx)) == 0;
}

/* Writes the profile of thread th, whose pairs are v[0..n), sorted:
 * stacks of the same functions (from different addresses) are one
 * sample. */
static void write_profile(struct jsonw *w, const struct ss *s, size_t th,
			  const struct rescan_pair *v, size_t n, int weighted)
{
	const struct model *m = s->in->oi_model;
	const struct analysis *a = s->in->oi_analysis;
	char name[512];
	uint64_t end = 0;
	for (size_t i = 0; i < n; i++)
		end += weighted ? v[i].rp_weight : v[i].rp_count;
	profile_name(m, &m->threads[th], name, sizeof(name));
	jsonw_object(w);
	jsonw_key(w, "type");
	jsonw_string(w, "sampled");
	jsonw_key(w, "name");
	jsonw_string(w, name);
	jsonw_key(w, "unit");
	jsonw_string(w, weighted ? "nanoseconds" : "none");
	jsonw_key(w, "startValue");
	jsonw_u64(w, 0);
	jsonw_key(w, "endValue");
	jsonw_u64(w, end);
	jsonw_key(w, "samples");
	jsonw_array(w);
	for (size_t i = 0; i < n; i++) {
		if (i && same_funcs(a, &v[i - 1], &v[i]))
			continue;
		uint32_t k;
		const uint32_t *f = stack_funcs(a, v[i].rp_stack, &k);
		jsonw_array(w);
		while (k-- > 0)
			jsonw_u64(w, s->frame[f[k]] - 1);
		jsonw_array_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "weights");
	jsonw_array(w);
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t sum = 0;
		for (j = i; j < n && (j == i || same_funcs(a, &v[j - 1], &v[j]));
		     j++)
			sum += weighted ? v[j].rp_weight : v[j].rp_count;
		jsonw_u64(w, sum);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}

/* Writes the file from pairs (sorted by thread). */
static int write_file(struct ss *s, struct rescan_pairs *pairs, FILE *out)
{
	const struct model *m = s->in->oi_model;
	const struct analysis *a = s->in->oi_analysis;
	/* stacks the analysis left empty (only the sampler's frames) are
	 * not written; weights only when every sample had one */
	size_t n = 0;
	int weighted = 1;
	for (size_t i = 0; i < pairs->rp_n; i++) {
		if (!a->exp_n[pairs->rp_v[i].rp_stack])
			continue;
		if (!pairs->rp_v[i].rp_weight)
			weighted = 0;
		pairs->rp_v[n++] = pairs->rp_v[i];
	}
	pairs->rp_n = n;
	cmp_an = a;
	size_t active = 0, nprof = 0;
	uint64_t most = 0;
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t sum = 0;
		for (j = i; j < n && pairs->rp_v[j].rp_thread ==
					     pairs->rp_v[i].rp_thread; j++)
			sum += pairs->rp_v[j].rp_count;
		qsort(pairs->rp_v + i, j - i, sizeof(*pairs->rp_v), cmp_stack);
		if (sum > most) {
			most = sum;
			active = nprof;
		}
		nprof++;
	}
	number_frames(s, pairs);
	struct jsonw w;
	jsonw_init(&w, out);
	jsonw_object(&w);
	jsonw_key(&w, "$schema");
	jsonw_string(&w, "https://www.speedscope.app/file-format-schema.json");
	jsonw_key(&w, "exporter");
	jsonw_string(&w, s->in->oi_generator);
	jsonw_key(&w, "name");
	const struct rproc *first = model_first_proc(m);
	jsonw_string(&w, first ? model_proc_name(m, first->pid, first->image)
			       : "mapsample run");
	jsonw_key(&w, "activeProfileIndex");
	jsonw_u64(&w, active);
	jsonw_key(&w, "shared");
	jsonw_object(&w);
	jsonw_key(&w, "frames");
	jsonw_array(&w);
	for (size_t i = 0; i < s->nframes; i++) {
		const struct rfunc *f = &a->funcs[s->order[i]];
		jsonw_object(&w);
		jsonw_key(&w, "name");
		jsonw_string(&w, f->name);
		if (f->file) {
			jsonw_key(&w, "file");
			jsonw_string(&w, f->file);
			if (f->line > 0) {
				jsonw_key(&w, "line");
				jsonw_i64(&w, f->line);
			}
		}
		jsonw_object_end(&w);
	}
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	jsonw_key(&w, "profiles");
	jsonw_array(&w);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && pairs->rp_v[j].rp_thread ==
					     pairs->rp_v[i].rp_thread; j++)
			;
		write_profile(&w, s, pairs->rp_v[i].rp_thread,
			      pairs->rp_v + i, j - i, weighted);
	}
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}

int speedscope_emit(const struct output_in *in, FILE *out)
{
	const struct analysis *a = in->oi_analysis;
	struct ss s = {.in = in};
	struct rescan_pairs pairs = {0};
	size_t nf = a->nfuncs ? a->nfuncs : 1;
	int rc = MAPS_ENOMEM;
	s.frame = calloc(nf, sizeof(*s.frame));
	s.order = calloc(nf, sizeof(*s.order));
	if (s.frame && s.order && !(rc = rescan_count(in, &pairs)))
		rc = write_file(&s, &pairs, out);
	rescan_pairs_free(&pairs);
	free(s.frame);
	free(s.order);
	return rc;
}
