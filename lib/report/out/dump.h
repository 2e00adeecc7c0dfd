/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump: the record dump of mapreport -D.
 */
#ifndef MAPSAMPLE_REPORT_OUT_DUMP_H
#define MAPSAMPLE_REPORT_OUT_DUMP_H

#include "model/logread.h"

/* Prints each record it is given as one line to the FILE * it is given
 * as ctx (model_load(m, path, &dump_tool, stdout)). */
extern const struct logread_tool dump_tool;

#endif
