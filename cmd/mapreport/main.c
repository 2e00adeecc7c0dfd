/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport: turn mapsample logs into reports.  Option parsing, choosing
 * the output back-ends (lib/report/out/output.h) and exit codes only; the
 * work is in lib/model, lib/report and lib/report/out.
 *
 * Exit status: 0 all logs read cleanly, 1 bad input (damaged, truncated or
 * unreadable log; whatever could be read is still reported), 2 usage.
 * A partial report definition with an error is bad input too: it is left
 * out, the rest is reported, the status is 1.
 */
#include <errno.h>
#include <getopt.h>
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
#include "report/out/output.h"
#include "report/partial_eval.h"
#include "report/progress.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mapreport [options] LOG...\n"
		"  -D, --dump           print every record, one per line\n"
		"      --folded[=FILE]  collapsed stacks for flame graphs, to\n"
		"                       FILE, or instead of the report to stdout\n"
		"      --html FILE      also write the report as one self-contained\n"
		"                       HTML file (charts, flame graph)\n"
		"      --json[=FILE]    the report as JSON (mapreport(1), JSON SCHEMA),\n"
		"                       to FILE, or instead of the report to stdout\n"
		"  -n, --top N          rows in each top-functions table (default 20)\n"
		"      --pprof FILE     also write a pprof profile (gzipped protobuf)\n"
		"      --speedscope FILE  also write a speedscope file (per thread)\n"
		"      --trace FILE     also write a Chrome trace (Perfetto's UI)\n"
		"      --no-progress    no progress line on a terminal\n"
		"      --partial-report FILE|DIR  partial report definitions\n"
		"                       (repeatable; instead of the default places)\n"
		"  -h, --help           this text\n"
		"  -V, --version        print the version\n");
}

#define PROG "mapreport"
#define OPTSTRING "Dn:hV"
#define OPT_PARTIAL_REPORT 0x170 /* --partial-report: no short option */
#define OPT_HTML 0x101
#define OPT_JSON 0x180 /* --json[=FILE] */
#define OPT_NO_PROGRESS 0x181
/* exports to other viewers: FILE each */
#define OPT_PPROF 0x190
#define OPT_SPEEDSCOPE 0x191
#define OPT_TRACE 0x192

static int out_of_memory(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	return 1;
}

/* What the command line asks for. */
struct args {
	int dump, folded, json, show_progress;
	const char *folded_path, *html_path, *json_path;
	unsigned top;
	/* exports (--pprof FILE ...), NULL when not asked for */
	const char *pprof_path, *speedscope_path, *trace_path;
	const char **partial_paths; /* --partial-report, npartial of them */
	size_t npartial;
	const char *const *logs;    /* the logs, nlogs of them */
	size_t nlogs;
};

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
		{"pprof", required_argument, NULL, OPT_PPROF},
		{"speedscope", required_argument, NULL, OPT_SPEEDSCOPE},
		{"trace", required_argument, NULL, OPT_TRACE},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;
	a->show_progress = 1;
	a->top = 20;
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
			unsigned long top = strtoul(optarg, &e, 10);
			if (!*optarg || *e || top > 100000) {
				fprintf(stderr, "mapreport: --top %s: give a "
						"number from 0 to 100000\n",
					optarg);
				return 2;
			}
			a->top = (unsigned)top;
			break;
		}
		case OPT_PARTIAL_REPORT:
			a->partial_paths[a->npartial++] = optarg;
			break;
		case OPT_PPROF:
			a->pprof_path = optarg;
			break;
		case OPT_SPEEDSCOPE:
			a->speedscope_path = optarg;
			break;
		case OPT_TRACE:
			a->trace_path = optarg;
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
		if (a->pprof_path)
			pick(outs, "pprof", a->pprof_path);
		if (a->speedscope_path)
			pick(outs, "speedscope", a->speedscope_path);
		if (a->trace_path)
			pick(outs, "trace", a->trace_path);
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

/*
 * Reads every log of a into m, with a progress line on a terminal for
 * large logs, giving each record to tool's logread tool too (when not
 * NULL).  Returns 1 when a log was damaged, truncated or unreadable,
 * else 0, or MAPS_ENOMEM (reading stopped); *readable counts the logs
 * read at least in part.
 */
static int read_logs(struct model *m, const struct args *a,
		     struct output *tool, int *readable)
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
		"mapreport " PACKAGE_VERSION};
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

int main(int argc, char **argv)
{
	struct args a = {0};
	/* --partial-report paths; at most one per argument */
	a.partial_paths = calloc((size_t)argc, sizeof(char *));
	/* the back-ends picked, by row of output_backends */
	struct output *outs = calloc(output_nbackends, sizeof(*outs));
	int rc = !a.partial_paths || !outs ? out_of_memory()
					   : parse_args(argc, argv, &a);
	if (rc >= 0) {
		free(a.partial_paths);
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
	if (tool && start_output(tool))
		return 1;
	int readable, status = read_logs(&m, &a, tool, &readable);
	if (tool)
		tool->ou_backend->ob_finish(tool);
	if (status < 0)
		return out_of_memory();
	if (readable && (needs & OUTPUT_NEED_ANALYSIS)) {
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
	partial_result_free(presult);
	partial_set_free(pset);
	free(a.partial_paths);
	free(outs);
	return status | partial_status;
}
