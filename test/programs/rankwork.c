/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rankwork: a job of N worker processes without MPI, for the tests of
 * mapreport's per-rank figures and summary (mapreport-ranks.sh).  The
 * parent forks N workers and waits for them without working; worker 0
 * runs rank_work twice as long as the others.  Given "--io", each
 * worker then writes to a pipe it drains (write calls, no disk).
 * "rankwork [N [MILLIONS [--io]]]": workers (default 4) and iterations
 * of the others' work in millions (default 100).  Exits 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burn.h"

BURN(rank_work, 7)

/* Writes n small blocks into a pipe and reads them back. */
NOINLINE static void rank_io(unsigned long n)
{
	int fd[2];
	char buf[64] = "rankwork";
	if (pipe(fd))
		return;
	for (unsigned long i = 0; i < n; i++)
		if (write(fd[1], buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
		    read(fd[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	close(fd[0]);
	close(fd[1]);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	unsigned long it = (argc > 2 ? strtoul(argv[2], NULL, 10) : 100) *
			   1000000ul;
	int io = argc > 3 && strcmp(argv[3], "--io") == 0;
	if (n < 1 || n > 64) {
		fprintf(stderr, "rankwork: 1 to 64 workers\n");
		return 2;
	}
	for (int r = 0; r < n; r++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("rankwork: fork");
			return 1;
		}
		if (pid == 0) {
			rank_work(r == 0 ? 2 * it : it);
			if (io)
				rank_io(it / 100);
			_exit(0);
		}
	}
	int st, bad = 0;
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	return bad;
}
