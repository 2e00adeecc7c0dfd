/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of lib/report/symbolize.c on the programs of test/programs
 * built by make check:
 * - inline chains: every address of inlinehot's main (built -O2, two
 *   always_inline calls deep) expands into the frames addr2line -i -f
 *   gives (binutils; the case is skipped without it): innermost inline
 *   first, each caller at its call site, ending at main.
 * - public aliases: symnames' spin, defined under the internal name
 *   __GI_spin_impl with a WEAK alias __spin, is named spin.
 * - aliases of inlined code: symnames' twice_impl, always inlined into
 *   main, has the DWARF name __GI_twice_impl, an alias of twice: its
 *   inline frames are named twice.
 * - foreign lines: symnames' _start, which a discarded function's line
 *   rows and DWARF ranges cover (see symnames.c), has no line and is
 *   named _start.
 * - the vDSO of a run whose build-id is not this kernel's vDSO's, or
 *   not recorded, is not named from this process's vDSO: [vdso]+0xOFF,
 *   with one problem line for the first.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "report/symbolize.h"

#define PROGRAMS ABS_TOP_BUILDDIR "/test/programs/"

/* The address and size of the symbol name in the ELF file path; fails
 * the test when it is not there. */
static void elf_symbol(const char *path, const char *name, uint64_t *addr,
		       uint64_t *size)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "%s: cannot open (make check builds it)", path);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(elf);
	int found = 0;
	Elf_Scn *scn = NULL;
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize &&
				   i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n = gelf_getsym(d, (int)i, &s)
					? elf_strptr(elf, sh.sh_link, s.st_name)
					: NULL;
			if (n && strcmp(n, name) == 0 && s.st_value) {
				*addr = s.st_value;
				*size = s.st_size;
				found = 1;
				break;
			}
		}
	}
	elf_end(elf);
	close(fd);
	ck_assert_msg(found, "%s: no symbol %s", path, name);
}

/* Frames of the file address pc of path (loaded at 0), as a leaf. */
static int lookup(struct symtab *st, const char *path, uint64_t pc,
		  struct symframe *fr)
{
	int n = sym_lookup(st, path, NULL, 0, 0, 0, 0, pc, 1, fr,
			   SYM_MAX_FRAMES);
	ck_assert_int_ge(n, 1);
	return n;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "??";
}

START_TEST(symbolize_inline_chain)
{
	const char *prog = PROGRAMS "inlinehot";
	if (system("addr2line --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "symbolize_inline_chain skipped: no addr2line\n");
		return;
	}
	uint64_t lo, size;
	elf_symbol(prog, "main", &lo, &size);
	ck_assert_uint_gt(size, 0);
	char cmd[8192];
	int len = snprintf(cmd, sizeof(cmd), "addr2line -a -i -f -e '%s'", prog);
	for (uint64_t a = lo; a < lo + size && len < (int)sizeof(cmd) - 32; a++)
		len += snprintf(cmd + len, sizeof(cmd) - (size_t)len,
				" %#" PRIx64, a);
	ck_assert_int_lt(len, (int)sizeof(cmd) - 32);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	struct symtab *st = sym_new();
	struct symframe fr[SYM_MAX_FRAMES];
	char l1[4096], l2[4096];
	int n = 0, k = 0, deep = 0;
	uint64_t addr = 0;
	while (fgets(l1, sizeof(l1), p)) {
		l1[strcspn(l1, "\n")] = 0;
		if (strncmp(l1, "0x", 2) == 0) {
			ck_assert_msg(k == n, "%#" PRIx64 ": %d frames, addr2line %d",
				      addr, n, k);
			addr = strtoull(l1, NULL, 16);
			n = lookup(st, prog, addr, fr);
			deep += n >= 3;
			k = 0;
			continue;
		}
		ck_assert_ptr_nonnull(fgets(l2, sizeof(l2), p));
		l2[strcspn(l2, "\n")] = 0;
		char *colon = strrchr(l2, ':');
		int line = colon ? atoi(colon + 1) : 0;
		if (colon)
			*colon = 0;
		ck_assert_msg(k < n, "%#" PRIx64 ": addr2line has more frames "
			      "than %d (%s)", addr, n, l1);
		ck_assert_msg(strcmp(fr[k].func, l1) == 0,
			      "%#" PRIx64 " frame %d: %s, addr2line %s", addr, k,
			      fr[k].func, l1);
		ck_assert_msg(fr[k].line == line && (line == 0 ||
			      strcmp(base(fr[k].file), base(l2)) == 0),
			      "%#" PRIx64 " frame %d (%s): %s:%d, addr2line %s:%d",
			      addr, k, l1, base(fr[k].file), fr[k].line,
			      base(l2), line);
		k++;
	}
	ck_assert_msg(k == n, "%#" PRIx64 ": %d frames, addr2line %d", addr, n,
		      k);
	ck_assert_int_eq(pclose(p), 0);
	/* the hot loop: inline_inner in inline_outer in main */
	ck_assert_msg(deep > 0, "no address of main is two inlines deep");
	sym_free(st);
}
END_TEST

START_TEST(symbolize_public_alias)
{
	const char *prog = PROGRAMS "symnames";
	uint64_t a, size;
	elf_symbol(prog, "__GI_spin_impl", &a, &size);
	struct symtab *st = sym_new();
	struct symframe fr[SYM_MAX_FRAMES];
	for (uint64_t off = 0; off < size; off++) {
		int n = lookup(st, prog, a + off, fr);
		ck_assert_msg(strcmp(fr[n - 1].func, "spin") == 0,
			      "+%#" PRIx64 ": named %s, not spin", off,
			      fr[n - 1].func);
	}
	sym_free(st);
}
END_TEST

START_TEST(symbolize_inline_alias)
{
	const char *prog = PROGRAMS "symnames";
	uint64_t a, size;
	elf_symbol(prog, "main", &a, &size);
	struct symtab *st = sym_new();
	struct symframe fr[SYM_MAX_FRAMES];
	int inlined = 0;
	for (uint64_t off = 0; off < size; off++) {
		int n = lookup(st, prog, a + off, fr);
		if (n < 2)
			continue;
		inlined++;
		ck_assert_msg(strcmp(fr[0].func, "twice") == 0,
			      "main+%#" PRIx64 ": inline frame %s, not twice",
			      off, fr[0].func);
	}
	ck_assert_msg(inlined > 0, "no address of main is in inlined code");
	sym_free(st);
}
END_TEST

START_TEST(symbolize_no_foreign_line)
{
	const char *prog = PROGRAMS "symnames";
	uint64_t a, size;
	elf_symbol(prog, "_start", &a, &size);
	struct symtab *st = sym_new();
	struct symframe fr[SYM_MAX_FRAMES];
	for (uint64_t off = 0; off < (size ? size : 1); off++) {
		int n = lookup(st, prog, a + off, fr);
		ck_assert_msg(n == 1 && strcmp(fr[0].func, "_start") == 0,
			      "_start+%#" PRIx64 ": %d frames, the first %s", off,
			      n, fr[0].func);
		ck_assert_msg(fr[0].line == 0 && fr[0].file == NULL,
			      "_start+%#" PRIx64 ": given the line %s:%d", off,
			      fr[0].file ? fr[0].file : "(none)", fr[0].line);
	}
	sym_free(st);
}
END_TEST

START_TEST(symbolize_vdso_other_kernel)
{
	static const uint8_t bid[20] = {0xde, 0xad, 0xbe, 0xef};
	struct symtab *st = sym_new();
	struct symframe fr[SYM_MAX_FRAMES];
	const char *const *lines;
	int n = sym_lookup(st, "linux-vdso.so.1", NULL, 0, 0x7f0000000000,
			   0x7f0000000000, 0, 0x7f0000000b46, 1, fr,
			   SYM_MAX_FRAMES);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(fr[0].func, "[vdso]+0xb46");
	ck_assert_uint_eq(sym_problems(st, &lines), 0);
	n = sym_lookup(st, "linux-vdso.so.1", bid, sizeof(bid), 0x7f1000000000,
		       0x7f1000000000, 0, 0x7f1000000b46, 1, fr,
		       SYM_MAX_FRAMES);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(fr[0].func, "[vdso]+0xb46");
	ck_assert_uint_eq(sym_problems(st, &lines), 1);
	ck_assert_msg(strstr(lines[0], "not the vDSO of the kernel"), "%s",
		      lines[0]);
	sym_free(st);
}
END_TEST

static Suite *symbolize_suite(void)
{
	Suite *s = suite_create("symbolize");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, symbolize_inline_chain);
	tcase_add_test(tc, symbolize_public_alias);
	tcase_add_test(tc, symbolize_inline_alias);
	tcase_add_test(tc, symbolize_no_foreign_line);
	tcase_add_test(tc, symbolize_vdso_other_kernel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(symbolize_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
