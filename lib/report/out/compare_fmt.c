/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_fmt: the phrases every --compare writer shares (see
 * compare_out.h): a row's subject in the rule language, its change, a
 * rule's verdict with its figures, the significance mark.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/out/compare_out.h"

const char *compare_fmt_subject(const struct cmp_row *r, char *buf,
				size_t len)
{
	switch (r->kind) {
	case CMP_TIME:
		snprintf(buf, len, "total");
		break;
	case CMP_METRIC_MEAN:
	case CMP_METRIC_MAX:
	case CMP_METRIC_TOTAL:
		snprintf(buf, len, "metric(%s)%s", r->name,
			 r->kind == CMP_METRIC_MAX     ? ".max"
			 : r->kind == CMP_METRIC_TOTAL ? ".total"
						       : "");
		break;
	default:
		snprintf(buf, len, "%s(%s)", compare_kind_id(r->kind),
			 r->name);
	}
	return buf;
}

/* Appends the formatted text to buf[len] at *n, never past its end. */
#define ADD(...)                                                         \
	do {                                                             \
		if (*n < len)                                            \
			*n += (size_t)snprintf(buf + *n, len - *n,       \
					       __VA_ARGS__);             \
	} while (0)

static void add_sigma(char *buf, size_t len, size_t *n, double sigma)
{
	if (isnan(sigma))
		ADD(", no noise estimate");
	else
		ADD(", %.1f sigma", fabs(sigma));
}

const char *compare_fmt_change(const struct cmp_row *r, char *buf,
			       size_t len)
{
	size_t k = 0, *n = &k;
	buf[0] = '\0';
	if (!isnan(r->d_pp))
		ADD("%+.2fpp, ", r->d_pp);
	if (!isnan(r->d_seconds))
		ADD("%+.3f s", r->d_seconds);
	else if (!isnan(r->d_value))
		ADD("%+g%s%s", r->d_value, r->units ? " " : "",
		    r->units ? r->units : "");
	else
		ADD("only in %s", r->base.present ? "BASE" : "NEW");
	if (!isnan(r->d_rel))
		ADD(" (%+.1f%%)", r->d_rel);
	add_sigma(buf, len, n, r->sigma);
	return buf;
}

const char *compare_fmt_result(const struct rule_result *res, char *buf,
			       size_t len)
{
	const struct rule *ru = res->rr_rule;
	size_t k = 0, *n = &k;
	buf[0] = '\0';
	if (res->rr_verdict == RULE_NO_DATA) {
		ADD("no data: nothing on either side matches '%s'",
		    ru->ru_text);
		return buf;
	}
	char subj[512];
	compare_fmt_subject(res->rr_row, subj, sizeof(subj));
	ADD("%s: %s changed ", compare_verdict_id(res->rr_verdict), subj);
	if (isnan(res->rr_change))
		ADD("(not on both sides)");
	else
		ADD("%+.*f%s", ru->ru_unit == RULE_SEC ? 3 : 2,
		    res->rr_change, rules_unit_str(ru->ru_unit));
	ADD(" (limit %s %+g%s)", rules_op_str(ru->ru_op), ru->ru_limit,
	    rules_unit_str(ru->ru_unit));
	if (isnan(res->rr_sigma))
		ADD(", no noise estimate");
	else
		ADD(" at %.1f sigma (%g asked%s)", fabs(res->rr_sigma),
		    res->rr_sigma_min,
		    res->rr_over && !res->rr_significant ? ": within noise"
							 : "");
	return buf;
}

void compare_fmt_side(FILE *out, const struct cmp_side *s,
		      void (*esc)(FILE *out, const char *text),
		      const char *pre, const char *post)
{
	const char *cmd = s->command ? s->command : s->program;
	fprintf(out, "%zu run%s of %s", s->nruns, s->nruns == 1 ? "" : "s",
		pre);
	if (esc)
		esc(out, cmd);
	else
		fputs(cmd, out);
	fprintf(out, "%s, %llu samples, %.3f s of %s time a run", post,
		(unsigned long long)s->samples, s->seconds,
		s->wall ? "wall" : "CPU");
}

size_t compare_fmt_problems(const struct output_compare *oc,
			    void (*fn)(void *ctx, const char *line),
			    void *ctx)
{
	char line[1024];
	size_t n = 0;
	for (size_t i = 0; i < oc->oc_nbase + oc->oc_nnew; i++) {
		const struct model *m = oc->oc_models[i];
		if (!m) {
			snprintf(line, sizeof(line), "%s: not read",
				 i < oc->oc_nbase
					 ? oc->oc_base_logs[i]
					 : oc->oc_new_logs[i - oc->oc_nbase]);
			if (fn)
				fn(ctx, line);
			n++;
		}
		for (size_t k = 0; m && k < m->nnotes; k++, n++)
			if (fn)
				fn(ctx, model_note_str(&m->notes[k], line,
						       sizeof(line)));
	}
	const struct partial_set *ps = oc->oc_pset;
	for (size_t i = 0; ps && i < ps->ps_nfiles; i++) {
		const struct partial_file *f = &ps->ps_files[i];
		if (!f->pf_nerrors)
			continue;
		snprintf(line, sizeof(line),
			 "%s: partial report left out (%u error%s)",
			 f->pf_path, f->pf_nerrors,
			 f->pf_nerrors == 1 ? "" : "s");
		if (fn)
			fn(ctx, line);
		n++;
	}
	for (size_t i = 0; i < oc->oc_nproblems; i++, n++)
		if (fn)
			fn(ctx, oc->oc_problems[i].op_message);
	return n;
}

const char *compare_verdict_id(enum rule_verdict v)
{
	switch (v) {
	case RULE_PASS: return "pass";
	case RULE_BROKEN: return "broken";
	case RULE_NO_DATA: return "no-data";
	}
	return "unknown";
}

const char *compare_mark(const struct cmp_row *r, double sigma)
{
	if (isnan(r->sigma))
		return "?";
	return fabs(r->sigma) >= sigma && r->d_value != 0 ? "!" : "";
}

void compare_rows_of(const struct comparison *c, enum cmp_kind k,
		     unsigned top, size_t *first, size_t *end)
{
	size_t i = 0;
	while (i < c->nrows && c->rows[i].kind != k)
		i++;
	*first = i;
	while (i < c->nrows && c->rows[i].kind == k &&
	       i - *first < top)
		i++;
	*end = i;
}
