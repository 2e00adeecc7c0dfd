/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kframe: the kernel frame of a sample taken in a system call (see
 * kframe.h).
 *
 * Notes.  Each distinct (path, build-id) is opened and checked once: its
 * ELF machine and build-id read with libelf, the file kept open for
 * pread() while fewer than KF_MAX_OPEN are, else opened for each look-up
 * (callers look each distinct leaf address up once).  Only the bytes
 * around the address are read: KF_BACK before it and 4 from it.
 *
 * x86-64: "syscall" is 0f 05.  The number is known when the instruction
 * before it loads %eax (or %rax) with a constant: "mov $N,%eax" (b8 N32),
 * "mov $N,%rax" (48 c7 c0 N32), "xor %eax,%eax" (31 c0 / 33 c0: 0), or
 * one such load followed by instructions of a few short forms that do
 * not write %eax (the register moves and constant loads glibc puts
 * between, e.g. "mov $0xca,%eax; xor $0x80,%sil; syscall").  AArch64:
 * "svc #0" is d4000001, the number in x8, known from a "mov x8/w8, #N"
 * (movz) among the KF_A64_BACK instructions before it when none between
 * writes x8.
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "report/kframe.h"

#define KF_BACK 32      /* bytes read before the address */
#define KF_MAX_OPEN 64  /* files kept open */
#define KF_A64_BACK 4   /* AArch64 instructions looked at before svc */

#if defined(__x86_64__)
#define KF_HOST EM_X86_64
#elif defined(__aarch64__)
#define KF_HOST EM_AARCH64
#else
#define KF_HOST EM_NONE
#endif

struct kfile {
	char *path;
	uint8_t bid[64];
	size_t bidlen;
	int ok;          /* readable, the run's build-id, a known machine */
	int fd;          /* open, or -1 (opened per look-up when ok) */
	int machine;
};

struct kframe {
	struct kfile *f;
	size_t n, cap;
	uint32_t *idx;   /* hash of f by (path, build-id): index + 1 */
	size_t capidx;
	size_t nopen;
};

struct kframe *kframe_new(void)
{
	return calloc(1, sizeof(struct kframe));
}

void kframe_free(struct kframe *kf)
{
	if (!kf)
		return;
	for (size_t i = 0; i < kf->n; i++) {
		if (kf->f[i].fd >= 0)
			close(kf->f[i].fd);
		free(kf->f[i].path);
	}
	free(kf->f);
	free(kf->idx);
	free(kf);
}

static uint64_t file_hash(const char *path, const uint8_t *bid, size_t bidlen)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const char *p = path; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	for (size_t i = 0; i < bidlen; i++)
		h = (h ^ bid[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* The build-id note of elf into id (at most idmax bytes); its length, 0
 * when it has none. */
static size_t elf_bid(Elf *elf, uint8_t *id, size_t idmax)
{
	size_t nph;
	if (elf_getphdrnum(elf, &nph))
		return 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
						   ph.p_filesz, ELF_T_NHDR);
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff))) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) ||
			    nh.n_descsz > idmax)
				continue;
			memcpy(id, (char *)d->d_buf + doff, nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

/* Checks file f: an ELF file of a machine we decode, with the run's
 * build-id; sets f->ok, f->machine and leaves f->fd open or -1. */
static void file_check(struct kframe *kf, struct kfile *f)
{
	f->fd = -1;
	if (f->path[0] != '/')
		return; /* the vDSO and other objects with no file */
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (elf && gelf_getehdr(elf, &eh) &&
	    (eh.e_machine == EM_X86_64 || eh.e_machine == EM_AARCH64)) {
		uint8_t id[64];
		size_t n = elf_bid(elf, id, sizeof(id));
		f->machine = eh.e_machine;
		f->ok = !f->bidlen || (n == f->bidlen &&
				       memcmp(id, f->bid, n) == 0);
	}
	elf_end(elf);
	if (f->ok && kf->nopen < KF_MAX_OPEN) {
		f->fd = fd;
		kf->nopen++;
	} else {
		close(fd);
	}
}

/* The file of (path, build-id), checked if new, into *out; 0 or
 * MAPS_ENOMEM. */
static int file_get(struct kframe *kf, const char *path, const uint8_t *bid,
		    size_t bidlen, struct kfile **out)
{
	if (bidlen > sizeof(kf->f[0].bid))
		bidlen = sizeof(kf->f[0].bid);
	if ((kf->n + 1) * 2 > kf->capidx) {
		size_t cap = kf->capidx ? kf->capidx * 2 : 64;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < kf->n; i++) {
			size_t j = file_hash(kf->f[i].path, kf->f[i].bid,
					     kf->f[i].bidlen) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(kf->idx);
		kf->idx = t;
		kf->capidx = cap;
	}
	size_t mask = kf->capidx - 1;
	size_t j = file_hash(path, bid, bidlen) & mask;
	for (; kf->idx[j]; j = (j + 1) & mask) {
		struct kfile *f = &kf->f[kf->idx[j] - 1];
		if (f->bidlen == bidlen && strcmp(f->path, path) == 0 &&
		    (!bidlen || memcmp(f->bid, bid, bidlen) == 0)) {
			*out = f;
			return 0;
		}
	}
	if (kf->n == kf->cap &&
	    mem_grow(&kf->f, &kf->cap, kf->n, sizeof(*kf->f)))
		return MAPS_ENOMEM;
	struct kfile *f = &kf->f[kf->n];
	memset(f, 0, sizeof(*f));
	if (!(f->path = mem_strdup(path)))
		return MAPS_ENOMEM;
	if (bidlen)
		memcpy(f->bid, bid, bidlen);
	f->bidlen = bidlen;
	kf->idx[j] = (uint32_t)++kf->n;
	file_check(kf, f);
	*out = f;
	return 0;
}

/* ---- x86-64 ---- */

/* The length of the instruction at c[0..n) if it is one of the short
 * forms allowed between the load of %eax and "syscall" and does not
 * write %eax, else 0: register-to-register mov and the ALU operations
 * (89, 8b, 31, 33, 01, 03, 29, 2b, 09, 0b, 21, 23, 85, 39, 3b with
 * ModRM mod 3), group-1 with an 8-bit constant (80, 83; mod 3),
 * "mov $N,reg" to another register (b9-bf, or b8 with REX.B), each with
 * an optional REX prefix. */
static size_t x86_other(const uint8_t *c, size_t n)
{
	size_t p = 0;
	int rex = 0;
	if (n && (c[0] & 0xf0) == 0x40) {
		rex = c[0];
		p = 1;
	}
	if (p >= n)
		return 0;
	uint8_t op = c[p];
	if (op >= 0xb8 && op <= 0xbf) {
		if ((op & 7) == 0 && !(rex & 1))
			return 0; /* %eax */
		size_t len = p + 1 + ((rex & 8) ? 8 : 4);
		return len <= n ? len : 0;
	}
	if (p + 1 >= n || (c[p + 1] & 0xc0) != 0xc0)
		return 0;
	uint8_t modrm = c[p + 1];
	int reg = (modrm >> 3 & 7) | ((rex & 4) ? 8 : 0);
	int rm = (modrm & 7) | ((rex & 1) ? 8 : 0);
	switch (op) {
	case 0x85: case 0x39: case 0x3b:     /* test, cmp: no write */
		return p + 2;
	case 0x89: case 0x31: case 0x01: case 0x29: case 0x09: case 0x21:
		return rm ? p + 2 : 0;       /* written: r/m */
	case 0x8b: case 0x33: case 0x03: case 0x2b: case 0x0b: case 0x23:
		return reg ? p + 2 : 0;      /* written: reg */
	case 0x80: case 0x83:                /* op $imm8, r/m */
		if (p + 3 > n)
			return 0;
		return (rm || (modrm >> 3 & 7) == 7) ? p + 3 : 0;
	}
	return 0;
}

/* Whether c[0..n) is exactly one load of a constant into %eax (or %rax),
 * with the constant into *nr. */
static int x86_load(const uint8_t *c, size_t n, long *nr)
{
	if (n == 5 && c[0] == 0xb8) {
		*nr = (long)((uint32_t)c[1] | (uint32_t)c[2] << 8 |
			     (uint32_t)c[3] << 16 | (uint32_t)c[4] << 24);
		return 1;
	}
	if (n == 7 && c[0] == 0x48 && c[1] == 0xc7 && c[2] == 0xc0) {
		*nr = (long)(int32_t)((uint32_t)c[3] | (uint32_t)c[4] << 8 |
				      (uint32_t)c[5] << 16 |
				      (uint32_t)c[6] << 24);
		return 1;
	}
	if (n == 2 && (c[0] == 0x31 || c[0] == 0x33) && c[1] == 0xc0) {
		*nr = 0;
		return 1;
	}
	return 0;
}

/* The number loaded into %eax by the code c[0..sys) that ends at the
 * "syscall" at c[sys]: -1 when not seen.  Each start before it that
 * decodes as a load followed by allowed instructions up to sys is a
 * reading; they must agree. */
static long x86_number(const uint8_t *c, size_t sys)
{
	long found = -1;
	for (size_t d = 2; d <= KF_BACK && d <= sys; d++) {
		size_t s = sys - d;
		for (size_t len = 2; len <= 7 && s + len <= sys; len++) {
			long v;
			if (!x86_load(c + s, len, &v))
				continue;
			size_t q = s + len, k;
			while (q < sys && (k = x86_other(c + q, sys - q)))
				q += k;
			if (q != sys)
				continue;
			if (found >= 0 && found != v)
				return -1;
			found = v;
		}
	}
	return found;
}

static int x86_decode(const uint8_t *c, size_t len, size_t at, long *nr)
{
	size_t sys;
	if (at + 2 <= len && c[at] == 0x0f && c[at + 1] == 0x05)
		sys = at;          /* to be restarted */
	else if (at >= 2 && c[at - 2] == 0x0f && c[at - 1] == 0x05)
		sys = at - 2;      /* returned from it */
	else
		return 0;
	*nr = x86_number(c, sys);
	return 1;
}

/* ---- AArch64 ---- */

static uint32_t a64_insn(const uint8_t *c)
{
	return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
	       (uint32_t)c[3] << 24;
}

static int a64_decode(const uint8_t *c, size_t len, size_t at, long *nr)
{
	size_t sys;
	if (at + 4 <= len && a64_insn(c + at) == 0xd4000001)
		sys = at;
	else if (at >= 4 && a64_insn(c + at - 4) == 0xd4000001)
		sys = at - 4;
	else
		return 0;
	*nr = -1;
	for (size_t k = 1; k <= KF_A64_BACK && sys >= 4 * k; k++) {
		uint32_t i = a64_insn(c + sys - 4 * k);
		/* movz x8/w8, #imm16 (no shift) */
		if ((i & 0x7fe0001f) == 0x52800008) {
			*nr = (long)(i >> 5 & 0xffff);
			break;
		}
		/* any other instruction whose Rd is x8 may write it */
		if ((i & 0x1f) == 8)
			break;
	}
	return 1;
}

int kframe_decode(int machine, const uint8_t *code, size_t len, size_t at,
		  long *nr)
{
	if (machine == EM_X86_64)
		return x86_decode(code, len, at, nr);
	if (machine == EM_AARCH64)
		return a64_decode(code, len, at, nr);
	return 0;
}

const char *kframe_name(int machine, long nr)
{
	if (nr >= 0 && machine == KF_HOST)
		for (size_t i = 0; i < kframe_nsysnames; i++)
			if (kframe_sysnames[i].ks_nr == nr)
				return kframe_sysnames[i].ks_name;
	return KFRAME_MODULE;
}

int kframe_at(struct kframe *kf, const char *path, const uint8_t *bid,
	      size_t bidlen, uint64_t off, const char **name)
{
	struct kfile *f;
	if (file_get(kf, path, bid, bidlen, &f))
		return MAPS_ENOMEM;
	if (!f->ok)
		return 0;
	uint8_t code[KF_BACK + 4];
	size_t back = off < KF_BACK ? (size_t)off : KF_BACK;
	int fd = f->fd >= 0 ? f->fd : open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t got = pread(fd, code, back + 4, (off_t)(off - back));
	if (fd != f->fd)
		close(fd);
	long nr;
	if (got <= (ssize_t)back ||
	    !kframe_decode(f->machine, code, (size_t)got, back, &nr))
		return 0;
	*name = kframe_name(f->machine, nr);
	return 1;
}
