/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of report/kframe.c: which code says a sample was taken in a
 * system call and which number it loads (x86-64 and AArch64 bytes as
 * compilers and glibc write them), the names from the build machine's
 * <sys/syscall.h>, and the look-up in a real file: this test's own
 * executable, which holds a system call of its own (x86-64 and AArch64).
 */
#include <check.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "report/kframe.h"

#if defined(__x86_64__)
#define HOST EM_X86_64
#elif defined(__aarch64__)
#define HOST EM_AARCH64
#else
#define HOST EM_NONE
#endif

/* kframe_decode of code with the address at code[at]: the number, -2
 * when not in a system call. */
static long decode(int machine, const uint8_t *code, size_t len, size_t at)
{
	long nr = -3;
	if (!kframe_decode(machine, code, len, at, &nr))
		return -2;
	return nr;
}

START_TEST(kframe_x86)
{
	/* brk: mov $0xc,%eax; syscall; mov ...(%rip),%rdx */
	static const uint8_t brk[] = {0xb8, 0x0c, 0, 0, 0, 0x0f, 0x05,
				      0x48, 0x8b, 0x15};
	ck_assert_int_eq(decode(EM_X86_64, brk, sizeof(brk), 7), 12);
	/* at the instruction: interrupted, to be restarted */
	ck_assert_int_eq(decode(EM_X86_64, brk, sizeof(brk), 5), 12);
	/* in user code around it: not in the kernel */
	ck_assert_int_eq(decode(EM_X86_64, brk, sizeof(brk), 0), -2);
	ck_assert_int_eq(decode(EM_X86_64, brk, sizeof(brk), 6), -2);
	ck_assert_int_eq(decode(EM_X86_64, brk, sizeof(brk), 9), -2);
	/* read: xor %eax,%eax; syscall */
	static const uint8_t rd[] = {0x74, 0x17, 0x31, 0xc0, 0x0f, 0x05};
	ck_assert_int_eq(decode(EM_X86_64, rd, sizeof(rd), 6), 0);
	/* futex: mov $0xca,%eax; xor $0x80,%sil; syscall */
	static const uint8_t fx[] = {0xba, 2, 0, 0, 0, 0xb8, 0xca, 0, 0, 0,
				     0x40, 0x80, 0xf6, 0x80, 0x0f, 0x05};
	ck_assert_int_eq(decode(EM_X86_64, fx, sizeof(fx), 16), 202);
	/* mov $0x101,%eax; mov %rdi,%rsi; mov $0xffffff9c,%edi; syscall */
	static const uint8_t op[] = {0xb8, 0x01, 0x01, 0, 0, 0x48, 0x89, 0xfe,
				     0xbf, 0x9c, 0xff, 0xff, 0xff, 0x0f, 0x05};
	ck_assert_int_eq(decode(EM_X86_64, op, sizeof(op), 15), 257);
	/* mov $15,%rax; syscall (rt_sigreturn) */
	static const uint8_t rq[] = {0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f,
				     0x05};
	ck_assert_int_eq(decode(EM_X86_64, rq, sizeof(rq), 9), 15);
	/* the number from a register: in the kernel, number unknown */
	static const uint8_t rg[] = {0x44, 0x89, 0xc0, 0x0f, 0x05};
	ck_assert_int_eq(decode(EM_X86_64, rg, sizeof(rg), 5), -1);
	/* a constant, then overwritten from a register: unknown */
	static const uint8_t ov[] = {0xb8, 0x0c, 0, 0, 0, 0x89, 0xc8, 0x0f,
				     0x05};
	ck_assert_int_eq(decode(EM_X86_64, ov, sizeof(ov), 9), -1);
	/* user code: add %rbx,%rax; inc %rbx */
	static const uint8_t uc[] = {0x48, 0x01, 0xd8, 0x48, 0xff, 0xc3};
	for (size_t at = 0; at <= sizeof(uc); at++)
		ck_assert_int_eq(decode(EM_X86_64, uc, sizeof(uc), at), -2);
	/* another machine's decoder does not take x86 code */
	ck_assert_int_eq(decode(EM_AARCH64, brk, sizeof(brk), 7), -2);
	ck_assert_int_eq(decode(EM_386, brk, sizeof(brk), 7), -2);
}
END_TEST

START_TEST(kframe_a64)
{
	/* mov x8, #64; svc #0; ret */
	static const uint8_t wr[] = {0x08, 0x08, 0x80, 0xd2, 0x01, 0, 0, 0xd4,
				     0xc0, 0x03, 0x5f, 0xd6};
	ck_assert_int_eq(decode(EM_AARCH64, wr, sizeof(wr), 8), 64);
	ck_assert_int_eq(decode(EM_AARCH64, wr, sizeof(wr), 4), 64);
	ck_assert_int_eq(decode(EM_AARCH64, wr, sizeof(wr), 0), -2);
	ck_assert_int_eq(decode(EM_AARCH64, wr, sizeof(wr), 12), -2);
	/* mov w8, #63; mov x0, x1; svc #0 */
	static const uint8_t rd[] = {0xe8, 0x07, 0x80, 0x52, 0xe0, 0x03, 0x01,
				     0xaa, 0x01, 0, 0, 0xd4};
	ck_assert_int_eq(decode(EM_AARCH64, rd, sizeof(rd), 12), 63);
	/* ldr x8, [x0]; svc #0: the number from memory, unknown */
	static const uint8_t ld[] = {0x08, 0x00, 0x40, 0xf9, 0x01, 0, 0, 0xd4};
	ck_assert_int_eq(decode(EM_AARCH64, ld, sizeof(ld), 8), -1);
}
END_TEST

START_TEST(kframe_names)
{
	ck_assert_ptr_nonnull(kframe_sysnames);
	ck_assert_uint_gt(kframe_nsysnames, 100);
	if (HOST != EM_NONE) {
		ck_assert_str_eq(kframe_name(HOST, SYS_read), "[kernel] read");
		ck_assert_str_eq(kframe_name(HOST, SYS_brk), "[kernel] brk");
		ck_assert_str_eq(kframe_name(HOST, SYS_futex), "[kernel] futex");
	}
	ck_assert_str_eq(kframe_name(HOST, -1), "[kernel]");
	ck_assert_str_eq(kframe_name(HOST, 1 << 20), "[kernel]");
	/* numbers of another architecture are not named */
	ck_assert_str_eq(kframe_name(HOST == EM_X86_64 ? EM_AARCH64 : EM_X86_64,
				     0), "[kernel]");
}
END_TEST

#define STR_(x) #x
#define STR(x) STR_(x)

#if defined(__x86_64__)
/* kf_getpid: a system call of this file's own (getpid), kf_after right
 * after its instruction */
__asm__(".text\n"
	".globl kf_getpid\n.type kf_getpid,@function\n"
	"kf_getpid:\n\tmov $" STR(SYS_getpid) ",%eax\n\tsyscall\n"
	".globl kf_after\nkf_after:\n\tret\n"
	".size kf_getpid, .-kf_getpid\n");
#define HAVE_OWN 1
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl kf_getpid\n.type kf_getpid,%function\n"
	"kf_getpid:\n\tmov x8, #" STR(SYS_getpid) "\n\tsvc #0\n"
	".globl kf_after\nkf_after:\n\tret\n"
	".size kf_getpid, .-kf_getpid\n");
#define HAVE_OWN 1
#endif

#ifdef HAVE_OWN
void kf_getpid(void);
void kf_after(void);

/* The file offset of address addr in /proc/self/maps, and its file into
 * path. */
static uint64_t file_offset(uintptr_t addr, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	ck_assert_ptr_nonnull(f);
	char line[4096];
	uint64_t off = 0;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, o;
		int at = 0;
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &o,
			   &at) < 3 || addr < lo || addr >= hi)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, len, "%s", line + at);
		off = addr - lo + o;
		found = 1;
	}
	fclose(f);
	ck_assert(found);
	return off;
}

/* This executable's build-id into bid; its length. */
struct bidq {
	uint8_t bid[64];
	size_t len;
};

static int own_bid(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct bidq *q = arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		const uint8_t *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const uint8_t *desc = p + sizeof(*n) +
					      ((n->n_namesz + 3) & ~3u);
			if (n->n_type == NT_GNU_BUILD_ID &&
			    n->n_descsz <= sizeof(q->bid)) {
				memcpy(q->bid, desc, n->n_descsz);
				q->len = n->n_descsz;
				return 1;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 1; /* the first object is the executable */
}
#endif

START_TEST(kframe_file)
{
#ifdef HAVE_OWN
	kf_getpid();
	char path[4096];
	uint64_t after = file_offset((uintptr_t)kf_after, path, sizeof(path));
	uint64_t start = file_offset((uintptr_t)kf_getpid, path, sizeof(path));
	struct bidq q = {{0}, 0};
	dl_iterate_phdr(own_bid, &q);
	struct kframe *kf = kframe_new();
	ck_assert_ptr_nonnull(kf);
	const char *name = NULL;
	ck_assert_int_eq(kframe_at(kf, path, NULL, 0, after, &name), 1);
	ck_assert_str_eq(name, "[kernel] getpid");
	/* the run's build-id: the same file */
	if (q.len) {
		name = NULL;
		ck_assert_int_eq(kframe_at(kf, path, q.bid, q.len, after,
					   &name), 1);
		ck_assert_str_eq(name, "[kernel] getpid");
	}
	/* user code of the same file */
	ck_assert_int_eq(kframe_at(kf, path, NULL, 0, start, &name), 0);
	/* a file rebuilt since the run (another build-id): not read */
	static const uint8_t other[20] = {1, 2, 3};
	ck_assert_int_eq(kframe_at(kf, path, other, sizeof(other), after,
				   &name), 0);
	/* a file that is gone, and the vDSO */
	ck_assert_int_eq(kframe_at(kf, "/nonexistent/libgone.so", NULL, 0,
				   after, &name), 0);
	ck_assert_int_eq(kframe_at(kf, "linux-vdso.so.1", NULL, 0, 0x900,
				   &name), 0);
	kframe_free(kf);
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kframe");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, kframe_x86);
	tcase_add_test(tc, kframe_a64);
	tcase_add_test(tc, kframe_names);
	tcase_add_test(tc, kframe_file);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
