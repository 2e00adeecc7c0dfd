/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_blocks: the samples of each stack of one run in CMP_BLOCKS
 * blocks of time, from which mapreport --compare estimates how much a
 * share varies within the run (batch means: see compare.h, NOISE MODEL).
 *
 * The blocks cover [origin, origin + CMP_BLOCKS << shift) ns of
 * CLOCK_MONOTONIC.  The range starts small at the first sample; when a
 * sample falls after it, adjacent blocks merge in pairs and the width
 * doubles; when one falls before it, the same merge moves the old blocks
 * to the upper half.  So the run always fills more than half of the
 * blocks, and memory is CMP_BLOCKS counts per distinct stack, whatever
 * the number of samples.  Use: cmp_blocks_init(); set the model's
 * on_sample to cmp_blocks_sample with the blocks as its context;
 * model_load().  Not async-signal-safe; not thread-safe.
 */
#ifndef MAPSAMPLE_REPORT_COMPARE_BLOCKS_H
#define MAPSAMPLE_REPORT_COMPARE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#define CMP_BLOCKS 32
#define CMP_BLOCK_SHIFT0 20 /* first block width: 2^20 ns, about 1 ms */

struct cmp_blocks {
	int have_range;
	int64_t origin;   /* ns; start of block 0 */
	unsigned shift;   /* block width is 1 << shift ns */
	uint32_t *cnt;    /* by stack seq (struct rstack): CMP_BLOCKS each */
	size_t nstk, capstk;
	uint64_t total[CMP_BLOCKS]; /* samples of every stack per block */
};

void cmp_blocks_init(struct cmp_blocks *b);
void cmp_blocks_free(struct cmp_blocks *b);

/* The model's on_sample hook (model/model.h): counts sample ev of the
 * stack seq in its block.  ctx is a struct cmp_blocks.  Returns 0 or
 * MAPS_ENOMEM. */
int cmp_blocks_sample(void *ctx, const struct maplog_ev *ev, uint32_t seq);

/* The CMP_BLOCKS counts of stack seq, or NULL when it had no sample. */
const uint32_t *cmp_blocks_of(const struct cmp_blocks *b, uint32_t seq);

#endif
