/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htmlsafe: escaping for HTML text and JSON in <script>, and the
 * sanitiser of partial reports' HTML (see htmlsafe.h).  Colours (<font
 * color>) are parsed and written as CSS by lib/defs (defs/colour.h).
 *
 * DESIGN NOTES
 *   The sanitiser is a small tokenizer, not a parser: text, character
 *   references, start tags with attributes, end tags, comments and other
 *   markup declarations.  It never copies input bytes through unchecked:
 *   text is re-escaped after references are decoded, element names come
 *   from the whitelist table, attribute names from the table and values
 *   are decoded, checked and escaped again.  So what the browser decodes
 *   from the output is exactly the value that was checked: a reference
 *   the sanitiser does not know ("&colon;") reaches the browser as the
 *   literal characters "&colon;", never as ":".
 *
 *   Well-formedness: the sanitiser keeps its own stack of open elements.
 *   An end tag closes the elements opened after its element; an end tag
 *   of an element that is not open is dropped; everything open is closed
 *   at the end.  Whatever the browser then does with misnested
 *   whitelisted elements (tables, p in p) stays inside the container
 *   the fragment is written into.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "defs/colour.h"
#include "report/out/htmlsafe.h"

/* ---- output: a FILE or a growing buffer (also for decoded values) ---- */

struct out {
	FILE *f;
	char *p;
	size_t n, cap;
	int oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->f) {
		fwrite(s, 1, n, o->f);
		return;
	}
	if (o->oom)
		return;
	if (o->n + n + 1 > o->cap &&
	    mem_reserve(&o->p, &o->cap, o->n + n + 1, 1, 256)) {
		o->oom = 1;
		return;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* ---- UTF-8 ---- */

/* Decodes the character at s (n > 0 bytes left) into *cp, U+FFFD for a
 * byte that does not start a valid sequence; returns the bytes used. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t len;
	uint32_t v, min;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (n < len) {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = v;
	return len;
}

static void put_utf8(struct out *o, uint32_t cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put(o, b, n);
}

static int is_control(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7f ||
	       (cp >= 0x80 && cp < 0xa0);
}

/* One character of text or attribute value, escaped. */
static void put_char_esc(struct out *o, uint32_t cp)
{
	switch (cp) {
	case '&': puts_(o, "&amp;"); return;
	case '<': puts_(o, "&lt;"); return;
	case '>': puts_(o, "&gt;"); return;
	case '"': puts_(o, "&quot;"); return;
	case '\'': puts_(o, "&#39;"); return;
	}
	put_utf8(o, is_control(cp) ? ' ' : cp);
}

static void put_esc(struct out *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		/* runs of plain ASCII in one write */
		size_t j = i;
		while (j < n && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '&' &&
		       u[j] != '<' && u[j] != '>' && u[j] != '"' && u[j] != '\'')
			j++;
		if (j > i) {
			put(o, s + i, j - i);
			i = j;
			continue;
		}
		uint32_t cp;
		i += utf8_next(u + i, n - i, &cp);
		put_char_esc(o, cp);
	}
}

void htmlsafe_text(FILE *out, const char *s)
{
	if (!s)
		return;
	struct out o = {out, NULL, 0, 0, 0};
	put_esc(&o, s, strlen(s));
}

void htmlsafe_json(FILE *out, const char *s)
{
	struct out o = {out, NULL, 0, 0, 0};
	puts_(&o, "\"");
	if (!s)
		s = "";
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '"' &&
		       u[j] != '\\' && u[j] != '<' && u[j] != '>' && u[j] != '&')
			j++;
		if (j > i) {
			put(&o, s + i, j - i);
			i = j;
			continue;
		}
		uint32_t cp;
		i += utf8_next(u + i, n - i, &cp);
		char b[8];
		switch (cp) {
		case '\\': puts_(&o, "\\\\"); continue;
		case '\n': puts_(&o, "\\n"); continue;
		case '\t': puts_(&o, "\\t"); continue;
		case '\r': puts_(&o, "\\r"); continue;
		}
		/* a quote too, so that no text of a log in the page's data
		 * reads like an attribute (\"onclick=...) to a filter */
		if (cp < 0x20 || cp == '<' || cp == '>' || cp == '&' ||
		    cp == '"' || cp == 0x7f || cp == 0x2028 || cp == 0x2029 ||
		    cp == 0xfffd) {
			snprintf(b, sizeof(b), "\\u%04x", (unsigned)cp);
			puts_(&o, b);
		} else {
			put_utf8(&o, cp);
		}
	}
	puts_(&o, "\"");
}

/* ---- the sanitiser ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

enum atype {
	A_TEXT,   /* any text */
	A_LANG,   /* [A-Za-z0-9-]{1,35} */
	A_DIR,    /* ltr rtl auto */
	A_ALIGN,  /* left right center justify top middle bottom baseline */
	A_NUM,    /* digits, at most 6 */
	A_LEN,    /* digits, optional % */
	A_FSIZE,  /* font size: optional + or -, one digit */
	A_OLTYPE, /* 1 a A i I */
	A_COLOUR, /* a colour of lib/defs (colour.h), written as CSS */
	A_HREF,   /* URL for a link */
	A_SRC,    /* relative URL for an image */
	A_STYLE,  /* inline style */
};

struct attr {
	const char *name;
	enum atype type;
};

static const struct attr global_attrs[] = {
	{"title", A_TEXT}, {"lang", A_LANG}, {"dir", A_DIR},
	{"align", A_ALIGN}, {"style", A_STYLE}, {NULL, A_TEXT},
};
static const struct attr a_attrs[] = {{"href", A_HREF}, {NULL, A_TEXT}};
static const struct attr img_attrs[] = {
	{"src", A_SRC}, {"alt", A_TEXT}, {"width", A_LEN},
	{"height", A_LEN}, {NULL, A_TEXT},
};
static const struct attr font_attrs[] = {
	{"color", A_COLOUR}, {"size", A_FSIZE}, {NULL, A_TEXT},
};
static const struct attr ol_attrs[] = {
	{"start", A_NUM}, {"type", A_OLTYPE}, {NULL, A_TEXT},
};
static const struct attr li_attrs[] = {{"value", A_NUM}, {NULL, A_TEXT}};
static const struct attr cell_attrs[] = {
	{"colspan", A_NUM}, {"rowspan", A_NUM}, {"valign", A_ALIGN},
	{"width", A_LEN}, {NULL, A_TEXT},
};
static const struct attr table_attrs[] = {
	{"border", A_NUM}, {"cellpadding", A_NUM}, {"cellspacing", A_NUM},
	{"width", A_LEN}, {NULL, A_TEXT},
};

struct elem {
	const char *name;
	int isvoid;
	const struct attr *attrs; /* besides the global ones */
};

static const struct elem elems[] = {
	{"h1", 0, NULL}, {"h2", 0, NULL}, {"h3", 0, NULL}, {"h4", 0, NULL},
	{"h5", 0, NULL}, {"h6", 0, NULL}, {"p", 0, NULL}, {"div", 0, NULL},
	{"span", 0, NULL}, {"br", 1, NULL}, {"hr", 1, NULL},
	{"a", 0, a_attrs}, {"b", 0, NULL}, {"i", 0, NULL}, {"u", 0, NULL},
	{"s", 0, NULL}, {"em", 0, NULL}, {"strong", 0, NULL},
	{"small", 0, NULL}, {"big", 0, NULL}, {"sub", 0, NULL},
	{"sup", 0, NULL}, {"code", 0, NULL}, {"pre", 0, NULL},
	{"tt", 0, NULL}, {"kbd", 0, NULL}, {"samp", 0, NULL},
	{"var", 0, NULL}, {"cite", 0, NULL}, {"q", 0, NULL},
	{"blockquote", 0, NULL}, {"abbr", 0, NULL}, {"font", 0, font_attrs},
	{"ol", 0, ol_attrs}, {"ul", 0, NULL}, {"li", 0, li_attrs},
	{"dl", 0, NULL}, {"dt", 0, NULL}, {"dd", 0, NULL},
	{"table", 0, table_attrs}, {"caption", 0, NULL}, {"thead", 0, NULL},
	{"tbody", 0, NULL}, {"tfoot", 0, NULL}, {"tr", 0, NULL},
	{"th", 0, cell_attrs}, {"td", 0, cell_attrs}, {"img", 1, img_attrs},
};
#define NELEMS (sizeof(elems) / sizeof(*elems))

/* Elements dropped with everything inside them. */
static const char *const drop_content[] = {
	"script", "style", "iframe", "object", "template", "textarea",
	"title", "noscript", "xmp", "svg", "math", "noembed", "noframes",
	"plaintext", "frameset", "select", "option", "applet",
	NULL,
};

/* CSS properties kept in style attributes. */
static const char *const css_props[] = {
	"color", "background-color", "font-weight", "font-style",
	"font-size", "font-family", "font-variant", "text-decoration",
	"text-align", "text-transform", "text-indent", "vertical-align",
	"line-height", "letter-spacing", "white-space", "margin",
	"margin-top", "margin-right", "margin-bottom", "margin-left",
	"padding", "padding-top", "padding-right", "padding-bottom",
	"padding-left", "border", "border-top", "border-right",
	"border-bottom", "border-left", "border-color", "border-style",
	"border-width", "border-collapse", "border-radius", "width",
	"height", "max-width", "min-width", "list-style-type", "float",
	"clear", "display",
	NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Named references decoded in attribute values; others stay literal. */
static const struct {
	const char *name;
	uint32_t cp;
} named_refs[] = {
	{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'},
	{"apos", '\''}, {"nbsp", 0xa0}, {"colon", ':'}, {"Tab", '\t'},
	{"NewLine", '\n'}, {"lpar", '('}, {"rpar", ')'}, {"sol", '/'},
	{"bsol", '\\'}, {"period", '.'}, {"comma", ','}, {"semi", ';'},
	{"num", '#'}, {"percnt", '%'}, {"excl", '!'}, {"equals", '='},
};

/*
 * Reads a character reference at s (s[0] == '&', n bytes left).  Numeric
 * references are decoded with or without ';' as browsers do; named ones
 * need ';'.  Returns the bytes it takes and sets *cp (numeric, or a name
 * of named_refs), or sets *cp to 0 for a well-formed name it does not
 * decode, or returns 0 when s starts no reference.
 */
static size_t char_ref(const char *s, size_t n, uint32_t *cp)
{
	size_t i = 1;
	if (i < n && s[i] == '#') {
		i++;
		int hex = i < n && (s[i] == 'x' || s[i] == 'X');
		if (hex)
			i++;
		size_t d0 = i;
		uint64_t v = 0;
		while (i < n && (hex ? hexval(s[i]) >= 0 : isdigit((unsigned char)s[i]))) {
			if (v < 0x110000)
				v = v * (hex ? 16 : 10) +
				    (uint64_t)(hex ? hexval(s[i]) : s[i] - '0');
			i++;
		}
		if (i == d0)
			return 0;
		if (i < n && s[i] == ';')
			i++;
		if (v == 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			v = 0xfffd;
		*cp = (uint32_t)v;
		return i;
	}
	size_t a = i;
	while (i < n && i - a < 32 && isalnum((unsigned char)s[i]))
		i++;
	if (i == a || i >= n || s[i] != ';' || !isalpha((unsigned char)s[a]))
		return 0;
	*cp = 0;
	for (size_t k = 0; k < sizeof(named_refs) / sizeof(*named_refs); k++)
		if (strlen(named_refs[k].name) == i - a &&
		    !strncmp(named_refs[k].name, s + a, i - a))
			*cp = named_refs[k].cp;
	return i + 1;
}

/* Decodes the references in the attribute value s[0..n) into d. */
static void attr_decode(struct out *d, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		size_t k;
		if (s[i] == '&' && (k = char_ref(s + i, n - i, &cp)) != 0 && cp) {
			put_utf8(d, cp);
			i += k;
			continue;
		}
		put(d, s + i, 1);
		i++;
	}
	if (!d->p)
		put(d, "", 0);
}

/* The URL u (decoded) without ASCII whitespace and control characters,
 * which browsers skip in schemes; into d. */
static void url_clean(struct out *d, const char *u)
{
	for (; *u; u++)
		if ((unsigned char)*u > 0x20 && *u != 0x7f)
			put(d, u, 1);
	if (!d->p)
		put(d, "", 0);
}

/* 1 if the cleaned URL u may be a link (img == 0) or an image source
 * (img == 1). */
static int url_ok(const char *u, int img)
{
	if (strchr(u, '\\'))
		return 0;
	if (u[0] == '/' && u[1] == '/')
		return 0; /* another host, whatever the scheme */
	size_t s = strcspn(u, ":/?#");
	if (u[s] != ':')
		return 1; /* relative: no scheme */
	if (img)
		return 0;
	return (s == 4 && !strncasecmp(u, "http", 4)) ||
	       (s == 5 && !strncasecmp(u, "https", 5)) ||
	       (s == 6 && !strncasecmp(u, "mailto", 6));
}

static int word_in(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (; *s; s++)
		if (!strncasecmp(s, w, n))
			return 1;
	return 0;
}

/* The value v of CSS property: only letters, digits, spaces, # % . , + -
 * and the functions rgb, rgba, hsl, hsla. */
static int css_value_ok(const char *v)
{
	if (!*v || word_in(v, "expression") || word_in(v, "url") ||
	    word_in(v, "javascript") || word_in(v, "behavio") ||
	    word_in(v, "binding") || word_in(v, "import"))
		return 0;
	int depth = 0;
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == ' ' || c == '#' || c == '%' || c == '.' ||
		    c == ',' || c == '+' || c == '-')
			continue;
		if (c == '(') {
			const char *f = p;
			while (f > v && isalpha((unsigned char)f[-1]))
				f--;
			size_t fl = (size_t)(p - f);
			if (depth ||
			    !((fl == 3 && (!strncasecmp(f, "rgb", 3) ||
					   !strncasecmp(f, "hsl", 3))) ||
			      (fl == 4 && (!strncasecmp(f, "rgba", 4) ||
					   !strncasecmp(f, "hsla", 4)))))
				return 0;
			depth++;
			continue;
		}
		if (c == ')' && depth) {
			depth--;
			continue;
		}
		return 0;
	}
	return depth == 0;
}

/* Writes the declarations of style s that pass into o as "p: v; ...";
 * returns 0 when none did (nothing written). */
static int style_put(struct out *o, const char *s)
{
	if (strstr(s, "/*") || strchr(s, '\\') || strchr(s, '<') ||
	    strchr(s, '{') || strchr(s, '@'))
		return 0;
	int any = 0;
	while (*s) {
		size_t dl = strcspn(s, ";");
		const char *colon = memchr(s, ':', dl);
		if (colon) {
			char prop[32], val[256];
			const char *a = s, *b = colon;
			while (a < b && is_space(*a))
				a++;
			while (b > a && is_space(b[-1]))
				b--;
			const char *c = colon + 1, *d = s + dl;
			while (c < d && is_space(*c))
				c++;
			while (d > c && is_space(d[-1]))
				d--;
			if ((size_t)(b - a) < sizeof(prop) &&
			    (size_t)(d - c) < sizeof(val)) {
				for (size_t i = 0; i < (size_t)(b - a); i++)
					prop[i] = (char)tolower((unsigned char)a[i]);
				prop[b - a] = 0;
				memcpy(val, c, (size_t)(d - c));
				val[d - c] = 0;
				if (in_list(css_props, prop) && css_value_ok(val)) {
					if (any)
						put(o, " ", 1);
					put(o, prop, strlen(prop));
					put(o, ": ", 2);
					put(o, val, strlen(val));
					put(o, ";", 1);
					any = 1;
				}
			}
		}
		s += dl;
		if (*s == ';')
			s++;
	}
	return any;
}

static int value_ok(enum atype t, const char *v)
{
	size_t n = strlen(v);
	switch (t) {
	case A_LANG:
		if (!n || n > 35)
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!isalnum((unsigned char)v[i]) && v[i] != '-')
				return 0;
		return 1;
	case A_DIR:
		return !strcasecmp(v, "ltr") || !strcasecmp(v, "rtl") ||
		       !strcasecmp(v, "auto");
	case A_ALIGN: {
		static const char *const al[] = {
			"left", "right", "center", "justify", "top",
			"middle", "bottom", "baseline", NULL,
		};
		for (int i = 0; al[i]; i++)
			if (!strcasecmp(v, al[i]))
				return 1;
		return 0;
	}
	case A_NUM:
	case A_LEN:
		if (t == A_LEN && n > 1 && v[n - 1] == '%')
			n--;
		if (!n || n > 6)
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!isdigit((unsigned char)v[i]))
				return 0;
		return 1;
	case A_FSIZE:
		if (*v == '+' || *v == '-')
			v++;
		return isdigit((unsigned char)v[0]) && !v[1];
	case A_OLTYPE:
		return n == 1 && strchr("1aAiI", v[0]);
	default:
		return 1;
	}
}

struct san {
	const char *s;
	size_t n, i;
	struct out o;
	int stack[64];  /* open elements, indexes into elems */
	int depth;
};

static int elem_find(const char *name)
{
	for (size_t i = 0; i < NELEMS; i++)
		if (!strcmp(elems[i].name, name))
			return (int)i;
	return -1;
}

/* The attribute name of element e, or NULL; *bit gets a number unique
 * to it among e's attributes (below 64). */
static const struct attr *attr_find(const struct elem *e, const char *name,
				    unsigned *bit)
{
	unsigned k = 0;
	for (const struct attr *a = global_attrs; a->name; a++, k++)
		if (!strcmp(a->name, name)) {
			*bit = k;
			return a;
		}
	k = 16;
	if (e->attrs)
		for (const struct attr *a = e->attrs; a->name; a++, k++)
			if (!strcmp(a->name, name)) {
				*bit = k;
				return a;
			}
	return NULL;
}

/* Reads a tag or attribute name at x->i (up to whitespace, '/', '>' or,
 * for attributes, '='), lower-cased into buf; returns its length (which
 * may be more than fits: then the name matches nothing). */
static size_t read_name(struct san *x, char *buf, size_t len, int attr)
{
	size_t k = 0;
	while (x->i < x->n) {
		char c = x->s[x->i];
		if (is_space(c) || c == '/' || c == '>' || (attr && c == '=' && k))
			break;
		if (k + 1 < len)
			buf[k] = (char)tolower((unsigned char)c);
		k++;
		x->i++;
	}
	buf[k + 1 < len ? k : len - 1] = 0;
	return k;
}

static int name_ok(const char *s, size_t k, size_t len)
{
	if (!k || k >= len)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return 1;
}

/* Skips past the end of the element name (at x->i, after its start tag):
 * to after "</name ...>" at the same nesting, or to the end. */
static void skip_element(struct san *x, const char *name)
{
	size_t nl = strlen(name);
	int raw = !strcmp(name, "script") || !strcmp(name, "style") ||
		  !strcmp(name, "textarea") || !strcmp(name, "title") ||
		  !strcmp(name, "xmp") || !strcmp(name, "plaintext");
	int depth = 1;
	while (x->i < x->n) {
		const char *p = memchr(x->s + x->i, '<', x->n - x->i);
		if (!p)
			break;
		size_t at = (size_t)(p - x->s);
		int end = at + 1 < x->n && x->s[at + 1] == '/';
		size_t ns = at + 1 + (size_t)end;
		x->i = at + 1;
		if (ns + nl > x->n || strncasecmp(x->s + ns, name, nl))
			continue;
		char after = ns + nl < x->n ? x->s[ns + nl] : '>';
		if (!is_space(after) && after != '/' && after != '>')
			continue;
		if (!end) {
			if (!raw)
				depth++;
			continue;
		}
		if (--depth)
			continue;
		const char *gt = memchr(x->s + ns, '>', x->n - ns);
		x->i = gt ? (size_t)(gt - x->s) + 1 : x->n;
		return;
	}
	x->i = x->n;
}

/* Writes one checked attribute to o; returns 1 if written. */
static int attr_put(struct out *o, const struct attr *a, const char *val)
{
	struct out c = {0};
	int ok = 0;
	switch (a->type) {
	case A_STYLE:
		ok = style_put(&c, val);
		break;
	case A_COLOUR: {
		struct colour mc;
		char col[32];
		ok = !colour_parse(val, COLOUR_FUNCTIONS_OK, &mc) &&
		     !colour_css(&mc, col, sizeof(col));
		if (ok)
			put(&c, col, strlen(col));
		break;
	}
	case A_HREF:
	case A_SRC:
		url_clean(&c, val);
		ok = !c.oom && url_ok(c.p, a->type == A_SRC);
		break;
	default: {
		const char *p = val;
		while (is_space(*p))
			p++;
		put(&c, p, strlen(p));
		while (c.n && is_space(c.p[c.n - 1]))
			c.p[--c.n] = 0;
		ok = !c.oom && (a->type == A_TEXT || value_ok(a->type, c.p));
		break;
	}
	}
	ok = ok && !c.oom;
	if (ok) {
		puts_(o, " ");
		puts_(o, a->name);
		puts_(o, "=\"");
		put_esc(o, c.p ? c.p : "", c.n);
		puts_(o, "\"");
	}
	free(c.p);
	return ok;
}

/* A start tag at x->i ('<' then a letter).  Returns 0 if it was consumed
 * (written, dropped or its element skipped), -1 if malformed (no '>'
 * before the end: nothing consumed, the '<' is then text). */
static int start_tag(struct san *x)
{
	size_t save = x->i;
	x->i++;
	char name[16];
	size_t nk = read_name(x, name, sizeof(name), 0);
	int ei = name_ok(name, nk, sizeof(name)) ? elem_find(name) : -1;
	const struct elem *e = ei >= 0 ? &elems[ei] : NULL;
	/* attributes: read them all first, write the good ones */
	struct out attrs = {NULL, NULL, 0, 0, 0};
	int has_href = 0, has_src = 0;
	uint64_t seen = 0;
	for (;;) {
		while (x->i < x->n && (is_space(x->s[x->i]) || x->s[x->i] == '/'))
			x->i++;
		if (x->i >= x->n) {
			free(attrs.p);
			x->i = save;
			return -1;
		}
		if (x->s[x->i] == '>') {
			x->i++;
			break;
		}
		char an[24];
		size_t ak = read_name(x, an, sizeof(an), 1);
		while (x->i < x->n && is_space(x->s[x->i]))
			x->i++;
		const char *v = "";
		size_t vn = 0;
		int has_value = 0;
		if (x->i < x->n && x->s[x->i] == '=') {
			x->i++;
			has_value = 1;
			while (x->i < x->n && is_space(x->s[x->i]))
				x->i++;
			if (x->i < x->n && (x->s[x->i] == '"' || x->s[x->i] == '\'')) {
				char q = x->s[x->i++];
				const char *end = memchr(x->s + x->i, q, x->n - x->i);
				if (!end) {
					free(attrs.p);
					x->i = save;
					return -1;
				}
				v = x->s + x->i;
				vn = (size_t)(end - v);
				x->i += vn + 1;
			} else {
				v = x->s + x->i;
				while (x->i < x->n && !is_space(x->s[x->i]) &&
				       x->s[x->i] != '>')
					x->i++;
				vn = (size_t)(x->s + x->i - v);
			}
		}
		if (!e || !name_ok(an, ak, sizeof(an)))
			continue;
		unsigned bit;
		const struct attr *a = attr_find(e, an, &bit);
		if (!a)
			continue;
		/* the first of an attribute given twice counts, as in HTML */
		if (seen & ((uint64_t)1 << bit))
			continue;
		seen |= (uint64_t)1 << bit;
		if (!has_value && a->type != A_TEXT)
			continue;
		struct out dv = {0};
		attr_decode(&dv, v, vn);
		if (!dv.oom) {
			int w = attr_put(&attrs, a, dv.p);
			if (w && a->type == A_HREF)
				has_href = 1;
			if (w && a->type == A_SRC)
				has_src = 1;
		}
		free(dv.p);
	}
	if (!e) {
		free(attrs.p);
		if (name_ok(name, nk, sizeof(name)) &&
		    in_list(drop_content, name))
			skip_element(x, name);
		return 0;
	}
	if (ei == elem_find("img") && !has_src) {
		free(attrs.p);
		return 0; /* nothing to show */
	}
	if (!e->isvoid && x->depth == (int)(sizeof(x->stack) / sizeof(*x->stack))) {
		free(attrs.p);
		return 0; /* too deep: the tag goes, its text stays */
	}
	puts_(&x->o, "<");
	puts_(&x->o, e->name);
	if (attrs.p)
		put(&x->o, attrs.p, attrs.n);
	if (attrs.oom)
		x->o.oom = 1;
	if (has_href)
		puts_(&x->o, " rel=\"noopener noreferrer\"");
	puts_(&x->o, ">");
	free(attrs.p);
	if (!e->isvoid)
		x->stack[x->depth++] = ei;
	return 0;
}

static void close_to(struct san *x, int level)
{
	while (x->depth > level) {
		x->depth--;
		puts_(&x->o, "</");
		puts_(&x->o, elems[x->stack[x->depth]].name);
		puts_(&x->o, ">");
	}
}

/* An end tag at x->i ("</" then a letter). */
static void end_tag(struct san *x)
{
	x->i += 2;
	char name[16];
	size_t nk = read_name(x, name, sizeof(name), 0);
	const char *gt = memchr(x->s + x->i, '>', x->n - x->i);
	x->i = gt ? (size_t)(gt - x->s) + 1 : x->n;
	int ei = name_ok(name, nk, sizeof(name)) ? elem_find(name) : -1;
	if (ei < 0)
		return;
	for (int d = x->depth; d-- > 0;)
		if (x->stack[d] == ei) {
			close_to(x, d);
			return;
		}
}

/* Skips a comment, doctype or processing instruction at x->i ("<!" or
 * "<?"); writes the text of a CDATA section. */
static void skip_markup(struct san *x)
{
	if (x->i + 9 <= x->n && !strncmp(x->s + x->i, "<![CDATA[", 9)) {
		/* XML CDATA (partial reports are XML): its text, escaped */
		size_t a = x->i + 9, e = a;
		while (e + 3 <= x->n && strncmp(x->s + e, "]]>", 3))
			e++;
		if (e + 3 > x->n)
			e = x->n;
		put_esc(&x->o, x->s + a, e - a);
		x->i = e + 3 <= x->n ? e + 3 : x->n;
		return;
	}
	if (x->i + 4 <= x->n && !strncmp(x->s + x->i, "<!--", 4)) {
		const char *p = x->s + x->i + 4;
		size_t left = x->n - x->i - 4;
		for (; left >= 3; p++, left--)
			if (!strncmp(p, "-->", 3)) {
				x->i = (size_t)(p - x->s) + 3;
				return;
			}
		x->i = x->n;
		return;
	}
	const char *gt = memchr(x->s + x->i, '>', x->n - x->i);
	x->i = gt ? (size_t)(gt - x->s) + 1 : x->n;
}

char *htmlsafe_sanitize(const char *in)
{
	struct san x;
	memset(&x, 0, sizeof(x));
	x.s = in ? in : "";
	x.n = strlen(x.s);
	puts_(&x.o, "");
	while (x.i < x.n && !x.o.oom) {
		char c = x.s[x.i];
		if (c == '<') {
			char d = x.i + 1 < x.n ? x.s[x.i + 1] : 0;
			if (d == '!' || d == '?') {
				skip_markup(&x);
				continue;
			}
			if (isalpha((unsigned char)d) && start_tag(&x) == 0)
				continue;
			if (d == '/' && x.i + 2 < x.n &&
			    isalpha((unsigned char)x.s[x.i + 2])) {
				end_tag(&x);
				continue;
			}
			puts_(&x.o, "&lt;");
			x.i++;
			continue;
		}
		if (c == '&') {
			uint32_t cp;
			size_t k = char_ref(x.s + x.i, x.n - x.i, &cp);
			if (k && !cp) {
				/* a named reference: letters and digits
				 * only, the browser shows it as text */
				put(&x.o, x.s + x.i, k);
			} else if (k) {
				put_char_esc(&x.o, cp);
			} else {
				puts_(&x.o, "&amp;");
				k = 1;
			}
			x.i += k;
			continue;
		}
		size_t j = x.i;
		while (j < x.n && x.s[j] != '<' && x.s[j] != '&')
			j++;
		put_esc(&x.o, x.s + x.i, j - x.i);
		x.i = j;
	}
	close_to(&x, 0);
	if (x.o.oom) {
		free(x.o.p);
		return NULL;
	}
	return x.o.p;
}
