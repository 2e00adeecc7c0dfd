/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_flame: the frames of a differential flame graph for
 * mapreport --compare --html: NEW's call tree (report/calltree.h) laid
 * out as a flame graph, each frame with its share of NEW's samples (its
 * width) and the share of the same path of names in BASE's tree (its
 * colour comes from the difference).  No formatting here: the page is
 * lib/report/out/compare_html.c.
 */
#ifndef MAPSAMPLE_REPORT_COMPARE_FLAME_H
#define MAPSAMPLE_REPORT_COMPARE_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "report/calltree.h"

struct cmp_frame {
	const char *cf_name;  /* NEW's tree's string */
	uint32_t cf_depth;    /* 0: all; 1: program; 2: outermost function */
	double cf_x, cf_w;    /* start and width: fractions of NEW's samples */
	double cf_base;       /* share of BASE's samples on the same path
			       * (0 when BASE has no such path) */
};

struct cmp_flame {
	struct cmp_frame *cf;  /* parents before children, depth first */
	size_t n, cap;
	uint32_t depth;        /* the deepest frame's depth */
};

/*
 * Lays out the frames of new (frames under min_share of its samples are
 * left out with their subtrees) into f, matching each path of names in
 * base.  The names stay new's.  Returns 0, or MAPS_ENOMEM with f empty.
 */
int compare_flame(struct cmp_flame *f, const struct calltree *base,
		  const struct calltree *new, double min_share);

void compare_flame_free(struct cmp_flame *f);

#endif
