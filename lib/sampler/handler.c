/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * handler: the sampling signal and what it runs.  handler_install() makes
 * handler_signal() the action of the sampling signal (cfg.signo); each
 * thread's timer (timer.c) sends it that signal.  Modules that want to do
 * something at each sample register a callback with handler_register()
 * from the constructor, before the handler is installed, as clients of
 * gperftools' profile-handler do: the stack sample (sample.c) first, then
 * the metric host's tick (mhost.c).  The handler itself knows neither.
 *
 * handler_signal() is async-signal-safe end to end, and so must be every
 * callback: no malloc, no stdio, no locks the interrupted code may hold.
 * It saves and restores errno, finds the thread's slot (slot.c), takes
 * the slot's `busy` flag, which is both the recursion guard (a signal
 * that lands while the thread is already inside the handler is dropped
 * and counted) and one half of the handshake with a closer (see
 * sampler_i.h), and leaves at once when the slot or the process is
 * closing.  A signal that interrupted the sampler's own code is dropped
 * (counted) before any callback runs.  Otherwise the callbacks run in
 * the order registered, on the slot they are given, whose only writer
 * they are while they run; then a perf event whose batch of overflows
 * ran out is refreshed (timer.c).
 *
 * A getter's deadline timer (guard.c) sends the same signal; guard.c
 * takes it first.
 *
 * Not every signal of that number is ours: the program may send it, or
 * arm a timer of its own with it.  Ours are told apart by how they were
 * sent: a POSIX timer's carries a slot's address (SI_TIMER), a perf
 * event's the event's descriptor (POLL_IN..POLL_HUP, si_fd; timer.c
 * knows which descriptors are ours).  Any other goes to the callback
 * handler_set_foreign() gave (sigown.c: the program's action, as the
 * kernel would take it) and is never a sample.
 *
 * The program's view of its mask: the sampler keeps the sampling signal
 * unblocked, and remembers per thread whether the program asked for it
 * blocked (handler_app_blocked, about signal handler_mask_sig).  When
 * the sampling signal moved (sigown.c) since a thread last looked, the
 * first sample on the new signal puts the old one back as the program
 * left it, in the mask the thread returns to (uc_sigmask).
 *
 * With the default timers (timer.c, TK_MIXED) a thread has two: the
 * perf event samples its user time, and of its POSIX timer's signals
 * only those of ticks that found the thread in the kernel are samples
 * (of the system time); the others leave at once, uncounted.  A tick in
 * a system call is known by the context it returns to (in_syscall());
 * one in other kernel work done for the thread (a page fault) by the
 * thread's system time, which the kernel charges tick by tick: it grew
 * by at least half the CPU time since the last signal (kernel_tick()).
 * The sample of such a tick is charged to the instruction that entered
 * the kernel, as perf charges page faults.  It stands for the periods
 * of system time the thread used since the last signal, written that
 * many times (the report counts samples), as long as the thread's
 * samples stay within 2% of its CPU time; a tick in user mode
 * makes up, where the thread runs, for periods that got no sample
 * beyond that (kernel_samples()).  Not the timer's overruns: a signal
 * delayed on a busy machine has overruns for CPU time that was mostly
 * user time, which the perf event sampled.
 *
 * Calls guard.c, slot.c and timer.c below it, and the callbacks through
 * pointers.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <ucontext.h>

#include "sampler/sampler_i.h"

/* Samples one tick of the system-time timer writes at the most. */
#define HANDLER_MAX_REPEAT 64

static handler_fn callbacks[HANDLER_MAX_CALLBACKS];
static int ncallbacks;
static handler_foreign_fn foreign;

__thread int handler_app_blocked __attribute__((tls_model("initial-exec")));
__thread int handler_mask_sig __attribute__((tls_model("initial-exec")));

void handler_set_foreign(handler_foreign_fn fn)
{
	__atomic_store_n(&foreign, fn, __ATOMIC_RELEASE);
}

/* Was this signal sent by the sampler's own timers?  Async-signal-safe. */
static int ours(const siginfo_t *si)
{
	if (si->si_code == SI_TIMER) {
		const char *p = si->si_value.sival_ptr;
		const char *lo = (const char *)&S.slots[0];
		const char *hi = (const char *)&S.slots[SAMPLER_MAX_THREADS];
		return p >= lo && p < hi &&
		       (size_t)(p - lo) % sizeof(struct tslot) == 0;
	}
	if (si->si_code >= POLL_IN && si->si_code <= POLL_HUP)
		return timer_fd_ours(si->si_fd);
	return 0;
}

/*
 * The calling thread's mask after a move of the sampling signal: the
 * old one as the program left it (blocked if it asked for that), the new
 * one unblocked, the thread's view now about the new one.  mask is the
 * mask to change (the thread's own, or the one a handler returns to).
 * Async-signal-safe.
 */
void handler_fix_mask(sigset_t *mask)
{
	int now = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	int was = handler_mask_sig;
	if (was == now)
		return;
	if (was > 0 && was < NSIG) {
		if (handler_app_blocked)
			sigaddset(mask, was);
		else
			sigdelset(mask, was);
	}
	handler_app_blocked = sigismember(mask, now) == 1;
	sigdelset(mask, now);
	handler_mask_sig = now;
}

int handler_register(handler_fn fn)
{
	int n = __atomic_load_n(&ncallbacks, __ATOMIC_RELAXED);
	if (n >= HANDLER_MAX_CALLBACKS)
		return -1;
	callbacks[n] = fn;
	__atomic_store_n(&ncallbacks, n + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Is pc inside libmapsampler itself? */
static int in_self(uint64_t pc)
{
	return pc >= S.self_lo && pc < S.self_hi;
}

/*
 * Was the interrupted context returning from a system call?  The x86-64
 * "syscall" instruction leaves its return address in %rcx, and the
 * kernel returns to user mode with %rcx as it was, so a signal handled
 * on the way out of a system call finds %rcx equal to %rip, or to %rip
 * + 2 when the call is to be restarted (the kernel moved %rip back onto
 * the 2-byte instruction).  Code interrupted elsewhere almost never has
 * its own address in %rcx.  Reads registers only: async-signal-safe.
 */
static int in_syscall(const ucontext_t *uc)
{
#if defined(__x86_64__)
	uint64_t ip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	uint64_t cx = (uint64_t)uc->uc_mcontext.gregs[REG_RCX];
	return cx == ip || cx == ip + 2;
#else
	(void)uc;
	return 0;
#endif
}

/*
 * Did the tick that sent t's POSIX-timer signal find the thread in the
 * kernel?  On a kernel that accounts CPU time by ticks, a thread's
 * system time grows by a tick when a tick finds it in the kernel, its
 * user time when one finds it in user mode (scaled so that the two add
 * up to its CPU time), and the timer's expiry is checked on the same
 * tick, after that.  So: the system time grew by half or more of the
 * CPU time since the last signal.  (A test program alternating page
 * faults and a user loop, 250 Hz: 818 of 860 ticks in the faults and 0
 * of 903 in the loop said so.)  Not a count: on a busy machine a thread
 * is switched in and out on ticks, and the ticks that find it in the
 * kernel then are not a fair draw of its time.
 *
 * Also keeps the books: adds to t->ktick_debt the CPU time since the
 * last signal less a period for each of the perf event's signals since
 * then.  Returns -1 when there is no last signal to count from (the
 * first, or the slot's times were another thread's: a slot used again,
 * a fork child).  One raw system call: async-signal-safe.
 */
static int kernel_tick(struct tslot *t, int64_t *ds_out)
{
	*ds_out = 0;
	struct rusage ru;
	if (syscall(SYS_getrusage, RUSAGE_THREAD, &ru))
		return -1;
	int64_t sys = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	int64_t all = sys + (int64_t)ru.ru_utime.tv_sec * 1000000 +
		      ru.ru_utime.tv_usec;
	uint64_t uc = __atomic_load_n(&t->ucount, __ATOMIC_RELAXED);
	int was = t->ktick_set;
	int64_t ds = sys - t->ktick_sys, da = all - t->ktick_all;
	uint64_t du = uc - t->ktick_ucount;
	t->ktick_sys = sys;
	t->ktick_all = all;
	t->ktick_ucount = uc;
	t->ktick_set = 1;
	if (!was || da < 0 || ds < 0 || du > (1u << 30)) {
		t->ktick_debt = 0;
		t->ktick_carry = 0;
		return -1;
	}
	t->ktick_debt += da * 1000 - (int64_t)(du * S.period_ns);
	/* below kernel_samples()'s band: the perf event's phase, which may
	 * run up to a period ahead */
	int64_t floor_ = -2 * (int64_t)S.period_ns - (int64_t)S.fill_ns;
	if (t->ktick_debt < floor_)
		t->ktick_debt = floor_;
	*ds_out = ds;
	return da > 0 && 2 * ds >= da;
}

/*
 * The samples a signal of t's system-time timer stands for (TK_MIXED);
 * 0 for none.  Two measures, each wrong in its own way:
 *
 * - The system time since the last signal, charged tick by tick: a
 *   tick that found the thread in the kernel (in a system call, or by
 *   its system time) stands for the periods of it owed (the rest of a
 *   period carried to the next), written at the instruction that
 *   entered the kernel.  A fair draw on a quiet machine, so where
 *   kernel time lands is right; but on a busy one a thread is switched
 *   in and out on ticks, and the ticks that find it in the kernel are
 *   not a fair draw: 8 compute threads beside 4 busy shells got up to
 *   10% too many samples from it.
 * - The books (kernel_tick()): the CPU time no sample stands for yet.
 *   Exact in sum, but not where it was spent.  It grows by the system
 *   time and by the periods the perf event let pass without a signal:
 *   those 8 threads got 1% to 8% fewer perf signals than the periods of
 *   their CPU time, though their system time was small (overflows that
 *   fall while the thread is in the kernel for a switch are not sent
 *   with exclude_kernel).
 *
 * So the first decides, and the second keeps it within a band: 2% of
 * the thread's CPU time so far, at least two periods, at most S.fill_ns
 * (four ticks).  A tick in the kernel writes its periods unless the
 * books would go below minus the band (then as many as they allow), and
 * a tick in user mode writes what the books hold past the band, at the
 * instruction the thread was running.  A thread's samples stay within
 * the band of its CPU time's periods, plus the perf event's phase, and
 * the ticks' error in system time wanders inside the band without
 * moving samples.  (syswork faults at 250 Hz: with a band on one side
 * only, 2.5% to 5.6% of its samples were moved from its page faults to
 * its user loop; a compute thread of 0.25 s at 1 kHz got up to 4.5% too
 * many samples from ticks at its start with a band of four ticks.)  At
 * most HANDLER_MAX_REPEAT a tick; what is owed past the band after that
 * is forgotten (a sampler that cannot keep up with the rate asked for is
 * not made to look as if it did).  Async-signal-safe.
 */
static uint32_t kernel_samples(struct tslot *t, const ucontext_t *uc)
{
	int64_t ds;
	int kern = kernel_tick(t, &ds);
	if (kern < 0)
		return 0;
	kern = kern || in_syscall(uc);
	int64_t p = (int64_t)S.period_ns, fill = (int64_t)S.fill_ns;
	/* the band: 2% of the thread's CPU time so far (ktick_all, us),
	 * at least two periods, at most S.fill_ns */
	int64_t band = t->ktick_all * 20;
	if (band < 2 * p)
		band = 2 * p;
	if (band > fill)
		band = fill;
	int64_t debt = t->ktick_debt, n = 0;
	int64_t owed = (int64_t)t->ktick_carry + ds * 1000;
	if (kern) {
		n = owed / p;
		if (debt - n * p > band)
			/* system time the ticks missed: here, in the kernel */
			n = (debt - band + p - 1) / p;
		if (debt - n * p < -band)
			/* system time the books do not show */
			n = debt + band > 0 ? (debt + band) / p : 0;
		if (n > HANDLER_MAX_REPEAT)
			n = HANDLER_MAX_REPEAT;
		owed -= n * p;
		t->ktick_carry = (uint64_t)(owed < 0 ? 0 : owed < p ? owed : p);
	} else {
		/* system time charged to ticks this signal does not stand
		 * for (on a busy machine a signal comes for only some of the
		 * ticks that find the thread running): owed to the next tick
		 * in the kernel */
		t->ktick_carry = (uint64_t)(owed < fill ? owed : fill);
		/* the rest of the books past twice the band (at most
		 * S.fill_ns), here where the thread runs */
		int64_t ufill = 2 * band < fill ? 2 * band : fill;
		if (debt >= ufill)
			n = (debt - ufill) / p + 1;
		if (n > HANDLER_MAX_REPEAT)
			n = HANDLER_MAX_REPEAT;
	}
	debt -= n * p;
	t->ktick_debt = debt < fill ? debt : fill;
	return (uint32_t)n;
}

/* The action of the sampling signal.  Async-signal-safe. */
static void handler_signal(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	int saved_errno = errno;
	if (guard_signal(si)) {
		/* a getter's deadline timer (guard.c) that came late */
		errno = saved_errno;
		return;
	}
	if (!ours(si)) {
		/* the program's own: never a sample */
		handler_foreign_fn fn = __atomic_load_n(&foreign,
						       __ATOMIC_ACQUIRE);
		if (fn)
			fn(sig, si, ucv);
		errno = saved_errno;
		return;
	}
	if (handler_mask_sig != __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE))
		handler_fix_mask(&((ucontext_t *)ucv)->uc_sigmask);
	struct tslot *t = slot_self();
	if (!t || !__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE)) {
		__atomic_fetch_add(&S.unregistered, 1, __ATOMIC_RELAXED);
		errno = saved_errno;
		return;
	}
	sampler_prefetch(t);
	uint32_t repeat = 1;
	uint64_t weight = S.period_ns;
	if (si->si_code != SI_TIMER)
		/* the perf event's: the books of kernel_samples() */
		__atomic_store_n(&t->ucount, t->ucount + 1, __ATOMIC_RELAXED);
	if (si->si_code == SI_TIMER &&
	    __atomic_load_n(&t->tk, __ATOMIC_ACQUIRE) == TK_MIXED) {
		/* the system-time half of the default timers: a tick that
		 * found the thread in user mode is the perf event's to
		 * sample */
		repeat = kernel_samples(t, ucv);
		if (!repeat) {
			errno = saved_errno;
			return;
		}
		weight = repeat * S.period_ns;
	} else if (si->si_code == SI_TIMER && si->si_overrun > 0) {
		weight *= (uint64_t)si->si_overrun + 1;
	}
	if (__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST)) {
		/* landed inside our own handler on this thread: this overflow
		 * may have been the last of the perf event's batch, so
		 * refresh it */
		slot_drop(t, MAPLOG_DROP_IN_SAMPLER, 1);
		timer_rearm(t, si);
		errno = saved_errno;
		return;
	}
	if (__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE))
		goto out;
	if (__atomic_load_n(&S.forking, __ATOMIC_SEQ_CST)) {
		/* another thread forks: no libunwind lock may be held when
		 * it does (process_fork_prepare()) */
		slot_drop(t, MAPLOG_DROP_OTHER, 1);
		goto rearm;
	}

	struct handler_tick tick;
	tick.ts = now_ns();
	tick.weight = weight;
	tick.repeat = repeat;
	tick.uc = ucv;
	tick.ip = (uint64_t)tick.uc->uc_mcontext.gregs[REG_RIP];
	tick.tramp = (uint64_t)__builtin_return_address(0);
	if (in_self(tick.ip)) {
		slot_drop(t, MAPLOG_DROP_IN_SAMPLER, 1);
		goto rearm;
	}
	int n = __atomic_load_n(&ncallbacks, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		callbacks[i](t, &tick);
rearm:
	timer_rearm(t, si);
out:
	__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	errno = saved_errno;
}

void handler_install(int signo)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler_signal;
	/* SA_ONSTACK: on a thread with an alternate signal stack (every
	 * thread of the Go runtime), the handler must run there, not on a
	 * goroutine's small stack */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	real_sigaction(signo, &sa, NULL);
}

void handler_unblock(void)
{
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, S.cfg.signo);
	real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	handler_mask_sig = S.cfg.signo;
}
