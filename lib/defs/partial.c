/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial.c: a set of partial report definitions (partial.h): where they
 * are found (reference sections 3.2, 3.3; mapreport(1)), loading files
 * and folders, and the set's diagnostics.  Reading one file and its
 * rules is partial_parse.c's; the plain text of <text> partial_plain.c's;
 * values are computed in lib/report/partial_eval.c.
 *
 * DESIGN NOTES
 *   Every file loaded, or folder that could not be, is one entry of
 *   ps_files and one file of the diagnostics log (the XML-checking
 *   core's, xmlcheck.h), at the same index.  Each public function sorts
 *   the log and shows it in ps_diags and the counts before it returns
 *   (partial_publish()).  Out of memory is sticky (ps_oom).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "defs/partial_i.h"

/* ------------------------------------------------------------------ */
/* Diagnostics */

/* Adds a diagnostic about file fi of ps (its index in ps_files) at pos
 * (line 0: the whole file), about element el (NULL: none). */
__attribute__((format(printf, 7, 8)))
static void diag(struct partial_set *ps, size_t fi, struct ppos pos,
		 enum partial_severity sev, enum partial_rule rule,
		 const char *el, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xmlcheck_vreport(ps->ps_log, (int)fi, ps->ps_files[fi].pf_path,
			 (struct xmlcheck_pos){pos.line, pos.col},
			 sev == PARTIAL_WARNING ? XMLCHECK_WARNING
						 : XMLCHECK_ERROR,
			 (int)rule, el, fmt, ap);
	va_end(ap);
}

/* Sorts the log and shows it, and the counts, in ps's public fields. */
static void publish(struct partial_set *ps)
{
	const struct xmlcheck_log *lg = ps->ps_log;
	xmlcheck_log_sort(ps->ps_log);
	ps->ps_nerrors = lg->lg_all.xn_errors;
	ps->ps_nwarnings = lg->lg_all.xn_warnings;
	for (size_t i = 0; i < ps->ps_nfiles; i++) {
		ps->ps_files[i].pf_nerrors = lg->lg_files[i].xn_errors;
		ps->ps_files[i].pf_nwarnings = lg->lg_files[i].xn_warnings;
	}
	if (mem_reserve(&ps->ps_diags, &ps->ps_capdiags, lg->lg_ndiags,
			sizeof(*ps->ps_diags), 0)) {
		ps->ps_oom = true;
		return;
	}
	for (size_t i = 0; i < lg->lg_ndiags; i++) {
		const struct xmlcheck_diag *x = &lg->lg_diags[i];
		ps->ps_diags[i] = (struct partial_diag){
			x->xd_severity == XMLCHECK_WARNING ? PARTIAL_WARNING
							   : PARTIAL_ERROR,
			(enum partial_rule)x->xd_rule, x->xd_file, x->xd_line,
			x->xd_col, x->xd_text};
	}
	ps->ps_ndiags = lg->lg_ndiags;
}

/* ------------------------------------------------------------------ */
/* The set */

struct partial_set *partial_set_new(void)
{
	struct partial_set *ps = calloc(1, sizeof(*ps));
	if (ps && !(ps->ps_log = xmlcheck_log_new(PARTIAL_MAX_DIAGS,
						  PARTIAL_R_LIMIT,
						  &ps->ps_oom))) {
		free(ps);
		return NULL;
	}
	return ps;
}

void partial_set_free(struct partial_set *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->ps_nfiles; i++)
		free(ps->ps_files[i].pf_path);
	for (size_t i = 0; i < ps->ps_ndefs; i++)
		partial_def_free(ps->ps_defs[i]);
	free(ps->ps_files);
	free(ps->ps_diags);     /* its strings are the log's */
	free(ps->ps_defs);
	xmlcheck_log_free(ps->ps_log);
	free(ps);
}

/* Adds a file named path to ps and to its log; returns its index, or
 * MAPS_ENOMEM. */
static long begin_file(struct partial_set *ps, const char *path)
{
	struct partial_file *pf = xmlcheck_push(&ps->ps_oom, &ps->ps_files,
						&ps->ps_capfiles,
						&ps->ps_nfiles, sizeof(*pf));
	if (!pf)
		return MAPS_ENOMEM;
	if (!(pf->pf_path = strdup(path)) ||
	    xmlcheck_log_file(ps->ps_log) < 0) {
		/* the entry and the log's file stay at the same index */
		free(pf->pf_path);
		ps->ps_nfiles--;
		ps->ps_oom = true;
		return MAPS_ENOMEM;
	}
	return (long)ps->ps_nfiles - 1;
}

int partial_load_buffer(struct partial_set *ps, const char *name,
			const void *buf, size_t len)
{
	long fi;
	if (!ps || !name || (!buf && len))
		return MAPS_EINVAL;
	if ((fi = begin_file(ps, name)) >= 0)
		partial_parse(ps, (size_t)fi, buf ? buf : "", len);
	publish(ps);
	return ps->ps_oom ? MAPS_ENOMEM : 0;
}

static int load_file(struct partial_set *ps, const char *path,
		     const char *origin)
{
	char *buf = NULL;
	size_t len = 0;
	long fi = begin_file(ps, path);
	int rc;
	if (fi < 0)
		return MAPS_ENOMEM;
	rc = xmlcheck_read_file(path, PARTIAL_MAX_FILE_SIZE, &buf, &len);
	if (rc == MAPS_ENOMEM)
		ps->ps_oom = true;
	else if (rc && errno == EFBIG)
		partial_too_large(ps, (size_t)fi);
	else if (rc)
		diag(ps, (size_t)fi, (struct ppos){0, 0}, PARTIAL_ERROR,
		     PARTIAL_R_IO, NULL,
		     "cannot be read: %s; check the path given by %s",
		     strerror(errno), origin);
	else
		partial_parse(ps, (size_t)fi, buf, len);
	free(buf);
	return ps->ps_oom ? MAPS_ENOMEM : 0;
}

/* A diagnostic about folder dir, as an entry of ps_files of its own. */
static void folder_diag(struct partial_set *ps, const char *dir,
			enum partial_severity sev, const char *what,
			const char *origin)
{
	long fi = begin_file(ps, dir);
	if (fi >= 0)
		diag(ps, (size_t)fi, (struct ppos){0, 0}, sev, PARTIAL_R_IO,
		     NULL, "%s; check the path given by %s", what, origin);
}

/* Loads the *.xml files of folder dir in name order.  quiet: a folder
 * that cannot be read, or holds no such file, is no diagnostic. */
static int load_dir(struct partial_set *ps, const char *dir,
		    const char *origin, bool quiet)
{
	char **names, what[256];
	size_t n;
	int rc = xmlcheck_xml_names(dir, &names, &n);

	if (rc == MAPS_EIO) {
		int err = errno;
		if (quiet && (err == ENOENT || err == ENOTDIR))
			return 0;
		snprintf(what, sizeof(what), "folder cannot be read: %s",
			 strerror(err));
		folder_diag(ps, dir, PARTIAL_ERROR, what, origin);
		return ps->ps_oom ? MAPS_ENOMEM : 0;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
		char *path;
		if (asprintf(&path, "%s%s%s", dir, sep, names[i]) < 0) {
			rc = MAPS_ENOMEM;
			break;
		}
		rc = load_file(ps, path, origin);
		free(path);
	}
	xmlcheck_names_free(names, n);
	if (!rc && !n && !quiet)
		folder_diag(ps, dir, PARTIAL_WARNING,
			    "folder holds no *.xml file, so no partial report "
			    "is loaded from it", origin);
	if (rc == MAPS_ENOMEM)
		ps->ps_oom = true;
	return ps->ps_oom ? MAPS_ENOMEM : rc;
}

int partial_load_path(struct partial_set *ps, const char *path,
		      const char *origin)
{
	struct stat sb;
	int rc;
	if (!ps || !path || !origin)
		return MAPS_EINVAL;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		rc = load_dir(ps, path, origin, false);
	else
		rc = load_file(ps, path, origin);
	publish(ps);
	return ps->ps_oom ? MAPS_ENOMEM : rc;
}

/* ------------------------------------------------------------------ */
/* Where definitions are found */

int partial_search_dirs(char ***dirs, size_t *n)
{
	struct xmlcheck_dirs d = {0};
	int rc;
	if (!dirs || !n)
		return MAPS_EINVAL;
	*dirs = NULL;
	*n = 0;
	rc = xmlcheck_config_dirs(&d, "reports", "perf-report/reports");
	if (!rc && d.ds_n && !(*dirs = calloc(d.ds_n, sizeof(**dirs))))
		rc = MAPS_ENOMEM;
	if (rc) {
		xmlcheck_dirs_free(&d, false);
		return rc;
	}
	for (size_t i = 0; i < d.ds_n; i++)
		(*dirs)[i] = d.ds_v[i].dr_path;
	*n = d.ds_n;
	xmlcheck_dirs_free(&d, true);
	return 0;
}

int partial_load(struct partial_set *ps, const char *const *paths,
		 size_t npaths)
{
	static const char *const vars[] = {"MAPSAMPLE_PARTIAL_REPORT_SOURCE",
					   "ALLINEA_PARTIAL_REPORT_SOURCE"};
	int rc = 0;
	if (!ps || (npaths && !paths))
		return MAPS_EINVAL;
	if (npaths) {
		for (size_t i = 0; i < npaths && !rc; i++)
			rc = partial_load_path(ps, paths[i],
					       "--partial-report");
		return rc;
	}
	for (int i = 0; i < 2; i++) {
		const char *v = getenv(vars[i]);
		char origin[48];
		if (!v || !*v)
			continue;
		snprintf(origin, sizeof(origin), "$%s", vars[i]);
		return partial_load_path(ps, v, origin);
	}
	char **dirs;
	size_t n;
	if ((rc = partial_search_dirs(&dirs, &n)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = load_dir(ps, dirs[i], dirs[i], true);
		free(dirs[i]);
	}
	free(dirs);
	publish(ps);
	return ps->ps_oom ? MAPS_ENOMEM : rc;
}

int partial_load_builtin(struct partial_set *ps, const char *dir)
{
	char **names;
	size_t n, had = ps ? ps->ps_ndefs : 0;
	int rc = 0;
	if (!ps || !dir)
		return MAPS_EINVAL;
	if ((getenv("MAPSAMPLE_PARTIAL_REPORT_SOURCE") &&
	     *getenv("MAPSAMPLE_PARTIAL_REPORT_SOURCE")) ||
	    (getenv("ALLINEA_PARTIAL_REPORT_SOURCE") &&
	     *getenv("ALLINEA_PARTIAL_REPORT_SOURCE")))
		return 0;
	if (xmlcheck_xml_names(dir, &names, &n))
		return 0; /* not installed here: nothing built in */
	for (size_t i = 0; i < n && !rc; i++) {
		int taken = 0;
		for (size_t f = 0; f < ps->ps_nfiles && !taken; f++) {
			const char *b = strrchr(ps->ps_files[f].pf_path, '/');
			taken = strcmp(b ? b + 1 : ps->ps_files[f].pf_path,
				       names[i]) == 0;
		}
		if (taken)
			continue;
		const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
		char *path;
		if (asprintf(&path, "%s%s%s", dir, sep, names[i]) < 0) {
			rc = MAPS_ENOMEM;
			break;
		}
		ps->ps_builtin = true;
		rc = load_file(ps, path, "built-in");
		ps->ps_builtin = false;
		free(path);
	}
	xmlcheck_names_free(names, n);
	publish(ps);
	for (size_t i = had; i < ps->ps_ndefs; i++)
		ps->ps_defs[i]->builtin = 1;
	if (rc == MAPS_ENOMEM)
		ps->ps_oom = true;
	return ps->ps_oom ? MAPS_ENOMEM : rc;
}
