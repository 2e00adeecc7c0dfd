/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare: mapreport --compare (mapreport(1), COMPARING RUNS): reads
 * BASE's and NEW's logs, compares them (lib/report/compare.h), judges
 * the rules and runs the comparison's output back-ends.
 */
#ifndef MAPREPORT_COMPARE_H
#define MAPREPORT_COMPARE_H

#include "cmd/mapreport/args.h"
#include "report/out/output.h"

/* Runs the comparison a asks for, writing to the back-ends it picks into
 * outs.  Returns the exit status: 0 no rule broken, 3 a rule broken, 1
 * an input problem, 2 usage (an invalid rule). */
int run_compare(const struct args *a, struct output *outs);

/* The argument of --run-noise PCT into *v: 0, or 1 after saying on
 * standard error that it is not a percentage from 0 to 100. */
int compare_run_noise_option(const char *arg, double *v);

#endif
