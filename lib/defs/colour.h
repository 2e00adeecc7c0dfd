/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * colour: every colour of the project is parsed and turned into CSS here.
 * Metric definitions (<display><colour>, mapsample-metrics(5)) take #hex,
 * the SVG 1.1 colour keywords and Arm MAP's palette names; partial
 * reports (reference section 3.5) and the HTML report's sanitiser (<font
 * color>) take #hex, the keywords and rgb()/hsv()/hsl().  One keyword
 * table, one parser, one conversion to CSS.
 *
 * A parsed colour is part of the metric definition model (metricdef.h,
 * m_colour_value) and of a partial report's (partial.h, pc_parsed).
 * Nothing here allocates; nothing is async-signal-safe.
 */
#ifndef MAPSAMPLE_DEFS_COLOUR_H
#define MAPSAMPLE_DEFS_COLOUR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A parsed colour (colour_parse()). */
enum colour_kind {
	COLOUR_NONE = 0,  /* absent or not understood */
	COLOUR_HEX,       /* #RGB ... #RRRRGGGGBBBB: c_rgb16 */
	COLOUR_NAME,      /* SVG 1.1 keyword: c_name, lower case */
	COLOUR_PALETTE,   /* Arm MAP "SpecialLineN": c_index = N */
	COLOUR_RGB,       /* rgb(R, G, B), 0-255: c_v */
	COLOUR_HSV,       /* hsv(H, S, V): c_v */
	COLOUR_HSL,       /* hsl(H, S, L): c_v */
};

struct colour {
	enum colour_kind c_kind;
	uint16_t c_rgb16[3];   /* HEX: red, green, blue scaled to 0-65535 */
	uint8_t c_rgb8[3];     /* HEX: the same scaled to 0-255 */
	const char *c_name;    /* NAME: the keyword (static string) */
	unsigned c_index;      /* PALETTE */
	unsigned c_v[3];       /* RGB, HSV, HSL: the three numbers */
};

/* Flags of colour_parse(): which forms beyond #hex and SVG names are
 * accepted. */
#define COLOUR_PALETTE_OK   0x1u  /* Arm MAP SpecialLineN */
#define COLOUR_FUNCTIONS_OK 0x2u  /* rgb(), hsv(), hsl() (the partial-report
				     forms of reference section 3.5) */

/*
 * Parses a colour: #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB (hex digits of
 * either case) or an SVG 1.1 colour keyword (any case), and with flags the
 * forms COLOUR_PALETTE_OK and COLOUR_FUNCTIONS_OK add:
 * SpecialLineN (N up to 3 digits), rgb(R, G, B) (0-255), hsv(H, S, V)
 * and hsl(H, S, L) (H 0-359, the others 0-100), numbers of up to 3
 * digits, white space allowed around each part and before the
 * parenthesis, the function name in any case.  Surrounding white space
 * is ignored.  Returns 0 and fills *out, or MAPS_EINVAL (out->c_kind =
 * COLOUR_NONE when out is given).
 */
int colour_parse(const char *s, unsigned flags, struct colour *out);

/*
 * Writes the CSS of c into buf (len bytes): "#rrggbb" (hex colours scaled
 * to 8 bits a channel with rounding; hsv() and hsl() converted) or the
 * lower-case keyword, which CSS knows under the same name.  Returns 0, or
 * MAPS_EINVAL when c has no CSS form (NONE, PALETTE) or len is too small
 * (buf is then "" when len > 0).
 */
int colour_css(const struct colour *c, char *buf, size_t len);

/* The SVG 1.1 colour keywords, lower case, sorted, NULL-ended, and how
 * many there are (147). */
extern const char *const metricdef_svg_colours[];
extern const size_t metricdef_nsvg_colours;

#ifdef __cplusplus
}
#endif
#endif /* MAPSAMPLE_DEFS_COLOUR_H */
