/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_html: mapreport --compare --html FILE (see compare_out.h): one
 * self-contained page, without JavaScript: the two sides, the rules with
 * their verdicts, and a differential flame graph
 * (report/compare_flame.h) drawn with positioned boxes: a frame's width
 * is its share of NEW's samples, its colour the change of that share
 * from BASE (red: more, blue: less, grey: no change; the strongest
 * change in the graph is the strongest colour); each frame's title gives
 * the figures; then the metrics both sides recorded, BASE's and NEW's
 * lines over time in one chart each (compare_chart.c).  The page loads nothing (its Content-Security-Policy
 * allows only its own styles).
 */
#include <math.h>
#include <stdio.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"
#include "report/out/htmlsafe.h"

#define ROW_PX 18

static const char style[] =
	"body{font:14px sans-serif;margin:1em 2em;color:#222}"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	"padding:2px 6px;text-align:left}.broken{color:#b00;font-weight:bold}"
	".fg{position:relative;border:1px solid #ccc;overflow:hidden}"
	".f{position:absolute;height:17px;overflow:hidden;white-space:nowrap;"
	"font:11px monospace;line-height:17px;box-sizing:border-box;"
	"border-right:1px solid #fff;padding-left:2px}"
	".mc{margin:0 0 1em 0}.mc svg{font:11px sans-serif}"
	".base{stroke:#1f5fbf;stroke-width:1.5}.new{stroke:#d62728;"
	"stroke-width:1.5}.kb{color:#1f5fbf;font-weight:bold}"
	".kn{color:#d62728;font-weight:bold}";

/* The colour of a change of d (share) when the largest is max. */
static void colour(FILE *out, double d, double max)
{
	double t = max > 0 ? d / max : 0;
	if (t > 1)
		t = 1;
	if (t < -1)
		t = -1;
	/* grey (225) for no change, to full red or blue */
	double a = fabs(t), grey = 225 * (1 - a), hue = 225 + 30 * a;
	if (t >= 0)
		fprintf(out, "rgb(%d,%d,%d)", (int)hue, (int)grey, (int)grey);
	else
		fprintf(out, "rgb(%d,%d,%d)", (int)grey, (int)grey, (int)hue);
}

static void flame(FILE *out, const struct cmp_flame *f)
{
	double max = 0;
	for (size_t i = 0; i < f->n; i++) {
		double d = fabs(f->cf[i].cf_w - f->cf[i].cf_base);
		if (d > max)
			max = d;
	}
	fprintf(out, "<h2>Differential flame graph</h2>\n<p>Width: share of "
		     "NEW's samples. Colour: change from BASE (red: more, "
		     "blue: less; the strongest: %+.2f percentage points). "
		     "Hover a frame for its figures.</p>\n",
		100 * max);
	fprintf(out, "<div class=\"fg\" id=\"diff-flame\" "
		     "style=\"height:%upx\">\n",
		(unsigned)(f->depth + 1) * ROW_PX);
	for (size_t i = 0; i < f->n; i++) {
		const struct cmp_frame *fr = &f->cf[i];
		double d = fr->cf_w - fr->cf_base;
		fprintf(out, "<div class=\"f\" data-new=\"%.6f\" "
			     "data-base=\"%.6f\" style=\"left:%.4f%%;"
			     "width:%.4f%%;top:%upx;background:",
			fr->cf_w, fr->cf_base, 100 * fr->cf_x, 100 * fr->cf_w,
			(unsigned)(f->depth - fr->cf_depth) * ROW_PX);
		colour(out, d, max);
		fprintf(out, "\" title=\"");
		htmlsafe_text(out, fr->cf_name);
		fprintf(out, ": NEW %.2f%%, BASE %.2f%%, %+.2fpp\">",
			100 * fr->cf_w, 100 * fr->cf_base, 100 * d);
		htmlsafe_text(out, fr->cf_name);
		fprintf(out, "</div>\n");
	}
	fprintf(out, "</div>\n");
}

static void side(FILE *out, const char *label, const struct cmp_side *s)
{
	fprintf(out, "<p><b>%s</b>: ", label);
	compare_fmt_side(out, s, htmlsafe_text, "<code>", "</code>");
	fputs("</p>\n", out);
}

int compare_html_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	const struct comparison *c = oc->oc_cmp;
	char buf[1024];
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		     "<meta charset=\"utf-8\">\n<meta http-equiv=\""
		     "Content-Security-Policy\" content=\"default-src 'none'; "
		     "style-src 'unsafe-inline'\">\n<title>mapsample "
		     "comparison</title>\n<style>%s</style>\n</head>\n<body>\n"
		     "<h1>mapsample comparison</h1>\n",
		style);
	side(out, "BASE", &c->base);
	side(out, "NEW", &c->new);
	for (size_t k = 0; k < c->nnotes; k++) {
		fprintf(out, "<p>Note: ");
		htmlsafe_text(out, c->notes[k]);
		fprintf(out, "</p>\n");
	}
	if (oc->oc_nresults) {
		fprintf(out, "<h2>Rules: %zu of %zu broken</h2>\n<table>\n"
			     "<tr><th>Rule</th><th>Verdict</th></tr>\n",
			oc->oc_broken, oc->oc_nresults);
		for (size_t i = 0; i < oc->oc_nresults; i++) {
			const struct rule_result *res = &oc->oc_results[i];
			fprintf(out, "<tr><td><code>");
			htmlsafe_text(out, res->rr_rule->ru_text);
			fprintf(out, "</code></td><td%s>",
				res->rr_verdict == RULE_BROKEN
					? " class=\"broken\""
					: "");
			htmlsafe_text(out, compare_fmt_result(res, buf,
							      sizeof(buf)));
			fprintf(out, "</td></tr>\n");
		}
		fprintf(out, "</table>\n");
	}
	if (oc->oc_flame)
		flame(out, oc->oc_flame);
	const struct model *mb = NULL, *mn = NULL;
	for (size_t i = 0; oc->oc_models && i < oc->oc_nbase && !mb; i++)
		mb = oc->oc_models[i];
	for (size_t i = 0; oc->oc_models && i < oc->oc_nnew && !mn; i++)
		mn = oc->oc_models[oc->oc_nbase + i];
	if (mb && mn) {
		int rc = compare_chart_section(out, mb, mn);
		if (rc == MAPS_ENOMEM)
			return rc;
	}
	fprintf(out, "<footer><p>Written by ");
	htmlsafe_text(out, in->oi_generator);
	fprintf(out, ".</p></footer>\n</body>\n</html>\n");
	return ferror(out) ? MAPS_EIO : 0;
}
