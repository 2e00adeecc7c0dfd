/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport: turn mapsample logs into reports.  Option parsing and exit
 * codes only; the work is in lib/report.
 *
 * Exit status: 0 all logs read cleanly, 1 bad input (damaged, truncated or
 * unreadable log; whatever could be read is still reported), 2 usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "report/model.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mapreport [options] LOG...\n"
		"  -D, --dump       print every record, one per line\n"
		"  -n, --top N      rows in the top-addresses table (default 20)\n"
		"  -h, --help       this text\n"
		"  -V, --version    print the version\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"dump", no_argument, NULL, 'D'},
		{"top", required_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int dump = 0, c;
	unsigned long top = 20;
	while ((c = getopt_long(argc, argv, "Dn:hV", lo, NULL)) != -1) {
		switch (c) {
		case 'D':
			dump = 1;
			break;
		case 'n': {
			char *e;
			top = strtoul(optarg, &e, 10);
			if (!*optarg || *e || top > 100000) {
				fprintf(stderr, "mapreport: --top %s: give a "
						"number from 0 to 100000\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("mapreport %s\n", PACKAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mapreport: no log given; "
				"usage: mapreport [options] LOG...\n");
		return 2;
	}
	struct model m;
	model_init(&m);
	int status = 0, readable = 0;
	for (int i = optind; i < argc; i++) {
		int rc = model_load(&m, argv[i], dump ? stdout : NULL);
		if (rc)
			status = 1;
		if (rc >= 0)
			readable++;
	}
	if (readable && !dump)
		report_text(&m, stdout, (unsigned)top);
	fflush(stdout);
	char line[1024];
	for (size_t i = 0; i < m.nnotes; i++)
		fprintf(stderr, "mapreport: %s\n",
			model_note_str(&m.notes[i], line, sizeof(line)));
	model_free(&m);
	return status;
}
