/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spool: logs that cannot be read twice (a pipe, a FIFO, a terminal, a
 * socket: anything but a regular file) made readable again.  A report
 * may read a log more than once (mapreport's passes before the model for
 * --region and --time, the regions' sample count after it, the exports
 * and the HTML page's narrowing data through report/out/rescan.h).  Such
 * a log, once armed, is copied to a temporary file while it is read the
 * first time (logread gives every block it reads to spool_put()), and
 * every later read opens that copy.  Regular files are never copied and
 * are opened as before.
 *
 * The copy is made with mkstemp(3) in $TMPDIR (/tmp when it is not set)
 * and unlinked at once, so nothing is left behind however the program
 * ends; memory does not grow with the log.  A copy that cannot be made
 * or written (a missing folder, the disk full) is said in one line
 * naming the folder and TMPDIR as the fix; the first read goes on
 * unharmed and only the later ones fail (spool_open() gives ENODATA).
 *
 * spool_arm() and spool_release() are called by one thread while no log
 * is read; spool_open(), spool_has() and the functions of one spool may
 * be called from any thread (logpool's workers read logs in parallel).
 * Nothing here is async-signal-safe.
 */
#ifndef MAPSAMPLE_MODEL_SPOOL_H
#define MAPSAMPLE_MODEL_SPOOL_H

#include <stddef.h>

/* One log being copied; opaque. */
struct spool;

/* Gets one line about a problem (no newline, no program name). */
typedef void (*spool_say_fn)(const char *line);

/*
 * Arms every path of paths[0..n) that stat(2) does not find to be a
 * regular file: its first spool_open() starts its copy.  say (NULL:
 * none) is given each problem.  Can be called again to arm more paths.
 * Returns 0 or MAPS_ENOMEM.
 */
int spool_arm(const char *const *paths, size_t n, spool_say_fn say);

/*
 * Opens path to read it as a log, as open(path, O_RDONLY | O_CLOEXEC)
 * does, and sets *sp: for a path armed and not read yet, path itself,
 * and *sp the spool the caller gives what it reads (spool_put()) and
 * then ends (spool_end()); for a path read already, its copy from the
 * start, *sp NULL; for any other path, path itself, *sp NULL.  Returns
 * the file descriptor, or -1 with errno (ENODATA: its copy failed, as
 * was said then; the log's data went with the pipe).
 */
int spool_open(const char *path, struct spool **sp);

/* Whether path is armed: a log that spool_open() can open again. */
int spool_has(const char *path);

/* Copies the n bytes of buf, just read from sp's log, to its copy.  A
 * write that fails is said once; the copy is then lost. */
void spool_put(struct spool *sp, const void *buf, size_t n);

/* How the first read of a log ended (spool_end()). */
enum spool_end {
	SPOOL_AT_END,  /* read to its end: the copy is whole */
	SPOOL_EARLY,   /* stopped before its end: the rest is copied */
	SPOOL_DROP,    /* the reader gives up the report: copy dropped */
};

/*
 * The first read of sp's log, open on fd, is over, as how says; with
 * SPOOL_EARLY the rest of fd is read (into buf, len bytes) and copied,
 * so that the copy is the whole log.  From then on spool_open() opens
 * the copy (or fails as it failed).  sp is not to be used again.
 */
void spool_end(struct spool *sp, int fd, void *buf, size_t len,
	       enum spool_end how);

/* Closes every copy and forgets every armed path. */
void spool_release(void);

#endif
