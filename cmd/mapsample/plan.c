/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan: the launcher's side of metric plugins (see plan.h).
 *
 * Selection (--metrics LIST, items separated by commas, applied in
 * order): "default" (every metric whose <enabled> is not false), "all",
 * "none", a metric id, a <metricGroup> id, a <source> id, or the name of
 * a definition file without ".xml" (e.g. "cpu"); "-ITEM" removes.  With
 * no --metrics the selection is "default" and, when the launcher asks
 * (plan_opts.auto_select: "mpi" for an MPI program), the metrics named
 * there.  A metric from a file with
 * errors, or whose library or function is missing, is not available: if
 * it was named explicitly the run does not start, otherwise it is left
 * out with the diagnostics printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#include "cmd/mapsample/plan.h"
#include "launch/logfile.h"
#include "log/mapjob.h"
#include "launch/target.h"
#include "model/model.h"
#include "defs/metricdef.h"

struct cand {
	struct metricdef_metric *m;
	const char *file_name;  /* basename without .xml */
	int available;
	int chosen;
	int explicit_;          /* named by an item */
};

struct loaded {
	struct metricdef *md;
	struct cand *c;
	size_t nc;
	char **names;           /* file basenames */
	int select_rc;          /* select_items() */
};

static char *base_noext(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	char *s = strdup(b);
	if (s) {
		size_t l = strlen(s);
		if (l > 4 && strcmp(s + l - 4, ".xml") == 0)
			s[l - 4] = 0;
	}
	return s;
}

static const char *group_of(const struct metricdef_metric *m)
{
	const struct metricdef_file *f = m->m_file;
	for (size_t g = 0; g < f->f_ngroups; g++)
		for (size_t r = 0; r < f->f_groups[g]->g_nrefs; r++)
			if (f->f_groups[g]->g_refs[r].gr_target == m)
				return f->f_groups[g]->g_id;
	return NULL;
}

static int is_false(const struct metricdef_text *t)
{
	return t->t_val && (strcasecmp(t->t_val, "false") == 0 ||
			    strcmp(t->t_val, "0") == 0 ||
			    strcasecmp(t->t_val, "no") == 0);
}

static int select_items(struct loaded *L, const char *select,
			const char *auto_select);

/* want() for metricdef_check_libraries_if(): a source one of the chosen
 * metrics reads. */
static int source_chosen(const struct metricdef_source *s, void *ctx)
{
	const struct loaded *L = ctx;
	for (size_t i = 0; i < L->nc; i++)
		if (L->c[i].chosen && L->c[i].m->m_source == s)
			return 1;
	return 0;
}

/*
 * Loads every definition of the search path, applies the --metrics
 * items (L->select_rc: -1 when one is unknown, message printed), opens
 * the libraries of the metrics chosen (all of them when every) and marks
 * what can run.  No other library is opened: a library runs code when
 * it is loaded.
 */
static int load_all(const struct plan_opts *o, struct loaded *L,
		    int print, int every)
{
	memset(L, 0, sizeof(*L));
	L->md = metricdef_new();
	if (!L->md)
		return -1;
	struct metricdef_search sp = {o->dirs, o->ndirs, o->installed};
	if (metricdef_load_search_path(L->md, &sp))
		return -1;
	struct metricdef *md = L->md;
	size_t n = 0;
	for (size_t f = 0; f < md->md_nfiles; f++)
		n += md->md_files[f]->f_nmetrics;
	L->c = calloc(n ? n : 1, sizeof(*L->c));
	L->names = calloc(md->md_nfiles ? md->md_nfiles : 1, sizeof(char *));
	if (!L->c || !L->names)
		return -1;
	for (size_t f = 0; f < md->md_nfiles; f++) {
		struct metricdef_file *mf = md->md_files[f];
		L->names[f] = base_noext(mf->f_path);
		for (size_t k = 0; k < mf->f_nmetrics; k++) {
			struct metricdef_metric *m = mf->f_metrics[k];
			/* a <metric> with no id (its definition error is
			 * said, file:line:column) cannot be chosen or
			 * recorded */
			if (!m->m_id)
				continue;
			struct cand *c = &L->c[L->nc++];
			c->m = m;
			c->file_name = L->names[f];
		}
	}
	L->select_rc = select_items(L, o->select, o->auto_select);
	if (metricdef_check_libraries_if(md, every ? NULL : source_chosen, L))
		return -1;
	if (print)
		for (size_t i = 0; i < md->md_ndiags; i++)
			fprintf(stderr, "mapsample: %s\n", md->md_diags[i].d_text);
	for (size_t i = 0; i < L->nc; i++) {
		struct cand *c = &L->c[i];
		const struct metricdef_metric *m = c->m;
		const struct metricdef_file *mf = m->m_file;
		c->available = !mf->f_unreadable && mf->f_nerrors == 0 &&
			       !m->m_duplicate && m->m_source &&
			       m->m_source->s_library_path && m->m_function;
	}
	return 0;
}

static void free_loaded(struct loaded *L)
{
	if (L->md)
		for (size_t f = 0; f < L->md->md_nfiles; f++)
			free(L->names[f]);
	free(L->names);
	free(L->c);
	metricdef_free(L->md);
}

static int item_matches(const struct cand *c, const char *item)
{
	const struct metricdef_metric *m = c->m;
	if (strcmp(m->m_id, item) == 0 || strcmp(c->file_name, item) == 0)
		return 1;
	const char *g = group_of(m);
	if (g && strcmp(g, item) == 0)
		return 1;
	return m->m_source && m->m_source->s_id &&
	       strcmp(m->m_source->s_id, item) == 0;
}

/* Applies the --metrics items; -1 on an unknown item (message printed).
 * Without them, the default and the items of auto_select (a metric, group,
 * source or file name each) that name a metric. */
static int select_items(struct loaded *L, const char *select,
			const char *auto_select)
{
	for (size_t i = 0; i < L->nc; i++)
		L->c[i].chosen = !is_false(&L->c[i].m->m_enabled);
	if (!select && auto_select) {
		char *copy = strdup(auto_select);
		char *save = NULL;
		for (char *it = copy ? strtok_r(copy, ",", &save) : NULL; it;
		     it = strtok_r(NULL, ",", &save))
			for (size_t i = 0; i < L->nc; i++)
				if (item_matches(&L->c[i], it))
					L->c[i].chosen = 1;
		free(copy);
	}
	if (!select)
		return 0;
	char *copy = strdup(select);
	if (!copy)
		return -1;
	int rc = 0;
	char *save = NULL;
	for (char *it = strtok_r(copy, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		while (*it == ' ')
			it++;
		int neg = *it == '-';
		if (neg)
			it++;
		if (!*it)
			continue;
		int any = 0;
		for (size_t i = 0; i < L->nc; i++) {
			struct cand *c = &L->c[i];
			int hit = strcmp(it, "all") == 0 ||
				  (strcmp(it, "default") == 0 &&
				   !is_false(&c->m->m_enabled)) ||
				  item_matches(c, it);
			if (strcmp(it, "none") == 0) {
				c->chosen = 0;
				c->explicit_ = 0;
				any = 1;
				continue;
			}
			if (!hit)
				continue;
			any = 1;
			c->chosen = !neg;
			c->explicit_ = !neg && strcmp(it, "all") &&
				       strcmp(it, "default");
		}
		if (!any && strcmp(it, "all") && strcmp(it, "default")) {
			fprintf(stderr, "mapsample: --metrics %s: no metric, "
					"group, source or definition file of "
					"that name; see mapsample "
					"--list-metrics\n", it);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

/* Appends s to the plan with control characters made spaces. */
static void put_field(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
}

static char *build_plan(struct loaded *L, int all_available, size_t *nm,
			char **preload)
{
	char *buf = NULL, *pbuf = NULL;
	size_t len = 0, plen = 0;
	FILE *f = open_memstream(&buf, &len);
	FILE *pf = open_memstream(&pbuf, &plen);
	if (!f || !pf) {
		if (f)
			fclose(f);
		if (pf)
			fclose(pf);
		return NULL;
	}
	fputs("mapsample-metrics 1\n", f);
	/* sources in order of first use */
	struct metricdef_source **src = calloc(L->nc ? L->nc : 1,
					       sizeof(*src));
	size_t nsrc = 0;
	*nm = 0;
	for (size_t i = 0; i < L->nc; i++) {
		struct cand *c = &L->c[i];
		if (!c->available || !(all_available || c->chosen))
			continue;
		struct metricdef_source *s = c->m->m_source;
		size_t k = 0;
		while (k < nsrc && src[k] != s)
			k++;
		if (k == nsrc) {
			src[nsrc++] = s;
			fputs("S", f);
			put_field(f, s->s_library_path);
			put_field(f, s->s_start.t_val);
			put_field(f, s->s_stop.t_val);
			put_field(f, s->s_id);
			fputc('\n', f);
			for (size_t p = 0; p < s->s_npreloads; p++)
				if (s->s_preloads[p].l_path)
					fprintf(pf, "%s%s",
						ftell(pf) > 0 ? ":" : "",
						s->s_preloads[p].l_path);
		}
		const struct metricdef_metric *m = c->m;
		fprintf(f, "M\t%zu\t%s%s%s\t%s", k,
			m->m_divide_by_sample_time ? "D" : "",
			m->m_one_per_node ? "N" : "",
			m->m_backfill ? "B" : "",
			m->m_data_type == METRICDEF_DOUBLE ? "d" : "u");
		put_field(f, m->m_id);
		put_field(f, m->m_function);
		put_field(f, m->m_display_name.t_val);
		put_field(f, m->m_units.t_val);
		put_field(f, m->m_colour.t_val);
		put_field(f, group_of(m));
		put_field(f, m->m_domain.t_val ? m->m_domain.t_val : "time");
		put_field(f, m->m_description.t_val);
		fputc('\n', f);
		(*nm)++;
	}
	free(src);
	fclose(f);
	fclose(pf);
	if (pbuf && *pbuf)
		*preload = pbuf;
	else
		free(pbuf);
	return buf;
}

int plan_prepare(const struct plan_opts *o, struct plan *out)
{
	memset(out, 0, sizeof(*out));
	struct loaded L;
	if (load_all(o, &L, 1, 0)) {
		fprintf(stderr, "mapsample: out of memory reading metric "
				"definitions\n");
		free_loaded(&L);
		return -1;
	}
	int rc = 0;
	/* a --metrics-dir that cannot be read is an error diagnostic of
	 * rule IO, already printed */
	for (size_t i = 0; i < L.md->md_ndiags; i++)
		if (L.md->md_diags[i].d_rule == METRICDEF_R_IO &&
		    L.md->md_diags[i].d_severity == METRICDEF_ERROR &&
		    !L.md->md_diags[i].d_line && o->ndirs)
			rc = -1;
	if (L.select_rc)
		rc = -1;
	for (size_t i = 0; i < L.nc; i++) {
		struct cand *c = &L.c[i];
		if (c->chosen && !c->available && c->explicit_) {
			fprintf(stderr, "mapsample: metric %s (%s) is not "
					"available: fix the errors above or "
					"leave it out of --metrics\n",
				c->m->m_id, c->m->m_file->f_path);
			rc = -1;
		} else if (c->chosen && !c->available && !o->quiet) {
			fprintf(stderr, "mapsample: warning: metric %s (%s) "
					"left out: its definition has errors\n",
				c->m->m_id, c->m->m_file->f_path);
		}
	}
	if (rc == 0) {
		out->plan = build_plan(&L, 0, &out->nmetrics, &out->preload);
		if (out->nmetrics == 0) {
			free(out->plan);
			out->plan = NULL;
		}
	}
	free_loaded(&L);
	return rc;
}

void plan_free(struct plan *p)
{
	free(p->plan);
	free(p->preload);
	memset(p, 0, sizeof(*p));
}

void plan_set_run_id(const struct mapjob *job)
{
	const char *v = getenv("MAPSAMPLE_RUN_ID");
	if (v && *v)
		return;
	char id[128];
	const char *pmix = getenv("PMIX_NAMESPACE");
	const char *ompi = getenv("OMPI_MCA_ess_base_jobid");
	const char *sj = getenv("SLURM_JOB_ID"), *ss = getenv("SLURM_STEP_ID");
	if (job && job->rank >= 0 && job->job_id[0])
		snprintf(id, sizeof(id), "job-%.120s", job->job_id);
	else if (pmix && *pmix)
		snprintf(id, sizeof(id), "pmix-%s", pmix);
	else if (ompi && *ompi)
		snprintf(id, sizeof(id), "ompi-%s", ompi);
	else if (sj && *sj)
		snprintf(id, sizeof(id), "slurm-%s.%s", sj, ss ? ss : "0");
	else {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		snprintf(id, sizeof(id), "%ld-%lld%09ld", (long)getpid(),
			 (long long)t.tv_sec, t.tv_nsec);
	}
	setenv("MAPSAMPLE_RUN_ID", id, 1);
}

/* ---- errors from the log ---- */

void plan_report_errors(const struct rmetrics *x)
{
	for (size_t i = 0; i < x->npe; i++)
		fprintf(stderr, "mapsample: metric plugin %s: %s\n",
			x->pe[i].plugin, x->pe[i].message);
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary r;
		metrics_summary(x, i, &r);
		if (r.errors)
			fprintf(stderr, "mapsample: metric %s: %" PRIu64
					" error%s, the first: %s\n",
				x->m[i].id, r.errors, r.errors == 1 ? "" : "s",
				r.err_msg ? r.err_msg : "");
	}
}

/* ---- --list-metrics ---- */

/* Runs `true` under the sampler with every available metric, into a
 * temporary log, and loads that log into m (model_init() done by the
 * caller): m->metrics holds what the plugins said.  Returns 0, -1 when
 * the probe could not run, or -2 when memory ran out reading its log
 * (message printed). */
static int probe(const char *sampler, const char *plan, const char *preload,
		 struct model *m)
{
	char truep[PATH_MAX];
	if (target_find("true", truep, sizeof(truep)))
		return -1;
	char tmpl[] = "/tmp/mapsample-probe-XXXXXX";
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	close(fd);
	char made[sizeof(tmpl)];
	fd = launch_make_log(tmpl, made, sizeof(made));
	if (fd < 0) {
		unlink(tmpl);
		return -1;
	}
	/* a mkstemp name no run holds: the log took it */
	close(fd);
	pid_t pid = fork();
	if (pid == 0) {
		char pre[2 * PATH_MAX + 8];
		snprintf(pre, sizeof(pre), "%s%s%s", sampler,
			 preload ? ":" : "", preload ? preload : "");
		setenv("LD_PRELOAD", pre, 1);
		setenv("MAPSAMPLE_OUTPUT", tmpl, 1);
		setenv("MAPSAMPLE_METRICS_PLAN", plan, 1);
		int dn = open("/dev/null", O_RDWR);
		if (dn >= 0) {
			dup2(dn, 0);
			dup2(dn, 1);
		}
		execl(truep, "true", (char *)NULL);
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		unlink(tmpl);
		return -1;
	}
	int rc = model_load(m, tmpl, NULL, NULL);
	unlink(tmpl);
	if (rc < 0) {
		fprintf(stderr, "mapsample: --list-metrics: %s reading the "
				"probe's log\n", maps_strerror(rc));
		return -2;
	}
	return 0;
}

int plan_list(const struct plan_opts *o, const char *sampler)
{
	struct metricdef_dir *dirs;
	size_t nd;
	struct metricdef_search sp = {o->dirs, o->ndirs, o->installed};
	if (metricdef_search_dirs(&sp, &dirs, &nd) == 0) {
		printf("Metric definitions are searched in:\n");
		for (size_t i = 0; i < nd; i++) {
			struct stat st;
			printf("  %s (%s)%s\n", dirs[i].sd_path,
			       dirs[i].sd_origin,
			       stat(dirs[i].sd_path, &st) ? ": absent" : "");
		}
		metricdef_free_dirs(dirs, nd);
	}
	struct loaded L;
	if (load_all(o, &L, 1, 1)) {
		free_loaded(&L);
		return 125;
	}
	int rc = L.select_rc ? 125 : 0;
	size_t nm = 0;
	char *preload = NULL;
	char *plan = build_plan(&L, 1, &nm, &preload);
	struct model pm;
	model_init(&pm);
	int pr = nm && plan ? probe(sampler, plan, preload, &pm) : -1;
	int probed = pr == 0;
	const struct rmetrics *px = &pm.metrics;
	free(plan);
	free(preload);
	if (pr == -2) {
		model_free(&pm);
		free_loaded(&L);
		return 125;
	}
	const char *lastfile = NULL;
	for (size_t i = 0; i < L.nc; i++) {
		struct cand *c = &L.c[i];
		const struct metricdef_metric *m = c->m;
		if (m->m_file->f_path != lastfile) {
			lastfile = m->m_file->f_path;
			printf("\n%s:\n", lastfile);
		}
		const char *why = NULL;
		char buf[1024];
		if (!c->available)
			why = "unavailable: its definition has errors (above)";
		const char *src = m->m_source ? m->m_source->s_id : NULL;
		for (size_t k = 0; !why && src && k < px->npe; k++)
			if (strcmp(px->pe[k].plugin, src) == 0) {
				snprintf(buf, sizeof(buf), "unavailable: %s",
					 px->pe[k].message);
				why = buf;
			}
		printf("  %-44s %s%s%s%s\n", m->m_id,
		       m->m_display_name.t_val ? m->m_display_name.t_val : "",
		       m->m_units.t_val && *m->m_units.t_val ? " (" : "",
		       m->m_units.t_val && *m->m_units.t_val ? m->m_units.t_val
							    : "",
		       m->m_units.t_val && *m->m_units.t_val ? ")" : "");
		printf("  %-44s %s%s%s\n", "",
		       c->chosen ? "selected" : "not selected",
		       is_false(&m->m_enabled) ? " (off by default)" : "",
		       why ? "" : (probed ? "; available" : ""));
		if (why)
			printf("  %-44s %s\n", "", why);
	}
	if (!L.nc)
		printf("\nno metric definitions found\n");
	model_free(&pm);
	free_loaded(&L);
	return rc;
}
