/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symbolize: offline symbolization with elfutils libdwfl (see symbolize.h).
 *
 * One Dwfl session per loaded file, reported at load address 0, so an
 * address is looked up as pc - bias and the same file serves every
 * process that loaded it.  Names come from the symbol table (.symtab, or
 * .dynsym when stripped); file:line and inline frames from DWARF, in the
 * file itself or in separate debug information found by build-id.
 */
#include "config.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libiberty/demangle.h>
#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/model.h"
#include "report/cuscan.h"
#include "report/perfmap.h"
#include "report/symbolize.h"

struct symaddr {            /* a function symbol of a module */
	uint64_t addr;      /* its address as libdwfl gives it */
	uint64_t size;
	const char *name;   /* in the module's ELF data */
	int bind;           /* STB_* */
};

enum mstate { M_OK, M_MISSING, M_MISMATCH, M_PSEUDO };

struct smod {
	char *path;
	uint8_t bid[64];
	size_t bidlen;
	char *base;         /* base name, interned */
	enum mstate state;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	uint64_t *fstart;   /* function starts (file addresses), sorted */
	size_t nfstart;
	int fstart_read;    /* fstart read (or found missing) */
	struct symaddr *syms; /* function symbols by address */
	uint32_t *byname;   /* their indexes by name (NULL: none) */
	size_t nsyms;
	int syms_read;      /* syms read (or found missing) */
	int opened;         /* module_open done: state says how it went */
	struct cuscan cs;   /* its units by their own ranges, when needed */
	uint64_t hash;      /* of path and build-id (module_find) */
};

struct centry {             /* one looked-up address */
	uint32_t mod;
	int leaf;
	uint64_t rel;
	uint32_t first, n;  /* frames in st->frames */
	int used;
};

struct symtab {
	struct smod *mods;
	size_t nmods, capmods;
	uint32_t *modidx;         /* index + 1 of mods, open addressing */
	size_t capmodidx;
	struct centry *cache;
	size_t ncache, capcache;  /* open addressing */
	struct symframe *frames;
	size_t nframes, capframes;
	char **strs;              /* interned strings, open addressing */
	size_t nstrs, capstrs;
	char **problems;
	size_t nproblems, capproblems;
	/* perf maps parsed so far, by the text they came from */
	struct jitmap {
		const char *text;
		struct perfmap *pm;
	} *jit;
	size_t njit, capjit;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ull;
	return h;
}

/* Returns the interned copy of s, or NULL when out of memory. */
static const char *intern(struct symtab *st, const char *s)
{
	if ((st->nstrs + 1) * 2 > st->capstrs) {
		size_t cap = st->capstrs ? st->capstrs * 2 : 1024;
		char **t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < st->capstrs; i++) {
			if (!st->strs[i])
				continue;
			size_t j = hash_str(st->strs[i]) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = st->strs[i];
		}
		free(st->strs);
		st->strs = t;
		st->capstrs = cap;
	}
	size_t mask = st->capstrs - 1;
	size_t j = hash_str(s) & mask;
	while (st->strs[j]) {
		if (strcmp(st->strs[j], s) == 0)
			return st->strs[j];
		j = (j + 1) & mask;
	}
	st->strs[j] = mem_strdup(s);
	if (!st->strs[j])
		return NULL;
	st->nstrs++;
	return st->strs[j];
}

char *sym_demangle(const char *name)
{
	if (!name || (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2)))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}

struct symtab *sym_new(void)
{
	return calloc(1, sizeof(struct symtab));
}

void sym_free(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nmods; i++) {
		if (st->mods[i].dwfl)
			dwfl_end(st->mods[i].dwfl);
		free(st->mods[i].path);
		free(st->mods[i].fstart);
		free(st->mods[i].syms);
		free(st->mods[i].byname);
		cuscan_free(&st->mods[i].cs);
	}
	for (size_t i = 0; i < st->capstrs; i++)
		free(st->strs[i]);
	for (size_t i = 0; i < st->nproblems; i++)
		free(st->problems[i]);
	free(st->problems);
	for (size_t i = 0; i < st->njit; i++)
		perfmap_free(st->jit[i].pm);
	free(st->jit);
	free(st->strs);
	free(st->mods);
	free(st->modidx);
	free(st->cache);
	free(st->frames);
	free(st);
}

size_t sym_problems(const struct symtab *st, const char *const **lines)
{
	*lines = (const char *const *)st->problems;
	return st->nproblems;
}

/* Adds the line fmt (one %s: path) to the problems; 0 or MAPS_ENOMEM. */
static int problem(struct symtab *st, const char *fmt, const char *path)
{
	if (mem_grow(&st->problems, &st->capproblems, st->nproblems,
		     sizeof(char *)))
		return MAPS_ENOMEM;
	size_t n = strlen(fmt) + strlen(path) + 1;
	char *line = malloc(n);
	if (!line)
		return MAPS_ENOMEM;
	snprintf(line, n, fmt, path);
	st->problems[st->nproblems++] = line;
	return 0;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static void bid_hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n && i < 32; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * (n < 32 ? n : 32)] = 0;
}

/*
 * A file descriptor of a copy of this process's vDSO image (an
 * anonymous memory file), or -1.  The vDSO of a run is not in the log,
 * only its build-id; the kernel maps the same image into every process,
 * so when mapreport runs on the kernel of the run, its own vDSO
 * (getauxval(AT_SYSINFO_EHDR)) is that image, and module_open uses it
 * only when the build-ids are equal.  The image is the ELF file as the
 * kernel built it, headers and section table included, from its start
 * to the last of its program headers' contents and its section headers.
 */
static int own_vdso(void)
{
	const uint8_t *img = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	if (!img || memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64)
		return -1;
	Elf64_Ehdr eh;
	memcpy(&eh, img, sizeof(eh));
	uint64_t end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
	uint64_t ph = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || ph > (1u << 20))
		return -1;
	if (ph > end)
		end = ph;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr p;
		memcpy(&p, img + eh.e_phoff + (uint64_t)i * sizeof(p), sizeof(p));
		if (p.p_type == PT_LOAD && p.p_offset + p.p_filesz > end)
			end = p.p_offset + p.p_filesz;
	}
	if (end > (1u << 20)) /* a few pages: not a vDSO otherwise */
		return -1;
	int fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < end) {
		ssize_t w = write(fd, img + done, (size_t)end - done);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return fd;
}

static uint64_t mod_hash(const char *path, const uint8_t *bid, size_t bidlen)
{
	uint64_t h = hash_str(path);
	for (size_t i = 0; i < bidlen; i++)
		h = (h ^ bid[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

/* The index of the module of (path, build-id) into *mi, added (not
 * opened) if new; 0 or MAPS_ENOMEM. */
static int module_find(struct symtab *st, const char *path,
		       const uint8_t *bid, size_t bidlen, uint32_t *mi)
{
	if (bidlen > sizeof(st->mods[0].bid))
		bidlen = sizeof(st->mods[0].bid);
	uint64_t h = mod_hash(path, bid, bidlen);
	if ((st->nmods + 1) * 2 > st->capmodidx) {
		size_t cap = st->capmodidx ? st->capmodidx * 2 : 64;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < st->nmods; i++) {
			size_t j = st->mods[i].hash & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = (uint32_t)i + 1;
		}
		free(st->modidx);
		st->modidx = t;
		st->capmodidx = cap;
	}
	size_t mask = st->capmodidx - 1;
	size_t j = h & mask;
	for (; st->modidx[j]; j = (j + 1) & mask) {
		const struct smod *m = &st->mods[st->modidx[j] - 1];
		if (m->hash == h && strcmp(m->path, path) == 0 &&
		    m->bidlen == bidlen &&
		    (!bidlen || memcmp(m->bid, bid, bidlen) == 0)) {
			*mi = st->modidx[j] - 1;
			return 0;
		}
	}
	if (mem_grow(&st->mods, &st->capmods, st->nmods, sizeof(*st->mods)))
		return MAPS_ENOMEM;
	struct smod *m = &st->mods[st->nmods];
	memset(m, 0, sizeof(*m));
	const char *slash = strrchr(path, '/');
	m->base = (char *)intern(st, path[0] != '/' &&
					     strncmp(path, "linux-vdso", 10) == 0
				     ? "[vdso]"
				     : slash ? slash + 1 : path);
	if (!m->base || !(m->path = mem_strdup(path)))
		return MAPS_ENOMEM;
	if (bidlen) /* bid may be NULL then */
		memcpy(m->bid, bid, bidlen);
	m->bidlen = bidlen;
	m->hash = h;
	st->modidx[j] = (uint32_t)st->nmods + 1;
	*mi = (uint32_t)st->nmods++;
	return 0;
}

/* Opens module mi's file when not yet tried (a problem noted when it
 * cannot be read or is not the run's); 0 or MAPS_ENOMEM. */
static int module_open(struct symtab *st, uint32_t mi)
{
	struct smod *m = &st->mods[mi];
	if (m->opened)
		return 0;
	m->opened = 1;
	const char *path = m->path;
	const uint8_t *bid = m->bid;
	size_t bidlen = m->bidlen;
	/* the vDSO: this process's own, when the run's build-id says it is
	 * the same (see own_vdso) */
	int vdso = strncmp(path, "linux-vdso", 10) == 0;
	int fd = vdso && bidlen ? own_vdso() : -1;
	if (path[0] != '/' && fd < 0) {
		/* other objects with no file, and a vDSO we cannot check */
		m->state = M_PSEUDO;
		return 0;
	}
	m->dwfl = dwfl_begin(&callbacks);
	if (m->dwfl) {
		dwfl_report_begin(m->dwfl);
		m->mod = dwfl_report_elf(m->dwfl, m->base, path, fd, 0, false);
		dwfl_report_end(m->dwfl, NULL, NULL);
	}
	if (!m->mod && fd >= 0)
		close(fd); /* libdwfl takes it only on success */
	if (!m->mod && vdso) {
		m->state = M_PSEUDO;
		return 0;
	}
	if (!m->mod) {
		m->state = M_MISSING;
		return problem(st, "%s: cannot be read now; its addresses are "
				   "shown as file+offset (keep the binaries of "
				   "a run until it is reported)", path);
	}
	const unsigned char *id;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(m->mod, &id, &vaddr);
	if (bidlen && (n != (int)bidlen || memcmp(id, bid, bidlen)) && vdso) {
		m->state = M_PSEUDO;
		return problem(st, "%s: not the vDSO of the kernel this report "
				   "runs on (build-id differs); its addresses "
				   "are shown as [vdso]+offset (report on the "
				   "machine of the run to name them)", path);
	}
	if (bidlen && (n != (int)bidlen || memcmp(id, bid, bidlen))) {
		char rec[80];
		bid_hex(bid, bidlen, rec);
		m->state = M_MISMATCH;
		char fmt[256];
		snprintf(fmt, sizeof(fmt),
			 "%%s: build-id differs from the run's (%s): rebuilt "
			 "since? its addresses are shown as file+offset",
			 rec);
		return problem(st, fmt, path);
	}
	return 0;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(
		dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(
			dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (!n)
		n = dwarf_diename(die);
	if (!n) {
		Dwarf_Die origin;
		if (dwarf_formref_die(dwarf_attr(die, DW_AT_abstract_origin, &a),
				      &origin))
			n = dwarf_diename(&origin);
	}
	return n;
}

/* Demangled, without an ELF symbol version ("memcpy@@GLIBC_2.14"),
 * interned; NULL when out of memory. */
static const char *nice_name(struct symtab *st, const char *raw)
{
	char plain[1024];
	const char *at = strchr(raw, '@');
	if (at && at != raw && (size_t)(at - raw) < sizeof(plain)) {
		memcpy(plain, raw, (size_t)(at - raw));
		plain[at - raw] = 0;
		raw = plain;
	}
	char *d = sym_demangle(raw);
	const char *r = intern(st, d ? d : raw);
	free(d);
	return r;
}

/* Appends f to the frames; 0 or MAPS_ENOMEM. */
static int push_frame(struct symtab *st, const struct symframe *f)
{
	if (st->nframes == st->capframes &&
	    mem_reserve(&st->frames, &st->capframes, st->nframes + 1,
			sizeof(*st->frames), 4096))
		return MAPS_ENOMEM;
	st->frames[st->nframes++] = *f;
	return 0;
}

/* The interned name "module+0xOFFSET", or NULL when out of memory. */
static const char *offset_name(struct symtab *st, const struct smod *m,
			       uint64_t fileoff)
{
	char off[32], buf[256];
	size_t no = (size_t)snprintf(off, sizeof(off), "+%#" PRIx64, fileoff);
	size_t nb = strlen(m->base);
	char *s = nb + no < sizeof(buf) ? buf : malloc(nb + no + 1);
	if (!s)
		return NULL;
	memcpy(s, m->base, nb);
	memcpy(s + nb, off, no + 1);
	const char *r = intern(st, s);
	if (s != buf)
		free(s);
	return r;
}

/* Bytes of a value in .eh_frame_hdr encoded as enc (the fixed-size
 * forms the linkers write), 0 for others. */
static unsigned eh_size(unsigned enc)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_udata2: case DW_EH_PE_sdata2: return 2;
	case DW_EH_PE_udata4: case DW_EH_PE_sdata4: return 4;
	case DW_EH_PE_udata8: case DW_EH_PE_sdata8: return 8;
	default: return 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Reads the start of every function with an unwind table entry from
 * the binary search table of m's .eh_frame_hdr (PT_GNU_EH_FRAME):
 * pairs of (initial location, FDE), written by the linkers as 4-byte
 * offsets from the section (DW_EH_PE_datarel | DW_EH_PE_sdata4).  A
 * file without it, or with another encoding, gets no table. */
static void read_fstarts(struct smod *m)
{
	m->fstart_read = 1;
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(m->mod, &bias);
	size_t phnum, fsize;
	const uint8_t *img = elf ? (const uint8_t *)elf_rawfile(elf, &fsize) : NULL;
	if (!img || elf_getphdrnum(elf, &phnum))
		return;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		if (ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset ||
		    ph.p_filesz < 4)
			return;
		const uint8_t *h = img + ph.p_offset, *e = h + ph.p_filesz;
		unsigned ptr_enc = h[1], cnt_enc = h[2], tab_enc = h[3];
		unsigned ps = eh_size(ptr_enc), cs = eh_size(cnt_enc);
		if (h[0] != 1 || tab_enc != (DW_EH_PE_datarel | DW_EH_PE_sdata4) ||
		    !ps || (cs != 4 && cs != 8) || (size_t)(e - h) < 4 + ps + cs)
			return;
		const uint8_t *q = h + 4 + ps;
		uint64_t n = 0;
		memcpy(&n, q, cs); /* little-endian hosts: the log's too */
		q += cs;
		if (n == 0 || n > (uint64_t)(e - q) / 8)
			return;
		m->fstart = malloc(n * sizeof(*m->fstart));
		if (!m->fstart)
			return;
		for (uint64_t k = 0; k < n; k++, q += 8) {
			int32_t loc;
			memcpy(&loc, q, 4);
			m->fstart[k] = ph.p_vaddr + (uint64_t)(int64_t)loc;
		}
		m->nfstart = (size_t)n;
		qsort(m->fstart, m->nfstart, sizeof(*m->fstart), cmp_u64);
		return;
	}
}

/*
 * The start of the function that holds rel (module-relative): the last
 * unwind table entry that starts at or before it, provided the unwind
 * tables cover rel at all.  Stripped files keep these tables, so code
 * with no symbol is named, and its samples counted, per function rather
 * than per instruction.  0 and *start, or -1.
 */
static int fde_start(struct smod *m, uint64_t rel, uint64_t *start)
{
	if (!m->fstart_read)
		read_fstarts(m);
	if (!m->nfstart)
		return -1;
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(m->mod, &bias);
	Dwarf_Frame *fr = NULL;
	if (!cfi || rel < bias || dwarf_cfi_addrframe(cfi, rel - bias, &fr))
		return -1;
	free(fr);
	uint64_t a = rel - bias;
	size_t lo = 0, hi = m->nfstart; /* first entry > a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->fstart[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	*start = m->fstart[lo - 1] + bias;
	return 0;
}

static int cmp_symaddr(const void *a, const void *b)
{
	const struct symaddr *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const struct symaddr *sort_syms; /* qsort has no context argument */

static int cmp_byname(const void *a, const void *b)
{
	return strcmp(sort_syms[*(const uint32_t *)a].name,
		      sort_syms[*(const uint32_t *)b].name);
}

/* Reads m's function symbols (STT_FUNC, STT_GNU_IFUNC, defined, named)
 * sorted by address, and their index by name, for public_alias and
 * alias_of_name; none when there is no table or no memory. */
static void read_syms(struct smod *m)
{
	m->syms_read = 1;
	int n = dwfl_module_getsymtab(m->mod);
	if (n <= 1 || !(m->syms = malloc((size_t)n * sizeof(*m->syms))))
		return;
	for (int i = 1; i < n; i++) {
		GElf_Sym s;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *nm = dwfl_module_getsym_info(m->mod, i, &s, &addr,
							 &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(s.st_info);
		if (!nm || !*nm || s.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		m->syms[m->nsyms++] = (struct symaddr){
			addr, s.st_size, nm, GELF_ST_BIND(s.st_info)};
	}
	qsort(m->syms, m->nsyms, sizeof(*m->syms), cmp_symaddr);
	m->byname = malloc((m->nsyms ? m->nsyms : 1) * sizeof(*m->byname));
	if (!m->byname)
		return;
	for (size_t i = 0; i < m->nsyms; i++)
		m->byname[i] = (uint32_t)i;
	sort_syms = m->syms;
	qsort(m->byname, m->nsyms, sizeof(*m->byname), cmp_byname);
}

/* How public a symbol binding is: GLOBAL (and GNU_UNIQUE) 0, WEAK 1,
 * LOCAL and others 2. */
static int bind_rank(int bind)
{
	switch (bind) {
	case STB_GLOBAL: case STB_GNU_UNIQUE: return 0;
	case STB_WEAK: return 1;
	default: return 2;
	}
}

/* Whether symbol a is a better public name than b: the more public
 * binding, then fewer leading underscores, then the shorter name, then
 * the first by strcmp (so the choice never depends on the order of the
 * symbol table). */
static int better_name(const struct symaddr *a, const struct symaddr *b)
{
	int ra = bind_rank(a->bind), rb = bind_rank(b->bind);
	if (ra != rb)
		return ra < rb;
	size_t ua = strspn(a->name, "_"), ub = strspn(b->name, "_");
	if (ua != ub)
		return ua < ub;
	size_t la = strlen(a->name), lb = strlen(b->name);
	if (la != lb)
		return la < lb;
	return strcmp(a->name, b->name) < 0;
}

/*
 * The name to show for the function symbol *s of m: of the function
 * symbols of m at the same address with the same size (its aliases),
 * the most public one by better_name, so that glibc's read is "read",
 * not its internal alias "__GI___libc_read" that libdwfl may pick from
 * a full symbol table.  The strings are m's.
 */
static const char *public_alias(struct smod *m, const struct symaddr *s)
{
	if (!m->syms_read)
		read_syms(m);
	size_t lo = 0, hi = m->nsyms; /* first entry >= s->addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->syms[mid].addr < s->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct symaddr *best = s;
	for (size_t i = lo; i < m->nsyms && m->syms[i].addr == s->addr; i++)
		if (m->syms[i].size == s->size && better_name(&m->syms[i], best))
			best = &m->syms[i];
	return best->name;
}

/*
 * The public alias (see public_alias) of the function named name in
 * DWARF, when name is the name of exactly one function symbol of m:
 * glibc's DWARF names its functions by their internal assembler names
 * ("__GI___libc_read").  name itself otherwise, and for C++ and Rust
 * names (mangled, demangled later), which have no such aliases.
 */
static const char *alias_of_name(struct smod *m, const char *name)
{
	if (!strncmp(name, "_Z", 2) || !strncmp(name, "_R", 2))
		return name;
	if (!m->syms_read)
		read_syms(m);
	if (!m->byname)
		return name;
	size_t lo = 0, hi = m->nsyms; /* first name >= name */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(m->syms[m->byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->nsyms || strcmp(m->syms[m->byname[lo]].name, name) ||
	    (lo + 1 < m->nsyms &&
	     !strcmp(m->syms[m->byname[lo + 1]].name, name)))
		return name;
	return public_alias(m, &m->syms[m->byname[lo]]);
}

/* Looks rel up in module m; appends frames, innermost first; returns
 * how many, or MAPS_ENOMEM.  rel and fileoff are the address looked up
 * (for a caller, inside its call instruction: the return address less
 * one), back what was taken off the sampled address (1 or 0). */
static int resolve(struct symtab *st, struct smod *m, uint64_t rel,
		   uint64_t fileoff, uint64_t back)
{
	struct symframe f = {NULL, NULL, 0, m->base, 0};
	if (m->state != M_OK) {
		/* the address as sampled (a caller's return address) */
		f.func = offset_name(st, m, fileoff + back);
		if (!f.func || push_frame(st, &f))
			return MAPS_ENOMEM;
		return 1;
	}
	GElf_Off off;
	GElf_Sym sym;
	const char *sname = dwfl_module_addrinfo(m->mod, rel, &off, &sym, NULL,
						 NULL, NULL);
	/* where the symbol holding rel starts, when it has a size: DWARF
	 * that places other code before that is not this function's */
	int sized = sname && sym.st_size > 0;
	uint64_t sstart = sized ? rel - off : 0;
	if (sname) {
		struct symaddr sa = {rel - off, sym.st_size, sname,
				     GELF_ST_BIND(sym.st_info)};
		sname = public_alias(m, &sa);
	}
	const char *file = NULL;
	int line = 0;
	Dwfl_Line *dl = dwfl_module_getsrc(m->mod, rel);
	if (dl && cuscan_line_holds(m->mod, dl, rel, sized, sstart)) {
		file = dwfl_lineinfo(dl, NULL, &line, NULL, NULL, NULL);
		if (file && !(file = intern(st, file)))
			return MAPS_ENOMEM;
		if (!file)
			line = 0;
	}
	int n = 0;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(m->mod, rel, &bias), scu;
	if (!cu || dwarf_haspc(cu, rel - bias) <= 0) {
		/* a unit .debug_aranges left out (report/cuscan.h) */
		int rc = cuscan_unit(&m->cs, m->mod, rel, &bias, &scu);
		if (rc < 0)
			return MAPS_ENOMEM;
		cu = rc ? &scu : NULL;
		if (cu && !file && (file = cuscan_line(cu, rel - bias, sized,
						       sstart - bias, &line)) &&
		    !(file = intern(st, file)))
			return MAPS_ENOMEM;
	}
	Dwarf_Die *scopes = NULL;
	int ns = cu ? cuscan_scopes(cu, rel - bias, &scopes) : 0;
	if (ns > 0 && sized &&
	    !cuscan_chain_holds(scopes, ns, rel - bias, sstart - bias)) {
		free(scopes);
		scopes = NULL;
		ns = 0;
	}
	if (ns > 0) {
		Dwarf_Files *files = NULL;
		size_t nfiles = 0;
		dwarf_getsrcfiles(cu, &files, &nfiles);
		const char *cfile = file;
		int cline = line;
		for (int i = 0; i < ns; i++) {
			int tag = dwarf_tag(&scopes[i]);
			if (tag != DW_TAG_inlined_subroutine &&
			    tag != DW_TAG_subprogram)
				continue;
			/* past SYM_MAX_FRAMES - 1 inlined calls, the middle
			 * ones are left out: never the containing function */
			if (tag == DW_TAG_subprogram || n < SYM_MAX_FRAMES - 1) {
				const char *nm = die_name(&scopes[i]);
				if (tag == DW_TAG_subprogram && sname)
					nm = sname; /* the symbol agrees, exact */
				else if (nm)
					nm = alias_of_name(m, nm);
				f.func = nice_name(st, nm ? nm : "??");
				f.file = cfile;
				f.line = cline;
				f.resolved = 1;
				if (!f.func || push_frame(st, &f)) {
					n = MAPS_ENOMEM;
					break;
				}
				n++;
			}
			if (tag == DW_TAG_subprogram)
				break;
			/* the caller runs at the call site of this inline */
			Dwarf_Attribute a;
			Dwarf_Word cf = 0, cl = 0;
			dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a),
					&cf);
			dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a),
					&cl);
			const char *fn = files && cf < nfiles
					       ? dwarf_filesrc(files, cf, NULL, NULL)
					       : NULL;
			cfile = fn ? intern(st, fn) : NULL;
			cline = fn ? (int)cl : 0;
			if (fn && !cfile) {
				n = MAPS_ENOMEM;
				break;
			}
		}
		free(scopes);
	}
	if (n == 0) {
		uint64_t fstart;
		if (sname) {
			f.func = nice_name(st, sname);
			f.resolved = 1;
		} else {
			/* named by where its function starts, when the unwind
			 * tables say (see fde_start) */
			if (fde_start(m, rel, &fstart) == 0 &&
			    rel - fstart <= fileoff)
				fileoff -= rel - fstart;
			f.func = offset_name(st, m, fileoff);
		}
		f.file = file;
		f.line = line;
		if (!f.func || push_frame(st, &f))
			return MAPS_ENOMEM;
		n = 1;
	}
	return n;
}

static uint64_t hash_key(uint32_t mod, uint64_t rel, int leaf)
{
	uint64_t h = rel * 0x9e3779b97f4a7c15ull ^ ((uint64_t)mod << 1 | (uint64_t)leaf);
	return h ^ (h >> 31);
}

int sym_module(struct symtab *st, const char *path, const uint8_t *bid,
	       size_t bidlen, uint32_t *mod)
{
	return module_find(st, path, bid, bidlen, mod);
}

int sym_unknown(struct symtab *st, uint64_t pc, struct symframe *out)
{
	(void)pc;
	out->func = out->module = intern(st, "[unknown]");
	out->file = NULL;
	out->line = 0;
	out->resolved = 0;
	return out->func ? 1 : MAPS_ENOMEM;
}

int sym_lookup(struct symtab *st, const char *path, const uint8_t *bid,
	       size_t bidlen, uint64_t bias, uint64_t start, uint64_t offset,
	       uint64_t pc, int leaf, struct symframe *out, int max)
{
	uint32_t mi;
	if (module_find(st, path, bid, bidlen, &mi) || module_open(st, mi))
		return MAPS_ENOMEM;
	uint64_t a = leaf ? pc : pc - 1;
	uint64_t rel = a - bias;
	if ((st->ncache + 1) * 2 > st->capcache) {
		size_t cap = st->capcache ? st->capcache * 2 : 4096;
		struct centry *t = calloc(cap, sizeof(*t));
		if (!t)
			return MAPS_ENOMEM;
		for (size_t i = 0; i < st->capcache; i++) {
			struct centry *e = &st->cache[i];
			if (!e->used)
				continue;
			size_t j = hash_key(e->mod, e->rel, e->leaf) & (cap - 1);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = *e;
		}
		free(st->cache);
		st->cache = t;
		st->capcache = cap;
	}
	size_t mask = st->capcache - 1;
	size_t j = hash_key(mi, rel, leaf) & mask;
	while (st->cache[j].used) {
		struct centry *e = &st->cache[j];
		if (e->mod == mi && e->rel == rel && e->leaf == leaf)
			break;
		j = (j + 1) & mask;
	}
	struct centry *e = &st->cache[j];
	if (!e->used) {
		uint32_t first = (uint32_t)st->nframes;
		int n = resolve(st, &st->mods[mi], rel, a - start + offset,
				pc - a);
		if (n < 0)
			return n;
		e->used = 1;
		e->mod = mi;
		e->rel = rel;
		e->leaf = leaf;
		e->first = first;
		e->n = (uint32_t)n;
		st->ncache++;
	}
	int n = (int)e->n < max ? (int)e->n : max;
	memcpy(out, st->frames + e->first, (size_t)n * sizeof(*out));
	return n;
}

int sym_anon(struct symtab *st, const struct rproc *p, uint64_t pc, int leaf,
	     struct symframe *out)
{
	if (!p || !p->perfmap)
		return sym_unknown(st, pc, out);
	struct perfmap *pm = NULL;
	for (size_t i = 0; i < st->njit; i++)
		if (st->jit[i].text == p->perfmap)
			pm = st->jit[i].pm;
	if (!pm) {
		if (mem_grow(&st->jit, &st->capjit, st->njit,
			     sizeof(*st->jit)))
			return MAPS_ENOMEM;
		pm = perfmap_parse(p->perfmap, p->perfmap_len);
		if (!pm)
			return MAPS_ENOMEM;
		st->jit[st->njit].text = p->perfmap;
		st->jit[st->njit++].pm = pm;
	}
	const char *name = perfmap_find(pm, leaf ? pc : pc - 1);
	if (!name)
		return sym_unknown(st, pc, out);
	out->func = intern(st, name);
	out->module = intern(st, "[jit]");
	out->file = NULL;
	out->line = 0;
	out->resolved = 1;
	return out->func && out->module ? 1 : MAPS_ENOMEM;
}

int sym_func_range(struct symtab *st, const char *path, const uint8_t *bid,
		   size_t bidlen, uint64_t rel, uint64_t *lo, uint64_t *hi)
{
	uint32_t mi;
	if (module_find(st, path, bid, bidlen, &mi) || module_open(st, mi))
		return -1;
	struct smod *m = &st->mods[mi];
	if (m->state != M_OK || !m->mod)
		return -1;
	GElf_Off off;
	GElf_Sym sym;
	if (!dwfl_module_addrinfo(m->mod, rel, &off, &sym, NULL, NULL, NULL) ||
	    !sym.st_size || off >= sym.st_size)
		return -1;
	*lo = rel - off;
	*hi = *lo + sym.st_size;
	return 0;
}
