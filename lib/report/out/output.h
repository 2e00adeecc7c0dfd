/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output: the table of mapreport's output back-ends, one row per format
 * (text, folded stacks, JSON, HTML, the record dump, and --compare's
 * formats: report/out/compare_out.h), each with the same
 * three steps: init (open where it writes), emit (write the report from
 * the model and its analysis), finish (close).  The CLI picks rows by
 * name, reads the logs, analyses them as the rows ask (ob_needs), and
 * runs the rows it picked in table order.  A new format is one file with
 * an emit function and one row in output.c.
 *
 * Every step returns 0 or a negative MAPS_E* code: MAPS_EIO when the
 * destination cannot be opened (errno says why) or a write failed,
 * MAPS_ENOMEM when memory ran out (the output is then cut short).
 */
#ifndef MAPSAMPLE_REPORT_OUT_OUTPUT_H
#define MAPSAMPLE_REPORT_OUT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "model/logread.h"
#include "model/model.h"
#include "report/analyze.h"
#include "report/calltree.h"
#include "report/compare.h"
#include "report/compare_flame.h"
#include "report/partial_eval.h"
#include "report/rules.h"
#include "report/srclines.h"

/* What a back-end needs besides the model (ob_needs). */
enum {
	OUTPUT_NEED_ANALYSIS = 1, /* symbolized functions, partial reports */
	OUTPUT_NEED_CALLTREE = 2, /* the call tree (report/calltree.h) */
	OUTPUT_NEED_TIMELINE = 4, /* the model read with timeline_on */
	OUTPUT_NEED_RANKS = 8,    /* functions ranked (analysis_rank) */
	OUTPUT_NEED_COMPARE = 16, /* --compare: writes oi_compare only */
};

/* An input problem of --compare that no model's notes hold: its kind in
 * errors[] ("region-missing", "nothing-to-compare"), the log it is about
 * (NULL: none) and one line for people. */
struct output_problem {
	const char *op_kind, *op_file, *op_message;
};

/* What --compare's back-ends write from (output_in.oi_compare).
 * oc_cmp is NULL when a side had no log that could be read: then the
 * rules were not judged (oc_nresults 0) and the writers say the input
 * problems only. */
struct output_compare {
	const struct comparison *oc_cmp;
	const struct rule_result *oc_results; /* one per rule, oc_nresults */
	size_t oc_nresults, oc_broken;
	double oc_sigma;                      /* --sigma */
	/* the logs of each side and their models (for errors[]) */
	const char *const *oc_base_logs, *const *oc_new_logs;
	size_t oc_nbase, oc_nnew;
	const struct model *const *oc_models; /* BASE's then NEW's; NULL
					       * for a log not read */
	const struct cmp_flame *oc_flame;     /* --html, else NULL */
	/* the --partial-report definitions (for their files left out), or
	 * NULL; the problems the models do not hold, oc_nproblems */
	const struct partial_set *oc_pset;
	const struct output_problem *oc_problems;
	size_t oc_nproblems;
};

/* What the back-ends write from: the run and its analysis. */
struct output_in {
	const struct model *oi_model;
	const struct analysis *oi_analysis;   /* NULL without NEED_ANALYSIS;
					       * ranked with NEED_RANKS */
	const struct calltree *oi_calltree;   /* NULL without NEED_CALLTREE */
	const struct partial_result *oi_partial; /* values, or NULL */
	const struct partial_set *oi_partial_set; /* definitions, or NULL */
	const char *const *oi_logs;           /* the logs read, oi_nlogs */
	size_t oi_nlogs;
	unsigned oi_top;                      /* rows of function tables */
	const char *oi_generator;             /* "mapreport VERSION" */
	const struct output_compare *oi_compare; /* --compare, else NULL */
	/* the text report's extra sections (report/out/text_calls.h):
	 * --callers and --callees name a function, or NULL */
	const char *oi_callers, *oi_callees;
	/* --lines: the source view, of the function named oi_lines_func
	 * or (NULL) of the hottest; sources found through oi_srcpaths */
	int oi_lines;
	const char *oi_lines_func;
	const struct srcpaths *oi_srcpaths;
	/* --html-sources: source files embedded in the HTML report */
	unsigned oi_html_sources;
	/* --full-names: C++ names as they are in the tables and the flame
	 * graph (else shortened: report/shorten.h) */
	int oi_full_names;
	/* --disasm: the source view shows each function's instructions
	 * with their samples (report/out/text_disasm.h) */
	int oi_disasm;
	/* --html-source-max, --html-sources-max: the bytes of each source
	 * file and of all of them embedded in the HTML report (0: the
	 * defaults below) */
	size_t oi_html_source_max, oi_html_sources_max;
	/* --images: the images of one process (exec'd programs) the
	 * process tables list (0: all; report/out/text_procs.c) */
	unsigned oi_images;
};

/* The defaults of oi_html_source_max and oi_html_sources_max. */
#define OUTPUT_HTML_SOURCE_MAX ((size_t)1 << 20)
#define OUTPUT_HTML_SOURCES_MAX ((size_t)4 << 20)

/* One picked back-end and where it writes. */
struct output {
	const struct output_backend *ou_backend;
	const char *ou_path;    /* the file, or NULL for standard output */
	FILE *ou_file;          /* from init to finish */
};

struct output_backend {
	const char *ob_name;    /* "text", "folded", "json", "html", "dump";
				 * --compare's "compare-json", "junit",
				 * "markdown", "github", "compare-text" */
	const char *ob_what;    /* "HTML report" in "the HTML report is
				 * incomplete" after a failed write; NULL */
	unsigned ob_needs;      /* OUTPUT_NEED_* */
	/* a tool run on every record as the model reads the logs, with
	 * ou_file as its context (the dump), or NULL */
	const struct logread_tool *ob_tool;
	int (*ob_init)(struct output *o);
	/* writes the report to out; NULL for a back-end that writes all
	 * with ob_tool */
	int (*ob_emit)(const struct output_in *in, FILE *out);
	int (*ob_finish)(struct output *o);
};

/* The back-ends, in the order mapreport runs them (files first, the text
 * report on standard output last); output_nbackends of them. */
extern const struct output_backend output_backends[];
extern const size_t output_nbackends;

/* The row named name, or NULL. */
const struct output_backend *output_find(const char *name);

/*
 * The init and finish of every row today.  output_open opens o->ou_path
 * for writing (truncated), or takes standard output when it is NULL;
 * returns 0 or MAPS_EIO with errno set.  output_close closes a file it
 * opened (standard output is left open) and returns 0, or MAPS_EIO when
 * that close failed.
 */
int output_open(struct output *o);
int output_close(struct output *o);

#endif
