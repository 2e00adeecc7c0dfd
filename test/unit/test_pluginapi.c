/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/pluginapi, the metric plugin API the sampler provides:
 * the formatter against glibc's snprintf (tables of integers, strings and
 * floats, and thousands of random doubles compared byte for byte), the
 * safe allocator (sizes, alignment, reuse, threads, signal handlers, fatal
 * misuse and exhaustion), the safe I/O functions and their byte counters
 * (checked against /proc/self/io), the core counts, the error hooks and
 * the configuration file.  The test is the host of pluginapi.h: its hooks,
 * passed down with pluginapi_set_host(), record what they are given.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <check.h>

#include "allinea_metric_plugin_api.h"
#include "pluginapi/pluginapi.h"

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* --- host hooks (pluginapi.h) --- */

struct err_record {
	int calls;
	uintptr_t id;
	int code;
	int depth;
	char msg[2048];
};
static struct err_record plugin_err, metric_err;

static void record(struct err_record *r, uintptr_t id, int code,
	const char *msg)
{
	r->calls++;
	r->id = id;
	r->code = code;
	r->depth = pluginapi_depth;
	snprintf(r->msg, sizeof(r->msg), "%s", msg);
}

static void host_plugin_error(plugin_id_t plugin, int code, const char *msg)
{
	record(&plugin_err, plugin, code, msg);
}

static void host_metric_error(metric_id_t metric, int code, const char *msg)
{
	record(&metric_err, metric, code, msg);
}

/* Passed down to lib/pluginapi by main(), as the sampler does. */
static const struct pluginapi_host test_host = {
	.ph_plugin_error = host_plugin_error,
	.ph_metric_error = host_metric_error,
};

/* --- formatter --- */

/* Formats with glibc and with pluginapi_vsnformat() and fails unless both
 * give the same text and return value. */
static void cmp_fmt(int line, const char *fmt, ...)
{
	static char want[8192], got[8192];
	va_list ap, aq;
	int w, g;

	va_start(ap, fmt);
	va_copy(aq, ap);
	w = vsnprintf(want, sizeof(want), fmt, ap);
	g = pluginapi_vsnformat(got, sizeof(got), fmt, aq);
	va_end(aq);
	va_end(ap);
	REQUIRE(w == g && strcmp(want, got) == 0,
		"line %d: format \"%s\": glibc %d \"%.300s\", "
		"pluginapi_vsnformat %d \"%.300s\"", line, fmt, w, want, g, got);
}
#define CMP(...) cmp_fmt(__LINE__, __VA_ARGS__)

static int fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = pluginapi_vsnformat(buf, size, f, ap);
	va_end(ap);
	return n;
}

/* Every flag combination of "-+ #0" a conversion allows. */
static const char *const int_flags[] = {
	"", "-", "+", " ", "0", "-+", "+0", " 0", "-0", "+ ", "-+ 0",
};

START_TEST(pluginapi_format_ints)
{
	static const long long vals[] = {
		0, 1, -1, 7, -7, 42, 255, 256, -128, 32767, -32768, 65535,
		INT_MAX, INT_MIN, UINT_MAX, 1LL << 40, -(1LL << 40),
		LLONG_MAX, LLONG_MIN, 0x123456789abcdefLL,
	};
	static const char *const lens[] = { "hh", "h", "", "l", "ll", "z",
		"j", "t", "q" };
	static const char *const widths[] = { "", "1", "8", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".5", ".30" };
	static const char convs[] = "diouxX";
	char f[64];
	unsigned n = 0;

	for (size_t c = 0; c < sizeof(convs) - 1; c++)
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
	for (size_t fl = 0; fl < sizeof(int_flags) / sizeof(int_flags[0]) * 2; fl++)
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
	for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++) {
		char cv = convs[c];
		bool sgn = cv == 'd' || cv == 'i';
		bool alt = fl >= sizeof(int_flags) / sizeof(int_flags[0]);
		const char *flags = int_flags[alt ? fl - sizeof(int_flags) /
			sizeof(int_flags[0]) : fl];
		if (alt && sgn)
			continue;	/* '#' with d i is undefined */
		if (alt && cv == 'u')
			continue;
		snprintf(f, sizeof(f), "[%%%s%s%s%s%s%c]", alt ? "#" : "", flags,
			widths[w], precs[p], lens[l], cv);
		for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
			long long x = vals[v];
			switch (l) {
			case 0:
				CMP(f, sgn ? (int)(signed char)x :
					(int)(unsigned char)x);
				break;
			case 1:
				CMP(f, sgn ? (int)(short)x : (int)(unsigned short)x);
				break;
			case 2:
				if (sgn)
					CMP(f, (int)x);
				else
					CMP(f, (unsigned)x);
				break;
			case 3:
				if (sgn)
					CMP(f, (long)x);
				else
					CMP(f, (unsigned long)x);
				break;
			case 4:
			case 8:
				if (sgn)
					CMP(f, x);
				else
					CMP(f, (unsigned long long)x);
				break;
			case 5:
				if (sgn)
					CMP(f, (ssize_t)x);
				else
					CMP(f, (size_t)x);
				break;
			case 6:
				if (sgn)
					CMP(f, (intmax_t)x);
				else
					CMP(f, (uintmax_t)x);
				break;
			case 7:
				CMP(f, (ptrdiff_t)x);
				break;
			}
			n++;
		}
	}
	REQUIRE(n > 50000, "only %u integer cases", n);

	/* '*' width and precision, negative ones included */
	static const int stars[] = { -30, -5, -1, 0, 1, 4, 17 };
	for (size_t i = 0; i < sizeof(stars) / sizeof(stars[0]); i++)
	for (size_t j = 0; j < sizeof(stars) / sizeof(stars[0]); j++)
	for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
		CMP("%*d|", stars[i], (int)vals[v]);
		CMP("%.*d|", stars[i], (int)vals[v]);
		CMP("%*.*lld|", stars[i], stars[j], vals[v]);
		CMP("%-*.*llx|", stars[i], stars[j], vals[v]);
		CMP("%0*lo|", stars[i], (long)vals[v]);
	}
	/* L on integers is ll in glibc; ' is a no-op in the C locale */
	CMP("%Ld %Lx %'d %'5u", 1LL << 50, 1ULL << 63, 1234567, 89u);
	CMP("%#.0o %#.0x %.0d %+.0d % .0d %5.0d| %#5.0o|", 0, 0, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(pluginapi_format_strings)
{
	static const char *const strs[] = { "", "a", "hello", "hello world",
		"with\ttab and \"quotes\"", "\xc3\xa9t\xc3\xa9", NULL };
	static const char *const specs[] = { "%s", "%10s", "%-10s", "%.0s",
		"%.3s", "%.6s", "%5.2s", "%-5.2s", "%.20s", "%1s", "%*s",
		"%-*s", "%.*s" };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		for (size_t j = 0; j < sizeof(specs) / sizeof(specs[0]); j++) {
			char f[32];
			snprintf(f, sizeof(f), "<%s>", specs[j]);
			if (strchr(specs[j], '*'))
				CMP(f, 7, strs[i]);
			else
				CMP(f, strs[i]);
		}
	/* characters */
	CMP("%c%c%c", 'a', 'Z', '~');
	CMP("[%5c] [%-5c] [%1c]", 'x', 'y', 'z');
	CMP("%c", 0);
	CMP("%c", 0x141);	/* converted to unsigned char */
	CMP("%lc %5lc %-3lc|", (wint_t)'a', (wint_t)'b', (wint_t)'c');
	CMP("%ls|%5ls|%-6ls|%.2ls|%ls", L"abc", L"de", L"f", L"ghij",
		(wchar_t *)NULL);
	CMP("%C %S", (wint_t)'q', L"rs");
	/* percent, pointers */
	CMP("100%% %%|%%");
	/* glibc ignores width and precision on %% (ASan's printf
	 * interceptor warns about them, so no comparison) */
	char pb[16];
	ck_assert_int_eq(fmt(pb, sizeof(pb), "%5%|%-5%|%.3%"), 5);
	ck_assert_str_eq(pb, "%|%|%");
	int x;
	void *ptrs[] = { NULL, &x, (void *)1, (void *)0x10,
		(void *)UINTPTR_MAX };
	static const char *const pspecs[] = { "%p", "%20p", "%-20p", "%.3p",
		"%+p", "% p", "%020p", "%.20p", "%#p", "%-+25.18p" };
	for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
		for (size_t j = 0; j < sizeof(pspecs) / sizeof(pspecs[0]); j++)
			CMP(pspecs[j], ptrs[i]);
	/* text around conversions, unknown conversions as written */
	CMP("plain text, no conversion");
	CMP("");
	CMP("a%db%sc%%d%ue", -3, "mid", 9u);
	CMP("%y and %5.3y|");
}
END_TEST

START_TEST(pluginapi_format_special)
{
	char buf[64];
	int n = 12345;

	/* %n stores nothing and consumes its argument */
	ck_assert_int_eq(fmt(buf, sizeof(buf), "ab%ncd%s", &n, "ef"), 6);
	ck_assert_str_eq(buf, "abcdef");
	ck_assert_int_eq(n, 12345);
	/* %lc and %ls encode UTF-8 */
	ck_assert_int_eq(fmt(buf, sizeof(buf), "%lc|%ls", (wint_t)0xe9,
		L"\x20ac\x1f600"), 10);
	ck_assert_str_eq(buf, "\xc3\xa9|\xe2\x82\xac\xf0\x9f\x98\x80");
	/* a precision cuts only at whole characters */
	ck_assert_int_eq(fmt(buf, sizeof(buf), "[%.4ls]", L"\x20ac\x20ac"), 5);
	ck_assert_str_eq(buf, "[\xe2\x82\xac]");
	errno = 0;
	ck_assert_int_eq(fmt(buf, sizeof(buf), "a%lcb", (wint_t)0xd800), -1);
	ck_assert_int_eq(errno, EILSEQ);
	/* a format ending inside a conversion */
	static const char *const cut[] = { "abc%", "a%5", "a%-", "a%l",
		"a%hh", "a%.", "a%*" };
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		errno = 0;
		REQUIRE(fmt(buf, sizeof(buf), cut[i], 1) == -1 &&
			errno == EINVAL, "\"%s\": want -1/EINVAL", cut[i]);
		REQUIRE(strncmp(buf, cut[i], 1) == 0,
			"\"%s\": the text before it is kept: \"%s\"", cut[i],
			buf);
	}
	/* output longer than INT_MAX, width over INT_MAX */
	errno = 0;
	ck_assert_int_eq(fmt(buf, sizeof(buf), "%2147483647d%2147483647d",
		1, 2), -1);
	ck_assert_int_eq(errno, EOVERFLOW);
	errno = 0;
	ck_assert_int_eq(fmt(buf, sizeof(buf), "%2147483648d", 1), -1);
	ck_assert_int_eq(errno, EOVERFLOW);
	errno = 0;
	ck_assert_int_eq(fmt(buf, sizeof(buf), "%.2147483648f", 1.0), -1);
	ck_assert_int_eq(errno, EOVERFLOW);
	/* a huge width or precision that fits is counted, not stored */
	ck_assert_int_eq(fmt(buf, sizeof(buf), "%.100000f", 0.5), 100002);
	ck_assert_uint_eq(strlen(buf), sizeof(buf) - 1);
	ck_assert_int_eq(strncmp(buf, "0.5", 3), 0);
	ck_assert_uint_eq(strspn(buf + 3, "0"), sizeof(buf) - 4);
	ck_assert_int_eq(fmt(NULL, 0, "%1000000000d", 1), 1000000000);
}
END_TEST

START_TEST(pluginapi_format_truncation)
{
	static const char *const f = "%s=%d, %08.3f, %-6x|%p %e";
	char want[256], buf[256];
	int w = snprintf(want, sizeof(want), f, "name", -42, 3.14159, 0xbeef,
		(void *)0x1234, 6.02e23);

	for (size_t size = 0; size <= (size_t)w + 2; size++) {
		memset(buf, '#', sizeof(buf));
		int g = fmt(size == 0 ? NULL : buf, size, f, "name", -42,
			3.14159, 0xbeef, (void *)0x1234, 6.02e23);
		REQUIRE(g == w, "size %zu: returned %d, want %d", size, g, w);
		if (size == 0)
			continue;
		size_t k = size - 1 < (size_t)w ? size - 1 : (size_t)w;
		REQUIRE(memcmp(buf, want, k) == 0 && buf[k] == '\0',
			"size %zu: \"%s\" is not the first %zu bytes of \"%s\"",
			size, buf, k, want);
		for (size_t i = size; i < sizeof(buf); i++)
			REQUIRE(buf[i] == '#', "size %zu: byte %zu written", size,
				i);
	}
	/* truncation inside a long zero run and inside a number */
	memset(buf, '#', sizeof(buf));
	ck_assert_int_eq(fmt(buf, 10, "%.50f", 1.0), 52);
	ck_assert_str_eq(buf, "1.0000000");
	memset(buf, '#', sizeof(buf));
	ck_assert_int_eq(fmt(buf, 4, "%30d", 7), 30);
	ck_assert_str_eq(buf, "   ");
	ck_assert_int_eq(buf[4], '#');
}
END_TEST

static const char fconvs[] = "fFeEgGaA";

/* Compares every float conversion of v under a set of flags, widths and
 * precisions. */
static void cmp_float_all(double v)
{
	static const char *const flags[] = { "", "#", "+", " ", "-", "0",
		"+0", "-#", "#0", " 0" };
	static const char *const widths[] = { "", "12", "30" };
	char f[64];

	for (size_t c = 0; c < sizeof(fconvs) - 1; c++)
	for (size_t fl = 0; fl < sizeof(flags) / sizeof(flags[0]); fl++)
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
	for (int p = -2; p <= 20; p++) {
		char pr[8] = "";
		if (p == -1)
			strcpy(pr, ".");
		else if (p >= 0)
			snprintf(pr, sizeof(pr), ".%d", p == 20 ? 40 : p);
		snprintf(f, sizeof(f), "[%%%s%s%s%c]", flags[fl], widths[w], pr,
			fconvs[c]);
		CMP(f, v);
	}
}

START_TEST(pluginapi_format_floats)
{
	static const double vals[] = {
		0.0, 1.0, 1.5, 0.5, 2.5, 3.5, 0.25, 0.125, 0.375, 1e-300,
		1e300, 123456.789, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 9.9999999,
		9.5, 99.5, 999999.5, 0.000123456, 5e-5, 1e-5, 1e-4, 1e21,
		1e22, 1e23, 9007199254740992.0, 9007199254740993.0,
		18446744073709551616.0, 1.005, 2.675, 1.45, 0.15, 1e15,
		123456789012345678.0, 3.14159265358979323846,
		2.718281828459045, DBL_MAX, DBL_MIN, DBL_TRUE_MIN,
		DBL_MIN / 3, DBL_EPSILON, 0x1.fffffffffffffp-1, 0x1.8p+0,
		0x1.08p+0, 0x1.fffp+0, 0x0.8p-1022, 0x1.fffffffffffffp-1023,
		65536.0, 1e-7, 0.00001234, 4.35, 8.5e-10,
	};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		cmp_float_all(vals[i]);
		cmp_float_all(-vals[i]);
	}
	cmp_float_all(INFINITY);
	cmp_float_all(-INFINITY);
	cmp_float_all(NAN);
	cmp_float_all(-NAN);
	/* the classic rounding cases */
	CMP("%.0f %.0f %.0f %.0f %.0f %.0f", 0.5, 1.5, 2.5, 3.5, -0.5, -2.5);
	CMP("%.1f %.1f %.1f %.2f %.2f", 0.25, 0.35, 0.05, 1.005, 1.115);
	CMP("%.0e %.0e %.0e %.1e", 2.5, 3.5, 25.0, 1.25);
	CMP("%.0a %.0a %.0a %.1a %.1a", 1.5, 2.5, 1.96875, 1.99, 1.03125);
	CMP("%f %e %g %a", 0x1p-1074, 0x1p-1074, 0x1p-1074, 0x1p-1074);
	CMP("%.1100f", 0x1p-1074);
	CMP("%.800e", 0x1.fffffffffffffp-1022);
	CMP("%.760g", DBL_TRUE_MIN);
	CMP("%.40a", 1.0 / 3);
	CMP("%*.*f|%-*.*e|%0*.*g", 20, 3, M_PI, 20, 3, M_PI, 20, -1, M_PI);
	/* long double (converted to double: values representable in both) */
	CMP("%Lf %Le %Lg %.3Lf %10.2Le", (long double)1.5,
		(long double)-0.125, (long double)1e10, (long double)2.5,
		(long double)123.0);
	CMP("%Lf %Lg", (long double)INFINITY, (long double)NAN);
}
END_TEST

START_TEST(pluginapi_format_random)
{
	uint64_t s = 20261121;
	char f[32];
	unsigned n = 0;

	for (int i = 0; i < 25000; i++) {
		uint64_t bits = rng(&s);
		double v;
		switch (i % 4) {
		case 0:		/* any bit pattern: all exponents, NaNs */
			memcpy(&v, &bits, sizeof(v));
			break;
		case 1:		/* moderate exponents */
			bits = (bits & 0x800fffffffffffffull) |
				((uint64_t)(1023 - 40 + rng(&s) % 80) << 52);
			memcpy(&v, &bits, sizeof(v));
			break;
		case 2:		/* short decimals: ties and near-ties */
			v = (double)(int64_t)(bits % 2000001 - 1000000) /
				(double)(1ull << (rng(&s) % 12)) /
				pow(10.0, (double)(rng(&s) % 8));
			break;
		default:	/* denormals and the bottom of the range */
			bits &= 0x801fffffffffffffull;
			memcpy(&v, &bits, sizeof(v));
			break;
		}
		CMP("%e|%f|%g|%.17g|%a", v, v, v, v, v);
		int p = (int)(rng(&s) % 26);
		snprintf(f, sizeof(f), "%%.%de|%%.%df|%%.%dg", p, p, p);
		CMP(f, v, v, v);
		snprintf(f, sizeof(f), "%%.%da|%%#.%dg|%%+.%dE", p % 16, p, p);
		CMP(f, v, v, v);
		n += 9;
	}
	REQUIRE(n >= 200000, "%u conversions", n);
}
END_TEST

/* --- allocator --- */

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static int check_fill(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed + i * 7))
			return 0;
	return 1;
}

START_TEST(pluginapi_malloc_sizes)
{
	enum { NS = 4300 + 2 * 17 * 3 };
	static unsigned char *blk[NS];
	static size_t sz[NS];
	size_t n = 0;

	for (size_t s = 0; s <= 4200; s++)
		sz[n++] = s;
	for (int k = 12; k <= 20; k++)	/* around powers of two to 1 MiB */
		for (int d = -17; d <= 17; d += 17) {
			sz[n++] = ((size_t)1 << k) + (size_t)d;
			sz[n++] = ((size_t)3 << (k - 2)) + (size_t)d;
		}
	sz[n++] = (size_t)1 << 20;
	for (size_t i = 0; i < n; i++) {
		blk[i] = allinea_safe_malloc(sz[i]);
		REQUIRE(blk[i] != NULL, "malloc(%zu) = NULL", sz[i]);
		REQUIRE(((uintptr_t)blk[i] & 15) == 0, "malloc(%zu) = %p: not "
			"16-byte aligned", sz[i], (void *)blk[i]);
		fill(blk[i], sz[i], (unsigned)i);
	}
	for (size_t i = 0; i < n; i++) {
		REQUIRE(check_fill(blk[i], sz[i], (unsigned)i),
			"block %zu (%zu bytes) was overwritten", i, sz[i]);
		for (size_t j = i + 1; j < n && j < i + 3; j++)
			REQUIRE(blk[i] != blk[j], "blocks %zu and %zu alias", i,
				j);
	}
	for (size_t i = 0; i < n; i++)
		allinea_safe_free(blk[i]);
	allinea_safe_free(NULL);
	ck_assert_int_eq(pluginapi_depth, 0);
}
END_TEST

START_TEST(pluginapi_malloc_reuse_calloc)
{
	/* LIFO reuse within a class */
	void *a = allinea_safe_malloc(100);
	allinea_safe_free(a);
	void *b = allinea_safe_malloc(120);	/* same 128-byte class */
	ck_assert_ptr_eq(a, b);
	allinea_safe_free(b);

	/* calloc zeroes a recycled block */
	for (size_t s = 1; s <= 70000; s = s * 3 + 1) {
		unsigned char *p = allinea_safe_malloc(s);
		memset(p, 0xa5, s);
		allinea_safe_free(p);
		unsigned char *q = allinea_safe_calloc(1, s);
		for (size_t i = 0; i < s; i++)
			REQUIRE(q[i] == 0, "calloc(%zu): byte %zu is %#x", s, i,
				q[i]);
		allinea_safe_free(q);
	}
	unsigned char *z = allinea_safe_calloc(1000, 1000);
	for (size_t i = 0; i < 1000000; i++)
		REQUIRE(z[i] == 0, "calloc(1000, 1000): byte %zu", i);
	allinea_safe_free(z);
	z = allinea_safe_calloc(0, 5);
	ck_assert_ptr_nonnull(z);
	allinea_safe_free(z);

	/* overflowing products */
	errno = 0;
	ck_assert_ptr_null(allinea_safe_calloc(SIZE_MAX / 2, 3));
	ck_assert_int_eq(errno, ENOMEM);
	errno = 0;
	ck_assert_ptr_null(allinea_safe_calloc((size_t)1 << 33,
		(size_t)1 << 33));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_int_eq(pluginapi_depth, 0);
}
END_TEST

START_TEST(pluginapi_malloc_realloc)
{
	static const size_t steps[] = { 1, 15, 16, 17, 100, 1000, 4096, 5000,
		65535, 65536, 65537, 200000, 1 << 20, 3 << 20, 100, 70000, 8 };
	unsigned char *p = allinea_safe_realloc(NULL, 0);
	size_t have = 0;

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		size_t n = steps[i], keep = n < have ? n : have;
		p = allinea_safe_realloc(p, n);
		REQUIRE(p != NULL && ((uintptr_t)p & 15) == 0,
			"realloc to %zu: %p", n, (void *)p);
		REQUIRE(check_fill(p, keep, 77), "realloc %zu -> %zu lost the "
			"contents", have, n);
		fill(p, n, 77);
		have = n;
	}
	/* realloc(p, 0) frees (as glibc): the block comes back next */
	void *q = allinea_safe_malloc(24);
	ck_assert_ptr_null(allinea_safe_realloc(q, 0));
	ck_assert_ptr_eq(allinea_safe_malloc(24), q);
	allinea_safe_free(q);
	allinea_safe_free(p);
	ck_assert_int_eq(pluginapi_depth, 0);
}
END_TEST

struct hammer {
	int id;
	unsigned long ops;
	int bad;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	enum { LIVE = 64 };
	unsigned char *blk[LIVE] = { NULL };
	size_t sz[LIVE] = { 0 };
	uint64_t s = (uint64_t)h->id * 1000003;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int k = 0; k < 256; k++) {
			unsigned i = (unsigned)(rng(&s) % LIVE);
			if (blk[i] != NULL) {
				if (!check_fill(blk[i], sz[i], (unsigned)h->id + i))
					h->bad++;
				allinea_safe_free(blk[i]);
				blk[i] = NULL;
				continue;
			}
			uint64_t r = rng(&s);
			sz[i] = r % 100 == 0 ? 65536 + r % 300000 : r % 2048;
			blk[i] = r % 7 == 0 ? allinea_safe_calloc(1, sz[i]) :
				allinea_safe_malloc(sz[i]);
			if (((uintptr_t)blk[i] & 15) != 0)
				h->bad++;
			fill(blk[i], sz[i], (unsigned)h->id + i);
			h->ops++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 (t.tv_nsec - t0.tv_nsec) < 1000000000L);
	for (int i = 0; i < LIVE; i++) {
		if (blk[i] != NULL && !check_fill(blk[i], sz[i],
					      (unsigned)h->id + (unsigned)i))
			h->bad++;
		allinea_safe_free(blk[i]);
	}
	return NULL;
}

START_TEST(pluginapi_malloc_threads)
{
	enum { NT = 16 };
	pthread_t th[NT];
	struct hammer h[NT];
	unsigned long total = 0;

	for (int i = 0; i < NT; i++) {
		h[i] = (struct hammer){ .id = i + 1 };
		ck_assert_int_eq(pthread_create(&th[i], NULL, hammer_thread,
			&h[i]), 0);
	}
	for (int i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		REQUIRE(h[i].bad == 0, "thread %d: %d corrupted or misaligned "
			"blocks", i, h[i].bad);
		total += h[i].ops;
	}
	REQUIRE(total > 10000, "only %lu allocations in a second", total);
}
END_TEST

/* The signal handler's allocations, made as the sampler would make them:
 * only when the interrupted thread is not inside the API. */
static volatile sig_atomic_t sig_allocs, sig_skipped, sig_bad;

static void alloc_handler(int sig)
{
	int e = errno;

	(void)sig;
	if (pluginapi_depth > 0) {
		sig_skipped++;
		errno = e;
		return;
	}
	size_t n = 1 + (size_t)(sig_allocs % 3000) * 37;
	unsigned char *p = allinea_safe_malloc(n);
	fill(p, n, 99);
	p = allinea_safe_realloc(p, n * 2);
	if (!check_fill(p, n, 99))
		sig_bad++;
	allinea_safe_free(p);
	sig_allocs++;
	errno = e;
}

START_TEST(pluginapi_malloc_signal)
{
	struct sigaction sa = { .sa_handler = alloc_handler };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGUSR1 };
	struct itimerspec its = { { 0, 50000 }, { 0, 50000 } };
	timer_t tm;
	uint64_t s = 5;
	unsigned long loops = 0, bad = 0;
	struct timespec t0, t;

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &sev, &tm), 0);
	ck_assert_int_eq(timer_settime(tm, 0, &its, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		size_t n = (size_t)(rng(&s) % 5000);
		unsigned char *p = allinea_safe_malloc(n);
		fill(p, n, (unsigned)loops);
		unsigned char *q = allinea_safe_calloc(1, n / 2 + 1);
		if (!check_fill(p, n, (unsigned)loops))
			bad++;
		allinea_safe_free(q);
		allinea_safe_free(p);
		loops++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		/* enough work on both sides, not a time: the machine may be
		 * slow or busy (sanitizers); 60 s is only a safety net */
	} while ((loops < 2000 || sig_allocs <= 100) &&
		 (t.tv_sec - t0.tv_sec) < 60);
	timer_delete(tm);
	REQUIRE(bad == 0 && sig_bad == 0, "corruption: %lu in the loop, %d in "
		"the handler", bad, (int)sig_bad);
	REQUIRE(sig_allocs > 100, "the handler allocated only %d times "
		"(%d skipped)", (int)sig_allocs, (int)sig_skipped);
	REQUIRE(loops >= 2000, "%lu loops", loops);
}
END_TEST

/* Runs fn in a child with stderr in a pipe; returns its wait status and
 * what it wrote to stderr in err. */
static int run_child(void (*fn)(void), char *err, size_t errsize)
{
	int pfd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &core);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		fn();
		_exit(0);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], err + got, errsize - 1 - (size_t)got)) > 0)
		got += n;
	err[got] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/* Limits the address space to what is mapped now plus 64 MiB. */
static void limit_memory(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	struct rlimit rl;

	if (f == NULL || fscanf(f, "%lu", &pages) != 1)
		_exit(3);
	fclose(f);
	rl.rlim_cur = rl.rlim_max = pages * (unsigned long)getpagesize() +
		(64ul << 20);
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		_exit(4);
}

static void oom_small(void)
{
	limit_memory();
	for (;;)
		allinea_safe_malloc(60000);
}

static void oom_large(void)
{
	limit_memory();
	allinea_safe_malloc((size_t)1 << 30);
}

static void oom_realloc(void)
{
	void *p = allinea_safe_malloc(100000);
	limit_memory();
	allinea_safe_realloc(p, (size_t)1 << 30);
}

static void free_foreign(void)
{
	void *p = malloc(64);
	allinea_safe_free(p);
}

static void free_twice(void)
{
	void *p = allinea_safe_malloc(64);
	allinea_safe_free(p);
	allinea_safe_free(p);
}

/* A large block's mapping is gone once it is freed: freeing it again
 * must be caught without reading its header (that would be SIGSEGV). */
static void free_twice_large(void)
{
	void *p = allinea_safe_malloc(1 << 20);
	allinea_safe_free(p);
	allinea_safe_free(p);
}

/* A pointer into the middle of a libc block, 16-byte aligned. */
static void free_foreign_aligned(void)
{
	char *p = malloc(4096);
	allinea_safe_free(p + 2048);
}

START_TEST(pluginapi_malloc_fatal)
{
	static const struct {
		void (*fn)(void);
		const char *want;
	} cases[] = {
		{ oom_small, "mapsample: allinea_safe_malloc: out of memory "
			"allocating 60000 bytes" },
		{ oom_large, "mapsample: allinea_safe_malloc: out of memory "
			"allocating 1073741824 bytes" },
		{ oom_realloc, "mapsample: allinea_safe_realloc: out of memory "
			"allocating 1073741824 bytes" },
		{ free_foreign, "is not a block from allinea_safe_malloc()" },
		{ free_twice, "was freed already" },
		{ free_twice_large, "(or a large one freed already)" },
		{ free_foreign_aligned, "is not a block from allinea_safe_malloc()" },
	};
	char err[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = run_child(cases[i].fn, err, sizeof(err));
		REQUIRE(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
			"case %zu: want death by SIGABRT, status %#x, stderr "
			"\"%s\"", i, st, err);
		REQUIRE(strstr(err, cases[i].want) != NULL &&
			strchr(err, '\n') == err + strlen(err) - 1,
			"case %zu: stderr \"%s\": want one line with \"%s\"", i,
			err, cases[i].want);
	}
}
END_TEST

/* --- I/O --- */

static char tmpdir[PATH_MAX];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/pluginapi.XXXXXX",
		getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
	char cmd[PATH_MAX + 16];

	if (tmpdir[0] == '\0')
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
	tmpdir[0] = '\0';
}

/* buf = dir/name */
static void join(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);
	REQUIRE(n > 0 && (size_t)n < size, "path too long: %s/%s", dir, name);
}

static void tmp_path(char *buf, size_t size, const char *name)
{
	join(buf, size, tmpdir, name);
}

static void write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* The lines of the read_line tests: an empty line, a line longer than
 * the buffer, and a last line without '\n'. */
static char *line_data(size_t *n)
{
	static char d[4096];
	size_t k = 0;

	k += (size_t)sprintf(d + k, "first\n\nsecond line\n");
	memset(d + k, 'x', 2000);
	k += 2000;
	k += (size_t)sprintf(d + k, "\n\n\nlast-no-newline");
	*n = k;
	return d;
}

/* Reads the line_data() lines from fd and checks each; seekable: the
 * offset must follow the lines exactly. */
static void check_lines(int fd, bool seekable)
{
	static const struct {
		ssize_t ret;
		const char *text;
	} want[] = {
		{ 6, "first" }, { 1, "" }, { 12, "second line" },
		{ 2001, NULL }, { 1, "" }, { 1, "" },
		{ 15, "last-no-newline" }, { 0, "" }, { 0, "" },
	};
	char buf[64];
	off_t at = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		memset(buf, '#', sizeof(buf));
		ssize_t r = allinea_safe_read_line(fd, buf, sizeof(buf));
		REQUIRE(r == want[i].ret, "line %zu: returned %zd, want %zd",
			i, r, want[i].ret);
		if (want[i].text != NULL) {
			REQUIRE(strcmp(buf, want[i].text) == 0,
				"line %zu: \"%s\", want \"%s\"", i, buf,
				want[i].text);
		} else {	/* cut to 63 bytes */
			REQUIRE(strlen(buf) == sizeof(buf) - 1 &&
				strspn(buf, "x") == sizeof(buf) - 1,
				"long line: \"%s\"", buf);
		}
		at += r;
		if (seekable)
			REQUIRE(lseek(fd, 0, SEEK_CUR) == at, "line %zu: offset "
				"%jd, want %jd", i, (intmax_t)lseek(fd, 0,
				SEEK_CUR), (intmax_t)at);
	}
	ck_assert_int_eq(pluginapi_depth, 0);
}

START_TEST(pluginapi_io_read_line)
{
	char path[PATH_MAX], buf[8];
	size_t n;
	const char *d = line_data(&n);
	int fd, pfd[2];

	make_tmpdir();
	tmp_path(path, sizeof(path), "lines");
	write_file(path, d, n);
	fd = allinea_safe_open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	uint64_t r0 = atomic_load(&pluginapi_safe_bytes_read);
	check_lines(fd, true);
	/* a regular file is read by blocks, and the kernel counts what is
	 * read ahead and sought back over */
	REQUIRE(atomic_load(&pluginapi_safe_bytes_read) - r0 > n, "read %llu "
		"bytes of a %zu-byte file: not by blocks",
		(unsigned long long)(atomic_load(&pluginapi_safe_bytes_read) - r0), n);
	ck_assert_int_eq(allinea_safe_close(fd), 0);

	/* a pipe: no seeking back */
	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(write(pfd[1], d, n), (ssize_t)n);
	close(pfd[1]);
	check_lines(pfd[0], false);
	close(pfd[0]);

	/* a buffer of one byte holds only the '\0'; count 0 is an error */
	fd = allinea_safe_open(path, O_RDONLY);
	memset(buf, '#', sizeof(buf));
	ck_assert_int_eq(allinea_safe_read_line(fd, buf, 1), 6);
	ck_assert_int_eq(buf[0], '\0');
	ck_assert_int_eq(buf[1], '#');
	errno = 0;
	ck_assert_int_eq(allinea_safe_read_line(fd, buf, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	allinea_safe_close(fd);

	/* errors */
	errno = 0;
	ck_assert_int_eq(allinea_safe_read_line(-1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EBADF);

	/* a generated file reads as stdio reads it */
	FILE *f = fopen("/proc/self/mountinfo", "r");
	fd = allinea_safe_open("/proc/self/mountinfo", O_RDONLY);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fd, 0);
	char want[4096], got[4096];
	int lines = 0;
	while (fgets(want, sizeof(want), f) != NULL) {
		ssize_t r = allinea_safe_read_line(fd, got, sizeof(got));
		size_t wl = strlen(want);
		REQUIRE(r == (ssize_t)wl, "mountinfo line %d: %zd, want %zu",
			lines, r, wl);
		want[wl - 1] = '\0';
		REQUIRE(strcmp(got, want) == 0, "mountinfo line %d", lines);
		lines++;
	}
	ck_assert_int_eq(allinea_safe_read_line(fd, got, sizeof(got)), 0);
	ck_assert_int_gt(lines, 0);
	fclose(f);
	allinea_safe_close(fd);
	remove_tmpdir();
}
END_TEST

static void *slow_writer(void *arg)
{
	int fd = *(int *)arg;
	char chunk[1000];

	for (int i = 0; i < 10; i++) {
		memset(chunk, 'a' + i, sizeof(chunk));
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			break;
		usleep(2000);
	}
	close(fd);
	return NULL;
}

START_TEST(pluginapi_io_read_write)
{
	static char big[100000], back[120000];
	char path[PATH_MAX];
	struct stat st;
	int fd, pfd[2];
	pthread_t th;

	make_tmpdir();
	/* open with O_CREAT takes the mode from the variadic argument */
	umask(022);
	tmp_path(path, sizeof(path), "created");
	fd = allinea_safe_open(path, O_WRONLY | O_CREAT | O_EXCL, 0640);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	fill((unsigned char *)big, sizeof(big), 3);
	ck_assert_int_eq(allinea_safe_write(fd, big, sizeof(big)),
		(ssize_t)sizeof(big));
	ck_assert_int_eq(allinea_safe_close(fd), 0);
	errno = 0;
	ck_assert_int_eq(allinea_safe_open(path, O_WRONLY | O_CREAT | O_EXCL,
		0600), -1);
	ck_assert_int_eq(errno, EEXIST);
	errno = 0;
	ck_assert_int_eq(allinea_safe_close(-1), -1);
	ck_assert_int_eq(errno, EBADF);
#ifdef O_TMPFILE
	fd = allinea_safe_open(tmpdir, O_RDWR | O_TMPFILE, 0604);
	if (fd >= 0) {	/* file systems without O_TMPFILE say EOPNOTSUPP */
		ck_assert_int_eq(fstat(fd, &st), 0);
		ck_assert_int_eq(st.st_mode & 07777, 0604);
		allinea_safe_close(fd);
	}
#endif

	/* read_all: to the end, or to count */
	fd = allinea_safe_open(path, O_RDONLY);
	ck_assert_int_eq(allinea_safe_read_all(fd, back, sizeof(back)),
		(ssize_t)sizeof(big));
	ck_assert_int_eq(memcmp(back, big, sizeof(big)), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(allinea_safe_read_all(fd, back, 5000), 5000);
	ck_assert_int_eq(allinea_safe_read(fd, back, 10), 10);
	ck_assert_int_eq(memcmp(back, big + 5000, 10), 0);
	allinea_safe_close(fd);
	errno = 0;
	ck_assert_int_eq(allinea_safe_read_all(-1, back, 10), -1);
	ck_assert_int_eq(errno, EBADF);

	/* read_all on a pipe written in pieces: everything, up to EOF */
	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, slow_writer, &pfd[1]), 0);
	ck_assert_int_eq(allinea_safe_read_all(pfd[0], back, sizeof(back)),
		10000);
	pthread_join(th, NULL);
	for (int i = 0; i < 10000; i++)
		REQUIRE(back[i] == 'a' + i / 1000, "pipe byte %d", i);
	close(pfd[0]);
	ck_assert_int_eq(pluginapi_depth, 0);
	remove_tmpdir();
}
END_TEST

struct io_counts {
	unsigned long long rchar, wchar;
	size_t self;		/* bytes the reading of /proc/self/io took */
	bool ok;
};

/* Reads rchar and wchar.  No Check call in here: a passing ck_assert
 * writes to Check's pipe, which wchar would count. */
static void proc_io(struct io_counts *c)
{
	char buf[4096];
	ssize_t n, got = 0;
	int fd = open("/proc/self/io", O_RDONLY);
	const char *r, *w;

	c->ok = false;
	if (fd < 0)
		return;
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	r = strstr(buf, "rchar: ");
	w = strstr(buf, "wchar: ");
	if (r == NULL || w == NULL)
		return;
	c->rchar = strtoull(r + 7, NULL, 10);
	c->wchar = strtoull(w + 7, NULL, 10);
	c->self = (size_t)got;
	c->ok = true;
}

START_TEST(pluginapi_io_counters)
{
	char path[PATH_MAX], line[128], blk[3000];
	struct io_counts a, b;
	uint64_t r0, w0, r1, w1;
	size_t n;
	const char *d = line_data(&n);
	ssize_t want_w = 0;

	make_tmpdir();
	tmp_path(path, sizeof(path), "lines");
	write_file(path, d, n);
	if (access("/proc/self/io", R_OK) != 0) {
		remove_tmpdir();
		return;		/* no task I/O accounting in this kernel */
	}
	proc_io(&a);
	r0 = atomic_load(&pluginapi_safe_bytes_read);
	w0 = atomic_load(&pluginapi_safe_bytes_written);
	/* no Check call from here to the second proc_io(): Check's own
	 * I/O would be counted */
	int fd = allinea_safe_open(path, O_RDONLY);
	while (allinea_safe_read_line(fd, line, sizeof(line)) > 0)
		;
	lseek(fd, 0, SEEK_SET);
	ssize_t got_all = allinea_safe_read_all(fd, blk, sizeof(blk));
	lseek(fd, 7, SEEK_SET);
	ssize_t got_one = allinea_safe_read(fd, blk, 100);
	allinea_safe_close(fd);
	int ofd = allinea_safe_open("/dev/null", O_WRONLY);
	want_w += allinea_safe_write(ofd, d, n);
	allinea_safe_fprintf(ofd, "%s %d\n", "counted", 42);	/* 11 */
	want_w += 11;
	allinea_safe_close(ofd);
	int logical = allinea_get_logical_core_count();
	int physical = allinea_get_physical_core_count();
	proc_io(&b);
	r1 = atomic_load(&pluginapi_safe_bytes_read);
	w1 = atomic_load(&pluginapi_safe_bytes_written);

	ck_assert(a.ok && b.ok);
	ck_assert_int_eq(got_all, (ssize_t)n);
	ck_assert_int_eq(got_one, 100);
	ck_assert_int_gt(logical, 0);
	ck_assert_int_gt(physical, 0);
	/* the kernel counted exactly what the counters say */
	REQUIRE(b.rchar - a.rchar - a.self == r1 - r0, "rchar moved by %llu, "
		"pluginapi_safe_bytes_read by %llu", b.rchar - a.rchar - a.self,
		(unsigned long long)(r1 - r0));
	REQUIRE(b.wchar - a.wchar == w1 - w0, "wchar moved by %llu, "
		"pluginapi_safe_bytes_written by %llu", b.wchar - a.wchar,
		(unsigned long long)(w1 - w0));
	/* and the writes are the bytes asked for */
	ck_assert_uint_eq(w1 - w0, (uint64_t)want_w);
	/* reads: at least the file twice plus 100 (read_line reads ahead
	 * and seeks back, the kernel counts that too) plus sysfs */
	REQUIRE(r1 - r0 >= 2 * n + 100, "only %llu bytes read",
		(unsigned long long)(r1 - r0));
	remove_tmpdir();
}
END_TEST

/* Runs fn with standard output going to a file, and returns what it
 * wrote. */
static size_t capture_stdout(void (*fn)(void), char *out, size_t size)
{
	char path[PATH_MAX];
	int fd, saved;
	ssize_t n;

	tmp_path(path, sizeof(path), "stdout");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	fn();
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = pread(fd, out, size - 1, 0);
	close(fd);
	ck_assert_int_ge(n, 0);
	out[n] = '\0';
	return (size_t)n;
}

static void print_some(void)
{
	allinea_safe_printf("%s=%d %.3f %5x|%-4c|%%\n", "key", -17, 2.0 / 3,
		0xabc, 'q');
}

static void vfprintf_wrapper(int fd, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	allinea_safe_vfprintf(fd, f, ap);
	va_end(ap);
}

static void print_long(void)
{
	static char s[6000];

	memset(s, 'L', sizeof(s) - 1);
	allinea_safe_printf("%s", s);
	vfprintf_wrapper(STDOUT_FILENO, "<%s|%g>", "v", 1e-10);
	allinea_safe_fprintf(STDOUT_FILENO, "<%05d>", 42);
}

START_TEST(pluginapi_io_printf)
{
	static char out[16384];
	char want[256];

	make_tmpdir();
	snprintf(want, sizeof(want), "%s=%d %.3f %5x|%-4c|%%\n", "key", -17,
		2.0 / 3, 0xabc, 'q');
	ck_assert_uint_eq(capture_stdout(print_some, out, sizeof(out)),
		strlen(want));
	ck_assert_str_eq(out, want);
	/* more than 4095 bytes: cut there */
	ck_assert_uint_eq(capture_stdout(print_long, out, sizeof(out)),
		4095 + 9 + 7);
	ck_assert_uint_eq(strspn(out, "L"), 4095);
	ck_assert_str_eq(out + 4095, "<v|1e-10><00042>");
	ck_assert_int_eq(pluginapi_depth, 0);
	remove_tmpdir();
}
END_TEST

/* --- system information --- */

START_TEST(pluginapi_sysinfo)
{
	int logical = allinea_get_logical_core_count();
	int physical = allinea_get_physical_core_count();
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	ck_assert_int_eq(logical, online);
	REQUIRE(physical >= 1 && physical <= logical, "physical %d, logical %d",
		physical, logical);

	/* physical again, another way: distinct thread_siblings_list
	 * contents over the online CPUs */
	char seen[256][64];
	int nseen = 0, ok = 1;
	for (int cpu = 0; cpu < 4096 && ok; cpu++) {
		char path[128], line[64], on[8] = "1";
		FILE *f;
		snprintf(path, sizeof(path),
			"/sys/devices/system/cpu/cpu%d/online", cpu);
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(on, sizeof(on), f) == NULL)
				on[0] = '0';
			fclose(f);
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/"
			"topology/thread_siblings_list", cpu);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(line, sizeof(line), f) == NULL)
			ok = 0;
		fclose(f);
		if (on[0] != '1')
			continue;
		int k = 0;
		while (k < nseen && strcmp(seen[k], line) != 0)
			k++;
		if (k == nseen && nseen < 256)
			strcpy(seen[nseen++], line);
		else if (k == nseen)
			ok = 0;
	}
	if (ok && nseen > 0)
		ck_assert_int_eq(physical, nseen);

	/* the time is CLOCK_MONOTONIC */
	struct timespec t0, t1, t2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t1 = allinea_get_current_time();
	clock_gettime(CLOCK_MONOTONIC, &t2);
	long long n0 = t0.tv_sec * 1000000000LL + t0.tv_nsec;
	long long n1 = t1.tv_sec * 1000000000LL + t1.tv_nsec;
	long long n2 = t2.tv_sec * 1000000000LL + t2.tv_nsec;
	REQUIRE(n0 <= n1 && n1 <= n2, "%lld %lld %lld", n0, n1, n2);
	ck_assert_int_eq(pluginapi_depth, 0);
}
END_TEST

/* --- errors --- */

START_TEST(pluginapi_errors)
{
	static char longmsg[3000];

	allinea_set_plugin_error_message(7, 1000, "no /proc/interrupts");
	ck_assert_int_eq(plugin_err.calls, 1);
	ck_assert_uint_eq(plugin_err.id, 7);
	ck_assert_int_eq(plugin_err.code, 1000);
	ck_assert_str_eq(plugin_err.msg, "no /proc/interrupts");
	ck_assert_int_eq(plugin_err.depth, 1);	/* inside the API */

	allinea_set_plugin_error_messagef(8, ENOENT, "Error accessing %s: %s",
		"/proc/stat", "No such file or directory");
	ck_assert_uint_eq(plugin_err.id, 8);
	ck_assert_int_eq(plugin_err.code, ENOENT);
	ck_assert_str_eq(plugin_err.msg,
		"Error accessing /proc/stat: No such file or directory");

	allinea_set_metric_error_message((metric_id_t)-1, -3, NULL);
	ck_assert_uint_eq(metric_err.id, (uintptr_t)-1);
	ck_assert_int_eq(metric_err.code, -3);
	ck_assert_str_eq(metric_err.msg, "(null)");
	ck_assert_int_eq(metric_err.depth, 1);

	allinea_set_metric_error_messagef(9, 5, "%d%% of %.2f, %08x", 50,
		1.005, 0xbeefu);
	ck_assert_str_eq(metric_err.msg, "50% of 1.00, 0000beef");

	/* a message past 1023 bytes is cut there */
	memset(longmsg, 'm', sizeof(longmsg) - 1);
	allinea_set_metric_error_messagef(10, 6, "<%s>", longmsg);
	ck_assert_uint_eq(strlen(metric_err.msg), 1023);
	ck_assert_int_eq(metric_err.msg[0], '<');
	ck_assert_int_eq(metric_err.calls, 3);
	ck_assert_int_eq(plugin_err.calls, 2);
	ck_assert_int_eq(pluginapi_depth, 0);
}
END_TEST

/* --- configuration file --- */

/* Runs the lookup with stderr going to a file; returns what was written
 * to stderr in err. */
static int config_lookup(const char *var, const char *metric, char *value,
	int length, char *err, size_t errsize)
{
	char path[PATH_MAX];
	int fd, saved, r, e;
	ssize_t n;

	tmp_path(path, sizeof(path), "stderr");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	errno = 0;
	r = allinea_read_config_file(var, metric, value, length);
	e = errno;
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, err, errsize - 1, 0);
	close(fd);
	err[n > 0 ? n : 0] = '\0';
	errno = e;
	return r;
}

static const char conf_text[] =
	"# plugin settings\n"
	"interval = 10\n"
	"  path   =   /proc/stat   \n"
	"quoted = \"  spaced value  \"\n"
	"empty =\n"
	"dup = first\n"
	"dup = second\n"
	"\n"
	"[com.example.metric.a]\n"
	"interval = 20\n"
	"only_a=yes\n"
	"\t# indented comment\n"
	"[ com.example.metric.b ]\n"
	"interval=\"30\"\n"
	"[com.example.metric.a]\n"
	"late = reopened section\n";

START_TEST(pluginapi_config_lookup)
{
	char path[PATH_MAX], v[64], err[1024];

	make_tmpdir();
	tmp_path(path, sizeof(path), "plugins.conf");
	write_file(path, conf_text, sizeof(conf_text) - 1);
	setenv("MAPSAMPLE_PLUGIN_CONFIG", path, 1);
	unsetenv("MAPSAMPLE_CONFIG_DIR");

	static const struct {
		const char *var, *metric, *want;
	} cases[] = {
		{ "interval", NULL, "10" },
		{ "interval", "", "10" },
		{ "interval", "com.example.metric.a", "20" },
		{ "interval", "com.example.metric.b", "30" },
		{ "interval", "com.example.metric.c", "10" },	/* global */
		{ "path", NULL, "/proc/stat" },
		{ "path", "com.example.metric.a", "/proc/stat" },
		{ "quoted", NULL, "  spaced value  " },
		{ "empty", NULL, "" },
		{ "dup", NULL, "second" },
		{ "only_a", "com.example.metric.a", "yes" },
		{ "late", "com.example.metric.a", "reopened section" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(v, '#', sizeof(v));
		int r = config_lookup(cases[i].var, cases[i].metric, v,
			sizeof(v), err, sizeof(err));
		REQUIRE(r == (int)strlen(cases[i].want) &&
			strcmp(v, cases[i].want) == 0,
			"%s [%s]: %d \"%s\", want \"%s\"", cases[i].var,
			cases[i].metric ? cases[i].metric : "(null)", r, r >= 0 ?
			v : "", cases[i].want);
		REQUIRE(err[0] == '\0', "stderr: %s", err);
	}
	/* not found: only in another section, or nowhere */
	static const struct {
		const char *var, *metric;
	} missing[] = {
		{ "only_a", NULL }, { "only_a", "com.example.metric.b" },
		{ "nosuch", "com.example.metric.a" }, { "Interval", NULL },
		{ "com.example.metric.a", NULL },
	};
	for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		int r = config_lookup(missing[i].var, missing[i].metric, v,
			sizeof(v), err, sizeof(err));
		REQUIRE(r == -1 && errno == ENOENT, "%s: %d (errno %d), want "
			"-1 ENOENT", missing[i].var, r, errno);
	}
	/* truncation, like snprintf */
	memset(v, '#', sizeof(v));
	ck_assert_int_eq(config_lookup("late", "com.example.metric.a", v, 5,
		err, sizeof(err)), 16);
	ck_assert_str_eq(v, "reop");
	ck_assert_int_eq(v[5], '#');
	ck_assert_int_eq(config_lookup("late", "com.example.metric.a", v, 1,
		err, sizeof(err)), 16);
	ck_assert_str_eq(v, "");
	ck_assert_int_eq(config_lookup("path", NULL, NULL, 0, err,
		sizeof(err)), 10);
	/* bad arguments */
	ck_assert_int_eq(config_lookup(NULL, NULL, v, 10, err, sizeof(err)),
		-1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(config_lookup("", NULL, v, 10, err, sizeof(err)), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(config_lookup("path", NULL, v, -1, err, sizeof(err)),
		-1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(config_lookup("path", NULL, NULL, 4, err,
		sizeof(err)), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pluginapi_depth, 0);
	remove_tmpdir();
}
END_TEST

START_TEST(pluginapi_config_search)
{
	char a[PATH_MAX], dir[PATH_MAX], home[PATH_MAX], p[PATH_MAX];
	char v[64], err[1024];

	make_tmpdir();
	tmp_path(a, sizeof(a), "explicit.conf");
	write_file(a, "where = explicit\n", 17);
	tmp_path(dir, sizeof(dir), "confdir");
	mkdir(dir, 0700);
	join(p, sizeof(p), dir, "plugins.conf");
	write_file(p, "where = confdir\n", 16);
	tmp_path(home, sizeof(home), "home");
	mkdir(home, 0700);
	join(p, sizeof(p), home, ".mapsample");
	mkdir(p, 0700);
	join(p, sizeof(p), home, ".mapsample/plugins.conf");
	write_file(p, "where = home\n", 13);

	setenv("MAPSAMPLE_PLUGIN_CONFIG", a, 1);
	setenv("MAPSAMPLE_CONFIG_DIR", dir, 1);
	setenv("HOME", home, 1);
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 8);
	ck_assert_str_eq(v, "explicit");
	unsetenv("MAPSAMPLE_PLUGIN_CONFIG");
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 7);
	ck_assert_str_eq(v, "confdir");
	setenv("MAPSAMPLE_CONFIG_DIR", "", 1);	/* empty: skipped */
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 4);
	ck_assert_str_eq(v, "home");
	/* a configuration directory without plugins.conf is skipped */
	setenv("MAPSAMPLE_CONFIG_DIR", home, 1);
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 4);
	ck_assert_str_eq(v, "home");
	ck_assert_str_eq(err, "");

	/* MAPSAMPLE_PLUGIN_CONFIG naming no file: said once, then the
	 * next candidate */
	tmp_path(p, sizeof(p), "nosuch.conf");
	setenv("MAPSAMPLE_PLUGIN_CONFIG", p, 1);
	setenv("MAPSAMPLE_CONFIG_DIR", dir, 1);
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 7);
	ck_assert_str_eq(v, "confdir");
	REQUIRE(strncmp(err, "mapsample: MAPSAMPLE_PLUGIN_CONFIG=", 35) == 0 &&
		strstr(err, "nosuch.conf: No such file or directory") &&
		strchr(err, '\n') == err + strlen(err) - 1, "stderr: %s", err);
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), 7);
	ck_assert_str_eq(err, "");

	/* no file at all */
	unsetenv("MAPSAMPLE_PLUGIN_CONFIG");
	unsetenv("MAPSAMPLE_CONFIG_DIR");
	setenv("HOME", tmpdir, 1);
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOENT);
	unsetenv("HOME");
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOENT);

	/* a file that exists but cannot be read: its error, said */
	setenv("MAPSAMPLE_PLUGIN_CONFIG", dir, 1);	/* a directory */
	ck_assert_int_eq(config_lookup("where", NULL, v, sizeof(v), err,
		sizeof(err)), -1);
	ck_assert_int_eq(errno, EISDIR);
	REQUIRE(strstr(err, "confdir: cannot read the plugin configuration "
		"file: Is a directory") != NULL, "stderr: %s", err);
	remove_tmpdir();
}
END_TEST

START_TEST(pluginapi_config_malformed)
{
	static const char text[] =
		"good = 1\n"
		"this line has no equals sign\n"
		"[unclosed\n"
		"two words = x\n"
		"= novar\n"
		"bad = \"unterminated\n"
		"[]\n"
		"after = 2\n"
		"[sec]\n"
		"good = 3\n";
	char path[PATH_MAX], want[PATH_MAX + 200], v[64], err[1024];

	make_tmpdir();
	tmp_path(path, sizeof(path), "bad.conf");
	write_file(path, text, sizeof(text) - 1);
	setenv("MAPSAMPLE_PLUGIN_CONFIG", path, 1);

	/* malformed lines are skipped, the rest is read */
	ck_assert_int_eq(config_lookup("good", "sec", v, sizeof(v), err,
		sizeof(err)), 1);
	ck_assert_str_eq(v, "3");
	snprintf(want, sizeof(want), "mapsample: %s:2: malformed line ignored "
		"(and 5 more in this file); want 'variable = value', "
		"'[metric-id]' or '# comment', see mapsample-plugin(3)\n", path);
	ck_assert_str_eq(err, want);
	/* said once per file */
	ck_assert_int_eq(config_lookup("after", NULL, v, sizeof(v), err,
		sizeof(err)), 1);
	ck_assert_str_eq(v, "2");
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(config_lookup("bad", NULL, v, sizeof(v), err,
		sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(config_lookup("two", NULL, v, sizeof(v), err,
		sizeof(err)), -1);

	/* another file gets its own warning */
	tmp_path(path, sizeof(path), "bad2.conf");
	write_file(path, "x = 1\noops\n", 11);
	setenv("MAPSAMPLE_PLUGIN_CONFIG", path, 1);
	ck_assert_int_eq(config_lookup("x", NULL, v, sizeof(v), err,
		sizeof(err)), 1);
	snprintf(want, sizeof(want), "mapsample: %s:2: malformed line ignored; "
		"want 'variable = value', '[metric-id]' or '# comment', see "
		"mapsample-plugin(3)\n", path);
	ck_assert_str_eq(err, want);
	remove_tmpdir();
}
END_TEST

static Suite *pluginapi_suite(void)
{
	Suite *s = suite_create("pluginapi");
	TCase *tc;

	tc = tcase_create("format");
	tcase_add_test(tc, pluginapi_format_ints);
	tcase_add_test(tc, pluginapi_format_strings);
	tcase_add_test(tc, pluginapi_format_special);
	tcase_add_test(tc, pluginapi_format_truncation);
	tcase_add_test(tc, pluginapi_format_floats);
	tcase_add_test(tc, pluginapi_format_random);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("malloc");
	tcase_add_test(tc, pluginapi_malloc_sizes);
	tcase_add_test(tc, pluginapi_malloc_reuse_calloc);
	tcase_add_test(tc, pluginapi_malloc_realloc);
	tcase_add_test(tc, pluginapi_malloc_threads);
	tcase_add_test(tc, pluginapi_malloc_signal);
	tcase_add_test(tc, pluginapi_malloc_fatal);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("io");
	tcase_add_test(tc, pluginapi_io_read_line);
	tcase_add_test(tc, pluginapi_io_read_write);
	tcase_add_test(tc, pluginapi_io_counters);
	tcase_add_test(tc, pluginapi_io_printf);
	tcase_add_test(tc, pluginapi_sysinfo);
	tcase_add_test(tc, pluginapi_errors);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("config");
	tcase_add_test(tc, pluginapi_config_lookup);
	tcase_add_test(tc, pluginapi_config_search);
	tcase_add_test(tc, pluginapi_config_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pluginapi_suite());
	pluginapi_set_host(&test_host);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
