/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memory: memory use of the profiled process and of its node
 * (plugins/memory/memory.xml): resident set size now (/proc/self/statm),
 * peak resident set size (getrusage() ru_maxrss, or the largest RSS read
 * if more) and, once per node, the memory in use on the machine
 * (/proc/meminfo MemTotal - MemAvailable).
 * All in bytes, none divided by the sample time.
 *
 * Design notes: each getter has its own source, so there is nothing to
 * share between them; a getter reads its source once per call.  The two
 * /proc files stay open between calls (struct plugin_file, plugin_i.h):
 * opening and closing them at every call was most of the plugin's cost.
 * /proc/self/statm is opened by allinea_plugin_initialize(), /proc/meminfo
 * at the first node_used call (only the process that reads the node's
 * metrics needs it).  Of /proc/meminfo only the first lines are read:
 * MemTotal and MemAvailable are its first and third.  The page size is
 * looked up in allinea_plugin_initialize(), outside the signal handler
 * (sysconf() is not async-signal-safe).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_memory_rss(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_memory_peak_rss(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_memory_node_used(metric_id_t id,
	struct timespec *currentSampleTime, uint64_t *outValue);

#define STATM "/proc/self/statm"
#define MEMINFO "/proc/meminfo"

static struct plugin_file statm = PLUGIN_FILE_INIT(STATM);
static struct plugin_file meminfo = PLUGIN_FILE_INIT(MEMINFO);

static uint64_t page_size;
/* The largest resident set size the rss getter has read: the peak is
 * never shown below it.  (Since Linux 6.x /proc/self/statm sums the
 * per-CPU RSS counters exactly while getrusage() reads them roughly, so
 * ru_maxrss can lag the RSS by some pages.) */
static uint64_t rss_high;

/* The resident set size in bytes from /proc/self/statm (its second field,
 * in pages) into *rss.  Returns 0, or -1 with errno set (EINVAL: the file
 * has not the expected form).  Async-signal-safe. */
static int read_rss(uint64_t *rss)
{
	char buf[160];
	const char *p = buf;
	uint64_t size, resident;

	if (plugin_file_read(&statm, buf, sizeof(buf)) < 0)
		return -1;
	if (plugin_parse_u64(&p, &size) || plugin_parse_u64(&p, &resident)) {
		errno = EINVAL;
		return -1;
	}
	*rss = resident * page_size;
	return 0;
}

/* Bytes of memory in use on the node, MemTotal - MemAvailable from
 * /proc/meminfo, into *used.  Returns 0, or -1 with errno set (ENODATA:
 * MemTotal or MemAvailable missing).  Async-signal-safe. */
static int read_node_used(uint64_t *used)
{
	/* MemTotal, MemFree and MemAvailable are the first three lines, of
	 * 28 bytes each while the numbers fit in 8 digits. */
	char buf[256];
	const char *p;
	uint64_t total, avail;

	if (plugin_file_read(&meminfo, buf, sizeof(buf)) < 0)
		return -1;
	if (!(p = plugin_find_key(buf, "MemTotal:")) ||
	    plugin_parse_u64(&p, &total) ||
	    !(p = plugin_find_key(buf, "MemAvailable:")) ||
	    plugin_parse_u64(&p, &avail)) {
		errno = ENODATA;
		return -1;
	}
	*used = total > avail ? (total - avail) * 1024 : 0;
	return 0;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t v;

	if (ps <= 0) {
		allinea_set_plugin_error_message(plugin_id, EINVAL,
			"Not supported: sysconf(_SC_PAGESIZE) gives no page "
			"size; the memory metrics need it");
		return -1;
	}
	page_size = (uint64_t)ps;
	rss_high = 0;
	if (read_rss(&v)) {
		int err = errno;
		allinea_set_plugin_error_messagef(plugin_id, err,
			"Not supported: cannot read the resident set size "
			"from %s: %s; mount /proc", STATM,
			err == EINVAL ? "not the expected format"
				      : strerror(err));
		return -1;
	}
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	plugin_file_close(&statm);
	plugin_file_close(&meminfo);
	return 0;
}

/* Getter of com.mapsample.metrics.memory.rss: the resident set size in
 * bytes.  Async-signal-safe. */
int mapsample_memory_rss(metric_id_t id, struct timespec *currentSampleTime,
			 uint64_t *outValue)
{
	if (read_rss(outValue)) {
		allinea_set_metric_error_messagef(id, errno,
			"cannot read the resident set size from %s "
			"(errno %d); check that /proc is mounted", STATM,
			errno);
		return -1;
	}
	if (*outValue > rss_high)
		rss_high = *outValue;
	return 0;
}

/* Getter of com.mapsample.metrics.memory.peak_rss: the largest resident
 * set size so far in bytes: ru_maxrss (in KiB), or the largest RSS the
 * rss getter read if that is more.  Async-signal-safe. */
int mapsample_memory_peak_rss(metric_id_t id,
			      struct timespec *currentSampleTime,
			      uint64_t *outValue)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		allinea_set_metric_error_messagef(id, errno,
			"getrusage(RUSAGE_SELF) failed (errno %d); peak "
			"memory cannot be measured in this process", errno);
		return -1;
	}
	*outValue = (uint64_t)ru.ru_maxrss * 1024;
	if (rss_high > *outValue)
		*outValue = rss_high;
	return 0;
}

/* Getter of com.mapsample.metrics.memory.node_used: bytes of memory in
 * use on this node (onePerNode).  Async-signal-safe. */
int mapsample_memory_node_used(metric_id_t id,
			       struct timespec *currentSampleTime,
			       uint64_t *outValue)
{
	if (read_node_used(outValue)) {
		if (errno == ENODATA)
			allinea_set_metric_error_message(id, ENODATA,
				MEMINFO " has no MemTotal or MemAvailable "
				"line (Linux older than 3.14); node memory "
				"cannot be measured on this kernel");
		else
			allinea_set_metric_error_messagef(id, errno,
				"cannot read %s (errno %d); check that /proc "
				"is mounted", MEMINFO, errno);
		return -1;
	}
	return 0;
}
