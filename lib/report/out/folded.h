/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * folded: collapsed stacks, the input of flame graph tools
 * (FlameGraph's flamegraph.pl, speedscope): "program;outer;...;leaf
 * COUNT", one line per distinct stack of function names.
 */
#ifndef MAPSAMPLE_REPORT_OUT_FOLDED_H
#define MAPSAMPLE_REPORT_OUT_FOLDED_H

#include <stdio.h>

#include "report/out/output.h"

/* Writes the collapsed stacks of in's call tree to out, sorted, with ';'
 * in names written as ':' and newlines as spaces; stacks that read the
 * same merge: the "folded" back-end's emit (output.h).  Returns 0,
 * MAPS_ENOMEM (nothing written), or MAPS_EIO when out has a write
 * error. */
int folded_emit(const struct output_in *in, FILE *out);

#endif
