/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/report/out/htmlsafe (escaping, JSON in <script>, the
 * partial-report HTML sanitiser; its colours are lib/defs' and tested in
 * test_metricdef) and of the HTML report as a
 * whole on a log whose every string is an attack: command line, host,
 * executable and mapping paths (so function names), thread names, metric
 * ids, names and units, plugin and metric errors, marks, and partial
 * report headings, names and <text>.
 */
#include <check.h>
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/mapwrite.h"
#include "report/analyze.h"
#include "report/calltree.h"
#include "report/out/html.h"
#include "report/out/htmlsafe.h"
#include "model/model.h"
#include "report/partial_eval.h"

/* ---- helpers ---- */

static char *text_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	htmlsafe_text(f, s);
	fclose(f);
	return buf;
}

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	htmlsafe_json(f, s);
	fclose(f);
	return buf;
}

static int has(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static int has_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ---- htmlsafe_text, htmlsafe_json ---- */

START_TEST(html_text_escapes)
{
	char *s = text_of("<script>alert(1)</script>");
	ck_assert_str_eq(s, "&lt;script&gt;alert(1)&lt;/script&gt;");
	free(s);
	s = text_of("a\"onmouseover=alert(1) x='y' & z");
	ck_assert_str_eq(s, "a&quot;onmouseover=alert(1) x=&#39;y&#39; &amp; z");
	free(s);
	/* control characters become spaces; tab and newline stay */
	s = text_of("a\x01" "b\x1b" "c\td\ne\x7f");
	ck_assert_str_eq(s, "a b c\td\ne ");
	free(s);
	/* bytes that are not UTF-8 become U+FFFD; UTF-8 stays */
	s = text_of("\xff" "x\xc3\xa9" "\xed\xa0\x80" "\xc0\xaf");
	ck_assert_str_eq(s, "\xef\xbf\xbdx\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = text_of(NULL);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(html_json_in_script)
{
	char *s = json_of("</script><script>alert(1)</script>");
	ck_assert_str_eq(s, "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"
			    "\\u003c/script\\u003e\"");
	ck_assert(!has(s, "<"));
	free(s);
	s = json_of("a\"b\\c\nd\te\x01 <!-- &amp;");
	ck_assert_str_eq(s, "\"a\\u0022b\\\\c\\nd\\te\\u0001 \\u003c!-- \\u0026amp;\"");
	free(s);
	/* U+2028 and U+2029 end lines in older JavaScript */
	s = json_of("x\xe2\x80\xa8y\xe2\x80\xa9z");
	ck_assert_str_eq(s, "\"x\\u2028y\\u2029z\"");
	free(s);
	s = json_of("\xff");
	ck_assert_str_eq(s, "\"\\ufffd\"");
	free(s);
	s = json_of(NULL);
	ck_assert_str_eq(s, "\"\"");
	free(s);
}
END_TEST

/* ---- the sanitiser ---- */

static void san_is(const char *in, const char *want)
{
	char *s = htmlsafe_sanitize(in);
	ck_assert_ptr_nonnull(s);
	if (strcmp(s, want))
		ck_abort_msg("sanitize(%s)\n  gave %s\n  want %s", in, s, want);
	free(s);
}

START_TEST(html_sanitize_keeps_subset)
{
	san_is("Section one:", "Section one:");
	san_is("<p>Time in <b>MPI</b> and <i>I/O</i></p>",
	       "<p>Time in <b>MPI</b> and <i>I/O</i></p>");
	san_is("<H2 Title=\"x\">Head</H2>", "<h2 title=\"x\">Head</h2>");
	san_is("<ul><li>one<li>two</ul>",
	       "<ul><li>one<li>two</li></li></ul>");
	san_is("<ol start=\"3\" type=\"i\"><li value=\"7\">x</li></ol>",
	       "<ol start=\"3\" type=\"i\"><li value=\"7\">x</li></ol>");
	san_is("a<br>b<br/>c<hr />", "a<br>b<br>c<hr>");
	san_is("<span style=\"color: red; font-weight:bold\">x</span>",
	       "<span style=\"color: red; font-weight: bold;\">x</span>");
	san_is("<div align=center>x</div>", "<div align=\"center\">x</div>");
	san_is("<a href=\"https://example.com/a?b=1&amp;c=2\">doc</a>",
	       "<a href=\"https://example.com/a?b=1&amp;c=2\" "
	       "rel=\"noopener noreferrer\">doc</a>");
	san_is("<a href=\"#top\">up</a>",
	       "<a href=\"#top\" rel=\"noopener noreferrer\">up</a>");
	san_is("<a href=mailto:a@b.c>m</a>",
	       "<a href=\"mailto:a@b.c\" rel=\"noopener noreferrer\">m</a>");
	san_is("<img src=\"logo.png\" alt=\"Logo\" width=\"20\">",
	       "<img src=\"logo.png\" alt=\"Logo\" width=\"20\">");
	san_is("<font color=\"hsl(23, 83, 59)\">c</font>",
	       "<font color=\"#ed8240\">c</font>");
	san_is("<table><tr><td colspan=2>x</td></tr></table>",
	       "<table><tr><td colspan=\"2\">x</td></tr></table>");
	/* references: kept or decoded, never raw markup */
	san_is("a &lt;b&gt; &amp; c &copy; &#60;x&#x3E; & d",
	       "a &lt;b&gt; &amp; c &copy; &lt;x&gt; &amp; d");
	san_is("1 < 2 > 0", "1 &lt; 2 &gt; 0");
	san_is("<![CDATA[<b>x</b> & y]]>z", "&lt;b&gt;x&lt;/b&gt; &amp; yz");
	san_is("a<!-- <script>alert(1)</script> -->b", "ab");
	san_is("<?php echo 1 ?>x<!DOCTYPE html>", "x");
}
END_TEST

START_TEST(html_sanitize_drops_scripts)
{
	san_is("<script>alert(1)</script>ok", "ok");
	san_is("<SCRIPT SRC=//evil.example/x.js></SCRIPT>ok", "ok");
	san_is("<script>document.write('</scr'+'ipt>')</script>ok", "ok");
	/* a tag named "scr<script": dropped, its text is text */
	san_is("<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)");
	san_is("<script/xss>alert(1)</script>ok", "ok");
	san_is("<<script>alert(1);//<</script>ok", "&lt;ok");
	san_is("<style>body{background:url(javascript:x)}</style>ok", "ok");
	san_is("<iframe src=\"javascript:alert(1)\"></iframe>ok", "ok");
	san_is("<svg><script>alert(1)</script></svg>ok", "ok");
	san_is("<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>ok",
	       "ok");
	san_is("<object data=\"x.swf\"><object></object></object>ok", "ok");
	/* noscript content is text up to </noscript>, as for a browser
	 * with scripts on: the img is a tag of its own, checked as such */
	san_is("<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">"
	       "</noscript>ok", "<img src=\"x\">&quot;&gt;ok");
	san_is("<textarea><script>alert(1)</script></textarea>ok", "ok");
	/* unterminated: everything after is dropped */
	san_is("ok<script>alert(1)", "ok");
	/* unknown elements: tag dropped, text kept */
	san_is("<blink>x</blink><form action=y><input value=z></form>", "x");
	san_is("<meta http-equiv=refresh content=0;url=javascript:alert(1)>x",
	       "x");
	san_is("<base href=\"//evil.example/\">x", "x");
	san_is("<link rel=stylesheet href=http://evil.example/x.css>x", "x");
}
END_TEST

START_TEST(html_sanitize_drops_handlers)
{
	san_is("<b onmouseover=\"alert(1)\">x</b>", "<b>x</b>");
	san_is("<img src=x onerror=alert(1)>", "<img src=\"x\">");
	san_is("<p ONCLICK='alert(1)' title=t>x</p>", "<p title=\"t\">x</p>");
	san_is("<a href=\"#\"onmouseover=alert(1)>x</a>",
	       "<a href=\"#\" rel=\"noopener noreferrer\">x</a>");
	san_is("<div/onload=alert(1)>x</div>", "<div>x</div>");
	san_is("<b \"onmouseover=alert(1)\">x</b>", "<b>x</b>");
	san_is("<span title=\"a\" title=\"b\">x</span>",
	       "<span title=\"a\">x</span>");
	/* a quote in a value stays inside the value */
	san_is("<span title='\" onmouseover=\"alert(1)'>x</span>",
	       "<span title=\"&quot; onmouseover=&quot;alert(1)\">x</span>");
	/* an attribute with no closing quote makes the tag text */
	san_is("<b title=\"x>y", "&lt;b title=&quot;x&gt;y");
}
END_TEST

START_TEST(html_sanitize_urls)
{
	static const char *const bad[] = {
		"javascript:alert(1)",
		"JaVaScRiPt:alert(1)",
		" javascript:alert(1)",
		"java\tscript:alert(1)",
		"java&#9;script:alert(1)",
		"java&#x09;script:alert(1)",
		"java&NewLine;script:alert(1)",
		"&#106;avascript:alert(1)",
		"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114"
		"&#0000105&#0000112&#0000116&#0000058alert(1)",
		"&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;"
		"&#x3A;alert(1)",
		"javascript&colon;alert(1)",
		"\x01javascript:alert(1)",
		"vbscript:msgbox(1)",
		"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
		"DATA:image/svg+xml,<svg onload=alert(1)>",
		"//evil.example/x",
		"\\\\evil.example\\x",
		"file:///etc/passwd",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char in[512];
		snprintf(in, sizeof(in), "<a href=\"%s\">x</a>", bad[i]);
		char *s = htmlsafe_sanitize(in);
		ck_assert_ptr_nonnull(s);
		ck_assert_msg(!strcmp(s, "<a>x</a>"), "href kept for %s: %s",
			      bad[i], s);
		free(s);
		snprintf(in, sizeof(in), "<img src=\"%s\" alt=y>", bad[i]);
		s = htmlsafe_sanitize(in);
		ck_assert_ptr_nonnull(s);
		ck_assert_msg(!strcmp(s, ""), "img kept for %s: %s", bad[i], s);
		free(s);
	}
	/* images come from nowhere else either */
	san_is("<img src=\"https://example.com/a.png\">", "");
	san_is("<img src=\"http://example.com/a.png\" alt=a>", "");
}
END_TEST

START_TEST(html_sanitize_styles)
{
	san_is("<p style=\"width: expression(alert(1))\">x</p>", "<p>x</p>");
	san_is("<p style=\"color: red; width: exp/**/ression(alert(1))\">x</p>",
	       "<p>x</p>");
	san_is("<p style=\"background-color: url(javascript:alert(1))\">x</p>",
	       "<p>x</p>");
	san_is("<p style=\"color: red; background: url(x.png)\">x</p>",
	       "<p style=\"color: red;\">x</p>");
	san_is("<p style=\"behavior: url(x.htc); color: blue\">x</p>",
	       "<p style=\"color: blue;\">x</p>");
	san_is("<p style=\"-moz-binding: url(x.xml#y)\">x</p>", "<p>x</p>");
	san_is("<p style=\"color: \\72\\65\\64\">x</p>", "<p>x</p>");
	san_is("<p style=\"position: fixed; top: 0\">x</p>", "<p>x</p>");
	san_is("<p style=\"color: rgb(1, 2, 3); margin: 0 4px\">x</p>",
	       "<p style=\"color: rgb(1, 2, 3); margin: 0 4px;\">x</p>");
	san_is("<p style=\"color: &#x65;xpression(alert(1))\">x</p>",
	       "<p>x</p>");
	san_is("<p style=\"color: calc(1px)\">x</p>", "<p>x</p>");
	san_is("<p style='color: red\" onclick=\"alert(1)'>x</p>", "<p>x</p>");
}
END_TEST

START_TEST(html_sanitize_structure)
{
	/* end tags of elements that are not open cannot close the page's */
	san_is("</div></section></main><b>x", "<b>x</b>");
	san_is("<b><i>x</b>y</i>", "<b><i>x</i></b>y");
	san_is("<div><p>x</div></p>", "<div><p>x</p></div>");
	san_is("<table><tr><td>x", "<table><tr><td>x</td></tr></table>");
	/* deep nesting is cut, text kept */
	char deep[64 * 5 + 64 * 6 + 8] = "";
	for (int i = 0; i < 70; i++)
		strcat(deep, "<b>");
	strcat(deep, "x");
	char *s = htmlsafe_sanitize(deep);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(count(s, "<b>"), 64);
	ck_assert_int_eq(count(s, "</b>"), 64);
	free(s);
	/* garbage: never a raw '<' that is not one of the kept tags */
	static const char *const junk[] = {
		"<", "<<", "< b>", "<b", "<b title=", "<1>", "</", "</ b>",
		"<!--", "<![CDATA[x", "&", "&#", "&#x;", "&#99999999999;",
		"&#0;", "<p title=\"&#xD800;\">", "<a\x01href=x>y</a>",
	};
	for (size_t i = 0; i < sizeof(junk) / sizeof(*junk); i++) {
		s = htmlsafe_sanitize(junk[i]);
		ck_assert_ptr_nonnull(s);
		for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<'))
			ck_assert_msg(!strncmp(p, "<p", 2) || !strncmp(p, "</p", 3) ||
					      !strncmp(p, "<a", 2) ||
					      !strncmp(p, "</a", 3),
				      "%s gave %s", junk[i], s);
		free(s);
	}
	san_is("&#0;&#xD800;&#99999999999;", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	san_is(NULL, "");
}
END_TEST

/* Every tag of s is a kept element with kept attributes, href and src
 * have no scheme but http, https and mailto, styles no url() or
 * expression(): what a page may hold, whatever the input was. */
static void check_safe(const char *in, const char *s)
{
	static const char *const el[] = {
		"h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "span", "br",
		"hr", "a", "b", "i", "u", "s", "em", "strong", "small", "big",
		"sub", "sup", "code", "pre", "tt", "kbd", "samp", "var", "cite",
		"q", "blockquote", "abbr", "font", "ol", "ul", "li", "dl", "dt",
		"dd", "table", "caption", "thead", "tbody", "tfoot", "tr", "th",
		"td", "img", NULL,
	};
	static const char *const at[] = {
		"title", "lang", "dir", "align", "style", "href", "rel", "src",
		"alt", "width", "height", "color", "size", "start", "type",
		"value", "colspan", "rowspan", "valign", "border",
		"cellpadding", "cellspacing", NULL,
	};
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		const char *q = p + 1;
		if (*q == '/')
			q++;
		size_t n = 0;
		while (isalnum((unsigned char)q[n]))
			n++;
		int ok = 0;
		for (int k = 0; el[k] && !ok; k++)
			ok = strlen(el[k]) == n && !strncmp(el[k], q, n);
		ck_assert_msg(ok, "%s: tag %.20s in %s", in, p, s);
		const char *end = strchr(q, '>');
		ck_assert_msg(end != NULL, "%s: unclosed tag in %s", in, s);
		q += n;
		while (q < end) {
			while (*q == ' ')
				q++;
			if (q >= end)
				break;
			size_t an = strcspn(q, "=> ");
			ok = 0;
			for (int k = 0; at[k] && !ok; k++)
				ok = strlen(at[k]) == an && !strncmp(at[k], q, an);
			ck_assert_msg(ok, "%s: attribute %.20s in %s", in, q, s);
			ck_assert_msg(q[an] == '=' && q[an + 1] == '"',
				      "%s: unquoted in %s", in, s);
			const char *v = q + an + 2, *ve = strchr(v, '"');
			ck_assert_ptr_nonnull(ve);
			char val[512];
			size_t vn = (size_t)(ve - v) < sizeof(val) - 1
					    ? (size_t)(ve - v)
					    : sizeof(val) - 1;
			memcpy(val, v, vn);
			val[vn] = 0;
			ck_assert_msg(!strchr(val, '<') && !strchr(val, '>'),
				      "%s: raw markup in value %s", in, val);
			if ((an == 4 && !strncmp(q, "href", 4)) ||
			    (an == 3 && !strncmp(q, "src", 3))) {
				size_t sch = strcspn(val, ":/?#");
				ck_assert_msg(val[sch] != ':' ||
						      !strncmp(val, "http:", 5) ||
						      !strncmp(val, "https:", 6) ||
						      !strncmp(val, "mailto:", 7),
					      "%s: URL %s", in, val);
				ck_assert_msg(strncmp(val, "//", 2), "%s: %s", in,
					      val);
			}
			if (an == 5 && !strncmp(q, "style", 5))
				ck_assert_msg(!has_ci(val, "url") &&
						      !has_ci(val, "expression"),
					      "%s: style %s", in, val);
			q = ve + 1;
		}
	}
}

START_TEST(html_sanitize_fuzzish)
{
	/* pieces of attacks glued in every order: the output is safe */
	static const char *const parts[] = {
		"<script>", "</script>", "<img src=x onerror=alert(1)>",
		"<a href=\"jav&#x09;ascript:alert(1)\">", "<b", "\"", "'",
		"onmouseover=alert(1)", ">", "<!--", "-->", "<svg/onload=x>",
		"<p style=\"x:expression(1)\">", "&#60;script&#62;", "</a>",
		"<![CDATA[", "]]>", "<style>", "<a href=data:x>", "<div>",
		"</div>", "<iframe>", "=", " ", "<a href=\"", "javascript:",
	};
	size_t np = sizeof(parts) / sizeof(*parts);
	unsigned long long x = 88172645463325252ull;
	for (int round = 0; round < 4000; round++) {
		char in[512] = "";
		int k = 1 + round % 9;
		for (int i = 0; i < k; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			strcat(in, parts[x % np]);
		}
		char *s = htmlsafe_sanitize(in);
		ck_assert_ptr_nonnull(s);
		check_safe(in, s);
		free(s);
	}
}
END_TEST

/* ---- the whole page on a hostile log ---- */

#define EVIL_EXE "/x/<script>alert(1)<!--"
#define EVIL_LIB "/nonexistent/<img src=x onerror=alert(4)>.so"

struct wlog {
	FILE *f;
	uint8_t mem[65536];
	struct mapw_chunk c;
};

static void chunk_begin(struct wlog *w, uint32_t pid, uint32_t tid,
			uint64_t ts)
{
	memset(w->mem, 0, sizeof(w->mem));
	struct mapw_chunk_id id = {pid, tid, 0, 0};
	ck_assert_int_eq(mapw_chunk_open(&w->c, w->mem, sizeof(w->mem), &id,
					 ts, NULL),
			 0);
}

static void chunk_end(struct wlog *w)
{
	mapw_chunk_trim(&w->c);
	mapw_chunk_seal(&w->c);
	ck_assert_uint_eq(fwrite(w->mem, 1, w->c.cap, w->f), w->c.cap);
}

static void event(struct wlog *w, struct maplog_ev *ev)
{
	ck_assert_int_eq(mapw_event(&w->c, ev), 0);
	memset(ev, 0, sizeof(*ev));
}

static void write_evil_log(const char *path)
{
	struct wlog *w = calloc(1, sizeof(*w));
	ck_assert_ptr_nonnull(w);
	w->f = fopen(path, "wb");
	ck_assert_ptr_nonnull(w->f);
	uint8_t hdr[64];
	mapw_file_header(hdr, sizeof(hdr));
	fwrite(hdr, 1, sizeof(hdr), w->f);
	const uint64_t t0 = 5000000000ull;
	const uint32_t pid = 321;

	chunk_begin(w, pid, 0, t0);
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	static const char *const argv[] = {
		EVIL_EXE, "</script><script>alert(2)</script>",
		"\"onmouseover=alert(3) x=\"", NULL,
	};
	ev.ev_type = MAPLOG_TYPE_INITIALIZE;
	ev.ev_ts = t0;
	ev.ev_u.init.in_version_major = MAPLOG_VERSION_MAJOR;
	ev.ev_u.init.in_clock = MAPLOG_CLOCK_CPU;
	ev.ev_u.init.in_rate_asked = 1000;
	ev.ev_u.init.in_period_ns = 1000000;
	ev.ev_u.init.in_pid = pid;
	ev.ev_u.init.in_argc = 3;
	ev.ev_u.init.in_argv = argv;
	ev.ev_u.init.in_host = "<b onmouseover=alert(12)>host</b>";
	ev.ev_u.init.in_exe = EVIL_EXE;
	event(w, &ev);
	ev.ev_type = MAPLOG_TYPE_MAP_IN;
	ev.ev_ts = t0;
	ev.ev_u.map_in.mi_start = 0x400000;
	ev.ev_u.map_in.mi_end = 0x500000;
	ev.ev_u.map_in.mi_bias = 0x400000;
	ev.ev_u.map_in.mi_flags = MAPLOG_MAP_MAIN;
	ev.ev_u.map_in.mi_path = EVIL_LIB;
	event(w, &ev);
	ev.ev_type = MAPLOG_TYPE_METRIC_DEF;
	ev.ev_ts = t0;
	ev.ev_u.mdef.md_index = 0;
	ev.ev_u.mdef.md_datatype = MAPLOG_DT_DOUBLE;
	ev.ev_u.mdef.md_id = "x.\"><script>alert(5)</script>";
	ev.ev_u.mdef.md_name = "<script>alert(6)</script>";
	ev.ev_u.mdef.md_units = "\"onmouseover=alert(7)";
	ev.ev_u.mdef.md_plugin = "libevil.so";
	event(w, &ev);
	ev.ev_type = MAPLOG_TYPE_PLUGIN_ERROR;
	ev.ev_ts = t0;
	ev.ev_u.perr.pe_plugin = "<iframe src=javascript:alert(8)>";
	ev.ev_u.perr.pe_message = "</script><script>alert(9)</script>";
	event(w, &ev);
	for (int i = 0; i < 20; i++) {
		ev.ev_type = MAPLOG_TYPE_METRIC_VALUE;
		ev.ev_ts = t0 + (uint64_t)i * 50000000;
		ev.ev_u.mval.mv_index = 0;
		ev.ev_u.mval.mv_kind = MAPLOG_VALUE_DOUBLE;
		ev.ev_u.mval.mv_v.dbl = 10.0 + i;
		event(w, &ev);
	}
	ev.ev_type = MAPLOG_TYPE_METRIC_ERROR;
	ev.ev_ts = t0 + 1;
	ev.ev_u.merr.me_index = 0;
	ev.ev_u.merr.me_count = 1;
	ev.ev_u.merr.me_message = "<img src=x onerror=alert(10)>";
	event(w, &ev);
	ev.ev_type = MAPLOG_TYPE_MARK;
	ev.ev_ts = t0 + 300000000;
	ev.ev_u.mark.mk_tid = pid;
	ev.ev_u.mark.mk_text = "<script>alert(11)</script>";
	event(w, &ev);
	chunk_end(w);

	chunk_begin(w, pid, pid, t0);
	ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
	ev.ev_ts = t0;
	ev.ev_u.tbegin.tb_tid = pid;
	ev.ev_u.tbegin.tb_name = "<svg onload=alert(13)>";
	event(w, &ev);
	for (int i = 0; i < 200; i++) {
		uint64_t pc[3] = {0x401000 + (uint64_t)(i % 7) * 16, 0x402000,
				  0x403000};
		ck_assert_int_eq(mapw_sample(&w->c, t0 + (uint64_t)i * 5000000,
					     pid, 1000000, 3, pc),
				 0);
	}
	chunk_end(w);
	fclose(w->f);
	free(w);
}

/* The page for the log at path, with partial reports r. */
static char *page_of(const char *path, const struct partial_result *r)
{
	struct model m;
	model_init(&m);
	m.timeline_on = 1;
	ck_assert_int_ge(model_load(&m, path, NULL, NULL), 0);
	struct analysis a;
	ck_assert_int_eq(analysis_run(&a, &m), 0);
	ck_assert_int_eq(analysis_rank(&a), 0);
	struct calltree t;
	ck_assert_int_eq(calltree_build(&t, &m, &a), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	struct output_in in = {&m, &a, &t, r, NULL, NULL, 0, 20, "test"};
	/* the log again for the narrowing data, which holds the threads'
	 * names */
	in.oi_logs = &path;
	in.oi_nlogs = 1;
	in.oi_html_sources = 10;
	ck_assert_int_eq(html_emit(&in, f), 0);
	fclose(f);
	calltree_free(&t);
	analysis_free(&a);
	model_free(&m);
	return buf;
}

static void check_no_injection(const char *page)
{
	/* the page's own scripts (the JSON data of the flame graph, the
	 * function view, the narrowing, the metrics per process and per
	 * time bin, the Ranks rows and partial reports of a selection
	 * when it has them, and the code), no other */
	static const char *const own[] = {"msel-data", "nr-data", "ms-data",
					  "fn-data", "fg-data", "rk-data",
					  "psel-data", "st-data", NULL};
	int n = 1; /* the code */
	for (size_t i = 0; own[i]; i++) {
		char tag[80];
		snprintf(tag, sizeof(tag),
			 "<script type=\"application/json\" id=\"%s\">", own[i]);
		n += count(page, tag);
	}
	ck_assert_int_eq(count(page, "<script"), n);
	ck_assert_int_eq(count(page, "</script"), n);
	ck_assert_int_ge(n, 6);
	ck_assert(has(page, "<script type=\"application/json\" id=\"msel-data\">"));
	ck_assert(has(page, "<script type=\"application/json\" id=\"nr-data\">"));
	ck_assert(has(page, "<script type=\"application/json\" id=\"ms-data\">"));
	ck_assert(has(page, "<script type=\"application/json\" id=\"fn-data\">"));
	static const char *const never[] = {
		"<script>alert", "<img src=x", "<svg onload", "<iframe",
		"\"onmouseover", "'onmouseover", "<b onmouseover", "<!--",
		"</script><script>", NULL,
	};
	for (int i = 0; never[i]; i++)
		ck_assert_msg(!has(page, never[i]), "page holds %s", never[i]);
	/* every tag outside the scripts: no event handler attribute, every
	 * value quoted (so text from the log cannot add attributes) */
	for (const char *p = strchr(page, '<'); p; p = strchr(p + 1, '<')) {
		if (!strncmp(p, "<script", 7)) {
			p = strstr(p, "</script>");
			ck_assert_ptr_nonnull(p);
			continue;
		}
		const char *q = p + 1, *end = strchr(q, '>');
		ck_assert_ptr_nonnull(end);
		while (q < end && !isspace((unsigned char)*q))
			q++;
		while (q < end) {
			while (q < end && (isspace((unsigned char)*q) || *q == '/'))
				q++;
			if (q >= end)
				break;
			size_t an = strcspn(q, "= />");
			ck_assert_msg(strncasecmp(q, "on", 2),
				      "handler attribute %.30s", q);
			q += an;
			int url = (an == 4 && !strncmp(q - an, "href", 4)) ||
				  (an == 3 && !strncmp(q - an, "src", 3));
			if (*q == '=') {
				ck_assert_msg(q[1] == '"', "unquoted %.30s", q);
				const char *v = q + 2;
				q = strchr(v, '"');
				ck_assert_ptr_nonnull(q);
				if (url)
					ck_assert_msg(strncasecmp(v, "javascript", 10) &&
							      strncasecmp(v, "data", 4) &&
							      strncmp(v, "//", 2),
						      "URL %.30s", v);
				q++;
				end = strchr(q, '>');
				ck_assert_ptr_nonnull(end);
			}
		}
	}
	/* the JSON data holds no '<' at all */
	const char *d = strstr(page, "id=\"fg-data\">");
	ck_assert_ptr_nonnull(d);
	const char *e = strstr(d, "</script>");
	ck_assert_ptr_nonnull(e);
	for (const char *p = d + 13; p < e; p++)
		ck_assert_msg(*p != '<', "'<' in the flame graph data");
	/* the evil names are there, escaped */
	ck_assert(has(page, "&lt;script&gt;alert(6)&lt;/script&gt;"));
	ck_assert(has(page, "&lt;img src=x onerror=alert(4)&gt;.so"));
	ck_assert(has(page, "&quot;onmouseover=alert(7)"));
	ck_assert(has(page, "&lt;/script&gt;&lt;script&gt;alert(9)"));
	ck_assert(has(page, "&lt;svg onload=alert(13)&gt;"));
	ck_assert(has(page, "&lt;script&gt;alert(11)&lt;/script&gt;"));
	ck_assert(has(page, "\\u003cimg src=x onerror=alert(4)\\u003e.so"));
	ck_assert(has(page, "\\u003cscript\\u003ealert(1)\\u003c!--"));
}

START_TEST(html_page_escapes_log_strings)
{
	char path[] = "/tmp/test_html_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_evil_log(path);
	char *page = page_of(path, NULL);
	check_no_injection(page);
	/* what the page must have */
	ck_assert(has(page, "id=\"summary\""));
	ck_assert(has(page, "<figure class=\"chart\""));
	ck_assert(has(page, "id=\"fg-data\""));
	ck_assert(has(page, "Content-Security-Policy"));
	ck_assert(!has(page, "id=\"partial\""));
	free(page);
	unlink(path);
}
END_TEST

START_TEST(html_page_partial_reports)
{
	char path[] = "/tmp/test_html_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_evil_log(path);
	struct partial_entry en[3];
	memset(en, 0, sizeof(en));
	en[0].en_id = "com.example.a";
	en[0].en_name = "<script>alert(20)</script>";
	en[0].en_group = "g\"><script>alert(21)</script>";
	strcpy(en[0].en_colour.pc_css, "#ff0000");
	en[0].en_state = PARTIAL_VALUE;
	en[0].en_value = 2;
	strcpy(en[0].en_scaled, "2.00 <b>");
	en[0].en_bar = 1;
	en[1].en_id = "com.example.b";
	en[1].en_name = "B";
	en[1].en_group = "g";
	strcpy(en[1].en_colour.pc_css, "red;background:url(x)");
	en[1].en_state = PARTIAL_VALUE;
	en[1].en_value = 1;
	strcpy(en[1].en_scaled, "1.00");
	en[1].en_bar = 0.5;
	en[2].en_id = "com.example.c";
	en[2].en_name = "C";
	en[2].en_state = PARTIAL_NOT_RECORDED;
	strcpy(en[2].en_scaled, "not recorded in this run");
	en[2].en_bar = -1;
	struct partial_subsection ss = {0};
	ss.ss_id = "s1\"onmouseover=alert(22)";
	ss.ss_heading = "<img src=x onerror=alert(23)>Heading";
	strcpy(ss.ss_colour.pc_css, "steelblue");
	ss.ss_text = "<p>Intro <b>bold</b><script>alert(24)</script>"
		     "<a href=\"JaVa&#x09;ScRiPt:alert(25)\" "
		     "onclick=\"alert(26)\">link</a></p></div></section>"
		     "<style>*{x:expression(alert(27))}</style>";
	ss.ss_entries = en;
	ss.ss_nentries = 3;
	struct partial_report pr = {"com.example.<script>", "/r/<b>.xml", &ss, 1};
	struct partial_result r = {0};
	r.rs_reports = &pr;
	r.rs_nreports = 1;
	char *page = page_of(path, &r);
	check_no_injection(page);
	ck_assert(has(page, "id=\"partial\""));
	ck_assert(has(page, "<a href=\"#partial\">"));
	ck_assert(has(page, "<div class=\"ptext\"><p>Intro <b>bold</b><a>link"
			    "</a></p></div>"));
	ck_assert(has(page, "&lt;script&gt;alert(20)&lt;/script&gt;"));
	ck_assert(has(page, "&lt;img src=x onerror=alert(23)&gt;Heading"));
	ck_assert(has(page, "style=\"color:steelblue\""));
	ck_assert(has(page, "width:100.0%;background:#ff0000"));
	/* a colour that is not one is not used */
	ck_assert(!has(page, "url(x)"));
	ck_assert(has(page, "width:50.0%;background:#2f6fb2"));
	ck_assert(has(page, "not recorded in this run"));
	ck_assert(!has(page, "alert(24)"));
	ck_assert(!has(page, "alert(26)"));
	ck_assert(!has(page, "alert(27)"));
	free(page);
	unlink(path);
}
END_TEST

static Suite *html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, html_text_escapes);
	tcase_add_test(tc, html_json_in_script);
	tcase_add_test(tc, html_sanitize_keeps_subset);
	tcase_add_test(tc, html_sanitize_drops_scripts);
	tcase_add_test(tc, html_sanitize_drops_handlers);
	tcase_add_test(tc, html_sanitize_urls);
	tcase_add_test(tc, html_sanitize_styles);
	tcase_add_test(tc, html_sanitize_structure);
	tcase_add_test(tc, html_sanitize_fuzzish);
	tcase_add_test(tc, html_page_escapes_log_strings);
	tcase_add_test(tc, html_page_partial_reports);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(html_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
