/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_i.h: private to the HTML report's files.  html.c writes the page
 * and calls html_chart.c for the sections over time (metrics, thread
 * activity) and html_flame.c for the flame graph; neither calls back.
 * The few small helpers all three use are inline here, so no two of the
 * files call each other.  Each section function returns 0 or
 * MAPS_ENOMEM (the page is then cut short); write errors are left in
 * the FILE for html_emit to see.
 */
#ifndef MAPSAMPLE_REPORT_OUT_HTML_I_H
#define MAPSAMPLE_REPORT_OUT_HTML_I_H

#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "report/calltree.h"
#include "report/out/output.h"
#include "report/out/htmlsafe.h"

/* Text from a log, a binary or an XML file, escaped, to out. */
#define H(s) htmlsafe_text(out, s)

static inline double html_pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* A table cell of a percentage, with a bar. */
static inline void html_pct_cell(FILE *out, double p)
{
	if (p < 0)
		p = 0;
	if (p > 100)
		p = 100;
	fprintf(out, "<td class=\"n\">%.2f%%<span class=\"pct\"><span "
		     "style=\"width:%.1f%%\"></span></span></td>",
		p, p);
}

/* The time the page's narrowing bins ("nr-data") cover: from *t0, the
 * model's first record, for *span ns, to its last. */
static inline void html_nr_span(const struct model *m, uint64_t *t0,
				uint64_t *span)
{
	*t0 = m->first_ts;
	*span = m->last_ts > m->first_ts ? m->last_ts - m->first_ts : 0;
}

/* The narrowing bin of time ts, of bins bins over (t0, span), placed
 * first among fine bins (the page's bins before any merge; bins divides
 * fine), as every user of "nr-data"'s bins places samples and values. */
static inline uint32_t html_nr_bin(uint64_t t0, uint64_t span, unsigned fine,
				   unsigned bins, uint64_t ts)
{
	uint64_t dt = ts > t0 ? ts - t0 : 0;
	if (dt > span)
		dt = span;
	uint32_t f = span ? (uint32_t)((double)dt / (double)span *
				       (fine - 1e-9))
			  : 0;
	return (uint32_t)((uint64_t)f * bins / fine);
}

/* html_chart.c: the "Metrics" section (table, a chart per metric, user
 * marks), from m's timeline. */
int html_chart_section(FILE *out, const struct model *m);

/* The display columns of the charts over time. */
struct html_cols {
	long b0;          /* first timeline bin shown */
	size_t per;       /* bins per column */
	size_t n;         /* columns */
	uint64_t t0, t1;  /* time range of the x axis (ns): the run, or
			   * the part of it --time keeps */
	uint64_t base;    /* the run's start (ns): the axes say seconds
			   * from it */
	uint64_t end;     /* the run's end (ns) */
	int narrowed;     /* t0..t1 is --time's range, less than the run */
	int ok;           /* a timeline with a range */
};

/* html_chart.c: the columns of m's timeline the charts show, over the
 * run or, with --time, over its range clamped to the run (c->ok 0: no
 * timeline with a range). */
void html_cols_init(struct html_cols *c, const struct model *m);

/* html_chart.c: start and end of column k, seconds from c->base, within
 * the axis's range. */
void html_col_range(const struct html_cols *c, const struct rtimeline *tl,
		    size_t k, double *s, double *e);

/* html_chart.c: the fraction (0 to 1) of the x axis of c where sec
 * (seconds from c->base) is. */
double html_col_frac(const struct html_cols *c, double sec);

/* html_chart.c: the ticks of the x axis of c, at most about ticks of
 * them on a round step: the first at *first seconds from c->base, one
 * every *step (returned 0 when there is no axis). */
void html_axis_ticks(const struct html_cols *c, int ticks, double *first,
		     double *step);

/* html_chart.c: with --time, a note (id id) saying which part of the
 * run the axes of c show; nothing otherwise. */
void html_range_note(FILE *out, const struct html_cols *c, const char *id);

/* html_chart.c: a round step near range/ticks (1, 2 or 5 times a power
 * of ten; for byte units, iec, a power of two). */
double html_nice_step(double range, int ticks, int iec);

/* html_chart.c: the user's marks as lines from y0 to y1 in a plot whose
 * x axis runs from x0 to x1. */
void html_marks_svg(FILE *out, const struct html_cols *c,
		    const struct rtimeline *tl, double x0, double x1,
		    double y0, double y1);

/* html_activity.c: the "Thread activity" section (heat map, regions,
 * marks, the regions' table), from m's timeline. */
int html_activity_section(FILE *out, const struct model *m);

/* html_flame.c: the "Flame graph" section from the call tree t of m: the
 * graph's data for report.js and a call-tree table for no script. */
int html_flame_section(FILE *out, const struct model *m,
		       const struct calltree *t, int full_names);

/* html_flame.c: the smallest frame (in samples) the flame graph of t
 * keeps; html_narrow.c numbers the same frames. */
uint64_t html_flame_min(const struct calltree *t);

/* html_flame.c: the page's names of the flame graph of t (frames of at
 * least min samples): into *remap (malloc'd, one per name of t) each
 * name's index among the page's names + 1, or 0 for a name no kept
 * frame has; into *nnames how many names the page has, into *nodes (when
 * not NULL) how many frames.  Returns 0 or MAPS_ENOMEM. */
int html_flame_names(const struct calltree *t, uint64_t min,
		     uint32_t **remap, uint32_t *nnames, size_t *nodes);

/* html_source.c: the data of the function view (source lines, callers
 * and callees of the top functions, the hottest files' source) as the
 * JSON element "fn-data". */
int html_source_data(FILE *out, const struct output_in *in);

/* html_narrow.c: the samples per (flame-graph frame, thread, time bin)
 * as the JSON element "nr-data", for narrowing the page; min as
 * html_flame_min gives it.  Writes a note instead when the logs cannot
 * be read again or were narrowed on the command line. */
int html_narrow_data(FILE *out, const struct output_in *in, uint64_t min);

/* html_msel.c: the statistics of each metric series per time bin of
 * "nr-data" (fine bins first, merged to bins) as the JSON element
 * "msel-data", for the metrics table of a selection; an element with a
 * reason instead when the logs cannot be read again or the data would
 * be too big.  Reads the logs' metric values once more. */
int html_msel_data(FILE *out, const struct output_in *in, unsigned fine,
		   unsigned bins);

/* html_psel.c: the partial reports' data for a selection (the time
 * cells of the metrics they name, per series, placed in the bins of
 * "nr-data", fine bins first, merged to bins; the reports' entries) as
 * the JSON element "psel-data"; nothing when the page has no partial
 * report, a reason instead when the data would be too big. */
int html_psel_data(FILE *out, const struct output_in *in, unsigned fine,
		   unsigned bins);

/* html.c: the CSS of a partial report colour in buf (len bytes), or
 * NULL when it has none (or one that is not a plain colour after
 * all). */
struct partial_colour;
const char *html_partial_colour_css(const struct partial_colour *c,
				    char *buf, size_t len);

/* html_fncells.c: the exact call data of a selection (samples per
 * function total, function self and call, thread and time bin) that
 * html_narrow.c adds to "nr-data" as "fn".  Made for m, its analysis a
 * and call tree t, with each function of a's name in t (fname, -1 for
 * none; kept by the caller);
 * html_fncells_sample() takes each sample (its thread index, stack slot
 * and bin) as the logs are read again, html_fncells_build() then makes
 * the cells with the bins shifted right by shift (or returns 1 when
 * that would take too long), html_fncells_halve()
 * halves their bins, html_fncells_fit() leaves out the keys with the
 * fewest samples until at most budget cells are left, and
 * html_fncells_write() writes them ("fn" member, a comma first) naming
 * each function (a name of t) by its number pn gives (nnames of them).  The functions return 0
 * or MAPS_ENOMEM; html_fncells_new NULL when out of memory. */
struct html_fncells;
/* html_fncells.c: v written for report.js as digits base 32, most
 * significant first, the last one marked (characters safe in a JSON
 * string and in HTML). */
void html_put_num(FILE *out, uint64_t v);
struct html_fncells *html_fncells_new(const struct model *m,
				      const struct analysis *a,
				      const struct calltree *t,
				      const int32_t *fname);
int html_fncells_sample(struct html_fncells *f, size_t thread, size_t slot,
			uint32_t bin);
int html_fncells_build(struct html_fncells *f, uint32_t shift);
size_t html_fncells_count(const struct html_fncells *f);
void html_fncells_halve(struct html_fncells *f);
int html_fncells_fit(struct html_fncells *f, size_t budget);
int html_fncells_write(FILE *out, const struct html_fncells *f,
		       const uint32_t *pn, uint32_t nnames);
void html_fncells_free(struct html_fncells *f);
/* html_fncells.c: marks in used (one per name of t) the functions the
 * call data written names. */
void html_fncells_names(const struct html_fncells *f, uint8_t *used);

/* html_narrow.c: into slot_page (one per stack slot of the model) the
 * page's flame-graph frame (numbered as the frames of html_narrow_data's
 * cells, min as html_flame_min gives it) where each slot's stack ends,
 * or -1.  Returns 0 or MAPS_ENOMEM. */
int html_narrow_slots(const struct output_in *in, uint64_t min,
		      int32_t *slot_page);

/* The MPI call statistics section (html_mpi.c), when the logs hold
 * MPI call statistics.  Returns 0 or MAPS_ENOMEM. */
int html_mpi_section(FILE *out, const struct model *m);

/* html_seltab.c: the Regions and MPI call statistics figures per
 * thread, time bin (bins of html_narrow_data's, whose samples fall in
 * bins of fine first) and process, as the JSON element "st-data", for
 * those tables to follow a selection; nothing when the logs hold
 * neither.  Returns 0 or MAPS_ENOMEM. */
int html_seltab_data(FILE *out, const struct output_in *in, unsigned fine,
		     unsigned bins);

/* html_ranksel.c: the Ranks table's figures per thread and time bin, as
 * the JSON element "rk-data", for the table and the performance summary
 * to follow a selection.
 * html_ranksel_new() makes the counts for model m (its analysis a) with
 * a sample's bins among fine (NULL when out of memory);
 * html_ranksel_sample() counts sample ev of thread index thread, stack
 * slot stack, in bin (of fine) as the logs are read again;
 * html_ranksel_write() writes the element with the bins merged to bins
 * (a divisor of fine), in's figures of the rows, nothing when no
 * process has samples.  Return 0, MAPS_ENOMEM or (write) MAPS_EIO. */
struct html_ranksel;
struct html_ranksel *html_ranksel_new(const struct model *m,
				      const struct analysis *a, unsigned fine);
int html_ranksel_sample(struct html_ranksel *r, const struct maplog_ev *ev,
			size_t thread, size_t stack, uint32_t bin);
int html_ranksel_write(FILE *out, struct html_ranksel *r,
		       const struct output_in *in, unsigned bins);
void html_ranksel_free(struct html_ranksel *r);

#endif
