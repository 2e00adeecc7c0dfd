/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shorten: long C++ names made readable in tables and the flame graph.
 * Template arguments and function argument lists collapse to "<...>"
 * and "(...)" ("std::vector<int, std::allocator<int> >::push_back(int
 * const&)" becomes "std::vector<...>::push_back(...)"); an empty
 * argument list stays "()", as do the operators ("operator<<",
 * "operator()") and "(anonymous namespace)".  Deterministic: a name
 * always shortens the same way.  Names without brackets are unchanged.
 */
#ifndef MAPSAMPLE_REPORT_SHORTEN_H
#define MAPSAMPLE_REPORT_SHORTEN_H

#include <stddef.h>

/* Writes the short form of name to out (cap bytes, NUL-terminated, cut
 * to fit) and returns its length before any cut. */
size_t name_shorten(const char *name, char *out, size_t cap);

/* Writes s to out (cap bytes) elided to at most width characters: the
 * start and the end with "..." between them.  Returns out. */
const char *name_elide(const char *s, size_t width, char *out, size_t cap);

/* The width the text report gives a function's name. */
#define NAME_DISPLAY_WIDTH 60

/* name as the text report's tables show it: shortened, then elided to
 * NAME_DISPLAY_WIDTH characters; name itself when full (mapreport
 * --full-names).  buf holds the result (cap bytes, at least
 * NAME_DISPLAY_WIDTH + 1). */
const char *name_display(const char *name, int full, char *buf, size_t cap);

#endif
