/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xmlcheck.c: the XML-checking core of lib/defs (xmlcheck.h): expat
 * driven by a table of element rules, the diagnostics log, the pieces of
 * messages, XML names, and the files and folders definitions come from.
 *
 * DESIGN NOTES
 * - One parse is one struct xmlcheck.  The expat handlers keep a stack of
 *   open elements (each with the position of its start tag and where the
 *   first child of each rule began) and decide from the table alone:
 *   unknown elements and repeated ONCE elements are skipped whole after
 *   the parser's hook has reported them; unknown attributes are reported
 *   here, in the same words for both parsers; text is collected for TEXT
 *   and RAW elements and reported once per element elsewhere.  What an
 *   element means is the parser's business (xg_open, xg_close).
 * - expat gives no positions for attributes: everything is reported at
 *   the start tag of its element.
 * - The log keeps a file's diagnostics in the order found; sorting (by
 *   file, then position, the "more than N problems" line last) is done
 *   by the parsers at the end of each public call, since checks after a
 *   parse (references across files, libraries) add to files read before.
 * - Out of memory sets the owner's flag (lg_oom); handlers then stop the
 *   parser and do nothing more.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "defs/xmlcheck.h"

/* ------------------------------------------------------------------ */
/* Messages */

/* Appends to dst (size n, used *len) what fmt gives, cutting at n. */
__attribute__((format(printf, 4, 5)))
static void append(char *dst, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	if (*len + 1 >= n)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(dst + *len, n - *len, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	*len += (size_t)w;
	if (*len >= n)
		*len = n - 1;
}

char *xmlcheck_quote(char *dst, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0, used = 0;
	/* room for '"', the longest escape (8 bytes), "...", '"' and NUL */
	if (n < 16) {
		if (n)
			dst[0] = '\0';
		return dst;
	}
	dst[o++] = '"';
	while (*p && o + 14 < n) {
		unsigned c = *p;
		if (used >= XMLCHECK_QUOTE_MAX && (c < 0x80 || c >= 0xc0)) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (c == '"' || c == '\\') {
			dst[o++] = '\\';
			dst[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", c);
		} else if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			/* a C1 control character in UTF-8 */
			o += (size_t)snprintf(dst + o, n - o, "\\xc2\\x%02x",
					      p[1]);
			p++;
		} else {
			dst[o++] = (char)c;
		}
		used++;
		p++;
	}
	dst[o++] = '"';
	dst[o] = '\0';
	return dst;
}

char *xmlcheck_elem(char *dst, size_t n, const char *name, int nattr, ...)
{
	char q[XMLCHECK_QBUF];
	size_t len = 0;
	va_list ap;
	/* the name may come from the file: show it as a quoted value would
	 * be shown, without the quotes */
	xmlcheck_quote(q, sizeof(q), name);
	q[strlen(q) - 1] = '\0';
	if (n)
		dst[0] = '\0';
	append(dst, n, &len, "<%s", q + 1);
	va_start(ap, nattr);
	for (int i = 0; i < nattr; i++) {
		const char *a = va_arg(ap, const char *);
		const char *v = va_arg(ap, const char *);
		if (!v)
			continue;
		xmlcheck_quote(q, sizeof(q), v);
		append(dst, n, &len, " %s=%s", a, q);
	}
	va_end(ap);
	append(dst, n, &len, ">");
	return dst;
}

char *xmlcheck_strdup(bool *oom, const char *s)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = strdup(s)))
		*oom = true;
	return d;
}

void *xmlcheck_push(bool *oom, void *pp, size_t *cap, size_t *n,
		    size_t size)
{
	char *e;
	if (mem_grow(pp, cap, *n, size)) {
		*oom = true;
		return NULL;
	}
	e = *(char **)pp + *n * size;
	memset(e, 0, size);
	(*n)++;
	return e;
}

/* "a, b, c" (or "<a>, <b>, <c>"): the children rules allow in kind
 * parent, not the XMLCHECK_EXT ones; "none" when there are none. */
static char *children(char *dst, size_t n, const struct xmlcheck *x,
		      int parent, bool angle)
{
	size_t len = 0;
	dst[0] = '\0';
	for (size_t i = 0; i < x->xc_g->xg_nrules; i++) {
		const struct xmlcheck_rule *r = &x->xc_g->xg_rules[i];
		if (r->xr_parent == parent && !(r->xr_flags & XMLCHECK_EXT))
			append(dst, n, &len, angle ? "%s<%s>" : "%s%s",
			       len ? ", " : "", r->xr_name);
	}
	if (!len)
		append(dst, n, &len, "none");
	return dst;
}

/* "a, b": the attributes of rule r; "none" when it has none. */
static char *attr_names(char *dst, size_t n, const struct xmlcheck_rule *r)
{
	size_t len = 0;
	dst[0] = '\0';
	for (size_t i = 0; r->xr_attrs[i]; i++)
		append(dst, n, &len, "%s%s", len ? ", " : "", r->xr_attrs[i]);
	if (!len)
		append(dst, n, &len, "none");
	return dst;
}

/* ------------------------------------------------------------------ */
/* Names */

/* Decodes one UTF-8 character at *p (expat hands out valid UTF-8);
 * returns it and moves *p past it, or returns -1. */
static long utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	long c;
	int n;
	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		c = s[0] & 0x1f;
		n = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		c = s[0] & 0x0f;
		n = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		c = s[0] & 0x07;
		n = 3;
	} else {
		return -1;
	}
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (s[i] & 0x3f);
	}
	*p = s + n + 1;
	return c;
}

/* XML 1.0 (fifth edition) NameStartChar without ':'. */
static bool name_start(long c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	       (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) ||
	       (c >= 0xf8 && c <= 0x2ff) || (c >= 0x370 && c <= 0x37d) ||
	       (c >= 0x37f && c <= 0x1fff) || (c >= 0x200c && c <= 0x200d) ||
	       (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) ||
	       (c >= 0x3001 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) ||
	       (c >= 0xfdf0 && c <= 0xfffd) || (c >= 0x10000 && c <= 0xeffff);
}

static bool name_char(long c)
{
	return name_start(c) || c == '-' || c == '.' ||
	       (c >= '0' && c <= '9') || c == 0xb7 ||
	       (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040);
}

bool xmlcheck_ncname_problem(const char *id, char *why, size_t n)
{
	const unsigned char *p = (const unsigned char *)id;
	char q[XMLCHECK_QBUF];
	bool first = true;
	while (*p) {
		const unsigned char *at = p;
		long c = utf8_next(&p);
		char ch[8] = "";
		if (c < 0) {
			snprintf(why, n, "it is not UTF-8");
			return true;
		}
		memcpy(ch, at, (size_t)(p - at));
		if (first && (c == '_' || !name_start(c))) {
			snprintf(why, n, "it starts with %s",
				 xmlcheck_quote(q, sizeof(q), ch));
			return true;
		}
		if (!first && !name_char(c)) {
			snprintf(why, n, "it contains %s",
				 xmlcheck_quote(q, sizeof(q), ch));
			return true;
		}
		first = false;
	}
	return false;
}

const char *xmlcheck_reserved_prefix(const char *id)
{
	static const char *const reserved[] = {
		"allinea.", "com.allinea.", "mapsample.", "com.mapsample.",
		NULL,
	};
	for (int i = 0; reserved[i]; i++)
		if (!strncmp(id, reserved[i], strlen(reserved[i])))
			return reserved[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Diagnostics */

static void nomem(struct xmlcheck_log *lg)
{
	*lg->lg_oom = true;
}

struct xmlcheck_log *xmlcheck_log_new(unsigned max, int limit_rule,
				      bool *oom)
{
	struct xmlcheck_log *lg = calloc(1, sizeof(*lg));
	if (!lg) {
		*oom = true;
		return NULL;
	}
	lg->lg_max = max;
	lg->lg_limit_rule = limit_rule;
	lg->lg_oom = oom;
	return lg;
}

void xmlcheck_log_free(struct xmlcheck_log *lg)
{
	if (!lg)
		return;
	for (size_t i = 0; i < lg->lg_ndiags; i++) {
		free(lg->lg_diags[i].xd_file);
		free(lg->lg_diags[i].xd_text);
	}
	free(lg->lg_diags);
	free(lg->lg_files);
	free(lg);
}

int xmlcheck_log_file(struct xmlcheck_log *lg)
{
	if (lg->lg_nfiles >= INT_MAX ||
	    mem_grow(&lg->lg_files, &lg->lg_capfiles, lg->lg_nfiles,
		     sizeof(*lg->lg_files))) {
		nomem(lg);
		return MAPS_ENOMEM;
	}
	memset(&lg->lg_files[lg->lg_nfiles], 0, sizeof(*lg->lg_files));
	return (int)lg->lg_nfiles++;
}

/* Appends a diagnostic whose text is text (taken over; NULL: out of
 * memory). */
static void add(struct xmlcheck_log *lg, int file, const char *path,
		struct xmlcheck_pos pos, enum xmlcheck_severity sev, int rule,
		char *text)
{
	struct xmlcheck_diag *d;
	if (!text) {
		nomem(lg);
		return;
	}
	/* one line of printable characters, whatever the path holds */
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	if (mem_grow(&lg->lg_diags, &lg->lg_capdiags, lg->lg_ndiags,
		     sizeof(*d))) {
		free(text);
		nomem(lg);
		return;
	}
	d = &lg->lg_diags[lg->lg_ndiags];
	memset(d, 0, sizeof(*d));
	if (path && !(d->xd_file = strdup(path))) {
		free(text);
		nomem(lg);
		return;
	}
	d->xd_severity = sev;
	d->xd_rule = rule;
	d->xd_line = pos.line;
	d->xd_col = pos.line ? pos.col : 0;
	d->xd_text = text;
	/* no-file diagnostics (folders) sort before the next file's */
	d->xd_fileseq = file >= 0 ? 2 * (size_t)file + 1 : 2 * lg->lg_nfiles;
	d->xd_seq = lg->lg_ndiags++;
	d->xd_limit = rule == lg->lg_limit_rule;
}

void xmlcheck_vreport(struct xmlcheck_log *lg, int file, const char *path,
		      struct xmlcheck_pos pos, enum xmlcheck_severity sev,
		      int rule,
		      const char *elem, const char *fmt, va_list ap)
{
	struct xmlcheck_count *fc = NULL;
	char *msg = NULL, *text = NULL, where[64] = "";

	if (file >= 0 && (size_t)file < lg->lg_nfiles)
		fc = &lg->lg_files[file];
	if (sev == XMLCHECK_WARNING) {
		lg->lg_all.xn_warnings++;
		if (fc)
			fc->xn_warnings++;
	} else {
		lg->lg_all.xn_errors++;
		if (fc)
			fc->xn_errors++;
	}
	if (fc) {
		if (fc->xn_shown > lg->lg_max)
			return;
		if (fc->xn_shown++ == lg->lg_max) {
			if (asprintf(&text, "%s: more than %u problems; the "
				     "others are not shown; fix these first",
				     path ? path : "", lg->lg_max) < 0)
				text = NULL;
			add(lg, file, path, (struct xmlcheck_pos){0, 0},
			    sev, lg->lg_limit_rule, text);
			return;
		}
	}
	if (vasprintf(&msg, fmt, ap) < 0) {
		nomem(lg);
		return;
	}
	if (pos.line)
		snprintf(where, sizeof(where), ":%u:%u", pos.line, pos.col);
	if (asprintf(&text, "%s%s: %s%s%s%s", path ? path : "", where,
		     sev == XMLCHECK_WARNING ? "warning: " : "",
		     elem ? elem : "", elem ? ": " : "", msg) < 0)
		text = NULL;
	free(msg);
	add(lg, file, path, pos, sev, rule, text);
}

void xmlcheck_report(struct xmlcheck_log *lg, int file, const char *path,
		     struct xmlcheck_pos pos, enum xmlcheck_severity sev,
		      int rule,
		     const char *elem, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xmlcheck_vreport(lg, file, path, pos, sev, rule, elem, fmt, ap);
	va_end(ap);
}

static int diag_cmp(const void *a, const void *b)
{
	const struct xmlcheck_diag *x = a, *y = b;
	unsigned xl = x->xd_limit ? UINT_MAX : x->xd_line;
	unsigned yl = y->xd_limit ? UINT_MAX : y->xd_line;
	if (x->xd_fileseq != y->xd_fileseq)
		return x->xd_fileseq < y->xd_fileseq ? -1 : 1;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	if (x->xd_col != y->xd_col)
		return x->xd_col < y->xd_col ? -1 : 1;
	return x->xd_seq < y->xd_seq ? -1 : x->xd_seq > y->xd_seq;
}

void xmlcheck_log_sort(struct xmlcheck_log *lg)
{
	if (lg->lg_ndiags > 1)
		qsort(lg->lg_diags, lg->lg_ndiags, sizeof(*lg->lg_diags),
		      diag_cmp);
	for (size_t i = 0; i < lg->lg_ndiags; i++)
		lg->lg_diags[i].xd_seq = i;
}

/* ------------------------------------------------------------------ */
/* Parsing */

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

struct xmlcheck_pos xmlcheck_here(const struct xmlcheck *x)
{
	XML_Size l = XML_GetCurrentLineNumber(x->xc_xp);
	XML_Size c = XML_GetCurrentColumnNumber(x->xc_xp);
	struct xmlcheck_pos p;
	p.line = l >= UINT_MAX ? UINT_MAX : (unsigned)l;
	p.col = c >= UINT_MAX - 1 ? UINT_MAX : (unsigned)c + 1;
	if (!p.line)
		p.line = 1;
	return p;
}

void xmlcheck_stop(struct xmlcheck *x)
{
	if (!x->xc_stopped) {
		x->xc_stopped = true;
		XML_StopParser(x->xc_xp, XML_FALSE);
	}
}

void xmlcheck_diag(struct xmlcheck *x, struct xmlcheck_pos pos,
		   enum xmlcheck_severity sev, int rule, const char *elem,
		   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xmlcheck_vreport(x->xc_log, x->xc_file, x->xc_path, pos, sev, rule,
			 elem, fmt, ap);
	va_end(ap);
}

const char *xmlcheck_attr(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (!strcmp(atts[i], name))
			return atts[i + 1];
	return NULL;
}

void xmlcheck_unknown(struct xmlcheck *x, struct xmlcheck_pos pos,
		      const char *name, const struct xmlcheck_frame *top,
		      bool angle)
{
	char el[XMLCHECK_ELEM_MAX], pel[XMLCHECK_ELEM_MAX];
	char list[XMLCHECK_ELEM_MAX];
	xmlcheck_elem(pel, sizeof(pel),
		      top->xf_rule ? top->xf_rule->xr_name : "", 0);
	children(list, sizeof(list), x, top->xf_kind, angle);
	xmlcheck_diag(x, pos, XMLCHECK_WARNING, x->xc_g->xg_r_unknown_element,
		      xmlcheck_elem(el, sizeof(el), name, 0),
		      "unknown element in %s, ignored; allowed there: %s", pel,
		      list);
}

static bool halted(const struct xmlcheck *x)
{
	return *x->xc_log->lg_oom || x->xc_stopped;
}

static const struct xmlcheck_rule *find_rule(const struct xmlcheck *x,
					     int parent, const char *name)
{
	for (size_t i = 0; i < x->xc_g->xg_nrules; i++)
		if (x->xc_g->xg_rules[i].xr_parent == parent &&
		    !strcmp(x->xc_g->xg_rules[i].xr_name, name))
			return &x->xc_g->xg_rules[i];
	return NULL;
}

static void check_attrs(struct xmlcheck *x, struct xmlcheck_pos pos,
			const struct xmlcheck_rule *r, const XML_Char **atts)
{
	char el[XMLCHECK_ELEM_MAX], list[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	for (size_t i = 0; atts[i]; i += 2) {
		bool ok = (r->xr_flags & XMLCHECK_XMLNS) &&
			  !strncmp(atts[i], "xmlns:", 6);
		for (size_t j = 0; r->xr_attrs[j] && !ok; j++)
			ok = !strcmp(atts[i], r->xr_attrs[j]);
		if (ok)
			continue;
		xmlcheck_diag(x, pos, XMLCHECK_WARNING,
			      x->xc_g->xg_r_unknown_attribute,
			      xmlcheck_elem(el, sizeof(el), r->xr_name, 1,
					    atts[i], atts[i + 1]),
			      "unknown attribute %s of <%s>, ignored; "
			      "allowed: %s",
			      xmlcheck_quote(q, sizeof(q), atts[i]),
			      r->xr_name, attr_names(list, sizeof(list), r));
	}
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
			     const XML_Char **atts)
{
	struct xmlcheck *x = ud;
	struct xmlcheck_frame *top, *fr;
	const struct xmlcheck_rule *r;
	struct xmlcheck_pos pos;
	size_t ri;

	if (halted(x)) {
		xmlcheck_stop(x);
		return;
	}
	if (x->xc_raw) {
		x->xc_raw++;
		return;
	}
	if (x->xc_skip) {
		x->xc_skip++;
		return;
	}
	pos = xmlcheck_here(x);
	top = &x->xc_stack[x->xc_depth - 1];
	r = find_rule(x, top->xf_kind, name);
	if (top->xf_kind == XMLCHECK_DOC && !r) {
		char el[XMLCHECK_ELEM_MAX];
		xmlcheck_diag(x, pos, XMLCHECK_ERROR, x->xc_g->xg_r_root,
			      xmlcheck_elem(el, sizeof(el), name, 0), "%s",
			      x->xc_g->xg_bad_root);
		x->xc_failed = true;
		xmlcheck_stop(x);
		return;
	}
	if (!r || x->xc_depth >= XMLCHECK_MAX_DEPTH) {
		x->xc_g->xg_unknown(x, pos, name, top);
		x->xc_skip = 1;
		return;
	}
	ri = (size_t)(r - x->xc_g->xg_rules);
	if ((r->xr_flags & XMLCHECK_ONCE) && top->xf_seen[ri].line) {
		x->xc_g->xg_repeated(x, pos, r, top, top->xf_seen[ri]);
		x->xc_skip = 1;
		return;
	}
	top->xf_seen[ri] = pos;
	check_attrs(x, pos, r, atts);
	fr = &x->xc_stack[x->xc_depth++];
	memset(fr, 0, sizeof(*fr));
	fr->xf_rule = r;
	fr->xf_kind = r->xr_kind;
	fr->xf_pos = pos;
	x->xc_ntext = 0;
	if (r->xr_flags & XMLCHECK_RAW)
		x->xc_raw = 1;
	x->xc_g->xg_open(x, fr, atts);
	if (halted(x))
		xmlcheck_stop(x);
}

/* The text collected for the element that ends, NUL-terminated in place;
 * without surrounding white space when trim. */
static char *collected(struct xmlcheck *x, bool trim)
{
	char *s = x->xc_text;
	size_t n = x->xc_ntext;
	if (!s) {
		x->xc_none[0] = '\0';
		return x->xc_none;
	}
	while (trim && n && is_space((unsigned char)s[n - 1]))
		n--;
	s[n] = '\0';
	while (trim && *s && is_space((unsigned char)*s))
		s++;
	return s;
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct xmlcheck *x = ud;
	struct xmlcheck_frame *fr;
	char *text = NULL;
	(void)name;
	if (halted(x))
		return;
	if (x->xc_raw > 1) {
		x->xc_raw--;
		return;
	}
	if (x->xc_skip) {
		x->xc_skip--;
		return;
	}
	if (x->xc_depth <= 1)
		return;
	fr = &x->xc_stack[--x->xc_depth];
	if (fr->xf_rule->xr_flags & XMLCHECK_RAW) {
		x->xc_raw = 0;
		text = collected(x, false);
	} else if (fr->xf_rule->xr_flags & XMLCHECK_TEXT) {
		text = collected(x, true);
	}
	x->xc_g->xg_close(x, fr, text);
	if (halted(x))
		xmlcheck_stop(x);
}

/* Non-white text in top, which holds none: reported once, at the text
 * itself, past the white space before it. */
static void stray(struct xmlcheck *x, struct xmlcheck_frame *top,
		  const XML_Char *s, int len)
{
	char snippet[XMLCHECK_QUOTE_MAX + 8];
	struct xmlcheck_pos pos;
	int i = 0, n;
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	if (i == len)
		return;
	top->xf_text_warned = true;
	pos = xmlcheck_here(x);
	for (int j = 0; j < i; j++) {
		if (s[j] == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	n = len - i > XMLCHECK_QUOTE_MAX + 4 ? XMLCHECK_QUOTE_MAX + 4
					     : len - i;
	memcpy(snippet, s + i, (size_t)n);
	snippet[n] = '\0';
	/* no trailing white space in the message */
	while (n && is_space((unsigned char)snippet[n - 1]))
		snippet[--n] = '\0';
	x->xc_g->xg_stray(x, pos, top, snippet);
}

static void XMLCALL on_chars(void *ud, const XML_Char *s, int len)
{
	struct xmlcheck *x = ud;
	struct xmlcheck_frame *top;
	if (halted(x) || len <= 0)
		return;
	if (!x->xc_raw && (x->xc_skip || x->xc_depth <= 1))
		return;
	top = &x->xc_stack[x->xc_depth - 1];
	if (x->xc_raw || (top->xf_rule->xr_flags & XMLCHECK_TEXT)) {
		if (mem_reserve(&x->xc_text, &x->xc_captext,
				x->xc_ntext + (size_t)len + 1, 1, 64)) {
			nomem(x->xc_log);
			xmlcheck_stop(x);
			return;
		}
		memcpy(x->xc_text + x->xc_ntext, s, (size_t)len);
		x->xc_ntext += (size_t)len;
		x->xc_text[x->xc_ntext] = '\0';
		return;
	}
	if (!top->xf_text_warned)
		stray(x, top, s, len);
}

void xmlcheck_init(struct xmlcheck *x, const struct xmlcheck_grammar *g,
		   void *ctx, struct xmlcheck_log *lg, int file,
		   const char *path)
{
	memset(x, 0, sizeof(*x));
	x->xc_g = g;
	x->xc_ctx = ctx;
	x->xc_log = lg;
	x->xc_file = file;
	x->xc_path = path;
}

int xmlcheck_parse(struct xmlcheck *x, const void *buf, size_t len)
{
	enum XML_Status st;

	x->xc_depth = 1;
	memset(&x->xc_stack[0], 0, sizeof(x->xc_stack[0]));
	x->xc_stack[0].xf_kind = XMLCHECK_DOC;
	x->xc_skip = x->xc_raw = 0;
	x->xc_text = NULL;
	x->xc_ntext = x->xc_captext = 0;
	x->xc_stopped = x->xc_failed = false;
	if (len > INT_MAX || !(x->xc_xp = XML_ParserCreate(NULL))) {
		nomem(x->xc_log);
		return MAPS_ENOMEM;
	}
	XML_SetUserData(x->xc_xp, x);
	XML_SetElementHandler(x->xc_xp, on_start, on_end);
	XML_SetCharacterDataHandler(x->xc_xp, on_chars);
	st = XML_Parse(x->xc_xp, buf, (int)len, XML_TRUE);
	if (st == XML_STATUS_ERROR && !x->xc_stopped) {
		const char *es = XML_ErrorString(XML_GetErrorCode(x->xc_xp));
		xmlcheck_diag(x, xmlcheck_here(x), XMLCHECK_ERROR,
			      x->xc_g->xg_r_xml, NULL,
			      "not well-formed XML: %s; correct the XML "
			      "syntax here", es ? es : "unknown error");
		x->xc_failed = true;
	}
	XML_ParserFree(x->xc_xp);
	x->xc_xp = NULL;
	free(x->xc_text);
	x->xc_text = NULL;
	x->xc_ntext = x->xc_captext = 0;
	return *x->xc_log->lg_oom ? MAPS_ENOMEM : 0;
}

/* ------------------------------------------------------------------ */
/* Files */

int xmlcheck_read_file(const char *path, size_t limit, char **out,
		       size_t *len)
{
	struct stat sb;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return MAPS_EIO;
	if (fstat(fd, &sb)) {
		err = errno;
	} else if (S_ISDIR(sb.st_mode)) {
		err = EISDIR;
	} else if (sb.st_size > (off_t)limit) {
		err = EFBIG;
	} else if (mem_reserve(&buf, &cap, (size_t)sb.st_size + 1, 1, 0)) {
		err = ENOMEM;
	}
	/* read to the end: the file may have grown since fstat() */
	while (!err) {
		ssize_t r;
		if (n + 1 == cap &&
		    (n > limit || mem_reserve(&buf, &cap, cap + 1, 1, 0))) {
			err = n > limit ? EFBIG : ENOMEM;
			break;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = errno;
		else if (r == 0)
			break;
		else
			n += (size_t)r;
	}
	if (!err && n > limit)
		err = EFBIG;
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return err == ENOMEM ? MAPS_ENOMEM : MAPS_EIO;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int xmlcheck_xml_names(const char *dir, char ***names, size_t *n)
{
	DIR *dh;
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;

	*names = NULL;
	*n = 0;
	if (!(dh = opendir(dir)))
		return MAPS_EIO;
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		struct stat sb;
		char *name;
		if (de->d_name[0] == '.' || l <= 4 ||
		    strcmp(de->d_name + l - 4, ".xml"))
			continue;
		if (fstatat(dirfd(dh), de->d_name, &sb, 0) ||
		    !S_ISREG(sb.st_mode))
			continue;
		if (mem_grow(names, &cap, *n, sizeof(**names)) ||
		    !(name = strdup(de->d_name))) {
			rc = MAPS_ENOMEM;
			break;
		}
		(*names)[(*n)++] = name;
	}
	closedir(dh);
	if (rc) {
		xmlcheck_names_free(*names, *n);
		*names = NULL;
		*n = 0;
		return rc;
	}
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), by_name);
	return 0;
}

void xmlcheck_names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

const char *xmlcheck_home(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;
	if (h && *h)
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

int xmlcheck_dirs_add(struct xmlcheck_dirs *d, const char *base,
		      const char *sub, const char *origin)
{
	char *path, *real;
	if (!base || !*base)
		return 0;
	if (sub) {
		size_t bl = strlen(base);
		while (bl > 1 && base[bl - 1] == '/')
			bl--;
		if (asprintf(&path, "%.*s/%s", (int)bl, base, sub) < 0)
			return MAPS_ENOMEM;
	} else if (!(path = strdup(base))) {
		return MAPS_ENOMEM;
	}
	real = realpath(path, NULL);
	for (size_t i = 0; i < d->ds_n; i++) {
		if ((real && d->ds_real[i] && !strcmp(real, d->ds_real[i])) ||
		    !strcmp(path, d->ds_v[i].dr_path)) {
			free(path);
			free(real);
			return 0;
		}
	}
	if (mem_grow(&d->ds_v, &d->ds_cap, d->ds_n, sizeof(*d->ds_v)) ||
	    mem_grow(&d->ds_real, &d->ds_capreal, d->ds_n,
		     sizeof(*d->ds_real))) {
		free(path);
		free(real);
		return MAPS_ENOMEM;
	}
	d->ds_v[d->ds_n].dr_path = path;
	d->ds_v[d->ds_n].dr_origin = origin;
	d->ds_real[d->ds_n] = real;
	d->ds_n++;
	return 0;
}

int xmlcheck_config_dirs(struct xmlcheck_dirs *d, const char *sub,
			 const char *allinea_sub)
{
	const char *home = xmlcheck_home(), *v;
	char dot[256];
	int rc;

	rc = xmlcheck_dirs_add(d, getenv("MAPSAMPLE_CONFIG_DIR"), sub,
			       "$MAPSAMPLE_CONFIG_DIR");
	v = getenv("ALLINEA_CONFIG_DIR");
	if (!rc && v && *v) {
		rc = xmlcheck_dirs_add(d, v, allinea_sub,
				       "$ALLINEA_CONFIG_DIR");
	} else if (!rc && home) {
		snprintf(dot, sizeof(dot), ".allinea/%s", allinea_sub);
		rc = xmlcheck_dirs_add(d, home, dot, "~/.allinea");
	}
	if (!rc && home) {
		snprintf(dot, sizeof(dot), ".mapsample/%s", sub);
		rc = xmlcheck_dirs_add(d, home, dot, "~/.mapsample");
	}
	return rc;
}

void xmlcheck_dirs_free(struct xmlcheck_dirs *d, bool keep_paths)
{
	for (size_t i = 0; i < d->ds_n; i++) {
		if (!keep_paths)
			free(d->ds_v[i].dr_path);
		free(d->ds_real[i]);
	}
	free(d->ds_v);
	free(d->ds_real);
	memset(d, 0, sizeof(*d));
}
