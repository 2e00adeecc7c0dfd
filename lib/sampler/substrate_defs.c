/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrate_defs: the definitions substrate plugins see (mapsample_handle):
 * loaded modules, region and mark names, MPI functions, paradigms.  A
 * handle is its index + 1 in a table of blocks that never move, so
 * readers (handle_get_name, the dispatchers) need no lock; makers take
 * defs_lock, in normal context only.  The dispatchers tell each plugin
 * every handle up to the one an event names before the event
 * (new_definition_handle), so handles reach a plugin in order.
 * Calls nothing of the sampler.
 */
#include <stdlib.h>
#include <string.h>

#include "sampler/substrate_i.h"

#define DEFS_BLOCK 1024
#define DEFS_BLOCKS 1024

struct def {
	enum mapsample_handle_type type;
	char *name;
};

static struct def *blocks[DEFS_BLOCKS];
static uint64_t ndefs;
static pthread_mutex_t defs_lock = PTHREAD_MUTEX_INITIALIZER;

static struct def *def_at(uint64_t i)
{
	struct def *b = __atomic_load_n(&blocks[i / DEFS_BLOCK],
					 __ATOMIC_ACQUIRE);
	return b ? &b[i % DEFS_BLOCK] : NULL;
}

mapsample_handle subdefs_get(enum mapsample_handle_type type,
			     const char *name)
{
	if (!name)
		name = "";
	pthread_mutex_lock(&defs_lock);
	mapsample_handle h = MAPSAMPLE_INVALID_HANDLE;
	/* few definitions per run (modules, region names): a scan, newest
	 * first, is enough */
	for (uint64_t i = ndefs; i-- > 0;) {
		struct def *d = def_at(i);
		if (d->type == type && strcmp(d->name, name) == 0) {
			h = i + 1;
			goto out;
		}
	}
	if (ndefs >= (uint64_t)DEFS_BLOCK * DEFS_BLOCKS)
		goto out;
	struct def *b = blocks[ndefs / DEFS_BLOCK];
	if (!b) {
		b = calloc(DEFS_BLOCK, sizeof(*b));
		if (!b)
			goto out;
		__atomic_store_n(&blocks[ndefs / DEFS_BLOCK], b,
				 __ATOMIC_RELEASE);
	}
	char *copy = strdup(name);
	if (!copy)
		goto out;
	b[ndefs % DEFS_BLOCK].type = type;
	b[ndefs % DEFS_BLOCK].name = copy;
	h = ndefs + 1;
	__atomic_store_n(&ndefs, ndefs + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&defs_lock);
	return h;
}

const char *subdefs_name(mapsample_handle h)
{
	if (h == MAPSAMPLE_INVALID_HANDLE ||
	    h > __atomic_load_n(&ndefs, __ATOMIC_ACQUIRE))
		return NULL;
	return def_at(h - 1)->name;
}

enum mapsample_handle_type subdefs_type(mapsample_handle h)
{
	if (h == MAPSAMPLE_INVALID_HANDLE ||
	    h > __atomic_load_n(&ndefs, __ATOMIC_ACQUIRE))
		return MAPSAMPLE_HANDLE_TYPE_ANY;
	return def_at(h - 1)->type;
}

uint64_t subdefs_count(void)
{
	return __atomic_load_n(&ndefs, __ATOMIC_ACQUIRE);
}

void subdefs_fork_prepare(void)
{
	pthread_mutex_lock(&defs_lock);
}

void subdefs_fork_parent(void)
{
	pthread_mutex_unlock(&defs_lock);
}

void subdefs_fork_child(void)
{
	pthread_mutex_init(&defs_lock, NULL);
}
