/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sigown: whose signal the sampling signal is.  The program must never
 * notice the sampler holds one of its signals, so:
 *
 *   - at start (and in every new image after an exec), a configured
 *     signal the program already uses (it is ignored, handled, blocked or
 *     pending: set by the program's earlier image, its parent, or a
 *     library constructor that ran first) is left alone and a free one
 *     taken instead (sigown_start());
 *   - when the program claims the sampling signal later (installs a
 *     handler for it, waits for it with sigwait*() or signalfd(), sends
 *     it), samples move to a free signal first (move()): every thread's
 *     timer is pointed at the new signal, and once no sample of the old
 *     one is still queued, a handler the program set for the old one
 *     becomes its real action (SIG_DFL and SIG_IGN stay with foreign(),
 *     which takes them as the kernel would on any thread);
 *   - until then, and for any signal of the number the sampler did not
 *     send (handler.c tells them apart), foreign() takes the program's
 *     action as the kernel would: SIG_IGN drops it, SIG_DFL does the
 *     default (a real-time signal ends the process, the exit recorded),
 *     a handler is called, and a signal the thread's program has blocked
 *     is left pending (queued again, now really blocked);
 *   - sigaction() reads what the program set, and sigprocmask() and
 *     pthread_sigmask() read the mask the program set, though the
 *     sampling signal stays unblocked (handler.c keeps each thread's
 *     view).
 *
 * A free signal: a real-time signal, not the one in use, that the
 * program never set an action for, whose action is SIG_DFL, and that no
 * thread with a slot has blocked (/proc/self/task/TID/status, SigBlk).
 * The move says so in one line on standard error.
 *
 * Limits: after a move, a thread other than the mover puts the old
 * signal back in its mask as the program left it at its next sample; a
 * thread that sleeps through the move keeps it unblocked until then, so
 * a signal the program sends the whole process may reach it meanwhile.
 * When no signal is free the two share one: a thread of the program's
 * that blocks it (or waits for it with sigwaitinfo) then gets no samples,
 * and may take a queued sample as its own.
 *
 * Everything here but sigown_start() is async-signal-safe (raw system
 * calls, reads of /proc with open/read, no locks waited for without a
 * bound): the program may call sigaction() from a handler.
 *
 * Calls process.c (the exit of a program killed by the sampling signal's
 * default action), handler.c, timer.c, slot state in S and real.c below
 * it; interpose.c and sampler.c call it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

/* Signals whose real action is the sampler's handler: the sampling
 * signal, and one it moved from while samples of it may still be
 * queued.  What the program set for each is app[sig]. */
static int owned[NSIG];
static struct sigaction app[NSIG];
/* Signals the program set an action for: never taken by a move. */
static int touched[NSIG];
static int moving;

/* ---- /proc/self/task/TID/status, raw ---- */

/* The hexadecimal mask after "key" in tid's status (0 when unread). */
static uint64_t status_mask(int tid, const char *key)
{
	char path[64] = "/proc/self/task/";
	char num[16];
	int n = 0;
	unsigned v = (unsigned)tid;
	do {
		num[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < 15);
	size_t l = strlen(path);
	while (n > 0)
		path[l++] = num[--n];
	memcpy(path + l, "/status", 8);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[2048];
	long got = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	syscall(SYS_close, fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	size_t kl = strlen(key);
	for (char *p = buf; (p = strstr(p, key)); p++) {
		if (p != buf && p[-1] != '\n')
			continue;
		p += kl;
		while (*p == '\t' || *p == ' ')
			p++;
		uint64_t m = 0;
		for (;; p++) {
			int d = *p >= '0' && *p <= '9'   ? *p - '0'
				: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
							 : -1;
			if (d < 0)
				break;
			m = m << 4 | (uint64_t)d;
		}
		return m;
	}
	return 0;
}

static uint64_t bit(int sig)
{
	return 1ull << (sig - 1);
}

/* Signals blocked by any thread with a slot but skip, or pending for
 * one. */
static uint64_t slots_masks(const char *key, int skip)
{
	uint64_t m = 0;
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		int tid = __atomic_load_n(&S.slots[i].tid, __ATOMIC_ACQUIRE);
		if (tid > 0 && tid != skip)
			m |= status_mask(tid, key);
	}
	return m;
}

/* Whether a thread without a slot (one of the sampler's, in the moment
 * after it starts and before it blocks every signal) has sig unblocked:
 * the kernel could give it the program's signal. */
static int unslotted_open(int sig)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[4096];
	int open_ = 0;
	long n;
	while (!open_ && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && !open_;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			int tid = 0;
			for (const char *c = d->name; *c >= '0' && *c <= '9'; c++)
				tid = tid * 10 + (*c - '0');
			if (tid > 0 && !slot_find(tid) &&
			    !(status_mask(tid, "SigBlk:") & bit(sig)))
				open_ = 1;
			off += d->reclen;
		}
	}
	syscall(SYS_close, fd);
	return open_;
}

/* ---- choosing a signal ---- */

static int is_free(int sig, uint64_t blocked)
{
	if (owned[sig] || touched[sig] || (blocked & bit(sig)))
		return 0;
	struct sigaction cur;
	if (real_sigaction(sig, NULL, &cur))
		return 0;
	return cur.sa_handler == SIG_DFL && !(cur.sa_flags & SA_SIGINFO);
}

/* A free real-time signal other than not, or 0. */
static int pick_free(int not, uint64_t blocked)
{
	int lo = SIGRTMIN, hi = SIGRTMAX;
	int start = not >= lo && not < hi ? not + 1 : lo + 4;
	for (int k = 0; k <= hi - lo; k++) {
		int sig = lo + (start - lo + k) % (hi - lo + 1);
		if (sig != not && is_free(sig, blocked))
			return sig;
	}
	return 0;
}

/* ---- what the program set ---- */

/* The default action of sig ends the process?  (Stopping signals are
 * refused as sampling signals by mapsample.) */
static int default_ignores(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
	       sig == SIGWINCH || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

/* sig again, as it came, to this process (or this thread when it was
 * sent to one); the kernel refuses some codes from another thread, which
 * then get a plain kill. */
static void requeue(int sig, siginfo_t *si)
{
	long pid = syscall(SYS_getpid), tid = syscall(SYS_gettid);
	if (si->si_code == SI_TKILL) {
		syscall(SYS_tgkill, pid, tid, sig);
		return;
	}
	if (syscall(SYS_rt_sigqueueinfo, pid, sig, si))
		syscall(SYS_kill, pid, sig);
}

/* A signal of an owned number the sampler did not send: the program's
 * action, as the kernel would take it.  Async-signal-safe. */
static void foreign(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	if ((handler_mask_sig == sig && handler_app_blocked) || !slot_self()) {
		/* blocked, as far as the program knows: it stays pending
		 * until the program unblocks it or waits for it.  Also on a
		 * thread of the sampler's (no slot), which keeps the signal
		 * unblocked for its own timers: the kernel then gives it to
		 * a thread of the program */
		sigaddset(&uc->uc_sigmask, sig);
		requeue(sig, si);
		return;
	}
	struct sigaction a = app[sig];
	if (a.sa_handler == SIG_IGN)
		return;
	if (a.sa_handler == SIG_DFL) {
		if (default_ignores(sig))
			return;
		/* the default action ends the process: record the exit,
		 * then die of it (pending on this thread, delivered when the
		 * handler returns) */
		process_finish(MAPLOG_EXIT_SIGNALED, sig, 1);
		owned[sig] = 0;
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		real_sigaction(sig, &dfl, NULL);
		sigdelset(&uc->uc_sigmask, sig);
		syscall(SYS_tgkill, syscall(SYS_getpid), syscall(SYS_gettid),
			sig);
		return;
	}
	/* the program's handler, with the mask and flags it asked for */
	sigset_t m = a.sa_mask, old;
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&m, sig);
	sigdelset(&m, __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE));
	real_pthread_sigmask(SIG_BLOCK, &m, &old);
	if (a.sa_flags & SA_RESETHAND) {
		app[sig].sa_handler = SIG_DFL;
		app[sig].sa_flags &= ~SA_SIGINFO;
	}
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, si, ucv);
	else
		a.sa_handler(sig);
	real_pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- moving ---- */

static void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	syscall(SYS_nanosleep, &ts, NULL);
}

/* Hands old (no longer the sampling signal) to the program once no
 * sample of it is queued and no thread of the sampler's has it
 * unblocked: its action becomes the program's.  Returns 1
 * when done, 0 when samples stay queued (the handler then passes on the
 * program's signals: foreign()). */
static int release(int old)
{
	if (!owned[old] || old == S.cfg.signo)
		return 0;
	/* SIG_DFL and SIG_IGN are taken by foreign() as the kernel would,
	 * whichever thread the kernel gives the signal to (one of the
	 * sampler's, about to block everything, passes it on): only a
	 * handler of the program's needs the action itself */
	if (app[old].sa_handler == SIG_DFL || app[old].sa_handler == SIG_IGN)
		return 0;
	for (int i = 0; i < 50; i++) {
		uint64_t pend = slots_masks("SigPnd:", 0) |
				status_mask((int)syscall(SYS_getpid), "ShdPnd:");
		if (!(pend & bit(old)) && !unslotted_open(old)) {
			owned[old] = 0;
			real_sigaction(old, &app[old], NULL);
			return 1;
		}
		sleep_ms(1);
	}
	return 0;
}

/*
 * The program uses the sampling signal (why says how): samples move to
 * a free signal.  Returns the new signal, or 0 when none is free (the
 * signal is then shared: foreign() passes the program's on).
 */
static int move(const char *why)
{
	if (__atomic_exchange_n(&moving, 1, __ATOMIC_ACQ_REL))
		return 0;
	int old = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	/* this thread's own mask does not count: what the program blocked
	 * here becomes its view (handler_fix_mask()); other threads fix
	 * theirs at their next sample, which must reach them */
	uint64_t blocked = slots_masks("SigBlk:", (int)syscall(SYS_gettid));
	int sig = pick_free(old, blocked);
	if (!sig) {
		static int said;
		if (!said++)
			pluginapi_warn("pid %u: the program %s signal %d, which "
				       "carries the samples, and no other "
				       "real-time signal is free; both share it",
				       S.pid, why, old);
		__atomic_store_n(&moving, 0, __ATOMIC_RELEASE);
		return 0;
	}
	app[sig].sa_handler = SIG_DFL;
	sigemptyset(&app[sig].sa_mask);
	app[sig].sa_flags = 0;
	owned[sig] = 1;
	handler_install(sig);
	/* this thread: the new signal unblocked, the old one as the
	 * program left it */
	sigset_t now;
	real_pthread_sigmask(SIG_BLOCK, NULL, &now);
	__atomic_store_n(&S.cfg.signo, sig, __ATOMIC_RELEASE);
	handler_fix_mask(&now);
	real_pthread_sigmask(SIG_SETMASK, &now, NULL);
	/* every thread's timer; the other threads' masks follow at their
	 * next sample (handler.c) */
	int locked = 0;
	for (int i = 0; i < 20 && !locked; i++) {
		locked = pthread_mutex_trylock(&S.proc_lock) == 0;
		if (!locked)
			sleep_ms(1);
	}
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
		if (__atomic_load_n(&S.slots[i].tid, __ATOMIC_ACQUIRE) > 0)
			timer_resignal(&S.slots[i]);
	if (locked)
		pthread_mutex_unlock(&S.proc_lock);
	pluginapi_warn("pid %u: the program %s signal %d, which carried the "
		       "samples; they come on signal %d from now on",
		       S.pid, why, old, sig);
	__atomic_store_n(&moving, 0, __ATOMIC_RELEASE);
	return sig;
}

/* ---- the entry points ---- */

void sigown_start(void)
{
	int sig = S.cfg.signo;
	struct sigaction cur;
	sigset_t mask, pend;
	real_sigaction(sig, NULL, &cur);
	real_pthread_sigmask(SIG_BLOCK, NULL, &mask);
	sigpending(&pend);
	const char *why = cur.sa_handler == SIG_IGN ? "ignores"
			  : cur.sa_handler != SIG_DFL ? "has a handler for"
			  : sigismember(&mask, sig) == 1 ? "blocks"
			  : sigismember(&pend, sig) == 1 ? "has pending"
							 : NULL;
	handler_set_foreign(foreign);
	if (why) {
		touched[sig] = 1;
		/* the only thread yet: what it blocks becomes its view */
		int other = pick_free(sig, 0);
		if (other) {
			pluginapi_warn("pid %u: the program %s signal %d "
				       "already; samples come on signal %d",
				       S.pid, why, sig, other);
			S.cfg.signo = sig = other;
			handler_app_blocked = sigismember(&mask, other) == 1;
		} else {
			pluginapi_warn("pid %u: the program %s signal %d, "
				       "which carries the samples, and no "
				       "other real-time signal is free; both "
				       "share it",
				       S.pid, why, sig);
			app[sig] = cur;
		}
	}
	if (!owned[sig]) {
		real_sigaction(sig, NULL, &app[sig]);
		owned[sig] = 1;
	}
}

int sigown_sigaction(int sig, const struct sigaction *act,
		     struct sigaction *old)
{
	if (!S.enabled || sig <= 0 || sig >= NSIG)
		return 0;
	if (act)
		__atomic_store_n(&touched[sig], 1, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&owned[sig], __ATOMIC_ACQUIRE))
		return 0;
	if (old)
		*old = app[sig];
	if (!act)
		return 1;
	app[sig] = *act;
	if (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN)
		return 1; /* taken as the kernel would by foreign() */
	if (sig == S.cfg.signo && !move("installs a handler for"))
		return 1;
	release(sig);
	return 1;
}

void sigown_uses(int sig, const char *why)
{
	if (!S.enabled || sig != __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE))
		return;
	if (move(why))
		release(sig);
}

void sigown_uses_set(const sigset_t *set, const char *why)
{
	int sig = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	if (set && S.enabled && sig > 0 && sigismember(set, sig) == 1)
		sigown_uses(sig, why);
}

int sigown_mask(int how, const sigset_t *set, sigset_t *old,
		int (*fn)(int, const sigset_t *, sigset_t *))
{
	/* inside our handler, libunwind saves and restores the mask, which
	 * then blocks our signal as the kernel set it: leave that alone, or
	 * the signal would nest inside its own handler */
	if (!S.enabled || in_handler)
		return fn(how, set, old);
	int sig = __atomic_load_n(&S.cfg.signo, __ATOMIC_ACQUIRE);
	if (handler_mask_sig != sig) {
		/* the signal moved since this thread last looked */
		sigset_t now;
		real_pthread_sigmask(SIG_BLOCK, NULL, &now);
		handler_fix_mask(&now);
		real_pthread_sigmask(SIG_SETMASK, &now, NULL);
	}
	int was = handler_app_blocked, will = was;
	sigset_t buf;
	const sigset_t *use = set;
	if (set) {
		int in = sigismember(set, sig) == 1;
		if (how == SIG_BLOCK && in)
			will = 1;
		else if (how == SIG_UNBLOCK && in)
			will = 0;
		else if (how == SIG_SETMASK)
			will = in;
		if (in && how != SIG_UNBLOCK) {
			buf = *set;
			sigdelset(&buf, sig);
			use = &buf;
		}
	}
	int rc = fn(how, use, old);
	if (rc == 0) {
		if (old) {
			if (was)
				sigaddset(old, sig);
			else
				sigdelset(old, sig);
		}
		handler_app_blocked = will;
	}
	return rc;
}

void sigown_before_exec(void)
{
	int sig = S.cfg.signo;
	/* the new image inherits what the program set: an ignored signal
	 * stays ignored, a blocked one blocked (samples stop here: the
	 * streams are closed) */
	if (!S.enabled)
		return;
	for (int s = 1; s < NSIG; s++)
		if (owned[s] && app[s].sa_handler == SIG_IGN)
			real_sigaction(s, &app[s], NULL);
	if (!owned[sig])
		return;
	if (handler_mask_sig == sig && handler_app_blocked) {
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		real_pthread_sigmask(SIG_BLOCK, &one, NULL);
	}
}

void sigown_exec_failed(void)
{
	if (!S.enabled || !owned[S.cfg.signo])
		return;
	handler_install(S.cfg.signo);
	handler_unblock();
}
