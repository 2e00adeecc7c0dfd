/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C (Castagnoli polynomial 0x82F63B78, reflected), the checksum of
 * log chunks.  Uses the SSE4.2 crc32 instruction when the CPU has it and a
 * slicing-by-8 table otherwise.  The tables are built by a constructor,
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

#include "maplog_i.h"

#define POLY 0x82f63b78u

#define CRC_BLOCK 4096u

static uint32_t crc_table[8][256];
/* register * x^(8 * CRC_BLOCK) mod P, one table per register byte */
static uint32_t crc_shift_tab[4][256];
static int crc_have_hw = -1;

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

uint32_t maplog_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	crc = ~crc;
#if defined(__x86_64__)
	if (crc_have_hw > 0)
		return ~crc_hw(crc, p, len);
#endif
	if (crc_have_hw < 0)
		crc_init();
	return ~crc_sw(crc, p, len);
}

uint32_t maplog_crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	if (crc_have_hw < 0)
		crc_init();
	return ~crc_sw(~crc, buf, len);
}

int maplog_crc32c_hw(void)
{
	if (crc_have_hw < 0)
		crc_init();
	return crc_have_hw > 0;
}
