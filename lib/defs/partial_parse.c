/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial_parse.c: one partial report definition file (reference section
 * 3.4), read with the XML-checking core (xmlcheck.h) and checked against
 * every rule of sections 3.4-3.6.
 *
 * DESIGN NOTES
 *   One file gives one struct partial_def.  The table rules[] gives the
 *   elements, their attributes and which may come once only; the hooks
 *   collect what the elements say and the problems of their attributes,
 *   each at the start tag of its element.  Then check_def() applies the
 *   rules that need the whole file (entry references, duplicate and
 *   substring ids) and those that span the files used before (report
 *   names, report metric ids).  A file with any error is dropped whole;
 *   warnings (unknown elements and attributes, stray text) do not stop
 *   it.
 *
 *   <text> is kept as written: the bytes between its start and end tags
 *   (expat's byte index), markup and entity references included, since
 *   the HTML writer sanitises that markup itself.  If those bytes are not
 *   UTF-8 (a document in another encoding), the decoded character data
 *   is kept instead, with &, < and > escaped.  Elements inside <text> are
 *   not checked here (the rule is RAW).
 *
 *   Ids are XML NCNames (Namespaces in XML 1.0, with the Name characters
 *   of XML 1.0 fifth edition) that, as section 3.6 adds, do not start
 *   with '_' either.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "defs/partial_i.h"

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

enum kind {
	K_DOC = XMLCHECK_DOC, K_ROOT, K_RMS, K_RM, K_SD, K_SSS, K_SS, K_TEXT,
	K_ENTRY,
};

static const char *const root_attrs[] = {"name", "xmlns", NULL};
static const char *const rm_attrs[] = {"id", "displayName", "units", "colour",
				       "source", NULL};
static const char *const sd_attrs[] = {"metricRef", "sampleValue",
				       "aggregation", NULL};
static const char *const ss_attrs[] = {"id", "heading", "colour", NULL};
static const char *const entry_attrs[] = {"reportMetric", "group", NULL};
static const char *const no_attrs[] = {NULL};

/* <sourceDetails> may come once in its <reportMetric> too, but a second
 * one is checked (and reported) by open_sd(), not skipped. */
static const struct xmlcheck_rule rules[] = {
	{K_DOC, "partialReport", K_ROOT, XMLCHECK_XMLNS, root_attrs},
	{K_ROOT, "reportMetrics", K_RMS, XMLCHECK_ONCE, no_attrs},
	{K_ROOT, "subsections", K_SSS, XMLCHECK_ONCE, no_attrs},
	{K_RMS, "reportMetric", K_RM, 0, rm_attrs},
	{K_RM, "sourceDetails", K_SD, XMLCHECK_EMPTY, sd_attrs},
	{K_SSS, "subsection", K_SS, 0, ss_attrs},
	{K_SS, "text", K_TEXT, XMLCHECK_ONCE | XMLCHECK_RAW, no_attrs},
	{K_SS, "entry", K_ENTRY, XMLCHECK_EMPTY, entry_attrs},
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))
_Static_assert(NRULES <= XMLCHECK_MAX_RULES, "rules fit the core's frames");

struct parse {
	struct xmlcheck x;
	struct partial_set *ps;
	size_t fi;              /* the file's index in ps_files */
	struct partial_def *d;
	const char *buf;        /* the file */
	size_t len;
	XML_Index text_from;    /* where the open <text>'s content begins */
};

static struct ppos ppos_of(struct xmlcheck_pos p)
{
	return (struct ppos){p.line, p.col};
}

static char *copy_of(struct parse *p, const char *s)
{
	return xmlcheck_strdup(&p->ps->ps_oom, s);
}

/* An error about the file being parsed. */
__attribute__((format(printf, 5, 6)))
static void err(struct parse *p, struct ppos pos, enum partial_rule rule,
		const char *el, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xmlcheck_vreport(p->ps->ps_log, (int)p->fi, p->x.xc_path,
			 (struct xmlcheck_pos){pos.line, pos.col},
			 XMLCHECK_ERROR, (int)rule, el, fmt, ap);
	va_end(ap);
}

static void check_colour(struct parse *p, struct ppos pos, const char *el,
			 const char *v, struct partial_colour *c)
{
	char q[XMLCHECK_QBUF];
	if (!v)
		return;
	c->pc_text = copy_of(p, v);
	if (colour_parse(v, COLOUR_FUNCTIONS_OK, &c->pc_parsed)) {
		err(p, pos, PARTIAL_R_COLOUR, el,
		    "colour %s is no colour of section 3.5; use #RGB, "
		    "#RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, rgb(R, G, B), "
		    "hsv(H, S, V), hsl(H, S, L) or an SVG colour name",
		    xmlcheck_quote(q, sizeof(q), v));
		return;
	}
	colour_css(&c->pc_parsed, c->pc_css, sizeof(c->pc_css));
}

/* Checks a required attribute: present and, unless may_be_empty, not
 * empty.  Returns it, or NULL after a diagnostic. */
static const char *required(struct parse *p, struct ppos pos, const char *el,
			    const XML_Char **atts, const char *name,
			    int may_be_empty, const char *fix)
{
	const char *v = xmlcheck_attr(atts, name);
	if (!v) {
		err(p, pos, PARTIAL_R_MISSING, el, "no %s attribute; add %s",
		    name, fix);
		return NULL;
	}
	if (!*v && !may_be_empty) {
		err(p, pos, PARTIAL_R_EMPTY, el, "empty %s; add %s", name, fix);
		return NULL;
	}
	return v;
}

/* Section 3.6 for an id (or name, when ncname is 0). */
static void check_name(struct parse *p, struct ppos pos, const char *el,
		       const char *what, const char *v, int ncname,
		       const char *example)
{
	char why[XMLCHECK_QBUF + 32], q[XMLCHECK_QBUF];
	const char *pre = p->ps->ps_builtin ? NULL
					    : xmlcheck_reserved_prefix(v);
	if (pre)
		err(p, pos, PARTIAL_R_RESERVED, el,
		    "%s %s starts with the reserved prefix \"%s\" (section "
		    "3.6); start it with your reversed Internet domain name, "
		    "e.g. %s=\"com.example.%s\"",
		    what, xmlcheck_quote(q, sizeof(q), v), pre, what,
		    v + strlen(pre));
	if (ncname && xmlcheck_ncname_problem(v, why, sizeof(why)))
		err(p, pos, PARTIAL_R_NCNAME, el,
		    "%s %s is not an XML NCName (section 3.6): %s; use "
		    "letters, digits, '.', '-' and '_', starting with a "
		    "letter, e.g. %s=\"%s\"",
		    what, xmlcheck_quote(q, sizeof(q), v), why, what, example);
}

/* The descriptor of element name showing its attributes a1 and a2 (NULL:
 * none) as atts gives them. */
static char *elem_of(char *el, const char *name, const XML_Char **atts,
		     const char *a1, const char *a2)
{
	return xmlcheck_elem(el, XMLCHECK_ELEM_MAX, name, 2, a1,
			     xmlcheck_attr(atts, a1), a2,
			     a2 ? xmlcheck_attr(atts, a2) : NULL);
}

static void open_root(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	const char *name, *ns = xmlcheck_attr(atts, "xmlns");
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	elem_of(el, "partialReport", atts, "name", NULL);
	d->pos = pos;
	name = required(p, pos, el, atts, "name", 0,
			"name=\"com.example.myReport\", a name of your own "
			"that identifies the report");
	if (name) {
		d->name = copy_of(p, name);
		check_name(p, pos, el, "name", name, 0, NULL);
	}
	if (!ns)
		err(p, pos, PARTIAL_R_XMLNS, el,
		    "no xmlns attribute (section 3.4.1 requires it); add "
		    "xmlns=\"" PARTIAL_XMLNS "\"");
	else if (strcmp(ns, PARTIAL_XMLNS))
		err(p, pos, PARTIAL_R_XMLNS, el,
		    "xmlns %s is not the partial report namespace (section "
		    "3.4.1); use xmlns=\"" PARTIAL_XMLNS "\"",
		    xmlcheck_quote(q, sizeof(q), ns));
}

static void open_rm(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_rm *rm = xmlcheck_push(&p->ps->ps_oom, &d->rm, &d->caprm,
					   &d->nrm, sizeof(*rm));
	const char *v;
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	if (!rm)
		return;
	rm->pos = pos;
	rm->sv = rm->ag = -1;
	elem_of(el, "reportMetric", atts, "id", NULL);
	if ((v = required(p, pos, el, atts, "id", 0,
			  "id=\"com.example.metrics.myMetric\", a unique name "
			  "for this report metric"))) {
		rm->id = copy_of(p, v);
		check_name(p, pos, el, "id", v, 1, "com.example.metric_1");
	}
	if ((v = required(p, pos, el, atts, "displayName", 0,
			  "displayName=\"...\", the name the report shows")))
		rm->name = copy_of(p, v);
	if ((v = required(p, pos, el, atts, "units", 1,
			  "units=\"...\" (e.g. units=\"/s\"; units=\"\" for a "
			  "plain number)")))
		rm->units = copy_of(p, v);
	check_colour(p, pos, elem_of(el, "reportMetric", atts, "id", "colour"),
		     xmlcheck_attr(atts, "colour"), &rm->colour);
	elem_of(el, "reportMetric", atts, "id", "source");
	v = xmlcheck_attr(atts, "source");
	if (!v)
		err(p, pos, PARTIAL_R_SOURCE, el,
		    "no source attribute (section 3.4.3 requires "
		    "source=\"metric\"); add source=\"metric\"");
	else if (strcmp(v, "metric"))
		err(p, pos, PARTIAL_R_SOURCE, el,
		    "source %s is not \"metric\", the only source of section "
		    "3.4.3; write source=\"metric\"",
		    xmlcheck_quote(q, sizeof(q), v));
}

static void open_sd(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_rm *rm = d->nrm ? &d->rm[d->nrm - 1] : NULL;
	const char *v;
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	if (!rm)
		return;
	if (rm->nsd++) {
		err(p, pos, PARTIAL_R_REPEATED,
		    elem_of(el, "sourceDetails", atts, "metricRef", NULL),
		    "a second <sourceDetails> in <reportMetric id=%s> (the "
		    "first is at line %u); keep one",
		    xmlcheck_quote(q, sizeof(q), rm->id ? rm->id : ""),
		    rm->sd_pos.line);
		return;
	}
	rm->sd_pos = pos;
	elem_of(el, "sourceDetails", atts, "metricRef", NULL);
	if ((v = required(p, pos, el, atts, "metricRef", 0,
			  "metricRef=\"...\", the id of the metric to show "
			  "(e.g. metricRef=\"com.mapsample.metrics.cpu."
			  "user\")")))
		rm->ref = copy_of(p, v);
	elem_of(el, "sourceDetails", atts, "metricRef", "sampleValue");
	if ((v = required(p, pos, el, atts, "sampleValue", 0,
			  "sampleValue=\"min\", \"max\", \"mean\" or "
			  "\"sum\""))) {
		rm->sv = parse_stat(v, 1);
		if (rm->sv < 0)
			err(p, pos, PARTIAL_R_SAMPLE_VALUE, el,
			    "sampleValue %s is not min, max, mean or sum "
			    "(section 3.4.4); use one of those",
			    xmlcheck_quote(q, sizeof(q), v));
	}
	elem_of(el, "sourceDetails", atts, "metricRef", "aggregation");
	if ((v = required(p, pos, el, atts, "aggregation", 0,
			  "aggregation=\"min\", \"max\" or \"mean\""))) {
		rm->ag = parse_stat(v, 0);
		if (rm->ag < 0)
			err(p, pos, PARTIAL_R_AGGREGATION, el,
			    "aggregation %s is not min, max or mean "
			    "(section 3.4.4); use one of those",
			    xmlcheck_quote(q, sizeof(q), v));
	}
}

static void open_ss(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_ss *ss = xmlcheck_push(&p->ps->ps_oom, &d->ss, &d->capss,
					   &d->nss, sizeof(*ss));
	const char *v;
	char el[XMLCHECK_ELEM_MAX];
	if (!ss)
		return;
	ss->pos = pos;
	elem_of(el, "subsection", atts, "id", NULL);
	if ((v = required(p, pos, el, atts, "id", 0,
			  "id=\"my_metrics\", a unique name for this "
			  "subsection"))) {
		ss->id = copy_of(p, v);
		check_name(p, pos, el, "id", v, 1, "my_metrics");
	}
	if ((v = required(p, pos, el, atts, "heading", 0,
			  "heading=\"...\", the title the report shows")))
		ss->heading = copy_of(p, v);
	check_colour(p, pos, elem_of(el, "subsection", atts, "id", "colour"),
		     xmlcheck_attr(atts, "colour"), &ss->colour);
}

static void open_entry(struct parse *p, struct ppos pos, const XML_Char **atts)
{
	struct partial_def *d = p->d;
	struct pdef_ss *ss = d->nss ? &d->ss[d->nss - 1] : NULL;
	struct pdef_entry *en;
	const char *v;
	char el[XMLCHECK_ELEM_MAX];
	if (!ss || !(en = xmlcheck_push(&p->ps->ps_oom, &ss->en, &ss->capen,
					&ss->nen, sizeof(*en))))
		return;
	en->pos = pos;
	elem_of(el, "entry", atts, "reportMetric", NULL);
	if ((v = required(p, pos, el, atts, "reportMetric", 0,
			  "reportMetric=\"...\", the id of a <reportMetric> "
			  "of this file")))
		en->rm = copy_of(p, v);
	v = xmlcheck_attr(atts, "group");
	if (v && *v)
		en->group = copy_of(p, v);
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

/* <text> has ended, chars its decoded character data: keep its content
 * (see DESIGN NOTES). */
static void close_text(struct parse *p, const char *chars)
{
	struct pdef_ss *ss = p->d->nss ? &p->d->ss[p->d->nss - 1] : NULL;
	XML_Index to = XML_GetCurrentByteIndex(p->x.xc_xp);
	char *t;
	if (!ss)
		return;
	if (to >= p->text_from && p->text_from >= 0 &&
	    (size_t)to <= p->len &&
	    good_utf8(p->buf + p->text_from, (size_t)(to - p->text_from))) {
		t = strndup(p->buf + p->text_from, (size_t)(to - p->text_from));
	} else {
		size_t n = 0;
		for (const char *c = chars; *c; c++)
			n += strchr("&<>", *c) ? 5 : 1;
		t = malloc(n + 1);
		if (t) {
			char *o = t;
			for (const char *c = chars; *c; c++) {
				const char *e = *c == '&' ? "&amp;"
					      : *c == '<' ? "&lt;"
					      : *c == '>' ? "&gt;" : NULL;
				if (e)
					o += sprintf(o, "%s", e);
				else
					*o++ = *c;
			}
			*o = '\0';
		}
	}
	if (!t) {
		p->ps->ps_oom = true;
		return;
	}
	free(ss->text);
	ss->text = t;
}

/* ------------------------------------------------------------------ */
/* The hooks of the core */

static void on_unknown(struct xmlcheck *x, struct xmlcheck_pos pos,
		       const char *name, const struct xmlcheck_frame *top)
{
	xmlcheck_unknown(x, pos, name, top, true);
}

/* A second <reportMetrics>, <subsections> or <text>. */
static void on_repeated(struct xmlcheck *x, struct xmlcheck_pos pos,
			const struct xmlcheck_rule *r,
			const struct xmlcheck_frame *top,
			struct xmlcheck_pos first)
{
	struct parse *p = x->xc_ctx;
	struct partial_def *d = p->d;
	char el[XMLCHECK_ELEM_MAX], pel[XMLCHECK_ELEM_MAX];
	if (top->xf_kind == K_SS)
		xmlcheck_elem(pel, sizeof(pel), "subsection", 1, "id",
			      d->ss[d->nss - 1].id);
	else
		xmlcheck_elem(pel, sizeof(pel), "partialReport", 1, "name",
			      d->name);
	xmlcheck_diag(x, pos, XMLCHECK_ERROR, PARTIAL_R_REPEATED,
		      xmlcheck_elem(el, sizeof(el), r->xr_name, 0),
		      "a second <%s> in %s (the first is at line %u); keep "
		      "one and move what this one holds into it", r->xr_name,
		      pel, first.line);
}

static void on_stray(struct xmlcheck *x, struct xmlcheck_pos pos,
		     const struct xmlcheck_frame *top, const char *text)
{
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	xmlcheck_elem(el, sizeof(el), top->xf_rule->xr_name, 0);
	xmlcheck_diag(x, pos, XMLCHECK_WARNING, PARTIAL_R_TEXT, el,
		      "text %s outside <text>, ignored; %s holds %s",
		      xmlcheck_quote(q, sizeof(q), text), el,
		      top->xf_rule->xr_flags & XMLCHECK_EMPTY
			      ? "attributes only"
			      : "elements only");
}

static void on_open(struct xmlcheck *x, const struct xmlcheck_frame *fr,
		    const XML_Char **atts)
{
	struct parse *p = x->xc_ctx;
	struct ppos pos = ppos_of(fr->xf_pos);
	switch (fr->xf_kind) {
	case K_ROOT: open_root(p, pos, atts); break;
	case K_RMS: p->d->rms_pos = pos; break;
	case K_SSS: p->d->sss_pos = pos; break;
	case K_RM: open_rm(p, pos, atts); break;
	case K_SD: open_sd(p, pos, atts); break;
	case K_SS: open_ss(p, pos, atts); break;
	case K_ENTRY: open_entry(p, pos, atts); break;
	case K_TEXT:
		p->text_from = XML_GetCurrentByteIndex(x->xc_xp) +
			       XML_GetCurrentByteCount(x->xc_xp);
		if (p->d->nss)
			p->d->ss[p->d->nss - 1].text_pos = pos;
		break;
	default: break;
	}
}

static void on_close(struct xmlcheck *x, const struct xmlcheck_frame *fr,
		     char *text)
{
	struct parse *p = x->xc_ctx;
	struct partial_def *d = p->d;
	struct ppos pos = ppos_of(fr->xf_pos);
	char el[XMLCHECK_ELEM_MAX];
	switch (fr->xf_kind) {
	case K_TEXT:
		close_text(p, text);
		break;
	case K_RM: {
		struct pdef_rm *rm = d->nrm ? &d->rm[d->nrm - 1] : NULL;
		if (rm && !rm->nsd)
			err(p, pos, PARTIAL_R_MISSING,
				     xmlcheck_elem(el, sizeof(el),
						   "reportMetric", 1, "id",
						   rm->id),
				     "no <sourceDetails>; add <sourceDetails "
				     "metricRef=\"...\" sampleValue=\"mean\" "
				     "aggregation=\"mean\"/> naming the metric "
				     "to show");
		break;
	}
	case K_RMS:
		if (!d->nrm)
			err(p, pos, PARTIAL_R_MISSING,
				     xmlcheck_elem(el, sizeof(el),
						   "reportMetrics", 0),
				     "holds no <reportMetric> (section 3.4.2 "
				     "asks for one or more); add one");
		break;
	case K_SSS:
		if (!d->nss)
			err(p, pos, PARTIAL_R_MISSING,
				     xmlcheck_elem(el, sizeof(el),
						   "subsections", 0),
				     "holds no <subsection> (section 3.4.5 "
				     "asks for one or more); add one");
		break;
	case K_ROOT:
		xmlcheck_elem(el, sizeof(el), "partialReport", 1, "name",
			      d->name);
		if (!d->rms_pos.line)
			err(p, pos, PARTIAL_R_MISSING, el,
				     "no <reportMetrics>; define the report "
				     "metrics in <reportMetrics> first "
				     "(section 3.4)");
		if (!d->sss_pos.line)
			err(p, pos, PARTIAL_R_MISSING, el,
				     "no <subsections>; lay the report out in "
				     "<subsections> after <reportMetrics> "
				     "(section 3.4)");
		break;
	default:
		break;
	}
}

static const struct xmlcheck_grammar grammar = {
	.xg_rules = rules,
	.xg_nrules = NRULES,
	.xg_r_xml = PARTIAL_R_XML,
	.xg_r_root = PARTIAL_R_ROOT,
	.xg_r_unknown_element = PARTIAL_R_UNKNOWN_ELEMENT,
	.xg_r_unknown_attribute = PARTIAL_R_UNKNOWN_ATTRIBUTE,
	.xg_bad_root =
		"the root element is not <partialReport>, so this is no "
		"partial report definition (section 3.4); start the "
		"file with <partialReport name=\"com.example.myReport\" "
		"xmlns=\"" PARTIAL_XMLNS "\">",
	.xg_unknown = on_unknown,
	.xg_repeated = on_repeated,
	.xg_open = on_open,
	.xg_close = on_close,
	.xg_stray = on_stray,
};

/* ------------------------------------------------------------------ */
/* Whole-file checks */

#define MAX_RM_CHECKED 4096

/* id a (at apos in afile) against id b at bpos of this file: the
 * duplicate rule (dup) or the substring rule of section 3.4.3.  Returns 1
 * after a diagnostic. */
static int ids_clash(struct parse *p, const char *afile, struct ppos apos,
		     const char *a, struct ppos bpos, const char *b,
		     const char *el, int dup)
{
	char qa[XMLCHECK_QBUF], qb[XMLCHECK_QBUF];
	size_t la, lb;
	if (dup) {
		if (strcmp(a, b))
			return 0;
		err(p, bpos, PARTIAL_R_DUPLICATE, el,
		    "id %s is already used by the <reportMetric> at %s:%u:%u; "
		    "give each report metric its own id",
		    xmlcheck_quote(qb, sizeof(qb), b), afile, apos.line,
		    apos.col);
		return 1;
	}
	if (!strcmp(a, b))
		return 0;
	la = strlen(a);
	lb = strlen(b);
	const char *shorter = la < lb ? a : b, *longer = la < lb ? b : a;
	if (!strchr(shorter, '.') || !strstr(longer, shorter))
		return 0;
	err(p, bpos, PARTIAL_R_SUBSTRING, el,
	    "dotted id %s %s id %s of the <reportMetric> at %s:%u:%u, and "
	    "dotted ids must not be substrings of each other (section "
	    "3.4.3); rename one of them",
	    xmlcheck_quote(qb, sizeof(qb), b),
	    lb < la ? "is a substring of" : "contains",
	    xmlcheck_quote(qa, sizeof(qa), a), afile, apos.line, apos.col);
	return 1;
}

/* Report metric j of d against those before it, in the files used before
 * and in d: a duplicate first (it is a substring too), then the substring
 * rule. */
static void check_rm_id(struct parse *p, size_t j)
{
	const struct partial_set *ps = p->ps;
	const struct partial_def *d = p->d;
	const struct pdef_rm *b = &d->rm[j];
	char el[XMLCHECK_ELEM_MAX];
	int clash = 0;
	xmlcheck_elem(el, sizeof(el), "reportMetric", 1, "id", b->id);
	for (int dup = 1; dup >= 0 && !clash; dup--) {
		for (size_t i = 0; i < ps->ps_ndefs && !clash; i++) {
			const struct partial_def *o = ps->ps_defs[i];
			for (size_t k = 0; k < o->nrm && !clash; k++)
				if (o->rm[k].id)
					clash = ids_clash(p, o->file,
							  o->rm[k].pos,
							  o->rm[k].id, b->pos,
							  b->id, el, dup);
		}
		for (size_t i = 0; i < j && !clash; i++)
			if (d->rm[i].id)
				clash = ids_clash(p, d->file, d->rm[i].pos,
						  d->rm[i].id, b->pos, b->id,
						  el, dup);
	}
}

/* The subsection ids of d, and what its entries refer to. */
static void check_ss(struct parse *p)
{
	struct partial_def *d = p->d;
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	for (size_t j = 0; j < d->nss; j++) {
		struct pdef_ss *ss = &d->ss[j];
		for (size_t i = 0; i < j && ss->id; i++) {
			if (!d->ss[i].id || strcmp(d->ss[i].id, ss->id))
				continue;
			err(p, ss->pos, PARTIAL_R_DUPLICATE,
			    xmlcheck_elem(el, sizeof(el), "subsection", 1,
					  "id", ss->id),
			    "id %s is already used by the <subsection> at line "
			    "%u; give each subsection its own id",
			    xmlcheck_quote(q, sizeof(q), ss->id),
			    d->ss[i].pos.line);
			break;
		}
		for (size_t k = 0; k < ss->nen; k++) {
			struct pdef_entry *en = &ss->en[k];
			en->target = SIZE_MAX;
			if (!en->rm)
				continue;
			for (size_t i = 0; i < d->nrm; i++) {
				if (d->rm[i].id &&
				    !strcmp(d->rm[i].id, en->rm)) {
					en->target = i;
					break;
				}
			}
			if (en->target == SIZE_MAX)
				err(p, en->pos, PARTIAL_R_ENTRY_REF,
				    xmlcheck_elem(el, sizeof(el), "entry", 1,
						  "reportMetric", en->rm),
				    "no <reportMetric id=%s> in this file; "
				    "define it in <reportMetrics> or correct "
				    "reportMetric",
				    xmlcheck_quote(q, sizeof(q), en->rm));
		}
	}
}

/* The rules that need the whole file, or the files used before. */
static void check_def(struct parse *p)
{
	const struct partial_set *ps = p->ps;
	const struct partial_def *d = p->d;
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	size_t nrm = d->nrm > MAX_RM_CHECKED ? MAX_RM_CHECKED : d->nrm;
	for (size_t i = 0; d->name && i < ps->ps_ndefs; i++)
		if (ps->ps_defs[i]->name &&
		    !strcmp(ps->ps_defs[i]->name, d->name))
			err(p, d->pos, PARTIAL_R_DUPLICATE,
			    xmlcheck_elem(el, sizeof(el), "partialReport", 1,
					  "name", d->name),
			    "name %s is already the name of the report of "
			    "%s:%u:%u; give each report its own name (section "
			    "3.4.1)",
			    xmlcheck_quote(q, sizeof(q), d->name),
			    ps->ps_defs[i]->file, ps->ps_defs[i]->pos.line,
			    ps->ps_defs[i]->pos.col);
	if (d->nrm > MAX_RM_CHECKED)
		err(p, d->rm[MAX_RM_CHECKED].pos, PARTIAL_R_LIMIT,
		    xmlcheck_elem(el, sizeof(el), "reportMetric", 0),
		    "more than %d report metrics in one file; split the file",
		    MAX_RM_CHECKED);
	for (size_t j = 0; j < nrm; j++)
		if (d->rm[j].id)
			check_rm_id(p, j);
	check_ss(p);
}

static void free_colour(struct partial_colour *c)
{
	free(c->pc_text);
}

void partial_too_large(struct partial_set *ps, size_t fi)
{
	xmlcheck_report(ps->ps_log, (int)fi, ps->ps_files[fi].pf_path,
			(struct xmlcheck_pos){0, 0}, XMLCHECK_ERROR,
			(int)PARTIAL_R_IO, NULL,
			"larger than %u bytes; this is no partial report "
			"definition file",
			(unsigned)PARTIAL_MAX_FILE_SIZE);
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

void partial_parse(struct partial_set *ps, size_t fi, const char *buf,
		   size_t len)
{
	struct partial_def *d = calloc(1, sizeof(*d)), **slot;
	struct parse p;
	if (!d || !(d->file = strdup(ps->ps_files[fi].pf_path))) {
		free(d);
		ps->ps_oom = true;
		return;
	}
	if (len > PARTIAL_MAX_FILE_SIZE) {
		partial_too_large(ps, fi);
		partial_def_free(d);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.ps = ps;
	p.fi = fi;
	p.d = d;
	p.buf = buf;
	p.len = len;
	xmlcheck_init(&p.x, &grammar, &p, ps->ps_log, (int)fi,
		      ps->ps_files[fi].pf_path);
	xmlcheck_parse(&p.x, buf, len);
	if (!p.x.xc_failed && !ps->ps_oom)
		check_def(&p);
	if (ps->ps_oom || ps->ps_log->lg_files[fi].xn_errors ||
	    !(slot = xmlcheck_push(&ps->ps_oom, &ps->ps_defs, &ps->ps_capdefs,
				   &ps->ps_ndefs, sizeof(*slot)))) {
		partial_def_free(d);
		return;
	}
	*slot = d;
	ps->ps_files[fi].pf_used = 1;
}
