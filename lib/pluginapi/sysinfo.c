/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysinfo.c: allinea_get_current_time(), allinea_get_logical_core_count()
 * and allinea_get_physical_core_count().
 *
 * Design notes
 *   - The time is clock_gettime(CLOCK_MONOTONIC), the sampler's clock
 *     (async-signal-safe in POSIX, and a vDSO call on Linux).
 *   - The core counts are read afresh at each call from sysfs, with
 *     pluginapi_raw_*() I/O (raw system calls, counted as plugin I/O), so that
 *     they may be called from a getter: the logical count from
 *     /sys/devices/system/cpu/online (a list such as "0-3,6,8-9"), the
 *     physical count as the number of distinct (physical_package_id,
 *     core_id) pairs in /sys/devices/system/cpu/cpuN/topology/ over the
 *     online CPUs N.  The pairs are kept in allinea_safe_malloc() memory
 *     (pluginapi_mem_realloc(): no bound on the CPU count, nothing large on
 *     the stack) and counted after a heap sort.  The physical count costs
 *     2 small file reads per online CPU: plugins should call it once,
 *     from initialize.
 *   - -1 means unknown: a file is missing or does not parse.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "pluginapi.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* The time on CLOCK_MONOTONIC.  Async-signal-safe. */
struct timespec allinea_get_current_time(void)
{
	struct timespec ts = { 0, 0 };

	pluginapi_enter();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	pluginapi_leave();
	return ts;
}

/* A CPU list file read a block at a time. */
struct cpulist {
	int fd;
	size_t len, pos;
	char buf[128];
};

/* The next byte, or -1 at the end of the file or on an error.
 * Async-signal-safe. */
static int cl_getc(struct cpulist *c)
{
	if (c->pos == c->len) {
		ssize_t r = pluginapi_raw_read(c->fd, c->buf, sizeof(c->buf));
		if (r <= 0)
			return -1;
		c->len = (size_t)r;
		c->pos = 0;
	}
	return (unsigned char)c->buf[c->pos++];
}

/* Reads a decimal number starting with byte *ch; leaves the byte after
 * it in *ch.  Returns -1 if there is none or it is too large.
 * Async-signal-safe. */
static long cl_number(struct cpulist *c, int *ch)
{
	long v = 0;
	bool any = false;

	while (*ch >= '0' && *ch <= '9') {
		v = v * 10 + (*ch - '0');
		if (v > INT32_MAX)
			return -1;
		any = true;
		*ch = cl_getc(c);
	}
	return any ? v : -1;
}

/*
 * Calls fn(first, last, arg) for each range of the CPU list file at path
 * ("0-3,6\n"); stops early when fn returns non-zero.  Returns 0, fn's
 * non-zero value, or -1 when the file cannot be read or does not parse.
 * Async-signal-safe.
 */
static int cpulist_each(const char *path, int (*fn)(long, long, void *),
	void *arg)
{
	struct cpulist c = { .len = 0, .pos = 0 };
	int ch, ret = -1, nranges = 0;

	c.fd = pluginapi_raw_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (c.fd < 0)
		return -1;
	ch = cl_getc(&c);
	for (;;) {
		long a = cl_number(&c, &ch), b = a;
		if (a < 0)
			break;
		if (ch == '-') {
			ch = cl_getc(&c);
			b = cl_number(&c, &ch);
			if (b < a)
				break;
		}
		nranges++;
		int r = fn(a, b, arg);
		if (r != 0) {
			ret = r;
			break;
		}
		if (ch == ',') {
			ch = cl_getc(&c);
			continue;
		}
		if (ch == '\n' || ch == -1)
			ret = 0;
		break;
	}
	pluginapi_raw_close(c.fd);
	return ret == 0 && nranges == 0 ? -1 : ret;
}

static int count_range(long first, long last, void *arg)
{
	*(long *)arg += last - first + 1;
	return 0;
}

/* The number of online CPUs, hyperthreads included; -1 if unknown.
 * Async-signal-safe. */
int allinea_get_logical_core_count(void)
{
	long n = 0;
	int r;

	pluginapi_enter();
	r = cpulist_each(CPU_DIR "/online", count_range, &n);
	pluginapi_leave();
	return r == 0 && n > 0 && n <= INT32_MAX ? (int)n : -1;
}

/* Reads the integer in a small sysfs file (possibly negative).
 * Async-signal-safe. */
static int read_int(const char *path, long *v)
{
	char buf[32];
	ssize_t n;
	int fd = pluginapi_raw_open(path, O_RDONLY | O_CLOEXEC, 0), i = 0;
	bool neg = false;

	if (fd < 0)
		return -1;
	n = pluginapi_raw_read(fd, buf, sizeof(buf) - 1);
	pluginapi_raw_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (buf[0] == '-') {
		neg = true;
		i++;
	}
	if (buf[i] < '0' || buf[i] > '9')
		return -1;
	*v = 0;
	for (; buf[i] >= '0' && buf[i] <= '9'; i++) {
		*v = *v * 10 + (buf[i] - '0');
		if (*v > INT32_MAX)
			return -1;
	}
	if (buf[i] != '\n' && buf[i] != '\0')
		return -1;
	if (neg)
		*v = -*v;
	return 0;
}

/* The (package, core) keys of the online CPUs. */
struct cores {
	uint64_t *key;
	size_t n, cap;
};

static int add_cores(long first, long last, void *arg)
{
	struct cores *c = arg;
	char path[128];

	for (long cpu = first; cpu <= last; cpu++) {
		long pkg, core;
		pluginapi_snformat(path, sizeof(path),
			CPU_DIR "/cpu%ld/topology/physical_package_id", cpu);
		if (read_int(path, &pkg) != 0)
			return -1;
		pluginapi_snformat(path, sizeof(path),
			CPU_DIR "/cpu%ld/topology/core_id", cpu);
		if (read_int(path, &core) != 0)
			return -1;
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 64;
			c->key = pluginapi_mem_realloc(c->key,
				c->cap * sizeof(*c->key));
		}
		c->key[c->n++] = (uint64_t)(uint32_t)pkg << 32 |
			(uint32_t)core;
	}
	return 0;
}

/* Moves a[root] down the max-heap a[0..n) to its place. */
static void sift_down(uint64_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		uint64_t t;
		if (child >= n)
			return;
		if (child + 1 < n && a[child] < a[child + 1])
			child++;
		if (a[root] >= a[child])
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

/* Sorts a[0..n) ascending: heap sort, no recursion, no allocation.
 * Async-signal-safe. */
static void sort_keys(uint64_t *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end > 1; end--) {
		uint64_t t = a[0];
		a[0] = a[end - 1];
		a[end - 1] = t;
		sift_down(a, 0, end - 1);
	}
}

/* The number of physical cores of the online CPUs; -1 if unknown.
 * Async-signal-safe. */
int allinea_get_physical_core_count(void)
{
	struct cores c = { NULL, 0, 0 };
	int ret = -1;

	pluginapi_enter();
	if (cpulist_each(CPU_DIR "/online", add_cores, &c) == 0 && c.n > 0) {
		size_t distinct = 1;
		sort_keys(c.key, c.n);
		for (size_t i = 1; i < c.n; i++)
			distinct += c.key[i] != c.key[i - 1];
		ret = (int)distinct;
	}
	pluginapi_mem_free(c.key);
	pluginapi_leave();
	return ret;
}
