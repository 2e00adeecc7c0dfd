/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dlsearch: dlopen() on behalf of the code that called our dlopen
 * wrapper (interpose.c).
 *
 * glibc's dlopen takes the calling object from its return address, and
 * two things depend on it: a bare name is searched in the caller's
 * DT_RPATH chain (when it has no DT_RUNPATH), then LD_LIBRARY_PATH, then
 * the caller's DT_RUNPATH, then ld.so.cache and the system directories;
 * and $ORIGIN in the name stands for the caller's directory.  A wrapper
 * that calls dlopen becomes the caller, so a program that finds its
 * plugins through its own RUNPATH or $ORIGIN would fail to load them
 * under the sampler (ASan, uftrace and heaptrack hit the same trap).
 *
 * DESIGN NOTES
 *   Where nothing depends on the caller (no $ORIGIN in the name, and the
 *   caller's search list is ours), the name goes to dlopen unchanged.
 *   Otherwise the steps glibc takes for the caller are taken here:
 *   $ORIGIN is replaced by the caller's directory (glibc's l_origin: the
 *   directory of the path the object was opened by, or of
 *   /proc/self/exe for the program); a name that an object already
 *   loaded answers to (its path, a name it was opened by, its soname)
 *   gets that object, as dlopen checks before any search
 *   (RTLD_NOLOAD); then the caller's search list (dlinfo
 *   RTLD_DI_SERINFO: the RPATH chain, LD_LIBRARY_PATH, the RUNPATH, in
 *   glibc's order) is searched up to the directories it shares at its
 *   end with ours (the system directories), skipping files that are not
 *   ELF objects of this machine, as glibc does; the first hit is opened
 *   by its path.  What is left (ld.so.cache, the system directories) is
 *   the same for every caller: dlopen of the bare name.
 *
 *   Not reproduced: glibc-hwcaps subdirectories of RPATH and RUNPATH
 *   directories (glibc 2.36's RTLD_DI_SERINFO does not list them), and
 *   the program's DT_RPATH, which glibc skips for a caller that has a
 *   DT_RUNPATH and searches for us.  Callers in other link-map
 *   namespaces never reach the wrapper (preloaded objects are in the
 *   base namespace only).
 *
 *   Not async-signal-safe (dlopen never is): it allocates and takes the
 *   loader's locks.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

/* The search list of the object with link map lm, or NULL. */
static Dl_serinfo *search_list(struct link_map *lm)
{
	Dl_serinfo size;
	if (dlinfo(lm, RTLD_DI_SERINFOSIZE, &size))
		return NULL;
	Dl_serinfo *si = malloc(size.dls_size);
	if (!si)
		return NULL;
	*si = size;
	if (dlinfo(lm, RTLD_DI_SERINFO, si)) {
		free(si);
		return NULL;
	}
	return si;
}

/* Entries of a, from its start, that precede the tail a shares with b. */
static unsigned own_prefix(const Dl_serinfo *a, const Dl_serinfo *b)
{
	unsigned i = a->dls_cnt, j = b->dls_cnt;
	while (i > 0 && j > 0 &&
	       strcmp(a->dls_serpath[i - 1].dls_name,
		      b->dls_serpath[j - 1].dls_name) == 0) {
		i--;
		j--;
	}
	return i;
}

/* Is path an ELF object dlopen could load on this machine?  glibc skips
 * other files it meets in a search directory and goes on. */
static int loadable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ElfW(Ehdr) eh;
	ssize_t n = read(fd, &eh, sizeof(eh));
	close(fd);
	return n == (ssize_t)sizeof(eh) &&
	       memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
#if __SIZEOF_POINTER__ == 8
	       eh.e_ident[EI_CLASS] == ELFCLASS64 &&
#else
	       eh.e_ident[EI_CLASS] == ELFCLASS32 &&
#endif
#if defined(__x86_64__)
	       eh.e_machine == EM_X86_64 &&
#elif defined(__aarch64__)
	       eh.e_machine == EM_AARCH64 &&
#endif
	       eh.e_type == ET_DYN;
}

/* The directory $ORIGIN stands for in a name dlopen'd by lm, in buf. */
static int origin_of(const struct link_map *lm, char *buf, size_t cap)
{
	size_t n;
	if (!lm->l_name || !lm->l_name[0]) {
		ssize_t r = readlink("/proc/self/exe", buf, cap - 1);
		if (r <= 0)
			return -1;
		n = (size_t)r;
	} else if (lm->l_name[0] == '/') {
		n = strlen(lm->l_name);
		if (n >= cap)
			return -1;
		memcpy(buf, lm->l_name, n);
	} else {
		/* opened by a relative path: glibc made it absolute with
		 * the working directory of that moment; ours is the best
		 * we have */
		if (!getcwd(buf, cap))
			return -1;
		size_t c = strlen(buf), l = strlen(lm->l_name);
		if (c + 1 + l >= cap)
			return -1;
		buf[c] = '/';
		memcpy(buf + c + 1, lm->l_name, l);
		n = c + 1 + l;
	}
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	if (slash == buf)
		slash[1] = 0; /* "/x": the origin is "/" */
	else
		*slash = 0;
	return 0;
}

/* name with $ORIGIN and ${ORIGIN} (as dlopen reads them: $ORIGIN ends
 * at a '/' or the end) replaced by origin; NULL when name has neither
 * or on failure to allocate.  Other substitutions ($LIB, $PLATFORM) do
 * not depend on the caller and are left to dlopen. */
static char *expand_origin(const char *name, const struct link_map *lm)
{
	if (!strstr(name, "$ORIGIN") && !strstr(name, "${ORIGIN}"))
		return NULL;
	char origin[4096];
	if (origin_of(lm, origin, sizeof(origin)))
		return NULL;
	size_t ol = strlen(origin), cap = strlen(name) + 1, n = 0;
	for (const char *p = name; *p; p++)
		if (*p == '$')
			cap += ol;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	for (const char *p = name; *p;) {
		size_t skip = 0;
		if (strncmp(p, "${ORIGIN}", 9) == 0)
			skip = 9;
		else if (strncmp(p, "$ORIGIN", 7) == 0 &&
			 (p[7] == '/' || p[7] == 0))
			skip = 7;
		if (skip) {
			memcpy(out + n, origin, ol);
			n += ol;
			p += skip;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = 0;
	return out;
}

void *dlsearch_open(const void *caller, const char *file, int mode,
		    void *(*open_fn)(const char *, int))
{
	Dl_info info;
	struct link_map *lm = NULL, *self = NULL;
	if (!file || !caller ||
	    !dladdr1(caller, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm ||
	    !dladdr1((const void *)&dlsearch_open, &info, (void **)&self,
		     RTLD_DL_LINKMAP) ||
	    !self || lm == self)
		return open_fn(file, mode);

	char *expanded = expand_origin(file, lm);
	if (expanded) {
		void *h = open_fn(expanded, mode);
		free(expanded);
		return h;
	}
	if (strchr(file, '/'))
		return open_fn(file, mode); /* a path: no search */

	Dl_serinfo *theirs = search_list(lm), *ours = search_list(self);
	unsigned own = theirs && ours ? own_prefix(theirs, ours) : 0;
	void *h = NULL;
	if (own == 0)
		goto plain; /* the search is the same from here */
	/* an object already loaded under this name wins over any search */
	h = open_fn(file, mode | RTLD_NOLOAD);
	if (h)
		goto out;
	size_t fl = strlen(file);
	for (unsigned i = 0; i < own; i++) {
		const char *dir = theirs->dls_serpath[i].dls_name;
		size_t dl = strlen(dir);
		char *path = malloc(dl + 1 + fl + 1);
		if (!path)
			break;
		memcpy(path, dir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, file, fl + 1);
		if (loadable(path)) {
			h = open_fn(path, mode);
			free(path);
			goto out; /* found: its result, whatever it is */
		}
		free(path);
	}
plain:
	h = open_fn(file, mode);
out:
	free(theirs);
	free(ours);
	return h;
}
