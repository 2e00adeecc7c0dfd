/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c: metricdef_check_libraries(), the checks that need the file
 * system and the dynamic linker: every library a definition names exists
 * where it resolves (never looked up elsewhere), loads, and has the
 * functions named.  The launcher runs this before starting the program,
 * so that a wrong name fails at once with its file:line:column instead of
 * in every profiled process.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef_i.h"

#define ELEM_MAX 512

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
	return 0;
}

static void check_symbol(struct metricdef *md, struct metricdef_file *f,
			 void *h, const char *lib, struct metricdef_pos pos,
			 const char *elem, const char *sym)
{
	char q[METRICDEF_QUOTE_MAX * 8 + 16];
	dlerror();
	if (dlsym(h, sym) || !dlerror())
		return;
	metricdef_diag(md, f, NULL, pos, METRICDEF_ERROR, METRICDEF_R_FUNCTION,
		       elem,
		       "function not found in %s: %s; check the name, and "
		       "that the library exports it (not static; extern \"C\" "
		       "in C++)", lib, metricdef_quote(q, sizeof(q), sym));
}

static void check_source(struct metricdef *md, struct metricdef_file *f,
			 struct metricdef_source *s)
{
	char el[ELEM_MAX];
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
		metricdef_elem(el, sizeof(el), "source", 2, "ref",
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
	if (!md)
		return MAPS_EINVAL;
	for (size_t i = 0; i < md->md_nfiles; i++) {
		struct metricdef_file *f = md->md_files[i];
		for (size_t j = 0; j < f->f_nsources; j++)
			check_source(md, f, f->f_sources[j]);
	}
	metricdef_sort_diags(md);
	return md->md_oom ? MAPS_ENOMEM : 0;
}
