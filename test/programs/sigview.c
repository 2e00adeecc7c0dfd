/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sigview: what a program sees of its signal dispositions, for the
 * mapsample tests (the sampler catches fatal signals the program leaves
 * alone, and the program must not notice).  Prints the disposition of
 * each signal below as sigaction() reports it, then:
 *   signal(SIGTERM, handler) returns the old disposition, the handler
 *   runs on raise(SIGTERM); SIGINT set to SIG_IGN is ignored; SIGABRT
 *   set to SIG_DFL explicitly reads back as it was set.
 * With "abort" as its argument it then calls abort() (and dies of
 * SIGABRT); otherwise it exits 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static const char *view(int sig)
{
	static char buf[64];
	struct sigaction o;
	if (sigaction(sig, NULL, &o))
		return "error";
	const char *h = o.sa_handler == SIG_DFL   ? "default"
			: o.sa_handler == SIG_IGN ? "ignore"
			: o.sa_handler == on_term ? "on_term"
						  : "another handler";
	/* SA_RESTORER is libc's business, not the program's */
	snprintf(buf, sizeof(buf), "%s flags %#x", h,
		 (unsigned)o.sa_flags & ~0x04000000u);
	return buf;
}

int main(int argc, char **argv)
{
	static const struct { int sig; const char *name; } sigs[] = {
		{SIGSEGV, "SEGV"}, {SIGBUS, "BUS"}, {SIGILL, "ILL"},
		{SIGFPE, "FPE"},   {SIGABRT, "ABRT"}, {SIGTRAP, "TRAP"},
		{SIGSYS, "SYS"},   {SIGTERM, "TERM"}, {SIGINT, "INT"},
		{SIGHUP, "HUP"},   {SIGQUIT, "QUIT"},
	};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		printf("%s: %s\n", sigs[i].name, view(sigs[i].sig));
	void (*old)(int) = signal(SIGTERM, on_term);
	printf("signal(TERM) returned %s\n", old == SIG_DFL ? "default" : "another");
	raise(SIGTERM);
	printf("TERM handler ran: %d; TERM: %s\n", (int)got_term, view(SIGTERM));
	signal(SIGINT, SIG_IGN);
	raise(SIGINT);
	printf("INT: %s (still alive)\n", view(SIGINT));
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	dfl.sa_flags = SA_RESTART;
	sigaction(SIGABRT, &dfl, NULL);
	printf("ABRT: %s\n", view(SIGABRT));
	fflush(stdout);
	if (argc > 1 && strcmp(argv[1], "abort") == 0)
		abort();
	return 0;
}
