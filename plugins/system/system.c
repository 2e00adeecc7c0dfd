/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * system: load and interrupts of the node (plugins/system/system.xml),
 * one process per node reporting them (onePerNode): the 1-minute load
 * average (first field of /proc/loadavg) and the interrupts per second
 * (the total after "intr" in /proc/stat, divideBySampleTime: the getter
 * returns the interrupts since its previous call).
 *
 * Design notes: /proc/stat holds one line per CPU before the "intr" line,
 * and on a large machine the "intr" line itself holds a count for every
 * interrupt number, so the file can be tens of kilobytes.  It is read in
 * chunks into a static buffer and scanned by a small state machine that
 * stops reading as soon as the total (the first number of the line) is
 * complete; nothing after it is read or parsed.  The buffer is static to
 * keep the signal handler's stack small: the sampler calls the getters of
 * one process one at a time.  The two getters read different files, so
 * there is no reading to share between them.
 *
 * For tests, the configuration values "loadavg" and "stat" of the metrics
 * com.mapsample.metrics.system.load and .interrupts
 * (allinea_read_config_file()) replace the paths of the two files.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_system_load(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_system_interrupts(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

#define LOAD_ID "com.mapsample.metrics.system.load"
#define INTERRUPTS_ID "com.mapsample.metrics.system.interrupts"

static char loadavg_path[PATH_MAX] = "/proc/loadavg";
static char stat_path[PATH_MAX] = "/proc/stat";

static char stat_buf[16384];

/* The interrupts getter's previous value. */
static uint64_t interrupts_prev;
static bool interrupts_have;

/* The 1-minute load average from loadavg_path into *load.  Returns 0, or
 * -1 with errno set (EINVAL: not the expected form).  Async-signal-safe. */
static int read_load(double *load)
{
	char buf[128];
	const char *p = buf;

	if (plugin_read_file(loadavg_path, buf, sizeof(buf)) < 0)
		return -1;
	if (plugin_parse_double(&p, load)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The total of the "intr" line of stat_path into *total.  Returns 0, or
 * -1 with errno set (ENODATA: no "intr" line with a number).
 * Async-signal-safe. */
static int read_interrupts(uint64_t *total)
{
	static const char key[] = "intr ";
	enum { LINE_START, SKIP_LINE, NUMBER, DONE } state = LINE_START;
	size_t matched = 0, digits = 0;
	uint64_t v = 0;
	ssize_t n;
	int fd, err = 0;

	fd = allinea_safe_open(stat_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (state != DONE) {
		n = allinea_safe_read(fd, stat_buf, sizeof(stat_buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n && state != DONE; i++) {
			char c = stat_buf[i];
			switch (state) {
			case LINE_START:
				if (c == key[matched]) {
					if (++matched == sizeof(key) - 1)
						state = NUMBER;
				} else if (c != '\n') {
					state = SKIP_LINE;
				} else {
					matched = 0;
				}
				break;
			case SKIP_LINE:
				if (c == '\n') {
					state = LINE_START;
					matched = 0;
				}
				break;
			case NUMBER:
				if (c >= '0' && c <= '9') {
					v = v * 10 + (uint64_t)(c - '0');
					digits++;
				} else if (c == ' ' && !digits) {
					/* blanks before the number */
				} else {
					state = DONE;
				}
				break;
			case DONE:
				break;
			}
		}
	}
	allinea_safe_close(fd);
	if (err) {
		errno = err;
		return -1;
	}
	if (!digits) {
		errno = ENODATA;
		return -1;
	}
	*total = v;
	return 0;
}

/* Copies the configuration value variable of metric into path when there
 * is one.  Returns false when it is too long. */
static bool config_path(const char *variable, const char *metric,
			char *path)
{
	char buf[PATH_MAX + 1];

	if (!plugin_config(variable, metric, buf, (int)sizeof(buf)))
		return true;
	if (strlen(buf) >= PATH_MAX)
		return false;
	strcpy(path, buf);
	return true;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	double load;
	uint64_t total;

	if (!config_path("loadavg", LOAD_ID, loadavg_path) ||
	    !config_path("stat", INTERRUPTS_ID, stat_path)) {
		allinea_set_plugin_error_message(plugin_id, ENAMETOOLONG,
			"configuration value loadavg or stat is longer than "
			"PATH_MAX; give a shorter path");
		return -1;
	}
	if (read_load(&load)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: cannot read the load average from "
			"%s: %s; mount /proc", loadavg_path,
			err == EINVAL ? "not a number" : strerror(err));
		return -1;
	}
	if (read_interrupts(&total)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: cannot read the interrupt count (the "
			"\"intr\" line) from %s: %s; mount /proc", stat_path,
			err == ENODATA ? "no such line" : strerror(err));
		return -1;
	}
	interrupts_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Getter of com.mapsample.metrics.system.load: the 1-minute load average
 * of the node.  Async-signal-safe. */
int mapsample_system_load(metric_id_t id, struct timespec *currentSampleTime,
			  double *outValue)
{
	if (read_load(outValue)) {
		allinea_set_metric_error_messagef(id, errno,
			"cannot read the load average from %s (errno %d); "
			"check that /proc is mounted", loadavg_path, errno);
		return -1;
	}
	return 0;
}

/* Getter of com.mapsample.metrics.system.interrupts: interrupts on the
 * node since the previous call (divideBySampleTime).  Async-signal-safe. */
int mapsample_system_interrupts(metric_id_t id,
				struct timespec *currentSampleTime,
				uint64_t *outValue)
{
	uint64_t total;

	if (read_interrupts(&total)) {
		allinea_set_metric_error_messagef(id, errno,
			"cannot read the interrupt count (the \"intr\" line) "
			"from %s (errno %d); check that /proc is mounted",
			stat_path, errno);
		return -1;
	}
	if (interrupts_have && total >= interrupts_prev)
		*outValue = total - interrupts_prev;
	interrupts_prev = total;
	interrupts_have = true;
	return 0;
}
