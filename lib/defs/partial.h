/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial: Performance Reports partial reports (reference section 3): XML
 * files that add sections of "report metrics" to a report, each value
 * combined from a metric the run recorded.  The text, HTML and JSON
 * writers all take their data from here.
 *
 * Three steps:
 *
 *   struct partial_set *ps = partial_set_new();
 *   partial_load(ps, opts, nopts);       definitions, with diagnostics
 *   ... print ps->ps_diags[i].pd_text on stderr ...
 *   struct partial_result *r;
 *   partial_eval(ps, &model, &r);      values of this run
 *   text_partial(r, stdout);           the text writer's sections
 *   partial_result_free(r);
 *   partial_set_free(ps);
 *
 * Diagnostics have the form of the metric definition parser's
 * (metricdef.h):
 *
 *     FILE:LINE:COLUMN: <element attr="...">: what is wrong; what to do
 *
 * (warnings say "warning: " after the position).  A file with an error is
 * not used at all (it is "skipped"); one with warnings only is used.
 * LINE:COLUMN is where the start tag of the element at fault begins.
 *
 * Values (mapreport(1), "PARTIAL REPORTS"): the run is cut in time bins
 * of one width, centred on the times of the earliest metric value plus
 * multiples of the width; the width is the metric interval found in the
 * logs, widened when the run would need more than PARTIAL_MAX_BINS bins
 * or more than PARTIAL_MAX_CELLS (process, metric, bin) cells.  Each
 * process's value in a bin is the mean of its values there (rate
 * metrics: its deltas there over the time since its previous value); a
 * bin between two of a process's values that holds none of its own takes
 * the process's next value (the value at t covers the interval up to t).
 * sampleValue combines the processes with a value in a bin; aggregation
 * combines the bins in which some process has a value.  Memory is bounded
 * by the cells, never by the number of samples or values; partial_eval()
 * takes the values from the model's time cells, filled as the logs were
 * read (the logs are read once).
 *
 * Functions returning int return 0 or a negative MAPS_E* code
 * (<mapsample/maps_error.h>); problems in files are diagnostics, not
 * return codes.  Nothing here is async-signal-safe or thread-safe.
 */
#ifndef MAPSAMPLE_DEFS_PARTIAL_H
#define MAPSAMPLE_DEFS_PARTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "defs/metricdef.h"

struct model;

/* The namespace every <partialReport> must declare (section 3.4.1). */
#define PARTIAL_XMLNS "http://www.allinea.com/2016/AllineaReports"
/* Largest definition file read, in bytes. */
#define PARTIAL_MAX_FILE_SIZE (16u << 20)
/* Most diagnostics shown for one file (one more says the rest are not). */
#define PARTIAL_MAX_DIAGS 100
/* Most time bins, and most (process, metric, bin) cells, of a run. */
#define PARTIAL_MAX_BINS 1000
#define PARTIAL_MAX_CELLS (1u << 20)
/* Columns of the text report's comparison bars. */
#define PARTIAL_BAR_WIDTH 30

/* sampleValue (min, max, mean, sum) and aggregation (min, max, mean). */
enum partial_stat {
	PARTIAL_MIN = 0,
	PARTIAL_MAX = 1,
	PARTIAL_MEAN = 2,
	PARTIAL_SUM = 3,
};

/* "min", "max", "mean" or "sum". */
const char *partial_stat_name(enum partial_stat s);

/* A colour attribute (section 3.5). */
struct partial_colour {
	char *pc_text;                     /* as written; NULL when absent */
	struct colour pc_parsed;           /* c_kind NONE when absent */
	/* A CSS colour for it: "#rrggbb", or the SVG keyword (CSS knows
	 * them all); "" when absent.  hsv() and hsl() are converted. */
	char pc_css[24];
};

/* ---- Definitions and their diagnostics ---- */

enum partial_severity {
	PARTIAL_ERROR = 0,
	PARTIAL_WARNING = 1,
};

/* What a diagnostic is about, for programs; pd_text is for people. */
enum partial_rule {
	PARTIAL_R_IO = 1,          /* file or folder cannot be read */
	PARTIAL_R_XML,             /* not well-formed XML */
	PARTIAL_R_ROOT,            /* root element is not partialReport */
	PARTIAL_R_XMLNS,           /* xmlns missing or not PARTIAL_XMLNS */
	PARTIAL_R_UNKNOWN_ELEMENT, /* warning: ignored */
	PARTIAL_R_UNKNOWN_ATTRIBUTE, /* warning: ignored */
	PARTIAL_R_TEXT,            /* text where only elements belong */
	PARTIAL_R_MISSING,         /* required element or attribute absent */
	PARTIAL_R_EMPTY,           /* required value empty */
	PARTIAL_R_REPEATED,        /* element allowed once given twice */
	PARTIAL_R_RESERVED,        /* allinea., com.allinea., mapsample.,
				      com.mapsample. (section 3.6) */
	PARTIAL_R_NCNAME,          /* id that is no XML NCName (3.6) */
	PARTIAL_R_DUPLICATE,       /* id or report name used twice */
	PARTIAL_R_SUBSTRING,       /* dotted ids substrings of each other */
	PARTIAL_R_SOURCE,          /* source is not "metric" */
	PARTIAL_R_SAMPLE_VALUE,    /* not min, max, mean or sum */
	PARTIAL_R_AGGREGATION,     /* not min, max or mean */
	PARTIAL_R_COLOUR,          /* no colour form of section 3.5 */
	PARTIAL_R_ENTRY_REF,       /* <entry reportMetric> names nothing */
	PARTIAL_R_LIMIT,           /* too many problems: the rest not shown */
};

struct partial_diag {
	enum partial_severity pd_severity;
	enum partial_rule pd_rule;
	char *pd_file;             /* path as given */
	unsigned pd_line, pd_col;  /* 0 when about the whole file */
	char *pd_text;             /* whole message: no program name, no
				      newline, printable characters only */
};

/* One definition file, loaded or not. */
struct partial_file {
	char *pf_path;             /* as given, used in messages */
	unsigned pf_nerrors, pf_nwarnings;
	int pf_used;               /* no error: its report is evaluated */
};

struct partial_def;            /* one parsed <partialReport> (internal) */

struct xmlcheck_log;

/* The loaded definitions. */
struct partial_set {
	struct partial_file *ps_files;  /* in load order */
	size_t ps_nfiles;
	struct partial_diag *ps_diags;  /* by file, then position; the
					   strings belong to ps */
	size_t ps_ndiags;
	unsigned ps_nerrors, ps_nwarnings;
	/* internal */
	struct partial_def **ps_defs;   /* used files' reports, load order */
	size_t ps_ndefs;
	struct xmlcheck_log *ps_log;    /* the diagnostics, which ps_diags
					   and the counts show after each
					   call */
	size_t ps_capfiles, ps_capdefs, ps_capdiags;
	bool ps_oom;                    /* sticky */
	bool ps_builtin;                /* loading the built-in files, whose
					   names may use the prefixes
					   reserved to the project */
};

/* Returns a new empty set, or NULL when out of memory. */
struct partial_set *partial_set_new(void);

/* Frees ps and everything it holds; NULL is allowed. */
void partial_set_free(struct partial_set *ps);

/*
 * Parses len bytes at buf as the definition file name (used in messages
 * only; no file is read) and adds it to ps.  Ids and report names are
 * checked against the files loaded before (duplicates, dotted
 * substrings).  Returns 0, MAPS_ENOMEM or MAPS_EINVAL.
 */
int partial_load_buffer(struct partial_set *ps, const char *name,
			const void *buf, size_t len);

/*
 * Loads path: a file, or a folder whose regular files named *.xml (not
 * starting with '.') load in ascending byte order of their names;
 * sub-folders are not searched.  A path that cannot be read is an error
 * diagnostic naming origin (e.g. "--partial-report", or the variable it
 * came from).  Returns 0, MAPS_ENOMEM or MAPS_EINVAL.
 */
int partial_load_path(struct partial_set *ps, const char *path,
		      const char *origin);

/*
 * Loads definitions by mapreport's precedence (mapreport(1)):
 *   1. paths (the --partial-report options), in order, when npaths > 0;
 *   2. else $MAPSAMPLE_PARTIAL_REPORT_SOURCE when set and not empty;
 *   3. else $ALLINEA_PARTIAL_REPORT_SOURCE when set and not empty;
 *   4. else every folder of partial_search_dirs(), in order; folders
 *      that do not exist are skipped silently.
 * Only the first that applies is used.  Returns 0 or MAPS_ENOMEM.
 */
int partial_load(struct partial_set *ps, const char *const *paths,
		 size_t npaths);

/*
 * The default folders, in order: $MAPSAMPLE_CONFIG_DIR/reports;
 * $ALLINEA_CONFIG_DIR/perf-report/reports, or ~/.allinea/perf-report/
 * reports when ALLINEA_CONFIG_DIR is unset or empty; ~/.mapsample/reports
 * ($HOME, else the password database).  Unset variables are skipped; a
 * folder reached twice is kept at its first place.  *dirs is a new array
 * of *n new strings (free each, then the array).  Returns 0 or
 * MAPS_ENOMEM.
 */
int partial_search_dirs(char ***dirs, size_t *n);

/*
 * The built-in definitions (mapreport(1), PARTIAL REPORTS): after
 * partial_load() with no paths, and only when neither
 * $MAPSAMPLE_PARTIAL_REPORT_SOURCE nor $ALLINEA_PARTIAL_REPORT_SOURCE
 * is set, loads the *.xml files of folder dir (the installed
 * $(pkgdatadir)/reports) at the lowest priority: a file whose name was
 * already loaded from a configuration folder is passed over (the user's
 * copy wins), and a folder that cannot be read is no diagnostic.  Their
 * reports are marked built-in (partial_def.builtin): the evaluation
 * leaves out their subsections with no metric recorded.  Returns 0 or
 * MAPS_ENOMEM.
 */
int partial_load_builtin(struct partial_set *ps, const char *dir);

/*
 * The plain text of HTML subset markup (ss_text): tags removed (and what
 * script and style elements hold), the XML entities and character
 * references decoded, CDATA kept, white space runs made one space; block
 * elements (p, div, br, li, h1-h6, ul, ol, tr) end a line, li starts
 * with "- ".  Lines are trimmed; control characters become spaces.
 * Returns a new string, or NULL when out of memory.
 */
char *partial_plain_text(const char *html);

/* ---- Parsed definitions (for the evaluation in lib/report) ---- */
/* Where an element's start tag begins; line 0: nowhere. */
struct ppos {
	unsigned line, col;     /* from 1 */
};

/* <reportMetric> and its <sourceDetails>. */
struct pdef_rm {
	struct ppos pos;
	char *id, *name, *units;
	struct partial_colour colour;
	int nsd;                /* <sourceDetails> seen */
	struct ppos sd_pos;
	char *ref;              /* metricRef */
	int sv, ag;             /* enum partial_stat, -1 invalid */
};

struct pdef_entry {
	struct ppos pos;
	char *rm;               /* reportMetric */
	char *group;            /* NULL when absent or empty */
	size_t target;          /* index in partial_def.rm */
};

struct pdef_ss {
	struct ppos pos;
	char *id, *heading;
	struct partial_colour colour;
	char *text;             /* raw <text> content, NULL if none */
	struct ppos text_pos;
	struct pdef_entry *en;
	size_t nen, capen;
};

/* One <partialReport>; only files without errors are kept, so every
 * required value is there and every entry's target is valid. */
struct partial_def {
	char *file;
	struct ppos pos;
	char *name;
	struct ppos rms_pos, sss_pos;   /* <reportMetrics>, <subsections> */
	struct pdef_rm *rm;
	size_t nrm, caprm;
	struct pdef_ss *ss;
	size_t nss, capss;
	int builtin;                    /* partial_load_builtin()'s */
};

void partial_def_free(struct partial_def *d);

#endif
