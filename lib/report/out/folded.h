/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * folded: collapsed stacks, the input of flame graph tools
 * (FlameGraph's flamegraph.pl, speedscope): "program;outer;...;leaf
 * COUNT", one line per distinct stack of function names.
 */
#ifndef MAPSAMPLE_REPORT_OUT_FOLDED_H
#define MAPSAMPLE_REPORT_OUT_FOLDED_H

#include <stdio.h>

#include "model/model.h"
#include "report/analyze.h"

/* Writes the collapsed stacks of m (analysed in a) to out, sorted, with
 * ';' in names written as ':' and newlines as spaces; stacks that read
 * the same merge.  Returns 0 or -1 on a write error. */
int report_folded(const struct analysis *a, const struct model *m, FILE *out);

#endif
