/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/defs: metric definition files (mapsample-
 * metrics(5)).  Every validation rule with its message (the exact
 * FILE:LINE:COLUMN prefix, the severity, the rule and its key words, and
 * that it is the only message for a file with one problem); a
 * full-featured file read back field by field with positions; the
 * reference's custom1.xml and the template example read cleanly; the
 * library checks (dlopen/dlsym) against test/plugins/libtemplate1.so;
 * every colour form and the 147 SVG keywords; the search path, its order
 * and its duplicates across directories; the XML of the man page's
 * EXAMPLES.
 *
 * The test defines the plugin API (stubs), exported with -export-dynamic,
 * as the sampler does: libtemplate1.so resolves against it, and the
 * compiler checks the definitions against the public headers.
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
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"
#include "defs/metricdef.h"
#include <mapsample/maps_error.h>

#ifndef ABS_TOP_SRCDIR
#define ABS_TOP_SRCDIR "."
#endif
#ifndef ABS_TOP_BUILDDIR
#define ABS_TOP_BUILDDIR "."
#endif

/* ------------------------------------------------------------------ */
/* The plugin API, as stubs (the sampler provides the real one). */

int allinea_get_logical_core_count(void)
{
	return 2;
}

int allinea_get_physical_core_count(void)
{
	return 1;
}

int allinea_read_config_file(const char *variable, const char *metricId,
			     char *value, int length)
{
	(void)variable;
	(void)metricId;
	if (length > 0)
		value[0] = '\0';
	return -1;
}

void allinea_set_plugin_error_message(plugin_id_t plugin_id, int error_code,
				      const char *error_message)
{
	(void)plugin_id;
	(void)error_code;
	(void)error_message;
}

void allinea_set_plugin_error_messagef(plugin_id_t plugin_id, int error_code,
				       const char *error_message, ...)
{
	(void)plugin_id;
	(void)error_code;
	(void)error_message;
}

void allinea_set_metric_error_message(metric_id_t metric_id, int error_code,
				      const char *error_message)
{
	(void)metric_id;
	(void)error_code;
	(void)error_message;
}

void allinea_set_metric_error_messagef(metric_id_t metric_id, int error_code,
				       const char *error_message, ...)
{
	(void)metric_id;
	(void)error_code;
	(void)error_message;
}

void *allinea_safe_malloc(size_t size)
{
	return malloc(size);
}

void allinea_safe_free(void *ptr)
{
	free(ptr);
}

void *allinea_safe_calloc(size_t nmemb, size_t size)
{
	return calloc(nmemb, size);
}

void *allinea_safe_realloc(void *ptr, size_t size)
{
	return realloc(ptr, size);
}

struct timespec allinea_get_current_time(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

int allinea_safe_close(int fd)
{
	return close(fd);
}

void allinea_safe_fprintf(int fd, const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	allinea_safe_vfprintf(fd, format, ap);
	va_end(ap);
}

int allinea_safe_open(const char *file, int oflags, ...)
{
	return open(file, oflags, 0644);
}

void allinea_safe_printf(const char *format, ...)
{
	(void)format;
}

ssize_t allinea_safe_read(int fd, void *buf, size_t count)
{
	return read(fd, buf, count);
}

ssize_t allinea_safe_read_all(int fd, void *buf, size_t count)
{
	return read(fd, buf, count);
}

ssize_t allinea_safe_read_line(int fd, void *buf, size_t count)
{
	return read(fd, buf, count);
}

void allinea_safe_vfprintf(int fd, const char *format, va_list ap)
{
	(void)fd;
	(void)format;
	(void)ap;
}

ssize_t allinea_safe_write(int fd, const void *buf, size_t count)
{
	return write(fd, buf, count);
}

/* ------------------------------------------------------------------ */
/* Helpers */

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");
	return d && *d ? d : ABS_TOP_SRCDIR;
}

static const char *builddir(void)
{
	const char *d = getenv("top_builddir");
	return d && *d ? d : ABS_TOP_BUILDDIR;
}

/* Every diagnostic of md, one per line, for failure messages. */
static const char *all_diags(const struct metricdef *md)
{
	static char buf[16384];
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < md->md_ndiags && n < sizeof(buf) - 1; i++) {
		int w = snprintf(buf + n, sizeof(buf) - n, "\n  [%zu] %s", i,
				 md->md_diags[i].d_text);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	if (!md->md_ndiags)
		snprintf(buf, sizeof(buf), " (none)");
	return buf;
}

/* Loads xml (a string) named name, library names resolving in /mdtest. */
static void load(struct metricdef *md, const char *name, const char *xml)
{
	int rc = metricdef_load_buffer(md, name, "/mdtest", xml, strlen(xml));
	REQUIRE(rc == 0, "load_buffer(%s): %d", name, rc);
}

static struct metricdef *load_one(const char *xml)
{
	struct metricdef *md = metricdef_new();
	REQUIRE(md, "metricdef_new");
	load(md, "t.xml", xml);
	REQUIRE(metricdef_finish(md) == 0, "finish");
	return md;
}

/* Checks that diagnostic d starts with prefix, has severity sev and rule
 * rule, and contains each of the NULL-ended words. */
static void check_diag_v(const struct metricdef *md,
			 const struct metricdef_diag *d,
			 enum metricdef_severity sev, enum metricdef_rule rule,
			 const char *prefix, va_list ap)
{
	const char *w;
	REQUIRE(!strncmp(d->d_text, prefix, strlen(prefix)),
		"want a message starting with '%s', got:%s", prefix,
		all_diags(md));
	REQUIRE(d->d_severity == sev, "'%s': severity %d, want %d", d->d_text,
		d->d_severity, sev);
	REQUIRE(d->d_rule == rule, "'%s': rule %d, want %d", d->d_text,
		d->d_rule, rule);
	REQUIRE(!strchr(d->d_text, '\n'), "'%s': has a newline", d->d_text);
	while ((w = va_arg(ap, const char *)))
		REQUIRE(strstr(d->d_text, w), "'%s': lacks '%s'", d->d_text,
			w);
}

/* md has exactly one diagnostic, and it is as described. */
static void expect_one(const struct metricdef *md, enum metricdef_severity sev,
		       enum metricdef_rule rule, const char *prefix, ...)
{
	va_list ap;
	REQUIRE(md->md_ndiags == 1, "want exactly one message (%s), got:%s",
		prefix, all_diags(md));
	REQUIRE(md->md_nerrors + md->md_nwarnings == 1, "counts %u+%u",
		md->md_nerrors, md->md_nwarnings);
	REQUIRE((sev == METRICDEF_ERROR) == (md->md_nerrors == 1),
		"error count %u", md->md_nerrors);
	va_start(ap, prefix);
	check_diag_v(md, &md->md_diags[0], sev, rule, prefix, ap);
	va_end(ap);
}

/* md has a diagnostic starting with prefix, and it is as described. */
static void expect_has(const struct metricdef *md,
		       enum metricdef_severity sev, enum metricdef_rule rule,
		       const char *prefix, ...)
{
	va_list ap;
	for (size_t i = 0; i < md->md_ndiags; i++) {
		const struct metricdef_diag *d = &md->md_diags[i];
		if (strncmp(d->d_text, prefix, strlen(prefix)))
			continue;
		va_start(ap, prefix);
		check_diag_v(md, d, sev, rule, prefix, ap);
		va_end(ap);
		return;
	}
	ck_abort_msg("no message starting with '%s'; got:%s", prefix,
		     all_diags(md));
}

static void expect_clean(const struct metricdef *md)
{
	REQUIRE(md->md_ndiags == 0 && md->md_nerrors == 0 &&
			md->md_nwarnings == 0,
		"want no message, got:%s", all_diags(md));
}

static void expect_pos(struct metricdef_pos p, unsigned line, unsigned col,
		       const char *what)
{
	REQUIRE(p.p_line == line && p.p_col == col, "%s at %u:%u, want %u:%u",
		what, p.p_line, p.p_col, line, col);
}

static void expect_text(const struct metricdef_text *t, const char *val,
			unsigned line, unsigned col, const char *what)
{
	REQUIRE(t->t_val && !strcmp(t->t_val, val), "%s: '%s', want '%s'",
		what, t->t_val ? t->t_val : "(null)", val);
	expect_pos(t->t_pos, line, col, what);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	REQUIRE(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	REQUIRE(fclose(f) == 0, "%s: write failed", path);
}

static char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	char *s;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	REQUIRE(rc >= 0, "out of memory");
	return s;
}

/* A new empty temporary directory (realpath'd). */
static char *tmpdir(void)
{
	char tmpl[] = "/tmp/test_metricdef.XXXXXX";
	char *d = mkdtemp(tmpl);
	REQUIRE(d, "mkdtemp: %s", strerror(errno));
	char *r = realpath(d, NULL);
	REQUIRE(r, "realpath");
	return r;
}

static void mkdirs(const char *path)
{
	char *p = strdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	REQUIRE(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", p,
		strerror(errno));
	free(p);
}

static void rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_metricdef: could not remove %s\n", dir);
	free(cmd);
}

/* Pieces of a minimal valid file; line numbers in comments. */
#define HEAD "<metricdefinitions version=\"1\">\n"          /* 1 */
#define M_OPEN "  <metric id=\"m\">\n"                       /* 2 */
#define M_TYPE "    <dataType>uint64_t</dataType>\n"         /* 3 */
#define M_SRC "    <source ref=\"s\" functionName=\"f\"/>\n" /* 4 */
#define M_CLOSE "  </metric>\n"                              /* 5 */
#define SRC                                                                    \
	"  <source id=\"s\">\n"                              /* 6 */           \
	"    <sharedLibrary>libx.so</sharedLibrary>\n"        /* 7 */           \
	"  </source>\n"                                      /* 8 */
#define TAIL "</metricdefinitions>\n"                        /* 9 */
#define MINIMAL HEAD M_OPEN M_TYPE M_SRC M_CLOSE SRC TAIL

/* ------------------------------------------------------------------ */
/* Clean files */

START_TEST(metricdef_minimal_clean)
{
	struct metricdef *md = load_one(MINIMAL);
	expect_clean(md);
	ck_assert_uint_eq(md->md_nfiles, 1);
	struct metricdef_file *f = md->md_files[0];
	ck_assert_uint_eq(f->f_nmetrics, 1);
	struct metricdef_metric *m = f->f_metrics[0];
	ck_assert_str_eq(m->m_id, "m");
	ck_assert(m->m_data_type == METRICDEF_UINT64);
	ck_assert(m->m_domain.t_val == NULL); /* absent: time */
	ck_assert(!m->m_one_per_node && !m->m_backfill);
	ck_assert(!m->m_divide_by_sample_time);
	ck_assert_ptr_eq(m->m_source, f->f_sources[0]);
	ck_assert_str_eq(f->f_sources[0]->s_library_path, "/mdtest/libx.so");
	ck_assert_ptr_eq(metricdef_find_metric(md, "m"), m);
	ck_assert_ptr_null(metricdef_find_metric(md, "n"));
	metricdef_free(md);
}
END_TEST

/* Every element and attribute, read back with its position. */
static const char full_xml[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                 /* 1 */
	"<!-- every element and attribute -->\n"                       /* 2 */
	"<metricdefinitions version=\"1\">\n"                          /* 3 */
	"  <metric id=\"org.example.full.rate\">\n"                    /* 4 */
	"    <units>B/s</units>\n"                                     /* 5 */
	"    <dataType>double</dataType>\n"                            /* 6 */
	"    <domain>time</domain>\n"                                  /* 7 */
	"    <onePerNode>true</onePerNode>\n"                          /* 8 */
	"    <backfill>false</backfill>\n"                             /* 9 */
	"    <source ref=\"org.example.full_src\"\n"                   /* 10 */
	"            functionName=\"full_rate\"\n"                     /* 11 */
	"            divideBySampleTime=\"true\"/>\n"                  /* 12 */
	"    <display>\n"                                              /* 13 */
	"      <description>Bytes &amp; more per second</description>\n" /* 14 */
	"      <displayName>Full rate</displayName>\n"                 /* 15 */
	"      <type>io</type>\n"                                      /* 16 */
	"      <colour>#FfA500</colour>\n"                             /* 17 */
	"      <rel type=\"integral\" name=\"org.example.full.total\"/>\n" /* 18 */
	"    </display>\n"                                             /* 19 */
	"  </metric>\n"                                                /* 20 */
	"  <metric id=\"org.example.full.total\">\n"                   /* 21 */
	"    <units>B</units>\n"                                       /* 22 */
	"    <dataType>uint64_t</dataType>\n"                          /* 23 */
	"    <domain> time </domain>\n"                                /* 24 */
	"    <onePerNode>0</onePerNode>\n"                             /* 25 */
	"    <backfill>1</backfill>\n"                                 /* 26 */
	"    <enabled>default_yes</enabled>\n"                         /* 27 */
	"    <source ref=\"org.example.full_src\" functionName=\"full_total\""
	" divideBySampleTime=\"false\"/>\n"                            /* 28 */
	"    <display>\n"                                              /* 29 */
	"      <description>\n"                                        /* 30 */
	"        Bytes so far\n"                                       /* 31 */
	"      </description>\n"                                       /* 32 */
	"      <displayName>Full total</displayName>\n"                /* 33 */
	"      <type>memory</type>\n"                                  /* 34 */
	"      <colour>SpecialLine8</colour>\n"                        /* 35 */
	"      <autoDisplayFactor>true</autoDisplayFactor>\n"          /* 36 */
	"      <accumulate>true</accumulate>\n"                        /* 37 */
	"    </display>\n"                                             /* 38 */
	"  </metric>\n"                                                /* 39 */
	"  <metricGroup id=\"org.example.full\">\n"                    /* 40 */
	"    <displayName>Full</displayName>\n"                        /* 41 */
	"    <description>All of it</description>\n"                   /* 42 */
	"    <metric ref=\"org.example.full.rate\"/>\n"                /* 43 */
	"    <metric ref=\"org.example.full.total\"/>\n"               /* 44 */
	"  </metricGroup>\n"                                           /* 45 */
	"  <source id=\"org.example.full_src\">\n"                     /* 46 */
	"    <sharedLibrary>plugins/libfull.so</sharedLibrary>\n"      /* 47 */
	"    <preload>libwrap.so /opt/lib/libmpiwrap.so:libthird.so</preload>\n"
	/* 48 */
	"    <preload>../libfourth.so</preload>\n"                     /* 49 */
	"    <functions>\n"                                            /* 50 */
	"      <start>full_start</start>\n"                            /* 51 */
	"      <stop>full_stop</stop>\n"                               /* 52 */
	"    </functions>\n"                                           /* 53 */
	"  </source>\n"                                                /* 54 */
	"  <source id=\"org.example.abs_src\">\n"                      /* 55 */
	"    <sharedLibrary>/opt/x/libabs.so</sharedLibrary>\n"        /* 56 */
	"  </source>\n"                                                /* 57 */
	"</metricdefinitions>\n";                                      /* 58 */

START_TEST(metricdef_full_round_trip)
{
	struct metricdef *md = metricdef_new();
	load(md, "dir/full.xml", full_xml);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	struct metricdef_file *f = md->md_files[0];
	ck_assert_str_eq(f->f_path, "dir/full.xml");
	ck_assert_str_eq(f->f_dir, "/mdtest");
	ck_assert_uint_eq(f->f_nmetrics, 2);
	ck_assert_uint_eq(f->f_ngroups, 1);
	ck_assert_uint_eq(f->f_nsources, 2);

	struct metricdef_metric *r = f->f_metrics[0], *t = f->f_metrics[1];
	struct metricdef_source *s = f->f_sources[0];
	ck_assert_str_eq(r->m_id, "org.example.full.rate");
	expect_pos(r->m_pos, 4, 3, "<metric>");
	expect_text(&r->m_units, "B/s", 5, 5, "<units>");
	expect_text(&r->m_data_type_text, "double", 6, 5, "<dataType>");
	ck_assert(r->m_data_type == METRICDEF_DOUBLE);
	expect_text(&r->m_domain, "time", 7, 5, "<domain>");
	expect_text(&r->m_one_per_node_text, "true", 8, 5, "<onePerNode>");
	ck_assert(r->m_one_per_node);
	expect_text(&r->m_backfill_text, "false", 9, 5, "<backfill>");
	ck_assert(!r->m_backfill);
	expect_pos(r->m_source_pos, 10, 5, "<source ref>");
	ck_assert_str_eq(r->m_source_ref, "org.example.full_src");
	ck_assert_str_eq(r->m_function, "full_rate");
	ck_assert(r->m_divide_by_sample_time);
	ck_assert_ptr_eq(r->m_source, s);
	expect_pos(r->m_display_pos, 13, 5, "<display>");
	expect_text(&r->m_description, "Bytes & more per second", 14, 7,
		    "<description>");
	expect_text(&r->m_display_name, "Full rate", 15, 7, "<displayName>");
	expect_text(&r->m_type, "io", 16, 7, "<type>");
	ck_assert(r->m_type_known);
	expect_text(&r->m_colour, "#FfA500", 17, 7, "<colour>");
	ck_assert(r->m_colour_value.c_kind == COLOUR_HEX);
	ck_assert_uint_eq(r->m_colour_value.c_rgb8[0], 255);
	ck_assert_uint_eq(r->m_colour_value.c_rgb8[1], 165);
	ck_assert_uint_eq(r->m_colour_value.c_rgb8[2], 0);
	ck_assert_uint_eq(r->m_nrels, 1);
	expect_pos(r->m_rels[0].r_pos, 18, 7, "<rel>");
	ck_assert_str_eq(r->m_rels[0].r_type, "integral");
	ck_assert_str_eq(r->m_rels[0].r_name, "org.example.full.total");
	ck_assert_ptr_eq(r->m_rels[0].r_target, t);

	ck_assert(t->m_data_type == METRICDEF_UINT64);
	expect_text(&t->m_domain, "time", 24, 5, "<domain> (trimmed)");
	ck_assert(!t->m_one_per_node);
	ck_assert(t->m_backfill);
	expect_text(&t->m_enabled, "default_yes", 27, 5, "<enabled>");
	ck_assert(!t->m_divide_by_sample_time);
	ck_assert_str_eq(t->m_divide_text, "false");
	expect_text(&t->m_description, "Bytes so far", 30, 7,
		    "<description> (trimmed)");
	ck_assert(t->m_colour_value.c_kind == COLOUR_PALETTE);
	ck_assert_uint_eq(t->m_colour_value.c_index, 8);
	expect_text(&t->m_auto_display_factor, "true", 36, 7,
		    "<autoDisplayFactor>");
	expect_text(&t->m_accumulate, "true", 37, 7, "<accumulate>");
	ck_assert_uint_eq(t->m_nrels, 0);

	struct metricdef_group *g = f->f_groups[0];
	ck_assert_str_eq(g->g_id, "org.example.full");
	expect_pos(g->g_pos, 40, 3, "<metricGroup>");
	expect_text(&g->g_display_name, "Full", 41, 5, "group displayName");
	expect_text(&g->g_description, "All of it", 42, 5, "group description");
	ck_assert_uint_eq(g->g_nrefs, 2);
	expect_pos(g->g_refs[1].gr_pos, 44, 5, "<metric ref>");
	ck_assert_ptr_eq(g->g_refs[0].gr_target, r);
	ck_assert_ptr_eq(g->g_refs[1].gr_target, t);
	ck_assert_ptr_eq(metricdef_find_group(md, "org.example.full"), g);

	ck_assert_str_eq(s->s_id, "org.example.full_src");
	expect_pos(s->s_pos, 46, 3, "<source id>");
	expect_text(&s->s_library, "plugins/libfull.so", 47, 5,
		    "<sharedLibrary>");
	ck_assert_str_eq(s->s_library_path, "/mdtest/plugins/libfull.so");
	ck_assert_uint_eq(s->s_npreloads, 4);
	ck_assert_str_eq(s->s_preloads[0].l_name, "libwrap.so");
	ck_assert_str_eq(s->s_preloads[0].l_path, "/mdtest/libwrap.so");
	ck_assert_str_eq(s->s_preloads[1].l_path, "/opt/lib/libmpiwrap.so");
	ck_assert_str_eq(s->s_preloads[2].l_path, "/mdtest/libthird.so");
	ck_assert_str_eq(s->s_preloads[3].l_path, "/mdtest/../libfourth.so");
	expect_pos(s->s_preloads[2].l_pos, 48, 5, "<preload>");
	expect_pos(s->s_preloads[3].l_pos, 49, 5, "<preload>");
	expect_pos(s->s_functions_pos, 50, 5, "<functions>");
	expect_text(&s->s_start, "full_start", 51, 7, "<start>");
	expect_text(&s->s_stop, "full_stop", 52, 7, "<stop>");
	ck_assert_str_eq(f->f_sources[1]->s_library_path, "/opt/x/libabs.so");
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_custom1_reference_clean)
{
	char *path = xasprintf("%s/test/plugins/custom1.xml", srcdir());
	char *dir = xasprintf("%s/test/plugins", srcdir());
	char *want_lib = NULL, *rdir = realpath(dir, NULL);
	struct metricdef *md = metricdef_new();
	REQUIRE(rdir, "%s: %s", dir, strerror(errno));
	want_lib = xasprintf("%s/libcustom1.so", rdir);
	ck_assert_int_eq(metricdef_load_file(md, path), 0);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	struct metricdef_file *f = md->md_files[0];
	ck_assert_uint_eq(f->f_nmetrics, 1);
	struct metricdef_metric *m = f->f_metrics[0];
	ck_assert_str_eq(m->m_id, "com.allinea.metrics.custom1.interrupts");
	expect_pos(m->m_pos, 4, 5, "custom1 <metric>");
	ck_assert_str_eq(m->m_units.t_val, "/s");
	ck_assert(m->m_data_type == METRICDEF_UINT64);
	ck_assert_str_eq(m->m_domain.t_val, "time");
	ck_assert_str_eq(m->m_source_ref, "com.allinea.metrics.custom1_src");
	ck_assert_str_eq(m->m_function, "sample_interrupts");
	ck_assert(m->m_divide_by_sample_time);
	ck_assert_str_eq(m->m_display_name.t_val, "Interrupts");
	ck_assert_str_eq(m->m_description.t_val,
			 "Total number of system interrupts taken");
	ck_assert_str_eq(m->m_type.t_val, "interrupts");
	ck_assert(m->m_type_known);
	ck_assert(m->m_colour_value.c_kind == COLOUR_NAME);
	ck_assert_str_eq(m->m_colour_value.c_name, "green");
	ck_assert_uint_eq(f->f_ngroups, 1);
	ck_assert_str_eq(f->f_groups[0]->g_id, "Custom1");
	ck_assert_ptr_eq(f->f_groups[0]->g_refs[0].gr_target, m);
	ck_assert_str_eq(f->f_sources[0]->s_library.t_val, "libcustom1.so");
	ck_assert_str_eq(f->f_sources[0]->s_library_path, want_lib);
	metricdef_free(md);
	free(path);
	free(dir);
	free(rdir);
	free(want_lib);
}
END_TEST

/* Definition files published for Arm MAP use elements the reference does
 * not list (<enabled>, <autoDisplayFactor>, <accumulate>), palette
 * colours, empty or no <units>, and types of their own: they load, the
 * unknown type with a warning only. */
START_TEST(metricdef_arm_map_extensions)
{
	struct metricdef *md = load_one(
		HEAD
		"  <metric id=\"m\">\n"
		"    <enabled>default_yes</enabled>\n"
		"    <units></units>\n"
		"    <dataType>double</dataType>\n"
		"    <domain>time</domain>\n"
		"    <onePerNode>true</onePerNode>\n"
		"    <source ref=\"s\" functionName=\"f\"/>\n"
		"    <display>\n"
		"      <type>other</type>\n"
		"      <colour>SpecialLine6</colour>\n"
		"      <autoDisplayFactor>true</autoDisplayFactor>\n"
		"      <accumulate>false</accumulate>\n"
		"    </display>\n"
		"  </metric>\n" SRC TAIL);
	expect_clean(md);
	ck_assert_str_eq(md->md_files[0]->f_metrics[0]->m_units.t_val, "");
	metricdef_free(md);
}
END_TEST

/* ------------------------------------------------------------------ */
/* One message per problem */

START_TEST(metricdef_xml_not_well_formed)
{
	struct metricdef *md = load_one(HEAD M_OPEN M_TYPE M_SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_XML, "t.xml:5:3: ",
		   "not well-formed XML: mismatched tag",
		   "correct the XML syntax", NULL);
	ck_assert(md->md_files[0]->f_unreadable);
	ck_assert_uint_eq(md->md_files[0]->f_nmetrics, 0);
	metricdef_free(md);

	md = load_one(HEAD "  <metric id=\"a\" id=\"b\"/>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_XML, "t.xml:2:18: ",
		   "not well-formed XML: duplicate attribute", NULL);
	metricdef_free(md);

	md = load_one("");
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_XML, "t.xml:1:1: ",
		   "not well-formed XML: no element found", NULL);
	metricdef_free(md);

	md = load_one(HEAD "  <metric id=\"a&b\"/>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_XML, "t.xml:2:18: ",
		   "not well-formed XML", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_root_and_version)
{
	struct metricdef *md = load_one(
		"<?xml version=\"1.0\"?>\n<metricDefinitions version=\"1\">\n"
		"  <metric id=\"m\"/>\n</metricDefinitions>\n");
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_ROOT,
		   "t.xml:2:1: <metricDefinitions>: the root element must be "
		   "<metricdefinitions version=\"1\">; this is not a metric "
		   "definition file", NULL);
	ck_assert(md->md_files[0]->f_unreadable);
	metricdef_free(md);

	md = load_one("<partialReport name=\"x\"/>\n");
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_ROOT,
		   "t.xml:1:1: <partialReport>: the root element must be", NULL);
	metricdef_free(md);

	md = load_one("<metricdefinitions>\n" M_OPEN M_TYPE M_SRC M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_VERSION,
		   "t.xml:1:1: <metricdefinitions>: no version attribute; add "
		   "version=\"1\"", NULL);
	metricdef_free(md);

	md = load_one("<metricdefinitions version=\"2\">\n" M_OPEN M_TYPE M_SRC
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_VERSION,
		   "t.xml:1:1: <metricdefinitions version=\"2\">: version \"2\" "
		   "is not supported; this mapsample reads version=\"1\"",
		   NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_unknown_elements)
{
	struct metricdef *md = load_one(
		HEAD M_OPEN M_TYPE "    <dataTipe>double</dataTipe>\n" M_SRC
		M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:4:5: warning: <dataTipe>: unknown element in "
		   "<metric>, ignored; allowed there: units, dataType, domain, "
		   "onePerNode, backfill, source, display", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display>\n      <color>red</color>\n"
		      "    </display>\n" M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:6:7: warning: <color>: unknown element in <display>",
		   "allowed there: description, displayName, type, colour, rel",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD "  <metrics/>\n" M_OPEN M_TYPE M_SRC M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:2:3: warning: <metrics>: unknown element in "
		   "<metricdefinitions>, ignored; allowed there: metric, "
		   "metricGroup, source", NULL);
	metricdef_free(md);

	/* children of an unknown element are not reported again */
	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n"
		      "    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "    <library><name>x</name><bad/></library>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:8:5: warning: <library>: unknown element in "
		   "<source>", "allowed there: sharedLibrary, preload, functions",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n"
		      "    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "    <functions><begin>f</begin></functions>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:8:16: warning: <begin>: unknown element in "
		   "<functions>, ignored; allowed there: start, stop", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup id=\"g\">\n"
		      "    <metric ref=\"m\"/>\n    <group/>\n"
		      "  </metricGroup>\n" SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:8:5: warning: <group>: unknown element in "
		   "<metricGroup>, ignored; allowed there: displayName, "
		   "description, metric", NULL);
	metricdef_free(md);

	/* inside an element that holds text, or attributes only */
	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display><description>a <b>bold</b> one"
		      "</description></display>\n" M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:5:29: warning: <b>: element inside <description>, "
		   "ignored; <description> holds text only", NULL);
	ck_assert_str_eq(md->md_files[0]->f_metrics[0]->m_description.t_val,
			 "a  one");
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE
		      "    <source ref=\"s\" functionName=\"f\"><x/></source>\n"
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ELEMENT,
		   "t.xml:4:38: warning: <x>: element inside <source>, ignored;"
		   " <source> holds attributes only", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_unknown_attributes)
{
	struct metricdef *md = load_one(
		HEAD M_OPEN M_TYPE
		"    <source ref=\"s\" functionName=\"f\" function=\"g\"/>\n"
		M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ATTRIBUTE,
		   "t.xml:4:5: warning: <source function=\"g\">: unknown "
		   "attribute \"function\" of <source>, ignored; allowed: ref, "
		   "functionName, divideBySampleTime", NULL);
	metricdef_free(md);

	md = load_one(HEAD "  <metric id=\"m\" name=\"x\">\n" M_TYPE M_SRC
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ATTRIBUTE,
		   "t.xml:2:3: warning: <metric name=\"x\">: unknown attribute "
		   "\"name\" of <metric>, ignored; allowed: id", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN "    <dataType size=\"8\">uint64_t</dataType>\n"
		      M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ATTRIBUTE,
		   "t.xml:3:5: warning: <dataType size=\"8\">: unknown attribute "
		   "\"size\" of <dataType>, ignored; allowed: none", NULL);
	metricdef_free(md);

	md = load_one("<metricdefinitions version=\"1\" xmlns=\"urn:x\">\n"
		      M_OPEN M_TYPE M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_UNKNOWN_ATTRIBUTE,
		   "t.xml:1:1: warning: <metricdefinitions xmlns=\"urn:x\">: "
		   "unknown attribute \"xmlns\"", "allowed: version", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_stray_text)
{
	struct metricdef *md = load_one(HEAD M_OPEN M_TYPE "    oops\n" M_SRC
					M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_TEXT,
		   "t.xml:4:5: warning: <metric id=\"m\">: text \"oops\" "
		   "outside any element, ignored; <metric id=\"m\"> holds "
		   "elements only", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_missing)
{
	struct metricdef *md;

	md = load_one(HEAD "  <metric>\n" M_TYPE M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:2:3: <metric>: no id attribute; add id=\"...\"", NULL);
	metricdef_free(md);

	md = load_one(HEAD "  <metric id=\"\">\n" M_TYPE M_SRC M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_EMPTY,
		   "t.xml:2:3: <metric id=\"\">: empty id", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:2:3: <metric id=\"m\">: no <dataType>; add "
		   "<dataType>uint64_t</dataType> or <dataType>double"
		   "</dataType>", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:2:3: <metric id=\"m\">: no <source>; add <source "
		   "ref=\"...\" functionName=\"...\"/>", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE "    <source functionName=\"f\"/>\n"
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:4:5: <source functionName=\"f\">: no ref attribute; "
		   "add ref=\"...\" naming a <source id> of this file", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE "    <source ref=\"s\"/>\n" M_CLOSE
		      SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:4:5: <source ref=\"s\">: no functionName attribute",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source>\n    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "  </source>\n" TAIL);
	/* the source has no id, so the metric's ref finds nothing too */
	ck_assert_uint_eq(md->md_ndiags, 2);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:6:3: <source>: no id attribute", NULL);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_SOURCE_REF,
		   "t.xml:4:5: <source ref=\"s\">: no <source id=\"s\"> in this "
		   "file", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n  </source>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:6:3: <source id=\"s\">: no <sharedLibrary>; add "
		   "<sharedLibrary>libname.so</sharedLibrary>", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n    <sharedLibrary> </sharedLibrary>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_EMPTY,
		   "t.xml:7:5: <sharedLibrary>: empty; name the plugin library",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup>\n    <metric ref=\"m\"/>\n"
		      "  </metricGroup>\n" SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:6:3: <metricGroup>: no id attribute", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup id=\"g\">\n    <metric/>\n"
		      "  </metricGroup>\n" SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:7:5: <metric>: no metric named; add ref=\"...\"",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup id=\"g\">\n  </metricGroup>\n" SRC TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_MISSING,
		   "t.xml:6:3: warning: <metricGroup id=\"g\">: no <metric "
		   "ref=\"...\"/>; list the metrics of the group", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display><rel name=\"m\"/></display>\n" M_CLOSE SRC
		      TAIL);
	/* and it names the metric itself */
	ck_assert_uint_eq(md->md_ndiags, 2);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:5:14: <rel name=\"m\">: no type attribute; add "
		   "type=\"integral\"", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display><rel type=\"integral\"/></display>\n" M_CLOSE
		      SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_MISSING,
		   "t.xml:5:14: <rel type=\"integral\">: no metric named; add "
		   "name=\"...\"", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n"
		      "    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "    <functions><start></start></functions>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_EMPTY,
		   "t.xml:8:16: <start>: empty; name the library's start "
		   "function or remove the element", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n"
		      "    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "    <preload>  </preload>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_EMPTY,
		   "t.xml:8:5: warning: <preload>: empty, ignored", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_repeated)
{
	struct metricdef *md = load_one(
		HEAD M_OPEN M_TYPE "    <dataType>double</dataType>\n" M_SRC
		M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_REPEATED,
		   "t.xml:4:5: <dataType>: more than one <dataType> in <metric "
		   "id=\"m\"> (the first is at line 3); keep only one", NULL);
	/* the first counts */
	ck_assert(md->md_files[0]->f_metrics[0]->m_data_type ==
		  METRICDEF_UINT64);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <source ref=\"s\" functionName=\"g\"/>\n" M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_REPEATED,
		   "t.xml:5:5: <source>: more than one <source> in <metric "
		   "id=\"m\">", NULL);
	ck_assert_str_eq(md->md_files[0]->f_metrics[0]->m_function, "f");
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_duplicate_ids)
{
	struct metricdef *md = load_one(
		HEAD M_OPEN M_TYPE M_SRC M_CLOSE M_OPEN M_TYPE M_SRC M_CLOSE SRC
		TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID,
		   "t.xml:6:3: <metric id=\"m\">: duplicate metric id \"m\", "
		   "first defined at t.xml:2:3; give each metric its own id",
		   NULL);
	ck_assert(md->md_files[0]->f_metrics[1]->m_duplicate);
	ck_assert_ptr_eq(metricdef_find_metric(md, "m"),
			 md->md_files[0]->f_metrics[0]);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE SRC SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID,
		   "t.xml:9:3: <source id=\"s\">: duplicate source id \"s\", "
		   "first defined at t.xml:6:3", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup id=\"g\"><metric ref=\"m\"/></metricGroup>\n"
		      "  <metricGroup id=\"g\"><metric ref=\"m\"/></metricGroup>\n"
		      SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID,
		   "t.xml:7:3: <metricGroup id=\"g\">: duplicate group id \"g\","
		   " first defined at t.xml:6:3", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_duplicate_across_files)
{
	struct metricdef *md = metricdef_new();
	static const char group[] =
		HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		"  <metricGroup id=\"g\"><metric ref=\"m\"/></metricGroup>\n"
		SRC TAIL;
	load(md, "a/one.xml", group);
	expect_clean(md);
	load(md, "b/two.xml", group);
	ck_assert_int_eq(metricdef_finish(md), 0);
	ck_assert_uint_eq(md->md_ndiags, 2);
	ck_assert_uint_eq(md->md_nerrors, 2);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID,
		   "b/two.xml:2:3: <metric id=\"m\">: duplicate metric id \"m\","
		   " first defined at a/one.xml:2:3; give each metric its own "
		   "id or remove one of the files", NULL);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID,
		   "b/two.xml:6:3: <metricGroup id=\"g\">: duplicate group id "
		   "\"g\", first defined at a/one.xml:6:3", NULL);
	/* the same source id in two files is fine: it names a library
	 * inside its own file */
	ck_assert_uint_eq(md->md_files[0]->f_nerrors, 0);
	ck_assert_uint_eq(md->md_files[1]->f_nerrors, 2);
	ck_assert_ptr_eq(metricdef_find_metric(md, "m")->m_file,
			 md->md_files[0]);
	/* the group of the second file still points at its own metric */
	ck_assert_ptr_eq(md->md_files[1]->f_groups[0]->g_refs[0].gr_target,
			 md->md_files[1]->f_metrics[0]);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_id_white_space)
{
	struct metricdef *md = load_one(
		HEAD "  <metric id=\"my metric\">\n" M_TYPE M_SRC M_CLOSE SRC
		TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_ID,
		   "t.xml:2:3: warning: <metric id=\"my metric\">: id contains "
		   "white space", NULL);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_bad_values)
{
	struct metricdef *md;

	md = load_one(HEAD M_OPEN "    <dataType>int</dataType>\n" M_SRC
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DATA_TYPE,
		   "t.xml:3:5: <dataType>: \"int\" is not a data type; use "
		   "uint64_t or double", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN "    <dataType>Double</dataType>\n" M_SRC
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DATA_TYPE,
		   "t.xml:3:5: <dataType>: \"Double\" is not a data type", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE "    <domain>space</domain>\n" M_SRC
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DOMAIN,
		   "t.xml:4:5: <domain>: \"space\" is not a domain; use time",
		   NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE "    <onePerNode>yes</onePerNode>\n"
		      M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_BOOLEAN,
		   "t.xml:4:5: <onePerNode>: \"yes\" is not a boolean; use true "
		   "or false", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE "    <backfill>TRUE</backfill>\n"
		      M_SRC M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_BOOLEAN,
		   "t.xml:4:5: <backfill>: \"TRUE\" is not a boolean", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE
		      "    <source ref=\"s\" functionName=\"f\" "
		      "divideBySampleTime=\"on\"/>\n" M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_BOOLEAN,
		   "t.xml:4:5: <source ref=\"s\" divideBySampleTime=\"on\">: "
		   "divideBySampleTime \"on\" is not a boolean; use true or "
		   "false", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE
		      "    <source ref=\"s\" functionName=\"get value\"/>\n"
		      M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_SYMBOL,
		   "t.xml:4:5: <source ref=\"s\" functionName=\"get value\">: "
		   "functionName \"get value\" is not a function name", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <source id=\"s\">\n"
		      "    <sharedLibrary>libx.so</sharedLibrary>\n"
		      "    <functions><stop>9stop</stop></functions>\n"
		      "  </source>\n" TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_SYMBOL,
		   "t.xml:8:16: <stop>: \"9stop\" is not a function name", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display><type>memroy</type></display>\n" M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_WARNING, METRICDEF_R_DISPLAY_TYPE,
		   "t.xml:5:14: warning: <type>: \"memroy\" is not a metric "
		   "type; use one of cpu_time, energy, instructions, io, memory, "
		   "mpi, other (it is shown as other)", NULL);
	ck_assert(!md->md_files[0]->f_metrics[0]->m_type_known);
	metricdef_free(md);

	/* every documented type (and the reference example's) is known */
	for (size_t i = 0; metricdef_types[i]; i++) {
		char *xml = xasprintf(HEAD M_OPEN M_TYPE M_SRC
				      "    <display><type>%s</type></display>\n"
				      M_CLOSE SRC TAIL, metricdef_types[i]);
		md = load_one(xml);
		expect_clean(md);
		ck_assert(md->md_files[0]->f_metrics[0]->m_type_known);
		metricdef_free(md);
		free(xml);
	}
}
END_TEST

START_TEST(metricdef_bad_colours)
{
	static const char *const bad[] = {
		"gren", "#12", "#12345", "#1234567890", "#GGG", "#", "",
		"rgb(1, 2, 3)", "SpecialLine", "SpecialLinex", "green yellow",
		"#fff0", "0xffffff",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *xml = xasprintf(HEAD M_OPEN M_TYPE M_SRC
				      "    <display><colour>%s</colour>"
				      "</display>\n" M_CLOSE SRC TAIL, bad[i]);
		char *quoted = xasprintf("\"%s\" is not a colour", bad[i]);
		struct metricdef *md = load_one(xml);
		expect_one(md, METRICDEF_WARNING, METRICDEF_R_COLOUR,
			   "t.xml:5:14: warning: <colour>: ", quoted,
			   "use #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB or an "
			   "SVG colour name such as green", NULL);
		ck_assert(md->md_files[0]->f_metrics[0]->m_colour_value.c_kind ==
			  COLOUR_NONE);
		metricdef_free(md);
		free(xml);
		free(quoted);
	}
}
END_TEST

START_TEST(metricdef_references)
{
	struct metricdef *md;

	md = load_one(HEAD M_OPEN M_TYPE
		      "    <source ref=\"x\" functionName=\"f\"/>\n" M_CLOSE SRC
		      TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_SOURCE_REF,
		   "t.xml:4:5: <source ref=\"x\">: no <source id=\"x\"> in this "
		   "file; add it or correct ref", NULL);
	ck_assert_ptr_null(md->md_files[0]->f_metrics[0]->m_source);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC M_CLOSE
		      "  <metricGroup id=\"g\">\n"
		      "    <metric ref=\"m\"/>\n"
		      "    <metric ref=\"n\"/>\n"
		      "  </metricGroup>\n" SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_GROUP_REF,
		   "t.xml:8:5: <metric ref=\"n\">: no <metric id=\"n\"> in this "
		   "file; define it or correct ref", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display>\n"
		      "      <rel type=\"integral\" name=\"total\"/>\n"
		      "    </display>\n" M_CLOSE SRC TAIL);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_REL_NAME,
		   "t.xml:6:7: <rel type=\"integral\" name=\"total\">: no "
		   "<metric id=\"total\"> in the loaded definition files; define "
		   "it or correct name", NULL);
	metricdef_free(md);

	md = load_one(HEAD M_OPEN M_TYPE M_SRC
		      "    <display>\n"
		      "      <rel type=\"derivative\" name=\"m\"/>\n"
		      "    </display>\n" M_CLOSE SRC TAIL);
	ck_assert_uint_eq(md->md_ndiags, 2);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_REL_TYPE,
		   "t.xml:6:7: <rel type=\"derivative\" name=\"m\">: type "
		   "\"derivative\" is not supported; use type=\"integral\"",
		   NULL);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_REL_NAME,
		   "t.xml:6:7: <rel type=\"derivative\" name=\"m\">: names the "
		   "metric itself", NULL);
	metricdef_free(md);
}
END_TEST

/* A rel may name a metric of a file loaded later: it is checked by
 * metricdef_finish(), once. */
START_TEST(metricdef_rel_across_files)
{
	struct metricdef *md = metricdef_new();
	load(md, "a.xml",
	     HEAD M_OPEN M_TYPE M_SRC
	     "    <display><rel type=\"integral\" name=\"n\"/></display>\n"
	     M_CLOSE SRC TAIL);
	load(md, "b.xml",
	     HEAD "  <metric id=\"n\">\n" M_TYPE M_SRC M_CLOSE SRC TAIL);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	ck_assert_ptr_eq(md->md_files[0]->f_metrics[0]->m_rels[0].r_target,
			 md->md_files[1]->f_metrics[0]);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	metricdef_free(md);
}
END_TEST

START_TEST(metricdef_too_many_problems)
{
	size_t n = 150, len = 0;
	char *xml = malloc(n * 16 + 256);
	len += (size_t)sprintf(xml, HEAD M_OPEN);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(xml + len, "    <x%zu/>\n", i);
	sprintf(xml + len, M_TYPE M_SRC M_CLOSE SRC TAIL);
	struct metricdef *md = load_one(xml);
	ck_assert_uint_eq(md->md_nwarnings, n);
	ck_assert_uint_eq(md->md_files[0]->f_nwarnings, n);
	ck_assert_uint_eq(md->md_ndiags, METRICDEF_MAX_DIAGS + 1);
	const struct metricdef_diag *last = &md->md_diags[md->md_ndiags - 1];
	ck_assert(last->d_rule == METRICDEF_R_LIMIT);
	ck_assert_str_eq(last->d_text, "t.xml: more than 100 problems; the "
				       "others are not shown; fix these first");
	ck_assert(!strncmp(md->md_diags[0].d_text, "t.xml:3:5: warning: <x0>",
			   24));
	metricdef_free(md);
	free(xml);
}
END_TEST

/* Values in messages are quoted with control characters escaped and
 * long ones cut. */
START_TEST(metricdef_message_quoting)
{
	char *longid = malloc(201);
	memset(longid, 'a', 200);
	longid[200] = '\0';
	char *xml = xasprintf(HEAD M_OPEN
			      "    <dataType>in&#9;t\"&#x9b;31m</dataType>\n"
			      M_SRC M_CLOSE SRC
			      "  <metric id=\"%s x\">\n" M_TYPE M_SRC M_CLOSE TAIL,
			      longid);
	struct metricdef *md = load_one(xml);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_DATA_TYPE,
		   "t.xml:3:5: <dataType>: \"in\\x09t\\\"\\xc2\\x9b31m\" is not a "
		   "data type", NULL);
	expect_has(md, METRICDEF_WARNING, METRICDEF_R_ID,
		   "t.xml:9:3: warning: <metric id=\"aaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\">: id contains white",
		   NULL);
	for (size_t i = 0; i < md->md_ndiags; i++)
		for (const char *p = md->md_diags[i].d_text; *p; p++)
			ck_assert((unsigned char)*p >= 0x20);
	metricdef_free(md);
	free(xml);
	free(longid);
}
END_TEST

START_TEST(metricdef_load_file_errors)
{
	struct metricdef *md = metricdef_new();
	char *dir = tmpdir();
	char *missing = xasprintf("%s/none.xml", dir);
	ck_assert_int_eq(metricdef_load_file(md, missing), 0);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_IO, missing,
		   ": cannot be read: No such file or directory; check the path",
		   NULL);
	ck_assert(md->md_files[0]->f_unreadable);
	ck_assert_int_eq(metricdef_load_file(md, dir), 0);
	char *isdir = xasprintf("%s: cannot be read: Is a directory", dir);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_IO, isdir, NULL);
	free(isdir);
	ck_assert_int_eq(metricdef_load_file(NULL, dir), MAPS_EINVAL);
	ck_assert_int_eq(metricdef_load_buffer(md, NULL, NULL, "", 0),
			 MAPS_EINVAL);
	metricdef_free(md);
	rm_rf(dir);
	free(dir);
	free(missing);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Libraries */

static char *template1_lib(void)
{
	char *p = xasprintf("%s/test/plugins/.libs/libtemplate1.so",
			    builddir());
	REQUIRE(access(p, R_OK) == 0, "%s: %s (make check builds it)", p,
		strerror(errno));
	return p;
}

static char *read_template1_xml(void)
{
	char *path = xasprintf("%s/test/plugins/template1.xml", srcdir());
	FILE *f = fopen(path, "r");
	REQUIRE(f, "%s: %s", path, strerror(errno));
	char *buf = calloc(1, 65536);
	size_t n = fread(buf, 1, 65535, f);
	fclose(f);
	REQUIRE(n > 0 && n < 65535, "%s: size", path);
	free(path);
	return buf;
}

START_TEST(metricdef_template1_libraries)
{
	char *dir = tmpdir(), *lib = template1_lib();
	char *link = xasprintf("%s/libtemplate1.so", dir);
	char *xmlpath = xasprintf("%s/template1.xml", dir);
	char *xml = read_template1_xml();
	REQUIRE(symlink(lib, link) == 0, "symlink: %s", strerror(errno));
	write_file(xmlpath, xml);

	struct metricdef *md = metricdef_new();
	ck_assert_int_eq(metricdef_load_file(md, xmlpath), 0);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	ck_assert_uint_eq(md->md_files[0]->f_nmetrics, 4);
	ck_assert(md->md_files[0]->f_metrics[3]->m_backfill);
	ck_assert_str_eq(md->md_files[0]->f_sources[0]->s_library_path, link);
	ck_assert_int_eq(metricdef_check_libraries(md), 0);
	expect_clean(md);
	metricdef_free(md);

	rm_rf(dir);
	free(dir);
	free(lib);
	free(link);
	free(xmlpath);
	free(xml);
}
END_TEST

START_TEST(metricdef_library_checks)
{
	char *dir = tmpdir(), *lib = template1_lib();
	char *sub = xasprintf("%s/defs", dir);
	char *link = xasprintf("%s/libtemplate1.so", sub);
	char *bad = xasprintf("%s/libbad.so", sub);
	char *xmlpath = xasprintf("%s/t.xml", sub);
	mkdirs(sub);
	REQUIRE(symlink(lib, link) == 0, "symlink: %s", strerror(errno));
	write_file(bad, "not a library\n");
	char *xml = xasprintf(
		HEAD                                                    /* 1 */
		"  <metric id=\"a\">\n"                                 /* 2 */
		"    <dataType>uint64_t</dataType>\n"                   /* 3 */
		"    <source ref=\"t\" functionName=\"template1_calls\"/>\n"
		"  </metric>\n"                                         /* 5 */
		"  <metric id=\"b\">\n"                                 /* 6 */
		"    <dataType>uint64_t</dataType>\n"                   /* 7 */
		"    <source ref=\"t\" functionName=\"template1_nope\"/>\n"
		"  </metric>\n"                                         /* 9 */
		"  <metric id=\"c\">\n"                                 /* 10 */
		"    <dataType>uint64_t</dataType>\n"                   /* 11 */
		"    <source ref=\"missing\" functionName=\"f\"/>\n"    /* 12 */
		"  </metric>\n"                                         /* 13 */
		"  <source id=\"t\">\n"                                 /* 14 */
		"    <sharedLibrary>libtemplate1.so</sharedLibrary>\n"  /* 15 */
		"    <preload>libtemplate1.so libnopreload.so</preload>\n"
		"    <functions>\n"                                     /* 17 */
		"      <start>start_profiling</start>\n"                /* 18 */
		"      <stop>stop_profiling_nope</stop>\n"              /* 19 */
		"    </functions>\n"                                    /* 20 */
		"  </source>\n"                                         /* 21 */
		"  <source id=\"missing\">\n"                           /* 22 */
		"    <sharedLibrary>libnone.so</sharedLibrary>\n"       /* 23 */
		"  </source>\n"                                         /* 24 */
		"  <source id=\"abs\">\n"                               /* 25 */
		"    <sharedLibrary>%s/nowhere/libabs.so</sharedLibrary>\n"
		"  </source>\n"                                         /* 27 */
		"  <source id=\"bad\">\n"                               /* 28 */
		"    <sharedLibrary>libbad.so</sharedLibrary>\n"        /* 29 */
		"  </source>\n"                                         /* 30 */
		"  <source id=\"dir\">\n"                               /* 31 */
		"    <sharedLibrary>.</sharedLibrary>\n"                /* 32 */
		"  </source>\n" TAIL,                                   /* 33 */
		dir);
	write_file(xmlpath, xml);

	struct metricdef *md = metricdef_new();
	ck_assert_int_eq(metricdef_load_file(md, xmlpath), 0);
	ck_assert_int_eq(metricdef_finish(md), 0);
	expect_clean(md);
	ck_assert_int_eq(metricdef_check_libraries(md), 0);
	char *p;
	p = xasprintf("%s:8:5: <source ref=\"t\" functionName=\"template1_nope\">"
		      ": function not found in %s: \"template1_nope\"; check "
		      "the name, and that the library exports it",
		      xmlpath, link);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_FUNCTION, p, NULL);
	free(p);
	p = xasprintf("%s:19:7: <stop>: function not found in %s: "
		      "\"stop_profiling_nope\"", xmlpath, link);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_FUNCTION, p, NULL);
	free(p);
	p = xasprintf("%s:16:5: <preload>: library not found: %s/"
		      "libnopreload.so (No such file or directory); install the "
		      "library next to the definition file or give its absolute "
		      "path", xmlpath, sub);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY, p, NULL);
	free(p);
	p = xasprintf("%s:23:5: <sharedLibrary>: library not found: %s/"
		      "libnone.so (No such file or directory)", xmlpath, sub);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY, p, NULL);
	free(p);
	p = xasprintf("%s:26:5: <sharedLibrary>: library not found: "
		      "%s/nowhere/libabs.so (No such file or directory); install "
		      "the library there or correct the path", xmlpath, dir);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY, p, NULL);
	free(p);
	p = xasprintf("%s:29:5: <sharedLibrary>: cannot load %s:", xmlpath,
		      bad);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY, p, NULL);
	free(p);
	p = xasprintf("%s:32:5: <sharedLibrary>: library not found: %s/. is "
		      "not a file", xmlpath, sub);
	expect_has(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY, p, NULL);
	free(p);
	ck_assert_uint_eq(md->md_ndiags, 7);
	metricdef_free(md);

	/* a relative name never resolves in the current directory: with
	 * the library in the current directory and the definition
	 * elsewhere, it is not found */
	char *elsewhere = xasprintf("%s/elsewhere", dir);
	char *xml2path = xasprintf("%s/t2.xml", elsewhere);
	mkdirs(elsewhere);
	write_file(xml2path,
		   HEAD "  <metric id=\"a\">\n"
		   "    <dataType>uint64_t</dataType>\n"
		   "    <source ref=\"t\" functionName=\"template1_calls\"/>\n"
		   "  </metric>\n"
		   "  <source id=\"t\">\n"
		   "    <sharedLibrary>libtemplate1.so</sharedLibrary>\n"
		   "  </source>\n" TAIL);
	REQUIRE(chdir(sub) == 0, "chdir: %s", strerror(errno));
	md = metricdef_new();
	ck_assert_int_eq(metricdef_load_file(md, "../elsewhere/t2.xml"), 0);
	ck_assert_str_eq(md->md_files[0]->f_sources[0]->s_library_path,
			 p = xasprintf("%s/libtemplate1.so", elsewhere));
	free(p);
	ck_assert_int_eq(metricdef_check_libraries(md), 0);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_LIBRARY,
		   "../elsewhere/t2.xml:7:5: <sharedLibrary>: library not "
		   "found: ", "/elsewhere/libtemplate1.so", NULL);
	metricdef_free(md);

	REQUIRE(chdir("/") == 0, "chdir /");
	rm_rf(dir);
	free(dir);
	free(lib);
	free(sub);
	free(link);
	free(bad);
	free(xmlpath);
	free(xml);
	free(elsewhere);
	free(xml2path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Colours */

START_TEST(colour_forms)
{
	struct colour c;
	ck_assert_int_eq(colour_parse("#f80", 0, &c), 0);
	ck_assert(c.c_kind == COLOUR_HEX);
	ck_assert_uint_eq(c.c_rgb8[0], 255);
	ck_assert_uint_eq(c.c_rgb8[1], 136);
	ck_assert_uint_eq(c.c_rgb8[2], 0);
	ck_assert_uint_eq(c.c_rgb16[1], 0x8888);
	ck_assert_int_eq(colour_parse("#FF8000", 0, &c), 0);
	ck_assert_uint_eq(c.c_rgb8[1], 128);
	ck_assert_uint_eq(c.c_rgb16[1], 0x8080);
	ck_assert_int_eq(colour_parse("#fff800000", 0, &c), 0);
	ck_assert_uint_eq(c.c_rgb16[0], 65535);
	ck_assert_uint_eq(c.c_rgb16[1], 0x8008);
	ck_assert_uint_eq(c.c_rgb8[1], 128);
	ck_assert_int_eq(colour_parse("#ffff80000001", 0, &c), 0);
	ck_assert_uint_eq(c.c_rgb16[0], 0xffff);
	ck_assert_uint_eq(c.c_rgb16[1], 0x8000);
	ck_assert_uint_eq(c.c_rgb16[2], 1);
	ck_assert_uint_eq(c.c_rgb8[2], 0);
	ck_assert_int_eq(colour_parse("  #AbC\n", 0, &c), 0);
	ck_assert_uint_eq(c.c_rgb8[0], 0xaa);

	ck_assert_int_eq(colour_parse("green", 0, &c), 0);
	ck_assert(c.c_kind == COLOUR_NAME);
	ck_assert_str_eq(c.c_name, "green");
	ck_assert_int_eq(colour_parse("LightGoldenRodYellow", 0, &c), 0);
	ck_assert_str_eq(c.c_name, "lightgoldenrodyellow");

	ck_assert_int_eq(colour_parse("SpecialLine3", 0, &c), MAPS_EINVAL);
	ck_assert(c.c_kind == COLOUR_NONE);
	ck_assert_int_eq(colour_parse("SpecialLine3", COLOUR_PALETTE_OK, &c),
			 0);
	ck_assert(c.c_kind == COLOUR_PALETTE);
	ck_assert_uint_eq(c.c_index, 3);

	ck_assert_int_eq(colour_parse("rgb(255, 0, 10)", 0, &c), MAPS_EINVAL);
	ck_assert_int_eq(
		colour_parse("rgb(255, 0, 10)", COLOUR_FUNCTIONS_OK, &c), 0);
	ck_assert(c.c_kind == COLOUR_RGB);
	ck_assert_uint_eq(c.c_v[0], 255);
	ck_assert_uint_eq(c.c_v[2], 10);
	ck_assert_int_eq(
		colour_parse("hsl(19, 70, 71)", COLOUR_FUNCTIONS_OK, &c), 0);
	ck_assert(c.c_kind == COLOUR_HSL);
	ck_assert_int_eq(
		colour_parse("hsv (359,100,0)", COLOUR_FUNCTIONS_OK, &c), 0);
	ck_assert(c.c_kind == COLOUR_HSV);

	static const char *const bad[] = {
		"", " ", "#", "#f", "#ff", "#ffff", "#fffff", "#fffffff",
		"#ffffffffff", "#fffffffffffff", "#ggg", "# fff", "fff",
		"greenish", "green2", "rgb(256, 0, 0)", "hsl(360, 0, 0)",
		"hsv(0, 101, 0)", "rgb(1, 2)", "rgb(1, 2, 3", "rgb(1, 2, 3) x",
		"rgb(-1, 2, 3)", "rgb(1,,3)", "SpecialLine", "SpecialLine1a",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		REQUIRE(colour_parse(bad[i],
				     COLOUR_PALETTE_OK | COLOUR_FUNCTIONS_OK,
				     &c) == MAPS_EINVAL &&
				c.c_kind == COLOUR_NONE,
			"'%s' parsed as a colour", bad[i]);
	ck_assert_int_eq(colour_parse(NULL, 0, &c), MAPS_EINVAL);
}
END_TEST

/* A colour as CSS, NULL when it is none (partial-report forms). */
static const char *css_of(const char *s, char *b, size_t n)
{
	struct colour c;
	if (colour_parse(s, COLOUR_FUNCTIONS_OK, &c) || colour_css(&c, b, n))
		return NULL;
	return b;
}

/* The CSS of colours, as the HTML report's sanitiser writes <font color>
 * (formerly htmlsafe_colour() of lib/report/out, test_html.c). */
START_TEST(colour_css_forms)
{
	char b[32];
	ck_assert_str_eq(css_of("#abc", b, sizeof(b)), "#aabbcc");
	ck_assert_str_eq(css_of("#A0B1C2", b, sizeof(b)), "#a0b1c2");
	ck_assert_str_eq(css_of("#fff000fff", b, sizeof(b)), "#ff00ff");
	ck_assert_str_eq(css_of("#ffff00000000", b, sizeof(b)), "#ff0000");
	ck_assert_str_eq(css_of("rgb(255, 0, 10)", b, sizeof(b)), "#ff000a");
	ck_assert_str_eq(css_of("hsl(0, 100, 50)", b, sizeof(b)), "#ff0000");
	ck_assert_str_eq(css_of("hsv (120, 100, 100)", b, sizeof(b)),
			 "#00ff00");
	ck_assert_str_eq(css_of(" SteelBlue ", b, sizeof(b)), "steelblue");
	static const char *const bad[] = {
		"", "#ab", "#abcd", "#ggg", "rgb(256,0,0)", "rgb(1,2)",
		"hsl(360,0,0)", "hsl(1,101,0)", "notacolour",
		"red;background:url(x)", "red\" onclick=\"x", "expression(1)",
		"rgb(1,2,3) x", NULL,
	};
	for (int i = 0; bad[i]; i++)
		ck_assert_msg(css_of(bad[i], b, sizeof(b)) == NULL,
			      "%s accepted", bad[i]);
	ck_assert_ptr_null(css_of(NULL, b, sizeof(b)));
	/* no CSS for a palette colour, nor into a buffer too small */
	struct colour c;
	ck_assert_int_eq(colour_parse("SpecialLine2", COLOUR_PALETTE_OK, &c),
			 0);
	ck_assert_int_eq(colour_css(&c, b, sizeof(b)), MAPS_EINVAL);
	ck_assert_int_eq(colour_parse("#abc", 0, &c), 0);
	ck_assert_int_eq(colour_css(&c, b, 7), MAPS_EINVAL);
	ck_assert_str_eq(b, "");
}
END_TEST

START_TEST(metricdef_svg_keywords)
{
	struct colour c;
	ck_assert_uint_eq(metricdef_nsvg_colours, 147);
	ck_assert_ptr_null(metricdef_svg_colours[147]);
	for (size_t i = 0; i < metricdef_nsvg_colours; i++) {
		char upper[64];
		const char *k = metricdef_svg_colours[i];
		if (i)
			REQUIRE(strcmp(metricdef_svg_colours[i - 1], k) < 0,
				"not sorted at %s", k);
		REQUIRE(colour_parse(k, 0, &c) == 0 &&
				c.c_kind == COLOUR_NAME && !strcmp(c.c_name, k),
			"%s not parsed", k);
		for (size_t j = 0; k[j] && j < sizeof(upper) - 1; j++)
			upper[j] = (char)(k[j] - 'a' + 'A');
		upper[strlen(k)] = '\0';
		REQUIRE(colour_parse(upper, 0, &c) == 0 && !strcmp(c.c_name, k),
			"%s not parsed", upper);
	}
	/* a few by name, from both ends and the middle of the list */
	static const char *const some[] = {
		"aliceblue", "yellowgreen", "darkslategrey", "grey", "gray",
		"fuchsia", "magenta", "aqua", "cyan", "rebeccapurple",
	};
	for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++) {
		int want = strcmp(some[i], "rebeccapurple") ? 0 : MAPS_EINVAL;
		REQUIRE(colour_parse(some[i], 0, &c) == want, "%s: want %d",
			some[i], want);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* The search path */

static void clear_env(void)
{
	unsetenv("MAPSAMPLE_CONFIG_DIR");
	unsetenv("ALLINEA_CONFIG_DIR");
}

START_TEST(metricdef_search_order)
{
	char *t = tmpdir();
	char *home = xasprintf("%s/home", t), *cfg = xasprintf("%s/cfg", t);
	char *arm = xasprintf("%s/arm", t), *inst = xasprintf("%s/inst", t);
	char *d1 = xasprintf("%s/d1", t), *d2 = xasprintf("%s/d2", t);
	const char *cli[] = {d1, d2};
	struct metricdef_search sp = {cli, 2, inst};
	struct metricdef_dir *dirs;
	size_t n;

	clear_env();
	setenv("HOME", home, 1);
	setenv("MAPSAMPLE_CONFIG_DIR", cfg, 1);
	setenv("ALLINEA_CONFIG_DIR", arm, 1);
	ck_assert_int_eq(metricdef_search_dirs(&sp, &dirs, &n), 0);
	ck_assert_uint_eq(n, 6);
	const char *want[] = {d1, d2, NULL, NULL, NULL, inst};
	char *w2 = xasprintf("%s/metrics", cfg);
	char *w3 = xasprintf("%s/map/metrics", arm);
	char *w4 = xasprintf("%s/.mapsample/metrics", home);
	want[2] = w2;
	want[3] = w3;
	want[4] = w4;
	static const char *const origin[] = {
		"--metrics-dir", "--metrics-dir", "$MAPSAMPLE_CONFIG_DIR",
		"$ALLINEA_CONFIG_DIR", "~/.mapsample", "installed"};
	for (size_t i = 0; i < n; i++) {
		REQUIRE(!strcmp(dirs[i].sd_path, want[i]), "dir %zu: %s, want %s",
			i, dirs[i].sd_path, want[i]);
		REQUIRE(!strcmp(dirs[i].sd_origin, origin[i]),
			"dir %zu: origin %s", i, dirs[i].sd_origin);
		ck_assert(dirs[i].sd_explicit == (i < 2));
	}
	metricdef_free_dirs(dirs, n);

	/* ALLINEA_CONFIG_DIR unset: Arm MAP's default, ~/.allinea */
	unsetenv("ALLINEA_CONFIG_DIR");
	unsetenv("MAPSAMPLE_CONFIG_DIR");
	sp.sp_ndirs = 0;
	ck_assert_int_eq(metricdef_search_dirs(&sp, &dirs, &n), 0);
	ck_assert_uint_eq(n, 3);
	char *wa = xasprintf("%s/.allinea/map/metrics", home);
	ck_assert_str_eq(dirs[0].sd_path, wa);
	ck_assert_str_eq(dirs[1].sd_path, w4);
	ck_assert_str_eq(dirs[2].sd_path, inst);
	metricdef_free_dirs(dirs, n);

	/* the same directory twice (by another name too) is searched once,
	 * at its first place */
	mkdirs(w4);
	char *alias = xasprintf("%s/home/../home/.mapsample", t);
	setenv("MAPSAMPLE_CONFIG_DIR", alias, 1);
	const char *cli2[] = {w4};
	sp.sp_dirs = cli2;
	sp.sp_ndirs = 1;
	ck_assert_int_eq(metricdef_search_dirs(&sp, &dirs, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(dirs[0].sd_path, w4);
	ck_assert(dirs[0].sd_explicit);
	ck_assert_str_eq(dirs[1].sd_path, wa);
	metricdef_free_dirs(dirs, n);

	/* the installed directory by default */
	sp.sp_installed = NULL;
	sp.sp_ndirs = 0;
	ck_assert_int_eq(metricdef_search_dirs(&sp, &dirs, &n), 0);
	REQUIRE(strstr(dirs[n - 1].sd_path, "/metrics") &&
			!strcmp(dirs[n - 1].sd_origin, "installed"),
		"installed: %s", dirs[n - 1].sd_path);
	metricdef_free_dirs(dirs, n);

	rm_rf(t);
	free(t);
	free(home);
	free(cfg);
	free(arm);
	free(inst);
	free(d1);
	free(d2);
	free(w2);
	free(w3);
	free(w4);
	free(wa);
	free(alias);
}
END_TEST

static void put_def(const char *dir, const char *name, const char *id)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *xml = xasprintf(HEAD "  <metric id=\"%s\">\n" M_TYPE M_SRC M_CLOSE
			      SRC TAIL, id);
	write_file(path, xml);
	free(path);
	free(xml);
}

START_TEST(metricdef_search_files_and_duplicates)
{
	char *t = tmpdir();
	char *home = xasprintf("%s/home", t);
	char *d1 = xasprintf("%s/d1", t), *cfg = xasprintf("%s/cfg", t);
	char *cfgm = xasprintf("%s/metrics", cfg);
	char *arm = xasprintf("%s/arm", t);
	char *armm = xasprintf("%s/map/metrics", arm);
	char *user = xasprintf("%s/.mapsample/metrics", home);
	char *inst = xasprintf("%s/inst", t);
	char *missing = xasprintf("%s/missing", t);
	const char *cli[] = {d1, missing};
	struct metricdef_search sp = {cli, 2, inst};
	char **files;
	size_t n;

	clear_env();
	setenv("HOME", home, 1);
	setenv("MAPSAMPLE_CONFIG_DIR", cfg, 1);
	setenv("ALLINEA_CONFIG_DIR", arm, 1);
	mkdirs(d1);
	mkdirs(cfgm);
	mkdirs(armm);
	mkdirs(user);
	mkdirs(inst);
	put_def(d1, "b.xml", "d1.b");
	put_def(d1, "a.xml", "d1.a");
	put_def(d1, "B.xml", "d1.B");
	put_def(d1, ".hidden.xml", "hidden");
	put_def(d1, "notes.txt", "notes");
	put_def(d1, "x.xml~", "backup");
	char *subdir = xasprintf("%s/sub.xml", d1);
	mkdirs(subdir);
	put_def(cfgm, "z.xml", "cfg.z");
	put_def(armm, "custom1.xml", "arm.custom1");
	put_def(user, "u.xml", "shared");
	put_def(inst, "default.xml", "shared");

	struct metricdef *md = metricdef_new();
	ck_assert_int_eq(metricdef_search_files(md, &sp, &files, &n), 0);
	const char *want[] = {"d1/B.xml", "d1/a.xml", "d1/b.xml",
			      "cfg/metrics/z.xml", "arm/map/metrics/custom1.xml",
			      "home/.mapsample/metrics/u.xml",
			      "inst/default.xml"};
	REQUIRE(n == 7, "%zu files", n);
	for (size_t i = 0; i < n; i++) {
		char *w = xasprintf("%s/%s", t, want[i]);
		REQUIRE(!strcmp(files[i], w), "file %zu: %s, want %s", i,
			files[i], w);
		free(w);
	}
	metricdef_free_files(files, n);
	/* the missing --metrics-dir is an error, other missing ones not */
	char *p = xasprintf("%s: --metrics-dir directory cannot be read: No "
			    "such file or directory; give a directory of metric "
			    "definition files", missing);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_IO, p, NULL);
	free(p);
	metricdef_free(md);

	/* everything loads; the id defined again in the installed
	 * directory is an error naming both places */
	sp.sp_ndirs = 1;
	md = metricdef_new();
	ck_assert_int_eq(metricdef_load_search_path(md, &sp), 0);
	ck_assert_uint_eq(md->md_nfiles, 7);
	p = xasprintf("%s/inst/default.xml:2:3: <metric id=\"shared\">: "
		      "duplicate metric id \"shared\", first defined at "
		      "%s/home/.mapsample/metrics/u.xml:2:3; give each metric "
		      "its own id or remove one of the files", t, t);
	expect_one(md, METRICDEF_ERROR, METRICDEF_R_DUPLICATE_ID, p, NULL);
	free(p);
	ck_assert_ptr_eq(metricdef_find_metric(md, "shared")->m_file,
			 md->md_files[5]);
	ck_assert_ptr_nonnull(metricdef_find_metric(md, "arm.custom1"));
	metricdef_free(md);

	/* md may be NULL: nothing reported */
	sp.sp_ndirs = 2;
	ck_assert_int_eq(metricdef_search_files(NULL, &sp, &files, &n), 0);
	ck_assert_uint_eq(n, 7);
	metricdef_free_files(files, n);

	rm_rf(t);
	free(t);
	free(home);
	free(d1);
	free(cfg);
	free(cfgm);
	free(arm);
	free(armm);
	free(user);
	free(inst);
	free(missing);
	free(subdir);
}
END_TEST

/* Users of Arm MAP keep their plugins under $ALLINEA_CONFIG_DIR/map/
 * metrics: the reference's custom1.xml found there loads, its library
 * resolving in that directory. */
START_TEST(metricdef_allinea_layout)
{
	char *t = tmpdir();
	char *armm = xasprintf("%s/arm/map/metrics", t);
	char *src = xasprintf("%s/test/plugins/custom1.xml", srcdir());
	char *dst = xasprintf("%s/custom1.xml", armm);
	char *arm = xasprintf("%s/arm", t);
	char *cmd;
	clear_env();
	setenv("HOME", t, 1);
	setenv("ALLINEA_CONFIG_DIR", arm, 1);
	mkdirs(armm);
	cmd = xasprintf("cp '%s' '%s'", src, dst);
	REQUIRE(system(cmd) == 0, "%s", cmd);
	struct metricdef_search sp = {NULL, 0, "/nonexistent/installed"};
	struct metricdef *md = metricdef_new();
	ck_assert_int_eq(metricdef_load_search_path(md, &sp), 0);
	expect_clean(md);
	ck_assert_uint_eq(md->md_nfiles, 1);
	char *lib = xasprintf("%s/libcustom1.so", armm);
	ck_assert_str_eq(md->md_files[0]->f_sources[0]->s_library_path, lib);
	metricdef_free(md);
	rm_rf(t);
	free(t);
	free(armm);
	free(src);
	free(dst);
	free(arm);
	free(cmd);
	free(lib);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The man page's examples */

/* Undoes the roff escapes the XML of the page may use. */
static void demdoc(char *s)
{
	char *o = s;
	while (*s) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		if (*s == '&') {
			s++;
		} else if (*s == 'e' || *s == '\\') {
			*o++ = '\\';
			s++;
		} else if (*s == '-') {
			*o++ = '-';
			s++;
		} else if (!strncmp(s, "(aq", 3)) {
			*o++ = '\'';
			s += 3;
		} else if (!strncmp(s, "(dq", 3)) {
			*o++ = '"';
			s += 3;
		} else {
			ck_abort_msg("unknown escape \\%s in the man page", s);
		}
	}
	*o = '\0';
}

START_TEST(metricdef_man_page_examples)
{
	char *path = xasprintf("%s/man/mapsample-metrics.5", srcdir());
	FILE *f = fopen(path, "r");
	char line[4096];
	char *xml = NULL;
	size_t len = 0, nxml = 0;
	bool examples = false, block = false;
	REQUIRE(f, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".Sh ", 4)) {
			examples = !strcmp(line, ".Sh EXAMPLES\n");
			continue;
		}
		if (examples && !block && !strncmp(line, ".Bd -literal", 12)) {
			block = true;
			len = 0;
			free(xml);
			xml = calloc(1, 1);
			continue;
		}
		if (block && !strncmp(line, ".Ed", 3)) {
			block = false;
			if (!strstr(xml, "<metricdefinitions"))
				continue;
			struct metricdef *md = metricdef_new();
			char *name = xasprintf("mapsample-metrics.5 example %zu",
					       ++nxml);
			load(md, name, xml);
			ck_assert_int_eq(metricdef_finish(md), 0);
			REQUIRE(md->md_ndiags == 0, "%s:\n%s\nmessages:%s", name,
				xml, all_diags(md));
			metricdef_free(md);
			free(name);
			continue;
		}
		if (block) {
			demdoc(line);
			size_t l = strlen(line);
			xml = realloc(xml, len + l + 1);
			memcpy(xml + len, line, l + 1);
			len += l;
		}
	}
	fclose(f);
	free(xml);
	REQUIRE(nxml >= 2, "%s: %zu definition files under EXAMPLES, want 2 "
		"or more", path, nxml);
	free(path);
}
END_TEST

static Suite *metricdef_suite(void)
{
	Suite *s = suite_create("metricdef");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, metricdef_minimal_clean);
	tcase_add_test(tc, metricdef_full_round_trip);
	tcase_add_test(tc, metricdef_custom1_reference_clean);
	tcase_add_test(tc, metricdef_arm_map_extensions);
	tcase_add_test(tc, metricdef_xml_not_well_formed);
	tcase_add_test(tc, metricdef_root_and_version);
	tcase_add_test(tc, metricdef_unknown_elements);
	tcase_add_test(tc, metricdef_unknown_attributes);
	tcase_add_test(tc, metricdef_stray_text);
	tcase_add_test(tc, metricdef_missing);
	tcase_add_test(tc, metricdef_repeated);
	tcase_add_test(tc, metricdef_duplicate_ids);
	tcase_add_test(tc, metricdef_duplicate_across_files);
	tcase_add_test(tc, metricdef_id_white_space);
	tcase_add_test(tc, metricdef_bad_values);
	tcase_add_test(tc, metricdef_bad_colours);
	tcase_add_test(tc, metricdef_references);
	tcase_add_test(tc, metricdef_rel_across_files);
	tcase_add_test(tc, metricdef_too_many_problems);
	tcase_add_test(tc, metricdef_message_quoting);
	tcase_add_test(tc, metricdef_load_file_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("libraries");
	tcase_add_test(tc, metricdef_template1_libraries);
	tcase_add_test(tc, metricdef_library_checks);
	suite_add_tcase(s, tc);

	tc = tcase_create("colours");
	tcase_add_test(tc, colour_forms);
	tcase_add_test(tc, colour_css_forms);
	tcase_add_test(tc, metricdef_svg_keywords);
	suite_add_tcase(s, tc);

	tc = tcase_create("search");
	tcase_add_test(tc, metricdef_search_order);
	tcase_add_test(tc, metricdef_search_files_and_duplicates);
	tcase_add_test(tc, metricdef_allinea_layout);
	suite_add_tcase(s, tc);

	tc = tcase_create("man");
	tcase_add_test(tc, metricdef_man_page_examples);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(metricdef_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
