/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial_text.c: the text report's partial-report sections, after the
 * metrics table: per report its name and file, per subsection its
 * heading, its <text> as plain text (tags stripped, wrapped), and one
 * line per entry with the value scaled to its units and, for entries of
 * a group, a bar of '#' scaled to the group's largest value.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/text.h"

#define WRAP 76
#define NAME_MAX_COLS 48

/* Columns s takes on a terminal: UTF-8 characters, not bytes. */
static size_t cols(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s as plain text on one line (tags stripped), malloc'd; NULL when out
 * of memory. */
static char *one_line(const char *s)
{
	char *t = partial_plain_text(s ? s : "");
	if (!t)
		return NULL;
	for (char *p = t; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return t;
}

/* Prints text wrapped at WRAP columns, each line after indent spaces. */
static void put_wrapped(FILE *out, const char *text, int indent)
{
	const char *line = text;
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		size_t width = WRAP - (size_t)indent;
		while (len) {
			size_t take = len, c = 0, brk = 0;
			/* the longest prefix of at most width columns that
			 * ends before a space */
			for (size_t i = 0; i < len; i++) {
				if (((unsigned char)line[i] & 0xc0) != 0x80)
					c++;
				if (c > width) {
					take = brk ? brk : i;
					break;
				}
				if (line[i] == ' ')
					brk = i;
			}
			if (!take)
				take = len;
			fprintf(out, "%*s%.*s\n", indent, "", (int)take, line);
			line += take;
			len -= take;
			while (len && *line == ' ') {
				line++;
				len--;
			}
		}
		line = nl ? nl + 1 : line + len;
	}
}

/* One subsection: heading, text, entries.  0 or MAPS_ENOMEM. */
static int put_subsection(FILE *out, const struct partial_subsection *ss)
{
	char *h = one_line(ss->ss_heading);
	if (!h)
		return MAPS_ENOMEM;
	fprintf(out, "  %s\n", h);
	free(h);
	if (ss->ss_text) {
		char *t = partial_plain_text(ss->ss_text);
		if (!t)
			return MAPS_ENOMEM;
		put_wrapped(out, t, 4);
		free(t);
	}
	size_t wn = 0, wv = 0;
	char **names = calloc(ss->ss_nentries + 1, sizeof(*names));
	if (!names)
		return MAPS_ENOMEM;
	int rc = 0;
	for (size_t k = 0; k < ss->ss_nentries && !rc; k++) {
		const struct partial_entry *en = &ss->ss_entries[k];
		if (!(names[k] = one_line(en->en_name))) {
			rc = MAPS_ENOMEM;
			break;
		}
		size_t c = cols(names[k]);
		if (c > wn)
			wn = c > NAME_MAX_COLS ? NAME_MAX_COLS : c;
		if (en->en_state == PARTIAL_VALUE && strlen(en->en_scaled) > wv)
			wv = strlen(en->en_scaled);
	}
	for (size_t k = 0; k < ss->ss_nentries && !rc; k++) {
		const struct partial_entry *en = &ss->ss_entries[k];
		size_t c = cols(names[k]);
		fprintf(out, "    %s%*s  ", names[k],
			c < wn ? (int)(wn - c) : 0, "");
		if (en->en_state != PARTIAL_VALUE) {
			fprintf(out, "%s\n", en->en_scaled);
			continue;
		}
		if (en->en_bar < 0) {
			fprintf(out, "%*s\n", (int)wv, en->en_scaled);
			continue;
		}
		int n = (int)lround(en->en_bar * PARTIAL_BAR_WIDTH);
		if (n < 1 && en->en_bar > 0)
			n = 1;
		fprintf(out, "%*s%s", (int)wv, en->en_scaled, n ? "  " : "");
		for (int i = 0; i < n; i++)
			fputc('#', out);
		fputc('\n', out);
	}
	for (size_t k = 0; k < ss->ss_nentries; k++)
		free(names[k]);
	free(names);
	return rc;
}

int text_partial(const struct partial_result *r, FILE *out)
{
	if (!r || !r->rs_nreports)
		return 0;
	if (r->rs_nbins) {
		char w[UNITS_BUFSZ];
		units_format(w, sizeof(w), (double)r->rs_bin_ns, "ns");
		fprintf(out, "\nPartial reports: %u time bin%s of %s\n"
			     "  (sampleValue combines the processes in each "
			     "bin, aggregation the bins)\n",
			r->rs_nbins, r->rs_nbins == 1 ? "" : "s", w);
	} else {
		fprintf(out, "\nPartial reports: the logs hold no metric "
			     "values\n");
	}
	for (size_t i = 0; i < r->rs_nreports; i++) {
		const struct partial_report *pr = &r->rs_reports[i];
		fputc('\n', out);
		text_put_clean(out, pr->pr_name);
		fputs(" (", out);
		text_put_clean(out, pr->pr_file);
		fputs(")\n", out);
		for (size_t j = 0; j < pr->pr_nsubsections; j++) {
			int rc = put_subsection(out, &pr->pr_subsections[j]);
			if (rc)
				return rc;
		}
	}
	return 0;
}
