/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * jitmap: a JIT compiler in miniature.  Copies a count-down loop into
 * anonymous memory that it then makes executable (no file maps it),
 * names it in /tmp/perf-PID.map as a JIT compiler would (with two other
 * lines around it), runs it for about MS milliseconds of CPU time, and,
 * with "delete", unlinks the map before it exits.
 *
 *   jitmap MS [delete]
 *
 * Prints the address of the code.  Exits 77 on a CPU it has no code for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
static const unsigned char code[] = {
	0x48, 0xff, 0xcf, /* dec %rdi */
	0x75, 0xfb,       /* jnz back to the dec */
	0xc3,             /* ret */
};
#elif defined(__aarch64__)
static const uint32_t code[] = {
	0xf1000400, /* subs x0, x0, #1 */
	0x54ffffe1, /* b.ne back to the subs */
	0xd65f03c0, /* ret */
};
#else
#define NO_CODE 1
#endif

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: jitmap MS [delete]\n");
		return 2;
	}
#ifdef NO_CODE
	fprintf(stderr, "jitmap: no code for this CPU\n");
	return 77;
#else
	double ms = atof(argv[1]);
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *mem = mmap(NULL, (size_t)page * 3,
				  PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("jitmap: mmap");
		return 1;
	}
	unsigned char *fn = mem + page + 0x40;
	memcpy(fn, code, sizeof(code));
	if (mprotect(mem, (size_t)page * 3, PROT_READ | PROT_EXEC)) {
		perror("jitmap: mprotect");
		return 1;
	}
	__builtin___clear_cache((char *)fn, (char *)fn + sizeof(code));

	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%ld.map", (long)getpid());
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%lx 40 jit_stub_before\n", (unsigned long)(uintptr_t)mem + page);
	fprintf(f, "%lx %zx jit_countdown_loop_qz\n",
		(unsigned long)(uintptr_t)fn, sizeof(code));
	fprintf(f, "0x%lx 0x100 jit_stub_after\n",
		(unsigned long)(uintptr_t)fn + 0x40);
	fclose(f);
	printf("%lx\n", (unsigned long)(uintptr_t)fn);
	fflush(stdout);

	void (*run)(unsigned long) = (void (*)(unsigned long))(uintptr_t)fn;
	double t0 = cpu_ms();
	while (cpu_ms() - t0 < ms)
		run(2000000);
	if (argc > 2 && strcmp(argv[2], "delete") == 0 && unlink(path)) {
		perror(path);
		return 1;
	}
	return 0;
#endif
}
