/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of spool (lib/model/spool.c), the copy of a log that cannot
 * be read twice: a pipe armed is copied while it is read the first time
 * (also its rest when the reader stops early) and every later open reads
 * the whole copy from its start, each open on its own offset; logread
 * reads a log from a pipe twice with the same records; a regular file is
 * not armed and opens as before; a copy that cannot be made is said in
 * one line naming the folder and TMPDIR, the first read goes on and the
 * later opens fail (ENODATA); nothing is left in the folder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include <mapsample/maps_error.h>

#include "../common/logsynth.h"
#include "model/logread.h"
#include "model/spool.h"

static char said[8][1024];
static int nsaid;

static void say(const char *line)
{
	if (nsaid < 8)
		snprintf(said[nsaid], sizeof(said[0]), "%s", line);
	nsaid++;
}

/* A temporary folder for the copies, TMPDIR set to it. */
static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/test_spool-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	nsaid = 0;
}

static void teardown(void)
{
	spool_release();
	rmdir(dir);
}

/* Files in dir. */
static int files_in(const char *d)
{
	DIR *dp = opendir(d);
	int n = 0;
	struct dirent *e;
	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp)))
		n += e->d_name[0] != '.';
	closedir(dp);
	return n;
}

/* A pipe holding len bytes of data, its write end closed; its path
 * (/proc/self/fd/N) into path.  Returns the read end. */
static int pipe_of(const void *data, size_t len, char *path, size_t plen)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], data, len), (ssize_t)len);
	close(p[1]);
	snprintf(path, plen, "/proc/self/fd/%d", p[0]);
	return p[0];
}

/* Reads fd to its end into buf (at most cap bytes); the count. */
static size_t read_all(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	while (n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	return n;
}

static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";

START_TEST(spool_pipe_read_again)
{
	char path[64], buf[256];
	int p = pipe_of(text, sizeof(text), path, sizeof(path));
	const char *paths[] = {path};
	ck_assert_int_eq(spool_arm(paths, 1, say), 0);
	ck_assert(spool_has(path));
	struct spool *sp;
	int fd = spool_open(path, &sp);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(sp);
	/* the reader reads 10 bytes and stops: the rest is copied too */
	ck_assert_int_eq(read(fd, buf, 10), 10);
	spool_put(sp, buf, 10);
	spool_end(sp, fd, buf, sizeof(buf), SPOOL_EARLY);
	close(fd);
	close(p);
	ck_assert_int_eq(files_in(dir), 0); /* unlinked at once */
	int a = spool_open(path, &sp), b;
	ck_assert_int_ge(a, 0);
	ck_assert_ptr_null(sp);
	ck_assert_int_eq(read(a, buf, 5), 5);
	/* a second open starts at the start, whatever the first read */
	b = spool_open(path, &sp);
	ck_assert_int_ge(b, 0);
	ck_assert_uint_eq(read_all(b, buf, sizeof(buf)), sizeof(text));
	ck_assert_mem_eq(buf, text, sizeof(text));
	ck_assert_uint_eq(read_all(a, buf, sizeof(buf)), sizeof(text) - 5);
	ck_assert_mem_eq(buf, text + 5, sizeof(text) - 5);
	close(a);
	close(b);
	ck_assert_int_eq(nsaid, 0);
}
END_TEST

START_TEST(spool_regular_file_not_armed)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/plain", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	const char *paths[] = {path};
	ck_assert_int_eq(spool_arm(paths, 1, say), 0);
	ck_assert(!spool_has(path));
	for (int i = 0; i < 2; i++) {
		static char other;
		struct spool *sp = (struct spool *)&other; /* to be reset */
		char buf[64];
		int fd = spool_open(path, &sp);
		ck_assert_int_ge(fd, 0);
		ck_assert_ptr_null(sp);
		ck_assert_uint_eq(read_all(fd, buf, sizeof(buf)), strlen(text));
		close(fd);
	}
	unlink(path);
	ck_assert_int_eq(nsaid, 0);
}
END_TEST

START_TEST(spool_no_folder)
{
	char path[64], buf[256], none[96];
	snprintf(none, sizeof(none), "%s/none", dir);
	setenv("TMPDIR", none, 1);
	int p = pipe_of(text, sizeof(text), path, sizeof(path));
	const char *paths[] = {path};
	ck_assert_int_eq(spool_arm(paths, 1, say), 0);
	struct spool *sp;
	int fd = spool_open(path, &sp);
	/* the first read goes on, without a copy */
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_null(sp);
	ck_assert_uint_eq(read_all(fd, buf, sizeof(buf)), sizeof(text));
	close(fd);
	close(p);
	ck_assert_int_eq(nsaid, 1);
	ck_assert_ptr_nonnull(strstr(said[0], path));
	ck_assert_ptr_nonnull(strstr(said[0], none));
	ck_assert_ptr_nonnull(strstr(said[0], "No such file or directory"));
	ck_assert_ptr_nonnull(strstr(said[0], "set TMPDIR"));
	errno = 0;
	ck_assert_int_eq(spool_open(path, &sp), -1);
	ck_assert_int_eq(errno, ENODATA);
	ck_assert_int_eq(nsaid, 1);
}
END_TEST

/* logread's record count. */
static int count(void *ctx, const struct maplog_ev *ev)
{
	(void)ev;
	(*(uint64_t *)ctx)++;
	return 0;
}

START_TEST(spool_logread_twice)
{
	char log[128], path[64];
	snprintf(log, sizeof(log), "%s/synth.log", dir);
	struct logsynth_opts o;
	logsynth_defaults(&o);
	o.samples = 3000;
	o.chunk_size = 64 * 1024; /* more than a pipe holds at once */
	int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(lf, 0);
	ck_assert_int_eq(logsynth_to_fd(&o, lf, NULL), 0);
	close(lf);
	/* the log through a pipe fed by a child, as cat would */
	int pfd[2];
	ck_assert_int_eq(pipe(pfd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		int in = open(log, O_RDONLY);
		char b[4096];
		ssize_t r;
		while ((r = read(in, b, sizeof(b))) > 0)
			if (write(pfd[1], b, (size_t)r) != r)
				_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pfd[0]);
	const char *paths[] = {path};
	ck_assert_int_eq(spool_arm(paths, 1, say), 0);
	static const struct logread_tool tool = {.lt_any = count};
	uint64_t file = 0, first = 0, second = 0;
	ck_assert_int_eq(logread_file(log, &tool, &file, NULL), LOGREAD_CLEAN);
	ck_assert_int_eq(logread_file(path, &tool, &first, NULL),
			 LOGREAD_CLEAN);
	close(pfd[0]); /* the copy is read from now on */
	ck_assert_int_eq(logread_file(path, &tool, &second, NULL),
			 LOGREAD_CLEAN);
	ck_assert_uint_gt(file, 3000);
	ck_assert_uint_eq(first, file);
	ck_assert_uint_eq(second, file);
	unlink(log);
	ck_assert_int_eq(files_in(dir), 0);
	ck_assert_int_eq(nsaid, 0);
}
END_TEST

static Suite *spool_suite(void)
{
	Suite *s = suite_create("spool");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, spool_pipe_read_again);
	tcase_add_test(tc, spool_regular_file_not_armed);
	tcase_add_test(tc, spool_no_folder);
	tcase_add_test(tc, spool_logread_twice);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(spool_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
