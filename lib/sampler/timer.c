/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timer: the sampling timers of each thread.
 *
 * Three kinds of timer deliver the sampling signal to a thread:
 *
 * - a perf_event task-clock counter on the thread, overflowing every
 *   period and delivered as our signal to that thread (O_ASYNC,
 *   F_SETSIG, F_SETOWN_EX).  PERF_EVENT_IOC_REFRESH lets it overflow
 *   PERF_BATCH times; the last overflow's signal (POLL_HUP) disables it
 *   and its handler refreshes it (timer_rearm()).  So at most PERF_BATCH
 *   signals are ever queued for a thread that blocks ours, and the
 *   ioctl() is paid once per PERF_BATCH samples (a refresh after every
 *   sample cost about 20 us a sample more on this VM).  Its overflows
 *   come from a high-resolution timer, not the tick: it keeps the rate
 *   asked for, and where a sample lands does not depend on the tick.
 * - a timer_create() timer on the thread's CPU clock (SIGEV_THREAD_ID,
 *   the slot's address in sival_ptr).  It is checked on the scheduler
 *   tick (250 Hz on a CONFIG_HZ=250 kernel), only on ticks that find its
 *   thread running; its si_overrun makes up the weight of expiries it
 *   could not deliver.  Its expiry is handled on the way back to user
 *   mode (CONFIG_POSIX_CPU_TIMERS_TASK_WORK: x86-64 since 5.11), after
 *   any system call, so its signal never ends a system call early.
 *   Beside busy processes it loses samples of a thread that reads its
 *   own CPU clock: 0 to 25 signals per CPU-second at 250 Hz against
 *   245 without the clock reads (test/bench/bench_timer, README there).
 * - both at once (TK_MIXED, the default): the perf event armed with
 *   exclude_kernel samples the time the thread runs in user mode, and
 *   the POSIX timer the time it runs in the kernel for a system call.
 *   A perf event that counts kernel time can overflow inside a system
 *   call just before the thread sleeps, and its signal, sent at once,
 *   ends that nanosleep, poll or sem_timedwait early with EINTR (signal
 *   (7): they are never restarted).  With exclude_kernel it overflows
 *   only in user mode, where a signal ends nothing.  The POSIX timer's
 *   signal, handled on the way back to user mode, comes right after the
 *   system call it found the thread in: the handler keeps such a signal
 *   as a sample (the interrupted context is at the system-call
 *   instruction's return address), and one whose tick found the thread
 *   in other kernel work such as a page fault (its system time grew by
 *   that tick, handler.c), and drops every other, whose time the perf
 *   event has sampled.  Where the POSIX timer cannot be made, the perf
 *   event alone samples user time.
 *
 * --timer perf arms the perf event alone, counting kernel time too where
 * the kernel lets us (perf_event_paranoid < 2, or privileged): system
 * time sampled at the exact rate, at the risk of the early EINTR above.
 * --timer posix arms the POSIX timer alone.  Where perf events are not
 * allowed (seccomp, perf_event_paranoid 3) the POSIX timer alone is the
 * fallback of every mode.
 *
 * Wall-clock time (--wall): the same CPU-time timers for the time a
 * thread runs (the perf event never counting kernel time), and offcpu.c
 * for the time it is blocked.  A timer on CLOCK_MONOTONIC would signal
 * blocked threads, and a signal ends nanosleep, poll, sem_timedwait...
 * with EINTR (issue 13, item 2); a thread's CPU-time clock does not
 * advance while it sleeps.  See offcpu.c for the figures.
 *
 * A leaf: it calls nothing of ours (it reads the configuration in S).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

#ifndef F_SETSIG
#define F_SETSIG 10
#endif

/* Overflows a perf event may signal before the handler refreshes it:
 * the most signals queued per thread (real-time signals count against
 * RLIMIT_SIGPENDING; when one cannot be queued the kernel sends SIGIO
 * instead, which would end the program). */
#define PERF_BATCH 8

/* Descriptors our perf events were ever opened on: a signal that names
 * one (si_fd) is a sample, also one still queued after the event was
 * closed.  Bits are set, never cleared. */
#define FD_BITS 65536
static unsigned long perf_fds[FD_BITS / (8 * sizeof(unsigned long))];

static void fd_mark(int fd)
{
	if (fd >= 0 && fd < FD_BITS)
		__atomic_fetch_or(&perf_fds[fd / (8 * sizeof(unsigned long))],
				  1ul << (fd % (8 * sizeof(unsigned long))),
				  __ATOMIC_RELEASE);
}

int timer_fd_ours(int fd)
{
	if (fd < 0 || fd >= FD_BITS)
		return 0;
	return (__atomic_load_n(&perf_fds[fd / (8 * sizeof(unsigned long))],
				__ATOMIC_ACQUIRE) >>
		(fd % (8 * sizeof(unsigned long)))) & 1;
}

/*
 * Opens and starts t's perf event.  user_only: never count kernel time
 * (also without it with --wall, or where the kernel refuses).  kind:
 * what t->tk becomes (TK_PERF, or TK_MIXED with the POSIX timer made
 * and still to start).
 */
static int arm_perf(struct tslot *t, int user_only, enum timer_kind kind)
{
	struct perf_event_attr pe;
	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_SOFTWARE;
	pe.size = sizeof(pe);
	pe.config = PERF_COUNT_SW_TASK_CLOCK;
	pe.sample_period = S.period_ns;
	pe.disabled = 1;
	pe.exclude_hv = 1;
	pe.wakeup_events = 1;
	/* CPU time is user + system time: --timer perf counts the kernel
	 * too where the kernel lets us (perf_event_paranoid < 2, or
	 * privileged); else user time only.  Not with --wall: an overflow
	 * in the kernel sends the signal at once, and one that lands before
	 * the thread sleeps ends its nanosleep or poll early (see the top
	 * of this file) */
	static int kernel_ok = 1;
	int fd = -1;
	if (!user_only && !S.cfg.wall &&
	    __atomic_load_n(&kernel_ok, __ATOMIC_RELAXED)) {
		fd = (int)syscall(SYS_perf_event_open, &pe, t->tid, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			__atomic_store_n(&kernel_ok, 0, __ATOMIC_RELAXED);
	}
	if (fd < 0) {
		pe.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &pe, t->tid, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -1;
	fd = fd_high(fd);
	struct stat st;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	t->perf_dev = (uint64_t)st.st_dev;
	t->perf_ino = (uint64_t)st.st_ino;
	fd_mark(fd);
	struct f_owner_ex own = {F_OWNER_TID, t->tid};
	if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) ||
	    fcntl(fd, F_SETSIG, S.cfg.signo) ||
	    fcntl(fd, F_SETOWN_EX, &own) ||
	    ioctl(fd, PERF_EVENT_IOC_RESET, 0)) {
		close(fd);
		return -1;
	}
	/* armed before the event is enabled: the last overflow of the
	 * batch can come before ioctl() returns, and its handler must
	 * refresh the event or sampling stops there */
	enum timer_kind was = t->tk;
	t->perf_fd = fd;
	__atomic_store_n(&t->tk, kind, __ATOMIC_RELEASE);
	__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, PERF_BATCH)) {
		__atomic_store_n(&t->armed, 0, __ATOMIC_RELEASE);
		t->perf_fd = -1;
		__atomic_store_n(&t->tk, was, __ATOMIC_RELEASE);
		close(fd);
		return -1;
	}
	return 0;
}

/* t's POSIX timer on its CPU clock, made (not started).  Raw system
 * calls (timer_resignal() runs in signal context): the kernel's id is
 * glibc's timer_t of a SIGEV_THREAD_ID timer. */
static int posix_make(struct tslot *t, int signo, timer_t *out)
{
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev.sigev_value.sival_ptr = t;
	sev._sigev_un._tid = t->tid;
	int id;
	if (syscall(SYS_timer_create, thread_cpu_clock(t->tid), &sev, &id))
		return -1;
	*out = (timer_t)(intptr_t)id;
	return 0;
}

/* Starts a timer posix_make() made: every period of CPU time. */
static int posix_start(timer_t id)
{
	struct itimerspec its;
	its.it_interval.tv_sec = (time_t)(S.period_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(S.period_ns % 1000000000u);
	its.it_value = its.it_interval;
	return (int)syscall(SYS_timer_settime, (int)(intptr_t)id, 0, &its,
			    NULL);
}

static void posix_delete(timer_t id)
{
	syscall(SYS_timer_delete, (int)(intptr_t)id);
}

static int arm_posix(struct tslot *t)
{
	if (posix_make(t, S.cfg.signo, &t->timer))
		return -1;
	__atomic_store_n(&t->tk, TK_POSIX, __ATOMIC_RELEASE);
	if (posix_start(t->timer)) {
		posix_delete(t->timer);
		__atomic_store_n(&t->tk, TK_NONE, __ATOMIC_RELEASE);
		return -1;
	}
	return 0;
}

/* The default: the perf event for user time, the POSIX timer for the
 * time in system calls (top of this file). */
static int arm_mixed(struct tslot *t)
{
	if (posix_make(t, S.cfg.signo, &t->timer))
		/* no POSIX timer to be had: user time alone */
		return arm_perf(t, 1, TK_PERF);
	if (arm_perf(t, 1, TK_MIXED)) {
		posix_delete(t->timer);
		return -1;
	}
	if (posix_start(t->timer)) {
		posix_delete(t->timer);
		__atomic_store_n(&t->tk, TK_PERF, __ATOMIC_RELEASE);
	}
	return 0;
}

int timer_arm(struct tslot *t)
{
	if (t->armed)
		return 0;
	int rc = -1;
	/* once perf events failed in this process, the POSIX timer alone */
	if (S.tk != TK_POSIX) {
		if (S.cfg.timer == TM_MIXED)
			rc = arm_mixed(t);
		else if (S.cfg.timer == TM_PERF)
			rc = arm_perf(t, 0, TK_PERF);
	}
	if (rc)
		rc = arm_posix(t);
	if (rc == 0) {
		if (S.tk == TK_NONE)
			S.tk = t->tk;
		__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
	}
	return rc;
}

static int has_perf(const struct tslot *t)
{
	return t->tk == TK_PERF || t->tk == TK_MIXED;
}

static int has_posix(const struct tslot *t)
{
	return t->tk == TK_POSIX || t->tk == TK_MIXED;
}

void timer_disarm(struct tslot *t)
{
	if (!__atomic_exchange_n(&t->armed, 0, __ATOMIC_ACQ_REL))
		return;
	if (has_perf(t)) {
		if (fd_still(t->perf_fd, t->perf_dev, t->perf_ino)) {
			ioctl(t->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
			close(t->perf_fd);
		}
		t->perf_fd = -1;
	}
	if (has_posix(t))
		posix_delete(t->timer);
	__atomic_store_n(&t->tk, TK_NONE, __ATOMIC_RELEASE);
}

/*
 * After a move of the sampling signal (sigown.c): a perf event is told
 * the new signal (F_SETSIG, from any thread); a POSIX timer cannot be,
 * so a new one is made for the thread first and the old one deleted.
 * Raw system calls only: async-signal-safe.
 */
void timer_resignal(struct tslot *t)
{
	if (!__atomic_load_n(&t->armed, __ATOMIC_ACQUIRE))
		return;
	int signo = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	if (has_perf(t) && fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
		syscall(SYS_fcntl, t->perf_fd, F_SETSIG, signo);
	if (!has_posix(t))
		return;
	timer_t id;
	if (posix_make(t, signo, &id))
		return;
	if (posix_start(id)) {
		posix_delete(id);
		return;
	}
	timer_t old = t->timer;
	t->timer = id;
	posix_delete(old);
}

void timer_rearm(struct tslot *t, const siginfo_t *si)
{
	/* only the batch's last overflow (POLL_HUP) disabled the event, and
	 * only one of the event the slot has now (not one queued before a
	 * re-arm) */
	if (has_perf(t) && __atomic_load_n(&t->armed, __ATOMIC_ACQUIRE) &&
	    si->si_code == POLL_HUP && si->si_fd == t->perf_fd)
		syscall(SYS_ioctl, t->perf_fd, PERF_EVENT_IOC_REFRESH,
			PERF_BATCH);
}

void timer_check(struct tslot *t)
{
	if (!has_perf(t) || !__atomic_load_n(&t->armed, __ATOMIC_ACQUIRE) ||
	    fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
		return;
	/* the number is the program's now: forgotten, not closed */
	__atomic_store_n(&t->armed, 0, __ATOMIC_RELEASE);
	t->perf_fd = -1;
	if (t->tk == TK_MIXED) {
		/* the POSIX timer runs on: a new perf event beside it, or
		 * the POSIX timer alone samples all of the CPU time */
		if (arm_perf(t, 1, TK_MIXED)) {
			__atomic_store_n(&t->tk, TK_POSIX, __ATOMIC_RELEASE);
			__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
		}
		return;
	}
	__atomic_store_n(&t->tk, TK_NONE, __ATOMIC_RELEASE);
	if (arm_perf(t, 0, TK_PERF) && arm_posix(t) == 0)
		__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
}

void timer_forget(struct tslot *t)
{
	/* a fork child: the parent's perf events were inherited as
	 * descriptors, its POSIX timers were not */
	if (has_perf(t) && fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
		close(t->perf_fd);
	t->armed = 0;
	t->tk = TK_NONE;
}
