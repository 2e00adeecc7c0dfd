/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fatal: the fatal signals (SIGSEGV, SIGABRT, SIGTERM ...) the program
 * leaves at their default action.  The sampler holds them so that a
 * process killed by one still closes its streams with the exit recorded
 * (process_finish() in signal context), then dies by the default action.
 *
 * The program must not see our handler (runtimes decide things on it:
 * Rust's std installs its stack-overflow handler only over SIG_DFL), so
 * sigaction() (interpose.c) asks fatal_sigaction(), which answers with
 * fatal_view, what the program set or would see without us.  Setting
 * SIG_DFL keeps our handler (the death is the same); setting anything
 * else installs it for real, and the signal is the program's from then
 * on.
 *
 * Calls process.c, guard.c and real.c below it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE,
				    SIGABRT, SIGTRAP, SIGSYS, SIGTERM,
				    SIGINT,  SIGHUP,  SIGQUIT};

/* Fatal signals whose disposition the sampler holds, and what the
 * program sees of each (see the top of this file). */
static int fatal_held[NSIG];
static struct sigaction fatal_view[NSIG];

int fatal_sigaction(int sig, const struct sigaction *act,
		    struct sigaction *old)
{
	if (sig <= 0 || sig >= NSIG ||
	    !__atomic_load_n(&fatal_held[sig], __ATOMIC_ACQUIRE))
		return 0;
	if (old)
		*old = fatal_view[sig];
	if (act) {
		if (act->sa_handler == SIG_DFL) {
			fatal_view[sig] = *act;
		} else {
			__atomic_store_n(&fatal_held[sig], 0, __ATOMIC_RELEASE);
			real_sigaction(sig, act, NULL);
		}
	}
	return 1;
}

/* Makes fatal_handler sig's action.  Async-signal-safe. */
static void fatal_handler(int sig, siginfo_t *si, void *uc);
static int fatal_action(int sig)
{
	struct sigaction fa;
	memset(&fa, 0, sizeof(fa));
	fa.sa_sigaction = fatal_handler;
	fa.sa_flags = SA_SIGINFO | SA_RESTART | SA_RESETHAND | SA_ONSTACK;
	sigfillset(&fa.sa_mask);
	return real_sigaction(sig, &fa, NULL);
}

/* Records the death and dies the same way; a fault inside a metric
 * getter goes back to the metric host instead.  Async-signal-safe. */
static void fatal_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	int saved = errno;
	if (guard_catches(sig)) {
		/* inside a metric getter: the plugin's fault, not the
		 * program's.  SA_RESETHAND took our action off: put it back,
		 * then back to the getter's caller (guard.c), which disables
		 * the plugin and says why. */
		fatal_action(sig);
		guard_fault(sig);
	}
	process_finish(MAPLOG_EXIT_SIGNALED, sig, 1);
	/* die the way the program would have without us */
	__atomic_store_n(&fatal_held[sig], 0, __ATOMIC_RELEASE);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
	errno = saved;
}

void fatal_install(void)
{
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
	     i++) {
		struct sigaction old;
		if (real_sigaction(fatal_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue; /* the program handles it: leave it */
		fatal_view[fatal_signals[i]] = old;
		if (fatal_action(fatal_signals[i]) == 0)
			__atomic_store_n(&fatal_held[fatal_signals[i]], 1,
					 __ATOMIC_RELEASE);
	}
}
