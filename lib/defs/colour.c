/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * colour.c: parsing colours and writing them as CSS (colour.h): #RGB,
 * #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, the SVG 1.1 colour keywords, and on
 * request Arm MAP's palette names (SpecialLineN) and the rgb()/hsv()/hsl()
 * forms of the reference's section 3.5.  Used by both definition parsers
 * and by the HTML report (its sanitiser and its partial-report colours).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mapsample/maps_error.h>

#include "defs/colour.h"

/* The 147 colour keywords of SVG 1.1 (section 4.4, "Recognized color
 * keyword names"), in byte order for bsearch(). */
const char *const metricdef_svg_colours[] = {
	"aliceblue", "antiquewhite", "aqua", "aquamarine", "azure",
	"beige", "bisque", "black", "blanchedalmond", "blue",
	"blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
	"chocolate", "coral", "cornflowerblue", "cornsilk", "crimson",
	"cyan", "darkblue", "darkcyan", "darkgoldenrod", "darkgray",
	"darkgreen", "darkgrey", "darkkhaki", "darkmagenta",
	"darkolivegreen", "darkorange", "darkorchid", "darkred",
	"darksalmon", "darkseagreen", "darkslateblue", "darkslategray",
	"darkslategrey", "darkturquoise", "darkviolet", "deeppink",
	"deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick",
	"floralwhite", "forestgreen", "fuchsia", "gainsboro", "ghostwhite",
	"gold", "goldenrod", "gray", "green", "greenyellow", "grey",
	"honeydew", "hotpink", "indianred", "indigo", "ivory", "khaki",
	"lavender", "lavenderblush", "lawngreen", "lemonchiffon",
	"lightblue", "lightcoral", "lightcyan", "lightgoldenrodyellow",
	"lightgray", "lightgreen", "lightgrey", "lightpink", "lightsalmon",
	"lightseagreen", "lightskyblue", "lightslategray",
	"lightslategrey", "lightsteelblue", "lightyellow", "lime",
	"limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
	"mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen",
	"mediumslateblue", "mediumspringgreen", "mediumturquoise",
	"mediumvioletred", "midnightblue", "mintcream", "mistyrose",
	"moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab",
	"orange", "orangered", "orchid", "palegoldenrod", "palegreen",
	"paleturquoise", "palevioletred", "papayawhip", "peachpuff", "peru",
	"pink", "plum", "powderblue", "purple", "red", "rosybrown",
	"royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen",
	"seashell", "sienna", "silver", "skyblue", "slateblue", "slategray",
	"slategrey", "snow", "springgreen", "steelblue", "tan", "teal",
	"thistle", "tomato", "turquoise", "violet", "wheat", "white",
	"whitesmoke", "yellow", "yellowgreen", NULL,
};
const size_t metricdef_nsvg_colours =
	sizeof(metricdef_svg_colours) / sizeof(metricdef_svg_colours[0]) - 1;

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

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* Parses "#" and 3, 6, 9 or 12 hex digits (s points after the '#'). */
static int parse_hex(const char *s, size_t n, struct colour *c)
{
	size_t d;
	if (n != 3 && n != 6 && n != 9 && n != 12)
		return -1;
	d = n / 3;
	for (int ch = 0; ch < 3; ch++) {
		unsigned long v = 0, max = (1ul << (4 * d)) - 1;
		for (size_t i = 0; i < d; i++) {
			int h = hexval((unsigned char)s[ch * d + i]);
			if (h < 0)
				return -1;
			v = v * 16 + (unsigned long)h;
		}
		c->c_rgb16[ch] = (uint16_t)((v * 65535ul + max / 2) / max);
		c->c_rgb8[ch] = (uint8_t)((v * 255ul + max / 2) / max);
	}
	c->c_kind = COLOUR_HEX;
	return 0;
}

/* Skips white space from s up to end. */
static const char *skip_space(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Parses "(a, b, c)" with a <= max0, b and c <= max12, from s (what
 * follows the function name) to end exactly; white space is allowed
 * around every part. */
static int parse_triple(const char *s, const char *end, unsigned max0,
			unsigned max12, unsigned v[3])
{
	s = skip_space(s, end);
	if (s == end || *s++ != '(')
		return -1;
	for (int i = 0; i < 3; i++) {
		unsigned long x = 0;
		int digits = 0;
		s = skip_space(s, end);
		while (s < end && *s >= '0' && *s <= '9') {
			x = x * 10 + (unsigned long)(*s++ - '0');
			if (++digits > 3)
				return -1;
		}
		if (!digits || x > (i ? max12 : max0))
			return -1;
		v[i] = (unsigned)x;
		s = skip_space(s, end);
		if (s == end || *s++ != (i < 2 ? ',' : ')'))
			return -1;
	}
	return skip_space(s, end) == end ? 0 : -1;
}

/* The SVG keyword s (n bytes, any case), or NULL. */
static const char *keyword(const char *s, size_t n)
{
	char name[32];
	const char *const *hit;
	if (n >= sizeof(name))
		return NULL;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)s[i]);
	name[n] = '\0';
	hit = bsearch(name, metricdef_svg_colours, metricdef_nsvg_colours,
		      sizeof(metricdef_svg_colours[0]), by_name);
	return hit ? *hit : NULL;
}

/* Parses s (n bytes, trimmed) into *c; returns 0 or -1. */
static int parse(const char *s, size_t n, unsigned flags, struct colour *c)
{
	static const struct {
		const char *fn;
		enum colour_kind kind;
		unsigned max0, max12;
	} fns[] = {
		{"rgb", COLOUR_RGB, 255, 255},
		{"hsv", COLOUR_HSV, 359, 100},
		{"hsl", COLOUR_HSL, 359, 100},
	};

	if (s[0] == '#')
		return parse_hex(s + 1, n - 1, c);
	if ((c->c_name = keyword(s, n))) {
		c->c_kind = COLOUR_NAME;
		return 0;
	}
	if ((flags & COLOUR_PALETTE_OK) && n > 11 && n <= 14 &&
	    !strncmp(s, "SpecialLine", 11)) {
		unsigned long v = 0;
		for (size_t i = 11; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v = v * 10 + (unsigned long)(s[i] - '0');
		}
		c->c_kind = COLOUR_PALETTE;
		c->c_index = (unsigned)v;
		return 0;
	}
	if (!(flags & COLOUR_FUNCTIONS_OK) || n < 3)
		return -1;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		if (strncasecmp(s, fns[i].fn, 3))
			continue;
		if (parse_triple(s + 3, s + n, fns[i].max0, fns[i].max12,
				 c->c_v))
			return -1;
		c->c_kind = fns[i].kind;
		return 0;
	}
	return -1;
}

int colour_parse(const char *s, unsigned flags, struct colour *out)
{
	struct colour c;
	size_t n;

	memset(&c, 0, sizeof(c));
	if (out)
		memset(out, 0, sizeof(*out));
	if (!s || !out)
		return MAPS_EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || parse(s, n, flags, &c))
		return MAPS_EINVAL;
	*out = c;
	return 0;
}

/* One channel of hsl(): p and q from lightness and saturation, t the hue
 * shifted for the channel, all in [0, 1] but t (one turn either way). */
static double hsl_channel(double p, double q, double t)
{
	if (t < 0)
		t += 1;
	if (t > 1)
		t -= 1;
	if (t < 1.0 / 6)
		return p + (q - p) * 6 * t;
	if (t < 0.5)
		return q;
	if (t < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - t) * 6;
	return p;
}

/* hsv(h, s, v) into rgb[], each in [0, 1]. */
static void hsv_rgb(const unsigned hsv[3], double rgb[3])
{
	double h = hsv[0] / 60.0, s = hsv[1] / 100.0, v = hsv[2] / 100.0;
	int i = (int)h;
	double f = h - i, p = v * (1 - s), q = v * (1 - s * f),
	       t = v * (1 - s * (1 - f));
	double *r = &rgb[0], *g = &rgb[1], *b = &rgb[2];
	switch (i % 6) {
	case 0: *r = v; *g = t; *b = p; break;
	case 1: *r = q; *g = v; *b = p; break;
	case 2: *r = p; *g = v; *b = t; break;
	case 3: *r = p; *g = q; *b = v; break;
	case 4: *r = t; *g = p; *b = v; break;
	default: *r = v; *g = p; *b = q; break;
	}
}

/* hsl(h, s, l) into rgb[], each in [0, 1]. */
static void hsl_rgb(const unsigned hsl[3], double rgb[3])
{
	double h = hsl[0] / 360.0, s = hsl[1] / 100.0, l = hsl[2] / 100.0;
	if (s == 0) {
		rgb[0] = rgb[1] = rgb[2] = l;
		return;
	}
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
	double p = 2 * l - q;
	rgb[0] = hsl_channel(p, q, h + 1.0 / 3);
	rgb[1] = hsl_channel(p, q, h);
	rgb[2] = hsl_channel(p, q, h - 1.0 / 3);
}

int colour_css(const struct colour *c, char *buf, size_t len)
{
	double rgb[3];
	int w;

	if (len)
		buf[0] = '\0';
	if (!c || !buf)
		return MAPS_EINVAL;
	switch (c->c_kind) {
	case COLOUR_HEX:
		w = snprintf(buf, len, "#%02x%02x%02x", c->c_rgb8[0],
			     c->c_rgb8[1], c->c_rgb8[2]);
		break;
	case COLOUR_NAME:
		w = snprintf(buf, len, "%s", c->c_name);
		break;
	case COLOUR_RGB:
		w = snprintf(buf, len, "#%02x%02x%02x", c->c_v[0], c->c_v[1],
			     c->c_v[2]);
		break;
	case COLOUR_HSV:
	case COLOUR_HSL:
		if (c->c_kind == COLOUR_HSV)
			hsv_rgb(c->c_v, rgb);
		else
			hsl_rgb(c->c_v, rgb);
		w = snprintf(buf, len, "#%02x%02x%02x",
			     (unsigned)(rgb[0] * 255 + 0.5),
			     (unsigned)(rgb[1] * 255 + 0.5),
			     (unsigned)(rgb[2] * 255 + 0.5));
		break;
	default:
		return MAPS_EINVAL;
	}
	if (w < 0 || (size_t)w >= len) {
		if (len)
			buf[0] = '\0';
		return MAPS_EINVAL;
	}
	return 0;
}
