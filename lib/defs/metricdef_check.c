/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef_check.c: the checks of metric definitions (mapsample-
 * metrics(5)) once a file is parsed.
 *
 * metricdef_check_file(): what one file says, on its own and against the
 * files loaded before: required parts, value syntax (data types,
 * booleans, domains, display types, colours, symbol names), references
 * inside the file (<source ref>, group members), ids used twice; library
 * names are resolved against the file's directory.
 *
 * metricdef_check_libraries(): what needs the file system and the dynamic
 * linker: every library a definition names exists where it resolves
 * (never looked up elsewhere), loads, and has the functions named.  The
 * launcher runs it before starting the program, so that a wrong name
 * fails at once with its file:line:column instead of in every profiled
 * process.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mapsample/maps_error.h>

#include "common/trust.h"
#include "defs/metricdef_i.h"

/* ------------------------------------------------------------------ */
/* One file */

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* name resolved against dir: name itself when absolute. */
static char *resolve(struct metricdef *md, const char *dir, const char *name)
{
	char *r;
	if (name[0] == '/')
		return xmlcheck_strdup(&md->md_oom, name);
	if (asprintf(&r, "%s/%s", strcmp(dir, "/") ? dir : "", name) < 0) {
		md->md_oom = true;
		return NULL;
	}
	return r;
}

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
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	if (!t->t_val)
		return;
	if (parse_bool(t->t_val, out))
		metricdef_diag(md, f, NULL, t->t_pos, sev,
			       METRICDEF_R_BOOLEAN,
			       xmlcheck_elem(el, sizeof(el), name, 0),
			       "%s is not a boolean; use true or false",
			       xmlcheck_quote(q, sizeof(q), t->t_val));
}

/* Checks an id attribute; returns whether it can be indexed. */
static bool check_id(struct metricdef *md, struct metricdef_file *f,
		     struct metricdef_pos pos, const char *elem_name,
		     const char *id, const char *what, const char *example)
{
	char el[XMLCHECK_ELEM_MAX];
	if (!id) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_MISSING,
			       xmlcheck_elem(el, sizeof(el), elem_name, 0),
			       "no id attribute; add id=\"...\" naming the "
			       "%s, e.g. id=\"%s\"", what, example);
		return false;
	}
	if (!*id) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_EMPTY,
			       xmlcheck_elem(el, sizeof(el), elem_name, 1,
					      "id", id),
			       "empty id; give the %s a name, e.g. id=\"%s\"",
			       what, example);
		return false;
	}
	if (has_space(id))
		metricdef_diag(md, f, NULL, pos, METRICDEF_WARNING,
			       METRICDEF_R_ID,
			       xmlcheck_elem(el, sizeof(el), elem_name, 1,
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
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
		       METRICDEF_R_DUPLICATE_ID,
		       xmlcheck_elem(el, sizeof(el), elem_name, 1, "id", id),
		       "duplicate %s id %s, first defined at %s:%u:%u; give "
		       "each %s its own id%s",
		       what, xmlcheck_quote(q, sizeof(q), id), ff->f_path,
		       fpos.p_line, fpos.p_col, what,
		       ff == f ? "" : " or remove one of the files");
}

static void check_source(struct metricdef *md, struct metricdef_file *f,
			 struct metricdef_source *s)
{
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	const char *fn[2] = {"start", "stop"};
	struct metricdef_text *ft[2] = {&s->s_start, &s->s_stop};

	check_id(md, f, s->s_pos, "source", s->s_id, "library",
		 "com.example.myplugin_src");
	xmlcheck_elem(el, sizeof(el), "source", 1, "id", s->s_id);
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
				       xmlcheck_quote(q, sizeof(q),
						       ft[i]->t_val),
				       fn[i]);
	}
}

static void check_metric(struct metricdef *md, struct metricdef_file *f,
			 struct metricdef_metric *m,
			 const struct metricdef_index *sources)
{
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	const char *v;

	check_id(md, f, m->m_pos, "metric", m->m_id, "metric",
		 "com.example.myplugin.mymetric");
	xmlcheck_elem(el, sizeof(el), "metric", 1, "id", m->m_id);

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
			       xmlcheck_quote(q, sizeof(q), v));

	v = m->m_domain.t_val;
	if (v && strcmp(v, "time"))
		metricdef_diag(md, f, NULL, m->m_domain.t_pos, METRICDEF_ERROR,
			       METRICDEF_R_DOMAIN, "<domain>",
			       "%s is not a domain; use time, the only "
			       "domain there is",
			       xmlcheck_quote(q, sizeof(q), v));

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
		char sel[XMLCHECK_ELEM_MAX];
		xmlcheck_elem(sel, sizeof(sel), "source", 2, "ref",
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
				       xmlcheck_elem(sel, sizeof(sel),
						      "source", 1, "ref",
						      m->m_source_ref),
				       "no <source id=%s> in this file; add "
				       "it or correct ref",
				       xmlcheck_quote(q, sizeof(q),
						       m->m_source_ref));
		xmlcheck_elem(sel, sizeof(sel), "source", 2, "ref",
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
				       xmlcheck_quote(q, sizeof(q),
						       m->m_function));
		if (m->m_divide_text &&
		    parse_bool(m->m_divide_text, &m->m_divide_by_sample_time))
			metricdef_diag(md, f, NULL, m->m_source_pos,
				       METRICDEF_ERROR, METRICDEF_R_BOOLEAN,
				       xmlcheck_elem(sel, sizeof(sel),
						      "source", 2, "ref",
						      m->m_source_ref,
						      "divideBySampleTime",
						      m->m_divide_text),
				       "divideBySampleTime %s is not a "
				       "boolean; use true or false",
				       xmlcheck_quote(q, sizeof(q),
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
				       xmlcheck_quote(q, sizeof(q), v));
	}
	v = m->m_colour.t_val;
	if (v && colour_parse(v, COLOUR_PALETTE_OK, &m->m_colour_value))
		metricdef_diag(md, f, NULL, m->m_colour.t_pos,
			       METRICDEF_WARNING, METRICDEF_R_COLOUR,
			       "<colour>",
			       "%s is not a colour; use #RGB, #RRGGBB, "
			       "#RRRGGGBBB, #RRRRGGGGBBBB or an SVG colour "
			       "name such as green (the colour of the "
			       "metric's type is used instead)",
			       xmlcheck_quote(q, sizeof(q), v));
	for (size_t i = 0; i < m->m_nrels; i++) {
		struct metricdef_rel *r = &m->m_rels[i];
		char rel[XMLCHECK_ELEM_MAX];
		xmlcheck_elem(rel, sizeof(rel), "rel", 2, "type", r->r_type,
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
				       xmlcheck_quote(q, sizeof(q),
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
	char el[XMLCHECK_ELEM_MAX], q[XMLCHECK_QBUF];
	check_id(md, f, g->g_pos, "metricGroup", g->g_id, "group",
		 "com.example.myplugin");
	if (!g->g_nrefs)
		metricdef_diag(md, f, NULL, g->g_pos, METRICDEF_WARNING,
			       METRICDEF_R_MISSING,
			       xmlcheck_elem(el, sizeof(el), "metricGroup", 1,
					      "id", g->g_id),
			       "no <metric ref=\"...\"/>; list the metrics of "
			       "the group");
	for (size_t i = 0; i < g->g_nrefs; i++) {
		struct metricdef_ref *r = &g->g_refs[i];
		xmlcheck_elem(el, sizeof(el), "metric", 1, "ref", r->gr_ref);
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
				       xmlcheck_quote(q, sizeof(q),
						       r->gr_ref));
	}
}

void metricdef_check_file(struct metricdef *md, struct metricdef_file *f)
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
/* Libraries */

/* Checks that path is an existing regular file; reports at pos as elem
 * otherwise.  Returns 0 when it is. */
static int check_exists(struct metricdef *md, struct metricdef_file *f,
			struct metricdef_pos pos, const char *elem,
			const char *name, const char *path)
{
	struct stat sb;
	const char *how = name[0] == '/'
		? "install the library there or correct the path"
		: "install the library next to the definition file or give "
		  "its absolute path";
	if (stat(path, &sb)) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_LIBRARY, elem,
			       "library not found: %s (%s); %s", path,
			       strerror(errno), how);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_LIBRARY, elem,
			       "library not found: %s is not a file; %s",
			       path, how);
		return -1;
	}
	char why[PATH_MAX + 256];
	if (trust_path(path, why, sizeof(why))) {
		metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR,
			       METRICDEF_R_UNSAFE, elem,
			       "refusing to load %s: %s", path, why);
		return -1;
	}
	return 0;
}

static void check_symbol(struct metricdef *md, struct metricdef_file *f,
			 void *h, const char *lib, struct metricdef_pos pos,
			 const char *elem, const char *sym)
{
	char q[XMLCHECK_QBUF];
	dlerror();
	if (dlsym(h, sym) || !dlerror())
		return;
	metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR, METRICDEF_R_FUNCTION,
		       elem,
		       "function not found in %s: %s; check the name, and "
		       "that the library exports it (not static; extern \"C\" "
		       "in C++)", lib, xmlcheck_quote(q, sizeof(q), sym));
}

/* Opens the library of s and looks up its functions. */
static void check_library(struct metricdef *md, struct metricdef_file *f,
			  struct metricdef_source *s)
{
	char el[XMLCHECK_ELEM_MAX];
	const char *err;
	void *h;

	for (size_t i = 0; i < s->s_npreloads; i++) {
		struct metricdef_preload *l = &s->s_preloads[i];
		if (l->l_path)
			check_exists(md, f, l->l_pos, "<preload>", l->l_name,
				     l->l_path);
	}
	if (!s->s_library_path)
		return;
	if (check_exists(md, f, s->s_library.t_pos, "<sharedLibrary>",
			 s->s_library.t_val, s->s_library_path))
		return;
	dlerror();
	h = dlopen(s->s_library_path, RTLD_LAZY | RTLD_LOCAL);
	if (!h) {
		err = dlerror();
		if (!err)
			err = "unknown error";
		if (strstr(err, "undefined symbol: allinea_"))
			metricdef_diag(md, f, NULL, s->s_library.t_pos,
				       METRICDEF_WARNING, METRICDEF_R_LIBRARY,
				       "<sharedLibrary>",
				       "%s cannot be loaded outside a "
				       "profiled program (%s); its functions "
				       "are checked when the sampler loads it "
				       "(link it without -z now to check them "
				       "earlier)", s->s_library_path, err);
		else
			metricdef_diag(md, f, NULL, s->s_library.t_pos,
				       METRICDEF_ERROR, METRICDEF_R_LIBRARY,
				       "<sharedLibrary>",
				       "cannot load %s: %s; build it as a "
				       "shared library for this machine and "
				       "install what it needs",
				       s->s_library_path, err);
		return;
	}
	for (size_t i = 0; i < f->f_nmetrics; i++) {
		struct metricdef_metric *m = f->f_metrics[i];
		if (m->m_source != s || !m->m_function || !*m->m_function)
			continue;
		xmlcheck_elem(el, sizeof(el), "source", 2, "ref",
			       m->m_source_ref, "functionName", m->m_function);
		check_symbol(md, f, h, s->s_library_path, m->m_source_pos, el,
			     m->m_function);
	}
	if (s->s_start.t_val && *s->s_start.t_val)
		check_symbol(md, f, h, s->s_library_path, s->s_start.t_pos,
			     "<start>", s->s_start.t_val);
	if (s->s_stop.t_val && *s->s_stop.t_val)
		check_symbol(md, f, h, s->s_library_path, s->s_stop.t_pos,
			     "<stop>", s->s_stop.t_val);
	dlclose(h);
}

int metricdef_check_libraries(struct metricdef *md)
{
	return metricdef_check_libraries_if(md, NULL, NULL);
}

int metricdef_check_libraries_if(struct metricdef *md,
				 int (*want)(const struct metricdef_source *,
					     void *),
				 void *ctx)
{
	if (!md)
		return MAPS_EINVAL;
	for (size_t i = 0; i < md->md_nfiles; i++) {
		struct metricdef_file *f = md->md_files[i];
		for (size_t j = 0; j < f->f_nsources; j++)
			if (!want || want(f->f_sources[j], ctx))
				check_library(md, f, f->f_sources[j]);
	}
	metricdef_publish(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}
