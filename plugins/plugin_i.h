/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plugin_i.h: small helpers shared by the built-in metric plugins
 * (plugins/<name>/<name>.c), compiled into each module as static inline
 * functions so that every plugin stays one self-contained library that
 * uses nothing but the public plugin API.
 *
 * Every function here is async-signal-safe: getters run in the sampler's
 * signal handler.  Files are read only through allinea_safe_open(),
 * allinea_safe_read*() and allinea_safe_close(), so that the plugins'
 * reads stay out of the I/O metrics; numbers are parsed by hand (no
 * strtoull, no stdio).
 */
#ifndef MAPSAMPLE_PLUGIN_I_H
#define MAPSAMPLE_PLUGIN_I_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>
#include <allinea_metric_plugin_template.h>

/* Whether a and b are the same instant: several getters of one plugin
 * called for one sample share one reading.  Async-signal-safe. */
static inline bool plugin_same_time(const struct timespec *a,
				    const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* Seconds from a to b (b later), as a double.  Async-signal-safe. */
static inline double plugin_seconds_between(const struct timespec *a,
					    const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/*
 * Reads the start of the file at path, at most len - 1 bytes, into buf
 * and NUL-terminates it.  Returns the number of bytes read, or -1 with
 * errno set (the file cannot be opened or read).  Async-signal-safe.
 */
static inline ssize_t plugin_read_file(const char *path, char *buf,
				       size_t len)
{
	ssize_t n;
	int fd, err;

	fd = allinea_safe_open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = allinea_safe_read_all(fd, buf, len - 1);
	err = errno;
	allinea_safe_close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	buf[n] = '\0';
	return n;
}

/* Skips blanks (spaces and tabs) at *p.  Async-signal-safe. */
static inline void plugin_skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/*
 * Parses the unsigned decimal number at *p after blanks into *v and
 * advances *p past it.  Returns 0, or -1 (nothing consumed) when no digit
 * is there.  Values beyond 2^64 - 1 wrap; the kernel's counters do not
 * get there.  Async-signal-safe.
 */
static inline int plugin_parse_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	plugin_skip_blanks(&s);
	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9')
		x = x * 10 + (uint64_t)(*s++ - '0');
	*v = x;
	*p = s;
	return 0;
}

/*
 * Parses the non-negative decimal number with an optional fraction
 * ("0.74", "12", "3.") at *p after blanks into *v and advances *p past
 * it.  Returns 0, or -1 (nothing consumed) when no digit is there.
 * Async-signal-safe.
 */
static inline int plugin_parse_double(const char **p, double *v)
{
	const char *s = *p;
	uint64_t ip;
	double x, scale = 0.1;

	if (plugin_parse_u64(&s, &ip))
		return -1;
	x = (double)ip;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			x += (double)(*s++ - '0') * scale;
			scale /= 10;
		}
	}
	*v = x;
	*p = s;
	return 0;
}

/*
 * Finds the line starting with key (e.g. "MemTotal:") in the
 * NUL-terminated text and returns a pointer just past the key, or NULL
 * when there is no such line.  Async-signal-safe.
 */
static inline const char *plugin_find_key(const char *text, const char *key)
{
	const char *line = text;

	while (*line) {
		const char *s = line, *k = key;
		while (*k && *s == *k) {
			s++;
			k++;
		}
		if (!*k)
			return s;
		while (*line && *line != '\n')
			line++;
		if (*line)
			line++;
	}
	return NULL;
}

/*
 * Looks up the configuration value variable of metric metric_id with
 * allinea_read_config_file() into buf (len bytes).  Returns true when
 * there is a non-empty value.  Not async-signal-safe: call it from
 * allinea_plugin_initialize().
 */
static inline bool plugin_config(const char *variable, const char *metric_id,
				 char *buf, int len)
{
	buf[0] = '\0';
	if (allinea_read_config_file(variable, metric_id, buf, len) < 0) {
		buf[0] = '\0';
		return false;
	}
	buf[len - 1] = '\0';
	return buf[0] != '\0';
}

#endif /* MAPSAMPLE_PLUGIN_I_H */
