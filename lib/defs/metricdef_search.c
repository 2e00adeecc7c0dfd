/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef_search.c: where metric definition files are found
 * (mapsample-metrics(5), FILES): the --metrics-dir directories,
 * $MAPSAMPLE_CONFIG_DIR/metrics,
 * Arm MAP's $ALLINEA_CONFIG_DIR/map/metrics (default ~/.allinea), then
 * ~/.mapsample/metrics and the installed $(pkgdatadir)/metrics; in each,
 * the *.xml files in name order.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "common/trust.h"
#include "defs/metricdef_i.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/mapsample"
#endif

void metricdef_free_dirs(struct metricdef_dir *dirs, size_t n)
{
	for (size_t i = 0; dirs && i < n; i++)
		free(dirs[i].sd_path);
	free(dirs);
}

int metricdef_search_dirs(const struct metricdef_search *sp,
			  struct metricdef_dir **dirs, size_t *n)
{
	struct xmlcheck_dirs d = {0};
	size_t nexplicit;
	int rc = 0;

	if (!dirs || !n)
		return MAPS_EINVAL;
	*dirs = NULL;
	*n = 0;
	for (size_t i = 0; sp && i < sp->sp_ndirs && !rc; i++)
		rc = xmlcheck_dirs_add(&d, sp->sp_dirs[i], NULL,
				       "--metrics-dir");
	nexplicit = d.ds_n;
	if (!rc)
		rc = xmlcheck_config_dirs(&d, "metrics", "map/metrics");
	if (!rc && sp && sp->sp_installed)
		rc = xmlcheck_dirs_add(&d, sp->sp_installed, NULL, "installed");
	else if (!rc)
		rc = xmlcheck_dirs_add(&d, PKGDATADIR, "metrics", "installed");
	if (!rc && d.ds_n && !(*dirs = calloc(d.ds_n, sizeof(**dirs))))
		rc = MAPS_ENOMEM;
	if (rc) {
		xmlcheck_dirs_free(&d, false);
		return rc;
	}
	for (size_t i = 0; i < d.ds_n; i++) {
		(*dirs)[i].sd_path = d.ds_v[i].dr_path;
		(*dirs)[i].sd_origin = d.ds_v[i].dr_origin;
		(*dirs)[i].sd_explicit = i < nexplicit;
	}
	*n = d.ds_n;
	xmlcheck_dirs_free(&d, true);
	return 0;
}

void metricdef_free_files(char **files, size_t n)
{
	xmlcheck_names_free(files, n);
}

/* Appends the definition files of sd to *files (of *n, capacity *cap),
 * in name order; a folder that cannot be read is reported in md. */
static int list_dir(struct metricdef *md, const struct metricdef_dir *sd,
		    char ***files, size_t *n, size_t *cap)
{
	char **names;
	size_t nnames;
	char why[PATH_MAX + 256];
	struct metricdef_pos nowhere = {0, 0};
	if (trust_path(sd->sd_path, why, sizeof(why))) {
		if (md)
			metricdef_diag(md, NULL, sd->sd_path, nowhere,
				       METRICDEF_WARNING, METRICDEF_R_UNSAFE,
				       NULL, "not searched: %s", why);
		return 0;
	}
	int rc = xmlcheck_xml_names(sd->sd_path, &names, &nnames);

	if (rc == MAPS_EIO) {
		int err = errno;
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
	for (size_t i = 0; !rc && i < nnames; i++) {
		char *path;
		if (mem_grow(files, cap, *n, sizeof(**files)) ||
		    asprintf(&path, "%s/%s", sd->sd_path, names[i]) < 0) {
			rc = MAPS_ENOMEM;
		} else if (trust_path(path, why, sizeof(why))) {
			if (md)
				metricdef_diag(md, NULL, path, nowhere,
					       METRICDEF_WARNING,
					       METRICDEF_R_UNSAFE, NULL,
					       "not loaded: %s", why);
			free(path);
		} else {
			(*files)[(*n)++] = path;
		}
	}
	xmlcheck_names_free(names, nnames);
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
	if (md) {
		metricdef_publish(md);
		if (md->md_oom)
			rc = MAPS_ENOMEM;
	}
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
