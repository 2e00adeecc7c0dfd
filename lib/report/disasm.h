/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disasm: samples per machine instruction of one function (mapreport
 * --lines --disasm).  No formatting and no disassembler here: which
 * instructions ran, by file address in which loaded file, and the
 * bounds of the function symbols that hold them, for lib/report/out to
 * disassemble with objdump.
 *
 * A sample's leaf address is the instruction running (self); a caller's
 * return address less one falls in its call instruction (total, as the
 * call's line in the source view).  Each stack counts once per
 * instruction.  Only addresses where the function's code runs (its own
 * or code inlined into it, as report/srclines.h says) count.
 */
#ifndef MAPSAMPLE_REPORT_DISASM_H
#define MAPSAMPLE_REPORT_DISASM_H

#include <stdint.h>

#include "model/model.h"
#include "report/analyze.h"

struct dinsn {
	uint64_t di_addr;          /* file address of an instruction byte */
	uint64_t di_self, di_total;/* samples */
	uint32_t di_gen;           /* the last stack that counted it */
};

/* One function symbol's code: where to disassemble. */
struct drange {
	const char *dr_path;       /* the loaded file (the model's) */
	uint64_t dr_lo, dr_hi;     /* file addresses [lo, hi) */
	struct dinsn *dr_insn;     /* by address */
	size_t dr_n, dr_cap;
};

struct disasm {
	struct drange *d_ranges;
	size_t d_n, d_cap;
	uint64_t d_unplaced;       /* samples at addresses no symbol bounds */
};

/* Counts into d the samples per instruction of function func of a (the
 * analysis of m).  0, or MAPS_ENOMEM with d empty (disasm_free safe). */
int disasm_build(struct disasm *d, const struct model *m,
		 const struct analysis *a, uint32_t func);

void disasm_free(struct disasm *d);

#endif
