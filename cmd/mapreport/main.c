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

static int out_of_memory(void)
{
	fprintf(stderr, "mapreport: out of memory\n");
	return 1;
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

/* Runs the picked output o over in: init, emit, finish.  Returns 0, 1
 * when it could not be written (said on standard error), or MAPS_ENOMEM. */
static int run_output(struct output *o, const struct output_in *in)
{
	const struct output_backend *b = o->ou_backend;
	const char *where = o->ou_path ? o->ou_path : "stdout";
	if (b->ob_init(o)) {
		fprintf(stderr, "mapreport: %s: cannot write: %s\n", where,
			strerror(errno));
		return 1;
	}
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

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"dump", no_argument, NULL, 'D'},
		{"folded", optional_argument, NULL, 'f'},
		{"html", required_argument, NULL, OPT_HTML},
		{"json", optional_argument, NULL, OPT_JSON},
		{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
		{"top", required_argument, NULL, 'n'},
		{"partial-report", required_argument, NULL, OPT_PARTIAL_REPORT},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int dump = 0, folded = 0, c;
	const char *folded_path = NULL;
	const char *html_path = NULL;
	int json = 0;
	const char *json_path = NULL;
	int show_progress = 1;
	unsigned long top = 20;
	/* --partial-report paths; at most one per argument */
	const char **partial_paths = calloc((size_t)argc, sizeof(char *));
	size_t npartial = 0;
	/* the back-ends picked, by row of output_backends */
	struct output *outs = calloc(output_nbackends, sizeof(*outs));
	if (!partial_paths || !outs)
		return out_of_memory();
	opterr = 0;
	while ((c = getopt_long(argc, argv, OPTSTRING, lo, NULL)) != -1) {
		switch (c) {
		case 'D':
			dump = 1;
			break;
		case 'f':
			folded = 1;
			folded_path = optarg;
			break;
		case OPT_HTML:
			html_path = optarg;
			break;
		case OPT_JSON:
			json = 1;
			json_path = optarg;
			break;
		case OPT_NO_PROGRESS:
			show_progress = 0;
			break;
		case 'n': {
			char *e;
			top = strtoul(optarg, &e, 10);
			if (!*optarg || *e || top > 100000) {
				fprintf(stderr, "mapreport: --top %s: give a "
						"number from 0 to 100000\n",
					optarg);
				free(partial_paths);
				free(outs);
				return 2;
			}
			break;
		}
		case OPT_PARTIAL_REPORT:
			partial_paths[npartial++] = optarg;
			break;
		case 'h':
			usage(stdout);
			free(partial_paths);
			free(outs);
			return 0;
		case 'V':
			printf("mapreport %s\n", PACKAGE_VERSION);
			free(partial_paths);
			free(outs);
			return 0;
		default:
			cli_bad_option(PROG, OPTSTRING, argv, optind, optopt);
			free(partial_paths);
			free(outs);
			return 2;
		}
	}
	if (folded && !folded_path && json && !json_path) {
		fprintf(stderr, "mapreport: --folded and --json both write to "
				"standard output; give one of them =FILE\n");
		free(partial_paths);
		free(outs);
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "mapreport: no log given; "
				"usage: mapreport [options] LOG...\n");
		free(partial_paths);
		free(outs);
		return 2;
	}
	/* -D alone; else the files asked for, and the text report when
	 * standard output is not taken */
	if (dump) {
		pick(outs, "dump", NULL);
	} else {
		if (folded)
			pick(outs, "folded", folded_path);
		if (html_path)
			pick(outs, "html", html_path);
		if (json)
			pick(outs, "json", json_path);
		if ((!folded || folded_path) && (!json || json_path))
			pick(outs, "text", NULL);
	}
	unsigned needs = 0;
	struct output *tool = NULL; /* the output written as logs are read */
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend)
			continue;
		needs |= outs[i].ou_backend->ob_needs;
		if (outs[i].ou_backend->ob_tool)
			tool = &outs[i];
	}
	int partial_status = 0;
	/* partial reports (mapreport(1), PARTIAL REPORTS): a definition with
	 * an error is left out and makes the exit status 1 */
	struct partial_set *pset = NULL;
	struct partial_result *presult = NULL;
	if (needs & OUTPUT_NEED_ANALYSIS) {
		pset = partial_set_new();
		if (!pset || partial_load(pset, partial_paths, npartial))
			return out_of_memory();
		for (size_t i = 0; i < pset->ps_ndiags; i++)
			fprintf(stderr, "mapreport: %s\n",
				pset->ps_diags[i].pd_text);
		for (size_t i = 0; i < pset->ps_nfiles; i++)
			if (pset->ps_files[i].pf_nerrors)
				fprintf(stderr, "mapreport: %s: partial report "
						"left out (%u error%s); the rest "
						"of the report is written\n",
					pset->ps_files[i].pf_path,
					pset->ps_files[i].pf_nerrors,
					pset->ps_files[i].pf_nerrors == 1
						? "" : "s");
		if (pset->ps_nerrors)
			partial_status = 1;
	}
	struct model m;
	model_init(&m);
	m.timeline_on = (needs & OUTPUT_NEED_TIMELINE) != 0;
	int status = 0, readable = 0;
	/* a progress line on a terminal while large logs are read */
	struct progress prog;
	uint64_t logbytes = 0, base = 0;
	struct stat sb;
	for (int i = optind; i < argc; i++)
		if (stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode))
			logbytes += (uint64_t)sb.st_size;
	progress_init(&prog, show_progress && !tool && isatty(STDERR_FILENO) &&
				     logbytes >= PROGRESS_MIN_BYTES
			     ? stderr
			     : NULL,
		      logbytes);
	m.progress = progress_update;
	m.progress_ctx = &prog;
	if (tool && tool->ou_backend->ob_init(tool)) {
		fprintf(stderr, "mapreport: %s: cannot write: %s\n",
			tool->ou_path ? tool->ou_path : "stdout",
			strerror(errno));
		return 1;
	}
	for (int i = optind; i < argc; i++) {
		progress_file(&prog, argv[i], base);
		if (stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode))
			base += (uint64_t)sb.st_size;
		int rc = model_load(&m, argv[i],
				    tool ? tool->ou_backend->ob_tool : NULL,
				    tool ? tool->ou_file : NULL);
		if (rc)
			status = 1;
		if (rc >= 0)
			readable++;
	}
	progress_end(&prog);
	if (tool)
		tool->ou_backend->ob_finish(tool);
	if (readable && (needs & OUTPUT_NEED_ANALYSIS)) {
		struct analysis a;
		struct calltree t = {0};
		if (analysis_run(&a, &m) ||
		    ((needs & OUTPUT_NEED_RANKS) && analysis_rank(&a)))
			return out_of_memory();
		if (pset && pset->ps_ndefs &&
		    partial_eval(pset, &m, (const char *const *)argv + optind,
				 (size_t)(argc - optind), &presult))
			return out_of_memory();
		if ((needs & OUTPUT_NEED_CALLTREE) && calltree_build(&t, &m, &a))
			return out_of_memory();
		struct output_in in = {
			&m, &a, (needs & OUTPUT_NEED_CALLTREE) ? &t : NULL,
			presult, pset, (const char *const *)argv + optind,
			(size_t)(argc - optind), (unsigned)top,
			"mapreport " PACKAGE_VERSION};
		for (size_t i = 0; i < output_nbackends; i++) {
			if (!outs[i].ou_backend || !outs[i].ou_backend->ob_emit)
				continue;
			int rc = run_output(&outs[i], &in);
			if (rc == MAPS_ENOMEM)
				return out_of_memory();
			status |= rc;
		}
		const char *const *lines;
		size_t np = sym_problems(a.st, &lines);
		for (size_t i = 0; i < np; i++)
			fprintf(stderr, "mapreport: %s\n", lines[i]);
		calltree_free(&t);
		analysis_free(&a);
	}
	fflush(stdout);
	char line[1024];
	for (size_t i = 0; i < m.nnotes; i++)
		fprintf(stderr, "mapreport: %s\n",
			model_note_str(&m.notes[i], line, sizeof(line)));
	model_free(&m);
	partial_result_free(presult);
	partial_set_free(pset);
	free(partial_paths);
	free(outs);
	return status | partial_status;
}
