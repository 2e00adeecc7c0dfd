/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals shared by the files of the partial reports (partial.c parses,
 * partial_eval.c computes): one parsed definition file.  Other modules use
 * partial.h.
 */
#ifndef MAPSAMPLE_REPORT_PARTIAL_I_H
#define MAPSAMPLE_REPORT_PARTIAL_I_H

#include <stddef.h>

#include "report/partial.h"

/* Where an element's start tag begins; line 0: nowhere. */
struct ppos {
	unsigned line, col;     /* from 1 */
};

/* <reportMetric> and its <sourceDetails>. */
struct pdef_rm {
	struct ppos pos;
	char *id, *name, *units;
	struct partial_colour colour;
	int nsd;                /* <sourceDetails> seen */
	struct ppos sd_pos;
	char *ref;              /* metricRef */
	int sv, ag;             /* enum partial_stat, -1 invalid */
};

struct pdef_entry {
	struct ppos pos;
	char *rm;               /* reportMetric */
	char *group;            /* NULL when absent or empty */
	size_t target;          /* index in partial_def.rm */
};

struct pdef_ss {
	struct ppos pos;
	char *id, *heading;
	struct partial_colour colour;
	char *text;             /* raw <text> content, NULL if none */
	struct ppos text_pos;
	struct pdef_entry *en;
	size_t nen;
};

/* One <partialReport>; only files without errors are kept, so every
 * required value is there and every entry's target is valid. */
struct partial_def {
	char *file;
	struct ppos pos;
	char *name;
	struct ppos rms_pos, sss_pos;   /* <reportMetrics>, <subsections> */
	struct pdef_rm *rm;
	size_t nrm;
	struct pdef_ss *ss;
	size_t nss;
};

void partial_def_free(struct partial_def *d);

#endif
