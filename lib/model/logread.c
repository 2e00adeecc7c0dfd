/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logread: the one log-reading loop (logread.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "model/logread.h"

/* Bytes read from a log at a time: memory for reading stays this plus the
 * largest chunk, whatever the size of the log. */
#define LOGREAD_BLOCK (1u << 20)

static void problem(const struct logread_tool *t, void *ctx,
		    enum logread_kind kind, const char *name, uint64_t off,
		    uint64_t len, int code, uint64_t records)
{
	if (!t->lt_problem)
		return;
	struct logread_problem p = {kind, name, off, len, code, 0, records};
	t->lt_problem(ctx, &p);
}

int logread_dispatch(const struct logread_tool *tool, void *ctx,
		     const struct maplog_ev *ev)
{
	int r = tool->lt_any ? tool->lt_any(ctx, ev) : 0;
	logread_fn f = ev->ev_type < MAPLOG_TYPE_MAX_
			       ? tool->lt_record[ev->ev_type]
			       : NULL;
	if (!r && f)
		r = f(ctx, ev);
	return r;
}

int logread_file(const char *path, const struct logread_tool *tool,
		 void *ctx, struct maplog_stats *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (tool->lt_problem) {
			struct logread_problem p = {LOGREAD_FATAL, path, 0, 0,
						    MAPS_EIO, errno, 0};
			tool->lt_problem(ctx, &p);
		}
		if (st)
			memset(st, 0, sizeof(*st));
		return LOGREAD_UNREADABLE;
	}
	int rc = logread_fd(fd, path, tool, ctx, st);
	close(fd);
	return rc;
}

int logread_fd(int fd, const char *name, const struct logread_tool *tool,
	       void *ctx, struct maplog_stats *st)
{
	/* The log is read in blocks and fed to the parser, not mapped: a
	 * mapping of the whole file would count in the resident set, which
	 * then grows with the log. */
	struct stat sb;
	uint64_t size = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)
				? (uint64_t)sb.st_size
				: 0;
	uint8_t *block = malloc(LOGREAD_BLOCK);
	maplog *lp = block ? maplog_open(MAPLOG_FD_NONE) : NULL;
	if (st)
		memset(st, 0, sizeof(*st));
	if (!lp) {
		free(block);
		return MAPS_ENOMEM;
	}
	if (tool->lt_progress)
		tool->lt_progress(ctx, 0, size);
	uint64_t done = 0, records = 0;
	int ended = 0, rc = LOGREAD_CLEAN;
	struct maplog_ev ev;
	for (;;) {
		if (maplog_read(lp, &ev) == 0) {
			records++;
			int r = logread_dispatch(tool, ctx, &ev);
			if (r) {
				rc = r;
				break;
			}
			continue;
		}
		if (ev.ev_state == MAPLOG_REQUIRE_DATA && !ended) {
			ssize_t r = read(fd, block, LOGREAD_BLOCK);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				problem(tool, ctx, LOGREAD_IO, name, done, 0,
					MAPS_EIO, records);
				rc = LOGREAD_DAMAGED;
				break;
			}
			if (r == 0) {
				ended = 1;
				maplog_feed(lp, NULL, 0);
				continue;
			}
			if (maplog_feed(lp, block, (size_t)r)) {
				int e = maplog_error(lp);
				if (e == MAPS_ENOMEM) {
					rc = MAPS_ENOMEM; /* no problem */
					break;
				}
				problem(tool, ctx, LOGREAD_IO, name, done, 0, e,
					records);
				rc = LOGREAD_DAMAGED;
				break;
			}
			done += (uint64_t)r;
			if (tool->lt_progress)
				tool->lt_progress(ctx, done,
						  size > done ? size : done);
			continue;
		}
		if (ev.ev_state == MAPLOG_REQUIRE_DATA)
			break; /* cannot happen once the end was fed */
		if (ev.ev_state == MAPLOG_EOF) {
			if (ev.ev_u.eof.eof_truncated) {
				problem(tool, ctx, LOGREAD_TRUNCATED, name,
					ev.ev_offset,
					ev.ev_u.eof.eof_dropped +
						ev.ev_u.eof.eof_missing,
					MAPS_ETRUNCATED, records);
				rc = LOGREAD_DAMAGED;
			}
			break;
		}
		if (ev.ev_error == MAPS_EMAGIC || ev.ev_error == MAPS_EVERSION) {
			problem(tool, ctx, LOGREAD_FATAL, name, ev.ev_offset, 0,
				ev.ev_error, records);
			rc = LOGREAD_UNREADABLE;
			break;
		}
		if (ev.ev_error == MAPS_ENOMEM) {
			rc = MAPS_ENOMEM; /* not the log's fault: no problem */
			break;
		}
		if (ev.ev_error == MAPS_EIO) {
			problem(tool, ctx, LOGREAD_IO, name, ev.ev_offset, 0,
				ev.ev_error, records);
			rc = LOGREAD_DAMAGED;
			break;
		}
		problem(tool, ctx, LOGREAD_DAMAGE, name, ev.ev_offset,
			ev.ev_u.error.er_length, ev.ev_error, records);
		rc = LOGREAD_DAMAGED;
	}
	if (st)
		maplog_stats(lp, st);
	maplog_close(lp);
	free(block);
	return rc;
}

const char *logread_problem_str(const struct logread_problem *p, char *buf,
				size_t len)
{
	switch (p->lp_kind) {
	case LOGREAD_DAMAGE:
		if (p->lp_length)
			snprintf(buf, len,
				 "%s: damaged data at byte %" PRIu64
				 " (%s), %" PRIu64
				 " bytes skipped; reading went on after it",
				 p->lp_file, p->lp_offset,
				 maps_strerror(p->lp_code), p->lp_length);
		else
			snprintf(buf, len,
				 "%s: damaged data at byte %" PRIu64
				 " (%s); reading went on after it",
				 p->lp_file, p->lp_offset,
				 maps_strerror(p->lp_code));
		break;
	case LOGREAD_TRUNCATED:
		snprintf(buf, len,
			 "%s: truncated at byte %" PRIu64 " (%" PRIu64
			 " bytes of the last chunk lost); the report covers the "
			 "%" PRIu64 " records before it",
			 p->lp_file, p->lp_offset, p->lp_length, p->lp_records);
		break;
	case LOGREAD_IO:
		snprintf(buf, len, "%s: read error at byte %" PRIu64 " (%s)",
			 p->lp_file, p->lp_offset, maps_strerror(p->lp_code));
		break;
	case LOGREAD_FATAL:
		if (p->lp_code == MAPS_EIO)
			snprintf(buf, len, "%s: cannot open: %s", p->lp_file,
				 strerror(p->lp_errno));
		else if (p->lp_code == MAPS_EMAGIC)
			snprintf(buf, len,
				 "%s: not a mapsample log (no MAPSLOG magic at "
				 "byte 0); give a file written by mapsample",
				 p->lp_file);
		else if (p->lp_code == MAPS_EVERSION)
			snprintf(buf, len,
				 "%s: log format major version not supported "
				 "by this mapreport (%d); use a matching mapreport",
				 p->lp_file, MAPLOG_VERSION_MAJOR);
		else
			snprintf(buf, len, "%s: empty log: no records",
				 p->lp_file);
		break;
	}
	return buf;
}
