/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output: the table of output back-ends and their common init and finish
 * (see output.h).
 */
#include <stdio.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"
#include "report/out/dump.h"
#include "report/out/folded.h"
#include "report/out/html.h"
#include "report/out/json.h"
#include "report/out/output.h"
#include "report/out/pprof.h"
#include "report/out/speedscope.h"
#include "report/out/text.h"
#include "report/out/trace.h"

const struct output_backend output_backends[] = {
	{"folded", NULL, OUTPUT_NEED_ANALYSIS | OUTPUT_NEED_CALLTREE, NULL,
	 output_open, folded_emit, output_close},
	{"html", "HTML report",
	 OUTPUT_NEED_ANALYSIS | OUTPUT_NEED_RANKS | OUTPUT_NEED_CALLTREE |
		 OUTPUT_NEED_TIMELINE,
	 NULL, output_open, html_emit, output_close},
	{"json", "JSON report", OUTPUT_NEED_ANALYSIS | OUTPUT_NEED_RANKS, NULL,
	 output_open, json_emit, output_close},
	{"pprof", "pprof profile", OUTPUT_NEED_ANALYSIS, NULL, output_open,
	 pprof_emit, output_close},
	{"speedscope", "speedscope file", OUTPUT_NEED_ANALYSIS, NULL,
	 output_open, speedscope_emit, output_close},
	{"trace", "trace", OUTPUT_NEED_ANALYSIS | OUTPUT_NEED_TIMELINE, NULL,
	 output_open, trace_emit, output_close},
	{"text", NULL, OUTPUT_NEED_ANALYSIS | OUTPUT_NEED_RANKS, NULL,
	 output_open, text_emit, output_close},
	{"dump", NULL, 0, &dump_tool, output_open, NULL, output_close},
	/* mapreport --compare: files, then standard output */
	{"compare-json", "JSON comparison", OUTPUT_NEED_COMPARE, NULL,
	 output_open, compare_json_emit, output_close},
	{"compare-html", "HTML comparison", OUTPUT_NEED_COMPARE, NULL,
	 output_open, compare_html_emit, output_close},
	{"junit", "JUnit XML", OUTPUT_NEED_COMPARE, NULL, output_open,
	 compare_junit_emit, output_close},
	{"markdown", "Markdown comparison", OUTPUT_NEED_COMPARE, NULL,
	 output_open, compare_md_emit, output_close},
	{"github", NULL, OUTPUT_NEED_COMPARE, NULL, output_open,
	 compare_github_emit, output_close},
	{"compare-text", NULL, OUTPUT_NEED_COMPARE, NULL, output_open,
	 compare_text_emit, output_close},
};

const size_t output_nbackends =
	sizeof(output_backends) / sizeof(output_backends[0]);

const struct output_backend *output_find(const char *name)
{
	for (size_t i = 0; i < output_nbackends; i++)
		if (strcmp(output_backends[i].ob_name, name) == 0)
			return &output_backends[i];
	return NULL;
}

int output_open(struct output *o)
{
	o->ou_file = o->ou_path ? fopen(o->ou_path, "w") : stdout;
	return o->ou_file ? 0 : MAPS_EIO;
}

int output_close(struct output *o)
{
	FILE *f = o->ou_file;
	o->ou_file = NULL;
	if (!f)
		return 0;
	/* standard output stays open (other outputs may follow), but what
	 * was written to it must have reached it: a full disk or a closed
	 * pipe is a failed output, not exit 0 */
	if (f == stdout)
		return fflush(f) || ferror(f) ? MAPS_EIO : 0;
	return fclose(f) ? MAPS_EIO : 0;
}
