/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args: mapreport's command line into struct args (args.h): the options,
 * their values checked (one line naming the option and the fix when
 * not), the usage text, and the logs (a job's folder stands for its
 * logs).  main.c runs what it asks for.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "cmd/mapreport/args.h"
#include "cmd/mapreport/compare.h"
#include "cmd/mapreport/jobdir.h"
#include "cmd/mapreport/run.h"
#include "common/cli.h"
#include "config.h"
#include "model/model.h"
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
		"      --launchers      count the samples of launcher processes\n"
		"                       (mpirun, orted, srun, ...) too\n"
		"      --mpi-internals  keep the MPI library's own frames below "
		"the MPI call\n"
		"  -n, --top N|all      rows in each top-functions table (default 20;\n"
		"                       all: every function)\n"
		"      --images N|all   images (exec'd programs) of one process\n"
		"                       listed in the process tables (default 10)\n"
		"      --pprof FILE     also write a pprof profile (gzipped protobuf)\n"
		"      --speedscope FILE  also write a speedscope file (per thread)\n"
		"      --trace FILE     also write a Chrome trace (Perfetto's UI)\n"
		"      --html-sources N  source files embedded in the HTML report\n"
		"                       (default 10; 0: none)\n"
		"      --html-source-max SIZE  bytes of each embedded source "
		"file\n"
		"                       (default 1M; K, M, G: KiB, MiB, GiB)\n"
		"      --html-sources-max SIZE  bytes of all embedded source "
		"files\n"
		"                       (default 4M)\n"
		"      --no-progress    no progress line on a terminal\n"
		"      --jobs N|auto    read N logs at once, on N threads (default\n"
		"                       auto: one per CPU, at most 8; 1: one by one)\n"
		"      --partial-report FILE|DIR  partial report definitions\n"
		"                       (repeatable; instead of the default places)\n"
		"comparing runs (mapreport(1), COMPARING RUNS):\n"
		"      --compare        compare BASE with NEW (a log or a job's\n"
		"                       folder each; filters apply to both)\n"
		"      --base LOG, --new LOG  a log or folder of each side\n"
		"                       (repeatable: several runs a side)\n"
		"      --fail-if RULE   exit 3 when RULE is broken (repeatable):\n"
		"                       'self(parse) > +2pp', 'total > +5%%'\n"
		"      --rules FILE     rules, one a line (repeatable)\n"
		"      --sigma N        significance a rule asks by default (3)\n"
		"      --run-noise PCT  whole-run time's variation between runs\n"
		"                       assumed for a side of one run (2)\n"
		"      --markdown[=FILE] a Markdown table for a pull request\n"
		"      --junit FILE     JUnit XML, one test case per rule\n"
		"      --github         GitHub Actions ::error:: and ::notice::\n"
		"      --html FILE      with --compare: a differential flame graph\n"
		"      --region NAME    only the samples taken inside the\n"
		"                       program's region NAME (mapsample_mark(3))\n"
		"      --lines[=FUNC]   samples per source line of FUNC, or of the\n"
		"                       hottest functions, next to the code\n"
		"      --source-dir DIR look for source files in DIR too\n"
		"                       (repeatable)\n"
		"      --source-map FROM=TO  source files under FROM are\n"
		"                       under TO here (repeatable)\n"
		"      --full-names     keep C++ template and argument lists in\n"
		"                       the tables and the flame graph\n"
		"      --disasm         with --lines: each function's instructions\n"
		"                       with their samples (objdump, binutils)\n"
		"      --no-kernel-frames  no [kernel] frame for samples taken\n"
		"                       in a system call: charge them to the\n"
		"                       function that made the call\n"
		"      --callers FUNC   who calls FUNC, with samples and shares\n"
		"      --callees FUNC   whom FUNC calls, with samples and shares\n"
		"Filters (samples kept; repeat an option for either value):\n"
		"      --pid PID        samples of process PID\n"
		"      --tid TID        samples of thread TID\n"
		"      --comm NAME      samples of a program or thread named NAME\n"
		"      --time FROM:TO   samples from FROM to TO seconds after the\n"
		"                       run's start (either may be left out)\n"
		"      --rank N         samples of MPI rank N (of process N, by\n"
		"                       index, when the logs name no ranks)\n"
		"  -h, --help           this text\n"
		"  -V, --version        print the version\n"
		"A LOG may be - (standard input), a pipe or a FIFO.\n");
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
#define OPT_LAUNCHERS 0x19b
#define OPT_REGION 0x19a
#define OPT_RUN_NOISE 0x19c
/* the sample filters (model/filter.h) */
#define OPT_PID 0x1c0
#define OPT_TID 0x1c1
#define OPT_COMM 0x1c2
#define OPT_TIME 0x1c3
#define OPT_RANK 0x1c9
/* the text report's callers and callees sections */
#define OPT_CALLERS 0x1c4
#define OPT_CALLEES 0x1c5
/* the text report's source view */
#define OPT_LINES 0x1c6
#define OPT_SOURCE_DIR 0x1c7
#define OPT_SOURCE_MAP 0x1c8
/* exports to other viewers: FILE each */
#define OPT_PPROF 0x1d0
#define OPT_SPEEDSCOPE 0x1d1
#define OPT_TRACE 0x1d2
/* MPI: keep the MPI library's own frames (report/mpi.h) */
#define OPT_MPI_INTERNALS 0x1e0

#define OPT_HTML_SOURCES 0x1d8
#define OPT_FULL_NAMES 0x1e8
#define OPT_DISASM 0x1e9
/* the size caps of the sources embedded in the HTML report */
#define OPT_HTML_SOURCE_MAX 0x1ea
#define OPT_HTML_SOURCES_MAX 0x1eb
#define OPT_NO_KERNEL_FRAMES 0x1ec
#define OPT_IMAGES 0x1ed
#define OPT_JOBS 0x1f6

/* A size of --html-source-max or --html-sources-max: a whole number of
 * bytes, or with K, M or G (1024, 1024^2, 1024^3 bytes), from 1 byte to
 * 1G.  0, or 1 when s is not such a size. */
static int parse_size(const char *s, size_t *to)
{
	char *e;
	if (*s < '0' || *s > '9')
		return 1;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	unsigned shift = 0;
	if (*e == 'K' || *e == 'k')
		shift = 10;
	else if (*e == 'M' || *e == 'm')
		shift = 20;
	else if (*e == 'G' || *e == 'g')
		shift = 30;
	if (shift)
		e++;
	if (errno || *e || !v || v > (1ull << 30) >> shift)
		return 1;
	*to = (size_t)(v << shift);
	return 0;
}

/*
 * The rest of --compare's command line, after the options: BASE and NEW
 * as two arguments, or the logs of --base and --new; a folder among
 * them stands for its logs (jobdir.h), and one of them may be - for
 * standard input.  Returns -1 to go on, 1 when out of memory, or 2
 * after a usage error (said on standard error).
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
	/* -: standard input, as for the report; it can give one log */
	const char **logs[2] = {a->base, a->new};
	size_t nlogs[2] = {a->nbase, a->nnew}, dashes = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nlogs[k]; i++)
			if (!strcmp(logs[k][i], "-")) {
				logs[k][i] = "/dev/stdin";
				dashes++;
			}
	if (dashes > 1) {
		fprintf(stderr, "mapreport: --compare: %zu logs given as - "
				"(standard input), which holds one; give the "
				"others as files\n",
			dashes);
		return 2;
	}
	/* a folder stands for the logs in it (a job's folder), on each
	 * side; compare.c puts the logs of one run together */
	const char *const *side[2] = {a->base, a->new};
	size_t *nside[2] = {&a->nbase, &a->nnew};
	for (int k = 0; k < 2; k++) {
		int jrc = jobdir_expand(&side[k], nside[k]);
		if (jrc)
			return jrc < 0 ? run_oom() : jrc;
	}
	a->base = (const char **)side[0];
	a->new = (const char **)side[1];
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
 * The filter option c (OPT_PID ...) with value arg, into a->filter.
 * Returns -1 to go on, else the exit status: 2 after a bad value, 1 when
 * out of memory (said on standard error).
 */
static int filter_option(struct args *a, int c, const char *arg)
{
	static const struct {
		int opt;
		const char *name, *fix;
		int (*add)(struct rfilter *, const char *);
	} kinds[] = {
		{OPT_PID, "--pid", "give a process id (a number)",
		 filter_add_pid},
		{OPT_TID, "--tid", "give a thread id (a number)",
		 filter_add_tid},
		{OPT_COMM, "--comm", "give a program or thread name",
		 filter_add_comm},
		{OPT_TIME, "--time", "give FROM:TO in seconds from the run's "
				     "start, FROM below TO, either may be "
				     "left out (2.5:, :10, 1:4)",
		 filter_add_time},
		{OPT_RANK, "--rank", "give a rank (a number from 0), as in "
				     "the report's Ranks table",
		 filter_add_rank},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].opt != c)
			continue;
		int rc = kinds[i].add(&a->filter, arg);
		if (rc == MAPS_EINVAL) {
			fprintf(stderr, "mapreport: %s %s: %s\n",
				kinds[i].name, arg, kinds[i].fix);
			return 2;
		}
		return rc ? run_oom() : -1;
	}
	return -1;
}

/*
 * Parses argv into a (a->partial_paths has room for argc paths).
 * Returns -1 to go on, else the exit status: 0 after --help or
 * --version, 2 after a usage error (said on standard error).
 */
int args_parse(int argc, char **argv, struct args *a)
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
		{"pprof", required_argument, NULL, OPT_PPROF},
		{"speedscope", required_argument, NULL, OPT_SPEEDSCOPE},
		{"trace", required_argument, NULL, OPT_TRACE},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"merge", no_argument, NULL, OPT_MERGE},
		{"launchers", no_argument, NULL, OPT_LAUNCHERS},
		{"mpi-internals", no_argument, NULL, OPT_MPI_INTERNALS},
		{"compare", no_argument, NULL, OPT_COMPARE},
		{"base", required_argument, NULL, OPT_BASE},
		{"new", required_argument, NULL, OPT_NEW},
		{"fail-if", required_argument, NULL, OPT_FAIL_IF},
		{"rules", required_argument, NULL, OPT_RULES},
		{"sigma", required_argument, NULL, OPT_SIGMA},
		{"run-noise", required_argument, NULL, OPT_RUN_NOISE},
		{"markdown", optional_argument, NULL, OPT_MARKDOWN},
		{"junit", required_argument, NULL, OPT_JUNIT},
		{"github", no_argument, NULL, OPT_GITHUB},
		{"pid", required_argument, NULL, OPT_PID},
		{"tid", required_argument, NULL, OPT_TID},
		{"comm", required_argument, NULL, OPT_COMM},
		{"time", required_argument, NULL, OPT_TIME},
		{"rank", required_argument, NULL, OPT_RANK},
		{"callers", required_argument, NULL, OPT_CALLERS},
		{"callees", required_argument, NULL, OPT_CALLEES},
		{"lines", optional_argument, NULL, OPT_LINES},
		{"source-dir", required_argument, NULL, OPT_SOURCE_DIR},
		{"source-map", required_argument, NULL, OPT_SOURCE_MAP},
		{"html-sources", required_argument, NULL, OPT_HTML_SOURCES},
		{"full-names", no_argument, NULL, OPT_FULL_NAMES},
		{"disasm", no_argument, NULL, OPT_DISASM},
		{"html-source-max", required_argument, NULL, OPT_HTML_SOURCE_MAX},
		{"html-sources-max", required_argument, NULL, OPT_HTML_SOURCES_MAX},

		{"no-kernel-frames", no_argument, NULL, OPT_NO_KERNEL_FRAMES},
		{"images", required_argument, NULL, OPT_IMAGES},
		{"jobs", required_argument, NULL, OPT_JOBS},
		{NULL, 0, NULL, 0},
	};
	int c;
	a->show_progress = 1;
	a->top = 20;
	a->images = 10;
	a->sigma = 3;
	a->run_noise = CMP_RUN_NOISE;
	a->html_sources = 10;
	a->html_source_max = OUTPUT_HTML_SOURCE_MAX;
	a->html_sources_max = OUTPUT_HTML_SOURCES_MAX;
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
		case OPT_LAUNCHERS:
			a->launchers = 1;
			break;
		case OPT_MPI_INTERNALS:
			a->mpi_internals = 1;
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
		case OPT_RUN_NOISE:
			if (compare_run_noise_option(optarg, &a->run_noise))
				return 2;
			break;
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
		case OPT_PID:
		case OPT_TID:
		case OPT_COMM:
		case OPT_TIME:
		case OPT_RANK: {
			int rc = filter_option(a, c, optarg);
			if (rc >= 0)
				return rc;
			break;
		}
		case OPT_CALLERS:
			a->callers = optarg;
			break;
		case OPT_CALLEES:
			a->callees = optarg;
			break;
		case OPT_FULL_NAMES:
			a->full_names = 1;
			break;
		case OPT_DISASM:
			/* the instructions are part of the source view */
			a->disasm = 1;
			a->lines = 1;
			break;
		case OPT_NO_KERNEL_FRAMES:
			a->no_kernel_frames = 1;
			break;
		case OPT_JOBS:
			if (run_jobs_option(optarg, &a->jobs))
				return 2;
			break;
		case OPT_IMAGES: {
			char *e;
			unsigned long v = strtoul(optarg, &e, 10);
			if (strcmp(optarg, "all") == 0) {
				a->images = 0;
				break;
			}
			if (!*optarg || *e || v < 2 || v > 100000) {
				fprintf(stderr, "mapreport: --images %s: give "
						"a number from 2 to 100000, "
						"or all\n",
					optarg);
				return 2;
			}
			a->images = (unsigned)v;
			break;
		}
		case OPT_LINES:
			a->lines = 1;
			a->lines_func = optarg;
			break;
		case OPT_SOURCE_DIR:
			a->source_dirs[a->srcpaths.sp_ndirs++] = optarg;
			break;
		case OPT_SOURCE_MAP:
			if (!srclines_map_ok(optarg)) {
				fprintf(stderr, "mapreport: --source-map %s: "
						"give FROM=TO, two folders\n",
					optarg);
				return 2;
			}
			a->source_maps[a->srcpaths.sp_nmaps++] = optarg;
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
		case OPT_HTML_SOURCE_MAX:
		case OPT_HTML_SOURCES_MAX: {
			size_t *to = c == OPT_HTML_SOURCE_MAX
					     ? &a->html_source_max
					     : &a->html_sources_max;
			if (parse_size(optarg, to)) {
				fprintf(stderr, "mapreport: %s %s: give a size "
						"from 1 to 1G (bytes, or with "
						"K, M or G)\n",
					c == OPT_HTML_SOURCE_MAX
						? "--html-source-max"
						: "--html-sources-max",
					optarg);
				return 2;
			}
			break;
		}
		case OPT_HTML_SOURCES: {
			char *e;
			unsigned long k = strtoul(optarg, &e, 10);
			if (!*optarg || *e || k > 10000) {
				fprintf(stderr, "mapreport: --html-sources %s: "
						"give a number from 0 to 10000\n",
					optarg);
				return 2;
			}
			a->html_sources = (unsigned)k;
			break;
		}
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
	for (int i = optind; i < argc; i++) /* -: standard input */
		argv[i] = strcmp(argv[i], "-") ? argv[i] : (char *)"/dev/stdin";
	a->logs = (const char *const *)argv + optind;
	a->nlogs = (size_t)(argc - optind);
	/* a folder stands for the logs in it (a job's folder) */
	int jrc = jobdir_expand(&a->logs, &a->nlogs);
	if (jrc < 0)
		return run_oom();
	if (jrc)
		return jrc;
	return -1;
}

