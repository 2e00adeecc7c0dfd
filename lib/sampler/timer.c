/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timer: one sampling timer per thread.
 *
 * CPU time: a perf_event task-clock counter on the thread, overflowing
 * every period and delivered as our signal to that thread (O_ASYNC,
 * F_SETSIG, F_SETOWN_EX).  PERF_EVENT_IOC_REFRESH lets it overflow
 * PERF_BATCH times; the last overflow's signal (POLL_HUP) disables it
 * and its handler refreshes it (timer_rearm()).  So at most PERF_BATCH
 * signals are ever queued for a thread that blocks ours, and the
 * ioctl() is paid once per PERF_BATCH samples: on this VM a refresh
 * after every sample cost about 20 us a sample more than letting the
 * event run (test/bench/timer-cost.sh).  Unlike POSIX CPU-time timers, which fire only
 * on the scheduler tick (250 Hz on a CONFIG_HZ=250 kernel), it keeps the
 * rate asked for.  Where perf events are not allowed (seccomp,
 * perf_event_paranoid 3), a timer_create() timer on the thread's CPU
 * clock with SIGEV_THREAD_ID is the fallback; its si_overrun makes up the
 * weight of ticks it could not deliver.
 *
 * Wall-clock time (--wall): the same CPU-time timers for the time a
 * thread runs, and offcpu.c for the time it is blocked.  A timer on
 * CLOCK_MONOTONIC would signal blocked threads, and a signal ends
 * nanosleep, poll, sem_timedwait... with EINTR (issue 13, item 2).  A
 * thread's CPU-time clock does not advance while it sleeps; a POSIX
 * CPU-timer expiry is handled on the way back to user mode (kernels with
 * CONFIG_POSIX_CPU_TIMERS_TASK_WORK: x86-64 since 5.11), after any system
 * call; the perf event is armed with exclude_kernel, so that it overflows
 * only in user mode and its signal never lands inside a system call.
 * See offcpu.c for the figures.
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

static int arm_perf(struct tslot *t)
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
	/* CPU time is user + system time: count the kernel too where the
	 * kernel lets us (perf_event_paranoid < 2, or privileged); else
	 * user time only.  Not with --wall: an overflow in the kernel sends
	 * the signal at once, and one that lands before the thread sleeps
	 * ends its nanosleep or poll early (see the top of this file) */
	static int kernel_ok = 1;
	int fd = -1;
	if (!S.cfg.wall && __atomic_load_n(&kernel_ok, __ATOMIC_RELAXED)) {
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
	t->perf_fd = fd;
	t->tk = TK_PERF;
	__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, PERF_BATCH)) {
		__atomic_store_n(&t->armed, 0, __ATOMIC_RELEASE);
		t->perf_fd = -1;
		t->tk = TK_NONE;
		close(fd);
		return -1;
	}
	return 0;
}

static int arm_posix(struct tslot *t)
{
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = S.cfg.signo;
	sev.sigev_value.sival_ptr = t;
	sev._sigev_un._tid = t->tid;
	if (timer_create(thread_cpu_clock(t->tid), &sev, &t->timer))
		return -1;
	struct itimerspec its;
	its.it_interval.tv_sec = (time_t)(S.period_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(S.period_ns % 1000000000u);
	its.it_value = its.it_interval;
	if (timer_settime(t->timer, 0, &its, NULL)) {
		timer_delete(t->timer);
		return -1;
	}
	t->tk = TK_POSIX;
	return 0;
}

/*
 * --wall takes the perf event at any rate unless --timer=posix asked
 * otherwise.  A POSIX CPU timer is checked on scheduler ticks that find
 * its thread running, so a thread that runs in bursts shorter than the
 * tick gets fewer samples, each weighing more (si_overrun); in a wall
 * profile, where blocked time is counted per sample, its bursts would
 * look shorter than they are (test/programs/sleeper at 250 Hz: 64
 * samples in the 1 ms busy part against 143 in the 1 ms sleep; 120
 * against 154 with the perf event).  Not from a signal handler (getenv).
 */
static int wall_wants_perf(void)
{
	static int wants = -1; /* read once: the program may change its
				  environment */
	if (!S.cfg.wall)
		return 0;
	int w = __atomic_load_n(&wants, __ATOMIC_RELAXED);
	if (w < 0) {
		const char *tk = getenv("MAPSAMPLE_TIMER");
		w = !(tk && strcmp(tk, "posix") == 0);
		__atomic_store_n(&wants, w, __ATOMIC_RELAXED);
	}
	return w;
}

int timer_arm(struct tslot *t)
{
	if (t->armed)
		return 0;
	int rc = -1;
	if (S.tk != TK_POSIX && (!S.cfg.force_posix || wall_wants_perf()))
		rc = arm_perf(t);
	if (rc)
		rc = arm_posix(t);
	if (rc == 0) {
		if (S.tk == TK_NONE)
			S.tk = t->tk;
		__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
	}
	return rc;
}

void timer_disarm(struct tslot *t)
{
	if (!__atomic_exchange_n(&t->armed, 0, __ATOMIC_ACQ_REL))
		return;
	if (t->tk == TK_PERF) {
		if (fd_still(t->perf_fd, t->perf_dev, t->perf_ino)) {
			ioctl(t->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
			close(t->perf_fd);
		}
		t->perf_fd = -1;
	} else if (t->tk == TK_POSIX) {
		timer_delete(t->timer);
	}
	t->tk = TK_NONE;
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
	if (t->tk == TK_PERF) {
		if (fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
			syscall(SYS_fcntl, t->perf_fd, F_SETSIG, signo);
		return;
	}
	if (t->tk != TK_POSIX)
		return;
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev.sigev_value.sival_ptr = t;
	sev._sigev_un._tid = t->tid;
	int id;
	if (syscall(SYS_timer_create, thread_cpu_clock(t->tid), &sev, &id))
		return;
	struct itimerspec its;
	its.it_interval.tv_sec = (time_t)(S.period_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(S.period_ns % 1000000000u);
	its.it_value = its.it_interval;
	if (syscall(SYS_timer_settime, id, 0, &its, NULL)) {
		syscall(SYS_timer_delete, id);
		return;
	}
	/* glibc's timer_t of a SIGEV_THREAD_ID timer is the kernel's id */
	timer_t old = t->timer;
	t->timer = (timer_t)(intptr_t)id;
	syscall(SYS_timer_delete, (int)(intptr_t)old);
}

void timer_rearm(struct tslot *t, const siginfo_t *si)
{
	/* only the batch's last overflow (POLL_HUP) disabled the event, and
	 * only one of the event the slot has now (not one queued before a
	 * re-arm) */
	if (t->tk == TK_PERF && __atomic_load_n(&t->armed, __ATOMIC_ACQUIRE) &&
	    si->si_code == POLL_HUP && si->si_fd == t->perf_fd)
		syscall(SYS_ioctl, t->perf_fd, PERF_EVENT_IOC_REFRESH,
			PERF_BATCH);
}

void timer_check(struct tslot *t)
{
	if (t->tk != TK_PERF || !__atomic_load_n(&t->armed, __ATOMIC_ACQUIRE) ||
	    fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
		return;
	/* the number is the program's now: forgotten, not closed */
	__atomic_store_n(&t->armed, 0, __ATOMIC_RELEASE);
	t->perf_fd = -1;
	t->tk = TK_NONE;
	if (arm_perf(t) && arm_posix(t) == 0)
		__atomic_store_n(&t->armed, 1, __ATOMIC_RELEASE);
}

void timer_forget(struct tslot *t)
{
	if (t->tk == TK_PERF && fd_still(t->perf_fd, t->perf_dev, t->perf_ino))
		close(t->perf_fd);
	t->armed = 0;
	t->tk = TK_NONE;
}
