/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * butterfly: who calls a function and whom it calls, with samples (the
 * callers and callees of mapreport --callers and --callees), from the
 * analysis's expanded stacks (report/analyze.h): inlined calls are
 * calls too.  No formatting here.
 *
 * The function is chosen by name: every function of the analysis named
 * so (in any loaded file), or, when none is, every one whose name up to
 * its argument list is ("ns::f" finds "ns::f(int)"), or, when none is
 * either, every one whose short name (report/shorten.h, as the tables
 * show it) is ("S<...>::f(...)" finds "S<int>::f(int)").  Counts are of
 * samples, each stack counted once however often the function is on it
 * (recursion): its total, the samples whose stack holds it; its self,
 * those whose stack ends in it; a caller's samples, those whose stack
 * holds the call from that caller to the function; a callee's, those
 * whose stack holds the call from the function to that callee.
 */
#ifndef MAPSAMPLE_REPORT_BUTTERFLY_H
#define MAPSAMPLE_REPORT_BUTTERFLY_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "report/analyze.h"

/* The caller of the outermost frame: the program itself (bf_func). */
#define BUTTERFLY_ROOT UINT32_MAX

struct butterfly_row {
	uint32_t br_func;      /* function id in the analysis, or
				* BUTTERFLY_ROOT */
	uint64_t br_samples;
};

struct butterfly {
	uint32_t *bf_funcs;    /* the functions chosen, bf_nfuncs */
	size_t bf_nfuncs;
	uint64_t bf_total, bf_self;
	struct butterfly_row *bf_callers, *bf_callees; /* most samples first,
							 * then by name */
	size_t bf_ncallers, bf_ncallees;
};

/*
 * Marks in is_t (a byte per function of a, zeroed by the caller) the
 * functions named name as said above.  Returns how many.
 */
size_t butterfly_match(const struct analysis *a, const char *name,
		       uint8_t *is_t);

/*
 * Fills b for the function named name in a (the analysis of m).  No
 * function of that name is no error: bf_nfuncs is then 0 and the counts
 * 0.  Returns 0, or MAPS_ENOMEM with b empty (butterfly_free is still
 * safe).
 */
int butterfly_build(struct butterfly *b, const struct model *m,
		    const struct analysis *a, const char *name);

/* Frees what b holds. */
void butterfly_free(struct butterfly *b);

#endif
