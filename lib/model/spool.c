/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spool: logs that cannot be read twice, copied as they are read the
 * first time (see spool.h).
 *
 * DESIGN NOTES
 *   One table of armed paths, each in one of four states: ARMED (not
 *   opened yet), FILLING (its first reader holds the struct spool and is
 *   the only one to touch its fd, err and bytes), READY (the copy is
 *   whole: every open is a new open file description of it, through
 *   /proc/self/fd, so readers never share an offset; a dup() moved to
 *   the start when /proc is not mounted) and FAILED (err says why).  The
 *   table and the states are read and changed under mu; spool_arm()
 *   grows the table only while no log is read.  A second open of a path
 *   while its first reader is still at it opens the path itself, as
 *   without the spool.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "model/spool.h"

enum sp_state { SP_ARMED, SP_FILLING, SP_READY, SP_FAILED };

struct spool {
	char *path;          /* as given to spool_arm() */
	enum sp_state state;
	int fd;              /* the copy (FILLING, READY), else -1 */
	int err;             /* FAILED, or FILLING once a write failed */
	uint64_t bytes;      /* copied so far */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct spool *spools;
static size_t nspools, capspools;
static spool_say_fn say;

/* The folder of the copies: $TMPDIR, or /tmp when it is not set. */
static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");
	return d && *d ? d : "/tmp";
}

/* The copy of s is lost to err: said, with the fix when the temporary
 * folder is to blame (tmp), else as a read error of the log. */
static void fail(struct spool *s, int err, int tmp)
{
	s->err = err;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (!say)
		return;
	char line[PATH_MAX + 512];
	if (tmp)
		snprintf(line, sizeof(line),
			 "%s: cannot copy it to a temporary file in %s to "
			 "read it again (%s, after %" PRIu64 " bytes); the "
			 "outputs that read it again go without it: set "
			 "TMPDIR to a folder with room for the log",
			 s->path, tmp_dir(), strerror(err), s->bytes);
	else
		snprintf(line, sizeof(line),
			 "%s: read failed while copying it to read it again "
			 "(%s, after %" PRIu64 " bytes); the outputs that "
			 "read it again go without it",
			 s->path, strerror(err), s->bytes);
	say(line);
}

/* The path's entry, or NULL; under mu. */
static struct spool *find(const char *path)
{
	for (size_t i = 0; i < nspools; i++)
		if (strcmp(spools[i].path, path) == 0)
			return &spools[i];
	return NULL;
}

int spool_arm(const char *const *paths, size_t n, spool_say_fn say_line)
{
	int rc = 0;
	pthread_mutex_lock(&mu);
	say = say_line;
	for (size_t i = 0; i < n && !rc; i++) {
		struct stat sb;
		/* a file that is not there fails to open as before; a folder
		 * or a block device reads the same again */
		if (stat(paths[i], &sb) || S_ISREG(sb.st_mode) ||
		    S_ISDIR(sb.st_mode) || S_ISBLK(sb.st_mode) ||
		    find(paths[i]))
			continue;
		if (nspools == capspools) {
			size_t cap = capspools ? capspools * 2 : 4;
			struct spool *v = realloc(spools, cap * sizeof(*v));
			if (!v) {
				rc = MAPS_ENOMEM;
				break;
			}
			spools = v;
			capspools = cap;
		}
		struct spool *s = &spools[nspools];
		if (!(s->path = strdup(paths[i]))) {
			rc = MAPS_ENOMEM;
			break;
		}
		s->state = SP_ARMED;
		s->fd = -1;
		s->err = 0;
		s->bytes = 0;
		nspools++;
	}
	pthread_mutex_unlock(&mu);
	return rc;
}

/* Makes the (unlinked) temporary file of s, or says why it cannot. */
static void make_copy(struct spool *s)
{
	const char *dir = tmp_dir();
	size_t len = strlen(dir) + sizeof("/mapsample-log-XXXXXX");
	char *name = malloc(len);
	if (!name) {
		fail(s, ENOMEM, 1);
		return;
	}
	snprintf(name, len, "%s/mapsample-log-XXXXXX", dir);
	s->fd = mkstemp(name);
	if (s->fd < 0) {
		fail(s, errno, 1);
	} else {
		unlink(name); /* gone whatever happens next */
		fcntl(s->fd, F_SETFD, FD_CLOEXEC);
	}
	free(name);
}

/* A new open file description of the whole copy of s, read-only; under
 * mu. */
static int open_copy(const struct spool *s)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", s->fd);
	int fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0 && lseek(fd, 0, SEEK_SET) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int spool_open(const char *path, struct spool **sp)
{
	*sp = NULL;
	pthread_mutex_lock(&mu);
	struct spool *s = nspools ? find(path) : NULL;
	enum sp_state state = s ? s->state : SP_ARMED;
	int fd = -1, err = 0;
	if (state == SP_READY) {
		fd = open_copy(s);
		err = errno;
	} else if (state == SP_FAILED) {
		err = ENODATA; /* why was said when the copy failed */
	} else if (s && state == SP_ARMED) {
		s->state = SP_FILLING;
	} else {
		s = NULL; /* not armed, or being read: the path itself */
	}
	pthread_mutex_unlock(&mu);
	if (state == SP_READY || state == SP_FAILED) {
		errno = err;
		return fd;
	}
	/* a FIFO's open waits for its writer: not under mu */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!s)
		return fd;
	if (fd < 0) {
		err = errno;
		pthread_mutex_lock(&mu);
		s->state = SP_ARMED; /* nothing read: the next open tries */
		pthread_mutex_unlock(&mu);
		errno = err;
		return -1;
	}
	make_copy(s);
	if (s->fd < 0) {
		pthread_mutex_lock(&mu);
		s->state = SP_FAILED;
		pthread_mutex_unlock(&mu);
		return fd;
	}
	*sp = s;
	return fd;
}

int spool_has(const char *path)
{
	pthread_mutex_lock(&mu);
	int has = nspools && find(path);
	pthread_mutex_unlock(&mu);
	return has;
}

void spool_put(struct spool *sp, const void *buf, size_t n)
{
	const char *p = buf;
	while (sp->fd >= 0 && n) {
		ssize_t w = write(sp->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fail(sp, w < 0 ? errno : EIO, 1);
			return;
		}
		p += w;
		n -= (size_t)w;
		sp->bytes += (uint64_t)w;
	}
}

void spool_end(struct spool *sp, int fd, void *buf, size_t len,
	       enum spool_end how)
{
	while (how == SPOOL_EARLY && sp->fd >= 0) {
		ssize_t r = read(fd, buf, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fail(sp, errno, 0);
		if (r <= 0)
			break;
		spool_put(sp, buf, (size_t)r);
	}
	pthread_mutex_lock(&mu);
	if (how == SPOOL_DROP && sp->fd >= 0) {
		close(sp->fd);
		sp->fd = -1;
		sp->err = ECANCELED;
	}
	sp->state = sp->fd >= 0 ? SP_READY : SP_FAILED;
	pthread_mutex_unlock(&mu);
}

void spool_release(void)
{
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < nspools; i++) {
		if (spools[i].fd >= 0)
			close(spools[i].fd);
		free(spools[i].path);
	}
	free(spools);
	spools = NULL;
	nspools = capspools = 0;
	pthread_mutex_unlock(&mu);
}
