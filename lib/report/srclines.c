/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * srclines: samples per source line of a function, and its source files
 * (see srclines.h).
 *
 * Only the stacks that hold the function (by the analysis's function ids)
 * are expanded again address by address; the symbolizer answers each
 * address from its cache.  Lines are found through a small open-address
 * table on (file, line, inlined function); the strings are the
 * symbolizer's, interned, so pointers compare.  The symbolizer gives
 * file names as the line table has them, often relative to the build's
 * folder: that folder (DW_AT_comp_dir) is read here, once per function,
 * from the compile unit of one of its addresses.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/srclines.h"

#define MAX_FRAMES 32

struct table {
	uint32_t *slot;   /* line index + 1, 0 empty */
	size_t cap;
};

static uint64_t line_hash(const char *file, int line, const char *inl)
{
	uint64_t h = (uint64_t)(uintptr_t)file * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(unsigned)line * 0xc2b2ae3d27d4eb4full ^
		     (uint64_t)(uintptr_t)inl * 0x165667b19e3779f9ull;
	return h ^ (h >> 29);
}

/* The line (file, line, inl) of r, added if new; NULL when out of
 * memory. */
static struct srcline *line_get(struct srclines *r, struct table *t,
				const char *file, int line, const char *inl)
{
	if ((r->sf_nlines + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *s = calloc(cap, sizeof(*s));
		if (!s)
			return NULL;
		for (size_t i = 0; i < r->sf_nlines; i++) {
			const struct srcline *l = &r->sf_lines[i];
			size_t j = line_hash(l->sl_file, l->sl_line,
					     l->sl_inlined) & (cap - 1);
			while (s[j])
				j = (j + 1) & (cap - 1);
			s[j] = (uint32_t)i + 1;
		}
		free(t->slot);
		t->slot = s;
		t->cap = cap;
	}
	size_t mask = t->cap - 1, j = line_hash(file, line, inl) & mask;
	for (; t->slot[j]; j = (j + 1) & mask) {
		struct srcline *l = &r->sf_lines[t->slot[j] - 1];
		if (l->sl_file == file && l->sl_line == line &&
		    l->sl_inlined == inl)
			return l;
	}
	if (r->sf_nlines == r->sf_cap &&
	    mem_grow(&r->sf_lines, &r->sf_cap, r->sf_nlines,
		     sizeof(*r->sf_lines)))
		return NULL;
	struct srcline *l = &r->sf_lines[r->sf_nlines];
	memset(l, 0, sizeof(*l));
	l->sl_file = file;
	l->sl_line = line;
	l->sl_inlined = inl;
	l->sl_id = (uint32_t)r->sf_nlines;
	t->slot[j] = (uint32_t)++r->sf_nlines;
	return l;
}

/* Counts stack s (generation gen) on the line of frame fr, inlined into
 * the function unless own; self too when it is the running line.  0 or
 * MAPS_ENOMEM. */
static int count(struct srclines *r, struct table *t, const struct rstack *s,
		 uint32_t gen, const struct symframe *fr, int own, int self)
{
	struct srcline *l = line_get(r, t, fr->file, fr->line,
				     own ? NULL : fr->func);
	if (!l)
		return MAPS_ENOMEM;
	int total = l->sl_gen != gen;
	if (total) {
		l->sl_gen = gen;
		l->sl_total += s->count;
		l->sl_total_ns += s->weight;
	}
	if (self) {
		l->sl_self += s->count;
		l->sl_self_ns += s->weight;
		r->sf_self += s->count;
		r->sf_self_ns += s->weight;
	}
	if (r->sf_each && (total || self))
		r->sf_each(r->sf_each_arg, r->sf_slot, l->sl_id, total, self);
	return 0;
}

/* The DW_AT_comp_dir of the compile unit holding module address rel of
 * the file at path, malloc'd; NULL when there is none (or no memory). */
static char *comp_dir(const char *path, uint64_t rel)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *d = path[0] == '/' ? dwfl_begin(&cb) : NULL;
	if (!d)
		return NULL;
	dwfl_report_begin(d);
	Dwfl_Module *mod = dwfl_report_elf(d, "src", path, -1, 0, false);
	dwfl_report_end(d, NULL, NULL);
	Dwarf_Addr bias;
	Dwarf_Die *cu = mod ? dwfl_module_addrdie(mod, rel, &bias) : NULL;
	Dwarf_Attribute at;
	const char *cd = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir,
							  &at))
			    : NULL;
	char *r = cd ? mem_strdup(cd) : NULL;
	dwfl_end(d);
	return r;
}

/* Whether stack si holds function func, by the analysis's ids. */
static int holds(const struct analysis *a, size_t si, uint32_t func)
{
	const uint32_t *e = a->exp + a->exp_off[si];
	for (uint32_t k = 0; k < a->exp_n[si]; k++)
		if (e[k] == func)
			return 1;
	return 0;
}

/* Counts the stack in slot si of m on the lines of f's code.  0 or
 * MAPS_ENOMEM. */
static int add_stack(struct srclines *r, struct table *t, const struct model *m,
		     const struct analysis *a, size_t si, uint32_t gen)
{
	const struct rstack *s = &m->stacks[si];
	const struct rfunc *f = &a->funcs[r->sf_func];
	const uint64_t *pc = m->spc + s->off;
	for (uint32_t i = 0; i < s->npc; i++) {
		struct symframe fr[MAX_FRAMES];
		const struct rmap *mp = model_find_map(m, s->pid, s->image,
						       pc[i]);
		int n = mp ? sym_lookup(a->st, mp->path, mp->buildid,
					mp->buildid_len, mp->bias, mp->start,
					mp->offset, pc[i], i == 0, fr,
					MAX_FRAMES)
			   : sym_anon(a->st,
				      model_find_proc(m, s->pid, s->image),
				      pc[i], i == 0, fr);
		if (n < 0)
			return MAPS_ENOMEM;
		for (int k = 0; k < n; k++) {
			if (fr[k].func != f->name || fr[k].module != f->module)
				continue;
			if (!r->sf_comp_dir && mp && !r->sf_dir_tried) {
				r->sf_dir_tried = 1;
				r->sf_comp_dir = comp_dir(mp->path,
							  pc[i] - mp->bias);
			}
			/* f's line here, and the lines of the code inlined
			 * into it, innermost (the running line) first */
			for (int j = 0; j <= k; j++)
				if (count(r, t, s, gen, &fr[j], j == k,
					  i == 0 && j == 0))
					return MAPS_ENOMEM;
			break;
		}
	}
	return 0;
}

static int cmp_line(const void *x, const void *y)
{
	const struct srcline *p = x, *q = y;
	if (!p->sl_file || !q->sl_file)
		return !p->sl_file - !q->sl_file; /* unknown files last */
	int c = strcmp(p->sl_file, q->sl_file);
	if (c)
		return c;
	if (p->sl_line != q->sl_line)
		return p->sl_line < q->sl_line ? -1 : 1;
	/* the function's own line before inlined code on the same line */
	if (!p->sl_inlined || !q->sl_inlined)
		return !q->sl_inlined - !p->sl_inlined;
	return strcmp(p->sl_inlined, q->sl_inlined);
}

int srclines_build(struct srclines *r, const struct model *m,
		   const struct analysis *a, uint32_t func)
{
	return srclines_build_each(r, m, a, func, NULL, NULL);
}

int srclines_build_each(struct srclines *r, const struct model *m,
			const struct analysis *a, uint32_t func,
			srclines_each_fn each, void *arg)
{
	struct table t = {0};
	uint32_t gen = 0;
	memset(r, 0, sizeof(*r));
	r->sf_func = func;
	r->sf_each = each;
	r->sf_each_arg = arg;
	for (size_t si = 0; si < m->capstacks; si++) {
		if (!m->stacks[si].used || !m->stacks[si].count ||
		    !holds(a, si, func))
			continue;
		r->sf_slot = si;
		if (add_stack(r, &t, m, a, si, ++gen)) {
			free(t.slot);
			srclines_free(r);
			return MAPS_ENOMEM;
		}
	}
	free(t.slot);
	if (r->sf_nlines) /* none: sf_lines is NULL, which qsort may not get */
		qsort(r->sf_lines, r->sf_nlines, sizeof(*r->sf_lines),
		      cmp_line);
	return 0;
}

void srclines_free(struct srclines *r)
{
	free(r->sf_lines);
	free(r->sf_comp_dir);
	memset(r, 0, sizeof(*r));
}

int srclines_map_ok(const char *s)
{
	const char *eq = strchr(s, '=');
	return eq && eq != s && eq[1];
}

/* Opens dir/rest (dir NULL: rest alone) into path.  The stream or
 * NULL. */
static FILE *try_open(const char *dir, size_t dirlen, const char *rest,
		      char *path, size_t len)
{
	int n = dir ? snprintf(path, len, "%.*s/%s", (int)dirlen, dir, rest)
		    : snprintf(path, len, "%s", rest);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "r");
}

FILE *srclines_open(const struct srcpaths *sp, const char *comp_dir,
		    const char *file, char *path, char *why, size_t len)
{
	FILE *f = NULL;
	int err = 0;
	char first[4096] = "", full[4096];
	if (file[0] != '/' && comp_dir &&
	    (size_t)snprintf(full, sizeof(full), "%s/%s", comp_dir, file) <
		    sizeof(full))
		file = full;
	/* the first rule whose FROM folder holds the file */
	for (size_t i = 0; i < sp->sp_nmaps && !f; i++) {
		const char *eq = strchr(sp->sp_maps[i], '=');
		size_t n = (size_t)(eq - sp->sp_maps[i]);
		while (n > 0 && sp->sp_maps[i][n - 1] == '/')
			n--; /* "/" alone: n 0, every absolute path */
		if (strncmp(file, sp->sp_maps[i], n) ||
		    (file[n] != '/' && file[n]))
			continue;
		f = try_open(eq + 1, strlen(eq + 1), file[n] ? file + n + 1 : "",
			     path, len);
		if (!f && !err) {
			err = errno;
			snprintf(first, sizeof(first), "%s", path);
		}
		break;
	}
	if (!f && !err) {
		f = try_open(NULL, 0, file, path, len);
		if (!f) {
			err = errno;
			snprintf(first, sizeof(first), "%s", file);
		}
	}
	const char *base = strrchr(file, '/');
	for (size_t i = 0; i < sp->sp_ndirs && !f; i++) {
		const char *d = sp->sp_dirs[i];
		f = try_open(d, strlen(d), file + (file[0] == '/'), path, len);
		if (!f && base)
			f = try_open(d, strlen(d), base + 1, path, len);
	}
	if (!f)
		snprintf(why, len, "%s: %s", first, strerror(err));
	return f;
}
