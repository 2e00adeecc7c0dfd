/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_flame: the HTML report's flame graph section (see html_i.h).
 *
 * The graph is the call tree (report/calltree.h: all processes' stacks
 * merged by function name, as --folded merges them) written as JSON for
 * report.js to draw: the names the kept frames use, then each kept frame
 * depth first as (name, samples, depth).  Frames under 1/FLAME_MIN_SHARE
 * of the samples are left out, so huge runs stay small.  For readers
 * without JavaScript a <noscript> table lists the tree's frames with at
 * least 1% of the samples, indented by depth.
 */
#include <inttypes.h>
#include <stdlib.h>

#include <mapsample/maps_error.h>

#include "report/out/html_i.h"
#include "report/shorten.h"

#define TREE_ROWS 400         /* rows of the static call tree */
#define FLAME_MIN_SHARE 20000 /* frames under 1/this of samples omitted */

struct flame_emit {
	FILE *out;
	uint32_t *remap;   /* name -> index in the page's names + 1 */
	uint32_t nnames;
	size_t nodes;
	int pass;          /* 0: collect names, 1: write nodes */
};

static int flame_visit(const struct calltree *t, uint32_t i, void *arg)
{
	struct flame_emit *e = arg;
	const struct calltree_node *f = &t->ct_nodes[i];
	if (e->pass == 0) {
		if (!e->remap[f->cn_name])
			e->remap[f->cn_name] = ++e->nnames;
		e->nodes++;
		return 0;
	}
	fprintf(e->out, "%s%u,%" PRIu64 ",%u", e->nodes++ ? "," : "",
		e->remap[f->cn_name] - 1, f->cn_value, f->cn_depth);
	if (e->nodes % 16 == 0)
		fputc('\n', e->out);
	return 0;
}

struct tree_rows {
	FILE *out;
	uint64_t total;
	size_t rows;
};

static int tree_row(const struct calltree *t, uint32_t i, void *arg)
{
	struct tree_rows *r = arg;
	if (r->rows++ >= TREE_ROWS)
		return 0;
	const struct calltree_node *f = &t->ct_nodes[i];
	unsigned ind = f->cn_depth < 60 ? f->cn_depth : 60;
	fprintf(r->out, "<tr><td class=\"f\" style=\"padding-left:%upx\">",
		ind * 12);
	htmlsafe_text(r->out, t->ct_names[f->cn_name]);
	fprintf(r->out, "</td><td class=\"n\">%" PRIu64 "</td>", f->cn_value);
	html_pct_cell(r->out, html_pct(f->cn_value, r->total));
	fputs("</tr>\n", r->out);
	return 0;
}

/* The call-tree table for readers without JavaScript. */
static int tree_table(FILE *out, const struct calltree *t, uint64_t total)
{
	fputs("<noscript><p class=\"note\">JavaScript is off: the call tree "
	      "instead (frames with at least 1% of samples).</p>\n"
	      "<table class=\"tree\">\n<thead><tr><th>Function</th>"
	      "<th class=\"n\">Samples</th><th class=\"n\">%</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	struct tree_rows tr = {out, total, 0};
	uint64_t pmin = (total + 99) / 100;
	int rc = calltree_walk(t, pmin ? pmin : 1, tree_row, &tr);
	if (rc)
		return rc;
	fputs("</tbody>\n</table>\n", out);
	if (tr.rows > TREE_ROWS)
		fprintf(out, "<p class=\"note\">%zu more rows not shown.</p>\n",
			tr.rows - TREE_ROWS);
	fputs("</noscript>\n", out);
	return 0;
}

int html_flame_names(const struct calltree *t, uint64_t min,
		     uint32_t **remap, uint32_t *nnames, size_t *nodes)
{
	struct flame_emit e = {NULL, calloc(t->ct_nnames ? t->ct_nnames : 1,
					    sizeof(uint32_t)),
			       0, 0, 0};
	int rc = e.remap ? calltree_walk(t, min, flame_visit, &e)
			 : MAPS_ENOMEM;
	if (rc) {
		free(e.remap);
		return rc;
	}
	*remap = e.remap;
	*nnames = e.nnames;
	if (nodes)
		*nodes = e.nodes;
	return 0;
}

/* The graph's data for report.js: the names of the frames of at least
 * min samples, then the frames; how many were kept into *kept. */
static int flame_data(FILE *out, const struct calltree *t, uint64_t total,
		      uint64_t min, size_t *kept, int full_names)
{
	struct flame_emit e = {out, NULL, 0, 0, 1};
	const char **page = NULL;
	int rc = html_flame_names(t, min, &e.remap, &e.nnames, kept);
	if (!rc && !(page = calloc(e.nnames ? e.nnames : 1, sizeof(*page))))
		rc = MAPS_ENOMEM;
	if (rc)
		goto out;
	for (size_t i = 0; i < t->ct_nnames; i++)
		if (e.remap[i])
			page[e.remap[i] - 1] = t->ct_names[i];
	fprintf(out, "<script type=\"application/json\" id=\"fg-data\">\n"
		     "{\"total\":%" PRIu64 ",\"names\":[",
		total);
	for (uint32_t i = 0; i < e.nnames; i++) {
		if (i)
			fputs(i % 8 ? "," : ",\n", out);
		htmlsafe_json(out, page[i]);
	}
	/* the frames' labels: the names shortened (report/shorten.h), the
	 * full ones in the tooltips */
	if (!full_names) {
		fputs("],\n\"short\":[", out);
		for (uint32_t i = 0; i < e.nnames; i++) {
			char buf[1024];
			if (i)
				fputs(i % 8 ? "," : ",\n", out);
			name_shorten(page[i], buf, sizeof(buf));
			htmlsafe_json(out, buf);
		}
	}
	fputs("],\n\"nodes\":[", out);
	rc = calltree_walk(t, min, flame_visit, &e);
	if (!rc)
		fputs("]}\n</script>\n", out);
out:
	free(page);
	free(e.remap);
	return rc;
}

uint64_t html_flame_min(const struct calltree *t)
{
	uint64_t min = t->ct_n ? t->ct_nodes[0].cn_value / FLAME_MIN_SHARE : 0;
	return min < 1 ? 1 : min;
}

int html_flame_section(FILE *out, const struct model *m,
		       const struct calltree *t, int full_names)
{
	fputs("<section id=\"flame\">\n<h2>Flame graph</h2>\n", out);
	if (!m->samples) {
		fputs("<p class=\"nodata\">No samples.</p>\n</section>\n", out);
		return 0;
	}
	uint64_t total = t->ct_nodes[0].cn_value;
	uint64_t min = html_flame_min(t);
	fputs("<p class=\"note\">All processes' stacks merged by function "
	      "name, callers above callees; a frame's width is its share of "
	      "samples. Click a frame to zoom in, again to zoom out; search "
	      "takes text or /regex/.</p>\n"
	      "<div id=\"fg-controls\" hidden><input id=\"fg-search\" "
	      "type=\"search\" placeholder=\"Search functions\" "
	      "aria-label=\"Search functions\"><button id=\"fg-reset\" "
	      "type=\"button\">Reset zoom</button><span id=\"fg-status\">"
	      "</span></div>\n<div id=\"fg-detail\"></div>\n"
	      "<div id=\"fg\" hidden></div>\n",
	      out);
	size_t kept = 0;
	int rc = tree_table(out, t, total);
	if (!rc)
		rc = flame_data(out, t, total, min, &kept, full_names);
	if (rc)
		return rc;
	if (kept < t->ct_n)
		fprintf(out, "<p class=\"note\">%zu of %zu frames, each under "
			     "1/%d of the samples, left out of the graph.</p>\n",
			t->ct_n - kept, t->ct_n, FLAME_MIN_SHARE);
	fputs("</section>\n", out);
	return 0;
}
