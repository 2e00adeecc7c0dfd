/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * search.c: where metric definition files are found (mapsample-metrics(5),
 * FILES): the --metrics-dir directories, $MAPSAMPLE_CONFIG_DIR/metrics,
 * Arm MAP's $ALLINEA_CONFIG_DIR/map/metrics (default ~/.allinea), then
 * ~/.mapsample/metrics and the installed $(pkgdatadir)/metrics; in each,
 * the *.xml files in name order.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef_i.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/mapsample"
#endif

/* The user's home directory: $HOME, else the password database; NULL
 * when neither says. */
static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;
	if (h && *h)
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

struct dirs {
	struct metricdef_dir *v;
	size_t n, cap;
	char **real; /* realpath of each, NULL when it does not exist */
};

/* Adds base/sub (sub may be NULL) unless the same directory is there. */
static int add_dir(struct dirs *d, const char *base, const char *sub,
		   const char *origin, bool explicit_dir)
{
	char *path, *real;
	if (!base || !*base)
		return 0;
	if (sub) {
		size_t bl = strlen(base);
		while (bl > 1 && base[bl - 1] == '/')
			bl--;
		if (asprintf(&path, "%.*s/%s", (int)bl, base, sub) < 0)
			return MAPS_ENOMEM;
	} else if (!(path = strdup(base))) {
		return MAPS_ENOMEM;
	}
	real = realpath(path, NULL);
	for (size_t i = 0; i < d->n; i++) {
		if ((real && d->real[i] && !strcmp(real, d->real[i])) ||
		    !strcmp(path, d->v[i].sd_path)) {
			free(path);
			free(real);
			return 0;
		}
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		struct metricdef_dir *v = realloc(d->v, cap * sizeof(*v));
		char **r;
		if (!v)
			goto nomem;
		d->v = v;
		r = realloc(d->real, cap * sizeof(*r));
		if (!r)
			goto nomem;
		d->real = r;
		d->cap = cap;
	}
	d->v[d->n].sd_path = path;
	d->v[d->n].sd_origin = origin;
	d->v[d->n].sd_explicit = explicit_dir;
	d->real[d->n] = real;
	d->n++;
	return 0;
nomem:
	free(path);
	free(real);
	return MAPS_ENOMEM;
}

void metricdef_free_dirs(struct metricdef_dir *dirs, size_t n)
{
	for (size_t i = 0; dirs && i < n; i++)
		free(dirs[i].sd_path);
	free(dirs);
}

int metricdef_search_dirs(const struct metricdef_search *sp,
			  struct metricdef_dir **dirs, size_t *n)
{
	struct dirs d = {0};
	const char *v, *home = home_dir();
	int rc = 0;

	if (!dirs || !n)
		return MAPS_EINVAL;
	*dirs = NULL;
	*n = 0;
	for (size_t i = 0; sp && i < sp->sp_ndirs && !rc; i++)
		rc = add_dir(&d, sp->sp_dirs[i], NULL, "--metrics-dir", true);
	if (!rc)
		rc = add_dir(&d, getenv("MAPSAMPLE_CONFIG_DIR"), "metrics",
			     "$MAPSAMPLE_CONFIG_DIR", false);
	if (!rc) {
		v = getenv("ALLINEA_CONFIG_DIR");
		if (v && *v)
			rc = add_dir(&d, v, "map/metrics",
				     "$ALLINEA_CONFIG_DIR", false);
		else if (home)
			rc = add_dir(&d, home, ".allinea/map/metrics",
				     "~/.allinea", false);
	}
	if (!rc && home)
		rc = add_dir(&d, home, ".mapsample/metrics", "~/.mapsample",
			     false);
	if (!rc) {
		if (sp && sp->sp_installed)
			rc = add_dir(&d, sp->sp_installed, NULL, "installed",
				     false);
		else
			rc = add_dir(&d, PKGDATADIR, "metrics", "installed",
				     false);
	}
	for (size_t i = 0; i < d.n; i++)
		free(d.real[i]);
	free(d.real);
	if (rc) {
		metricdef_free_dirs(d.v, d.n);
		return rc;
	}
	*dirs = d.v;
	*n = d.n;
	return 0;
}

void metricdef_free_files(char **files, size_t n)
{
	for (size_t i = 0; files && i < n; i++)
		free(files[i]);
	free(files);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_definition_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".xml");
}

/* Appends the definition files of dir to *files, sorted. */
static int list_dir(struct metricdef *md, const struct metricdef_dir *sd,
		    char ***files, size_t *n, size_t *cap)
{
	DIR *dir = opendir(sd->sd_path);
	struct dirent *de;
	size_t first = *n;
	int rc = 0;

	if (!dir) {
		int err = errno;
		struct metricdef_pos nowhere = {0, 0};
		if (!md)
			return 0;
		if (sd->sd_explicit)
			metricdef_diag(md, NULL, sd->sd_path, nowhere,
				       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
				       "--metrics-dir directory cannot be "
				       "read: %s; give a directory of metric "
				       "definition files", strerror(err));
		else if (err != ENOENT && err != ENOTDIR)
			metricdef_diag(md, NULL, sd->sd_path, nowhere,
				       METRICDEF_WARNING, METRICDEF_R_IO, NULL,
				       "cannot be read: %s; the metric "
				       "definitions there (%s) are not loaded",
				       strerror(err), sd->sd_origin);
		return 0;
	}
	while ((de = readdir(dir))) {
		struct stat sb;
		char *path;
		if (!is_definition_name(de->d_name))
			continue;
		if (asprintf(&path, "%s/%s", sd->sd_path, de->d_name) < 0) {
			rc = MAPS_ENOMEM;
			break;
		}
		if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
			free(path);
			continue;
		}
		if (*n == *cap) {
			size_t ncap = *cap ? 2 * *cap : 16;
			char **v = realloc(*files, ncap * sizeof(*v));
			if (!v) {
				free(path);
				rc = MAPS_ENOMEM;
				break;
			}
			*files = v;
			*cap = ncap;
		}
		(*files)[(*n)++] = path;
	}
	closedir(dir);
	if (*n - first > 1)
		qsort(*files + first, *n - first, sizeof(**files), by_name);
	return rc;
}

int metricdef_search_files(struct metricdef *md,
			   const struct metricdef_search *sp,
			   char ***files, size_t *n)
{
	struct metricdef_dir *dirs;
	size_t ndirs, cap = 0;
	int rc;

	if (!files || !n)
		return MAPS_EINVAL;
	*files = NULL;
	*n = 0;
	rc = metricdef_search_dirs(sp, &dirs, &ndirs);
	for (size_t i = 0; !rc && i < ndirs; i++)
		rc = list_dir(md, &dirs[i], files, n, &cap);
	metricdef_free_dirs(dirs, ndirs);
	if (md && md->md_oom)
		rc = MAPS_ENOMEM;
	if (rc) {
		metricdef_free_files(*files, *n);
		*files = NULL;
		*n = 0;
	}
	return rc;
}

int metricdef_load_search_path(struct metricdef *md,
			       const struct metricdef_search *sp)
{
	char **files;
	size_t n;
	int rc;
	if (!md)
		return MAPS_EINVAL;
	rc = metricdef_search_files(md, sp, &files, &n);
	for (size_t i = 0; !rc && i < n; i++)
		rc = metricdef_load_file(md, files[i]);
	metricdef_free_files(files, n);
	if (!rc)
		rc = metricdef_finish(md);
	return rc;
}
