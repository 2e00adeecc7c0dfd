/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * model_regions: the program's regions (model/regions.h) as the model's
 * filters (model/filter.h: --pid, --tid, --comm, --rank, --time) and its
 * leaving out of launchers see them, so that a narrowed report's Regions
 * table is of what it keeps: the samples the report counts, the entries
 * its threads began within --time and their time inside within it.
 * Not async-signal-safe; not thread-safe.
 */
#ifndef MAPSAMPLE_MODEL_MODEL_REGIONS_H
#define MAPSAMPLE_MODEL_MODEL_REGIONS_H

#include <stddef.h>

#include "model/model.h"

/*
 * In place of regions_complete(m->regions, logs, n) after the model's
 * pass over the n logs: the regions' samples counted are those the
 * model counts (not a launcher's unless m->launchers_on; those m->filter
 * keeps), and, when m->filter is active, every region's entries and
 * time narrowed to it (regions_narrow()).  Nothing without m->regions.
 * Returns 0 or MAPS_ENOMEM.
 */
int model_regions_complete(struct model *m, const char *const *logs,
			   size_t n);

#endif
