/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_lines: the text report's source view (mapreport --lines; see
 * text_calls.h and report/srclines.h).  Per function, a title with the
 * samples of its code, then per source file its sampled lines with the
 * code next to them: self and total samples and seconds, a '*' on the
 * hottest lines (a tenth or more of the function's samples), two lines
 * of context around sampled ones and "..." for longer gaps.  A file that
 * cannot be found gets the reason and the line table alone.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/butterfly.h"
#include "report/out/text_calls.h"
#include "report/out/text_disasm.h"
#include "report/shorten.h"
#include "report/srclines.h"

#define LINES_TOP 5   /* functions shown without a name */
#define CONTEXT 2     /* lines shown around a sampled one */
#define MAX_SOURCE (64u << 20) /* bytes of a source file read at most */

/* A source file's lines: text[i] is line i + 1, without its newline. */
struct source {
	char *buf;
	char **text;
	size_t n, cap;
};

/* Reads f into s.  0 or MAPS_ENOMEM. */
static int source_read(struct source *s, FILE *f)
{
	size_t len = 0, cap = 0;
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0 &&
	       len < MAX_SOURCE) {
		if (mem_reserve(&s->buf, &cap, len + got + 1, 1, 65536))
			return MAPS_ENOMEM;
		memcpy(s->buf + len, chunk, got);
		len += got;
	}
	if (!s->buf)
		return 0;
	s->buf[len] = 0;
	for (char *p = s->buf; p < s->buf + len;) {
		if (mem_grow(&s->text, &s->cap, s->n, sizeof(*s->text)))
			return MAPS_ENOMEM;
		s->text[s->n++] = p;
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	return 0;
}

static void source_free(struct source *s)
{
	free(s->buf);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

/* One row: mark, self, total (samples and seconds), line, code, and
 * the function inlined there (its short name unless full). */
static void row(FILE *out, const struct srclines *r, const struct srcline *l,
		int line, const char *code, int full)
{
	if (!l) { /* context: code alone */
		fprintf(out, "   %8s %8s %8s %8s %6d  %s\n", "", "", "", "",
			line, code ? code : "");
		return;
	}
	int hot = r->sf_self && l->sl_self * 10 >= r->sf_self;
	fprintf(out, " %c %8" PRIu64 " %8.3f %8" PRIu64 " %8.3f ",
		hot ? '*' : ' ', l->sl_self, (double)l->sl_self_ns / 1e9,
		l->sl_total, (double)l->sl_total_ns / 1e9);
	if (line)
		fprintf(out, "%6d", line);
	else
		fprintf(out, "%6s", "?");
	fprintf(out, "  %s", code ? code : "");
	if (l->sl_inlined) {
		char buf[NAME_DISPLAY_WIDTH + 1];
		fprintf(out, "%s[inlined %s]", code && *code ? "  " : "",
			name_display(l->sl_inlined, full, buf, sizeof(buf)));
	}
	fputc('\n', out);
}

/* Prints the code of lines from .. to of s (those it has), after
 * "..." when they do not follow the last shown; *shown becomes to. */
static void context(FILE *out, const struct source *s, int from, int to,
		    int *shown)
{
	if (from <= *shown)
		from = *shown + 1;
	if (from > to)
		return;
	if (*shown && from > *shown + 1)
		fprintf(out, "   %8s %8s %8s %8s %6s\n", "", "", "", "", "...");
	for (int k = from; k <= to && (size_t)k <= s->n; k++)
		row(out, NULL, NULL, k, s->text[k - 1], 1);
	*shown = to;
}

/* The lines l[0..n) of one file (sorted by line), with its code from s
 * (NULL: the line table alone); full: inlined functions' whole names. */
static void file_rows(FILE *out, const struct srclines *r,
		      const struct srcline *l, size_t n,
		      const struct source *s, int full)
{
	int shown = 0; /* the last line whose code was shown */
	for (size_t i = 0; i < n; i++) {
		int ln = l[i].sl_line;
		if (!s || ln <= 0) {
			row(out, r, &l[i], ln, NULL, full);
			continue;
		}
		const char *code = NULL;
		if (ln > shown) {
			context(out, s, ln - CONTEXT, ln - 1, &shown);
			code = (size_t)ln <= s->n ? s->text[ln - 1] : "";
			shown = ln;
		}
		row(out, r, &l[i], ln, code, full);
		int next = i + 1 < n ? l[i + 1].sl_line : 0;
		if (next != ln)
			context(out, s, ln + 1,
				next > ln && next - 1 < ln + CONTEXT
					? next - 1
					: ln + CONTEXT,
				&shown);
	}
}

/* The source view of r (function f).  0 or MAPS_ENOMEM. */
static int one_function(FILE *out, const struct output_in *in,
			const struct srclines *r, const struct rfunc *f)
{
	char buf[NAME_DISPLAY_WIDTH + 1];
	fprintf(out, "\nSource lines of %s (%s): %" PRIu64 " samples, %.3f s "
		     "running its code (inlined code included); total %" PRIu64
		     " samples\n",
		name_display(f->name, in->oi_full_names, buf, sizeof(buf)),
		f->module, r->sf_self, (double)r->sf_self_ns / 1e9,
		f->total);
	for (size_t i = 0; i < r->sf_nlines;) {
		const char *file = r->sf_lines[i].sl_file;
		size_t j = i;
		while (j < r->sf_nlines && r->sf_lines[j].sl_file == file)
			j++;
		struct source src = {0};
		char path[4096], why[4096];
		FILE *sf = NULL;
		if (!file) {
			fprintf(out, "  (no line information: no DWARF line "
				     "table for this code, or its file cannot "
				     "be read)\n");
		} else if (!(sf = srclines_open(in->oi_srcpaths, r->sf_comp_dir, file, path,
						why, sizeof(path)))) {
			fprintf(out, "  %s\n  (source not shown: %s; give "
				     "--source-dir or --source-map)\n",
				file, why);
		} else {
			int rc = source_read(&src, sf);
			fclose(sf);
			if (rc) {
				source_free(&src);
				return rc;
			}
			fprintf(out, "  %s\n", path);
		}
		fprintf(out, "   %8s %8s %8s %8s %6s  %s\n", "SELF", "SELF-S",
			"TOTAL", "TOTAL-S", "LINE", sf ? "SOURCE" : "");
		file_rows(out, r, r->sf_lines + i, j - i, sf ? &src : NULL,
			  in->oi_full_names);
		source_free(&src);
		i = j;
	}
	if (in->oi_disasm)
		return text_disasm(in, out, r->sf_func);
	return 0;
}

int text_lines(const struct output_in *in, FILE *out)
{
	const struct analysis *a = in->oi_analysis;
	uint32_t *ids = malloc((a->nfuncs ? a->nfuncs : 1) * sizeof(*ids));
	uint8_t *is_t = NULL;
	size_t n = 0;
	int rc = MAPS_ENOMEM;
	if (!ids)
		goto out;
	if (in->oi_lines_func) {
		if (!(is_t = calloc(a->nfuncs + 1, 1)))
			goto out;
		butterfly_match(a, in->oi_lines_func, is_t);
		for (size_t i = 0; i < a->nfuncs; i++)
			if (is_t[i] && a->funcs[i].total)
				ids[n++] = (uint32_t)i;
		if (!n)
			fprintf(out, "\nSource lines of %s: no function of that "
				     "name has samples; give a name as the "
				     "tables of functions show it\n",
				in->oi_lines_func);
	} else {
		for (size_t i = 0; i < a->ntop_self && n < LINES_TOP; i++)
			ids[n++] = a->top_self[i];
	}
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct srclines r;
		if ((rc = srclines_build(&r, in->oi_model, a, ids[i])))
			break;
		rc = one_function(out, in, &r, &a->funcs[ids[i]]);
		srclines_free(&r);
	}
out:
	free(ids);
	free(is_t);
	return rc;
}
