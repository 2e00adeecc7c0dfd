/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef_parse.c: reads one metric definition file (mapsample-
 * metrics(5)) into the model of metricdef.h, with the XML-checking core
 * (xmlcheck.h) driving expat.
 *
 * DESIGN NOTES
 * - The table rules[] says which element may appear in which, with which
 *   attributes, whether once only, and whether it holds text or nothing.
 *   The core skips what the table does not know, and a second copy of a
 *   once-only element, after the hooks here have reported them (unknown
 *   elements are warnings, repeats errors).
 * - The hooks only build the model: the element that opens becomes a
 *   metric, group or source (the current one, ps->metric ...), or fills
 *   in the current one; a text element's text goes to its slot when it
 *   closes.  Values are checked after the parse (metricdef_check.c).  A
 *   file that is not well-formed, or whose root is not
 *   <metricdefinitions>, gets one diagnostic and no content: reporting
 *   what a broken parse left behind would only add noise.
 * - Everything is recorded with the position of its element's start tag.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef_i.h"

enum kind {
	K_DOC = XMLCHECK_DOC, /* outside the root element */
	K_ROOT,
	K_METRIC,
	K_M_UNITS,
	K_M_DATA_TYPE,
	K_M_DOMAIN,
	K_M_ONE_PER_NODE,
	K_M_BACKFILL,
	K_M_ENABLED,
	K_M_SOURCE,
	K_DISPLAY,
	K_D_DESCRIPTION,
	K_D_DISPLAY_NAME,
	K_D_TYPE,
	K_D_COLOUR,
	K_D_REL,
	K_D_AUTO_DISPLAY_FACTOR,
	K_D_ACCUMULATE,
	K_GROUP,
	K_G_DISPLAY_NAME,
	K_G_DESCRIPTION,
	K_G_METRIC,
	K_SOURCE,
	K_S_LIBRARY,
	K_S_PRELOAD,
	K_S_FUNCTIONS,
	K_S_START,
	K_S_STOP,
};

#define ONCE XMLCHECK_ONCE
#define TEXT XMLCHECK_TEXT
#define EMPTY XMLCHECK_EMPTY
#define EXT XMLCHECK_EXT /* Arm MAP extension: accepted, not advertised */

static const char *const no_attrs[] = {NULL};
static const char *const root_attrs[] = {"version", NULL};
static const char *const id_attrs[] = {"id", NULL};
static const char *const ref_attrs[] = {"ref", NULL};
static const char *const source_ref_attrs[] = {
	"ref", "functionName", "divideBySampleTime", NULL};
static const char *const rel_attrs[] = {"type", "name", NULL};

static const struct xmlcheck_rule rules[] = {
	{K_DOC, "metricdefinitions", K_ROOT, ONCE, root_attrs},
	{K_ROOT, "metric", K_METRIC, 0, id_attrs},
	{K_ROOT, "metricGroup", K_GROUP, 0, id_attrs},
	{K_ROOT, "source", K_SOURCE, 0, id_attrs},
	{K_METRIC, "units", K_M_UNITS, ONCE | TEXT, no_attrs},
	{K_METRIC, "dataType", K_M_DATA_TYPE, ONCE | TEXT, no_attrs},
	{K_METRIC, "domain", K_M_DOMAIN, ONCE | TEXT, no_attrs},
	{K_METRIC, "onePerNode", K_M_ONE_PER_NODE, ONCE | TEXT, no_attrs},
	{K_METRIC, "backfill", K_M_BACKFILL, ONCE | TEXT, no_attrs},
	{K_METRIC, "source", K_M_SOURCE, ONCE | EMPTY, source_ref_attrs},
	{K_METRIC, "display", K_DISPLAY, ONCE, no_attrs},
	{K_METRIC, "enabled", K_M_ENABLED, ONCE | TEXT | EXT, no_attrs},
	{K_DISPLAY, "description", K_D_DESCRIPTION, ONCE | TEXT, no_attrs},
	{K_DISPLAY, "displayName", K_D_DISPLAY_NAME, ONCE | TEXT, no_attrs},
	{K_DISPLAY, "type", K_D_TYPE, ONCE | TEXT, no_attrs},
	{K_DISPLAY, "colour", K_D_COLOUR, ONCE | TEXT, no_attrs},
	{K_DISPLAY, "rel", K_D_REL, EMPTY, rel_attrs},
	{K_DISPLAY, "autoDisplayFactor", K_D_AUTO_DISPLAY_FACTOR,
	 ONCE | TEXT | EXT, no_attrs},
	{K_DISPLAY, "accumulate", K_D_ACCUMULATE, ONCE | TEXT | EXT, no_attrs},
	{K_GROUP, "displayName", K_G_DISPLAY_NAME, ONCE | TEXT, no_attrs},
	{K_GROUP, "description", K_G_DESCRIPTION, ONCE | TEXT, no_attrs},
	{K_GROUP, "metric", K_G_METRIC, EMPTY, ref_attrs},
	{K_SOURCE, "sharedLibrary", K_S_LIBRARY, ONCE | TEXT, no_attrs},
	{K_SOURCE, "preload", K_S_PRELOAD, TEXT, no_attrs},
	{K_SOURCE, "functions", K_S_FUNCTIONS, ONCE, no_attrs},
	{K_S_FUNCTIONS, "start", K_S_START, ONCE | TEXT, no_attrs},
	{K_S_FUNCTIONS, "stop", K_S_STOP, ONCE | TEXT, no_attrs},
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))
_Static_assert(NRULES <= XMLCHECK_MAX_RULES, "rules fit the core's frames");

struct parse {
	struct xmlcheck x;
	struct metricdef *md;
	struct metricdef_file *f;
	struct metricdef_metric *metric;  /* the open <metric>, or NULL */
	struct metricdef_group *group;
	struct metricdef_source *source;
};

static struct metricdef_pos pos_of(struct xmlcheck_pos p)
{
	return (struct metricdef_pos){p.line, p.col};
}

static char *copy_of(struct parse *ps, const char *s)
{
	return xmlcheck_strdup(&ps->md->md_oom, s);
}

/* A copy of attribute name of atts; NULL when it is absent. */
static char *attr_copy(struct parse *ps, const XML_Char **atts,
		       const char *name)
{
	return copy_of(ps, xmlcheck_attr(atts, name));
}

/* The descriptor of the open element of kind k, with its id when it is a
 * metric, group or source. */
static char *parent_elem(struct parse *ps, char *dst, size_t n,
			 const struct xmlcheck_frame *fr)
{
	const char *id = NULL;
	if (fr->xf_kind == K_METRIC)
		id = ps->metric->m_id;
	else if (fr->xf_kind == K_GROUP)
		id = ps->group->g_id;
	else if (fr->xf_kind == K_SOURCE)
		id = ps->source->s_id;
	return xmlcheck_elem(dst, n, fr->xf_rule->xr_name, 1, "id", id);
}

static void on_unknown(struct xmlcheck *x, struct xmlcheck_pos pos,
		       const char *name, const struct xmlcheck_frame *top)
{
	char el[XMLCHECK_ELEM_MAX], pel[XMLCHECK_ELEM_MAX];
	unsigned flags = top->xf_rule->xr_flags;
	if (!(flags & (TEXT | EMPTY))) {
		xmlcheck_unknown(x, pos, name, top, false);
		return;
	}
	xmlcheck_elem(pel, sizeof(pel), top->xf_rule->xr_name, 0);
	xmlcheck_diag(x, pos, XMLCHECK_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		      xmlcheck_elem(el, sizeof(el), name, 0),
		      "element inside %s, ignored; %s holds %s", pel, pel,
		      flags & TEXT ? "text only" : "attributes only");
}

static void on_repeated(struct xmlcheck *x, struct xmlcheck_pos pos,
			const struct xmlcheck_rule *r,
			const struct xmlcheck_frame *top,
			struct xmlcheck_pos first)
{
	char el[XMLCHECK_ELEM_MAX], pel[XMLCHECK_ELEM_MAX];
	xmlcheck_diag(x, pos, XMLCHECK_ERROR, METRICDEF_R_REPEATED,
		      xmlcheck_elem(el, sizeof(el), r->xr_name, 0),
		      "more than one <%s> in %s (the first is at line %u); "
		      "keep only one", r->xr_name,
		      parent_elem(x->xc_ctx, pel, sizeof(pel), top),
		      first.line);
}

static void on_stray(struct xmlcheck *x, struct xmlcheck_pos pos,
		     const struct xmlcheck_frame *top, const char *text)
{
	char q[XMLCHECK_QBUF], pel[XMLCHECK_ELEM_MAX];
	parent_elem(x->xc_ctx, pel, sizeof(pel), top);
	xmlcheck_diag(x, pos, XMLCHECK_WARNING, METRICDEF_R_TEXT, pel,
		      "text %s outside any element, ignored; %s holds %s",
		      xmlcheck_quote(q, sizeof(q), text), pel,
		      top->xf_rule->xr_flags & EMPTY ? "attributes only"
						     : "elements only");
}

static void open_root(struct parse *ps, struct xmlcheck_pos pos,
		      const XML_Char **atts)
{
	char el[XMLCHECK_ELEM_MAX], q[96];
	const char *v = xmlcheck_attr(atts, "version");
	if (!v)
		xmlcheck_diag(&ps->x, pos, XMLCHECK_ERROR, METRICDEF_R_VERSION,
			      "<metricdefinitions>",
			      "no version attribute; add version=\"1\"");
	else if (strcmp(v, "1"))
		xmlcheck_diag(&ps->x, pos, XMLCHECK_ERROR, METRICDEF_R_VERSION,
			      xmlcheck_elem(el, sizeof(el),
					    "metricdefinitions", 1, "version",
					    v),
			      "version %s is not supported; this mapsample "
			      "reads version=\"1\"",
			      xmlcheck_quote(q, sizeof(q), v));
}

/* A new metric, group or source of the file (NULL: out of memory): a
 * zeroed object of size bytes added to the array *pp of pointers. */
static void *new_object(struct parse *ps, void *pp, size_t *cap, size_t *n,
			size_t size)
{
	void *o = calloc(1, size), **slot;
	if (!o || !(slot = xmlcheck_push(&ps->md->md_oom, pp, cap, n,
					 sizeof(void *)))) {
		free(o);
		ps->md->md_oom = true;
		return NULL;
	}
	*slot = o;
	return o;
}

static void on_open(struct xmlcheck *x, const struct xmlcheck_frame *fr,
		    const XML_Char **atts)
{
	struct parse *ps = x->xc_ctx;
	struct metricdef_file *f = ps->f;
	struct metricdef_pos pos = pos_of(fr->xf_pos);
	struct metricdef_metric *m = ps->metric;
	struct metricdef_group *g = ps->group;
	struct metricdef_source *s = ps->source;
	struct metricdef_rel *r;
	struct metricdef_ref *gr;

	switch (fr->xf_kind) {
	case K_ROOT:
		open_root(ps, fr->xf_pos, atts);
		break;
	case K_METRIC:
		if (!(m = new_object(ps, &f->f_metrics, &f->f_capmetrics,
				     &f->f_nmetrics, sizeof(*m))))
			return;
		m->m_file = f;
		m->m_pos = pos;
		m->m_id = attr_copy(ps, atts, "id");
		ps->metric = m;
		break;
	case K_M_SOURCE:
		m->m_source_pos = pos;
		m->m_source_ref = attr_copy(ps, atts, "ref");
		m->m_function = attr_copy(ps, atts, "functionName");
		m->m_divide_text = attr_copy(ps, atts, "divideBySampleTime");
		break;
	case K_DISPLAY:
		m->m_display_pos = pos;
		break;
	case K_D_REL:
		if (!(r = xmlcheck_push(&ps->md->md_oom, &m->m_rels,
					&m->m_caprels, &m->m_nrels,
					sizeof(*r))))
			return;
		r->r_pos = pos;
		r->r_type = attr_copy(ps, atts, "type");
		r->r_name = attr_copy(ps, atts, "name");
		break;
	case K_GROUP:
		if (!(g = new_object(ps, &f->f_groups, &f->f_capgroups,
				     &f->f_ngroups, sizeof(*g))))
			return;
		g->g_file = f;
		g->g_pos = pos;
		g->g_id = attr_copy(ps, atts, "id");
		ps->group = g;
		break;
	case K_G_METRIC:
		if (!(gr = xmlcheck_push(&ps->md->md_oom, &g->g_refs,
					 &g->g_caprefs, &g->g_nrefs,
					 sizeof(*gr))))
			return;
		gr->gr_pos = pos;
		gr->gr_ref = attr_copy(ps, atts, "ref");
		break;
	case K_SOURCE:
		if (!(s = new_object(ps, &f->f_sources, &f->f_capsources,
				     &f->f_nsources, sizeof(*s))))
			return;
		s->s_file = f;
		s->s_pos = pos;
		s->s_id = attr_copy(ps, atts, "id");
		ps->source = s;
		break;
	case K_S_FUNCTIONS:
		s->s_functions_pos = pos;
		break;
	default:
		break;
	}
}

/* Where the text of a TEXT element of kind k goes. */
static struct metricdef_text *text_slot(struct parse *ps, int k)
{
	struct metricdef_metric *m = ps->metric;
	struct metricdef_group *g = ps->group;
	struct metricdef_source *s = ps->source;
	switch (k) {
	case K_M_UNITS: return &m->m_units;
	case K_M_DATA_TYPE: return &m->m_data_type_text;
	case K_M_DOMAIN: return &m->m_domain;
	case K_M_ONE_PER_NODE: return &m->m_one_per_node_text;
	case K_M_BACKFILL: return &m->m_backfill_text;
	case K_M_ENABLED: return &m->m_enabled;
	case K_D_DESCRIPTION: return &m->m_description;
	case K_D_DISPLAY_NAME: return &m->m_display_name;
	case K_D_TYPE: return &m->m_type;
	case K_D_COLOUR: return &m->m_colour;
	case K_D_AUTO_DISPLAY_FACTOR: return &m->m_auto_display_factor;
	case K_D_ACCUMULATE: return &m->m_accumulate;
	case K_G_DISPLAY_NAME: return &g->g_display_name;
	case K_G_DESCRIPTION: return &g->g_description;
	case K_S_LIBRARY: return &s->s_library;
	case K_S_START: return &s->s_start;
	case K_S_STOP: return &s->s_stop;
	default: return NULL;
	}
}

/* <preload>: libraries separated by white space or ':'. */
static void add_preloads(struct parse *ps, struct metricdef_pos pos,
			 char *list)
{
	struct metricdef_source *s = ps->source;
	char *save = NULL;
	bool any = false;
	for (char *t = strtok_r(list, " \t\r\n:", &save); t;
	     t = strtok_r(NULL, " \t\r\n:", &save)) {
		struct metricdef_preload *l = xmlcheck_push(
			&ps->md->md_oom, &s->s_preloads, &s->s_cappreloads,
			&s->s_npreloads, sizeof(*l));
		if (!l)
			return;
		l->l_pos = pos;
		l->l_name = copy_of(ps, t);
		any = true;
	}
	if (!any)
		metricdef_diag(ps->md, ps->f, NULL, pos, METRICDEF_WARNING,
			       METRICDEF_R_EMPTY, "<preload>",
			       "empty, ignored; name a library to preload "
			       "or remove the element");
}

static void on_close(struct xmlcheck *x, const struct xmlcheck_frame *fr,
		     char *text)
{
	struct parse *ps = x->xc_ctx;
	struct metricdef_text *slot;
	if (fr->xf_kind == K_S_PRELOAD) {
		add_preloads(ps, pos_of(fr->xf_pos), text);
	} else if (text && (slot = text_slot(ps, fr->xf_kind)) &&
		   !slot->t_val) {
		slot->t_val = copy_of(ps, text);
		slot->t_pos = pos_of(fr->xf_pos);
	} else if (fr->xf_kind == K_METRIC) {
		ps->metric = NULL;
	} else if (fr->xf_kind == K_GROUP) {
		ps->group = NULL;
	} else if (fr->xf_kind == K_SOURCE) {
		ps->source = NULL;
	}
}

static const struct xmlcheck_grammar grammar = {
	.xg_rules = rules,
	.xg_nrules = NRULES,
	.xg_r_xml = METRICDEF_R_XML,
	.xg_r_root = METRICDEF_R_ROOT,
	.xg_r_unknown_element = METRICDEF_R_UNKNOWN_ELEMENT,
	.xg_r_unknown_attribute = METRICDEF_R_UNKNOWN_ATTRIBUTE,
	.xg_bad_root =
		"the root element must be <metricdefinitions "
		"version=\"1\">; this is not a metric definition file",
	.xg_unknown = on_unknown,
	.xg_repeated = on_repeated,
	.xg_open = on_open,
	.xg_close = on_close,
	.xg_stray = on_stray,
};

void metricdef_parse(struct metricdef *md, struct metricdef_file *f,
		     const void *buf, size_t len)
{
	struct parse ps;

	if (len > METRICDEF_MAX_FILE_SIZE) {
		metricdef_too_large(md, f);
		return;
	}
	memset(&ps, 0, sizeof(ps));
	ps.md = md;
	ps.f = f;
	xmlcheck_init(&ps.x, &grammar, &ps, md->md_log, f->f_seq, f->f_path);
	xmlcheck_parse(&ps.x, buf, len);
	if (ps.x.xc_failed)
		f->f_unreadable = true;
	if (f->f_unreadable || md->md_oom)
		metricdef_clear_file(f);
	else
		metricdef_check_file(md, f);
}
