/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef: metric definition files (mapsample-metrics(5)), the XML that
 * tells the profiler which metric plugin libraries to load, which getter
 * functions to call and how to show the values.  The format is the one of
 * the Allinea/Arm MAP Metric Plugin Interface (reference section 2 and
 * the Arm MAP "Metric Plugin Template" page), so that definition files
 * written for Arm MAP are read unchanged.  Shared by the launcher (which
 * validates before the run and resolves library paths) and the report.
 *
 * A struct metricdef is a set of loaded files.  Loading never stops at the
 * first problem: every problem becomes one diagnostic, an error or a
 * warning, whose text has the form
 *
 *     FILE:LINE:COLUMN: <element attr="...">: what is wrong; what to do
 *
 * (warnings say "warning: " after the position), e.g.
 *
 *     metrics/foo.xml:12:5: <source ref="x">: no <source id="x"> in this
 *     file; add it or correct ref
 *
 * LINE and COLUMN (from 1) are those of the start tag of the element at
 * fault; attribute problems point at their element.  Problems of a whole
 * file (unreadable, too large) have no LINE:COLUMN.
 *
 * Errors are what the profiler cannot run with (an XML syntax error, a
 * missing or invalid required value, an unknown reference, a duplicate id,
 * a library or function that does not exist).  Warnings are what it can
 * run with but the author should fix (an unknown element or attribute,
 * which is ignored; a colour or display type it does not know, which the
 * display replaces).  Known Arm MAP extensions seen in published plugins
 * (<enabled>, <autoDisplayFactor>, <accumulate>, colours "SpecialLineN")
 * are accepted silently.
 *
 * Usage:
 *     struct metricdef *md = metricdef_new();
 *     metricdef_load_search_path(md, &search);   or metricdef_load_file()
 *     metricdef_finish(md);                      cross-file references
 *     metricdef_check_libraries(md);             dlopen/dlsym (launcher)
 *     if (md->md_nerrors) ... print md->md_diags[i].d_text ...
 *     metricdef_free(md);
 *
 * Functions returning int return 0 or a negative MAPS_E* code
 * (<mapsample/maps_error.h>); only MAPS_ENOMEM and MAPS_EINVAL (bad
 * arguments) are returned: problems in the files are diagnostics.  None
 * of the functions is async-signal-safe; a struct metricdef is not
 * thread-safe but distinct ones may be used by distinct threads.
 */
#ifndef MAPSAMPLE_METRICDEF_H
#define MAPSAMPLE_METRICDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "defs/colour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest definition file read, in bytes. */
#define METRICDEF_MAX_FILE_SIZE (16u << 20)
/* Most diagnostics shown for one file; one more line says the rest are
 * not shown (they are still counted in f_nerrors and md_nerrors). */
#define METRICDEF_MAX_DIAGS 100

/* Where an element starts in its file; p_line 0: the element is absent. */
struct metricdef_pos {
	unsigned p_line;   /* from 1 */
	unsigned p_col;    /* from 1 */
};

/* A text element (or an attribute) as written, with its position.
 * t_val is NULL when absent; surrounding white space is removed. */
struct metricdef_text {
	char *t_val;
	struct metricdef_pos t_pos;
};

enum metricdef_data_type {
	METRICDEF_UINT64 = 0,  /* <dataType>uint64_t</dataType> */
	METRICDEF_DOUBLE = 1,  /* <dataType>double</dataType> */
};

struct metricdef_file;
struct metricdef_source;
struct xmlcheck_log;
struct metricdef_metric;

/* <rel type="integral" name="other"/> inside <display>. */
struct metricdef_rel {
	struct metricdef_pos r_pos;
	char *r_type;                      /* "integral" */
	char *r_name;                      /* the related metric's id */
	struct metricdef_metric *r_target; /* after metricdef_finish(); NULL
					      if there is none */
	bool r_checked;
};

struct metricdef_metric {
	struct metricdef_file *m_file;
	struct metricdef_pos m_pos;        /* <metric id="..."> */
	char *m_id;
	struct metricdef_text m_units;     /* may be absent or empty */
	struct metricdef_text m_data_type_text;
	enum metricdef_data_type m_data_type;
	struct metricdef_text m_domain;    /* absent means "time" */
	struct metricdef_text m_one_per_node_text;
	bool m_one_per_node;               /* default false */
	struct metricdef_text m_backfill_text;
	bool m_backfill;                   /* default false */
	struct metricdef_text m_enabled;   /* Arm MAP extension, kept as is */

	/* <source ref="..." functionName="..." divideBySampleTime="..."/> */
	struct metricdef_pos m_source_pos;
	char *m_source_ref;
	char *m_function;
	char *m_divide_text;
	bool m_divide_by_sample_time;      /* default false */
	struct metricdef_source *m_source; /* resolved in this file, or NULL */

	/* <display> */
	struct metricdef_pos m_display_pos;
	struct metricdef_text m_description;
	struct metricdef_text m_display_name;
	struct metricdef_text m_type;
	bool m_type_known;                 /* one of metricdef_types[] */
	struct metricdef_text m_colour;
	struct colour m_colour_value;
	struct metricdef_text m_auto_display_factor;  /* Arm MAP extension */
	struct metricdef_text m_accumulate;           /* Arm MAP extension */
	struct metricdef_rel *m_rels;
	size_t m_nrels;
	size_t m_caprels;                  /* internal */

	/* Another metric of this id was loaded earlier (an error): this one
	 * is not in the set's index (metricdef_find_metric()). */
	bool m_duplicate;
};

/* <metric ref="..."/> inside <metricGroup>. */
struct metricdef_ref {
	struct metricdef_pos gr_pos;
	char *gr_ref;
	struct metricdef_metric *gr_target; /* in the same file, or NULL */
};

struct metricdef_group {
	struct metricdef_file *g_file;
	struct metricdef_pos g_pos;
	char *g_id;
	struct metricdef_text g_display_name;
	struct metricdef_text g_description;
	struct metricdef_ref *g_refs;
	size_t g_nrefs;
	size_t g_caprefs;                  /* internal */
	bool g_duplicate;
};

/* A library to preload into the profiled program. */
struct metricdef_preload {
	struct metricdef_pos l_pos;   /* its <preload> element */
	char *l_name;                 /* as written */
	char *l_path;                 /* resolved (see s_library_path) */
};

struct metricdef_source {
	struct metricdef_file *s_file;
	struct metricdef_pos s_pos;
	char *s_id;
	struct metricdef_text s_library;      /* <sharedLibrary> as written */
	/* The library to load: s_library if absolute, else joined to the
	 * directory of the definition file (made absolute when the file was
	 * loaded).  Never a bare name: nothing is looked up in the current
	 * directory or the dynamic linker's search path. */
	char *s_library_path;
	struct metricdef_preload *s_preloads;
	size_t s_npreloads;
	size_t s_cappreloads;                 /* internal */
	struct metricdef_pos s_functions_pos; /* <functions> */
	struct metricdef_text s_start;        /* <start>: function name */
	struct metricdef_text s_stop;         /* <stop>: function name */
};

struct metricdef_file {
	char *f_path;        /* as given, used in messages */
	char *f_dir;         /* absolute directory library names resolve in */
	struct metricdef_metric **f_metrics;
	size_t f_nmetrics;
	struct metricdef_group **f_groups;
	size_t f_ngroups;
	struct metricdef_source **f_sources;
	size_t f_nsources;
	unsigned f_nerrors;  /* diagnostics naming this file */
	unsigned f_nwarnings;
	bool f_unreadable;   /* not read, not well-formed or not a metric
				definition file: no content */
	/* internal */
	int f_seq;           /* its number in the diagnostics log: its
				index in md_files */
	size_t f_capmetrics, f_capgroups, f_capsources;
};

enum metricdef_severity {
	METRICDEF_ERROR = 0,
	METRICDEF_WARNING = 1,
};

/* What a diagnostic is about, for programs; d_text is for people. */
enum metricdef_rule {
	METRICDEF_R_IO = 1,         /* file or directory cannot be read */
	METRICDEF_R_XML,            /* not well-formed XML */
	METRICDEF_R_ROOT,           /* root element is not metricdefinitions */
	METRICDEF_R_VERSION,        /* version missing or not 1 */
	METRICDEF_R_UNKNOWN_ELEMENT,
	METRICDEF_R_UNKNOWN_ATTRIBUTE,
	METRICDEF_R_TEXT,           /* text where only elements belong */
	METRICDEF_R_MISSING,        /* required element or attribute absent */
	METRICDEF_R_EMPTY,          /* required value empty */
	METRICDEF_R_REPEATED,       /* element allowed once given twice */
	METRICDEF_R_DUPLICATE_ID,   /* metric, group or source id reused */
	METRICDEF_R_ID,             /* id with white space */
	METRICDEF_R_DATA_TYPE,
	METRICDEF_R_BOOLEAN,
	METRICDEF_R_DOMAIN,
	METRICDEF_R_DISPLAY_TYPE,
	METRICDEF_R_COLOUR,
	METRICDEF_R_SYMBOL,         /* function name that is no symbol name */
	METRICDEF_R_SOURCE_REF,     /* <source ref> names no source */
	METRICDEF_R_GROUP_REF,      /* <metricGroup><metric ref> no metric */
	METRICDEF_R_REL_NAME,       /* <rel name> names no metric */
	METRICDEF_R_REL_TYPE,       /* <rel type> not "integral" */
	METRICDEF_R_LIBRARY,        /* library not found or not loadable */
	METRICDEF_R_FUNCTION,       /* function not found in the library */
	METRICDEF_R_LIMIT,          /* too many problems: the rest not shown */
	METRICDEF_R_UNSAFE,         /* a folder, file or library another user
				       could have written (common/trust.h) */
};

struct metricdef_diag {
	enum metricdef_severity d_severity;
	enum metricdef_rule d_rule;
	char *d_file;            /* path as given; NULL for none */
	unsigned d_line, d_col;  /* 0 when not about one place */
	char *d_text;            /* the whole message, without a program
				    name and without a newline: printable
				    characters only */
};

struct metricdef {
	struct metricdef_file **md_files;   /* in load order */
	size_t md_nfiles;
	struct metricdef_diag *md_diags;    /* by file in load order (those
					       about no file before the next
					       file's), each file's sorted by
					       position; the strings belong
					       to md */
	size_t md_ndiags;
	unsigned md_nerrors;
	unsigned md_nwarnings;
	/* internal */
	struct metricdef_index *md_metric_index;   /* first definitions */
	struct metricdef_index *md_group_index;
	struct xmlcheck_log *md_log;   /* the diagnostics, which md_diags
					  and the counts show after each
					  call */
	size_t md_capfiles, md_diag_cap;
	bool md_oom;                                /* sticky */
};

/* Names of <display><type> the profiler knows: the reference's list plus
 * "interrupts", which the reference's own custom1.xml uses.  NULL-ended. */
extern const char *const metricdef_types[];

/* Returns a new empty set, or NULL when out of memory. */
struct metricdef *metricdef_new(void);

/* Frees md and everything it holds; NULL is allowed. */
void metricdef_free(struct metricdef *md);

/*
 * Reads, parses and checks the definition file at path and adds it to md:
 * structure, values, references inside the file, and metric and group ids
 * already used by a file loaded before.  Relative library names resolve
 * against the directory of path (made absolute now).  Problems are
 * diagnostics; returns 0, or MAPS_ENOMEM / MAPS_EINVAL.
 */
int metricdef_load_file(struct metricdef *md, const char *path);

/*
 * As metricdef_load_file() for len bytes at buf, named name in messages,
 * with library names resolving against dir (NULL: the directory of name,
 * made absolute).  Used by tests and the fuzz target; reads no file.
 */
int metricdef_load_buffer(struct metricdef *md, const char *name,
			  const char *dir, const void *buf, size_t len);

/*
 * Checks what spans files, once everything is loaded: every <rel name>
 * must name a metric of any loaded file.  May be called again after more
 * loads; each rel is checked once.  Returns 0 or MAPS_ENOMEM.
 */
int metricdef_finish(struct metricdef *md);

/*
 * Checks that the libraries exist and hold the functions named: for each
 * source of each file that parsed, the resolved sharedLibrary must be a
 * file, it is opened with dlopen(RTLD_LAZY | RTLD_LOCAL) and dlsym() must
 * find every functionName that refers to it and its <start> and <stop>;
 * preload libraries must exist.  A library, or a folder on its way,
 * that another user could have written is not opened (an error of rule
 * METRICDEF_R_UNSAFE).  Opening a library runs its constructors
 * in this process.  A library that cannot be opened here only because it
 * needs the plugin API at load time (it was linked with -z now) gets a
 * warning, since the sampler provides that API.  Returns 0 or MAPS_ENOMEM.
 */
int metricdef_check_libraries(struct metricdef *md);
/* The same for the sources want() says yes to: a launcher checks (and so
 * runs the constructors of) only the libraries of the metrics chosen. */
int metricdef_check_libraries_if(struct metricdef *md,
				 int (*want)(const struct metricdef_source *,
					     void *),
				 void *ctx);

/* The metric of that id loaded first, or NULL. */
struct metricdef_metric *metricdef_find_metric(const struct metricdef *md,
					       const char *id);

/* The group of that id loaded first, or NULL. */
struct metricdef_group *metricdef_find_group(const struct metricdef *md,
					     const char *id);

/*
 * Where definitions are searched, in order (mapsample-metrics(5)):
 *   1. sp_dirs, the --metrics-dir options, in the order given;
 *   2. $MAPSAMPLE_CONFIG_DIR/metrics;
 *   3. $ALLINEA_CONFIG_DIR/map/metrics, or ~/.allinea/map/metrics when
 *      ALLINEA_CONFIG_DIR is unset or empty (Arm MAP's own layout, where
 *      Arm MAP users have their plugins installed);
 *   4. ~/.mapsample/metrics ($HOME, else the password database);
 *   5. sp_installed, or when NULL the installed $(pkgdatadir)/metrics.
 * Unset variables are skipped; a directory reached twice (the same
 * directory by another name included) is kept at its first place.
 */
struct metricdef_search {
	const char *const *sp_dirs;
	size_t sp_ndirs;
	const char *sp_installed;
};

struct metricdef_dir {
	char *sd_path;
	const char *sd_origin;  /* "--metrics-dir", "$MAPSAMPLE_CONFIG_DIR",
				   ... for messages (static string) */
	bool sd_explicit;       /* from sp_dirs: must exist */
};

/* The directories of the search path, in order, in a new array of *n
 * (free with metricdef_free_dirs()).  Does not look at the file system
 * except to find the same directory twice.  Returns 0 or MAPS_ENOMEM. */
int metricdef_search_dirs(const struct metricdef_search *sp,
			  struct metricdef_dir **dirs, size_t *n);
void metricdef_free_dirs(struct metricdef_dir *dirs, size_t n);

/*
 * The definition files of the search path: in each directory, the
 * regular files whose names end in ".xml" and do not start with '.', in
 * byte order of their names; directories in search order.  A missing
 * --metrics-dir directory, or one that cannot be read, is an error
 * diagnostic in md (md may be NULL to not report); other missing
 * directories are skipped silently.  *files is a new array of *n paths
 * (free with metricdef_free_files()).  Returns 0 or MAPS_ENOMEM.
 */
int metricdef_search_files(struct metricdef *md,
			   const struct metricdef_search *sp,
			   char ***files, size_t *n);
void metricdef_free_files(char **files, size_t n);

/* Loads every file of the search path in order (a metric id defined again
 * in a later file is an error naming both places), then
 * metricdef_finish().  Returns 0 or MAPS_ENOMEM. */
int metricdef_load_search_path(struct metricdef *md,
			       const struct metricdef_search *sp);

#ifdef __cplusplus
}
#endif
#endif /* MAPSAMPLE_METRICDEF_H */
