/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libmapsample-mark: the calls of <mapsample/mark.h> as calls that do
 * nothing, for programs that mark phases and must also run without
 * mapsample.  Under mapsample, libmapsampler.so (preloaded, so looked up
 * first) defines the same names and records the marks
 * (lib/sampler/marks.c); these definitions are then never called.
 * Async-signal-safe (they do nothing).
 */
#include <mapsample/mark.h>

#define MARK_EXPORT __attribute__((visibility("default")))

MARK_EXPORT void mapsample_mark(const char *name)
{
	(void)name;
}

MARK_EXPORT void mapsample_region_begin(const char *name)
{
	(void)name;
}

MARK_EXPORT void mapsample_region_end(void)
{
}
