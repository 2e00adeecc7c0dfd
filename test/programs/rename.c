/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rename: threads that change their names after they began, each in
 * another way.  The main thread calls prctl(PR_SET_NAME, "late-main");
 * worker 1 calls pthread_setname_np(pthread_self(), "late-setname"),
 * then burns a little CPU; worker 2 is renamed "late-comm" by the main
 * thread, which writes its /proc/self/task/TID/comm, and burns after
 * that.  Each name is set before the thread's first sample can matter
 * and kept to its end.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spin.h"

static volatile unsigned long sink;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int tid2, renamed2;

NOINLINE static void burn(void)
{
	unsigned long x = sink;
	SPIN(30000000ul, x);
	sink = x;
}

static void *setname_worker(void *arg)
{
	(void)arg;
	if (pthread_setname_np(pthread_self(), "late-setname"))
		return (void *)1;
	burn();
	return NULL;
}

static void *comm_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	tid2 = (int)syscall(SYS_gettid);
	pthread_cond_broadcast(&cond);
	while (!renamed2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	burn();
	return NULL;
}

int main(void)
{
	if (prctl(PR_SET_NAME, "late-main"))
		return 1;
	pthread_t a, b;
	if (pthread_create(&a, NULL, setname_worker, NULL) ||
	    pthread_create(&b, NULL, comm_worker, NULL))
		return 1;
	pthread_mutex_lock(&lock);
	while (!tid2)
		pthread_cond_wait(&cond, &lock);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid2);
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "late-comm", 9) != 9)
		return 1;
	close(fd);
	renamed2 = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	burn();
	void *ra, *rb;
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	return ra || rb;
}
