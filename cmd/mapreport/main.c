/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport: turn mapsample logs into reports.  Option parsing, choosing
 * the output back-ends (lib/report/out/output.h) and exit codes only; the
 * work is in lib/model, lib/report and lib/report/out.
 *
 * Exit status: 0 all logs read cleanly, 1 bad input (damaged, truncated or
 * unreadable log; whatever could be read is still reported), 2 usage.
 * A partial report definition with an error is bad input too: it is left
 * out, the rest is reported, the status is 1.  With --compare (the
 * second half of this file): 0 no rule broken, 3 a rule broken, 1 an
 * input problem (it wins over 3: the figures are not to be trusted), 2
 * usage, an invalid rule included.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/cli.h"
#include "config.h"
#include "model/model.h"
#include "report/analyze.h"
#include "report/calltree.h"
#include "report/compare.h"
#include "report/out/output.h"
#include "report/partial_eval.h"
#include "report/progress.h"
#include "report/rules.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mapreport [options] LOG...\n"
		"       mapreport --compare [options] BASE NEW\n"
		"       mapreport [options] --base LOG... --new LOG...\n"
		"  -D, --dump           print every record, one per line\n"
		"      --folded[=FILE]  collapsed stacks for flame graphs, to\n"
		"                       FILE, or instead of the report to stdout\n"
		"      --html FILE      also write the report as one self-contained\n"
		"                       HTML file (charts, flame graph)\n"
		"      --json[=FILE]    the report as JSON (mapreport(1), JSON SCHEMA),\n"
		"                       to FILE, or instead of the report to stdout\n"
		"      --merge          report logs of different runs as one\n"
		"  -n, --top N|all      rows in each top-functions table (default 20;\n"
		"                       all: every function)\n"
		"      --no-progress    no progress line on a terminal\n"
		"      --partial-report FILE|DIR  partial report definitions\n"
		"                       (repeatable; instead of the default places)\n"
		"comparing runs (mapreport(1), COMPARING RUNS):\n"
		"      --compare        compare BASE with NEW (one log each)\n"
		"      --base LOG, --new LOG  a log of each side (repeatable:\n"
		"                       several runs a side)\n"
		"      --fail-if RULE   exit 3 when RULE is broken (repeatable):\n"
		"                       'self(parse) > +2pp', 'total > +5%%'\n"
		"      --rules FILE     rules, one a line (repeatable)\n"
		"      --sigma N        significance a rule asks by default (3)\n"
		"      --markdown[=FILE] a Markdown table for a pull request\n"
		"      --junit FILE     JUnit XML, one test case per rule\n"
		"      --github         GitHub Actions ::error:: and ::notice::\n"
		"      --html FILE      with --compare: a differential flame graph\n"
		"      --region NAME    only the samples taken inside the\n"
		"                       program's region NAME (mapsample_mark(3))\n"
		"  -h, --help           this text\n"
		"  -V, --version        print the version\n");
}

#define PROG "mapreport"
#define OPTSTRING "Dn:hV"
#define OPT_PARTIAL_REPORT 0x170 /* --partial-report: no short option */
#define OPT_HTML 0x101
#define OPT_JSON 0x180 /* --json[=FILE] */
#define OPT_NO_PROGRESS 0x181
#define OPT_COMPARE 0x190
#define OPT_BASE 0x191
#define OPT_NEW 0x192
#define OPT_FAIL_IF 0x193
#define OPT_RULES 0x194
#define OPT_SIGMA 0x195
#define OPT_MARKDOWN 0x196
#define OPT_JUNIT 0x197
#define OPT_GITHUB 0x198
#define OPT_MERGE 0x199
#define OPT_REGION 0x19a

static int out_of_memory(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	return 1;
}

/* What the command line asks for. */
struct args {
	int dump, folded, json, show_progress;
	const char *folded_path, *html_path, *json_path;
	const char *region;         /* --region NAME, or NULL */
	unsigned top;
	const char **partial_paths; /* --partial-report, npartial of them */
	size_t npartial;
	const char *const *logs;    /* the logs, nlogs of them */
	size_t nlogs;
	int merge;                  /* --merge */
	/* --compare; each array has room for argc entries */
	int compare, markdown, github;
	const char *markdown_path, *junit_path;
	const char **base, **new, **fail_if, **rules_files;
	size_t nbase, nnew, nfail_if, nrules_files;
	double sigma;
};

/*
 * The rest of --compare's command line, after the options: BASE and NEW
 * as two arguments, or the logs of --base and --new.  Returns -1 to go
 * on, or 2 after a usage error (said on standard error).
 */
static int compare_args(int argc, char **argv, struct args *a)
{
	int npos = argc - optind;
	if (a->dump || a->folded) {
		fprintf(stderr, "mapreport: --compare writes text, --json, "
				"--markdown, --junit, --github and --html; -D "
				"and --folded do not go with it\n");
		return 2;
	}
	if (a->nbase || a->nnew) {
		if (!a->nbase || !a->nnew || npos) {
			fprintf(stderr, "mapreport: give both --base LOG and "
					"--new LOG (each repeatable) and no "
					"other log\n");
			return 2;
		}
	} else if (npos != 2) {
		fprintf(stderr, "mapreport: --compare takes two logs, BASE "
				"and NEW (%d given); for several runs a side "
				"give --base LOG... --new LOG...\n",
			npos);
		return 2;
	} else {
		a->base[a->nbase++] = argv[optind];
		a->new[a->nnew++] = argv[optind + 1];
	}
	int takers = (a->json && !a->json_path) +
		     (a->markdown && !a->markdown_path) + a->github;
	if (takers > 1) {
		fprintf(stderr, "mapreport: --json, --markdown and --github "
				"would share standard output; give "
				"--json=FILE or --markdown=FILE\n");
		return 2;
	}
	a->compare = 1;
	return -1;
}

/*
 * Parses argv into a (a->partial_paths has room for argc paths).
 * Returns -1 to go on, else the exit status: 0 after --help or
 * --version, 2 after a usage error (said on standard error).
 */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lo[] = {
		{"dump", no_argument, NULL, 'D'},
		{"folded", optional_argument, NULL, 'f'},
		{"html", required_argument, NULL, OPT_HTML},
		{"json", optional_argument, NULL, OPT_JSON},
		{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
		{"top", required_argument, NULL, 'n'},
		{"partial-report", required_argument, NULL, OPT_PARTIAL_REPORT},
		{"region", required_argument, NULL, OPT_REGION},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"merge", no_argument, NULL, OPT_MERGE},
		{"compare", no_argument, NULL, OPT_COMPARE},
		{"base", required_argument, NULL, OPT_BASE},
		{"new", required_argument, NULL, OPT_NEW},
		{"fail-if", required_argument, NULL, OPT_FAIL_IF},
		{"rules", required_argument, NULL, OPT_RULES},
		{"sigma", required_argument, NULL, OPT_SIGMA},
		{"markdown", optional_argument, NULL, OPT_MARKDOWN},
		{"junit", required_argument, NULL, OPT_JUNIT},
		{"github", no_argument, NULL, OPT_GITHUB},
		{NULL, 0, NULL, 0},
	};
	int c;
	a->show_progress = 1;
	a->top = 20;
	a->sigma = 3;
	opterr = 0;
	while ((c = getopt_long(argc, argv, OPTSTRING, lo, NULL)) != -1) {
		switch (c) {
		case 'D':
			a->dump = 1;
			break;
		case 'f':
			a->folded = 1;
			a->folded_path = optarg;
			break;
		case OPT_HTML:
			a->html_path = optarg;
			break;
		case OPT_JSON:
			a->json = 1;
			a->json_path = optarg;
			break;
		case OPT_NO_PROGRESS:
			a->show_progress = 0;
			break;
		case 'n': {
			char *e;
			if (strcmp(optarg, "all") == 0) {
				a->top = UINT_MAX; /* every function */
				break;
			}
			unsigned long top = strtoul(optarg, &e, 10);
			if (!*optarg || *e || top > 100000) {
				fprintf(stderr, "mapreport: --top %s: give a "
						"number from 0 to 100000, "
						"or all\n",
					optarg);
				return 2;
			}
			a->top = (unsigned)top;
			break;
		}
		case OPT_REGION:
			a->region = optarg;
			break;
		case OPT_PARTIAL_REPORT:
			a->partial_paths[a->npartial++] = optarg;
			break;
		case OPT_MERGE:
			a->merge = 1;
			break;
		case OPT_COMPARE:
			a->compare = 1;
			break;
		case OPT_BASE:
			a->base[a->nbase++] = optarg;
			break;
		case OPT_NEW:
			a->new[a->nnew++] = optarg;
			break;
		case OPT_FAIL_IF:
			a->fail_if[a->nfail_if++] = optarg;
			break;
		case OPT_RULES:
			a->rules_files[a->nrules_files++] = optarg;
			break;
		case OPT_SIGMA: {
			char *e;
			double v = strtod(optarg, &e);
			if (!*optarg || *e || !(v >= 0 && v <= 100)) {
				fprintf(stderr, "mapreport: --sigma %s: give a "
						"number from 0 to 100\n",
					optarg);
				return 2;
			}
			a->sigma = v;
			break;
		}
		case OPT_MARKDOWN:
			a->markdown = 1;
			a->markdown_path = optarg;
			break;
		case OPT_JUNIT:
			a->junit_path = optarg;
			break;
		case OPT_GITHUB:
			a->github = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("mapreport %s\n", PACKAGE_VERSION);
			return 0;
		default:
			cli_bad_option(PROG, OPTSTRING, argv, optind, optopt);
			return 2;
		}
	}
	if (a->compare || a->nbase || a->nnew)
		return compare_args(argc, argv, a);
	if (a->nfail_if || a->nrules_files || a->markdown || a->junit_path ||
	    a->github) {
		fprintf(stderr, "mapreport: --fail-if, --rules, --markdown, "
				"--junit and --github go with --compare\n");
		return 2;
	}
	if (a->folded && !a->folded_path && a->json && !a->json_path) {
		fprintf(stderr, "mapreport: --folded and --json both write to "
				"standard output; give one of them =FILE\n");
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "mapreport: no log given; "
				"usage: mapreport [options] LOG...\n");
		return 2;
	}
	a->logs = (const char *const *)argv + optind;
	a->nlogs = (size_t)(argc - optind);
	for (size_t i = 0; i < a->nlogs; i++) { /* a folder is not a log */
		struct stat sb;
		if (stat(a->logs[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "mapreport: %s: a directory, not a "
					"mapsample log; give the logs in it "
					"(mapreport %s/*.maplog)\n",
				a->logs[i], a->logs[i]);
			return 2;
		}
	}
	return -1;
}

/* Picks the back-end named name to write to path (NULL: standard output)
 * into outs, which has a slot per row of output_backends. */
static void pick(struct output *outs, const char *name, const char *path)
{
	const struct output_backend *b = output_find(name);
	struct output *o = &outs[b - output_backends];
	o->ou_backend = b;
	o->ou_path = path;
}

/* The outputs a asks for, into outs: -D alone; else the files asked for,
 * and the text report when standard output is not taken.  Returns what
 * they need (OUTPUT_NEED_*); *tool is the one written as the logs are
 * read, or NULL. */
static unsigned pick_outputs(const struct args *a, struct output *outs,
			     struct output **tool)
{
	if (a->dump) {
		pick(outs, "dump", NULL);
	} else {
		if (a->folded)
			pick(outs, "folded", a->folded_path);
		if (a->html_path)
			pick(outs, "html", a->html_path);
		if (a->json)
			pick(outs, "json", a->json_path);
		if ((!a->folded || a->folded_path) && (!a->json || a->json_path))
			pick(outs, "text", NULL);
	}
	unsigned needs = 0;
	*tool = NULL;
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend)
			continue;
		needs |= outs[i].ou_backend->ob_needs;
		if (outs[i].ou_backend->ob_tool)
			*tool = &outs[i];
	}
	return needs;
}

/*
 * The partial report definitions (mapreport(1), PARTIAL REPORTS), their
 * diagnostics said on standard error; a definition with an error is left
 * out and sets *status to 1.  NULL when out of memory.
 */
static struct partial_set *load_partials(const struct args *a, int *status)
{
	struct partial_set *pset = partial_set_new();
	if (!pset || partial_load(pset, a->partial_paths, a->npartial)) {
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

/* What names the run a log is of.  The log holds no run id, so: the
 * command line of the first process it initializes, and the time (wall
 * clock) from the first process's start to the last one's last record:
 * the processes of one run (the ranks of one job, each with its log)
 * run at the same time, two runs of one command one after the other. */
struct run_id {
	const char *command;  /* in the model; NULL: no initialize record */
	double start, end;    /* seconds since the epoch */
	const struct rproc *proc;
};

/* Seconds two logs of one run may seem apart (clocks of two hosts). */
#define RUN_SLACK 1.0

/* The run of the processes m->procs[from..] that the last log added. */
static struct run_id run_of(const struct model *m, size_t from)
{
	struct run_id id = {NULL, 0, 0, NULL};
	for (size_t i = from; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (!p->have_init || !p->cmdline)
			continue;
		double s = (double)p->wall_sec + p->wall_nsec / 1e9;
		double e = s + (p->end_ts > p->start_ts
					? (double)(p->end_ts - p->start_ts) / 1e9
					: 0.0);
		if (!id.command) {
			id.proc = p;
			id.command = p->cmdline;
			id.start = s;
			id.end = e;
		}
		if (s < id.start)
			id.start = s;
		if (e > id.end)
			id.end = e;
	}
	return id;
}

/*
 * Whether the logs of a, whose runs are ids, are of one run: the same
 * command line, and times that overlap (within RUN_SLACK).  Returns 0,
 * or 2 after saying on standard error which two logs are of different
 * runs and what to do (a->merge skips the check).
 */
static int check_one_run(const struct args *a, const struct run_id *ids)
{
	const struct run_id *first = NULL;
	size_t fi = 0;
	for (size_t i = 0; i < a->nlogs && !a->merge; i++) {
		if (!ids[i].command)
			continue; /* nothing says which run it is */
		if (!first) {
			first = &ids[i];
			fi = i;
			continue;
		}
		if (strcmp(first->command, ids[i].command) == 0 &&
		    ids[i].start <= first->end + RUN_SLACK &&
		    first->start <= ids[i].end + RUN_SLACK)
			continue;
		char w1[64], w2[64];
		if (!model_start_str(first->proc, "%Y-%m-%d %H:%M:%S UTC", w1,
				     sizeof(w1)))
			strcpy(w1, "?");
		if (!model_start_str(ids[i].proc, "%Y-%m-%d %H:%M:%S UTC", w2,
				     sizeof(w2)))
			strcpy(w2, "?");
		fprintf(stderr, "mapreport: %s and %s are logs of different "
				"runs ('%s' started %s; '%s' started %s); give "
				"--merge to report them as one, or --compare "
				"BASE NEW to compare them\n",
			a->logs[fi], a->logs[i], first->command, w1,
			ids[i].command, w2);
		return 2;
	}
	return 0;
}

/*
 * Reads every log of a into m, with a progress line on a terminal for
 * large logs, giving each record to tool's logread tool too (when not
 * NULL).  Returns 1 when a log was damaged, truncated or unreadable,
 * else 0, or MAPS_ENOMEM (reading stopped); *readable counts the logs
 * read at least in part; ids[i] is the run of log i.
 */
static int read_logs(struct model *m, const struct args *a,
		     struct output *tool, int *readable, struct run_id *ids)
{
	struct progress prog;
	uint64_t logbytes = 0, base = 0;
	struct stat sb;
	int status = 0;
	for (size_t i = 0; i < a->nlogs; i++)
		if (stat(a->logs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			logbytes += (uint64_t)sb.st_size;
	progress_init(&prog, a->show_progress && !tool &&
				     isatty(STDERR_FILENO) &&
				     logbytes >= PROGRESS_MIN_BYTES
			     ? stderr
			     : NULL,
		      logbytes);
	m->progress = progress_update;
	m->progress_ctx = &prog;
	*readable = 0;
	for (size_t i = 0; i < a->nlogs; i++) {
		progress_file(&prog, a->logs[i], base);
		if (stat(a->logs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			base += (uint64_t)sb.st_size;
		size_t procs_before = m->nprocs;
		int rc = model_load(m, a->logs[i],
				    tool ? tool->ou_backend->ob_tool : NULL,
				    tool ? tool->ou_file : NULL);
		if (rc < 0) {
			status = rc; /* out of memory: the model is lost */
			break;
		}
		if (rc)
			status = 1;
		if (rc != LOGREAD_UNREADABLE)
			(*readable)++;
		ids[i] = run_of(m, procs_before);
	}
	progress_end(&prog);
	m->progress = NULL;
	m->progress_ctx = NULL;
	return status;
}

/* Opens the picked output o (its back-end's init).  Returns 0, or 1 when
 * it cannot be written (said on standard error). */
static int start_output(struct output *o)
{
	if (!o->ou_backend->ob_init(o))
		return 0;
	fprintf(stderr, "mapreport: %s: cannot write: %s\n",
		o->ou_path ? o->ou_path : "stdout", strerror(errno));
	return 1;
}

/* Runs the picked output o over in: init, emit, finish.  Returns 0, 1
 * when it could not be written (said on standard error), or MAPS_ENOMEM. */
static int run_output(struct output *o, const struct output_in *in)
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

/*
 * Analyses m as needs says, evaluates the partial reports of pset (into
 * *presult) and runs the picked outputs that write after reading, in
 * table order; then says the symbolizer's problems on standard error.
 * Returns 0, 1 when an output could not be written, or MAPS_ENOMEM.
 */
static int write_reports(const struct model *m, const struct args *a,
			 struct output *outs, unsigned needs,
			 const struct partial_set *pset,
			 struct partial_result **presult)
{
	struct analysis an;
	struct calltree t = {0};
	int status = 0, rc = analysis_run(&an, m);
	if (rc)
		return rc;
	if (((needs & OUTPUT_NEED_RANKS) && analysis_rank(&an)) ||
	    (pset && pset->ps_ndefs &&
	     partial_eval(pset, m, a->logs, a->nlogs, presult)) ||
	    ((needs & OUTPUT_NEED_CALLTREE) && calltree_build(&t, m, &an))) {
		rc = MAPS_ENOMEM;
		goto out;
	}
	struct output_in in = {
		m, &an, (needs & OUTPUT_NEED_CALLTREE) ? &t : NULL, *presult,
		pset, a->logs, a->nlogs, a->top,
		"mapreport " PACKAGE_VERSION, NULL};
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend || !outs[i].ou_backend->ob_emit)
			continue;
		if ((rc = run_output(&outs[i], &in)) == MAPS_ENOMEM)
			goto out;
		status |= rc;
	}
	const char *const *lines;
	size_t np = sym_problems(an.st, &lines);
	for (size_t i = 0; i < np; i++)
		fprintf(stderr, "mapreport: %s\n", lines[i]);
	rc = status;
out:
	calltree_free(&t);
	analysis_free(&an);
	return rc;
}

/* ---- --compare ---- */

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
 * analyses, and the runs given to compare_run. */
struct cmp_state {
	size_t n;
	struct model *models;
	const struct model **mptr;   /* the models read, NULL after MAPS_ENOMEM */
	struct analysis *an;
	int *have_an;
	struct cmp_run *runs;
};

static void cmp_state_free(struct cmp_state *st)
{
	for (size_t i = 0; st->models && i < st->n; i++) {
		if (st->have_an[i])
			analysis_free(&st->an[i]);
		model_free(&st->models[i]);
	}
	free(st->models);
	free(st->mptr);
	free(st->an);
	free(st->have_an);
	free(st->runs);
}

/* Reads log i of the n of both sides into st and analyses it when it
 * could be read; says its damage on standard error.  Returns 0, 1 when
 * it was damaged or unreadable, MAPS_ENOMEM. */
static int cmp_read(struct cmp_state *st, size_t i, const char *path)
{
	struct model *m = &st->models[i];
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
	if (analysis_run(&st->an[i], m))
		return MAPS_ENOMEM;
	st->have_an[i] = 1;
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
				&st->models[i], &st->an[i]};
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
 * unreadable, an output not written), 2 an invalid rule.
 */
static int run_compare(const struct args *a, struct output *outs)
{
	struct rule_set rules = {0};
	struct cmp_state st = {0};
	struct comparison cmp;
	int have_cmp = 0, status = 0;
	struct rule_result *results = NULL;
	struct calltree trees[2] = {{0}, {0}};
	struct cmp_flame flame = {0};
	int rc = load_rules(a, &rules);
	if (rc) {
		rules_free(&rules);
		return rc == 2 ? 2 : out_of_memory();
	}
	st.n = a->nbase + a->nnew;
	st.models = calloc(st.n, sizeof(*st.models));
	st.mptr = calloc(st.n, sizeof(*st.mptr));
	st.an = calloc(st.n, sizeof(*st.an));
	st.have_an = calloc(st.n, sizeof(*st.have_an));
	st.runs = calloc(st.n, sizeof(*st.runs));
	results = calloc(rules.rs_n + 1, sizeof(*results));
	if (!st.models || !st.mptr || !st.an || !st.have_an || !st.runs ||
	    !results)
		goto oom;
	for (size_t i = 0; i < st.n; i++)
		model_init(&st.models[i]);
	for (size_t i = 0; i < st.n; i++) {
		rc = cmp_read(&st, i, i < a->nbase ? a->base[i]
						   : a->new[i - a->nbase]);
		if (rc < 0)
			goto oom;
		status |= rc;
	}
	size_t nb = cmp_side_runs(&st, 0, a->nbase);
	size_t nn = cmp_side_runs(&st, a->nbase, a->nnew);
	if (!nb || !nn) {
		fprintf(stderr, "mapreport: %s: no log could be read; nothing "
				"to compare\n",
			!nb ? "BASE" : "NEW");
		status = 1;
	} else {
		if (compare_run(&cmp, st.runs, nb, st.runs + a->nbase, nn))
			goto oom;
		have_cmp = 1;
		for (size_t k = 0; k < cmp.nnotes; k++)
			fprintf(stderr, "mapreport: note: %s\n", cmp.notes[k]);
	}
	if (have_cmp && a->html_path &&
	    cmp_flame_of(&st, a->nbase, trees, &flame))
		goto oom;
	struct output_compare oc = {
		have_cmp ? &cmp : NULL, results, rules.rs_n, 0, a->sigma,
		a->base, a->new, a->nbase, a->nnew, st.mptr,
		a->html_path && have_cmp ? &flame : NULL};
	if (have_cmp)
		oc.oc_broken = rules_eval(&rules, &cmp, a->sigma, results);
	struct output_in in = {0};
	in.oi_compare = &oc;
	in.oi_top = a->top;
	in.oi_generator = "mapreport " PACKAGE_VERSION;
	pick_compare_outputs(a, outs);
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend || !outs[i].ou_backend->ob_emit ||
		    (!have_cmp &&
		     strcmp(outs[i].ou_backend->ob_name, "compare-json") != 0))
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
	status = out_of_memory();
out:
	fflush(stdout);
	compare_flame_free(&flame);
	calltree_free(&trees[0]);
	calltree_free(&trees[1]);
	if (have_cmp)
		compare_free(&cmp);
	cmp_state_free(&st);
	free(results);
	rules_free(&rules);
	return status;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	/* --partial-report paths; at most one per argument */
	a.partial_paths = calloc((size_t)argc, sizeof(char *));
	/* --base, --new, --fail-if, --rules: at most one per argument */
	const char **cmp_lists = calloc(4 * (size_t)argc, sizeof(char *));
	if (cmp_lists) {
		a.base = cmp_lists;
		a.new = cmp_lists + argc;
		a.fail_if = cmp_lists + 2 * argc;
		a.rules_files = cmp_lists + 3 * argc;
	}
	/* the back-ends picked, by row of output_backends */
	struct output *outs = calloc(output_nbackends, sizeof(*outs));
	int rc = !a.partial_paths || !outs || !cmp_lists
			 ? out_of_memory()
			 : parse_args(argc, argv, &a);
	if (rc < 0 && a.compare)
		rc = run_compare(&a, outs);
	if (rc >= 0) {
		free(a.partial_paths);
		free(cmp_lists);
		free(outs);
		return rc;
	}
	struct output *tool;
	unsigned needs = pick_outputs(&a, outs, &tool);
	int partial_status = 0;
	struct partial_set *pset = NULL;
	struct partial_result *presult = NULL;
	if ((needs & OUTPUT_NEED_ANALYSIS) &&
	    !(pset = load_partials(&a, &partial_status)))
		return out_of_memory();
	struct model m;
	model_init(&m);
	m.timeline_on = (needs & OUTPUT_NEED_TIMELINE) != 0;
	struct regions rg;
	regions_init(&rg, a.region);
	m.regions = &rg;
	if (a.region && regions_scan(&rg, a.logs, a.nlogs))
		return out_of_memory();
	if (tool && start_output(tool))
		return 1;
	struct run_id *ids = calloc(a.nlogs, sizeof(*ids));
	if (!ids)
		return out_of_memory();
	int readable, status = read_logs(&m, &a, tool, &readable, ids);
	if (tool)
		tool->ou_backend->ob_finish(tool);
	if (status < 0 || ((needs & OUTPUT_NEED_ANALYSIS) &&
			   regions_complete(&rg, a.logs, a.nlogs)))
		return out_of_memory();
	if (!tool && check_one_run(&a, ids)) {
		free(ids);
		model_free(&m);
		partial_set_free(pset);
		free(a.partial_paths);
		free(cmp_lists);
		free(outs);
		return 2;
	}
	free(ids);
	if (readable && a.region && rg.filter_id < 0 &&
	    (needs & OUTPUT_NEED_ANALYSIS)) {
		fprintf(stderr, "mapreport: --region %s: no region of that "
				"name in the logs; see the Regions table of the "
				"report without --region\n", a.region);
		readable = 0; /* no report: it would be empty */
		status |= 1;
	}
	/* with no log read, only the JSON report is written: its errors[]
	 * says why, for scripts */
	int json_only = !readable && a.json;
	for (size_t i = 0; json_only && i < output_nbackends; i++)
		if (outs[i].ou_backend &&
		    strcmp(outs[i].ou_backend->ob_name, "json") != 0)
			outs[i].ou_backend = NULL;
	if ((readable || json_only) && (needs & OUTPUT_NEED_ANALYSIS)) {
		rc = write_reports(&m, &a, outs, needs, pset, &presult);
		if (rc == MAPS_ENOMEM)
			return out_of_memory();
		status |= rc;
	}
	fflush(stdout);
	char line[1024];
	for (size_t i = 0; i < m.nnotes; i++)
		fprintf(stderr, "mapreport: %s\n",
			model_note_str(&m.notes[i], line, sizeof(line)));
	model_free(&m);
	regions_free(&rg);
	partial_result_free(presult);
	partial_set_free(pset);
	free(a.partial_paths);
	free(cmp_lists);
	free(outs);
	return status | partial_status;
}
