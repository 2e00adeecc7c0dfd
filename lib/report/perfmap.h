/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perfmap: the names a JIT compiler gave its code in a perf map
 * (/tmp/perf-PID.map, as Node's --perf-basic-prof, Java's perf-map-agent
 * and Python 3.12's -X perf write it): one "START SIZE name" line per
 * piece of code, START and SIZE in hex (with or without 0x).  Lines that
 * do not parse are skipped.  When pieces overlap (code compiled again at
 * an address freed before) the later line wins, as in perf.
 */
#ifndef MAPSAMPLE_REPORT_PERFMAP_H
#define MAPSAMPLE_REPORT_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

struct perfmap;

/* Parses text[0..len) (not necessarily NUL-terminated).  Returns the map
 * (empty when no line parses), or NULL when out of memory. */
struct perfmap *perfmap_parse(const char *text, size_t len);

/* The name of the code holding address a, or NULL.  The string lives as
 * long as pm. */
const char *perfmap_find(const struct perfmap *pm, uint64_t a);

/* Entries in pm. */
size_t perfmap_count(const struct perfmap *pm);

void perfmap_free(struct perfmap *pm);

#endif
