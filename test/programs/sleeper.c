/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sleeper: a program that does not retry its sleeps, for the wall-clock
 * sampling test (test/integration/mapsample-wall.sh).  The main thread
 * runs ITER iterations of 1 ms of CPU time (busy_part) and one 1 ms
 * nanosleep (nap_part) that it does not restart on EINTR; meanwhile
 * poll_thread waits in poll(NULL, 0, 2 ms) and sem_thread in
 * sem_timedwait() with 2 ms deadlines, in loops, both counting the calls
 * that ended early (EINTR), and deep_thread waits in poll() too, under
 * DEEP_FRAMES frames of deep() holding about 150 KB of stack (an unwind
 * of it reads more pages than the sampler keeps at once).  A sampler that interrupts these calls makes
 * the counts non-zero and the run shorter.
 * "sleeper [ITER]" (default 500); prints one line on standard output:
 * "sleeper: eintr nanosleep N poll N sem N elapsed MS ms".
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;
static volatile int done;
static long eintr_nap, eintr_poll, eintr_sem;

static long now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

static long cpu_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

/* 1 ms of this thread's CPU time (more wall-clock time on a loaded
 * machine, as much CPU time as the sleeps' wall time whatever the load). */
NOINLINE static void busy_part(void)
{
	long end = cpu_us() + 1000;
	unsigned long x = 1;
	/* about 50 us of work between reads of the clock: a read is a
	 * system call, whose kernel time the --wall perf event does not
	 * sample */
	while (cpu_us() < end) {
		for (int i = 0; i < 50000; i++) {
			x = x * 6364136223846793005ul + (unsigned long)i;
			__asm__ volatile("" : "+r"(x));
		}
	}
	sink += x;
}

/* One 1 ms nanosleep, not restarted. */
NOINLINE static void nap_part(void)
{
	struct timespec t = {0, 1000000};
	if (nanosleep(&t, NULL) && errno == EINTR)
		eintr_nap++;
}

NOINLINE static void poll_wait(void)
{
	if (poll(NULL, 0, 2) < 0 && errno == EINTR)
		__atomic_fetch_add(&eintr_poll, 1, __ATOMIC_RELAXED);
}

static void *poll_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
		poll_wait();
	return NULL;
}

NOINLINE static void sem_wait_part(sem_t *s)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 2000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	if (sem_timedwait(s, &t) && errno == EINTR)
		__atomic_fetch_add(&eintr_sem, 1, __ATOMIC_RELAXED);
}

#define DEEP_FRAMES 300

NOINLINE static void deep(int n)
{
	volatile char pad[512];
	pad[0] = (char)n;
	if (n > 0)
		deep(n - 1);
	else
		while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
			poll_wait();
	__asm__ volatile("" : : "r"(pad) : "memory");
}

static void *deep_thread(void *arg)
{
	(void)arg;
	deep(DEEP_FRAMES);
	return NULL;
}

static void *sem_thread(void *arg)
{
	(void)arg;
	sem_t s;
	sem_init(&s, 0, 0);
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
		sem_wait_part(&s);
	sem_destroy(&s);
	return NULL;
}

int main(int argc, char **argv)
{
	long iter = argc > 1 ? atol(argv[1]) : 500;
	pthread_t a, b, c;
	if (pthread_create(&a, NULL, poll_thread, NULL) ||
	    pthread_create(&b, NULL, sem_thread, NULL) ||
	    pthread_create(&c, NULL, deep_thread, NULL)) {
		fprintf(stderr, "sleeper: cannot start the threads\n");
		return 1;
	}
	long start = now_us();
	for (long i = 0; i < iter; i++) {
		busy_part();
		nap_part();
	}
	long elapsed = now_us() - start;
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	printf("sleeper: eintr nanosleep %ld poll %ld sem %ld elapsed %ld ms\n",
	       eintr_nap, eintr_poll, eintr_sem, elapsed / 1000);
	return 0;
}
