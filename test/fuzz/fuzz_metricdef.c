/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_metricdef: libFuzzer target for the metric definition parser
 * (lib/defs), which reads files users install and anyone may write.
 * Each input is loaded twice into one set, as two files, then the set is
 * finished, and everything the API promises is checked, abort() if not:
 *   - every diagnostic is one line of printable text starting with its
 *     file name and, when it has a position, "FILE:LINE:COL: "; LINE and
 *     COL are at least 1; at most METRICDEF_MAX_DIAGS + 1 per file;
 *   - the error and warning counts cover the diagnostics shown;
 *   - a file that did not parse has no content;
 *   - references point into the same file (sources, group members) or at
 *     a metric of the right id (rels); resolved library paths are
 *     absolute;
 *   - the second copy defines no metric id that is not reported as a
 *     duplicate (each is defined in the first copy already);
 *   - the colour parser, given the input as a string, accepts or refuses
 *     it cleanly, and what it accepts has a well-formed CSS form.
 * Libraries are never loaded (metricdef_check_libraries() is not called):
 * inputs name arbitrary paths.  test/fuzz/replay runs this target over
 * test/fuzz/corpus/metricdef in every make check.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints what broke and aborts, so libFuzzer (or replay) reports it. */
#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "fuzz_metricdef: %s:%d: %s\n",    \
				__FILE__, __LINE__, #cond);               \
			abort();                                          \
		}                                                         \
	} while (0)

static void check_diags(const struct metricdef *md)
{
	unsigned nerr = 0, nwarn = 0;
	size_t per_file[2] = {0, 0};
	for (size_t i = 0; i < md->md_ndiags; i++) {
		const struct metricdef_diag *d = &md->md_diags[i];
		char prefix[256];
		CHECK(d->d_text && d->d_file);
		for (const unsigned char *p = (const unsigned char *)d->d_text;
		     *p; p++)
			CHECK(*p >= 0x20 && *p != 0x7f);
		if (d->d_line) {
			CHECK(d->d_col >= 1);
			snprintf(prefix, sizeof(prefix), "%s:%u:%u: ", d->d_file,
				 d->d_line, d->d_col);
		} else {
			snprintf(prefix, sizeof(prefix), "%s: ", d->d_file);
		}
		CHECK(!strncmp(d->d_text, prefix, strlen(prefix)));
		if (d->d_rule == METRICDEF_R_LIMIT)
			continue;
		if (d->d_severity == METRICDEF_ERROR)
			nerr++;
		else
			nwarn++;
		if (!strcmp(d->d_file, "a.xml"))
			per_file[0]++;
		else
			per_file[1]++;
		/* sorted: each file's messages by position */
		if (i && md->md_diags[i - 1].d_rule != METRICDEF_R_LIMIT &&
		    !strcmp(md->md_diags[i - 1].d_file, d->d_file))
			CHECK(md->md_diags[i - 1].d_line <= d->d_line);
	}
	CHECK(md->md_nerrors >= nerr && md->md_nwarnings >= nwarn);
	CHECK(per_file[0] <= METRICDEF_MAX_DIAGS);
	CHECK(per_file[1] <= METRICDEF_MAX_DIAGS);
}

static void check_file(const struct metricdef *md,
		       const struct metricdef_file *f)
{
	if (f->f_unreadable)
		CHECK(!f->f_nmetrics && !f->f_ngroups && !f->f_nsources);
	CHECK(f->f_dir && f->f_dir[0] == '/');
	for (size_t i = 0; i < f->f_nmetrics; i++) {
		const struct metricdef_metric *m = f->f_metrics[i];
		CHECK(m->m_file == f);
		CHECK(m->m_pos.p_line >= 1);
		if (m->m_source) {
			CHECK(m->m_source->s_file == f);
			CHECK(!strcmp(m->m_source->s_id, m->m_source_ref));
		}
		for (size_t k = 0; k < m->m_nrels; k++) {
			const struct metricdef_rel *r = &m->m_rels[k];
			CHECK(r->r_checked);
			if (r->r_target)
				CHECK(!strcmp(r->r_target->m_id, r->r_name));
		}
		if (m->m_id && *m->m_id && !m->m_duplicate)
			CHECK(metricdef_find_metric(md, m->m_id) == m);
	}
	for (size_t i = 0; i < f->f_ngroups; i++) {
		const struct metricdef_group *g = f->f_groups[i];
		CHECK(g->g_file == f);
		for (size_t k = 0; k < g->g_nrefs; k++)
			if (g->g_refs[k].gr_target) {
				CHECK(g->g_refs[k].gr_target->m_file == f);
				CHECK(!strcmp(g->g_refs[k].gr_target->m_id,
					      g->g_refs[k].gr_ref));
			}
	}
	for (size_t i = 0; i < f->f_nsources; i++) {
		const struct metricdef_source *s = f->f_sources[i];
		CHECK(s->s_file == f);
		if (s->s_library_path)
			CHECK(s->s_library_path[0] == '/');
		for (size_t k = 0; k < s->s_npreloads; k++)
			CHECK(!s->s_preloads[k].l_path ||
			      s->s_preloads[k].l_path[0] == '/');
	}
}

static void check_colour(const uint8_t *data, size_t size)
{
	char s[80];
	struct colour c;
	size_t n = size < sizeof(s) - 1 ? size : sizeof(s) - 1;
	memcpy(s, data, n);
	s[n] = '\0';
	int rc = colour_parse(s, COLOUR_PALETTE_OK | COLOUR_FUNCTIONS_OK, &c);
	CHECK(rc == 0 || rc == MAPS_EINVAL);
	CHECK((rc == 0) == (c.c_kind != COLOUR_NONE));
	if (c.c_kind == COLOUR_NAME)
		CHECK(c.c_name != NULL);
	/* every colour but a palette name has a CSS form, "#rrggbb" or a
	 * keyword of letters */
	char css[24];
	rc = colour_css(&c, css, sizeof(css));
	CHECK((rc == 0) ==
	      (c.c_kind != COLOUR_NONE && c.c_kind != COLOUR_PALETTE));
	if (!rc && css[0] == '#')
		CHECK(strlen(css) == 7 &&
		      strspn(css + 1, "0123456789abcdef") == 6);
	else if (!rc)
		CHECK(strspn(css, "abcdefghijklmnopqrstuvwxyz") == strlen(css));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct metricdef *md = metricdef_new();
	if (!md)
		return 0;
	if (metricdef_load_buffer(md, "a.xml", "/fuzz/a", data, size) ||
	    metricdef_load_buffer(md, "b.xml", "/fuzz/b", data, size) ||
	    metricdef_finish(md)) {
		/* only out of memory can fail */
		metricdef_free(md);
		return 0;
	}
	CHECK(md->md_nfiles == 2);
	check_diags(md);
	for (size_t i = 0; i < md->md_nfiles; i++)
		check_file(md, md->md_files[i]);
	const struct metricdef_file *a = md->md_files[0], *b = md->md_files[1];
	CHECK(a->f_unreadable == b->f_unreadable);
	CHECK(a->f_nmetrics == b->f_nmetrics);
	for (size_t i = 0; i < b->f_nmetrics; i++) {
		const struct metricdef_metric *m = b->f_metrics[i];
		if (m->m_id && *m->m_id)
			CHECK(m->m_duplicate);
	}
	/* the second copy has every error of the first, and more */
	CHECK(b->f_nerrors >= a->f_nerrors);
	metricdef_free(md);
	check_colour(data, size);
	return 0;
}
