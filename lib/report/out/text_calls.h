/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_calls: the text report's sections on one function's callers and
 * callees (mapreport --callers FUNC, --callees FUNC; report/butterfly.h)
 * and on the samples per source line of hot functions (--lines; see
 * report/srclines.h).  Called by text.c after the tables of functions.
 */
#ifndef MAPSAMPLE_REPORT_OUT_TEXT_CALLS_H
#define MAPSAMPLE_REPORT_OUT_TEXT_CALLS_H

#include <stdio.h>

#include "report/out/output.h"

/*
 * The "Callers of FUNC" section (in->oi_callers) and the "Callees of
 * FUNC" section (in->oi_callees) to out, each when asked for.  Returns
 * 0, or MAPS_ENOMEM (the sections are cut short).
 */
int text_calls(const struct output_in *in, FILE *out);

/*
 * The "Source lines of FUNC" sections (text_lines.c): for the functions
 * named in->oi_lines_func, or for the hottest few by self samples when
 * it is NULL, the samples per line of their code next to the source
 * found through in->oi_srcpaths.  Returns 0, or MAPS_ENOMEM (the
 * sections are cut short).
 */
int text_lines(const struct output_in *in, FILE *out);

#endif
