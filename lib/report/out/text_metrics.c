/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_metrics.c: the text report's "Metrics" and "Metric plugin errors"
 * parts, from the run model's metric statistics (model/metrics.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "model/metrics.h"
#include "model/units.h"
#include "report/out/text.h"

/* ---- the text section ---- */

enum { C_NAME, C_MIN, C_MEAN, C_MAX, C_TOTAL, C_VALUES, C_PROCS, NCOL };

struct row {
	char c[NCOL][UNITS_BUFSZ];
};

int text_metrics(const struct rmetrics *x, const struct model *m, FILE *out)
{
	if (!x->nm && !x->npe && !x->ns)
		return 0;
	struct rmsummary *sum = calloc(x->nm ? x->nm : 1, sizeof(*sum));
	struct row *rows = calloc(x->nm + 1, sizeof(*rows));
	if (!sum || !rows) {
		free(sum);
		free(rows);
		return MAPS_ENOMEM;
	}
	static const char *const head[NCOL] = {"METRIC", "MIN", "MEAN", "MAX",
					       "TOTAL", "VALUES", "PROCS"};
	size_t w[NCOL];
	for (int c = 0; c < NCOL; c++) {
		snprintf(rows[0].c[c], UNITS_BUFSZ, "%s", head[c]);
		w[c] = strlen(head[c]);
	}
	int any_rate = 0;
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary *r = &sum[i];
		metrics_summary(x, i, r);
		char (*c)[UNITS_BUFSZ] = rows[i + 1].c;
		const char *u = r->metric->units;
		snprintf(c[C_NAME], UNITS_BUFSZ, "%.40s",
			 metrics_display_name(r->metric));
		for (char *p = c[C_NAME]; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = ' ';
		if (r->have_minmax) {
			units_format(c[C_MIN], UNITS_BUFSZ, r->min, u);
			units_format(c[C_MAX], UNITS_BUFSZ, r->max, u);
		} else {
			strcpy(c[C_MIN], "-");
			strcpy(c[C_MAX], "-");
		}
		if (r->have_mean)
			units_format(c[C_MEAN], UNITS_BUFSZ, r->mean, u);
		else
			strcpy(c[C_MEAN], "-");
		if (r->rate && r->values) {
			char tu[UNITS_BUFSZ];
			double f = units_undivided(tu, sizeof(tu), u);
			units_format(c[C_TOTAL], UNITS_BUFSZ, r->total * f,
				     tu);
		} else {
			strcpy(c[C_TOTAL], "-");
		}
		any_rate |= r->rate;
		snprintf(c[C_VALUES], UNITS_BUFSZ, "%" PRIu64, r->values);
		snprintf(c[C_PROCS], UNITS_BUFSZ, "%" PRIu64, r->procs);
		for (int k = 0; k < NCOL; k++)
			if (strlen(c[k]) > w[k])
				w[k] = strlen(c[k]);
	}

	if (x->nm) {
		fprintf(out, "\nMetrics: min, mean, max over time; rates per "
			     "second if divided by sample time\n");
		char scope[512];
		if (*model_metrics_scope(m, scope, sizeof(scope)))
			fprintf(out, "  Filter: %s\n", scope);
		for (size_t i = 0; i <= x->nm; i++) {
			const struct row *rw = &rows[i];
			fprintf(out, "  %-*s", (int)w[C_NAME], rw->c[C_NAME]);
			for (int k = C_MIN; k < NCOL; k++)
				fprintf(out, "  %*s", (int)w[k], rw->c[k]);
			fputc('\n', out);
		}
		fprintf(out, "  MEAN: each process's mean over time, averaged "
			     "over PROCS processes.\n");
		if (any_rate)
			fprintf(out, "  TOTAL: sum of the values before division "
				     "by sample time, in the units\n"
				     "  before it (B for B/s, J for W, a count "
				     "for /s, seconds for %%).\n");
		for (size_t i = 0; i < x->nm; i++) {
			const struct rmsummary *r = &sum[i];
			if (r->none) {
				fprintf(out, "  %s: no value at %" PRIu64
					     " sample time%s\n",
					rows[i + 1].c[C_NAME], r->none,
					r->none == 1 ? "" : "s");
			}
			if (r->late)
				fprintf(out, "  %s: %" PRIu64 " value%s too far "
					     "out of time order for MIN and MAX "
					     "(counted in MEAN and TOTAL)\n",
					rows[i + 1].c[C_NAME], r->late,
					r->late == 1 ? "" : "s");
		}
	}
	uint64_t orphan_values = 0, orphan_series = 0;
	for (size_t k = 0; k < x->ns; k++)
		if (!x->s[k].metric && (x->s[k].n || x->s[k].none)) {
			orphan_series++;
			orphan_values += x->s[k].n + x->s[k].none;
		}
	if (orphan_series && !x->nm)
		fprintf(out, "\nMetrics\n");
	if (orphan_series)
		fprintf(out, "  %" PRIu64 " value%s of %" PRIu64 " metric%s with "
			     "no definition in the logs left out (damaged "
			     "log?)\n",
			orphan_values, orphan_values == 1 ? "" : "s",
			orphan_series, orphan_series == 1 ? "" : "s");

	int errors = x->npe != 0;
	for (size_t i = 0; i < x->nm && !errors; i++)
		errors = sum[i].errors != 0;
	for (size_t k = 0; k < x->ns && !errors; k++)
		errors = !x->s[k].metric && x->s[k].errors;
	if (errors) {
		fprintf(out, "\nMetric plugin errors\n");
		for (size_t i = 0; i < x->npe; i++) {
			fputs("  ", out);
			text_put_clean(out, x->pe[i].plugin);
			fputs(": ", out);
			text_put_clean(out, x->pe[i].message);
			fprintf(out, " (%" PRIu64 " process%s)\n", x->pe[i].count,
				x->pe[i].count == 1 ? "" : "es");
		}
		for (size_t i = 0; i < x->nm; i++) {
			const struct rmsummary *r = &sum[i];
			if (!r->errors)
				continue;
			fprintf(out, "  %s: %" PRIu64 " error%s, first: ",
				rows[i + 1].c[C_NAME], r->errors,
				r->errors == 1 ? "" : "s");
			text_put_clean(out, r->err_msg ? r->err_msg : "");
			fputc('\n', out);
		}
		for (size_t k = 0; k < x->ns; k++) {
			const struct rmseries *s = &x->s[k];
			if (s->metric || !s->errors)
				continue;
			char pb[48];
			fprintf(out, "  metric #%u of process %s (no definition): "
				     "%" PRIu64 " error%s, first: ",
				s->index, model_pid_str(m, s->pid, pb, sizeof(pb)),
				s->errors, s->errors == 1 ? "" : "s");
			text_put_clean(out, s->err_msg ? s->err_msg : "");
			fputc('\n', out);
		}
	}
	free(sum);
	free(rows);
	return 0;
}
