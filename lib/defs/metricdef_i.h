/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals shared by the files of lib/metricdef: the string index and the
 * diagnostics.  Not for other modules: they use metricdef.h.
 */
#ifndef MAPSAMPLE_METRICDEF_I_H
#define MAPSAMPLE_METRICDEF_I_H

#include <stdarg.h>

#include "defs/metricdef.h"

/* A map from strings to pointers.  Keys are not copied: each must live as
 * long as its entry (they are ids owned by the model). */
struct metricdef_index;

struct metricdef_index *metricdef_index_new(void);
void metricdef_index_free(struct metricdef_index *ix);
void *metricdef_index_get(const struct metricdef_index *ix, const char *key);
/* Adds key unless present; returns 0 or MAPS_ENOMEM. */
int metricdef_index_put(struct metricdef_index *ix, const char *key,
			void *val);

/* Longest quoted value in a message, in bytes of the value. */
#define METRICDEF_QUOTE_MAX 64

/*
 * Writes s to dst (size n) in double quotes, with '"', '\\' and control
 * characters escaped (\xNN) and anything past METRICDEF_QUOTE_MAX bytes
 * replaced by "...".  Returns dst.
 */
char *metricdef_quote(char *dst, size_t n, const char *s);

/*
 * Writes an element's descriptor for messages: <name a1="v1" ...>, with
 * nattr (attribute name, value) pairs following; pairs whose value is
 * NULL are left out.  Returns dst.
 */
char *metricdef_elem(char *dst, size_t n, const char *name, int nattr, ...);

/*
 * Adds a diagnostic to md.  f: the file it is about (counts go there), or
 * NULL; path: the name printed (f->f_path when f is given); pos: where,
 * p_line 0 for the whole file; elem: the descriptor of the element at
 * fault (metricdef_elem()), or NULL.  The text is
 *     PATH:LINE:COL: [warning: ]ELEM: MESSAGE
 * Out of memory sets md->md_oom.
 */
void metricdef_diag(struct metricdef *md, struct metricdef_file *f,
		    const char *path, struct metricdef_pos pos,
		    enum metricdef_severity sev, enum metricdef_rule rule,
		    const char *elem, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* Sorts md's diagnostics by file (in load order), then position. */
void metricdef_sort_diags(struct metricdef *md);

/* strdup() that records failure in md->md_oom (NULL s gives NULL). */
char *metricdef_strdup(struct metricdef *md, const char *s);

/* The absolute form of directory dir (realpath when it exists, else
 * joined to the current directory); NULL when out of memory. */
char *metricdef_absdir(const char *dir);

#endif
