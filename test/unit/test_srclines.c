/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of srclines_open() and srclines_map_ok() (lib/report/
 * srclines.c): where mapreport --lines looks for a source file.  A
 * relative DWARF path under the build's folder, a --source-map rule
 * (its FROM folder whole, with or without a trailing '/', never a mere
 * prefix of a name), --source-dir by the path below it and by file name
 * alone, and the reason given when nothing is found.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "report/srclines.h"

static char top[256];

/* Writes the file top/rel holding text, making its folders. */
static void put(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", top, rel);
	for (char *s = p + strlen(top) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The first line of the file srclines_open finds for file, or NULL
 * with the reason in why. */
static const char *found(const struct srcpaths *sp, const char *comp_dir,
			 const char *file, char *why)
{
	static char line[256];
	char path[4096];
	FILE *f = srclines_open(sp, comp_dir, file, path, why, 4096);
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	return line;
}

static void setup(void)
{
	snprintf(top, sizeof(top), "/tmp/test_srclines.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	put("build/src/a.c", "build a\n");
	put("copy/src/a.c", "copy a\n");
	put("flat/a.c", "flat a\n");
	put("buildx/src/a.c", "buildx a\n");
}

static void teardown(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(srclines_paths)
{
	struct srcpaths none = {0};
	char why[4096], dir[300], file[300], rule[700], rule2[700];
	const char *s;
	snprintf(dir, sizeof(dir), "%s/build", top);
	/* relative to the build's folder; absolute as it is */
	s = found(&none, dir, "src/a.c", why);
	ck_assert_str_eq(s ? s : why, "build a\n");
	snprintf(file, sizeof(file), "%s/build/src/a.c", top);
	s = found(&none, NULL, file, why);
	ck_assert_str_eq(s ? s : why, "build a\n");
	/* a map rule, trailing '/' or not */
	snprintf(rule, sizeof(rule), "%s/build=%s/copy", top, top);
	const char *maps[] = {rule};
	struct srcpaths sp = {NULL, 0, maps, 1};
	s = found(&sp, NULL, file, why);
	ck_assert_str_eq(s ? s : why, "copy a\n");
	snprintf(rule2, sizeof(rule2), "%s/build/=%s/copy/", top, top);
	maps[0] = rule2;
	s = found(&sp, NULL, file, why);
	ck_assert_str_eq(s ? s : why, "copy a\n");
	/* FROM is a folder: "build" does not take "buildx" */
	snprintf(file, sizeof(file), "%s/buildx/src/a.c", top);
	s = found(&sp, NULL, file, why);
	ck_assert_str_eq(s ? s : why, "buildx a\n");
	/* a rule to nowhere: the reason names where it looked */
	maps[0] = "/=/nonexistent";
	s = found(&sp, NULL, file, why);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(why, "/nonexistent") && strstr(why, strerror(ENOENT)),
		      "reason: %s", why);
	/* then --source-dir, by the path below it, then by name alone */
	char d1[300], d2[300];
	snprintf(d1, sizeof(d1), "%s/nothing", top);
	snprintf(d2, sizeof(d2), "%s/flat", top);
	const char *dirs[] = {d1, d2};
	sp.sp_dirs = dirs;
	sp.sp_ndirs = 2;
	s = found(&sp, NULL, "/elsewhere/src/a.c", why);
	ck_assert_str_eq(s ? s : why, "flat a\n");
	snprintf(d1, sizeof(d1), "%s/copy", top);
	s = found(&sp, NULL, "src/a.c", why);
	ck_assert_str_eq(s ? s : why, "copy a\n");
}
END_TEST

START_TEST(srclines_rules)
{
	ck_assert(srclines_map_ok("/a=/b"));
	ck_assert(srclines_map_ok("a=b=c"));
	ck_assert(!srclines_map_ok("/a"));
	ck_assert(!srclines_map_ok("=/b"));
	ck_assert(!srclines_map_ok("/a="));
	ck_assert(!srclines_map_ok(""));
}
END_TEST

static Suite *srclines_suite(void)
{
	Suite *s = suite_create("srclines");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, srclines_paths);
	tcase_add_test(tc, srclines_rules);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(srclines_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
