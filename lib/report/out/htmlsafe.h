/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htmlsafe: strings from logs, binaries and XML files made safe to put in
 * an HTML page.
 *
 *   htmlsafe_text()      escapes text for an element's content or a quoted
 *                        attribute value (& < > " ' become references)
 *   htmlsafe_json()      writes a JSON string literal that is also safe
 *                        inside a <script> element (< > & " as \u003c ...)
 *   htmlsafe_sanitize()  keeps the HTML subset partial reports may use in
 *                        <text> (the plugin interface reference, section
 *                        3.7): whitelisted elements and attributes only,
 *                        URLs and inline styles checked, everything else
 *                        dropped or escaped; the result is well-formed
 *
 * Bytes that are not UTF-8 become U+FFFD and control characters other
 * than tab and newline become spaces, so the output is valid UTF-8.
 */
#ifndef MAPSAMPLE_REPORT_HTMLSAFE_H
#define MAPSAMPLE_REPORT_HTMLSAFE_H

#include <stddef.h>
#include <stdio.h>

/* Writes s (NULL: nothing) escaped for HTML text or a quoted attribute
 * value to out. */
void htmlsafe_text(FILE *out, const char *s);

/* Writes s (NULL: empty) as a double-quoted JSON string literal that can
 * stand inside <script> (no "<", ">", "&", '"', U+2028 or U+2029
 * unescaped). */
void htmlsafe_json(FILE *out, const char *s);

/*
 * Returns a malloc'd copy of the HTML fragment in that keeps only the
 * whitelisted elements and attributes, or NULL when out of memory.
 *
 * Elements kept: h1-h6 p div span br hr a b i u s em strong small big sub
 * sup code pre tt kbd samp var cite q blockquote abbr font ol ul li dl dt
 * dd table caption thead tbody tfoot tr th td img.  Attributes kept: title,
 * lang, dir, align, style (declarations of whitelisted properties whose
 * values hold no url(), expression(), escapes or other functions than
 * rgb/rgba/hsl/hsla), a href (http, https, mailto, relative or #fragment;
 * given rel="noopener noreferrer"), img src (relative only: a report
 * loads nothing from the network), alt, width, height, font color (a
 * colour of defs/colour.h with its rgb()/hsv()/hsl() forms, written as
 * "#rrggbb" or a keyword) and size, ol start and type, li value, th/td
 * colspan, rowspan, valign.
 * URLs are checked after character references are decoded and ASCII
 * whitespace and control characters removed, so "java&#115;cript:",
 * " JaVa\tScRiPt:" and the like are caught; javascript:, vbscript:,
 * data: and every other scheme are dropped.  The contents of script,
 * style, iframe, object, embed, template, textarea, title, noscript,
 * xmp, svg and math elements are dropped with them; other unknown tags
 * are dropped and their text kept.  Comments, doctypes and processing
 * instructions are dropped.  Unmatched end tags are dropped and open
 * elements closed at the end (and when an enclosing one closes), so the
 * fragment cannot close or open anything around it.  The text of XML
 * CDATA sections is kept (escaped).
 */
char *htmlsafe_sanitize(const char *in);

#endif
