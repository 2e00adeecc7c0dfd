/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * safe_malloc.c: allinea_safe_malloc(), _calloc(), _realloc() and _free(),
 * the allocator metric plugins use in getters, that is in signal
 * handlers.  Memory comes from mmap(2) through syscall(2), never from the
 * libc allocator, so that an interrupted malloc() cannot be re-entered.
 *
 * Design notes
 *   - Every block starts with a 16-byte header (magic, size class, size),
 *     so blocks are 16-byte aligned.  free() reads a header only once it
 *     knows the block is ours: a small block lies inside one of the
 *     arenas (a table of their addresses), a large one is in the table of
 *     live large mappings.  Freeing anything else (a libc pointer, a block
 *     freed twice, even a large one whose mapping is gone) aborts with a
 *     message rather than reading memory that is not ours or corrupting
 *     the lists.
 *   - Small blocks: 13 power-of-two classes of 16 B to 64 KiB usable,
 *     each with a LIFO free list, carved from 1 MiB arenas mapped as
 *     needed.  When an arena runs out its tail is cut into free blocks of
 *     the largest classes that fit, so nothing is wasted.  Arenas are
 *     never returned to the system.
 *   - Large blocks (over 64 KiB): one mapping each, grown with mremap(2)
 *     and unmapped by free.
 *   - One spinlock (an atomic_flag) guards the free lists and the arena.
 *     The host never runs plugin code from a signal handler on a thread
 *     inside an allinea_* function (pluginapi_depth, pluginapi.h), so the
 *     holder of the lock is never interrupted into the allocator on its
 *     own thread: the lock cannot deadlock.  Waiters spin, yielding the
 *     CPU every 64 tries.  Large blocks take no lock.
 *   - fork: pthread_atfork handlers take the lock around fork(), so the
 *     child never inherits it held by a thread that does not exist there.
 *   - Exhaustion (mmap fails): one line on standard error and abort(3), as
 *     the reference says; the functions never return NULL for a request
 *     they accept.  allinea_safe_calloc() with nmemb * size overflowing
 *     returns NULL with errno ENOMEM, as calloc(3) does.
 *   - allinea_safe_realloc(p, 0) frees p and returns NULL, as glibc's
 *     realloc(3) does; allinea_safe_malloc(0) returns a unique 16-byte
 *     block.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "allinea_safe_malloc.h"
#include "pluginapi.h"

#define HDR_SIZE 16
#define NCLASS 13			/* 16 B << 0 .. 16 B << 12 */
#define CLASS_SIZE(i) ((size_t)16 << (i))
#define SMALL_MAX CLASS_SIZE(NCLASS - 1)	/* 64 KiB */
#define ARENA_SIZE ((size_t)1 << 20)
#define PAGE_ROUND ((size_t)4096)

#define MAGIC_SMALL 0x6d617073u		/* in use, from an arena */
#define MAGIC_LARGE 0x6d61704cu		/* in use, its own mapping */
#define MAGIC_FREE 0x66726565u		/* on a free list */

struct hdr {
	uint32_t magic;
	uint32_t cls;		/* small: the class */
	size_t size;		/* large: the mapping's length */
};
_Static_assert(sizeof(struct hdr) == HDR_SIZE, "header keeps 16-byte alignment");

static atomic_flag lock = ATOMIC_FLAG_INIT;
static struct hdr *free_list[NCLASS];
static char *arena_cur, *arena_end;

/* Every arena mapped (4 GiB of small blocks at most), appended under the
 * lock and read without it: an entry is written before the count that
 * shows it is released. */
#define MAX_ARENAS 4096
static char *arenas[MAX_ARENAS];
static atomic_uint narenas;

/* The live large blocks' headers; lock held. */
#define MAX_LARGE 4096
static struct hdr *large[MAX_LARGE];
static unsigned nlarge;

/* Async-signal-safe (see the design notes on why it cannot deadlock). */
static void lock_take(void)
{
	unsigned spins = 0;

	while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) {
		if (++spins % 64 == 0)
			syscall(SYS_sched_yield);
#if defined(__x86_64__) || defined(__i386__)
		else
			__builtin_ia32_pause();
#endif
	}
}

/* Async-signal-safe. */
static void lock_give(void)
{
	atomic_flag_clear_explicit(&lock, memory_order_release);
}

/* fork(2) handlers: the forking thread holds the lock (and counts as
 * inside the API, so that no getter runs on it meanwhile). */
static void fork_prepare(void)
{
	pluginapi_enter();
	lock_take();
}

static void fork_after(void)
{
	lock_give();
	pluginapi_leave();
}

__attribute__((constructor)) static void safe_malloc_init(void)
{
	pthread_atfork(fork_prepare, fork_after, fork_after);
}

/* Anonymous private memory, or NULL with errno.  Async-signal-safe. */
static void *map_anon(size_t len)
{
	long r = syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
	return r == -1 ? NULL : (void *)r;
}

/* Prints the exhaustion line and aborts.  Async-signal-safe. */
__attribute__((noreturn)) static void out_of_memory(const char *who,
	size_t size)
{
	int e = errno;

	pluginapi_warn("%s: out of memory allocating %zu bytes (mmap: errno "
		"%d); the metric plugin needs more memory than the process "
		"may map (see ulimit -v)", who, size, e);
	abort();
}

/* Reports a pointer that is not a live block of ours and aborts.
 * Async-signal-safe. */
__attribute__((noreturn)) static void bad_pointer(const char *who,
	const void *p, const char *what)
{
	pluginapi_warn("%s: %p %s; the metric plugin has a memory bug", who, p,
		what);
	abort();
}

/* The smallest class of at least size bytes. */
static unsigned class_of(size_t size)
{
	unsigned i = 0;

	while (CLASS_SIZE(i) < size)
		i++;
	return i;
}

/* Puts a free block of class i at h on its list; lock held.
 * Async-signal-safe. */
static void push_free(struct hdr *h, unsigned i)
{
	h->magic = MAGIC_FREE;
	h->cls = i;
	h->size = 0;
	*(struct hdr **)(h + 1) = free_list[i];
	free_list[i] = h;
}

/* Cuts what is left of the arena into free blocks, then maps a new one;
 * lock held.  Returns false (errno set) if mmap fails.
 * Async-signal-safe. */
static bool arena_refill(void)
{
	char *a;

	while (arena_end - arena_cur >= (ptrdiff_t)(HDR_SIZE + CLASS_SIZE(0))) {
		size_t left = (size_t)(arena_end - arena_cur);
		unsigned i = NCLASS - 1;
		while (HDR_SIZE + CLASS_SIZE(i) > left)
			i--;
		push_free((struct hdr *)arena_cur, i);
		arena_cur += HDR_SIZE + CLASS_SIZE(i);
	}
	unsigned n = atomic_load_explicit(&narenas, memory_order_relaxed);
	if (n == MAX_ARENAS) {
		errno = ENOMEM;
		return false;
	}
	a = map_anon(ARENA_SIZE);
	if (a == NULL)
		return false;
	arenas[n] = a;
	atomic_store_explicit(&narenas, n + 1, memory_order_release);
	arena_cur = a;
	arena_end = a + ARENA_SIZE;
	return true;
}

/* Allocates size bytes; who names the API function for messages.
 * Async-signal-safe. */
static void *alloc(size_t size, const char *who)
{
	struct hdr *h;

	if (size > SMALL_MAX) {
		size_t len;
		if (size > SIZE_MAX - HDR_SIZE - PAGE_ROUND) {
			errno = ENOMEM;
			out_of_memory(who, size);
		}
		len = (HDR_SIZE + size + PAGE_ROUND - 1) & ~(PAGE_ROUND - 1);
		h = map_anon(len);
		if (h == NULL)
			out_of_memory(who, size);
		h->magic = MAGIC_LARGE;
		h->cls = NCLASS;
		h->size = len;
		lock_take();
		if (nlarge == MAX_LARGE) {
			lock_give();
			syscall(SYS_munmap, h, len);
			errno = ENOMEM;
			out_of_memory(who, size);
		}
		large[nlarge++] = h;
		lock_give();
		return h + 1;
	}
	unsigned i = class_of(size);
	lock_take();
	h = free_list[i];
	if (h != NULL) {
		free_list[i] = *(struct hdr **)(h + 1);
	} else {
		size_t need = HDR_SIZE + CLASS_SIZE(i);
		if ((size_t)(arena_end - arena_cur) < need && !arena_refill()) {
			lock_give();
			out_of_memory(who, size);
		}
		h = (struct hdr *)arena_cur;
		arena_cur += need;
	}
	h->magic = MAGIC_SMALL;
	h->cls = i;
	h->size = 0;
	lock_give();
	return h + 1;
}

/* Is h inside one of the arenas?  Async-signal-safe. */
static bool in_arena(const struct hdr *h)
{
	unsigned n = atomic_load_explicit(&narenas, memory_order_acquire);
	for (unsigned i = 0; i < n; i++)
		if ((const char *)h >= arenas[i] &&
		    (const char *)h < arenas[i] + ARENA_SIZE)
			return true;
	return false;
}

/* The index of h in the large table, or -1; lock held. */
static int large_find(const struct hdr *h)
{
	for (unsigned i = 0; i < nlarge; i++)
		if (large[i] == h)
			return (int)i;
	return -1;
}

/* The header of p, a live block, or abort.  Reads nothing outside our
 * own memory.  Async-signal-safe. */
static struct hdr *header_of(void *p, const char *who)
{
	struct hdr *h = (struct hdr *)p - 1;

	if (((uintptr_t)p & (HDR_SIZE - 1)) != 0)
		bad_pointer(who, p, "is not a block from allinea_safe_malloc()");
	if (in_arena(h)) {
		if (h->magic == MAGIC_FREE)
			bad_pointer(who, p, "was freed already");
		if (h->magic != MAGIC_SMALL || h->cls >= NCLASS)
			bad_pointer(who, p,
				    "is not a block from allinea_safe_malloc()");
		return h;
	}
	lock_take();
	int i = large_find(h);
	lock_give();
	if (i < 0)
		bad_pointer(who, p, "is not a block from "
			    "allinea_safe_malloc() (or a large one freed "
			    "already)");
	return h;
}

/* Bytes usable in the block with header h. */
static size_t usable(const struct hdr *h)
{
	return h->magic == MAGIC_LARGE ? h->size - HDR_SIZE :
		CLASS_SIZE(h->cls);
}

/* Frees p (not NULL).  Async-signal-safe. */
static void release(void *p, const char *who)
{
	struct hdr *h = header_of(p, who);

	if (h->magic == MAGIC_LARGE) {
		lock_take();
		int i = large_find(h);
		if (i >= 0)
			large[i] = large[--nlarge];
		lock_give();
		if (i < 0) /* freed by another thread meanwhile */
			bad_pointer(who, p, "was freed already");
		syscall(SYS_munmap, h, h->size);
		return;
	}
	lock_take();
	push_free(h, h->cls);
	lock_give();
}

/* Allocates size bytes, uninitialised, 16-byte aligned; a unique block
 * for size 0.  Aborts when memory is exhausted.  Async-signal-safe. */
void *allinea_safe_malloc(size_t size)
{
	void *p;

	pluginapi_enter();
	p = alloc(size, "allinea_safe_malloc");
	pluginapi_leave();
	return p;
}

/* Allocates nmemb * size zeroed bytes.  Returns NULL with errno ENOMEM
 * when the product overflows; aborts when memory is exhausted.
 * Async-signal-safe. */
void *allinea_safe_calloc(size_t nmemb, size_t size)
{
	size_t total;
	void *p;

	if (__builtin_mul_overflow(nmemb, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	pluginapi_enter();
	p = alloc(total, "allinea_safe_calloc");
	if (total <= SMALL_MAX)		/* large blocks are fresh mappings */
		memset(p, 0, total);
	pluginapi_leave();
	return p;
}

/* Frees ptr (NULL allowed); aborts on a pointer that is not a live block
 * from these functions.  Async-signal-safe. */
void allinea_safe_free(void *ptr)
{
	if (ptr == NULL)
		return;
	pluginapi_enter();
	release(ptr, "allinea_safe_free");
	pluginapi_leave();
}

/* pluginapi.h.  Async-signal-safe. */
void pluginapi_mem_free(void *ptr)
{
	if (ptr != NULL)
		release(ptr, "allinea_safe_free");
}

/* realloc without the depth accounting.  Async-signal-safe. */
static void *resize(void *ptr, size_t size)
{
	static const char who[] = "allinea_safe_realloc";
	struct hdr *h;
	void *np;

	if (ptr == NULL)
		return alloc(size, who);
	if (size == 0) {
		release(ptr, who);
		return NULL;
	}
	h = header_of(ptr, who);
	if (size <= usable(h))
		return ptr;
	if (h->magic == MAGIC_LARGE) {
		size_t len;
		long r;
		if (size > SIZE_MAX - HDR_SIZE - PAGE_ROUND) {
			errno = ENOMEM;
			out_of_memory(who, size);
		}
		len = (HDR_SIZE + size + PAGE_ROUND - 1) & ~(PAGE_ROUND - 1);
		r = syscall(SYS_mremap, h, h->size, len, MREMAP_MAYMOVE);
		if (r == -1)
			out_of_memory(who, size);
		lock_take();
		int i = large_find(h);
		if (i >= 0)
			large[i] = (struct hdr *)r;
		lock_give();
		h = (struct hdr *)r;
		h->size = len;
		return h + 1;
	}
	np = alloc(size, who);
	memcpy(np, ptr, usable(h));
	release(ptr, who);
	return np;
}

/* Resizes ptr to size bytes, keeping its contents up to the smaller
 * size.  NULL ptr: as allinea_safe_malloc(size).  Size 0 with ptr not
 * NULL: frees ptr and returns NULL (glibc's realloc does the same).  A
 * block is never moved to shrink it; a large one grows in place when the
 * kernel can (mremap).  Aborts when memory is exhausted.
 * Async-signal-safe. */
void *allinea_safe_realloc(void *ptr, size_t size)
{
	void *np;

	pluginapi_enter();
	np = resize(ptr, size);
	pluginapi_leave();
	return np;
}

/* pluginapi.h.  Async-signal-safe. */
void *pluginapi_mem_realloc(void *ptr, size_t size)
{
	return resize(ptr, size);
}
