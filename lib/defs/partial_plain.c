/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial_plain.c: partial_plain_text(), the plain text of the HTML
 * subset a partial report's <text> may hold (reference section 3.7), for
 * the text report and the JSON report.  The HTML report sanitises the
 * markup instead (lib/report/out/htmlsafe.c).
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/mem.h"
#include "defs/partial.h"

/* The text being written. */
struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
};

static void sput(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (mem_reserve(&b->s, &b->cap, b->n + n + 1, 1, 64)) {
		b->oom = true;
		return;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* Adds one character of text: white space runs become one space, none
 * at the start of a line. */
static void text_char(struct sbuf *b, char c)
{
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    (unsigned char)c < 0x20 || c == 0x7f) {
		if (b->n && b->s[b->n - 1] != ' ' && b->s[b->n - 1] != '\n')
			sput(b, " ", 1);
		return;
	}
	sput(b, &c, 1);
}

static void text_newline(struct sbuf *b)
{
	while (b->n && b->s[b->n - 1] == ' ')
		b->s[--b->n] = '\0';
	if (b->n && b->s[b->n - 1] != '\n')
		sput(b, "\n", 1);
}

/* Writes code point c as UTF-8 text. */
static void text_code(struct sbuf *b, unsigned long c)
{
	char u[4];
	size_t n;
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff)) {
		text_char(b, ' ');
		return;
	}
	if (c < 0x80) {
		text_char(b, (char)c);
		return;
	}
	if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6);
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12);
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | c >> 18);
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	sput(b, u, n);
}

/* An entity reference at s ('&'); returns the bytes it takes, 0 if it
 * is none that is known (then '&' is text). */
static size_t text_entity(struct sbuf *b, const char *s)
{
	static const struct {
		const char *name;
		char c;
	} ents[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'},
		    {"quot;", '"'}, {"apos;", '\''}, {"nbsp;", ' '}};
	for (size_t i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
		size_t l = strlen(ents[i].name);
		if (!strncmp(s + 1, ents[i].name, l)) {
			text_char(b, ents[i].c);
			return l + 1;
		}
	}
	if (s[1] == '#') {
		int hex = s[2] == 'x' || s[2] == 'X';
		const char *d = s + 2 + hex;
		unsigned long v = 0;
		size_t nd = 0;
		while (nd < 8 && (hex ? isxdigit((unsigned char)d[nd])
				      : isdigit((unsigned char)d[nd]))) {
			int c = (unsigned char)d[nd];
			v = v * (hex ? 16 : 10) +
			    (unsigned long)(isdigit(c) ? c - '0'
						       : (c | 0x20) - 'a' + 10);
			nd++;
		}
		if (nd && d[nd] == ';') {
			text_code(b, v);
			return (size_t)(d + nd + 1 - s);
		}
	}
	return 0;
}

static int is_block(const char *name, size_t n)
{
	static const char *const blocks[] = {
		"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4",
		"h5", "h6", "tr", "table", "dl", "dt", "dd", "blockquote",
		"pre", "hr", NULL,
	};
	for (int i = 0; blocks[i]; i++)
		if (strlen(blocks[i]) == n && !strncasecmp(blocks[i], name, n))
			return 1;
	return 0;
}

char *partial_plain_text(const char *html)
{
	struct sbuf b = {0};
	const char *s = html ? html : "";
	sput(&b, "", 0);
	while (*s && !b.oom) {
		if (!strncmp(s, "<![CDATA[", 9)) {
			const char *e = strstr(s + 9, "]]>");
			const char *end = e ? e : s + strlen(s);
			for (const char *c = s + 9; c < end; c++)
				text_char(&b, *c);
			s = e ? e + 3 : end;
		} else if (!strncmp(s, "<!--", 4)) {
			const char *e = strstr(s + 4, "-->");
			s = e ? e + 3 : s + strlen(s);
		} else if (*s == '<') {
			const char *e = strchr(s, '>');
			const char *nm = s + 1 + (s[1] == '/');
			size_t nl = 0;
			while (isalnum((unsigned char)nm[nl]))
				nl++;
			if (s[1] != '/' && e && e[-1] != '/' &&
			    ((nl == 6 && !strncasecmp(nm, "script", 6)) ||
			     (nl == 5 && !strncasecmp(nm, "style", 5)))) {
				/* code, not text: skip to its end tag */
				char end[10];
				snprintf(end, sizeof(end), "</%.*s", (int)nl,
					 nm);
				const char *c = strcasestr(e, end);
				e = c ? strchr(c, '>') : NULL;
				s = e ? e + 1 : s + strlen(s);
				continue;
			}
			if (is_block(nm, nl)) {
				text_newline(&b);
				if (nl == 2 && !strncasecmp(nm, "li", 2) &&
				    s[1] != '/')
					sput(&b, "- ", 2);
			}
			s = e ? e + 1 : s + strlen(s);
		} else if (*s == '&') {
			size_t l = text_entity(&b, s);
			if (!l)
				text_char(&b, '&');
			s += l ? l : 1;
		} else {
			text_char(&b, *s++);
		}
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	/* trim: no space at line ends, no empty first or last line */
	text_newline(&b);
	size_t o = 0;
	for (size_t i = 0; i < b.n; i++) {
		if (b.s[i] == ' ' && (!o || b.s[o - 1] == '\n'))
			continue;
		if (b.s[i] == '\n' && (!o || b.s[o - 1] == '\n'))
			continue;
		b.s[o++] = b.s[i];
	}
	while (o && (b.s[o - 1] == '\n' || b.s[o - 1] == ' '))
		o--;
	b.s[o] = '\0';
	return b.s;
}
