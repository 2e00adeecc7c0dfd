/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * regions: the regions a program marked with mapsample_region_begin() /
 * mapsample_region_end() (<mapsample/mark.h>, MARK records of kinds 1
 * and 2 in mapsample-log(5)), per region name: how often it was entered,
 * the wall-clock time spent in it and the samples taken inside it; and
 * the filter behind `mapreport --region NAME`, which keeps only the
 * samples a thread took while NAME was on its region stack.
 *
 * Regions are per thread and nest: an end closes the innermost open
 * region of its thread.  An end with no region open is counted
 * (unmatched_ends) and ignored; a region still open when its thread ends
 * is closed there (or at the end of the run when the thread's end was
 * not recorded) and counted in its name's `open`.
 *
 * Records of one thread are in time order within a chunk but its chunks
 * may lie out of order in the file (mapsample-log(5)), so a sample can
 * only be placed once every region record is known.  Use:
 *   regions_init(); model.regions = &rg;
 *   with a filter: regions_scan() first (a pass of its own over the logs,
 *     region records only), so the model's pass leaves samples out;
 *   model_load() each log (the model calls regions_fold() for every
 *   record: it collects region records, or places samples once ready);
 *   regions_complete(): builds the regions if regions_scan() did not and,
 *     when the logs hold any, counts the samples inside them in one more
 *     pass (samples only).  Logs without regions cost no extra pass.
 * Not async-signal-safe; not thread-safe.
 */
#ifndef MAPSAMPLE_MODEL_REGIONS_H
#define MAPSAMPLE_MODEL_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "model/keymap.h"

/* One region name, over every thread and process. */
struct rregion {
	char *name;
	uint64_t count;       /* times a thread entered it */
	uint64_t ns;          /* wall-clock ns inside, summed over entries */
	uint64_t samples;     /* samples taken inside (nested at any depth;
				 once per sample) */
	uint64_t weight;      /* their ns of the sampling clock */
	uint64_t open;        /* entries never ended (closed at thread end) */
	uint64_t first_ts;    /* first entry, CLOCK_MONOTONIC ns */
};

/* Private to regions.c. */
struct rg_ev;
struct rg_thread;
struct rg_seg;
struct rg_entry;

struct regions {
	const char *filter;   /* --region NAME, or NULL */
	long filter_id;       /* its index in names, -1 when none */
	int ready;            /* built: samples are placed */
	int counted;          /* samples were placed (names[].samples hold) */
	struct rregion *names;
	size_t nnames, capnames;
	uint64_t unmatched_ends;
	uint64_t kept, left_out; /* samples the filter kept and left out */
	uint64_t last_ts;     /* latest record seen: closes open regions */
	/* collected records, then per-thread segments (regions.c) */
	struct rg_ev *ev;
	size_t nev, capev;
	struct rg_thread *th;
	size_t nth, capth;
	struct keymap tkeys;  /* (pid, image, tid) -> th index */
	struct rg_seg *seg;
	size_t nseg, capseg;
	uint32_t *segnames;
	size_t nsegnames, capsegnames;
	size_t tlast;         /* th index + 1 of the last sample's thread */
	/* every entry, kept by regions_finish() (regions_entries()) */
	struct rg_entry *ent;
	size_t nent, capent;
};

/* Makes rg empty; filter (kept, not copied) is the region name samples
 * must be inside, or NULL for no filter. */
void regions_init(struct regions *rg, const char *filter);
void regions_free(struct regions *rg);

/*
 * The model's hook, called with every record in file order.  Before rg
 * is ready it collects region begins and ends and thread ends; once it
 * is, it places samples: counts them in the regions they are inside and,
 * with a filter, returns 1 for a sample outside the filter's region (the
 * model leaves it out).  Returns 0, 1, or MAPS_ENOMEM.
 */
int regions_fold(struct regions *rg, const struct maplog_ev *ev);

/* Builds the per-thread region stacks from what was collected (rg is
 * then ready; further region records are ignored).  Returns 0 or
 * MAPS_ENOMEM. */
int regions_finish(struct regions *rg);

/* Reads the n logs for their region records and builds rg, the pids
 * keyed as the model will key them when it reads the same logs in the
 * same order (model/pidkeys.h).  Logs that cannot be read are skipped
 * (the model's pass reports them).  Returns 0 or MAPS_ENOMEM. */
int regions_scan(struct regions *rg, const char *const *logs, size_t n);

/* After the model's pass over the n logs: builds rg if not yet done and,
 * if samples were not placed during that pass and there are regions,
 * places them in one more pass.  Returns 0 or MAPS_ENOMEM. */
int regions_complete(struct regions *rg, const char *const *logs, size_t n);

/* One stretch of time a thread spent inside regions: [from, to) ns,
 * inner the index of the innermost region's name. */
typedef void (*regions_span_fn)(void *ctx, uint64_t from, uint64_t to,
				uint32_t inner);
/* Calls fn for each stretch thread (pid, image, tid) spent inside
 * regions, in time order (rg must be ready). */
void regions_spans(const struct regions *rg, uint32_t pid, uint32_t image,
		   uint32_t tid, regions_span_fn fn, void *ctx);

/* Whether the --region filter of rg keeps sample ev (ev inside the
 * filter's region on its thread): 1 when rg is NULL or has no filter, 0
 * before rg is ready.  Counts nothing and changes nothing, so the tools
 * that read the logs again (report/out/rescan.c) may ask it. */
int regions_keeps(const struct regions *rg, const struct maplog_ev *ev);

/* The index of the region called name, or -1. */
long regions_find(const struct regions *rg, const char *name);

/* One entry of a region: thread (pid, image, tid) inside region name
 * (index in rg->names) from `from` to `to` ns (its end, or where an
 * entry never ended was closed: open 1).  Returns 0 to go on, else a
 * code that stops the walk. */
typedef int (*regions_entry_fn)(void *ctx, uint32_t name, uint32_t pid,
				uint32_t image, uint32_t tid, uint64_t from,
				uint64_t to, int open);
/* Calls fn for every entry of every region (rg must be ready), thread
 * by thread (in the order they end).  Returns 0 or the first non-zero code fn
 * returned.  The entries of a name add up to its count, ns and open. */
int regions_entries(const struct regions *rg, regions_entry_fn fn,
		    void *ctx);

/* The names of the regions sample ev's thread was inside at its time,
 * each once (innermost last), into *names (rg's memory; rg must be
 * ready).  Returns how many (0: outside every region). */
uint32_t regions_sample_names(const struct regions *rg,
			      const struct maplog_ev *ev,
			      const uint32_t **names);

/* Whether thread (pid, image, tid) is one a report keeps. */
typedef int (*regions_thread_fn)(void *ctx, uint32_t pid, uint32_t image,
				 uint32_t tid);
/* Narrows the figures of every name (count, ns, open; not samples,
 * which are counted as they are placed) to the threads
 * keep (NULL: all) keeps, within [from, to) ns: an entry counts when
 * it begins within it, and its time inside is what lies within it.
 * rg must be ready. */
void regions_narrow(struct regions *rg, regions_thread_fn keep, void *ctx,
		    uint64_t from, uint64_t to);

#endif
