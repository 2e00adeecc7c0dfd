/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outerr: writes to standard output and standard error and exits 3, for
 * the mapsample tests (the sampler changes neither the output nor the
 * exit status).  Prints its arguments one per line, a line on standard
 * error, then copies standard input (unless it is a terminal) to standard
 * output, and a last line.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("arg %d: [%s]\n", i, argv[i]);
	fflush(stdout);
	fprintf(stderr, "outerr: a line on standard error\n");
	if (!isatty(0)) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			fwrite(buf, 1, n, stdout);
	}
	printf("outerr: done\n");
	return 3;
}
