/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * objects: loaded objects.  Records a map-in (with its GNU build-id) for
 * the executable segment of every object at start-up and after dlopen,
 * and a map-out after dlclose; and answers dl_iterate_phdr for the signal
 * handler.  Calls stream.c and real.c below it.
 *
 * Why dl_iterate_phdr is ours: libunwind calls it on a cache miss, and
 * glibc's takes the loader lock, which the interrupted code may hold (in
 * dlopen, in a TLS access, in another dl_iterate_phdr): a deadlock
 * samplers keep rediscovering.  We export dl_iterate_phdr from the
 * preloaded library.  Outside the handler it calls glibc's.  Inside it
 * (in_handler set) it walks a snapshot: copies of every object's
 * dl_phdr_info, program headers and name, rebuilt outside signal context
 * at start-up and after each dlopen/dlclose and published with an atomic
 * pointer swap.  Old snapshots are freed only when no handler is reading
 * one (a reader count), so a handler never walks freed memory.  A fork
 * child walks the snapshot too until it has loaded or unloaded an object
 * itself (see loader_suspect).
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

#define SNAP_MAX_PHDR 24
#define SNAP_NAME 512

struct snap_obj {
	struct dl_phdr_info info;
	ElfW(Phdr) phdr[SNAP_MAX_PHDR];
	char name[SNAP_NAME];
};

struct snapshot {
	size_t n;
	struct snapshot *older;  /* retired, waiting for readers to leave */
	struct snap_obj obj[];
};

static struct snapshot *snap;      /* current */
static struct snapshot *retired;   /* list to free */
static int snap_readers;
static pthread_mutex_t snap_lock = PTHREAD_MUTEX_INITIALIZER;

/* Walks the snapshot.  Async-signal-safe. */
static int snap_iterate(int (*cb)(struct dl_phdr_info *, size_t, void *),
			void *data)
{
	__atomic_fetch_add(&snap_readers, 1, __ATOMIC_SEQ_CST);
	struct snapshot *s = __atomic_load_n(&snap, __ATOMIC_SEQ_CST);
	int rc = 0;
	for (size_t i = 0; s && i < s->n && rc == 0; i++) {
		struct dl_phdr_info info = s->obj[i].info;
		rc = cb(&info, sizeof(info), data);
	}
	__atomic_fetch_sub(&snap_readers, 1, __ATOMIC_SEQ_CST);
	return rc;
}

/*
 * Set in a fork child until the child has itself loaded or unloaded an
 * object: another thread of the parent may have held the loader's lock
 * at the fork, and in the child nobody will release it, so until the
 * child shows that the lock is free (its own dlopen or dlclose returned)
 * every dl_iterate_phdr, ours, libunwind's and the program's, walks the
 * snapshot instead of taking the lock.
 */
static int loader_suspect;

MAPS_EXPORT int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t,
					  void *),
				void *data)
{
	if (!in_handler && !__atomic_load_n(&loader_suspect, __ATOMIC_ACQUIRE))
		return real_dl_iterate_phdr(cb, data);
	/* signal context, or a fork child: the snapshot only */
	return snap_iterate(cb, data);
}

struct collect {
	struct snapshot *s;
	size_t cap;
};

static int collect_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct collect *c = data;
	if (c->s->n == c->cap) {
		size_t cap = c->cap * 2;
		struct snapshot *n = realloc(c->s, sizeof(*n) +
						   cap * sizeof(n->obj[0]));
		if (!n)
			return 1;
		c->s = n;
		c->cap = cap;
	}
	struct snap_obj *o = &c->s->obj[c->s->n++];
	o->info = *info;
	size_t np = info->dlpi_phnum < SNAP_MAX_PHDR ? info->dlpi_phnum
						    : SNAP_MAX_PHDR;
	memcpy(o->phdr, info->dlpi_phdr, np * sizeof(ElfW(Phdr)));
	o->info.dlpi_phdr = o->phdr;
	o->info.dlpi_phnum = (ElfW(Half))np;
	const char *nm = info->dlpi_name ? info->dlpi_name : "";
	strncpy(o->name, nm, SNAP_NAME - 1);
	o->name[SNAP_NAME - 1] = 0;
	o->info.dlpi_name = o->name;
	return 0;
}

void objects_snapshot(void)
{
	struct collect c = {NULL, 32};
	c.s = malloc(sizeof(*c.s) + c.cap * sizeof(c.s->obj[0]));
	if (!c.s)
		return;
	c.s->n = 0;
	c.s->older = NULL;
	real_dl_iterate_phdr(collect_cb, &c);
	/* the pointers into the array moved with realloc: fix them */
	for (size_t i = 0; i < c.s->n; i++) {
		c.s->obj[i].info.dlpi_phdr = c.s->obj[i].phdr;
		c.s->obj[i].info.dlpi_name = c.s->obj[i].name;
	}
	pthread_mutex_lock(&snap_lock);
	struct snapshot *old = __atomic_exchange_n(&snap, c.s, __ATOMIC_SEQ_CST);
	if (old) {
		old->older = retired;
		retired = old;
	}
	if (__atomic_load_n(&snap_readers, __ATOMIC_SEQ_CST) == 0) {
		while (retired) {
			struct snapshot *r = retired;
			retired = r->older;
			free(r);
		}
	}
	pthread_mutex_unlock(&snap_lock);
}

/* ---- map-in / map-out records ---- */

struct known {
	uint64_t start, end;   /* executable segment */
	uint64_t bias;
	int seen;              /* seen in the current scan */
};

static struct known *known;
static size_t nknown, capknown;
static uint64_t map_seq;

/* Are the pages of [a, a + len) mapped?  (msync fails with ENOMEM on
 * a hole.) */
static int mapped(uint64_t a, uint64_t len)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t lo = a & ~(pg - 1);
	return len && real_msync((void *)(uintptr_t)lo, a + len - lo,
				 MS_ASYNC) == 0;
}

static size_t build_id(const struct dl_phdr_info *info, const uint8_t **id)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		const uint8_t *e = p + ph->p_memsz;
		if (__atomic_load_n(&loader_suspect, __ATOMIC_ACQUIRE) &&
		    !mapped((uint64_t)(uintptr_t)p, ph->p_memsz))
			continue; /* a fork child's snapshot: see scan_cb */
		while (p + sizeof(ElfW(Nhdr)) <= e) {
			const ElfW(Nhdr) *nh = (const void *)p;
			size_t nsz = (nh->n_namesz + 3) & ~3u;
			size_t dsz = (nh->n_descsz + 3) & ~3u;
			const uint8_t *name = p + sizeof(*nh);
			const uint8_t *desc = name + nsz;
			if (desc + dsz > e)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0 && nh->n_descsz <= 255) {
				*id = desc;
				return nh->n_descsz;
			}
			p = desc + dsz;
		}
	}
	return 0;
}

struct scan {
	uint64_t ts;
	int initial;
};

static int scan_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct scan *sc = data;
	static char exe[4096];
	const char *path = info->dlpi_name;
	uint32_t flags = 0;
	if (!path || !*path) {
		/* glibc names the main program "" */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		path = exe;
		flags |= MAPLOG_MAP_MAIN;
	} else if (strncmp(path, "linux-vdso", 10) == 0 ||
		   strncmp(path, "linux-gate", 10) == 0) {
		flags |= MAPLOG_MAP_VDSO;
	}
	if (!sc->initial)
		flags |= MAPLOG_MAP_DLOPEN;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t start = info->dlpi_addr + ph->p_vaddr;
		uint64_t end = start + ph->p_memsz;
		/* a fork child's snapshot may hold an object another thread
		 * of the parent was unloading at the fork */
		if (__atomic_load_n(&loader_suspect, __ATOMIC_ACQUIRE) &&
		    !mapped(start, end - start))
			continue;
		size_t k;
		for (k = 0; k < nknown; k++)
			if (known[k].start == start && known[k].end == end &&
			    known[k].bias == info->dlpi_addr)
				break;
		if (k < nknown) {
			known[k].seen = 1;
			continue;
		}
		if (nknown == capknown) {
			size_t cap = capknown ? capknown * 2 : 64;
			struct known *nk = realloc(known, cap * sizeof(*nk));
			if (!nk)
				return 1;
			known = nk;
			capknown = cap;
		}
		known[nknown++] = (struct known){start, end, info->dlpi_addr, 1};
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MAP_IN;
		ev.ev_ts = sc->ts;
		ev.ev_u.map_in.mi_start = start;
		ev.ev_u.map_in.mi_end = end;
		ev.ev_u.map_in.mi_offset = ph->p_offset;
		ev.ev_u.map_in.mi_bias = info->dlpi_addr;
		ev.ev_u.map_in.mi_seq = map_seq++;
		ev.ev_u.map_in.mi_flags = flags;
		ev.ev_u.map_in.mi_buildid_len =
			(uint32_t)build_id(info, &ev.ev_u.map_in.mi_buildid);
		ev.ev_u.map_in.mi_path = path;
		stream_put(&S.proc, &ev);
		/* our own text (the one executable segment of
		 * libmapsampler.so, this function's): samples landing there
		 * are dropped */
		uint64_t me = (uint64_t)(uintptr_t)&scan_cb;
		if (me >= start && me < end) {
			S.self_lo = start;
			S.self_hi = end;
		}
	}
	return 0;
}

static void scan(int initial)
{
	struct scan sc = {now_ns(), initial};
	pthread_mutex_lock(&S.proc_lock);
	for (size_t k = 0; k < nknown; k++)
		known[k].seen = 0;
	if (__atomic_load_n(&loader_suspect, __ATOMIC_ACQUIRE))
		snap_iterate(scan_cb, &sc);
	else
		real_dl_iterate_phdr(scan_cb, &sc);
	/* objects gone since the last scan */
	size_t w = 0;
	for (size_t k = 0; k < nknown; k++) {
		if (known[k].seen) {
			known[w++] = known[k];
			continue;
		}
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MAP_OUT;
		ev.ev_ts = sc.ts;
		ev.ev_u.map_out.mo_start = known[k].start;
		ev.ev_u.map_out.mo_end = known[k].end;
		ev.ev_u.map_out.mo_seq = map_seq++;
		stream_put(&S.proc, &ev);
	}
	nknown = w;
	pthread_mutex_unlock(&S.proc_lock);
}

void objects_after_fork_child(void)
{
	/* the parent's other threads are gone with whatever they held:
	 * the loader's lock, snap_lock, a reader count, a retired list
	 * being freed (left to leak) */
	__atomic_store_n(&loader_suspect, 1, __ATOMIC_RELEASE);
	pthread_mutex_init(&snap_lock, NULL);
	__atomic_store_n(&snap_readers, 0, __ATOMIC_SEQ_CST);
	retired = NULL;
	objects_record_all();
}

void objects_record_all(void)
{
	nknown = 0;
	map_seq = 0;
	scan(1);
}

void objects_rescan(void)
{
	/* after the program's own dlopen or dlclose returned: the loader's
	 * lock is free */
	__atomic_store_n(&loader_suspect, 0, __ATOMIC_RELEASE);
	scan(0);
	objects_snapshot();
}

struct text_of {
	uint64_t pc, lo, hi;
};

static int text_of_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct text_of *w = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;
		if (w->pc >= lo && w->pc < lo + ph->p_memsz) {
			w->lo = lo;
			w->hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

int objects_text_of(uint64_t pc, uint64_t *lo, uint64_t *hi)
{
	struct text_of w = {pc, 0, 0};
	/* ours answers from the snapshot where the loader's lock is suspect */
	if (!dl_iterate_phdr(text_of_cb, &w))
		return -1;
	*lo = w.lo;
	*hi = w.hi;
	return 0;
}
