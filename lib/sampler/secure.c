/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * secure: will the program about to be executed run in the kernel's
 * secure-execution mode (AT_SECURE)?  The loader then ignores LD_PRELOAD
 * entries with slashes (ld.so(8)) and glibc removes LD_PRELOAD from the
 * environment, so the new image, and what it runs, are not sampled.  The
 * exec goes ahead as the program asked; secure_exec_note() says so in
 * one line, naming the program.
 *
 * The kernel's rule (execve(2), "set-user-ID"; capabilities(7)): the exec
 * is privileged when the new effective user or group ID differs from the
 * real one, which a set-user-ID or set-group-ID file (or a process whose
 * effective ID already differs) makes it, or when a process whose real
 * user is not root gains capabilities from the file's
 * security.capability attribute.  Mode bits and file capabilities count
 * for nothing on a nosuid mount, under no_new_privs, and on scripts.
 *
 * Raw system calls and a walk of environ only, no allocation: it may run
 * in a vfork child.  A leaf: it calls nothing of ours.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

extern char **environ;

/* What makes path's exec privileged: a phrase, or NULL when it is not. */
static const char *why_secure(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, X_OK))
		return NULL; /* the exec fails, or runs nothing */
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char magic[2] = {0, 0};
		long n = syscall(SYS_read, fd, magic, 2);
		syscall(SYS_close, fd);
		if (n == 2 && magic[0] == '#' && magic[1] == '!')
			return NULL; /* the kernel ignores the bits of scripts */
	}
	uid_t ruid = getuid(), euid = geteuid();
	gid_t rgid = getgid(), egid = getegid();
	struct statvfs vf;
	int bits_count = !(statvfs(path, &vf) == 0 && (vf.f_flag & ST_NOSUID)) &&
			 prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
	if (bits_count && (st.st_mode & S_ISUID) && st.st_uid != ruid)
		return "set-user-ID program";
	if (bits_count && (st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) &&
	    st.st_gid != rgid)
		return "set-group-ID program";
	if (euid != ruid || egid != rgid)
		return "privileged exec (effective IDs other than the real "
		       "ones)";
	char cap[64];
	if (bits_count && ruid != 0 &&
	    getxattr(path, "security.capability", cap, sizeof(cap)) > 0)
		return "program with file capabilities";
	return NULL;
}

/* path as execvp() would find file (file itself when it has a slash);
 * 0, or -1 when it is not found. */
static int search(const char *file, char *path, size_t len)
{
	if (strchr(file, '/')) {
		if (strlen(file) >= len)
			return -1;
		strcpy(path, file);
		return 0;
	}
	const char *p = NULL;
	for (char **e = environ; e && *e && !p; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			p = *e + 5;
	if (!p)
		p = "/bin:/usr/bin";
	size_t fl = strlen(file);
	while (*p) {
		const char *c = strchr(p, ':');
		size_t dl = c ? (size_t)(c - p) : strlen(p);
		if (dl + fl + 2 <= len) {
			memcpy(path, dl ? p : ".", dl ? dl : 1);
			size_t at = dl ? dl : 1;
			path[at++] = '/';
			memcpy(path + at, file, fl + 1);
			if (access(path, X_OK) == 0)
				return 0;
		}
		p += dl + (c ? 1 : 0);
	}
	return -1;
}

int secure_exec_note(const char *file, int search_path)
{
	char path[4096];
	if (!file || (search_path ? search(file, path, sizeof(path))
				  : (strlen(file) >= sizeof(path) ? -1
				     : (strcpy(path, file), 0))))
		return 0;
	const char *why = why_secure(path);
	if (!why)
		return 0;
	pluginapi_warn("%s: %s: the loader runs it in secure-execution "
		       "mode, which ignores LD_PRELOAD, so it runs unsampled "
		       "(and so does what it runs); profile a copy without "
		       "the mode bits or capabilities to sample it",
		       path, why);
	return 1;
}
