/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hosttest: a metric plugin that exercises the sampler's side of the
 * plugin API, for test/integration/metrics-host.sh.  Written against the
 * public headers only.  Each getter is async-signal-safe.
 *
 *   ht_ticks      uint64  1 per call (a counter of getter calls)
 *   ht_rate       uint64  divideBySampleTime: the nanoseconds elapsed
 *                         since the previous call, exactly, so the rate
 *                         read is 10^9 /s whatever the interval (whole
 *                         microseconds were 0.2% off over the short last
 *                         interval before the final metric sample)
 *   ht_flaky      uint64  fails every third call, with a message
 *   ht_silent     uint64  fails every call without a message
 *   ht_none       double  never has a value (leaves the NaN sentinel)
 *   ht_safe       uint64  allocates, frees and reads /proc/self/stat with
 *                         the allinea_safe_* functions, writes to
 *                         /dev/null, returns the bytes read
 *   ht_when       double  backfilled: the sample time it is asked for,
 *                         in seconds modulo 1000
 */
#include <fcntl.h>
#include <math.h>
#include <string.h>

#include <allinea_metric_plugin_api.h>

static uint64_t calls_flaky;
static uint64_t prev_ns;

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int ht_ticks(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	*out = 1;
	return 0;
}

int ht_rate(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	uint64_t now = ns(t);
	if (prev_ns)
		*out = now - prev_ns; /* 10^9 per second */
	prev_ns = now;
	return 0;
}

int ht_flaky(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)t;
	if (++calls_flaky % 3 == 0) {
		allinea_set_metric_error_messagef(id, 7, "flaky call %d failed",
						  (int)calls_flaky);
		return -1;
	}
	*out = calls_flaky;
	return 0;
}

int ht_silent(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	(void)out;
	return -1;
}

int ht_none(metric_id_t id, struct timespec *t, double *out)
{
	(void)id;
	(void)t;
	(void)out;
	return 0;
}

int ht_safe(metric_id_t id, struct timespec *t, uint64_t *out)
{
	*t = allinea_get_current_time();
	char *buf = allinea_safe_malloc(4096);
	char *more = allinea_safe_calloc(16, 64);
	if (!buf || !more) {
		allinea_set_metric_error_message(id, 12, "no memory");
		return -1;
	}
	more = allinea_safe_realloc(more, 8192);
	int fd = allinea_safe_open("/proc/self/stat", O_RDONLY);
	if (fd < 0) {
		allinea_set_metric_error_message(id, 2, "cannot open stat");
		allinea_safe_free(buf);
		allinea_safe_free(more);
		return -1;
	}
	ssize_t n = allinea_safe_read_all(fd, buf, 4096);
	allinea_safe_close(fd);
	int dn = allinea_safe_open("/dev/null", O_WRONLY);
	if (dn >= 0) {
		allinea_safe_write(dn, buf, n > 0 ? (size_t)n : 0);
		allinea_safe_fprintf(dn, "%d %s\n", (int)n, "bytes");
		allinea_safe_close(dn);
	}
	memset(more, 0x5a, 8192);
	allinea_safe_free(more);
	allinea_safe_free(buf);
	*out = n > 0 ? (uint64_t)n : 0;
	return 0;
}

int ht_when(metric_id_t id, struct timespec *t, double *out)
{
	(void)id;
	/* modulo 1000 s: the dump prints 6 significant digits */
	*out = (double)(t->tv_sec % 1000) + (double)t->tv_nsec / 1e9;
	return 0;
}
