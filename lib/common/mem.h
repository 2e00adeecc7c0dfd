/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mem: the one place the libraries of the report side (lib/defs, lib/model,
 * lib/report) grow arrays and copy strings.  Allocation failures are
 * returned, never acted on: library code passes MAPS_ENOMEM up and only
 * cmd/ prints "out of memory" and exits.  Not for lib/sampler, which
 * allocates with its own signal-safe means.
 */
#ifndef MAPSAMPLE_COMMON_MEM_H
#define MAPSAMPLE_COMMON_MEM_H

#include <stddef.h>

/*
 * Makes the array *pp, of *cap elements of size bytes, hold at least need
 * elements: its capacity doubles from first (16 when 0) until it does.
 * New elements are not cleared.  Returns 0, or MAPS_ENOMEM with *pp and
 * *cap unchanged (also when need * size overflows).
 */
int mem_reserve(void *pp, size_t *cap, size_t need, size_t size,
		size_t first);

/* mem_reserve(pp, cap, n + 1, size, 0): room for one more after n. */
int mem_grow(void *pp, size_t *cap, size_t n, size_t size);

/* A copy of s ("" for NULL), or NULL when out of memory. */
char *mem_strdup(const char *s);

#endif
