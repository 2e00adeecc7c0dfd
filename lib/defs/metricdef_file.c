/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * metricdef_file.c: what the other metricdef files share about one file
 * of the set: reporting a diagnostic about it into the set's log (the
 * XML-checking core's, xmlcheck.h) and freeing what was parsed from it.
 * The bottom of lib/defs' metric definition files: it calls only the
 * core.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>

#include "defs/metricdef_i.h"

/* ------------------------------------------------------------------ */
/* Diagnostics */

void metricdef_diag(struct metricdef *md, struct metricdef_file *f,
		    const char *path, struct metricdef_pos pos,
		    enum metricdef_severity sev, enum metricdef_rule rule,
		    const char *elem, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xmlcheck_vreport(md->md_log, f ? f->f_seq : XMLCHECK_NOFILE,
			 f ? f->f_path : path,
			 (struct xmlcheck_pos){pos.p_line, pos.p_col},
			 sev == METRICDEF_WARNING ? XMLCHECK_WARNING
						 : XMLCHECK_ERROR,
			 (int)rule, elem, fmt, ap);
	va_end(ap);
}

void metricdef_too_large(struct metricdef *md, struct metricdef_file *f)
{
	metricdef_diag(md, f, NULL, (struct metricdef_pos){0, 0},
		       METRICDEF_ERROR, METRICDEF_R_IO, NULL,
		       "larger than %u bytes; this is not a metric definition "
		       "file", (unsigned)METRICDEF_MAX_FILE_SIZE);
	f->f_unreadable = true;
}

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

void metricdef_clear_file(struct metricdef_file *f)
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
	f->f_capmetrics = f->f_capgroups = f->f_capsources = 0;
}
