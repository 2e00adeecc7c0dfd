/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_junit: mapreport --compare --junit FILE (see compare_out.h):
 * JUnit XML as CI systems read it, one <testsuite> of one <testcase> per
 * rule: a broken rule is a <failure> whose text carries the figures, a
 * rule with no data is <skipped>; the input problems (a damaged or
 * unreadable log, a --partial-report file left out, a --region missing
 * from a log, a side with nothing to compare) are one more test case
 * with an <error> that lists them.  Text is
 * escaped for XML 1.0: the five special characters as entities, control
 * characters and bytes that are not UTF-8 as '?'.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"

/* Length of the valid UTF-8 sequence at s (NUL-terminated), 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		     : s[0] >= 0xe0 && s[0] <= 0xef		   ? 3
		     : s[0] >= 0xf0 && s[0] <= 0xf4		   ? 4
								   : 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

static void esc(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		unsigned char c = *s;
		size_t n = utf8_len(s);
		if (!n) {
			fputc('?', out);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, out);
			s += n;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' : c,
			      out);
		}
		s++;
	}
}

/* One input problem as a line of the <error> text. */
static void problem_line(void *ctx, const char *line)
{
	FILE *out = ctx;
	esc(out, line);
	fputc('\n', out);
}

int compare_junit_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	size_t nprob = compare_fmt_problems(oc, NULL, NULL), skipped = 0;
	for (size_t i = 0; i < oc->oc_nresults; i++)
		skipped += oc->oc_results[i].rr_verdict == RULE_NO_DATA;
	size_t tests = oc->oc_nresults + (nprob ? 1 : 0);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuites name=\"mapreport --compare\" tests=\"%zu\" "
		     "failures=\"%zu\" errors=\"%d\">\n",
		tests, oc->oc_broken, nprob ? 1 : 0);
	fprintf(out, "  <testsuite name=\"mapsample regression rules\" "
		     "tests=\"%zu\" failures=\"%zu\" errors=\"%d\" "
		     "skipped=\"%zu\" time=\"0\">\n",
		tests, oc->oc_broken, nprob ? 1 : 0, skipped);
	for (size_t i = 0; i < oc->oc_nresults; i++) {
		const struct rule_result *res = &oc->oc_results[i];
		char buf[1024];
		compare_fmt_result(res, buf, sizeof(buf));
		fprintf(out, "    <testcase classname=\"mapsample.rules\" "
			     "name=\"");
		esc(out, res->rr_rule->ru_text);
		fprintf(out, "\" file=\"");
		esc(out, res->rr_rule->ru_origin);
		fprintf(out, "\" time=\"0\">");
		if (res->rr_verdict == RULE_BROKEN) {
			fprintf(out, "\n      <failure type=\"regression\" "
				     "message=\"");
			esc(out, buf);
			fprintf(out, "\">");
			esc(out, buf);
			if (res->rr_row) {
				char ch[512];
				fprintf(out, "\nrow: ");
				esc(out, compare_fmt_change(res->rr_row, ch,
							    sizeof(ch)));
			}
			fprintf(out, "</failure>\n    ");
		} else if (res->rr_verdict == RULE_NO_DATA) {
			fprintf(out, "\n      <skipped message=\"");
			esc(out, buf);
			fprintf(out, "\"/>\n    ");
		} else {
			fprintf(out, "\n      <system-out>");
			esc(out, buf);
			fprintf(out, "</system-out>\n    ");
		}
		fprintf(out, "</testcase>\n");
	}
	if (nprob) {
		fprintf(out, "    <testcase classname=\"mapsample.input\" "
			     "name=\"inputs read cleanly\" time=\"0\">\n"
			     "      <error type=\"input-problem\" "
			     "message=\"%zu input problem%s\">",
			nprob, nprob == 1 ? "" : "s");
		compare_fmt_problems(oc, problem_line, out);
		fprintf(out, "</error>\n    </testcase>\n");
	}
	fprintf(out, "  </testsuite>\n</testsuites>\n");
	return ferror(out) ? MAPS_EIO : 0;
}
