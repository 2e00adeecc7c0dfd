/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forkdl: forks while another thread dlopens and dlcloses a library, for
 * test/integration/mapsample-forkdl.sh.  A fork can land while the other
 * thread holds the dynamic loader's lock (or any lock of a library it is
 * in); the child inherits that lock held by a thread it does not have,
 * so anything in the child that takes it (dl_iterate_phdr, dlopen)
 * hangs for ever.  The program itself does nothing of that kind in its
 * children: each child burns a little CPU, so it is sampled, and exits.
 * "forkdl LIBRARY [FORKS]": FORKS children (default 200), one at a
 * time.  Prints "forkdl N children" and exits 0, or 1 naming what
 * failed.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *lib;
static volatile int stop;
static volatile unsigned long sink;

static void *loader(void *arg)
{
	(void)arg;
	while (!stop) {
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "forkdl: %s\n", dlerror());
			exit(1);
		}
		dlclose(h);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: forkdl LIBRARY [FORKS]\n");
		return 1;
	}
	lib = argv[1];
	int forks = argc > 2 ? atoi(argv[2]) : 200;
	pid_t parent = getpid();
	pthread_t t;
	if (pthread_create(&t, NULL, loader, NULL))
		return 1;
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("forkdl: fork");
			return 1;
		}
		if (pid == 0) {
			/* a child that hangs does not outlive its parent
			 * (killed by the test's timeout) */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			for (unsigned long k = 0; k < 2000000; k++)
				sink += k;
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "forkdl: child %d: %s %d\n", i,
				WIFSIGNALED(st) ? "killed by signal" : "exit",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			return 1;
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	fprintf(stderr, "forkdl %d children\n", forks);
	return 0;
}
