/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of maplog_crc32c() (lib/log/crc32c.c), the chunk checksum:
 * published CRC32C vectors (RFC 3720 B.4), continuing a checksum piece by
 * piece gives the one-shot value, and every start alignment and length
 * agrees with a bit-at-a-time reference.  Whichever implementation the CPU
 * selects (AVX-512 folding, SSE4.2 or slicing-by-8) is the one tested,
 * crc32c_paths checks the portable code and the selected one against the
 * reference on random lengths (past several rounds of the three-stream
 * hardware loop), alignments and starting values, and crc32c_impls
 * checks every implementation the CPU runs against the portable code,
 * length by length up to 4096 bytes and beyond.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "log/maplog_format.h"

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

/* Reflected CRC32C, one bit at a time. */
static uint32_t crc_ref(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ ((crc & 1) ? 0x82f63b78u : 0);
	}
	return ~crc;
}

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

START_TEST(crc32c_vectors)
{
	uint8_t b[32];

	ck_assert_uint_eq(maplog_crc32c(0, "123456789", 9), 0xe3069283u);
	memset(b, 0, sizeof(b));
	ck_assert_uint_eq(maplog_crc32c(0, b, 32), 0x8a9136aau);
	memset(b, 0xff, sizeof(b));
	ck_assert_uint_eq(maplog_crc32c(0, b, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	ck_assert_uint_eq(maplog_crc32c(0, b, 32), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)(31 - i);
	ck_assert_uint_eq(maplog_crc32c(0, b, 32), 0x113fdb5cu);
	ck_assert_uint_eq(maplog_crc32c(0, "a", 1), 0xc1d04330u);
	ck_assert_uint_eq(maplog_crc32c(0, NULL, 0), 0);
	ck_assert_uint_eq(maplog_crc32c(0x12345678u, b, 0), 0x12345678u);
}
END_TEST

START_TEST(crc32c_incremental)
{
	enum { N = 1000 };
	static uint8_t b[N];
	uint64_t s = 1;
	for (int i = 0; i < N; i++)
		b[i] = (uint8_t)rng(&s);
	uint32_t whole = maplog_crc32c(0, b, N);
	ck_assert_uint_eq(whole, crc_ref(0, b, N));
	for (size_t k = 0; k <= N; k++) {
		uint32_t c = maplog_crc32c(0, b, k);
		c = maplog_crc32c(c, b + k, N - k);
		REQUIRE(c == whole, "split at %zu: %08x, want %08x", k, c,
			whole);
	}
	/* many uneven pieces */
	for (int round = 0; round < 50; round++) {
		uint32_t c = 0;
		size_t at = 0;
		while (at < N) {
			size_t n = rng(&s) % 40;
			if (n > N - at)
				n = N - at;
			c = maplog_crc32c(c, b + at, n);
			at += n;
		}
		REQUIRE(c == whole, "round %d: %08x", round, c);
	}
}
END_TEST

START_TEST(crc32c_alignment)
{
	enum { N = 600 };
	static uint8_t buf[N + 64];
	uint64_t s = 2;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rng(&s);
	for (size_t off = 0; off < 16; off++) {
		for (size_t len = 0; len <= N; len++) {
			/* an exact-size copy: reading past it is caught
			 * under AddressSanitizer */
			uint8_t *m = malloc(len ? len : 1);
			ck_assert_ptr_nonnull(m);
			memcpy(m, buf + off, len);
			uint32_t want = crc_ref(0, buf + off, len);
			uint32_t got = maplog_crc32c(0, buf + off, len);
			REQUIRE(got == want, "offset %zu length %zu", off, len);
			REQUIRE(maplog_crc32c(0, m, len) == want,
				"copy of length %zu", len);
			REQUIRE(maplog_crc32c(0x9abcdef0u, buf + off, len) ==
					crc_ref(0x9abcdef0u, buf + off, len),
				"seeded, offset %zu length %zu", off, len);
			free(m);
		}
	}
	/* a large buffer */
	size_t big = 1u << 20;
	uint8_t *m = malloc(big + 3);
	ck_assert_ptr_nonnull(m);
	for (size_t i = 0; i < big + 3; i++)
		m[i] = (uint8_t)(i * 131 + (i >> 9));
	ck_assert_uint_eq(maplog_crc32c(0, m + 3, big),
			  crc_ref(0, m + 3, big));
	free(m);
}
END_TEST

/* A checksum catches every single-bit change of a chunk-sized buffer. */
START_TEST(crc32c_detects_bit_flips)
{
	enum { N = 256 };
	static uint8_t b[N];
	uint64_t s = 3;
	for (int i = 0; i < N; i++)
		b[i] = (uint8_t)rng(&s);
	uint32_t c0 = maplog_crc32c(0, b, N);
	for (int i = 0; i < N * 8; i++) {
		b[i / 8] ^= (uint8_t)(1u << (i % 8));
		REQUIRE(maplog_crc32c(0, b, N) != c0, "bit %d not seen", i);
		b[i / 8] ^= (uint8_t)(1u << (i % 8));
	}
	ck_assert_uint_eq(maplog_crc32c(0, b, N), c0);
}
END_TEST

/* Both implementations against the reference, random lengths up to
 * 64 KiB (the hardware code joins three 4 KiB streams per 12 KiB round),
 * random alignments and seeds. */
START_TEST(crc32c_paths)
{
	enum { N = 70000 };
	uint8_t *buf = malloc(N);
	ck_assert_ptr_nonnull(buf);
	uint64_t s = 4;
	for (size_t i = 0; i < N; i++)
		buf[i] = (uint8_t)rng(&s);
	printf("crc32c: maplog_crc32c uses the %s code\n",
	       maplog_crc32c_hw() ? "hardware" : "portable");
	for (int round = 0; round < 300; round++) {
		size_t off = rng(&s) % 64;
		size_t len = round < 100 ? rng(&s) % 200
			     : (size_t)(rng(&s) % (N - 64));
		uint32_t seed = round % 3 ? (uint32_t)rng(&s) : 0;
		uint32_t want = crc_ref(seed, buf + off, len);
		uint32_t hw = maplog_crc32c(seed, buf + off, len);
		uint32_t sw = maplog_crc32c_portable(seed, buf + off, len);
		REQUIRE(hw == want, "selected: offset %zu length %zu", off,
			len);
		REQUIRE(sw == want, "portable: offset %zu length %zu", off,
			len);
	}
	/* lengths around the multiples of the 12 KiB round */
	for (size_t k = 1; k <= 5; k++) {
		for (size_t d = 0; d < 20; d++) {
			size_t len = k * 3 * 4096 + d - 10;
			size_t off = d % 9;
			uint32_t want = crc_ref(0, buf + off, len);
			REQUIRE(maplog_crc32c(0, buf + off, len) == want,
				"selected: length %zu", len);
			REQUIRE(maplog_crc32c_portable(0, buf + off, len) ==
					want,
				"portable: length %zu", len);
		}
	}
	free(buf);
}
END_TEST

static const char *const impl_names[MAPLOG_CRC_NIMPL_] = {
	[MAPLOG_CRC_TABLE] = "slicing-by-8 table",
	[MAPLOG_CRC_SSE42] = "SSE4.2 crc32",
	[MAPLOG_CRC_AVX512] = "AVX-512 VPCLMULQDQ folding",
};

/*
 * Every implementation the CPU runs, bit for bit against the portable
 * code: every length from 0 to 4096 (the folding code takes 256 bytes
 * and more, in steps of 256, then 64 and 16 bytes, and a tail) at four
 * start offsets, from an exact-size copy too (ASan sees any read past
 * the end); random seeds; lengths around the multiples of 256 up to
 * 64 KiB; random lengths up to 1 MiB; and a buffer of 64 MiB (the
 * largest chunk).
 */
START_TEST(crc32c_impls)
{
	enum { N = 1u << 20 };
	uint8_t *buf = malloc(N + 64);
	ck_assert_ptr_nonnull(buf);
	uint64_t s = 5;
	for (size_t i = 0; i < N + 64; i++)
		buf[i] = (uint8_t)rng(&s);
	printf("crc32c: maplog_crc32c uses the %s code\n",
	       impl_names[maplog_crc32c_impl()]);
	ck_assert(maplog_crc32c_has(MAPLOG_CRC_TABLE));
	ck_assert(!maplog_crc32c_has(-1));
	ck_assert(!maplog_crc32c_has(MAPLOG_CRC_NIMPL_));
	ck_assert(maplog_crc32c_has(maplog_crc32c_impl()));
	for (int impl = 0; impl < MAPLOG_CRC_NIMPL_; impl++) {
		if (!maplog_crc32c_has(impl)) {
			printf("crc32c: this CPU has no %s\n",
			       impl_names[impl]);
			continue;
		}
		printf("crc32c: testing %s\n", impl_names[impl]);
		for (size_t len = 0; len <= 4096; len++) {
			uint8_t *m = malloc(len ? len : 1);
			ck_assert_ptr_nonnull(m);
			memcpy(m, buf + 7, len);
			uint32_t seed = (uint32_t)rng(&s);
			REQUIRE(maplog_crc32c_with(impl, 0, m, len) ==
					maplog_crc32c_portable(0, m, len),
				"%s: copy of length %zu", impl_names[impl],
				len);
			free(m);
			for (size_t off = 0; off < 4; off++) {
				const uint8_t *b = buf + off;
				REQUIRE(maplog_crc32c_with(impl, seed, b,
							   len) ==
						maplog_crc32c_portable(seed, b,
								       len),
					"%s: offset %zu length %zu seed %08x",
					impl_names[impl], off, len, seed);
			}
		}
		for (size_t k = 1; k <= 256; k++) {
			for (size_t d = 0; d < 7; d++) {
				size_t len = 256 * k + d - 3;
				size_t off = (k + d) % 64;
				REQUIRE(maplog_crc32c_with(impl, 0, buf + off,
							   len) ==
						maplog_crc32c_portable(
							0, buf + off, len),
					"%s: offset %zu length %zu",
					impl_names[impl], off, len);
			}
		}
		for (int round = 0; round < 40; round++) {
			size_t off = rng(&s) % 64;
			size_t len = rng(&s) % (N + 1);
			uint32_t seed = (uint32_t)rng(&s);
			REQUIRE(maplog_crc32c_with(impl, seed, buf + off,
						   len) ==
					crc_ref(seed, buf + off, len),
				"%s: offset %zu length %zu seed %08x",
				impl_names[impl], off, len, seed);
		}
	}
	free(buf);
	/* the largest chunk, all implementations alike */
	size_t big = 64u << 20;
	uint8_t *m = malloc(big);
	ck_assert_ptr_nonnull(m);
	for (size_t i = 0; i < big; i++)
		m[i] = (uint8_t)(i * 2654435761u >> 13);
	uint32_t want = maplog_crc32c_portable(0, m, big);
	for (int impl = 0; impl < MAPLOG_CRC_NIMPL_; impl++)
		if (maplog_crc32c_has(impl))
			REQUIRE(maplog_crc32c_with(impl, 0, m, big) == want,
				"%s: 64 MiB", impl_names[impl]);
	free(m);
}
END_TEST

/* An implementation the CPU lacks falls back to the table code. */
START_TEST(crc32c_impl_fallback)
{
	static const uint8_t b[300] = {1, 2, 3};
	uint32_t want = maplog_crc32c_portable(0, b, sizeof(b));
	ck_assert_uint_eq(maplog_crc32c_with(-1, 0, b, sizeof(b)), want);
	ck_assert_uint_eq(
		maplog_crc32c_with(MAPLOG_CRC_NIMPL_, 0, b, sizeof(b)), want);
	for (int impl = 0; impl < MAPLOG_CRC_NIMPL_; impl++)
		ck_assert_uint_eq(maplog_crc32c_with(impl, 0, b, sizeof(b)),
				  want);
}
END_TEST

static Suite *crc32c_suite(void)
{
	Suite *s = suite_create("crc32c");
	TCase *tc = tcase_create("crc32c");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, crc32c_vectors);
	tcase_add_test(tc, crc32c_incremental);
	tcase_add_test(tc, crc32c_alignment);
	tcase_add_test(tc, crc32c_detects_bit_flips);
	tcase_add_test(tc, crc32c_paths);
	tcase_add_test(tc, crc32c_impls);
	tcase_add_test(tc, crc32c_impl_fallback);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(crc32c_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
