/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_plugins: what the built-in metric plugins cost per getter call and
 * per sample.  Loads each plugin from the build tree's definition file
 * (plugins/metrics/<name>.xml) with the real plugin API (lib/pluginapi,
 * exported with -export-dynamic as the sampler exports it), initializes
 * and starts it, then times from ordinary code (not a signal handler):
 *   - each getter alone, with a new sample time at every call, so that
 *     nothing is shared: ns per call;
 *   - each plugin's getters together at one sample time, as the sampler
 *     calls them: ns per sample for the plugin;
 *   - the default set (plugins without <enabled>false</enabled>) per
 *     sample, split into the per-process metrics, paid by every profiled
 *     process, and the onePerNode ones, paid by one process per node.
 * mapsample_io_bytes(), which the sampler provides, is defined here as it
 * would cost there: /proc/self/io read through allinea_safe_* calls.
 * The result is compared with the 1 us per sample target; the benchmark
 * reports, it does not gate (exit 0 either way, 1 only when it cannot
 * run).
 *
 *   bench_plugins [-n CALLS] [-d METRICS_DIR]
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "defs/metricdef.h"
#include "pluginapi/pluginapi.h"
#include <mapsample/plugin.h>

#ifndef ABS_TOP_BUILDDIR
#define ABS_TOP_BUILDDIR "."
#endif

#define TARGET_NS 1000.0
#define MAX_METRICS 8

static const char *const plugin_names[] = {
	"cpu", "memory", "io", "sched", "system", "energy",
	"example-backfill", "example-startstop",
};
#define NPLUGINS (sizeof(plugin_names) / sizeof(plugin_names[0]))

/* ------------------------------------------------------------------ */
/* The host side the sampler would provide. */

static char last_error[512];

static void host_plugin_error(plugin_id_t plugin, int code, const char *msg)
{
	(void)plugin;
	(void)code;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

static void host_metric_error(metric_id_t metric, int code, const char *msg)
{
	(void)metric;
	(void)code;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

/* The hooks, passed down to lib/pluginapi by main() as the sampler does. */
static const struct pluginapi_host bench_host = {
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

/* Finds "key: N" in text; 0 if absent. */
static uint64_t io_field(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	uint64_t v = 0;
	if (!p)
		return 0;
	for (p += strlen(key); *p == ' '; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

int mapsample_io_bytes(uint64_t *read_bytes, uint64_t *written_bytes)
{
	char buf[512];
	ssize_t n;
	int fd = allinea_safe_open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = allinea_safe_read_all(fd, buf, sizeof(buf) - 1);
	allinea_safe_close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	*read_bytes = io_field(buf, "rchar:");
	*written_bytes = io_field(buf, "wchar:");
	return 0;
}

/* ------------------------------------------------------------------ */

typedef int (*getter_u64)(metric_id_t, struct timespec *, uint64_t *);
typedef int (*getter_dbl)(metric_id_t, struct timespec *, double *);

struct metric {
	const char *m_id;
	bool m_double;
	bool m_per_node;     /* onePerNode */
	void *m_fn;
};

struct plugin {
	const char *p_name;
	struct metricdef *p_md;
	void *p_handle;
	bool p_ok;
	bool p_default;      /* no metric has <enabled>false</enabled> */
	struct metric p_metrics[MAX_METRICS];
	size_t p_nmetrics;
};

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static struct timespec advance(struct timespec t)
{
	t.tv_nsec += 1000000;   /* 1 ms: every call a new sample time */
	if (t.tv_nsec >= 1000000000) {
		t.tv_nsec -= 1000000000;
		t.tv_sec++;
	}
	return t;
}

/* Calls m once at time t; returns its return value. */
static int call(const struct metric *m, metric_id_t id, struct timespec t)
{
	if (m->m_double) {
		double v = NAN;
		return ((getter_dbl)m->m_fn)(id, &t, &v);
	} else {
		uint64_t v = ~(uint64_t)0;
		return ((getter_u64)m->m_fn)(id, &t, &v);
	}
}

/* Loads, initializes and starts the plugin name; false (with a message)
 * when that fails. */
static bool load(struct plugin *p, const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct metricdef_file *f;
	struct metricdef_source *s;
	int (*init)(plugin_id_t, void *);
	int (*start)(plugin_id_t);

	memset(p, 0, sizeof(*p));
	p->p_name = name;
	p->p_default = true;
	snprintf(path, sizeof(path), "%s/%s.xml", dir, name);
	p->p_md = metricdef_new();
	if (!p->p_md || metricdef_load_file(p->p_md, path) ||
	    p->p_md->md_nerrors || p->p_md->md_nfiles != 1) {
		fprintf(stderr, "bench_plugins: %s: cannot load%s%s; run make "
			"first\n", path, p->p_md && p->p_md->md_ndiags ? ": "
			: "", p->p_md && p->p_md->md_ndiags ?
			p->p_md->md_diags[0].d_text : "");
		return false;
	}
	f = p->p_md->md_files[0];
	s = f->f_sources[0];
	p->p_handle = dlopen(s->s_library_path, RTLD_NOW | RTLD_LOCAL);
	if (!p->p_handle) {
		fprintf(stderr, "bench_plugins: %s\n", dlerror());
		return false;
	}
	*(void **)&init = dlsym(p->p_handle, "allinea_plugin_initialize");
	last_error[0] = '\0';
	if (!init || init(0x100, NULL)) {
		printf("%-18s not initialized: %s\n", name, last_error);
		return false;
	}
	if (s->s_start.t_val) {
		*(void **)&start = dlsym(p->p_handle, s->s_start.t_val);
		if (!start || start(0x100)) {
			printf("%-18s not started: %s\n", name, last_error);
			return false;
		}
	}
	for (size_t i = 0; i < f->f_nmetrics && i < MAX_METRICS; i++) {
		struct metricdef_metric *m = f->f_metrics[i];
		struct metric *bm = &p->p_metrics[p->p_nmetrics++];
		bm->m_id = m->m_id;
		bm->m_double = m->m_data_type == METRICDEF_DOUBLE;
		bm->m_per_node = m->m_one_per_node;
		bm->m_fn = dlsym(p->p_handle, m->m_function);
		if (!bm->m_fn) {
			fprintf(stderr, "bench_plugins: %s: no %s\n", name,
				m->m_function);
			return false;
		}
		if (m->m_enabled.t_val && !strcmp(m->m_enabled.t_val, "false"))
			p->p_default = false;
	}
	p->p_ok = true;
	return true;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_plugins [-n CALLS] [-d METRICS_DIR]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct plugin plugins[NPLUGINS];
	char dir[PATH_MAX - 64];
	long calls = 20000;
	double proc_ns = 0, node_ns = 0;
	struct timespec t;
	int c, failed = 0;

	pluginapi_set_host(&bench_host);
	snprintf(dir, sizeof(dir), "%s/plugins/metrics", ABS_TOP_BUILDDIR);
	while ((c = getopt(argc, argv, "n:d:")) != -1) {
		switch (c) {
		case 'n':
			calls = strtol(optarg, NULL, 10);
			if (calls < 1)
				usage();
			break;
		case 'd':
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		default:
			usage();
		}
	}

	printf("bench_plugins: %ld calls each, from %s\n", calls, dir);
	printf("%-18s %-56s %10s\n", "plugin", "metric (each call a new sample "
	       "time)", "ns/call");
	t = allinea_get_current_time();
	for (size_t i = 0; i < NPLUGINS; i++) {
		struct plugin *p = &plugins[i];
		if (!load(p, dir, plugin_names[i])) {
			if (!p->p_handle)
				failed = 1;
			continue;
		}
		for (size_t j = 0; j < p->p_nmetrics; j++) {
			struct metric *m = &p->p_metrics[j];
			double t0;
			int errs = 0;
			for (int k = 0; k < 100; k++)   /* warm up */
				call(m, 0x200 + j, t = advance(t));
			t0 = now_ns();
			for (long k = 0; k < calls; k++)
				errs += call(m, 0x200 + j, t = advance(t)) != 0;
			printf("%-18s %-56s %10.0f%s\n", p->p_name, m->m_id,
			       (now_ns() - t0) / (double)calls,
			       errs ? "  (getter errors)" : "");
		}
	}

	if (failed)
		return 1;
	printf("\n%-18s %-56s %10s\n", "plugin", "its getters at one sample "
	       "time", "ns/sample");
	for (size_t i = 0; i < NPLUGINS; i++) {
		struct plugin *p = &plugins[i];
		if (!p->p_ok)
			continue;
		/* The metrics every process reads, then the onePerNode ones. */
		for (int node = 0; node < 2; node++) {
			char what[96];
			size_t n = 0;
			double t0, ns;
			for (size_t j = 0; j < p->p_nmetrics; j++)
				n += p->p_metrics[j].m_per_node == node;
			if (!n)
				continue;
			t0 = now_ns();
			for (long k = 0; k < calls; k++) {
				t = advance(t);
				for (size_t j = 0; j < p->p_nmetrics; j++)
					if (p->p_metrics[j].m_per_node == node)
						call(&p->p_metrics[j],
						     0x200 + j, t);
			}
			ns = (now_ns() - t0) / (double)calls;
			snprintf(what, sizeof(what), "%zu %s metric%s%s", n,
				 node ? "onePerNode" : "per-process",
				 n > 1 ? "s" : "",
				 p->p_default ? "" : " (not in the default "
				 "set)");
			printf("%-18s %-56s %10.0f\n", p->p_name, what, ns);
			if (p->p_default && node)
				node_ns += ns;
			else if (p->p_default)
				proc_ns += ns;
		}
	}
	printf("\ndefault set per sample: %.0f ns in every process, %.0f ns "
	       "more in the one process per node that reads the onePerNode "
	       "metrics\n", proc_ns, node_ns);
	printf("target %.0f ns per sample: met by every process when metrics "
	       "are read at most every %.0f samples (%.0f with the node "
	       "metrics)\n", TARGET_NS, ceil(proc_ns / TARGET_NS),
	       ceil((proc_ns + node_ns) / TARGET_NS));
	printf("summary: process_ns=%.0f node_ns=%.0f\n", proc_ns, node_ns);
	return 0;
}
