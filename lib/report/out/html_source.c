/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * html_source: the HTML report's data for the function view (see
 * html_i.h): per top function its samples per source line
 * (report/srclines.h, as mapreport --lines counts them) and its callers
 * and callees (report/butterfly.h, as --callers and --callees count
 * them), and the source of the hottest files, all as one JSON element
 * ("fn-data") that report.js shows when a function is clicked.
 *
 * Bounds, so a big run gives a page of bounded size: the functions are
 * the first HTML_FUNCS of the tables of top functions (by self, then by
 * total samples, as many as the tables show); each keeps at most
 * HTML_ROWS callers and callees and HTML_LINES sampled lines; the source
 * text is embedded for the hottest in->oi_html_sources files (by the self
 * samples of their lines; mapreport --html-sources), each at most
 * SOURCE_MAX bytes and all together at most SOURCES_MAX bytes.  A file
 * not embedded keeps its line table and the reason.  Every string is
 * written with htmlsafe_json().
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/butterfly.h"
#include "report/out/html_i.h"
#include "report/srclines.h"

#define HTML_FUNCS 30            /* functions with a view at most */
#define HTML_ROWS 25             /* callers, callees per function */
#define HTML_LINES 2000          /* sampled lines per function */
#define SOURCE_MAX (1u << 20)    /* bytes of one embedded file */
#define SOURCES_MAX (4u << 20)   /* bytes of all embedded files */

/* A source file named by the lines of the functions chosen. */
struct sfile {
	const char *name;        /* as the symbolizer gives it */
	const char *comp_dir;    /* of the first function that named it;
				  * owned (copied) */
	uint64_t self;           /* self samples of its lines, all
				  * functions */
};

struct fview {
	uint32_t func;
	struct srclines lines;
	struct butterfly bf;
};

struct sview {
	struct fview *fv;
	size_t nfv;
	struct sfile *files;
	size_t nfiles, capfiles;
};

static long file_id(struct sview *s, const char *name, const char *comp_dir)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].name, name))
			return (long)i;
	if (mem_grow(&s->files, &s->capfiles, s->nfiles, sizeof(*s->files)))
		return -1;
	struct sfile *f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->name = name;
	if (comp_dir && !(f->comp_dir = strdup(comp_dir)))
		return -1;
	return (long)s->nfiles++;
}

static int cmp_self_desc(const void *x, const void *y)
{
	const struct sfile *const *a = x, *const *b = y;
	if ((*a)->self != (*b)->self)
		return (*a)->self < (*b)->self ? 1 : -1;
	return strcmp((*a)->name, (*b)->name);
}

/* The functions with a view: the tables' rows, self first, no twice. */
static size_t pick_funcs(const struct analysis *a, unsigned top,
			 uint32_t *ids)
{
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		const uint32_t *ord = pass ? a->top_total : a->top_self;
		size_t nt = pass ? a->ntop_total : a->ntop_self;
		for (size_t i = 0; i < nt && i < top && n < HTML_FUNCS; i++) {
			size_t k = 0;
			while (k < n && ids[k] != ord[i])
				k++;
			if (k == n && a->funcs[ord[i]].total)
				ids[n++] = ord[i];
		}
	}
	return n;
}

static void write_rows(FILE *out, const struct analysis *a,
		       const struct butterfly_row *r, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n && i < HTML_ROWS; i++) {
		fputs(i ? ",[" : "[", out);
		htmlsafe_json(out, r[i].br_func == BUTTERFLY_ROOT
					   ? "(program start)"
					   : a->funcs[r[i].br_func].name);
		fprintf(out, ",%" PRIu64 "]", r[i].br_samples);
	}
	fputc(']', out);
	if (n > HTML_ROWS) {
		uint64_t rest = 0;
		for (size_t i = HTML_ROWS; i < n; i++)
			rest += r[i].br_samples;
		fprintf(out, ",%zu,%" PRIu64, n - HTML_ROWS, rest);
	} else {
		fputs(",0,0", out);
	}
}

/* One function's entry: name, module, samples, lines, callers, callees. */
static void write_func(FILE *out, const struct analysis *a,
		       const struct sview *s, const struct fview *v)
{
	const struct rfunc *f = &a->funcs[v->func];
	const struct srclines *r = &v->lines;
	fputs("{\"name\":", out);
	htmlsafe_json(out, f->name);
	fputs(",\"module\":", out);
	htmlsafe_json(out, f->module ? f->module : "");
	fprintf(out, ",\"self\":%" PRIu64 ",\"total\":%" PRIu64
		     ",\"code\":%" PRIu64 ",\"lines\":[",
		f->self, f->total, r->sf_self);
	/* [file, line, self, total, inlined-from or ""] */
	for (size_t i = 0; i < r->sf_nlines && i < HTML_LINES; i++) {
		const struct srcline *l = &r->sf_lines[i];
		long fi = -1;
		for (size_t k = 0; l->sl_file && k < s->nfiles; k++)
			if (!strcmp(s->files[k].name, l->sl_file))
				fi = (long)k;
		fprintf(out, "%s[%ld,%d,%" PRIu64 ",%" PRIu64 ",", i ? "," : "",
			fi, l->sl_line, l->sl_self, l->sl_total);
		htmlsafe_json(out, l->sl_inlined ? l->sl_inlined : "");
		fputc(']', out);
		if (i % 8 == 7)
			fputc('\n', out);
	}
	fprintf(out, "],\"more_lines\":%zu,\"callers\":[",
		r->sf_nlines > HTML_LINES ? r->sf_nlines - HTML_LINES : 0);
	write_rows(out, a, v->bf.bf_callers, v->bf.bf_ncallers);
	fputs("],\"callees\":[", out);
	write_rows(out, a, v->bf.bf_callees, v->bf.bf_ncallees);
	fputs("]}", out);
}

/* Reads up to max bytes of f; *len gets how many.  NULL when out of
 * memory. */
static char *slurp(FILE *f, size_t max, size_t *len, int *cut)
{
	char *buf = malloc(max + 1);
	if (!buf)
		return NULL;
	*len = fread(buf, 1, max, f);
	buf[*len] = 0;
	*cut = *len == max && fgetc(f) != EOF;
	return buf;
}

/* The file's entry: its name, the path read or the reason, its lines. */
static int write_file(FILE *out, const struct output_in *in,
		      const struct sfile *f, int embed, size_t *budget)
{
	fputs("{\"name\":", out);
	htmlsafe_json(out, f->name);
	if (!embed) {
		fputs(",\"why\":\"not among the hottest files whose source is "
		      "embedded (mapreport --html-sources)\"}",
		      out);
		return 0;
	}
	char path[4096], why[4096];
	FILE *sf = srclines_open(in->oi_srcpaths, f->comp_dir, f->name, path,
				 why, sizeof(path));
	if (!sf) {
		fputs(",\"why\":", out);
		htmlsafe_json(out, why);
		fputs("}", out);
		return 0;
	}
	size_t max = *budget < SOURCE_MAX ? *budget : SOURCE_MAX, len = 0;
	int cut = 0;
	char *buf = max ? slurp(sf, max, &len, &cut) : NULL;
	fclose(sf);
	if (max && !buf)
		return MAPS_ENOMEM;
	fputs(",\"path\":", out);
	htmlsafe_json(out, path);
	if (!max) {
		fputs(",\"why\":\"the embedded sources reached their size cap\"}",
		      out);
		return 0;
	}
	*budget -= len;
	if (cut)
		fprintf(out, ",\"cut\":%zu", len);
	fputs(",\"text\":[", out);
	char *p = buf;
	for (size_t k = 0; p < buf + len; k++) {
		char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (nl)
			*nl = 0;
		if (k)
			fputs(k % 16 ? "," : ",\n", out);
		htmlsafe_json(out, p);
		if (!nl)
			break;
		p = nl + 1;
	}
	fputs("]}", out);
	free(buf);
	return 0;
}

static void sview_free(struct sview *s)
{
	for (size_t i = 0; i < s->nfv; i++) {
		srclines_free(&s->fv[i].lines);
		butterfly_free(&s->fv[i].bf);
	}
	for (size_t i = 0; i < s->nfiles; i++)
		free((char *)s->files[i].comp_dir);
	free(s->fv);
	free(s->files);
}

int html_source_data(FILE *out, const struct output_in *in)
{
	const struct analysis *a = in->oi_analysis;
	const struct model *m = in->oi_model;
	struct sview s = {0};
	struct sfile **order = NULL;
	uint32_t ids[HTML_FUNCS];
	size_t n = m->samples ? pick_funcs(a, in->oi_top, ids) : 0;
	int rc = MAPS_ENOMEM;
	if (!(s.fv = calloc(n ? n : 1, sizeof(*s.fv))))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct fview *v = &s.fv[i];
		s.nfv = i + 1;
		v->func = ids[i];
		if ((rc = srclines_build(&v->lines, m, a, ids[i])) ||
		    (rc = butterfly_build(&v->bf, m, a, a->funcs[ids[i]].name)))
			goto out;
		for (size_t k = 0; k < v->lines.sf_nlines; k++) {
			const struct srcline *l = &v->lines.sf_lines[k];
			if (!l->sl_file)
				continue;
			long fi = file_id(&s, l->sl_file, v->lines.sf_comp_dir);
			if (fi < 0) {
				rc = MAPS_ENOMEM;
				goto out;
			}
			s.files[fi].self += l->sl_self;
		}
	}
	rc = MAPS_ENOMEM;
	if (!(order = calloc(s.nfiles ? s.nfiles : 1, sizeof(*order))))
		goto out;
	for (size_t i = 0; i < s.nfiles; i++)
		order[i] = &s.files[i];
	qsort(order, s.nfiles, sizeof(*order), cmp_self_desc);
	fprintf(out, "<script type=\"application/json\" id=\"fn-data\">\n"
		     "{\"samples\":%" PRIu64 ",\"funcs\":[",
		m->samples);
	for (size_t i = 0; i < s.nfv; i++) {
		if (i)
			fputs(",\n", out);
		write_func(out, a, &s, &s.fv[i]);
	}
	fputs("],\n\"files\":[", out);
	size_t budget = SOURCES_MAX;
	rc = 0;
	for (size_t i = 0; i < s.nfiles && !rc; i++) {
		const struct sfile *f = &s.files[i];
		size_t rank = 0;
		while (order[rank] != f)
			rank++;
		if (i)
			fputs(",\n", out);
		rc = write_file(out, in, f, rank < in->oi_html_sources,
				&budget);
	}
	if (!rc)
		fputs("]}\n</script>\n", out);
out:
	free(order);
	sview_free(&s);
	return rc;
}
