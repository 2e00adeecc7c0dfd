/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_disasm: the "Instructions of FUNC" part of the source view
 * (mapreport --lines --disasm): the function's machine code as objdump
 * from GNU binutils disassembles it (with -l: the source file and line
 * of each run of instructions), and the self and total samples of each
 * instruction next to it (report/disasm.h).
 */
#ifndef MAPSAMPLE_REPORT_OUT_TEXT_DISASM_H
#define MAPSAMPLE_REPORT_OUT_TEXT_DISASM_H

#include <stdint.h>
#include <stdio.h>

#include "report/out/output.h"

/* Writes the instructions of function func of in's analysis to out.
 * 0 or MAPS_ENOMEM; a missing objdump or file is said in the report
 * and once on stderr. */
int text_disasm(const struct output_in *in, FILE *out, uint32_t func);

#endif
