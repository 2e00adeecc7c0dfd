/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * maplog_cpu: which decoders the parsers of this process use, decided
 * once from the CPU (maplog_format.h: maplog_cpu_pext(),
 * maplog_cpu_force_portable()).  A leaf of the parser: maplog_open()
 * asks it, and it calls nothing of lib/log.
 */
#include <string.h>

#include "maplog_format.h"

static int cpu_pext;           /* set once, by cpu_init() */
static int cpu_force_portable; /* maplog_cpu_force_portable() */

#if MAPLOG_HAVE_PEXT
#include <cpuid.h>

/* Decides, once, whether pext is worth using (see maplog_cpu_pext()). */
__attribute__((constructor)) static void cpu_init(void)
{
	unsigned a, b, c, d, v[3];
	if (__get_cpuid_max(0, NULL) < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	if (!(b & bit_BMI) || !(b & bit_BMI2))
		return;
	__cpuid(0, a, v[0], v[2], v[1]); /* vendor: ebx, edx, ecx */
	char vendor[12];
	memcpy(vendor, v, sizeof(vendor));
	/* Hygon's CPUs are Zen 1 */
	int amd = !memcmp(vendor, "AuthenticAMD", 12) ||
		  !memcmp(vendor, "HygonGenuine", 12);
	__cpuid(1, a, b, c, d);
	unsigned family = (a >> 8) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	/* Zen 1 and 2 (0x17, 0x18) and the families before run pext in
	 * microcode */
	if (amd && family < 0x19)
		return;
	cpu_pext = 1;
}
#endif

int maplog_cpu_pext(void)
{
	return cpu_pext && !cpu_force_portable;
}

void maplog_cpu_force_portable(int on)
{
	cpu_force_portable = on != 0;
}
