/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef.c: reads metric definition files (mapsample-metrics(5)) into
 * the model of metricdef.h and checks them, one diagnostic per problem.
 *
 * DESIGN NOTES
 * - expat parses each file in one call.  The handlers only build the
 *   model: a table (rules[]) says which element may appear in which, with
 *   which attributes, whether once only, and whether it holds text.
 *   Elements the table does not know are skipped whole after one warning;
 *   a second copy of a once-only element is an error and is skipped too.
 * - Values are checked after the parse, in check_file(): required parts,
 *   value syntax, references inside the file, ids already used by earlier
 *   files.  A file that is not well-formed, or whose root is not
 *   <metricdefinitions>, gets one diagnostic and no content: reporting
 *   what a broken parse left behind would only add noise.
 * - Everything is recorded with the position of its element's start tag;
 *   expat gives no positions for attributes.
 * - Out of memory is sticky (md->md_oom): handlers stop the parser, the
 *   checks skip, the public function returns MAPS_ENOMEM.
 * - Nothing here loads libraries (check.c) or lists directories
 *   (search.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <expat.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef_i.h"

const char *const metricdef_types[] = {
	"cpu_time", "energy", "instructions", "io", "memory", "mpi", "other",
	"interrupts", NULL,
};

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

char *metricdef_quote(char *dst, size_t n, const char *s)
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
		if (used >= METRICDEF_QUOTE_MAX && (c < 0x80 || c >= 0xc0)) {
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

char *metricdef_elem(char *dst, size_t n, const char *name, int nattr, ...)
{
	char q[METRICDEF_QUOTE_MAX * 8 + 16];
	size_t len = 0;
	va_list ap;
	/* the name may come from the file: show it as a quoted value would
	 * be shown, without the quotes */
	metricdef_quote(q, sizeof(q), name);
	q[strlen(q) - 1] = '\0';
	append(dst, n, &len, "<%s", q + 1);
	va_start(ap, nattr);
	for (int i = 0; i < nattr; i++) {
		const char *a = va_arg(ap, const char *);
		const char *v = va_arg(ap, const char *);
		if (!v)
			continue;
		metricdef_quote(q, sizeof(q), v);
		append(dst, n, &len, " %s=%s", a, q);
	}
	va_end(ap);
	append(dst, n, &len, ">");
	return dst;
}

char *metricdef_strdup(struct metricdef *md, const char *s)
{
	char *d;
	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		md->md_oom = true;
	return d;
}

static void add_diag(struct metricdef *md, struct metricdef_file *f,
		     const char *path, struct metricdef_pos pos,
		     enum metricdef_severity sev, enum metricdef_rule rule,
		     char *text)
{
	struct metricdef_diag *d;
	if (!text) {
		md->md_oom = true;
		return;
	}
	if (md->md_ndiags == md->md_diag_cap) {
		size_t cap = md->md_diag_cap ? 2 * md->md_diag_cap : 16;
		d = realloc(md->md_diags, cap * sizeof(*d));
		if (!d) {
			free(text);
			md->md_oom = true;
			return;
		}
		md->md_diags = d;
		md->md_diag_cap = cap;
	}
	d = &md->md_diags[md->md_ndiags];
	memset(d, 0, sizeof(*d));
	d->d_severity = sev;
	d->d_rule = rule;
	d->d_file = path ? strdup(path) : NULL;
	if (path && !d->d_file) {
		free(text);
		md->md_oom = true;
		return;
	}
	d->d_line = pos.p_line;
	d->d_col = pos.p_line ? pos.p_col : 0;
	d->d_text = text;
	/* no-file diagnostics (directories) sort before the next file's */
	d->d_fileseq = f ? 2 * f->f_seq + 1 : 2 * md->md_nfiles;
	d->d_seq = md->md_ndiags;
	md->md_ndiags++;
}

void metricdef_diag(struct metricdef *md, struct metricdef_file *f,
		    const char *path, struct metricdef_pos pos,
		    enum metricdef_severity sev, enum metricdef_rule rule,
		    const char *elem, const char *fmt, ...)
{
	char *msg = NULL, *text = NULL;
	char where[64];
	va_list ap;
	int rc;

	if (sev == METRICDEF_ERROR) {
		md->md_nerrors++;
		if (f)
			f->f_nerrors++;
	} else {
		md->md_nwarnings++;
		if (f)
			f->f_nwarnings++;
	}
	if (f) {
		path = f->f_path;
		if (f->f_nshown > METRICDEF_MAX_DIAGS)
			return;
		if (f->f_nshown++ == METRICDEF_MAX_DIAGS) {
			if (asprintf(&text, "%s: more than %d problems; the "
				     "others are not shown; fix these first",
				     path, METRICDEF_MAX_DIAGS) < 0)
				text = NULL;
			add_diag(md, f, path, (struct metricdef_pos){0, 0},
				 sev, METRICDEF_R_LIMIT, text);
			return;
		}
	}
	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		md->md_oom = true;
		return;
	}
	if (pos.p_line)
		snprintf(where, sizeof(where), ":%u:%u", pos.p_line,
			 pos.p_col);
	else
		where[0] = '\0';
	if (asprintf(&text, "%s%s: %s%s%s%s", path ? path : "", where,
		     sev == METRICDEF_WARNING ? "warning: " : "",
		     elem ? elem : "", elem ? ": " : "", msg) < 0)
		text = NULL;
	free(msg);
	add_diag(md, f, path, pos, sev, rule, text);
}

static int diag_cmp(const void *a, const void *b)
{
	const struct metricdef_diag *x = a, *y = b;
	unsigned xl = x->d_rule == METRICDEF_R_LIMIT ? UINT_MAX : x->d_line;
	unsigned yl = y->d_rule == METRICDEF_R_LIMIT ? UINT_MAX : y->d_line;
	if (x->d_fileseq != y->d_fileseq)
		return x->d_fileseq < y->d_fileseq ? -1 : 1;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	if (x->d_col != y->d_col)
		return x->d_col < y->d_col ? -1 : 1;
	return x->d_seq < y->d_seq ? -1 : x->d_seq > y->d_seq;
}

void metricdef_sort_diags(struct metricdef *md)
{
	if (md->md_ndiags > 1)
		qsort(md->md_diags, md->md_ndiags, sizeof(*md->md_diags),
		      diag_cmp);
	for (size_t i = 0; i < md->md_ndiags; i++)
		md->md_diags[i].d_seq = i;
}

/* ------------------------------------------------------------------ */
/* Paths */

char *metricdef_absdir(const char *dir)
{
	char *r, *cwd;
	if (!dir || !*dir)
		dir = ".";
	r = realpath(dir, NULL);
	if (r)
		return r;
	if (dir[0] == '/')
		return strdup(dir);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	if (asprintf(&r, "%s/%s", strcmp(cwd, "/") ? cwd : "", dir) < 0)
		r = NULL;
	free(cwd);
	return r;
}

/* The directory part of path ("." when there is none), newly allocated. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* name resolved against dir: name itself when absolute. */
static char *resolve(struct metricdef *md, const char *dir, const char *name)
{
	char *r;
	if (name[0] == '/')
		return metricdef_strdup(md, name);
	if (asprintf(&r, "%s/%s", strcmp(dir, "/") ? dir : "", name) < 0) {
		md->md_oom = true;
		return NULL;
	}
	return r;
}

/* ------------------------------------------------------------------ */
/* The elements */

enum kind {
	K_DOC, /* outside the root element */
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

#define ONCE 0x1u  /* at most once in its parent */
#define TEXT 0x2u  /* holds text only */
#define EMPTY 0x4u /* holds nothing: attributes only */
#define EXT 0x8u   /* Arm MAP extension: accepted, not advertised */

struct rule {
	enum kind parent;
	const char *name;
	enum kind kind;
	unsigned flags;
	const char *const *attrs; /* allowed attributes, NULL-ended */
};

static const char *const no_attrs[] = {NULL};
static const char *const root_attrs[] = {"version", NULL};
static const char *const id_attrs[] = {"id", NULL};
static const char *const ref_attrs[] = {"ref", NULL};
static const char *const source_ref_attrs[] = {
	"ref", "functionName", "divideBySampleTime", NULL};
static const char *const rel_attrs[] = {"type", "name", NULL};

static const struct rule rules[] = {
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

static int find_rule(enum kind parent, const char *name)
{
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].parent == parent && !strcmp(rules[i].name, name))
			return (int)i;
	return -1;
}

/* The rule that makes elements of kind k (each kind has one). */
static const struct rule *rule_of(enum kind k)
{
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].kind == k)
			return &rules[i];
	return NULL;
}

/* "a, b, c": the documented children of parent kind p. */
static void allowed_children(char *dst, size_t n, enum kind p)
{
	size_t len = 0;
	dst[0] = '\0';
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].parent == p && !(rules[i].flags & EXT))
			append(dst, n, &len, "%s%s", len ? ", " : "",
			       rules[i].name);
}

static void allowed_attrs(char *dst, size_t n, const struct rule *r)
{
	size_t len = 0;
	dst[0] = '\0';
	for (size_t i = 0; r->attrs[i]; i++)
		append(dst, n, &len, "%s%s", len ? ", " : "", r->attrs[i]);
	if (!len)
		append(dst, n, &len, "none");
}

/* ------------------------------------------------------------------ */
/* Parsing */

#define MAX_DEPTH 8
#define ELEM_MAX 512

struct frame {
	enum kind kind;
	struct metricdef_pos pos;
	struct metricdef_pos seen[NRULES]; /* first child of each rule */
	bool text_warned;
};

struct parse {
	struct metricdef *md;
	struct metricdef_file *f;
	XML_Parser xp;
	struct frame stack[MAX_DEPTH];
	int depth;              /* stack[0] is K_DOC */
	unsigned skip;          /* depth inside an ignored element */
	char *text;             /* the open TEXT element's text */
	size_t ntext, captext;
	struct metricdef_metric *metric;
	struct metricdef_group *group;
	struct metricdef_source *source;
	bool aborted;           /* we stopped the parser */
};

static struct metricdef_pos here(struct parse *ps)
{
	XML_Size l = XML_GetCurrentLineNumber(ps->xp);
	XML_Size c = XML_GetCurrentColumnNumber(ps->xp);
	struct metricdef_pos p;
	p.p_line = l >= UINT_MAX ? UINT_MAX : (unsigned)l;
	p.p_col = c >= UINT_MAX - 1 ? UINT_MAX : (unsigned)c + 1;
	if (!p.p_line)
		p.p_line = 1;
	return p;
}

static void stop(struct parse *ps)
{
	if (!ps->aborted) {
		ps->aborted = true;
		XML_StopParser(ps->xp, XML_FALSE);
	}
}

static const char *attr(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (!strcmp(atts[i], name))
			return atts[i + 1];
	return NULL;
}

/* Appends p to *v (n elements of size sz); returns the new element,
 * zeroed, or NULL (md_oom set). */
static void *grow(struct metricdef *md, void *vp, size_t *n, size_t sz)
{
	void **v = vp;
	/* capacity: 4, then doubled whenever n reaches a power of two */
	if (*n == 0 || (*n >= 4 && !(*n & (*n - 1)))) {
		size_t ncap = *n ? *n * 2 : 4;
		void *nv = realloc(*v, ncap * sz);
		if (!nv) {
			md->md_oom = true;
			return NULL;
		}
		*v = nv;
	}
	char *e = (char *)*v + *n * sz;
	memset(e, 0, sz);
	(*n)++;
	return e;
}

/* Adds a pointer to an array of pointers. */
static int push_ptr(struct metricdef *md, void *vp, size_t *n, void *p)
{
	void ***v = vp;
	void **slot = grow(md, v, n, sizeof(void *));
	if (!slot)
		return -1;
	*slot = p;
	return 0;
}

static char *elem_of(char *dst, const char *name, const XML_Char **atts,
		     const char *a1, const char *a2)
{
	return metricdef_elem(dst, ELEM_MAX, name, 2, a1,
			      a1 ? attr(atts, a1) : NULL, a2,
			      a2 ? attr(atts, a2) : NULL);
}

static void open_element(struct parse *ps, enum kind k,
			 struct metricdef_pos pos, const XML_Char **atts)
{
	struct metricdef *md = ps->md;
	struct metricdef_file *f = ps->f;
	char el[ELEM_MAX];
	const char *v;

	switch (k) {
	case K_ROOT:
		v = attr(atts, "version");
		if (!v)
			metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
				       METRICDEF_R_VERSION,
				       "<metricdefinitions>",
				       "no version attribute; add "
				       "version=\"1\"");
		else if (strcmp(v, "1"))
			metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
				       METRICDEF_R_VERSION,
				       elem_of(el, "metricdefinitions", atts,
					       "version", NULL),
				       "version %s is not supported; this "
				       "mapsample reads version=\"1\"",
				       metricdef_quote((char[96]){0}, 96, v));
		break;
	case K_METRIC: {
		struct metricdef_metric *m = calloc(1, sizeof(*m));
		if (!m || push_ptr(md, &f->f_metrics, &f->f_nmetrics, m)) {
			free(m);
			md->md_oom = true;
			return;
		}
		m->m_file = f;
		m->m_pos = pos;
		m->m_id = metricdef_strdup(md, attr(atts, "id"));
		ps->metric = m;
		break;
	}
	case K_M_SOURCE: {
		struct metricdef_metric *m = ps->metric;
		m->m_source_pos = pos;
		m->m_source_ref = metricdef_strdup(md, attr(atts, "ref"));
		m->m_function = metricdef_strdup(md,
						 attr(atts, "functionName"));
		m->m_divide_text = metricdef_strdup(
			md, attr(atts, "divideBySampleTime"));
		break;
	}
	case K_DISPLAY:
		ps->metric->m_display_pos = pos;
		break;
	case K_D_REL: {
		struct metricdef_metric *m = ps->metric;
		struct metricdef_rel *r =
			grow(md, &m->m_rels, &m->m_nrels, sizeof(*r));
		if (!r)
			return;
		r->r_pos = pos;
		r->r_type = metricdef_strdup(md, attr(atts, "type"));
		r->r_name = metricdef_strdup(md, attr(atts, "name"));
		break;
	}
	case K_GROUP: {
		struct metricdef_group *g = calloc(1, sizeof(*g));
		if (!g || push_ptr(md, &f->f_groups, &f->f_ngroups, g)) {
			free(g);
			md->md_oom = true;
			return;
		}
		g->g_file = f;
		g->g_pos = pos;
		g->g_id = metricdef_strdup(md, attr(atts, "id"));
		ps->group = g;
		break;
	}
	case K_G_METRIC: {
		struct metricdef_group *g = ps->group;
		struct metricdef_ref *r =
			grow(md, &g->g_refs, &g->g_nrefs, sizeof(*r));
		if (!r)
			return;
		r->gr_pos = pos;
		r->gr_ref = metricdef_strdup(md, attr(atts, "ref"));
		break;
	}
	case K_SOURCE: {
		struct metricdef_source *s = calloc(1, sizeof(*s));
		if (!s || push_ptr(md, &f->f_sources, &f->f_nsources, s)) {
			free(s);
			md->md_oom = true;
			return;
		}
		s->s_file = f;
		s->s_pos = pos;
		s->s_id = metricdef_strdup(md, attr(atts, "id"));
		ps->source = s;
		break;
	}
	case K_S_FUNCTIONS:
		ps->source->s_functions_pos = pos;
		break;
	default:
		break;
	}
}

/* Where the text of a TEXT element of kind k goes. */
static struct metricdef_text *text_slot(struct parse *ps, enum kind k)
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

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The text collected, without surrounding white space, NUL-terminated in
 * place; returns a pointer into ps->text. */
static char *trimmed(struct parse *ps)
{
	char *s = ps->text ? ps->text : (char *)"";
	size_t n = ps->text ? ps->ntext : 0;
	while (n && is_space((unsigned char)s[n - 1]))
		n--;
	if (ps->text)
		s[n] = '\0';
	while (*s && is_space((unsigned char)*s))
		s++;
	return s;
}

static void add_preloads(struct parse *ps, struct metricdef_pos pos,
			 char *list)
{
	struct metricdef *md = ps->md;
	struct metricdef_source *s = ps->source;
	char *save = NULL;
	bool any = false;
	for (char *t = strtok_r(list, " \t\r\n:", &save); t;
	     t = strtok_r(NULL, " \t\r\n:", &save)) {
		struct metricdef_preload *l =
			grow(md, &s->s_preloads, &s->s_npreloads, sizeof(*l));
		if (!l)
			return;
		l->l_pos = pos;
		l->l_name = metricdef_strdup(md, t);
		any = true;
	}
	if (!any)
		metricdef_diag(md, ps->f, NULL, pos, METRICDEF_WARNING,
			       METRICDEF_R_EMPTY, "<preload>",
			       "empty, ignored; name a library to preload "
			       "or remove the element");
}

static void close_element(struct parse *ps, struct frame *fr)
{
	char *t;
	struct metricdef_text *slot;
	if (!(rule_of(fr->kind)->flags & TEXT))
		return;
	t = trimmed(ps);
	if (fr->kind == K_S_PRELOAD) {
		add_preloads(ps, fr->pos, t);
		return;
	}
	slot = text_slot(ps, fr->kind);
	if (slot && !slot->t_val) {
		slot->t_val = metricdef_strdup(ps->md, t);
		slot->t_pos = fr->pos;
	}
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
			     const XML_Char **atts)
{
	struct parse *ps = ud;
	struct metricdef *md = ps->md;
	struct frame *top;
	const struct rule *r;
	struct metricdef_pos pos;
	char el[ELEM_MAX], list[ELEM_MAX], pel[ELEM_MAX];
	int ri;

	if (md->md_oom || ps->aborted) {
		stop(ps);
		return;
	}
	if (ps->skip) {
		ps->skip++;
		return;
	}
	pos = here(ps);
	top = &ps->stack[ps->depth - 1];
	ri = find_rule(top->kind, name);
	if (top->kind == K_DOC && ri < 0) {
		metricdef_diag(md, ps->f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_ROOT,
			       metricdef_elem(el, sizeof(el), name, 0),
			       "the root element must be <metricdefinitions "
			       "version=\"1\">; this is not a metric "
			       "definition file");
		ps->f->f_unreadable = true;
		stop(ps);
		return;
	}
	if (ri < 0 || ps->depth >= MAX_DEPTH) {
		const struct rule *pr = rule_of(top->kind);
		metricdef_elem(pel, sizeof(pel), pr->name, 0);
		metricdef_elem(el, sizeof(el), name, 0);
		if (pr->flags & TEXT)
			metricdef_diag(md, ps->f, NULL, pos,
				       METRICDEF_WARNING,
				       METRICDEF_R_UNKNOWN_ELEMENT, el,
				       "element inside %s, ignored; %s holds "
				       "text only", pel, pel);
		else if (pr->flags & EMPTY)
			metricdef_diag(md, ps->f, NULL, pos,
				       METRICDEF_WARNING,
				       METRICDEF_R_UNKNOWN_ELEMENT, el,
				       "element inside %s, ignored; %s holds "
				       "attributes only", pel, pel);
		else {
			allowed_children(list, sizeof(list), top->kind);
			metricdef_diag(md, ps->f, NULL, pos,
				       METRICDEF_WARNING,
				       METRICDEF_R_UNKNOWN_ELEMENT, el,
				       "unknown element in %s, ignored; "
				       "allowed there: %s", pel, list);
		}
		ps->skip = 1;
		return;
	}
	r = &rules[ri];
	if ((r->flags & ONCE) && top->seen[ri].p_line) {
		const struct rule *pr = rule_of(top->kind);
		const char *pid = NULL;
		if (top->kind == K_METRIC)
			pid = ps->metric->m_id;
		else if (top->kind == K_GROUP)
			pid = ps->group->g_id;
		else if (top->kind == K_SOURCE)
			pid = ps->source->s_id;
		metricdef_elem(pel, sizeof(pel), pr->name, 1, "id", pid);
		metricdef_diag(md, ps->f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_REPEATED,
			       metricdef_elem(el, sizeof(el), name, 0),
			       "more than one <%s> in %s (the first is at "
			       "line %u); keep only one", r->name, pel,
			       top->seen[ri].p_line);
		ps->skip = 1;
		return;
	}
	top->seen[ri] = pos;
	for (size_t i = 0; atts[i]; i += 2) {
		bool ok = false;
		for (size_t j = 0; r->attrs[j]; j++)
			if (!strcmp(atts[i], r->attrs[j]))
				ok = true;
		if (ok)
			continue;
		allowed_attrs(list, sizeof(list), r);
		metricdef_diag(md, ps->f, NULL, pos, METRICDEF_WARNING,
			       METRICDEF_R_UNKNOWN_ATTRIBUTE,
			       metricdef_elem(el, sizeof(el), name, 1,
					      atts[i], atts[i + 1]),
			       "unknown attribute %s of <%s>, ignored; "
			       "allowed: %s",
			       metricdef_quote((char[96]){0}, 96, atts[i]),
			       r->name, list);
	}
	ps->stack[ps->depth].kind = r->kind;
	ps->stack[ps->depth].pos = pos;
	memset(ps->stack[ps->depth].seen, 0,
	       sizeof(ps->stack[ps->depth].seen));
	ps->stack[ps->depth].text_warned = false;
	ps->depth++;
	ps->ntext = 0;
	open_element(ps, r->kind, pos, atts);
	if (md->md_oom)
		stop(ps);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct parse *ps = ud;
	struct frame *fr;
	(void)name;
	if (ps->md->md_oom || ps->aborted)
		return;
	if (ps->skip) {
		ps->skip--;
		return;
	}
	if (ps->depth <= 1)
		return;
	fr = &ps->stack[--ps->depth];
	close_element(ps, fr);
	if (fr->kind == K_METRIC)
		ps->metric = NULL;
	else if (fr->kind == K_GROUP)
		ps->group = NULL;
	else if (fr->kind == K_SOURCE)
		ps->source = NULL;
	if (ps->md->md_oom)
		stop(ps);
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
	struct parse *ps = ud;
	struct frame *top;
	const struct rule *r;
	if (ps->md->md_oom || ps->aborted || ps->skip || ps->depth <= 1 ||
	    len <= 0)
		return;
	top = &ps->stack[ps->depth - 1];
	r = rule_of(top->kind);
	if (r->flags & TEXT) {
		if (ps->ntext + (size_t)len + 1 > ps->captext) {
			size_t cap = ps->captext ? ps->captext : 64;
			while (cap < ps->ntext + (size_t)len + 1)
				cap *= 2;
			char *t = realloc(ps->text, cap);
			if (!t) {
				ps->md->md_oom = true;
				stop(ps);
				return;
			}
			ps->text = t;
			ps->captext = cap;
		}
		memcpy(ps->text + ps->ntext, s, (size_t)len);
		ps->ntext += (size_t)len;
		ps->text[ps->ntext] = '\0';
		return;
	}
	if (top->text_warned)
		return;
	int i = 0;
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	if (i == len)
		return;
	top->text_warned = true;
	/* point at the text itself, past the white space before it */
	struct metricdef_pos tp = here(ps);
	for (int j = 0; j < i; j++) {
		if (s[j] == '\n') {
			tp.p_line++;
			tp.p_col = 1;
		} else {
			tp.p_col++;
		}
	}
	char snippet[METRICDEF_QUOTE_MAX + 8], q[METRICDEF_QUOTE_MAX * 8 + 16];
	char pel[ELEM_MAX];
	int n = len - i;
	if (n > METRICDEF_QUOTE_MAX + 4)
		n = METRICDEF_QUOTE_MAX + 4;
	memcpy(snippet, s + i, (size_t)n);
	snippet[n] = '\0';
	/* no trailing white space in the message */
	while (n && is_space((unsigned char)snippet[n - 1]))
		snippet[--n] = '\0';
	const char *pid = NULL;
	if (top->kind == K_METRIC)
		pid = ps->metric->m_id;
	else if (top->kind == K_GROUP)
		pid = ps->group->g_id;
	else if (top->kind == K_SOURCE)
		pid = ps->source->s_id;
	metricdef_elem(pel, sizeof(pel), r->name, 1, "id", pid);
	metricdef_diag(ps->md, ps->f, NULL, tp, METRICDEF_WARNING,
		       METRICDEF_R_TEXT, pel,
		       "text %s outside any element, ignored; %s holds "
		       "%s",
		       metricdef_quote(q, sizeof(q), snippet), pel,
		       r->flags & EMPTY ? "attributes only" : "elements only");
}

/* ------------------------------------------------------------------ */
/* Checks */

static int parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(s, "false") || !strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

static bool has_space(const char *s)
{
	for (; *s; s++)
		if (is_space((unsigned char)*s))
			return true;
	return false;
}

/* A name dlsym() can look up: letters, digits, '_', '$' and '.', not
 * starting with a digit (C, C++ mangled, Fortran names). */
static bool is_symbol(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '$' ||
		      c == '.'))
			return false;
	}
	return true;
}

static void check_bool_text(struct metricdef *md, struct metricdef_file *f,
			    const struct metricdef_text *t, const char *name,
			    bool *out, enum metricdef_severity sev)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	if (!t->t_val)
		return;
	if (parse_bool(t->t_val, out))
		metricdef_diag(md, f, NULL, t->t_pos, sev,
			       METRICDEF_R_BOOLEAN,
			       metricdef_elem(el, sizeof(el), name, 0),
			       "%s is not a boolean; use true or false",
			       metricdef_quote(q, sizeof(q), t->t_val));
}

/* Checks an id attribute; returns whether it can be indexed. */
static bool check_id(struct metricdef *md, struct metricdef_file *f,
		     struct metricdef_pos pos, const char *elem_name,
		     const char *id, const char *what, const char *example)
{
	char el[ELEM_MAX];
	if (!id) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_MISSING,
			       metricdef_elem(el, sizeof(el), elem_name, 0),
			       "no id attribute; add id=\"...\" naming the "
			       "%s, e.g. id=\"%s\"", what, example);
		return false;
	}
	if (!*id) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_EMPTY,
			       metricdef_elem(el, sizeof(el), elem_name, 1,
					      "id", id),
			       "empty id; give the %s a name, e.g. id=\"%s\"",
			       what, example);
		return false;
	}
	if (has_space(id))
		metricdef_diag(md, f, NULL, pos, METRICDEF_WARNING,
			       METRICDEF_R_ID,
			       metricdef_elem(el, sizeof(el), elem_name, 1,
					      "id", id),
			       "id contains white space; use a name without, "
			       "e.g. id=\"%s\"", example);
	return true;
}

/* Reports a second use of an id: "first" is where it was first used. */
static void dup_id(struct metricdef *md, struct metricdef_file *f,
		   struct metricdef_pos pos, const char *elem_name,
		   const char *id, const char *what,
		   const struct metricdef_file *ff, struct metricdef_pos fpos)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
		       METRICDEF_R_DUPLICATE_ID,
		       metricdef_elem(el, sizeof(el), elem_name, 1, "id", id),
		       "duplicate %s id %s, first defined at %s:%u:%u; give "
		       "each %s its own id%s",
		       what, metricdef_quote(q, sizeof(q), id), ff->f_path,
		       fpos.p_line, fpos.p_col, what,
		       ff == f ? "" : " or remove one of the files");
}

static void check_source(struct metricdef *md, struct metricdef_file *f,
			 struct metricdef_source *s)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	const char *fn[2] = {"start", "stop"};
	struct metricdef_text *ft[2] = {&s->s_start, &s->s_stop};

	check_id(md, f, s->s_pos, "source", s->s_id, "library",
		 "com.example.myplugin_src");
	metricdef_elem(el, sizeof(el), "source", 1, "id", s->s_id);
	if (!s->s_library.t_val)
		metricdef_diag(md, f, NULL, s->s_pos, METRICDEF_ERROR,
			       METRICDEF_R_MISSING, el,
			       "no <sharedLibrary>; add <sharedLibrary>"
			       "libname.so</sharedLibrary> naming the plugin "
			       "library (relative to this file's directory)");
	else if (!*s->s_library.t_val)
		metricdef_diag(md, f, NULL, s->s_library.t_pos,
			       METRICDEF_ERROR, METRICDEF_R_EMPTY,
			       "<sharedLibrary>",
			       "empty; name the plugin library, e.g. "
			       "libname.so (relative to this file's "
			       "directory) or an absolute path");
	else
		s->s_library_path = resolve(md, f->f_dir, s->s_library.t_val);
	for (size_t i = 0; i < s->s_npreloads; i++)
		if (s->s_preloads[i].l_name)
			s->s_preloads[i].l_path = resolve(
				md, f->f_dir, s->s_preloads[i].l_name);
	for (int i = 0; i < 2; i++) {
		char tag[16];
		if (!ft[i]->t_val)
			continue;
		snprintf(tag, sizeof(tag), "<%s>", fn[i]);
		if (!*ft[i]->t_val)
			metricdef_diag(md, f, NULL, ft[i]->t_pos,
				       METRICDEF_ERROR, METRICDEF_R_EMPTY, tag,
				       "empty; name the library's %s function "
				       "or remove the element", fn[i]);
		else if (!is_symbol(ft[i]->t_val))
			metricdef_diag(md, f, NULL, ft[i]->t_pos,
				       METRICDEF_ERROR, METRICDEF_R_SYMBOL,
				       tag,
				       "%s is not a function name; give the "
				       "C symbol name of the %s function",
				       metricdef_quote(q, sizeof(q),
						       ft[i]->t_val),
				       fn[i]);
	}
}

static void check_metric(struct metricdef *md, struct metricdef_file *f,
			 struct metricdef_metric *m,
			 const struct metricdef_index *sources)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	const char *v;

	check_id(md, f, m->m_pos, "metric", m->m_id, "metric",
		 "com.example.myplugin.mymetric");
	metricdef_elem(el, sizeof(el), "metric", 1, "id", m->m_id);

	v = m->m_data_type_text.t_val;
	if (!v)
		metricdef_diag(md, f, NULL, m->m_pos, METRICDEF_ERROR,
			       METRICDEF_R_MISSING, el,
			       "no <dataType>; add <dataType>uint64_t"
			       "</dataType> or <dataType>double</dataType>, "
			       "as the getter returns");
	else if (!strcmp(v, "uint64_t"))
		m->m_data_type = METRICDEF_UINT64;
	else if (!strcmp(v, "double"))
		m->m_data_type = METRICDEF_DOUBLE;
	else
		metricdef_diag(md, f, NULL, m->m_data_type_text.t_pos,
			       METRICDEF_ERROR, METRICDEF_R_DATA_TYPE,
			       "<dataType>",
			       "%s is not a data type; use uint64_t or double",
			       metricdef_quote(q, sizeof(q), v));

	v = m->m_domain.t_val;
	if (v && strcmp(v, "time"))
		metricdef_diag(md, f, NULL, m->m_domain.t_pos, METRICDEF_ERROR,
			       METRICDEF_R_DOMAIN, "<domain>",
			       "%s is not a domain; use time, the only "
			       "domain there is",
			       metricdef_quote(q, sizeof(q), v));

	check_bool_text(md, f, &m->m_one_per_node_text, "onePerNode",
			&m->m_one_per_node, METRICDEF_ERROR);
	check_bool_text(md, f, &m->m_backfill_text, "backfill",
			&m->m_backfill, METRICDEF_ERROR);
	check_bool_text(md, f, &m->m_auto_display_factor, "autoDisplayFactor",
			&(bool){false}, METRICDEF_WARNING);
	check_bool_text(md, f, &m->m_accumulate, "accumulate", &(bool){false},
			METRICDEF_WARNING);

	/* <source ref functionName divideBySampleTime/> */
	if (!m->m_source_pos.p_line) {
		metricdef_diag(md, f, NULL, m->m_pos, METRICDEF_ERROR,
			       METRICDEF_R_MISSING, el,
			       "no <source>; add <source ref=\"...\" "
			       "functionName=\"...\"/> naming the library's "
			       "<source id> and the getter function");
	} else {
		char sel[ELEM_MAX];
		metricdef_elem(sel, sizeof(sel), "source", 2, "ref",
			       m->m_source_ref, "functionName", m->m_function);
		if (!m->m_source_ref)
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_MISSING,
				       sel,
				       "no ref attribute; add ref=\"...\" "
				       "naming a <source id> of this file");
		else if (!*m->m_source_ref)
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_EMPTY, sel,
				       "empty ref; name a <source id> of this "
				       "file");
		else if (!(m->m_source = metricdef_index_get(
				   sources, m->m_source_ref)))
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_SOURCE_REF,
				       metricdef_elem(sel, sizeof(sel),
						      "source", 1, "ref",
						      m->m_source_ref),
				       "no <source id=%s> in this file; add "
				       "it or correct ref",
				       metricdef_quote(q, sizeof(q),
						       m->m_source_ref));
		metricdef_elem(sel, sizeof(sel), "source", 2, "ref",
			       m->m_source_ref, "functionName", m->m_function);
		if (!m->m_function)
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_MISSING,
				       sel,
				       "no functionName attribute; add "
				       "functionName=\"...\" naming the "
				       "getter function in the library");
		else if (!is_symbol(m->m_function))
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR,
				       *m->m_function ? METRICDEF_R_SYMBOL
						      : METRICDEF_R_EMPTY,
				       sel,
				       "functionName %s is not a function "
				       "name; give the C symbol name of the "
				       "getter",
				       metricdef_quote(q, sizeof(q),
						       m->m_function));
		if (m->m_divide_text &&
		    parse_bool(m->m_divide_text, &m->m_divide_by_sample_time))
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_BOOLEAN,
				       metricdef_elem(sel, sizeof(sel),
						      "source", 2, "ref",
						      m->m_source_ref,
						      "divideBySampleTime",
						      m->m_divide_text),
				       "divideBySampleTime %s is not a "
				       "boolean; use true or false",
				       metricdef_quote(q, sizeof(q),
						       m->m_divide_text));
	}

	/* <display> */
	v = m->m_type.t_val;
	if (v) {
		for (size_t i = 0; metricdef_types[i]; i++)
			if (!strcmp(v, metricdef_types[i]))
				m->m_type_known = true;
		if (!m->m_type_known)
			metricdef_diag(md, f, NULL, m->m_type.t_pos,
				       METRICDEF_WARNING,
				       METRICDEF_R_DISPLAY_TYPE, "<type>",
				       "%s is not a metric type; use one of "
				       "cpu_time, energy, instructions, io, "
				       "memory, mpi, other (it is shown as "
				       "other)",
				       metricdef_quote(q, sizeof(q), v));
	}
	v = m->m_colour.t_val;
	if (v && metricdef_colour_parse(v, METRICDEF_COLOUR_PALETTE_OK,
					&m->m_colour_value))
		metricdef_diag(md, f, NULL, m->m_colour.t_pos,
			       METRICDEF_WARNING, METRICDEF_R_COLOUR,
			       "<colour>",
			       "%s is not a colour; use #RGB, #RRGGBB, "
			       "#RRRGGGBBB, #RRRRGGGGBBBB or an SVG colour "
			       "name such as green (the colour of the "
			       "metric's type is used instead)",
			       metricdef_quote(q, sizeof(q), v));
	for (size_t i = 0; i < m->m_nrels; i++) {
		struct metricdef_rel *r = &m->m_rels[i];
		char rel[ELEM_MAX];
		metricdef_elem(rel, sizeof(rel), "rel", 2, "type", r->r_type,
			       "name", r->r_name);
		if (!r->r_type)
			metricdef_diag(md, f, NULL, r->r_pos, METRICDEF_ERROR,
				       METRICDEF_R_MISSING, rel,
				       "no type attribute; add "
				       "type=\"integral\"");
		else if (strcmp(r->r_type, "integral"))
			metricdef_diag(md, f, NULL, r->r_pos, METRICDEF_ERROR,
				       METRICDEF_R_REL_TYPE, rel,
				       "type %s is not supported; use "
				       "type=\"integral\", the only one",
				       metricdef_quote(q, sizeof(q),
						       r->r_type));
		if (!r->r_name || !*r->r_name) {
			metricdef_diag(md, f, NULL, r->r_pos, METRICDEF_ERROR,
				       r->r_name ? METRICDEF_R_EMPTY
						 : METRICDEF_R_MISSING,
				       rel,
				       "no metric named; add name=\"...\" "
				       "naming the metric that is the "
				       "integral of this one");
			r->r_checked = true;
		}
	}
}

static void check_group(struct metricdef *md, struct metricdef_file *f,
			struct metricdef_group *g,
			const struct metricdef_index *metrics)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	check_id(md, f, g->g_pos, "metricGroup", g->g_id, "group",
		 "com.example.myplugin");
	if (!g->g_nrefs)
		metricdef_diag(md, f, NULL, g->g_pos, METRICDEF_WARNING,
			       METRICDEF_R_MISSING,
			       metricdef_elem(el, sizeof(el), "metricGroup", 1,
					      "id", g->g_id),
			       "no <metric ref=\"...\"/>; list the metrics of "
			       "the group");
	for (size_t i = 0; i < g->g_nrefs; i++) {
		struct metricdef_ref *r = &g->g_refs[i];
		metricdef_elem(el, sizeof(el), "metric", 1, "ref", r->gr_ref);
		if (!r->gr_ref || !*r->gr_ref)
			metricdef_diag(md, f, NULL, r->gr_pos, METRICDEF_ERROR,
				       r->gr_ref ? METRICDEF_R_EMPTY
						 : METRICDEF_R_MISSING,
				       el,
				       "no metric named; add ref=\"...\" "
				       "naming a <metric id> of this file");
		else if (!(r->gr_target =
				   metricdef_index_get(metrics, r->gr_ref)))
			metricdef_diag(md, f, NULL, r->gr_pos, METRICDEF_ERROR,
				       METRICDEF_R_GROUP_REF, el,
				       "no <metric id=%s> in this file; "
				       "define it or correct ref",
				       metricdef_quote(q, sizeof(q),
						       r->gr_ref));
	}
}

/* Everything that can be checked in one file, then ids against the files
 * loaded before; adds this file's ids to the set's indexes. */
static void check_file(struct metricdef *md, struct metricdef_file *f)
{
	struct metricdef_index *sources = metricdef_index_new();
	struct metricdef_index *metrics = metricdef_index_new();
	struct metricdef_index *groups = metricdef_index_new();
	if (!sources || !metrics || !groups) {
		md->md_oom = true;
		goto out;
	}

	for (size_t i = 0; i < f->f_nsources; i++) {
		struct metricdef_source *s = f->f_sources[i], *o;
		check_source(md, f, s);
		if (!s->s_id || !*s->s_id)
			continue;
		/* source ids name libraries inside one file only */
		if ((o = metricdef_index_get(sources, s->s_id)))
			dup_id(md, f, s->s_pos, "source", s->s_id, "source", f,
			       o->s_pos);
		else if (metricdef_index_put(sources, s->s_id, s))
			md->md_oom = true;
	}
	for (size_t i = 0; i < f->f_nmetrics; i++) {
		struct metricdef_metric *m = f->f_metrics[i], *o;
		check_metric(md, f, m, sources);
		if (!m->m_id || !*m->m_id)
			continue;
		/* group refs find the file's own first definition even
		 * when an earlier file defined the id too */
		if ((o = metricdef_index_get(metrics, m->m_id))) {
			dup_id(md, f, m->m_pos, "metric", m->m_id, "metric",
			       f, o->m_pos);
			m->m_duplicate = true;
			continue;
		}
		if (metricdef_index_put(metrics, m->m_id, m))
			md->md_oom = true;
		if ((o = metricdef_index_get(md->md_metric_index, m->m_id))) {
			dup_id(md, f, m->m_pos, "metric", m->m_id, "metric",
			       o->m_file, o->m_pos);
			m->m_duplicate = true;
		}
	}
	for (size_t i = 0; i < f->f_ngroups; i++) {
		struct metricdef_group *g = f->f_groups[i], *o;
		check_group(md, f, g, metrics);
		if (!g->g_id || !*g->g_id)
			continue;
		if ((o = metricdef_index_get(groups, g->g_id))) {
			dup_id(md, f, g->g_pos, "metricGroup", g->g_id,
			       "group", f, o->g_pos);
			g->g_duplicate = true;
			continue;
		}
		if (metricdef_index_put(groups, g->g_id, g))
			md->md_oom = true;
		if ((o = metricdef_index_get(md->md_group_index, g->g_id))) {
			dup_id(md, f, g->g_pos, "metricGroup", g->g_id,
			       "group", o->g_file, o->g_pos);
			g->g_duplicate = true;
		}
	}
	/* the first definitions of this file join the set's indexes */
	for (size_t i = 0; i < f->f_nmetrics; i++) {
		struct metricdef_metric *m = f->f_metrics[i];
		if (m->m_id && *m->m_id && !m->m_duplicate &&
		    metricdef_index_put(md->md_metric_index, m->m_id, m))
			md->md_oom = true;
	}
	for (size_t i = 0; i < f->f_ngroups; i++) {
		struct metricdef_group *g = f->f_groups[i];
		if (g->g_id && *g->g_id && !g->g_duplicate &&
		    metricdef_index_put(md->md_group_index, g->g_id, g))
			md->md_oom = true;
	}
out:
	metricdef_index_free(sources);
	metricdef_index_free(metrics);
	metricdef_index_free(groups);
}

/* ------------------------------------------------------------------ */
/* Freeing */

static void free_text(struct metricdef_text *t)
{
	free(t->t_val);
	t->t_val = NULL;
}

static void free_metric(struct metricdef_metric *m)
{
	free(m->m_id);
	free_text(&m->m_units);
	free_text(&m->m_data_type_text);
	free_text(&m->m_domain);
	free_text(&m->m_one_per_node_text);
	free_text(&m->m_backfill_text);
	free_text(&m->m_enabled);
	free(m->m_source_ref);
	free(m->m_function);
	free(m->m_divide_text);
	free_text(&m->m_description);
	free_text(&m->m_display_name);
	free_text(&m->m_type);
	free_text(&m->m_colour);
	free_text(&m->m_auto_display_factor);
	free_text(&m->m_accumulate);
	for (size_t i = 0; i < m->m_nrels; i++) {
		free(m->m_rels[i].r_type);
		free(m->m_rels[i].r_name);
	}
	free(m->m_rels);
	free(m);
}

static void free_group(struct metricdef_group *g)
{
	free(g->g_id);
	free_text(&g->g_display_name);
	free_text(&g->g_description);
	for (size_t i = 0; i < g->g_nrefs; i++)
		free(g->g_refs[i].gr_ref);
	free(g->g_refs);
	free(g);
}

static void free_source(struct metricdef_source *s)
{
	free(s->s_id);
	free_text(&s->s_library);
	free(s->s_library_path);
	for (size_t i = 0; i < s->s_npreloads; i++) {
		free(s->s_preloads[i].l_name);
		free(s->s_preloads[i].l_path);
	}
	free(s->s_preloads);
	free_text(&s->s_start);
	free_text(&s->s_stop);
	free(s);
}

/* Drops what a failed parse left in f. */
static void clear_file(struct metricdef_file *f)
{
	for (size_t i = 0; i < f->f_nmetrics; i++)
		free_metric(f->f_metrics[i]);
	for (size_t i = 0; i < f->f_ngroups; i++)
		free_group(f->f_groups[i]);
	for (size_t i = 0; i < f->f_nsources; i++)
		free_source(f->f_sources[i]);
	free(f->f_metrics);
	free(f->f_groups);
	free(f->f_sources);
	f->f_metrics = NULL;
	f->f_groups = NULL;
	f->f_sources = NULL;
	f->f_nmetrics = f->f_ngroups = f->f_nsources = 0;
}

static void free_file(struct metricdef_file *f)
{
	clear_file(f);
	free(f->f_path);
	free(f->f_dir);
	free(f);
}

/* ------------------------------------------------------------------ */
/* The set */

struct metricdef *metricdef_new(void)
{
	struct metricdef *md = calloc(1, sizeof(*md));
	if (!md)
		return NULL;
	md->md_metric_index = metricdef_index_new();
	md->md_group_index = metricdef_index_new();
	if (!md->md_metric_index || !md->md_group_index) {
		metricdef_free(md);
		return NULL;
	}
	return md;
}

void metricdef_free(struct metricdef *md)
{
	if (!md)
		return;
	for (size_t i = 0; i < md->md_nfiles; i++)
		free_file(md->md_files[i]);
	free(md->md_files);
	for (size_t i = 0; i < md->md_ndiags; i++) {
		free(md->md_diags[i].d_file);
		free(md->md_diags[i].d_text);
	}
	free(md->md_diags);
	metricdef_index_free(md->md_metric_index);
	metricdef_index_free(md->md_group_index);
	free(md);
}

struct metricdef_metric *metricdef_find_metric(const struct metricdef *md,
					       const char *id)
{
	return id ? metricdef_index_get(md->md_metric_index, id) : NULL;
}

struct metricdef_group *metricdef_find_group(const struct metricdef *md,
					     const char *id)
{
	return id ? metricdef_index_get(md->md_group_index, id) : NULL;
}

/* A new file named path, resolving library names in dir (absolute). */
static struct metricdef_file *add_file(struct metricdef *md,
				       const char *path, char *dir)
{
	struct metricdef_file *f = calloc(1, sizeof(*f));
	if (!f || !(f->f_path = strdup(path))) {
		free(f);
		free(dir);
		md->md_oom = true;
		return NULL;
	}
	f->f_dir = dir;
	f->f_seq = md->md_nfiles;
	if (push_ptr(md, &md->md_files, &md->md_nfiles, f)) {
		free_file(f);
		return NULL;
	}
	return f;
}

static void parse_buffer(struct metricdef *md, struct metricdef_file *f,
			 const void *buf, size_t len)
{
	struct parse ps;
	XML_Parser xp;
	enum XML_Status st;

	if (len > METRICDEF_MAX_FILE_SIZE) {
		metricdef_diag(md, f, NULL, (struct metricdef_pos){0, 0},
			       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
			       "larger than %u bytes; this is not a metric "
			       "definition file",
			       (unsigned)METRICDEF_MAX_FILE_SIZE);
		f->f_unreadable = true;
		return;
	}
	xp = XML_ParserCreate(NULL);
	if (!xp) {
		md->md_oom = true;
		return;
	}
	memset(&ps, 0, sizeof(ps));
	ps.md = md;
	ps.f = f;
	ps.xp = xp;
	ps.depth = 1;
	ps.stack[0].kind = K_DOC;
	XML_SetUserData(xp, &ps);
	XML_SetElementHandler(xp, on_start, on_end);
	XML_SetCharacterDataHandler(xp, on_text);
	st = XML_Parse(xp, buf, (int)len, XML_TRUE);
	if (st == XML_STATUS_ERROR && !ps.aborted) {
		enum XML_Error e = XML_GetErrorCode(xp);
		metricdef_diag(md, f, NULL, here(&ps), METRICDEF_ERROR,
			       METRICDEF_R_XML, NULL,
			       "not well-formed XML: %s; correct the XML "
			       "syntax here",
			       XML_ErrorString(e) ? XML_ErrorString(e)
						  : "unknown error");
		f->f_unreadable = true;
	}
	XML_ParserFree(xp);
	free(ps.text);
	if (f->f_unreadable || md->md_oom)
		clear_file(f);
	else
		check_file(md, f);
}

int metricdef_load_buffer(struct metricdef *md, const char *name,
			  const char *dir, const void *buf, size_t len)
{
	struct metricdef_file *f;
	char *d;
	if (!md || !name || (!buf && len))
		return MAPS_EINVAL;
	if (dir) {
		d = metricdef_absdir(dir);
	} else {
		char *nd = dir_of(name);
		d = nd ? metricdef_absdir(nd) : NULL;
		free(nd);
	}
	if (!d) {
		md->md_oom = true;
		return MAPS_ENOMEM;
	}
	if (!(f = add_file(md, name, d)))
		return MAPS_ENOMEM;
	parse_buffer(md, f, buf ? buf : "", len);
	metricdef_sort_diags(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

int metricdef_load_file(struct metricdef *md, const char *path)
{
	struct metricdef_file *f;
	char *buf = NULL, *nd, *d;
	size_t len = 0;
	int err;

	if (!md || !path)
		return MAPS_EINVAL;
	nd = dir_of(path);
	d = nd ? metricdef_absdir(nd) : NULL;
	free(nd);
	if (!d) {
		md->md_oom = true;
		return MAPS_ENOMEM;
	}
	if (!(f = add_file(md, path, d)))
		return MAPS_ENOMEM;
	err = metricdef_read_file(path, METRICDEF_MAX_FILE_SIZE, &buf, &len);
	if (err == ENOMEM) {
		md->md_oom = true;
	} else if (err == EFBIG) {
		metricdef_diag(md, f, NULL, (struct metricdef_pos){0, 0},
			       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
			       "larger than %u bytes; this is not a metric "
			       "definition file",
			       (unsigned)METRICDEF_MAX_FILE_SIZE);
		f->f_unreadable = true;
	} else if (err) {
		metricdef_diag(md, f, NULL, (struct metricdef_pos){0, 0},
			       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
			       "cannot be read: %s; check the path and its "
			       "permissions", strerror(err));
		f->f_unreadable = true;
	} else {
		parse_buffer(md, f, buf, len);
	}
	free(buf);
	metricdef_sort_diags(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

int metricdef_finish(struct metricdef *md)
{
	char el[ELEM_MAX], q[METRICDEF_QUOTE_MAX * 8 + 16];
	if (!md)
		return MAPS_EINVAL;
	for (size_t i = 0; i < md->md_nfiles; i++) {
		struct metricdef_file *f = md->md_files[i];
		for (size_t j = 0; j < f->f_nmetrics; j++) {
			struct metricdef_metric *m = f->f_metrics[j];
			for (size_t k = 0; k < m->m_nrels; k++) {
				struct metricdef_rel *r = &m->m_rels[k];
				if (r->r_checked || !r->r_name)
					continue;
				r->r_checked = true;
				r->r_target = metricdef_find_metric(md,
								    r->r_name);
				metricdef_elem(el, sizeof(el), "rel", 2,
					       "type", r->r_type, "name",
					       r->r_name);
				if (!r->r_target)
					metricdef_diag(
						md, f, NULL, r->r_pos,
						METRICDEF_ERROR,
						METRICDEF_R_REL_NAME, el,
						"no <metric id=%s> in the "
						"loaded definition files; "
						"define it or correct name",
						metricdef_quote(q, sizeof(q),
								r->r_name));
				else if (m->m_id &&
					 !strcmp(r->r_name, m->m_id))
					metricdef_diag(
						md, f, NULL, r->r_pos,
						METRICDEF_ERROR,
						METRICDEF_R_REL_NAME, el,
						"names the metric itself; "
						"name the metric that is the "
						"integral of this one");
			}
		}
	}
	metricdef_sort_diags(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}

/* ------------------------------------------------------------------ */
/* The index: open addressing, FNV-1a, capacity a power of two. */

struct metricdef_index {
	size_t cap, n;
	const char **keys;
	void **vals;
};

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 32));
}

struct metricdef_index *metricdef_index_new(void)
{
	return calloc(1, sizeof(struct metricdef_index));
}

void metricdef_index_free(struct metricdef_index *ix)
{
	if (!ix)
		return;
	free(ix->keys);
	free(ix->vals);
	free(ix);
}

void *metricdef_index_get(const struct metricdef_index *ix, const char *key)
{
	if (!ix || !ix->cap)
		return NULL;
	for (size_t i = hash(key) & (ix->cap - 1);;
	     i = (i + 1) & (ix->cap - 1)) {
		if (!ix->keys[i])
			return NULL;
		if (!strcmp(ix->keys[i], key))
			return ix->vals[i];
	}
}

int metricdef_index_put(struct metricdef_index *ix, const char *key,
			void *val)
{
	size_t i;
	if ((ix->n + 1) * 2 > ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 16;
		const char **k = calloc(cap, sizeof(*k));
		void **v = calloc(cap, sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return MAPS_ENOMEM;
		}
		for (size_t j = 0; j < ix->cap; j++) {
			if (!ix->keys[j])
				continue;
			for (i = hash(ix->keys[j]) & (cap - 1); k[i];
			     i = (i + 1) & (cap - 1))
				;
			k[i] = ix->keys[j];
			v[i] = ix->vals[j];
		}
		free(ix->keys);
		free(ix->vals);
		ix->keys = k;
		ix->vals = v;
		ix->cap = cap;
	}
	for (i = hash(key) & (ix->cap - 1); ix->keys[i];
	     i = (i + 1) & (ix->cap - 1))
		if (!strcmp(ix->keys[i], key))
			return 0;
	ix->keys[i] = key;
	ix->vals[i] = val;
	ix->n++;
	return 0;
}
