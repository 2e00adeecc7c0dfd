/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress: the progress line of mapreport on a terminal (see progress.h).
 */
#include <string.h>

#include "report/progress.h"

void progress_init(struct progress *p, FILE *out, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->total = total;
	p->pct = -1;
}

void progress_file(struct progress *p, const char *name, uint64_t base)
{
	p->name = name;
	p->base = base;
}

void progress_update(void *ctx, uint64_t done, uint64_t size)
{
	struct progress *p = ctx;
	(void)size;
	if (!p->out || !p->total)
		return;
	uint64_t at = p->base + done;
	int pct = at >= p->total ? 100 : (int)(at * 100 / p->total);
	if (pct == p->pct)
		return;
	p->pct = pct;
	/* the log's base name: the line must fit on one row */
	const char *b = p->name ? strrchr(p->name, '/') : NULL;
	b = b ? b + 1 : p->name ? p->name : "";
	char line[96];
	int n = snprintf(line, sizeof(line), "mapreport: reading %.60s: %3d%%",
			 b, pct);
	if (n < 0)
		return;
	size_t w = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	fprintf(p->out, "\r%s", line);
	for (size_t i = w; i < p->width; i++)
		fputc(' ', p->out); /* what a longer line left */
	p->width = w > p->width ? w : p->width;
	fflush(p->out);
}

void progress_end(struct progress *p)
{
	if (!p->out || !p->width)
		return;
	fputc('\r', p->out);
	for (size_t i = 0; i < p->width; i++)
		fputc(' ', p->out);
	fputc('\r', p->out);
	fflush(p->out);
	p->width = 0;
	p->pct = -1;
}
