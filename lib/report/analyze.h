/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * analyze: functions from stacks (self and total samples), their hottest
 * source lines, and the functions ranked by each count, for the outputs
 * (lib/report/out) to show.  No formatting here.
 */
#ifndef MAPSAMPLE_ANALYZE_H
#define MAPSAMPLE_ANALYZE_H

#include "model/model.h"
#include "report/symbolize.h"

struct rfunc {
	const char *name;    /* interned by the symbolizer */
	const char *module;
	const char *file;    /* hottest line's file, NULL if unknown */
	int line;
	uint64_t line_count;
	uint64_t self;
	uint64_t total;
};

struct analysis {
	struct symtab *st;
	struct rfunc *funcs;
	size_t nfuncs, capfuncs;
	uint32_t *idx;             /* hash of funcs by (name, module) */
	size_t capidx;
	uint32_t *exp;             /* every stack's function ids, leaf first */
	size_t nexp, capexp;
	uint32_t *exp_off, *exp_n; /* by stack table slot */
	/* by stack table slot: 1 when the stack is the sampler's own work
	 * (libmapsampler.so's code at the leaf, or its constructor or
	 * destructor anywhere in it: start-up and exit on the program's
	 * threads), which no function and no call tree path is charged
	 * with; own_samples counts their samples */
	uint8_t *own;
	uint64_t own_samples;
	/* after analysis_rank: ids of the functions with self (total)
	 * samples, most first, then by total (self) samples and name */
	uint32_t *top_self, *top_total;
	size_t ntop_self, ntop_total;
	/* distinct addresses expanded (one per loaded file, file offset
	 * and leaf or not, whichever processes sampled it) and distinct
	 * stacks of them expanded (a stack the ranks of a job share, once) */
	size_t naddrs, nexpanded;
	/* the kernel frames of samples taken in a system call (kframe.h),
	 * NULL when analysis_kernel_frames turned them off */
	struct kframe *kf;
};

/* Whether the analyses run from now on give a sample taken in a system
 * call its kernel frame below the user leaf (report/kframe.h): 1 (the
 * default) or 0 (mapreport --no-kernel-frames, for the whole command). */
void analysis_kernel_frames(int on);

/*
 * Symbolizes and aggregates every stack of m into a.  Returns 0, or
 * MAPS_ENOMEM with a left empty.  The names in a live as long as a; m
 * must outlive a.
 */
int analysis_run(struct analysis *a, const struct model *m);

/* Ranks the functions of a by self and by total samples (top_self,
 * top_total), once.  Returns 0, or MAPS_ENOMEM with a unranked. */
int analysis_rank(struct analysis *a);

/* Frees what a holds (an empty or failed analysis too). */
void analysis_free(struct analysis *a);

#endif
