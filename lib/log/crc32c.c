/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C (Castagnoli polynomial 0x82F63B78, reflected), the checksum of
 * log chunks.  Uses the SSE4.2 crc32 instruction when the CPU has it and a
 * slicing-by-8 table otherwise.  The tables are built by a constructor,
 * before any sampler code can run, so maplog_crc32c() is
 * async-signal-safe (it only reads them); the hardware path needs none.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "maplog_i.h"

#define POLY 0x82f63b78u

static uint32_t crc_table[8][256];
static int crc_have_hw = -1;

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
#if defined(__x86_64__) || defined(__i386__)
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

#if defined(__x86_64__)
/* One crc32 stream, 8 bytes per instruction: about 8 GB/s, well past
 * what the parser needs, so no multi-stream folding. */
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc,
							const uint8_t *p,
							size_t len)
{
	uint64_t c = crc;
	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	while (len >= 32) {
		uint64_t a, b, d, e;
		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&d, p + 16, 8);
		memcpy(&e, p + 24, 8);
		c = __builtin_ia32_crc32di(c, a);
		c = __builtin_ia32_crc32di(c, b);
		c = __builtin_ia32_crc32di(c, d);
		c = __builtin_ia32_crc32di(c, e);
		p += 32;
		len -= 32;
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
