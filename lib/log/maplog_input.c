/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * maplog_input: the parser's bytes.  One growable buffer holds them: a
 * file parser fills it with read(2) in large blocks (or parses a mapping
 * of the whole file, which maplog_open() sets up), a memory parser with
 * maplog_feed().  Unused space between chunks is skipped here, with a
 * seek over it where the input is a file.  Called by the state machine
 * in maplog.c; calls nothing else of lib/log (see maplog_i.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maplog_i.h"

/* Makes room for need bytes from bpos; returns 0 or MAPS_ENOMEM. */
static int make_room(maplog *p, size_t need)
{
	if (p->bpos > 0 && (p->bcap - p->bpos < need || p->bpos == p->bend)) {
		size_t n = avail(p);
		memmove(p->buf, p->buf + p->bpos, n);
		p->boff += p->bpos;
		p->bend = n;
		p->bpos = 0;
	}
	if (p->bcap < need) {
		size_t cap = p->bcap;
		while (cap < need)
			cap *= 2;
		uint8_t *nb = realloc(p->buf, cap);
		if (!nb)
			return MAPS_ENOMEM;
		p->buf = nb;
		p->bcap = cap;
	}
	return 0;
}

/*
 * Ensures need bytes from bpos.  Returns 1 when they are there, 0 when not
 * (stream ended, or a memory stream needs feeding), or a MAPS_E* code.
 */
int maplog_ensure(maplog *p, size_t need)
{
	if (avail(p) >= need)
		return 1;
	if (p->fd == MAPLOG_FD_NONE || p->ended)
		return 0;
	int rc = make_room(p, need > READ_BLOCK ? need : READ_BLOCK);
	if (rc)
		return rc;
	while (avail(p) < need) {
		ssize_t r = read(p->fd, p->buf + p->bend, p->bcap - p->bend);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return MAPS_EIO;
		}
		if (r == 0) {
			p->ended = 1;
			return 0;
		}
		p->bend += (size_t)r;
	}
	return 1;
}

int maplog_feed(maplog *p, const void *data, size_t len)
{
	if (!p)
		return -1;
	if (p->fd != MAPLOG_FD_NONE) {
		p->last_error = MAPS_ENOTSUP;
		return -1;
	}
	if (!data || !len) {
		if (!data && !len)
			p->ended = 1;
		return 0;
	}
	if (p->ended) {
		p->last_error = MAPS_EINVAL;
		return -1;
	}
	if (p->phase == P_PAYLOAD) {
		/* keep the payload at the same offsets: grow, never compact */
		if (p->bcap - p->bend < len) {
			size_t cap = p->bcap;
			while (cap - p->bend < len)
				cap *= 2;
			/* realloc may move it; records are decoded from
			 * offsets, and event strings and build-ids live in
			 * the scratch area, so nothing handed out points here
			 * except the record bytes being skipped */
			uint8_t *nb = realloc(p->buf, cap);
			if (!nb) {
				p->last_error = MAPS_ENOMEM;
				return -1;
			}
			p->buf = nb;
			p->bcap = cap;
		}
	} else if (make_room(p, avail(p) + len)) {
		p->last_error = MAPS_ENOMEM;
		return -1;
	}
	memcpy(p->buf + p->bend, data, len);
	p->bend += len;
	return 0;
}

/* Skips p->skip bytes; returns 1 when done, 0 when more bytes are needed
 * (or the stream ended), or a MAPS_E* code. */
int maplog_skip(maplog *p)
{
	size_t a = avail(p);
	if (p->skip <= a) {
		consume(p, (size_t)p->skip);
		p->skip = 0;
		return 1;
	}
	consume(p, a);
	p->skip -= a;
	if (p->fd != MAPLOG_FD_NONE && !p->ended) {
		/* seek over holes instead of reading them, but not past the
		 * end: the stream ends where the file does */
		struct stat st;
		off_t here = lseek(p->fd, 0, SEEK_CUR);
		if (here >= 0 && fstat(p->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)(st.st_size - here) <= p->skip &&
		    st.st_size >= here) {
			p->st.st_bytes += (uint64_t)(st.st_size - here);
			p->boff = (uint64_t)(st.st_size - p->fd_start);
			p->bpos = p->bend = 0;
			p->skip = 0;
			p->ended = 1;
			return 0;
		}
		off_t at = lseek(p->fd, (off_t)p->skip, SEEK_CUR);
		if (at >= 0) {
			p->st.st_bytes += p->skip;
			p->boff = (uint64_t)(at - p->fd_start);
			p->bpos = p->bend = 0;
			p->skip = 0;
			return 1;
		}
		int rc = maplog_ensure(p, 1);
		if (rc < 0)
			return rc;
		return rc ? maplog_skip(p) : 0;
	}
	return 0;
}
