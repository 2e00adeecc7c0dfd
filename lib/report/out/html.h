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

#include "report/out/output.h"

/*
 * Writes the page of in to out: its model (read with timeline_on set,
 * for the charts), analysis, call tree, partial reports and their
 * definitions, top rows of the function tables.  The "html" back-end's
 * emit (output.h).  Returns 0, MAPS_ENOMEM (the page is cut short), or
 * MAPS_EIO on a write error.
 */
int html_emit(const struct output_in *in, FILE *out);

#endif
