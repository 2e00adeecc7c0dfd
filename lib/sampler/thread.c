/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * thread: the life of a sampled thread.  thread_begin() records the
 * thread (THREAD_BEGIN with its name) and arms its timer; thread_close()
 * stops it, writes what is pending, THREAD_NAME when the thread was
 * renamed since, and THREAD_END, and seals its chunk;
 * thread_end() is thread_close() for a thread that exits while the
 * process goes on (interpose.c's thread-key destructor).  With --wall,
 * the first thread begun in a process also starts the off-CPU sampler
 * (offcpu.c), which writes samples of blocked threads into their slots.
 * Calls offcpu.c, slot.c, timer.c, stream.c and io.c below it.
 */
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

/* The name each slot's thread had at its THREAD_BEGIN, by slot index:
 * thread_close() compares it with the name the thread has then. */
static char begin_name[SAMPLER_MAX_THREADS][16];

/* Reads the name of thread tid (/proc/self/task/TID/comm, the kernel's
 * copy, whatever renamed it: pthread_setname_np, prctl(PR_SET_NAME), a
 * write to the file) into name[len], "" when it cannot.  Async-signal-
 * safe: open, read and close, the path formatted by hand. */
static void read_comm(int tid, char *name, size_t len)
{
	char path[48] = "/proc/self/task/";
	size_t n = strlen(path);
	char digits[12];
	int k = 0;
	unsigned v = (unsigned)tid;
	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10) && k < (int)sizeof(digits));
	while (k)
		path[n++] = digits[--k];
	memcpy(path + n, "/comm", 6);
	name[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t got = read(fd, name, len - 1);
	io_own(&io_own_bytes_read, got);
	name[got > 0 ? got : 0] = 0;
	char *nl = strchr(name, '\n');
	if (nl)
		*nl = 0;
	close(fd);
}

/* The slot index of t, or -1 for a slot outside S.slots. */
static long slot_index(const struct tslot *t)
{
	long i = t - S.slots;
	return i >= 0 && i < SAMPLER_MAX_THREADS ? i : -1;
}

void thread_begin(struct tslot *t, uint32_t creator)
{
	if (offcpu_owns(t->tid) || substrate_owns(t->tid)) {
		/* ours, found among the threads the constructor adopts */
		slot_release(t);
		return;
	}
	/* the thread's own CPU clock: threads adopted at start-up are
	 * begun from the constructor's thread */
	struct timespec cpu = {0, 0};
	clock_gettime(thread_cpu_clock(t->tid), &cpu);
	t->cpu_start_ns = (uint64_t)cpu.tv_sec * 1000000000u +
			  (uint64_t)cpu.tv_nsec;
	t->start_ts = now_ns();
	t->creator = creator;
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_BEGIN;
	ev.ev_ts = t->start_ts;
	ev.ev_u.tbegin.tb_tid = (uint32_t)t->tid;
	ev.ev_u.tbegin.tb_creator = creator;
	char name[32] = "";
	read_comm(t->tid, name, sizeof(name));
	long i = slot_index(t);
	if (i >= 0) {
		size_t n = strnlen(name, sizeof(begin_name[i]) - 1);
		memcpy(begin_name[i], name, n);
		begin_name[i][n] = 0;
	}
	ev.ev_u.tbegin.tb_name = name;
	stream_proc_put(&ev);
	substrate_thread_begin(t, creator);
	timer_arm(t);
	offcpu_start();
}

void thread_close(struct tslot *t, int proc_ok)
{
	if (t != slot_self()) {
		slot_quiesce(t);
	} else {
		/* our own handler cannot be writing (or it is the one
		 * closing); the off-CPU sampler may be: it raised
		 * offcpu_busy before it looked at closing (offcpu.c) */
		__atomic_store_n(&t->closing, 1, __ATOMIC_SEQ_CST);
		for (int i = 0; i < 100000 && __atomic_load_n(&t->offcpu_busy,
							      __ATOMIC_SEQ_CST);
		     i++)
			sched_yield();
	}
	timer_disarm(t);
	/* on the process stream with the end record, as the reader finds
	 * them by their tid: on the thread's own stream, a thread with
	 * no sample (a main thread that only waits, its first samples
	 * dropped) got a chunk holding only its drop records, whose loss
	 * nothing could tell (mapreport-losses.sh failed so in CI) */
	stream_flush_drops_to(t, proc_ok ? &S.proc : t);
	substrate_drops(t);
	struct maplog_ev ev;
	/* a name set after the thread began (the last one): read where it
	 * is kept rather than caught at each way of setting it */
	char name[32];
	read_comm(t->tid, name, sizeof(name));
	long i = slot_index(t);
	if (name[0] && i >= 0 && strncmp(name, begin_name[i],
					 sizeof(begin_name[i]) - 1) != 0) {
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_THREAD_NAME;
		ev.ev_ts = now_ns();
		ev.ev_u.tname.tn_tid = (uint32_t)t->tid;
		ev.ev_u.tname.tn_name = name;
		if (proc_ok)
			stream_put(&S.proc, &ev);
		else
			stream_put(t, &ev);
	}
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_END;
	ev.ev_ts = now_ns();
	ev.ev_u.tend.te_tid = (uint32_t)t->tid;
	ev.ev_u.tend.te_samples = t->samples;
	__atomic_fetch_add(&S.samples_closed, t->samples, __ATOMIC_RELAXED);
	uint64_t d = 0;
	for (int r = 0; r < MAPLOG_DROP_MARK; r++) /* samples, not marks */
		d += t->dropped[r];
	ev.ev_u.tend.te_dropped = d;
	struct timespec cpu;
	if (clock_gettime(thread_cpu_clock(t->tid), &cpu) == 0) {
		uint64_t c = (uint64_t)cpu.tv_sec * 1000000000u +
			     (uint64_t)cpu.tv_nsec;
		ev.ev_u.tend.te_cpu_ns = c > t->cpu_start_ns ? c - t->cpu_start_ns
							     : 0;
	}
	ev.ev_u.tend.te_wall_ns = ev.ev_ts - t->start_ts;
	if (proc_ok)
		stream_put(&S.proc, &ev);
	else
		stream_put(t, &ev);
	stream_seal(t);
}

void thread_end(struct tslot *t)
{
	if (!t || __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&S.proc_lock);
	thread_close(t, 1);
	pthread_mutex_unlock(&S.proc_lock);
	substrate_thread_end(t);
	slot_release(t);
}
