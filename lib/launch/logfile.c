/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logfile: see logfile.h.  Used for the run's log and for the short
 * probe run of mapsample --list-metrics.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <mapsample/maplog.h>

#include "launch/logfile.h"
#include "log/mapwrite.h"
#include "model/logread.h"

int launch_make_log(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	uint8_t hdr[4096];
	memset(hdr, 0, sizeof(hdr));
	mapw_file_header(hdr, sizeof(hdr));
	ssize_t w = write(fd, hdr, sizeof(hdr));
	int e = errno;
	close(fd);
	if (w != (ssize_t)sizeof(hdr)) {
		errno = w < 0 ? e : ENOSPC;
		return -1;
	}
	return 0;
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
