/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spinforever: writes its pid to the file named by its argument, then
 * burns CPU in burn_forever until killed, for the mapsample tests (a
 * program killed with SIGKILL, whose log chunks are never sealed).  The
 * pid file is written under a temporary name and renamed, so a reader
 * never sees it half written.
 */
#include <stdio.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;

NOINLINE static void burn_forever(void)
{
	unsigned long x = 1;
	for (unsigned long i = 0;; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
		if ((i & 0xffffff) == 0)
			sink += x;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: spinforever PIDFILE\n");
		return 2;
	}
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) ||
	    rename(tmp, argv[1])) {
		perror("spinforever: pid file");
		return 1;
	}
	burn_forever();
	return 0;
}
