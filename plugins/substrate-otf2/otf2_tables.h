/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2_tables.h: the lookup tables of the otf2 substrate plugin.
 *
 * A u64map maps a 64-bit key to a 32-bit value (a program counter to its
 * region, a (parent, region) pair to its calling context, a mapsample
 * handle to its region or metric).  A strtab interns strings and gives
 * each its OTF2 string reference, 0, 1, 2... in order of first use, so
 * that the global definitions can write them in that order.
 *
 * Neither is thread-safe: the plugin calls them with its lock held.  A
 * failed allocation makes the insert return -1; the caller leaves the
 * event out.
 */
#ifndef OTF2_TABLES_H
#define OTF2_TABLES_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
	uint64_t *keys;
	uint32_t *vals; /* value + 1; 0 marks an empty slot */
	size_t cap;     /* a power of two, or 0 */
	size_t n;
} u64map;

/* The value of key in *m into *val: 1, or 0 when key is not there. */
int u64map_get(const u64map *m, uint64_t key, uint32_t *val);
/* Sets key to val (val < UINT32_MAX): 0, or -1 when out of memory. */
int u64map_put(u64map *m, uint64_t key, uint32_t val);
void u64map_free(u64map *m);

typedef struct strtab {
	char **str;     /* str[ref] */
	uint32_t n, cap;
	u64map index;   /* hash of the string -> first ref with that hash */
	uint32_t *next; /* next[ref]: the next ref with the same hash, or
			 * UINT32_MAX */
} strtab;

/* The reference of s in *t, added when new: the reference, or -1 when
 * out of memory. */
int64_t strtab_ref(strtab *t, const char *s);
void strtab_free(strtab *t);

#endif /* OTF2_TABLES_H */
