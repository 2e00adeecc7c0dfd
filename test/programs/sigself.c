/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sigself: a program that uses SIGRTMIN+4 (mapsample's default sampling
 * signal) itself, for the mapsample tests.  "sigself MODE":
 *   handler   installs an SA_SIGINFO handler for it, then burns about
 *             0.5 s of CPU in burn_own while it sends itself 200 signals
 *             with sigqueue(); prints "own signals: sent N, received M,
 *             other K" (K: signals whose si_code or value is not what it
 *             sent) and exits 0 when M is N and K is 0, else 1
 *   default   raise()s it with its action SIG_DFL: dies of it
 *   ignore    sets it to SIG_IGN, raise()s it, prints "alive"
 *   mask      blocks everything, prints whether the mask read back holds
 *             it, sends it to itself and takes it with sigwaitinfo()
 *   exec      sets it to SIG_IGN and blocks it, then executes itself
 *             with "inherited", which prints what it inherited (action
 *             and mask), raise()s it (ignored) and burns in burn_own
 * Prints nothing else; exits 2 on a bad mode.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile sig_atomic_t received, other;
static volatile unsigned long sink;

static void on_own(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGRTMIN + 4 && si->si_code == SI_QUEUE &&
	    si->si_value.sival_int == 4242 && si->si_pid == getpid())
		received++;
	else
		other++;
}

NOINLINE static void burn_own(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	sink += x;
}

static int mode_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_own;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN + 4, &sa, NULL)) {
		perror("sigself: sigaction");
		return 1;
	}
	int sent = 0;
	for (int i = 0; i < 200; i++) {
		burn_own(2500000);
		union sigval v = {.sival_int = 4242};
		if (sigqueue(getpid(), SIGRTMIN + 4, v) == 0)
			sent++;
	}
	printf("own signals: sent %d, received %d, other %d\n", sent,
	       (int)received, (int)other);
	return received == sent && other == 0 ? 0 : 1;
}

static void print_inherited(void)
{
	struct sigaction o;
	sigset_t m;
	sigaction(SIGRTMIN + 4, NULL, &o);
	sigprocmask(SIG_BLOCK, NULL, &m);
	printf("inherited: %s, %s\n",
	       o.sa_handler == SIG_IGN   ? "ignored"
	       : o.sa_handler == SIG_DFL ? "default"
					 : "handled",
	       sigismember(&m, SIGRTMIN + 4) ? "blocked" : "unblocked");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "handler") == 0)
		return mode_handler();
	if (strcmp(mode, "default") == 0) {
		fflush(stdout);
		raise(SIGRTMIN + 4);
		printf("survived SIG_DFL\n");
		return 1;
	}
	if (strcmp(mode, "ignore") == 0) {
		signal(SIGRTMIN + 4, SIG_IGN);
		raise(SIGRTMIN + 4);
		printf("alive\n");
		return 0;
	}
	if (strcmp(mode, "mask") == 0) {
		sigset_t all, now;
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		sigprocmask(SIG_BLOCK, NULL, &now);
		printf("blocked as read: %d\n", sigismember(&now, SIGRTMIN + 4));
		pthread_sigmask(SIG_BLOCK, NULL, &now);
		printf("pthread_sigmask reads: %d\n",
		       sigismember(&now, SIGRTMIN + 4));
		union sigval v = {.sival_int = 7};
		sigqueue(getpid(), SIGRTMIN + 4, v);
		burn_own(50000000);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, SIGRTMIN + 4);
		siginfo_t si;
		int got = sigwaitinfo(&one, &si);
		printf("sigwaitinfo: %s, value %d\n",
		       got == SIGRTMIN + 4 ? "RTMIN+4" : "other",
		       si.si_value.sival_int);
		return 0;
	}
	if (strcmp(mode, "exec") == 0) {
		signal(SIGRTMIN + 4, SIG_IGN);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, SIGRTMIN + 4);
		sigprocmask(SIG_BLOCK, &one, NULL);
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "inherited", (char *)NULL);
		perror("sigself: exec");
		return 1;
	}
	if (strcmp(mode, "inherited") == 0) {
		print_inherited();
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		raise(SIGRTMIN + 4);
		burn_own(300000000);
		printf("alive\n");
		return 0;
	}
	fprintf(stderr, "sigself: give a mode: handler, default, ignore, "
			"mask or exec\n");
	return 2;
}
