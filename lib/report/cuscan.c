/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cuscan: which compile unit and which line may be given for an address
 * (see cuscan.h).
 *
 * DESIGN NOTES
 *   libdw finds a unit by .debug_aranges when the file has one.  Go's
 *   linker, when it links through the system linker (cgo), leaves its
 *   own units out of that table while the C units of the runtime's cgo
 *   glue are in it, and libdw then answers with a C unit for a Go
 *   address (main.goburn was given runtime/cgo/gcc_mmap.c).  The ranges
 *   of every unit are read once per module, on the first address whose
 *   unit libdw got wrong, into one table sorted by start; a lookup is a
 *   binary search and a short walk back over ranges that start earlier
 *   and may still hold the address.
 *
 *   The chain of scopes that hold an address (cuscan_scopes): the
 *   innermost DIE whose ranges hold it is found by going down from the
 *   unit, at each level into the child that holds it (what holds no
 *   address, such as a type or a namespace, is not entered, as libdw's
 *   dwarf_getscopes does not), and dwarf_getscopes_die then lists the
 *   DIEs that contain that one: the concrete callers of each inlined
 *   call.  dwarf_getscopes itself would give the scopes of an inline's
 *   abstract definition past it, not its callers, and in elfutils 0.188
 *   it leaks its array when that definition is not found where it looks
 *   (32 bytes under LeakSanitizer, on Go code: mapsample-go.sh).
 */
#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "report/cuscan.h"

struct cuent {
	Dwarf_Addr lo, hi; /* [lo, hi) */
	Dwarf_Off off;     /* the unit's DIE */
};

/* How deep cuscan_scopes goes at the most (a damaged file may nest
 * DIEs without end). */
#define CUSCAN_MAX_DEPTH 512

int cuscan_scopes(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die **scopes)
{
	*scopes = NULL;
	Dwarf_Die cur = *cu, child;
	int depth = 0;
	while (depth < CUSCAN_MAX_DEPTH && dwarf_child(&cur, &child) == 0) {
		int in = 0;
		do {
			/* < 0: no ranges at all (a type, a declaration) */
			if (dwarf_haspc(&child, addr) > 0) {
				in = 1;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!in)
			break;
		cur = child;
		depth++;
	}
	if (depth == 0)
		return 0;
	int n = dwarf_getscopes_die(&cur, scopes);
	if (n <= 0) {
		free(*scopes);
		*scopes = NULL;
	}
	return n;
}

void cuscan_free(struct cuscan *cs)
{
	free(cs->e);
	memset(cs, 0, sizeof(*cs));
}

static int by_lo(const void *a, const void *b)
{
	const struct cuent *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges into cs->e, sorted; 0, or -1 out of memory. */
static int build(struct cuscan *cs, Dwarf *dw)
{
	size_t cap = 0;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu)) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t o = 0;
			while ((o = dwarf_ranges(&cu, o, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (cs->n == cap) {
					size_t c = cap ? cap * 2 : 256;
					struct cuent *e =
						realloc(cs->e, c * sizeof(*e));
					if (!e)
						return -1;
					cs->e = e;
					cap = c;
				}
				cs->e[cs->n++] = (struct cuent){lo, hi,
							       off + hsize};
			}
		}
		off = next;
	}
	if (cs->n)
		qsort(cs->e, cs->n, sizeof(*cs->e), by_lo);
	return 0;
}

int cuscan_find(struct cuscan *cs, Dwarf *dw, Dwarf_Addr addr,
		Dwarf_Die *out)
{
	if (!dw)
		return 0;
	if (!cs->built) {
		cs->built = 1;
		if (build(cs, dw)) {
			cuscan_free(cs);
			cs->built = 1;
			return -1;
		}
	}
	/* the last range starting at or before addr, then back over the
	 * earlier ones, which may be longer */
	size_t lo = 0, hi = cs->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->e[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, walked = 0; i-- > 0 && walked < 64; walked++)
		if (addr < cs->e[i].hi)
			return dwarf_offdie(dw, cs->e[i].off, out) ? 1 : 0;
	return 0;
}

int cuscan_unit(struct cuscan *cs, Dwfl_Module *mod, uint64_t rel,
		Dwarf_Addr *bias, Dwarf_Die *out)
{
	Dwarf *dw = dwfl_module_getdwarf(mod, bias);
	if (!dw || rel < *bias)
		return 0;
	return cuscan_find(cs, dw, rel - *bias, out);
}

const char *cuscan_line(Dwarf_Die *cu, Dwarf_Addr addr, int sized,
			Dwarf_Addr start, int *line)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, addr);
	Dwarf_Addr la = 0, sa = 0;
	if (!l || dwarf_lineaddr(l, &la) || la > addr)
		return NULL;
	if (sized) {
		/* as cuscan_line_holds: not before the symbol, whose start
		 * the unit has a row at */
		Dwarf_Line *sl = dwarf_getsrc_die(cu, start);
		if (la < start || !sl || dwarf_lineaddr(sl, &sa) || sa != start)
			return NULL;
	}
	const char *file = dwarf_linesrc(l, NULL, NULL);
	if (file && dwarf_lineno(l, line))
		return NULL;
	return file;
}

/*
 * Whether the line table row dl may be given for the address rel of mod:
 * it must come from a compile unit that covers rel and, when the symbol
 * holding rel is known (sized), that unit must have a row at the very
 * start sstart of that symbol, as it has for every function it
 * compiled, and dl must not start before it.  Code the linker discarded
 * (sections of --gc-sections, duplicate C++ inline functions) keeps its
 * rows and ranges in the DWARF at addresses from 0, where they overlap
 * real code of a position-independent program: _start was given a line
 * of basic_string.h that way.  No line is better than another's line.
 */
bool cuscan_line_holds(Dwfl_Module *mod, Dwfl_Line *dl, uint64_t rel,
		       int sized, uint64_t sstart)
{
	Dwarf_Addr lbias = 0, laddr = 0;
	Dwarf_Die *lcu = dwfl_linecu(dl);
	if (!lcu || !dwfl_dwarf_line(dl, &lbias) || rel < lbias ||
	    dwarf_haspc(lcu, rel - lbias) <= 0)
		return false;
	if (!dwfl_lineinfo(dl, &laddr, NULL, NULL, NULL, NULL))
		return false;
	if (!sized)
		return true;
	if (laddr < sstart)
		return false;
	Dwarf_Addr saddr = 0;
	Dwfl_Line *sl = dwfl_module_getsrc(mod, sstart);
	Dwarf_Die *scu = sl ? dwfl_linecu(sl) : NULL;
	return scu && dwarf_dieoffset(scu) == dwarf_dieoffset(lcu) &&
	       dwfl_lineinfo(sl, &saddr, NULL, NULL, NULL, NULL) &&
	       saddr == sstart;
}

/* Whether the function holding the inline chain scopes[0 .. ns) (the
 * last DW_TAG_subprogram in it) has the range holding addr start at or
 * after start, the start of the symbol holding addr: see
 * cuscan_line_holds. */
bool cuscan_chain_holds(Dwarf_Die *scopes, int ns, Dwarf_Addr addr,
			Dwarf_Addr start)
{
	for (int i = 0; i < ns; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t o = 0;
		while ((o = dwarf_ranges(&scopes[i], o, &base, &lo, &hi)) > 0)
			if (lo <= addr && addr < hi)
				return lo >= start;
		return true; /* no ranges to judge by */
	}
	return true;
}
