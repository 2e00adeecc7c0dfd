/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial_eval: the values of the partial reports (defs/partial.h) in one
 * run (mapreport(1), PARTIAL REPORTS; the method is described at the top
 * of defs/partial.h and partial_eval.c).
 */
#ifndef MAPSAMPLE_REPORT_PARTIAL_EVAL_H
#define MAPSAMPLE_REPORT_PARTIAL_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "defs/partial.h"
#include "model/units.h"

struct model;

/* ---- Values of a run ---- */

enum partial_state {
	PARTIAL_VALUE = 0,         /* en_value holds the value */
	PARTIAL_NOT_RECORDED = 1,  /* the logs define no metric metricRef */
	PARTIAL_NO_VALUE = 2,      /* defined, but no value to combine (e.g.
				      a rate metric with one value per
				      process) */
};

/* One <entry>: a report metric's value in this run. */
struct partial_entry {
	char *en_id;               /* <entry reportMetric>: reportMetric id */
	char *en_name;             /* reportMetric displayName (decoded) */
	char *en_units;            /* reportMetric units, as written */
	struct partial_colour en_colour; /* reportMetric colour */
	char *en_group;            /* <entry group>; NULL when none */
	char *en_metric_ref;       /* sourceDetails metricRef */
	enum partial_stat en_sample_value, en_aggregation;
	int en_recorded;           /* the logs define metricRef */
	enum partial_state en_state;
	/* In the source metric's units, per second when it is divided by
	 * sample time; valid when en_state is PARTIAL_VALUE. */
	double en_value;
	/* units_format(en_value, en_units), or "not recorded in this run",
	 * or "no value in this run". */
	char en_scaled[UNITS_BUFSZ];
	/* Comparison bar: en_value over the largest value of its group in
	 * its report, 0 to 1 (0 for values <= 0); -1 when the entry has no
	 * group or no value. */
	double en_bar;
	uint64_t en_bins;          /* bins with a value */
	uint64_t en_procs;         /* processes with a value */
};

struct partial_subsection {
	char *ss_id;
	char *ss_heading;          /* decoded attribute value */
	struct partial_colour ss_colour;
	/* <text> content as written (the HTML subset of section 3.7, not
	 * sanitised, entities not decoded); NULL when there is no <text>.
	 * HTML writers sanitise it; partial_plain_text() gives the text. */
	char *ss_text;
	struct partial_entry *ss_entries;
	size_t ss_nentries;
};

struct partial_report {
	char *pr_name;             /* <partialReport name> */
	char *pr_file;             /* definition file, as given */
	struct partial_subsection *pr_subsections;
	size_t pr_nsubsections;
};

struct partial_result {
	struct partial_report *rs_reports;  /* in load order */
	size_t rs_nreports;
	uint64_t rs_bin_ns;        /* bin width; 0 when no metric values */
	uint64_t rs_start_ts;      /* centre of bin 0 (CLOCK_MONOTONIC ns) */
	uint32_t rs_nbins;
	uint64_t rs_interval_ns;   /* metric interval found; 0 none */
};

/*
 * Computes every used report of ps against the run in m, from what the
 * model kept as it read the logs (the metrics' time cells; the logs are
 * not read again).  *out is new (partial_result_free()); it copies what
 * it needs of ps.  Returns 0, MAPS_ENOMEM or MAPS_EINVAL.
 */
int partial_eval(const struct partial_set *ps, const struct model *m,
		 struct partial_result **out);

/* Frees r; NULL is allowed. */
void partial_result_free(struct partial_result *r);

#endif
