/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * guard: a deadline and a crash net around a metric plugin's getter.
 *
 * The API asks getters to be quick and async-signal-safe, but a getter
 * that sleeps, spins, waits for a lock the interrupted code holds
 * (malloc) or crashes would stall, hang or kill the program with nothing
 * naming the plugin.  The metric host (mhost.c) calls each getter as
 *
 *     if (sigsetjmp(guard_env, 1)) { guard_why(), the plugin is off }
 *     guard_enter(); call the getter; guard_leave();
 *
 * guard_enter() arms a one-shot CLOCK_MONOTONIC timer that sends the
 * sampling signal to this thread, with &G as its value, at the deadline
 * (MAPSAMPLE_GETTER_TIMEOUT_MS, default GUARD_DEFAULT_MS), and unblocks
 * the sampling signal, which is blocked inside its own handler, and the
 * fault signals, which the sampler's own threads (idle ticks) block.  If the
 * getter is still running then, handler.c hands the signal to
 * guard_signal(), which jumps back to the sigsetjmp.  A SIGSEGV, SIGBUS,
 * SIGILL or SIGFPE inside the getter reaches fatal.c, which asks
 * guard_fault() to do the same.  The caller disables the plugin for the
 * rest of the run and logs why.
 *
 * The deadline counts the getter's own time, not the time the machine
 * kept it waiting for a CPU: on a loaded node (a program at nice 19
 * beside busy loops) a getter that reads /proc took over 250 ms of wall
 * time, and every metric plugin of the run was disabled with nothing
 * wrong in it.  So when the deadline's signal comes, the guard reads the
 * thread's time on the run queue (/proc/thread-self/schedstat, the
 * kernel's run_delay), arms a probe of half the deadline, and lets the
 * getter go on; when the probe ends, a getter that spent at least half
 * of it waiting for a CPU gets another probe (up to GUARD_STARVED_MAX_NS
 * past the deadline), any other is stopped.  A getter that sleeps or
 * spins is thus stopped at one and a half deadlines; without schedstat,
 * at the deadline as before.
 *
 * One getter runs at a time in a process (mhost's busy flag), so there
 * is one guard.  The timer is kept while getters run on the same thread
 * of the same process (two system calls per getter: arm and disarm) and
 * made anew otherwise; a forked child never touches its parent's timer
 * id.  The sampling timer's own signals carry a slot's address, never
 * &G.  Every function here is async-signal-safe (raw system calls,
 * sigprocmask through real.c, siglongjmp from a handler the guard
 * armed).
 *
 * Calls real.c below it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

sigjmp_buf guard_env;

static struct {
	volatile int active;   /* a getter runs under the guard */
	volatile uint32_t tid; /* on this thread */
	volatile int why;      /* GUARD_TIMEOUT or GUARD_CRASH */
	volatile int sig;      /* the crash's signal */
	int timer;             /* kernel timer id */
	uint32_t timer_tid, timer_pid;
	int timer_sig;         /* the signal it sends (the sampling signal
				  may move: sigown.c) */
	int have_timer;
	uint64_t deadline_ns;
	sigset_t saved;
	/* the probe under way (guard_signal()): its start, on the
	 * monotonic clock, and the thread's run-queue time then; 0 none */
	uint64_t probe_at, probe_wait;
	uint64_t extended_ns; /* the probes' time so far */
} G;

/* Past the deadline, the most a getter kept waiting for a CPU is given */
#define GUARD_STARVED_MAX_NS 5000000000ull

/* The calling thread's time on the run queue, ns (schedstat's second
 * field); 0 when it cannot be read.  Raw system calls: async-signal-safe.
 * (Its few bytes count as the program's reads in /proc/self/io; it runs
 * only for a getter past its deadline.) */
static uint64_t run_delay_ns(void)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/schedstat",
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[96];
	long n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *c = buf;
	while (*c >= '0' && *c <= '9')
		c++;
	if (*c != ' ')
		return 0;
	c++;
	uint64_t v = 0;
	int digits = 0;
	for (; *c >= '0' && *c <= '9'; c++, digits++)
		v = v * 10 + (uint64_t)(*c - '0');
	return digits ? v : 0;
}

void guard_init(void)
{
	G.deadline_ns = (uint64_t)GUARD_DEFAULT_MS * 1000000u;
	const char *v = getenv("MAPSAMPLE_GETTER_TIMEOUT_MS");
	if (v && *v) {
		char *end;
		unsigned long ms = strtoul(v, &end, 10);
		if (*end == '\0' && ms > 0 && ms <= 3600000ul)
			G.deadline_ns = (uint64_t)ms * 1000000u;
	}
}

uint64_t guard_timeout_ms(void)
{
	return G.deadline_ns / 1000000u;
}

/* A timer that signals this thread; 0 or -1.  Async-signal-safe. */
static int timer_for(uint32_t tid, uint32_t pid)
{
	int signo = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	if (G.have_timer && G.timer_tid == tid && G.timer_pid == pid &&
	    G.timer_sig == signo)
		return 0;
	if (G.have_timer && G.timer_pid == pid)
		syscall(SYS_timer_delete, G.timer);
	G.have_timer = 0;
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev.sigev_value.sival_ptr = &G;
	sev._sigev_un._tid = (pid_t)tid;
	int id;
	if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id))
		return -1;
	G.timer = id;
	G.timer_tid = tid;
	G.timer_pid = pid;
	G.timer_sig = signo;
	G.have_timer = 1;
	return 0;
}

static void timer_set(uint64_t ns)
{
	struct itimerspec its;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(ns / 1000000000u);
	its.it_value.tv_nsec = (long)(ns % 1000000000u);
	syscall(SYS_timer_settime, G.timer, 0, &its, NULL);
}

/* Async-signal-safe. */
void guard_enter(void)
{
	uint32_t tid = sys_gettid();
	uint32_t pid = (uint32_t)syscall(SYS_getpid);
	G.why = 0;
	G.sig = 0;
	G.tid = tid;
	G.probe_at = 0;
	G.extended_ns = 0;
	int timed = timer_for(tid, pid) == 0;
	__atomic_store_n(&G.active, 1, __ATOMIC_SEQ_CST);
	if (timed)
		timer_set(G.deadline_ns);
	/* the deadline's signal, and the faults: a fault raised while
	 * blocked (the sampler's own threads block everything) kills the
	 * process without running any handler */
	sigset_t set;
	sigemptyset(&set);
	if (timed)
		sigaddset(&set, S.cfg.signo);
	sigaddset(&set, SIGSEGV);
	sigaddset(&set, SIGBUS);
	sigaddset(&set, SIGILL);
	sigaddset(&set, SIGFPE);
	real_pthread_sigmask(SIG_UNBLOCK, &set, &G.saved);
}

/* Async-signal-safe.  Also after a jump back: the timer is disarmed and
 * the mask (restored by siglongjmp) set again. */
void guard_leave(void)
{
	__atomic_store_n(&G.active, 0, __ATOMIC_SEQ_CST);
	if (G.have_timer)
		timer_set(0);
	real_pthread_sigmask(SIG_SETMASK, &G.saved, NULL);
}

int guard_why(int *sig)
{
	if (sig)
		*sig = G.sig;
	return G.why;
}

/* From the sampling signal's handler, first thing.  Async-signal-safe. */
int guard_signal(const siginfo_t *si)
{
	if (si->si_code != SI_TIMER || si->si_value.sival_ptr != (void *)&G)
		return 0;
	if (__atomic_load_n(&G.active, __ATOMIC_SEQ_CST) &&
	    G.tid == sys_gettid()) {
		/* the deadline, or the end of a probe: starved of CPU? */
		uint64_t now = now_ns(), wait = run_delay_ns();
		uint64_t probe = G.deadline_ns / 2;
		int again = 0;
		if (wait && !G.probe_at)
			again = 1; /* the deadline: measure from here */
		else if (wait && G.probe_at && now > G.probe_at) {
			uint64_t span = now - G.probe_at;
			uint64_t waited = wait - G.probe_wait;
			G.extended_ns += span;
			again = waited >= span / 2 &&
				G.extended_ns < GUARD_STARVED_MAX_NS;
		}
		if (again) {
			G.probe_at = now;
			G.probe_wait = wait;
			timer_set(probe ? probe : 1);
			return 1;
		}
		__atomic_store_n(&G.active, 0, __ATOMIC_SEQ_CST);
		G.why = GUARD_TIMEOUT;
		siglongjmp(guard_env, 1);
	}
	return 1; /* late: the getter returned just before */
}

/* Is fault sig on this thread inside a guarded getter?
 * Async-signal-safe. */
int guard_catches(int sig)
{
	if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE)
		return 0;
	return __atomic_load_n(&G.active, __ATOMIC_SEQ_CST) &&
	       G.tid == sys_gettid();
}

/* From fatal.c's handler, when guard_catches(sig): jumps back to the
 * getter's caller.  Async-signal-safe. */
void guard_fault(int sig)
{
	__atomic_store_n(&G.active, 0, __ATOMIC_SEQ_CST);
	G.why = GUARD_CRASH;
	G.sig = sig;
	siglongjmp(guard_env, 1);
}
