/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * process: the life of a sampled process image.  process_init() and
 * process_write_initialize() start it (the constructor, sampler.c);
 * process_adopt_threads() takes in the threads that existed before the
 * constructor; process_finish() closes every stream at exit, _exit and
 * fatal signals (with only async-signal-safe steps from a signal handler
 * or _exit); process_before_exec() closes them before an exec, and
 * process_exec_failed() reopens them when it failed; a fork child starts
 * afresh with process_after_fork_child().
 *
 * Calls, below it: thread.c, the writer (writer.c), the metric host
 * (mhost.c), the stack walks' report (sample.c), slot.c, timer.c,
 * objects.c, stream.c, io.c and lib/pluginapi's warnings.  Called by
 * sampler.c, fatal.c and interpose.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "log/maplog_format.h"
#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

static char exe_path[4096];
static char host[256];
static int saved_argc;
static char **saved_argv;
static uint32_t parent_pid;
/* MAPSAMPLE_IMAGE for the image this process execs next, "" before
 * process_before_exec(). */
static char exec_image[48];

const char *process_exec_image(void)
{
	return exec_image[0] ? exec_image : NULL;
}

/* MAPSAMPLE_IMAGE's value: two numbers of IMAGE_DIGITS digits each, so
 * that it can be rewritten in place */
#define IMAGE_FMT "%010u:%010u"
#define IMAGE_DIGITS 10
#define IMAGE_LEN (2 * IMAGE_DIGITS + 1)

/*
 * Puts "pid:next" in place of the value of the MAPSAMPLE_IMAGE string
 * the environment holds (the launcher's, or the one an exec through us
 * passed, both IMAGE_LEN long), so that an exec that does not go through
 * our execve (a raw system call: Go's syscall.Exec passes the
 * environment as the Go runtime copied it at start-up, after our
 * constructor) still tells the next image its number.  Writes bytes of a
 * string the environment already has, never the array: safe in a fork
 * child and while other code reads the environment.
 */
static void image_mark(uint32_t pid, uint32_t next)
{
	static const char name[] = "MAPSAMPLE_IMAGE=";
	if (!environ)
		return;
	for (char **e = environ; *e; e++) {
		if (strncmp(*e, name, sizeof(name) - 1) != 0)
			continue;
		char *v = *e + sizeof(name) - 1;
		if (strlen(v) != IMAGE_LEN)
			return;
		/* by hand: snprintf() is not async-signal-safe */
		uint32_t n[2] = {pid, next};
		for (int k = 0; k < 2; k++)
			for (int d = IMAGE_DIGITS - 1; d >= 0; d--) {
				v[k * (IMAGE_DIGITS + 1) + d] =
					(char)('0' + n[k] % 10);
				n[k] /= 10;
			}
		v[IMAGE_DIGITS] = ':';
		return;
	}
}

/* The exec generation: MAPSAMPLE_IMAGE=pid:n when this pid exec'd us. */
static uint32_t read_image(void)
{
	const char *v = getenv("MAPSAMPLE_IMAGE");
	unsigned long pid, n;
	if (v && sscanf(v, "%lu:%lu", &pid, &n) == 2 && pid == (unsigned long)getpid())
		return (uint32_t)n;
	return 0;
}

/* Common set-up for a new process image or a fork child. */
static void start_process(void)
{
	S.pid = (uint32_t)getpid();
	stream_set_log_pid();
	S.samples_closed = 0;
	memset(&S.proc, 0, sizeof(S.proc));
	S.proc.tid = 0;
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = 0;
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
}

void process_init(int argc, char **argv)
{
	saved_argc = argc;
	saved_argv = argv;
	parent_pid = (uint32_t)getppid();
	S.watch = process_watch;
	S.image = read_image();
	start_process();
	image_mark(S.pid, S.image + 1);
}

/* Arguments a process's initialize record keeps: fewer than readers
 * accept (MAPLOG_MAX_ARGC), in at most half a chunk with their length
 * fields, so that the record fits in one chunk (64 KiB at least) beside
 * the path of the executable (4 KiB at most), the host name and a
 * marker.  Returns how many of the argc arguments in argv fit; *bytes
 * gets the bytes of those left out. */
static int args_kept(int argc, char **argv, size_t *bytes)
{
	size_t budget = S.cfg.chunk_size / 2 - 128, used = 0;
	int keep = 0;
	*bytes = 0;
	for (int i = 0; i < argc; i++) {
		size_t n = argv[i] ? strlen(argv[i]) : 0;
		size_t enc = n + 1 + (n >= 128) + (n >= 16384) + (n >= 2097152);
		/* one more for the marker that says what was left out */
		if (keep == i && (uint32_t)i + 1 < MAPLOG_MAX_ARGC &&
		    used + enc <= budget) {
			used += enc; /* the string and its varint length */
			keep++;
		} else {
			*bytes += n + 1;
		}
	}
	return keep;
}

void process_write_initialize(void)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	ev.ev_type = MAPLOG_TYPE_INITIALIZE;
	ev.ev_ts = now_ns();
	struct maplog_ev_initialize *in = &ev.ev_u.init;
	in->in_version_major = MAPLOG_VERSION_MAJOR;
	in->in_version_minor = MAPLOG_VERSION_MINOR;
	in->in_clock = S.cfg.wall ? MAPLOG_CLOCK_WALL : MAPLOG_CLOCK_CPU;
	/* --wall too: running threads have their CPU-time timer, blocked
	 * ones the off-CPU thread (offcpu.c); no monotonic timer */
	in->in_timer = S.tk == TK_PERF	  ? MAPLOG_TIMER_PERF_TASK_CLOCK
		       : S.tk == TK_MIXED ? MAPLOG_TIMER_PERF_USER_POSIX_SYS
					  : MAPLOG_TIMER_POSIX_THREAD_CPU;
	in->in_rate_asked = S.cfg.freq;
	in->in_period_ns = S.period_ns;
	in->in_signal = (uint32_t)S.cfg.signo;
	in->in_max_depth = S.cfg.depth;
	in->in_pid = stream_log_pid();
	in->in_ppid = parent_pid;
	in->in_wall_sec = wall.tv_sec;
	in->in_wall_nsec = (uint32_t)wall.tv_nsec;
	in->in_host = host;
	in->in_exe = exe_path;
	in->in_argc = (uint32_t)saved_argc;
	in->in_argv = (const char *const *)saved_argv;
	/* A command line too long for the record (more arguments than
	 * readers accept, or more bytes than a chunk holds) would lose the
	 * whole record: keep its first arguments and a last one that says
	 * what was left out. */
	size_t cut_bytes;
	int keep = args_kept(saved_argc, saved_argv, &cut_bytes);
	char **cut = NULL;
	size_t cut_size = ((size_t)keep + 2) * sizeof(char *);
	static char marker[96];
	if (keep < saved_argc) {
		cut = mmap(NULL, cut_size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (cut == MAP_FAILED) {
			cut = NULL;
			keep = 0; /* no arguments rather than no record */
			in->in_argc = 0;
		} else {
			memcpy(cut, saved_argv, (size_t)keep * sizeof(char *));
			snprintf(marker, sizeof(marker),
				 "[mapsample: %d more arguments, %zu bytes, "
				 "not recorded]",
				 saved_argc - keep, cut_bytes);
			cut[keep] = marker;
			cut[keep + 1] = NULL;
			in->in_argc = (uint32_t)keep + 1;
			in->in_argv = (const char *const *)cut;
		}
	}
	stream_proc_put(&ev);
	if (cut)
		munmap(cut, cut_size);
}

const char *process_exe(void)
{
	return exe_path;
}

void process_adopt_threads(uint32_t self)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);
		if (tid <= 0 || (uint32_t)tid == self)
			continue;
		struct tslot *t = slot_claim(tid);
		if (t)
			thread_begin(t, 0);
	}
	closedir(d);
}

/* Closes every stream of the process.  how/code: the exit, if known
 * (how < 0: unknown).  sigctx: called from a signal handler or _exit,
 * where only async-signal-safe steps are taken. */
static void close_all(int how, int code, int sigctx, const char *exec_path)
{
	/* no sample enters the log after this; substrate_finish() waits
	 * for those under way, so its plugins get every sample the log has */
	__atomic_store_n(&S.stopping, 1, __ATOMIC_SEQ_CST);
	substrate_finish(how, code, sigctx);
	int proc_ok = sigctx ? pthread_mutex_trylock(&S.proc_lock) == 0
			     : pthread_mutex_lock(&S.proc_lock) == 0;
	if (proc_ok)
		mhost_end(sigctx);
	sample_walk_report(sigctx);
	uint64_t samples = 0, dropped = 0, threads = 0;
	for (int i = 0, n = slot_limit(); i < n; i++) {
		struct tslot *t = &S.slots[i];
		if (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0)
			continue;
		thread_close(t, proc_ok);
		samples += t->samples;
		for (int r = 0; r < MAPLOG_DROP_MARK; r++) /* samples, not marks */
			dropped += t->dropped[r];
		threads++;
	}
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_ts = now_ns();
	if (exec_path) {
		ev.ev_type = MAPLOG_TYPE_PROC_EXEC;
		ev.ev_u.exec.ex_pid = stream_log_pid();
		ev.ev_u.exec.ex_image = S.image + 1;
		ev.ev_u.exec.ex_path = exec_path;
	} else if (how >= 0) {
		ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
		ev.ev_u.exit.px_pid = stream_log_pid();
		ev.ev_u.exit.px_how = (uint32_t)how;
		ev.ev_u.exit.px_code = code;
	}
	struct maplog_ev cl;
	memset(&cl, 0, sizeof(cl));
	cl.ev_type = MAPLOG_TYPE_CLOSE;
	cl.ev_ts = ev.ev_ts;
	cl.ev_u.close.cl_samples = samples;
	cl.ev_u.close.cl_dropped = dropped;
	cl.ev_u.close.cl_threads = threads;
	if (proc_ok) {
		/* the JIT map: before the exit record, which ends the
		 * process for readers */
		perfmap_embed();
		if (ev.ev_type)
			stream_put(&S.proc, &ev);
		stream_put(&S.proc, &cl);
		stream_seal(&S.proc);
		pthread_mutex_unlock(&S.proc_lock);
	}
}

void process_finish(int how, int code, int sigctx)
{
	if (__atomic_exchange_n(&S.finished, 1, __ATOMIC_ACQ_REL))
		return;
	if (!S.enabled)
		return;
	close_all(how, code, sigctx, NULL);
	S.enabled = 0;
}

void process_before_exec(const char *path)
{
	if (!S.enabled || __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE))
		return;
	/* the next image's generation, put in the environment the exec
	 * passes (interpose.c): not with setenv(), which may free the very
	 * array the caller is passing (su and runuser build theirs with
	 * clearenv and setenv), and which shells ignore (they pass their
	 * own copy of the exported variables) */
	snprintf(exec_image, sizeof(exec_image), IMAGE_FMT, S.pid,
		 S.image + 1);
	writer_stop();
	close_all(-1, 0, 0, path);
}

void process_exec_failed(void)
{
	if (!S.enabled || __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE))
		return;
	/* the old image goes on: new chunks, timers back on */
	for (int i = 0, n = slot_limit(); i < n; i++) {
		struct tslot *t = &S.slots[i];
		if (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0)
			continue;
		__atomic_store_n(&t->closing, 0, __ATOMIC_SEQ_CST);
		timer_arm(t);
	}
	__atomic_store_n(&S.stopping, 0, __ATOMIC_SEQ_CST);
	writer_start();
}

/*
 * A thread of ours in the program's process is visible to the kernel and
 * to libc: glibc's setuid() and relatives make every thread it knows
 * repeat the change (the "setxid" broadcast) and abort the process when
 * one thread's result differs, which it does in ours when the program
 * changed its own thread's capabilities first (capset and
 * PR_SET_KEEPCAPS are per thread: setpriv does exactly that);
 * unshare(CLONE_NEWUSER) and setns() into a user namespace fail with
 * EINVAL in a process with two threads.  So around those calls there is
 * none: the writer thread and, with --wall, the off-CPU thread are
 * stopped (joined, so they have left the kernel's thread group) and
 * started again after, with the credentials and
 * namespaces the program has then.  Samples go on meanwhile: the handler
 * maps chunks itself when the spares run out.
 */
static pthread_mutex_t solo_lock = PTHREAD_MUTEX_INITIALIZER;
static int solo_depth;		/* calls in progress */
static int solo_restart;	/* the writer ran when the first began */
static int solo_offcpu;		/* so did the off-CPU thread (--wall) */

void process_solo_begin(void)
{
	if (!S.enabled)
		return;
	pthread_mutex_lock(&solo_lock);
	if (solo_depth++ == 0) {
		solo_restart = writer_stop();
		solo_offcpu = offcpu_stop();
		substrate_solo(1);
	}
	pthread_mutex_unlock(&solo_lock);
}

void process_solo_end(void)
{
	if (!S.enabled)
		return;
	pthread_mutex_lock(&solo_lock);
	if (solo_depth > 0 && --solo_depth == 0 &&
	    !__atomic_load_n(&S.finished, __ATOMIC_ACQUIRE)) {
		if (solo_restart)
			writer_start();
		if (solo_offcpu)
			offcpu_start();
		substrate_solo(0);
	}
	pthread_mutex_unlock(&solo_lock);
}

/* 0 when this thread's last fork went on while another thread may still
 * have been inside libunwind (process_fork_prepare() gave up waiting). */
static __thread int fork_walks_done __attribute__((tls_model("initial-exec")));

/* S.forking counts the forks under way: two threads may fork at once,
 * and the first to finish must not let walks start while the other's
 * fork copies the process. */
void process_fork_prepare(void)
{
	__atomic_add_fetch(&S.forking, 1, __ATOMIC_SEQ_CST);
	uint32_t me = sys_gettid();
	uint64_t give_up = now_ns() + 500000000u;
	for (;;) {
		/* the stack walks of other threads: their handlers, the
		 * off-CPU thread's walk, the warm-ups of starting threads */
		int busy = __atomic_load_n(&S.offcpu_walking, __ATOMIC_SEQ_CST) ||
			   sample_walkers() > 0;
		for (int i = 0, n = slot_limit(); !busy && i < n; i++) {
			struct tslot *t = &S.slots[i];
			int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
			busy = tid > 0 && (uint32_t)tid != me &&
			       __atomic_load_n(&t->busy, __ATOMIC_SEQ_CST);
		}
		fork_walks_done = !busy;
		if (!busy || now_ns() > give_up)
			break;
		sched_yield();
	}
}

void process_fork_done(void)
{
	__atomic_sub_fetch(&S.forking, 1, __ATOMIC_SEQ_CST);
}

void process_after_fork_child(void)
{
	/* Only this thread exists now.  Everything mapped from the parent
	 * belongs to the parent: forget it without sealing. */
	sample_after_fork_child(fork_walks_done);
	/* the forks of the parent's other threads are not this one's */
	__atomic_store_n(&S.forking, 0, __ATOMIC_SEQ_CST);
	slot_forget_self();
	for (int i = 0, n = slot_limit(); i < n; i++) {
		struct tslot *t = &S.slots[i];
		if (t->tid == 0)
			continue;
		timer_forget(t);
		stream_slot_forget(t);
		t->tid = 0;
		t->closing = 0;
		t->busy = 0;
	}
	stream_slot_forget(&S.proc);
	stream_forget_spares();
	writer_after_fork_child();
	perfmap_after_fork_child();
	pthread_mutex_init(&S.proc_lock, NULL);
	pthread_mutex_init(&solo_lock, NULL);
	solo_depth = 0;
	parent_pid = stream_log_pid();
	S.image = 0;
	S.stopping = 0;
	start_process();
	image_mark(S.pid, 1);
	mhost_after_fork_child();
	io_after_fork_child();
	process_write_initialize();
	job_after_fork_child();
	objects_after_fork_child();
	mhost_start();
	substrate_after_fork_child();
	struct tslot *t = slot_claim((int)sys_gettid());
	if (t)
		thread_begin(t, 0);
	/* a fork child gets no writer thread (a second thread would change
	 * what it may do, e.g. unshare(2)), except for the idle metric
	 * ticks when it has metrics */
	if (mhost_poll_ms() >= 0)
		writer_start();
}

/*
 * The program's end when only threads of ours are left.  The kernel
 * ends a process when its last thread ends, and glibc calls exit(0) when
 * the last thread it started returns or calls pthread_exit(); our writer
 * and off-CPU threads count for both, so a program whose main thread
 * called pthread_exit() (or a raw exit(2)), and a thread killed under
 * strict seccomp, would stay alive for ever with only our threads left.
 * process_watch() runs on those threads (about every 200 ms) and does
 * what would have happened without them:
 *   - the main thread ended by a signal: the process dies of it;
 *   - other threads of the program outlived the main thread, and the
 *     last of them has ended: exit(0), as glibc's last thread would
 *     (atexit handlers and stdio buffers included);
 *   - else (the main thread alone ended with exit(2)): its status,
 *     through exit_group(2) with no handlers, as the kernel would.
 * The check is one read of the main thread's stat file; the process's
 * threads are listed only once the main thread has ended.
 */
static int outlived;	/* program threads outlived the main thread */

/* Reads /proc/self/task/TID/stat into buf; its state letter and exit
 * code (the field waitpid(2) would give, since Linux 3.5).  Returns 0 or
 * -1. */
static int task_stat(int tid, char *state, int *code)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	io_own_pre(&io_own_bytes_read, (long)sizeof(buf) - 1);
	ssize_t n = io_own_post(&io_own_bytes_read, (long)sizeof(buf) - 1,
				read(fd, buf, sizeof(buf) - 1));
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -1;
	*state = p[2];
	/* exit_code is field 52; the state is field 3 */
	int field = 3;
	for (char *c = p + 2; *c; c++)
		if (*c == ' ' && ++field == 52) {
			*code = atoi(c + 1);
			return 0;
		}
	*code = 0;
	return 0;
}

/* Threads of the program (not ours) that have not ended; -1 when they
 * cannot be listed. */
static int live_program_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int live = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);
		char st;
		int code;
		if (tid <= 0 || writer_owns(tid) || offcpu_owns(tid) ||
		    substrate_owns(tid))
			continue;
		if (task_stat(tid, &st, &code) == 0 && st != 'Z' && st != 'X')
			live++;
	}
	closedir(d);
	return live;
}

void process_watch(void)
{
	static uint64_t last;
	uint64_t now = now_ns();
	if (now - last < 200000000u || !S.enabled ||
	    __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE))
		return;
	last = now;
	char st;
	int code;
	if (task_stat((int)S.pid, &st, &code) || st != 'Z')
		return;
	int live = live_program_threads();
	if (live != 0) {
		outlived |= live > 0;
		return;
	}
	if (code & 0x7f) {
		int sig = code & 0x7f;
		process_finish(MAPLOG_EXIT_SIGNALED, sig, 0);
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		real_sigaction(sig, &dfl, NULL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
		syscall(SYS_tgkill, (int)S.pid, (int)syscall(SYS_gettid), sig);
		syscall(SYS_exit_group, 128 + sig);
	}
	if (outlived) {
		S.exit_status_known = 1;
		S.exit_how = MAPLOG_EXIT_NORMAL;
		S.exit_code = 0;
		real_exit(0);
	}
	process_finish(MAPLOG_EXIT_NORMAL, (code >> 8) & 0xff, 0);
	syscall(SYS_exit_group, (code >> 8) & 0xff);
}
