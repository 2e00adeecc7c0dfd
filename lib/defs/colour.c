/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * colour.c: the colours of metric definitions (<display><colour>) and of
 * partial reports: #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, the SVG 1.1
 * colour keywords, and on request Arm MAP's palette names (SpecialLineN)
 * and the rgb()/hsv()/hsl() forms of the reference's section 3.5.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mapsample/maps_error.h>

#include "defs/metricdef.h"

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
static int parse_hex(const char *s, size_t n, struct metricdef_colour *c)
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
	c->c_kind = METRICDEF_COLOUR_HEX;
	return 0;
}

/* Parses "(a, b, c)" with a <= max0, b and c <= max12: s points at what
 * follows the function name; white space is allowed around every part. */
static int parse_triple(const char *s, unsigned max0, unsigned max12,
			unsigned v[3])
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s++ != '(')
		return -1;
	for (int i = 0; i < 3; i++) {
		unsigned long x = 0;
		int digits = 0;
		while (isspace((unsigned char)*s))
			s++;
		while (*s >= '0' && *s <= '9') {
			x = x * 10 + (unsigned long)(*s++ - '0');
			if (++digits > 3)
				return -1;
		}
		if (!digits || x > (i ? max12 : max0))
			return -1;
		v[i] = (unsigned)x;
		while (isspace((unsigned char)*s))
			s++;
		if (*s++ != (i < 2 ? ',' : ')'))
			return -1;
	}
	while (isspace((unsigned char)*s))
		s++;
	return *s ? -1 : 0;
}

int metricdef_colour_parse(const char *s, unsigned flags,
			   struct metricdef_colour *out)
{
	struct metricdef_colour c;
	char name[32];
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
	if (!n)
		return MAPS_EINVAL;

	if (s[0] == '#') {
		if (parse_hex(s + 1, n - 1, &c))
			return MAPS_EINVAL;
		*out = c;
		return 0;
	}
	if (n < sizeof(name)) {
		const char *const *hit;
		for (size_t i = 0; i < n; i++)
			name[i] = (char)tolower((unsigned char)s[i]);
		name[n] = '\0';
		hit = bsearch(name, metricdef_svg_colours,
			      metricdef_nsvg_colours,
			      sizeof(metricdef_svg_colours[0]), by_name);
		if (hit) {
			c.c_kind = METRICDEF_COLOUR_NAME;
			c.c_name = *hit;
			*out = c;
			return 0;
		}
	}
	if ((flags & METRICDEF_COLOUR_PALETTE_OK) && n > 11 && n <= 14 &&
	    !strncmp(s, "SpecialLine", 11)) {
		unsigned long v = 0;
		for (size_t i = 11; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return MAPS_EINVAL;
			v = v * 10 + (unsigned long)(s[i] - '0');
		}
		c.c_kind = METRICDEF_COLOUR_PALETTE;
		c.c_index = (unsigned)v;
		*out = c;
		return 0;
	}
	if (flags & METRICDEF_COLOUR_FUNCTIONS_OK) {
		static const struct {
			const char *fn;
			enum metricdef_colour_kind kind;
			unsigned max0, max12;
		} fns[] = {
			{"rgb", METRICDEF_COLOUR_RGB, 255, 255},
			{"hsv", METRICDEF_COLOUR_HSV, 359, 100},
			{"hsl", METRICDEF_COLOUR_HSL, 359, 100},
		};
		/* parse_triple() reads to the NUL: work on a trimmed copy */
		char *t = strndup(s, n);
		int rc = -1;
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < 3 && rc; i++) {
			if (strncasecmp(t, fns[i].fn, 3))
				continue;
			rc = parse_triple(t + 3, fns[i].max0, fns[i].max12,
					  c.c_v);
			if (!rc)
				c.c_kind = fns[i].kind;
		}
		free(t);
		if (!rc) {
			*out = c;
			return 0;
		}
	}
	return MAPS_EINVAL;
}
