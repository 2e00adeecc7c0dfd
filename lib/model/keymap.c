/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keymap: (pid, image, id) -> index, open addressing (keymap.h).
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/keymap.h"

/* Every bit of the key moves every bit of the slot: pids are often
 * multiples of a power of two apart (one launcher's ranks), and a hash
 * whose low bits came from the image alone put them all in one run. */
static uint64_t key_hash(uint32_t pid, uint32_t image, uint32_t id)
{
	uint64_t h = ((uint64_t)pid << 32 | image) ^
		     (uint64_t)id * 0x9e3779b97f4a7c15ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* The slot of (pid, image, id) in k, or the empty slot where it goes. */
static struct keymap_slot *probe(const struct keymap *k, uint32_t pid,
				 uint32_t image, uint32_t id)
{
	size_t mask = k->cap - 1;
	size_t j = key_hash(pid, image, id) & mask;
	while (k->slot[j].value && (k->slot[j].pid != pid ||
				    k->slot[j].image != image ||
				    k->slot[j].id != id))
		j = (j + 1) & mask;
	return &k->slot[j];
}

long keymap_find(const struct keymap *k, uint32_t pid, uint32_t image,
		 uint32_t id)
{
	if (!k->cap)
		return -1;
	const struct keymap_slot *s = probe(k, pid, image, id);
	return s->value ? (long)s->value - 1 : -1;
}

int keymap_put(struct keymap *k, uint32_t pid, uint32_t image, uint32_t id,
	       size_t index)
{
	if ((k->n + 1) * 2 > k->cap) {
		struct keymap old = *k;
		size_t cap = k->cap ? k->cap * 2 : 64;
		k->slot = calloc(cap, sizeof(*k->slot));
		if (!k->slot) {
			*k = old;
			return MAPS_ENOMEM;
		}
		k->cap = cap;
		for (size_t i = 0; i < old.cap; i++)
			if (old.slot[i].value)
				*probe(k, old.slot[i].pid, old.slot[i].image,
				       old.slot[i].id) = old.slot[i];
		free(old.slot);
	}
	*probe(k, pid, image, id) =
		(struct keymap_slot){pid, image, id, (uint32_t)index + 1};
	k->n++;
	return 0;
}

long keymap_add(struct keymap *k, uint32_t pid, uint32_t image, uint32_t id,
		void *arr, size_t *n, size_t *cap, size_t size, int *added)
{
	long i = keymap_find(k, pid, image, id);
	*added = i < 0;
	if (i >= 0)
		return i;
	if (mem_grow(arr, cap, *n, size) || keymap_put(k, pid, image, id, *n))
		return -1;
	memset(*(char **)arr + *n * size, 0, size);
	return (long)(*n)++;
}

void keymap_free(struct keymap *k)
{
	free(k->slot);
	memset(k, 0, sizeof(*k));
}
