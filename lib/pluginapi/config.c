/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.c: allinea_read_config_file(), the plugin configuration file.
 * The reference gives only the function's signature; mapsample-plugin(3)
 * defines the file, which this implements:
 *
 *   - The file is the first that exists of $MAPSAMPLE_PLUGIN_CONFIG (a
 *     file), $MAPSAMPLE_CONFIG_DIR/plugins.conf and
 *     $HOME/.mapsample/plugins.conf (unset or empty variables skipped).
 *     $MAPSAMPLE_PLUGIN_CONFIG naming no file is reported once.
 *   - Lines: "# comment", "variable = value" (blanks around both trimmed,
 *     one pair of double quotes around the value removed), "[metric-id]"
 *     starting a section; blank lines.  Entries before the first section
 *     are global.  Within a section the last assignment wins.
 *   - Lookup: variable in the section named metricId (non-NULL, non-empty),
 *     else the global one.
 *   - A malformed line is ignored; the first one of a file is reported on
 *     standard error once per process (file:line), with a count of the
 *     others.
 *
 * Design notes: not async-signal-safe (getenv, malloc, a mutex): plugins
 * call it from allinea_plugin_initialize().  The file is read whole with
 * pluginapi_raw_read(), so its bytes count as plugin I/O, not the program's,
 * and parsed in memory; nothing is cached, so a changed file is read
 * afresh at the next call.  Everything allocated is freed before
 * returning.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "pluginapi.h"

/* Files already reported, by identity; and whether a missing
 * $MAPSAMPLE_PLUGIN_CONFIG was. */
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	dev_t dev;
	ino_t ino;
} warned[16];
static unsigned nwarned;
static bool warned_env;

/* Whether the file (dev, ino) should be reported now: true the first
 * time it is asked about. */
static bool first_warning(dev_t dev, ino_t ino)
{
	bool first = true;

	pthread_mutex_lock(&warn_lock);
	for (unsigned i = 0; i < nwarned && first; i++)
		if (warned[i].dev == dev && warned[i].ino == ino)
			first = false;
	if (first && nwarned < sizeof(warned) / sizeof(warned[0])) {
		warned[nwarned].dev = dev;
		warned[nwarned].ino = ino;
		nwarned++;
	}
	pthread_mutex_unlock(&warn_lock);
	return first;
}

/* Puts the file to read into path; returns 0, or -1 (ENOENT) when none
 * of the candidates exists. */
static int find_file(char *path, size_t size)
{
	const char *env = getenv("MAPSAMPLE_PLUGIN_CONFIG");
	struct stat st;
	int n;

	if (env != NULL && *env != '\0') {
		if (stat(env, &st) == 0 && strlen(env) < size) {
			strcpy(path, env);
			return 0;
		}
		int e = errno;
		pthread_mutex_lock(&warn_lock);
		bool first = !warned_env;
		warned_env = true;
		pthread_mutex_unlock(&warn_lock);
		if (first)
			pluginapi_warn("MAPSAMPLE_PLUGIN_CONFIG=%s: %s; "
				"plugins read "
				"$MAPSAMPLE_CONFIG_DIR/plugins.conf or "
				"~/.mapsample/plugins.conf instead; set it to an "
				"existing file", env, strerror(e));
	}
	env = getenv("MAPSAMPLE_CONFIG_DIR");
	if (env != NULL && *env != '\0') {
		n = snprintf(path, size, "%s/plugins.conf", env);
		if (n > 0 && (size_t)n < size && stat(path, &st) == 0)
			return 0;
	}
	env = getenv("HOME");
	if (env != NULL && *env != '\0') {
		n = snprintf(path, size, "%s/.mapsample/plugins.conf", env);
		if (n > 0 && (size_t)n < size && stat(path, &st) == 0)
			return 0;
	}
	errno = ENOENT;
	return -1;
}

/* Reads the whole file into a NUL-terminated malloc'd buffer, its size
 * in *len, and its identity in *st.  NULL with errno on failure. */
static char *slurp(const char *path, size_t *len, struct stat *st)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL;
	int fd = pluginapi_raw_open(path, O_RDONLY | O_CLOEXEC, 0), e;

	if (fd < 0)
		return NULL;
	if (fstat(fd, st) != 0)
		goto fail;
	for (;;) {
		ssize_t r;
		if (buf == NULL || n == cap - 1) {
			char *nb;
			if (buf != NULL)
				cap *= 2;
			nb = realloc(buf, cap);
			if (nb == NULL)
				goto fail;
			buf = nb;
		}
		r = pluginapi_raw_read(fd, buf + n, cap - 1 - n);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	pluginapi_raw_close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	e = errno;
	free(buf);
	pluginapi_raw_close(fd);
	errno = e;
	return NULL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Trims blanks from both ends of [*s, *s + *n). */
static void trim(const char **s, size_t *n)
{
	while (*n > 0 && is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && is_blank((*s)[*n - 1]))
		(*n)--;
}

/* A value found: where it is in the file's buffer. */
struct found {
	const char *s;
	size_t n;
	bool set;
};

enum line_kind { LINE_NONE, LINE_SECTION, LINE_ASSIGN, LINE_BAD };

/* Classifies the line [s, s + n): for a section, its name in *name; for
 * an assignment, the variable in *name and the value (unquoted) in
 * *val. */
static enum line_kind parse_line(const char *s, size_t n, const char **name,
	size_t *nn, const char **val, size_t *vn)
{
	const char *eq;

	trim(&s, &n);
	if (n == 0 || s[0] == '#')
		return LINE_NONE;
	if (s[0] == '[') {
		if (n < 2 || s[n - 1] != ']')
			return LINE_BAD;
		*name = s + 1;
		*nn = n - 2;
		trim(name, nn);
		if (*nn == 0 || memchr(*name, ']', *nn) != NULL ||
		    memchr(*name, '[', *nn) != NULL)
			return LINE_BAD;
		return LINE_SECTION;
	}
	eq = memchr(s, '=', n);
	if (eq == NULL)
		return LINE_BAD;
	*name = s;
	*nn = (size_t)(eq - s);
	*val = eq + 1;
	*vn = n - *nn - 1;
	trim(name, nn);
	trim(val, vn);
	if (*nn == 0)
		return LINE_BAD;
	for (size_t i = 0; i < *nn; i++)
		if (is_blank((*name)[i]))
			return LINE_BAD;
	if (*vn > 0 && (*val)[0] == '"') {
		if (*vn < 2 || (*val)[*vn - 1] != '"')
			return LINE_BAD;
		(*val)++;
		*vn -= 2;
	}
	return LINE_ASSIGN;
}

/*
 * Parses the file held in buf (len bytes) and records the last value of
 * variable in the global part (*glob) and in section metric (*sec, if
 * metric is not NULL).  Returns the number of malformed lines, the first
 * one's number in *bad_line.
 */
static unsigned parse(const char *buf, size_t len, const char *variable,
	const char *metric, struct found *glob, struct found *sec,
	unsigned *bad_line)
{
	const char *p = buf, *end = buf + len;
	const char *cur = NULL;		/* current section name, or NULL */
	size_t curlen = 0, varlen = strlen(variable);
	size_t metlen = metric != NULL ? strlen(metric) : 0;
	unsigned lineno = 0, bad = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *name = NULL, *val = NULL;
		size_t nn = 0, vn = 0;
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		enum line_kind k = parse_line(p, n, &name, &nn, &val, &vn);

		p = nl != NULL ? nl + 1 : end;
		lineno++;
		switch (k) {
		case LINE_NONE:
			break;
		case LINE_BAD:
			if (bad++ == 0)
				*bad_line = lineno;
			break;
		case LINE_SECTION:
			cur = name;
			curlen = nn;
			break;
		case LINE_ASSIGN:
			if (nn != varlen || memcmp(name, variable, nn) != 0)
				break;
			if (cur == NULL)
				*glob = (struct found){ val, vn, true };
			else if (metric != NULL && curlen == metlen &&
				 memcmp(cur, metric, metlen) == 0)
				*sec = (struct found){ val, vn, true };
			break;
		}
	}
	return bad;
}

/*
 * Looks variable up in the plugin configuration file (see the top of
 * this file and mapsample-plugin(3)) and copies its value, truncated to
 * length - 1 bytes and NUL-terminated, into value (value may be NULL when
 * length is 0).  Returns the value's full length, as snprintf(3) does;
 * or -1 with errno ENOENT (no file, or no such variable), EINVAL (variable
 * NULL or empty, length negative, value NULL with length > 0), or the
 * error that kept the file from being read.  Not async-signal-safe.
 */
int allinea_read_config_file(const char *variable, const char *metricId,
	char *value, int length)
{
	char path[PATH_MAX];
	struct found glob = { NULL, 0, false }, sec = { NULL, 0, false };
	const struct found *f;
	struct stat st;
	unsigned bad, bad_line = 0;
	size_t len;
	char *buf;
	int ret = -1;

	pluginapi_enter();
	if (variable == NULL || *variable == '\0' || length < 0 ||
	    (value == NULL && length > 0)) {
		errno = EINVAL;
		goto out;
	}
	if (find_file(path, sizeof(path)) != 0)
		goto out;
	buf = slurp(path, &len, &st);
	if (buf == NULL) {
		int e = errno;
		pluginapi_warn("%s: cannot read the plugin configuration "
			"file: %s; fix its permissions or point "
			"MAPSAMPLE_PLUGIN_CONFIG elsewhere", path, strerror(e));
		errno = e;
		goto out;
	}
	if (metricId != NULL && *metricId == '\0')
		metricId = NULL;
	bad = parse(buf, len, variable, metricId, &glob, &sec, &bad_line);
	if (bad > 0 && first_warning(st.st_dev, st.st_ino)) {
		if (bad > 1)
			pluginapi_warn("%s:%u: malformed line ignored (and %u "
				"more in this file); want 'variable = value', "
				"'[metric-id]' or '# comment', see "
				"mapsample-plugin(3)", path, bad_line, bad - 1);
		else
			pluginapi_warn("%s:%u: malformed line ignored; want "
				"'variable = value', '[metric-id]' or "
				"'# comment', see mapsample-plugin(3)", path,
				bad_line);
	}
	f = sec.set ? &sec : glob.set ? &glob : NULL;
	if (f == NULL) {
		errno = ENOENT;
	} else {
		if (length > 0) {
			size_t k = f->n < (size_t)length - 1 ? f->n :
				(size_t)length - 1;
			memcpy(value, f->s, k);
			value[k] = '\0';
		}
		ret = f->n > INT_MAX ? INT_MAX : (int)f->n;
	}
	free(buf);
out:
	pluginapi_leave();
	return ret;
}
