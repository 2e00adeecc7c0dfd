/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the built-in metric plugins (plugins/<name>/): every
 * definition file of the build tree (plugins/metrics/<name>.xml) reads
 * and checks against its library without a message; each plugin, loaded
 * with dlopen() from the library its definition file names, is
 * initialized, started, asked for every metric twice (or more) with
 * advancing sample times, stopped and cleaned up, as the sampler does;
 * the values are checked against readings this test takes itself
 * (getrusage(), /proc/self/statm, /proc/meminfo, /proc/stat,
 * /proc/loadavg), against work done between the calls (CPU burnt, pages
 * touched, sleeps), or exactly against files the test writes (fake
 * /proc/stat, /proc/loadavg and powercap trees, through the plugins'
 * configuration values) and against the test's mapsample_io_bytes().
 * The plugins' kept-open files (struct plugin_file of plugins/plugin_i.h)
 * are tested directly: re-read, reopened in a fork child, after the test
 * closes their descriptor and after it puts another file on its number.
 *
 * The plugin API is lib/pluginapi, linked into this executable and
 * exported with -export-dynamic as the sampler exports it; the test
 * passes its host hooks down (pluginapi_set_host()) and implements
 * mapsample_io_bytes() (see "The host" below).  Configuration values reach the plugins through the plugin
 * configuration file (mapsample-plugin(3)) the test writes and names in
 * $MAPSAMPLE_PLUGIN_CONFIG.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "allinea_metric_plugin_api.h"
#include "defs/metricdef.h"
#include "pluginapi/pluginapi.h"
#include <mapsample/plugin.h>

#include "../../plugins/plugin_i.h"

#ifndef ABS_TOP_BUILDDIR
#define ABS_TOP_BUILDDIR "."
#endif

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

/* ------------------------------------------------------------------ */
/* The host: what the sampler gives plugins. */

/* The last error each hook received; cleared by plugin_initialize(). */
struct error_record {
	bool e_set;
	uintptr_t e_id;
	int e_code;
	char e_msg[1024];
};
static struct error_record plugin_error, metric_error;

static void record_error(struct error_record *r, uintptr_t id, int code,
			 const char *msg)
{
	r->e_set = true;
	r->e_id = id;
	r->e_code = code;
	snprintf(r->e_msg, sizeof(r->e_msg), "%s", msg);
}

/* The host hooks of lib/pluginapi (pluginapi.h), which the sampler
 * passes down: allinea_set_plugin_error_message(f) and
 * allinea_set_metric_error_message(f) end here with the formatted
 * message.  main() passes them down as the sampler does. */
static void host_plugin_error(plugin_id_t plugin, int code, const char *msg)
{
	record_error(&plugin_error, plugin, code, msg);
}

static void host_metric_error(metric_id_t metric, int code, const char *msg)
{
	record_error(&metric_error, metric, code, msg);
}

static const struct pluginapi_host test_host = {
	.ph_plugin_error = host_plugin_error,
	.ph_metric_error = host_metric_error,
};

/* Every function of the API, referenced so that the linker takes all of
 * lib/pluginapi (a convenience archive) into this executable and
 * -export-dynamic exports it to the plugins. */
typedef void (*any_fn)(void);
static const any_fn api_functions[] __attribute__((used)) = {
	(any_fn)allinea_get_logical_core_count,
	(any_fn)allinea_get_physical_core_count,
	(any_fn)allinea_read_config_file,
	(any_fn)allinea_set_plugin_error_message,
	(any_fn)allinea_set_plugin_error_messagef,
	(any_fn)allinea_set_metric_error_message,
	(any_fn)allinea_set_metric_error_messagef,
	(any_fn)allinea_safe_malloc,
	(any_fn)allinea_safe_free,
	(any_fn)allinea_safe_calloc,
	(any_fn)allinea_safe_realloc,
	(any_fn)allinea_get_current_time,
	(any_fn)allinea_safe_close,
	(any_fn)allinea_safe_fprintf,
	(any_fn)allinea_safe_open,
	(any_fn)allinea_safe_printf,
	(any_fn)allinea_safe_read,
	(any_fn)allinea_safe_read_all,
	(any_fn)allinea_safe_read_line,
	(any_fn)allinea_safe_vfprintf,
	(any_fn)allinea_safe_write,
};

/* The io plugin's source, which the sampler provides; driven by the
 * tests. */
static uint64_t fake_read_bytes, fake_written_bytes;
static int fake_io_errno;   /* non-zero: mapsample_io_bytes() fails */
static unsigned fake_io_calls;

int mapsample_io_bytes(uint64_t *read_bytes, uint64_t *written_bytes)
{
	fake_io_calls++;
	if (fake_io_errno) {
		errno = fake_io_errno;
		return -1;
	}
	*read_bytes = fake_read_bytes;
	*written_bytes = fake_written_bytes;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Loading plugins as the sampler does */

static const char *builddir(void)
{
	const char *d = getenv("top_builddir");
	return d && *d ? d : ABS_TOP_BUILDDIR;
}

static const char *const plugin_names[] = {
	"cpu", "memory", "io", "sched", "system", "energy",
	"example-backfill", "example-startstop",
};
#define NPLUGINS (sizeof(plugin_names) / sizeof(plugin_names[0]))

/* Not in the default set: <enabled>false</enabled> on every metric. */
static bool disabled_by_default(const char *name)
{
	return !strcmp(name, "energy") || !strncmp(name, "example-", 8);
}

struct plugin {
	const char *p_name;
	struct metricdef *p_md;
	struct metricdef_file *p_file;
	struct metricdef_source *p_source;
	void *p_handle;
	plugin_id_t p_id;
	int (*p_init)(plugin_id_t, void *);
	int (*p_cleanup)(plugin_id_t, void *);
};

typedef int (*getter_u64)(metric_id_t, struct timespec *, uint64_t *);
typedef int (*getter_dbl)(metric_id_t, struct timespec *, double *);
typedef int (*startstop_fn)(plugin_id_t);

static void *must_dlsym(void *h, const char *lib, const char *sym)
{
	void *p;
	dlerror();
	p = dlsym(h, sym);
	REQUIRE(p, "%s: no function %s: %s", lib, sym,
		dlerror() ? dlerror() : "NULL");
	return p;
}

static const char *all_diags(const struct metricdef *md)
{
	static char buf[8192];
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < md->md_ndiags && n < sizeof(buf) - 1; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\n  %s",
				      md->md_diags[i].d_text);
	return buf;
}

/* Reads the build tree's plugins/metrics/NAME.xml and loads its library
 * with dlopen(RTLD_NOW): every API function the plugin uses must resolve
 * against this executable. */
static void plugin_open(struct plugin *p, const char *name)
{
	char path[PATH_MAX];

	memset(p, 0, sizeof(*p));
	p->p_name = name;
	snprintf(path, sizeof(path), "%s/plugins/metrics/%s.xml", builddir(),
		 name);
	p->p_md = metricdef_new();
	REQUIRE(p->p_md, "out of memory");
	REQUIRE(!metricdef_load_file(p->p_md, path), "cannot load %s", path);
	REQUIRE(!metricdef_finish(p->p_md), "out of memory");
	REQUIRE(p->p_md->md_ndiags == 0, "%s:%s", path, all_diags(p->p_md));
	REQUIRE(p->p_md->md_nfiles == 1, "%s: not loaded", path);
	p->p_file = p->p_md->md_files[0];
	REQUIRE(p->p_file->f_nsources == 1, "%s: %zu sources, expected 1",
		path, p->p_file->f_nsources);
	p->p_source = p->p_file->f_sources[0];
	dlerror();
	p->p_handle = dlopen(p->p_source->s_library_path,
			     RTLD_NOW | RTLD_LOCAL);
	REQUIRE(p->p_handle, "dlopen %s: %s", p->p_source->s_library_path,
		dlerror());
	*(void **)&p->p_init = must_dlsym(p->p_handle,
		p->p_source->s_library_path, "allinea_plugin_initialize");
	*(void **)&p->p_cleanup = must_dlsym(p->p_handle,
		p->p_source->s_library_path, "allinea_plugin_cleanup");
	p->p_id = (plugin_id_t)0x5100;
}

static int plugin_initialize(struct plugin *p)
{
	memset(&plugin_error, 0, sizeof(plugin_error));
	memset(&metric_error, 0, sizeof(metric_error));
	return p->p_init(p->p_id, NULL);
}

/* Initializes p and fails the test unless that succeeds. */
static void plugin_init_ok(struct plugin *p)
{
	int rc = plugin_initialize(p);
	REQUIRE(rc == 0, "%s: allinea_plugin_initialize returned %d: %s",
		p->p_name, rc, plugin_error.e_msg);
	REQUIRE(!plugin_error.e_set, "%s: initialize succeeded but set the "
		"error \"%s\"", p->p_name, plugin_error.e_msg);
}

/* The <start> or <stop> function of the source, as the XML names it. */
static startstop_fn plugin_startstop(struct plugin *p, bool start)
{
	const struct metricdef_text *t = start ? &p->p_source->s_start
					       : &p->p_source->s_stop;
	startstop_fn f;
	REQUIRE(t->t_val, "%s: no <%s> function", p->p_name,
		start ? "start" : "stop");
	*(void **)&f = must_dlsym(p->p_handle, p->p_source->s_library_path,
				  t->t_val);
	return f;
}

static void plugin_close(struct plugin *p)
{
	int rc;
	if (!p->p_handle)
		return;
	memset(&plugin_error, 0, sizeof(plugin_error));
	rc = p->p_cleanup(p->p_id, NULL);
	REQUIRE(rc == 0, "%s: allinea_plugin_cleanup returned %d: %s",
		p->p_name, rc, plugin_error.e_msg);
	dlclose(p->p_handle);
	metricdef_free(p->p_md);
	memset(p, 0, sizeof(*p));
}

/* The metric com.mapsample.metrics.<plugin>.<metric>: checks that its
 * definition has the data type and divideBySampleTime expected, returns
 * its getter and its metric handle (an arbitrary distinct number). */
static void *plugin_metric(struct plugin *p, const char *metric,
			   enum metricdef_data_type type, bool divide,
			   metric_id_t *id)
{
	char mid[256];
	struct metricdef_metric *m;

	snprintf(mid, sizeof(mid), "com.mapsample.metrics.%s.%s", p->p_name,
		 metric);
	m = metricdef_find_metric(p->p_md, mid);
	REQUIRE(m, "%s: no metric %s", p->p_name, mid);
	REQUIRE(m->m_data_type == type, "%s: dataType %s", mid,
		m->m_data_type_text.t_val);
	REQUIRE(m->m_divide_by_sample_time == divide,
		"%s: divideBySampleTime %s, expected %s", mid,
		m->m_divide_text ? m->m_divide_text : "(absent)",
		divide ? "true" : "false");
	for (size_t j = 0; j < p->p_file->f_nmetrics; j++)
		if (p->p_file->f_metrics[j] == m)
			*id = (metric_id_t)(0x6100 + j);
	return must_dlsym(p->p_handle, p->p_source->s_library_path,
			  m->m_function);
}

static getter_u64 metric_u64(struct plugin *p, const char *metric,
			     bool divide, metric_id_t *id)
{
	getter_u64 g;
	*(void **)&g = plugin_metric(p, metric, METRICDEF_UINT64, divide, id);
	return g;
}

static getter_dbl metric_dbl(struct plugin *p, const char *metric,
			     bool divide, metric_id_t *id)
{
	getter_dbl g;
	*(void **)&g = plugin_metric(p, metric, METRICDEF_DOUBLE, divide, id);
	return g;
}

#define SENTINEL_U64 (~(uint64_t)0)

/* Calls getter g as the sampler does: the value pre-set to the sentinel,
 * the time given by pointer; checks it returns 0, does not touch the
 * time, and sets no metric error.  Returns the value. */
static uint64_t get_u64(getter_u64 g, metric_id_t id, struct timespec t)
{
	struct timespec t0 = t;
	uint64_t v = SENTINEL_U64;
	int rc;
	memset(&metric_error, 0, sizeof(metric_error));
	rc = g(id, &t, &v);
	REQUIRE(rc == 0, "getter returned %d: %s", rc, metric_error.e_msg);
	REQUIRE(!metric_error.e_set, "getter succeeded but set the error "
		"\"%s\"", metric_error.e_msg);
	REQUIRE(t.tv_sec == t0.tv_sec && t.tv_nsec == t0.tv_nsec,
		"getter changed the sample time");
	return v;
}

static double get_dbl(getter_dbl g, metric_id_t id, struct timespec t)
{
	struct timespec t0 = t;
	double v = NAN;
	int rc;
	memset(&metric_error, 0, sizeof(metric_error));
	rc = g(id, &t, &v);
	REQUIRE(rc == 0, "getter returned %d: %s", rc, metric_error.e_msg);
	REQUIRE(!metric_error.e_set, "getter succeeded but set the error "
		"\"%s\"", metric_error.e_msg);
	REQUIRE(t.tv_sec == t0.tv_sec && t.tv_nsec == t0.tv_nsec,
		"getter changed the sample time");
	return v;
}

/* Calls g expecting a failure: returns -1 and the metric error (for id)
 * has a non-empty one-line message. */
static void get_u64_fails(getter_u64 g, metric_id_t id, struct timespec t)
{
	uint64_t v = SENTINEL_U64;
	int rc;
	memset(&metric_error, 0, sizeof(metric_error));
	rc = g(id, &t, &v);
	REQUIRE(rc != 0, "getter succeeded (value %llu), expected a failure",
		(unsigned long long)v);
	REQUIRE(v == SENTINEL_U64, "failing getter changed the value");
	REQUIRE(metric_error.e_set && metric_error.e_id == id,
		"failing getter set no metric error for its metric");
	REQUIRE(metric_error.e_msg[0] && !strchr(metric_error.e_msg, '\n'),
		"metric error not one non-empty line: \"%s\"",
		metric_error.e_msg);
}

static void get_dbl_fails(getter_dbl g, metric_id_t id, struct timespec t)
{
	double v = NAN;
	int rc;
	memset(&metric_error, 0, sizeof(metric_error));
	rc = g(id, &t, &v);
	REQUIRE(rc != 0, "getter succeeded (value %g), expected a failure", v);
	REQUIRE(isnan(v), "failing getter changed the value");
	REQUIRE(metric_error.e_set && metric_error.e_id == id,
		"failing getter set no metric error for its metric");
	REQUIRE(metric_error.e_msg[0] && !strchr(metric_error.e_msg, '\n'),
		"metric error not one non-empty line: \"%s\"",
		metric_error.e_msg);
}

/* ------------------------------------------------------------------ */
/* Independent readings and work between calls */

static struct timespec now(void)
{
	return allinea_get_current_time();
}

static struct timespec ts_plus_ns(struct timespec t, long long ns)
{
	long long total = (long long)t.tv_nsec + ns;
	t.tv_sec += (time_t)(total / 1000000000);
	total %= 1000000000;
	if (total < 0) {
		total += 1000000000;
		t.tv_sec--;
	}
	t.tv_nsec = (long)total;
	return t;
}

static struct rusage usage(void)
{
	struct rusage ru;
	REQUIRE(!getrusage(RUSAGE_SELF, &ru), "getrusage: %s",
		strerror(errno));
	return ru;
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile uint64_t burn_sink;

/* Spends about sec seconds of user CPU time. */
static void burn_user(double sec)
{
	double end = cpu_seconds() + sec;
	while (cpu_seconds() < end)
		for (int i = 0; i < 100000; i++)
			burn_sink = burn_sink * 6364136223846793005u + 1;
}

/* Touches n new pages (minor faults) and returns the mapping. */
static void *touch_pages(size_t n)
{
	long ps = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, n * (size_t)ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(m != MAP_FAILED, "mmap: %s", strerror(errno));
	/* One fault per page, also where transparent huge pages would map
	 * 512 pages at a time. */
	(void)madvise(m, n * (size_t)ps, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		m[i * (size_t)ps] = 1;
	return m;
}

static uint64_t statm_rss(void)
{
	unsigned long long size, res;
	FILE *f = fopen("/proc/self/statm", "r");
	REQUIRE(f, "/proc/self/statm: %s", strerror(errno));
	REQUIRE(fscanf(f, "%llu %llu", &size, &res) == 2, "statm");
	fclose(f);
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

static uint64_t meminfo_used(void)
{
	char line[256];
	unsigned long long total = 0, avail = 0, v;
	FILE *f = fopen("/proc/meminfo", "r");
	REQUIRE(f, "/proc/meminfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu", &v) == 1)
			total = v;
		else if (sscanf(line, "MemAvailable: %llu", &v) == 1)
			avail = v;
	}
	fclose(f);
	REQUIRE(total && avail, "/proc/meminfo: no MemTotal/MemAvailable");
	return (total - avail) * 1024;
}

static uint64_t stat_interrupts(void)
{
	static char line[1 << 16];
	unsigned long long v = 0;
	bool found = false;
	FILE *f = fopen("/proc/stat", "r");
	REQUIRE(f, "/proc/stat: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "intr %llu", &v) == 1) {
			found = true;
			break;
		}
	fclose(f);
	REQUIRE(found, "/proc/stat: no intr line");
	return v;
}

static double loadavg1(void)
{
	double v;
	FILE *f = fopen("/proc/loadavg", "r");
	REQUIRE(f, "/proc/loadavg: %s", strerror(errno));
	REQUIRE(fscanf(f, "%lf", &v) == 1, "/proc/loadavg");
	fclose(f);
	return v;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	REQUIRE(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	REQUIRE(!fclose(f), "%s: %s", path, strerror(errno));
}

/* A directory for the files the tests write, made by main() before the
 * tests run and removed after (the tests run in child processes). */
static char tmpdir[256];

static void make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_plugins.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "test_plugins: mkdtemp %s: %s; set TMPDIR to "
			"a writable directory\n", tmpdir, strerror(errno));
		exit(EXIT_FAILURE);
	}
}

static int remove_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	if (remove(path))
		fprintf(stderr, "test_plugins: cannot remove %s: %s\n", path,
			strerror(errno));
	return 0;
}

static void remove_tmpdir(void)
{
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *tmp_path(const char *name)
{
	static char bufs[4][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 4];
	snprintf(b, PATH_MAX, "%s/%s", tmpdir, name);
	return b;
}

/* Empties the plugin configuration file: the checked fixture of every
 * test, run in the test's process. */
static void config_reset(void)
{
	const char *path = getenv("MAPSAMPLE_PLUGIN_CONFIG");
	FILE *f;

	REQUIRE(path && *path, "MAPSAMPLE_PLUGIN_CONFIG unset");
	f = fopen(path, "w");
	REQUIRE(f && !fclose(f), "%s: %s", path, strerror(errno));
}

/* Sets the configuration value var of metric for the plugins: appends
 * it to the plugin configuration file, which config_reset() emptied
 * before the test. */
static void set_config(const char *var, const char *metric, const char *val)
{
	const char *path = getenv("MAPSAMPLE_PLUGIN_CONFIG");
	FILE *f;

	REQUIRE(path && *path, "MAPSAMPLE_PLUGIN_CONFIG unset");
	f = fopen(path, "a");
	REQUIRE(f, "%s: %s", path, strerror(errno));
	fprintf(f, "[%s]\n%s = %s\n", metric, var, val);
	REQUIRE(!fclose(f), "%s: %s", path, strerror(errno));
}

/* ------------------------------------------------------------------ */
/* Definition files */

/* Every build-tree definition file, loaded into one set (so ids are
 * unique across them) and checked against its library: no error, no
 * warning.  Each follows the naming scheme, fills in every display
 * field, groups all its metrics, and names its library by absolute path
 * in the build tree. */
START_TEST(plugins_definitions_clean)
{
	struct metricdef *md = metricdef_new();
	char path[PATH_MAX], prefix[128], src_id[128], lib[PATH_MAX];

	REQUIRE(md, "out of memory");
	for (size_t i = 0; i < NPLUGINS; i++) {
		snprintf(path, sizeof(path), "%s/plugins/metrics/%s.xml",
			 builddir(), plugin_names[i]);
		REQUIRE(!metricdef_load_file(md, path), "%s", path);
	}
	REQUIRE(!metricdef_finish(md), "out of memory");
	REQUIRE(!metricdef_check_libraries(md), "out of memory");
	REQUIRE(md->md_nerrors == 0 && md->md_nwarnings == 0,
		"%u errors, %u warnings:%s", md->md_nerrors,
		md->md_nwarnings, all_diags(md));
	REQUIRE(md->md_nfiles == NPLUGINS, "%zu files", md->md_nfiles);

	for (size_t i = 0; i < NPLUGINS; i++) {
		const char *name = plugin_names[i];
		struct metricdef_file *f = md->md_files[i];
		struct metricdef_source *s;
		struct metricdef_group *g;

		snprintf(prefix, sizeof(prefix), "com.mapsample.metrics.%s.",
			 name);
		snprintf(src_id, sizeof(src_id), "com.mapsample.metrics.%s_src",
			 name);
		snprintf(lib, sizeof(lib),
			 "%s/plugins/%s/.libs/libmapsample-%s.so", builddir(),
			 name, name);
		REQUIRE(f->f_nsources == 1 && f->f_ngroups == 1,
			"%s: %zu sources, %zu groups; expected one each",
			f->f_path, f->f_nsources, f->f_ngroups);
		s = f->f_sources[0];
		g = f->f_groups[0];
		REQUIRE(!strcmp(s->s_id, src_id), "%s: source id %s",
			f->f_path, s->s_id);
		REQUIRE(s->s_library_path && !strcmp(s->s_library_path, lib),
			"%s: library %s, expected %s", f->f_path,
			s->s_library_path, lib);
		REQUIRE(g->g_display_name.t_val && *g->g_display_name.t_val &&
			g->g_description.t_val && *g->g_description.t_val,
			"%s: group without displayName or description",
			f->f_path);
		REQUIRE(g->g_nrefs == f->f_nmetrics && f->f_nmetrics > 0,
			"%s: group has %zu of %zu metrics", f->f_path,
			g->g_nrefs, f->f_nmetrics);
		for (size_t j = 0; j < f->f_nmetrics; j++) {
			struct metricdef_metric *m = f->f_metrics[j];
			const char *en = m->m_enabled.t_val;
			REQUIRE(!strncmp(m->m_id, prefix, strlen(prefix)),
				"%s: metric id %s does not start with %s",
				f->f_path, m->m_id, prefix);
			REQUIRE(m->m_display_name.t_val &&
					*m->m_display_name.t_val &&
					m->m_description.t_val &&
					*m->m_description.t_val &&
					m->m_type_known &&
					m->m_colour_value.c_kind != COLOUR_NONE,
				"%s: %s: display incomplete", f->f_path,
				m->m_id);
			REQUIRE(m->m_source == s, "%s: %s: source", f->f_path,
				m->m_id);
			if (disabled_by_default(name))
				REQUIRE(en && !strcmp(en, "false"),
					"%s: %s: expected <enabled>false"
					"</enabled>", f->f_path, m->m_id);
			else
				REQUIRE(!en, "%s: %s: <enabled> %s in the "
					"default set", f->f_path, m->m_id, en);
		}
	}
	metricdef_free(md);
}
END_TEST

/* ------------------------------------------------------------------ */
/* cpu */

START_TEST(plugins_cpu_percent)
{
	struct plugin p;
	metric_id_t uid, sid;
	getter_dbl user, sys;
	struct rusage a1, b1, a2, b2, a3, b3;
	struct timespec t1, t2, t3;
	double u, s, u2, s2;

	plugin_open(&p, "cpu");
	user = metric_dbl(&p, "user", true, &uid);
	sys = metric_dbl(&p, "system", true, &sid);
	REQUIRE(uid != sid, "metric handles");
	plugin_init_ok(&p);

	/* First calls: no previous value, the sentinel stays. */
	t1 = now();
	a1 = usage();
	u = get_dbl(user, uid, t1);
	s = get_dbl(sys, sid, t1);
	b1 = usage();
	REQUIRE(isnan(u) && isnan(s), "first call gave %g %g, expected no "
		"value", u, s);

	/* 0.3 s of user time, a little system time (page faults). */
	burn_user(0.3);
	munmap(touch_pages(2048), 2048 * (size_t)sysconf(_SC_PAGESIZE));

	t2 = now();
	a2 = usage();
	s = get_dbl(sys, sid, t2);
	b2 = usage();
	/* Burnt after the shared reading of t2: not in user's t2 value. */
	burn_user(0.05);
	u = get_dbl(user, uid, t2);

	/* value = CPU seconds * 100: in microseconds, value * 1e4. */
	REQUIRE(u * 1e4 >= (double)(tv_us(a2.ru_utime) - tv_us(b1.ru_utime)) -
			0.5 &&
		u * 1e4 <= (double)(tv_us(b2.ru_utime) - tv_us(a1.ru_utime)) +
			0.5,
		"user %g %% s outside [%llu, %llu] us", u,
		(unsigned long long)(tv_us(a2.ru_utime) - tv_us(b1.ru_utime)),
		(unsigned long long)(tv_us(b2.ru_utime) - tv_us(a1.ru_utime)));
	REQUIRE(s * 1e4 >= (double)(tv_us(a2.ru_stime) - tv_us(b1.ru_stime)) -
			0.5 &&
		s * 1e4 <= (double)(tv_us(b2.ru_stime) - tv_us(a1.ru_stime)) +
			0.5,
		"system %g outside [%llu, %llu] us", s,
		(unsigned long long)(tv_us(a2.ru_stime) - tv_us(b1.ru_stime)),
		(unsigned long long)(tv_us(b2.ru_stime) - tv_us(a1.ru_stime)));
	/* As the profiler shows it, value / elapsed seconds is a percentage,
	 * at most 100 for one thread. */
	{
		double pct = u / ((double)(t2.tv_sec - t1.tv_sec) +
				  (double)(t2.tv_nsec - t1.tv_nsec) / 1e9);
		/* (Not near 100 on a loaded machine: CPU time is what the
		 * bounds above check.) */
		REQUIRE(pct > 0 && pct < 105, "user CPU %g %% for one busy "
			"thread", pct);
	}

	/* The next sample sees the 0.05 s burnt after t2's reading. */
	t3 = ts_plus_ns(t2, 1000000);
	a3 = usage();
	u2 = get_dbl(user, uid, t3);
	s2 = get_dbl(sys, sid, t3);
	b3 = usage();
	REQUIRE(u2 * 1e4 >= (double)(tv_us(a3.ru_utime) - tv_us(b2.ru_utime))
			- 0.5 &&
		u2 * 1e4 <= (double)(tv_us(b3.ru_utime) - tv_us(a2.ru_utime))
			+ 0.5 && u2 >= 4.0,
		"user %g after 0.05 s burnt", u2);
	REQUIRE(s2 >= 0, "system %g", s2);
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* memory */

START_TEST(plugins_memory_values)
{
	struct plugin p;
	metric_id_t rid, pid, nid;
	getter_u64 rss, peak, node;
	uint64_t r, r0, r1, pk, n, n0, n1, total;
	long ps = sysconf(_SC_PAGESIZE);
	struct rusage a, b;
	struct timespec t;
	char *m;
	size_t npages = 4096;

	plugin_open(&p, "memory");
	rss = metric_u64(&p, "rss", false, &rid);
	peak = metric_u64(&p, "peak_rss", false, &pid);
	node = metric_u64(&p, "node_used", false, &nid);
	REQUIRE(p.p_md->md_files[0]->f_metrics[2]->m_one_per_node,
		"node_used is not onePerNode");
	plugin_init_ok(&p);

	t = now();
	r0 = statm_rss();
	r = get_u64(rss, rid, t);
	r1 = statm_rss();
	REQUIRE(r >= (r0 < r1 ? r0 : r1) && r <= (r0 > r1 ? r0 : r1),
		"rss %llu, /proc/self/statm says %llu then %llu",
		(unsigned long long)r, (unsigned long long)r0,
		(unsigned long long)r1);

	/* 16 MiB (with 4 KiB pages) more resident. */
	m = touch_pages(npages);
	t = ts_plus_ns(t, 4000000);
	r1 = get_u64(rss, rid, t);
	REQUIRE(r1 >= r + (npages - 64) * (uint64_t)ps &&
		r1 <= r + (npages + 1024) * (uint64_t)ps,
		"rss %llu -> %llu after touching %zu pages",
		(unsigned long long)r, (unsigned long long)r1, npages);

	/* The peak: ru_maxrss, or the largest RSS read if more. */
	a = usage();
	pk = get_u64(peak, pid, t);
	b = usage();
	REQUIRE(pk >= (uint64_t)a.ru_maxrss * 1024 && pk >= r1 &&
		pk <= (r1 > (uint64_t)b.ru_maxrss * 1024
		       ? r1 : (uint64_t)b.ru_maxrss * 1024),
		"peak %llu, rss %llu, ru_maxrss %ld KiB", (unsigned long long)pk,
		(unsigned long long)r1, b.ru_maxrss);
	munmap(m, npages * (size_t)ps);
	/* The peak stays when the memory goes. */
	t = ts_plus_ns(t, 4000000);
	REQUIRE(get_u64(rss, rid, t) < r1 - (npages / 2) * (uint64_t)ps,
		"rss did not drop after munmap");
	REQUIRE(get_u64(peak, pid, t) >= pk, "peak went down");

	/* Node memory moves with other processes: within 64 MiB. */
	n0 = meminfo_used();
	n = get_u64(node, nid, t);
	n1 = meminfo_used();
	total = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)ps;
	REQUIRE(n + (64u << 20) >= (n0 < n1 ? n0 : n1) &&
		n <= (n0 > n1 ? n0 : n1) + (64u << 20) && n < total,
		"node used %llu, /proc/meminfo says %llu then %llu, total %llu",
		(unsigned long long)n, (unsigned long long)n0,
		(unsigned long long)n1, (unsigned long long)total);
	plugin_close(&p);
}
END_TEST

/* A fork child's rss is its own: the plugin's kept-open /proc/self/statm
 * of the parent would name the parent (plugin_i.h reopens it). */
START_TEST(plugins_memory_fork_child)
{
	struct plugin p;
	metric_id_t rid, pid, nid;
	getter_u64 rss;
	struct timespec t = now();
	long ps = sysconf(_SC_PAGESIZE);
	size_t npages = 4096;
	uint64_t r0;
	pid_t child;
	int status;

	plugin_open(&p, "memory");
	rss = metric_u64(&p, "rss", false, &rid);
	(void)metric_u64(&p, "peak_rss", false, &pid);
	(void)metric_u64(&p, "node_used", false, &nid);
	plugin_init_ok(&p);
	r0 = get_u64(rss, rid, t);

	child = fork();
	REQUIRE(child >= 0, "fork: %s", strerror(errno));
	if (child == 0) {
		/* 16 MiB (with 4 KiB pages) more resident in the child
		 * only; exit status 0 when the getter sees them. */
		uint64_t v = SENTINEL_U64, s0 = statm_rss(), s1;
		void *m = touch_pages(npages);
		t = ts_plus_ns(t, 4000000);
		if (rss(rid, &t, &v))
			_exit(2);
		s1 = statm_rss();
		(void)m;
		_exit(v >= s0 + (npages - 64) * (uint64_t)ps && v <= s1 ? 0 : 1);
	}
	REQUIRE(waitpid(child, &status, 0) == child, "waitpid: %s",
		strerror(errno));
	REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"the child's rss was not the child's (status %#x)", status);
	t = ts_plus_ns(t, 8000000);
	r0 = get_u64(rss, rid, t) > r0 ? get_u64(rss, rid, t) - r0 : 0;
	REQUIRE(r0 < (npages / 2) * (uint64_t)ps,
		"the parent's rss grew by %llu with the child's pages",
		(unsigned long long)r0);
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* io */

START_TEST(plugins_io_deltas)
{
	struct plugin p;
	metric_id_t rid, wid;
	getter_u64 rd, wr;
	struct timespec t = {100, 0};
	unsigned calls;

	plugin_open(&p, "io");
	rd = metric_u64(&p, "read", true, &rid);
	wr = metric_u64(&p, "write", true, &wid);
	fake_io_errno = 0;
	fake_read_bytes = 1000000;
	fake_written_bytes = 5000;
	plugin_init_ok(&p);

	REQUIRE(get_u64(rd, rid, t) == SENTINEL_U64 &&
		get_u64(wr, wid, t) == SENTINEL_U64,
		"first call gave a value");
	fake_read_bytes += 4096;
	fake_written_bytes += 100;
	t = ts_plus_ns(t, 4000000);
	calls = fake_io_calls;
	REQUIRE(get_u64(rd, rid, t) == 4096, "read delta");
	/* Same sample: the write getter uses the same reading. */
	fake_written_bytes += 7;
	REQUIRE(get_u64(wr, wid, t) == 100, "write delta not from the "
		"sample's shared reading");
	REQUIRE(fake_io_calls == calls + 1, "%u mapsample_io_bytes() calls "
		"for one sample", fake_io_calls - calls);

	t = ts_plus_ns(t, 4000000);
	REQUIRE(get_u64(rd, rid, t) == 0 && get_u64(wr, wid, t) == 7,
		"next deltas");

	/* A counter lower than before (a new process image): no value,
	 * then deltas again. */
	fake_read_bytes = 10;
	fake_written_bytes = 20;
	t = ts_plus_ns(t, 4000000);
	REQUIRE(get_u64(rd, rid, t) == SENTINEL_U64 &&
		get_u64(wr, wid, t) == SENTINEL_U64,
		"value across a counter reset");
	fake_read_bytes = 15;
	t = ts_plus_ns(t, 4000000);
	REQUIRE(get_u64(rd, rid, t) == 5 && get_u64(wr, wid, t) == 0,
		"deltas after a reset");

	/* A failing source is a metric error for the metric asked. */
	fake_io_errno = EIO;
	t = ts_plus_ns(t, 4000000);
	get_u64_fails(wr, wid, t);
	REQUIRE(strstr(metric_error.e_msg, "/proc/self/io"),
		"message does not name /proc/self/io: %s", metric_error.e_msg);
	get_u64_fails(rd, rid, t);
	fake_io_errno = 0;
	plugin_close(&p);

	/* Initialize does not depend on mapsample_io_bytes() working yet:
	 * the sampler starts counting only after the plugins are loaded. */
	plugin_open(&p, "io");
	fake_io_errno = ENOENT;
	calls = fake_io_calls;
	plugin_init_ok(&p);
	REQUIRE(fake_io_calls == calls, "initialize called "
		"mapsample_io_bytes()");
	fake_io_errno = 0;
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sched */

START_TEST(plugins_sched_counts)
{
	struct plugin p;
	metric_id_t cid, fid;
	getter_u64 csw, flt;
	struct rusage a1, b1, a2, b2;
	struct timespec t;
	uint64_t c, f;
	size_t npages = 1000;
	void *m;

	plugin_open(&p, "sched");
	csw = metric_u64(&p, "context_switches", true, &cid);
	flt = metric_u64(&p, "page_faults", true, &fid);
	plugin_init_ok(&p);

	t = now();
	a1 = usage();
	REQUIRE(get_u64(csw, cid, t) == SENTINEL_U64 &&
		get_u64(flt, fid, t) == SENTINEL_U64,
		"first call gave a value");
	b1 = usage();

	m = touch_pages(npages);
	for (int i = 0; i < 20; i++)
		usleep(1000);   /* 20 voluntary context switches */

	t = ts_plus_ns(t, 50000000);
	a2 = usage();
	c = get_u64(csw, cid, t);
	f = get_u64(flt, fid, t);
	b2 = usage();
#define SUM_CSW(r) ((uint64_t)(r).ru_nvcsw + (uint64_t)(r).ru_nivcsw)
#define SUM_FLT(r) ((uint64_t)(r).ru_minflt + (uint64_t)(r).ru_majflt)
	REQUIRE(c >= 20 && c >= SUM_CSW(a2) - SUM_CSW(b1) &&
		c <= SUM_CSW(b2) - SUM_CSW(a1),
		"context switches %llu, getrusage bounds [%llu, %llu]",
		(unsigned long long)c,
		(unsigned long long)(SUM_CSW(a2) - SUM_CSW(b1)),
		(unsigned long long)(SUM_CSW(b2) - SUM_CSW(a1)));
	REQUIRE(f >= npages && f >= SUM_FLT(a2) - SUM_FLT(b1) &&
		f <= SUM_FLT(b2) - SUM_FLT(a1),
		"page faults %llu after touching %zu pages, bounds "
		"[%llu, %llu]", (unsigned long long)f, npages,
		(unsigned long long)(SUM_FLT(a2) - SUM_FLT(b1)),
		(unsigned long long)(SUM_FLT(b2) - SUM_FLT(a1)));
	munmap(m, npages * (size_t)sysconf(_SC_PAGESIZE));

	/* One getrusage() per sample: faults taken between the two getters
	 * of one sample time are not in the second one's value. */
	t = ts_plus_ns(t, 4000000);
	(void)get_u64(csw, cid, t);
	m = touch_pages(100);
	f = get_u64(flt, fid, t);
	REQUIRE(f < 100, "page faults %llu include faults taken after the "
		"sample's reading", (unsigned long long)f);
	t = ts_plus_ns(t, 4000000);
	f = get_u64(flt, fid, t);
	REQUIRE(f >= 100, "page faults %llu: the next sample lost the 100 "
		"faults", (unsigned long long)f);
	munmap(m, 100 * (size_t)sysconf(_SC_PAGESIZE));
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* system */

START_TEST(plugins_system_real)
{
	struct plugin p;
	metric_id_t lid, iid;
	getter_dbl load;
	getter_u64 intr;
	struct timespec t;
	uint64_t a1, b1, a2, b2, d;
	double l, l0, l1;

	plugin_open(&p, "system");
	load = metric_dbl(&p, "load", false, &lid);
	intr = metric_u64(&p, "interrupts", true, &iid);
	for (size_t i = 0; i < p.p_file->f_nmetrics; i++)
		REQUIRE(p.p_file->f_metrics[i]->m_one_per_node,
			"%s is not onePerNode", p.p_file->f_metrics[i]->m_id);
	plugin_init_ok(&p);

	t = now();
	l0 = loadavg1();
	l = get_dbl(load, lid, t);
	l1 = loadavg1();
	REQUIRE(fabs(l - l0) < 1e-9 || fabs(l - l1) < 1e-9,
		"load %g, /proc/loadavg says %g then %g", l, l0, l1);

	a1 = stat_interrupts();
	REQUIRE(get_u64(intr, iid, t) == SENTINEL_U64, "first call gave a "
		"value");
	b1 = stat_interrupts();
	usleep(100000);
	t = ts_plus_ns(t, 100000000);
	a2 = stat_interrupts();
	d = get_u64(intr, iid, t);
	b2 = stat_interrupts();
	REQUIRE(d >= a2 - b1 && d <= b2 - a1,
		"interrupts %llu, /proc/stat bounds [%llu, %llu]",
		(unsigned long long)d, (unsigned long long)(a2 - b1),
		(unsigned long long)(b2 - a1));
	plugin_close(&p);
}
END_TEST

/* A /proc/stat with n_cpus CPU lines, n_irqs counts after the intr total
 * and intr_total, or no intr line when intr_total is 0. */
static void write_fake_stat(const char *path, int n_cpus, int n_irqs,
			    unsigned long long intr_total)
{
	FILE *f = fopen(path, "w");
	REQUIRE(f, "%s: %s", path, strerror(errno));
	fprintf(f, "cpu  766316 0 523801 535820 2192 0 324 323 0 0\n");
	for (int i = 0; i < n_cpus; i++)
		fprintf(f, "cpu%d 358548 0 240837 313981 446 0 73 160 0 0\n",
			i);
	if (intr_total) {
		fprintf(f, "intr %llu", intr_total);
		for (int i = 0; i < n_irqs; i++)
			fprintf(f, " %d", i % 7 ? 0 : 1234567);
		fputc('\n', f);
	}
	/* Lines after intr that look like it must not matter. */
	fprintf(f, "ctxt 987654321\nbtime 1700000000\nintrx 5\n"
		"processes 1234\nprocs_running 1\nprocs_blocked 0\n"
		"softirq 1 2 3\n");
	REQUIRE(!fclose(f), "%s: %s", path, strerror(errno));
}

/* Exact values from files the test writes: a /proc/stat of a machine with
 * 512 CPUs and 4096 interrupt numbers (about 60 KB, several reads), and a
 * /proc/loadavg. */
START_TEST(plugins_system_fake_files)
{
	struct plugin p;
	metric_id_t lid, iid;
	getter_dbl load;
	getter_u64 intr;
	struct timespec t = {50, 0};
	const char *stat_path, *loadavg_path;

	stat_path = tmp_path("stat");
	loadavg_path = tmp_path("loadavg");
	write_fake_stat(stat_path, 512, 4096, 123456789012ull);
	write_file(loadavg_path, "12.75 0.74 1.37 1/84 28660\n");
	set_config("stat", "com.mapsample.metrics.system.interrupts",
		   stat_path);
	set_config("loadavg", "com.mapsample.metrics.system.load",
		   loadavg_path);

	plugin_open(&p, "system");
	load = metric_dbl(&p, "load", false, &lid);
	intr = metric_u64(&p, "interrupts", true, &iid);
	plugin_init_ok(&p);

	ck_assert_double_eq_tol(get_dbl(load, lid, t), 12.75, 1e-9);
	REQUIRE(get_u64(intr, iid, t) == SENTINEL_U64, "first call");
	write_fake_stat(stat_path, 512, 4096, 123456799012ull);
	t.tv_sec++;
	REQUIRE(get_u64(intr, iid, t) == 10000, "interrupts delta");
	write_fake_stat(stat_path, 1, 3, 123456799013ull);
	t.tv_sec++;
	REQUIRE(get_u64(intr, iid, t) == 1, "interrupts delta");

	write_file(loadavg_path, "0.5 0.74 1.37 1/84 28660\n");
	ck_assert_double_eq_tol(get_dbl(load, lid, t), 0.5, 1e-12);
	write_file(loadavg_path, "3 0.74 1.37 1/84 28660\n");
	ck_assert_double_eq_tol(get_dbl(load, lid, t), 3.0, 1e-12);

	/* No intr line, a load average that is no number, a file gone:
	 * metric errors naming the file. */
	write_fake_stat(stat_path, 4, 0, 0);
	t.tv_sec++;
	get_u64_fails(intr, iid, t);
	REQUIRE(strstr(metric_error.e_msg, stat_path) &&
		strstr(metric_error.e_msg, "intr"),
		"message: %s", metric_error.e_msg);
	write_file(loadavg_path, "x\n");
	get_dbl_fails(load, lid, t);
	REQUIRE(strstr(metric_error.e_msg, loadavg_path),
		"message: %s", metric_error.e_msg);
	unlink(loadavg_path);
	get_dbl_fails(load, lid, t);
	plugin_close(&p);

	/* And at initialize: a plugin error naming the file. */
	plugin_open(&p, "system");
	REQUIRE(plugin_initialize(&p) == -1, "initialize succeeded without "
		"%s", loadavg_path);
	REQUIRE(plugin_error.e_set && strstr(plugin_error.e_msg, loadavg_path)
		&& !strchr(plugin_error.e_msg, '\n'),
		"plugin error: %s", plugin_error.e_msg);
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* energy */

/* On this machine: RAPL absent, or not readable (not root), gives one
 * clean "Not supported" message and -1; where it works, values are sane
 * (power below 10 kW, energy growing). */
START_TEST(plugins_energy_this_machine)
{
	struct plugin p;
	metric_id_t pid, eid;
	getter_dbl power, energy;
	struct timespec t;
	double w, e1, e2;
	int rc;

	plugin_open(&p, "energy");
	power = metric_dbl(&p, "power", true, &pid);
	energy = metric_dbl(&p, "energy", false, &eid);
	for (size_t i = 0; i < p.p_file->f_nmetrics; i++)
		REQUIRE(p.p_file->f_metrics[i]->m_one_per_node,
			"%s is not onePerNode", p.p_file->f_metrics[i]->m_id);
	REQUIRE(p.p_file->f_metrics[0]->m_nrels == 1 &&
		!strcmp(p.p_file->f_metrics[0]->m_rels[0].r_name,
			"com.mapsample.metrics.energy.energy"),
		"power has no integral rel to energy");

	rc = plugin_initialize(&p);
	if (rc != 0) {
		REQUIRE(rc == -1, "initialize returned %d", rc);
		REQUIRE(plugin_error.e_set && plugin_error.e_id == p.p_id,
			"initialize failed without a plugin error");
		REQUIRE(!strchr(plugin_error.e_msg, '\n') &&
			!strncmp(plugin_error.e_msg, "Not supported: ", 15),
			"message: %s", plugin_error.e_msg);
		if (access("/sys/class/powercap", F_OK))
			REQUIRE(!strcmp(plugin_error.e_msg,
					"Not supported: no RAPL powercap "
					"zones under /sys/class/powercap"),
				"message: %s", plugin_error.e_msg);
		else
			REQUIRE(strstr(plugin_error.e_msg, "no RAPL") ||
				strstr(plugin_error.e_msg, "root"),
				"message: %s", plugin_error.e_msg);
		fprintf(stderr, "test_plugins: energy on this machine: %s\n",
			plugin_error.e_msg);
		plugin_close(&p);
		return;
	}
	t = now();
	REQUIRE(isnan(get_dbl(power, pid, t)), "first power call");
	e1 = get_dbl(energy, eid, t);
	usleep(200000);
	t = ts_plus_ns(t, 200000000);
	w = get_dbl(power, pid, t);
	e2 = get_dbl(energy, eid, t);
	REQUIRE(w >= 0 && w / 0.2 < 10000, "power %g J in 0.2 s", w);
	REQUIRE(e1 >= 0 && fabs(e2 - e1 - w) < 1e-6, "energy %g -> %g, "
		"power %g", e1, e2, w);
	plugin_close(&p);
}
END_TEST

static void fake_zone(const char *zone, const char *name,
		      const char *energy, const char *max)
{
	char d[PATH_MAX], f[PATH_MAX + 32];
	snprintf(d, sizeof(d), "%s/%s", tmp_path("powercap"), zone);
	REQUIRE(!mkdir(d, 0755), "mkdir %s: %s", d, strerror(errno));
	snprintf(f, sizeof(f), "%s/name", d);
	write_file(f, name);
	if (energy) {
		snprintf(f, sizeof(f), "%s/energy_uj", d);
		write_file(f, energy);
	}
	if (max) {
		snprintf(f, sizeof(f), "%s/max_energy_range_uj", d);
		write_file(f, max);
	}
}

static void set_energy(const char *zone, unsigned long long uj)
{
	char f[PATH_MAX], v[32];
	snprintf(f, sizeof(f), "%s/%s/energy_uj", tmp_path("powercap"), zone);
	snprintf(v, sizeof(v), "%llu\n", uj);
	write_file(f, v);
}

/* A powercap tree written by the test: two packages summed, their
 * subzones, psys and the MMIO duplicate left out, a wrap corrected, one
 * reading per sample. */
START_TEST(plugins_energy_fake_rapl)
{
	struct plugin p;
	metric_id_t pid, eid;
	getter_dbl power, energy;
	struct timespec t = {1000, 0};
	const char *root;

	root = tmp_path("powercap");
	REQUIRE(!mkdir(root, 0755), "mkdir %s", root);
	set_config("powercap_dir", "com.mapsample.metrics.energy.power",
		   root);

	/* No zones. */
	plugin_open(&p, "energy");
	REQUIRE(plugin_initialize(&p) == -1, "initialize without zones");
	REQUIRE(!strncmp(plugin_error.e_msg, "Not supported: no RAPL "
			 "powercap zones under ", 37) &&
		strstr(plugin_error.e_msg, root),
		"message: %s", plugin_error.e_msg);
	plugin_close(&p);

	/* The control type's directory, not a zone. */
	REQUIRE(!mkdir(tmp_path("powercap/intel-rapl"), 0755), "mkdir");
	fake_zone("intel-rapl:0", "package-0\n", "1000000\n", "2000000\n");
	fake_zone("intel-rapl:0:0", "core\n", "7\n", "2000000\n");
	fake_zone("intel-rapl:1", "package-1\n", "5000000\n",
		  "262143328850\n");
	fake_zone("intel-rapl:2", "psys\n", "42\n", "262143328850\n");
	fake_zone("intel-rapl-mmio:0", "package-0\n", "999\n", "2000000\n");

	plugin_open(&p, "energy");
	power = metric_dbl(&p, "power", true, &pid);
	energy = metric_dbl(&p, "energy", false, &eid);
	plugin_init_ok(&p);

	set_energy("intel-rapl:0", 1500000);
	set_energy("intel-rapl:1", 5250000);
	set_energy("intel-rapl:0:0", 900000000);
	set_energy("intel-rapl:2", 900000000);
	set_energy("intel-rapl-mmio:0", 900000000);
	REQUIRE(isnan(get_dbl(power, pid, t)), "first power call");
	ck_assert_double_eq_tol(get_dbl(energy, eid, t), 0.75, 1e-9);

	/* Package 0 wraps at 2000000: 500000 + 100; package 1 +1 J. */
	set_energy("intel-rapl:0", 100);
	set_energy("intel-rapl:1", 6250000);
	t.tv_sec++;
	ck_assert_double_eq_tol(get_dbl(power, pid, t), 1.5001, 1e-9);
	/* Same sample: the reading taken for power. */
	set_energy("intel-rapl:1", 9250000);
	ck_assert_double_eq_tol(get_dbl(energy, eid, t), 2.2501, 1e-9);
	t.tv_nsec = 500000000;
	ck_assert_double_eq_tol(get_dbl(energy, eid, t), 5.2501, 1e-9);
	ck_assert_double_eq_tol(get_dbl(power, pid, t), 3.0, 1e-9);

	/* A zone that cannot be read: a metric error naming it. */
	set_energy("intel-rapl:1", 0);
	REQUIRE(!unlink(tmp_path("powercap/intel-rapl:1/energy_uj")),
		"unlink");
	t.tv_sec++;
	get_dbl_fails(power, pid, t);
	REQUIRE(strstr(metric_error.e_msg, "intel-rapl:1/energy_uj"),
		"message: %s", metric_error.e_msg);
	get_dbl_fails(energy, eid, t);
	plugin_close(&p);

	/* ... and at initialize: a plugin error naming it. */
	REQUIRE(!mkdir(tmp_path("powercap/intel-rapl:1/energy_uj"), 0755),
		"mkdir");
	plugin_open(&p, "energy");
	REQUIRE(plugin_initialize(&p) == -1, "initialize succeeded");
	REQUIRE(!strncmp(plugin_error.e_msg, "Not supported: ", 15) &&
		strstr(plugin_error.e_msg, "intel-rapl:1/energy_uj") &&
		!strchr(plugin_error.e_msg, '\n'),
		"message: %s", plugin_error.e_msg);
	plugin_close(&p);

	/* Not readable: the permission message (only testable when not
	 * root: root reads anything). */
	if (geteuid() != 0) {
		REQUIRE(!rmdir(tmp_path("powercap/intel-rapl:1/energy_uj")),
			"rmdir");
		set_energy("intel-rapl:1", 1);
		REQUIRE(!chmod(tmp_path("powercap/intel-rapl:1/energy_uj"),
			       0200), "chmod");
		plugin_open(&p, "energy");
		REQUIRE(plugin_initialize(&p) == -1, "initialize succeeded");
		REQUIRE(strstr(plugin_error.e_msg, "root") &&
			strstr(plugin_error.e_msg, "intel-rapl:1/energy_uj"),
			"message: %s", plugin_error.e_msg);
		plugin_close(&p);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* example-backfill */

START_TEST(plugins_backfill_times)
{
	struct plugin p;
	metric_id_t id;
	getter_dbl elapsed;
	startstop_fn start;
	struct timespec before, after, t1, t2;
	double v1, v2;

	plugin_open(&p, "example-backfill");
	REQUIRE(p.p_file->f_metrics[0]->m_backfill, "not backfilled");
	elapsed = metric_dbl(&p, "elapsed", false, &id);
	start = plugin_startstop(&p, true);
	REQUIRE(!p.p_source->s_stop.t_val, "unexpected <stop>");
	plugin_init_ok(&p);

	get_dbl_fails(elapsed, id, now());
	REQUIRE(strstr(metric_error.e_msg, "start"), "message: %s",
		metric_error.e_msg);

	before = now();
	REQUIRE(start(p.p_id) == 0, "start failed");
	after = now();

	/* Backfilled: asked later for earlier sample times, in any order. */
	usleep(20000);
	t2 = ts_plus_ns(after, 7654321);
	t1 = ts_plus_ns(after, 1000);
	v2 = get_dbl(elapsed, id, t2);
	v1 = get_dbl(elapsed, id, t1);
	ck_assert_double_eq_tol(v2 - v1, 0.007653321, 1e-9);
	REQUIRE(v1 >= 1e-6 - 1e-9 &&
		v1 <= (double)(after.tv_sec - before.tv_sec) +
		      (double)(after.tv_nsec - before.tv_nsec) / 1e9 + 1e-6 +
		      1e-9, "elapsed %g at 1 us after start", v1);
	/* Far from the start: whole seconds exact. */
	ck_assert_double_eq_tol(get_dbl(elapsed, id, ts_plus_ns(t1,
		3600000000000ll)) - v1, 3600.0, 1e-6);
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* example-startstop */

START_TEST(plugins_startstop_order)
{
	struct plugin p;
	metric_id_t id;
	getter_u64 faults;
	startstop_fn start, stop;
	struct timespec t0 = {7, 5}, t1 = {8, 123456789}, t2 = {9, 0};
	struct rusage a, b;
	uint64_t v;
	const char *trace;
	char text[512];
	FILE *f;
	size_t n;
	void *m;

	trace = tmp_path("trace");
	set_config("trace",
		   "com.mapsample.metrics.example-startstop.minor_faults",
		   trace);
	plugin_open(&p, "example-startstop");
	faults = metric_u64(&p, "minor_faults", false, &id);
	start = plugin_startstop(&p, true);
	stop = plugin_startstop(&p, false);
	plugin_init_ok(&p);

	get_u64_fails(faults, id, t0);
	REQUIRE(metric_error.e_code != 0 && strstr(metric_error.e_msg,
						   "before the start"),
		"message: %s", metric_error.e_msg);
	a = usage();
	REQUIRE(start(p.p_id) == 0, "start failed: %s", plugin_error.e_msg);
	m = touch_pages(500);
	b = usage();
	v = get_u64(faults, id, t1);
	REQUIRE(v >= 500 && v <= (uint64_t)(b.ru_minflt - a.ru_minflt) + 16,
		"minor faults %llu after touching 500 pages (getrusage: "
		"%ld)", (unsigned long long)v, b.ru_minflt - a.ru_minflt);
	munmap(m, 500 * (size_t)sysconf(_SC_PAGESIZE));
	REQUIRE(stop(p.p_id) == 0, "stop failed");
	get_u64_fails(faults, id, t2);
	REQUIRE(strstr(metric_error.e_msg, "after the stop"),
		"message: %s", metric_error.e_msg);
	plugin_close(&p);

	f = fopen(trace, "r");
	REQUIRE(f, "%s: %s", trace, strerror(errno));
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	ck_assert_str_eq(text, "get 7.000000005\nstart\nget 8.123456789\n"
			 "stop\nget 9.000000000\n");
}
END_TEST

/* Without a trace configured nothing is written, and start after stop
 * starts again from a new baseline. */
START_TEST(plugins_startstop_restart)
{
	struct plugin p;
	metric_id_t id;
	getter_u64 faults;
	startstop_fn start, stop;
	struct timespec t = {1, 0};
	void *m;

	plugin_open(&p, "example-startstop");
	faults = metric_u64(&p, "minor_faults", false, &id);
	start = plugin_startstop(&p, true);
	stop = plugin_startstop(&p, false);
	plugin_init_ok(&p);
	REQUIRE(start(p.p_id) == 0 && stop(p.p_id) == 0, "start/stop");
	get_u64_fails(faults, id, t);
	m = touch_pages(300);
	REQUIRE(start(p.p_id) == 0, "restart");
	t.tv_sec++;
	REQUIRE(get_u64(faults, id, t) < 300, "restart kept the old "
		"baseline");
	munmap(m, 300 * (size_t)sysconf(_SC_PAGESIZE));
	plugin_close(&p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* plugin_i.h: kept-open files */

/* f's descriptor is open, moved to PLUGIN_FILE_FD_MIN or above (where the
 * descriptor limit allows it) and close-on-exec. */
static void kept_fd_ok(const struct plugin_file *f)
{
	struct rlimit rl;
	int flags;

	REQUIRE(f->pf_fd >= 0, "%s: not open", f->pf_path);
	REQUIRE(!getrlimit(RLIMIT_NOFILE, &rl), "getrlimit: %s",
		strerror(errno));
	REQUIRE(rl.rlim_cur <= PLUGIN_FILE_FD_MIN ||
		f->pf_fd >= PLUGIN_FILE_FD_MIN,
		"%s: descriptor %d, expected %d or above", f->pf_path,
		f->pf_fd, PLUGIN_FILE_FD_MIN);
	flags = fcntl(f->pf_fd, F_GETFD);
	REQUIRE(flags >= 0 && (flags & FD_CLOEXEC),
		"%s: descriptor %d not close-on-exec", f->pf_path, f->pf_fd);
}

/* The first field of /proc/self/stat read through f: the pid of the
 * process the file is about, or -1. */
static long kept_stat_pid(struct plugin_file *f)
{
	char buf[512];
	const char *p = buf;
	uint64_t v;

	if (plugin_file_read(f, buf, sizeof(buf)) <= 0 ||
	    plugin_parse_u64(&p, &v))
		return -1;
	return (long)v;
}

/* Read again from offset 0 at each call, on the same descriptor: a file
 * rewritten in place shows its new content; the bytes count as the
 * safe_* functions' (kept out of the I/O metrics); close closes. */
START_TEST(plugins_file_reread)
{
	const char *path = tmp_path("kept");
	struct plugin_file f = PLUGIN_FILE_INIT(path);
	char buf[64];
	uint64_t b0;
	int fd;

	write_file(path, "first\n");
	b0 = atomic_load(&pluginapi_safe_bytes_read);
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 6 &&
		!strcmp(buf, "first\n"), "read \"%s\"", buf);
	kept_fd_ok(&f);
	fd = f.pf_fd;
	write_file(path, "second line\n");
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 12 &&
		!strcmp(buf, "second line\n"), "read \"%s\"", buf);
	REQUIRE(f.pf_fd == fd, "reopened (%d, was %d)", f.pf_fd, fd);
	/* At most len - 1 bytes. */
	REQUIRE(plugin_file_read(&f, buf, 5) == 4 && !strcmp(buf, "seco"),
		"read \"%s\"", buf);
	REQUIRE(atomic_load(&pluginapi_safe_bytes_read) - b0 == 6 + 12 + 4,
		"%llu bytes counted as the safe_* functions', expected 22",
		(unsigned long long)(atomic_load(&pluginapi_safe_bytes_read) - b0));
	plugin_file_close(&f);
	REQUIRE(f.pf_fd == -1, "still open");
	REQUIRE(fcntl(fd, F_GETFD) == -1 && errno == EBADF,
		"descriptor %d not closed", fd);
	/* A file that cannot be opened: -1 with errno, and again. */
	f.pf_path = tmp_path("absent");
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == -1 &&
		errno == ENOENT, "read an absent file");
	REQUIRE(plugin_file_rewind(&f) == -1 && errno == ENOENT,
		"rewound an absent file");
}
END_TEST

/* A fork child does not read through its parent's descriptor (its
 * /proc/self/... names the parent, and the file offset is shared): it
 * opens its own; the parent's stays open and its own. */
START_TEST(plugins_file_fork)
{
	struct plugin_file f = PLUGIN_FILE_INIT("/proc/self/stat");
	pid_t child;
	int status, fd;

	REQUIRE(kept_stat_pid(&f) == (long)getpid(), "parent: not its pid");
	kept_fd_ok(&f);
	fd = f.pf_fd;
	child = fork();
	REQUIRE(child >= 0, "fork: %s", strerror(errno));
	if (child == 0) {
		long pid = kept_stat_pid(&f);
		if (pid != (long)getpid())
			_exit(1);
		if (f.pf_fd < PLUGIN_FILE_FD_MIN || f.pf_pid != getpid())
			_exit(2);
		if (kept_stat_pid(&f) != (long)getpid())
			_exit(3);
		plugin_file_close(&f);
		_exit(0);
	}
	REQUIRE(waitpid(child, &status, 0) == child, "waitpid: %s",
		strerror(errno));
	REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"child: exit status %#x (1: read its parent's file, 2: "
		"descriptor not reopened, 3: second read)", status);
	REQUIRE(f.pf_fd == fd && fcntl(fd, F_GETFD) >= 0,
		"the parent's descriptor changed");
	REQUIRE(kept_stat_pid(&f) == (long)getpid(),
		"parent after the child: not its pid");
	REQUIRE(f.pf_fd == fd, "the parent reopened");
	plugin_file_close(&f);
}
END_TEST

/* The program closes the descriptor behind the plugin's back: the next
 * read opens the file again. */
START_TEST(plugins_file_closed_by_program)
{
	const char *path = tmp_path("kept");
	struct plugin_file f = PLUGIN_FILE_INIT(path);
	char buf[64];

	write_file(path, "kept\n");
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 5, "first read");
	REQUIRE(!close(f.pf_fd), "close: %s", strerror(errno));
	write_file(path, "again\n");
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 6 &&
		!strcmp(buf, "again\n"), "after close: read \"%s\"", buf);
	kept_fd_ok(&f);
	plugin_file_close(&f);
}
END_TEST

/* The program puts another file on the descriptor's number (dup2): the
 * plugin reads its own file through a new descriptor and leaves the
 * program's alone: not closed, not seeked, not read. */
START_TEST(plugins_file_dup2_over)
{
	const char *path = tmp_path("kept"), *other_path = tmp_path("other");
	struct plugin_file f = PLUGIN_FILE_INIT(path);
	struct stat st, ost;
	char buf[64];
	int other, fd;

	write_file(path, "kept\n");
	write_file(other_path, "the program's file\n");
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 5, "first read");
	fd = f.pf_fd;
	other = open(other_path, O_RDONLY);
	REQUIRE(other >= 0, "%s: %s", other_path, strerror(errno));
	REQUIRE(lseek(other, 3, SEEK_SET) == 3, "lseek: %s", strerror(errno));
	REQUIRE(dup2(other, fd) == fd, "dup2: %s", strerror(errno));
	REQUIRE(plugin_file_read(&f, buf, sizeof(buf)) == 5 &&
		!strcmp(buf, "kept\n"), "after dup2: read \"%s\"", buf);
	REQUIRE(f.pf_fd != fd, "still reads through descriptor %d", fd);
	kept_fd_ok(&f);
	REQUIRE(!fstat(fd, &st) && !fstat(other, &ost) &&
		st.st_ino == ost.st_ino && st.st_dev == ost.st_dev,
		"descriptor %d no longer the program's file", fd);
	REQUIRE(lseek(fd, 0, SEEK_CUR) == 3,
		"the program's file offset moved");
	plugin_file_close(&f);
	REQUIRE(fcntl(fd, F_GETFD) >= 0, "closed the program's descriptor");
	close(other);
	close(fd);
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *plugins_suite(void)
{
	Suite *s = suite_create("plugins");
	TCase *tc;

	tc = tcase_create("definitions");
	tcase_add_checked_fixture(tc, config_reset, NULL);
	tcase_add_test(tc, plugins_definitions_clean);
	suite_add_tcase(s, tc);

	tc = tcase_create("process");
	tcase_add_checked_fixture(tc, config_reset, NULL);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, plugins_cpu_percent);
	tcase_add_test(tc, plugins_memory_values);
	tcase_add_test(tc, plugins_memory_fork_child);
	tcase_add_test(tc, plugins_io_deltas);
	tcase_add_test(tc, plugins_sched_counts);
	suite_add_tcase(s, tc);

	tc = tcase_create("node");
	tcase_add_checked_fixture(tc, config_reset, NULL);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, plugins_system_real);
	tcase_add_test(tc, plugins_system_fake_files);
	tcase_add_test(tc, plugins_energy_this_machine);
	tcase_add_test(tc, plugins_energy_fake_rapl);
	suite_add_tcase(s, tc);

	tc = tcase_create("examples");
	tcase_add_checked_fixture(tc, config_reset, NULL);
	tcase_add_test(tc, plugins_backfill_times);
	tcase_add_test(tc, plugins_startstop_order);
	tcase_add_test(tc, plugins_startstop_restart);
	suite_add_tcase(s, tc);

	tc = tcase_create("kept-open files");
	tcase_add_checked_fixture(tc, config_reset, NULL);
	tcase_add_test(tc, plugins_file_reread);
	tcase_add_test(tc, plugins_file_fork);
	tcase_add_test(tc, plugins_file_closed_by_program);
	tcase_add_test(tc, plugins_file_dup2_over);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plugins_suite());
	int failed;

	make_tmpdir();
	pluginapi_set_host(&test_host);
	/* The plugins read this configuration file, not the user's. */
	setenv("MAPSAMPLE_PLUGIN_CONFIG", tmp_path("plugins.conf"), 1);
	config_reset();
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	remove_tmpdir();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
