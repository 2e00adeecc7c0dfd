/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_narrow: the HTML report's data for narrowing the page to a
 * process, a thread and a time range (see html_i.h).  The run model
 * keeps stacks without their thread or time, so the logs are read again
 * (rescan.h) and every sample is counted in a cell (flame-graph frame,
 * thread, time bin): the frame is the one of the page's flame graph
 * where the sample's stack ends, or, when that frame was left out of the
 * graph as too small, its nearest ancestor kept.  report.js adds up the
 * cells of a selection and redraws the flame graph and the tables of
 * functions from them, so each total of a selection is exact and only
 * the attribution below the graph's smallest frames is coarser.
 *
 * Size: cells grow with distinct (frame, thread, bin) triples, never
 * with samples.  There are NR_BINS bins over the run at first; while
 * there are more than NR_CELLS cells, neighbouring bins merge in pairs
 * (coarser time, same totals) down to NR_MIN_BINS bins, then the
 * deepest frames' cells go to their callers' frames, a level at a time
 * (coarser attribution in a narrowed flame graph: the frames below the
 * cut then show no samples of their own; the totals of threads, time
 * ranges and frames above the cut stay exact).  So the cells are at
 * most NR_CELLS, but for runs with more than NR_CELLS / NR_MIN_BINS
 * threads sampled in the same frames near the root.
 *
 * Where those frames are not exact (runs of 40000 samples and more,
 * whose graph leaves out the smallest frames, or a cut), the exact call
 * data of html_fncells.c too, for the selection's tables of functions,
 * callers and callees.
 *
 * Beside the cells, the samples of each (thread, time bin) in MPI and in
 * I/O (classified as the performance summary's, report/ranks.h), where
 * there are any, for the selection's split of the performance summary.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/filter.h"
#include "model/keymap.h"
#include "report/out/html_i.h"
#include "report/out/rescan.h"
#include "report/ranks.h"
#include "report/shorten.h"

#define NR_BINS 128
#define NR_MIN_BINS 32
#define NR_CELLS 150000
#define NR_FCELLS 200000 /* html_fncells.c's */
#define NR_FMIN_BINS 64  /* halved for them down to this many */

struct cell {
	uint32_t node, thread, bin;
	uint64_t count;
};

/* Samples of one thread in one time bin in MPI and in I/O (stacks
 * classified as report/ranks.h does for the performance summary: in MPI
 * when a frame is an MPI function, else in I/O when one is a
 * read/write-family call). */
struct ccell {
	uint32_t thread, bin;
	uint64_t mpi, io;
};

enum { C_COMPUTE = 0, C_MPI = 1, C_IO = 2 };

struct narrow {
	const struct model *m;
	const struct analysis *a;
	const int32_t *slot_page; /* stack slot -> page frame, -1: none */
	const int32_t *slot_node; /* stack slot -> page frame or ext node */
	struct cell *cells;
	size_t ncells, capcells;
	struct keymap keys;
	uint64_t t0, span;
	unsigned bins;
	uint32_t cut;             /* frames deeper than this merged into
				   * their ancestors' cells, or 0 */
	uint8_t *cls;             /* stack slot -> C_* */
	struct ccell *cc;         /* the (thread, bin) with MPI or I/O
				   * samples */
	size_t ncc, capcc;
	struct keymap ckeys;
	struct html_fncells *fn;  /* the exact call data */
	struct html_ranksel *rs;  /* the Ranks table's (html_ranksel.c) */
};

/* ---- names: the call tree's name ids by string ---- */

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct names {
	uint32_t *slot; /* name id + 1 */
	size_t cap;
};

static int names_build(struct names *n, const struct calltree *t)
{
	n->cap = 16;
	while (n->cap < 2 * t->ct_nnames + 2)
		n->cap <<= 1;
	if (!(n->slot = calloc(n->cap, sizeof(*n->slot))))
		return MAPS_ENOMEM;
	for (size_t i = 0; i < t->ct_nnames; i++) {
		size_t j = str_hash(t->ct_names[i]) & (n->cap - 1);
		while (n->slot[j])
			j = (j + 1) & (n->cap - 1);
		n->slot[j] = (uint32_t)i + 1;
	}
	return 0;
}

static long names_find(const struct names *n, const struct calltree *t,
		       const char *s)
{
	if (!s)
		return -1;
	for (size_t j = str_hash(s) & (n->cap - 1); n->slot[j];
	     j = (j + 1) & (n->cap - 1))
		if (!strcmp(t->ct_names[n->slot[j] - 1], s))
			return n->slot[j] - 1;
	return -1;
}

/* ---- stack slot -> page frame ---- */

/* The page's frames (the flame graph's, numbered as it writes them),
 * then the call tree's other nodes ("ext": numbered from kept on, in
 * the tree's order, so each after its parent). */
struct pages {
	int32_t *page;    /* call-tree node -> page frame */
	int32_t next;
	uint32_t *parent; /* page frame or ext node -> its parent's */
	uint32_t *depth;  /* page frame or ext node -> depth */
	uint32_t *xnode;  /* ext node - kept -> call-tree node, or NULL */
	uint32_t kept, all;
};

static int number_page(const struct calltree *t, uint32_t i, void *arg)
{
	struct pages *p = arg;
	p->parent[p->next] = (uint32_t)p->page[t->ct_nodes[i].cn_parent];
	p->depth[p->next] = t->ct_nodes[i].cn_depth;
	p->page[i] = p->next++;
	return 0;
}

/* slot_page[si] for every stack slot of m: the page frame (numbered as
 * html_flame.c writes the frames of at least min samples) where the
 * stack's path in t ends, or its nearest kept ancestor; slot_node[si]
 * (when not NULL) the page frame or ext node where it ends; into *names
 * (when not NULL; malloc'd) each function of a's name in t, or -1. */
static int map_slots(const struct model *m, const struct analysis *a,
		     const struct calltree *t, uint64_t min,
		     int32_t *slot_page, int32_t *slot_node, struct pages *p0,
		     int32_t **names)
{
	struct pages p = {calloc(t->ct_n ? t->ct_n : 1, sizeof(int32_t)), 0,
			  p0->parent, p0->depth, NULL, 0, 0};
	uint32_t *xnum = calloc(t->ct_n ? t->ct_n : 1, sizeof(*xnum));
	struct names nm = {0};
	struct keymap kids = {0};
	int32_t *fname = malloc((a->nfuncs ? a->nfuncs : 1) * sizeof(*fname));
	int rc = MAPS_ENOMEM;
	if (!p.page || !xnum || !fname || names_build(&nm, t))
		goto out;
	for (size_t i = 0; i < t->ct_n; i++)
		p.page[i] = -1;
	p.page[0] = 0; /* the root is its own parent */
	if ((rc = calltree_walk(t, min, number_page, &p)))
		goto out;
	rc = MAPS_ENOMEM;
	/* nodes come after their parents */
	p0->kept = p0->all = (uint32_t)p.next;
	for (size_t i = 1; i < t->ct_n; i++) {
		if (p.page[i] >= 0) {
			xnum[i] = (uint32_t)p.page[i];
			continue;
		}
		p.page[i] = p.page[t->ct_nodes[i].cn_parent];
		xnum[i] = p0->all;
		p0->parent[p0->all] = xnum[t->ct_nodes[i].cn_parent];
		p0->depth[p0->all] = t->ct_nodes[i].cn_depth;
		if (p0->xnode)
			p0->xnode[p0->all - p0->kept] = (uint32_t)i;
		p0->all++;
	}
	for (size_t i = 1; i < t->ct_n; i++)
		if (keymap_put(&kids, t->ct_nodes[i].cn_parent,
			       t->ct_nodes[i].cn_name, 0, i))
			goto out;
	for (size_t i = 0; i < a->nfuncs; i++)
		fname[i] = (int32_t)names_find(&nm, t, a->funcs[i].name);
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		slot_page[si] = -1;
		if (slot_node)
			slot_node[si] = -1;
		if (!s->used || !s->count || a->own[si])
			continue;
		long pn = names_find(&nm, t, model_proc_name(m, s->pid,
							     s->image));
		long cur = pn < 0 ? -1 : keymap_find(&kids, 0, (uint32_t)pn, 0);
		const uint32_t *e = a->exp + a->exp_off[si];
		for (uint32_t k = a->exp_n[si]; cur >= 0 && k-- > 0;)
			cur = fname[e[k]] < 0
				      ? -1
				      : keymap_find(&kids, (uint32_t)cur,
						    (uint32_t)fname[e[k]], 0);
		if (cur >= 0) {
			slot_page[si] = p.page[cur];
			if (slot_node)
				slot_node[si] = (int32_t)xnum[cur];
		}
	}
	rc = 0;
	if (names) {
		*names = fname;
		fname = NULL;
	}
out:
	free(xnum);
	free(p.page);
	free(nm.slot);
	free(fname);
	keymap_free(&kids);
	return rc;
}

/* ---- cells ---- */

static int on_sample(void *ctx, const struct maplog_ev *ev, size_t thread,
		     size_t stack)
{
	struct narrow *n = ctx;
	int32_t node = n->slot_node[stack];
	uint32_t bin = html_nr_bin(n->t0, n->span, n->bins, n->bins, ev->ev_ts);
	/* every sample, the sampler's own too */
	if (html_ranksel_sample(n->rs, ev, thread, stack, bin))
		return MAPS_ENOMEM;
	if (node < 0)
		return 0;
	int added;
	long i = keymap_add(&n->keys, (uint32_t)node, (uint32_t)thread, bin,
			    &n->cells, &n->ncells, &n->capcells,
			    sizeof(*n->cells), &added);
	if (i < 0)
		return MAPS_ENOMEM;
	if (added) {
		n->cells[i].node = (uint32_t)node;
		n->cells[i].thread = (uint32_t)thread;
		n->cells[i].bin = bin;
	}
	n->cells[i].count++;
	if (html_fncells_sample(n->fn, thread, stack, bin))
		return MAPS_ENOMEM;
	if (n->cls[stack] != C_COMPUTE) {
		long k = keymap_add(&n->ckeys, (uint32_t)thread, bin, 0, &n->cc,
				    &n->ncc, &n->capcc, sizeof(*n->cc), &added);
		if (k < 0)
			return MAPS_ENOMEM;
		if (added) {
			n->cc[k].thread = (uint32_t)thread;
			n->cc[k].bin = bin;
		}
		if (n->cls[stack] == C_MPI)
			n->cc[k].mpi++;
		else
			n->cc[k].io++;
	}
	return 0;
}

/* n->cls: each stack slot's class, from its functions' (each function
 * once), as report/ranks.c classifies the stacks. */
static int classify(struct narrow *n)
{
	const struct model *m = n->m;
	const struct analysis *a = n->a;
	uint8_t *fc = calloc(a->nfuncs ? a->nfuncs : 1, 1);
	if (!fc || !(n->cls = calloc(m->capstacks ? m->capstacks : 1, 1))) {
		free(fc);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < a->nfuncs; i++)
		fc[i] = ranks_is_mpi(a->funcs[i].module, a->funcs[i].name)
				? C_MPI
				: ranks_is_io(a->funcs[i].name) ? C_IO : C_COMPUTE;
	for (size_t si = 0; si < m->capstacks; si++) {
		if (n->slot_page[si] < 0)
			continue;
		const uint32_t *e = a->exp + a->exp_off[si];
		uint8_t c = C_COMPUTE;
		for (uint32_t k = 0; k < a->exp_n[si]; k++) {
			if (fc[e[k]] == C_MPI) {
				c = C_MPI;
				break;
			}
			if (fc[e[k]] == C_IO)
				c = C_IO;
		}
		n->cls[si] = c;
	}
	free(fc);
	return 0;
}

static int cmp_ccell(const void *x, const void *y)
{
	const struct ccell *a = x, *b = y;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return a->bin < b->bin ? -1 : a->bin > b->bin;
}

/* The class cells with their bins halved (the cells' bins merged in
 * pairs): sorted, the same merged. */
static void halve_ccells(struct narrow *n)
{
	for (size_t i = 0; i < n->ncc; i++)
		n->cc[i].bin >>= 1;
	if (n->ncc) /* qsort takes no NULL, even for none */
		qsort(n->cc, n->ncc, sizeof(*n->cc), cmp_ccell);
	size_t w = 0;
	for (size_t i = 0; i < n->ncc; i++) {
		if (w && !cmp_ccell(&n->cc[w - 1], &n->cc[i])) {
			n->cc[w - 1].mpi += n->cc[i].mpi;
			n->cc[w - 1].io += n->cc[i].io;
		} else {
			n->cc[w++] = n->cc[i];
		}
	}
	n->ncc = w;
}

static int cmp_cell(const void *x, const void *y)
{
	const struct cell *a = x, *b = y;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return a->bin < b->bin ? -1 : a->bin > b->bin;
}

/* Sorts the cells and merges those that are the same. */
static void merge_cells(struct narrow *n)
{
	if (n->ncells) /* qsort takes no NULL, even for none */
		qsort(n->cells, n->ncells, sizeof(*n->cells), cmp_cell);
	size_t w = 0;
	for (size_t i = 0; i < n->ncells; i++) {
		if (w && !cmp_cell(&n->cells[w - 1], &n->cells[i]))
			n->cells[w - 1].count += n->cells[i].count;
		else
			n->cells[w++] = n->cells[i];
	}
	n->ncells = w;
}

/* The cells' and the class cells' bins merged in pairs. */
static void halve_cells(struct narrow *n)
{
	for (size_t i = 0; i < n->ncells; i++)
		n->cells[i].bin >>= 1;
	n->bins = (n->bins + 1) / 2;
	merge_cells(n);
	halve_ccells(n);
}

/* The ancestor of page frame f at depth cut (f when not deeper). */
static uint32_t ancestor(const struct pages *p, uint32_t f, uint32_t cut)
{
	while (p->depth[f] > cut)
		f = p->parent[f];
	return f;
}

/* How many cells there would be with frames deeper than cut merged into
 * their ancestors, or -1 when out of memory. */
static long cells_at(const struct narrow *n, const struct pages *p,
		     uint32_t cut)
{
	struct keymap k = {0};
	long c = 0;
	for (size_t i = 0; i < n->ncells; i++) {
		const struct cell *x = &n->cells[i];
		uint32_t f = ancestor(p, x->node, cut);
		if (keymap_find(&k, f, x->thread, x->bin) >= 0)
			continue;
		if (keymap_put(&k, f, x->thread, x->bin, (size_t)c)) {
			c = -1;
			break;
		}
		c++;
	}
	keymap_free(&k);
	return c;
}

/* Keeps of the ext nodes those the cells end in and their ancestors,
 * renumbered in order (so a page whose cells merge deep frames holds
 * none of them). */
static int prune_ext(struct narrow *n, struct pages *pg)
{
	uint32_t nx = pg->all - pg->kept, kept = pg->kept;
	uint32_t *nid = malloc((nx ? nx : 1) * sizeof(*nid));
	uint8_t *mark = calloc(nx ? nx : 1, 1);
	if (!nid || !mark) {
		free(nid);
		free(mark);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < n->ncells; i++)
		for (uint32_t f = n->cells[i].node; f >= kept && !mark[f - kept];
		     f = pg->parent[f])
			mark[f - kept] = 1;
	/* parents come first, so theirs are renumbered already; the
	 * entries written are never read again */
	uint32_t w = kept;
	for (uint32_t x = 0; x < nx; x++) {
		if (!mark[x])
			continue;
		uint32_t par = pg->parent[kept + x];
		nid[x] = w;
		pg->xnode[w - kept] = pg->xnode[x];
		pg->parent[w] = par >= kept ? nid[par - kept] : par;
		pg->depth[w] = pg->depth[kept + x];
		w++;
	}
	for (size_t i = 0; i < n->ncells; i++)
		if (n->cells[i].node >= kept)
			n->cells[i].node = nid[n->cells[i].node - kept];
	pg->all = w;
	free(nid);
	free(mark);
	return 0;
}

/* The name of the process the model keys as pid in the page's "Narrow
 * to" list, into buf: "rank R (pid P, HOST)" for a rank of a job,
 * "child of rank R (pid P, HOST)" for a process a rank started,
 * "launcher (pid P, HOST)" for mpirun, hydra_pmi_proxy, srun and the
 * like, else the pid as model_pid_str() writes it (which the page calls
 * "process PID").  Returns buf. */
static const char *proc_label(const struct model *m, uint32_t pid,
			      char *buf, size_t len)
{
	const struct rproc *p = NULL;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *q = &m->procs[i];
		if (q->pid != pid)
			continue;
		/* the image that says the most: a rank, a launcher */
		if (!p || (p->rank < 0 && !p->is_launcher &&
			   (q->rank >= 0 || q->is_launcher)))
			p = q;
	}
	if (!p || (p->rank < 0 && !p->is_launcher))
		return model_pid_str(m, pid, buf, len);
	char host[80] = "";
	if (p->host && *p->host)
		snprintf(host, sizeof(host), ", %.70s", p->host);
	unsigned real = model_real_pid(m, pid);
	if (p->is_launcher)
		snprintf(buf, len, "launcher (pid %u%s)", real, host);
	else
		snprintf(buf, len, "%srank %d (pid %u%s)",
			 p->is_rank_child ? "child of " : "", (int)p->rank,
			 real, host);
	return buf;
}

/* The call tree's nodes the flame graph leaves out ("ext": parent and
 * name of each, numbered from the graph's frames on), the names only
 * they have ("xnames", and shortened "xshort"), and the exact call data
 * when there is one. */
static int write_ext(FILE *out, const struct narrow *n,
		     const struct output_in *in, uint64_t min,
		     const struct pages *pg)
{
	const struct calltree *t = in->oi_calltree;
	uint32_t *remap = NULL, npage = 0;
	int rc = html_flame_names(t, min, &remap, &npage, NULL);
	uint32_t *pn = rc ? NULL : malloc((t->ct_nnames + 1) * sizeof(*pn));
	if (!pn) {
		free(remap);
		return MAPS_ENOMEM;
	}
	/* page name of each name of t: the graph's, then the others of
	 * ext nodes in order, then those of the call data */
	uint32_t *order = malloc((t->ct_nnames + 1) * sizeof(*order));
	uint8_t *used = calloc(t->ct_nnames + 1, 1);
	if (!order || !used) {
		free(order);
		free(used);
		free(pn);
		free(remap);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < t->ct_nnames; i++)
		pn[i] = remap[i] ? remap[i] - 1 : UINT32_MAX;
	uint32_t next = npage;
	for (uint32_t x = 0; x < pg->all - pg->kept; x++) {
		uint32_t nm = t->ct_nodes[pg->xnode[x]].cn_name;
		if (pn[nm] == UINT32_MAX) {
			order[next - npage] = nm;
			pn[nm] = next++;
		}
	}
	if (n->fn)
		html_fncells_names(n->fn, used);
	for (size_t i = 0; i < t->ct_nnames; i++)
		if (used[i] && pn[i] == UINT32_MAX) {
			order[next - npage] = (uint32_t)i;
			pn[i] = next++;
		}
	fputs(",\n\"xnames\":[", out);
	for (uint32_t i = 0; i < next - npage; i++) {
		if (i)
			fputs(i % 8 ? "," : ",\n", out);
		htmlsafe_json(out, t->ct_names[order[i]]);
	}
	fputc(']', out);
	if (!in->oi_full_names) {
		fputs(",\n\"xshort\":[", out);
		for (uint32_t i = 0; i < next - npage; i++) {
			char buf[1024];
			if (i)
				fputs(i % 8 ? "," : ",\n", out);
			name_shorten(t->ct_names[order[i]], buf, sizeof(buf));
			htmlsafe_json(out, buf);
		}
		fputc(']', out);
	}
	free(order);
	free(used);
	/* an ext node: its number less its parent's, its name */
	fputs(",\n\"ext\":[\"", out);
	for (uint32_t x = 0; x < pg->all - pg->kept; x++) {
		const struct calltree_node *c = &t->ct_nodes[pg->xnode[x]];
		html_put_num(out, pg->kept + x - pg->parent[pg->kept + x]);
		html_put_num(out, pn[c->cn_name]);
		if (x % 64 == 63 && x + 1 < pg->all - pg->kept)
			fputs("\",\n\"", out); /* short lines */
	}
	fputs("\"]", out);
	if (n->fn)
		rc = html_fncells_write(out, n->fn, pn, next);
	free(pn);
	free(remap);
	return rc;
}

static int write_data(FILE *out, const struct narrow *n,
		      const struct output_in *in, uint64_t min,
		      const struct pages *pg)
{
	const struct model *m = n->m;
	fprintf(out, "<script type=\"application/json\" id=\"nr-data\">\n"
		     "{\"seconds\":%.9g,\"bins\":%u,\"cut\":%u,\"threads\":[",
		(double)n->span / 1e9, n->bins, n->cut);
	/* a thread: [process number (model_proc_num()), tid, thread name,
	 * program, the process's name (proc_label()), pid in its PID
	 * namespace] */
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		char pb[160];
		fprintf(out, "%s[%u,%u,", i ? (i % 8 ? "," : ",\n") : "",
			model_proc_num(m, t->pid), t->tid);
		htmlsafe_json(out, t->name ? t->name : "");
		fputc(',', out);
		htmlsafe_json(out, model_proc_name(m, t->pid, t->image));
		fputc(',', out);
		htmlsafe_json(out, proc_label(m, t->pid, pb, sizeof(pb)));
		fprintf(out, ",%u]", model_real_pid(m, t->pid));
	}
	fputs("],\n\"cells\":[", out);
	for (size_t i = 0; i < n->ncells; i++) {
		const struct cell *c = &n->cells[i];
		fprintf(out, "%s%u,%u,%u,%" PRIu64, i ? (i % 16 ? "," : ",\n") : "",
			c->node, c->thread, c->bin, c->count);
	}
	/* [thread, bin, samples in MPI, samples in I/O] where either is
	 * not 0: for the selection's split of the performance summary */
	fputs("],\n\"cls\":[", out);
	for (size_t i = 0; i < n->ncc; i++)
		fprintf(out, "%s%u,%u,%" PRIu64 ",%" PRIu64,
			i ? (i % 16 ? "," : ",\n") : "", n->cc[i].thread,
			n->cc[i].bin, n->cc[i].mpi, n->cc[i].io);
	fputc(']', out);
	int rc = write_ext(out, n, in, min, pg);
	fputs("}\n</script>\n", out);
	return rc;
}

int html_narrow_slots(const struct output_in *in, uint64_t min,
		      int32_t *slot_page)
{
	const struct calltree *t = in->oi_calltree;
	struct pages pg = {NULL, 0, calloc(t->ct_n + 1, sizeof(uint32_t)),
			   calloc(t->ct_n + 1, sizeof(uint32_t)), NULL, 0, 0};
	int rc = pg.parent && pg.depth
			 ? map_slots(in->oi_model, in->oi_analysis, t, min,
				     slot_page, NULL, &pg, NULL)
			 : MAPS_ENOMEM;
	free(pg.parent);
	free(pg.depth);
	return rc;
}

int html_narrow_data(FILE *out, const struct output_in *in, uint64_t min)
{
	const struct model *m = in->oi_model;
	if (!m->samples)
		return 0;
	if (m->filter && filter_active(m->filter)) {
		fputs("<p class=\"note\">The report was already narrowed on the "
		      "command line: the page cannot narrow it further.</p>\n",
		      out);
		return 0;
	}
	struct narrow n = {.m = m, .a = in->oi_analysis, .bins = NR_BINS};
	const struct calltree *t = in->oi_calltree;
	int32_t *sp = malloc((m->capstacks ? m->capstacks : 1) * sizeof(*sp));
	int32_t *sn = malloc((m->capstacks ? m->capstacks : 1) * sizeof(*sn));
	int32_t *fname = NULL;
	struct pages pg = {NULL, 0, calloc(t->ct_n + 1, sizeof(uint32_t)),
			   calloc(t->ct_n + 1, sizeof(uint32_t)),
			   calloc(t->ct_n + 1, sizeof(uint32_t)), 0, 0};
	int rc = MAPS_ENOMEM;
	if (!sp || !sn || !pg.parent || !pg.depth || !pg.xnode)
		goto out;
	if ((rc = map_slots(m, in->oi_analysis, t, min, sp, sn, &pg, &fname)))
		goto out;
	n.slot_page = sp;
	n.slot_node = sn;
	if ((rc = classify(&n)))
		goto out;
	rc = MAPS_ENOMEM;
	if (!(n.fn = html_fncells_new(m, in->oi_analysis, t, fname)) ||
	    !(n.rs = html_ranksel_new(m, in->oi_analysis, NR_BINS)))
		goto out;
	html_nr_span(m, &n.t0, &n.span);
	static const struct rescan_tool tool = {on_sample, NULL, NULL};
	rc = rescan_logs(in, &tool, &n);
	keymap_free(&n.keys);
	keymap_free(&n.ckeys);
	if (rc == MAPS_EIO) {
		fputs("<p class=\"note\">The logs could not be read a second "
		      "time (for a pipe, the copy of it could not be made: "
		      "mapreport said why): the page cannot narrow to a thread "
		      "or a time range.</p>\n",
		      out);
		rc = 0;
		goto out;
	}
	if (rc)
		goto out;
	merge_cells(&n);
	uint32_t shift = 0;
	while (n.ncells > NR_CELLS && n.bins > NR_MIN_BINS) {
		halve_cells(&n);
		shift++;
	}
	if (n.ncells > NR_CELLS) {
		/* the deepest cut that fits: cells only fall as it rises */
		uint32_t lo = 1, hi = 0;
		for (size_t i = 0; i < n.ncells; i++)
			if (pg.depth[n.cells[i].node] > hi)
				hi = pg.depth[n.cells[i].node];
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo + 1) / 2;
			long c = cells_at(&n, &pg, mid);
			if (c < 0) {
				rc = MAPS_ENOMEM;
				goto out;
			}
			if ((size_t)c <= NR_CELLS)
				lo = mid;
			else
				hi = mid - 1;
		}
		n.cut = lo;
		for (size_t i = 0; i < n.ncells; i++)
			n.cells[i].node = ancestor(&pg, n.cells[i].node, lo);
		merge_cells(&n);
	}
	/* the exact call data where the cells are not: at the cells'
	 * bins, all halved while it is over its budget */
	if (n.cut && (rc = html_fncells_build(n.fn, shift)) < 0)
		goto out;
	if (n.cut && !rc) {
		while (html_fncells_count(n.fn) > NR_FCELLS &&
		       n.bins > NR_FMIN_BINS) {
			halve_cells(&n);
			html_fncells_halve(n.fn);
		}
		if ((rc = html_fncells_fit(n.fn, NR_FCELLS)))
			goto out;
	} else {
		html_fncells_free(n.fn);
		n.fn = NULL;
	}
	if ((rc = prune_ext(&n, &pg)))
		goto out;
	rc = write_data(out, &n, in, min, &pg);
	if (!rc) /* Regions, MPI */
		rc = html_seltab_data(out, in, NR_BINS, n.bins);
	if (!rc) /* Ranks */
		rc = html_ranksel_write(out, n.rs, in, n.bins);
	if (!rc) /* the metrics table */
		rc = html_msel_data(out, in, NR_BINS, n.bins);
	if (!rc) /* the partial reports */
		rc = html_psel_data(out, in, NR_BINS, n.bins);
out:
	html_fncells_free(n.fn);
	html_ranksel_free(n.rs);
	free(pg.parent);
	free(pg.depth);
	free(pg.xnode);
	free(sn);
	free(fname);
	keymap_free(&n.keys);
	keymap_free(&n.ckeys);
	free(n.cells);
	free(n.cc);
	free(n.cls);
	free(sp);
	return rc;
}
