/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internals shared by the partial-report files of lib/defs (partial.c:
 * the set, loading and finding files; partial_parse.c: reading one file
 * and its rules).  Not for other modules: they use partial.h.
 */
#ifndef MAPSAMPLE_DEFS_PARTIAL_I_H
#define MAPSAMPLE_DEFS_PARTIAL_I_H

#include "defs/partial.h"
#include "defs/xmlcheck.h"

/* The "larger than PARTIAL_MAX_FILE_SIZE" error of file fi (in
 * partial_parse.c, which partial.c calls, never the other way). */
void partial_too_large(struct partial_set *ps, size_t fi);

/*
 * Parses len bytes at buf as file fi of ps and checks it against every
 * rule of sections 3.4-3.6, the files used before included; a file
 * without errors joins ps_defs (and is marked used).
 */
void partial_parse(struct partial_set *ps, size_t fi, const char *buf,
		   size_t len);

#endif
