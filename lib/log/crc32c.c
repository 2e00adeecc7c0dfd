/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C (Castagnoli polynomial 0x82F63B78, reflected), the checksum of
 * log chunks.  Uses carry-less multiplication (AVX-512 VPCLMULQDQ) for
 * buffers of 256 bytes and more when the CPU has it, the SSE4.2 crc32
 * instruction when it has that, and a slicing-by-8 table otherwise.  The
 * tables, the folding constants and the choice are made by a constructor,
 * before any sampler code can run, so maplog_crc32c() is
 * async-signal-safe (it only reads them).
 *
 * The crc32 instruction has a latency of 3 cycles and a throughput of 1,
 * so one dependent stream uses a third of it.  Long buffers are cut into
 * rounds of three CRC_BLOCK-byte blocks checksummed side by side; each
 * round's three values are joined with the shift operator of CRC_BLOCK
 * zero bytes (crc_shift_tab), since
 *   crc(A B C) = (crc(A) x^8L + crc0(B)) x^8L + crc0(C)   (mod P)
 * where crc0 starts from a zero register and L = CRC_BLOCK.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "maplog_format.h"

/* The preloaded sampler builds this file with MAPLOG_CRC_NARROW: no
 * AVX-512 code in the profiled program.  Wide vector instructions lower
 * the clock of some CPUs for a while, which the program would feel, and
 * the sampler checksums one chunk per 256 KiB of log, where the wide
 * path gains nothing. */
#if defined(__x86_64__) && !defined(MAPLOG_CRC_NARROW)
#define CRC_WIDE 1
#else
#define CRC_WIDE 0
#endif

#define POLY 0x82f63b78u

#define CRC_BLOCK 4096u

static uint32_t crc_table[8][256];
/* register * x^(8 * CRC_BLOCK) mod P, one table per register byte */
static uint32_t crc_shift_tab[4][256];
static int crc_have_hw = -1;
/* the best MAPLOG_CRC_* this CPU runs, and each one's availability */
static int crc_best = MAPLOG_CRC_TABLE;
static int crc_has[MAPLOG_CRC_NIMPL_] = {[MAPLOG_CRC_TABLE] = 1};

/* a * b mod P, reflected: bit 31 is x^0 (only at initialisation) */
static uint32_t gf_mul(uint32_t a, uint32_t b)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++) {
		if (a & (0x80000000u >> i))
			r ^= b;
		b = (b & 1) ? (b >> 1) ^ POLY : b >> 1;
	}
	return r;
}

#if CRC_WIDE
/* x^n mod P, reflected (only at initialisation) */
static uint32_t xpow_mod(unsigned n)
{
	uint32_t c = 0x80000000u;
	while (n--)
		c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
	return c;
}

/* Constants of the carry-less folds, see crc_avx512(); set by crc_init() */
static uint64_t fold_k[3][2];
enum { FOLD_16, FOLD_64, FOLD_256 }; /* distance folded, in bytes */
static void crc_init_fold(void);
#endif

__attribute__((constructor)) static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = crc_table[0][i];
		for (int t = 1; t < 8; t++) {
			c = crc_table[0][c & 0xff] ^ (c >> 8);
			crc_table[t][i] = c;
		}
	}
	/* x^(8 * CRC_BLOCK): the register x^0 run through CRC_BLOCK zeros */
	uint32_t k = 0x80000000u;
	for (uint32_t i = 0; i < CRC_BLOCK; i++)
		k = crc_table[0][k & 0xff] ^ (k >> 8);
	/* the product is linear in the register: multiply the 32 single
	 * bits, and every other entry is the XOR of two earlier ones */
	for (uint32_t t = 0; t < 4; t++) {
		crc_shift_tab[t][0] = 0;
		for (uint32_t i = 1; i < 256; i++) {
			uint32_t low = i & -i;
			crc_shift_tab[t][i] =
				i == low ? gf_mul(i << (8 * t), k)
					 : crc_shift_tab[t][low] ^
						   crc_shift_tab[t][i ^ low];
		}
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	crc_have_hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	crc_has[MAPLOG_CRC_SSE42] = crc_have_hw;
#if CRC_WIDE
	crc_init_fold();
	crc_has[MAPLOG_CRC_AVX512] = crc_have_hw &&
				     __builtin_cpu_supports("pclmul") &&
				     __builtin_cpu_supports("avx512f") &&
				     __builtin_cpu_supports("vpclmulqdq");
#endif
	for (int i = 0; i < MAPLOG_CRC_NIMPL_; i++)
		if (crc_has[i])
			crc_best = i;
#else
	crc_have_hw = 0;
#endif
}

static uint32_t crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		w ^= crc;
		crc = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff] ^
		      crc_table[5][(w >> 16) & 0xff] ^
		      crc_table[4][(w >> 24) & 0xff] ^
		      crc_table[3][(w >> 32) & 0xff] ^
		      crc_table[2][(w >> 40) & 0xff] ^
		      crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* c * x^(8 * CRC_BLOCK) mod P */
static inline uint32_t crc_shift(uint32_t c)
{
	return crc_shift_tab[0][c & 0xff] ^ crc_shift_tab[1][(c >> 8) & 0xff] ^
	       crc_shift_tab[2][(c >> 16) & 0xff] ^ crc_shift_tab[3][c >> 24];
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc,
							const uint8_t *p,
							size_t len)
{
	uint64_t c = crc;
	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	/* three independent streams over consecutive blocks */
	while (len >= 3 * CRC_BLOCK) {
		uint64_t c1 = 0, c2 = 0;
		for (size_t i = 0; i < CRC_BLOCK; i += 8) {
			uint64_t a, b, d;
			memcpy(&a, p + i, 8);
			memcpy(&b, p + CRC_BLOCK + i, 8);
			memcpy(&d, p + 2 * CRC_BLOCK + i, 8);
			c = __builtin_ia32_crc32di(c, a);
			c1 = __builtin_ia32_crc32di(c1, b);
			c2 = __builtin_ia32_crc32di(c2, d);
		}
		c = crc_shift(crc_shift((uint32_t)c) ^ (uint32_t)c1) ^
		    (uint32_t)c2;
		p += 3 * CRC_BLOCK;
		len -= 3 * CRC_BLOCK;
	}
	while (len >= 8) {
		uint64_t a;
		memcpy(&a, p, 8);
		c = __builtin_ia32_crc32di(c, a);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}
#endif

#if CRC_WIDE
/*
 * Folding with carry-less multiplication (PCLMULQDQ), the technique of
 * Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction" (2009), for the reflected polynomial.
 *
 * Reflected, bit 0 of a message's first byte is its highest power, so a
 * 16-byte block X whose first 8 bytes are LO and next 8 are HI is the
 * polynomial LO x^64 + HI (each half read as a reflected 64-bit lane:
 * bit i stands for x^(63-i)).  Moving X d bits further down the message
 * multiplies it by x^d, and
 *   X x^d = LO x^(d+64) + HI x^d  ==  LO (x^(d+64) mod P) + HI (x^d mod P)
 * (mod P): two carry-less products of 64 by 32 bits, under 96 bits.  Their
 * XOR with the block d bits later has the CRC the two blocks had, so a
 * whole buffer folds into one block.  The product of two reflected lanes
 * comes out as the reflected 128-bit product times x, hence the constants
 * x^(d+63) and x^(d-1) mod P; a reflected 32-bit constant sits in the
 * high half of its lane (fold_k, derived in crc_init_fold()).  The
 * starting register is XORed into the first 4 bytes, which leaves the
 * CRC of the message from a zero register; what is left at the end, 16
 * bytes and a tail of under 16, is checksummed from a zero register with
 * the crc32 instruction, so these paths need SSE4.2 as well.
 *
 * VPCLMULQDQ multiplies the four 16-byte lanes of a 64-byte AVX-512
 * register at once, and four such registers are folded side by side (256
 * bytes a step: the product has a latency of several cycles), then onto
 * each other, then their lanes.  (Folding 16-byte registers with plain
 * PCLMULQDQ is not done: four side by side ran at 14 GB/s on an AMD
 * Zen 4, half the speed of crc_hw()'s three crc32 streams.)
 */
static void crc_init_fold(void)
{
	static const unsigned d[3] = {[FOLD_16] = 128, [FOLD_64] = 512,
				      [FOLD_256] = 2048};
	for (int i = 0; i < 3; i++) {
		fold_k[i][0] = (uint64_t)xpow_mod(d[i] + 63) << 32;
		fold_k[i][1] = (uint64_t)xpow_mod(d[i] - 1) << 32;
	}
}

#define CLMUL_TARGET __attribute__((target("pclmul,sse4.2")))
#define AVX512_TARGET \
	__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.2")))

/* Bytes below which crc_avx512() leaves a buffer to crc_hw() */
#define AVX512_MIN 256u

static inline CLMUL_TARGET __m128i ld16(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* x moved on by the distance of k (fold_k), XORed with the block d */
static inline CLMUL_TARGET __m128i fold16(__m128i x, __m128i k, __m128i d)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)),
			     d);
}

/* The register after the 16 bytes of x and the len < 16 at p, from 0. */
static inline CLMUL_TARGET uint32_t crc_finish(__m128i x, const uint8_t *p,
					       size_t len)
{
	uint64_t c = __builtin_ia32_crc32di(0, (uint64_t)_mm_cvtsi128_si64(x));
	c = __builtin_ia32_crc32di(c, (uint64_t)_mm_extract_epi64(x, 1));
	return crc_hw((uint32_t)c, p, len);
}

static inline AVX512_TARGET __m512i ld64(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

/* fold16() on the four lanes of x at once */
static inline AVX512_TARGET __m512i fold64(__m512i x, __m512i k, __m512i d)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11),
					 d, 0x96 /* a ^ b ^ c */);
}

/* crc_hw() for len >= AVX512_MIN, with AVX-512 VPCLMULQDQ */
static AVX512_TARGET uint32_t crc_avx512(uint32_t crc, const uint8_t *p,
					 size_t len)
{
	__m512i y0 = _mm512_xor_si512(ld64(p),
				      _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0,
						       (long long)crc));
	__m512i y1 = ld64(p + 64), y2 = ld64(p + 128), y3 = ld64(p + 192);
	__m512i k = _mm512_broadcast_i32x4(_mm_loadu_si128(
		(const __m128i *)(const void *)fold_k[FOLD_256]));
	p += 256;
	len -= 256;
	while (len >= 256) {
		y0 = fold64(y0, k, ld64(p));
		y1 = fold64(y1, k, ld64(p + 64));
		y2 = fold64(y2, k, ld64(p + 128));
		y3 = fold64(y3, k, ld64(p + 192));
		p += 256;
		len -= 256;
	}
	k = _mm512_broadcast_i32x4(_mm_loadu_si128(
		(const __m128i *)(const void *)fold_k[FOLD_64]));
	y0 = fold64(y0, k, y1);
	y0 = fold64(y0, k, y2);
	y0 = fold64(y0, k, y3);
	while (len >= 64) {
		y0 = fold64(y0, k, ld64(p));
		p += 64;
		len -= 64;
	}
	__m128i k16 = _mm_loadu_si128((const __m128i *)(const void *)
					      fold_k[FOLD_16]);
	__m128i x = _mm512_castsi512_si128(y0);
	x = fold16(x, k16, _mm512_extracti32x4_epi32(y0, 1));
	x = fold16(x, k16, _mm512_extracti32x4_epi32(y0, 2));
	x = fold16(x, k16, _mm512_extracti32x4_epi32(y0, 3));
	while (len >= 16) {
		x = fold16(x, k16, ld16(p));
		p += 16;
		len -= 16;
	}
	return crc_finish(x, p, len);
}
#endif

/* The register after len bytes at p with impl, or with the best one below
 * it that takes a buffer this short. */
static uint32_t crc_run(int impl, uint32_t c, const uint8_t *p, size_t len)
{
#if defined(__x86_64__)
	switch (impl) {
#if CRC_WIDE
	case MAPLOG_CRC_AVX512:
		if (len >= AVX512_MIN)
			return crc_avx512(c, p, len);
		__attribute__((fallthrough));
#endif
	case MAPLOG_CRC_SSE42:
		return crc_hw(c, p, len);
	default:
		break;
	}
#endif
	return crc_sw(c, p, len);
}

uint32_t maplog_crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (crc_have_hw < 0)
		crc_init();
	return ~crc_run(crc_best, ~crc, buf, len);
}

uint32_t maplog_crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	if (crc_have_hw < 0)
		crc_init();
	return ~crc_sw(~crc, buf, len);
}

uint32_t maplog_crc32c_with(int impl, uint32_t crc, const void *buf,
			    size_t len)
{
	if (crc_have_hw < 0)
		crc_init();
	if (!maplog_crc32c_has(impl))
		impl = MAPLOG_CRC_TABLE;
	return ~crc_run(impl, ~crc, buf, len);
}

int maplog_crc32c_has(int impl)
{
	if (crc_have_hw < 0)
		crc_init();
	return impl >= 0 && impl < MAPLOG_CRC_NIMPL_ && crc_has[impl];
}

int maplog_crc32c_impl(void)
{
	if (crc_have_hw < 0)
		crc_init();
	return crc_best;
}

int maplog_crc32c_hw(void)
{
	if (crc_have_hw < 0)
		crc_init();
	return crc_have_hw > 0;
}
