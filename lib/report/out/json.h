/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json: mapreport's machine-readable report (--json), and the small JSON
 * writer it is written with.
 *
 * The report follows the schema "mapsample-report", version 1, described
 * field by field in mapreport(1), JSON SCHEMA.  A reader checks "schema"
 * and "version": fields may be added within a version, never removed or
 * changed in meaning.
 *
 * The writer (jsonw_*) always produces valid JSON in UTF-8: strings are
 * escaped (quotes, backslash, every control character), bytes that are
 * not valid UTF-8 (symbol names come from arbitrary binaries) become
 * U+FFFD, and numbers that are not finite become null.  Output is
 * indented two spaces per level, one member or element per line, so a
 * report diffs well.
 */
#ifndef MAPSAMPLE_REPORT_JSON_H
#define MAPSAMPLE_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/out/output.h"

/* Name and version of the report's schema. */
#define JSON_SCHEMA "mapsample-report"
#define JSON_VERSION 1

struct jsonw {
	FILE *out;
	int depth;
	int after_key;                  /* a key was written, value comes */
	unsigned char *empty;           /* no member yet, by depth */
	size_t capempty;
	unsigned char spare;            /* stands in when empty can't grow */
	int err;                        /* MAPS_ENOMEM once out of memory */
};

/* Starts writing one JSON value to out. */
void jsonw_init(struct jsonw *w, FILE *out);

/* Containers.  Inside an object, every value is preceded by jsonw_key. */
void jsonw_object(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key);

/* Values.  jsonw_string writes null for NULL; jsonw_stringn takes len
 * bytes that may hold NUL (written as \u0000).  jsonw_double writes
 * null for NaN and infinities, else the shortest of %.15g, %.16g, %.17g that
 * reads back as the same double. */
void jsonw_string(struct jsonw *w, const char *s);
void jsonw_stringn(struct jsonw *w, const char *s, size_t len);
void jsonw_u64(struct jsonw *w, uint64_t v);
void jsonw_i64(struct jsonw *w, int64_t v);
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, int v);
void jsonw_null(struct jsonw *w);

/* Ends the value with a newline and frees what the writer holds;
 * returns 0, MAPS_ENOMEM if memory ran out on the way (for deep nesting;
 * the output is then not valid JSON), or MAPS_EIO if out had a write
 * error. */
int jsonw_finish(struct jsonw *w);

/*
 * Writes the member "errors" of a report: one object per input problem,
 * with its "kind" ("damaged", "truncated", "read-error", "unreadable"
 * for the notes of each of models[0..nmodels) (NULL entries skipped),
 * "partial-definition" for each file of pset (NULL: none) left out),
 * "file", "offset" (null when not in a log) and "message"; then one
 * object for each of extra[0..nextra) (its kind, file, a null offset,
 * its message).
 */
void json_errors(struct jsonw *w, const struct model *const *models,
		 size_t nmodels, const struct partial_set *pset,
		 const struct output_problem *extra, size_t nextra);

/*
 * Writes the report of in's model and analysis (NULL: none), logs and
 * partial reports to out as one JSON object, schema JSON_SCHEMA version
 * JSON_VERSION: the "json" back-end's emit (output.h).  Returns 0,
 * MAPS_ENOMEM (the output is cut short), or MAPS_EIO on a write error.
 */
int json_emit(const struct output_in *in, FILE *out);

#endif
