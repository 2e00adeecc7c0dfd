/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * srclines: samples per source line of one function (mapreport --lines),
 * and finding its source files.  No formatting here.
 *
 * A function's code is its own and the code inlined into it.  Every
 * stack that holds the function is looked at address by address through
 * the symbolizer (report/symbolize.h, which caches each address): where
 * an address's frames hold the function, the lines of that frame and of
 * the frames inlined into it there are the function's.  A line's self
 * samples are those whose innermost frame runs it (the stack's first
 * address); its total samples those whose stack passes through it (a
 * call site's total holds its callee's samples), each stack counted once
 * per line.  Inlined code is thus shown at its own source lines, in its
 * own file, and counted in the function it was inlined into.
 */
#ifndef MAPSAMPLE_REPORT_SRCLINES_H
#define MAPSAMPLE_REPORT_SRCLINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "report/analyze.h"

struct srcline {
	const char *sl_file;     /* source file (the symbolizer's), or NULL */
	int sl_line;             /* 0 when unknown */
	const char *sl_inlined;  /* the inlined function this line is of, or
				  * NULL for the function's own lines */
	uint64_t sl_self, sl_total;       /* samples */
	uint64_t sl_self_ns, sl_total_ns; /* their weight: ns of the
					   * sampling clock */
	uint32_t sl_gen;         /* the last stack that counted it */
	uint32_t sl_id;          /* its index before the lines were sorted
				  * (as srclines_each_fn gives it) */
};

/* Called by srclines_build_each each time stack slot si of the model is
 * counted on the line with sl_id line: in its total (total 1; once per
 * stack) and/or its self samples (self 1). */
typedef void (*srclines_each_fn)(void *arg, size_t si, uint32_t line,
				 int total, int self);

struct srclines {
	uint32_t sf_func;        /* function id in the analysis */
	uint64_t sf_self, sf_self_ns; /* samples running its code, inlined
				       * code included */
	struct srcline *sf_lines;     /* by file name, then line */
	size_t sf_nlines, sf_cap;
	char *sf_comp_dir;       /* the build's folder, as the function's
				  * DWARF compile unit names it, or NULL:
				  * relative source paths are under it */
	int sf_dir_tried;        /* sf_comp_dir was looked for */
	srclines_each_fn sf_each; /* srclines_build_each's, or NULL */
	void *sf_each_arg;
	size_t sf_slot;          /* the stack slot being counted */
};

/* Where to look for source files (mapreport --source-dir and
 * --source-map). */
struct srcpaths {
	const char *const *sp_dirs;  /* folders, tried in order */
	size_t sp_ndirs;
	const char *const *sp_maps;  /* "FROM=TO": a path starting with the
				      * folder FROM is looked for under TO */
	size_t sp_nmaps;
};

/*
 * Counts into r the samples per line of function func of a (the
 * analysis of m).  Returns 0, or MAPS_ENOMEM with r empty
 * (srclines_free is still safe).
 */
int srclines_build(struct srclines *r, const struct model *m,
		   const struct analysis *a, uint32_t func);

/* As srclines_build, calling each (with arg) for every count of a stack
 * slot on a line, so a caller can split the lines' samples by slot. */
int srclines_build_each(struct srclines *r, const struct model *m,
			const struct analysis *a, uint32_t func,
			srclines_each_fn each, void *arg);

/* Frees what r holds. */
void srclines_free(struct srclines *r);

/*
 * Opens the source file file (as its DWARF names it; a relative one is
 * taken under comp_dir when not NULL) for reading: first where a
 * --source-map rule of sp sends it (or the path itself), then
 * under each --source-dir folder, as the path below that folder and as
 * its last part alone.  Returns the stream, with the path opened in
 * path[0..len); or NULL with the reason (the first attempt's errno, in
 * words, and the path tried) in why[0..len).
 */
FILE *srclines_open(const struct srcpaths *sp, const char *comp_dir,
		    const char *file, char *path, char *why, size_t len);

/* Whether the string s is a valid --source-map rule "FROM=TO" (both
 * sides not empty). */
int srclines_map_ok(const char *s);

#endif
