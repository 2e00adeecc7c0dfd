/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the JSON writer of lib/report/out/json.c: string escaping
 * (quotes, backslash, every control character, DEL), UTF-8 passed through
 * when valid and each byte of an invalid sequence (overlong, surrogate,
 * beyond U+10FFFF, truncated, stray continuation) replaced by U+FFFD,
 * NUL inside counted strings, numbers (no NaN or infinity, shortest
 * round-trip doubles, 64-bit integers) and the layout of nested and
 * empty containers.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "report/out/json.h"

static char *buf;
static size_t len;
static FILE *mem;
static struct jsonw w;

static void setup(void)
{
	mem = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(mem);
	jsonw_init(&w, mem);
}

static void teardown(void)
{
	free(buf);
	buf = NULL;
}

/* What was written, without the final newline. */
static const char *out(void)
{
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(mem);
	ck_assert_uint_gt(len, 0);
	ck_assert_int_eq(buf[len - 1], '\n');
	buf[len - 1] = 0;
	return buf;
}

#define STR(in, want)                                                          \
	do {                                                                   \
		setup();                                                       \
		jsonw_string(&w, (in));                                        \
		ck_assert_str_eq(out(), (want));                               \
		teardown();                                                    \
	} while (0)

START_TEST(json_escapes)
{
	STR("plain", "\"plain\"");
	STR("", "\"\"");
	STR("a\"b\\c/d", "\"a\\\"b\\\\c/d\"");
	STR("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"");
	STR("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	STR("x\x1by", "\"x\\u001by\"");
	STR(NULL, "null");
}
END_TEST

START_TEST(json_every_control)
{
	for (int c = 1; c < 0x20; c++) {
		char in[2] = {(char)c, 0};
		setup();
		jsonw_string(&w, in);
		const char *o = out();
		ck_assert_int_eq(o[0], '"');
		ck_assert_int_eq(o[1], '\\');
		for (const char *p = o; *p; p++)
			ck_assert_int_ge((unsigned char)*p, 0x20);
		teardown();
	}
}
END_TEST

START_TEST(json_utf8)
{
	STR("caf\xc3\xa9", "\"caf\xc3\xa9\"");                /* U+00E9 */
	STR("\xe2\x82\xac", "\"\xe2\x82\xac\"");              /* U+20AC */
	STR("\xf0\x9f\x94\xa5", "\"\xf0\x9f\x94\xa5\"");      /* U+1F525 */
	STR("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");      /* U+10FFFF */
	STR("\xef\xbf\xbd", "\"\xef\xbf\xbd\"");              /* U+FFFD */
	/* invalid: one U+FFFD per byte not in a valid sequence */
	STR("a\xffz", "\"a\\ufffdz\"");
	STR("\x80", "\"\\ufffd\"");                           /* stray */
	STR("\xc0\xaf", "\"\\ufffd\\ufffd\"");                /* overlong / */
	STR("\xc1\xbf", "\"\\ufffd\\ufffd\"");
	STR("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");     /* overlong */
	STR("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");     /* surrogate */
	STR("\xf4\x90\x80\x80",
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");               /* > U+10FFFF */
	STR("\xf5\x80", "\"\\ufffd\\ufffd\"");
	STR("\xe2\x82", "\"\\ufffd\\ufffd\"");                /* cut short */
	STR("\xe2\x82x", "\"\\ufffd\\ufffdx\"");
	STR("\xc3", "\"\\ufffd\"");
}
END_TEST

START_TEST(json_counted)
{
	setup();
	jsonw_stringn(&w, "a\0b", 3);
	ck_assert_str_eq(out(), "\"a\\u0000b\"");
	teardown();
}
END_TEST

#define NUM(call, want)                                                        \
	do {                                                                   \
		setup();                                                       \
		call;                                                          \
		ck_assert_str_eq(out(), (want));                               \
		teardown();                                                    \
	} while (0)

START_TEST(json_numbers)
{
	NUM(jsonw_double(&w, NAN), "null");
	NUM(jsonw_double(&w, INFINITY), "null");
	NUM(jsonw_double(&w, -INFINITY), "null");
	NUM(jsonw_double(&w, 0.0), "0");
	NUM(jsonw_double(&w, 1.5), "1.5");
	NUM(jsonw_double(&w, 0.1), "0.1");
	NUM(jsonw_double(&w, 1.0 / 3), "0.3333333333333333");
	NUM(jsonw_double(&w, 1e300), "1e+300");
	NUM(jsonw_double(&w, -2.5e-7), "-2.5e-07");
	NUM(jsonw_double(&w, 6152885.0), "6152885");
	NUM(jsonw_u64(&w, UINT64_MAX), "18446744073709551615");
	NUM(jsonw_i64(&w, INT64_MIN), "-9223372036854775808");
	NUM(jsonw_bool(&w, 1), "true");
	NUM(jsonw_bool(&w, 0), "false");
	NUM(jsonw_null(&w), "null");
	/* every double written reads back the same */
	double v[] = {0.6153846153846154, 1795006000.1234567, 4.55487986960461e-05,
		      2.2250738585072014e-308, 1.7976931348623157e308};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		setup();
		jsonw_double(&w, v[i]);
		ck_assert(strtod(out(), NULL) == v[i]);
		teardown();
	}
}
END_TEST

START_TEST(json_layout)
{
	setup();
	jsonw_object(&w);
	jsonw_key(&w, "a");
	jsonw_u64(&w, 1);
	jsonw_key(&w, "e");
	jsonw_array(&w);
	jsonw_array_end(&w);
	jsonw_key(&w, "o");
	jsonw_object(&w);
	jsonw_object_end(&w);
	jsonw_key(&w, "l");
	jsonw_array(&w);
	jsonw_string(&w, "x");
	jsonw_object(&w);
	jsonw_key(&w, "k\n");
	jsonw_null(&w);
	jsonw_object_end(&w);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	ck_assert_str_eq(out(), "{\n"
				"  \"a\": 1,\n"
				"  \"e\": [],\n"
				"  \"o\": {},\n"
				"  \"l\": [\n"
				"    \"x\",\n"
				"    {\n"
				"      \"k\\n\": null\n"
				"    }\n"
				"  ]\n"
				"}");
	teardown();
}
END_TEST

START_TEST(json_deep)
{
	/* deep nesting: balanced, one comma */
	setup();
	for (int i = 0; i < 100; i++)
		jsonw_array(&w);
	jsonw_u64(&w, 1);
	jsonw_u64(&w, 2);
	for (int i = 0; i < 100; i++)
		jsonw_array_end(&w);
	const char *o = out();
	int depth = 0, commas = 0;
	for (const char *p = o; *p; p++) {
		depth += *p == '[';
		depth -= *p == ']';
		commas += *p == ',';
	}
	ck_assert_int_eq(depth, 0);
	ck_assert_int_eq(commas, 1);
	teardown();
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("writer");
	tcase_add_test(tc, json_escapes);
	tcase_add_test(tc, json_every_control);
	tcase_add_test(tc, json_utf8);
	tcase_add_test(tc, json_counted);
	tcase_add_test(tc, json_numbers);
	tcase_add_test(tc, json_layout);
	tcase_add_test(tc, json_deep);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
