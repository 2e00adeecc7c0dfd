/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libstepcount: counts libunwind's step walk, for mapsample-basic.sh.
 * Preloaded after the sampler, it defines _ULx86_64_step (what
 * unw_step() is called in the local unwinder), forwards every call to
 * libunwind's and counts it; at exit it prints "stepcount: N" on
 * standard error.  libunwind's fast trace needs no step for a frame it
 * has seen before, so under a sampler whose fast trace works the count
 * stays far below the samples taken, while a fast trace that falls back
 * to the step walk costs one step per frame of every sample.
 *
 * Counting is async-signal-safe (one atomic add); the forwarder is
 * looked up in the constructor, before any sampling signal.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef int (*step_fn)(void *cursor);

static step_fn real_step;
static unsigned long steps;

__attribute__((visibility("default"))) int _ULx86_64_step(void *cursor);

int _ULx86_64_step(void *cursor)
{
	__atomic_fetch_add(&steps, 1, __ATOMIC_RELAXED);
	return real_step ? real_step(cursor) : -1;
}

__attribute__((constructor)) static void stepcount_init(void)
{
	real_step = (step_fn)dlsym(RTLD_NEXT, "_ULx86_64_step");
}

__attribute__((destructor)) static void stepcount_fini(void)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "stepcount: %lu\n",
			 __atomic_load_n(&steps, __ATOMIC_RELAXED));
	if (n > 0 && write(2, line, (size_t)n) < 0)
		return;
}
