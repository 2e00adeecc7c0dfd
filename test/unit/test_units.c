/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of units_format() and units_undivided() (lib/model/units.c):
 * IEC prefixes for bytes, SI for the rest, % never scaled, ns up to s,
 * decimals below one, three significant digits with rounding carried to
 * the next prefix, huge values, negatives, and NaN and infinities never
 * printed raw.
 */
#include <math.h>
#include <string.h>

#include <check.h>

#include "model/units.h"

/* units_format(v, u) must give want. */
#define FMT(v, u, want)                                                        \
	do {                                                                   \
		char b_[UNITS_BUFSZ];                                          \
		ck_assert_str_eq(units_format(b_, sizeof(b_), (v), (u)),       \
				 (want));                                      \
	} while (0)

START_TEST(units_bytes)
{
	FMT(0, "B", "0 B");
	FMT(1, "B", "1 B");
	FMT(5.5, "B", "5.50 B");
	FMT(1023, "B", "1023 B");
	FMT(1024, "B", "1.00 KiB");
	FMT(1536, "B", "1.50 KiB");
	FMT(1000 * 1024.0, "B", "1000 KiB"); /* four digits below 1024 Ki */
	FMT(1023.6 * 1024, "B", "1.00 MiB"); /* rounds up to the next */
	FMT(1536000, "B/s", "1.46 MiB/s");
	FMT(1048576, "B/s", "1.00 MiB/s");
	FMT(1073741824.0 * 3, "B", "3.00 GiB");
	FMT(1099511627776.0 * 12.26, "B/S", "12.3 TiB/S");
	FMT(1125899906842624.0, "B", "1.00 PiB");
	FMT(1152921504606846976.0 * 5, "B", "5.00 EiB");
	FMT(-2048, "B", "-2.00 KiB");
	FMT(0.5, "B", "0.5 B");
}
END_TEST

START_TEST(units_si)
{
	FMT(12500, "/s", "12.5 k/s");
	FMT(999, "/s", "999 /s");
	FMT(999.4, "/s", "999 /s");
	FMT(999.7, "/s", "1.00 k/s");
	FMT(999999, "/s", "1.00 M/s");
	FMT(1000, "/s", "1.00 k/s");
	FMT(12500, "calls/s", "12.5 k calls/s");
	FMT(42, "calls/s", "42 calls/s");
	FMT(1500, "W", "1.50 kW");
	FMT(150, "W", "150 W");
	FMT(2.5e6, "J", "2.50 MJ");
	FMT(3.2e9, "Hz", "3.20 GHz");
	FMT(7.5e12, "", "7.50 T");
	FMT(12500, NULL, "12.5 k");
	FMT(42, "", "42");
	FMT(3.2e6, "widgets", "3.20 M widgets");
	FMT(9.996, "W", "10.0 W");
	FMT(99.96, "W", "100 W");
	FMT(-12500, "/s", "-12.5 k/s");
}
END_TEST

START_TEST(units_percent_and_time)
{
	FMT(0.25, "%", "0.25 %");
	FMT(0, "%", "0 %");
	FMT(100, "%", "100 %");
	FMT(12.5, "%", "12.5 %");
	FMT(1600, "%", "1600 %"); /* never k% */
	FMT(1600.4, "%", "1600 %");
	FMT(12500, "s", "12500 s"); /* nor ks */
	FMT(2.5, "s", "2.50 s");
	FMT(5, "ns", "5 ns");
	FMT(999, "ns", "999 ns");
	FMT(1500, "ns", "1.50 us");
	FMT(2.5e6, "ns", "2.50 ms");
	FMT(2.5e9, "ns", "2.50 s");
	FMT(1e13, "ns", "10000 s"); /* no larger unit than s */
}
END_TEST

START_TEST(units_below_one)
{
	FMT(0.5, "W", "0.5 W");
	FMT(0.125, "W", "0.125 W");
	FMT(0.0001234, "W", "0.000123 W");
	FMT(0.9996, "W", "1 W");
	FMT(1e-9, "W", "0 W");    /* six decimals at most: no e-09 */
	FMT(-1e-9, "W", "0 W");   /* and no "-0" */
	FMT(-0.25, "%", "-0.25 %");
	char b[UNITS_BUFSZ];
	for (double v = 1e-12; v < 1; v *= 1.7) {
		units_format(b, sizeof(b), v, "/s");
		ck_assert_msg(!strchr(b, 'e'), "%g gave %s", v, b);
	}
}
END_TEST

START_TEST(units_huge_and_not_finite)
{
	FMT(1e30, "B", "8.67e+11 EiB");
	FMT(5e21, "/s", "5000 E/s");
	FMT(1e300, "W", "1e+282 EW");
	FMT(1e300, "%", "1e+300 %");
	FMT(1.8446744073709552e19, "", "18.4 E"); /* UINT64_MAX */
	FMT(NAN, "B", "n/a");
	FMT(INFINITY, "B/s", "n/a");
	FMT(-INFINITY, "%", "n/a");
	FMT(NAN, "", "n/a");
	/* nothing ever prints inf or nan, whatever the value and units */
	static const char *const units[] = {"B", "B/s", "%", "ns", "/s",
					    "calls/s", "W", "J", "", "x"};
	char b[UNITS_BUFSZ];
	for (size_t u = 0; u < sizeof(units) / sizeof(*units); u++)
		for (double v = 1e-300; isfinite(v); v *= 7.3) {
			units_format(b, sizeof(b), v, units[u]);
			ck_assert_msg(!strstr(b, "inf") && !strstr(b, "nan"),
				      "%g %s gave %s", v, units[u], b);
			ck_assert_msg(strlen(b) < 20 + strlen(units[u]),
				      "%g %s gave %s", v, units[u], b);
		}
}
END_TEST

START_TEST(units_small_buffer)
{
	char b[6];
	units_format(b, sizeof(b), 1536000, "B/s");
	ck_assert_str_eq(b, "1.46 ");
	ck_assert_str_eq(units_format(b, 1, 5, "B"), "");
}
END_TEST

START_TEST(units_undivided_units)
{
	static const struct {
		const char *rate, *sum;
		double factor;
	} cases[] = {
		{"B/s", "B", 1},      {"B/S", "B", 1},
		{"/s", "", 1},        {"calls/s", "calls", 1},
		{"W", "J", 1},        {"%", "s", 0.01},
		{"", "s", 1},         {NULL, "s", 1},
		{"ns", "ns*s", 1},    {"widgets", "widgets*s", 1},
	};
	char b[UNITS_BUFSZ];
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		double f = units_undivided(b, sizeof(b), cases[i].rate);
		ck_assert_str_eq(b, cases[i].sum);
		ck_assert(f == cases[i].factor);
	}
	/* the total of a B/s metric scales as bytes, of a % one is time */
	char t[UNITS_BUFSZ];
	double f = units_undivided(t, sizeof(t), "B/s");
	ck_assert_str_eq(units_format(b, sizeof(b), f * 3 * 1048576.0, t),
			 "3.00 MiB");
	f = units_undivided(t, sizeof(t), "/s");
	ck_assert_str_eq(units_format(b, sizeof(b), f * 1250, t), "1.25 k");
	f = units_undivided(t, sizeof(t), "%");
	ck_assert_str_eq(units_format(b, sizeof(b), f * 79.7, t), "0.797 s");
	ck_assert_str_eq(units_format(b, sizeof(b), f * 1250000, t),
			 "12500 s");
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, units_bytes);
	tcase_add_test(tc, units_si);
	tcase_add_test(tc, units_percent_and_time);
	tcase_add_test(tc, units_below_one);
	tcase_add_test(tc, units_huge_and_not_finite);
	tcase_add_test(tc, units_small_buffer);
	tcase_add_test(tc, units_undivided_units);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(units_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
