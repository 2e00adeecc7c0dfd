/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * target: can the program be sampled by preloading?  Finds it on PATH the
 * way execvp would, follows "#!" to the interpreter, and refuses, with the
 * reason and what to do, programs the dynamic loader will not preload
 * into: statically linked ones (no PT_INTERP), 32-bit ones (our library
 * is 64-bit), and set-user-ID, set-group-ID or file-capability programs
 * that run in secure-execution mode (ld.so(8) then ignores LD_PRELOAD
 * entries with slashes).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "launch/target.h"

int target_find(const char *prog, char *out, size_t len)
{
	if (strchr(prog, '/')) {
		if (strlen(prog) >= len)
			return -ENAMETOOLONG;
		strcpy(out, prog);
		return access(out, F_OK) == 0 ? 0 : -errno;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int found_noexec = 0;
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t dl = colon ? (size_t)(colon - path) : strlen(path);
		int n = snprintf(out, len, "%.*s%s%s", (int)dl, path,
				 dl ? "/" : "", prog);
		if (n > 0 && (size_t)n < len) {
			struct stat st;
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
				if (access(out, X_OK) == 0)
					return 0;
				found_noexec = 1;
			}
		}
		path += dl + (colon ? 1 : 0);
	}
	return found_noexec ? -EACCES : -ENOENT;
}

static int check_elf(const char *path, const unsigned char *b, size_t n,
		     char *why, size_t wlen)
{
	if (n < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG)) {
		snprintf(why, wlen, "%s: not an ELF executable or script; "
				    "give a program to run", path);
		return TARGET_NOT_PROGRAM;
	}
	if (b[EI_CLASS] != ELFCLASS64) {
		snprintf(why, wlen, "%s: 32-bit program; mapsample samples "
				    "64-bit programs only", path);
		return TARGET_BAD_ARCH;
	}
	if (n < sizeof(Elf64_Ehdr)) {
		snprintf(why, wlen, "%s: truncated ELF header", path);
		return TARGET_NOT_PROGRAM;
	}
	Elf64_Ehdr eh;
	memcpy(&eh, b, sizeof(eh));
	if (eh.e_machine != EM_X86_64) {
		snprintf(why, wlen, "%s: built for another machine (e_machine "
				    "%u); run it on its own architecture",
			 path, eh.e_machine);
		return TARGET_BAD_ARCH;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, wlen, "%s: %s", path, strerror(errno));
		return TARGET_NOT_FOUND;
	}
	int interp = 0;
	for (unsigned i = 0; i < eh.e_phnum && i < 512; i++) {
		Elf64_Phdr ph;
		off_t at = (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize);
		if (pread(fd, &ph, sizeof(ph), at) != (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_INTERP)
			interp = 1;
	}
	close(fd);
	if (!interp) {
		snprintf(why, wlen,
			 "%s: statically linked (no PT_INTERP program header), "
			 "so LD_PRELOAD cannot load the sampler into it; "
			 "relink it dynamically (without -static)",
			 path);
		return TARGET_STATIC;
	}
	return TARGET_OK;
}

static int check_secure(const char *path, const struct stat *st, char *why,
			size_t wlen)
{
	if (((st->st_mode & S_ISUID) && st->st_uid != geteuid()) ||
	    ((st->st_mode & S_ISGID) && st->st_gid != getegid())) {
		snprintf(why, wlen,
			 "%s: set-user-ID or set-group-ID program; the loader "
			 "ignores LD_PRELOAD in secure-execution mode, so it "
			 "cannot be sampled; profile a copy without the "
			 "mode bits (cp, then chmod u-s,g-s)",
			 path);
		return TARGET_SETUID;
	}
	char cap[64];
	if (getxattr(path, "security.capability", cap, sizeof(cap)) > 0 &&
	    geteuid() != 0) {
		snprintf(why, wlen,
			 "%s: has file capabilities; the loader ignores "
			 "LD_PRELOAD in secure-execution mode, so it cannot be "
			 "sampled; profile a copy without them",
			 path);
		return TARGET_SETUID;
	}
	return TARGET_OK;
}

int target_check(const char *path, char *why, size_t wlen)
{
	char cur[4096];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int depth = 0; depth < 4; depth++) {
		struct stat st;
		if (stat(cur, &st)) {
			snprintf(why, wlen, "%s: %s", cur, strerror(errno));
			return TARGET_NOT_FOUND;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, wlen, "%s: not a regular file; give a "
					    "program to run", cur);
			return TARGET_NOT_PROGRAM;
		}
		if (depth == 0 && access(cur, X_OK)) {
			snprintf(why, wlen, "%s: not executable (%s); chmod +x "
					    "it or run it through its "
					    "interpreter", cur, strerror(errno));
			return TARGET_NOT_EXEC;
		}
		int rc = check_secure(cur, &st, why, wlen);
		if (rc)
			return rc;
		unsigned char b[256];
		int fd = open(cur, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, wlen, "%s: %s", cur, strerror(errno));
			return errno == EACCES ? TARGET_NOT_EXEC
					       : TARGET_NOT_FOUND;
		}
		ssize_t n = read(fd, b, sizeof(b) - 1);
		close(fd);
		if (n < 0)
			n = 0;
		b[n] = 0;
		if (n >= 2 && b[0] == '#' && b[1] == '!') {
			/* the interpreter is what the loader sees */
			char *p = (char *)b + 2;
			while (*p == ' ' || *p == '\t')
				p++;
			size_t l = strcspn(p, " \t\r\n");
			if (!l) {
				snprintf(why, wlen, "%s: \"#!\" line names no "
						    "interpreter", cur);
				return TARGET_NOT_PROGRAM;
			}
			p[l] = 0;
			snprintf(cur, sizeof(cur), "%s", p);
			continue;
		}
		rc = check_elf(cur, b, (size_t)n, why, wlen);
		if (rc && depth > 0 && rc == TARGET_STATIC) {
			size_t used = strlen(why);
			snprintf(why + used, wlen - used,
				 " (it is the interpreter of %s)", path);
		}
		return rc;
	}
	snprintf(why, wlen, "%s: too many nested \"#!\" interpreters", path);
	return TARGET_NOT_PROGRAM;
}

/* The file offset of virtual address va in the PT_LOAD segments ph[0..n),
 * or -1. */
static off_t va_offset(const Elf64_Phdr *ph, unsigned n, uint64_t va)
{
	for (unsigned i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr &&
		    va < ph[i].p_vaddr + ph[i].p_filesz)
			return (off_t)(ph[i].p_offset + (va - ph[i].p_vaddr));
	return -1;
}

int target_needs(const char *path, const char *const *prefixes)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int found = 0;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	Elf64_Dyn dyn[512];
	unsigned nph = 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	nph = eh.e_phnum < 64 ? eh.e_phnum : 64;
	if (pread(fd, ph, nph * sizeof(ph[0]), (off_t)eh.e_phoff) !=
	    (ssize_t)(nph * sizeof(ph[0])))
		goto out;
	for (unsigned i = 0; i < nph && !found; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		size_t want = ph[i].p_filesz < sizeof(dyn) ? ph[i].p_filesz
							   : sizeof(dyn);
		ssize_t got = pread(fd, dyn, want, (off_t)ph[i].p_offset);
		if (got <= 0)
			goto out;
		size_t nd = (size_t)got / sizeof(dyn[0]);
		uint64_t strtab = 0;
		for (size_t k = 0; k < nd && dyn[k].d_tag != DT_NULL; k++)
			if (dyn[k].d_tag == DT_STRTAB)
				strtab = dyn[k].d_un.d_ptr;
		off_t str = strtab ? va_offset(ph, nph, strtab) : -1;
		if (str < 0)
			goto out;
		for (size_t k = 0; k < nd && dyn[k].d_tag != DT_NULL && !found;
		     k++) {
			if (dyn[k].d_tag != DT_NEEDED)
				continue;
			char name[256];
			ssize_t n = pread(fd, name, sizeof(name) - 1,
					  str + (off_t)dyn[k].d_un.d_val);
			if (n <= 0)
				continue;
			name[n] = 0;
			for (size_t p = 0; prefixes[p] && !found; p++)
				found = strncmp(name, prefixes[p],
						strlen(prefixes[p])) == 0;
		}
	}
out:
	close(fd);
	return found;
}
