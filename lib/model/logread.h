/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logread: the one loop that reads logs.  Everything that reads a log (the
 * run model, the partial-report values, the launcher's exit note, the
 * record dump) is a tool: a table of callbacks, one per record type, as
 * perf's event loop is driven by a struct perf_tool.  logread_fd() feeds
 * the log to libmaplog in blocks (memory stays one block plus the largest
 * chunk, whatever the size of the log), calls the tool's callback for each
 * record in file order, and tells the tool of every problem: damage (the
 * parser goes on at the next good chunk), truncation, read errors, logs
 * that cannot be read at all, and, once the log is read, the records it
 * knows are missing although what is there read cleanly (chunks missing
 * from a stream, samples a thread's end record counts that are not
 * there, a file cut at a chunk boundary).
 *
 * Not async-signal-safe; one call reads one log, and tools may be called
 * again for the next log.
 */
#ifndef MAPSAMPLE_MODEL_LOGREAD_H
#define MAPSAMPLE_MODEL_LOGREAD_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

/* What went wrong in a log; lp_code is the MAPS_E* code. */
enum logread_kind {
	LOGREAD_DAMAGE,      /* damaged data skipped; reading went on */
	LOGREAD_TRUNCATED,   /* the log ends inside a chunk */
	LOGREAD_IO,          /* a read failed */
	LOGREAD_FATAL,       /* not a log, or cannot be opened: nothing read */
};

/* Records a reader knows are missing although the data around them
 * read cleanly (lp_loss; see logread.c's design notes). */
enum logread_loss {
	LOGREAD_LOSS_NONE = 0,
	LOGREAD_LOSS_SHORT,      /* the file ends before its header's
				    alloc_end (LOGREAD_TRUNCATED; lp_length
				    bytes, lp_total the header's end) */
	LOGREAD_LOSS_CHUNKS,     /* lp_count of the lp_total chunks of a
				    stream are missing (LOGREAD_DAMAGE);
				    lp_total 0: all of a process stream */
	LOGREAD_LOSS_SAMPLES,    /* a thread's end record counts lp_total
				    samples, lp_count of them are missing */
	LOGREAD_LOSS_END,        /* a thread of a process that closed has
				    no end record */
	LOGREAD_LOSS_MORE,       /* lp_count more losses of the kinds
				    above, not told one by one */
	LOGREAD_LOSS_REGIONS,    /* after the last damaged region, when
				    there was more than one: lp_count
				    regions, lp_total bytes skipped in all
				    (LOGREAD_DAMAGE, lp_length 0) */
};

struct logread_problem {
	enum logread_kind lp_kind;
	const char *lp_file;     /* the name given to logread_fd() */
	uint64_t lp_offset;      /* byte of the log where it happened */
	uint64_t lp_length;      /* bytes skipped or lost at the end */
	int lp_code;             /* MAPS_E* */
	int lp_errno;            /* LOGREAD_FATAL with MAPS_EIO: errno */
	uint64_t lp_records;     /* records of this log read before it */
	/* records missing (lp_loss not NONE): whose and how many */
	enum logread_loss lp_loss;
	uint32_t lp_pid, lp_image, lp_tid; /* lp_tid 0: the process stream */
	uint64_t lp_count, lp_total;
	/* LOGREAD_DAMAGE with lp_loss NONE is one damaged region: from
	 * lp_offset, lp_length bytes skipped in it; lp_count > 1: that many
	 * damage reports of the parser, the first lp_code, up to byte
	 * lp_total */
};

/* What logread_fd() returns when it read the log to its end. */
enum logread_result {
	LOGREAD_CLEAN = 0,
	LOGREAD_DAMAGED = 1,
	LOGREAD_UNREADABLE = 2,
};

/*
 * A record callback.  Returns 0 to go on, or a negative MAPS_E* code to
 * stop reading (logread_fd() then returns that code).
 */
typedef int (*logread_fn)(void *ctx, const struct maplog_ev *ev);

struct logread_tool {
	/* Called for each record before the per-type callback; NULL: none. */
	logread_fn lt_any;
	/* By ev_type; NULL: the tool does not want that type. */
	logread_fn lt_record[MAPLOG_TYPE_MAX_];
	/* Each problem, as it is found; NULL: not told. */
	void (*lt_problem)(void *ctx, const struct logread_problem *p);
	/* Bytes read so far and the log's size (0 when it is not a regular
	 * file): once at the start and after each block; NULL: not told. */
	void (*lt_progress)(void *ctx, uint64_t done, uint64_t size);
};

/*
 * Gives ev to tool: lt_any, then lt_record[ev_type], each when set and
 * while they return 0.  Returns 0 or the first callback's non-zero
 * return.  logread_fd() calls it for every record; a tool that carries
 * another along (model_load()'s also) calls it for that one.
 */
int logread_dispatch(const struct logread_tool *tool, void *ctx,
		     const struct maplog_ev *ev);

/*
 * Reads the log open on fd (from its current position) to its end,
 * calling tool's callbacks with ctx; name is used in problems.  st, if not
 * NULL, gets the parser's counts (maplog_stats()); a log with no record
 * is not a problem here (st_records says so).
 * Returns LOGREAD_CLEAN (0) when the log read cleanly, LOGREAD_DAMAGED
 * when it was damaged or truncated (the tool had every record that could
 * be read), LOGREAD_UNREADABLE when nothing could be read (not a log, or a
 * format version this parser does not know), or a negative MAPS_E* code:
 * the one a callback returned, or MAPS_ENOMEM when memory ran out (here
 * or in the parser; not a problem of the log, so not reported to
 * lt_problem).
 */
int logread_fd(int fd, const char *name, const struct logread_tool *tool,
	       void *ctx, struct maplog_stats *st);

struct spool;

/* logread_fd() that gives every block it reads to sp (NULL: none) and
 * ends it (spool_end()) before it returns: the first read of a log
 * opened with spool_open(), which set sp. */
int logread_spooled(int fd, struct spool *sp, const char *name,
		    const struct logread_tool *tool, void *ctx,
		    struct maplog_stats *st);

/* logread_fd() on the file at path, opened read-only (spool_open(): a
 * pipe's log armed in model/spool.h is copied as it is read, and read
 * again from its copy); a file that cannot be opened is a LOGREAD_FATAL
 * problem (MAPS_EIO, lp_errno) and LOGREAD_UNREADABLE. */
int logread_file(const char *path, const struct logread_tool *tool,
		 void *ctx, struct maplog_stats *st);

/* Formats p as one line "FILE: what happened at byte N; ..." (no newline,
 * no program name) into buf.  Returns buf. */
const char *logread_problem_str(const struct logread_problem *p, char *buf,
				size_t len);

#endif
