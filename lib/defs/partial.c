/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial.c: partial report definition files (reference section 3.4),
 * read with expat and checked against every rule of sections 3.4-3.6;
 * where they are found (3.2, 3.3); the plain text of their <text>.
 * Values are computed in partial_eval.c, printed in partial_text.c.
 *
 * DESIGN NOTES
 *   One file gives one struct partial_def.  Parsing collects what the
 *   elements say and the problems found on the way, each at the start
 *   tag of its element; then check_def() applies the rules that need the
 *   whole file (entry references, duplicate and substring ids) and those
 *   that span the files used before (report names, report metric ids).
 *   A file with any error is dropped whole; warnings (unknown elements
 *   and attributes, stray text) do not stop it.  Diagnostics of one file
 *   are sorted by position and appended to the set's list.
 *
 *   <text> is kept as written: the bytes between its start and end tags
 *   (expat's byte index), markup and entity references included, since
 *   the HTML writer sanitises that markup itself.  If those bytes are not
 *   UTF-8 (a document in another encoding), the decoded character data
 *   is kept instead, with &, < and > escaped.  Elements inside <text> are
 *   not checked here.
 *
 *   Ids are XML NCNames (Namespaces in XML 1.0, with the Name characters
 *   of XML 1.0 fifth edition) that, as section 3.6 adds, do not start
 *   with '_' either.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "defs/partial.h"
#include "defs/partial.h"

/* ------------------------------------------------------------------ */
/* Messages */

#define QMAX 64        /* bytes of a value quoted in a message */
#define QBUF (QMAX * 4 + 16)
#define ELEM_MAX 512

static const char *const reserved[] = {
	"allinea.", "com.allinea.", "mapsample.", "com.mapsample.", NULL,
};

/* Writes s in double quotes into dst (QBUF bytes): '"', '\\' and control
 * characters escaped, cut after QMAX bytes with "...".  Returns dst. */
static char *quote(char *dst, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0, used = 0;
	dst[o++] = '"';
	for (; *p && o + 12 < QBUF; p++, used++) {
		if (used >= QMAX && (*p < 0x80 || *p >= 0xc0)) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (*p == '"' || *p == '\\') {
			dst[o++] = '\\';
			dst[o++] = (char)*p;
		} else if (*p < 0x20 || *p == 0x7f) {
			o += (size_t)snprintf(dst + o, QBUF - o, "\\x%02x", *p);
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			o += (size_t)snprintf(dst + o, QBUF - o, "\\xc2\\x%02x",
					      p[1]);
			p++;
		} else {
			dst[o++] = (char)*p;
		}
	}
	dst[o++] = '"';
	dst[o] = '\0';
	return dst;
}

/* Appends what fmt gives to dst (size n, *len used), cut at n. */
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

/* "<name a1="v1" ...>" into dst (ELEM_MAX bytes) from nattr (name,
 * value) pairs; NULL values are left out.  Returns dst. */
static char *elem(char *dst, const char *name, int nattr, ...)
{
	char q[QBUF];
	size_t len = 0;
	va_list ap;
	quote(q, name);
	q[strlen(q) - 1] = '\0';
	append(dst, ELEM_MAX, &len, "<%s", q + 1);
	va_start(ap, nattr);
	for (int i = 0; i < nattr; i++) {
		const char *a = va_arg(ap, const char *);
		const char *v = va_arg(ap, const char *);
		if (v)
			append(dst, ELEM_MAX, &len, " %s=%s", a, quote(q, v));
	}
	va_end(ap);
	append(dst, ELEM_MAX, &len, ">");
	return dst;
}

/* Diagnostics of the file being loaded, before they are sorted. */
struct fdiags {
	struct partial_diag *v;
	size_t n, cap;
	size_t *seq;             /* order found, for a stable sort */
	unsigned shown;
	int limited;
};

struct load {
	struct partial_set *ps;
	struct partial_file *pf; /* ps->ps_files[fi] while loading */
	size_t fi;
	struct fdiags fd;
};

static struct partial_file *lfile(struct load *ld)
{
	return &ld->ps->ps_files[ld->fi];
}

static void add_diag(struct load *ld, struct ppos pos,
		     enum partial_severity sev, enum partial_rule rule,
		     char *text)
{
	struct fdiags *fd = &ld->fd;
	if (!text) {
		ld->ps->ps_oom = 1;
		return;
	}
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	if (fd->n == fd->cap) {
		size_t cap = fd->cap ? 2 * fd->cap : 16;
		struct partial_diag *v = realloc(fd->v, cap * sizeof(*v));
		size_t *s = v ? realloc(fd->seq, cap * sizeof(*s)) : NULL;
		if (v)
			fd->v = v;
		if (!v || !s) {
			free(text);
			ld->ps->ps_oom = 1;
			return;
		}
		fd->seq = s;
		fd->cap = cap;
	}
	struct partial_diag *d = &fd->v[fd->n];
	d->pd_severity = sev;
	d->pd_rule = rule;
	d->pd_file = strdup(lfile(ld)->pf_path);
	d->pd_line = pos.line;
	d->pd_col = pos.line ? pos.col : 0;
	d->pd_text = text;
	if (!d->pd_file) {
		free(text);
		ld->ps->ps_oom = 1;
		return;
	}
	fd->seq[fd->n] = fd->n;
	fd->n++;
}

/* Adds "FILE:LINE:COL: [warning: ]ELEM: message". */
__attribute__((format(printf, 6, 7)))
static void diag(struct load *ld, struct ppos pos, enum partial_severity sev,
		 enum partial_rule rule, const char *el, const char *fmt, ...)
{
	struct partial_file *pf = lfile(ld);
	char *msg = NULL, *text = NULL, where[48] = "";
	va_list ap;
	if (sev == PARTIAL_ERROR) {
		pf->pf_nerrors++;
		ld->ps->ps_nerrors++;
	} else {
		pf->pf_nwarnings++;
		ld->ps->ps_nwarnings++;
	}
	if (ld->fd.limited)
		return;
	if (ld->fd.shown++ == PARTIAL_MAX_DIAGS) {
		ld->fd.limited = 1;
		if (asprintf(&text, "%s: more than %d problems; the others are "
			     "not shown; fix these first", pf->pf_path,
			     PARTIAL_MAX_DIAGS) < 0)
			text = NULL;
		add_diag(ld, (struct ppos){0, 0}, sev, PARTIAL_R_LIMIT, text);
		return;
	}
	va_start(ap, fmt);
	int rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		ld->ps->ps_oom = 1;
		return;
	}
	if (pos.line)
		snprintf(where, sizeof(where), ":%u:%u", pos.line, pos.col);
	if (asprintf(&text, "%s%s: %s%s%s%s", pf->pf_path, where,
		     sev == PARTIAL_WARNING ? "warning: " : "", el ? el : "",
		     el ? ": " : "", msg) < 0)
		text = NULL;
	free(msg);
	add_diag(ld, pos, sev, rule, text);
}

static struct fdiags *sort_base;

static int diag_cmp(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	const struct partial_diag *p = &sort_base->v[*x], *q = &sort_base->v[*y];
	unsigned pl = p->pd_rule == PARTIAL_R_LIMIT ? UINT_MAX : p->pd_line;
	unsigned ql = q->pd_rule == PARTIAL_R_LIMIT ? UINT_MAX : q->pd_line;
	if (pl != ql)
		return pl < ql ? -1 : 1;
	if (p->pd_col != q->pd_col)
		return p->pd_col < q->pd_col ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/* Moves the file's diagnostics, sorted by position, to the set. */
static void flush_diags(struct load *ld)
{
	struct partial_set *ps = ld->ps;
	struct fdiags *fd = &ld->fd;
	if (fd->n > 1) {
		sort_base = fd;
		qsort(fd->seq, fd->n, sizeof(*fd->seq), diag_cmp);
		sort_base = NULL;
	}
	if (fd->n && ps->ps_ndiags + fd->n > ps->ps_capdiags) {
		size_t cap = ps->ps_capdiags ? ps->ps_capdiags : 16;
		while (cap < ps->ps_ndiags + fd->n)
			cap *= 2;
		struct partial_diag *v = realloc(ps->ps_diags, cap * sizeof(*v));
		if (!v) {
			ps->ps_oom = 1;
			for (size_t i = 0; i < fd->n; i++) {
				free(fd->v[i].pd_file);
				free(fd->v[i].pd_text);
			}
			goto out;
		}
		ps->ps_diags = v;
		ps->ps_capdiags = cap;
	}
	for (size_t i = 0; i < fd->n; i++)
		ps->ps_diags[ps->ps_ndiags++] = fd->v[fd->seq[i]];
out:
	free(fd->v);
	free(fd->seq);
	memset(fd, 0, sizeof(*fd));
}

/* ------------------------------------------------------------------ */
/* Names, ids and values */

const char *partial_stat_name(enum partial_stat s)
{
	switch (s) {
	case PARTIAL_MIN: return "min";
	case PARTIAL_MAX: return "max";
	case PARTIAL_MEAN: return "mean";
	case PARTIAL_SUM: return "sum";
	}
	return "?";
}

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
static int name_start(long c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	       (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) ||
	       (c >= 0xf8 && c <= 0x2ff) || (c >= 0x370 && c <= 0x37d) ||
	       (c >= 0x37f && c <= 0x1fff) || (c >= 0x200c && c <= 0x200d) ||
	       (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) ||
	       (c >= 0x3001 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) ||
	       (c >= 0xfdf0 && c <= 0xfffd) || (c >= 0x10000 && c <= 0xeffff);
}

static int name_char(long c)
{
	return name_start(c) || c == '-' || c == '.' ||
	       (c >= '0' && c <= '9') || c == 0xb7 ||
	       (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040);
}

/* Why id is no NCName in the sense of section 3.6, written into why
 * (QBUF + 32 bytes); 0 when it is one. */
static int ncname_problem(const char *id, char *why)
{
	const unsigned char *p = (const unsigned char *)id;
	char q[QBUF];
	int first = 1;
	while (*p) {
		const unsigned char *at = p;
		long c = utf8_next(&p);
		char ch[8] = "";
		if (c < 0)
			return snprintf(why, QBUF + 32, "it is not UTF-8"), 1;
		memcpy(ch, at, (size_t)(p - at));
		if (first && (c == '_' || !name_start(c))) {
			snprintf(why, QBUF + 32, "it starts with %s",
				 quote(q, ch));
			return 1;
		}
		if (!first && !name_char(c)) {
			snprintf(why, QBUF + 32, "it contains %s",
				 quote(q, ch));
			return 1;
		}
		first = 0;
	}
	return 0;
}

/* The reserved prefix id starts with, or NULL. */
static const char *reserved_prefix(const char *id)
{
	for (int i = 0; reserved[i]; i++)
		if (!strncmp(id, reserved[i], strlen(reserved[i])))
			return reserved[i];
	return NULL;
}

static const char *const stat_names[] = {"min", "max", "mean", "sum"};

static int parse_stat(const char *s, int allow_sum)
{
	for (int i = 0; i < (allow_sum ? 4 : 3); i++)
		if (!strcmp(s, stat_names[i]))
			return i;
	return -1;
}

/* ------------------------------------------------------------------ */
/* The elements */

enum kind { K_DOC, K_ROOT, K_RMS, K_RM, K_SD, K_SSS, K_SS, K_TEXT, K_ENTRY };

static const char *const kind_name[] = {
	"", "partialReport", "reportMetrics", "reportMetric", "sourceDetails",
	"subsections", "subsection", "text", "entry",
};

static const char *const root_attrs[] = {"name", "xmlns", NULL};
static const char *const rm_attrs[] = {"id", "displayName", "units", "colour",
				       "source", NULL};
static const char *const sd_attrs[] = {"metricRef", "sampleValue",
				       "aggregation", NULL};
static const char *const ss_attrs[] = {"id", "heading", "colour", NULL};
static const char *const entry_attrs[] = {"reportMetric", "group", NULL};
static const char *const no_attrs[] = {NULL};

static const char *const *const kind_attrs[] = {
	no_attrs, root_attrs, no_attrs, rm_attrs, sd_attrs, no_attrs,
	ss_attrs, no_attrs, entry_attrs,
};

/* The child of parent called name, or K_DOC if none. */
static enum kind child_kind(enum kind parent, const char *name)
{
	static const struct {
		enum kind parent, kind;
	} tree[] = {
		{K_DOC, K_ROOT}, {K_ROOT, K_RMS}, {K_ROOT, K_SSS},
		{K_RMS, K_RM},   {K_RM, K_SD},    {K_SSS, K_SS},
		{K_SS, K_TEXT},  {K_SS, K_ENTRY},
	};
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		if (tree[i].parent == parent &&
		    !strcmp(kind_name[tree[i].kind], name))
			return tree[i].kind;
	return K_DOC;
}

static void allowed_children(char *dst, size_t n, enum kind p)
{
	static const char *const lists[] = {
		[K_ROOT] = "<reportMetrics>, <subsections>",
		[K_RMS] = "<reportMetric>",
		[K_RM] = "<sourceDetails>",
		[K_SSS] = "<subsection>",
		[K_SS] = "<text>, <entry>",
	};
	snprintf(dst, n, "%s",
		 p < sizeof(lists) / sizeof(lists[0]) && lists[p] ? lists[p]
								  : "none");
}

#define MAX_DEPTH 6

struct frame {
	enum kind kind;
	struct ppos pos;
	int text_warned;
};

struct parse {
	struct load *ld;
	struct partial_def *d;
	XML_Parser xp;
	const char *buf;
	size_t len;
	struct frame st[MAX_DEPTH];
	int depth;          /* st[0] is K_DOC */
	unsigned skip;      /* depth inside an ignored element */
	unsigned in_text;   /* depth inside <text> content, from 1 */
	XML_Index text_from;
	char *chars;        /* <text>'s decoded characters (fallback) */
	size_t nchars, capchars;
	int aborted, bad_root;
};

static struct ppos here(struct parse *p)
{
	XML_Size l = XML_GetCurrentLineNumber(p->xp);
	XML_Size c = XML_GetCurrentColumnNumber(p->xp);
	struct ppos pos;
	pos.line = l >= UINT_MAX ? UINT_MAX : (unsigned)l;
	pos.col = c >= UINT_MAX - 1 ? UINT_MAX : (unsigned)c + 1;
	if (!pos.line)
		pos.line = 1;
	return pos;
}

static void stop(struct parse *p)
{
	if (!p->aborted) {
		p->aborted = 1;
		XML_StopParser(p->xp, XML_FALSE);
	}
}

static const char *attr(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (!strcmp(atts[i], name))
			return atts[i + 1];
	return NULL;
}

static char *sdup(struct parse *p, const char *s)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = strdup(s)))
		p->ld->ps->ps_oom = 1;
	return d;
}

/* Appends one zeroed element of size sz to *v (n elements). */
static void *push(struct parse *p, void *vp, size_t *n, size_t sz)
{
	void **v = vp;
	if (*n == 0 || (*n >= 4 && !(*n & (*n - 1)))) {
		size_t cap = *n ? *n * 2 : 4;
		void *nv = realloc(*v, cap * sz);
		if (!nv) {
			p->ld->ps->ps_oom = 1;
			return NULL;
		}
		*v = nv;
	}
	char *e = (char *)*v + *n * sz;
	memset(e, 0, sz);
	(*n)++;
	return e;
}

static void check_colour(struct parse *p, struct ppos pos, const char *el,
			 const char *v, struct partial_colour *c)
{
	char q[QBUF];
	if (!v)
		return;
	c->pc_text = sdup(p, v);
	if (metricdef_colour_parse(v, METRICDEF_COLOUR_FUNCTIONS_OK,
				   &c->pc_parsed)) {
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_COLOUR, el,
		     "colour %s is no colour of section 3.5; use #RGB, "
		     "#RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, rgb(R, G, B), "
		     "hsv(H, S, V), hsl(H, S, L) or an SVG colour name",
		     quote(q, v));
		return;
	}
	metricdef_colour_css(&c->pc_parsed, c->pc_css, sizeof(c->pc_css));
}

/* Checks a required attribute: present and, unless may_be_empty, not
 * empty.  Returns it, or NULL after a diagnostic. */
static const char *required(struct parse *p, struct ppos pos, const char *el,
			    const XML_Char **atts, const char *name,
			    int may_be_empty, const char *fix)
{
	const char *v = attr(atts, name);
	if (!v) {
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_MISSING, el,
		     "no %s attribute; add %s", name, fix);
		return NULL;
	}
	if (!*v && !may_be_empty) {
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_EMPTY, el,
		     "empty %s; add %s", name, fix);
		return NULL;
	}
	return v;
}

/* Section 3.6 for an id (or name, when ncname is 0). */
static void check_name(struct parse *p, struct ppos pos, const char *el,
		       const char *what, const char *v, int ncname,
		       const char *example)
{
	char why[QBUF + 32], q[QBUF];
	const char *pre = reserved_prefix(v);
	if (pre)
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_RESERVED, el,
		     "%s %s starts with the reserved prefix \"%s\" (section "
		     "3.6); start it with your reversed Internet domain name, "
		     "e.g. %s=\"com.example.%s\"",
		     what, quote(q, v), pre, what, v + strlen(pre));
	if (ncname && ncname_problem(v, why))
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_NCNAME, el,
		     "%s %s is not an XML NCName (section 3.6): %s; use "
		     "letters, digits, '.', '-' and '_', starting with a "
		     "letter, e.g. %s=\"%s\"",
		     what, quote(q, v), why, what, example);
}

static void open_root(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	const char *name = attr(atts, "name"), *ns = attr(atts, "xmlns");
	char el[ELEM_MAX], q[QBUF];
	elem(el, "partialReport", 1, "name", name);
	d->pos = pos;
	name = required(p, pos, el, atts, "name", 0,
			"name=\"com.example.myReport\", a name of your own "
			"that identifies the report");
	if (name) {
		d->name = sdup(p, name);
		check_name(p, pos, el, "name", name, 0, NULL);
	}
	if (!ns)
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_XMLNS, el,
		     "no xmlns attribute (section 3.4.1 requires it); add "
		     "xmlns=\"" PARTIAL_XMLNS "\"");
	else if (strcmp(ns, PARTIAL_XMLNS))
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_XMLNS, el,
		     "xmlns %s is not the partial report namespace (section "
		     "3.4.1); use xmlns=\"" PARTIAL_XMLNS "\"",
		     quote(q, ns));
}

static void open_rm(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_rm *rm = push(p, &d->rm, &d->nrm, sizeof(*rm));
	const char *v;
	char el[ELEM_MAX], q[QBUF];
	if (!rm)
		return;
	rm->pos = pos;
	rm->sv = rm->ag = -1;
	elem(el, "reportMetric", 1, "id", attr(atts, "id"));
	if ((v = required(p, pos, el, atts, "id", 0,
			  "id=\"com.example.metrics.myMetric\", a unique name "
			  "for this report metric"))) {
		rm->id = sdup(p, v);
		check_name(p, pos, el, "id", v, 1, "com.example.metric_1");
	}
	if ((v = required(p, pos, el, atts, "displayName", 0,
			  "displayName=\"...\", the name the report shows")))
		rm->name = sdup(p, v);
	if ((v = required(p, pos, el, atts, "units", 1,
			  "units=\"...\" (e.g. units=\"/s\"; units=\"\" for a "
			  "plain number)")))
		rm->units = sdup(p, v);
	check_colour(p, pos, elem(el, "reportMetric", 2, "id", attr(atts, "id"),
				  "colour", attr(atts, "colour")),
		     attr(atts, "colour"), &rm->colour);
	elem(el, "reportMetric", 2, "id", attr(atts, "id"), "source",
	     attr(atts, "source"));
	v = attr(atts, "source");
	if (!v)
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_SOURCE, el,
		     "no source attribute (section 3.4.3 requires "
		     "source=\"metric\"); add source=\"metric\"");
	else if (strcmp(v, "metric"))
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_SOURCE, el,
		     "source %s is not \"metric\", the only source of section "
		     "3.4.3; write source=\"metric\"", quote(q, v));
}

static void open_sd(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_rm *rm = d->nrm ? &d->rm[d->nrm - 1] : NULL;
	const char *v;
	char el[ELEM_MAX], q[QBUF];
	if (!rm)
		return;
	if (rm->nsd++) {
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_REPEATED,
		     elem(el, "sourceDetails", 1, "metricRef",
			  attr(atts, "metricRef")),
		     "a second <sourceDetails> in <reportMetric id=%s> (the "
		     "first is at line %u); keep one",
		     quote(q, rm->id ? rm->id : ""), rm->sd_pos.line);
		return;
	}
	rm->sd_pos = pos;
	elem(el, "sourceDetails", 1, "metricRef", attr(atts, "metricRef"));
	if ((v = required(p, pos, el, atts, "metricRef", 0,
			  "metricRef=\"...\", the id of the metric to show "
			  "(e.g. metricRef=\"com.mapsample.metrics.cpu."
			  "user\")")))
		rm->ref = sdup(p, v);
	elem(el, "sourceDetails", 2, "metricRef", attr(atts, "metricRef"),
	     "sampleValue", attr(atts, "sampleValue"));
	if ((v = required(p, pos, el, atts, "sampleValue", 0,
			  "sampleValue=\"min\", \"max\", \"mean\" or "
			  "\"sum\""))) {
		rm->sv = parse_stat(v, 1);
		if (rm->sv < 0)
			diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_SAMPLE_VALUE,
			     el, "sampleValue %s is not min, max, mean or sum "
			     "(section 3.4.4); use one of those", quote(q, v));
	}
	elem(el, "sourceDetails", 2, "metricRef", attr(atts, "metricRef"),
	     "aggregation", attr(atts, "aggregation"));
	if ((v = required(p, pos, el, atts, "aggregation", 0,
			  "aggregation=\"min\", \"max\" or \"mean\""))) {
		rm->ag = parse_stat(v, 0);
		if (rm->ag < 0)
			diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_AGGREGATION,
			     el, "aggregation %s is not min, max or mean "
			     "(section 3.4.4); use one of those", quote(q, v));
	}
}

static void open_ss(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_ss *ss = push(p, &d->ss, &d->nss, sizeof(*ss));
	const char *v;
	char el[ELEM_MAX];
	if (!ss)
		return;
	ss->pos = pos;
	elem(el, "subsection", 1, "id", attr(atts, "id"));
	if ((v = required(p, pos, el, atts, "id", 0,
			  "id=\"my_metrics\", a unique name for this "
			  "subsection"))) {
		ss->id = sdup(p, v);
		check_name(p, pos, el, "id", v, 1, "my_metrics");
	}
	if ((v = required(p, pos, el, atts, "heading", 0,
			  "heading=\"...\", the title the report shows")))
		ss->heading = sdup(p, v);
	check_colour(p, pos, elem(el, "subsection", 2, "id", attr(atts, "id"),
				  "colour", attr(atts, "colour")),
		     attr(atts, "colour"), &ss->colour);
}

static void open_entry(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_ss *ss = d->nss ? &d->ss[d->nss - 1] : NULL;
	struct pdef_entry *en;
	const char *v;
	char el[ELEM_MAX];
	if (!ss || !(en = push(p, &ss->en, &ss->nen, sizeof(*en))))
		return;
	en->pos = pos;
	elem(el, "entry", 1, "reportMetric", attr(atts, "reportMetric"));
	if ((v = required(p, pos, el, atts, "reportMetric", 0,
			  "reportMetric=\"...\", the id of a <reportMetric> "
			  "of this file")))
		en->rm = sdup(p, v);
	v = attr(atts, "group");
	if (v && *v)
		en->group = sdup(p, v);
}

/* Second <reportMetrics>, <subsections> or <text>: returns 1 after the
 * diagnostic. */
static int repeated(struct parse *p, enum kind k, struct ppos pos)
{
	struct partial_def *d = p->d;
	struct ppos *first;
	char el[ELEM_MAX], pel[ELEM_MAX];
	if (k == K_RMS)
		first = &d->rms_pos;
	else if (k == K_SSS)
		first = &d->sss_pos;
	else if (k == K_TEXT && d->nss)
		first = &d->ss[d->nss - 1].text_pos;
	else
		return 0;
	if (!first->line) {
		*first = pos;
		return 0;
	}
	if (k == K_TEXT)
		elem(pel, "subsection", 1, "id", d->ss[d->nss - 1].id);
	else
		elem(pel, "partialReport", 1, "name", d->name);
	diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_REPEATED,
	     elem(el, kind_name[k], 0),
	     "a second <%s> in %s (the first is at line %u); keep one and "
	     "move what this one holds into it", kind_name[k], pel,
	     first->line);
	return 1;
}

static void grow_chars(struct parse *p, const char *s, size_t n)
{
	if (p->nchars + n + 1 > p->capchars) {
		size_t cap = p->capchars ? p->capchars : 256;
		while (cap < p->nchars + n + 1)
			cap *= 2;
		char *t = realloc(p->chars, cap);
		if (!t) {
			p->ld->ps->ps_oom = 1;
			stop(p);
			return;
		}
		p->chars = t;
		p->capchars = cap;
	}
	memcpy(p->chars + p->nchars, s, n);
	p->nchars += n;
	p->chars[p->nchars] = '\0';
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
			     const XML_Char **atts)
{
	struct parse *p = ud;
	char el[ELEM_MAX], pel[ELEM_MAX], list[ELEM_MAX], q[QBUF];
	if (p->ld->ps->ps_oom || p->aborted) {
		stop(p);
		return;
	}
	if (p->in_text) {
		p->in_text++;
		return;
	}
	if (p->skip) {
		p->skip++;
		return;
	}
	struct ppos pos = here(p);
	struct frame *top = &p->st[p->depth - 1];
	enum kind k = child_kind(top->kind, name);
	if (top->kind == K_DOC && k != K_ROOT) {
		diag(p->ld, pos, PARTIAL_ERROR, PARTIAL_R_ROOT,
		     elem(el, name, 0),
		     "the root element is not <partialReport>, so this is no "
		     "partial report definition (section 3.4); start the file "
		     "with <partialReport name=\"com.example.myReport\" "
		     "xmlns=\"" PARTIAL_XMLNS "\">");
		p->bad_root = 1;
		stop(p);
		return;
	}
	if (k == K_DOC || p->depth >= MAX_DEPTH) {
		elem(pel, kind_name[top->kind], 0);
		allowed_children(list, sizeof(list), top->kind);
		diag(p->ld, pos, PARTIAL_WARNING, PARTIAL_R_UNKNOWN_ELEMENT,
		     elem(el, name, 0),
		     "unknown element in %s, ignored; allowed there: %s", pel,
		     list);
		p->skip = 1;
		return;
	}
	if (repeated(p, k, pos)) {
		p->skip = 1;
		return;
	}
	for (size_t i = 0; atts[i]; i += 2) {
		int ok = k == K_ROOT && !strncmp(atts[i], "xmlns:", 6);
		for (size_t j = 0; kind_attrs[k][j] && !ok; j++)
			ok = !strcmp(atts[i], kind_attrs[k][j]);
		if (ok)
			continue;
		list[0] = '\0';
		size_t len = 0;
		for (size_t j = 0; kind_attrs[k][j]; j++)
			append(list, sizeof(list), &len, "%s%s", j ? ", " : "",
			       kind_attrs[k][j]);
		diag(p->ld, pos, PARTIAL_WARNING, PARTIAL_R_UNKNOWN_ATTRIBUTE,
		     elem(el, name, 1, atts[i], atts[i + 1]),
		     "unknown attribute %s of <%s>, ignored; allowed: %s",
		     quote(q, atts[i]), name, len ? list : "none");
	}
	p->st[p->depth].kind = k;
	p->st[p->depth].pos = pos;
	p->st[p->depth].text_warned = 0;
	p->depth++;
	switch (k) {
	case K_ROOT: open_root(p, pos, atts); break;
	case K_RM: open_rm(p, pos, atts); break;
	case K_SD: open_sd(p, pos, atts); break;
	case K_SS: open_ss(p, pos, atts); break;
	case K_ENTRY: open_entry(p, pos, atts); break;
	case K_TEXT:
		p->in_text = 1;
		p->text_from = XML_GetCurrentByteIndex(p->xp) +
			       XML_GetCurrentByteCount(p->xp);
		p->nchars = 0;
		if (p->d->nss)
			p->d->ss[p->d->nss - 1].text_pos = pos;
		break;
	default: break;
	}
	if (p->ld->ps->ps_oom)
		stop(p);
}

/* Whether s (n bytes) is UTF-8 without NUL. */
static int good_utf8(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s, *end = u + n;
	while (u < end) {
		if (!*u)
			return 0;
		if (*u < 0x80) {
			u++;
			continue;
		}
		int len = (*u & 0xe0) == 0xc0 ? 2 : (*u & 0xf0) == 0xe0 ? 3
			: (*u & 0xf8) == 0xf0 ? 4 : 0;
		if (!len || end - u < len)
			return 0;
		for (int i = 1; i < len; i++)
			if ((u[i] & 0xc0) != 0x80)
				return 0;
		u += len;
	}
	return 1;
}

/* <text> has ended: keep its content (see DESIGN NOTES). */
static void close_text(struct parse *p)
{
	struct pdef_ss *ss = p->d->nss ? &p->d->ss[p->d->nss - 1] : NULL;
	XML_Index to = XML_GetCurrentByteIndex(p->xp);
	char *t;
	if (!ss)
		return;
	if (to >= p->text_from && p->text_from >= 0 &&
	    (size_t)to <= p->len &&
	    good_utf8(p->buf + p->text_from, (size_t)(to - p->text_from))) {
		t = strndup(p->buf + p->text_from, (size_t)(to - p->text_from));
	} else {
		size_t n = 0;
		for (size_t i = 0; i < p->nchars; i++)
			n += strchr("&<>", p->chars[i]) && p->chars[i] ? 5 : 1;
		t = malloc(n + 1);
		if (t) {
			char *o = t;
			for (size_t i = 0; i < p->nchars; i++) {
				char c = p->chars[i];
				const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;"
					      : c == '>' ? "&gt;" : NULL;
				if (e)
					o += sprintf(o, "%s", e);
				else
					*o++ = c;
			}
			*o = '\0';
		}
	}
	if (!t) {
		p->ld->ps->ps_oom = 1;
		return;
	}
	free(ss->text);
	ss->text = t;
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct parse *p = ud;
	(void)name;
	if (p->ld->ps->ps_oom || p->aborted)
		return;
	if (p->in_text > 1) {
		p->in_text--;
		return;
	}
	if (p->skip) {
		p->skip--;
		return;
	}
	if (p->depth <= 1)
		return;
	struct frame *fr = &p->st[--p->depth];
	char el[ELEM_MAX], q[QBUF];
	struct partial_def *d = p->d;
	switch (fr->kind) {
	case K_TEXT:
		p->in_text = 0;
		close_text(p);
		break;
	case K_RM: {
		struct pdef_rm *rm = d->nrm ? &d->rm[d->nrm - 1] : NULL;
		if (rm && !rm->nsd)
			diag(p->ld, fr->pos, PARTIAL_ERROR, PARTIAL_R_MISSING,
			     elem(el, "reportMetric", 1, "id", rm->id),
			     "no <sourceDetails>; add <sourceDetails "
			     "metricRef=\"...\" sampleValue=\"mean\" "
			     "aggregation=\"mean\"/> naming the metric to show");
		break;
	}
	case K_RMS:
		if (!d->nrm)
			diag(p->ld, fr->pos, PARTIAL_ERROR, PARTIAL_R_MISSING,
			     elem(el, "reportMetrics", 0),
			     "holds no <reportMetric> (section 3.4.2 asks for "
			     "one or more); add one");
		break;
	case K_SSS:
		if (!d->nss)
			diag(p->ld, fr->pos, PARTIAL_ERROR, PARTIAL_R_MISSING,
			     elem(el, "subsections", 0),
			     "holds no <subsection> (section 3.4.5 asks for one "
			     "or more); add one");
		break;
	case K_ROOT:
		elem(el, "partialReport", 1, "name", d->name);
		if (!d->rms_pos.line)
			diag(p->ld, fr->pos, PARTIAL_ERROR, PARTIAL_R_MISSING,
			     el, "no <reportMetrics>; define the report "
			     "metrics in <reportMetrics> first (section 3.4)");
		if (!d->sss_pos.line)
			diag(p->ld, fr->pos, PARTIAL_ERROR, PARTIAL_R_MISSING,
			     el, "no <subsections>; lay the report out in "
			     "<subsections> after <reportMetrics> (section "
			     "3.4)");
		(void)q;
		break;
	default:
		break;
	}
}

static void XMLCALL on_chars(void *ud, const XML_Char *s, int len)
{
	struct parse *p = ud;
	char el[ELEM_MAX], q[QBUF], snippet[QMAX + 8];
	if (p->ld->ps->ps_oom || p->aborted || len <= 0)
		return;
	if (p->in_text) {
		grow_chars(p, s, (size_t)len);
		return;
	}
	if (p->skip || p->depth <= 1)
		return;
	struct frame *top = &p->st[p->depth - 1];
	int i = 0;
	while (i < len && strchr(" \t\r\n", s[i]))
		i++;
	if (i == len || top->text_warned)
		return;
	top->text_warned = 1;
	struct ppos tp = here(p);
	for (int j = 0; j < i; j++) {
		if (s[j] == '\n') {
			tp.line++;
			tp.col = 1;
		} else {
			tp.col++;
		}
	}
	int n = len - i > QMAX + 4 ? QMAX + 4 : len - i;
	memcpy(snippet, s + i, (size_t)n);
	snippet[n] = '\0';
	while (n && strchr(" \t\r\n", snippet[n - 1]))
		snippet[--n] = '\0';
	elem(el, kind_name[top->kind], 0);
	diag(p->ld, tp, PARTIAL_WARNING, PARTIAL_R_TEXT, el,
	     "text %s outside <text>, ignored; %s holds %s", quote(q, snippet),
	     el,
	     top->kind == K_SD || top->kind == K_ENTRY ? "attributes only"
						       : "elements only");
}

/* ------------------------------------------------------------------ */
/* Whole-file checks */

#define MAX_RM_CHECKED 4096

/* id a (at apos in afile) against id b at bpos of this file: the
 * duplicate rule (dup) or the substring rule of section 3.4.3.  Returns 1
 * after a diagnostic. */
static int ids_clash(struct load *ld, const char *afile, struct ppos apos,
		     const char *a, struct ppos bpos, const char *b,
		     const char *el, int dup)
{
	char qa[QBUF], qb[QBUF];
	if (dup) {
		if (strcmp(a, b))
			return 0;
		diag(ld, bpos, PARTIAL_ERROR, PARTIAL_R_DUPLICATE, el,
		     "id %s is already used by the <reportMetric> at %s:%u:%u; "
		     "give each report metric its own id", quote(qb, b), afile,
		     apos.line, apos.col);
		return 1;
	}
	if (!strcmp(a, b))
		return 0;
	size_t la = strlen(a), lb = strlen(b);
	const char *shorter = la < lb ? a : b, *longer = la < lb ? b : a;
	if (!strchr(shorter, '.') || !strstr(longer, shorter))
		return 0;
	diag(ld, bpos, PARTIAL_ERROR, PARTIAL_R_SUBSTRING, el,
	     "dotted id %s %s id %s of the <reportMetric> at %s:%u:%u, and "
	     "dotted ids must not be substrings of each other (section "
	     "3.4.3); rename one of them",
	     quote(qb, b), lb < la ? "is a substring of" : "contains",
	     quote(qa, a), afile, apos.line, apos.col);
	return 1;
}

static void check_def(struct load *ld, struct partial_def *d)
{
	struct partial_set *ps = ld->ps;
	char el[ELEM_MAX], q[QBUF];
	if (d->name)
		for (size_t i = 0; i < ps->ps_ndefs; i++)
			if (ps->ps_defs[i]->name &&
			    !strcmp(ps->ps_defs[i]->name, d->name))
				diag(ld, d->pos, PARTIAL_ERROR,
				     PARTIAL_R_DUPLICATE,
				     elem(el, "partialReport", 1, "name",
					  d->name),
				     "name %s is already the name of the "
				     "report of %s:%u:%u; give each report its "
				     "own name (section 3.4.1)",
				     quote(q, d->name), ps->ps_defs[i]->file,
				     ps->ps_defs[i]->pos.line,
				     ps->ps_defs[i]->pos.col);
	if (d->nrm > MAX_RM_CHECKED)
		diag(ld, d->rm[MAX_RM_CHECKED].pos, PARTIAL_ERROR,
		     PARTIAL_R_LIMIT, elem(el, "reportMetric", 0),
		     "more than %d report metrics in one file; split the file",
		     MAX_RM_CHECKED);
	size_t nrm = d->nrm > MAX_RM_CHECKED ? MAX_RM_CHECKED : d->nrm;
	for (size_t j = 0; j < nrm; j++) {
		const struct pdef_rm *b = &d->rm[j];
		if (!b->id)
			continue;
		elem(el, "reportMetric", 1, "id", b->id);
		/* a duplicate first: it is a substring too */
		int clash = 0;
		for (int dup = 1; dup >= 0 && !clash; dup--) {
			for (size_t i = 0; i < ps->ps_ndefs && !clash; i++) {
				const struct partial_def *o = ps->ps_defs[i];
				for (size_t k = 0; k < o->nrm && !clash; k++)
					if (o->rm[k].id)
						clash = ids_clash(
							ld, o->file,
							o->rm[k].pos,
							o->rm[k].id, b->pos,
							b->id, el, dup);
			}
			for (size_t i = 0; i < j && !clash; i++)
				if (d->rm[i].id)
					clash = ids_clash(ld, d->file,
							  d->rm[i].pos,
							  d->rm[i].id, b->pos,
							  b->id, el, dup);
		}
	}
	for (size_t j = 0; j < d->nss; j++) {
		struct pdef_ss *ss = &d->ss[j];
		for (size_t i = 0; i < j && ss->id; i++)
			if (d->ss[i].id && !strcmp(d->ss[i].id, ss->id)) {
				diag(ld, ss->pos, PARTIAL_ERROR,
				     PARTIAL_R_DUPLICATE,
				     elem(el, "subsection", 1, "id", ss->id),
				     "id %s is already used by the "
				     "<subsection> at line %u; give each "
				     "subsection its own id",
				     quote(q, ss->id), d->ss[i].pos.line);
				break;
			}
		for (size_t k = 0; k < ss->nen; k++) {
			struct pdef_entry *en = &ss->en[k];
			en->target = SIZE_MAX;
			if (!en->rm)
				continue;
			for (size_t i = 0; i < d->nrm; i++)
				if (d->rm[i].id && !strcmp(d->rm[i].id, en->rm)) {
					en->target = i;
					break;
				}
			if (en->target == SIZE_MAX)
				diag(ld, en->pos, PARTIAL_ERROR,
				     PARTIAL_R_ENTRY_REF,
				     elem(el, "entry", 1, "reportMetric",
					  en->rm),
				     "no <reportMetric id=%s> in this file; "
				     "define it in <reportMetrics> or correct "
				     "reportMetric", quote(q, en->rm));
		}
	}
}

/* ------------------------------------------------------------------ */
/* Loading */

static void free_colour(struct partial_colour *c)
{
	free(c->pc_text);
}

void partial_def_free(struct partial_def *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nrm; i++) {
		free(d->rm[i].id);
		free(d->rm[i].name);
		free(d->rm[i].units);
		free(d->rm[i].ref);
		free_colour(&d->rm[i].colour);
	}
	for (size_t i = 0; i < d->nss; i++) {
		struct pdef_ss *ss = &d->ss[i];
		free(ss->id);
		free(ss->heading);
		free(ss->text);
		free_colour(&ss->colour);
		for (size_t k = 0; k < ss->nen; k++) {
			free(ss->en[k].rm);
			free(ss->en[k].group);
		}
		free(ss->en);
	}
	free(d->rm);
	free(d->ss);
	free(d->name);
	free(d->file);
	free(d);
}

struct partial_set *partial_set_new(void)
{
	return calloc(1, sizeof(struct partial_set));
}

void partial_set_free(struct partial_set *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->ps_nfiles; i++)
		free(ps->ps_files[i].pf_path);
	for (size_t i = 0; i < ps->ps_ndiags; i++) {
		free(ps->ps_diags[i].pd_file);
		free(ps->ps_diags[i].pd_text);
	}
	for (size_t i = 0; i < ps->ps_ndefs; i++)
		partial_def_free(ps->ps_defs[i]);
	free(ps->ps_files);
	free(ps->ps_diags);
	free(ps->ps_defs);
	free(ps);
}

/* Adds a file named path to ps; returns 0 or MAPS_ENOMEM. */
static int begin_file(struct partial_set *ps, struct load *ld,
		      const char *path)
{
	memset(ld, 0, sizeof(*ld));
	ld->ps = ps;
	struct partial_file *v = realloc(ps->ps_files,
					 (ps->ps_nfiles + 1) * sizeof(*v));
	if (!v) {
		ps->ps_oom = 1;
		return MAPS_ENOMEM;
	}
	ps->ps_files = v;
	memset(&v[ps->ps_nfiles], 0, sizeof(*v));
	if (!(v[ps->ps_nfiles].pf_path = strdup(path))) {
		ps->ps_oom = 1;
		return MAPS_ENOMEM;
	}
	ld->fi = ps->ps_nfiles++;
	return 0;
}

static void parse_into(struct load *ld, const char *buf, size_t len)
{
	struct partial_set *ps = ld->ps;
	struct partial_def *d = calloc(1, sizeof(*d));
	struct parse p;
	if (!d || !(d->file = strdup(lfile(ld)->pf_path))) {
		free(d);
		ps->ps_oom = 1;
		return;
	}
	if (len > PARTIAL_MAX_FILE_SIZE) {
		diag(ld, (struct ppos){0, 0}, PARTIAL_ERROR, PARTIAL_R_IO, NULL,
		     "larger than %u bytes; this is no partial report "
		     "definition file", (unsigned)PARTIAL_MAX_FILE_SIZE);
		partial_def_free(d);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.ld = ld;
	p.d = d;
	p.buf = buf;
	p.len = len;
	p.depth = 1;
	p.st[0].kind = K_DOC;
	if (!(p.xp = XML_ParserCreate(NULL))) {
		ps->ps_oom = 1;
		partial_def_free(d);
		return;
	}
	XML_SetUserData(p.xp, &p);
	XML_SetElementHandler(p.xp, on_start, on_end);
	XML_SetCharacterDataHandler(p.xp, on_chars);
	enum XML_Status st = XML_Parse(p.xp, buf, (int)len, XML_TRUE);
	int bad = p.bad_root;
	if (st == XML_STATUS_ERROR && !p.aborted) {
		enum XML_Error e = XML_GetErrorCode(p.xp);
		const char *es = XML_ErrorString(e);
		diag(ld, here(&p), PARTIAL_ERROR, PARTIAL_R_XML, NULL,
		     "not well-formed XML: %s; correct the XML syntax here",
		     es ? es : "unknown error");
		bad = 1;
	}
	XML_ParserFree(p.xp);
	free(p.chars);
	if (!bad && !ps->ps_oom)
		check_def(ld, d);
	if (ps->ps_oom || lfile(ld)->pf_nerrors) {
		partial_def_free(d);
		return;
	}
	struct partial_def **v = realloc(ps->ps_defs,
					 (ps->ps_ndefs + 1) * sizeof(*v));
	if (!v) {
		ps->ps_oom = 1;
		partial_def_free(d);
		return;
	}
	ps->ps_defs = v;
	v[ps->ps_ndefs++] = d;
	lfile(ld)->pf_used = 1;
}

int partial_load_buffer(struct partial_set *ps, const char *name,
			const void *buf, size_t len)
{
	struct load ld;
	if (!ps || !name || (!buf && len))
		return MAPS_EINVAL;
	if (begin_file(ps, &ld, name))
		return MAPS_ENOMEM;
	parse_into(&ld, buf ? buf : "", len);
	flush_diags(&ld);
	return ps->ps_oom ? MAPS_ENOMEM : 0;
}

static int load_file(struct partial_set *ps, const char *path,
		     const char *origin)
{
	struct load ld;
	char *buf = NULL;
	size_t len = 0;
	if (begin_file(ps, &ld, path))
		return MAPS_ENOMEM;
	int err = metricdef_read_file(path, PARTIAL_MAX_FILE_SIZE, &buf, &len);
	if (err == ENOMEM)
		ps->ps_oom = 1;
	else if (err == EFBIG)
		diag(&ld, (struct ppos){0, 0}, PARTIAL_ERROR, PARTIAL_R_IO, NULL,
		     "larger than %u bytes; this is no partial report "
		     "definition file", (unsigned)PARTIAL_MAX_FILE_SIZE);
	else if (err)
		diag(&ld, (struct ppos){0, 0}, PARTIAL_ERROR, PARTIAL_R_IO, NULL,
		     "cannot be read: %s; check the path given by %s",
		     strerror(err), origin);
	else
		parse_into(&ld, buf, len);
	free(buf);
	flush_diags(&ld);
	return ps->ps_oom ? MAPS_ENOMEM : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads the *.xml files of folder dir in name order.  quiet: a folder
 * that cannot be read, or holds no such file, is no diagnostic. */
static int load_dir(struct partial_set *ps, const char *dir,
		    const char *origin, int quiet)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	if (!dh) {
		int err = errno;
		struct load ld;
		if (quiet && (err == ENOENT || err == ENOTDIR))
			return 0;
		if (begin_file(ps, &ld, dir))
			return MAPS_ENOMEM;
		diag(&ld, (struct ppos){0, 0}, PARTIAL_ERROR, PARTIAL_R_IO, NULL,
		     "folder cannot be read: %s; check the path given by %s",
		     strerror(err), origin);
		flush_diags(&ld);
		return ps->ps_oom ? MAPS_ENOMEM : 0;
	}
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		struct stat sb;
		char *path;
		if (de->d_name[0] == '.' || l <= 4 ||
		    strcmp(de->d_name + l - 4, ".xml"))
			continue;
		if (asprintf(&path, "%s%s%s", dir,
			     dir[strlen(dir) - 1] == '/' ? "" : "/",
			     de->d_name) < 0) {
			rc = MAPS_ENOMEM;
			break;
		}
		if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
			free(path);
			continue;
		}
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **v = realloc(names, nc * sizeof(*v));
			if (!v) {
				free(path);
				rc = MAPS_ENOMEM;
				break;
			}
			names = v;
			cap = nc;
		}
		names[n++] = path;
	}
	closedir(dh);
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = load_file(ps, names[i], origin);
		free(names[i]);
	}
	free(names);
	if (!rc && !n && !quiet) {
		struct load ld;
		if (begin_file(ps, &ld, dir))
			return MAPS_ENOMEM;
		diag(&ld, (struct ppos){0, 0}, PARTIAL_WARNING, PARTIAL_R_IO,
		     NULL, "folder holds no *.xml file, so no partial report "
		     "is loaded from it; check the path given by %s", origin);
		flush_diags(&ld);
	}
	if (rc == MAPS_ENOMEM)
		ps->ps_oom = 1;
	return ps->ps_oom ? MAPS_ENOMEM : rc;
}

int partial_load_path(struct partial_set *ps, const char *path,
		      const char *origin)
{
	struct stat sb;
	if (!ps || !path || !origin)
		return MAPS_EINVAL;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return load_dir(ps, path, origin, 0);
	return load_file(ps, path, origin);
}

static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;
	if (h && *h)
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

/* Adds base/sub to dirs unless that folder is there already. */
static int add_dir(char ***dirs, size_t *n, char ***reals, const char *base,
		   const char *sub)
{
	char *path, *real;
	if (!base || !*base)
		return 0;
	size_t bl = strlen(base);
	while (bl > 1 && base[bl - 1] == '/')
		bl--;
	if (asprintf(&path, "%.*s/%s", (int)bl, base, sub) < 0)
		return MAPS_ENOMEM;
	real = realpath(path, NULL);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*dirs)[i], path) ||
		    (real && (*reals)[i] && !strcmp(real, (*reals)[i]))) {
			free(path);
			free(real);
			return 0;
		}
	char **v = realloc(*dirs, (*n + 1) * sizeof(*v));
	if (v)
		*dirs = v;
	char **r = v ? realloc(*reals, (*n + 1) * sizeof(*r)) : NULL;
	if (!v || !r) {
		free(path);
		free(real);
		return MAPS_ENOMEM;
	}
	*reals = r;
	(*dirs)[*n] = path;
	(*reals)[*n] = real;
	(*n)++;
	return 0;
}

int partial_search_dirs(char ***dirs, size_t *n)
{
	char **reals = NULL;
	const char *home = home_dir(), *v;
	int rc;
	if (!dirs || !n)
		return MAPS_EINVAL;
	*dirs = NULL;
	*n = 0;
	rc = add_dir(dirs, n, &reals, getenv("MAPSAMPLE_CONFIG_DIR"),
		     "reports");
	v = getenv("ALLINEA_CONFIG_DIR");
	if (!rc && v && *v)
		rc = add_dir(dirs, n, &reals, v, "perf-report/reports");
	else if (!rc && home)
		rc = add_dir(dirs, n, &reals, home,
			     ".allinea/perf-report/reports");
	if (!rc && home)
		rc = add_dir(dirs, n, &reals, home, ".mapsample/reports");
	for (size_t i = 0; i < *n; i++)
		free(reals[i]);
	free(reals);
	if (rc) {
		for (size_t i = 0; i < *n; i++)
			free((*dirs)[i]);
		free(*dirs);
		*dirs = NULL;
		*n = 0;
	}
	return rc;
}

int partial_load(struct partial_set *ps, const char *const *paths,
		 size_t npaths)
{
	static const char *const vars[] = {"MAPSAMPLE_PARTIAL_REPORT_SOURCE",
					   "ALLINEA_PARTIAL_REPORT_SOURCE"};
	int rc = 0;
	if (!ps || (npaths && !paths))
		return MAPS_EINVAL;
	if (npaths) {
		for (size_t i = 0; i < npaths && !rc; i++)
			rc = partial_load_path(ps, paths[i],
					       "--partial-report");
		return rc;
	}
	for (int i = 0; i < 2; i++) {
		const char *v = getenv(vars[i]);
		char origin[48];
		if (!v || !*v)
			continue;
		snprintf(origin, sizeof(origin), "$%s", vars[i]);
		return partial_load_path(ps, v, origin);
	}
	char **dirs;
	size_t n;
	if ((rc = partial_search_dirs(&dirs, &n)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = load_dir(ps, dirs[i], dirs[i], 1);
		free(dirs[i]);
	}
	free(dirs);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Plain text of <text> */

struct sbuf {
	char *s;
	size_t n, cap;
	int oom;
};

static void sput(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *t = realloc(b->s, cap);
		if (!t) {
			b->oom = 1;
			return;
		}
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* Adds one character of text: white space runs become one space, none
 * at the start of a line. */
static void text_char(struct sbuf *b, char c)
{
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    (unsigned char)c < 0x20 || c == 0x7f) {
		if (b->n && b->s[b->n - 1] != ' ' && b->s[b->n - 1] != '\n')
			sput(b, " ", 1);
		return;
	}
	sput(b, &c, 1);
}

static void text_newline(struct sbuf *b)
{
	while (b->n && b->s[b->n - 1] == ' ')
		b->s[--b->n] = '\0';
	if (b->n && b->s[b->n - 1] != '\n')
		sput(b, "\n", 1);
}

/* Writes code point c as UTF-8 text. */
static void text_code(struct sbuf *b, unsigned long c)
{
	char u[4];
	size_t n;
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff)) {
		text_char(b, ' ');
		return;
	}
	if (c < 0x80) {
		text_char(b, (char)c);
		return;
	}
	if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6);
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12);
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | c >> 18);
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	sput(b, u, n);
}

/* An entity reference at s ('&'); returns the bytes it takes, 0 if it
 * is none that is known (then '&' is text). */
static size_t text_entity(struct sbuf *b, const char *s)
{
	static const struct {
		const char *name;
		char c;
	} ents[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'},
		    {"quot;", '"'}, {"apos;", '\''}, {"nbsp;", ' '}};
	for (size_t i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
		size_t l = strlen(ents[i].name);
		if (!strncmp(s + 1, ents[i].name, l)) {
			text_char(b, ents[i].c);
			return l + 1;
		}
	}
	if (s[1] == '#') {
		int hex = s[2] == 'x' || s[2] == 'X';
		const char *d = s + 2 + hex;
		unsigned long v = 0;
		size_t nd = 0;
		while (nd < 8 && (hex ? isxdigit((unsigned char)d[nd])
				      : isdigit((unsigned char)d[nd]))) {
			int c = (unsigned char)d[nd];
			v = v * (hex ? 16 : 10) +
			    (unsigned long)(isdigit(c) ? c - '0'
						       : (c | 0x20) - 'a' + 10);
			nd++;
		}
		if (nd && d[nd] == ';') {
			text_code(b, v);
			return (size_t)(d + nd + 1 - s);
		}
	}
	return 0;
}

static int is_block(const char *name, size_t n)
{
	static const char *const blocks[] = {
		"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4",
		"h5", "h6", "tr", "table", "dl", "dt", "dd", "blockquote",
		"pre", "hr", NULL,
	};
	for (int i = 0; blocks[i]; i++)
		if (strlen(blocks[i]) == n && !strncasecmp(blocks[i], name, n))
			return 1;
	return 0;
}

char *partial_plain_text(const char *html)
{
	struct sbuf b = {0};
	const char *s = html ? html : "";
	sput(&b, "", 0);
	while (*s && !b.oom) {
		if (!strncmp(s, "<![CDATA[", 9)) {
			const char *e = strstr(s + 9, "]]>");
			const char *end = e ? e : s + strlen(s);
			for (const char *c = s + 9; c < end; c++)
				text_char(&b, *c);
			s = e ? e + 3 : end;
		} else if (!strncmp(s, "<!--", 4)) {
			const char *e = strstr(s + 4, "-->");
			s = e ? e + 3 : s + strlen(s);
		} else if (*s == '<') {
			const char *e = strchr(s, '>');
			const char *nm = s + 1 + (s[1] == '/');
			size_t nl = 0;
			while (isalnum((unsigned char)nm[nl]))
				nl++;
			if (s[1] != '/' && e && e[-1] != '/' &&
			    ((nl == 6 && !strncasecmp(nm, "script", 6)) ||
			     (nl == 5 && !strncasecmp(nm, "style", 5)))) {
				/* code, not text: skip to its end tag */
				char end[10];
				snprintf(end, sizeof(end), "</%.*s", (int)nl,
					 nm);
				const char *c = strcasestr(e, end);
				e = c ? strchr(c, '>') : NULL;
				s = e ? e + 1 : s + strlen(s);
				continue;
			}
			if (is_block(nm, nl)) {
				text_newline(&b);
				if (nl == 2 && !strncasecmp(nm, "li", 2) &&
				    s[1] != '/')
					sput(&b, "- ", 2);
			}
			s = e ? e + 1 : s + strlen(s);
		} else if (*s == '&') {
			size_t l = text_entity(&b, s);
			if (!l)
				text_char(&b, '&');
			s += l ? l : 1;
		} else {
			text_char(&b, *s++);
		}
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	/* trim: no space at line ends, no empty first or last line */
	text_newline(&b);
	size_t o = 0;
	for (size_t i = 0; i < b.n; i++) {
		if (b.s[i] == ' ' && (!o || b.s[o - 1] == '\n'))
			continue;
		if (b.s[i] == '\n' && (!o || b.s[o - 1] == '\n'))
			continue;
		b.s[o++] = b.s[i];
	}
	while (o && (b.s[o - 1] == '\n' || b.s[o - 1] == ' '))
		o--;
	b.s[o] = '\0';
	return b.s;
}
