/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run: see run.h.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "cmd/mapreport/run.h"
#include "defs/partial.h"
#include "model/logpool.h"
#include "model/spool.h"

int run_oom(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	return 1;
}

/* Picks the back-end named name to write to path (NULL: standard output)
 * into outs, which has a slot per row of output_backends. */
void pick(struct output *outs, const char *name, const char *path)
{
	const struct output_backend *b = output_find(name);
	struct output *o = &outs[b - output_backends];
	o->ou_backend = b;
	o->ou_path = path;
}

/* Opens the picked output o (its back-end's init).  Returns 0, or 1 when
 * it cannot be written (said on standard error). */
int start_output(struct output *o)
{
	if (!o->ou_backend->ob_init(o))
		return 0;
	fprintf(stderr, "mapreport: %s: cannot write: %s\n",
		o->ou_path ? o->ou_path : "stdout", strerror(errno));
	return 1;
}

/* Runs the picked output o over in: init, emit, finish.  Returns 0, 1
 * when it could not be written (said on standard error), or MAPS_ENOMEM. */
int run_output(struct output *o, const struct output_in *in)
{
	const struct output_backend *b = o->ou_backend;
	const char *where = o->ou_path ? o->ou_path : "stdout";
	if (start_output(o))
		return 1;
	int rc = b->ob_emit(in, o->ou_file);
	int done = b->ob_finish(o);
	if (rc == MAPS_ENOMEM)
		return rc;
	if (rc || done) {
		fprintf(stderr, "mapreport: %s: write failed%s%s%s\n", where,
			b->ob_what ? "; the " : "", b->ob_what ? b->ob_what : "",
			b->ob_what ? " is incomplete" : "");
		return 1;
	}
	return 0;
}

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/mapsample"
#endif

/* The built-in partial reports' folder: the build tree's
 * share/mapsample/reports when this mapreport runs from the build tree
 * (the tests), else the installed $(pkgdatadir)/reports; into buf.  NULL
 * when neither is there (a mapreport copied out of its build tree and
 * not installed), after one line on standard error naming both and the
 * fix. */
static const char *builtin_reports(char *buf, size_t len)
{
	char self[PATH_MAX], probe[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash = n > 0 ? (self[n] = 0, strrchr(self, '/')) : NULL;
	if (slash) {
		*slash = 0;
		snprintf(probe, sizeof(probe),
			 "%s/../../lib/sampler/libmapsampler.la", self);
		if (access(probe, F_OK) == 0) {
			snprintf(buf, len, "%s/../../share/mapsample/reports",
				 self);
			return buf;
		}
	}
	snprintf(buf, len, "%s/reports", PKGDATADIR);
	struct stat sb;
	if (stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode))
		return buf;
	if (slash)
		fprintf(stderr, "mapreport: no built-in partial reports: none "
				"installed in %s, nor in a build tree around "
				"%s (%s/../../share/mapsample/reports); "
				"install mapsample (make install), or run the "
				"mapreport of its build tree\n",
			buf, self, self);
	else
		fprintf(stderr, "mapreport: no built-in partial reports: none "
				"installed in %s; install mapsample (make "
				"install), or run the mapreport of its build "
				"tree\n",
			buf);
	return NULL;
}

/* Whether the built-in partial reports are read (mapreport(1), PARTIAL
 * REPORTS): not after --partial-report, with --compare, or when a source
 * variable names the definitions (partial_load_builtin() reads none
 * then). */
static int builtin_wanted(const struct args *a)
{
	const char *m = getenv("MAPSAMPLE_PARTIAL_REPORT_SOURCE"),
		   *l = getenv("ALLINEA_PARTIAL_REPORT_SOURCE");
	return !a->npartial && !a->compare && !(m && *m) && !(l && *l);
}

struct partial_set *load_partials(const struct args *a, int *status)
{
	struct partial_set *pset = partial_set_new();
	char dir[PATH_MAX + 64];
	const char *builtin = NULL;
	if (!pset || partial_load(pset, a->partial_paths, a->npartial) ||
	    (builtin_wanted(a) &&
	     (builtin = builtin_reports(dir, sizeof(dir))) &&
	     partial_load_builtin(pset, builtin))) {
		partial_set_free(pset);
		return NULL;
	}
	for (size_t i = 0; i < pset->ps_ndiags; i++)
		fprintf(stderr, "mapreport: %s\n", pset->ps_diags[i].pd_text);
	for (size_t i = 0; i < pset->ps_nfiles; i++)
		if (pset->ps_files[i].pf_nerrors)
			fprintf(stderr, "mapreport: %s: partial report left out "
					"(%u error%s); the rest of the report "
					"is written\n",
				pset->ps_files[i].pf_path,
				pset->ps_files[i].pf_nerrors,
				pset->ps_files[i].pf_nerrors == 1 ? "" : "s");
	if (pset->ps_nerrors)
		*status = 1;
	return pset;
}

int run_jobs_option(const char *arg, unsigned *jobs)
{
	char *e;
	unsigned long v = strtoul(arg, &e, 10);
	if (strcmp(arg, "auto") == 0) {
		*jobs = 0;
		return 0;
	}
	if (!*arg || *e || v < 1 || v > LOGPOOL_MAX_THREADS + 1) {
		fprintf(stderr, "mapreport: --jobs %s: give a number from 1 "
				"to %d, or auto\n",
			arg, LOGPOOL_MAX_THREADS + 1);
		return 1;
	}
	*jobs = (unsigned)v;
	return 0;
}

unsigned run_auto_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

static void spool_say(const char *line)
{
	fprintf(stderr, "mapreport: %s\n", line);
}

int run_spool(const char *const *logs, size_t n, int reread)
{
	static int at_exit;
	if (!reread)
		return 0;
	if (!at_exit && atexit(spool_release) == 0)
		at_exit = 1;
	return spool_arm(logs, n, spool_say);
}
