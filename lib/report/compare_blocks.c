/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_blocks: samples per stack per block of time (see
 * compare_blocks.h).
 *
 * DESIGN NOTES
 *   Stacks are known by their seq, which the model hands out in order of
 *   first sight, so the counts are one array of CMP_BLOCKS per seq, grown
 *   as seqs arrive.  Merging blocks touches every stack once per
 *   doubling of the range: at most 64 times for 64-bit timestamps.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/compare_blocks.h"

void cmp_blocks_init(struct cmp_blocks *b)
{
	memset(b, 0, sizeof(*b));
}

void cmp_blocks_free(struct cmp_blocks *b)
{
	free(b->cnt);
	memset(b, 0, sizeof(*b));
}

/* Merges the blocks of row v in pairs, into the lower half (up: 0) or
 * the upper half (up: 1) of the row. */
static void merge_row(uint32_t *v, int up)
{
	uint32_t t[CMP_BLOCKS / 2];
	for (size_t i = 0; i < CMP_BLOCKS / 2; i++)
		t[i] = v[2 * i] + v[2 * i + 1];
	memset(v, 0, CMP_BLOCKS * sizeof(*v));
	memcpy(v + (up ? CMP_BLOCKS / 2 : 0), t, sizeof(t));
}

static void merge_all(struct cmp_blocks *b, int up)
{
	for (size_t s = 0; s < b->nstk; s++)
		merge_row(b->cnt + s * CMP_BLOCKS, up);
	uint64_t t[CMP_BLOCKS / 2];
	for (size_t i = 0; i < CMP_BLOCKS / 2; i++)
		t[i] = b->total[2 * i] + b->total[2 * i + 1];
	memset(b->total, 0, sizeof(b->total));
	memcpy(b->total + (up ? CMP_BLOCKS / 2 : 0), t, sizeof(t));
	if (up)
		b->origin -= (int64_t)CMP_BLOCKS << b->shift;
	b->shift++;
}

int cmp_blocks_sample(void *ctx, const struct maplog_ev *ev, uint32_t seq)
{
	struct cmp_blocks *b = ctx;
	int64_t ts = (int64_t)ev->ev_ts;
	if (!b->have_range) {
		b->have_range = 1;
		b->origin = ts;
		b->shift = CMP_BLOCK_SHIFT0;
	}
	while (b->shift < 62 && ts < b->origin)
		merge_all(b, 1);
	while (b->shift < 62 &&
	       ts - b->origin >= ((int64_t)CMP_BLOCKS << b->shift))
		merge_all(b, 0);
	if (seq >= b->nstk) {
		if (mem_reserve(&b->cnt, &b->capstk,
				((size_t)seq + 1) * CMP_BLOCKS,
				sizeof(*b->cnt), 1024 * CMP_BLOCKS))
			return MAPS_ENOMEM;
		memset(b->cnt + b->nstk * CMP_BLOCKS, 0,
		       ((size_t)seq + 1 - b->nstk) * CMP_BLOCKS *
			       sizeof(*b->cnt));
		b->nstk = (size_t)seq + 1;
	}
	int64_t i = (ts - b->origin) >> b->shift;
	if (i < 0)
		i = 0;
	if (i >= CMP_BLOCKS)
		i = CMP_BLOCKS - 1;
	b->cnt[(size_t)seq * CMP_BLOCKS + (size_t)i]++;
	b->total[i]++;
	return 0;
}

const uint32_t *cmp_blocks_of(const struct cmp_blocks *b, uint32_t seq)
{
	return seq < b->nstk ? b->cnt + (size_t)seq * CMP_BLOCKS : NULL;
}
