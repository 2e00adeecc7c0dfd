/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_json: mapreport --compare --json (see compare_out.h), schema
 * "mapsample-compare" version 1: the two sides, the notes, every rule
 * with its verdict and figures, every row of the comparison, the input
 * problems (errors[], as in the report's JSON) and one "result" a CI
 * script can test: "pass", "regression" or "input-problem".  Every
 * member is always written (null when not known).  The JSON Schema is
 * share/mapsample/mapreport.schema.json.
 */
#include <math.h>
#include <stdio.h>

#include "report/out/compare_out.h"
#include "report/out/json.h"

static void k_str(struct jsonw *w, const char *k, const char *v)
{
	jsonw_key(w, k);
	jsonw_string(w, v);
}

/* A number, or null when it is NaN. */
static void k_num(struct jsonw *w, const char *k, double v)
{
	jsonw_key(w, k);
	jsonw_double(w, v);
}

static void side(struct jsonw *w, const char *k, const struct cmp_side *s,
		 const char *const *logs, size_t nlogs)
{
	jsonw_key(w, k);
	jsonw_object(w);
	jsonw_key(w, "logs");
	jsonw_array(w);
	for (size_t i = 0; i < nlogs; i++)
		jsonw_string(w, logs[i]);
	jsonw_array_end(w);
	jsonw_key(w, "runs");
	jsonw_u64(w, s ? s->nruns : 0);
	jsonw_key(w, "samples");
	jsonw_u64(w, s ? s->samples : 0);
	k_num(w, "seconds", s ? s->seconds : NAN);
	k_str(w, "clock", s ? (s->wall ? "wall" : "cpu") : NULL);
	k_str(w, "program", s ? s->program : NULL);
	k_str(w, "command", s ? s->command : NULL);
	jsonw_object_end(w);
}

static void val(struct jsonw *w, const char *k, const struct cmp_val *v)
{
	jsonw_key(w, k);
	jsonw_object(w);
	jsonw_key(w, "present");
	jsonw_bool(w, v->present);
	k_num(w, "value", v->value);
	k_num(w, "share", v->share);
	k_num(w, "seconds", v->seconds);
	k_num(w, "spread", v->spread);
	jsonw_object_end(w);
}

static void rows(struct jsonw *w, const struct comparison *c, double sigma)
{
	jsonw_key(w, "rows");
	jsonw_array(w);
	for (size_t i = 0; c && i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		char subj[1024];
		jsonw_object(w);
		k_str(w, "kind", compare_kind_id(r->kind));
		k_str(w, "name", r->name);
		k_str(w, "subject", compare_fmt_subject(r, subj, sizeof(subj)));
		k_str(w, "module", r->module);
		k_str(w, "units", r->units);
		val(w, "base", &r->base);
		val(w, "new", &r->new);
		k_num(w, "change_pp", r->d_pp);
		k_num(w, "change_s", r->d_seconds);
		k_num(w, "change_value", r->d_value);
		k_num(w, "change_percent", r->d_rel);
		k_num(w, "sigma", r->sigma);
		jsonw_key(w, "significant");
		jsonw_bool(w, !isnan(r->sigma) && r->d_value != 0 &&
				      fabs(r->sigma) >= sigma);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

static void rules(struct jsonw *w, const struct output_compare *oc)
{
	jsonw_key(w, "rules");
	jsonw_array(w);
	for (size_t i = 0; oc->oc_cmp && i < oc->oc_nresults; i++) {
		const struct rule_result *res = &oc->oc_results[i];
		const struct rule *ru = res->rr_rule;
		char buf[1024];
		jsonw_object(w);
		k_str(w, "rule", ru->ru_text);
		k_str(w, "origin", ru->ru_origin);
		k_str(w, "kind", compare_kind_id(ru->ru_kind));
		k_str(w, "name", ru->ru_name);
		k_str(w, "op", rules_op_str(ru->ru_op));
		k_num(w, "limit", ru->ru_limit);
		k_str(w, "unit", rules_unit_str(ru->ru_unit));
		k_num(w, "sigma_asked", res->rr_sigma_min);
		k_str(w, "verdict", compare_verdict_id(res->rr_verdict));
		k_str(w, "subject", res->rr_row ? compare_fmt_subject(
							  res->rr_row, buf,
							  sizeof(buf))
						: NULL);
		k_num(w, "change", res->rr_change);
		k_num(w, "sigma", res->rr_sigma);
		jsonw_key(w, "over_limit");
		jsonw_bool(w, res->rr_over);
		jsonw_key(w, "significant");
		jsonw_bool(w, res->rr_significant);
		k_str(w, "message", compare_fmt_result(res, buf, sizeof(buf)));
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

int compare_json_emit(const struct output_in *in, FILE *out)
{
	const struct output_compare *oc = in->oi_compare;
	const struct comparison *c = oc->oc_cmp;
	struct jsonw w;
	jsonw_init(&w, out);
	jsonw_object(&w);
	k_str(&w, "schema", COMPARE_JSON_SCHEMA);
	jsonw_key(&w, "version");
	jsonw_u64(&w, COMPARE_JSON_VERSION);
	k_str(&w, "generator", in->oi_generator);
	k_str(&w, "result", compare_fmt_problems(oc, NULL, NULL) || !c
				    ? "input-problem"
			    : oc->oc_broken      ? "regression"
						 : "pass");
	k_num(&w, "sigma", oc->oc_sigma);
	k_num(&w, "run_noise", c ? c->run_noise : NAN);
	side(&w, "base", c ? &c->base : NULL, oc->oc_base_logs, oc->oc_nbase);
	side(&w, "new", c ? &c->new : NULL, oc->oc_new_logs, oc->oc_nnew);
	jsonw_key(&w, "notes");
	jsonw_array(&w);
	for (size_t i = 0; c && i < c->nnotes; i++)
		jsonw_string(&w, c->notes[i]);
	jsonw_array_end(&w);
	jsonw_key(&w, "broken");
	jsonw_u64(&w, oc->oc_broken);
	rules(&w, oc);
	rows(&w, c, oc->oc_sigma);
	json_errors(&w, oc->oc_models, oc->oc_nbase + oc->oc_nnew, oc->oc_pset,
		    oc->oc_problems, oc->oc_nproblems);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}
