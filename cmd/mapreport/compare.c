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

/* What run_compare holds: the models of BASE's then NEW's logs, their
 * analyses, their partial reports' values (pset's), and the runs given
 * to compare_run; with --region, each log's regions (a log is a run of
 * its own: its threads' region stacks are its own) and how many logs of
 * BASE and of NEW lack the region. */
struct cmp_state {
	size_t n;
	const char *region;          /* --region NAME, or NULL */
	struct regions *rg;          /* one per log with --region, else NULL */
	size_t missing[2];           /* logs of BASE, NEW without the region */
	char *noregion;              /* per log: 1 when it lacks the region */
	struct model *models;
	const struct model **mptr;   /* the models read, NULL after MAPS_ENOMEM */
	struct analysis *an;
	int *have_an;
	struct cmp_run *runs;
	struct partial_set *pset;
	struct partial_result **pres;
	struct cmp_blocks *blocks;   /* each log's samples per block of time */
	int timeline;                /* --html: models keep their timeline */
};

static void cmp_state_free(struct cmp_state *st)
{
	for (size_t i = 0; st->models && i < st->n; i++) {
		if (st->have_an[i])
			analysis_free(&st->an[i]);
		model_free(&st->models[i]);
		if (st->rg)
			regions_free(&st->rg[i]);
		if (st->blocks)
			cmp_blocks_free(&st->blocks[i]);
	}
	free(st->blocks);
	free(st->noregion);
	free(st->rg);
	free(st->models);
	free(st->mptr);
	free(st->an);
	free(st->have_an);
	free(st->runs);
	for (size_t i = 0; st->pres && i < st->n; i++)
		partial_result_free(st->pres[i]);
	free(st->pres);
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

/* Reads log i of the n of both sides (of BASE when side is 0, of NEW
 * when 1) into st and analyses it when it could be read; says its
 * damage on standard error.  With --region, only the samples taken
 * inside the region are kept (regions.h), and a log that holds no
 * region of that name is said and not analysed.  Returns 0, 1 when it
 * was damaged, unreadable or without the region, MAPS_ENOMEM. */
static int cmp_read(struct cmp_state *st, size_t i, int side,
		    const char *path)
{
	struct model *m = &st->models[i];
	if (st->rg) {
		m->regions = &st->rg[i];
		if (regions_scan(&st->rg[i], &path, 1))
			return MAPS_ENOMEM;
	}
	m->timeline_on = st->timeline;
	m->on_sample = cmp_blocks_sample;
	m->on_sample_ctx = &st->blocks[i];
	int rc = model_load(m, path, NULL, NULL);
	if (rc < 0)
		return MAPS_ENOMEM;
	char line[1024];
	for (size_t k = 0; k < m->nnotes; k++)
		fprintf(stderr, "mapreport: %s\n",
			model_note_str(&m->notes[k], line, sizeof(line)));
	st->mptr[i] = m;
	if (rc == LOGREAD_UNREADABLE)
		return 1;
	if (st->rg && st->rg[i].filter_id < 0) {
		fprintf(stderr, "mapreport: %s (%s): no region %s in this "
				"log; see the Regions table of its report, or "
				"compare without --region\n",
			path, side ? "NEW" : "BASE", st->region);
		st->missing[side]++;
		st->noregion[i] = 1;
		return 1;
	}
	if (st->rg)
		cmp_region_times(m);
	if (analysis_run(&st->an[i], m))
		return MAPS_ENOMEM;
	st->have_an[i] = 1;
	if (st->pset->ps_ndefs &&
	    partial_eval(st->pset, m, &path, 1, &st->pres[i]))
		return MAPS_ENOMEM;
	return rc ? 1 : 0;
}

/* The runs of one side that could be read, from logs [from, from + n),
 * into st->runs + from; returns how many. */
static size_t cmp_side_runs(struct cmp_state *st, size_t from, size_t n)
{
	size_t k = 0;
	for (size_t i = from; i < from + n; i++)
		if (st->have_an[i])
			st->runs[from + k++] = (struct cmp_run){
				&st->models[i], &st->an[i], st->pres[i],
				&st->blocks[i]};
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
 * into probs (room for st->n + 1) with their lines in text (as many
 * entries of 512 bytes): each log without the --region, and a side
 * (nb or nn runs read) with nothing to compare.  Returns how many. */
static size_t cmp_problems(const struct cmp_state *st, const struct args *a,
			   size_t nb, size_t nn, struct output_problem *probs,
			   char (*text)[512])
{
	size_t n = 0;
	for (size_t i = 0; i < st->n; i++) {
		if (!st->noregion[i])
			continue;
		const char *log = i < a->nbase ? a->base[i]
					       : a->new[i - a->nbase];
		snprintf(text[n], sizeof(text[n]), "%s (%s): no region %s in "
			 "this log", log, i < a->nbase ? "BASE" : "NEW",
			 st->region);
		probs[n] = (struct output_problem){"region-missing", log,
						   text[n]};
		n++;
	}
	if (!nb || !nn) {
		snprintf(text[n], sizeof(text[n]), "%s: no log could be "
			 "read%s; nothing to compare", !nb ? "BASE" : "NEW",
			 st->missing[!nb ? 0 : 1] ? " with the region" : "");
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
	struct output_problem *probs = NULL;
	char(*ptext)[512] = NULL;
	int rc = load_rules(a, &rules);
	if (rc) {
		rules_free(&rules);
		return rc == 2 ? 2 : run_oom();
	}
	st.n = a->nbase + a->nnew;
	st.region = a->region;
	st.timeline = a->html_path != NULL;
	if (a->region && !(st.rg = calloc(st.n, sizeof(*st.rg))))
		goto oom;
	for (size_t i = 0; st.rg && i < st.n; i++)
		regions_init(&st.rg[i], a->region);
	st.models = calloc(st.n, sizeof(*st.models));
	st.mptr = calloc(st.n, sizeof(*st.mptr));
	st.an = calloc(st.n, sizeof(*st.an));
	st.have_an = calloc(st.n, sizeof(*st.have_an));
	st.runs = calloc(st.n, sizeof(*st.runs));
	st.pres = calloc(st.n, sizeof(*st.pres));
	st.blocks = calloc(st.n, sizeof(*st.blocks));
	st.noregion = calloc(st.n, 1);
	probs = calloc(st.n + 1, sizeof(*probs));
	ptext = calloc(st.n + 1, sizeof(*ptext));
	st.pset = load_partials(a, &status);
	results = calloc(rules.rs_n + 1, sizeof(*results));
	if (!st.models || !st.mptr || !st.an || !st.have_an || !st.runs ||
	    !st.pres || !st.blocks || !st.pset || !results || !st.noregion ||
	    !probs || !ptext)
		goto oom;
	for (size_t i = 0; i < st.n; i++)
		model_init(&st.models[i]);
	for (size_t i = 0; i < st.n; i++) {
		rc = cmp_read(&st, i, i >= a->nbase,
			      i < a->nbase ? a->base[i]
					   : a->new[i - a->nbase]);
		if (rc < 0)
			goto oom;
		status |= rc;
	}
	size_t nb = cmp_side_runs(&st, 0, a->nbase);
	size_t nn = cmp_side_runs(&st, a->nbase, a->nnew);
	if (!nb || !nn) {
		/* a side whose logs all lack the region was said */
		if (!st.missing[!nb ? 0 : 1])
			fprintf(stderr, "mapreport: %s: no log could be "
					"read; nothing to compare\n",
				!nb ? "BASE" : "NEW");
		status = 1;
	} else {
		if (compare_run_noise(&cmp, st.runs, nb, st.runs + a->nbase,
				      nn, a->run_noise))
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
	if (have_cmp && a->html_path &&
	    cmp_flame_of(&st, a->nbase, trees, &flame))
		goto oom;
	struct output_compare oc = {
		have_cmp ? &cmp : NULL, results, have_cmp ? rules.rs_n : 0, 0,
		a->sigma, a->base, a->new, a->nbase, a->nnew, st.mptr,
		a->html_path && have_cmp ? &flame : NULL, st.pset, probs,
		cmp_problems(&st, a, nb, nn, probs, ptext)};
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
	for (size_t i = 0; i < st.n; i++) {
		const char *const *lines;
		size_t np = st.have_an[i] ? sym_problems(st.an[i].st, &lines) : 0;
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
	free(probs);
	free(ptext);
	free(results);
	rules_free(&rules);
	return status;
}

