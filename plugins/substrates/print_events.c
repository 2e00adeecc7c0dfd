/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * print_events: a substrate plugin that writes one line per event, to
 * the file MAPSAMPLE_PRINT_EVENTS_FILE names (appended to, so every
 * process of a run can share it) or to stderr.  Each line is written
 * with one write(2), so lines of several processes do not mix.
 * Load it with `mapsample --substrate print_events -- ./app`.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/substrate.h>

static const mapsample_substrate_callbacks *host;
static size_t host_size;
static int out = 2;

static void line(const mapsample_location *loc, uint64_t ts,
		 const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line(const mapsample_location *loc, uint64_t ts,
		 const char *what, const char *fmt, ...)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%" PRIu64 " %u:%u %s", ts,
			 host->location_get_pid(loc),
			 host->location_get_tid(loc), what);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(buf))
		n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	(void)write(out, buf, (size_t)n);
}

static void program_begin(const mapsample_location *loc, uint64_t ts,
			  const char *exe, int argc, const char *const *argv)
{
	(void)argv;
	line(loc, ts, "PROGRAM_BEGIN", " %s argc=%d", exe, argc);
}

static void program_end(const mapsample_location *loc, uint64_t ts, int how,
			int code)
{
	line(loc, ts, "PROGRAM_END", " %s %d", how ? "signal" : "status",
	     code);
}

static void thread_begin(const mapsample_location *loc, uint64_t ts)
{
	line(loc, ts, "THREAD_BEGIN", " %s", host->location_get_name(loc));
}

static void thread_end(const mapsample_location *loc, uint64_t ts)
{
	line(loc, ts, "THREAD_END", "%s", "");
}

static void fork_ev(const mapsample_location *loc, uint64_t ts, uint32_t pid)
{
	line(loc, ts, "FORK", " child=%u", pid);
}

static void exec_ev(const mapsample_location *loc, uint64_t ts,
		    const char *path)
{
	line(loc, ts, "EXEC", " %s", path);
}

static void sample(const mapsample_location *loc, uint64_t ts,
		   uint64_t weight_ns, uint32_t npc, const uint64_t *pc,
		   int wall)
{
	line(loc, ts, "SAMPLE", " weight=%" PRIu64 " depth=%u leaf=0x%" PRIx64
	     "%s", weight_ns, npc, npc ? pc[0] : 0, wall ? " wall" : "");
}

static void metric(const mapsample_location *loc, uint64_t ts,
		   mapsample_handle m, int has_value, int is_double,
		   uint64_t u64, double dbl)
{
	/* units: a callback newer than the first hosts had */
	const char *u = NULL;
	if (MAPSAMPLE_SUBSTRATE_HAS_CALLBACK(host_size, handle_get_units))
		u = host->handle_get_units(m);
	const char *sp = u && *u ? " " : "";
	if (!u)
		u = "";
	if (!has_value)
		line(loc, ts, "METRIC", " %s none", host->handle_get_name(m));
	else if (is_double)
		line(loc, ts, "METRIC", " %s %g%s%s", host->handle_get_name(m),
		     dbl, sp, u);
	else
		line(loc, ts, "METRIC", " %s %" PRIu64 "%s%s",
		     host->handle_get_name(m), u64, sp, u);
}

static void mark(const mapsample_location *loc, uint64_t ts,
		 mapsample_handle r)
{
	line(loc, ts, "MARK", " %s", host->handle_get_name(r));
}

static void enter(const mapsample_location *loc, uint64_t ts,
		  mapsample_handle r)
{
	line(loc, ts, "REGION_ENTER", " %s", host->handle_get_name(r));
}

static void leave(const mapsample_location *loc, uint64_t ts,
		  mapsample_handle r)
{
	line(loc, ts, "REGION_EXIT", " %s", host->handle_get_name(r));
}

static void mpi_enter(const mapsample_location *loc, uint64_t ts,
		      mapsample_handle f, mapsample_handle comm)
{
	(void)comm;
	line(loc, ts, "MPI_ENTER", " %s", host->handle_get_name(f));
}

static void mpi_exit(const mapsample_location *loc, uint64_t ts,
		     mapsample_handle f, uint64_t sent, uint64_t received,
		     int32_t peer)
{
	line(loc, ts, "MPI_EXIT", " %s sent=%" PRIu64 " received=%" PRIu64
	     " peer=%d", host->handle_get_name(f), sent, received, (int)peer);
}

static void drop(const mapsample_location *loc, uint64_t ts,
		 uint32_t reason, uint64_t count)
{
	line(loc, ts, "DROP", " reason=%u count=%" PRIu64, reason, count);
}

static void set_callbacks(const mapsample_substrate_callbacks *cb,
			  size_t size)
{
	host = cb;
	host_size = size;
}

static int init(void)
{
	const char *path = getenv("MAPSAMPLE_PRINT_EVENTS_FILE");
	if (!path || !*path)
		return 0;
	out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0) {
		char msg[300];
		snprintf(msg, sizeof(msg), "%s: cannot open", path);
		host->set_error(msg);
		return 1;
	}
	return 0;
}

static void finalize(void)
{
	if (out != 2)
		close(out);
	out = 2;
}

static mapsample_substrates_callback events[MAPSAMPLE_SUBSTRATES_NUM_EVENTS];

static uint32_t get_event_functions(mapsample_substrates_mode mode,
				    mapsample_substrates_callback **functions)
{
	/* nothing is printed while recording is disabled */
	static mapsample_substrates_callback none[
		MAPSAMPLE_SUBSTRATES_NUM_EVENTS];
	if (mode != MAPSAMPLE_SUBSTRATES_RECORDING_ENABLED) {
		*functions = none;
		return MAPSAMPLE_SUBSTRATES_NUM_EVENTS;
	}
#define SET(type, fn) events[type] = (mapsample_substrates_callback)(fn)
	SET(MAPSAMPLE_EVENT_PROGRAM_BEGIN, program_begin);
	SET(MAPSAMPLE_EVENT_PROGRAM_END, program_end);
	SET(MAPSAMPLE_EVENT_THREAD_BEGIN, thread_begin);
	SET(MAPSAMPLE_EVENT_THREAD_END, thread_end);
	SET(MAPSAMPLE_EVENT_FORK, fork_ev);
	SET(MAPSAMPLE_EVENT_EXEC, exec_ev);
	SET(MAPSAMPLE_EVENT_SAMPLE, sample);
	SET(MAPSAMPLE_EVENT_METRIC, metric);
	SET(MAPSAMPLE_EVENT_MARK, mark);
	SET(MAPSAMPLE_EVENT_REGION_ENTER, enter);
	SET(MAPSAMPLE_EVENT_REGION_EXIT, leave);
	SET(MAPSAMPLE_EVENT_MPI_ENTER, mpi_enter);
	SET(MAPSAMPLE_EVENT_MPI_EXIT, mpi_exit);
	SET(MAPSAMPLE_EVENT_DROP, drop);
#undef SET
	*functions = events;
	return MAPSAMPLE_SUBSTRATES_NUM_EVENTS;
}

MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(print_events)
{
	mapsample_substrate_plugin_info info;
	memset(&info, 0, sizeof(info));
	info.plugin_version = MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION;
	info.set_callbacks = set_callbacks;
	info.init = init;
	info.finalize = finalize;
	info.get_event_functions = get_event_functions;
	return info;
}
