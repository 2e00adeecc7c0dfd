/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * offcpu: the off-CPU half of wall-clock sampling (--wall), without a
 * signal.  A thread of ours wakes once per sampling period (at most
 * OFFCPU_MAX_HZ times a second) and looks at every thread of the slot
 * table from outside: its CPU-time clock (did it run since?) and, for a
 * thread not on a CPU nor ready to run (asleep, in uninterruptible wait,
 * stopped), /proc/self/task/TID/syscall (the system call, the user SP
 * and PC it entered the kernel with).  It unwinds the user stack from
 * that SP and PC with libunwind's remote interface, whose memory
 * accessor reads our own memory with process_vm_readv (a page the
 * thread unmapped is an error, never a fault), reads the CPU-time clock
 * again, drops the stack if the thread ran meanwhile, and writes it into
 * the blocked thread's own stream: one sample per sampling period of
 * the wall time since the last look, as the CPU-time timer of a running
 * thread writes one per period of CPU time.  While the thread has not
 * run since, later looks reuse that stack without another unwind, and
 * so count the time from the moment it blocked until it runs again, as
 * off-CPU profilers do (the wait for a CPU after its wake-up included;
 * the wait of a thread preempted while it ran is seen by neither half:
 * /proc reports it "running", without SP and PC).  A
 * thread on the CPU is sampled by its own CPU-time timer (timer.c), as
 * in CPU mode: the two halves add up to wall time.  No signal is ever
 * sent to a blocked thread, so no system call of the program returns
 * early because of us (signal(7): nanosleep, poll, epoll_wait, select,
 * sem_timedwait... end with EINTR on any handled signal, SA_RESTART or
 * not).
 *
 * DESIGN NOTES (issue 13, item 2; options measured on Linux 6.18,
 * CONFIG_POSIX_CPU_TIMERS_TASK_WORK=y, 2 CPUs shared with other work;
 * test/programs/sleeper: 500 x (1 ms of CPU + 1 ms nanosleep, no retry)
 * plus threads waiting in poll() and sem_timedwait(), counting EINTR):
 * - before: one timer_create(CLOCK_MONOTONIC) per thread signalling it:
 *   248 nanosleep, 250 poll and 244 sem_timedwait calls of about 500
 *   each ended with EINTR at 250 Hz.
 * - CPU-time timers for the running part: a thread asleep uses no CPU
 *   time, so its CPU-time timer cannot expire while it sleeps.  With
 *   task work (above), a POSIX CPU-timer expiry found in the tick is
 *   handled on the way back to user mode, after the system call: 0
 *   EINTR in 5 runs in CPU mode at 250 Hz.  A perf task-clock event
 *   that counts kernel time (root, or perf_event_paranoid < 2) can
 *   overflow inside a system call before the thread sleeps, and its
 *   O_ASYNC signal is sent at once: CPU mode at -F 1000 cut 1 nanosleep,
 *   22 poll and 7 sem_timedwait calls short in 5 runs.  With
 *   exclude_kernel it overflows only in user mode: --wall arms it so,
 *   0 EINTR in 5 runs at -F 1000.  The running part then misses the
 *   thread's system time.  The POSIX timer, checked on ticks that find
 *   the thread running, gives 1 ms bursts too few samples (64 against
 *   120 with perf at 250 Hz), so --wall takes perf at any rate (timer.c).
 * - the off-CPU part from this thread: 0 EINTR; the blocked stacks come
 *   out under their callers (main;nap_part;__nanosleep;clock_nanosleep,
 *   poll_wait;__poll, sem_wait_part;...;__futex_abstimed_wait_common64;
 *   C++ -O2: main;sleep_for;__nanosleep;clock_nanosleep).
 *   Telling whether a thread ran: reading schedstat per blocked thread
 *   per look cost 0.29 s of CPU at 250 Hz and 0.73 s at 1 kHz for 64
 *   threads blocked in sleep() for 2 s; its CPU-time clock (one
 *   clock_gettime) 0.14 s and 0.20 s (0.04 s without --wall).
 *   Counting: one sample per look weighing the time since the last gave
 *   blocked threads a tenth of the samples of running ones at -F 10000
 *   (looks are capped at 1 kHz) and the report counts samples; one
 *   sample per period, with the remainder carried per thread, gives
 *   9.4k-9.7k samples per second per blocked thread at -F 10000 and
 *   230-250 at 250 Hz (a remainder dropped at each new stack lost half).
 * - /proc/TID/syscall gives only SP and PC: frames whose CFA rule needs
 *   the live RBP (frame-pointer code called by a libc wrapper that does
 *   not save RBP, such as clock_nanosleep and poll) cannot be stepped by
 *   CFI alone.  There the walk finds the frame-pointer pair (saved RBP,
 *   return address just after a call instruction) nearest above the
 *   frame's SP whose saved RBP points at another such pair, and goes on
 *   from it.  A stack that still cannot be read ends where the walk
 *   stopped, at least the blocked PC (the libc wrapper of the call).
 * - reading the state from .../stat first, to look only at S and D:
 *   the syscall file says "running" for every thread ready to run, so
 *   one read does both.
 * What remains (mapsample(1), --wall): a thread preempted while it ran
 * gets no sample while it waits for a CPU; with --timer perf (the
 * perf event alone, user time only), neither is a running thread's time
 * in the kernel (the default's POSIX timer samples it, timer.c); the system call is
 * named by its libc wrapper (the log has no frame kind for "in system
 * call N"); a thread blocked for less than the time between two looks
 * is seen in proportion to its time, as by any sampling.
 *
 * Writes samples into a thread's slot as that slot's only writer, with
 * the handler's busy/closing handshake (sampler_i.h) plus offcpu_busy,
 * which thread_close() waits for when a thread closes its own slot.
 * Calls stream.c, real.c and io.c below it; started by thread.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <libunwind.h>
#include <link.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

/* The off-CPU walk runs at most this often, whatever -F asks for; a look
 * then writes as many samples as periods went by (put_samples()). */
#define OFFCPU_MAX_HZ 1000
/* Samples one look writes for one thread at the most (a look that
 * comes late after a long stall of this thread). */
#define OFFCPU_MAX_BURST 1000
/* Pages of memory one unwind keeps read (stack, unwind tables). */
#define OFFCPU_PAGES 16
/* How far above a frame's SP the frame-pointer search looks. */
#define OFFCPU_FP_SCAN 4096

/* What the walk knows of the thread of one slot (same index). */
struct oc_thread {
	int tid;               /* the thread this is about; 0: nothing */
	int have;              /* stack below is its current blocked one */
	uint64_t run_ns;       /* its CPU time when that stack was taken */
	uint64_t last_ts;      /* when its last sample was written */
	uint64_t owed;         /* blocked ns not yet written (< a period) */
	uint32_t npc;
	uint64_t *pc;          /* S.cfg.depth frames, malloc'd */
};

static struct oc_thread *oc;
static uint32_t started_pid;
static int own_tid;    /* the off-CPU thread's tid, once it runs */
static pthread_t oc_thread;  /* it, joinable (offcpu_stop()) */
static int oc_stop_flag;
static int task_dir = -1;
static unw_addr_space_t oc_as;
static uint32_t started_as_pid; /* the process oc_as was made in */

/* One unwind: the registers /proc gave and the pages read so far. */
struct oc_unwind {
	uint64_t ip, sp, bp;
	int have_bp;
	int npages;
	uint64_t page_addr[OFFCPU_PAGES];
	uint8_t page[OFFCPU_PAGES][4096];
};

/* Reads len bytes at addr of our own memory; 0 or -1 (unmapped). */
static int self_read(void *dst, uint64_t addr, size_t len)
{
	struct iovec l = {dst, len}, r = {(void *)(uintptr_t)addr, len};
	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len
		       ? 0
		       : -1;
}

static int read_word(struct oc_unwind *u, uint64_t addr, uint64_t *val)
{
	uint64_t pa = addr & ~(uint64_t)4095;
	if ((addr & 4095) > 4096 - 8) {
		/* straddles two pages: read directly */
		return self_read(val, addr, 8);
	}
	for (int i = 0; i < u->npages; i++)
		if (u->page_addr[i] == pa) {
			memcpy(val, u->page[i] + (addr - pa), 8);
			return 0;
		}
	int slot = u->npages < OFFCPU_PAGES
			   ? u->npages++
			   : (int)((pa >> 12) % OFFCPU_PAGES);
	if (self_read(u->page[slot], pa, 4096)) {
		u->page_addr[slot] = 1; /* never a page address */
		return self_read(val, addr, 8);
	}
	u->page_addr[slot] = pa;
	memcpy(val, u->page[slot] + (addr - pa), 8);
	return 0;
}

/* ---- libunwind's remote accessors over our own memory ---- */

static int acc_find_proc_info(unw_addr_space_t as, unw_word_t ip,
			      unw_proc_info_t *pi, int need, void *arg)
{
	unw_accessors_t *l = unw_get_accessors(unw_local_addr_space);
	return l->find_proc_info(as, ip, pi, need, arg);
}

static void acc_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi,
				void *arg)
{
	unw_accessors_t *l = unw_get_accessors(unw_local_addr_space);
	if (l->put_unwind_info)
		l->put_unwind_info(as, pi, arg);
}

static int acc_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr,
				      void *arg)
{
	(void)as, (void)addr, (void)arg;
	return -UNW_ENOINFO;
}

static int acc_access_mem(unw_addr_space_t as, unw_word_t addr,
			  unw_word_t *val, int write, void *arg)
{
	(void)as;
	if (write)
		return -UNW_EREADONLYREG;
	uint64_t v;
	if (read_word(arg, addr, &v))
		return -UNW_EINVAL;
	*val = v;
	return 0;
}

static int acc_access_reg(unw_addr_space_t as, unw_regnum_t reg,
			  unw_word_t *val, int write, void *arg)
{
	(void)as;
	struct oc_unwind *u = arg;
	if (write)
		return -UNW_EREADONLYREG;
	if (reg == UNW_X86_64_RIP)
		*val = u->ip;
	else if (reg == UNW_X86_64_RSP)
		*val = u->sp;
	else if (reg == UNW_X86_64_RBP && u->have_bp)
		*val = u->bp;
	else
		return -UNW_EBADREG;
	return 0;
}

static int acc_access_fpreg(unw_addr_space_t as, unw_regnum_t reg,
			    unw_fpreg_t *val, int write, void *arg)
{
	(void)as, (void)reg, (void)val, (void)write, (void)arg;
	return -UNW_EBADREG;
}

static int acc_resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
	(void)as, (void)c, (void)arg;
	return -UNW_EINVAL;
}

static int acc_get_proc_name(unw_addr_space_t as, unw_word_t addr,
			     char *buf, size_t len, unw_word_t *off, void *arg)
{
	(void)as, (void)addr, (void)buf, (void)len, (void)off, (void)arg;
	return -UNW_ENOINFO;
}

/* ---- the frame-pointer search ---- */

/* The code segments of the loaded objects, taken again when an object
 * was loaded or unloaded since (dl_iterate_phdr's dlpi_adds and
 * dlpi_subs), so that the frame-pointer search takes glibc's loader lock
 * once per look instead of once per word it tries. */
#define OFFCPU_TEXTS 1024
static struct {
	uint64_t lo, hi;
} texts[OFFCPU_TEXTS];
static int ntexts;
static unsigned long long texts_adds, texts_subs;

static int counts_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	unsigned long long *c = data;
	c[0] = info->dlpi_adds;
	c[1] = info->dlpi_subs;
	return 1;
}

static int texts_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	for (int i = 0; i < info->dlpi_phnum && ntexts < OFFCPU_TEXTS; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X))
			continue;
		texts[ntexts].lo = info->dlpi_addr + p->p_vaddr;
		texts[ntexts].hi = texts[ntexts].lo + p->p_memsz;
		ntexts++;
	}
	return 0;
}

/* Takes the code segments again, and forgets what libunwind cached,
 * when objects came or went since the last call: another object may
 * now be where an unloaded one was (sample.c's fast trace has the same
 * problem and stops; this cache can be flushed). */
static void objects_changed(void)
{
	unsigned long long c[2] = {0, 0};
	real_dl_iterate_phdr(counts_cb, c);
	if (ntexts && c[0] == texts_adds && c[1] == texts_subs)
		return;
	if (c[1] != texts_subs)
		unw_flush_cache(oc_as, 0, 0);
	texts_adds = c[0];
	texts_subs = c[1];
	ntexts = 0;
	real_dl_iterate_phdr(texts_cb, NULL);
}

/* Is r a return address: in the code of a loaded object, just after a
 * call instruction (e8 rel32, or ff /2 in its register, disp8, disp32
 * and SIB forms)? */
static int is_return_address(uint64_t r)
{
	int in_text = 0;
	for (int i = 0; i < ntexts && !in_text; i++)
		in_text = r >= texts[i].lo && r < texts[i].hi;
	if (!in_text || r < 8)
		return 0;
	uint8_t b[8];
	if (self_read(b, r - 8, 8))
		return 0;
	/* b[7] is the byte at r - 1 */
	if (b[3] == 0xe8)
		return 1;
	for (int len = 2; len <= 7; len++)
		if (b[8 - len] == 0xff && (b[9 - len] & 0x38) == 0x10)
			return 1;
	return 0;
}

/* The frame pointer of the frame whose SP is sp: the nearest address a
 * above sp holding (saved RBP, return address) whose saved RBP is 0 or
 * points higher up the stack at a word followed by another return
 * address (the caller's own saved RBP may be anything: code without
 * frame pointers uses RBP freely).  0 if none. */
static uint64_t find_frame_pointer(struct oc_unwind *u, uint64_t sp)
{
	for (uint64_t a = sp; a < sp + OFFCPU_FP_SCAN; a += 8) {
		uint64_t saved, ret;
		if (read_word(u, a, &saved) || read_word(u, a + 8, &ret))
			return 0;
		if (!is_return_address(ret))
			continue;
		if (saved == 0)
			return a;
		if (saved <= a || saved - a > (8u << 20))
			continue;
		uint64_t r2;
		if (read_word(u, saved + 8, &r2))
			continue;
		if (is_return_address(r2))
			return a;
	}
	return 0;
}

/* Steps cursor c from frame n on, filling pc; the frames now in pc. */
static uint32_t walk_on(unw_cursor_t *c, uint64_t *pc, uint32_t n,
			uint32_t depth, int *err)
{
	*err = 0;
	while (n < depth) {
		int r = unw_step(c);
		if (r <= 0) {
			*err = r < 0;
			break;
		}
		unw_word_t ip;
		if (unw_get_reg(c, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		pc[n++] = ip;
	}
	return n;
}

/* The user stack of a thread blocked at (ip, sp): frames in pc, leaf
 * first; at least the PC itself. */
static uint32_t unwind_blocked(uint64_t ip, uint64_t sp, uint64_t *pc,
			       uint32_t depth)
{
	static struct oc_unwind u; /* only this module's thread uses it */
	memset(&u, 0, offsetof(struct oc_unwind, page));
	u.ip = ip;
	u.sp = sp;
	pc[0] = ip;
	uint32_t n = 1;
	unw_cursor_t c;
	if (!oc_as)
		return n;
	objects_changed();
	if (unw_init_remote(&c, oc_as, &u) < 0)
		return n;
	for (int restarts = 0; restarts < 8 && n < depth; restarts++) {
		int err;
		n = walk_on(&c, pc, n, depth, &err);
		if (!err || n >= depth)
			break;
		/* the frame in c needed a register /proc does not give:
		 * go on from a frame pointer found above its SP */
		unw_word_t fip, fsp;
		if (unw_get_reg(&c, UNW_REG_IP, &fip) < 0 ||
		    unw_get_reg(&c, UNW_REG_SP, &fsp) < 0)
			break;
		uint64_t bp = find_frame_pointer(&u, fsp);
		if (!bp)
			break;
		u.ip = fip;
		u.sp = fsp;
		u.bp = bp;
		u.have_bp = 1;
		if (unw_init_remote(&c, oc_as, &u) < 0)
			break;
	}
	return n;
}

/* ---- /proc ---- */

/* Reads /proc/self/task/TID/NAME into buf (NUL-terminated); bytes or -1. */
static ssize_t read_task(int tid, const char *name, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "%d/%s", tid, name);
	int fd = openat(task_dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	io_own_pre(&io_own_bytes_read, (long)len - 1);
	ssize_t n = io_own_post(&io_own_bytes_read, (long)len - 1,
				read(fd, buf, len - 1));
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* The thread's CPU time (ns; any time it runs moves it on); 0 or -1.
 * One system call, where reading schedstat takes three and a page. */
static int read_runs(int tid, uint64_t *run_ns)
{
	struct timespec ts;
	if (clock_gettime(thread_cpu_clock(tid), &ts))
		return -1;
	*run_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}

/* syscall: the user SP and PC of a thread off the CPU, whether blocked
 * in a system call, stopped, or ready to run but waiting for a CPU (the
 * kernel then reports where it entered the kernel); 0, or -1 when it is
 * on a CPU ("running") or the file cannot be read. */
static int read_blocked_at(int tid, uint64_t *sp, uint64_t *pc)
{
	char b[256];
	if (read_task(tid, "syscall", b, sizeof(b)) < 0)
		return -1;
	if (b[0] == 'r')
		return -1;
	/* "NR ARG1..ARG6 SP PC" or "-1 SP PC": the last two fields */
	char *f[9];
	int n = 0;
	for (char *s = b; *s && n < 9;) {
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\n')
			s++;
	}
	if (n < 3)
		return -1;
	*sp = strtoull(f[n - 2], NULL, 0);
	*pc = strtoull(f[n - 1], NULL, 0);
	return *pc ? 0 : -1;
}

/* ---- samples ---- */

/* Writes the samples of wall time ns of thread tid into slot t, one
 * per sampling period (so that counts compare with the CPU-time samples
 * of running threads, whatever the rate of this thread's looks), at
 * most OFFCPU_MAX_BURST (the last takes the rest of the weight); owed
 * keeps what is left below one period.  As the slot's only writer (the
 * handshake of sampler_i.h, plus offcpu_busy for thread_close()). */
static void put_samples(struct tslot *t, int tid, uint64_t ts, uint64_t ns,
			uint64_t *owed, uint32_t npc, const uint64_t *pc)
{
	uint64_t period = S.period_ns;
	uint64_t n = (*owed + ns) / period;
	*owed = (*owed + ns) % period;
	if (!n)
		return;
	uint64_t extra = 0;
	if (n > OFFCPU_MAX_BURST) {
		extra = (n - OFFCPU_MAX_BURST) * period;
		n = OFFCPU_MAX_BURST;
	}
	__atomic_store_n(&t->offcpu_busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&t->offcpu_busy, 0, __ATOMIC_SEQ_CST);
		return;
	}
	if (!__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&S.stopping, __ATOMIC_SEQ_CST) &&
	    __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) == tid) {
		for (uint64_t i = 0; i < n; i++) {
			uint64_t w = period + (i + 1 == n ? extra : 0);
			substrate_sample(t, ts, w, npc, pc, 1);
			if (stream_sample(t, ts, w, npc, pc) == 0)
				t->samples++;
			else
				slot_drop(t, MAPLOG_DROP_BUFFER_FULL, 1);
		}
	}
	__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&t->offcpu_busy, 0, __ATOMIC_SEQ_CST);
}

/* One look at the thread of slot i, at ts; since: ns since the last
 * look (what a thread found newly blocked is counted for). */
static void look(int i, uint64_t ts, uint64_t since)
{
	struct tslot *t = &S.slots[i];
	struct oc_thread *o = &oc[i];
	int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
	if (tid <= 0 || __atomic_load_n(&t->closing, __ATOMIC_RELAXED)) {
		o->tid = 0;
		return;
	}
	if (o->tid != tid) {
		o->tid = tid;
		o->have = 0;
		o->owed = 0;
	}
	if (!o->pc && !(o->pc = malloc(S.cfg.depth * sizeof(uint64_t))))
		return;
	uint64_t run_ns;
	if (read_runs(tid, &run_ns))
		return;
	if (o->have && run_ns == o->run_ns) {
		/* has not run since its stack was taken: blocked throughout */
		uint64_t w = ts - o->last_ts;
		o->last_ts = ts;
		put_samples(t, tid, ts, w, &o->owed, o->npc, o->pc);
		return;
	}
	o->have = 0;
	for (int tries = 0; tries < 2; tries++) {
		uint64_t sp, pc;
		if (read_blocked_at(tid, &sp, &pc))
			return; /* on a CPU: its CPU-time timer samples it */
		uint32_t n = unwind_blocked(pc, sp, o->pc, S.cfg.depth);
		uint64_t run2;
		if (read_runs(tid, &run2))
			return;
		if (run2 != run_ns) {
			/* it ran while we read: the stack may be torn */
			run_ns = run2;
			continue;
		}
		o->npc = n;
		o->run_ns = run_ns;
		o->have = 1;
		o->last_ts = ts;
		put_samples(t, tid, ts, since, &o->owed, n, o->pc);
		return;
	}
}

static void *offcpu_main(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	real_pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_store_n(&own_tid, (int)sys_gettid(), __ATOMIC_RELEASE);
	uint64_t tick = S.period_ns;
	if (tick < 1000000000u / OFFCPU_MAX_HZ)
		tick = 1000000000u / OFFCPU_MAX_HZ;
	uint64_t next = now_ns(), prev = next;
	for (;;) {
		/* all signals blocked here: nothing can cut this short.  A
		 * look that comes late skips the ticks it missed, and counts
		 * the time since the last look (look()) */
		next += tick;
		uint64_t now = now_ns();
		if (next < now)
			next = now;
		struct timespec at = {(time_t)(next / 1000000000u),
				      (long)(next % 1000000000u)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		if (__atomic_load_n(&oc_stop_flag, __ATOMIC_ACQUIRE))
			break;
		if (S.watch)
			S.watch(); /* process_watch(), through the pointer */
		uint64_t ts = now_ns();
		uint64_t since = ts - prev;
		prev = ts;
		if (__atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE) ||
		    !__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE))
			continue;
		/* no walk while a thread forks (process_fork_prepare()) */
		__atomic_store_n(&S.offcpu_walking, 1, __ATOMIC_SEQ_CST);
		for (int i = 0; i < SAMPLER_MAX_THREADS &&
				!__atomic_load_n(&S.forking, __ATOMIC_SEQ_CST);
		     i++)
			if (oc[i].tid ||
			    __atomic_load_n(&S.slots[i].tid, __ATOMIC_RELAXED))
				look(i, ts, since);
		__atomic_store_n(&S.offcpu_walking, 0, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

void offcpu_start(void)
{
	if (!S.cfg.wall)
		return;
	uint32_t was = __atomic_load_n(&started_pid, __ATOMIC_ACQUIRE);
	if (was == S.pid ||
	    !__atomic_compare_exchange_n(&started_pid, &was, S.pid, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	/* a fork child: the table and the task folder were the parent's */
	if (task_dir >= 0)
		close(task_dir);
	task_dir = -1;
	if (!oc)
		oc = calloc(SAMPLER_MAX_THREADS, sizeof(*oc));
	else
		for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
			oc[i].tid = oc[i].have = 0;
	if (!oc)
		return;
	int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	task_dir = fd_high(fd);
	/* a fork child's own address space: the parent's caches and their
	 * lock may have been in use by its off-CPU thread at the fork */
	if (!oc_as || started_as_pid != S.pid) {
		static unw_accessors_t acc = {
			.find_proc_info = acc_find_proc_info,
			.put_unwind_info = acc_put_unwind_info,
			.get_dyn_info_list_addr = acc_get_dyn_info_list_addr,
			.access_mem = acc_access_mem,
			.access_reg = acc_access_reg,
			.access_fpreg = acc_access_fpreg,
			.resume = acc_resume,
			.get_proc_name = acc_get_proc_name,
		};
		oc_as = unw_create_addr_space(&acc, 0);
		started_as_pid = S.pid;
		if (oc_as)
			unw_set_caching_policy(oc_as, UNW_CACHE_GLOBAL);
	}
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 256 << 10);
	__atomic_store_n(&own_tid, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&oc_stop_flag, 0, __ATOMIC_RELEASE);
	int rc = sampler_thread_create(&oc_thread, &a, offcpu_main, NULL);
	pthread_attr_destroy(&a);
	if (rc) {
		__atomic_store_n(&started_pid, 0, __ATOMIC_RELEASE);
		return;
	}
	/* its tid before anyone lists the threads of the process
	 * (process_adopt_threads() runs next in the constructor) */
	for (int i = 0; i < 100000 &&
			!__atomic_load_n(&own_tid, __ATOMIC_ACQUIRE);
	     i++)
		sched_yield();
}

int offcpu_stop(void)
{
	/* started in this process (a fork child never has its parent's) */
	if (__atomic_load_n(&started_pid, __ATOMIC_ACQUIRE) != S.pid)
		return 0;
	__atomic_store_n(&oc_stop_flag, 1, __ATOMIC_RELEASE);
	pthread_join(oc_thread, NULL);
	__atomic_store_n(&own_tid, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&started_pid, 0, __ATOMIC_RELEASE);
	return 1;
}

int offcpu_owns(int tid)
{
	int own = __atomic_load_n(&own_tid, __ATOMIC_ACQUIRE);
	return own && own == tid &&
	       __atomic_load_n(&started_pid, __ATOMIC_ACQUIRE) == S.pid;
}
