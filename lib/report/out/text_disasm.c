/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_disasm: instructions with their samples (see text_disasm.h).
 * Each function symbol holding sampled code is disassembled by running
 * "objdump -d -l -C --no-show-raw-insn --start-address=LO
 * --stop-address=HI FILE" (no shell), and objdump's lines are read back:
 * an instruction "ADDR:<tab>TEXT" gets the samples at the addresses from
 * its own up to the next instruction's (a caller's return address less
 * one falls inside its call), the source markers "FILE:LINE" and the
 * labels are shown as they come.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/disasm.h"
#include "report/out/text_disasm.h"
#include "report/shorten.h"

extern char **environ;

struct oline {
	int insn;        /* 1: an instruction at addr */
	uint64_t addr;
	char *text;
};

static int said_missing; /* objdump not found: said once on stderr */

/* Runs objdump on r; its lines into *lines.  0, MAPS_ENOMEM, or
 * MAPS_EIO with why set. */
static int run_objdump(const struct drange *r, struct oline **lines,
		       size_t *n, char *why, size_t len)
{
	char lo[32], hi[32];
	snprintf(lo, sizeof(lo), "--start-address=0x%" PRIx64, r->dr_lo);
	snprintf(hi, sizeof(hi), "--stop-address=0x%" PRIx64, r->dr_hi);
	char *argv[] = {"objdump", "-d", "-l", "-C", "--no-show-raw-insn",
			lo, hi, (char *)r->dr_path, NULL};
	int pfd[2];
	if (pipe(pfd)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return MAPS_EIO;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int e = posix_spawnp(&pid, "objdump", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (e) {
		close(pfd[0]);
		snprintf(why, len, "objdump: %s; install GNU binutils",
			 strerror(e));
		if (e == ENOENT && !said_missing++)
			fprintf(stderr, "mapreport: --disasm: objdump not "
					"found in PATH; install GNU binutils "
					"(Debian: binutils)\n");
		return MAPS_EIO;
	}
	FILE *f = fdopen(pfd[0], "r");
	int rc = f ? 0 : MAPS_ENOMEM;
	size_t cap = 0;
	char *buf = NULL;
	size_t bcap = 0;
	while (!rc && f && getline(&buf, &bcap, f) >= 0) {
		buf[strcspn(buf, "\n")] = 0;
		if (!*buf || strncmp(buf, "Disassembly of", 14) == 0 ||
		    strstr(buf, "file format"))
			continue;
		struct oline o = {0, 0, NULL};
		char *end;
		const char *p = buf + strspn(buf, " ");
		uint64_t a = strtoull(p, &end, 16);
		if (end != p && end[0] == ':' && end[1] == '\t') {
			o.insn = 1;
			o.addr = a;
			p = end + 2;
		} else {
			p = buf;
		}
		if (!(o.text = strdup(p)) || mem_grow(lines, &cap, *n,
						      sizeof(**lines))) {
			free(o.text);
			rc = MAPS_ENOMEM;
			break;
		}
		(*lines)[(*n)++] = o;
	}
	free(buf);
	if (f)
		fclose(f);
	else
		close(pfd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		snprintf(why, len, "objdump failed on %s", r->dr_path);
		rc = MAPS_EIO;
	}
	return rc;
}

static void range_rows(FILE *out, const struct drange *r,
		       const struct oline *l, size_t n, uint64_t fself)
{
	size_t k = 0; /* next sampled address of r */
	for (size_t i = 0; i < n; i++) {
		if (!l[i].insn) {
			fprintf(out, "   %8s %8s  %s\n", "", "", l[i].text);
			continue;
		}
		uint64_t end = r->dr_hi;
		for (size_t j = i + 1; j < n; j++)
			if (l[j].insn) {
				end = l[j].addr;
				break;
			}
		uint64_t self = 0, total = 0;
		while (k < r->dr_n && r->dr_insn[k].di_addr < l[i].addr)
			k++;
		for (; k < r->dr_n && r->dr_insn[k].di_addr < end; k++) {
			self += r->dr_insn[k].di_self;
			total += r->dr_insn[k].di_total;
		}
		int hot = fself && self * 10 >= fself;
		if (self || total)
			fprintf(out, " %c %8" PRIu64 " %8" PRIu64, hot ? '*' : ' ',
				self, total);
		else
			fprintf(out, "   %8s %8s", "", "");
		fprintf(out, "  %8" PRIx64 ":  %s\n", l[i].addr, l[i].text);
	}
}

int text_disasm(const struct output_in *in, FILE *out, uint32_t func)
{
	struct disasm d;
	int rc = disasm_build(&d, in->oi_model, in->oi_analysis, func);
	if (rc)
		return rc;
	const struct rfunc *f = &in->oi_analysis->funcs[func];
	uint64_t fself = 0;
	for (size_t i = 0; i < d.d_n; i++)
		for (size_t j = 0; j < d.d_ranges[i].dr_n; j++)
			fself += d.d_ranges[i].dr_insn[j].di_self;
	char buf[NAME_DISPLAY_WIDTH + 1];
	fprintf(out, "\n  Instructions of %s (objdump -d -l): %" PRIu64
		     " samples running them\n",
		name_display(f->name, in->oi_full_names, buf, sizeof(buf)),
		fself);
	if (!d.d_n)
		fprintf(out, "  (no instructions: the function's code is in no "
			     "file this report can read)\n");
	for (size_t i = 0; i < d.d_n && !rc; i++) {
		const struct drange *r = &d.d_ranges[i];
		struct oline *lines = NULL;
		size_t n = 0;
		char why[4200];
		fprintf(out, "  %s [0x%" PRIx64 ", 0x%" PRIx64 ")\n",
			r->dr_path, r->dr_lo, r->dr_hi);
		rc = run_objdump(r, &lines, &n, why, sizeof(why));
		if (rc == MAPS_EIO) {
			fprintf(out, "  (instructions not shown: %s)\n", why);
			rc = 0;
		} else if (!rc) {
			fprintf(out, "   %8s %8s  %8s   %s\n", "SELF", "TOTAL",
				"ADDRESS", "INSTRUCTION");
			range_rows(out, r, lines, n, fself);
		}
		for (size_t j = 0; j < n; j++)
			free(lines[j].text);
		free(lines);
	}
	if (d.d_unplaced)
		fprintf(out, "  %" PRIu64 " samples in code of no function "
			     "symbol not shown\n", d.d_unplaced);
	disasm_free(&d);
	return rc;
}
