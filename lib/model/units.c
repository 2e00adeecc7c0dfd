/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units: scaling and printing metric values (see units.h for the rules).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"

enum uclass {
	U_SI,      /* x1000 prefixes */
	U_IEC,     /* x1024 prefixes, bytes */
	U_NONE,    /* never scaled */
	U_NS,      /* time from ns up to s */
};

#define NPREFIX 7
static const char *const si[NPREFIX] = {"", "k", "M", "G", "T", "P", "E"};
static const char *const iec[NPREFIX] = {"", "Ki", "Mi", "Gi", "Ti", "Pi",
					 "Ei"};
static const char *const times[4] = {"ns", "us", "ms", "s"};

static enum uclass classify(const char *u)
{
	if (!strcmp(u, "B") || !strcmp(u, "B/s") || !strcmp(u, "B/S"))
		return U_IEC;
	if (!strcmp(u, "%") || !strcmp(u, "s"))
		return U_NONE;
	if (!strcmp(u, "ns"))
		return U_NS;
	return U_SI;
}

/* A prefix is glued to symbols (W, kW; Hz, MHz) and to "/s" (k/s), and
 * is a word of its own before word units (12.5 k calls/s). */
static int glued(const char *u)
{
	if (!*u || *u == '/')
		return 1;
	size_t n = strcspn(u, "/");
	return n <= 2 && !strchr(u, ' ');
}

/* Writes the magnitude m (>= 0) with d decimals. */
static double put(char *b, size_t n, double m, int d)
{
	snprintf(b, n, "%.*f", d, m);
	return strtod(b, NULL);
}

/* Three significant digits of m, 1 <= m; returns the value as printed
 * (which rounding may have carried to the next power of ten). */
static double digits(char *b, size_t n, double m)
{
	if (m < 10 && put(b, n, m, 2) < 10)
		return strtod(b, NULL);
	if (m < 100 && put(b, n, m, 1) < 100)
		return strtod(b, NULL);
	if (m < 1e6)
		return put(b, n, m, 0);
	snprintf(b, n, "%.3g", m);
	return strtod(b, NULL);
}

/* Values below one: up to three significant digits, at most six
 * decimals, trailing zeros dropped ("0.25", "0.000123", "0"). */
static void fraction(char *b, size_t n, double m)
{
	int d = 2 - (int)floor(log10(m));
	if (d > 6)
		d = 6;
	if (d < 0)
		d = 0;
	snprintf(b, n, "%.*f", d, m);
	char *dot = strchr(b, '.');
	if (dot) {
		char *e = b + strlen(b);
		while (e > dot + 1 && e[-1] == '0')
			*--e = 0;
		if (e == dot + 1)
			*dot = 0;
	}
}

const char *units_format(char *buf, size_t len, double v, const char *units)
{
	if (!len)
		return buf;
	if (!units)
		units = "";
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	enum uclass c = classify(units);
	double base = c == U_IEC ? 1024 : 1000;
	int max = c == U_NONE ? 0 : c == U_NS ? 3 : NPREFIX - 1;
	int neg = v < 0;
	double m = fabs(v);
	int i = 0;
	while (i < max && m >= base) {
		m /= base;
		i++;
	}
	char num[64];
	if (m == 0) {
		snprintf(num, sizeof(num), "0");
	} else if (i == 0 && m >= 1 && m < 1e15 && m == floor(m)) {
		snprintf(num, sizeof(num), "%.0f", m);
	} else if (m < 1) {
		fraction(num, sizeof(num), m);
	} else if (digits(num, sizeof(num), m) >= base && i < max) {
		/* 999.7 k is 1.00 M, 1023.6 Ki is 1.00 Mi */
		i++;
		digits(num, sizeof(num), fmax(m / base, 1.0));
	}
	neg = neg && strcmp(num, "0") != 0; /* no "-0" */

	const char *pre = "", *u = units;
	if (c == U_IEC)
		pre = iec[i];
	else if (c == U_SI)
		pre = si[i];
	else if (c == U_NS)
		u = times[i];
	if (!*pre)
		snprintf(buf, len, "%s%s%s%s", neg ? "-" : "", num, *u ? " " : "",
			 u);
	else if (glued(u))
		snprintf(buf, len, "%s%s %s%s", neg ? "-" : "", num, pre, u);
	else
		snprintf(buf, len, "%s%s %s %s", neg ? "-" : "", num, pre, u);
	return buf;
}

double units_undivided(char *buf, size_t len, const char *units)
{
	if (!units)
		units = "";
	size_t n = strlen(units);
	double f = 1;
	if (n >= 2 && units[n - 2] == '/' &&
	    (units[n - 1] == 's' || units[n - 1] == 'S')) {
		snprintf(buf, len, "%.*s", (int)(n - 2), units);
	} else if (!strcmp(units, "W")) {
		snprintf(buf, len, "J");
	} else if (!strcmp(units, "%")) {
		snprintf(buf, len, "s");
		f = 0.01;
	} else if (!*units) {
		snprintf(buf, len, "s");
	} else {
		snprintf(buf, len, "%s*s", units);
	}
	return f;
}
