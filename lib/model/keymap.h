/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keymap: finds what the model keeps per process image by key: a metric
 * series by (pid, image, metric index), a thread by (pid, image, tid).
 * An open-addressing hash from the key to an index into the caller's
 * array, kept at most half full; the keys are stored in the map, so it
 * never looks into the caller's array and that array may move.  Lookups
 * cost one hash and, on average, less than two probes.
 */
#ifndef MAPSAMPLE_MODEL_KEYMAP_H
#define MAPSAMPLE_MODEL_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct keymap_slot {
	uint32_t pid, image, id;
	uint32_t value;          /* the index + 1; 0: empty slot */
};

/* All zero is an empty map. */
struct keymap {
	struct keymap_slot *slot;
	size_t cap;              /* slots: 0 or a power of two */
	size_t n;                /* keys */
};

/* The index stored for (pid, image, id), or -1 when there is none. */
long keymap_find(const struct keymap *k, uint32_t pid, uint32_t image,
		 uint32_t id);

/* Stores index (< UINT32_MAX) for (pid, image, id), which must not be in
 * k yet.  Returns 0, or MAPS_ENOMEM with k unchanged. */
int keymap_put(struct keymap *k, uint32_t pid, uint32_t image, uint32_t id,
	       size_t index);

/*
 * The index of (pid, image, id) in the caller's array *arr of *n elements
 * of size bytes (room for *cap): the one stored in k, or a new element
 * appended, zeroed, and stored in k (*added then 1, else 0).  The array
 * grows with mem_grow().  Returns the index, or -1 when out of memory
 * (nothing added).
 */
long keymap_add(struct keymap *k, uint32_t pid, uint32_t image, uint32_t id,
		void *arr, size_t *n, size_t *cap, size_t size, int *added);

/* Frees k's memory and makes it empty. */
void keymap_free(struct keymap *k);

#endif
