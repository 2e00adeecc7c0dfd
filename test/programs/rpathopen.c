/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpathopen: dlopen() as the library search rules make it depend on the
 * caller, for the mapsample tests (a sampler that wraps dlopen must not
 * change what a program loads).  Linked with a DT_RUNPATH of
 * $ORIGIN/.libs, where libtool builds libdlwork and libdlopener.
 *
 *   rpathopen exe NAME      dlopen(NAME) from this program
 *   rpathopen lib NAME      dlopen("libdlopener.so"), then NAME through
 *                           dlopener_open(): the library's own RUNPATH
 *   rpathopen ns NAME       the same with libdlopener in a new link-map
 *                           namespace (dlmopen): NAME must load there
 *
 * NAME is searched (a bare name) or expanded ($ORIGIN/...) by the rules
 * of dlopen(3).  The loaded library's dlwork_burn runs for MILLIONS
 * million iterations (third argument, default 100).  Prints
 * "rpathopen: MODE: loaded PATH (namespace N)" and exits 0, or prints
 * dlerror() and exits 1.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long (*burn_fn)(unsigned long);
typedef void *(*open_fn)(const char *);

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: rpathopen exe|lib|ns NAME [MILLIONS]\n");
		return 2;
	}
	const char *mode = argv[1], *name = argv[2];
	unsigned long n = (argc > 3 ? strtoul(argv[3], NULL, 10) : 100) * 1000000ul;
	void *h;
	if (strcmp(mode, "exe") == 0) {
		h = dlopen(name, RTLD_NOW);
	} else {
		void *lib = strcmp(mode, "ns") == 0
				    ? dlmopen(LM_ID_NEWLM, "libdlopener.so", RTLD_NOW)
				    : dlopen("libdlopener.so", RTLD_NOW);
		if (!lib) {
			fprintf(stderr, "rpathopen: %s: libdlopener.so: %s\n", mode, dlerror());
			return 1;
		}
		open_fn op = (open_fn)dlsym(lib, "dlopener_open");
		if (!op) {
			fprintf(stderr, "rpathopen: %s: dlopener_open: %s\n", mode, dlerror());
			return 1;
		}
		h = op(name);
	}
	if (!h) {
		fprintf(stderr, "rpathopen: %s: %s: %s\n", mode, name, dlerror());
		return 1;
	}
	burn_fn burn = (burn_fn)dlsym(h, "dlwork_burn");
	struct link_map *lm = NULL;
	Lmid_t ns = -1;
	if (!burn || dlinfo(h, RTLD_DI_LINKMAP, &lm) || dlinfo(h, RTLD_DI_LMID, &ns)) {
		fprintf(stderr, "rpathopen: %s: %s: %s\n", mode, name, dlerror());
		return 1;
	}
	sink = burn(n);
	printf("rpathopen: %s: loaded %s (namespace %ld)\n", mode, lm->l_name, (long)ns);
	return 0;
}
