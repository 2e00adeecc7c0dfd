/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json_i: what the files of the JSON report (json.c, json_metrics.c)
 * share: shorthands for an object's members, and the report's metric
 * parts.
 */
#ifndef MAPSAMPLE_REPORT_JSON_I_H
#define MAPSAMPLE_REPORT_JSON_I_H

#include "model/model.h"
#include "report/out/json.h"

static inline void k_str(struct jsonw *w, const char *k, const char *v)
{
	jsonw_key(w, k);
	jsonw_string(w, v);
}

static inline void k_u64(struct jsonw *w, const char *k, uint64_t v)
{
	jsonw_key(w, k);
	jsonw_u64(w, v);
}

static inline void k_dbl(struct jsonw *w, const char *k, double v)
{
	jsonw_key(w, k);
	jsonw_double(w, v);
}

static inline void k_bool(struct jsonw *w, const char *k, int v)
{
	jsonw_key(w, k);
	jsonw_bool(w, v);
}

static inline void k_null(struct jsonw *w, const char *k)
{
	jsonw_key(w, k);
	jsonw_null(w);
}

/*
 * Writes the report's members about metrics: "metrics" (a row per
 * metric), "metrics_scope" (whose values they are, under the filters),
 * "plugin_errors" and "undefined_metrics", from m's metric statistics
 * (json_metrics.c).  Returns 0 or MAPS_ENOMEM (the output is then cut
 * short).
 */
int json_metrics(struct jsonw *w, const struct model *m);

#endif
