/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logread: the one log-reading loop (logread.h).
 *
 * DESIGN NOTES (losses)
 *   The parser finds damage inside what the file holds; a log can also
 *   lose whole chunks and still parse cleanly: cut at a chunk boundary,
 *   or a chunk's bytes zeroed (read as unused space).  What the log
 *   itself says it should hold gives those away, without any change to
 *   the format:
 *   - the file header's alloc_end is the end of the last chunk any
 *     writer reserved, and writers make the file that long before they
 *     write a chunk (the sampler's stream.c, the launcher's exit note):
 *     a file shorter than that was cut;
 *   - the chunks of each stream (pid, image, tid) are numbered from 0:
 *     a number below the highest one seen that is missing is a lost
 *     chunk;
 *   - a thread's end record counts its samples: fewer samples of that
 *     thread in the log means lost chunks, also at the end of a stream
 *     (after an exec that failed, the thread's next end record counts
 *     them all again);
 *   - a process image that wrote its close record had every thread it
 *     still had write an end record first: a thread begun without one
 *     lost it;
 *   - every process writes its initialize record on its process stream
 *     before anything else: threads' chunks without a process stream
 *     mean its chunks were lost.  (A process with no close record may have been killed by
 *     SIGKILL, which is no loss: not reported.)
 *   Each loss is one problem, told after the whole log was read, at most
 *   LOGREAD_MAX_LOSS_LINES of them and then one line counting the rest.
 *   In a log with damage or truncation reported, the streams are not
 *   told one by one: those lines already say records were lost there.
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

#include "common/mem.h"
#include "log/maplog_format.h"
#include "model/keymap.h"
#include "model/logread.h"
#include "model/spool.h"

/* Bytes read from a log at a time: memory for reading stays this plus the
 * largest chunk, whatever the size of the log. */
#define LOGREAD_BLOCK (1u << 20)

static void problem(const struct logread_tool *t, void *ctx,
		    enum logread_kind kind, const char *name, uint64_t off,
		    uint64_t len, int code, uint64_t records)
{
	if (!t->lt_problem)
		return;
	struct logread_problem p = {.lp_kind = kind, .lp_file = name,
				    .lp_offset = off, .lp_length = len,
				    .lp_code = code, .lp_records = records};
	t->lt_problem(ctx, &p);
}

/* Damage the parser reports within this many bytes of the end of the
 * damage before it is the same damaged region: one problem, not one per
 * record that failed to decode (a chunk whose `used` field is damaged
 * fails every few bytes up to its end). */
#define LOGREAD_REGION_GAP 4096u

/* The damaged region being gathered, and the regions told so far. */
struct lr_damage {
	int open;
	uint64_t start, end;  /* bytes of the log */
	uint64_t places;      /* damage reports in it */
	uint64_t skipped;     /* bytes skipped in it */
	int code;             /* the first report's MAPS_E* */
	uint64_t records;     /* records read before it */
	uint64_t regions, total; /* told so far, and their bytes skipped */
};

/* Tells the region d gathered, if any, as one LOGREAD_DAMAGE problem:
 * lp_count its damage reports, lp_total its end (logread.h). */
static void damage_flush(struct lr_damage *d, const struct logread_tool *t,
			 void *ctx, const char *name)
{
	if (!d->open)
		return;
	d->open = 0;
	d->regions++;
	d->total += d->skipped;
	if (!t->lt_problem)
		return;
	struct logread_problem p = {.lp_kind = LOGREAD_DAMAGE,
				    .lp_file = name,
				    .lp_offset = d->start,
				    .lp_length = d->skipped,
				    .lp_code = d->code,
				    .lp_records = d->records};
	if (d->places > 1) {
		p.lp_count = d->places;
		p.lp_total = d->end;
	}
	t->lt_problem(ctx, &p);
}

/* Adds a damage report (len bytes skipped at off) to the region being
 * gathered, or tells that region and starts a new one. */
static void damage_add(struct lr_damage *d, const struct logread_tool *t,
		       void *ctx, const char *name, uint64_t off,
		       uint64_t len, int code, uint64_t records)
{
	if (d->open && off >= d->start && off <= d->end + LOGREAD_REGION_GAP) {
		d->places++;
		d->skipped += len;
		if (off + len > d->end)
			d->end = off + len;
		return;
	}
	damage_flush(d, t, ctx, name);
	d->open = 1;
	d->start = off;
	d->end = off + len;
	d->places = 1;
	d->skipped = len;
	d->code = code;
	d->records = records;
}

/* Tells the last region, then, when there was more than one, their
 * number and the bytes skipped in all (LOGREAD_LOSS_REGIONS); a second
 * call tells nothing more. */
static void damage_end(struct lr_damage *d, const struct logread_tool *t,
		       void *ctx, const char *name, uint64_t records)
{
	damage_flush(d, t, ctx, name);
	uint64_t regions = d->regions;
	d->regions = 0; /* told once */
	if (regions < 2 || !t->lt_problem)
		return;
	struct logread_problem p = {.lp_kind = LOGREAD_DAMAGE,
				    .lp_file = name,
				    .lp_records = records,
				    .lp_loss = LOGREAD_LOSS_REGIONS,
				    .lp_count = regions,
				    .lp_total = d->total};
	t->lt_problem(ctx, &p);
}

/* What the loss check keeps of one stream (pid, image, tid), and of the
 * thread tid of that process image (tid 0: the process). */
struct lr_stream {
	uint32_t pid, image, tid;
	uint32_t max_seq;        /* highest chunk number seen */
	uint64_t chunks;         /* chunks seen */
	uint64_t samples;        /* sample records of thread tid */
	uint64_t end_samples;    /* what its end records count */
	int begun, ended;        /* thread begin / end records seen */
	int closed;              /* tid 0: the close record seen */
	int threads;             /* tid 0: chunks of its threads seen */
	/* An exec that failed (a shell trying each folder of PATH) has
	 * every thread write an end record, and the image goes on: the
	 * thread's next end record counts its samples from its start
	 * again, the earlier one's with them.  execs (tid 0): the image's
	 * exec records so far; last_end, end_execs: the thread's last end
	 * record's count and execs when it was read. */
	uint32_t execs, end_execs;
	uint64_t last_end;
};

struct lr_audit {
	struct keymap map;
	struct lr_stream *s;
	size_t n, cap;
	/* the chunk of the last record: a new one starts a new chunk */
	uint32_t pid, image, tid, seq;
	int any;
	uint64_t alloc_end;      /* from the file header, 0 if none */
};

/* The entry of (pid, image, tid); NULL when out of memory. */
static struct lr_stream *audit_get(struct lr_audit *a, uint32_t pid,
				   uint32_t image, uint32_t tid)
{
	int added;
	long i = keymap_add(&a->map, pid, image, tid, &a->s, &a->n, &a->cap,
			    sizeof(*a->s), &added);
	if (i < 0)
		return NULL;
	struct lr_stream *e = &a->s[i];
	if (added) {
		e->pid = pid;
		e->image = image;
		e->tid = tid;
	}
	return e;
}

/* Takes note of record ev for the loss check.  Returns 0 or MAPS_ENOMEM. */
static int audit_record(struct lr_audit *a, const struct maplog_ev *ev)
{
	if (!a->any || ev->ev_pid != a->pid || ev->ev_image != a->image ||
	    ev->ev_tid != a->tid || ev->ev_chunk_seq != a->seq) {
		struct lr_stream *c = audit_get(a, ev->ev_pid, ev->ev_image,
						ev->ev_tid);
		if (!c)
			return MAPS_ENOMEM;
		c->chunks++;
		if (ev->ev_chunk_seq > c->max_seq)
			c->max_seq = ev->ev_chunk_seq;
		if (ev->ev_tid) {
			/* (c may move: keymap_add grows the array) */
			struct lr_stream *p = audit_get(a, ev->ev_pid,
							ev->ev_image, 0);
			if (!p)
				return MAPS_ENOMEM;
			p->threads = 1;
		}
		a->any = 1;
		a->pid = ev->ev_pid;
		a->image = ev->ev_image;
		a->tid = ev->ev_tid;
		a->seq = ev->ev_chunk_seq;
	}
	uint32_t tid;
	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE:
		tid = ev->ev_tid;
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		tid = ev->ev_u.tbegin.tb_tid;
		break;
	case MAPLOG_TYPE_THREAD_END:
		tid = ev->ev_u.tend.te_tid;
		break;
	case MAPLOG_TYPE_CLOSE:
	case MAPLOG_TYPE_PROC_EXEC:
		tid = 0;
		break;
	default:
		return 0;
	}
	uint32_t execs = 0;
	if (ev->ev_type == MAPLOG_TYPE_THREAD_END) {
		const struct lr_stream *p =
			audit_get(a, ev->ev_pid, ev->ev_image, 0);
		if (!p)
			return MAPS_ENOMEM;
		execs = p->execs;
	}
	struct lr_stream *e = audit_get(a, ev->ev_pid, ev->ev_image, tid);
	if (!e)
		return MAPS_ENOMEM;
	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE:
		e->samples++;
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		e->begun = 1;
		break;
	case MAPLOG_TYPE_THREAD_END:
		/* after a failed exec, the count goes on from the last one
		 * (a tid used again after it: that one's count is taken
		 * as part of the new thread's, which only lowers what is
		 * expected) */
		if (e->ended && execs > e->end_execs)
			e->end_samples -= e->last_end;
		e->ended = 1;
		e->end_samples += ev->ev_u.tend.te_samples;
		e->last_end = ev->ev_u.tend.te_samples;
		e->end_execs = execs;
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		e->execs++;
		break;
	default:
		e->closed = 1;
		break;
	}
	return 0;
}

static void loss(const struct logread_tool *t, void *ctx,
		 enum logread_kind kind, const char *name, uint64_t records,
		 enum logread_loss what, const struct lr_stream *e,
		 uint64_t count, uint64_t total)
{
	if (!t->lt_problem)
		return;
	struct logread_problem p = {.lp_kind = kind, .lp_file = name,
				    .lp_code = MAPS_ETRUNCATED,
				    .lp_records = records};
	p.lp_loss = what;
	p.lp_pid = e->pid;
	p.lp_image = e->image;
	p.lp_tid = e->tid;
	p.lp_count = count;
	p.lp_total = total;
	t->lt_problem(ctx, &p);
}

/* At most this many lines about the streams of one log; then one that
 * counts the rest. */
#define LOGREAD_MAX_LOSS_LINES 8

/* Tells the tool of every loss in a (the log read to its end: size
 * bytes; damaged: the parser reported damage or truncation, whose lines
 * already say that records were lost, so the streams are not told one by
 * one).  Returns the number of losses. */
static size_t audit_report(const struct lr_audit *a,
			   const struct logread_tool *tool, void *ctx,
			   const char *name, uint64_t size, int truncated,
			   int damaged, uint64_t records)
{
	size_t n = 0;
	if (a->alloc_end > size && !truncated) {
		if (tool->lt_problem) {
			struct logread_problem p = {
				.lp_kind = LOGREAD_TRUNCATED, .lp_file = name,
				.lp_offset = size,
				.lp_length = a->alloc_end - size,
				.lp_code = MAPS_ETRUNCATED,
				.lp_records = records};
			p.lp_loss = LOGREAD_LOSS_SHORT;
			p.lp_total = a->alloc_end;
			tool->lt_problem(ctx, &p);
		}
		n++;
	}
	if (damaged)
		return n;
	size_t told = n;
	const struct logread_tool quiet = {0}, *t = tool;
	for (size_t i = 0; i < a->n; i++) {
		const struct lr_stream *e = &a->s[i];
		if (n - told == LOGREAD_MAX_LOSS_LINES)
			t = &quiet; /* counted, not told */
		if (!e->tid && !e->chunks && e->threads) {
			/* every process writes its initialize record first */
			loss(t, ctx, LOGREAD_DAMAGE, name, records,
			     LOGREAD_LOSS_CHUNKS, e, 0, 0);
			n++;
		}
		if (e->chunks && e->chunks < (uint64_t)e->max_seq + 1) {
			loss(t, ctx, LOGREAD_DAMAGE, name, records,
			     LOGREAD_LOSS_CHUNKS, e,
			     (uint64_t)e->max_seq + 1 - e->chunks,
			     (uint64_t)e->max_seq + 1);
			n++;
		}
		if (e->ended && e->end_samples > e->samples) {
			loss(t, ctx, LOGREAD_DAMAGE, name, records,
			     LOGREAD_LOSS_SAMPLES, e,
			     e->end_samples - e->samples, e->end_samples);
			n++;
		}
		if (e->tid && e->begun && !e->ended) {
			long p = keymap_find(&a->map, e->pid, e->image, 0);
			if (p >= 0 && a->s[p].closed) {
				loss(t, ctx, LOGREAD_DAMAGE, name, records,
				     LOGREAD_LOSS_END, e, 1, 1);
				n++;
			}
		}
	}
	if (n - told > LOGREAD_MAX_LOSS_LINES) {
		static const struct lr_stream none;
		loss(tool, ctx, LOGREAD_DAMAGE, name, records,
		     LOGREAD_LOSS_MORE, &none,
		     n - told - LOGREAD_MAX_LOSS_LINES, 0);
	}
	return n;
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
	struct spool *sp;
	int fd = spool_open(path, &sp);
	if (fd < 0) {
		if (tool->lt_problem) {
			struct logread_problem p = {
				.lp_kind = LOGREAD_FATAL, .lp_file = path,
				.lp_code = MAPS_EIO, .lp_errno = errno};
			tool->lt_problem(ctx, &p);
		}
		if (st)
			memset(st, 0, sizeof(*st));
		return LOGREAD_UNREADABLE;
	}
	int rc = logread_spooled(fd, sp, path, tool, ctx, st);
	close(fd);
	return rc;
}

int logread_fd(int fd, const char *name, const struct logread_tool *tool,
	       void *ctx, struct maplog_stats *st)
{
	return logread_spooled(fd, NULL, name, tool, ctx, st);
}

int logread_spooled(int fd, struct spool *sp, const char *name,
		    const struct logread_tool *tool, void *ctx,
		    struct maplog_stats *st)
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
		if (sp)
			spool_end(sp, fd, NULL, 0, SPOOL_DROP);
		return MAPS_ENOMEM;
	}
	if (tool->lt_progress)
		tool->lt_progress(ctx, 0, size);
	uint64_t done = 0, records = 0;
	int ended = 0, truncated = 0, rc = LOGREAD_CLEAN;
	struct lr_audit audit;
	memset(&audit, 0, sizeof(audit));
	struct lr_damage dmg;
	memset(&dmg, 0, sizeof(dmg));
	struct maplog_ev ev;
	for (;;) {
		if (maplog_read(lp, &ev) == 0) {
			records++;
			if (audit_record(&audit, &ev)) {
				rc = MAPS_ENOMEM; /* not the log's fault */
				break;
			}
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
			if (sp) /* a pipe's log, copied to be read again */
				spool_put(sp, block, (size_t)r);
			if (done == 0 && r >= MAPLOG_FILE_HEADER_SIZE &&
			    memcmp(block, MAPLOG_FILE_MAGIC, 8) == 0)
				audit.alloc_end = maplog_ld64(
					block + MAPLOG_FH_ALLOC_END);
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
		if (ev.ev_state != MAPLOG_ERROR ||
		    ev.ev_error == MAPS_EMAGIC || ev.ev_error == MAPS_EVERSION ||
		    ev.ev_error == MAPS_EIO)
			damage_end(&dmg, tool, ctx, name, records);
		if (ev.ev_state == MAPLOG_EOF) {
			if (ev.ev_u.eof.eof_truncated) {
				problem(tool, ctx, LOGREAD_TRUNCATED, name,
					ev.ev_offset,
					ev.ev_u.eof.eof_dropped +
						ev.ev_u.eof.eof_missing,
					MAPS_ETRUNCATED, records);
				rc = LOGREAD_DAMAGED;
				truncated = 1;
			}
			if (audit_report(&audit, tool, ctx, name, done,
					 truncated, rc != LOGREAD_CLEAN,
					 records))
				rc = LOGREAD_DAMAGED;
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
		damage_add(&dmg, tool, ctx, name, ev.ev_offset,
			   ev.ev_u.error.er_length, ev.ev_error, records);
		rc = LOGREAD_DAMAGED;
	}
	damage_end(&dmg, tool, ctx, name, records);
	if (st)
		maplog_stats(lp, st);
	maplog_close(lp);
	/* a negative rc: the reader gives the log up (out of memory, a
	 * callback stopped) */
	if (sp)
		spool_end(sp, fd, block, LOGREAD_BLOCK,
			  rc < 0 ? SPOOL_DROP
			  : ended ? SPOOL_AT_END
				  : SPOOL_EARLY);
	free(block);
	keymap_free(&audit.map);
	free(audit.s);
	return rc;
}

/* logread_problem_str() of the records missing from one stream. */
static const char *loss_str(const struct logread_problem *p, char *buf,
			    size_t len)
{
	char who[64];
	if (p->lp_tid)
		snprintf(who, sizeof(who), "pid %" PRIu32 " image %" PRIu32
					   " thread %" PRIu32,
			 p->lp_pid, p->lp_image, p->lp_tid);
	else
		snprintf(who, sizeof(who), "pid %" PRIu32 " image %" PRIu32
					   " (process records)",
			 p->lp_pid, p->lp_image);
	switch (p->lp_loss) {
	case LOGREAD_LOSS_CHUNKS:
		if (!p->lp_total) {
			snprintf(buf, len,
				 "%s: %s: every chunk is missing, its threads' "
				 "are there; its records are lost",
				 p->lp_file, who);
			break;
		}
		snprintf(buf, len,
			 "%s: %s: %" PRIu64 " of its %" PRIu64
			 " chunks are missing; their records are lost",
			 p->lp_file, who, p->lp_count, p->lp_total);
		break;
	case LOGREAD_LOSS_SAMPLES:
		snprintf(buf, len,
			 "%s: %s: its end record counts %" PRIu64
			 " samples, the log holds %" PRIu64 "; %" PRIu64
			 " are lost",
			 p->lp_file, who, p->lp_total,
			 p->lp_total - p->lp_count, p->lp_count);
		break;
	case LOGREAD_LOSS_REGIONS:
		snprintf(buf, len,
			 "%s: %" PRIu64 " damaged regions in all, %" PRIu64
			 " bytes skipped",
			 p->lp_file, p->lp_count, p->lp_total);
		break;
	case LOGREAD_LOSS_MORE:
		snprintf(buf, len,
			 "%s: %" PRIu64 " more streams with records lost, as "
			 "above",
			 p->lp_file, p->lp_count);
		break;
	default:
		snprintf(buf, len,
			 "%s: %s: no end record although its process "
			 "closed; the records at its end are lost",
			 p->lp_file, who);
		break;
	}
	return buf;
}

const char *logread_problem_str(const struct logread_problem *p, char *buf,
				size_t len)
{
	if (p->lp_loss >= LOGREAD_LOSS_CHUNKS)
		return loss_str(p, buf, len);
	switch (p->lp_kind) {
	case LOGREAD_DAMAGE:
		if (p->lp_count > 1)
			snprintf(buf, len,
				 "%s: damaged data at bytes %" PRIu64
				 " to %" PRIu64 " (%" PRIu64
				 " places, the first: %s), %" PRIu64
				 " bytes skipped; reading went on after it",
				 p->lp_file, p->lp_offset, p->lp_total,
				 p->lp_count, maps_strerror(p->lp_code),
				 p->lp_length);
		else if (p->lp_length)
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
		if (p->lp_loss == LOGREAD_LOSS_SHORT) {
			snprintf(buf, len,
				 "%s: cut at byte %" PRIu64 ", %" PRIu64
				 " bytes before the end its header gives (%" PRIu64
				 "): the records written there are lost; the "
				 "report covers the %" PRIu64 " records before it",
				 p->lp_file, p->lp_offset, p->lp_length,
				 p->lp_total, p->lp_records);
			break;
		}
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
