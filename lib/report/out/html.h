/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html: the self-contained HTML report (mapreport --html FILE).
 *
 * One file with inline CSS, JavaScript and SVG; nothing is loaded from
 * anywhere (a Content-Security-Policy in the page says so to the
 * browser).  With JavaScript off the page still shows the run summary,
 * the metric charts, thread activity, top functions, partial reports and
 * errors, and a call-tree table in place of the flame graph.  Every
 * string from a log, a binary or an XML file goes through htmlsafe.h.
 */
#ifndef MAPSAMPLE_REPORT_HTML_H
#define MAPSAMPLE_REPORT_HTML_H

#include <stdio.h>

#include "report/analyze.h"
#include "model/model.h"

struct partial_result;
struct partial_set;

struct html_opts {
	unsigned top;          /* rows of each top-functions table */
	/* partial reports evaluated for this run (partial.h), or NULL */
	const struct partial_result *partial;
	/* their definitions, for the diagnostics, or NULL */
	const struct partial_set *partial_set;
};

/*
 * Writes the report of m (read with m->timeline_on set, for the charts)
 * and its analysis a to out.  Returns 0, or -1 on a write error.
 */
int report_html(const struct model *m, const struct analysis *a,
		const struct html_opts *o, FILE *out);

#endif
