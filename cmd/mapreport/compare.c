/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare: see compare.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "cmd/mapreport/compare.h"
#include "cmd/mapreport/run.h"
#include "model/runid.h"
#include "config.h"
#include "model/model.h"
#include "report/compare.h"
#include "report/rules.h"

int compare_run_noise_option(const char *arg, double *v)
{
	char *e;
	double x = strtod(arg, &e);
	if (!*arg || *e || !(x >= 0 && x <= 100)) {
		fprintf(stderr, "mapreport: --run-noise %s: give a percentage "
				"from 0 to 100\n",
			arg);
		return 1;
	}
	*v = x;
	return 0;
}

/* Says on standard error why a rule could not be read (err). */
static void rule_error(const struct rule_error *err)
{
	if (!err->re_col)
		fprintf(stderr, "mapreport: %s: cannot read the rules: %s\n",
			err->re_origin, err->re_what);
	else
		fprintf(stderr, "mapreport: %s: invalid rule '%s': column %zu: "
				"%s\n",
			err->re_origin, err->re_text, err->re_col,
			err->re_what);
}

/* The rules of --fail-if and --rules into set.  Returns 0, 2 after an
 * invalid rule or a rules file that cannot be read (said), or
 * MAPS_ENOMEM. */
static int load_rules(const struct args *a, struct rule_set *set)
{
	struct rule_error err;
	int rc = 0;
	for (size_t i = 0; i < a->nfail_if && !rc; i++)
		rc = rules_add(set, "--fail-if", a->fail_if[i], &err);
	for (size_t i = 0; i < a->nrules_files && !rc; i++)
		rc = rules_add_file(set, a->rules_files[i], &err);
	if (rc == MAPS_EINVAL || rc == MAPS_EIO) {
		rule_error(&err);
		return 2;
	}
	return rc;
}

/* One run of a side: its logs (one, or the logs of the processes or
 * ranks of one job: model/runid.h), read into one model. */
struct cmp_unit {
	const char **paths;          /* its logs, npaths of them */
	size_t npaths;
	int side;                    /* 0 BASE, 1 NEW */
	size_t first;                /* its first log's index among BASE's
				      * then NEW's logs */
	int dead;                    /* its logs went to another run */
	struct model m;
	struct regions rg;           /* with --region */
	struct cmp_blocks blocks;    /* its samples per block of time */
	struct rfilter filter;       /* the filters with this run's start
				      * (the arrays are the command line's:
				      * not freed here) */
	int loaded, damaged, readable; /* logs damaged, logs read at all */
	struct analysis an;
	int have_an;
	struct partial_result *pres;
	/* why the run was left out, as an errors[] kind of the outputs
	 * ("region-missing", "no-sample-kept"), or NULL */
	const char *left_out;
};

/* What run_compare holds: the runs of BASE then NEW (st->units, a log
 * each until cmp_group() puts the logs of one run together), their
 * models by log for the outputs (mptr: a run's model at its first log,
 * the empty model none at its other logs, so that its notes are listed
 * once), the runs given to compare_run, and how many runs of BASE and
 * of NEW were left out (no --region in them, or no sample the filters
 * keep). */
struct cmp_state {
	size_t nlogs, nunits;
	const char *const *logs;     /* BASE's then NEW's, nlogs */
	const struct args *a;
	struct cmp_unit *units;
	struct model none;
	const struct model **mptr;   /* by log; NULL: not read */
	struct cmp_run *runs;
	size_t missing[2];           /* runs of BASE, NEW left out (said) */
	struct partial_set *pset;
};

/* Frees what u's reading made and makes it unread. */
static void cmp_unload(struct cmp_unit *u)
{
	if (u->have_an)
		analysis_free(&u->an);
	u->have_an = 0;
	partial_result_free(u->pres);
	u->pres = NULL;
	if (u->loaded) {
		model_free(&u->m);
		regions_free(&u->rg);
		cmp_blocks_free(&u->blocks);
	}
	u->loaded = 0;
}

static void cmp_state_free(struct cmp_state *st)
{
	for (size_t i = 0; st->units && i < st->nunits; i++) {
		cmp_unload(&st->units[i]);
		free(st->units[i].paths);
	}
	free(st->units);
	model_free(&st->none);
	free(st->mptr);
	free(st->runs);
	partial_set_free(st->pset);
}

/* With --region, makes each thread of m count the time of its samples
 * inside the region (their weight of the sampling clock) instead of the
 * CPU and wall time measured at its end, which cover the whole run: the
 * comparison's whole-run time and its seconds per function are the
 * region's. */
static void cmp_region_times(struct model *m)
{
	for (size_t k = 0; k < m->nthreads; k++) {
		struct rthread *t = &m->threads[k];
		t->cpu_ns = t->weight;
		t->wall_ns = t->weight;
	}
}

/* Reads u's logs into its model, as the plain report reads a run: with
 * --region, only the samples inside the region; with the filters
 * (--pid, --tid, --comm, --time from the run's start, --rank), only
 * the samples they keep.  Returns 0 or MAPS_ENOMEM. */
static int cmp_load(struct cmp_state *st, struct cmp_unit *u)
{
	const struct args *a = st->a;
	model_init(&u->m);
	regions_init(&u->rg, a->region);
	cmp_blocks_init(&u->blocks);
	u->loaded = 1;
	u->damaged = u->readable = 0;
	/* a unit that gains logs reads them again (cmp_group()) */
	if (run_spool(u->paths, u->npaths, 1))
		return MAPS_ENOMEM;
	if (a->region) {
		u->m.regions = &u->rg;
		if (regions_scan(&u->rg, u->paths, u->npaths))
			return MAPS_ENOMEM;
	}
	if (filter_active(&a->filter)) {
		u->filter = a->filter;
		u->filter.fi_dropped = 0;
		if (filter_run_start(&u->filter, u->paths, u->npaths))
			return MAPS_ENOMEM;
		u->m.filter = &u->filter;
	}
	u->m.timeline_on = a->html_path != NULL;
	u->m.on_sample = cmp_blocks_sample;
	u->m.on_sample_ctx = &u->blocks;
	for (size_t k = 0; k < u->npaths; k++) {
		int rc = model_load(&u->m, u->paths[k], NULL, NULL);
		if (rc < 0)
			return MAPS_ENOMEM;
		u->damaged += rc != 0;
		u->readable += rc != LOGREAD_UNREADABLE;
	}
	return 0;
}

/* The logs of one side that are of one run (runid_same_strict()) into one
 * unit: the ranks' logs of one MPI job are one run, not as many runs
 * whose spread would be taken for the variation between runs.  Each unit
 * holds one log, read, when called; a unit that gains logs is read
 * again.  Says on standard error which logs were put together.  Returns
 * 0 or MAPS_ENOMEM. */
static int cmp_group(struct cmp_state *st)
{
	struct runid *ids = calloc(st->nunits, sizeof(*ids));
	int rc = 0;
	if (!ids)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < st->nunits; i++)
		ids[i] = runid_of(&st->units[i].m, 0);
	for (size_t i = 0; i < st->nunits; i++) {
		struct cmp_unit *u = &st->units[i];
		for (size_t g = 0; g < i && !u->dead; g++) {
			struct cmp_unit *lead = &st->units[g];
			if (lead->dead || lead->side != u->side ||
			    !runid_same_strict(&ids[g], &ids[i]))
				continue;
			lead->paths[lead->npaths++] = u->paths[0];
			u->dead = 1;
			cmp_unload(u);
		}
	}
	for (size_t g = 0; g < st->nunits && !rc; g++) {
		struct cmp_unit *u = &st->units[g];
		if (u->dead || u->npaths < 2)
			continue;
		fprintf(stderr, "mapreport: note: %s: %s and %zu more log%s are "
				"of one run ('%s' started %s), compared as "
				"one run\n",
			u->side ? "NEW" : "BASE", u->paths[0], u->npaths - 1,
			u->npaths == 2 ? "" : "s", ids[g].command,
			ids[g].started);
		cmp_unload(u);
		rc = cmp_load(st, u);
	}
	for (size_t i = 0; i < st->nunits; i++)
		runid_free(&ids[i]);
	free(ids);
	size_t n = 0;
	for (size_t i = 0; i < st->nunits; i++) {
		if (st->units[i].dead)
			free(st->units[i].paths);
		else
			st->units[n++] = st->units[i];
	}
	st->nunits = n;
	return rc;
}

/* The first log of u and how many more, for messages, into buf. */
static const char *cmp_unit_name(const struct cmp_unit *u, char *buf,
				 size_t len)
{
	if (u->npaths == 1)
		snprintf(buf, len, "%s", u->paths[0]);
	else
		snprintf(buf, len, "%s and %zu more log%s", u->paths[0],
			 u->npaths - 1, u->npaths == 2 ? "" : "s");
	return buf;
}

/* After u was read: says its damage on standard error, and analyses it
 * when it could be read.  A run that holds no region of --region's name
 * is said and left out (counted in st->missing); so is one of whose
 * samples the filters keep none.  Returns 0, 1 when a log was damaged
 * or unreadable or the run was left out, MAPS_ENOMEM. */
static int cmp_ready(struct cmp_state *st, struct cmp_unit *u)
{
	const struct args *a = st->a;
	struct model *m = &u->m;
	char line[1024], name[1024];
	for (size_t k = 0; k < m->nnotes; k++)
		fprintf(stderr, "mapreport: %s\n",
			model_note_str(&m->notes[k], line, sizeof(line)));
	st->mptr[u->first] = m;
	if (!u->readable)
		return 1;
	cmp_unit_name(u, name, sizeof(name));
	if (a->region && u->rg.filter_id < 0) {
		fprintf(stderr, "mapreport: %s (%s): no region %s in this "
				"log; see the Regions table of its report, or "
				"compare without --region\n",
			name, u->side ? "NEW" : "BASE", a->region);
		st->missing[u->side]++;
		u->left_out = "region-missing";
		return 1;
	}
	if (m->filter) {
		if (model_narrow_metrics(m))
			return MAPS_ENOMEM;
		model_drop_unsampled(m);
		if (!m->samples && u->filter.fi_dropped) {
			fprintf(stderr, "mapreport: %s (%s): the filters (%s) "
					"keep none of its %" PRIu64 " samples; "
					"see the ids, names and duration in "
					"its report without them\n",
				name, u->side ? "NEW" : "BASE",
				filter_str(&a->filter, line, sizeof(line)),
				u->filter.fi_dropped);
			st->missing[u->side]++;
			u->left_out = "no-sample-kept";
			return 1;
		}
	}
	if (a->region)
		cmp_region_times(m);
	if (analysis_run(&u->an, m))
		return MAPS_ENOMEM;
	u->have_an = 1;
	if (st->pset->ps_ndefs &&
	    partial_eval(st->pset, m, &u->pres))
		return MAPS_ENOMEM;
	return u->damaged ? 1 : 0;
}

/* Reads BASE's and NEW's logs into st's runs, the logs of one run of a
 * side together, and analyses them.  Returns 0, 1 when a log was
 * damaged, unreadable or without the region, or MAPS_ENOMEM. */
static int cmp_read_all(struct cmp_state *st)
{
	const struct args *a = st->a;
	int status = 0, rc;
	for (size_t i = 0; i < st->nlogs; i++) {
		struct cmp_unit *u = &st->units[i];
		int side = i >= a->nbase;
		u->paths = calloc(side ? a->nnew : a->nbase, sizeof(*u->paths));
		if (!u->paths)
			return MAPS_ENOMEM;
		u->paths[u->npaths++] = st->logs[i];
		u->side = side;
		u->first = i;
		st->nunits++;
		if ((rc = cmp_load(st, u)))
			return rc;
	}
	if ((a->nbase > 1 || a->nnew > 1) && (rc = cmp_group(st)))
		return rc;
	for (size_t i = 0; i < st->nlogs; i++)
		st->mptr[i] = &st->none; /* a run's other logs */
	for (size_t i = 0; i < st->nunits; i++) {
		if ((rc = cmp_ready(st, &st->units[i])) < 0)
			return rc;
		status |= rc;
	}
	return status;
}

/* The runs of one side that could be read into st->runs + at; returns
 * how many. */
static size_t cmp_side_runs(struct cmp_state *st, int side, size_t at)
{
	size_t k = 0;
	for (size_t i = 0; i < st->nunits; i++) {
		struct cmp_unit *u = &st->units[i];
		if (u->side == side && u->have_an)
			st->runs[at + k++] = (struct cmp_run){
				&u->m, &u->an, u->pres, &u->blocks};
	}
	return k;
}

/* The differential flame graph of --html into *flame: NEW's first run
 * read, coloured by BASE's first (their call trees into trees[0],
 * trees[1], which the frames' names point into).  0 or MAPS_ENOMEM. */
static int cmp_flame_of(struct cmp_state *st, size_t nbase,
			struct calltree *trees, struct cmp_flame *flame)
{
	const struct cmp_run *side[2] = {&st->runs[0], &st->runs[nbase]};
	for (int k = 0; k < 2; k++)
		if (calltree_build(&trees[k], side[k]->cr_model,
				   side[k]->cr_analysis))
			return MAPS_ENOMEM;
	return compare_flame(flame, &trees[0], &trees[1], 0.001);
}

/* The input problems of st that no model's notes hold, for the outputs,
 * into probs (room for st->nunits + 1) with their lines in text (as many
 * entries of 2048 bytes): each run left out (no --region in it, or no
 * sample the filters keep), and a side (nb or nn runs read) with nothing
 * to compare.  Returns how many. */
static size_t cmp_problems(const struct cmp_state *st, size_t nb, size_t nn,
			   struct output_problem *probs, char (*text)[2048])
{
	const struct args *a = st->a;
	size_t n = 0;
	for (size_t i = 0; i < st->nunits; i++) {
		const struct cmp_unit *u = &st->units[i];
		if (u->dead || !u->left_out)
			continue;
		char name[1024], fl[512];
		cmp_unit_name(u, name, sizeof(name));
		if (strcmp(u->left_out, "region-missing") == 0)
			snprintf(text[n], sizeof(text[n]),
				 "%s (%s): no region %s in this log", name,
				 u->side ? "NEW" : "BASE", a->region);
		else
			snprintf(text[n], sizeof(text[n]),
				 "%s (%s): the filters (%s) keep none of its "
				 "samples",
				 name, u->side ? "NEW" : "BASE",
				 filter_str(&a->filter, fl, sizeof(fl)));
		probs[n] = (struct output_problem){u->left_out, u->paths[0],
						   text[n]};
		n++;
	}
	if (!nb || !nn) {
		snprintf(text[n], sizeof(text[n]), "%s: no log could be "
			 "read%s; nothing to compare", !nb ? "BASE" : "NEW",
			 st->missing[!nb ? 0 : 1] ? " and kept" : "");
		probs[n] = (struct output_problem){"nothing-to-compare", NULL,
						   text[n]};
		n++;
	}
	return n;
}

/* Picks the --compare outputs a asks for into outs: the files, and the
 * text report when standard output is not taken. */
static void pick_compare_outputs(const struct args *a, struct output *outs)
{
	if (a->json)
		pick(outs, "compare-json", a->json_path);
	if (a->html_path)
		pick(outs, "compare-html", a->html_path);
	if (a->markdown)
		pick(outs, "markdown", a->markdown_path);
	if (a->junit_path)
		pick(outs, "junit", a->junit_path);
	if (a->github)
		pick(outs, "github", NULL);
	if ((!a->json || a->json_path) && (!a->markdown || a->markdown_path))
		pick(outs, "compare-text", NULL);
}

/*
 * mapreport --compare: reads BASE's and NEW's logs, compares them, judges
 * the rules, writes the picked outputs.  Returns the exit status: 0 no
 * rule broken, 3 a rule broken, 1 an input problem (a log damaged or
 * unreadable, an output not written), 2 an invalid rule or a metric
 * name that ends several metric ids.
 */
int run_compare(const struct args *a, struct output *outs)
{
	struct rule_set rules = {0};
	struct cmp_state st = {0};
	struct comparison cmp;
	int have_cmp = 0, status = 0;
	struct rule_result *results = NULL;
	struct calltree trees[2] = {{0}, {0}};
	struct cmp_flame flame = {0};
	const char **logs = NULL;
	struct output_problem *probs = NULL;
	char(*ptext)[2048] = NULL;
	int rc = load_rules(a, &rules);
	if (rc) {
		rules_free(&rules);
		return rc == 2 ? 2 : run_oom();
	}
	st.a = a;
	st.nlogs = a->nbase + a->nnew;
	model_init(&st.none);
	logs = calloc(st.nlogs, sizeof(*logs));
	st.units = calloc(st.nlogs, sizeof(*st.units));
	st.mptr = calloc(st.nlogs, sizeof(*st.mptr));
	st.runs = calloc(st.nlogs, sizeof(*st.runs));
	st.pset = load_partials(a, &status);
	results = calloc(rules.rs_n + 1, sizeof(*results));
	probs = calloc(st.nlogs + 1, sizeof(*probs));
	ptext = calloc(st.nlogs + 1, sizeof(*ptext));
	if (!logs || !st.units || !st.mptr || !st.runs || !st.pset ||
	    !results || !probs || !ptext)
		goto oom;
	for (size_t i = 0; i < st.nlogs; i++)
		logs[i] = i < a->nbase ? a->base[i] : a->new[i - a->nbase];
	st.logs = logs;
	rc = cmp_read_all(&st);
	if (rc < 0)
		goto oom;
	status |= rc;
	size_t nb = cmp_side_runs(&st, 0, 0);
	size_t nn = cmp_side_runs(&st, 1, nb);
	if (!nb || !nn) {
		/* a side whose runs were all left out was said */
		if (!st.missing[!nb ? 0 : 1])
			fprintf(stderr, "mapreport: %s: no log could be "
					"read; nothing to compare\n",
				!nb ? "BASE" : "NEW");
		status = 1;
	} else {
		if (compare_run_noise(&cmp, st.runs, nb, st.runs + nb, nn,
				      a->run_noise))
			goto oom;
		have_cmp = 1;
		for (size_t k = 0; k < cmp.nnotes; k++)
			fprintf(stderr, "mapreport: note: %s\n", cmp.notes[k]);
		/* a metric name that ends several ids: a usage error, as an
		 * invalid rule is */
		struct rule_error err;
		if (rules_resolve(&rules, &cmp, &err)) {
			rule_error(&err);
			status = 2;
			goto out;
		}
	}
	if (have_cmp && a->html_path && cmp_flame_of(&st, nb, trees, &flame))
		goto oom;
	struct output_compare oc = {
		have_cmp ? &cmp : NULL, results, have_cmp ? rules.rs_n : 0, 0,
		a->sigma, a->base, a->new, a->nbase, a->nnew, st.mptr,
		a->html_path && have_cmp ? &flame : NULL, st.pset, probs,
		cmp_problems(&st, nb, nn, probs, ptext)};
	if (have_cmp)
		oc.oc_broken = rules_eval(&rules, &cmp, a->sigma, results);
	struct output_in in = {0};
	in.oi_compare = &oc;
	in.oi_top = a->top;
	in.oi_generator = "mapreport " PACKAGE_VERSION;
	pick_compare_outputs(a, outs);
	for (size_t i = 0; i < output_nbackends; i++) {
		/* with nothing compared, every output but the HTML page
		 * (a flame graph of nothing) says the input problems */
		if (!outs[i].ou_backend || !outs[i].ou_backend->ob_emit ||
		    (!have_cmp &&
		     strcmp(outs[i].ou_backend->ob_name, "compare-html") == 0))
			continue;
		rc = run_output(&outs[i], &in);
		if (rc == MAPS_ENOMEM)
			goto oom;
		status |= rc;
	}
	if (!status && oc.oc_broken)
		status = 3;
	for (size_t i = 0; i < st.nunits; i++) {
		const struct cmp_unit *u = &st.units[i];
		const char *const *lines;
		size_t np = u->have_an ? sym_problems(u->an.st, &lines) : 0;
		for (size_t k = 0; k < np; k++)
			fprintf(stderr, "mapreport: %s\n", lines[k]);
	}
	goto out;
oom:
	status = run_oom();
out:
	fflush(stdout);
	compare_flame_free(&flame);
	calltree_free(&trees[0]);
	calltree_free(&trees[1]);
	if (have_cmp)
		compare_free(&cmp);
	cmp_state_free(&st);
	free(logs);
	free(probs);
	free(ptext);
	free(results);
	rules_free(&rules);
	return status;
}

