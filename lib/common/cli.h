/* SPDX-License-Identifier: BSD-2-Clause */
/* cli: what the command-line programs share. */
#ifndef MAPSAMPLE_CLI_H
#define MAPSAMPLE_CLI_H

/*
 * Prints one line for an option getopt_long refused (call with opterr
 * set to 0): the option that needs a value, or the unknown one, and a
 * pointer to PROG --help.  ind and opt are getopt's optind and optopt.
 */
void cli_bad_option(const char *prog, const char *optstring, char **argv,
		    int ind, int opt);

#endif
