/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <mapsample/mark.h>: marks and regions a program sets itself, recorded
 * in the mapsample log with the calling thread and the time
 * (mapsample_mark(3)).  A program calls these from any thread, from
 * signal handlers too, and runs unchanged without mapsample:
 *
 *   - linked with -lmapsample-mark (pkg-config mapsample-mark): the
 *     installed library defines all three as calls that do nothing; under
 *     mapsample the preloaded sampler defines the same names and its
 *     definitions are the ones the program calls.  This is the way for
 *     C, C++ and Fortran (through BIND(C) interfaces to these names);
 *   - or, in C and C++, with MAPSAMPLE_MARK_WEAK defined before this
 *     header and no library at all: the names are weak references, and
 *     each call goes through only when the sampler is loaded.
 *
 * Regions nest per thread: mapsample_region_end() ends the innermost
 * region the calling thread began.  Names are copied when the call is
 * made (at most MAPSAMPLE_MARK_NAME_MAX bytes are kept).
 */
#ifndef MAPSAMPLE_MARK_H
#define MAPSAMPLE_MARK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a name the log keeps; longer names are cut. */
#define MAPSAMPLE_MARK_NAME_MAX 200

/* Records a point mark called name at this time on this thread. */
void mapsample_mark(const char *name);
/* Records that the calling thread enters the region called name. */
void mapsample_region_begin(const char *name);
/* Records that the calling thread leaves the innermost region it
 * entered (an end with no region open is counted and ignored). */
void mapsample_region_end(void);

#if defined(MAPSAMPLE_MARK_WEAK) && defined(__GNUC__)
#pragma weak mapsample_mark
#pragma weak mapsample_region_begin
#pragma weak mapsample_region_end
/* A weak reference is null when no loaded object defines the name. */
#define mapsample_mark(name) \
	((mapsample_mark) ? (mapsample_mark)(name) : (void)0)
#define mapsample_region_begin(name) \
	((mapsample_region_begin) ? (mapsample_region_begin)(name) : (void)0)
#define mapsample_region_end() \
	((mapsample_region_end) ? (mapsample_region_end)() : (void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif
