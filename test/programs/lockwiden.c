/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * liblockwiden: widens the windows in which libunwind holds a lock, for
 * test/integration/mapsample-forkdl.sh.  Preloaded after the sampler, it
 * defines pthread_mutex_lock (libunwind calls it through its PLT for the
 * lock of the register-state cache and of its memory pools); a call that
 * returns into libunwind's code keeps the lock LOCKWIDEN_US microseconds
 * (default 200) before it returns, any other call just locks.  A race
 * between a fork and a stack walk of another thread, whose window is a
 * few microseconds, then shows in a few runs instead of one in hundreds:
 * the child inherits the lock held and its first walk waits for ever.
 *
 * The wait is a loop on clock_gettime() (async-signal-safe), taken with
 * the lock held and, as libunwind takes its locks, every signal blocked.
 * The real lock is glibc's __pthread_mutex_lock, so no lookup is needed
 * before the constructor has found libunwind's code.
 */
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int __pthread_mutex_lock(pthread_mutex_t *m);

static uintptr_t unw_lo, unw_hi; /* libunwind's code */
static long widen_ns = 200000;

__attribute__((visibility("default"))) int
pthread_mutex_lock(pthread_mutex_t *m);

int pthread_mutex_lock(pthread_mutex_t *m)
{
	uintptr_t ra = (uintptr_t)__builtin_return_address(0);
	int rc = __pthread_mutex_lock(m);
	if (rc == 0 && ra >= unw_lo && ra < unw_hi) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		do
			clock_gettime(CLOCK_MONOTONIC, &b);
		while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec -
			       a.tv_nsec < widen_ns);
	}
	return rc;
}

static int find_unwind(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	const char *base = strrchr(info->dlpi_name, '/');
	if (!base || strncmp(base + 1, "libunwind.so", 12) != 0)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			unw_lo = info->dlpi_addr + ph->p_vaddr;
			unw_hi = unw_lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

__attribute__((constructor)) static void lockwiden_init(void)
{
	const char *us = getenv("LOCKWIDEN_US");
	if (us && *us)
		widen_ns = atol(us) * 1000L;
	dl_iterate_phdr(find_unwind, NULL);
}
