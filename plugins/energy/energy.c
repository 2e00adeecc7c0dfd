/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * energy: power and energy of the node's CPU packages from RAPL (Running
 * Average Power Limit) through the Linux powercap interface
 * (plugins/energy/energy.xml), reported by one process per node
 * (onePerNode): the package zones /sys/class/powercap/intel-rapl:N (AMD
 * processors use the same names), their energy_uj counters summed.
 *   power   joules since the getter's previous call (divideBySampleTime,
 *           so the profiler shows watts);
 *   energy  joules since allinea_plugin_initialize() (its integral).
 *
 * Design notes: allinea_plugin_initialize() finds the zones whose name
 * file starts with "package" (not their core/uncore/dram subzones
 * intel-rapl:N:M, not psys, not the intel-rapl-mmio duplicates), checks
 * that every energy_uj can be read (it is root-only since Linux 5.10,
 * after the Platypus attack) and takes a first reading.  A reading adds
 * each zone's increase to a running total in microjoules; a counter lower
 * than before has wrapped at max_energy_range_uj.  The getters called for
 * the same sample (same *currentSampleTime) share one reading; the
 * sampler calls the getters of one process one at a time, so the state is
 * plain static data.  Without zones, or without permission, initialize
 * fails with a message saying which and the metrics are not sampled.
 *
 * For tests, the configuration value "powercap_dir" of the metric
 * com.mapsample.metrics.energy.power (allinea_read_config_file())
 * replaces /sys/class/powercap.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

#include "plugin_i.h"

MAPSAMPLE_PLUGIN_API int mapsample_energy_power(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);
MAPSAMPLE_PLUGIN_API int mapsample_energy_energy(metric_id_t id,
	struct timespec *currentSampleTime, double *outValue);

#define POWER_ID "com.mapsample.metrics.energy.power"
#define MAX_ZONES 64
#define ZONE_PATH_MAX 512

static char powercap_dir[PATH_MAX] = "/sys/class/powercap";

/* A package zone: its energy_uj file, counter range and last value. */
struct zone {
	char z_path[ZONE_PATH_MAX];
	uint64_t z_max;
	uint64_t z_last;
};
static struct zone zones[MAX_ZONES];
static size_t nzones;

/* The last reading: microjoules since initialize, and its sample time. */
static struct timespec reading_time;
static bool reading_valid;
static uint64_t total_uj;

/* The power getter's previous total. */
static uint64_t power_prev;
static bool power_have;

/* Reads the counter at path into *v.  Returns 0, or -1 with errno set
 * (EINVAL: not a number).  Async-signal-safe. */
static int read_counter(const char *path, uint64_t *v)
{
	char buf[64];
	const char *p = buf;

	if (plugin_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	if (plugin_parse_u64(&p, v)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Whether name is a top-level RAPL zone, "intel-rapl:" and digits. */
static bool is_top_zone(const char *name)
{
	static const char prefix[] = "intel-rapl:";
	const char *p;

	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return false;
	p = name + sizeof(prefix) - 1;
	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* Adds the zone of directory entry name if it is a package zone.
 * Returns 0 (added or not a package), or -1 after setting the plugin
 * error. */
static int add_zone(plugin_id_t plugin_id, const char *name)
{
	char path[ZONE_PATH_MAX], buf[64];
	struct zone *z;
	int len;

	len = snprintf(path, sizeof(path), "%s/%s/name", powercap_dir, name);
	if (len < 0 || (size_t)len >= sizeof(path)) {
		allinea_set_plugin_error_messagef(plugin_id, ENAMETOOLONG,
			"%s/%s: path too long; give a shorter powercap_dir",
			powercap_dir, name);
		return -1;
	}
	if (plugin_read_file(path, buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "package", 7))
		return 0;
	if (nzones == MAX_ZONES) {
		allinea_set_plugin_error_messagef(plugin_id, E2BIG,
			"more than %d RAPL package zones under %s; the energy "
			"plugin reads at most %d (raise MAX_ZONES in "
			"plugins/energy/energy.c)", MAX_ZONES, powercap_dir,
			MAX_ZONES);
		return -1;
	}
	z = &zones[nzones];
	snprintf(z->z_path, sizeof(z->z_path), "%s/%s/max_energy_range_uj",
		 powercap_dir, name);
	if (read_counter(z->z_path, &z->z_max))
		z->z_max = 0;   /* wraps cannot be corrected */
	snprintf(z->z_path, sizeof(z->z_path), "%s/%s/energy_uj",
		 powercap_dir, name);
	if (read_counter(z->z_path, &z->z_last)) {
		int err = errno;
		if (err == EACCES || err == EPERM)
			allinea_set_plugin_error_messagef(plugin_id, err,
				"Not supported: %s: %s (energy_uj is readable "
				"by root only since Linux 5.10); run as root "
				"or make it readable: chmod a+r %s/intel-rapl:"
				"*/energy_uj", z->z_path, strerror(err),
				powercap_dir);
		else
			allinea_set_plugin_error_messagef(plugin_id, err,
				"Not supported: %s cannot be read: %s; check "
				"the intel_rapl_common (or amd) powercap "
				"driver", z->z_path,
				err == EINVAL ? "not a number"
					      : strerror(err));
		return -1;
	}
	nzones++;
	return 0;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	char buf[PATH_MAX + 1];
	struct dirent *de;
	DIR *dir;
	int rc = 0;

	if (plugin_config("powercap_dir", POWER_ID, buf, (int)sizeof(buf))) {
		if (strlen(buf) >= sizeof(powercap_dir)) {
			allinea_set_plugin_error_message(plugin_id,
				ENAMETOOLONG, "configuration value "
				"powercap_dir is longer than PATH_MAX; give "
				"a shorter path");
			return -1;
		}
		strcpy(powercap_dir, buf);
	}
	nzones = 0;
	dir = opendir(powercap_dir);
	if (!dir && errno != ENOENT && errno != ENOTDIR) {
		allinea_set_plugin_error_messagef(plugin_id, errno,
			"Not supported: cannot read the directory %s: %s; "
			"make it readable to read RAPL energy", powercap_dir,
			strerror(errno));
		return -1;
	}
	while (dir && (de = readdir(dir)))
		if (is_top_zone(de->d_name) &&
		    (rc = add_zone(plugin_id, de->d_name)))
			break;
	if (dir)
		closedir(dir);
	if (rc)
		return -1;
	if (!nzones) {
		allinea_set_plugin_error_messagef(plugin_id, ENOENT,
			"Not supported: no RAPL powercap zones under %s",
			powercap_dir);
		return -1;
	}
	total_uj = 0;
	reading_valid = false;
	power_have = false;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	return 0;
}

/* Brings the total up to date for sample time t.  Returns 0, or -1 after
 * reporting the error for metric id.  Async-signal-safe. */
static int update(metric_id_t id, const struct timespec *t)
{
	uint64_t now[MAX_ZONES];

	if (reading_valid && plugin_same_time(&reading_time, t))
		return 0;
	/* All or nothing: a total with one zone missing would be wrong. */
	for (size_t i = 0; i < nzones; i++) {
		if (read_counter(zones[i].z_path, &now[i])) {
			reading_valid = false;
			allinea_set_metric_error_messagef(id, errno,
				"cannot read %s (errno %d); check the RAPL "
				"powercap driver", zones[i].z_path, errno);
			return -1;
		}
	}
	for (size_t i = 0; i < nzones; i++) {
		struct zone *z = &zones[i];
		if (now[i] >= z->z_last)
			total_uj += now[i] - z->z_last;
		else if (z->z_max >= z->z_last)
			total_uj += z->z_max - z->z_last + now[i];
		z->z_last = now[i];
	}
	reading_time = *t;
	reading_valid = true;
	return 0;
}

/* Getter of com.mapsample.metrics.energy.power: joules used by the CPU
 * packages since the previous call (divideBySampleTime: watts).
 * Async-signal-safe. */
int mapsample_energy_power(metric_id_t id,
			   struct timespec *currentSampleTime,
			   double *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	if (power_have)
		*outValue = (double)(total_uj - power_prev) / 1e6;
	power_prev = total_uj;
	power_have = true;
	return 0;
}

/* Getter of com.mapsample.metrics.energy.energy: joules used by the CPU
 * packages since the plugin was initialized.  Async-signal-safe. */
int mapsample_energy_energy(metric_id_t id,
			    struct timespec *currentSampleTime,
			    double *outValue)
{
	if (update(id, currentSampleTime))
		return -1;
	*outValue = (double)total_uj / 1e6;
	return 0;
}
