/* SPDX-License-Identifier: BSD-2-Clause */
/* cli: what the command-line programs share (see cli.h). */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"

void cli_bad_option(const char *prog, const char *optstring, char **argv,
		    int ind, int opt)
{
	const char *arg = argv[ind - 1];
	/* a long option without a short one (val above the characters)
	 * is only refused when its value is missing */
	if (opt > 0x7f || (opt && opt != ':' && opt != '+' &&
			   strchr(optstring, opt)))
		fprintf(stderr, "%s: option %s needs a value; see %s --help\n",
			prog, arg, prog);
	else if (opt)
		fprintf(stderr, "%s: unknown option -%c; see %s --help\n", prog,
			opt, prog);
	else
		fprintf(stderr, "%s: unknown option %s; see %s --help\n", prog,
			arg, prog);
}
