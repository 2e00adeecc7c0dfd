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
 * in->oi_html_source_max bytes and all together at most
 * in->oi_html_sources_max bytes (--html-source-max, --html-sources-max;
 * 0 takes the defaults of output.h).  A file cut at its cap says so
 * ("cut": the bytes kept); a file not embedded keeps its line table and
 * the reason.  Every string is
 * written with htmlsafe_json().
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/keymap.h"
#include "report/butterfly.h"
#include "report/out/html_i.h"
#include "report/shorten.h"
#include "report/srclines.h"

#define HTML_FUNCS 30            /* functions with a view at most */
#define HTML_ROWS 25             /* callers, callees per function */
#define HTML_LINES 2000          /* sampled lines per function */
#define HTML_LINE_FRAMES 50000   /* (line, frame) pairs per function */

/* A source file named by the lines of the functions chosen. */
struct sfile {
	const char *name;        /* as the symbolizer gives it */
	const char *comp_dir;    /* of the first function that named it;
				  * owned (copied) */
	uint64_t self;           /* self samples of its lines, all
				  * functions */
};

/* A line's samples from the stacks ending in one flame-graph frame. */
struct lframe {
	uint32_t line, frame;    /* sl_id; page frame (html_narrow_slots) */
	uint64_t self, total;
};

struct fview {
	uint32_t func;
	struct srclines lines;
	struct butterfly bf;
	struct lframe *lf;       /* its lines' samples per frame */
	size_t nlf, caplf;
	struct keymap lkeys;     /* (line, frame) -> lf index */
	int lf_err;              /* out of memory while counting them */
};

/* srclines_build_each's callback: the samples of stack slot si on a
 * line, added to the line's count for the frame where the stack ends. */
struct lf_ctx {
	struct fview *v;
	const struct model *m;
	const int32_t *slot_page;
};

static void lf_count(void *arg, size_t si, uint32_t line, int total, int self)
{
	struct lf_ctx *c = arg;
	struct fview *v = c->v;
	int32_t frame = c->slot_page[si];
	if (frame < 0 || v->lf_err)
		return;
	int added;
	long i = keymap_add(&v->lkeys, line, (uint32_t)frame, 0, &v->lf,
			    &v->nlf, &v->caplf, sizeof(*v->lf), &added);
	if (i < 0) {
		v->lf_err = 1;
		return;
	}
	if (added)
		v->lf[i] = (struct lframe){line, (uint32_t)frame, 0, 0};
	uint64_t n = c->m->stacks[si].count;
	if (total)
		v->lf[i].total += n;
	if (self)
		v->lf[i].self += n;
}

struct sview {
	struct fview *fv;
	size_t nfv;
	struct sfile *files;
	size_t nfiles, capfiles;
	int full_names;          /* mapreport --full-names: no short names */
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

/* pre, then name's short form (report/shorten.h) as a JSON string,
 * when it differs from name and short names are wanted. */
static void write_short(FILE *out, const struct sview *s, const char *pre,
			const char *name)
{
	char buf[1024];
	if (s->full_names)
		return;
	name_shorten(name, buf, sizeof(buf));
	if (!strcmp(buf, name))
		return;
	fputs(pre, out);
	htmlsafe_json(out, buf);
}

/* The rows of callers or callees: [name, samples] or, when the name is
 * shortened, [name, samples, short name]. */
static void write_rows(FILE *out, const struct analysis *a,
		       const struct sview *s, const struct butterfly_row *r,
		       size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n && i < HTML_ROWS; i++) {
		const char *name = r[i].br_func == BUTTERFLY_ROOT
					   ? "(program start)"
					   : a->funcs[r[i].br_func].name;
		fputs(i ? ",[" : "[", out);
		htmlsafe_json(out, name);
		fprintf(out, ",%" PRIu64, r[i].br_samples);
		write_short(out, s, ",", name);
		fputc(']', out);
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
	write_short(out, s, ",\"short\":", f->name);
	fputs(",\"module\":", out);
	htmlsafe_json(out, f->module ? f->module : "");
	fprintf(out, ",\"self\":%" PRIu64 ",\"total\":%" PRIu64
		     ",\"code\":%" PRIu64 ",\"lines\":[",
		f->self, f->total, r->sf_self);
	/* [file, line, self, total, inlined-from or ""], and the short
	 * name of the function inlined there when it differs */
	for (size_t i = 0; i < r->sf_nlines && i < HTML_LINES; i++) {
		const struct srcline *l = &r->sf_lines[i];
		long fi = -1;
		for (size_t k = 0; l->sl_file && k < s->nfiles; k++)
			if (!strcmp(s->files[k].name, l->sl_file))
				fi = (long)k;
		fprintf(out, "%s[%ld,%d,%" PRIu64 ",%" PRIu64 ",", i ? "," : "",
			fi, l->sl_line, l->sl_self, l->sl_total);
		htmlsafe_json(out, l->sl_inlined ? l->sl_inlined : "");
		if (l->sl_inlined)
			write_short(out, s, ",", l->sl_inlined);
		fputc(']', out);
		if (i % 8 == 7)
			fputc('\n', out);
	}
	/* the lines' samples per frame where the stacks end, as
	 * [line, frame, self, total], for report.js to narrow them; null
	 * when there are too many */
	uint32_t *pos = NULL;
	if (!v->lf_err && v->nlf <= HTML_LINE_FRAMES && r->sf_nlines)
		pos = malloc(r->sf_nlines * sizeof(*pos));
	fputs("],\"lf\":", out);
	if (!pos) {
		fputs("null", out);
	} else {
		for (size_t i = 0; i < r->sf_nlines; i++)
			pos[r->sf_lines[i].sl_id] = (uint32_t)i;
		fputc('[', out);
		size_t w = 0;
		for (size_t i = 0; i < v->nlf; i++) {
			const struct lframe *x = &v->lf[i];
			if (x->line >= r->sf_nlines || pos[x->line] >= HTML_LINES)
				continue;
			fprintf(out, "%s%u,%u,%" PRIu64 ",%" PRIu64,
				w ? (w % 8 ? "," : ",\n") : "", pos[x->line],
				x->frame, x->self, x->total);
			w++;
		}
		fputc(']', out);
		free(pos);
	}
	fprintf(out, ",\"more_lines\":%zu,\"callers\":[",
		r->sf_nlines > HTML_LINES ? r->sf_nlines - HTML_LINES : 0);
	write_rows(out, a, s, v->bf.bf_callers, v->bf.bf_ncallers);
	fputs("],\"callees\":[", out);
	write_rows(out, a, s, v->bf.bf_callees, v->bf.bf_ncallees);
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
	size_t one = in->oi_html_source_max ? in->oi_html_source_max
					    : OUTPUT_HTML_SOURCE_MAX;
	size_t max = *budget < one ? *budget : one, len = 0;
	int cut = 0;
	char *buf = max ? slurp(sf, max, &len, &cut) : NULL;
	fclose(sf);
	if (max && !buf)
		return MAPS_ENOMEM;
	fputs(",\"path\":", out);
	htmlsafe_json(out, path);
	if (!max) {
		fputs(",\"why\":\"the embedded sources reached their size cap "
		      "(mapreport --html-sources-max)\"}",
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
		free(s->fv[i].lf);
		keymap_free(&s->fv[i].lkeys);
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
	struct sview s = {.full_names = in->oi_full_names};
	struct sfile **order = NULL;
	uint32_t ids[HTML_FUNCS];
	size_t n = m->samples ? pick_funcs(a, in->oi_top, ids) : 0;
	int32_t *sp = NULL;
	int rc = MAPS_ENOMEM;
	if (!(s.fv = calloc(n ? n : 1, sizeof(*s.fv))) ||
	    !(sp = malloc((m->capstacks ? m->capstacks : 1) * sizeof(*sp))))
		goto out;
	for (size_t i = 0; i < m->capstacks; i++)
		sp[i] = -1;
	if (in->oi_calltree &&
	    (rc = html_narrow_slots(in, html_flame_min(in->oi_calltree), sp)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct fview *v = &s.fv[i];
		struct lf_ctx lc = {v, m, sp};
		s.nfv = i + 1;
		v->func = ids[i];
		if ((rc = srclines_build_each(&v->lines, m, a, ids[i],
					      lf_count, &lc)) ||
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
	size_t budget = in->oi_html_sources_max ? in->oi_html_sources_max
						: OUTPUT_HTML_SOURCES_MAX;
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
	free(sp);
	free(order);
	sview_free(&s);
	return rc;
}
