/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io: bytes the profiled process reads and writes per second
 * (plugins/io/io.xml), from mapsample_io_bytes() (<mapsample/plugin.h>),
 * which the sampler provides: the process's /proc/self/io rchar and
 * wchar without the sampler's own I/O and the plugins'.  Both metrics are
 * divideBySampleTime: each getter returns the bytes since its previous
 * call and the profiler divides by the elapsed seconds.
 *
 * Design notes: the sampler calls the getters of one process one at a
 * time, so the state is plain static data.  The two getters called for
 * the same sample (same *currentSampleTime) share one
 * mapsample_io_bytes() call.  The first call of each getter, and a call
 * that finds a counter lower than before (a new process image restarts
 * it), leave the profiler's sentinel.  mapsample_io_bytes is declared
 * weak: under a profiler that does not provide it (Arm MAP) the library
 * still loads and initialize says why the metrics are not there.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>
#include <mapsample/plugin.h>

#include "plugin_i.h"

#pragma weak mapsample_io_bytes

#define IO_FILE "/proc/self/io"

MAPSAMPLE_PLUGIN_API int mapsample_io_read(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_io_write(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

/* The last reading and the sample time it is for. */
static struct timespec reading_time;
static bool reading_valid;
static uint64_t reading_read, reading_written;

/* Each getter's previous value. */
struct delta {
	uint64_t d_prev;
	bool d_have;
};
static struct delta read_delta, write_delta;

/* What to do about errno err from mapsample_io_bytes(), which opens
 * /proc/self/io again by itself when the program closed the sampler's
 * descriptor.  Async-signal-safe. */
static const char *advice(int err)
{
	switch (err) {
	case ENOENT:
		return "check that /proc is mounted";
	case EMFILE:
	case ENFILE:
		return "the program has no free file descriptor left "
		       "(raise ulimit -n)";
	case EACCES:
	case EPERM:
		return "the process may not read its own /proc entry "
		       "(a changed user or a sandbox)";
	default:
		return "the kernel refused the read";
	}
}

/* Brings the reading up to date for sample time t.  Returns 0, or -1 after
 * reporting the error for metric id.  Async-signal-safe. */
static int update(metric_id_t id, const struct timespec *t)
{
	if (reading_valid && plugin_same_time(&reading_time, t))
		return 0;
	if (mapsample_io_bytes(&reading_read, &reading_written)) {
		int err = errno;
		reading_valid = false;
		allinea_set_metric_error_messagef(id, err,
			"mapsample_io_bytes() failed (errno %d): /proc/self/io "
			"cannot be read; %s", err, advice(err));
		return -1;
	}
	reading_time = *t;
	reading_valid = true;
	return 0;
}

/* Stores in *out the bytes since d's previous call, unless this is the
 * first call or the counter went back.  Async-signal-safe. */
static void bytes_since(struct delta *d, uint64_t now, uint64_t *out)
{
	if (d->d_have && now >= d->d_prev)
		*out = now - d->d_prev;
	d->d_prev = now;
	d->d_have = true;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	char buf[512];
	const char *why = NULL;
	int err = 0;

	if (!mapsample_io_bytes) {
		allinea_set_plugin_error_message(plugin_id, ENOSYS,
			"Not supported: this profiler does not provide "
			"mapsample_io_bytes(); the io metrics run only under "
			"mapsample");
		return -1;
	}
	/* Not mapsample_io_bytes() itself: the sampler starts counting
	 * only after the plugins are loaded. */
	if (plugin_read_file(IO_FILE, buf, sizeof(buf)) < 0) {
		err = errno;
		why = strerror(err);
	} else if (!plugin_find_key(buf, "rchar:") ||
		   !plugin_find_key(buf, "wchar:")) {
		err = ENODATA;
		why = "no rchar and wchar lines";
	}
	if (why) {
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: %s cannot be read: %s; the io metrics "
			"need a kernel with task I/O accounting "
			"(CONFIG_TASK_IO_ACCOUNTING) and /proc mounted",
			IO_FILE, why);
		return -1;
	}
	reading_valid = false;
	read_delta.d_have = false;
	write_delta.d_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Getter of com.mapsample.metrics.io.read: bytes read since the previous
 * call (divideBySampleTime).  Async-signal-safe. */
int mapsample_io_read(metric_id_t id, struct timespec *currentSampleTime,
		      uint64_t *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	bytes_since(&read_delta, reading_read, outValue);
	return 0;
}

/* Getter of com.mapsample.metrics.io.write: bytes written since the
 * previous call (divideBySampleTime).  Async-signal-safe. */
int mapsample_io_write(metric_id_t id, struct timespec *currentSampleTime,
		       uint64_t *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	bytes_since(&write_delta, reading_written, outValue);
	return 0;
}
