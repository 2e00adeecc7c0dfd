/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mhost: the metric host, the sampler's side of the Allinea/Arm MAP
 * metric plugin API (lib/pluginapi is the plugins' side).
 *
 * The launcher validates the metric definition files and passes the
 * selected metrics in MAPSAMPLE_METRICS_PLAN (format below).  In the
 * constructor, before any timer is armed, this module dlopens each
 * plugin library (RTLD_NOW, so no lazy binding happens later in a signal
 * handler), calls allinea_plugin_initialize() and the <start> function,
 * and drops a plugin that fails either, keeping its message for a
 * PLUGIN_ERROR record.
 *
 * Metric samples ("ticks") are process-wide.  A tick is due once per
 * metric interval (MAPSAMPLE_METRIC_INTERVAL, ms).  The sampling signal
 * handler takes it when it finds one due (mhost_tick(), a callback the
 * constructor registers with handler.c after the stack sample), and the
 * writer thread takes it when no handler has for a whole interval (the
 * program is idle or blocked: CPU-time timers do not fire then;
 * mhost_idle(), the writer's idle callback).  `busy` admits one tick at
 * a time, so the getters of a process are never called concurrently; a
 * thread inside an allinea_* function (pluginapi_depth > 0) never starts
 * one, so the API's own locks are never re-entered.  Values are stored raw with the time the getter left
 * in currentSampleTime.  Out values are pre-set to the sentinel (~0,
 * NaN): a getter that does not write one records "no value".
 *
 * Errors: a nonzero return or a call to allinea_set_metric_error_message
 * counts as a metric error; the first message is written at once, the
 * count again at powers of ten and when the process ends.  Sampling goes
 * on.  Plugin errors after start-up (a plugin calling
 * allinea_set_plugin_error_message from a getter, a failing <stop>) are
 * written as PLUGIN_ERROR records.  The API's error functions reach this
 * module through the hooks mhost_load() passes down to lib/pluginapi
 * (pluginapi_set_host()).
 *
 * Backfilled metrics are not called at ticks; the tick times are kept
 * (an mmap'd array) and each backfilled getter is called once per tick
 * time when the process ends.  onePerNode metrics are computed only by
 * the process that holds the node lock: an abstract unix socket named
 * after the run (MAPSAMPLE_RUN_ID), which the kernel releases when its
 * holder dies, so another process of the run can take over.
 *
 * Plan format: lines separated by '\n', fields by '\t' (the launcher
 * replaces control characters in values with spaces):
 *     mapsample-metrics 1
 *     S <library path> <start fn> <stop fn> <source id>
 *     M <source index> <flags: D N B> <u|d> <id> <function> <name>
 *       <units> <colour> <group> <domain> <description>
 *
 * Calls stream.c, io.c and real.c below it, and lib/pluginapi; the
 * handler, the writer and the process life above it call in.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <allinea_metric_plugin_api.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

#define MSG_MAX 512

struct mplugin {
	char *lib, *start_name, *stop_name, *id;
	void *handle;
	int (*init)(plugin_id_t, void *);
	int (*cleanup)(plugin_id_t, void *);
	int (*start)(plugin_id_t);
	int (*stop)(plugin_id_t);
	int active;
	/* set by host_plugin_error() */
	int pending;
	int code;
	char msg[MSG_MAX];
};

typedef int (*get_u64_fn)(metric_id_t, struct timespec *, uint64_t *);
typedef int (*get_dbl_fn)(metric_id_t, struct timespec *, double *);

struct mmetric {
	struct mplugin *p;
	uint32_t index;
	uint32_t flags;          /* MAPLOG_MD_* */
	int dbl;
	char *id, *fn, *name, *units, *colour, *group, *domain, *desc;
	void *get;
	int active;
	/* errors (written by the tick holder and the hooks it calls) */
	int flagged;
	int code;
	uint64_t errors;
	uint64_t errors_logged;
	int have_first;
	char first[MSG_MAX];
};

static struct {
	struct mplugin *plugins;
	size_t nplugins;
	struct mmetric *metrics;
	size_t nmetrics;
	size_t nactive;          /* active metrics called at ticks */
	int have_one_per_node;
	uint64_t interval_ns;
	uint64_t node_interval_ns, node_next_due;
	uint64_t next_due;
	uint64_t last_tick;
	int busy;
	int ended;
	/* backfill: tick times */
	uint64_t *times;
	size_t ntimes, captimes;
	int want_times;
	/* onePerNode */
	int node_fd;
	int node_owner;
	uint64_t node_retry_ts;
	/* MAPSAMPLE_METRICS_COST */
	int measure;
	uint64_t cost_ns, cost_ticks;
	char run_id[128];
} M = {.node_fd = -1};

/* ---- plan ---- */

static char *field(char **s)
{
	char *f = *s;
	if (!f)
		return NULL;
	char *tab = strchr(f, '\t');
	if (tab) {
		*tab = 0;
		*s = tab + 1;
	} else {
		*s = NULL;
	}
	return f;
}

static char *dupnz(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* Parses the plan; returns 0 or -1 (message printed). */
static int parse_plan(const char *plan)
{
	char *copy = strdup(plan);
	if (!copy)
		return -1;
	size_t lines = 1;
	for (const char *c = plan; *c; c++)
		lines += *c == '\n';
	M.plugins = calloc(lines, sizeof(*M.plugins));
	M.metrics = calloc(lines, sizeof(*M.metrics));
	if (!M.plugins || !M.metrics) {
		free(copy);
		return -1;
	}
	char *save = NULL;
	int lineno = 0;
	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1) {
			if (strcmp(line, "mapsample-metrics 1")) {
				fprintf(stderr, "mapsample: MAPSAMPLE_METRICS_PLAN"
						": not a version 1 plan; run the "
						"program with the mapsample of "
						"the same version\n");
				free(copy);
				return -1;
			}
			continue;
		}
		char *rest = line;
		char *kind = field(&rest);
		if (kind && strcmp(kind, "S") == 0) {
			struct mplugin *p = &M.plugins[M.nplugins];
			char *lib = field(&rest), *st = field(&rest),
			     *sp = field(&rest), *id = field(&rest);
			if (!lib || !*lib)
				continue;
			p->lib = strdup(lib);
			p->start_name = dupnz(st);
			p->stop_name = dupnz(sp);
			p->id = strdup(id && *id ? id : lib);
			M.nplugins++;
		} else if (kind && strcmp(kind, "M") == 0) {
			char *src = field(&rest), *fl = field(&rest),
			     *dt = field(&rest);
			struct mmetric *m = &M.metrics[M.nmetrics];
			char *id = field(&rest), *fn = field(&rest);
			if (!src || !fl || !dt || !id || !fn || !*fn)
				continue;
			unsigned long si = strtoul(src, NULL, 10);
			if (si >= M.nplugins)
				continue;
			m->p = &M.plugins[si];
			for (const char *f = fl; *f; f++)
				m->flags |= *f == 'D' ? MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME
					    : *f == 'N' ? MAPLOG_MD_ONE_PER_NODE
					    : *f == 'B' ? MAPLOG_MD_BACKFILL
							: 0;
			m->dbl = dt[0] == 'd';
			m->id = strdup(id);
			m->fn = strdup(fn);
			m->name = dupnz(field(&rest));
			m->units = dupnz(field(&rest));
			m->colour = dupnz(field(&rest));
			m->group = dupnz(field(&rest));
			m->domain = dupnz(field(&rest));
			m->desc = dupnz(field(&rest));
			m->index = (uint32_t)M.nmetrics;
			M.nmetrics++;
		}
	}
	free(copy);
	return 0;
}

/* ---- the hooks passed down to lib/pluginapi (async-signal-safe) ---- */

static void copy_msg(char *dst, const char *src)
{
	size_t i = 0;
	if (src)
		for (; src[i] && i < MSG_MAX - 1; i++)
			dst[i] = src[i];
	dst[i] = 0;
}

/* a, b and c joined into dst (size bytes, cut to fit).
 * Async-signal-safe. */
static void cat3(char *dst, size_t size, const char *a, const char *b,
		 const char *c)
{
	size_t n = 0;
	const char *parts[3] = {a, b, c};
	for (int k = 0; k < 3; k++)
		for (const char *p = parts[k]; *p && n < size - 1; p++)
			dst[n++] = *p;
	dst[n] = 0;
}

/* Async-signal-safe: copies into the plugin's own buffer. */
static void host_plugin_error(plugin_id_t id, int code, const char *msg)
{
	if (id == 0 || id > M.nplugins)
		return;
	struct mplugin *p = &M.plugins[id - 1];
	if (p->pending)
		return; /* the first message until it is written */
	p->code = code;
	copy_msg(p->msg, msg);
	p->pending = 1;
}

/* Async-signal-safe: copies into the metric's own buffer. */
static void host_metric_error(metric_id_t id, int code, const char *msg)
{
	if (id == 0 || id > M.nmetrics)
		return;
	struct mmetric *m = &M.metrics[id - 1];
	m->flagged = 1;
	m->code = code;
	if (!m->have_first) {
		copy_msg(m->first, msg);
		m->have_first = 1;
	}
}

/* What lib/pluginapi reports plugins' errors to (pluginapi_set_host()). */
static const struct pluginapi_host host = {
	.ph_plugin_error = host_plugin_error,
	.ph_metric_error = host_metric_error,
};

/* ---- records ---- */

static void plugin_error_record(struct tslot *t, struct mplugin *p,
				const char *what)
{
	char text[MSG_MAX + 128];
	const char *msg = p->pending && p->msg[0] ? p->msg : NULL;
	cat3(text, sizeof(text), what, msg ? ": " : "", msg ? msg : "");
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PLUGIN_ERROR;
	ev.ev_ts = now_ns();
	ev.ev_u.perr.pe_plugin = p->id;
	ev.ev_u.perr.pe_message = text;
	stream_put(t, &ev);
	p->pending = 0;
}

static void metric_error_record(struct tslot *t, struct mmetric *m,
				uint64_t ts)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_ERROR;
	ev.ev_ts = ts;
	ev.ev_u.merr.me_index = m->index;
	ev.ev_u.merr.me_count = m->errors;
	ev.ev_u.merr.me_message = m->have_first ? m->first : "";
	stream_put(t, &ev);
	m->errors_logged = m->errors;
}

static int is_power_of_ten(uint64_t n)
{
	while (n >= 10 && n % 10 == 0)
		n /= 10;
	return n == 1;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u),
			      (long)(ns % 1000000000u)};
	return ts;
}

/* Decimal digits of v into buf (at least 21 bytes).  Async-signal-safe. */
static const char *u64_dec(uint64_t v, char *buf)
{
	char *e = buf + 20;
	*e = '\0';
	do
		*--e = (char)('0' + v % 10);
	while (v /= 10);
	return e;
}

/* Turns off plugin p's metrics (all plugins' when all) for the rest of
 * the run; its <stop> and cleanup are not called either. */
static void plugins_off(struct mplugin *p, int all)
{
	size_t n = 0;
	for (size_t i = 0; i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (all || m->p == p) {
			m->active = 0;
			m->p->active = 0;
		}
		if (m->active && !(m->flags & MAPLOG_MD_BACKFILL))
			n++;
	}
	if (M.want_times && !n)
		n = 1;
	__atomic_store_n(&M.nactive, n, __ATOMIC_RELEASE);
}

/*
 * m's getter did not return by the deadline or crashed (guard.c took us
 * back here): its plugin is disabled for the rest of the run, with a
 * PLUGIN_ERROR record naming the getter (mapsample shows it at the end).  api: it was
 * inside the plugin API, whose state (the safe allocator's lock) it may
 * hold, so every plugin is disabled.  Async-signal-safe.
 */
static void getter_failed(struct tslot *t, struct mmetric *m, int api)
{
	int sig = 0;
	int why = guard_why(&sig);
	char num[24], text[MSG_MAX];
	if (why == GUARD_CRASH)
		cat3(text, sizeof(text), "getter ", m->fn,
		     sig == SIGSEGV ? " crashed (SIGSEGV)"
		     : sig == SIGBUS ? " crashed (SIGBUS)"
		     : sig == SIGILL ? " crashed (SIGILL)"
				     : " crashed (SIGFPE)");
	else
		cat3(text, sizeof(text), "getter ", m->fn,
		     " did not return within ");
	if (why != GUARD_CRASH) {
		size_t n = strlen(text);
		cat3(text + n, sizeof(text) - n,
		     u64_dec(guard_timeout_ms(), num), " ms", "");
	}
	size_t n = strlen(text);
	cat3(text + n, sizeof(text) - n,
	     api ? " inside the plugin API; all metric plugins are"
		 : "; the plugin is",
	     " disabled for the rest of the run", "");
	struct mplugin *p = m->p;
	p->pending = 0;
	plugin_error_record(t, p, text); /* mapsample prints it at the end */
	plugins_off(p, api);
}

/*
 * Calls m's getter for time ts (in: when; out: what the getter left,
 * unless backfill) and writes the value and any error into t's stream.
 * Async-signal-safe as far as the getter is.
 */
static void call_getter(struct tslot *t, struct mmetric *m, uint64_t ts,
			int backfill)
{
	struct timespec when = ns_ts(ts);
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
	ev.ev_u.mval.mv_index = m->index;
	m->flagged = 0;
	int rc;
	metric_id_t mid = (metric_id_t)(m - M.metrics) + 1;
	/* volatile: read again after a jump back from the guard */
	volatile int depth = pluginapi_depth;
	volatile double dv = NAN;
	volatile uint64_t uv = ~(uint64_t)0;
	if (sigsetjmp(guard_env, 1)) {
		guard_leave();
		int api = pluginapi_depth != depth;
		pluginapi_depth = depth;
		getter_failed(t, m, api);
		return;
	}
	guard_enter();
	if (m->dbl) {
		double v = NAN;
		rc = ((get_dbl_fn)m->get)(mid, &when, &v);
		dv = v;
	} else {
		uint64_t v = ~(uint64_t)0;
		rc = ((get_u64_fn)m->get)(mid, &when, &v);
		uv = v;
	}
	guard_leave();
	if (m->dbl) {
		ev.ev_u.mval.mv_kind = isnan(dv) ? MAPLOG_VALUE_NONE
						 : MAPLOG_VALUE_DOUBLE;
		ev.ev_u.mval.mv_v.dbl = dv;
	} else {
		ev.ev_u.mval.mv_kind = uv == ~(uint64_t)0 ? MAPLOG_VALUE_NONE
							  : MAPLOG_VALUE_U64;
		ev.ev_u.mval.mv_v.u64 = uv;
	}
	uint64_t got = ts_ns(&when);
	if (backfill && got != ts && !m->flagged && rc == 0) {
		host_metric_error(mid, EINVAL,
				       "a backfilled getter changed "
				       "currentSampleTime, which is in-only "
				       "for backfilled metrics");
		got = ts;
	}
	if (got == 0 || got > ts + 1000000000u)
		got = ts; /* not a time from allinea_get_current_time() */
	if (rc != 0 || m->flagged) {
		m->errors++;
		if (!m->have_first) {
			/* no message: say what happened */
			cat3(m->first, sizeof(m->first), "getter ", m->fn,
			     " returned an error without a message");
			m->have_first = 1;
		}
		if (m->errors_logged == 0 || is_power_of_ten(m->errors))
			metric_error_record(t, m, got);
	}
	if (rc == 0) {
		ev.ev_ts = got;
		stream_put(t, &ev);
		substrate_metric(t, &ev, m->id);
	}
	if (m->p->pending)
		plugin_error_record(t, m->p, "metric plugin error");
}

static void remember_time(uint64_t ts)
{
	if (!M.want_times)
		return;
	if (M.ntimes == M.captimes) {
		size_t ncap = M.captimes ? M.captimes * 2 : 4096;
		void *p;
		if (M.times)
			p = (void *)syscall(SYS_mremap, M.times,
					    M.captimes * sizeof(uint64_t),
					    ncap * sizeof(uint64_t),
					    MREMAP_MAYMOVE);
		else
			p = (void *)syscall(SYS_mmap, NULL,
					    ncap * sizeof(uint64_t),
					    PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if ((long)p < 0 && (long)p > -4096)
			return;
		M.times = p;
		M.captimes = ncap;
	}
	M.times[M.ntimes++] = ts;
}

/* CPU time of the calling thread, ns (a system call: only when the
 * cost is being measured).  Async-signal-safe. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec c;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c))
		return 0;
	return ts_ns(&c);
}

static void tick_body(struct tslot *t, uint64_t ts, int all);

/* One tick; the caller holds M.busy and is t's only writer.  With
 * MAPSAMPLE_METRICS_COST set, the CPU time ticks take is summed for the
 * line mhost_end() prints (test/bench/metrics-cost.sh). */
static void tick_all(struct tslot *t, uint64_t ts, int all)
{
	if (!M.measure) {
		tick_body(t, ts, all);
		return;
	}
	uint64_t c0 = thread_cpu_ns();
	tick_body(t, ts, all);
	M.cost_ns += thread_cpu_ns() - c0;
	M.cost_ticks++;
}

static void tick(struct tslot *t, uint64_t ts)
{
	tick_all(t, ts, 0);
}

/*
 * Node (onePerNode) metrics are machine-wide, change slowly and are the
 * dearest to read (/proc/stat, /proc/meminfo: 11-13 us each in a signal
 * handler with cold caches): they are sampled once per node interval,
 * SAMPLER_NODE_INTERVAL_MS or the metric interval if longer, and at the
 * last tick (all).  Values carry their own times, so rates stay right.
 */
static void tick_body(struct tslot *t, uint64_t ts, int all)
{
	M.next_due = ts + M.interval_ns;
	M.last_tick = ts;
	int node = M.node_owner && (all || ts >= M.node_next_due);
	if (node)
		M.node_next_due = ts + M.node_interval_ns;
	for (size_t i = 0; i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (!m->active || (m->flags & MAPLOG_MD_BACKFILL))
			continue;
		if ((m->flags & MAPLOG_MD_ONE_PER_NODE) && !node)
			continue;
		call_getter(t, m, ts, 0);
	}
	remember_time(ts);
}

static int try_busy(void)
{
	return !__atomic_exchange_n(&M.busy, 1, __ATOMIC_ACQUIRE);
}

static void release_busy(void)
{
	__atomic_store_n(&M.busy, 0, __ATOMIC_RELEASE);
}

/* Async-signal-safe as far as the plugins' getters are. */
void mhost_tick(struct tslot *t, const struct handler_tick *tk)
{
	uint64_t ts = tk->ts;
	if (!M.nactive || ts < __atomic_load_n(&M.next_due, __ATOMIC_RELAXED) ||
	    pluginapi_depth || __atomic_load_n(&M.ended, __ATOMIC_ACQUIRE))
		return;
	if (!try_busy())
		return;
	if (ts >= M.next_due && !M.ended)
		tick(t, ts);
	release_busy();
}

/* ---- onePerNode ---- */

static void node_claim(void)
{
	if (M.node_owner || !M.have_one_per_node)
		return;
	int fd = (int)syscall(SYS_socket, AF_UNIX,
			      SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	struct sockaddr_un a;
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	int n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1,
			 "mapsample-node-%u-%s", (unsigned)getuid(), M.run_id);
	if (n < 0)
		n = 0;
	if ((size_t)n > sizeof(a.sun_path) - 2)
		n = (int)sizeof(a.sun_path) - 2;
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				    1 + (size_t)n);
	if (bind(fd, (struct sockaddr *)&a, len) == 0) {
		M.node_fd = fd_high(fd);
		M.node_owner = 1;
	} else {
		close(fd);
	}
}

/* Writer thread, every interval: the idle tick and the node lock. */
void mhost_idle(void)
{
	if (!M.nactive || __atomic_load_n(&M.ended, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE))
		return;
	uint64_t ts = now_ns();
	if (M.have_one_per_node && !M.node_owner && ts >= M.node_retry_ts) {
		node_claim();
		M.node_retry_ts = ts + 1000000000u;
	}
	/* a handler ticks when the program runs; step in only when none
	 * has for a whole interval */
	if (ts < __atomic_load_n(&M.next_due, __ATOMIC_RELAXED) +
			 M.interval_ns / 2)
		return;
	if (pthread_mutex_lock(&S.proc_lock))
		return;
	if (try_busy()) {
		if (!M.ended && S.hdr && ts >= M.next_due)
			tick(&S.proc, ts);
		release_busy();
	}
	pthread_mutex_unlock(&S.proc_lock);
}

/* Milliseconds the writer thread may sleep; -1: no metrics. */
int mhost_poll_ms(void)
{
	if (!M.nactive)
		return -1;
	uint64_t ms = M.interval_ns / 1000000u;
	return ms < 1 ? 1 : ms > 60000 ? 60000 : (int)ms;
}

/* ---- life ---- */

static void *sym(struct mplugin *p, const char *name)
{
	return name ? dlsym(p->handle, name) : NULL;
}

/* Loads, initializes and starts the plugins of the plan (constructor,
 * before any timer is armed). */
void mhost_load(void)
{
	pluginapi_set_host(&host);
	const char *plan = getenv("MAPSAMPLE_METRICS_PLAN");
	if (!plan || !*plan)
		return;
	if (parse_plan(plan))
		return;
	guard_init();
	const char *iv = getenv("MAPSAMPLE_METRIC_INTERVAL");
	unsigned long ms = iv && *iv ? strtoul(iv, NULL, 10) : 0;
	if (ms < 1 || ms > 3600000)
		ms = SAMPLER_METRIC_INTERVAL_MS;
	M.interval_ns = (uint64_t)ms * 1000000u;
	M.node_interval_ns = (uint64_t)SAMPLER_NODE_INTERVAL_MS * 1000000u;
	if (M.node_interval_ns < M.interval_ns)
		M.node_interval_ns = M.interval_ns;
	const char *mc = getenv("MAPSAMPLE_METRICS_COST");
	M.measure = mc && *mc == '1';
	const char *rid = getenv("MAPSAMPLE_RUN_ID");
	snprintf(M.run_id, sizeof(M.run_id), "%s",
		 rid && *rid ? rid : "solo");
	for (size_t i = 0; i < M.nplugins; i++) {
		struct mplugin *p = &M.plugins[i];
		plugin_id_t pid = (plugin_id_t)i + 1;
		p->handle = real_dlopen(p->lib, RTLD_NOW | RTLD_LOCAL);
		if (!p->handle) {
			const char *e = dlerror();
			copy_msg(p->msg, e ? e : "dlopen failed");
			p->pending = 1;
			continue;
		}
		p->init = (int (*)(plugin_id_t, void *))sym(
			p, "allinea_plugin_initialize");
		p->cleanup = (int (*)(plugin_id_t, void *))sym(
			p, "allinea_plugin_cleanup");
		if (p->start_name &&
		    !(p->start = (int (*)(plugin_id_t))sym(p, p->start_name))) {
			snprintf(p->msg, sizeof(p->msg),
				 "%s: no function %s (named by <start>)", p->lib,
				 p->start_name);
			p->pending = 1;
			continue;
		}
		if (p->stop_name &&
		    !(p->stop = (int (*)(plugin_id_t))sym(p, p->stop_name))) {
			snprintf(p->msg, sizeof(p->msg),
				 "%s: no function %s (named by <stop>)", p->lib,
				 p->stop_name);
			p->pending = 1;
			continue;
		}
		if (p->init) {
			int rc = p->init(pid, NULL);
			if (rc != 0) {
				if (!p->pending)
					snprintf(p->msg, sizeof(p->msg),
						 "allinea_plugin_initialize "
						 "returned %d without a message",
						 rc);
				p->pending = 1;
				continue;
			}
		}
		if (p->start) {
			int rc = p->start(pid);
			if (rc != 0) {
				if (!p->pending)
					snprintf(p->msg, sizeof(p->msg),
						 "%s returned %d without a "
						 "message", p->start_name, rc);
				p->pending = 1;
				if (p->cleanup)
					p->cleanup(pid, NULL);
				continue;
			}
		}
		p->active = 1;
		/* a message set by a plugin that then succeeded is kept as
		 * a warning-level record */
	}
	for (size_t i = 0; i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (!m->p->active)
			continue;
		m->get = dlsym(m->p->handle, m->fn);
		if (!m->get) {
			m->have_first = 1;
			snprintf(m->first, sizeof(m->first),
				 "%s: no function %s", m->p->lib, m->fn);
			m->errors = 1;
			continue;
		}
		m->active = 1;
		if (m->flags & MAPLOG_MD_BACKFILL)
			M.want_times = 1;
		else
			M.nactive++;
		if (m->flags & MAPLOG_MD_ONE_PER_NODE)
			M.have_one_per_node = 1;
	}
	if (M.want_times && !M.nactive)
		M.nactive = 1; /* ticks still give backfill its times */
	node_claim();
}

/* Writes the definitions, plugin errors and a first tick (constructor,
 * fork child; normal context). */
void mhost_start(void)
{
	if (!M.nmetrics && !M.nplugins)
		return;
	pthread_mutex_lock(&S.proc_lock);
	for (size_t i = 0; i < M.nplugins; i++) {
		struct mplugin *p = &M.plugins[i];
		if (!p->active)
			plugin_error_record(&S.proc, p, "plugin not loaded");
		else if (p->pending)
			plugin_error_record(&S.proc, p, "plugin message");
	}
	for (size_t i = 0; i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (!m->p->active)
			continue;
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
		ev.ev_ts = now_ns();
		struct maplog_ev_metric_def *d = &ev.ev_u.mdef;
		d->md_index = m->index;
		d->md_datatype = m->dbl ? MAPLOG_DT_DOUBLE : MAPLOG_DT_U64;
		d->md_flags = m->flags;
		d->md_id = m->id;
		d->md_name = m->name;
		d->md_units = m->units;
		d->md_description = m->desc;
		d->md_domain = m->domain;
		d->md_colour = m->colour;
		d->md_group = m->group;
		d->md_plugin = m->p->id;
		stream_put(&S.proc, &ev);
		substrate_metric_units(m->id, m->units);
		if (!m->active && m->errors)
			metric_error_record(&S.proc, m, ev.ev_ts);
	}
	if (M.nactive && try_busy()) {
		tick(&S.proc, now_ns());
		release_busy();
	}
	pthread_mutex_unlock(&S.proc_lock);
}

/*
 * The process (image) ends: a last tick, the backfilled metrics, the
 * <stop> functions, final error counts, and in normal context
 * allinea_plugin_cleanup().  The caller holds proc_lock (or is the only
 * thread left) and S.stopping is set, so no handler ticks any more.
 * sigctx: async-signal-safe steps only (getters and <stop> are).
 */
void mhost_end(int sigctx)
{
	if (!M.nplugins || __atomic_exchange_n(&M.ended, 1, __ATOMIC_ACQ_REL))
		return;
	/* wait out a tick in progress on another thread, for a second at
	 * most (its thread may be stopped).  Without the flag no plugin code
	 * runs here, nor on a thread interrupted inside the plugin API: the
	 * getters of a process are never called concurrently or re-entered,
	 * even at the end. */
	int got = 0;
	uint64_t give_up = now_ns() + 1000000000u;
	while (!(got = try_busy()) && now_ns() < give_up)
		sched_yield();
	int call = got && !pluginapi_depth;
	struct tslot *t = &S.proc;
	if (call && M.nactive)
		tick_all(t, now_ns(), 1);
	for (size_t i = 0; call && i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (!m->active || !(m->flags & MAPLOG_MD_BACKFILL))
			continue;
		if ((m->flags & MAPLOG_MD_ONE_PER_NODE) && !M.node_owner)
			continue;
		for (size_t k = 0; k < M.ntimes; k++)
			call_getter(t, m, M.times[k], 1);
	}
	for (size_t i = 0; call && i < M.nplugins; i++) {
		struct mplugin *p = &M.plugins[i];
		if (!p->active)
			continue;
		plugin_id_t pid = (plugin_id_t)i + 1;
		if (p->stop && p->stop(pid) != 0)
			plugin_error_record(t, p, p->stop_name);
		/* a failing cleanup counts only with a message: plugins
		 * written from the reference's custom1.c fall off the end of
		 * allinea_plugin_cleanup() without returning a value */
		if (!sigctx && p->cleanup)
			p->cleanup(pid, NULL);
		if (p->pending)
			plugin_error_record(t, p, "metric plugin error");
	}
	for (size_t i = 0; i < M.nmetrics; i++) {
		struct mmetric *m = &M.metrics[i];
		if (m->errors && m->errors != m->errors_logged)
			metric_error_record(t, m, now_ns());
	}
	if (M.measure && !sigctx) {
		uint64_t samples = __atomic_load_n(&S.samples_closed,
						   __ATOMIC_RELAXED);
		for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
			if (__atomic_load_n(&S.slots[i].tid, __ATOMIC_ACQUIRE) > 0)
				samples += S.slots[i].samples;
		char line[256];
		int n = snprintf(line, sizeof(line),
				 "mapsample: metrics cost: pid %u ticks %llu "
				 "cpu_ns %llu samples %llu node %d\n",
				 S.pid, (unsigned long long)M.cost_ticks,
				 (unsigned long long)M.cost_ns,
				 (unsigned long long)samples, M.node_owner);
		if (n > 0)
			io_own(&io_own_bytes_written,
			       syscall(SYS_write, 2, line, (size_t)n));
	}
	if (M.node_fd >= 0)
		syscall(SYS_close, M.node_fd);
	M.node_fd = -1;
	M.node_owner = 0;
	if (got)
		release_busy();
}

/* A fork child: the plugins stay initialized; counts, times and the
 * node lock are the parent's. */
void mhost_after_fork_child(void)
{
	M.busy = 0;
	M.next_due = 0;
	M.node_next_due = 0;
	M.ntimes = 0;
	M.cost_ns = 0;
	M.cost_ticks = 0;
	if (M.node_fd >= 0)
		syscall(SYS_close, M.node_fd);
	M.node_fd = -1;
	M.node_owner = 0;
	M.node_retry_ts = 0;
	for (size_t i = 0; i < M.nmetrics; i++) {
		M.metrics[i].errors = 0;
		M.metrics[i].errors_logged = 0;
		M.metrics[i].have_first = 0;
		M.metrics[i].flagged = 0;
	}
	for (size_t i = 0; i < M.nplugins; i++)
		if (M.plugins[i].active)
			M.plugins[i].pending = 0;
	node_claim();
}
