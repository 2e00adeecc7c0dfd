/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jobdir: folders of logs on mapreport's command line (jobdir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/mapreport/jobdir.h"

/* The expanded lists (one per call: --compare's BASE and NEW each have
 * one), for the life of the program. */
struct kept_list {
	char **logs;
	size_t n;
};
static struct kept_list *kept;
static size_t nkept;

/* At exit: the expanded lists go. */
static void free_kept(void)
{
	for (size_t k = 0; k < nkept; k++) {
		for (size_t i = 0; i < kept[k].n; i++)
			free(kept[k].logs[i]);
		free(kept[k].logs);
	}
	free(kept);
	kept = NULL;
	nkept = 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_log_name(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && l > 7 && strcmp(n + l - 7, ".maplog") == 0;
}

/* Appends the logs of folder dir to out (*n of *cap).  Returns the number
 * added, -1 out of memory, -2 the folder cannot be read (errno). */
static long add_folder(const char *dir, char ***out, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return -2;
	size_t first = *n;
	struct dirent *e;
	size_t dl = strlen(dir);
	int slash = dl && dir[dl - 1] == '/';
	while ((e = readdir(d))) {
		if (!is_log_name(e->d_name))
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 64;
			char **g = realloc(*out, nc * sizeof(*g));
			if (!g) {
				closedir(d);
				return -1;
			}
			*out = g;
			*cap = nc;
		}
		size_t l = dl + strlen(e->d_name) + 2;
		char *p = malloc(l);
		if (!p) {
			closedir(d);
			return -1;
		}
		snprintf(p, l, "%s%s%s", dir, slash ? "" : "/", e->d_name);
		/* only files: a folder named x.maplog is not a log */
		struct stat sb;
		if (stat(p, &sb) || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		(*out)[(*n)++] = p;
	}
	closedir(d);
	if (*n > first)
		qsort(*out + first, *n - first, sizeof(**out), by_name);
	return (long)(*n - first);
}

int jobdir_expand(const char *const **logs, size_t *nlogs)
{
	int any = 0;
	for (size_t i = 0; i < *nlogs && !any; i++) {
		struct stat sb;
		any = stat((*logs)[i], &sb) == 0 && S_ISDIR(sb.st_mode);
	}
	if (!any)
		return 0;
	char **out = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < *nlogs; i++) {
		const char *p = (*logs)[i];
		struct stat sb;
		if (stat(p, &sb) || !S_ISDIR(sb.st_mode)) {
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 64;
				char **g = realloc(out, nc * sizeof(*g));
				if (!g)
					goto oom;
				out = g;
				cap = nc;
			}
			if (!(out[n] = strdup(p)))
				goto oom;
			n++;
			continue;
		}
		long got = add_folder(p, &out, &n, &cap);
		if (got == -1)
			goto oom;
		if (got == -2) {
			fprintf(stderr, "mapreport: %s: cannot read the folder: "
					"%s\n", p, strerror(errno));
			goto usage;
		}
		if (got == 0) {
			fprintf(stderr, "mapreport: %s: a folder with no "
					"mapsample log (*.maplog) in it; give "
					"the folder of a job's logs, or logs\n",
				p);
			goto usage;
		}
	}
	struct kept_list *g = realloc(kept, (nkept + 1) * sizeof(*g));
	if (!g)
		goto oom;
	kept = g;
	kept[nkept++] = (struct kept_list){out, n};
	if (nkept == 1)
		atexit(free_kept);
	*logs = (const char *const *)out;
	*nlogs = n;
	return 0;
oom:
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);
	return -1;
usage:
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);
	return 2;
}
