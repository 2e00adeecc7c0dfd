/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * target: checks that a program can be sampled before mapsample runs it.
 */
#ifndef MAPSAMPLE_TARGET_H
#define MAPSAMPLE_TARGET_H

#include <stddef.h>

enum target_result {
	TARGET_OK = 0,
	TARGET_NOT_FOUND,    /* no such file */
	TARGET_NOT_EXEC,     /* no execute permission */
	TARGET_NOT_PROGRAM,  /* neither ELF nor a #! script */
	TARGET_STATIC,       /* no PT_INTERP: LD_PRELOAD is not applied */
	TARGET_SETUID,       /* secure-execution mode: LD_PRELOAD ignored */
	TARGET_BAD_ARCH,     /* not a 64-bit x86-64 program */
};

/*
 * Finds prog as execvp(3) would (as given when it has a slash, else on
 * PATH) and writes the path to out.  Returns 0, -ENOENT, -EACCES (found
 * but not executable) or -ENAMETOOLONG.
 */
int target_find(const char *prog, char *out, size_t len);

/*
 * Checks the program at path, following "#!" to its interpreter.  Returns
 * TARGET_OK, or another enum target_result with one line in why naming
 * the file, the reason and what to do.
 */
int target_check(const char *path, char *why, size_t wlen);

/*
 * Whether the ELF program at path names, among the libraries it needs
 * (its DT_NEEDED entries, not theirs), one whose name starts with one of
 * prefixes (NULL-terminated): 1 or 0 (0 too when path is no ELF file or
 * cannot be read).
 */
int target_needs(const char *path, const char *const *prefixes);

#endif
