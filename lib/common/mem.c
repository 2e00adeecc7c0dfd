/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mem: growing arrays and copying strings, with failures returned (mem.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"

int mem_reserve(void *pp, size_t *cap, size_t need, size_t size,
		size_t first)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : (first ? first : 16);
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return MAPS_ENOMEM;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return MAPS_ENOMEM;
	void *q = realloc(*(void **)pp, c * size);
	if (!q)
		return MAPS_ENOMEM;
	*(void **)pp = q;
	*cap = c;
	return 0;
}

int mem_grow(void *pp, size_t *cap, size_t n, size_t size)
{
	return mem_reserve(pp, cap, n + 1, size, 0);
}

char *mem_strdup(const char *s)
{
	return strdup(s ? s : "");
}
