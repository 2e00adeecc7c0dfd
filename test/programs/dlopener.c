/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdlopener: a library with a DT_RUNPATH of its own ($ORIGIN, where
 * libtool puts the test modules) whose dlopener_open() calls dlopen(), so
 * that the library search and $ORIGIN are this library's, not its
 * caller's (test/programs/rpathopen).
 */
#include <dlfcn.h>

#define EXPORT __attribute__((visibility("default"), noinline, noclone))

EXPORT void *dlopener_open(const char *name);

void *dlopener_open(const char *name)
{
	return dlopen(name, RTLD_NOW);
}
