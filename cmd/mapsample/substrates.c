/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrates: --substrate, MAPSAMPLE_SUBSTRATE_PLUGINS and
 * --list-substrates of the launcher (substrates.h).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/substrate.h>

#include "cmd/mapsample/substrates.h"
#include "common/trust.h"

#define PRE "libmapsample_substrate_"

#define NDIRS 5

/* The search directories, in order, into dirs (up to NDIRS). */
static size_t search_dirs(char dirs[NDIRS][PATH_MAX])
{
	size_t n = 0;
	const char *c = getenv("MAPSAMPLE_CONFIG_DIR");
	if (c && *c)
		snprintf(dirs[n++], PATH_MAX, "%s/substrates", c);
	const char *h = getenv("HOME");
	if (h && *h)
		snprintf(dirs[n++], PATH_MAX, "%s/.mapsample/substrates", h);
	char self[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (l > 0) {
		self[l] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			char probe[PATH_MAX + 64];
			snprintf(probe, sizeof(probe),
				 "%s/../../lib/sampler/libmapsampler.la", self);
			if (access(probe, F_OK) == 0) {
				snprintf(dirs[n++], PATH_MAX,
					 "%.4000s/../../plugins/substrates/.libs",
					 self);
				snprintf(dirs[n++], PATH_MAX,
					 "%.4000s/../../plugins/substrate-otf2/.libs",
					 self);
			}
		}
	}
	snprintf(dirs[n++], PATH_MAX, "%s/substrates", PKGLIBDIR);
	return n;
}

static int find(const char *item, char *out, size_t len)
{
	if (strchr(item, '/')) {
		if (!realpath(item, out) || access(out, R_OK))
			return -1;
		return 0;
	}
	char dirs[NDIRS][PATH_MAX];
	size_t n = search_dirs(dirs);
	for (size_t i = 0; i < n; i++) {
		char cand[PATH_MAX + 128];
		snprintf(cand, sizeof(cand), "%s/" PRE "%s.so", dirs[i], item);
		if (access(cand, R_OK) == 0 && realpath(cand, out))
			return 0;
	}
	(void)len;
	return -1;
}

static int add(char **list, const char *item)
{
	char path[PATH_MAX];
	char why[PATH_MAX + 256];
	if (find(item, path, sizeof(path)) == 0 &&
	    trust_path(path, why, sizeof(why))) {
		/* code another user could have written: never loaded */
		fprintf(stderr, "mapsample: --substrate %s: refusing to load "
				"%s: %s\n", item, path, why);
		return -1;
	}
	if (find(item, path, sizeof(path))) {
		if (strchr(item, '/'))
			fprintf(stderr, "mapsample: --substrate %s: no such "
					"file\n", item);
		else
			fprintf(stderr, "mapsample: --substrate %s: no " PRE
					"%s.so in $MAPSAMPLE_CONFIG_DIR/"
					"substrates, ~/.mapsample/substrates "
					"or %s/substrates; give its path or "
					"install it there (--list-substrates "
					"shows what is found)\n",
				item, item, PKGLIBDIR);
		return -1;
	}
	size_t l = (*list ? strlen(*list) + 1 : 0) + strlen(path) + 1;
	char *n = malloc(l);
	if (!n)
		return -1;
	snprintf(n, l, "%s%s%s", *list ? *list : "", *list ? "," : "", path);
	free(*list);
	*list = n;
	return 0;
}

int substrates_resolve(const char **opts, size_t n)
{
	char *list = NULL;
	const char *env = getenv("MAPSAMPLE_SUBSTRATE_PLUGINS");
	if (env && *env) {
		char *copy = strdup(env), *save = NULL;
		if (!copy)
			return -1;
		for (char *it = strtok_r(copy, ",", &save); it;
		     it = strtok_r(NULL, ",", &save))
			if (*it && add(&list, it)) {
				free(copy);
				free(list);
				return -1;
			}
		free(copy);
	}
	for (size_t i = 0; i < n; i++)
		if (add(&list, opts[i])) {
			free(list);
			return -1;
		}
	if (list)
		setenv("MAPSAMPLE_SUBSTRATE_PLUGINS", list, 1);
	else
		unsetenv("MAPSAMPLE_SUBSTRATE_PLUGINS");
	free(list);
	return 0;
}

int substrates_list(void)
{
	char dirs[NDIRS][PATH_MAX];
	size_t n = search_dirs(dirs);
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			if (strncmp(e->d_name, PRE, sizeof(PRE) - 1) || l < 4 ||
			    strcmp(e->d_name + l - 3, ".so"))
				continue;
			char name[256];
			snprintf(name, sizeof(name), "%.*s",
				 (int)(l - (sizeof(PRE) - 1) - 3),
				 e->d_name + sizeof(PRE) - 1);
			char path[PATH_MAX + 300], real[PATH_MAX];
			snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
			if (!realpath(path, real))
				continue;
			char why[PATH_MAX + 256];
			if (trust_path(real, why, sizeof(why))) {
				printf("%-20s %-9s %s (not loaded: %s)\n", name,
				       "-", real, why);
				continue;
			}
			void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
			char entry[300];
			snprintf(entry, sizeof(entry),
				 "mapsample_substrate_plugin_%s_get_info", name);
			mapsample_substrate_plugin_info (*get)(void) = NULL;
			if (h)
				*(void **)&get = dlsym(h, entry);
			if (!get) {
				printf("%-20s %-9s %s (%s)\n", name, "-", real,
				       h ? "no entry function" : dlerror());
			} else {
				mapsample_substrate_plugin_info info = get();
				printf("%-20s %-9u %s%s\n", name,
				       info.plugin_version, real,
				       info.plugin_version >
						       MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION
					       ? " (too new for this mapsample)"
					       : "");
			}
			found++;
		}
		closedir(d);
	}
	if (!found)
		printf("no substrate plugins found\n");
	return 0;
}
