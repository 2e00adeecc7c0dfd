/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * forkthreads: forks while another thread starts and ends short threads,
 * and each child starts a thread of its own, for
 * test/integration/mapsample-forkdl.sh.  A fork can land while one of
 * those threads is ending, inside the destructors of its thread-specific
 * data (libunwind gives its per-thread cache back to a pool there, under
 * the pool's lock); the child inherits whatever lock was held then, and
 * its new thread, whose start walks a stack under the sampler, takes
 * that lock.  "forkthreads [FORKS]": FORKS children (default 50), one at
 * a time.  Prints "forkthreads N children" and exits 0, or 1 naming what
 * failed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int stop;
static volatile unsigned long sink;

static void *burn(void *arg)
{
	for (unsigned long k = 0; k < 20000; k++)
		sink += k;
	return arg;
}

static void *spawner(void *arg)
{
	while (!stop) {
		pthread_t t;
		if (pthread_create(&t, NULL, burn, NULL) == 0)
			pthread_join(t, NULL);
	}
	return arg;
}

int main(int argc, char **argv)
{
	int forks = argc > 1 ? atoi(argv[1]) : 50;
	pid_t parent = getpid();
	pthread_t s;
	if (pthread_create(&s, NULL, spawner, NULL)) {
		fprintf(stderr, "forkthreads: pthread_create failed\n");
		return 1;
	}
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("forkthreads: fork");
			return 1;
		}
		if (pid == 0) {
			/* a child that hangs does not outlive its parent */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			pthread_t t;
			if (pthread_create(&t, NULL, burn, NULL) ||
			    pthread_join(t, NULL))
				_exit(2);
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "forkthreads: child %d: %s %d\n", i,
				WIFSIGNALED(st) ? "killed by signal" : "exit",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			return 1;
		}
	}
	stop = 1;
	pthread_join(s, NULL);
	fprintf(stderr, "forkthreads %d children\n", forks);
	return 0;
}
