/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symbolize: turn sampled addresses into function, file and line, offline,
 * with elfutils libdwfl.
 *
 * Each loaded file (path + build-id) is opened once, with its separate
 * debug information found by build-id where installed; each distinct
 * address is looked up once.  An address may expand into several frames
 * when code was inlined: innermost first, each caller at its call site,
 * ending at the function whose code holds them all (as addr2line -i).
 * Of aliases the most public name is given (GLOBAL over WEAK over LOCAL,
 * fewer leading underscores, shorter: "read", not "__GI___libc_read").
 * No line is given from DWARF that does not belong to the function
 * holding the address (the linker leaves discarded code's at 0).  The
 * vDSO is named from this process's own when the build-ids match.  A
 * file that is missing, or
 * whose build-id differs from the one recorded during the run, is noted
 * once and its addresses are named "file+0xOFFSET".
 */
#ifndef MAPSAMPLE_SYMBOLIZE_H
#define MAPSAMPLE_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/* The most frames one address expands into: a chain of inlined calls
 * longer than that keeps its innermost SYM_MAX_FRAMES - 1 and the
 * function that holds them all. */
#define SYM_MAX_FRAMES 32

struct symframe {
	const char *func;   /* demangled; "file+0xOFF" when unknown */
	const char *file;   /* source file or NULL */
	int line;           /* 0 when unknown */
	const char *module; /* base name of the loaded file */
	int resolved;       /* func came from symbols */
};

struct symtab;

/* A new, empty symbolizer, or NULL when out of memory. */
struct symtab *sym_new(void);

/* Frees st and every file, frame and string it holds (NULL: nothing). */
void sym_free(struct symtab *st);

/*
 * Frames for the address pc in the object loaded from path with load bias
 * bias and file offset mapping (start, offset), whose build-id during the
 * run was bid[0..bidlen).  leaf is 0 for return addresses (looked up at
 * pc - 1).  Writes up to max frames, innermost first, and returns how
 * many (at least 1), or MAPS_ENOMEM.  The strings live as long as st.
 */
int sym_lookup(struct symtab *st, const char *path, const uint8_t *bid,
	       size_t bidlen, uint64_t bias, uint64_t start, uint64_t offset,
	       uint64_t pc, int leaf, struct symframe *out, int max);

/*
 * The module of the file loaded from path whose build-id during the run
 * was bid[0..bidlen) into *mod: one number per distinct (path, build-id),
 * whichever processes mapped it and wherever, opened (and any problem
 * with it noted) on first sight.  Two addresses of one module at the
 * same file offset, less the same load bias, give the same frames from
 * sym_lookup.  Returns 0 or MAPS_ENOMEM.
 */
int sym_module(struct symtab *st, const char *path, const uint8_t *bid,
	       size_t bidlen, uint32_t *mod);

/* One frame for an address in no known mapping: "[unknown]".  Returns 1,
 * or MAPS_ENOMEM. */
int sym_unknown(struct symtab *st, uint64_t pc, struct symframe *out);

/*
 * The bounds [*lo, *hi) of the function symbol holding file address rel
 * of the file loaded from path (build-id bid during the run).  Returns
 * 0, or -1 when the file cannot be read or no sized symbol holds rel.
 */
int sym_func_range(struct symtab *st, const char *path, const uint8_t *bid,
		   size_t bidlen, uint64_t rel, uint64_t *lo, uint64_t *hi);

struct rproc;
/*
 * One frame for an address in no file mapping of process image p (NULL:
 * unknown): named from the perf map the sampler copied for it (JIT code,
 * module "[jit]"), else "[unknown]" as sym_unknown.  leaf as in
 * sym_lookup.  Returns 1, or MAPS_ENOMEM.
 */
int sym_anon(struct symtab *st, const struct rproc *p, uint64_t pc, int leaf,
	     struct symframe *out);

/* Problems seen so far, one line each ("PATH: not found; ..."), for the
 * caller to print; returns the count and the lines through *lines. */
size_t sym_problems(const struct symtab *st, const char *const **lines);

/* Demangles a C++ or Rust symbol; returns a malloc'd string or NULL. */
char *sym_demangle(const char *name);

#endif
