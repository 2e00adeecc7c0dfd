/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay: runs a libFuzzer target's LLVMFuzzerTestOneInput over saved
 * inputs without libFuzzer, so `make check` (any compiler) replays the
 * seed corpus and the saved crash reproducers as a regression test.
 *
 *   replay [FILE|DIR]...
 *
 * Directories are read one level deep, files in name order.  With no
 * argument it replays $top_srcdir/test/fuzz/corpus/maplog (the test
 * environment exports top_srcdir).  Each input runs in a child process,
 * so one failure (an abort, a sanitizer report) does not hide the next;
 * every failing input is named.  Inputs whose file names are listed in
 * $FUZZ_KNOWN_BUGS (space-separated) reproduce bugs not fixed yet: their
 * failure is reported but not counted, and a line asks to take them off
 * the list once they pass.  It fails when it finds no input at all, so a
 * missing or empty corpus cannot pass vacuously.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long nfiles, nfailed, nknown;
static unsigned long long nbytes;

/* Reads path whole; returns 0 or -1 (message printed). */
static int slurp(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			uint8_t *b = realloc(buf, cap);
			if (!b) {
				fprintf(stderr, "replay: %s: out of memory\n",
					path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = b;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*out = buf;
	*len = n;
	return 0;
}

/* Whether path's file name is in $FUZZ_KNOWN_BUGS. */
static int known_bug(const char *path)
{
	const char *list = getenv("FUZZ_KNOWN_BUGS");
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	while (list && *list) {
		list += strspn(list, " \t\n");
		size_t w = strcspn(list, " \t\n");
		if (w == n && !strncmp(list, base, n))
			return 1;
		list += w;
	}
	return 0;
}

/* Runs the target on one input in a child; returns 0, or -1 if it could
 * not be run.  A failing input is counted, not returned. */
static int replay_file(const char *path)
{
	uint8_t *buf;
	size_t len;
	int status;
	if (slurp(path, &buf, &len))
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "replay: fork: %s\n", strerror(errno));
		free(buf);
		return -1;
	}
	if (pid == 0) {
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		exit(0); /* not _exit: LeakSanitizer checks at exit */
	}
	free(buf);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "replay: waitpid: %s\n",
				strerror(errno));
			return -1;
		}
	}
	nfiles++;
	nbytes += len;
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	char how[64];
	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exit %d", WEXITSTATUS(status));
	if (known_bug(path)) {
		if (ok) {
			printf("replay: %s: known bug, passes in this build; "
			       "if the clang sanitizer build of fuzz_maplog "
			       "passes it too, take it off FUZZ_KNOWN_BUGS\n",
			       path);
		} else {
			nknown++;
			printf("replay: %s: known bug, still fails (%s)\n",
			       path, how);
		}
	} else if (!ok) {
		nfailed++;
		printf("replay: %s: FAILED (%s)\n", path, how);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			char **v = realloc(names, cap * sizeof(*v));
			if (!v) {
				rc = -1;
				break;
			}
			names = v;
		}
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			rc = -1;
			break;
		}
		snprintf(names[n], len, "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	if (rc)
		fprintf(stderr, "replay: %s: out of memory\n", dir);
	else if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (!rc && stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode) &&
		    replay_file(names[i]))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

static int replay_path(const char *path)
{
	struct stat sb;
	if (stat(path, &sb)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return S_ISDIR(sb.st_mode) ? replay_dir(path) : replay_file(path);
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: replay [FILE|DIR]...\n");
		return 0;
	}
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (replay_path(argv[i]))
				rc = 1;
	} else {
		const char *top = getenv("top_srcdir");
		char path[4096];
		if (!top || !*top) {
			fprintf(stderr, "replay: no input named and top_srcdir "
					"not set; run through make check or "
					"name a corpus directory\n");
			return 1;
		}
		snprintf(path, sizeof(path), "%s/test/fuzz/corpus/maplog", top);
		if (replay_path(path))
			rc = 1;
	}
	if (nfiles == 0) {
		fprintf(stderr, "replay: no input files found; the corpus is "
				"missing or empty\n");
		return 1;
	}
	printf("replay: %lu inputs (%llu bytes): %lu failed, %lu known bugs "
	       "still failing%s\n",
	       nfiles, nbytes, nfailed, nknown,
	       rc ? ", and some inputs could not be read" : "");
	return rc || nfailed ? 1 : 0;
}
