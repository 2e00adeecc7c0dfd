/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_github: mapreport --compare --github (see compare_out.h):
 * GitHub Actions workflow commands on standard output, which the runner
 * turns into annotations: "::error::" for each broken rule and each
 * input problem, "::warning::" for a rule with no data, "::notice::"
 * for each rule that holds, each note and the whole-run time.  Messages
 * are escaped as the runner expects (%, CR, LF as %25, %0D, %0A; also
 * ':' and ',' in properties).
 */
#include <stdio.h>

#include <mapsample/maps_error.h>

#include "report/out/compare_out.h"

static void esc(FILE *out, const char *s, int property)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%25", out);
		else if (*s == '\r')
			fputs("%0D", out);
		else if (*s == '\n')
			fputs("%0A", out);
		else if (property && *s == ':')
			fputs("%3A", out);
		else if (property && *s == ',')
			fputs("%2C", out);
		else
			fputc(*s, out);
	}
}

static void cmd(FILE *out, const char *level, const char *title,
		const char *msg)
{
	fprintf(out, "::%s title=", level);
	esc(out, title, 1);
	fputs("::", out);
	esc(out, msg, 0);
	fputc('\n', out);
}

/* An input problem as an ::error::. */
static void problem(void *ctx, const char *line)
{
	cmd(ctx, "error", "mapsample: input problem", line);
}

int compare_github_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	const struct comparison *c = oc->oc_cmp;
	char buf[1024], title[512];
	compare_fmt_problems(oc, problem, out);
	for (size_t i = 0; i < oc->oc_nresults; i++) {
		const struct rule_result *res = &oc->oc_results[i];
		snprintf(title, sizeof(title), "mapsample rule %s",
			 res->rr_rule->ru_text);
		cmd(out,
		    res->rr_verdict == RULE_BROKEN  ? "error"
		    : res->rr_verdict == RULE_NO_DATA ? "warning"
						      : "notice",
		    title, compare_fmt_result(res, buf, sizeof(buf)));
	}
	if (!c)
		return ferror(out) ? MAPS_EIO : 0;
	for (size_t k = 0; k < c->nnotes; k++)
		cmd(out, "notice", "mapsample", c->notes[k]);
	size_t i, end;
	compare_rows_of(c, CMP_TIME, 1, &i, &end);
	if (i < end) {
		char ch[512];
		snprintf(buf, sizeof(buf), "whole run: %.3f s -> %.3f s (%s)",
			 c->rows[i].base.value, c->rows[i].new.value,
			 compare_fmt_change(&c->rows[i], ch, sizeof(ch)));
		cmd(out, "notice", "mapsample", buf);
	}
	return ferror(out) ? MAPS_EIO : 0;
}
