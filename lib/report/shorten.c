/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shorten: the short forms of long C++ names (see shorten.h).  One pass
 * over the name: at bracket depth 0 an opening '<' or '(' writes "<...>"
 * or "(...)" and skips to its matching close; a bracket that is never
 * closed is copied as it is, with the rest.  Calls nothing else of
 * lib/report.
 */
#include <string.h>

#include "report/shorten.h"

struct buf {
	char *p;
	size_t cap, len;
};

static void put(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, b->len++)
		if (b->len + 1 < b->cap)
			b->p[b->len] = s[i];
}

/* Index one past the bracket that closes the one at s[i], or 0. */
static size_t close_of(const char *s, size_t i)
{
	int depth = 0;
	for (; s[i]; i++) {
		char c = s[i];
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == '>' || c == ')' || c == ']' || c == '}')
			if (--depth == 0)
				return i + 1;
		/* "operator<" and the like inside template arguments */
		if (strncmp(s + i, "operator", 8) == 0) {
			size_t j = i + 8;
			while (s[j] && strchr("<>=!+-*/%&|^~", s[j]))
				j++;
			i = j - 1;
		}
	}
	return 0;
}

static int ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

size_t name_shorten(const char *s, char *out, size_t cap)
{
	struct buf b = {out, cap, 0};
	size_t i = 0;
	while (s[i]) {
		/* operator tokens are names, not brackets */
		if (strncmp(s + i, "operator", 8) == 0 &&
		    (i == 0 || !ident(s[i - 1])) && !ident(s[i + 8])) {
			size_t j = i + 8;
			if (s[j] == '(' && s[j + 1] == ')')
				j += 2;
			else
				while (s[j] && strchr("<>=!+-*/%&|^~[]", s[j]))
					j++;
			put(&b, s + i, j - i);
			i = j;
			continue;
		}
		if (strncmp(s + i, "(anonymous namespace)", 21) == 0) {
			put(&b, s + i, 21);
			i += 21;
			continue;
		}
		char c = s[i];
		if (c == '<' || c == '(') {
			size_t e = close_of(s, i);
			if (!e) {
				put(&b, s + i, strlen(s + i));
				break;
			}
			if (c == '(' && e == i + 2)
				put(&b, "()", 2);
			else
				put(&b, c == '<' ? "<...>" : "(...)", 5);
			i = e;
			continue;
		}
		put(&b, s + i, 1);
		i++;
	}
	if (cap)
		out[b.len < cap ? b.len : cap - 1] = 0;
	return b.len;
}

const char *name_elide(const char *s, size_t width, char *out, size_t cap)
{
	size_t n = strlen(s);
	if (width < 8)
		width = 8;
	if (n <= width || cap <= width) {
		size_t k = n < cap ? n : cap ? cap - 1 : 0;
		memcpy(out, s, k);
		if (cap)
			out[k] = 0;
		return out;
	}
	size_t tail = (width - 3) / 3;
	size_t head = width - 3 - tail;
	memcpy(out, s, head);
	memcpy(out + head, "...", 3);
	memcpy(out + head + 3, s + n - tail, tail);
	out[width] = 0;
	return out;
}

const char *name_display(const char *name, int full, char *buf, size_t cap)
{
	char shortn[1024];
	if (full || cap <= NAME_DISPLAY_WIDTH)
		return name;
	name_shorten(name, shortn, sizeof(shortn));
	return name_elide(shortn, NAME_DISPLAY_WIDTH, buf, cap);
}
