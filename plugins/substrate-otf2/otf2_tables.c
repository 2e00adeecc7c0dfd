/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2_tables.c: open-addressing hash map and string interning for the
 * otf2 substrate plugin (otf2_tables.h).
 */
#include <stdlib.h>
#include <string.h>

#include "otf2_tables.h"

static size_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (size_t)k;
}

int u64map_get(const u64map *m, uint64_t key, uint32_t *val)
{
	if (!m->cap)
		return 0;
	for (size_t i = mix(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return 0;
		if (m->keys[i] == key) {
			*val = m->vals[i] - 1;
			return 1;
		}
	}
}

static void put_slot(uint64_t *keys, uint32_t *vals, size_t cap,
		     uint64_t key, uint32_t stored)
{
	size_t i = mix(key) & (cap - 1);
	while (vals[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = stored;
}

int u64map_put(u64map *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		uint64_t *keys = calloc(cap, sizeof(*keys));
		uint32_t *vals = calloc(cap, sizeof(*vals));
		if (!keys || !vals) {
			free(keys);
			free(vals);
			return -1;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->vals[i])
				put_slot(keys, vals, cap, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
	}
	uint32_t old;
	if (!u64map_get(m, key, &old))
		m->n++;
	put_slot(m->keys, m->vals, m->cap, key, val + 1);
	return 0;
}

void u64map_free(u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

int64_t strtab_ref(strtab *t, const char *s)
{
	uint64_t h = str_hash(s);
	uint32_t ref;
	if (u64map_get(&t->index, h, &ref)) {
		for (uint32_t r = ref; r != UINT32_MAX; r = t->next[r])
			if (strcmp(t->str[r], s) == 0)
				return r;
	} else {
		ref = UINT32_MAX;
	}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		char **str = realloc(t->str, cap * sizeof(*str));
		if (!str)
			return -1;
		t->str = str;
		uint32_t *next = realloc(t->next, cap * sizeof(*next));
		if (!next)
			return -1;
		t->next = next;
		t->cap = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		return -1;
	uint32_t nref = t->n;
	if (u64map_put(&t->index, h, nref) < 0) {
		free(copy);
		return -1;
	}
	t->str[nref] = copy;
	t->next[nref] = ref; /* the chain of this hash now starts here */
	t->n++;
	return nref;
}

void strtab_free(strtab *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->str[i]);
	free(t->str);
	free(t->next);
	u64map_free(&t->index);
	memset(t, 0, sizeof(*t));
}
