/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partial_eval.c: the values of partial reports for one run (partial.h,
 * "Values"; mapreport(1), PARTIAL REPORTS).
 *
 * DESIGN NOTES
 *   The model (model.c, metrics.c) already knows every metric series of
 *   the run, one per (pid, exec image, metric index), with its count and
 *   first and last time, but not its values in time.  So:
 *
 *   1. Bins.  T0 is the earliest metric value of the run, T1 the latest.
 *      The metric interval is the median over the series with two or more
 *      values of (last - first) / (count - 1).  The bin width W starts
 *      there, at least (T1 - T0) / (PARTIAL_MAX_BINS - 1), and doubles
 *      while the cells below would be more than PARTIAL_MAX_CELLS.  Bin k
 *      holds the times within W/2 of T0 + k*W, so values taken at the
 *      metric interval fall one per bin even when processes start at
 *      different times or ticks jitter by less than W/2.
 *
 *   2. Cells.  Each series of a metric some report names gets one cell
 *      per bin from the bin of its first value to that of its last:
 *      count, sum, and the earliest and latest time with the value at
 *      the earliest.  The logs are not read again: the model kept, as it
 *      read them, each series' values in time cells of one width that
 *      is a power of two (model/metrics.h, "Cells"), and each time cell
 *      goes whole into the bin of the middle of its values' times.  The
 *      time cells are at most about a thirtieth of the run's span
 *      divided by PARTIAL_MAX_BINS wide, and number at most
 *      METRICS_MAX_CELLS, four times PARTIAL_MAX_CELLS, so they are at
 *      most about a quarter of a bin wide when the bins are limited by
 *      the cells; a value moves to a neighbouring bin only when it is
 *      that close to a bin's edge (bins are centred on the metric
 *      interval's ticks, so values taken at the interval are not).  Nothing there depends on the order of
 *      values in the file (threads' chunks interleave), and logs read
 *      from a pipe have their partial reports too.
 *
 *   3. A process's value in a bin: the mean of its values there; for a
 *      metric divided by sample time, the sum of its deltas there over
 *      the time from its latest value in an earlier bin to its latest
 *      value in this one (in its first bin: the deltas after the first
 *      value, over the time from the first to the latest).  Bins with no
 *      value of their own between two that have one take the next one's
 *      value (that value covers the time since the previous one).
 *
 *   4. sampleValue combines, in each bin, the processes that have a
 *      value there; aggregation combines the bins where any process has
 *      one.
 *
 *   Memory: the model's time cells (above), and here the cells, at most
 *   PARTIAL_MAX_CELLS of 40 bytes unless there are more series than that
 *   (one cell each), plus per referenced metric one accumulator per bin;
 *   never anything per value.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maplog.h>
#include <mapsample/maps_error.h>

#include "model/model.h"
#include "report/partial_eval.h"
#include "defs/partial.h"

struct cell {
	uint64_t min_ts, max_ts;
	double sum, min_v;   /* min_v: the value at min_ts */
	uint32_t n;
};

struct slot {
	size_t series;       /* in the model's rmetrics */
	size_t acc;          /* accumulator of its metric */
	int rate;
	uint64_t first_ts, last_ts;
	uint64_t b0, b1;     /* first and last bin */
	size_t off;          /* first cell */
};

/* A metric's processes in one bin. */
struct acc {
	uint32_t n;
	double sum, min, max;
};

struct eval {
	uint64_t t0, w;
	uint32_t nbins;
	struct slot *slots;
	size_t nslots;
	struct cell *cells;
	size_t ncells;
	struct acc *accs;    /* nacc * nbins */
	uint64_t *procs;     /* per accumulator: processes with values */
	size_t nacc;
};

static uint64_t bin_of(const struct eval *e, uint64_t ts)
{
	if (ts < e->t0)
		return 0;
	return (ts - e->t0) / e->w + ((ts - e->t0) % e->w >= (e->w + 1) / 2);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Cells the slots need with bins of width w. */
static size_t cells_for(struct eval *e, uint64_t w)
{
	size_t n = 0;
	uint64_t save = e->w;
	e->w = w;
	for (size_t i = 0; i < e->nslots; i++)
		n += (size_t)(bin_of(e, e->slots[i].last_ts) -
			      bin_of(e, e->slots[i].first_ts) + 1);
	e->w = save;
	return n;
}

/* Step 1: T0, the interval and the bin width. */
static int choose_bins(struct eval *e, const struct rmetrics *x,
		       uint64_t *interval)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	uint64_t *iv = malloc((x->ns ? x->ns : 1) * sizeof(*iv));
	size_t niv = 0;
	if (!iv)
		return MAPS_ENOMEM;
	for (size_t k = 0; k < x->ns; k++) {
		const struct rmseries *s = &x->s[k];
		if (!s->metric || !s->n)
			continue;
		if (s->first_ts < t0)
			t0 = s->first_ts;
		if (s->last_ts > t1)
			t1 = s->last_ts;
		if (s->n >= 2 && s->last_ts > s->first_ts)
			iv[niv++] = (s->last_ts - s->first_ts) / (s->n - 1);
	}
	if (t0 == UINT64_MAX) {
		free(iv);
		return 1; /* no value at all */
	}
	*interval = 0;
	if (niv) {
		qsort(iv, niv, sizeof(*iv), cmp_u64);
		*interval = iv[niv / 2];
	}
	free(iv);
	uint64_t span = t1 - t0, wmax = 2 * span + 1, w;
	if (*interval) {
		w = *interval;
		uint64_t least = (span + PARTIAL_MAX_BINS - 2) /
				 (PARTIAL_MAX_BINS - 1);
		if (w < least)
			w = least;
	} else {
		w = wmax;
	}
	if (!w)
		w = 1;
	e->t0 = t0;
	while (w < wmax && cells_for(e, w) > PARTIAL_MAX_CELLS)
		w = w > wmax / 2 ? wmax : w * 2;
	e->w = w;
	e->nbins = (uint32_t)(bin_of(e, t1) + 1);
	return 0;
}

/* Step 2 for one slot: the time cells its series kept as the logs were
 * read (model/metrics.h, "Cells") into its cells, each whole into the
 * bin of the middle of its values' times.  A time cell narrower than the
 * bins with values in one bin gives that bin exactly what its values
 * would; a wider one, or one across a bin's edge, moves its values by at
 * most its width. */
static void fill_slot(struct eval *e, const struct slot *sl,
		      const struct rmseries *s)
{
	for (size_t i = 0; i < s->nc; i++) {
		const struct rmcell *t = &s->cells[i];
		if (!t->n)
			continue;
		uint64_t b = bin_of(e, t->min_ts + (t->max_ts - t->min_ts) / 2);
		if (b < sl->b0)
			b = sl->b0;
		if (b > sl->b1)
			b = sl->b1;
		struct cell *c = &e->cells[sl->off + (b - sl->b0)];
		if (!c->n || t->min_ts < c->min_ts) {
			c->min_ts = t->min_ts;
			c->min_v = t->min_v;
		}
		if (!c->n || t->max_ts > c->max_ts)
			c->max_ts = t->max_ts;
		c->sum += t->sum;
		c->n += t->n;
	}
}

/* Step 3 for one slot: its values per bin (val, NAN for none), then
 * folded into its metric's accumulators. */
static void fold_slot(struct eval *e, const struct slot *s, double *val)
{
	size_t span = (size_t)(s->b1 - s->b0 + 1);
	const struct cell *c = &e->cells[s->off];
	int have_prev = 0;
	uint64_t prev = 0;
	size_t first = SIZE_MAX, last = 0;
	for (size_t i = 0; i < span; i++) {
		val[i] = NAN;
		if (!c[i].n)
			continue;
		if (!s->rate) {
			val[i] = c[i].sum / c[i].n;
		} else if (have_prev) {
			val[i] = c[i].sum / ((double)(c[i].max_ts - prev) / 1e9);
		} else if (c[i].n >= 2 && c[i].max_ts > c[i].min_ts) {
			val[i] = (c[i].sum - c[i].min_v) /
				 ((double)(c[i].max_ts - c[i].min_ts) / 1e9);
		}
		if (s->rate) {
			have_prev = 1;
			prev = c[i].max_ts;
		}
		if (!isnan(val[i])) {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	}
	if (first == SIZE_MAX)
		return;
	double next = val[last];
	for (size_t i = last; i-- > first;) {
		if (isnan(val[i]))
			val[i] = next;
		else
			next = val[i];
	}
	e->procs[s->acc]++;
	struct acc *a = &e->accs[s->acc * e->nbins + s->b0];
	for (size_t i = first; i <= last; i++) {
		struct acc *ai = &a[i];
		if (!ai->n || val[i] < ai->min)
			ai->min = val[i];
		if (!ai->n || val[i] > ai->max)
			ai->max = val[i];
		ai->sum += val[i];
		ai->n++;
	}
}

/* Step 4 for one report metric: *v and the bins that gave it. */
static int combine(const struct eval *e, size_t acc, int sv, int ag,
		   double *v, uint64_t *nb)
{
	const struct acc *a = &e->accs[acc * e->nbins];
	double r = 0;
	uint64_t n = 0;
	for (uint32_t b = 0; b < e->nbins; b++) {
		if (!a[b].n)
			continue;
		double x = sv == PARTIAL_MIN   ? a[b].min
			 : sv == PARTIAL_MAX   ? a[b].max
			 : sv == PARTIAL_SUM   ? a[b].sum
					       : a[b].sum / a[b].n;
		if (!n)
			r = x;
		else if (ag == PARTIAL_MIN)
			r = x < r ? x : r;
		else if (ag == PARTIAL_MAX)
			r = x > r ? x : r;
		else
			r += x;
		n++;
	}
	if (!n)
		return 0;
	*v = ag == PARTIAL_MEAN ? r / (double)n : r;
	*nb = n;
	return 1;
}

static void eval_free(struct eval *e)
{
	free(e->slots);
	free(e->cells);
	free(e->accs);
	free(e->procs);
}

static char *xdup(const char *s, int *oom)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = strdup(s)))
		*oom = 1;
	return d;
}

static void copy_colour(struct partial_colour *to,
			const struct partial_colour *from, int *oom)
{
	*to = *from;
	to->pc_text = xdup(from->pc_text, oom);
}

/* Frees the subsections of pr. */
static void report_free_subsections(struct partial_report *pr)
{
	for (size_t j = 0; j < pr->pr_nsubsections; j++) {
		struct partial_subsection *ss = &pr->pr_subsections[j];
		for (size_t k = 0; k < ss->ss_nentries; k++) {
			struct partial_entry *en = &ss->ss_entries[k];
			free(en->en_id);
			free(en->en_name);
			free(en->en_units);
			free(en->en_colour.pc_text);
			free(en->en_group);
			free(en->en_metric_ref);
		}
		free(ss->ss_entries);
		free(ss->ss_id);
		free(ss->ss_heading);
		free(ss->ss_colour.pc_text);
		free(ss->ss_text);
	}
}

/* Frees what report pr holds. */
static void report_free(struct partial_report *pr)
{
	report_free_subsections(pr);
	free(pr->pr_subsections);
	free(pr->pr_name);
	free(pr->pr_file);
}

void partial_result_free(struct partial_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->rs_nreports; i++)
		report_free(&r->rs_reports[i]);
	free(r->rs_reports);
	free(r);
}

/* The metric of id in the run, or -1. */
static long metric_index(const struct rmetrics *x, const char *id)
{
	for (size_t i = 0; i < x->nm; i++)
		if (!strcmp(x->m[i].id, id))
			return (long)i;
	return -1;
}

/* Bars of one report: each entry with a group and a value over the
 * largest value of that group. */
static void set_bars(struct partial_report *pr)
{
	for (size_t j = 0; j < pr->pr_nsubsections; j++)
		for (size_t k = 0; k < pr->pr_subsections[j].ss_nentries; k++) {
			struct partial_entry *en =
				&pr->pr_subsections[j].ss_entries[k];
			en->en_bar = -1;
			if (!en->en_group || en->en_state != PARTIAL_VALUE)
				continue;
			double max = 0;
			for (size_t jj = 0; jj < pr->pr_nsubsections; jj++)
				for (size_t kk = 0;
				     kk < pr->pr_subsections[jj].ss_nentries;
				     kk++) {
					const struct partial_entry *o =
						&pr->pr_subsections[jj]
							 .ss_entries[kk];
					if (o->en_group &&
					    o->en_state == PARTIAL_VALUE &&
					    !strcmp(o->en_group, en->en_group) &&
					    o->en_value > max)
						max = o->en_value;
				}
			en->en_bar = max > 0 && en->en_value > 0
					     ? en->en_value / max
					     : 0;
		}
}

/* For a built-in report pr (the last of r): leaves out its subsections
 * none of whose metrics the logs define, and the report when none is
 * left; sets the bars of what stays. */
static void drop_unrecorded(struct partial_result *r,
			    struct partial_report *pr)
{
	size_t keep = 0;
	for (size_t j = 0; j < pr->pr_nsubsections; j++) {
		struct partial_subsection *ss = &pr->pr_subsections[j];
		int any = 0;
		for (size_t k = 0; k < ss->ss_nentries; k++)
			any |= ss->ss_entries[k].en_recorded;
		if (any) {
			pr->pr_subsections[keep++] = *ss;
			continue;
		}
		struct partial_report one = {0};
		one.pr_subsections = ss;
		one.pr_nsubsections = 1;
		report_free_subsections(&one);
	}
	pr->pr_nsubsections = keep;
	if (keep) {
		set_bars(pr);
		return;
	}
	report_free(pr);
	r->rs_nreports--;
}

int partial_eval(const struct partial_set *ps, const struct model *m,
		 struct partial_result **out)
{
	if (!ps || !m || !out)
		return MAPS_EINVAL;
	*out = NULL;
	const struct rmetrics *x = &m->metrics;
	struct eval e;
	memset(&e, 0, sizeof(e));
	struct partial_result *r = calloc(1, sizeof(*r));
	long *acc_of = calloc(x->nm + 1, sizeof(*acc_of));
	double *val = NULL;
	int oom = !r || !acc_of, rc;
	if (oom)
		goto fail;

	/* the metrics some report names, each with an accumulator */
	for (size_t i = 0; i < x->nm; i++)
		acc_of[i] = -1;
	for (size_t i = 0; i < ps->ps_ndefs; i++)
		for (size_t k = 0; k < ps->ps_defs[i]->nrm; k++) {
			long mi = metric_index(x, ps->ps_defs[i]->rm[k].ref);
			if (mi >= 0 && acc_of[mi] < 0)
				acc_of[mi] = (long)e.nacc++;
		}
	if (e.nacc) {
		for (size_t k = 0; k < x->ns; k++)
			if (x->s[k].metric && x->s[k].n &&
			    acc_of[x->s[k].metric - 1] >= 0)
				e.nslots++;
		e.slots = calloc(e.nslots ? e.nslots : 1, sizeof(*e.slots));
		if (!e.slots)
			goto nomem;
		size_t n = 0;
		for (size_t k = 0; k < x->ns; k++) {
			const struct rmseries *s = &x->s[k];
			if (!s->metric || !s->n || acc_of[s->metric - 1] < 0)
				continue;
			struct slot *sl = &e.slots[n++];
			sl->series = k;
			sl->acc = (size_t)acc_of[s->metric - 1];
			sl->rate = (x->m[s->metric - 1].flags &
				    MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME) != 0;
			sl->first_ts = s->first_ts;
			sl->last_ts = s->last_ts;
		}
	}
	rc = choose_bins(&e, x, &r->rs_interval_ns);
	if (rc < 0)
		goto nomem;
	if (rc == 0 && e.nslots) {
		r->rs_bin_ns = e.w;
		r->rs_start_ts = e.t0;
		r->rs_nbins = e.nbins;
		for (size_t i = 0; i < e.nslots; i++) {
			struct slot *sl = &e.slots[i];
			sl->b0 = bin_of(&e, sl->first_ts);
			sl->b1 = bin_of(&e, sl->last_ts);
			sl->off = e.ncells;
			e.ncells += (size_t)(sl->b1 - sl->b0 + 1);
		}
		e.cells = calloc(e.ncells, sizeof(*e.cells));
		e.accs = calloc((size_t)e.nacc * e.nbins, sizeof(*e.accs));
		e.procs = calloc(e.nacc, sizeof(*e.procs));
		val = malloc(e.nbins * sizeof(*val));
		if (!e.cells || !e.accs || !e.procs || !val)
			goto nomem;
		for (size_t i = 0; i < e.nslots; i++) {
			fill_slot(&e, &e.slots[i], &x->s[e.slots[i].series]);
			fold_slot(&e, &e.slots[i], val);
		}
	} else if (rc == 0) {
		r->rs_bin_ns = e.w;
		r->rs_start_ts = e.t0;
		r->rs_nbins = e.nbins;
	}

	/* the result, a copy of the definitions with the values */
	r->rs_reports = calloc(ps->ps_ndefs ? ps->ps_ndefs : 1,
			       sizeof(*r->rs_reports));
	if (!r->rs_reports)
		goto nomem;
	for (size_t i = 0; i < ps->ps_ndefs; i++) {
		const struct partial_def *d = ps->ps_defs[i];
		struct partial_report *pr = &r->rs_reports[r->rs_nreports++];
		pr->pr_name = xdup(d->name, &oom);
		pr->pr_file = xdup(d->file, &oom);
		pr->pr_subsections = calloc(d->nss ? d->nss : 1,
					    sizeof(*pr->pr_subsections));
		if (!pr->pr_subsections)
			goto nomem;
		for (size_t j = 0; j < d->nss; j++) {
			const struct pdef_ss *dss = &d->ss[j];
			struct partial_subsection *ss =
				&pr->pr_subsections[pr->pr_nsubsections++];
			ss->ss_id = xdup(dss->id, &oom);
			ss->ss_heading = xdup(dss->heading, &oom);
			copy_colour(&ss->ss_colour, &dss->colour, &oom);
			ss->ss_text = xdup(dss->text, &oom);
			ss->ss_entries = calloc(dss->nen ? dss->nen : 1,
						sizeof(*ss->ss_entries));
			if (!ss->ss_entries)
				goto nomem;
			for (size_t k = 0; k < dss->nen; k++) {
				const struct pdef_entry *den = &dss->en[k];
				const struct pdef_rm *rm = &d->rm[den->target];
				struct partial_entry *en =
					&ss->ss_entries[ss->ss_nentries++];
				en->en_id = xdup(rm->id, &oom);
				en->en_name = xdup(rm->name, &oom);
				en->en_units = xdup(rm->units, &oom);
				copy_colour(&en->en_colour, &rm->colour, &oom);
				en->en_group = xdup(den->group, &oom);
				en->en_metric_ref = xdup(rm->ref, &oom);
				en->en_sample_value = (enum partial_stat)rm->sv;
				en->en_aggregation = (enum partial_stat)rm->ag;
				long mi = metric_index(x, rm->ref);
				en->en_recorded = mi >= 0;
				en->en_state = mi >= 0 ? PARTIAL_NO_VALUE
						       : PARTIAL_NOT_RECORDED;
				if (mi >= 0 && e.nbins && e.accs &&
				    combine(&e, (size_t)acc_of[mi], rm->sv,
					    rm->ag, &en->en_value,
					    &en->en_bins)) {
					en->en_state = PARTIAL_VALUE;
					en->en_procs = e.procs[acc_of[mi]];
				}
				if (en->en_state == PARTIAL_VALUE)
					units_format(en->en_scaled,
						     sizeof(en->en_scaled),
						     en->en_value,
						     en->en_units);
				else
					snprintf(en->en_scaled,
						 sizeof(en->en_scaled), "%s",
						 en->en_recorded
							 ? "no value in this run"
							 : "not recorded in "
							   "this run");
			}
		}
		if (d->builtin)
			drop_unrecorded(r, pr);
		else
			set_bars(pr);
	}
	if (oom)
		goto nomem;
	free(val);
	free(acc_of);
	eval_free(&e);
	*out = r;
	return 0;
nomem:
	oom = 1;
fail:
	free(val);
	free(acc_of);
	eval_free(&e);
	partial_result_free(r);
	return MAPS_ENOMEM;
}
