/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals shared by the metric definition files of lib/defs
 * (metricdef.c: the set; metricdef_parse.c: reading a file;
 * metricdef_check.c: its checks and the library checks;
 * metricdef_search.c: the search path; metricdef_file.c: diagnostics
 * and freeing a file's data): the string index and the diagnostics.  Not for other modules: they use metricdef.h.
 */
#ifndef MAPSAMPLE_METRICDEF_I_H
#define MAPSAMPLE_METRICDEF_I_H

#include "defs/metricdef.h"
#include "defs/xmlcheck.h"

/* A map from strings to pointers.  Keys are not copied: each must live as
 * long as its entry (they are ids owned by the model). */
struct metricdef_index;

struct metricdef_index *metricdef_index_new(void);
void metricdef_index_free(struct metricdef_index *ix);
void *metricdef_index_get(const struct metricdef_index *ix, const char *key);
/* Adds key unless present; returns 0 or MAPS_ENOMEM. */
int metricdef_index_put(struct metricdef_index *ix, const char *key,
			void *val);

/*
 * Adds a diagnostic to md.  f: the file it is about (counts go there), or
 * NULL; path: the name printed (f->f_path when f is given); pos: where,
 * p_line 0 for the whole file; elem: the descriptor of the element at
 * fault (xmlcheck_elem()), or NULL.  The text is
 *     PATH:LINE:COL: [warning: ]ELEM: MESSAGE
 * Out of memory sets md->md_oom.  md's public diagnostics and counts show
 * it after metricdef_publish().
 */
void metricdef_diag(struct metricdef *md, struct metricdef_file *f,
		    const char *path, struct metricdef_pos pos,
		    enum metricdef_severity sev, enum metricdef_rule rule,
		    const char *elem, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* Sorts md's diagnostics (by file in load order, then position) and
 * shows them and the counts in md's public fields; every public function
 * that adds diagnostics calls it before it returns. */
void metricdef_publish(struct metricdef *md);

/*
 * Parses len bytes at buf as the definition file f of md (already in
 * md->md_files) into f's metrics, groups and sources, with diagnostics
 * for its structure, then checks its values (metricdef_check_file()).
 * A file that is not well-formed, too large or not a metric definition
 * file is marked f_unreadable and left empty.
 */
void metricdef_parse(struct metricdef *md, struct metricdef_file *f,
		     const void *buf, size_t len);

/*
 * Checks what a parsed file f says: required parts, value syntax,
 * references inside the file, ids already used by earlier files (md's
 * indexes); resolves library paths; adds the file's first definitions to
 * md's indexes.
 */
void metricdef_check_file(struct metricdef *md, struct metricdef_file *f);

/* Empties f of what a failed parse left in it. */
void metricdef_clear_file(struct metricdef_file *f);

/* The "larger than METRICDEF_MAX_FILE_SIZE" error of file f. */
void metricdef_too_large(struct metricdef *md, struct metricdef_file *f);

#endif
