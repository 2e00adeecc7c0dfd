/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xmlcheck: the XML-checking core under lib/defs' two definition parsers,
 * metric definitions (metricdef*.c) and partial-report definitions
 * (partial*.c).  Private to lib/defs.
 *
 *   parsing      expat driven by a parser's grammar (struct
 *                xmlcheck_grammar): a table of element rules (which
 *                element may stand in which, with which attributes, once
 *                only or not, holding text, attributes only or markup kept
 *                as written) and hooks.  The core reports what the table
 *                decides (unknown attributes, a wrong root, not
 *                well-formed XML) and calls the hooks for the rest, each
 *                with the position of the start tag at fault.
 *   diagnostics  a log of messages "FILE:LINE:COL: [warning: ]<elem>:
 *                what is wrong; what to do", counted per file and for the
 *                set, at most a given number shown per file, sorted by
 *                file then position.
 *   messages     values quoted, elements rendered, allowed names listed.
 *   names        XML NCNames and the reserved prefixes of section 3.6.
 *   files        a file read whole, the *.xml files of a folder, the home
 *                directory and the configuration folders both kinds of
 *                definitions are searched in.
 *
 * Functions returning int return 0 (or a number) or a negative MAPS_E*
 * code.  Out of memory in the log or a parse also sets the owner's sticky
 * flag given to xmlcheck_log_new().  Nothing here is async-signal-safe or
 * thread-safe.
 */
#ifndef MAPSAMPLE_DEFS_XMLCHECK_H
#define MAPSAMPLE_DEFS_XMLCHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <expat.h>

/* Longest value quoted in a message, in bytes of the value, and the
 * buffer a value is quoted into: room for XMLCHECK_QUOTE_MAX bytes that
 * each take up to 4 as an escape, so that an element descriptor with two
 * quoted values fits XMLCHECK_ELEM_MAX.  (A C1 control character takes 8
 * for its 2 bytes of UTF-8: a value of more than 32 of them is cut
 * earlier, without "...".) */
#define XMLCHECK_QUOTE_MAX 64
#define XMLCHECK_QBUF (XMLCHECK_QUOTE_MAX * 4 + 18)
/* A buffer for an element descriptor or a list of names. */
#define XMLCHECK_ELEM_MAX 512
/* Deepest nesting checked, and most rules in a table. */
#define XMLCHECK_MAX_DEPTH 8
#define XMLCHECK_MAX_RULES 32

/* Where a start tag begins: line and column from 1; line 0: nowhere (a
 * diagnostic about a whole file). */
struct xmlcheck_pos {
	unsigned line, col;
};

/* ---- Messages ---- */

/*
 * Writes s (NULL: "") to dst (size n) in double quotes, with '"', '\\' and
 * control characters (C0, DEL, C1 in UTF-8) escaped as \xNN, and anything
 * past XMLCHECK_QUOTE_MAX bytes replaced by "..."; when the escapes do not
 * fit n (XMLCHECK_QBUF, or less) the value ends earlier, without "...".
 * Returns dst.
 */
char *xmlcheck_quote(char *dst, size_t n, const char *s);

/*
 * Writes an element's descriptor for messages to dst (size n): <name
 * a1="v1" ...>, from nattr (attribute name, value) pairs following; pairs
 * whose value is NULL are left out.  The name and values are shown as
 * xmlcheck_quote() shows them.  Returns dst.
 */
char *xmlcheck_elem(char *dst, size_t n, const char *name, int nattr, ...);

/* A copy of s, NULL for NULL (an absent attribute); sets *oom when out
 * of memory. */
char *xmlcheck_strdup(bool *oom, const char *s);

/* A new zeroed element at the end of the array *pp of *n elements of size
 * bytes, capacity *cap, grown with mem_grow(); *n counts it.  NULL, with
 * *oom set, when out of memory. */
void *xmlcheck_push(bool *oom, void *pp, size_t *cap, size_t *n,
		    size_t size);

/* ---- Names (Namespaces in XML 1.0; reference section 3.6) ---- */

/*
 * Whether id is no XML NCName in the sense of section 3.6 (which also
 * forbids a leading '_'): when it is none, writes why into why (size n,
 * e.g. "it starts with \"1\"") and returns true.
 */
bool xmlcheck_ncname_problem(const char *id, char *why, size_t n);

/* The reserved prefix id starts with ("allinea.", "com.allinea.",
 * "mapsample.", "com.mapsample."), or NULL. */
const char *xmlcheck_reserved_prefix(const char *id);

/* ---- Diagnostics ---- */

enum xmlcheck_severity {
	XMLCHECK_ERROR = 0,        /* the file is not used as it is */
	XMLCHECK_WARNING = 1,      /* it is, but should be fixed */
};

/* Not about one of the log's files (a folder, say). */
#define XMLCHECK_NOFILE (-1)

struct xmlcheck_diag {
	enum xmlcheck_severity xd_severity;
	int xd_rule;               /* the parser's number for the rule */
	char *xd_file;             /* the path printed; NULL for none */
	unsigned xd_line, xd_col;  /* 0 when about a whole file */
	char *xd_text;             /* the whole message: one line of
				      printable characters */
	size_t xd_fileseq, xd_seq; /* sort keys: file, order found */
	bool xd_limit;             /* of the log's limit rule: sorts last */
};

/* Counts of diagnostics: of one file, or of the whole log. */
struct xmlcheck_count {
	unsigned xn_errors, xn_warnings;
	unsigned xn_shown;         /* kept in the log (files only) */
};

struct xmlcheck_log {
	struct xmlcheck_diag *lg_diags;   /* by xmlcheck_log_sort(): by
					     file, then position */
	size_t lg_ndiags, lg_capdiags;
	struct xmlcheck_count *lg_files;  /* per file, by number */
	size_t lg_nfiles, lg_capfiles;
	struct xmlcheck_count lg_all;
	unsigned lg_max;                  /* most diagnostics kept a file */
	int lg_limit_rule;                /* the rule of "more than ..." */
	bool *lg_oom;                     /* the owner's sticky flag */
};

/*
 * A new empty log that keeps at most max diagnostics of one file (one
 * more line, of rule limit_rule, then says the rest are not shown; they
 * are still counted) and sets *oom when out of memory.  NULL when out of
 * memory (*oom set).
 */
struct xmlcheck_log *xmlcheck_log_new(unsigned max, int limit_rule,
				      bool *oom);

/* Frees lg and its diagnostics' strings; NULL is allowed. */
void xmlcheck_log_free(struct xmlcheck_log *lg);

/* Registers the next file: returns its number (0, 1, ... in order), or
 * MAPS_ENOMEM. */
int xmlcheck_log_file(struct xmlcheck_log *lg);

/*
 * Adds a diagnostic about file (a number from xmlcheck_log_file(), or
 * XMLCHECK_NOFILE: it sorts before the next file's) named path (NULL: no
 * name) at pos; elem is the descriptor of the element at fault
 * (xmlcheck_elem()) or NULL.  The text is
 *     PATH[:LINE:COL]: [warning: ][ELEM: ]MESSAGE
 * with control characters made spaces.  Counted in the file and the log
 * even when the file's limit hides it.
 */
void xmlcheck_vreport(struct xmlcheck_log *lg, int file, const char *path,
		      struct xmlcheck_pos pos, enum xmlcheck_severity sev,
		      int rule,
		      const char *elem, const char *fmt, va_list ap);
void xmlcheck_report(struct xmlcheck_log *lg, int file, const char *path,
		     struct xmlcheck_pos pos, enum xmlcheck_severity sev,
		      int rule,
		     const char *elem, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* Sorts the log by file (in registration order), then line (the limit
 * line last), column and order found; renumbers xd_seq. */
void xmlcheck_log_sort(struct xmlcheck_log *lg);

/* ---- Parsing ---- */

/* The kind of the document, outside the root element; parsers number
 * their element kinds from 1. */
#define XMLCHECK_DOC 0

/* Flags of a rule. */
#define XMLCHECK_ONCE  0x01u /* at most once in its parent: a second is an
				error (xg_repeated) and skipped whole */
#define XMLCHECK_TEXT  0x02u /* holds text only, given to xg_close trimmed */
#define XMLCHECK_EMPTY 0x04u /* holds nothing: attributes only */
#define XMLCHECK_EXT   0x08u /* accepted, but not listed as allowed */
#define XMLCHECK_RAW   0x10u /* content not checked: elements in it are
				passed over, its character data given to
				xg_close as decoded */
#define XMLCHECK_XMLNS 0x20u /* xmlns:* attributes allowed too */

/* One element that may stand in another. */
struct xmlcheck_rule {
	int xr_parent;                /* the parent's kind (XMLCHECK_DOC: the
					 root element) */
	const char *xr_name;
	int xr_kind;                  /* the element's kind: one rule each */
	unsigned xr_flags;
	const char *const *xr_attrs;  /* allowed attributes, NULL-ended */
};

/* An open element. */
struct xmlcheck_frame {
	const struct xmlcheck_rule *xf_rule;  /* NULL for the document */
	int xf_kind;
	struct xmlcheck_pos xf_pos;
	/* where the first child of each rule began (index in the table) */
	struct xmlcheck_pos xf_seen[XMLCHECK_MAX_RULES];
	bool xf_text_warned;                  /* stray text reported */
};

struct xmlcheck;

/* A parser's grammar: its table, and what it does beyond the table.  The
 * hooks that report are called with the position of the start tag at
 * fault; x->xc_ctx is the parser's.  All are required. */
struct xmlcheck_grammar {
	const struct xmlcheck_rule *xg_rules;
	size_t xg_nrules;                 /* at most XMLCHECK_MAX_RULES */
	/* The parser's numbers for the rules the core reports. */
	int xg_r_xml;                     /* not well-formed XML */
	int xg_r_root;                    /* not the parser's root element */
	int xg_r_unknown_element;         /* xmlcheck_unknown() */
	int xg_r_unknown_attribute;
	/* What is said of a root element that is none of the table's (an
	 * error of rule xg_r_root at it; the parse then stops and the file
	 * has no content: xc_failed). */
	const char *xg_bad_root;
	/* name may not stand in top (or is nested too deep); it is skipped
	 * whole.  xmlcheck_unknown() reports it in the common words. */
	void (*xg_unknown)(struct xmlcheck *x, struct xmlcheck_pos pos,
			   const char *name, const struct xmlcheck_frame *top);
	/* A second element of ONCE rule r in top, the first at first; it is
	 * skipped whole. */
	void (*xg_repeated)(struct xmlcheck *x, struct xmlcheck_pos pos,
			    const struct xmlcheck_rule *r,
			    const struct xmlcheck_frame *top,
			    struct xmlcheck_pos first);
	/* fr has opened (its attributes checked against the rule). */
	void (*xg_open)(struct xmlcheck *x, const struct xmlcheck_frame *fr,
			const XML_Char **atts);
	/* fr has closed; text: a TEXT element's text without surrounding
	 * white space, a RAW element's character data, else NULL (owned by
	 * the core, may be changed in place). */
	void (*xg_close)(struct xmlcheck *x, const struct xmlcheck_frame *fr,
			 char *text);
	/* Text other than white space in top, which holds none: the first
	 * of it (at most XMLCHECK_QUOTE_MAX + 4 bytes, no white space at
	 * either end) at pos.  Called once per element. */
	void (*xg_stray)(struct xmlcheck *x, struct xmlcheck_pos pos,
			 const struct xmlcheck_frame *top, const char *text);
};

/* One parse: xmlcheck_init(), then xmlcheck_parse(). */
struct xmlcheck {
	const struct xmlcheck_grammar *xc_g;
	void *xc_ctx;                     /* the parser's */
	struct xmlcheck_log *xc_log;      /* diagnostics go there, about */
	int xc_file;                      /* this file */
	const char *xc_path;              /* named so */

	/* while parsing */
	XML_Parser xc_xp;
	struct xmlcheck_frame xc_stack[XMLCHECK_MAX_DEPTH];
	int xc_depth;                     /* xc_stack[0] is the document */
	unsigned xc_skip;                 /* depth inside a skipped element */
	unsigned xc_raw;                  /* depth inside a RAW one, from 1 */
	char *xc_text;                    /* the open TEXT or RAW element's */
	size_t xc_ntext, xc_captext;
	char xc_none[1];                  /* the text when none came */
	bool xc_stopped;                  /* xmlcheck_stop() was called */
	/* after: not well-formed, or bad root (reported): no content */
	bool xc_failed;
};

/* Prepares x to parse file (a number of lg) named path with grammar g;
 * ctx is the parser's, for its hooks. */
void xmlcheck_init(struct xmlcheck *x, const struct xmlcheck_grammar *g,
		   void *ctx, struct xmlcheck_log *lg, int file,
		   const char *path);

/*
 * Parses len bytes at buf (at most INT_MAX) with x's grammar.
 * Not well-formed XML is an error diagnostic (rule xg_r_xml) and
 * sets xc_failed, as a bad root does.  Returns 0 or MAPS_ENOMEM.
 */
int xmlcheck_parse(struct xmlcheck *x, const void *buf, size_t len);

/* Stops the parse (after out of memory, say): no more hooks are called. */
void xmlcheck_stop(struct xmlcheck *x);

/* Where the parser is now (the start of the current tag in handlers). */
struct xmlcheck_pos xmlcheck_here(const struct xmlcheck *x);

/* Adds a diagnostic about the file being parsed (xmlcheck_report()). */
void xmlcheck_diag(struct xmlcheck *x, struct xmlcheck_pos pos,
		   enum xmlcheck_severity sev, int rule, const char *elem,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The value of attribute name in atts, or NULL. */
const char *xmlcheck_attr(const XML_Char **atts, const char *name);

/*
 * Reports name, unknown in top, in the common words: "unknown element in
 * <parent>, ignored; allowed there: LIST", where LIST names the
 * children the table allows (not XMLCHECK_EXT ones), as <a>, <b> when
 * angle is true, else a, b; "none" when there are none.
 */
void xmlcheck_unknown(struct xmlcheck *x, struct xmlcheck_pos pos,
		      const char *name, const struct xmlcheck_frame *top,
		      bool angle);

/* ---- Files ---- */

/*
 * Reads the file at path whole into a new NUL-terminated buffer *out
 * (free() it) of *len bytes (the NUL not counted).  Returns 0,
 * MAPS_ENOMEM, or MAPS_EIO with errno set: the error of open() or read(),
 * EISDIR for a directory, EFBIG when it holds more than limit bytes.
 */
int xmlcheck_read_file(const char *path, size_t limit, char **out,
		       size_t *len);

/*
 * The names of the regular files of folder dir whose names end in ".xml"
 * and do not start with '.', in byte order, in a new array *names of *n
 * new strings (xmlcheck_names_free()).  Returns 0, MAPS_ENOMEM, or
 * MAPS_EIO with errno set by opendir().
 */
int xmlcheck_xml_names(const char *dir, char ***names, size_t *n);

/* Frees the n strings of names, then names; NULL is allowed. */
void xmlcheck_names_free(char **names, size_t n);

/* The user's home directory: $HOME, else the password database; NULL
 * when neither says. */
const char *xmlcheck_home(void);

/* A list of folders, each once (also under another name). */
struct xmlcheck_dir {
	char *dr_path;
	const char *dr_origin;    /* where it comes from (static string) */
};
struct xmlcheck_dirs {
	struct xmlcheck_dir *ds_v;
	size_t ds_n, ds_cap;
	char **ds_real;           /* realpath of each; NULL if none */
	size_t ds_capreal;
};

/*
 * Adds base/sub (base alone when sub is NULL; base's trailing '/' are
 * dropped before sub) to d, unless base is NULL or empty or d holds that
 * folder already (the same path, or the same real path).  Returns 0 or
 * MAPS_ENOMEM.
 */
int xmlcheck_dirs_add(struct xmlcheck_dirs *d, const char *base,
		      const char *sub, const char *origin);

/*
 * Adds the configuration folders of one kind of definitions, in order:
 * $MAPSAMPLE_CONFIG_DIR/sub; $ALLINEA_CONFIG_DIR/allinea_sub, or
 * ~/.allinea/allinea_sub when that variable is unset or empty (Arm's
 * layout); ~/.mapsample/sub.  Unset variables are skipped.  Origins:
 * "$MAPSAMPLE_CONFIG_DIR", "$ALLINEA_CONFIG_DIR", "~/.allinea",
 * "~/.mapsample".  Returns 0 or MAPS_ENOMEM.
 */
int xmlcheck_config_dirs(struct xmlcheck_dirs *d, const char *sub,
			 const char *allinea_sub);

/* Frees what d holds (d itself is the caller's); the paths too unless
 * keep_paths (they were handed on). */
void xmlcheck_dirs_free(struct xmlcheck_dirs *d, bool keep_paths);

#endif /* MAPSAMPLE_DEFS_XMLCHECK_H */
