/* SPDX-License-Identifier: BSD-2-Clause */
/* trust: see trust.h. */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trust.h"

static const char *user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];
	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) == 0 && res)
		snprintf(buf, len, "%s", pw.pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
	return buf;
}

/* One component: 0 or -1 with why filled. */
static int check_one(const char *p, const struct stat *st, char *why,
		     size_t len)
{
	uid_t me = geteuid();
	gid_t mygid = getegid();
	char who[64];
	unsigned mode = (unsigned)(st->st_mode & 07777);
	if (st->st_uid != 0 && st->st_uid != me) {
		snprintf(why, len, "%s is owned by %s, not by root or you; "
				   "move it somewhere only you can write, or "
				   "have it owned by you (chown)",
			 p, user_name(st->st_uid, who, sizeof(who)));
		return -1;
	}
	int dir = S_ISDIR(st->st_mode);
	if ((mode & S_IWOTH) && !(dir && (mode & S_ISVTX))) {
		snprintf(why, len, "%s is writable by others (mode %04o); "
				   "remove that (chmod o-w %s)", p, mode, p);
		return -1;
	}
	if ((mode & S_IWGRP) && st->st_gid != 0 && st->st_gid != mygid &&
	    !(dir && (mode & S_ISVTX))) {
		snprintf(why, len, "%s is writable by its group (gid %u, mode "
				   "%04o); remove that (chmod g-w %s)",
			 p, (unsigned)st->st_gid, mode, p);
		return -1;
	}
	return 0;
}

/* path and every directory above it (path already resolved). */
static int check_chain(const char *path, char *why, size_t len)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (;;) {
		struct stat st;
		if (stat(buf, &st) == 0 && check_one(buf, &st, why, len))
			return -1;
		char *slash = strrchr(buf, '/');
		if (!slash)
			return 0;
		if (slash == buf) {
			if (buf[1] == '\0')
				return 0;
			buf[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
}

int trust_path(const char *path, char *why, size_t len)
{
	if (!path || !*path)
		return 0;
	char real[PATH_MAX];
	if (!realpath(path, real))
		return 0; /* absent: the caller says so */
	if (check_chain(real, why, len))
		return -1;
	/* the folder the name was given in (a symbolic link there points
	 * to the real file, but whoever can write the folder can change
	 * the link) */
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	char rdir[PATH_MAX];
	if (!realpath(dir, rdir) || strcmp(rdir, real) == 0)
		return 0;
	return check_chain(rdir, why, len);
}
