/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filterwork: work split by thread, time and process, for the tests of
 * mapreport's filters (mapreport-filters.sh).  The main thread runs
 * burn_first alone; then it names itself "fw-worker" so that the thread
 * it starts inherits that name, takes back its own, and runs burn_main
 * while the worker runs burn_worker.  Given "--exec PATH", it then forks
 * a child that execs PATH "--child", which runs burn_child and exits.
 * "filterwork [MILLIONS [--exec PATH]]": iterations per stage in
 * millions (default 100).  Exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burn.h"

static unsigned long iterations;

BURN(burn_first, 1)
BURN(burn_main, 2)
BURN(burn_worker, 3)
BURN(burn_child, 4)

static void *worker(void *arg)
{
	(void)arg;
	burn_worker(iterations);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--child") == 0) {
		burn_child(100000000ul);
		return 0;
	}
	iterations = (argc > 1 ? strtoul(argv[1], NULL, 10) : 100) * 1000000ul;
	burn_first(iterations);
	char own[16] = "";
	prctl(PR_GET_NAME, own);
	prctl(PR_SET_NAME, "fw-worker");
	pthread_t th;
	int rc = pthread_create(&th, NULL, worker, NULL);
	prctl(PR_SET_NAME, own);
	if (rc) {
		fprintf(stderr, "filterwork: pthread_create failed (%d)\n", rc);
		return 1;
	}
	burn_main(iterations);
	pthread_join(th, NULL);
	if (argc > 3 && strcmp(argv[2], "--exec") == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			execl(argv[3], argv[3], "--child", (char *)NULL);
			_exit(127);
		}
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "filterwork: %s --child failed\n",
				argv[3]);
			return 1;
		}
	}
	return 0;
}
