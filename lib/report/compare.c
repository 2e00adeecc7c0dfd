/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare: BASE against NEW (see compare.h).
 *
 * DESIGN NOTES
 *   Rows are found by (kind, key) in one open-addressing index.  The key
 *   of a function is its name, so that a function keeps its row across
 *   builds where addresses and even the executable's name change; code
 *   without symbols is named "module+0xOFFSET" by the symbolizer, and its
 *   key carries the module's build-id, so that it is matched only within
 *   one build.  Every row keeps one figure per run (columns: BASE's runs,
 *   then NEW's): samples for sample rows, seconds for the whole-run time,
 *   the value for metrics (NaN where a run has none).  Totals are counted
 *   per row, once per stack, so a function that a stack holds twice
 *   (recursion, or the same name in two modules) counts once, as
 *   analyze.c counts it.  The figures become the two sides' values, the
 *   changes and their significance once every run is in.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/units.h"
#include "report/compare.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

const char *compare_kind_id(enum cmp_kind k)
{
	static const char *const ids[CMP_NKINDS] = {
		"time", "self", "total", "module", "process", "metric-mean",
		"metric-max", "metric-total", "partial"};
	return k < CMP_NKINDS ? ids[k] : "unknown";
}

static int is_metric(enum cmp_kind k)
{
	return k == CMP_METRIC_MEAN || k == CMP_METRIC_MAX ||
	       k == CMP_METRIC_TOTAL || k == CMP_PARTIAL;
}

static uint64_t key_hash(enum cmp_kind kind, const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)kind;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* Makes the index hold rows 0..nrows with room to add one. */
static int index_grow(struct comparison *c)
{
	if ((c->nrows + 1) * 2 <= c->capidx)
		return 0;
	size_t cap = c->capidx ? c->capidx * 2 : 1024;
	uint32_t *t = calloc(cap, sizeof(*t));
	if (!t)
		return MAPS_ENOMEM;
	for (size_t i = 0; i < c->nrows; i++) {
		size_t j = key_hash(c->rows[i].kind, c->rows[i].key) & (cap - 1);
		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(c->idx);
	c->idx = t;
	c->capidx = cap;
	return 0;
}

/* The row of (kind, key) into *row, added (named name, with module) if
 * new.  0 or MAPS_ENOMEM. */
static int row_get(struct comparison *c, enum cmp_kind kind, const char *key,
		   const char *name, const char *module, size_t *row)
{
	if (index_grow(c))
		return MAPS_ENOMEM;
	size_t mask = c->capidx - 1;
	size_t j = key_hash(kind, key) & mask;
	while (c->idx[j]) {
		struct cmp_row *r = &c->rows[c->idx[j] - 1];
		if (r->kind == kind && strcmp(r->key, key) == 0) {
			*row = c->idx[j] - 1;
			return 0;
		}
		j = (j + 1) & mask;
	}
	if (mem_grow(&c->rows, &c->caprows, c->nrows, sizeof(*c->rows)))
		return MAPS_ENOMEM;
	struct cmp_row *r = &c->rows[c->nrows];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->key = mem_strdup(key);
	r->name = mem_strdup(name);
	r->module = module ? mem_strdup(module) : NULL;
	r->runs = malloc(c->ncols * sizeof(double));
	r->blk = calloc(2 * CMP_LEVELS * c->ncols, sizeof(double));
	if (!r->key || !r->name || (module && !r->module) || !r->runs ||
	    !r->blk) {
		free(r->key);
		free(r->name);
		free(r->module);
		free(r->runs);
		free(r->blk);
		return MAPS_ENOMEM;
	}
	for (size_t i = 0; i < c->ncols; i++)
		r->runs[i] = is_metric(kind) ? NAN : 0.0;
	c->idx[j] = (uint32_t)++c->nrows;
	*row = c->nrows - 1;
	return 0;
}

/* The build-id of the module (base name) module of m in hex into buf
 * (len at least 129), "" when no mapping of it records one. */
static void module_buildid(const struct model *m, const char *module,
			   char *buf)
{
	buf[0] = '\0';
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		for (size_t k = 0; k < p->nmaps; k++) {
			const struct rmap *mp = &p->maps[k];
			if (!mp->path || !mp->buildid_len)
				continue;
			const char *b = strrchr(mp->path, '/');
			if (strcmp(b ? b + 1 : mp->path, module) != 0)
				continue;
			for (uint32_t n = 0; n < mp->buildid_len && n < 64; n++)
				sprintf(buf + 2 * n, "%02x", mp->buildid[n]);
			return;
		}
	}
}

/* The key of function f of run m on side new into buf: its name; for
 * code without symbols ("module+0x..."), the name and the module's
 * build-id, or a key no other side can have when none is recorded. */
static const char *func_key(const struct model *m, const struct rfunc *f,
			    int new, char *buf, size_t len)
{
	size_t nm = strlen(f->module);
	if (strncmp(f->name, f->module, nm) != 0 ||
	    strncmp(f->name + nm, "+0x", 3) != 0)
		return f->name;
	char bid[129];
	module_buildid(m, f->module, bid);
	if (bid[0])
		snprintf(buf, len, "%s\037%s", f->name, bid);
	else
		snprintf(buf, len, "%s\037no-build-id\037%s", f->name,
			 new ? "new" : "base");
	return buf;
}

static double run_seconds(const struct model *m)
{
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	double s = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		s += model_thread_seconds(&m->threads[i], wall);
	return s;
}

/* Adds the block counts v of a stack to the rows' block counts tmp (of
 * row row: tmp + row * CMP_BLOCKS). */
static void blocks_add(uint64_t *tmp, size_t row, const uint32_t *v)
{
	uint64_t *t = tmp + row * CMP_BLOCKS;
	for (size_t b = 0; b < CMP_BLOCKS; b++)
		t[b] += v[b];
}

/* Adds the within-run figures of run r (column col) to its rows: for
 * each function (self, total), module and process row, the sums over
 * the run's blocks of c*c and c*n (compare.h).  rself, rtotal and rmod
 * give the rows of the analysis' functions, mark is scratch of c->nrows
 * zeros.  0 or MAPS_ENOMEM. */
static int add_blocks(struct comparison *c, const struct cmp_run *r,
		      size_t col, const size_t *rself, const size_t *rtotal,
		      const size_t *rmod, uint32_t *mark)
{
	const struct model *m = r->cr_model;
	const struct analysis *a = r->cr_analysis;
	const struct cmp_blocks *bl = r->cr_blocks;
	size_t nrows = c->nrows;
	uint64_t *tmp = calloc(nrows ? nrows * CMP_BLOCKS : 1, sizeof(*tmp));
	if (!tmp)
		return MAPS_ENOMEM;
	uint32_t gen = 0, ppid = 0, pimage = 0;
	size_t prow = SIZE_MAX;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		const uint32_t *v = s->used ? cmp_blocks_of(bl, s->seq) : NULL;
		if (!v)
			continue;
		if (prow == SIZE_MAX || s->pid != ppid || s->image != pimage) {
			const char *name = model_proc_name(m, s->pid, s->image);
			if (row_get(c, CMP_PROCESS, name, name, NULL, &prow)) {
				free(tmp);
				return MAPS_ENOMEM;
			}
			ppid = s->pid;
			pimage = s->image;
		}
		if (prow < nrows)
			blocks_add(tmp, prow, v);
		if (!a->exp_n[si])
			continue;
		const uint32_t *fid = a->exp + a->exp_off[si];
		blocks_add(tmp, rself[fid[0]], v);
		blocks_add(tmp, rmod[fid[0]], v);
		gen++;
		for (uint32_t k = 0; k < a->exp_n[si]; k++) {
			size_t row = rtotal[fid[k]];
			if (mark[row] == gen)
				continue;
			mark[row] = gen;
			blocks_add(tmp, row, v);
		}
	}
	for (size_t row = 0; row < nrows; row++) {
		uint64_t *t = tmp + row * CMP_BLOCKS;
		uint64_t tot[CMP_BLOCKS];
		memcpy(tot, bl->total, sizeof(tot));
		for (size_t lev = 0, nb = CMP_BLOCKS; lev < CMP_LEVELS;
		     lev++, nb /= 2) {
			double cc = 0, cn = 0;
			for (size_t b = 0; b < nb; b++) {
				cc += (double)t[b] * (double)t[b];
				cn += (double)t[b] * (double)tot[b];
			}
			double *x = c->rows[row].blk + 2 * (col * CMP_LEVELS + lev);
			x[0] = cc;
			x[1] = cn;
			/* the next level: blocks twice as long */
			for (size_t b = 0; b < nb / 2; b++) {
				t[b] = t[2 * b] + t[2 * b + 1];
				tot[b] = tot[2 * b] + tot[2 * b + 1];
			}
		}
	}
	free(tmp);
	return 0;
}

/* Adds the samples of functions, modules and stacks of run r into
 * column col.  0 or MAPS_ENOMEM. */
static int add_functions(struct comparison *c, const struct cmp_run *r,
			 size_t col, int new)
{
	const struct model *m = r->cr_model;
	const struct analysis *a = r->cr_analysis;
	size_t nf = a->nfuncs ? a->nfuncs : 1;
	size_t *rself = malloc(nf * sizeof(size_t));
	size_t *rtotal = malloc(nf * sizeof(size_t));
	size_t *rmod = malloc(nf * sizeof(size_t));
	uint32_t *mark = NULL;
	int rc = MAPS_ENOMEM;
	if (!rself || !rtotal || !rmod)
		goto out;
	for (size_t i = 0; i < a->nfuncs; i++) {
		const struct rfunc *f = &a->funcs[i];
		char buf[1024];
		const char *key = func_key(m, f, new, buf, sizeof(buf));
		if (row_get(c, CMP_SELF, key, f->name, f->module, &rself[i]) ||
		    row_get(c, CMP_TOTAL, key, f->name, f->module,
			    &rtotal[i]) ||
		    row_get(c, CMP_MODULE, f->module, f->module, NULL,
			    &rmod[i]))
			goto out;
		if (new) {
			/* the module shown is NEW's */
			for (int k = 0; k < 2; k++) {
				struct cmp_row *row =
					&c->rows[k ? rtotal[i] : rself[i]];
				if (strcmp(row->module, f->module) != 0) {
					char *s = mem_strdup(f->module);
					if (!s)
						goto out;
					free(row->module);
					row->module = s;
				}
			}
		}
	}
	mark = calloc(c->nrows ? c->nrows : 1, sizeof(*mark));
	if (!mark)
		goto out;
	if (r->cr_blocks) {
		rc = add_blocks(c, r, col, rself, rtotal, rmod, mark);
		if (rc)
			goto out;
		rc = MAPS_ENOMEM;
		memset(mark, 0, c->nrows * sizeof(*mark));
	}
	uint32_t gen = 0;
	for (size_t si = 0; si < m->capstacks; si++) {
		const struct rstack *s = &m->stacks[si];
		if (!s->used || !a->exp_n[si])
			continue;
		const uint32_t *fid = a->exp + a->exp_off[si];
		double n = (double)s->count;
		c->rows[rself[fid[0]]].runs[col] += n;
		c->rows[rmod[fid[0]]].runs[col] += n;
		gen++;
		for (uint32_t k = 0; k < a->exp_n[si]; k++) {
			size_t row = rtotal[fid[k]];
			if (mark[row] == gen)
				continue;
			mark[row] = gen;
			c->rows[row].runs[col] += n;
		}
	}
	rc = 0;
out:
	free(mark);
	free(rself);
	free(rtotal);
	free(rmod);
	return rc;
}

/* Sets row (kind, id)'s figure of column col to v, with units when the
 * row has none yet.  0 or MAPS_ENOMEM. */
static int set_value(struct comparison *c, enum cmp_kind kind,
		     const char *id, const char *units, size_t col, double v)
{
	size_t row;
	if (row_get(c, kind, id, id, NULL, &row))
		return MAPS_ENOMEM;
	struct cmp_row *cr = &c->rows[row];
	cr->runs[col] = v;
	if (!cr->units && units && !(cr->units = mem_strdup(units)))
		return MAPS_ENOMEM;
	return 0;
}

/* Adds the values of the partial reports of pr (a report metric shown
 * twice has one row) into column col.  0 or MAPS_ENOMEM. */
static int add_partial(struct comparison *c, const struct partial_result *pr,
		       size_t col)
{
	for (size_t i = 0; pr && i < pr->rs_nreports; i++) {
		const struct partial_report *rep = &pr->rs_reports[i];
		for (size_t k = 0; k < rep->pr_nsubsections; k++) {
			const struct partial_subsection *ss =
				&rep->pr_subsections[k];
			for (size_t e = 0; e < ss->ss_nentries; e++) {
				const struct partial_entry *en =
					&ss->ss_entries[e];
				if (en->en_state == PARTIAL_VALUE &&
				    set_value(c, CMP_PARTIAL, en->en_id,
					      en->en_units, col, en->en_value))
					return MAPS_ENOMEM;
			}
		}
	}
	return 0;
}

/* Adds run r's whole-run time, processes, metrics and partial report
 * values into column col.  0 or MAPS_ENOMEM. */
static int add_run(struct comparison *c, const struct cmp_run *r, size_t col)
{
	const struct model *m = r->cr_model;
	size_t row;
	if (row_get(c, CMP_TIME, "total", "total", NULL, &row))
		return MAPS_ENOMEM;
	c->rows[row].runs[col] = run_seconds(m);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		const char *name = model_proc_name(m, p->pid, p->image);
		if (row_get(c, CMP_PROCESS, name, name, NULL, &row))
			return MAPS_ENOMEM;
		c->rows[row].runs[col] += (double)p->samples;
	}
	for (size_t i = 0; i < m->metrics.nm; i++) {
		struct rmsummary s;
		metrics_summary(&m->metrics, i, &s);
		const char *id = s.metric->id;
		for (int k = 0; k < 2; k++) {
			int have = k ? s.have_minmax : s.have_mean;
			if (have &&
			    set_value(c, k ? CMP_METRIC_MAX : CMP_METRIC_MEAN,
				      id, s.metric->units, col,
				      k ? s.max : s.mean))
				return MAPS_ENOMEM;
		}
		/* a rate's total: the values before the division by sample
		 * time, in their units (compare.h) */
		if (s.rate && s.values) {
			char tu[UNITS_BUFSZ];
			double f = units_undivided(tu, sizeof(tu),
						   s.metric->units);
			if (set_value(c, CMP_METRIC_TOTAL, id,
				      tu[0] ? tu : NULL, col, s.total * f))
				return MAPS_ENOMEM;
		}
	}
	return add_partial(c, r->cr_partial, col);
}

/* Mean and standard deviation (NaN for fewer than two) of the finite
 * numbers of v[0..n) (for sample rows, divided by the runs' samples in
 * per; NULL: as they are); *k gets how many there were. */
static double mean_sd(const double *v, const uint64_t *per, size_t n,
		      double *sd, size_t *k)
{
	double sum = 0, sq = 0;
	size_t cnt = 0;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		if (per)
			x = per[i] ? x / (double)per[i] : 0.0;
		if (!isfinite(x))
			continue;
		sum += x;
		cnt++;
	}
	double mean = cnt ? sum / (double)cnt : NAN;
	for (size_t i = 0; i < n; i++) {
		double x = per ? (per[i] ? v[i] / (double)per[i] : 0.0) : v[i];
		if (isfinite(x))
			sq += (x - mean) * (x - mean);
	}
	*sd = cnt >= 2 ? sqrt(sq / (double)(cnt - 1)) : NAN;
	*k = cnt;
	return mean;
}

/* The within-run variance of the share p of sample row r on the side of
 * columns [from, from + n) with N samples: batch means over the blocks
 * of time of all its runs, taken as clusters (a ratio estimate: the
 * blocks' samples differ); *df gets its degrees of freedom.  NaN when a
 * run has no blocks or there are fewer than two. */
static double blocks_var(const struct comparison *c, const struct cmp_row *r,
			 size_t from, size_t n, size_t lev, double p, double N,
			 double *df)
{
	double ss = 0;
	size_t nb = 0;
	for (size_t i = from; i < from + n; i++) {
		size_t j = i * CMP_LEVELS + lev;
		if (!c->col_nblk[j])
			return NAN;
		nb += c->col_nblk[j];
		ss += r->blk[2 * j] - 2 * p * r->blk[2 * j + 1] +
		      p * p * c->col_snn[j];
	}
	if (nb < 2 || N <= 0)
		return NAN;
	*df = (double)(nb - 1);
	return ss < 0 ? 0.0 : ss * (double)nb / (double)(nb - 1) / (N * N);
}

/* Fills side v of row r from its columns [from, from + n) of side s;
 * returns the variance of v's figure (share, seconds or value) for the
 * significance, NaN when there is no noise estimate, and its degrees of
 * freedom in *df (INFINITY for the binomial variance). */
static double side_value(const struct comparison *c, const struct cmp_row *r,
			 size_t from, size_t n, const struct cmp_side *s,
			 size_t lev, struct cmp_val *v, double *df)
{
	const double *x = r->runs + from;
	size_t k;
	double sd, var;
	*df = INFINITY;
	if (r->kind == CMP_TIME || is_metric(r->kind)) {
		v->value = mean_sd(x, NULL, n, &sd, &k);
		v->present = k > 0;
		v->spread = sd;
		v->share = NAN;
		v->seconds = r->kind == CMP_TIME ? v->value : NAN;
		if (k >= 2)
			*df = (double)(k - 1);
		if (is_metric(r->kind))
			return k >= 2 ? sd * sd / (double)k : NAN;
		/* samples are counts: relative standard error 1/sqrt(N) */
		var = s->samples ? v->value * v->value / (double)s->samples
				 : 0.0;
		if (k >= 2 && sd * sd / (double)k > var)
			var = sd * sd / (double)k;
		else
			*df = INFINITY;
		return var;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	v->value = sum;
	v->present = sum > 0;
	v->share = s->samples ? sum / (double)s->samples : 0.0;
	v->seconds = v->share * s->seconds;
	mean_sd(x, c->col_samples + from, n, &sd, &k);
	v->spread = sd;
	var = s->samples ? v->share * (1 - v->share) / (double)s->samples : 0;
	double bdf = 0;
	double bvar = blocks_var(c, r, from, n, lev, v->share,
				 (double)s->samples, &bdf);
	if (isfinite(bvar) && bvar > var) {
		var = bvar;
		*df = bdf;
	}
	if (n >= 2 && isfinite(sd) && sd * sd / (double)n > var) {
		var = sd * sd / (double)n;
		*df = (double)(n - 1);
	}
	return var;
}

/* Student's t density with df degrees of freedom, without its constant
 * factor. */
static double t_kernel(double x, double df)
{
	return pow(1.0 + x * x / df, -(df + 1.0) / 2.0);
}

/* P(T > t) for Student's t with df degrees of freedom, t >= 0: the
 * density integrated from t to infinity after x = t / u (u in (0, 1]),
 * by Simpson's rule. */
static double t_upper(double t, double df)
{
	double lognorm = lgamma((df + 1) / 2) - lgamma(df / 2) -
			 0.5 * log(df * M_PI);
	if (t <= 0)
		return 0.5;
	const int steps = 400; /* 5 digits of z up to t = 20 */
	double h = 1.0 / steps, sum = 0;
	for (int i = 0; i <= steps; i++) {
		double u = i * h;
		double f = u > 0 ? t_kernel(t / u, df) * t / (u * u)
			       : df == 1 ? 1 / t : 0.0;
		if (!isfinite(f))
			f = 0.0;
		sum += f * (i == 0 || i == steps ? 1 : i % 2 ? 4 : 2);
	}
	return exp(lognorm) * sum * h / 3;
}

/* The normal deviate z >= 0 with P(Z > z) = p (0 < p <= 0.5), by
 * bisection; NAN when p is too small to tell. */
static double z_upper(double p)
{
	double lo = 0, hi = 38;
	if (p <= 0.5 * erfc(hi / M_SQRT2))
		return NAN;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The change d over its variance var with df degrees of freedom (a
 * variance estimated from few blocks or runs is itself uncertain), in
 * sigma of the normal distribution: the t statistic d / sqrt(var) turned
 * into the normal deviate of the same tail probability. */
static double sigma_of(double d, double var, double df)
{
	if (isnan(var))
		return NAN;
	if (var <= 0)
		return d == 0 ? 0.0 : copysign(CMP_SIGMA_MAX, d);
	double s = d / sqrt(var);
	if (isfinite(df) && df >= 1 && df < 1e6 && fabs(s) < CMP_SIGMA_MAX) {
		/* too far out to tell: t itself, which z never exceeds */
		double z = z_upper(t_upper(fabs(s), df));
		if (!isnan(z))
			s = copysign(z, s);
	}
	return fabs(s) > CMP_SIGMA_MAX ? copysign(CMP_SIGMA_MAX, s) : s;
}

/* Degrees of freedom of the sum of two variances va, vb with dfa, dfb
 * (Welch-Satterthwaite); INFINITY when both are exact. */
static double welch_df(double va, double dfa, double vb, double dfb)
{
	double q = (isfinite(dfa) ? va * va / dfa : 0) +
		   (isfinite(dfb) ? vb * vb / dfb : 0);
	if (q <= 0 || !isfinite(va + vb))
		return INFINITY;
	return (va + vb) * (va + vb) / q;
}

/* With one run on a side and several on the other, the lone run's
 * variance vx (degrees of freedom dfx) is at least the other side's
 * variance of one run: its spread squared, with its runs less one. */
static void pool_runs(size_t nx, double *vx, double *dfx, size_t ny,
		      double spread_y)
{
	if (nx != 1 || ny < 2 || !isfinite(spread_y))
		return;
	double v = spread_y * spread_y;
	if (isnan(*vx) || v > *vx) {
		*vx = v;
		*dfx = (double)(ny - 1);
	}
}

static void finish_row(struct comparison *c, struct cmp_row *r)
{
	size_t nb = c->base.nruns, nn = c->new.nruns;
	double dfb, dfn;
	double vb = side_value(c, r, 0, nb, &c->base, 0, &r->base, &dfb);
	double vn = side_value(c, r, nb, nn, &c->new, 0, &r->new, &dfn);
	if (r->kind == CMP_TIME) {
		/* a lone run: the variation between runs assumed */
		double f = c->run_noise / 100.0;
		if (nb == 1)
			vb += f * f * r->base.value * r->base.value;
		if (nn == 1)
			vn += f * f * r->new.value * r->new.value;
	}
	if (!is_metric(r->kind)) {
		pool_runs(nb, &vb, &dfb, nn, r->new.spread);
		pool_runs(nn, &vn, &dfn, nb, r->base.spread);
	}
	double df = welch_df(vb, dfb, vn, dfn);
	double b = r->base.present ? r->base.value : 0.0;
	double n = r->new.present ? r->new.value : 0.0;
	r->d_value = n - b;
	r->d_pp = NAN;
	r->d_seconds = NAN;
	r->d_rel = NAN;
	if (is_metric(r->kind)) {
		if (r->base.present && r->new.present) {
			if (b != 0)
				r->d_rel = 100.0 * (n - b) / fabs(b);
			r->sigma = r->kind == CMP_PARTIAL
					   ? NAN
					   : sigma_of(n - b, vb + vn, df);
		} else {
			r->d_value = NAN;
			r->sigma = NAN;
		}
		return;
	}
	r->d_seconds = r->new.seconds - r->base.seconds;
	if (r->base.seconds > 0)
		r->d_rel = 100.0 * r->d_seconds / r->base.seconds;
	if (r->kind == CMP_TIME) {
		r->sigma = sigma_of(r->d_seconds, vb + vn, df);
		return;
	}
	r->d_pp = 100.0 * (r->new.share - r->base.share);
	/* blocks of each length: the least significance (the blocking
	 * method: longer blocks see longer correlations, with fewer
	 * degrees of freedom) */
	double d = r->new.share - r->base.share;
	r->sigma = sigma_of(d, vb + vn, df);
	for (size_t lev = 1; lev < CMP_LEVELS; lev++) {
		struct cmp_val xb = r->base, xn = r->new;
		vb = side_value(c, r, 0, nb, &c->base, lev, &xb, &dfb);
		vn = side_value(c, r, nb, nn, &c->new, lev, &xn, &dfn);
		pool_runs(nb, &vb, &dfb, nn, xn.spread);
		pool_runs(nn, &vn, &dfn, nb, xb.spread);
		double sg = sigma_of(d, vb + vn, welch_df(vb, dfb, vn, dfn));
		if (fabs(sg) < fabs(r->sigma))
			r->sigma = sg;
	}
}

/* The size of row x's change for ordering: percentage points, else the
 * relative change, else nothing (-1). */
static double magnitude(const struct cmp_row *x)
{
	double d = isnan(x->d_pp) ? x->d_rel : x->d_pp;
	return isnan(d) ? -1.0 : fabs(d);
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct cmp_row *a = pa, *b = pb;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	double ma = magnitude(a), mb = magnitude(b);
	if (ma != mb)
		return ma < mb ? 1 : -1;
	double sa = isnan(a->d_seconds) ? 0 : fabs(a->d_seconds);
	double sb = isnan(b->d_seconds) ? 0 : fabs(b->d_seconds);
	if (sa != sb)
		return sa < sb ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* Sums side s from runs[0..n) (columns from col).  0 or MAPS_ENOMEM. */
static int side_info(struct comparison *c, struct cmp_side *s,
		      const struct cmp_run *runs, size_t n, size_t col)
{
	const struct rproc *p = model_first_proc(runs[0].cr_model);
	s->nruns = n;
	s->wall = model_clock(runs[0].cr_model) == MAPLOG_CLOCK_WALL;
	s->program = mem_strdup(p ? model_proc_name(runs[0].cr_model, p->pid,
						    p->image)
				  : "[unknown]");
	s->command = p && p->cmdline ? mem_strdup(p->cmdline) : NULL;
	if (!s->program || (p && p->cmdline && !s->command))
		return MAPS_ENOMEM;
	double secs = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cmp_blocks *bl = runs[i].cr_blocks;
		uint64_t tot[CMP_BLOCKS];
		if (bl)
			memcpy(tot, bl->total, sizeof(tot));
		for (size_t lev = 0, nb = CMP_BLOCKS; bl && lev < CMP_LEVELS;
		     lev++, nb /= 2) {
			size_t j = (col + i) * CMP_LEVELS + lev;
			for (size_t b = 0; b < nb; b++) {
				c->col_snn[j] += (double)tot[b] * (double)tot[b];
				c->col_nblk[j] += tot[b] > 0;
			}
			for (size_t b = 0; b < nb / 2; b++)
				tot[b] = tot[2 * b] + tot[2 * b + 1];
		}
		c->col_samples[col + i] = runs[i].cr_model->samples;
		s->samples += runs[i].cr_model->samples;
		secs += run_seconds(runs[i].cr_model);
	}
	s->seconds = secs / (double)n;
	return 0;
}

static int add_note(struct comparison *c, const char *text)
{
	char *s = mem_strdup(text);
	if (!s || mem_grow(&c->notes, &c->capnotes, c->nnotes,
			   sizeof(*c->notes))) {
		free(s);
		return MAPS_ENOMEM;
	}
	c->notes[c->nnotes++] = s;
	return 0;
}

/* Notes on what makes BASE and NEW hard to compare; 0 or MAPS_ENOMEM. */
static int side_notes(struct comparison *c)
{
	char line[512];
	if (strcmp(c->base.program, c->new.program) != 0) {
		snprintf(line, sizeof(line),
			 "BASE runs %s, NEW runs %s: different programs; "
			 "functions are matched by name",
			 c->base.program, c->new.program);
		if (add_note(c, line))
			return MAPS_ENOMEM;
	}
	if (c->base.wall != c->new.wall) {
		snprintf(line, sizeof(line),
			 "BASE samples %s time, NEW %s time: their seconds "
			 "do not compare",
			 c->base.wall ? "wall" : "CPU",
			 c->new.wall ? "wall" : "CPU");
		if (add_note(c, line))
			return MAPS_ENOMEM;
	}
	return 0;
}

int compare_run(struct comparison *c, const struct cmp_run *base,
		size_t nbase, const struct cmp_run *new, size_t nnew)
{
	return compare_run_noise(c, base, nbase, new, nnew, CMP_RUN_NOISE);
}

int compare_run_noise(struct comparison *c, const struct cmp_run *base,
		      size_t nbase, const struct cmp_run *new, size_t nnew,
		      double run_noise)
{
	memset(c, 0, sizeof(*c));
	c->run_noise = run_noise;
	c->ncols = nbase + nnew;
	c->col_samples = calloc(c->ncols ? c->ncols : 1, sizeof(uint64_t));
	c->col_snn = calloc(c->ncols ? c->ncols * CMP_LEVELS : 1,
			    sizeof(double));
	c->col_nblk = calloc(c->ncols ? c->ncols * CMP_LEVELS : 1,
			     sizeof(size_t));
	if (!c->col_samples || !c->col_snn || !c->col_nblk)
		goto fail;
	if (side_info(c, &c->base, base, nbase, 0) ||
	    side_info(c, &c->new, new, nnew, nbase))
		goto fail;
	for (size_t i = 0; i < c->ncols; i++) {
		const struct cmp_run *r = i < nbase ? &base[i] : &new[i - nbase];
		if (add_run(c, r, i) || add_functions(c, r, i, i >= nbase))
			goto fail;
	}
	/* a function with no samples of a kind on either side (total
	 * samples but no self samples) has no row of that kind */
	size_t kept = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];
		finish_row(c, r);
		if (r->base.present || r->new.present) {
			c->rows[kept++] = *r;
			continue;
		}
		free(r->name);
		free(r->module);
		free(r->units);
		free(r->key);
		free(r->runs);
		free(r->blk);
	}
	c->nrows = kept;
	qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_rows);
	free(c->idx); /* row order changed */
	c->idx = NULL;
	c->capidx = 0;
	if (side_notes(c))
		goto fail;
	if (nbase == 1 && nnew == 1 &&
	    add_note(c, "one run a side: the noise is the sampling noise "
			"within the runs; variation between runs of one "
			"build (a hash seed, address layout, a busy machine) "
			"is not measured: for a program whose runs vary, give "
			"several runs a side (--base, --new)"))
		goto fail;
	if ((nbase == 1 || nnew == 1) && run_noise > 0) {
		char line[256];
		snprintf(line, sizeof(line),
			 "the whole-run time of a side of one run is judged "
			 "with %g%% of it assumed as the variation between "
			 "runs (--run-noise)", run_noise);
		if (add_note(c, line))
			goto fail;
	}
	return 0;
fail:
	compare_free(c);
	return MAPS_ENOMEM;
}

void compare_free(struct comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].name);
		free(c->rows[i].module);
		free(c->rows[i].units);
		free(c->rows[i].key);
		free(c->rows[i].runs);
		free(c->rows[i].blk);
	}
	free(c->rows);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->idx);
	free(c->col_samples);
	free(c->col_snn);
	free(c->col_nblk);
	free(c->base.program);
	free(c->base.command);
	free(c->new.program);
	free(c->new.command);
	memset(c, 0, sizeof(*c));
}
