/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapwrite: encode mapsample log records into caller-supplied memory (the
 * module header of lib/log's encoder, mapwrite.c; the layout it writes is
 * in maplog_format.h, included here).
 *
 * Used by the sampler from signal handlers, by the launcher for the file
 * header, by tests and by benchmarks.
 * Nothing here allocates, locks or calls libc beyond memcpy/memmove/memset;
 * every function is async-signal-safe provided that one chunk (and its
 * stack table) is written by one thread at a time, which is the caller's
 * rule: a chunk has a single writer.
 *
 * A record is committed with a release store of the chunk's `used` field,
 * so a reader of the same memory (or of the file it maps) never sees half
 * a record.  A function that runs out of room writes nothing and returns
 * MAPS_ENOSPC: seal the chunk, open the next one and call it again.
 */
#ifndef MAPSAMPLE_MAPWRITE_H
#define MAPSAMPLE_MAPWRITE_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "maplog_format.h"

/*
 * Stack table for one chunk, in caller-supplied memory.  It finds stacks
 * already written (a sample then costs a few bytes) and, for a new stack,
 * a written one with the same callers so only the differing leaf frames
 * are written.
 */
struct mapw_slot {
	uint64_t hash;
	uint32_t gen;  /* valid when equal to the table's gen */
	uint32_t id;   /* stack id in the current chunk */
};

struct mapw_stab {
	struct mapw_slot *slots;  /* whole stacks */
	struct mapw_slot *ctx;    /* stacks minus their leaf frame */
	uint32_t *id_off;         /* by id-1: first frame in the arena */
	uint32_t *id_n;           /* by id-1: frames */
	uint64_t *arena;
	uint32_t nslots;      /* power of two; at most nslots/2 stacks */
	uint32_t arena_cap;   /* frames */
	uint32_t arena_used;
	uint32_t count;
	uint32_t gen;         /* bumped to empty the table in O(1) */
};

/* Identity of the stream a chunk belongs to. */
struct mapw_chunk_id {
	uint32_t pid;
	uint32_t tid;   /* 0 for the process stream */
	uint32_t image; /* exec generation */
	uint32_t seq;   /* chunk number in this stream */
};

struct mapw_chunk {
	uint8_t *base;     /* chunk header; payload follows */
	uint32_t cap;      /* whole chunk, header included */
	uint32_t used;     /* payload bytes committed */
	uint64_t last_ts;  /* timestamp of the last record */
	uint64_t last_leaf;/* first frame of the last STACK record */
	uint32_t nstacks;  /* stack ids defined in this chunk */
	uint32_t prev;     /* stack id of the last sample, 0 if none */
	struct mapw_stab *stab; /* NULL: every sample writes its stack */
};

/* Bytes of memory a table of nslots slots and arena_frames frames needs. */
size_t mapw_stab_size(uint32_t nslots, uint32_t arena_frames);

/*
 * Lays a table out in mem (mapw_stab_size bytes, 8-byte aligned).
 * nslots must be a power of two.  Returns 0 or MAPS_EINVAL.
 */
int mapw_stab_init(struct mapw_stab *t, void *mem, uint32_t nslots,
		   uint32_t arena_frames);

/* Writes a 64-byte file header into hdr.  data_offset: where the first
 * chunk starts (multiple of 8, >= 64).  Async-signal-safe. */
void mapw_file_header(uint8_t *hdr, uint32_t data_offset);

/*
 * Starts a chunk of cap bytes at mem (cap a multiple of 8, at least
 * MAPLOG_CHUNK_HEADER_SIZE + 64).  Empties stab if given.
 * Returns 0 or MAPS_EINVAL.  Async-signal-safe.
 */
int mapw_chunk_open(struct mapw_chunk *c, void *mem, uint32_t cap,
		    const struct mapw_chunk_id *id, uint64_t base_ts,
		    struct mapw_stab *stab);

/* Payload bytes still free in the chunk.  Async-signal-safe. */
uint32_t mapw_chunk_room(const struct mapw_chunk *c);

/*
 * Shrinks the chunk's capacity to what it holds (rounded up to 8) and
 * returns the new capacity.  For writers that have not handed the rest of
 * the space to anyone: the last chunk of an in-memory log, or a chunk
 * whose tail a file writer will leave as zeros.  Async-signal-safe.
 */
uint32_t mapw_chunk_trim(struct mapw_chunk *c);

/* Writes the payload checksum and marks the chunk sealed.  Nothing may be
 * appended afterwards.  Async-signal-safe. */
void mapw_chunk_seal(struct mapw_chunk *c);

/*
 * Appends one sample of thread tid (0: the chunk's tid) with npc frames,
 * leaf first, weighing weight ns.  Writes a STACK record first when the
 * stack is not yet in the chunk's table.  Returns 0, MAPS_ENOSPC (nothing
 * written: the chunk, or its stack table, is full; MAPS_EBADSIZE when it
 * cannot fit even this chunk empty), or MAPS_EINVAL (npc >
 * MAPLOG_MAX_FRAMES).  Async-signal-safe.
 */
int mapw_sample(struct mapw_chunk *c, uint64_t ts, uint32_t tid,
		uint64_t weight, uint32_t npc, const uint64_t *pc);

/*
 * Appends the record described by ev (ev_type, ev_ts and the matching
 * ev_u member; NULL strings are written empty).  Samples go through
 * mapw_sample.  Returns 0, MAPS_ENOSPC (nothing written; MAPS_EBADSIZE if
 * the record cannot fit even an empty chunk of this size) or MAPS_EINVAL
 * (type unknown or STACK, or more than MAPLOG_MAX_ARGC arguments).
 * Async-signal-safe.
 */
int mapw_event(struct mapw_chunk *c, const struct maplog_ev *ev);

#endif
