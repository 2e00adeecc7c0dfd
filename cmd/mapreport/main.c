/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport: turn mapsample logs into reports.  Option parsing and exit
 * codes only; the work is in lib/report.
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
#include "report/analyze.h"
#include "report/out/dump.h"
#include "report/out/folded.h"
#include "report/out/html.h"
#include "report/out/json.h"
#include "model/model.h"
#include "report/partial_eval.h"
#include "report/progress.h"
#include "report/out/text.h"

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
	if (!partial_paths) {
		fprintf(stderr, "mapreport: out of memory\n");
		return 1;
	}
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
			return 0;
		case 'V':
			printf("mapreport %s\n", PACKAGE_VERSION);
			free(partial_paths);
			return 0;
		default:
			cli_bad_option(PROG, OPTSTRING, argv, optind, optopt);
			free(partial_paths);
			return 2;
		}
	}
	if (folded && !folded_path && json && !json_path) {
		fprintf(stderr, "mapreport: --folded and --json both write to "
				"standard output; give one of them =FILE\n");
		free(partial_paths);
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "mapreport: no log given; "
				"usage: mapreport [options] LOG...\n");
		free(partial_paths);
		return 2;
	}
	int partial_status = 0;
	/* partial reports (mapreport(1), PARTIAL REPORTS): a definition with
	 * an error is left out and makes the exit status 1 */
	struct partial_set *pset = NULL;
	struct partial_result *presult = NULL;
	if (!dump) {
		pset = partial_set_new();
		if (!pset || partial_load(pset, partial_paths, npartial)) {
			fprintf(stderr, "mapreport: out of memory\n");
			return 1;
		}
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
	m.timeline_on = html_path != NULL;
	int status = 0, readable = 0;
	/* a progress line on a terminal while large logs are read */
	struct progress prog;
	uint64_t logbytes = 0, base = 0;
	struct stat sb;
	for (int i = optind; i < argc; i++)
		if (stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode))
			logbytes += (uint64_t)sb.st_size;
	progress_init(&prog, show_progress && !dump && isatty(STDERR_FILENO) &&
				     logbytes >= PROGRESS_MIN_BYTES
			     ? stderr
			     : NULL,
		      logbytes);
	m.progress = progress_update;
	m.progress_ctx = &prog;
	for (int i = optind; i < argc; i++) {
		progress_file(&prog, argv[i], base);
		if (stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode))
			base += (uint64_t)sb.st_size;
		int rc = model_load(&m, argv[i], dump ? &dump_tool : NULL, stdout);
		if (rc)
			status = 1;
		if (rc >= 0)
			readable++;
	}
	progress_end(&prog);
	if (readable && !dump) {
		struct analysis a;
		if (analysis_run(&a, &m)) {
			fprintf(stderr, "mapreport: out of memory\n");
			return 1;
		}
		if (pset && pset->ps_ndefs &&
		    partial_eval(pset, &m, (const char *const *)argv + optind,
				 (size_t)(argc - optind), &presult)) {
			fprintf(stderr, "mapreport: out of memory\n");
			return 1;
		}
		if (folded) {
			FILE *f = stdout;
			if (folded_path && !(f = fopen(folded_path, "w"))) {
				fprintf(stderr, "mapreport: %s: cannot write: "
						"%s\n", folded_path,
					strerror(errno));
				status = 1;
			} else {
				struct calltree t;
				if (calltree_build(&t, &m, &a)) {
					fprintf(stderr, "mapreport: out of "
							"memory\n");
					return 1;
				}
				int rc = folded_write(&t, f);
				calltree_free(&t);
				if (rc == MAPS_ENOMEM) {
					fprintf(stderr, "mapreport: out of "
							"memory\n");
					return 1;
				}
				if (rc || (f != stdout && fclose(f))) {
					fprintf(stderr, "mapreport: %s: write "
							"failed\n",
						folded_path ? folded_path
							    : "stdout");
					status = 1;
				}
			}
		}
		if (html_path) {
			struct html_opts ho = {(unsigned)top, presult, pset};
			FILE *f = fopen(html_path, "w");
			if (!f) {
				fprintf(stderr, "mapreport: %s: cannot write: "
						"%s\n", html_path,
					strerror(errno));
				status = 1;
			} else if (report_html(&m, &a, &ho, f) | fclose(f)) {
				fprintf(stderr, "mapreport: %s: write failed; "
						"the HTML report is incomplete\n",
					html_path);
				status = 1;
			}
		}
		if (json) {
			int rc;
			struct json_opts jo = {
				(const char *const *)argv + optind,
				(size_t)(argc - optind), (unsigned)top,
				"mapreport " PACKAGE_VERSION, presult, pset};
			FILE *f = json_path ? fopen(json_path, "w") : stdout;
			if (!f) {
				fprintf(stderr, "mapreport: %s: cannot write: "
						"%s\n", json_path,
					strerror(errno));
				status = 1;
			} else if ((rc = report_json(&m, &a, &jo, f)) ==
				   MAPS_ENOMEM) {
				fprintf(stderr, "mapreport: out of memory\n");
				return 1;
			} else if (rc | (f != stdout && fclose(f))) {
				fprintf(stderr, "mapreport: %s: write failed; "
						"the JSON report is incomplete\n",
					json_path ? json_path : "stdout");
				status = 1;
			}
		}
		if ((!folded || folded_path) && (!json || json_path)) {
			if (report_text(&m, stdout) ||
			    report_partial(presult, stdout)) {
				fprintf(stderr, "mapreport: out of memory\n");
				return 1;
			}
			report_functions(&a, &m, stdout, (unsigned)top);
		}
		const char *const *lines;
		size_t np = sym_problems(a.st, &lines);
		for (size_t i = 0; i < np; i++)
			fprintf(stderr, "mapreport: %s\n", lines[i]);
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
	return status | partial_status;
}
