/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * system: load and interrupts of the node (plugins/system/system.xml),
 * one process per node reporting them (onePerNode): the 1-minute load
 * average (the first field of /proc/loadavg, taken from sysinfo(2)) and
 * the interrupts per second (the total after "intr" in /proc/stat,
 * divideBySampleTime: the getter returns the interrupts since its
 * previous call).
 *
 * Design notes: /proc/stat holds one line per CPU before the "intr" line,
 * and on a large machine the "intr" line itself holds a count for every
 * interrupt number, so the file can be tens of kilobytes.  It is read in
 * chunks into a static buffer and scanned by a small state machine that
 * stops reading as soon as the total (the first number of the line) is
 * complete; nothing after it is read or parsed.  The buffer is static to
 * keep the signal handler's stack small: the sampler calls the getters of
 * one process one at a time.  /proc/stat stays open between calls
 * (struct plugin_file, plugin_i.h), opened at the first call of the
 * getter: only the process that reads the node's metrics needs it.
 *
 * The load average comes from sysinfo(2), one system call, rather than
 * from opening and reading /proc/loadavg: both show the kernel's
 * avenrun[0], which sysinfo() gives shifted left by 5 (SI_LOAD_SHIFT 16
 * less FSHIFT 11) and /proc/loadavg prints rounded to two decimals after
 * adding FIXED_1/200.  The getter rounds the same way, so that the value
 * is the one /proc/loadavg and uptime(1) show.
 *
 * For tests, the configuration values "loadavg" and "stat" of the metrics
 * com.mapsample.metrics.system.load and .interrupts
 * (allinea_read_config_file()) replace the paths of the two files; with
 * "loadavg" set, the load average is read from that file at every call.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_system_load(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_system_interrupts(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

#define LOAD_ID "com.mapsample.metrics.system.load"
#define INTERRUPTS_ID "com.mapsample.metrics.system.interrupts"

#define LOADAVG "/proc/loadavg"
#define STAT "/proc/stat"

static char loadavg_path[PATH_MAX] = LOADAVG;
static bool loadavg_from_file;	/* "loadavg" is configured */
static char stat_path[PATH_MAX] = STAT;
static struct plugin_file stat_file = PLUGIN_FILE_INIT(stat_path);

static char stat_buf[16384];

/* The interrupts getter's previous value. */
static uint64_t interrupts_prev;
static bool interrupts_have;

/* The fixed-point arithmetic of the kernel's load average
 * (include/linux/sched/loadavg.h). */
#define LOAD_FSHIFT 11
#define LOAD_FIXED_1 (1ul << LOAD_FSHIFT)

/* The 1-minute load average into *load: from sysinfo(), as /proc/loadavg
 * shows it (see the design notes), or from loadavg_path when it is
 * configured.  Returns 0, or -1 with errno set (EINVAL: the file is not
 * of the expected form).  Async-signal-safe. */
static int read_load(double *load)
{
	char buf[128];
	const char *p = buf;

	if (!loadavg_from_file) {
		struct sysinfo si;
		unsigned long a;

		if (sysinfo(&si))	/* a bare system call */
			return -1;
		a = (si.loads[0] >> (SI_LOAD_SHIFT - LOAD_FSHIFT)) +
		    LOAD_FIXED_1 / 200;
		/* hundredths, divided once: the double nearest the
		 * two-decimal number, as strtod() would read it */
		*load = (double)((a >> LOAD_FSHIFT) * 100 +
				 (((a & (LOAD_FIXED_1 - 1)) * 100) >>
				  LOAD_FSHIFT)) / 100.0;
		return 0;
	}
	if (plugin_read_file(loadavg_path, buf, sizeof(buf)) < 0)
		return -1;
	if (plugin_parse_double(&p, load)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The total of the "intr" line of the stat file open at fd, read from its
 * current offset, into *total.  Returns 0, or -1 with errno set (ENODATA:
 * no "intr" line with a number).  Async-signal-safe. */
static int scan_interrupts(int fd, uint64_t *total)
{
	static const char key[] = "intr ";
	enum { LINE_START, SKIP_LINE, NUMBER, DONE } state = LINE_START;
	size_t matched = 0, digits = 0;
	uint64_t v = 0;
	ssize_t n;
	int err = 0;

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

/* The total of the "intr" line of stat_path into *total, through the
 * kept-open stat_file.  Returns 0, or -1 with errno set (see
 * scan_interrupts()).  Async-signal-safe. */
static int read_interrupts(uint64_t *total)
{
	int fd = plugin_file_rewind(&stat_file);

	if (fd < 0)
		return -1;
	return scan_interrupts(fd, total);
}

/* The same from a descriptor of its own, closed after: for
 * allinea_plugin_initialize(), which leaves the kept-open file to the
 * process that reads the node's metrics. */
static int read_interrupts_once(uint64_t *total)
{
	int fd, rc, err;

	fd = allinea_safe_open(stat_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = scan_interrupts(fd, total);
	err = errno;
	allinea_safe_close(fd);
	errno = err;
	return rc;
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

	plugin_file_close(&stat_file);
	strcpy(loadavg_path, LOADAVG);
	strcpy(stat_path, STAT);
	if (!config_path("loadavg", LOAD_ID, loadavg_path) ||
	    !config_path("stat", INTERRUPTS_ID, stat_path)) {
		allinea_set_plugin_error_message(plugin_id, ENAMETOOLONG,
			"configuration value loadavg or stat is longer than "
			"PATH_MAX; give a shorter path");
		return -1;
	}
	loadavg_from_file = strcmp(loadavg_path, LOADAVG) != 0;
	if (read_load(&load)) {
		int err = errno;
		if (loadavg_from_file)
			allinea_set_plugin_error_messagef(plugin_id, err,
				"Not supported: cannot read the load average "
				"from %s: %s; mount /proc", loadavg_path,
				err == EINVAL ? "not a number" : strerror(err));
		else
			allinea_set_plugin_error_messagef(plugin_id, err,
				"Not supported: sysinfo() gives no load "
				"average: %s", strerror(err));
		return -1;
	}
	if (read_interrupts_once(&total)) {
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
	plugin_file_close(&stat_file);
	return 0;
}

/* Getter of com.mapsample.metrics.system.load: the 1-minute load average
 * of the node.  Async-signal-safe. */
int mapsample_system_load(metric_id_t id, struct timespec *currentSampleTime,
			  double *outValue)
{
	if (read_load(outValue)) {
		if (loadavg_from_file)
			allinea_set_metric_error_messagef(id, errno,
				"cannot read the load average from %s (errno "
				"%d); check that /proc is mounted",
				loadavg_path, errno);
		else
			allinea_set_metric_error_messagef(id, errno,
				"sysinfo() failed (errno %d); the load average "
				"cannot be read", errno);
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
