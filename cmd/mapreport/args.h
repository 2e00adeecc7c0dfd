/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args: what mapreport's command line asks for (struct args), filled by
 * args_parse() (args.c) and read by main.c and compare.c.
 */
#ifndef MAPREPORT_ARGS_H
#define MAPREPORT_ARGS_H

#include <stddef.h>

#include "model/filter.h"
#include "report/srclines.h"

/* What the command line asks for. */
struct args {
	int dump, folded, json, show_progress;
	const char *folded_path, *html_path, *json_path;
	const char *region;         /* --region NAME, or NULL */
	unsigned top;
	/* exports (--pprof FILE ...), NULL when not asked for */
	const char *pprof_path, *speedscope_path, *trace_path;
	const char **partial_paths; /* --partial-report, npartial of them */
	size_t npartial;
	const char *const *logs;    /* the logs, nlogs of them */
	size_t nlogs;
	int merge;                  /* --merge */
	int launchers;              /* --launchers */
	/* --compare; each array has room for argc entries */
	int compare, markdown, github;
	const char *markdown_path, *junit_path;
	const char **base, **new, **fail_if, **rules_files;
	size_t nbase, nnew, nfail_if, nrules_files;
	double sigma;
	double run_noise;           /* --run-noise PCT */
	struct rfilter filter;      /* --pid, --tid, --comm, --time */
	const char *callers, *callees; /* --callers, --callees FUNC */
	int lines;                  /* --lines[=FUNC] */
	const char *lines_func;
	const char **source_dirs;   /* --source-dir, argc room */
	const char **source_maps;   /* --source-map FROM=TO, argc room */
	struct srcpaths srcpaths;   /* both, for the outputs */
	unsigned html_sources;      /* --html-sources N */
	int mpi_internals;          /* --mpi-internals */
	int full_names;             /* --full-names */
	int disasm;                 /* --disasm */
	size_t html_source_max;     /* --html-source-max SIZE, bytes */
	size_t html_sources_max;    /* --html-sources-max SIZE, bytes */

	int no_kernel_frames;       /* --no-kernel-frames */
	unsigned images;            /* --images N|all: 0 all */
	unsigned jobs;              /* --jobs N|auto: 0 auto */
};

/*
 * Fills a (its arrays given argc entries of room by the caller) from the
 * command line.  Returns -1 to go on, or the exit status: 0 after
 * --help or --version, 2 for a usage error (said on standard error), 1
 * when out of memory.
 */
int args_parse(int argc, char **argv, struct args *a);

#endif
