/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json_metrics: the JSON report's members about metrics (json_i.h),
 * from the same metric summaries as the text report.
 */
#include <stdlib.h>

#include <mapsample/maps_error.h>

#include "model/filter.h"
#include "model/units.h"
#include "report/out/json_i.h"

/* "metrics_scope": whose values the metrics are: "filters" (the
 * filters given, as options; null: none), "pids" (the processes with
 * values), "from_s" and "to_s" (--time's range, null: the run's start or
 * end) and "whole_processes" (--tid or --comm given: their threads'
 * processes, whole). */
static int scope(struct jsonw *w, const struct model *m)
{
	const struct rfilter *f = m->filter && filter_active(m->filter)
					  ? m->filter : NULL;
	uint32_t *pids;
	size_t n;
	if (model_metrics_pids(m, &pids, &n))
		return MAPS_ENOMEM;
	jsonw_key(w, "metrics_scope");
	jsonw_object(w);
	char fs[512];
	k_str(w, "filters", f ? filter_str(f, fs, sizeof(fs)) : NULL);
	jsonw_key(w, "pids");
	jsonw_array(w);
	for (size_t i = 0; i < n; i++)
		jsonw_u64(w, model_real_pid(m, pids[i]));
	jsonw_array_end(w);
	if (f && f->fi_time && f->fi_from_set)
		k_dbl(w, "from_s", f->fi_from);
	else
		k_null(w, "from_s");
	if (f && f->fi_time && f->fi_to_set)
		k_dbl(w, "to_s", f->fi_to);
	else
		k_null(w, "to_s");
	k_bool(w, "whole_processes", f && filter_by_thread(f));
	jsonw_object_end(w);
	free(pids);
	return 0;
}

int json_metrics(struct jsonw *w, const struct model *m)
{
	const struct rmetrics *x = &m->metrics;
	jsonw_key(w, "metrics");
	jsonw_array(w);
	for (size_t i = 0; i < x->nm; i++) {
		struct rmsummary r;
		metrics_summary(x, i, &r);
		const struct rmetric *mt = r.metric;
		jsonw_object(w);
		k_str(w, "id", mt->id);
		k_str(w, "name", metrics_display_name(mt));
		k_str(w, "units", mt->units);
		k_str(w, "plugin", mt->plugin);
		k_bool(w, "divided_by_sample_time", r.rate);
		if (r.have_minmax) {
			k_dbl(w, "min", r.min);
			k_dbl(w, "max", r.max);
		} else {
			k_null(w, "min");
			k_null(w, "max");
		}
		if (r.have_mean)
			k_dbl(w, "mean", r.mean);
		else
			k_null(w, "mean");
		if (r.rate && r.values) {
			char tu[UNITS_BUFSZ];
			double f = units_undivided(tu, sizeof(tu), mt->units);
			k_dbl(w, "total", r.total * f);
			k_str(w, "total_units", tu);
		} else {
			k_null(w, "total");
			k_null(w, "total_units");
		}
		k_u64(w, "values", r.values);
		k_u64(w, "no_value", r.none);
		k_u64(w, "late", r.late);
		k_u64(w, "processes", r.procs);
		k_u64(w, "errors", r.errors);
		k_str(w, "first_error", r.err_msg);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	if (scope(w, m))
		return MAPS_ENOMEM;

	jsonw_key(w, "plugin_errors");
	jsonw_array(w);
	for (size_t i = 0; i < x->npe; i++) {
		jsonw_object(w);
		k_str(w, "plugin", x->pe[i].plugin);
		k_str(w, "message", x->pe[i].message);
		k_u64(w, "processes", x->pe[i].count);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);

	/* values and errors of metric indexes no definition gives */
	uint64_t values = 0, series = 0;
	jsonw_key(w, "undefined_metrics");
	jsonw_object(w);
	for (size_t k = 0; k < x->ns; k++)
		if (!x->s[k].metric && (x->s[k].n || x->s[k].none)) {
			series++;
			values += x->s[k].n + x->s[k].none;
		}
	k_u64(w, "series", series);
	k_u64(w, "values", values);
	jsonw_key(w, "errors");
	jsonw_array(w);
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (s->metric || !s->errors)
			continue;
		jsonw_object(w);
		k_u64(w, "pid", s->pid);
		k_u64(w, "image", s->image);
		k_u64(w, "index", s->index);
		k_u64(w, "errors", s->errors);
		k_str(w, "first_error", s->err_msg);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
	return 0;
}
