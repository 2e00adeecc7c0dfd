/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapwrite: record encoders for mapsample logs (see mapwrite.h for the
 * rules and maplog_format.h for the layout).
 *
 * DESIGN NOTES
 *   Every function here is async-signal-safe: no allocation, no locks, no
 *   libc beyond memcpy/memmove/memset.  A record is built in place after
 *   the committed payload; its length varint is given one byte and the
 *   body is moved up when it turns out longer than 127 bytes (rare:
 *   strings, deep new stacks).  Only then is `used` advanced with a release
 *   store, so readers of the shared mapping see whole records or none.
 */
#include <stdint.h>
#include <string.h>

#include "mapwrite.h"

/* A bounded output cursor: writing past end sets bad and writes nothing. */
struct cur {
	uint8_t *p;
	uint8_t *end;
	int bad;
};

static inline void put_u(struct cur *w, uint64_t v)
{
	if (w->end - w->p < MAPLOG_VARINT_MAX &&
	    w->end - w->p < (long)maplog_varint_len(v)) {
		w->bad = 1;
		return;
	}
	w->p = maplog_put_varint(w->p, v);
}

static inline void put_s(struct cur *w, int64_t v)
{
	put_u(w, maplog_zigzag(v));
}

static void put_bytes(struct cur *w, const void *b, uint64_t n)
{
	put_u(w, n);
	if (w->bad || (uint64_t)(w->end - w->p) < n) {
		w->bad = 1;
		return;
	}
	if (n)
		memcpy(w->p, b, (size_t)n);
	w->p += n;
}

static void put_str(struct cur *w, const char *s)
{
	size_t n = 0;
	if (s)
		while (s[n])
			n++;
	put_bytes(w, s, n);
}

static void put_f64(struct cur *w, double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	if (w->end - w->p < 8) {
		w->bad = 1;
		return;
	}
	maplog_st64(w->p, v);
	w->p += 8;
}

size_t mapw_stab_size(uint32_t nslots, uint32_t arena_frames)
{
	return 2 * (size_t)nslots * sizeof(struct mapw_slot) +
	       (size_t)nslots * sizeof(uint32_t) +
	       (size_t)arena_frames * sizeof(uint64_t);
}

int mapw_stab_init(struct mapw_stab *t, void *mem, uint32_t nslots,
		   uint32_t arena_frames)
{
	if (!t || !mem || nslots < 2 || (nslots & (nslots - 1)))
		return MAPS_EINVAL;
	uint8_t *m = mem;
	t->slots = (struct mapw_slot *)m;
	m += (size_t)nslots * sizeof(struct mapw_slot);
	t->ctx = (struct mapw_slot *)m;
	m += (size_t)nslots * sizeof(struct mapw_slot);
	t->arena = (uint64_t *)m;
	m += (size_t)arena_frames * sizeof(uint64_t);
	t->id_off = (uint32_t *)m;
	t->id_n = t->id_off + nslots / 2;
	t->nslots = nslots;
	t->arena_cap = arena_frames;
	t->arena_used = 0;
	t->count = 0;
	t->gen = 1;
	memset(t->slots, 0, 2 * (size_t)nslots * sizeof(struct mapw_slot));
	return 0;
}

static void stab_clear(struct mapw_stab *t)
{
	t->arena_used = 0;
	t->count = 0;
	if (++t->gen == 0) { /* wrapped: old generations could alias */
		memset(t->slots, 0,
		       2 * (size_t)t->nslots * sizeof(struct mapw_slot));
		t->gen = 1;
	}
}

void mapw_file_header(uint8_t *hdr, uint32_t data_offset)
{
	memset(hdr, 0, MAPLOG_FILE_HEADER_SIZE);
	memcpy(hdr + MAPLOG_FH_MAGIC, MAPLOG_FILE_MAGIC, 8);
	maplog_st16(hdr + MAPLOG_FH_VMAJOR, MAPLOG_VERSION_MAJOR);
	maplog_st16(hdr + MAPLOG_FH_VMINOR, MAPLOG_VERSION_MINOR);
	maplog_st32(hdr + MAPLOG_FH_FLAGS, 0);
	maplog_st32(hdr + MAPLOG_FH_DATA_OFFSET, data_offset);
	maplog_st32(hdr + MAPLOG_FH_CRC, maplog_crc32c(0, hdr, MAPLOG_FH_CRC));
	maplog_st64(hdr + MAPLOG_FH_ALLOC_END, data_offset);
}

int mapw_chunk_open(struct mapw_chunk *c, void *mem, uint32_t cap,
		    const struct mapw_chunk_id *id, uint64_t base_ts,
		    struct mapw_stab *stab)
{
	if (!c || !mem || !id || (cap & 7) ||
	    cap < MAPLOG_CHUNK_HEADER_SIZE + 64 || cap > MAPLOG_MAX_CHUNK)
		return MAPS_EINVAL;
	uint8_t *h = mem;
	memset(h, 0, MAPLOG_CHUNK_HEADER_SIZE);
	maplog_st32(h + MAPLOG_CH_MAGIC, MAPLOG_CHUNK_MAGIC);
	maplog_st32(h + MAPLOG_CH_CAPACITY, cap);
	maplog_st32(h + MAPLOG_CH_PID, id->pid);
	maplog_st32(h + MAPLOG_CH_TID, id->tid);
	maplog_st32(h + MAPLOG_CH_IMAGE, id->image);
	maplog_st32(h + MAPLOG_CH_SEQ, id->seq);
	maplog_st64(h + MAPLOG_CH_BASE_TS, base_ts);
	maplog_st32(h + MAPLOG_CH_HCRC, maplog_crc32c(0, h, MAPLOG_CH_HCRC));
	c->base = h;
	c->cap = cap;
	c->used = 0;
	c->last_ts = base_ts;
	c->last_leaf = 0;
	c->nstacks = 0;
	c->prev = 0;
	c->stab = stab;
	if (stab)
		stab_clear(stab);
	return 0;
}

uint32_t mapw_chunk_room(const struct mapw_chunk *c)
{
	return c->cap - MAPLOG_CHUNK_HEADER_SIZE - c->used;
}

/* Publishes the payload length: the only store readers synchronise on. */
static inline void commit(struct mapw_chunk *c, uint32_t used)
{
	c->used = used;
	uint32_t le;
	maplog_st32((uint8_t *)&le, used);
	__atomic_store_n((uint32_t *)(c->base + MAPLOG_CH_USED), le,
			 __ATOMIC_RELEASE);
}

uint32_t mapw_chunk_trim(struct mapw_chunk *c)
{
	uint32_t cap = (MAPLOG_CHUNK_HEADER_SIZE + c->used + 7) & ~7u;
	uint8_t *h = c->base;
	memset(h + MAPLOG_CHUNK_HEADER_SIZE + c->used, 0,
	       cap - MAPLOG_CHUNK_HEADER_SIZE - c->used);
	/* the space handed back must read as unused (zero) */
	memset(h + cap, 0, c->cap - cap);
	c->cap = cap;
	maplog_st32(h + MAPLOG_CH_CAPACITY, cap);
	maplog_st32(h + MAPLOG_CH_HCRC, maplog_crc32c(0, h, MAPLOG_CH_HCRC));
	return cap;
}

void mapw_chunk_seal(struct mapw_chunk *c)
{
	uint8_t *h = c->base;
	maplog_st32(h + MAPLOG_CH_PCRC,
		    maplog_crc32c(0, h + MAPLOG_CHUNK_HEADER_SIZE, c->used));
	uint32_t le;
	maplog_st32((uint8_t *)&le, MAPLOG_CHUNK_SEALED);
	__atomic_store_n((uint32_t *)(h + MAPLOG_CH_FLAGS), le,
			 __ATOMIC_RELEASE);
}

/*
 * Record framing.  rec_begin writes the type and leaves one byte for the
 * length; rec_end fills the length in, moving the body up if the varint
 * needs more than one byte.  Returns 0 or -1 (out of room).
 */
static inline void rec_begin(struct cur *w, uint8_t *rec, int type,
			     int64_t ts_delta)
{
	if (w->end - rec < 2) {
		w->bad = 1;
		return;
	}
	rec[0] = (uint8_t)type;
	w->p = rec + 2;
	put_s(w, ts_delta);
}

static int rec_end(struct cur *w, uint8_t *rec)
{
	if (w->bad)
		return -1;

	uint64_t len = (uint64_t)(w->p - (rec + 2));
	unsigned extra = maplog_varint_len(len) - 1;
	if (extra) {
		if ((uint64_t)(w->end - w->p) < extra)
			return -1;
		memmove(rec + 2 + extra, rec + 2, (size_t)len);
		w->p += extra;
	}
	maplog_put_varint(rec + 1, len);
	return 0;
}

/* Undoes the bytes a failed append wrote past the committed payload:
 * they were zero (fresh chunks are), and a chunk's unused space, which a
 * trimmed chunk hands back, must stay zero. */
static void undo(uint8_t *from, const struct cur *w)
{
	uint8_t *to = w->p < w->end ? w->p : w->end;
	if (to > from)
		memset(from, 0, (size_t)(to - from));
}

static inline uint64_t hash_step(uint64_t h, uint64_t pc)
{
	h ^= pc;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

/* Hash of pc[from..npc), computed from the root end so the hash of a
 * stack and of its callers come out of one pass. */
static void stack_hashes(uint32_t npc, const uint64_t *pc, uint64_t *whole,
			 uint64_t *callers)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (uint32_t i = npc; i-- > 1;)
		h = hash_step(h, pc[i]);
	*callers = hash_step(h, npc - 1);
	*whole = hash_step(hash_step(h, pc[0]), npc);
}

/*
 * Finds the stack pc[from..npc) (from 0: the whole stack, from 1: its
 * callers) in table tab; returns its slot, the empty slot to fill
 * (gen != t->gen), or NULL when the probe limit is hit.
 */
static struct mapw_slot *stab_find(struct mapw_stab *t, struct mapw_slot *tab,
				   uint64_t h, uint32_t from, uint32_t npc,
				   const uint64_t *pc)
{
	uint32_t mask = t->nslots - 1;
	uint32_t i = (uint32_t)h & mask;
	uint32_t n = npc - from;
	for (uint32_t probe = 0; probe < 32; probe++, i = (i + 1) & mask) {
		struct mapw_slot *s = &tab[i];
		if (s->gen != t->gen)
			return s;
		if (s->hash != h)
			continue;
		uint32_t id = s->id - 1;
		uint32_t sn = t->id_n[id] - from;
		if (sn == n && memcmp(t->arena + t->id_off[id] + from, pc + from,
				      n * sizeof(uint64_t)) == 0)
			return s;
	}
	return NULL;
}

/* Frames at the root end that stack id and pc[0..npc) have in common. */
static uint32_t common_callers(const struct mapw_stab *t, uint32_t id,
			       uint32_t npc, const uint64_t *pc)
{
	const uint64_t *b = t->arena + t->id_off[id - 1];
	uint32_t bn = t->id_n[id - 1], k = 0;
	while (k < bn && k < npc && b[bn - 1 - k] == pc[npc - 1 - k])
		k++;
	return k;
}

int mapw_sample(struct mapw_chunk *c, uint64_t ts, uint32_t tid,
		uint64_t weight, uint32_t npc, const uint64_t *pc)
{
	if (npc > MAPLOG_MAX_FRAMES)
		return MAPS_EINVAL;
	uint8_t *payload = c->base + MAPLOG_CHUNK_HEADER_SIZE;
	struct cur w = {payload + c->used, c->base + c->cap, 0};
	struct mapw_stab *t = c->stab;
	uint32_t stack_id = 0;
	struct mapw_slot *slot = NULL, *cslot = NULL;
	uint64_t h = 0, hc = 0;
	uint64_t leaf = c->last_leaf;
	int64_t dts = (int64_t)(ts - c->last_ts);
	int insert = 0;

	if (npc) {
		if (t) {
			stack_hashes(npc, pc, &h, &hc);
			slot = stab_find(t, t->slots, h, 0, npc, pc);
			if (slot && slot->gen == t->gen)
				stack_id = slot->id;
		}
		if (!stack_id && t) {
			insert = slot && c->nstacks < t->nslots / 2 &&
				 t->arena_cap - t->arena_used >= npc;
			if (!insert && c->used)
				return MAPS_ENOSPC; /* full: a new chunk dedups */
		}
		if (!stack_id) {
			/* reuse the callers of a stack already written */
			uint32_t base = 0, drop = 0, nnew = npc;
			if (t && npc > 1) {
				cslot = stab_find(t, t->ctx, hc, 1, npc, pc);
				if (cslot && cslot->gen == t->gen) {
					base = cslot->id;
					drop = 1;
					nnew = 1;
				} else if (c->prev) {
					uint32_t k = common_callers(t, c->prev,
								    npc, pc);
					if (k >= 2) {
						base = c->prev;
						drop = t->id_n[base - 1] - k;
						nnew = npc - k;
					}
				}
			}
			uint8_t *rec = w.p;
			rec_begin(&w, rec, MAPLOG_TYPE_STACK, dts);
			dts = 0;
			put_u(&w, base);
			put_u(&w, drop);
			put_u(&w, nnew);
			uint64_t prev = leaf;
			for (uint32_t i = 0; i < nnew; i++) {
				put_s(&w, (int64_t)(pc[i] - prev));
				prev = pc[i];
			}
			if (rec_end(&w, rec)) {
				undo(payload + c->used, &w);
				return c->used ? MAPS_ENOSPC : MAPS_EBADSIZE;
			}
			if (nnew) /* the reader tracks the last new leaf */
				leaf = pc[0];
			stack_id = c->nstacks + 1;
		}
	}
	uint8_t *rec = w.p;
	rec_begin(&w, rec, MAPLOG_TYPE_SAMPLE, dts);
	put_u(&w, stack_id);
	put_u(&w, weight);
	if (tid)
		put_u(&w, tid);
	if (rec_end(&w, rec)) {
		undo(payload + c->used, &w);
		return c->used ? MAPS_ENOSPC : MAPS_EBADSIZE;
	}

	if (npc && stack_id == c->nstacks + 1) {
		c->nstacks++;
		c->last_leaf = leaf;
		if (insert) {
			uint32_t id = stack_id - 1;
			memcpy(t->arena + t->arena_used, pc,
			       npc * sizeof(uint64_t));
			t->id_off[id] = t->arena_used;
			t->id_n[id] = npc;
			t->arena_used += npc;
			t->count++;
			slot->hash = h;
			slot->gen = t->gen;
			slot->id = stack_id;
			if (npc > 1 && cslot && cslot->gen != t->gen) {
				cslot->hash = hc;
				cslot->gen = t->gen;
				cslot->id = stack_id;
			}
		} else if (t && stack_id - 1 < t->nslots / 2) {
			t->id_n[stack_id - 1] = 0; /* not usable as a base */
		}
	}
	/* only stacks in the table can serve as a base */
	c->prev = (t && stack_id && stack_id - 1 < t->nslots / 2 &&
		   t->id_n[stack_id - 1] == npc) ? stack_id : 0;
	c->last_ts = ts;
	commit(c, (uint32_t)(w.p - payload));
	return 0;
}

int mapw_event(struct mapw_chunk *c, const struct maplog_ev *ev)
{
	if (ev->ev_type == MAPLOG_TYPE_SAMPLE) {
		const struct maplog_ev_sample *s = &ev->ev_u.sample;
		return mapw_sample(c, ev->ev_ts, s->sa_tid, s->sa_weight,
				   s->sa_npc, s->sa_pc);
	}
	uint8_t *payload = c->base + MAPLOG_CHUNK_HEADER_SIZE;
	struct cur w = {payload + c->used, c->base + c->cap, 0};
	uint8_t *rec = w.p;
	rec_begin(&w, rec, ev->ev_type, (int64_t)(ev->ev_ts - c->last_ts));

	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE: {
		const struct maplog_ev_initialize *b = &ev->ev_u.init;
		put_u(&w, b->in_version_major);
		put_u(&w, b->in_version_minor);
		put_u(&w, b->in_clock);
		put_u(&w, b->in_timer);
		put_u(&w, b->in_rate_asked);
		put_u(&w, b->in_period_ns);
		put_u(&w, b->in_signal);
		put_u(&w, b->in_max_depth);
		put_u(&w, b->in_pid);
		put_u(&w, b->in_ppid);
		put_s(&w, b->in_wall_sec);
		put_u(&w, b->in_wall_nsec);
		put_str(&w, b->in_host);
		put_str(&w, b->in_exe);
		uint32_t argc = b->in_argv ? b->in_argc : 0;
		if (argc > MAPLOG_MAX_ARGC)
			return MAPS_EINVAL; /* readers refuse more */
		put_u(&w, argc);
		for (uint32_t i = 0; i < argc; i++)
			put_str(&w, b->in_argv[i]);
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF: {
		const struct maplog_ev_metric_def *b = &ev->ev_u.mdef;
		put_u(&w, b->md_index);
		put_u(&w, b->md_datatype);
		put_u(&w, b->md_flags);
		put_str(&w, b->md_id);
		put_str(&w, b->md_name);
		put_str(&w, b->md_units);
		put_str(&w, b->md_description);
		put_str(&w, b->md_domain);
		put_str(&w, b->md_colour);
		put_str(&w, b->md_group);
		put_str(&w, b->md_plugin);
		break;
	}
	case MAPLOG_TYPE_PLUGIN_ERROR:
		put_str(&w, ev->ev_u.perr.pe_plugin);
		put_str(&w, ev->ev_u.perr.pe_message);
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		put_u(&w, ev->ev_u.merr.me_index);
		put_u(&w, ev->ev_u.merr.me_count);
		put_str(&w, ev->ev_u.merr.me_message);
		break;
	case MAPLOG_TYPE_MAP_IN: {
		const struct maplog_ev_map_in *b = &ev->ev_u.map_in;
		put_u(&w, b->mi_start);
		put_u(&w, b->mi_end - b->mi_start);
		put_u(&w, b->mi_offset);
		put_u(&w, b->mi_bias);
		put_u(&w, b->mi_seq);
		put_u(&w, b->mi_flags);
		put_bytes(&w, b->mi_buildid,
			  b->mi_buildid ? b->mi_buildid_len : 0);
		put_str(&w, b->mi_path);
		break;
	}
	case MAPLOG_TYPE_MAP_OUT:
		put_u(&w, ev->ev_u.map_out.mo_start);
		put_u(&w, ev->ev_u.map_out.mo_end - ev->ev_u.map_out.mo_start);
		put_u(&w, ev->ev_u.map_out.mo_seq);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		put_u(&w, ev->ev_u.tbegin.tb_tid);
		put_u(&w, ev->ev_u.tbegin.tb_creator);
		put_str(&w, ev->ev_u.tbegin.tb_name);
		break;
	case MAPLOG_TYPE_THREAD_END:
		put_u(&w, ev->ev_u.tend.te_tid);
		put_u(&w, ev->ev_u.tend.te_samples);
		put_u(&w, ev->ev_u.tend.te_dropped);
		put_u(&w, ev->ev_u.tend.te_cpu_ns);
		put_u(&w, ev->ev_u.tend.te_wall_ns);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		put_u(&w, ev->ev_u.fork.fk_ppid);
		put_u(&w, ev->ev_u.fork.fk_pid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		put_u(&w, ev->ev_u.exec.ex_pid);
		put_u(&w, ev->ev_u.exec.ex_image);
		put_str(&w, ev->ev_u.exec.ex_path);
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		put_u(&w, ev->ev_u.exit.px_pid);
		put_u(&w, ev->ev_u.exit.px_how);
		put_s(&w, ev->ev_u.exit.px_code);
		break;
	case MAPLOG_TYPE_METRIC_VALUE:
		put_u(&w, ev->ev_u.mval.mv_index);
		put_u(&w, ev->ev_u.mval.mv_kind);
		if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_U64)
			put_u(&w, ev->ev_u.mval.mv_v.u64);
		else if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_DOUBLE)
			put_f64(&w, ev->ev_u.mval.mv_v.dbl);
		break;
	case MAPLOG_TYPE_DROP:
		put_u(&w, ev->ev_u.drop.dr_tid);
		put_u(&w, ev->ev_u.drop.dr_reason);
		put_u(&w, ev->ev_u.drop.dr_count);
		break;
	case MAPLOG_TYPE_MARK:
		put_u(&w, ev->ev_u.mark.mk_tid);
		put_u(&w, ev->ev_u.mark.mk_value);
		put_str(&w, ev->ev_u.mark.mk_text);
		break;
	case MAPLOG_TYPE_CLOSE:
		put_u(&w, ev->ev_u.close.cl_samples);
		put_u(&w, ev->ev_u.close.cl_dropped);
		put_u(&w, ev->ev_u.close.cl_threads);
		break;
	case MAPLOG_TYPE_JOB:
		put_s(&w, ev->ev_u.job.jb_rank);
		put_u(&w, ev->ev_u.job.jb_size);
		put_u(&w, ev->ev_u.job.jb_role);
		put_str(&w, ev->ev_u.job.jb_job_id);
		put_str(&w, ev->ev_u.job.jb_launcher);
		put_str(&w, ev->ev_u.job.jb_source);
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		put_str(&w, ev->ev_u.mpi.mc_function);
		put_u(&w, ev->ev_u.mpi.mc_calls);
		put_u(&w, ev->ev_u.mpi.mc_time_ns);
		put_u(&w, ev->ev_u.mpi.mc_sent);
		put_u(&w, ev->ev_u.mpi.mc_received);
		break;
	case MAPLOG_TYPE_MANIFEST:
		put_str(&w, ev->ev_u.manifest.mf_plugin);
		put_str(&w, ev->ev_u.manifest.mf_path);
		put_str(&w, ev->ev_u.manifest.mf_description);
		break;
	case MAPLOG_TYPE_FILE:
		put_u(&w, ev->ev_u.file.fi_pid);
		put_u(&w, ev->ev_u.file.fi_flags);
		put_u(&w, ev->ev_u.file.fi_offset);
		put_str(&w, ev->ev_u.file.fi_kind);
		put_str(&w, ev->ev_u.file.fi_name);
		put_bytes(&w, ev->ev_u.file.fi_data,
			  ev->ev_u.file.fi_data ? ev->ev_u.file.fi_len : 0);
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		put_u(&w, ev->ev_u.tname.tn_tid);
		put_str(&w, ev->ev_u.tname.tn_name);
		break;
	default:
		return MAPS_EINVAL;
	}
	if (rec_end(&w, rec)) {
		undo(payload + c->used, &w);
		return c->used == 0 ? MAPS_EBADSIZE : MAPS_ENOSPC;
	}
	c->last_ts = ev->ev_ts;
	commit(c, (uint32_t)(w.p - payload));
	return 0;
}
