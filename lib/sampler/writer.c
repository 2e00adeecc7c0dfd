/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer: the sampler's one thread of its own.  It keeps spare chunks
 * mapped ahead for the signal handlers (stream_refill()), woken through
 * the eventfd S.wake_fd whenever a handler took one, and, when a client
 * set one with writer_set_idle(), calls an idle callback once per
 * interval: the metric host's tick for a program that is idle or blocked,
 * whose CPU-time timers do not fire (mhost.c).  It blocks every signal,
 * is started with real_pthread_create() (so it is not sampled or
 * recorded) and is stopped before the process closes its streams.
 *
 * Calls stream.c, timer.c (timer_check()), perfmap.c (perfmap_check())
 * and real.c below it, and
 * through pointers its idle
 * callback and, about every 200 ms, S.watch (process_watch()): it names
 * no module above it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

static int writer_stop_flag;
static pthread_t writer_thread;
static int writer_running;
static void (*idle_fn)(void);
static int idle_ms = -1;
static int writer_tid;		/* its tid while it runs, else 0 */
static uint32_t writer_pid;	/* the process it runs in */

void writer_set_idle(void (*fn)(void), int ms)
{
	idle_fn = fn;
	idle_ms = fn ? ms : -1;
}

/* A new eventfd for S.wake_fd, on a number out of the program's way,
 * with what it is (fd_still()).  Returns it, or -1. */
static int new_wake_fd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);
	if (fd < 0)
		return -1;
	fd = fd_high(fd);
	struct stat st;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	S.wake_dev = (uint64_t)st.st_dev;
	S.wake_ino = (uint64_t)st.st_ino;
	return fd;
}

static void *writer_main(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	real_pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_store_n(&writer_pid, S.pid, __ATOMIC_RELEASE);
	__atomic_store_n(&writer_tid, (int)syscall(SYS_gettid),
			 __ATOMIC_RELEASE);
	while (!__atomic_load_n(&writer_stop_flag, __ATOMIC_ACQUIRE)) {
		/* the program closed our eventfd or took its number: a new
		 * one (the old number is the program's: never closed) */
		if (!fd_still(S.wake_fd, S.wake_dev, S.wake_ino))
			__atomic_store_n(&S.wake_fd, new_wake_fd(),
					 __ATOMIC_RELEASE);
		stream_refill();
		/* a JIT compiler's map of its code, once it appears */
		perfmap_check();
		/* perf events whose descriptor the program closed or took */
		for (int i = 0, n = slot_limit(); i < n; i++)
			if (__atomic_load_n(&S.slots[i].tid, __ATOMIC_ACQUIRE) > 0)
				timer_check(&S.slots[i]);
		/* wake for chunks, once per idle interval for the idle
		 * callback (the idle metric tick), and at least every 200 ms
		 * to see whether the program has ended (process_watch) */
		struct pollfd pfd = {.fd = S.wake_fd, .events = POLLIN};
		int r = poll(&pfd, 1,
			     idle_ms >= 0 && idle_ms < 200 ? idle_ms : 200);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0) {
			uint64_t v;
			io_own_pre(&io_own_bytes_read, 8);
			long n = io_own_post(&io_own_bytes_read, 8,
					     read(S.wake_fd, &v, 8));
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				break;
		}
		if (idle_fn)
			idle_fn();
		if (S.watch)
			S.watch();
	}
	__atomic_store_n(&writer_tid, 0, __ATOMIC_RELEASE);
	return NULL;
}

void writer_start(void)
{
	if (writer_running)
		return;
	S.wake_fd = new_wake_fd();
	if (S.wake_fd < 0)
		return;
	writer_stop_flag = 0;
	stream_refill();
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	if (sampler_thread_create(&writer_thread, &a, writer_main, NULL) == 0)
		writer_running = 1;
	pthread_attr_destroy(&a);
}

int writer_stop(void)
{
	int was = writer_running;
	if (writer_running) {
		__atomic_store_n(&writer_stop_flag, 1, __ATOMIC_RELEASE);
		/* without a wake-up (the program took the eventfd's
		 * number) the writer sees the flag within 200 ms */
		if (fd_still(S.wake_fd, S.wake_dev, S.wake_ino)) {
			uint64_t one = 1;
			io_own_pre(&io_own_bytes_written, 8);
			io_own_post(&io_own_bytes_written, 8,
				    write(S.wake_fd, &one, 8));
		}
		/* EDEADLK when the writer itself stops (process_watch()) */
		if (pthread_join(writer_thread, NULL) == 0)
			/* nobody refills now: the reserved spares need not
			 * take disk space; the last records get chunks on
			 * demand */
			stream_release_spares();
		writer_running = 0;
	}
	if (fd_still(S.wake_fd, S.wake_dev, S.wake_ino))
		close(S.wake_fd);
	S.wake_fd = -1;
	return was;
}

int writer_owns(int tid)
{
	return tid && __atomic_load_n(&writer_tid, __ATOMIC_ACQUIRE) == tid &&
	       __atomic_load_n(&writer_pid, __ATOMIC_ACQUIRE) == S.pid;
}

void writer_after_fork_child(void)
{
	if (fd_still(S.wake_fd, S.wake_dev, S.wake_ino))
		close(S.wake_fd);
	S.wake_fd = -1;
	writer_running = 0;
}
