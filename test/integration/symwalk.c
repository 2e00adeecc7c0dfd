/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symwalk: prints the frames the report's symbolizer gives for every
 * byte address of one function of an ELF file, one line each:
 * "0xADDR innermost;...;outermost" (the file taken as loaded at 0).
 * mapsample-go.sh runs it on a Go function with inlined calls whose
 * abstract definitions lie in other units, where libdw's
 * dwarf_getscopes found no scope and leaked its array (the
 * symbolizer's inline chains: lib/report/cuscan.c); under the
 * sanitizers a leak fails the run.
 *
 * Usage: symwalk FILE FUNCTION.  Exit status 0, 1 when the function is
 * not in FILE's symbol table or a look-up fails, 2 for usage.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report/symbolize.h"

/* The value and size of the function symbol name of path: 0 or -1. */
static int find(const char *path, const char *name, uint64_t *lo,
		uint64_t *size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int rc = -1;
	Elf_Scn *scn = NULL;
	while (elf && rc && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;
			if (gelf_getsym(d, (int)i, &s) &&
			    GELF_ST_TYPE(s.st_info) == STT_FUNC && s.st_size &&
			    (n = elf_strptr(elf, sh.sh_link, s.st_name)) &&
			    strcmp(n, name) == 0) {
				*lo = s.st_value;
				*size = s.st_size;
				rc = 0;
				break;
			}
		}
	}
	elf_end(elf);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: symwalk FILE FUNCTION\n");
		return 2;
	}
	uint64_t lo, size;
	if (find(argv[1], argv[2], &lo, &size)) {
		fprintf(stderr, "symwalk: %s: no function %s in its symbol table\n",
			argv[1], argv[2]);
		return 1;
	}
	struct symtab *st = sym_new();
	if (!st)
		return 1;
	int rc = 0;
	for (uint64_t a = lo; a < lo + size; a++) {
		struct symframe fr[SYM_MAX_FRAMES];
		int n = sym_lookup(st, argv[1], NULL, 0, 0, 0, 0, a, 1, fr,
				   SYM_MAX_FRAMES);
		if (n < 1) {
			rc = 1;
			break;
		}
		printf("%#llx ", (unsigned long long)a);
		for (int i = 0; i < n; i++)
			printf("%s%s", i ? ";" : "", fr[i].func);
		printf("\n");
	}
	sym_free(st);
	return rc;
}
