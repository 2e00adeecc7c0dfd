/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jsonw: the small JSON writer of json.h (jsonw_*), which the JSON
 * report (json.c, json_metrics.c), the comparison's JSON and the
 * exports write with.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/out/json.h"


void jsonw_init(struct jsonw *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/* The "no member yet" flag of level d, the array grown as needed; when
 * out of memory, a spare flag (and the writer's error is set). */
static unsigned char *empty_at(struct jsonw *w, int d)
{
	size_t had = w->capempty;
	if ((size_t)d >= had) {
		if (mem_reserve(&w->empty, &w->capempty, (size_t)d + 1, 1, 16)) {
			w->err = MAPS_ENOMEM;
			w->spare = 0;
			return &w->spare;
		}
		memset(w->empty + had, 1, w->capempty - had);
	}
	return &w->empty[d];
}

static void indent(struct jsonw *w)
{
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Separator and indentation before a value or key at the current level. */
static void before_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth == 0)
		return;
	unsigned char *e = empty_at(w, w->depth);
	if (!*e)
		fputc(',', w->out);
	*e = 0;
	indent(w);
}

static void open_c(struct jsonw *w, int c)
{
	before_value(w);
	fputc(c, w->out);
	w->depth++;
	*empty_at(w, w->depth) = 1;
}

static void close_c(struct jsonw *w, int c)
{
	int was_empty = *empty_at(w, w->depth);
	w->depth--;
	if (!was_empty)
		indent(w);
	fputc(c, w->out);
}

void jsonw_object(struct jsonw *w) { open_c(w, '{'); }
void jsonw_object_end(struct jsonw *w) { close_c(w, '}'); }
void jsonw_array(struct jsonw *w) { open_c(w, '['); }
void jsonw_array_end(struct jsonw *w) { close_c(w, ']'); }

/* Length of the valid UTF-8 sequence at s[0..n), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf; /* range of the second byte */
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;      /* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f;      /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;      /* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void jsonw_stringn(struct jsonw *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	before_value(w);
	fputc('"', w->out);
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		if (c >= 0x80) {
			size_t k = utf8_len(s + i, n - i);
			if (k) {
				fwrite(s + i, 1, k, w->out);
				i += k;
			} else {
				fputs("\\ufffd", w->out); /* one per bad byte */
				i++;
			}
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", w->out); break;
		case '\\': fputs("\\\\", w->out); break;
		case '\n': fputs("\\n", w->out); break;
		case '\r': fputs("\\r", w->out); break;
		case '\t': fputs("\\t", w->out); break;
		case '\b': fputs("\\b", w->out); break;
		case '\f': fputs("\\f", w->out); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(w->out, "\\u%04x", c);
			else
				fputc(c, w->out);
		}
		i++;
	}
	fputc('"', w->out);
}

void jsonw_string(struct jsonw *w, const char *s)
{
	if (!s)
		jsonw_null(w);
	else
		jsonw_stringn(w, s, strlen(s));
}

void jsonw_key(struct jsonw *w, const char *key)
{
	jsonw_string(w, key);
	fputs(": ", w->out);
	w->after_key = 1;
}

void jsonw_u64(struct jsonw *w, uint64_t v)
{
	before_value(w);
	fprintf(w->out, "%" PRIu64, v);
}

void jsonw_i64(struct jsonw *w, int64_t v)
{
	before_value(w);
	fprintf(w->out, "%" PRId64, v);
}

void jsonw_double(struct jsonw *w, double v)
{
	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	before_value(w);
	fputs(buf, w->out); /* %g of a finite double is a JSON number */
}

void jsonw_bool(struct jsonw *w, int v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w)
{
	before_value(w);
	fputs("null", w->out);
}

int jsonw_finish(struct jsonw *w)
{
	fputc('\n', w->out);
	free(w->empty);
	w->empty = NULL;
	w->capempty = 0;
	if (w->err)
		return w->err;
	return ferror(w->out) ? MAPS_EIO : 0;
}
