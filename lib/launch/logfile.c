/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logfile: see logfile.h.  Used for the run's log and for the short
 * probe run of mapsample --list-metrics.
 *
 * DESIGN NOTES
 *   A log may be mapped by the processes of a run that is still going:
 *   cutting it (O_TRUNC) or rewriting it under them kills them with
 *   SIGBUS.  So a run never opens an existing log for writing: the new
 *   log is written under a temporary name in the log's folder (O_EXCL)
 *   and put in place with link() (the name is free) or rename() (over an
 *   old log), which gives the name a new inode and leaves any old one
 *   untouched for whoever still has it.
 *
 *   Over an old log only when no run holds it: every run holds a shared
 *   flock() on its log, the launcher through the descriptor
 *   launch_make_log() returns and each process of the program through
 *   its own (the sampler's stream.c).  A new run asks for an exclusive
 *   lock without waiting; refused, the name is in use, and the run takes
 *   the next name, NAME-2.EXT, NAME-3.EXT, ... by the same rule.  So
 *   runs on one name (mpirun -np 4 mapsample -o same.log) each get a log
 *   of their own and lose nothing; the launcher says which (main.c).
 *   Renaming over the old log while holding its exclusive lock, after
 *   checking that the name still is that file, keeps two new runs from
 *   both taking one name.  Replacing rather than sharing the file also
 *   keeps the exec'd images of a run (which open the log by name) in
 *   their own run's log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mapsample/maplog.h>

#include "launch/logfile.h"
#include "log/mapwrite.h"
#include "model/logread.h"

/* The name of the i-th candidate for the log at path: path itself for
 * i 1, else NAME-i.EXT (NAME-i when the file name has no extension).
 * Returns 0, or -1 when it does not fit in len. */
static int candidate(const char *path, int i, char *out, size_t len)
{
	int n;
	if (i == 1) {
		n = snprintf(out, len, "%s", path);
	} else {
		const char *slash = strrchr(path, '/');
		const char *base = slash ? slash + 1 : path;
		const char *dot = strrchr(base, '.');
		if (!dot || dot == base)
			dot = base + strlen(base);
		n = snprintf(out, len, "%.*s-%d%s", (int)(dot - path), path, i,
			     dot);
	}
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Puts the finished log tmp in place under name: a new name (link), or
 * over a regular file that no run holds (rename, under an exclusive lock
 * on that file, so no other new run can take it at the same time).
 * Returns 0 when done, 1 when name is a log in use, -1 with errno on
 * failure (EINVAL: name is not a regular file). */
static int place(const char *tmp, const char *name)
{
	for (int tries = 0; tries < 100; tries++) {
		if (link(tmp, name) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
		struct stat st, fst;
		if (lstat(name, &st)) {
			if (errno == ENOENT)
				continue; /* gone meanwhile: link again */
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			errno = EINVAL;
			return -1;
		}
		int fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					    O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT || errno == ELOOP)
				continue; /* replaced meanwhile */
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
			close(fd);
			return 1;
		}
		/* locked (or no locks on this file system: as before) */
		int r = 1;
		if (fstat(fd, &fst) == 0 && lstat(name, &st) == 0 &&
		    st.st_dev == fst.st_dev && st.st_ino == fst.st_ino)
			r = rename(tmp, name);
		int e = errno;
		close(fd);
		if (r == 0)
			return 0;
		if (r < 0) {
			errno = e;
			return -1;
		}
		/* replaced between open and lock: look again */
	}
	errno = EAGAIN;
	return -1;
}

int launch_make_log(const char *path, char *out, size_t outlen)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = (int)(base - path);
	int fd = -1;
	for (unsigned n = 0; fd < 0 && n < 1000; n++) {
		int l = snprintf(tmp, sizeof(tmp), "%.*s.%s.%ld.%u.new", dirlen,
				 path, base, (long)getpid(), n);
		if (l < 0 || (size_t)l >= sizeof(tmp)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	if (fd < 0)
		return -1;
	uint8_t hdr[4096];
	memset(hdr, 0, sizeof(hdr));
	mapw_file_header(hdr, sizeof(hdr));
	ssize_t w = write(fd, hdr, sizeof(hdr));
	int e = errno, rc = -1;
	if (w != (ssize_t)sizeof(hdr)) {
		e = w < 0 ? e : ENOSPC;
		goto fail;
	}
	/* held for the run: a new run sees the log in use */
	(void)flock(fd, LOCK_SH | LOCK_NB);
	for (int i = 1; i < 1000; i++) {
		if (candidate(path, i, out, outlen)) {
			e = ENAMETOOLONG;
			goto fail;
		}
		rc = place(tmp, out);
		if (rc <= 0)
			break;
	}
	e = rc ? (rc < 0 ? errno : EBUSY) : 0;
	if (rc == 0) {
		unlink(tmp); /* after a link; a rename took it already */
		return fd;
	}
fail:
	unlink(tmp);
	close(fd);
	errno = e;
	return -1;
}

/* What the log holds of one process: its last image, the last chunk of
 * that image's process stream, and whether that image's exit is in. */
struct seen {
	uint32_t pid;
	int any;
	uint32_t image, seq;
	int exited;
};

/* A record of the log (a logread_fn: ctx is the struct seen). */
static int seen_record(void *ctx, const struct maplog_ev *ev)
{
	struct seen *sn = ctx;
	if (ev->ev_pid != sn->pid)
		return 0;
	if (!sn->any || ev->ev_image > sn->image) {
		sn->any = 1;
		sn->image = ev->ev_image;
		sn->seq = 0;
		sn->exited = 0;
	}
	if (ev->ev_image != sn->image)
		return 0;
	if (ev->ev_tid == 0 && ev->ev_chunk_seq > sn->seq)
		sn->seq = ev->ev_chunk_seq;
	if (ev->ev_type == MAPLOG_TYPE_PROC_EXIT)
		sn->exited = 1;
	return 0;
}

/* Reads the log open on fd from its start (the offset is left at its
 * end; what follows uses pwrite and mmap, which do not care).
 * Damage is skipped: the parser goes on at the next good chunk.  Returns
 * 0, or -1 with errno ENOMEM. */
static int scan_for(int fd, const char *path, struct seen *sn)
{
	static const struct logread_tool tool = {.lt_any = seen_record};
	if (logread_fd(fd, path, &tool, sn, NULL) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int launch_note_exit(const char *path, uint32_t pid, int how, int code)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct seen sn = {pid, 0, 0, 0, 0};
	int rc = -1;
	uint8_t *hdr = MAP_FAILED;
	if (scan_for(fd, path, &sn))
		goto out;
	rc = 0;
	if (!sn.any || sn.exited)
		goto out;
	/* one page-sized chunk of the process's stream, after its last */
	enum { CAP = 4096 };
	uint8_t chunk[CAP];
	memset(chunk, 0, sizeof(chunk));
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t ts = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	struct mapw_chunk_id id = {pid, 0, sn.image, sn.seq + 1};
	struct mapw_chunk c;
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
	ev.ev_ts = ts;
	ev.ev_u.exit.px_pid = pid;
	ev.ev_u.exit.px_how = (uint32_t)how;
	ev.ev_u.exit.px_code = code;
	rc = -1;
	if (mapw_chunk_open(&c, chunk, CAP, &id, ts, NULL) ||
	    mapw_event(&c, &ev)) {
		errno = EINVAL;
		goto out;
	}
	mapw_chunk_seal(&c);
	hdr = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (hdr == MAP_FAILED)
		goto out;
	uint64_t off = __atomic_fetch_add(
		(uint64_t *)(hdr + MAPLOG_FH_ALLOC_END), (uint64_t)CAP,
		__ATOMIC_SEQ_CST);
	if (pwrite(fd, chunk, CAP, (off_t)off) != CAP) {
		if (errno == 0)
			errno = ENOSPC;
		goto out;
	}
	rc = 1;
out:
	if (hdr != MAP_FAILED)
		munmap(hdr, 4096);
	close(fd);
	return rc;
}
