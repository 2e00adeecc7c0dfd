/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sampler: life of a sampled process.  The constructor reads the plan
 * the launcher left in MAPSAMPLE_* variables, opens the shared log, writes
 * the initialize and map-in records, installs the sampling and fatal
 * signal handlers and arms a timer on every thread that already exists.
 * Threads created later arm their own (interpose.c).  The process closes
 * its streams at exit, _exit, exec and fatal signals.
 *
 * Without MAPSAMPLE_OUTPUT the library does nothing: preloading it by
 * hand is harmless.
 */
#define UNW_LOCAL_ONLY
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "pluginapi/pluginapi.h"
#include "sampler/sampler_i.h"

struct sampler S = {
	.fd = -1,
	.wake_fd = -1,
	.proc_lock = PTHREAD_MUTEX_INITIALIZER,
};

static int finished;
static char exe_path[4096];
static char host[256];
static int saved_argc;
static char **saved_argv;
static uint32_t parent_pid;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE,
				    SIGABRT, SIGTRAP, SIGSYS, SIGTERM,
				    SIGINT,  SIGHUP,  SIGQUIT};

/*
 * Fatal signals whose disposition the sampler holds: the program left
 * them at SIG_DFL, and our fatal_handler() records the exit, then dies
 * by the default action.  The program must not see our handler
 * (runtimes decide things on it: Rust's std installs its stack-overflow
 * handler only over SIG_DFL), so sigaction() answers with fatal_view,
 * what the program set or would see without us.  Setting SIG_DFL keeps
 * our handler (the death is the same); setting anything else installs
 * it for real, and the signal is the program's from then on.
 */
static int fatal_held[NSIG];
static struct sigaction fatal_view[NSIG];

int fatal_sigaction(int sig, const struct sigaction *act,
		    struct sigaction *old)
{
	if (sig <= 0 || sig >= NSIG ||
	    !__atomic_load_n(&fatal_held[sig], __ATOMIC_ACQUIRE))
		return 0;
	if (old)
		*old = fatal_view[sig];
	if (act) {
		if (act->sa_handler == SIG_DFL) {
			fatal_view[sig] = *act;
		} else {
			__atomic_store_n(&fatal_held[sig], 0, __ATOMIC_RELEASE);
			real_sigaction(sig, act, NULL);
		}
	}
	return 1;
}

static uint64_t env_u64(const char *name, uint64_t def, uint64_t lo,
			uint64_t hi)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return def;
	char *e;
	unsigned long long n = strtoull(v, &e, 10);
	if (*e || n < lo || n > hi)
		return def;
	return n;
}

static int read_config(void)
{
	const char *out = getenv("MAPSAMPLE_OUTPUT");
	if (!out || !*out || strlen(out) >= sizeof(S.cfg.path))
		return -1;
	strcpy(S.cfg.path, out);
	S.cfg.freq = env_u64("MAPSAMPLE_FREQUENCY", 250, 1, 100000);
	S.cfg.wall = (int)env_u64("MAPSAMPLE_WALL", 0, 0, 1);
	S.cfg.depth = (unsigned)env_u64("MAPSAMPLE_MAX_DEPTH", 256, 1,
					 SAMPLER_MAX_DEPTH);
	S.cfg.signo = (int)env_u64("MAPSAMPLE_SIGNAL", (uint64_t)SIGRTMIN + 4,
				   1, (uint64_t)SIGRTMAX);
	uint64_t cs = env_u64("MAPSAMPLE_CHUNK_SIZE", SAMPLER_DEFAULT_CHUNK,
			      64 << 10, 16 << 20);
	S.cfg.chunk_size = (uint32_t)((cs + 4095) & ~4095ull);
	S.period_ns = 1000000000u / S.cfg.freq;
	/* Up to the scheduler tick rate (250 Hz on common kernels) a POSIX
	 * CPU-time timer gets the rate asked for and rides the tick, which
	 * happens anyway; a perf task-clock event costs an extra timer
	 * interrupt per sample, which is dear in virtual machines.  Above
	 * it, only the perf event keeps the rate. */
	const char *tk = getenv("MAPSAMPLE_TIMER");
	if (tk && strcmp(tk, "posix") == 0)
		S.cfg.force_posix = 1;
	else if (tk && strcmp(tk, "perf") == 0)
		S.cfg.force_posix = 0;
	else
		S.cfg.force_posix = S.cfg.freq <= SAMPLER_TICK_HZ;
	return 0;
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

static void write_initialize(void)
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
	in->in_timer = S.tk == TK_PERF ? MAPLOG_TIMER_PERF_TASK_CLOCK
		       : S.cfg.wall   ? MAPLOG_TIMER_POSIX_MONOTONIC
				      : MAPLOG_TIMER_POSIX_THREAD_CPU;
	in->in_rate_asked = S.cfg.freq;
	in->in_period_ns = S.period_ns;
	in->in_signal = (uint32_t)S.cfg.signo;
	in->in_max_depth = S.cfg.depth;
	in->in_pid = S.pid;
	in->in_ppid = parent_pid;
	in->in_wall_sec = wall.tv_sec;
	in->in_wall_nsec = (uint32_t)wall.tv_nsec;
	in->in_host = host;
	in->in_exe = exe_path;
	in->in_argc = (uint32_t)saved_argc;
	in->in_argv = (const char *const *)saved_argv;
	proc_put(&ev);
}

void thread_begin(struct tslot *t, uint32_t creator)
{
	/* the thread's own CPU clock: threads adopted at start-up are
	 * begun from the constructor's thread */
	struct timespec cpu = {0, 0};
	clock_gettime((clockid_t)((~(unsigned)t->tid << 3) | 6), &cpu);
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
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, name, sizeof(name) - 1);
		own_io(&maps_own_bytes_read, n);
		name[n > 0 ? n : 0] = 0;
		char *nl = strchr(name, '\n');
		if (nl)
			*nl = 0;
		close(fd);
	}
	ev.ev_u.tbegin.tb_name = name;
	proc_put(&ev);
	timer_arm(t);
}

/* Closes slot t: timer off, drops and THREAD_END written, chunk sealed.
 * Async-signal-safe when proc_ok is 0 (the process record then goes to
 * the thread's own chunk). */
static void close_slot(struct tslot *t, int proc_ok)
{
	if (t != slot_self())
		slot_quiesce(t);
	else
		__atomic_store_n(&t->closing, 1, __ATOMIC_SEQ_CST);
	timer_disarm(t);
	stream_flush_drops(t);
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_THREAD_END;
	ev.ev_ts = now_ns();
	ev.ev_u.tend.te_tid = (uint32_t)t->tid;
	ev.ev_u.tend.te_samples = t->samples;
	__atomic_fetch_add(&S.samples_closed, t->samples, __ATOMIC_RELAXED);
	uint64_t d = 0;
	for (int r = 0; r < 6; r++)
		d += t->dropped[r];
	ev.ev_u.tend.te_dropped = d;
	struct timespec cpu;
	clockid_t clk = (clockid_t)((~(unsigned)t->tid << 3) | 6);
	if (clock_gettime(clk, &cpu) == 0) {
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
	if (!t || __atomic_load_n(&finished, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&S.proc_lock);
	close_slot(t, 1);
	pthread_mutex_unlock(&S.proc_lock);
	slot_release(t);
}

/* Closes every stream of the process.  how/code: the exit, if known
 * (how < 0: unknown).  sigctx: called from a signal handler or _exit,
 * where only async-signal-safe steps are taken. */
static void close_all(int how, int code, int sigctx, const char *exec_path)
{
	__atomic_store_n(&S.stopping, 1, __ATOMIC_SEQ_CST);
	int proc_ok = sigctx ? pthread_mutex_trylock(&S.proc_lock) == 0
			     : pthread_mutex_lock(&S.proc_lock) == 0;
	if (proc_ok)
		metrics_end(sigctx);
	sample_walk_report(sigctx);
	if (!sigctx && __atomic_load_n(&app_wants_signal, __ATOMIC_RELAXED))
		pluginapi_warn("warning: pid %u set a handler of its own for "
			  "signal %d, which carries mapsample's samples; it "
			  "never ran: leave --signal at its default (RTMIN+4) "
			  "or pick a signal the program does not use",
			  S.pid, S.cfg.signo);
	uint64_t samples = 0, dropped = 0, threads = 0;
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		struct tslot *t = &S.slots[i];
		if (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0)
			continue;
		close_slot(t, proc_ok);
		samples += t->samples;
		for (int r = 0; r < 6; r++)
			dropped += t->dropped[r];
		threads++;
	}
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_ts = now_ns();
	if (exec_path) {
		ev.ev_type = MAPLOG_TYPE_PROC_EXEC;
		ev.ev_u.exec.ex_pid = S.pid;
		ev.ev_u.exec.ex_image = S.image + 1;
		ev.ev_u.exec.ex_path = exec_path;
	} else if (how >= 0) {
		ev.ev_type = MAPLOG_TYPE_PROC_EXIT;
		ev.ev_u.exit.px_pid = S.pid;
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
		if (ev.ev_type)
			stream_put(&S.proc, &ev);
		stream_put(&S.proc, &cl);
		stream_seal(&S.proc);
		pthread_mutex_unlock(&S.proc_lock);
	}
}

void process_finish(int how, int code, int sigctx)
{
	if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL))
		return;
	if (!S.enabled)
		return;
	close_all(how, code, sigctx, NULL);
	S.enabled = 0;
}

void process_before_exec(const char *path)
{
	if (!S.enabled || __atomic_load_n(&finished, __ATOMIC_ACQUIRE))
		return;
	/* tell the next image which generation it is */
	char v[64];
	snprintf(v, sizeof(v), "%u:%u", S.pid, S.image + 1);
	setenv("MAPSAMPLE_IMAGE", v, 1);
	stream_stop_writer();
	close_all(-1, 0, 0, path);
}

void process_exec_failed(void)
{
	if (!S.enabled || __atomic_load_n(&finished, __ATOMIC_ACQUIRE))
		return;
	/* the old image goes on: new chunks, timers back on */
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		struct tslot *t = &S.slots[i];
		if (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0)
			continue;
		__atomic_store_n(&t->closing, 0, __ATOMIC_SEQ_CST);
		timer_arm(t);
	}
	__atomic_store_n(&S.stopping, 0, __ATOMIC_SEQ_CST);
	stream_start_writer();
}

/* ---- fatal signals ---- */

static void fatal_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	int saved = errno;
	if (!__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL) && S.enabled)
		close_all(MAPLOG_EXIT_SIGNALED, sig, 1, NULL);
	/* die the way the program would have without us */
	__atomic_store_n(&fatal_held[sig], 0, __ATOMIC_RELEASE);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	real_sigaction(sig, &dfl, NULL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
	errno = saved;
}

static void install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sample_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	real_sigaction(S.cfg.signo, &sa, NULL);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
	     i++) {
		struct sigaction old;
		if (real_sigaction(fatal_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue; /* the program handles it: leave it */
		struct sigaction fa;
		memset(&fa, 0, sizeof(fa));
		fa.sa_sigaction = fatal_handler;
		fa.sa_flags = SA_SIGINFO | SA_RESTART | SA_RESETHAND;
		sigfillset(&fa.sa_mask);
		fatal_view[fatal_signals[i]] = old;
		if (real_sigaction(fatal_signals[i], &fa, NULL) == 0)
			__atomic_store_n(&fatal_held[fatal_signals[i]], 1,
					 __ATOMIC_RELEASE);
	}
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, S.cfg.signo);
	real_pthread_sigmask(SIG_UNBLOCK, &one, NULL);
}

/* Threads that existed before the constructor (started by other
 * libraries' constructors): arm them from here. */
static void adopt_existing_threads(uint32_t self)
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

/* Common set-up for a new process image or a fork child. */
static void start_process(void)
{
	S.pid = (uint32_t)getpid();
	S.samples_closed = 0;
	memset(&S.proc, 0, sizeof(S.proc));
	S.proc.tid = 0;
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = 0;
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(host, sizeof(host), "%s", u.nodename);
}

__attribute__((constructor)) static void sampler_init(int argc, char **argv,
						       char **envp)
{
	(void)envp;
	if (read_config())
		return;
	interpose_init();
	if (stream_open_file()) {
		fprintf(stderr, "mapsample: %s: cannot open the log: %s; this "
				"process is not sampled\n",
			S.cfg.path, strerror(errno));
		return;
	}
	saved_argc = argc;
	saved_argv = argv;
	parent_pid = (uint32_t)getppid();
	S.image = read_image();
	start_process();
	/* libunwind opens its address-check pipe when it initializes */
	uint64_t fifos[16];
	io_fifos(fifos);
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	/* plugins load and initialize before any timer is armed, with the
	 * I/O accounting already answering mapsample_io_bytes() */
	io_start();
	metrics_load();

	uint32_t self = sys_gettid();
	struct tslot *t = slot_claim((int)self);
	if (!t)
		return;
	/* decide the timer kind before the initialize record names it */
	S.tk = TK_NONE;
	S.enabled = 1;
	/* The handler's dl_iterate_phdr answers from the snapshot, so it
	 * must exist before the first signal: a lookup that finds nothing
	 * is cached by libunwind's fast trace as an untraceable frame, and
	 * every later walk on that thread then takes the slow step walk. */
	maps_snapshot();
	install_handlers();
	sample_warm_up();
	io_find_unwind_pipe(fifos);
	timer_arm(t);
	write_initialize();
	maps_record_all();
	io_rebase();
	metrics_start();
	thread_begin(t, 0);
	adopt_existing_threads(self);
	stream_start_writer();
}

__attribute__((destructor)) static void sampler_fini(void)
{
	int how = S.exit_status_known ? S.exit_how : -1;
	/* the writer thread first: its I/O must be over before the last
	 * metric sample reads the I/O counters */
	stream_stop_writer();
	process_finish(how, S.exit_code, 0);
}

void process_after_fork_child(void)
{
	/* Only this thread exists now.  Everything mapped from the parent
	 * belongs to the parent: forget it without sealing. */
	slot_forget_self();
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		struct tslot *t = &S.slots[i];
		if (t->tid == 0)
			continue;
		if (t->tk == TK_PERF && t->perf_fd >= 0)
			close(t->perf_fd);
		t->armed = 0;
		t->tk = TK_NONE;
		stream_slot_forget(t);
		t->tid = 0;
		t->closing = 0;
		t->busy = 0;
	}
	stream_slot_forget(&S.proc);
	for (int i = 0; i < SAMPLER_SPARES; i++) {
		if (S.spare[i])
			syscall(SYS_munmap, S.spare[i], S.cfg.chunk_size);
		S.spare[i] = NULL;
	}
	if (S.wake_fd >= 0)
		close(S.wake_fd);
	S.wake_fd = -1;
	S.writer_running = 0;
	pthread_mutex_init(&S.proc_lock, NULL);
	parent_pid = S.pid;
	S.image = 0;
	S.stopping = 0;
	start_process();
	metrics_after_fork_child();
	io_after_fork_child();
	write_initialize();
	maps_record_all();
	metrics_start();
	struct tslot *t = slot_claim((int)sys_gettid());
	if (t)
		thread_begin(t, 0);
	/* a fork child gets no writer thread (a second thread would change
	 * what it may do, e.g. unshare(2)), except for the idle metric
	 * ticks when it has metrics */
	if (metrics_poll_ms() >= 0)
		stream_start_writer();
}
