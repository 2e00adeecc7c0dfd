/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rules: the regression rules of mapreport --compare (--fail-if, --rules
 * FILE; mapreport(1), COMPARING RUNS), their parser and their verdicts
 * on a comparison (report/compare.h).
 *
 * The language, one rule per --fail-if or per line of a rules file:
 *
 *   rule    = subject op change [ "at" number "sigma" ]
 *   subject = "total"                            whole-run time
 *           | "self" "(" name ")"                a function's self share
 *           | "total" "(" name ")"               its total share
 *           | "module" "(" name ")" | "process" "(" name ")"
 *           | "metric" "(" name ")" [ "." ( "mean" | "max" | "total" ) ]
 *           | "partial" "(" name ")"             a partial report value
 *                                                (its reportMetric id)
 *   op      = ">" | ">=" | "<" | "<="
 *   change  = [ "+" | "-" ] number unit
 *   unit    = "pp"   percentage points of samples (not total, metrics,
 *                    partial report values)
 *           | "%"    relative change: of seconds, or of a metric's value
 *           | "s"    seconds of CPU (or wall) time (not metrics, partial)
 *           | ""     a metric's own units (metrics and partial only)
 *   name    = characters with balanced parentheses, or "quoted" with
 *             \" and \\ escapes; a function name also matches the same
 *             name followed by its parameter list ("parse" matches
 *             "parse(char const*)"); a metric name is the metric's
 *             id or a dotted suffix of it: "memory.peak_rss" and
 *             "peak_rss" name com.mapsample.metrics.memory.peak_rss
 *             (an id given whole wins over suffixes of other ids; a
 *             suffix that ends several ids is an error,
 *             rules_resolve())
 *
 * Spaces are allowed between tokens.  A rule is broken when the change
 * NEW - BASE compares with the limit as op says and, unless the rule
 * asks "at 0 sigma", the change is significant: at least the rule's
 * sigma (default: the caller's, mapreport's --sigma) standard errors
 * of the sampling noise (a change with no noise estimate, a metric with
 * one run a side or a partial report value, counts as significant).  In
 * a rules file, blank lines and lines starting with # are skipped, and
 * a rule may end with "# comment".
 */
#ifndef MAPSAMPLE_REPORT_RULES_H
#define MAPSAMPLE_REPORT_RULES_H

#include <stddef.h>

#include "report/compare.h"

enum rule_op { RULE_GT, RULE_GE, RULE_LT, RULE_LE };
enum rule_unit { RULE_PP, RULE_PCT, RULE_SEC, RULE_PLAIN };

struct rule {
	char *ru_text;        /* the rule as written, trimmed */
	char *ru_origin;      /* "--fail-if", or "FILE:LINE" */
	enum cmp_kind ru_kind;
	char *ru_name;        /* NULL for the whole-run time */
	enum rule_op ru_op;
	double ru_limit;      /* in ru_unit, signed */
	enum rule_unit ru_unit;
	double ru_sigma;      /* "at N sigma"; NaN: the default */
};

struct rule_set {
	struct rule *rs_rules;
	size_t rs_n, rs_cap;
};

/* Why a rule could not be read: its origin, 1-based column, a phrase. */
struct rule_error {
	char re_origin[256];  /* "--fail-if" or "FILE:LINE" */
	char re_text[256];    /* the rule as written (cut at 255 bytes) */
	size_t re_col;        /* 1-based, in re_text; 0 for a file error */
	const char *re_what;  /* "expected ')'", ...; or strerror text;
			       * or re_buf */
	char re_buf[512];     /* a message made for this error */
};

/*
 * Parses text (one rule, NUL-terminated, no newline) from origin and
 * adds it to set.  Returns 0; MAPS_EINVAL with *err filled when it is
 * not a rule; MAPS_ENOMEM.
 */
int rules_add(struct rule_set *set, const char *origin, const char *text,
	      struct rule_error *err);

/*
 * Adds the rules of the len bytes at buf, the lines of a rules file
 * named name (blank lines and # comments skipped).  Stops at the first
 * invalid rule: MAPS_EINVAL with *err filled; MAPS_ENOMEM; else 0.
 */
int rules_add_buffer(struct rule_set *set, const char *name, const char *buf,
		     size_t len, struct rule_error *err);

/* Reads the rules file at path into set, as rules_add_buffer does;
 * MAPS_EIO (errno set, *err names the file) when it cannot be read. */
int rules_add_file(struct rule_set *set, const char *path,
		   struct rule_error *err);

void rules_free(struct rule_set *set);

enum rule_verdict {
	RULE_PASS,      /* not broken */
	RULE_BROKEN,    /* broken: a regression */
	RULE_NO_DATA,   /* no row on either side matches its subject */
};

struct rule_result {
	const struct rule *rr_rule;
	enum rule_verdict rr_verdict;
	const struct cmp_row *rr_row; /* the row judged, or NULL */
	double rr_change;     /* in the rule's unit; NaN when not known */
	double rr_sigma;      /* of the change; NaN: no noise estimate */
	double rr_sigma_min;  /* the significance asked */
	int rr_over;          /* the change is past the limit */
	int rr_significant;   /* ... and large enough against the noise */
};

/*
 * Judges every rule of set on c, into out[0..set->rs_n), with sigma the
 * significance asked of rules that name none.  A metric rule is judged
 * on the metric its name resolves to (rules_resolve()); an ambiguous
 * name is judged "no data".  A subject matching
 * several rows (overloads) is judged on each, and the result kept is a
 * broken one if any, the largest change else.  Returns how many rules
 * are broken.
 */
size_t rules_eval(const struct rule_set *set, const struct comparison *c,
		  double sigma, struct rule_result *out);

/*
 * Checks that the name of every metric rule of set names one metric of
 * c: an id of c's metric rows, or the dotted suffix of only one (see
 * the language above).  Returns 0; MAPS_EINVAL with *err filled (the
 * rule, the column of its name, and the ids it could mean, in
 * err->re_buf) for the first rule whose name is ambiguous.  A name that
 * matches nothing is not an error here: rules_eval() judges it "no
 * data".
 */
int rules_resolve(const struct rule_set *set, const struct comparison *c,
		  struct rule_error *err);

/* "pp", "%", "s" or "" for unit u. */
const char *rules_unit_str(enum rule_unit u);
/* ">", ">=", "<", "<=". */
const char *rules_op_str(enum rule_op op);

#endif
