/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perfmap: parsing and lookup of perf maps (see perfmap.h).  The entries
 * are sorted by start address; a lookup takes the last entry starting at
 * or below the address and looks back over the entries that may still
 * cover it (PERFMAP_BACK at most), taking the line that came last in the
 * file among those that do.  Calls nothing else of lib/report.
 */
#include <stdlib.h>
#include <string.h>

#include "report/perfmap.h"

#define PERFMAP_BACK 64

struct pment {
	uint64_t start, end;
	uint32_t seq;   /* line order in the file */
	uint32_t name;  /* offset in names */
};

struct perfmap {
	struct pment *e;
	size_t n;
	char *names;
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A hex number (0x optional) at *p before end, then one blank or more;
 * 0 on success. */
static int hexnum(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	const char *d = s;
	uint64_t x = 0;
	while (s < end && hexval((unsigned char)*s) >= 0) {
		if (s - d >= 16)
			return -1;
		x = x << 4 | (uint64_t)hexval((unsigned char)*s);
		s++;
	}
	if (s == d || s == end || (*s != ' ' && *s != '\t'))
		return -1;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	*p = s;
	*v = x;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct pment *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct perfmap *perfmap_parse(const char *text, size_t len)
{
	struct perfmap *pm = calloc(1, sizeof(*pm));
	if (!pm)
		return NULL;
	/* names are copied NUL-terminated: at most len + one per line */
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	pm->names = malloc(len + lines + 1);
	pm->e = malloc(lines * sizeof(*pm->e));
	if (!pm->names || !pm->e) {
		perfmap_free(pm);
		return NULL;
	}
	size_t nused = 0;
	const char *p = text, *end = text + len;
	uint32_t seq = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *s = p;
		p = eol + 1;
		uint64_t start, size;
		if (hexnum(&s, eol, &start) || hexnum(&s, eol, &size) ||
		    size == 0 || start + size < start)
			continue;
		const char *ne = eol;
		while (ne > s && (ne[-1] == '\r' || ne[-1] == ' '))
			ne--;
		if (ne == s)
			continue;
		struct pment *e = &pm->e[pm->n++];
		e->start = start;
		e->end = start + size;
		e->seq = seq++;
		e->name = (uint32_t)nused;
		memcpy(pm->names + nused, s, (size_t)(ne - s));
		nused += (size_t)(ne - s);
		pm->names[nused++] = 0;
	}
	qsort(pm->e, pm->n, sizeof(*pm->e), by_start);
	return pm;
}

const char *perfmap_find(const struct perfmap *pm, uint64_t a)
{
	size_t lo = 0, hi = pm->n;
	while (lo < hi) {  /* first entry starting above a */
		size_t mid = lo + (hi - lo) / 2;
		if (pm->e[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct pment *best = NULL;
	for (size_t i = lo, k = 0; i-- > 0 && k < PERFMAP_BACK; k++) {
		const struct pment *e = &pm->e[i];
		if (a < e->end && (!best || e->seq > best->seq))
			best = e;
	}
	return best ? pm->names + best->name : NULL;
}

size_t perfmap_count(const struct perfmap *pm)
{
	return pm->n;
}

void perfmap_free(struct perfmap *pm)
{
	if (!pm)
		return;
	free(pm->e);
	free(pm->names);
	free(pm);
}
