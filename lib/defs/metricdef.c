/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef.c: a set of metric definition files (metricdef.h): loading
 * files and buffers, the checks across files (metricdef_finish()),
 * publishing the diagnostics of the set, and the string index the ids are
 * found by.
 *
 * DESIGN NOTES
 * - Reading one file is metricdef_parse.c's, checking what it says
 *   metricdef_check.c's, finding the files metricdef_search.c's; all
 *   report through metricdef_diag() (metricdef_file.c, below them all)
 *   into the set's diagnostics log (the XML-checking core's, xmlcheck.h),
 *   which each public function sorts and shows in md_diags and the
 *   counts before it returns (metricdef_publish()).  Calls go one way:
 *   metricdef.c -> _search.c, _parse.c -> _check.c -> _file.c.
 * - Out of memory is sticky (md->md_oom): handlers stop the parser, the
 *   checks skip, the public function returns MAPS_ENOMEM.
 * - Nothing here loads libraries or lists directories.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "defs/metricdef_i.h"

const char *const metricdef_types[] = {
	"cpu_time", "energy", "instructions", "io", "memory", "mpi", "other",
	"interrupts", NULL,
};

void metricdef_publish(struct metricdef *md)
{
	const struct xmlcheck_log *lg = md->md_log;
	xmlcheck_log_sort(md->md_log);
	md->md_nerrors = lg->lg_all.xn_errors;
	md->md_nwarnings = lg->lg_all.xn_warnings;
	for (size_t i = 0; i < md->md_nfiles; i++) {
		struct metricdef_file *f = md->md_files[i];
		f->f_nerrors = lg->lg_files[f->f_seq].xn_errors;
		f->f_nwarnings = lg->lg_files[f->f_seq].xn_warnings;
	}
	if (mem_reserve(&md->md_diags, &md->md_diag_cap, lg->lg_ndiags,
			sizeof(*md->md_diags), 0)) {
		md->md_oom = true;
		return;
	}
	for (size_t i = 0; i < lg->lg_ndiags; i++) {
		const struct xmlcheck_diag *x = &lg->lg_diags[i];
		md->md_diags[i] = (struct metricdef_diag){
			x->xd_severity == XMLCHECK_WARNING ? METRICDEF_WARNING
							   : METRICDEF_ERROR,
			(enum metricdef_rule)x->xd_rule, x->xd_file,
			x->xd_line, x->xd_col, x->xd_text};
	}
	md->md_ndiags = lg->lg_ndiags;
}

/* ------------------------------------------------------------------ */
/* Paths */

/* The absolute form of directory dir (realpath when it exists, else
 * joined to the current directory); NULL when out of memory. */
static char *absdir(const char *dir)
{
	char *r, *cwd;
	if (!dir || !*dir)
		dir = ".";
	r = realpath(dir, NULL);
	if (r)
		return r;
	if (dir[0] == '/')
		return strdup(dir);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	if (asprintf(&r, "%s/%s", strcmp(cwd, "/") ? cwd : "", dir) < 0)
		r = NULL;
	free(cwd);
	return r;
}

/* The directory part of path ("." when there is none), newly allocated. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* ------------------------------------------------------------------ */
/* Freeing */

static void free_file(struct metricdef_file *f)
{
	metricdef_clear_file(f);
	free(f->f_path);
	free(f->f_dir);
	free(f);
}

/* ------------------------------------------------------------------ */
/* The set */

struct metricdef *metricdef_new(void)
{
	struct metricdef *md = calloc(1, sizeof(*md));
	if (!md)
		return NULL;
	md->md_metric_index = metricdef_index_new();
	md->md_group_index = metricdef_index_new();
	md->md_log = xmlcheck_log_new(METRICDEF_MAX_DIAGS, METRICDEF_R_LIMIT,
				      &md->md_oom);
	if (!md->md_metric_index || !md->md_group_index || !md->md_log) {
		metricdef_free(md);
		return NULL;
	}
	return md;
}

void metricdef_free(struct metricdef *md)
{
	if (!md)
		return;
	for (size_t i = 0; i < md->md_nfiles; i++)
		free_file(md->md_files[i]);
	free(md->md_files);
	free(md->md_diags);      /* its strings are the log's */
	xmlcheck_log_free(md->md_log);
	metricdef_index_free(md->md_metric_index);
	metricdef_index_free(md->md_group_index);
	free(md);
}

struct metricdef_metric *metricdef_find_metric(const struct metricdef *md,
					       const char *id)
{
	return id ? metricdef_index_get(md->md_metric_index, id) : NULL;
}

struct metricdef_group *metricdef_find_group(const struct metricdef *md,
					     const char *id)
{
	return id ? metricdef_index_get(md->md_group_index, id) : NULL;
}

/* A new file named path, resolving library names in dir (absolute). */
static struct metricdef_file *add_file(struct metricdef *md,
				       const char *path, char *dir)
{
	struct metricdef_file *f = calloc(1, sizeof(*f));
	if (!f || !(f->f_path = strdup(path))) {
		free(f);
		free(dir);
		md->md_oom = true;
		return NULL;
	}
	f->f_dir = dir;
	/* the file's number in the log is its index in md_files */
	if (mem_grow(&md->md_files, &md->md_capfiles, md->md_nfiles,
		     sizeof(f)) ||
	    (f->f_seq = xmlcheck_log_file(md->md_log)) < 0) {
		free_file(f);
		md->md_oom = true;
		return NULL;
	}
	md->md_files[md->md_nfiles++] = f;
	return f;
}

int metricdef_load_buffer(struct metricdef *md, const char *name,
			  const char *dir, const void *buf, size_t len)
{
	struct metricdef_file *f;
	char *d;
	if (!md || !name || (!buf && len))
		return MAPS_EINVAL;
	if (dir) {
		d = absdir(dir);
	} else {
		char *nd = dir_of(name);
		d = nd ? absdir(nd) : NULL;
		free(nd);
	}
	if (!d) {
		md->md_oom = true;
		return MAPS_ENOMEM;
	}
	if (!(f = add_file(md, name, d)))
		return MAPS_ENOMEM;
	metricdef_parse(md, f, buf ? buf : "", len);
	metricdef_publish(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

int metricdef_load_file(struct metricdef *md, const char *path)
{
	struct metricdef_file *f;
	char *buf = NULL, *nd, *d;
	size_t len = 0;
	int rc;

	if (!md || !path)
		return MAPS_EINVAL;
	nd = dir_of(path);
	d = nd ? absdir(nd) : NULL;
	free(nd);
	if (!d) {
		md->md_oom = true;
		return MAPS_ENOMEM;
	}
	if (!(f = add_file(md, path, d)))
		return MAPS_ENOMEM;
	rc = xmlcheck_read_file(path, METRICDEF_MAX_FILE_SIZE, &buf, &len);
	if (rc == MAPS_ENOMEM) {
		md->md_oom = true;
	} else if (rc && errno == EFBIG) {
		metricdef_too_large(md, f);
	} else if (rc) {
		metricdef_diag(md, f, NULL, (struct metricdef_pos){0, 0},
			       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
			       "cannot be read: %s; check the path and its "
			       "permissions", strerror(errno));
		f->f_unreadable = true;
	} else {
		metricdef_parse(md, f, buf, len);
	}
	free(buf);
	metricdef_publish(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

int metricdef_finish(struct metricdef *md)
{
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	if (!md)
		return MAPS_EINVAL;
	for (size_t i = 0; i < md->md_nfiles; i++) {
		struct metricdef_file *f = md->md_files[i];
		for (size_t j = 0; j < f->f_nmetrics; j++) {
			struct metricdef_metric *m = f->f_metrics[j];
			for (size_t k = 0; k < m->m_nrels; k++) {
				struct metricdef_rel *r = &m->m_rels[k];
				if (r->r_checked || !r->r_name)
					continue;
				r->r_checked = true;
				r->r_target = metricdef_find_metric(md,
								    r->r_name);
				xmlcheck_elem(el, sizeof(el), "rel", 2,
					       "type", r->r_type, "name",
					       r->r_name);
				if (!r->r_target)
					metricdef_diag(
						md, f, NULL, r->r_pos,
						METRICDEF_ERROR,
						METRICDEF_R_REL_NAME, el,
						"no <metric id=%s> in the "
						"loaded definition files; "
						"define it or correct name",
						xmlcheck_quote(q, sizeof(q),
								r->r_name));
				else if (m->m_id &&
					 !strcmp(r->r_name, m->m_id))
					metricdef_diag(
						md, f, NULL, r->r_pos,
						METRICDEF_ERROR,
						METRICDEF_R_REL_NAME, el,
						"names the metric itself; "
						"name the metric that is the "
						"integral of this one");
			}
		}
	}
	metricdef_publish(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

/* ------------------------------------------------------------------ */
/* The index: open addressing, FNV-1a, capacity a power of two. */

struct metricdef_index {
	size_t cap, n;
	const char **keys;
	void **vals;
};

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 32));
}

struct metricdef_index *metricdef_index_new(void)
{
	return calloc(1, sizeof(struct metricdef_index));
}

void metricdef_index_free(struct metricdef_index *ix)
{
	if (!ix)
		return;
	free(ix->keys);
	free(ix->vals);
	free(ix);
}

void *metricdef_index_get(const struct metricdef_index *ix, const char *key)
{
	if (!ix || !ix->cap)
		return NULL;
	for (size_t i = hash(key) & (ix->cap - 1);;
	     i = (i + 1) & (ix->cap - 1)) {
		if (!ix->keys[i])
			return NULL;
		if (!strcmp(ix->keys[i], key))
			return ix->vals[i];
	}
}

int metricdef_index_put(struct metricdef_index *ix, const char *key,
			void *val)
{
	size_t i;
	if ((ix->n + 1) * 2 > ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 16;
		const char **k = calloc(cap, sizeof(*k));
		void **v = calloc(cap, sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return MAPS_ENOMEM;
		}
		for (size_t j = 0; j < ix->cap; j++) {
			if (!ix->keys[j])
				continue;
			for (i = hash(ix->keys[j]) & (cap - 1); k[i];
			     i = (i + 1) & (cap - 1))
				;
			k[i] = ix->keys[j];
			v[i] = ix->vals[j];
		}
		free(ix->keys);
		free(ix->vals);
		ix->keys = k;
		ix->vals = v;
		ix->cap = cap;
	}
	for (i = hash(key) & (ix->cap - 1); ix->keys[i];
	     i = (i + 1) & (ix->cap - 1))
		if (!strcmp(ix->keys[i], key))
			return 0;
	ix->keys[i] = key;
	ix->vals[i] = val;
	ix->n++;
	return 0;
}
