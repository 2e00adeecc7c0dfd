/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress: mapreport's progress line while it reads large logs.
 *
 * One line on a terminal, rewritten in place ("\r") with the share of the
 * logs' bytes read so far, and cleared when reading is done, so the
 * report that follows starts on a clean line.  It is shown only when
 * asked for (the CLI asks when standard error is a terminal, the logs
 * hold at least PROGRESS_MIN_BYTES and --no-progress was not given);
 * otherwise every function does nothing.  The line is redrawn only when
 * the whole percentage changes: at most 101 writes per log.
 */
#ifndef MAPSAMPLE_REPORT_PROGRESS_H
#define MAPSAMPLE_REPORT_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

/* Logs smaller than this in all read too fast to need a progress line. */
#define PROGRESS_MIN_BYTES (16u << 20)

struct progress {
	FILE *out;          /* NULL: off */
	const char *name;   /* log being read */
	uint64_t base;      /* bytes of the logs before it */
	uint64_t total;     /* bytes of all the logs */
	int pct;            /* percentage shown, -1 none yet */
	size_t width;       /* columns of the line shown, to clear it */
};

/* Sets p up to write to out (a terminal), or to stay silent when out is
 * NULL; total is the size of all the logs to read. */
void progress_init(struct progress *p, FILE *out, uint64_t total);

/* The log named name starts; base is the bytes of the logs before it. */
void progress_file(struct progress *p, const char *name, uint64_t base);

/* model.h's progress callback (ctx is a struct progress): done bytes of
 * the current log, of size. */
void progress_update(void *ctx, uint64_t done, uint64_t size);

/* Clears the line, if one is shown. */
void progress_end(struct progress *p);

#endif
