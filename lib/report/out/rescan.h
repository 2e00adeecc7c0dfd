/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rescan: the logs read a second time for the exports (pprof, speedscope,
 * trace), which need what the run model does not keep: which thread each
 * stack was sampled on, and when.  Every sample is given with the index
 * of its thread in the model (model.threads) and the slot of its stack in
 * the model's stack table (model.stacks, as the analysis expanded it);
 * user marks are given as they are, those the filters keep only
 * (model_mark_kept()).
 * rescan_count() builds on it the samples and weight of every (thread,
 * stack) pair: memory grows with those pairs, never with the number of
 * samples.
 *
 * The logs must be the ones the model read (output_in.oi_logs), unchanged
 * since, and files that can be read twice: regular files, or pipes and
 * FIFOs armed in model/spool.h before the model read them (they are read
 * again from their copies); a sample whose thread or stack the model
 * does not hold is skipped.  Problems of the logs were said when the model read them and
 * are not said again.
 */
#ifndef MAPSAMPLE_REPORT_OUT_RESCAN_H
#define MAPSAMPLE_REPORT_OUT_RESCAN_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "model/keymap.h"
#include "report/out/output.h"

struct rescan_tool {
	/* A sample record ev of thread model.threads[thread] with stack
	 * model.stacks[stack]; NULL: not wanted.  Returns 0 to go on or a
	 * negative MAPS_E* code to stop. */
	int (*rt_sample)(void *ctx, const struct maplog_ev *ev, size_t thread,
			 size_t stack);
	/* A MAPLOG_TYPE_MARK record; NULL: not wanted.  Same returns. */
	int (*rt_mark)(void *ctx, const struct maplog_ev *ev);
	/* A MAPLOG_TYPE_METRIC_VALUE record (pid as the model keys it);
	 * NULL: not wanted.  Same returns. */
	int (*rt_metric)(void *ctx, const struct maplog_ev *ev);
};

/*
 * Reads every log of in again, giving its samples, marks and metric
 * values to t with ctx, in file order.  Returns 0, MAPS_ENOMEM, the
 * first non-zero code a callback returned, or MAPS_EIO when t takes
 * samples or metric values and a log could not be read again (a FIFO
 * with no copy), or t takes samples and the logs held another number of
 * them than the model counted (a pipe).
 */
int rescan_logs(const struct output_in *in, const struct rescan_tool *t,
		void *ctx);

/* Samples of one stack on one thread. */
struct rescan_pair {
	uint32_t rp_thread;  /* index in model.threads */
	uint32_t rp_stack;   /* slot in model.stacks */
	uint64_t rp_count;   /* samples */
	uint64_t rp_weight;  /* ns of the sampling clock */
};

struct rescan_pairs {
	struct rescan_pair *rp_v;  /* rp_n of them, by thread then stack */
	size_t rp_n, rp_cap;
	struct keymap rp_keys;     /* (thread, stack) -> index, while
				    * counting */
};

/* Fills p (zeroed by the caller) with the (thread, stack) pairs of every
 * sample of in's logs, sorted by thread, then stack slot.  Returns 0 or
 * MAPS_ENOMEM (p can still be freed). */
int rescan_count(const struct output_in *in, struct rescan_pairs *p);

/* Frees what p holds (zeroed, counted or failed). */
void rescan_pairs_free(struct rescan_pairs *p);

#endif
