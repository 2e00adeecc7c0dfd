/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cuscan: which compile unit and which line may be given for an address
 * of a module.  The unit whose own ranges (DW_AT_low_pc/high_pc or
 * DW_AT_ranges) hold it, for files whose .debug_aranges leaves units out
 * (Go's linker through the system linker, with cgo), where libdw's
 * lookup answers with another unit: one table per module, built on the
 * first lookup.  And the checks that keep a line of discarded code from
 * being given to live code.
 */
#ifndef MAPSAMPLE_REPORT_CUSCAN_H
#define MAPSAMPLE_REPORT_CUSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct cuscan {
	struct cuent *e; /* ranges of all units, by start */
	size_t n;
	int built;
};

/* The unit of dw whose ranges hold addr (a DWARF address, without the
 * module's bias) into *out: 1, 0 when none does, -1 out of memory. */
int cuscan_find(struct cuscan *cs, Dwarf *dw, Dwarf_Addr addr,
		Dwarf_Die *out);

/* Frees the table; cs may be used again. */
void cuscan_free(struct cuscan *cs);

/* cuscan_find for the address rel of module mod: its DWARF's bias into
 * *bias; 1, 0 (no unit, or no DWARF), -1 out of memory. */
int cuscan_unit(struct cuscan *cs, Dwfl_Module *mod, uint64_t rel,
		Dwarf_Addr *bias, Dwarf_Die *out);

/* The source file (libdw's string) and *line of DWARF address addr in
 * unit cu, under cuscan_line_holds' rules (sized: start is the start of
 * the symbol holding addr); NULL when none may be given. */
const char *cuscan_line(Dwarf_Die *cu, Dwarf_Addr addr, int sized,
			Dwarf_Addr start, int *line);

/* Whether the line table row dl may be given for the address rel of
 * mod (sized: sstart starts the symbol holding rel); see cuscan.c. */
bool cuscan_line_holds(Dwfl_Module *mod, Dwfl_Line *dl, uint64_t rel,
		       int sized, uint64_t sstart);

/* The scopes of unit cu that hold addr (a DWARF address), innermost
 * first, into *scopes (malloc'd, the caller frees it): each inlined call
 * up to and past the function whose machine code holds addr, and the
 * unit.  Returns how many, 0 when no scope holds addr, or -1 (*scopes
 * then NULL).  See cuscan.c for why not dwarf_getscopes. */
int cuscan_scopes(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes);

/* Whether the inline chain scopes[0 .. ns) holding addr belongs to the
 * function starting at start (see cuscan.c). */
bool cuscan_chain_holds(Dwarf_Die *scopes, int ns, Dwarf_Addr addr,
			Dwarf_Addr start);

#endif
