/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kframe: time a sample spent in the kernel, found from the program's
 * code.  The CPU-time timers mapsample uses (perf task-clock,
 * timer_create on the thread's CPU clock, ITIMER_PROF) notice their
 * expiry at a timer interrupt and the signal is delivered on the way
 * back to user mode.  When the interrupt hit kernel work done for a
 * system call, the sample's leaf address is therefore just after the
 * system-call instruction (x86-64 "syscall", AArch64 "svc #0"), or at it
 * when the call was interrupted to be restarted; a tick in user code
 * almost never leaves it there.  Such a sample gets one more frame below
 * the user leaf, "[kernel] NAME" (module "[kernel]"), NAME the system
 * call when the code before the instruction loads its number as a
 * constant (the usual libc wrapper), else "[kernel]" alone.  Under
 * --wall the same frame holds the time blocked in the call.
 *
 * The code is read from the loaded file on disk (pread at the file
 * offset of the address), once per file checked against the build-id
 * recorded during the run; a file that is missing or differs gives no
 * kernel frames.  Kernel time not spent in a system call (page faults,
 * interrupts) stays with the user instruction that was running.  The
 * names come from <sys/syscall.h> of the build machine (a table made at
 * build time), so they are given for code of that architecture only.
 */
#ifndef MAPSAMPLE_REPORT_KFRAME_H
#define MAPSAMPLE_REPORT_KFRAME_H

#include <stddef.h>
#include <stdint.h>

/* The module of every kernel frame. */
#define KFRAME_MODULE "[kernel]"

/* One system call of the build machine (kframe_sys.c, generated). */
struct kframe_sysname {
	long ks_nr;
	const char *ks_name;     /* "[kernel] read" */
};
extern const struct kframe_sysname kframe_sysnames[];
extern const size_t kframe_nsysnames;

struct kframe;

/* A new cache of loaded files, or NULL when out of memory. */
struct kframe *kframe_new(void);

/* Frees kf and the files it holds open (NULL: nothing). */
void kframe_free(struct kframe *kf);

/*
 * Whether the sample whose leaf address is at file offset off of the
 * file loaded from path (build-id bid[0..bidlen) during the run; bidlen
 * 0: not checked) was taken in a system call.  Returns 1 with *name the
 * kernel frame's name (a static string: "[kernel] read", "[kernel]"), 0
 * when not (or the file cannot be read), MAPS_ENOMEM.
 */
int kframe_at(struct kframe *kf, const char *path, const uint8_t *bid,
	      size_t bidlen, uint64_t off, const char **name);

/*
 * The decoding behind kframe_at, for code of ELF machine machine
 * (EM_X86_64, EM_AARCH64): code[0..len) are bytes of the file, the
 * sample's address at code[at].  Returns 1 when the address is at or
 * just after a system-call instruction, with *nr the number it loads
 * (-1: not known from the code), else 0.
 */
int kframe_decode(int machine, const uint8_t *code, size_t len, size_t at,
		  long *nr);

/* The kernel frame's name for system call nr of machine (its number on
 * the build machine's architecture): "[kernel] NAME", or "[kernel]" when
 * nr is -1, unknown or of another architecture. */
const char *kframe_name(int machine, long nr);

#endif
