/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rules: parser and verdicts of mapreport --compare's regression rules
 * (the language is in rules.h).  The parser is a hand-written scanner
 * over one NUL-terminated line that stops at the first error with its
 * column; the input is untrusted (a rules file in the user's repository,
 * a CI variable), so it never reads past the NUL, keeps names as they
 * are (any bytes but NUL) and bounds nothing but memory.
 * test/fuzz/fuzz_rules.c fuzzes rules_add_buffer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/rules.h"

/* The parser's state: the rule text and where it is. */
struct scan {
	const char *s;
	size_t i;
	const char *what;   /* the error, once one was found */
	size_t col;
};

static void blanks(struct scan *sc)
{
	while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t')
		sc->i++;
}

/* Records an error at the current position; returns MAPS_EINVAL. */
static int fail(struct scan *sc, const char *what)
{
	sc->what = what;
	sc->col = sc->i + 1;
	return MAPS_EINVAL;
}

/* Whether the word w (letters) is next, not followed by a letter; skips
 * it when it is. */
static int word(struct scan *sc, const char *w)
{
	size_t n = strlen(w);
	if (strncmp(sc->s + sc->i, w, n) != 0)
		return 0;
	char c = sc->s[sc->i + n];
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 0;
	sc->i += n;
	return 1;
}

/* A name after "(" up to its ")" into a new string *out. */
static int name(struct scan *sc, char **out)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	blanks(sc);
	size_t open = sc->i;
	if (sc->s[sc->i] == '"') {
		sc->i++;
		for (;;) {
			char c = sc->s[sc->i];
			if (!c) {
				free(buf);
				sc->i = open;
				return fail(sc, "unterminated \"name\"");
			}
			sc->i++;
			if (c == '"')
				break;
			if (c == '\\') {
				c = sc->s[sc->i];
				if (c != '"' && c != '\\') {
					free(buf);
					return fail(sc, "only \\\" and \\\\ "
							"escape in a name");
				}
				sc->i++;
			}
			if (mem_grow(&buf, &cap, n, 1)) {
				free(buf);
				return MAPS_ENOMEM;
			}
			buf[n++] = c;
		}
		blanks(sc);
	} else {
		int depth = 0;
		for (;;) {
			char c = sc->s[sc->i];
			if (!c) {
				free(buf);
				return fail(sc, "expected ')' after the name");
			}
			if (c == ')' && depth == 0)
				break;
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
			if (mem_grow(&buf, &cap, n, 1)) {
				free(buf);
				return MAPS_ENOMEM;
			}
			buf[n++] = c;
			sc->i++;
		}
		while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
			n--;
	}
	if (sc->s[sc->i] != ')') {
		free(buf);
		return fail(sc, "expected ')' after the name");
	}
	if (!n) {
		free(buf);
		sc->i = open;
		return fail(sc, "empty name");
	}
	if (mem_grow(&buf, &cap, n, 1)) {
		free(buf);
		return MAPS_ENOMEM;
	}
	buf[n] = '\0';
	sc->i++;
	*out = buf;
	return 0;
}

/* An unsigned decimal number (digits, an optional fraction) into *v. */
static int number(struct scan *sc, double *v)
{
	size_t start = sc->i, digits = 0;
	double x = 0, scale = 1;
	while (sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9') {
		x = x * 10 + (sc->s[sc->i++] - '0');
		digits++;
	}
	if (sc->s[sc->i] == '.') {
		sc->i++;
		while (sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9') {
			scale /= 10;
			x += (sc->s[sc->i++] - '0') * scale;
			digits++;
		}
	}
	if (!digits) {
		sc->i = start;
		return fail(sc, "expected a number");
	}
	if (!isfinite(x)) {
		sc->i = start;
		return fail(sc, "number too large");
	}
	*v = x;
	return 0;
}

static int subject(struct scan *sc, struct rule *r)
{
	static const struct {
		const char *w;
		enum cmp_kind k;
	} subj[] = {
		{"self", CMP_SELF},       {"total", CMP_TOTAL},
		{"module", CMP_MODULE},   {"process", CMP_PROCESS},
		{"metric", CMP_METRIC_MEAN}, {"partial", CMP_PARTIAL},
	};
	for (size_t k = 0; k < sizeof(subj) / sizeof(subj[0]); k++) {
		if (!word(sc, subj[k].w))
			continue;
		blanks(sc);
		if (sc->s[sc->i] != '(') {
			if (subj[k].k == CMP_TOTAL) {
				r->ru_kind = CMP_TIME;
				return 0;
			}
			return fail(sc, "expected '(' and a name");
		}
		sc->i++;
		r->ru_kind = subj[k].k;
		int rc = name(sc, &r->ru_name);
		if (rc || r->ru_kind != CMP_METRIC_MEAN)
			return rc;
		if (sc->s[sc->i] == '.') {
			sc->i++;
			if (word(sc, "max"))
				r->ru_kind = CMP_METRIC_MAX;
			else if (word(sc, "total"))
				r->ru_kind = CMP_METRIC_TOTAL;
			else if (!word(sc, "mean"))
				return fail(sc, "expected 'mean', 'max' or "
						"'total' after '.'");
		}
		return 0;
	}
	return fail(sc, "expected total, self(NAME), total(NAME), "
			"module(NAME), process(NAME), metric(NAME) or "
			"partial(ID)");
}

static int op(struct scan *sc, struct rule *r)
{
	char c = sc->s[sc->i];
	if (c != '<' && c != '>')
		return fail(sc, "expected >, >=, < or <=");
	sc->i++;
	int eq = sc->s[sc->i] == '=';
	sc->i += (size_t)eq;
	r->ru_op = c == '>' ? (eq ? RULE_GE : RULE_GT) : (eq ? RULE_LE : RULE_LT);
	return 0;
}

static int change(struct scan *sc, struct rule *r)
{
	double sign = 1;
	if (sc->s[sc->i] == '+' || sc->s[sc->i] == '-')
		sign = sc->s[sc->i++] == '-' ? -1 : 1;
	int rc = number(sc, &r->ru_limit);
	if (rc)
		return rc;
	r->ru_limit *= sign;
	int metric = r->ru_kind == CMP_METRIC_MEAN ||
		     r->ru_kind == CMP_METRIC_MAX ||
		     r->ru_kind == CMP_METRIC_TOTAL || r->ru_kind == CMP_PARTIAL;
	size_t at = sc->i;
	if (word(sc, "pp")) {
		r->ru_unit = RULE_PP;
		if (metric || r->ru_kind == CMP_TIME) {
			sc->i = at;
			return fail(sc, metric ? "a metric takes % or its own "
						 "units, not pp"
					       : "total takes % or s, not pp");
		}
	} else if (sc->s[sc->i] == '%') {
		sc->i++;
		r->ru_unit = RULE_PCT;
	} else if (word(sc, "s")) {
		r->ru_unit = RULE_SEC;
		if (metric) {
			sc->i = at;
			return fail(sc, "a metric takes % or its own units, "
					"not s");
		}
	} else {
		r->ru_unit = RULE_PLAIN;
		if (!metric)
			return fail(sc, "expected a unit: pp, % or s");
	}
	return 0;
}

/* The optional "at N sigma", then the end (or a # comment). */
static int tail(struct scan *sc, struct rule *r)
{
	blanks(sc);
	if (word(sc, "at")) {
		blanks(sc);
		int rc = number(sc, &r->ru_sigma);
		if (rc)
			return rc;
		blanks(sc);
		if (!word(sc, "sigma"))
			return fail(sc, "expected 'sigma'");
		blanks(sc);
	}
	if (sc->s[sc->i] && sc->s[sc->i] != '#')
		return fail(sc, "expected the end of the rule or 'at N "
				"sigma'");
	return 0;
}

static void rule_free(struct rule *r)
{
	free(r->ru_text);
	free(r->ru_origin);
	free(r->ru_name);
}

static void set_error(struct rule_error *err, const char *origin,
		      const char *text, size_t col, const char *what)
{
	snprintf(err->re_origin, sizeof(err->re_origin), "%s", origin);
	snprintf(err->re_text, sizeof(err->re_text), "%s", text);
	err->re_col = col;
	err->re_what = what;
}

int rules_add(struct rule_set *set, const char *origin, const char *text,
	      struct rule_error *err)
{
	struct rule r;
	memset(&r, 0, sizeof(r));
	r.ru_sigma = NAN;
	struct scan sc = {text, 0, NULL, 0};
	blanks(&sc);
	int rc = subject(&sc, &r);
	if (!rc) {
		blanks(&sc);
		rc = op(&sc, &r);
	}
	if (!rc) {
		blanks(&sc);
		rc = change(&sc, &r);
	}
	if (!rc)
		rc = tail(&sc, &r);
	if (rc == MAPS_EINVAL)
		set_error(err, origin, text, sc.col, sc.what);
	if (rc) {
		rule_free(&r);
		return rc;
	}
	/* the text without blanks around it or the comment */
	size_t b = strspn(text, " \t"), e = sc.i;
	while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
		e--;
	r.ru_text = malloc(e - b + 1);
	r.ru_origin = mem_strdup(origin);
	if (!r.ru_text || !r.ru_origin ||
	    mem_grow(&set->rs_rules, &set->rs_cap, set->rs_n,
		     sizeof(*set->rs_rules))) {
		rule_free(&r);
		return MAPS_ENOMEM;
	}
	memcpy(r.ru_text, text + b, e - b);
	r.ru_text[e - b] = '\0';
	set->rs_rules[set->rs_n++] = r;
	return 0;
}

int rules_add_buffer(struct rule_set *set, const char *name, const char *buf,
		     size_t len, struct rule_error *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int rc = 0;
	for (size_t i = 0; i < len && !rc;) {
		size_t e = i;
		while (e < len && buf[e] != '\n')
			e++;
		lineno++;
		size_t n = e - i;
		if (n && buf[i + n - 1] == '\r')
			n--;
		if (mem_reserve(&line, &cap, n + 1, 1, 256)) {
			rc = MAPS_ENOMEM;
			break;
		}
		memcpy(line, buf + i, n);
		line[n] = '\0';
		i = e + 1;
		size_t b = strspn(line, " \t");
		if (!line[b] || line[b] == '#')
			continue;
		char origin[256];
		snprintf(origin, sizeof(origin), "%s:%zu", name, lineno);
		if (strlen(line) != n) { /* a NUL byte in the line */
			set_error(err, origin, line, strlen(line) + 1,
				  "NUL byte in the rule");
			rc = MAPS_EINVAL;
			break;
		}
		rc = rules_add(set, origin, line, err);
	}
	free(line);
	return rc;
}

int rules_add_file(struct rule_set *set, const char *path,
		   struct rule_error *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f)
		goto io;
	for (;;) {
		if (mem_reserve(&buf, &cap, n + 4096, 1, 4096)) {
			fclose(f);
			free(buf);
			return MAPS_ENOMEM;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		errno = e;
		goto io;
	}
	fclose(f);
	int rc = rules_add_buffer(set, path, buf, n, err);
	free(buf);
	return rc;
io:
	set_error(err, path, "", 0, strerror(errno));
	return MAPS_EIO;
}

void rules_free(struct rule_set *set)
{
	for (size_t i = 0; i < set->rs_n; i++)
		rule_free(&set->rs_rules[i]);
	free(set->rs_rules);
	memset(set, 0, sizeof(*set));
}

const char *rules_unit_str(enum rule_unit u)
{
	switch (u) {
	case RULE_PP: return "pp";
	case RULE_PCT: return "%";
	case RULE_SEC: return "s";
	case RULE_PLAIN: return "";
	}
	return "";
}

const char *rules_op_str(enum rule_op o)
{
	switch (o) {
	case RULE_GT: return ">";
	case RULE_GE: return ">=";
	case RULE_LT: return "<";
	case RULE_LE: return "<=";
	}
	return "?";
}

/* Whether row name rn is what the rule's name n asks for: the same, or
 * n followed by a parameter list. */
static int name_matches(const char *n, const char *rn)
{
	size_t len = strlen(n);
	return strncmp(n, rn, len) == 0 && (!rn[len] || rn[len] == '(');
}

static int is_metric_kind(enum cmp_kind k)
{
	return k == CMP_METRIC_MEAN || k == CMP_METRIC_MAX ||
	       k == CMP_METRIC_TOTAL;
}

/* Whether the metric id is what the rule's metric name n asks for: the
 * id itself, or a suffix of it that starts after a '.'. */
static int metric_suffix(const char *n, const char *id)
{
	size_t ln = strlen(n), li = strlen(id);
	if (ln > li || strcmp(id + li - ln, n) != 0)
		return 0;
	return ln == li || id[li - ln - 1] == '.';
}

/* The metric id of c that the metric name n names: an id equal to n,
 * else the one id of which n is a dotted suffix.  NULL when none; when
 * n ends several ids and none is n, NULL with two of them in *a, *b. */
static const char *metric_resolve(const char *n, const struct comparison *c,
				  const char **a, const char **b)
{
	const char *found = NULL;
	*a = *b = NULL;
	for (size_t k = 0; k < c->nrows; k++) {
		const struct cmp_row *w = &c->rows[k];
		if (!is_metric_kind(w->kind))
			continue;
		if (strcmp(w->name, n) == 0)
			return w->name;
		if (!metric_suffix(n, w->name))
			continue;
		if (!found)
			found = w->name;
		else if (strcmp(found, w->name) != 0 && !*b) {
			*a = found;
			*b = w->name;
		}
	}
	return *b ? NULL : found;
}

int rules_resolve(const struct rule_set *set, const struct comparison *c,
		  struct rule_error *err)
{
	for (size_t i = 0; i < set->rs_n; i++) {
		const struct rule *r = &set->rs_rules[i];
		const char *a, *b;
		if (!is_metric_kind(r->ru_kind) ||
		    metric_resolve(r->ru_name, c, &a, &b) || !b)
			continue;
		/* the name is after the first '(' and any blanks */
		const char *p = strchr(r->ru_text, '(');
		size_t col = p ? (size_t)(p - r->ru_text) + 2 : 1;
		while (p && (p[1] == ' ' || p[1] == '\t')) {
			p++;
			col++;
		}
		if (strcmp(a, b) > 0) {
			const char *t = a;
			a = b;
			b = t;
		}
		set_error(err, r->ru_origin, r->ru_text, col, err->re_buf);
		snprintf(err->re_buf, sizeof(err->re_buf),
			 "metric name '%s' is ambiguous: it ends %s and %s; "
			 "write more of the id", r->ru_name, a, b);
		return MAPS_EINVAL;
	}
	return 0;
}

/* The change of row w in unit u. */
static double change_of(const struct cmp_row *w, enum rule_unit u)
{
	switch (u) {
	case RULE_PP: return w->d_pp;
	case RULE_PCT: return w->d_rel;
	case RULE_SEC: return w->d_seconds;
	case RULE_PLAIN: return w->d_value;
	}
	return NAN;
}

static int past(enum rule_op o, double x, double limit)
{
	switch (o) {
	case RULE_GT: return x > limit;
	case RULE_GE: return x >= limit;
	case RULE_LT: return x < limit;
	case RULE_LE: return x <= limit;
	}
	return 0;
}

/* Judges rule r on row w into res. */
static void judge(const struct rule *r, const struct cmp_row *w,
		  double sigma, struct rule_result *res)
{
	res->rr_row = w;
	res->rr_change = change_of(w, r->ru_unit);
	res->rr_sigma = w->sigma;
	res->rr_sigma_min = isnan(r->ru_sigma) ? sigma : r->ru_sigma;
	res->rr_over = !isnan(res->rr_change) &&
		       past(r->ru_op, res->rr_change, r->ru_limit);
	res->rr_significant = res->rr_sigma_min <= 0 || isnan(w->sigma) ||
			      fabs(w->sigma) >= res->rr_sigma_min;
	res->rr_verdict = res->rr_over && res->rr_significant ? RULE_BROKEN
							       : RULE_PASS;
}

size_t rules_eval(const struct rule_set *set, const struct comparison *c,
		  double sigma, struct rule_result *out)
{
	size_t broken = 0;
	for (size_t i = 0; i < set->rs_n; i++) {
		const struct rule *r = &set->rs_rules[i];
		struct rule_result *res = &out[i];
		memset(res, 0, sizeof(*res));
		res->rr_rule = r;
		res->rr_verdict = RULE_NO_DATA;
		res->rr_change = NAN;
		res->rr_sigma = NAN;
		res->rr_sigma_min = isnan(r->ru_sigma) ? sigma : r->ru_sigma;
		const char *id = NULL, *a, *b;
		if (is_metric_kind(r->ru_kind) &&
		    !(id = metric_resolve(r->ru_name, c, &a, &b)))
			continue; /* nothing, or ambiguous: no data */
		for (size_t k = 0; k < c->nrows; k++) {
			const struct cmp_row *w = &c->rows[k];
			if (w->kind != r->ru_kind ||
			    (id && strcmp(id, w->name) != 0) ||
			    (!id && r->ru_name &&
			     !name_matches(r->ru_name, w->name)))
				continue;
			struct rule_result t;
			t.rr_rule = r;
			judge(r, w, sigma, &t);
			int better =
				!res->rr_row ||
				(t.rr_verdict == RULE_BROKEN &&
				 res->rr_verdict != RULE_BROKEN) ||
				(t.rr_verdict == res->rr_verdict &&
				 fabs(t.rr_change) > fabs(res->rr_change));
			if (better)
				*res = t;
		}
		if (res->rr_verdict == RULE_BROKEN)
			broken++;
	}
	return broken;
}
