/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * example-startstop: an example of a source with start and stop
 * functions (<functions><start>/<stop> in
 * plugins/example-startstop/example-startstop.xml).  The start function
 * takes a getrusage() baseline; the getter returns the minor page faults
 * of the process since then (not divided by the sample time); the stop
 * function ends it.  A getter call before the start or after the stop is
 * a metric error.  Not in the default set.
 *
 * If the configuration value "trace" of the metric
 * com.mapsample.metrics.example-startstop.minor_faults
 * (allinea_read_config_file(), looked up in allinea_plugin_initialize())
 * names a file, the start function, the getter and the stop function each
 * append one line to it: "start", "get SEC.NSEC" (the sample time given,
 * nanoseconds in 9 digits) and "stop", so that a test can check the
 * order in which the profiler called them.
 *
 * Design notes: the start function runs before sampling starts; the stop
 * function and the getter may run in a signal handler and are
 * async-signal-safe (allinea_safe_open/write/close, hand-made digits).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_startstop_start(plugin_id_t plugin_id);
MAPSAMPLE_PLUGIN_API int mapsample_startstop_stop(plugin_id_t plugin_id);
MAPSAMPLE_PLUGIN_API int mapsample_startstop_minor_faults(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

#define FAULTS_ID "com.mapsample.metrics.example-startstop.minor_faults"

static char trace_path[PATH_MAX];   /* empty: no trace */
static bool started, stopped;
static uint64_t baseline;

/* Writes the decimal digits of v into buf (at least 20 bytes), at least
 * width of them (zero-padded); returns how many.  Async-signal-safe. */
static size_t format_u64(char *buf, uint64_t v, size_t width)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width && n < sizeof(tmp))
		tmp[n++] = '0';
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* Appends the len bytes of line to the trace file, if there is one.
 * Failures are ignored: the trace is for tests, which notice a missing
 * line.  Async-signal-safe. */
static void trace(const char *line, size_t len)
{
	int fd;

	if (!trace_path[0])
		return;
	fd = allinea_safe_open(trace_path,
			       O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			       (mode_t)0644);
	if (fd < 0)
		return;
	(void)allinea_safe_write(fd, line, len);
	allinea_safe_close(fd);
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	char buf[PATH_MAX + 1];

	trace_path[0] = '\0';
	started = false;
	stopped = false;
	if (plugin_config("trace", FAULTS_ID, buf, (int)sizeof(buf))) {
		if (strlen(buf) >= sizeof(trace_path)) {
			allinea_set_plugin_error_message(plugin_id,
				ENAMETOOLONG, "configuration value trace is "
				"longer than PATH_MAX; give a shorter path");
			return -1;
		}
		strcpy(trace_path, buf);
	}
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Start function (<start>): takes the baseline of minor page faults and
 * starts the metric.  Returns 0, or -1 with the plugin error set. */
int mapsample_startstop_start(plugin_id_t plugin_id)
{
	struct rusage ru;

	trace("start\n", 6);
	if (getrusage(RUSAGE_SELF, &ru)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"getrusage(RUSAGE_SELF) failed: %s; minor faults "
			"cannot be counted in this process", strerror(err));
		return -1;
	}
	baseline = (uint64_t)ru.ru_minflt;
	started = true;
	stopped = false;
	return 0;
}

/* Stop function (<stop>): ends the metric; later getter calls are
 * errors.  Returns 0.  Async-signal-safe. */
int mapsample_startstop_stop(plugin_id_t plugin_id)
{
	trace("stop\n", 5);
	stopped = true;
	return 0;
}

/* Getter of com.mapsample.metrics.example-startstop.minor_faults: minor
 * page faults of the process since the start function ran.  Returns -1
 * with a metric error before the start or after the stop.
 * Async-signal-safe. */
int mapsample_startstop_minor_faults(metric_id_t id,
				     struct timespec *currentSampleTime,
				     uint64_t *outValue)
{
	char line[64];
	size_t n = 0;
	struct rusage ru;

	if (trace_path[0]) {
		memcpy(line, "get ", 4);
		n = 4;
		n += format_u64(line + n, (uint64_t)currentSampleTime->tv_sec,
				1);
		line[n++] = '.';
		n += format_u64(line + n,
				(uint64_t)currentSampleTime->tv_nsec, 9);
		line[n++] = '\n';
		trace(line, n);
	}
	if (!started) {
		allinea_set_metric_error_message(id, EAGAIN,
			"called before the start function "
			"mapsample_startstop_start; name it in <functions>"
			"<start> of the <source> in example-startstop.xml");
		return -1;
	}
	if (stopped) {
		allinea_set_metric_error_message(id, ESRCH,
			"called after the stop function "
			"mapsample_startstop_stop; the profiler must not ask "
			"for values once the source is stopped");
		return -1;
	}
	if (getrusage(RUSAGE_SELF, &ru)) {
		allinea_set_metric_error_messagef(id, errno,
			"getrusage(RUSAGE_SELF) failed (errno %d); minor "
			"faults cannot be counted in this process", errno);
		return -1;
	}
	*outValue = (uint64_t)ru.ru_minflt >= baseline
		? (uint64_t)ru.ru_minflt - baseline : 0;
	return 0;
}
