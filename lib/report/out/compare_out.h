/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_out: the writers of mapreport --compare (mapreport(1),
 * COMPARING RUNS), one back-end each in output.c's table: the text
 * report (compare_text.c), JSON (compare_json.c, schema
 * "mapsample-compare"), Markdown for a pull-request comment
 * (compare_md.c), JUnit XML (compare_junit.c), GitHub Actions
 * workflow commands (compare_github.c) and an HTML page with a
 * differential flame graph (compare_html.c) and metric charts
 * (compare_chart.c); and the phrases they share
 * (compare_fmt.c), so that every format words a verdict the same way.
 * Each emit writes in->oi_compare and returns 0, MAPS_EIO on a write
 * error or MAPS_ENOMEM.
 */
#ifndef MAPSAMPLE_REPORT_OUT_COMPARE_OUT_H
#define MAPSAMPLE_REPORT_OUT_COMPARE_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "report/out/output.h"

/* Name and version of the --compare JSON schema. */
#define COMPARE_JSON_SCHEMA "mapsample-compare"
#define COMPARE_JSON_VERSION 1

int compare_text_emit(const struct output_in *in, FILE *out);
int compare_json_emit(const struct output_in *in, FILE *out);
int compare_md_emit(const struct output_in *in, FILE *out);
int compare_junit_emit(const struct output_in *in, FILE *out);
int compare_github_emit(const struct output_in *in, FILE *out);
int compare_html_emit(const struct output_in *in, FILE *out);

/* The HTML page's metric charts (compare_chart.c): a section with, for
 * each metric both base and new recorded over time (their timelines
 * must be on), one SVG chart of both runs' values from their start;
 * nothing when there is none.  0, MAPS_EIO or MAPS_ENOMEM. */
struct model;
int compare_chart_section(FILE *out, const struct model *base,
			  const struct model *new);

/* What a row is, for people: "self(parse)", "total", "module(libc.so.6)",
 * "metric(memory.peak).max", into buf; returns buf. */
const char *compare_fmt_subject(const struct cmp_row *r, char *buf,
				size_t len);

/* A row's change for people, into buf: "+12.30pp, +0.123 s (+45.0%),
 * 8.1 sigma", "+10.0%, no noise estimate", ...; returns buf. */
const char *compare_fmt_change(const struct cmp_row *r, char *buf,
			       size_t len);

/* A rule's verdict with its figures, into buf: "broken: self(parse)
 * changed +12.30pp (limit > +2pp) at 8.1 sigma (3 asked)"; returns buf. */
const char *compare_fmt_result(const struct rule_result *res, char *buf,
			       size_t len);

/* Writes side s to out as "N runs of COMMAND, N samples, X s of CPU time
 * a run", the command between pre and post, written by esc (NULL: as it
 * is). */
void compare_fmt_side(FILE *out, const struct cmp_side *s,
		      void (*esc)(FILE *out, const char *text),
		      const char *pre, const char *post);

/*
 * Calls fn(ctx, line) (fn may be NULL) for each input problem of oc,
 * one line for people each: the notes of its models (a damaged, cut or
 * unreadable log), each --partial-report file left out, a log with no
 * model (not read), then oc's own problems (oc_problems: a --region
 * missing from a log, a side with nothing to compare).  Returns how
 * many there are.
 */
size_t compare_fmt_problems(const struct output_compare *oc,
			    void (*fn)(void *ctx, const char *line),
			    void *ctx);

/* "broken", "pass" or "no-data". */
const char *compare_verdict_id(enum rule_verdict v);

/* The significance mark of a row: "!" past the --sigma asked, "?" with
 * no noise estimate, "" else. */
const char *compare_mark(const struct cmp_row *r, double sigma);

/* Rows of kind k of c in order, at most top, as [*first, *end)
 * indexes into c->rows. */
void compare_rows_of(const struct comparison *c, enum cmp_kind k,
		     unsigned top, size_t *first, size_t *end);

#endif
