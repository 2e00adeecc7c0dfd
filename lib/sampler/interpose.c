/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * interpose: the libc calls libmapsampler wraps, so that every thread and
 * process of the program is sampled and the program notices nothing.
 *
 *   pthread_create      the new thread claims a slot and arms its timer;
 *                       a thread-key destructor closes it at thread exit
 *   pthread_key_create  libunwind's key destructor runs as a stack walk
 *   fork                the child gets its own streams and timer
 *   exec*, posix_spawn* the environment keeps LD_PRELOAD and MAPSAMPLE_*,
 *                       the old image closes its streams first
 *   exit, _exit, _Exit, quick_exit, return from main (__libc_start_main)
 *                       streams closed with the exit status
 *   dlopen, dlclose     map-in / map-out records, handler snapshot rebuilt
 *   sigaction, signal   the program sees the action it set for our
 *                       sampling signal (a handler moves the samples
 *                       to a free signal: sigown.c); so do fatal
 *                       signals whose default action we hold
 *                       (fatal_sigaction())
 *   sigprocmask, pthread_sigmask
 *                       our sampling signal is never blocked; the
 *                       program reads the mask it set (sigown.c)
 *   sigwait, sigwaitinfo, sigtimedwait, signalfd, kill, raise, killpg,
 *   sigqueue, tgkill, pthread_kill, pthread_sigqueue
 *                       the program waits for or sends a signal: when
 *                       it is our sampling signal, samples move first
 *   exec* of a set-user-ID (or -group-ID, or capability) program
 *                       said on one line (secure.c): it runs unsampled
 *   msync, mincore      libunwind's address checks in the handler are
 *                       kept out of the I/O accounting (io.c)
 *   setuid and the other credential calls, setgroups, initgroups,
 *   unshare, setns      made with no thread of ours in the process
 *                       (process_solo_begin(): glibc's setxid
 *                       broadcast, user namespaces)
 *
 * The real functions are called through real.c.  Not followed: threads
 * made with a raw clone(2), and programs that clear LD_PRELOAD through a
 * raw execve system call.
 *
 * The top of the sampler but for the constructor: it calls the process
 * and thread life (process.c, thread.c), sigown.c, secure.c, fatal.c,
 * slot.c, sample.c's warm-ups, objects.c, stream.c, dlsearch.c and
 * real.c, and nothing calls it but the program (and sampler.c's
 * interpose_init()).
 */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "sampler/sampler_i.h"

extern char **environ;

static const char *const ours[] = {
	"MAPSAMPLE_OUTPUT",   "MAPSAMPLE_FREQUENCY", "MAPSAMPLE_WALL",
	"MAPSAMPLE_MAX_DEPTH", "MAPSAMPLE_SIGNAL",   "MAPSAMPLE_CHUNK_SIZE",
	"MAPSAMPLE_IMAGE",    "LD_PRELOAD",          "MAPSAMPLE_TIMER",
	"MAPSAMPLE_METRICS_PLAN", "MAPSAMPLE_METRIC_INTERVAL",
	"MAPSAMPLE_RUN_ID",
};
#define NOURS (sizeof(ours) / sizeof(ours[0]))
/* Their values at start-up: the program may clear its environment
 * (clearenv, env -i) before it execs. */
static char *ours_saved[NOURS];

/* The value of our variable j now, or as it was at start-up. */
static const char *our_value(size_t j)
{
	const char *v = getenv(ours[j]);
	return v ? v : ours_saved[j];
}

static pthread_key_t slot_key;

static void slot_key_done(void *p)
{
	thread_end(p);
}

static void quick_exit_done(void);
static void sends_init(void);

void interpose_init(void)
{
	sends_init();
	pthread_key_create(&slot_key, slot_key_done);
	for (size_t j = 0; j < NOURS; j++) {
		const char *v = getenv(ours[j]);
		if (v && !ours_saved[j])
			ours_saved[j] = strdup(v);
	}
	at_quick_exit(quick_exit_done);
}

/* ---- threads ---- */

struct start {
	void *(*fn)(void *);
	void *arg;
	uint32_t creator;
	int app_blocked, mask_sig; /* the creator's view of its mask, which
				      the new thread inherits */
};

static void *trampoline(void *p)
{
	struct start st = *(struct start *)p;
	free(p);
	handler_app_blocked = st.app_blocked;
	handler_mask_sig = st.mask_sig;
	if (__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE)) {
		sample_thread_warm_up();
		struct tslot *t = slot_claim((int)sys_gettid());
		if (t) {
			pthread_setspecific(slot_key, t);
			thread_begin(t, st.creator);
		}
	}
	return st.fn(st.arg);
}

MAPS_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr,
			       void *(*fn)(void *), void *arg)
{
	if (!S.enabled)
		return real_pthread_create(th, attr, fn, arg);
	struct start *st = malloc(sizeof(*st));
	if (!st)
		return real_pthread_create(th, attr, fn, arg);
	st->fn = fn;
	st->arg = arg;
	st->creator = sys_gettid();
	st->app_blocked = handler_app_blocked;
	st->mask_sig = handler_mask_sig;
	int rc = real_pthread_create(th, attr, trampoline, st);
	if (rc)
		free(st);
	return rc;
}

/* libunwind's key destructor runs as a stack walk (sample.c): a thread's
 * exit then never leaves one of libunwind's locks held in a fork child */
MAPS_EXPORT int pthread_key_create(pthread_key_t *key, void (*dtor)(void *))
{
	return real_pthread_key_create(key, sample_key_dtor(dtor));
}

/* ---- processes ---- */

MAPS_EXPORT pid_t fork(void)
{
	if (!S.enabled)
		return real_fork();
	/* frequent signals can make fork restart forever: hold ours off */
	sigset_t one, old;
	sigemptyset(&one);
	sigaddset(&one, S.cfg.signo);
	real_pthread_sigmask(SIG_BLOCK, &one, &old);
	int saved;
	substrate_fork_prepare();
	process_fork_prepare();
	pid_t pid = real_fork();
	saved = errno;
	process_fork_done();
	if (pid == 0) {
		process_after_fork_child();
	} else {
		substrate_fork_parent(pid);
	}
	if (pid > 0) {
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_PROC_FORK;
		ev.ev_ts = now_ns();
		ev.ev_u.fork.fk_ppid = S.pid;
		ev.ev_u.fork.fk_pid = (uint32_t)pid;
		stream_proc_put(&ev);
	}
	real_pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return pid;
}

/*
 * The environment a new image gets: the program's, with our variables
 * and LD_PRELOAD put back if the program dropped them.  Built on the
 * caller's stack (the caller may be a vfork child): out has room for
 * n + NOURS + 2 entries, buf for the strings we add.
 */
static int env_count(char *const *envp)
{
	int n = 0;
	while (envp && envp[n])
		n++;
	return n;
}

/* Whether the entry e is variable name's. */
static int env_is(const char *e, const char *name)
{
	size_t l = strlen(name);
	return strncmp(e, name, l) == 0 && e[l] == '=';
}

/* Bytes env_build() needs for the variables envp lacks, for
 * MAPSAMPLE_IMAGE=image when image is not NULL, and for the rank a
 * rank's children descend from (job_rank_env()). */
static size_t env_need(char *const *envp, const char *image)
{
	size_t need = 1;
	if (image)
		need += sizeof("MAPSAMPLE_IMAGE=") + strlen(image);
	const char *rk = job_rank_env();
	if (rk)
		need += sizeof("MAPSAMPLE_RANK_PID=") + strlen(rk);
	for (size_t j = 0; j < NOURS; j++) {
		int have = 0;
		for (int i = 0; envp && envp[i] && !have; i++)
			have = env_is(envp[i], ours[j]);
		const char *v = our_value(j);
		if (!have && v)
			need += strlen(ours[j]) + strlen(v) + 2;
	}
	return need;
}
/* NAME=VALUE (name with its '=') written at *buf, of *blen bytes, and
 * its address put in *slot, when it fits: 1; 0 (nothing written) when
 * not.  No allocation: exec wrappers call it. */
static int env_put(char **buf, size_t *blen, const char *name,
		   const char *value, char **slot)
{
	size_t used = strlen(name) + strlen(value) + 1;
	if (*blen < used)
		return 0;
	strcpy(*buf, name);
	strcat(*buf, value);
	*slot = *buf;
	*buf += used;
	*blen -= used;
	return 1;
}


/* out: envp with our variables it lacks added, with image (not NULL)
 * as the value of MAPSAMPLE_IMAGE in place of the one it has, and with
 * MAPSAMPLE_RANK_PID as job_rank_env() says (none for ""). */
static void env_build(char *const *envp, const char *image, char **out,
		      char *buf, size_t blen)
{
	const size_t nours = NOURS;
	int k = 0;
	int have[NOURS] = {0};
	if (image)
		k += env_put(&buf, &blen, "MAPSAMPLE_IMAGE=", image, &out[k]);
	const char *rk = job_rank_env();
	if (rk && *rk)
		k += env_put(&buf, &blen, "MAPSAMPLE_RANK_PID=", rk, &out[k]);
	for (int i = 0; envp && envp[i]; i++) {
		if (image && env_is(envp[i], "MAPSAMPLE_IMAGE"))
			continue;
		if (rk && env_is(envp[i], "MAPSAMPLE_RANK_PID"))
			continue;
		for (size_t j = 0; j < nours; j++)
			if (env_is(envp[i], ours[j]))
				have[j] = 1;
		out[k++] = envp[i];
	}
	for (size_t j = 0; j < nours; j++) {
		if (have[j] || (image && strcmp(ours[j], "MAPSAMPLE_IMAGE") == 0))
			continue;
		const char *v = our_value(j);
		size_t need = strlen(ours[j]) + (v ? strlen(v) : 0) + 2;
		if (!v || need > blen)
			continue;
		strcpy(buf, ours[j]);
		strcat(buf, "=");
		strcat(buf, v);
		out[k++] = buf;
		buf += need;
		blen -= need;
	}
	out[k] = NULL;
}

/* WITH_ENV(envp, image, newenv): declares use_newenv, the environment
 * to pass (env_build's, on the stack; envp itself when it is huge). */
#define WITH_ENV(envp, image, newenv)                                       \
	int n_ = env_count(envp);                                           \
	char *newenv[n_ < 4096 ? n_ + NOURS + 3 : 1];                       \
	size_t eneed_ = n_ < 4096 ? env_need(envp, image) : 1;              \
	char ebuf_[eneed_ < (1u << 20) ? eneed_ : 1];                       \
	char *const *use_##newenv = envp;                                   \
	if (n_ < 4096) {                                                    \
		env_build(envp, image, newenv, ebuf_, sizeof(ebuf_));       \
		use_##newenv = newenv;                                      \
	}

/*
 * A vfork(2) child (or a raw clone sharing our memory) runs in the
 * parent's memory until it execs: it must not touch the parent's
 * sampler state, only pass the environment on.  It is told apart by its
 * pid, which is not the one the sampler set up for.
 */
static int foreign_child(void)
{
	return (uint32_t)syscall(SYS_getpid) != S.pid;
}

MAPS_EXPORT int execve(const char *path, char *const argv[],
		       char *const envp[])
{
	if (!S.enabled)
		return real_execve(path, argv, envp);
	secure_exec_note(path, 0);
	if (foreign_child()) {
		WITH_ENV(envp, NULL, env);
		return real_execve(path, argv, use_env);
	}
	process_before_exec(path);
	sigown_before_exec();
	WITH_ENV(envp, process_exec_image(), env);
	int rc = real_execve(path, argv, use_env);
	int e = errno;
	sigown_exec_failed();
	process_exec_failed();
	errno = e;
	return rc;
}

MAPS_EXPORT int execvpe(const char *file, char *const argv[],
			char *const envp[])
{
	if (!S.enabled)
		return real_execvpe(file, argv, envp);
	secure_exec_note(file, 1);
	if (foreign_child()) {
		WITH_ENV(envp, NULL, env);
		return real_execvpe(file, argv, use_env);
	}
	process_before_exec(file);
	sigown_before_exec();
	WITH_ENV(envp, process_exec_image(), env);
	int rc = real_execvpe(file, argv, use_env);
	int e = errno;
	sigown_exec_failed();
	process_exec_failed();
	errno = e;
	return rc;
}

MAPS_EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

MAPS_EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

MAPS_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (!S.enabled)
		return real_fexecve(fd, argv, envp);
	if (foreign_child()) {
		WITH_ENV(envp, NULL, env);
		return real_fexecve(fd, argv, use_env);
	}
	process_before_exec("(fexecve)");
	sigown_before_exec();
	WITH_ENV(envp, process_exec_image(), env);
	int rc = real_fexecve(fd, argv, use_env);
	int e = errno;
	sigown_exec_failed();
	process_exec_failed();
	errno = e;
	return rc;
}

/* execl and friends: gather the variadic arguments, then as execv*. */
#define GATHER_ARGS(arg0, argv)                                             \
	va_list ap_;                                                        \
	int argc_ = 1;                                                      \
	va_start(ap_, arg0);                                                \
	while (va_arg(ap_, char *))                                         \
		argc_++;                                                    \
	va_end(ap_);                                                        \
	char *argv[argc_ + 1];                                              \
	argv[0] = (char *)(arg0);                                           \
	va_start(ap_, arg0);                                                \
	for (int i_ = 1; i_ <= argc_; i_++)                                 \
		argv[i_] = va_arg(ap_, char *);

MAPS_EXPORT int execl(const char *path, const char *arg, ...)
{
	GATHER_ARGS(arg, argv);
	va_end(ap_);
	return execve(path, argv, environ);
}

MAPS_EXPORT int execlp(const char *file, const char *arg, ...)
{
	GATHER_ARGS(arg, argv);
	va_end(ap_);
	return execvpe(file, argv, environ);
}

MAPS_EXPORT int execle(const char *path, const char *arg, ...)
{
	GATHER_ARGS(arg, argv);
	char *const *envp = va_arg(ap_, char *const *);
	va_end(ap_);
	return execve(path, argv, envp);
}

MAPS_EXPORT int posix_spawn(pid_t *pid, const char *path,
			    const posix_spawn_file_actions_t *fa,
			    const posix_spawnattr_t *at, char *const argv[],
			    char *const envp[])
{
	if (!S.enabled)
		return real_posix_spawn(pid, path, fa, at, argv, envp);
	secure_exec_note(path, 0);
	WITH_ENV(envp, NULL, env);
	return real_posix_spawn(pid, path, fa, at, argv, use_env);
}

MAPS_EXPORT int posix_spawnp(pid_t *pid, const char *file,
			     const posix_spawn_file_actions_t *fa,
			     const posix_spawnattr_t *at, char *const argv[],
			     char *const envp[])
{
	if (!S.enabled)
		return real_posix_spawnp(pid, file, fa, at, argv, envp);
	secure_exec_note(file, 1);
	WITH_ENV(envp, NULL, env);
	return real_posix_spawnp(pid, file, fa, at, argv, use_env);
}

static void note_exit(int status)
{
	if (!S.exit_status_known) {
		S.exit_status_known = 1;
		S.exit_how = MAPLOG_EXIT_NORMAL;
		S.exit_code = status & 0xff;
	}
}

MAPS_EXPORT void exit(int status)
{
	note_exit(status);
	real_exit(status);
}

/*
 * quick_exit(): glibc runs the at_quick_exit() handlers, then ends the
 * process through an _exit of its own that our wrapper does not see.
 * Ours, registered by interpose_init() before the program can register
 * any (they run in reverse order), runs last and closes the streams
 * with the status quick_exit() was given.
 */
static int quick_status;

static void quick_exit_done(void)
{
	if (!foreign_child())
		process_finish(MAPLOG_EXIT_NORMAL, quick_status & 0xff,
			       SIGCTX_EXIT);
}

MAPS_EXPORT void quick_exit(int status)
{
	typedef void (*quick_fn)(int) __attribute__((noreturn));
	static quick_fn fn;
	if (!fn)
		fn = (quick_fn)real_sym("quick_exit");
	quick_status = status;
	note_exit(status);
	if (fn)
		fn(status);
	_exit(status);
}

MAPS_EXPORT void _exit(int status)
{
	if (!foreign_child())
		process_finish(MAPLOG_EXIT_NORMAL, status & 0xff, SIGCTX_EXIT);
	real__exit(status);
}

MAPS_EXPORT void _Exit(int status)
{
	if (!foreign_child())
		process_finish(MAPLOG_EXIT_NORMAL, status & 0xff, SIGCTX_EXIT);
	real__Exit(status);
}

static real_main_fn program_main;

/* glibc calls main through this; not declared in any header */
MAPS_EXPORT int __libc_start_main(real_main_fn main, int argc, char **argv,
				  void (*init)(void), void (*fini)(void),
				  void (*rtld_fini)(void), void *stack_end);

static int main_wrapper(int argc, char **argv, char **envp)
{
	int rc = program_main(argc, argv, envp);
	note_exit(rc);
	return rc;
}

MAPS_EXPORT int __libc_start_main(real_main_fn main, int argc, char **argv,
				  void (*init)(void), void (*fini)(void),
				  void (*rtld_fini)(void), void *stack_end)
{
	program_main = main;
	return real___libc_start_main(main_wrapper, argc, argv, init, fini,
				      rtld_fini, stack_end);
}

/* ---- loaded objects ---- */

MAPS_EXPORT void *dlopen(const char *file, int mode)
{
	/* searched as the caller's dlopen would search (dlsearch.c) */
	void *h = dlsearch_open(__builtin_return_address(0), file, mode,
				real_dlopen);
	if (h && S.enabled && !S.stopping)
		objects_rescan();
	return h;
}

MAPS_EXPORT int dlclose(void *h)
{
	int rc = real_dlclose(h);
	if (rc == 0 && S.enabled && !S.stopping) {
		objects_rescan();
		unw_flush_cache(unw_local_addr_space, 0, 0);
		sample_fast_walk_off();
	}
	return rc;
}

/*
 * msync, mincore: libunwind calls one of them before it validates an
 * address with a write to a pipe, which the I/O accounting must not
 * count as the program's (io.c).  real_msync() and real_mincore() do no
 * lookup in the handler (real.c), so they are async-signal-safe there.
 */
MAPS_EXPORT int msync(void *addr, size_t len, int flags)
{
	if (!in_handler)
		return real_msync(addr, len, flags);
	/* a check follows when this succeeds: count it first, so that a
	 * concurrent reading sees the program's bytes too low, not high */
	__atomic_fetch_add(&io_unw_checks, 1, __ATOMIC_RELAXED);
	int rc = real_msync(addr, len, flags);
	if (rc)
		__atomic_fetch_sub(&io_unw_checks, 1, __ATOMIC_RELAXED);
	return rc;
}

MAPS_EXPORT int mincore(void *addr, size_t len, unsigned char *vec)
{
	if (!in_handler)
		return real_mincore(addr, len, vec);
	__atomic_fetch_add(&io_unw_checks, 1, __ATOMIC_RELAXED);
	int rc = real_mincore(addr, len, vec);
	if (rc)
		__atomic_fetch_sub(&io_unw_checks, 1, __ATOMIC_RELAXED);
	return rc;
}

/* ---- signals ---- */

MAPS_EXPORT int sigaction(int sig, const struct sigaction *act,
			  struct sigaction *old)
{
	/* ours: the program keeps its view (sigown.c) */
	if (sigown_sigaction(sig, act, old))
		return 0;
	if (fatal_sigaction(sig, act, old))
		return 0;
	return real_sigaction(sig, act, old);
}

MAPS_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old))
		return SIG_ERR;
	return old.sa_handler;
}

MAPS_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return sigown_mask(how, set, old, real_sigprocmask);
}

MAPS_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return sigown_mask(how, set, old, real_pthread_sigmask);
}

/*
 * Calls with which the program waits for or sends a signal: when it is
 * the sampling signal, the samples move to a free one first, and the
 * call then works on a signal that is the program's alone.  WAITS(ret,
 * name, params, set, args) and SENDS(name, params, sig, args) define the
 * wrapper of libc's name; ENOSYS when libc has none.
 */
#define WAITS(ret, name, params, set, args)                                 \
	static ret(*real_##name##_) params;                                 \
	MAPS_EXPORT ret name params                                         \
	{                                                                   \
		sigown_uses_set(set, "waits for");                          \
		if (!real_##name##_)                                        \
			real_##name##_ = (ret(*) params)real_sym(#name);    \
		if (!real_##name##_) {                                      \
			errno = ENOSYS;                                     \
			return -1;                                          \
		}                                                           \
		return real_##name##_ args;                                 \
	}
/* looked up by interpose_init(): the program may send a signal from a
 * signal handler, where dlsym must not run */
#define SENDS(name, params, sig, args)                                      \
	static int(*real_##name##_) params;                                 \
	MAPS_EXPORT int name params                                         \
	{                                                                   \
		sigown_uses(sig, "sends");                                  \
		if (!real_##name##_) /* the sampler is off */               \
			real_##name##_ = (int(*) params)real_sym(#name);    \
		if (!real_##name##_) {                                      \
			errno = ENOSYS;                                     \
			return -1;                                          \
		}                                                           \
		return real_##name##_ args;                                 \
	}

WAITS(int, sigwait, (const sigset_t *s, int *sig), s, (s, sig))
WAITS(int, sigwaitinfo, (const sigset_t *s, siginfo_t *i), s, (s, i))
WAITS(int, sigtimedwait,
      (const sigset_t *s, siginfo_t *i, const struct timespec *t), s,
      (s, i, t))
WAITS(int, signalfd, (int fd, const sigset_t *s, int flags), s,
      (fd, s, flags))
SENDS(kill, (pid_t pid, int sig), sig, (pid, sig))
SENDS(killpg, (pid_t pg, int sig), sig, (pg, sig))
SENDS(raise, (int sig), sig, (sig))
SENDS(sigqueue, (pid_t pid, int sig, const union sigval v), sig,
      (pid, sig, v))
SENDS(tgkill, (pid_t tgid, pid_t tid, int sig), sig, (tgid, tid, sig))
SENDS(pthread_kill, (pthread_t th, int sig), sig, (th, sig))
SENDS(pthread_sigqueue, (pthread_t th, int sig, const union sigval v), sig,
      (th, sig, v))

static void sends_init(void)
{
#define LOOK_UP(name) real_##name##_ = (__typeof__(real_##name##_))real_sym(#name)
	LOOK_UP(kill);
	LOOK_UP(killpg);
	LOOK_UP(raise);
	LOOK_UP(sigqueue);
	LOOK_UP(tgkill);
	LOOK_UP(pthread_kill);
	LOOK_UP(pthread_sigqueue);
#undef LOOK_UP
}

/*
 * Credential and namespace calls, made while the process has no thread
 * of ours (process_solo_begin() says why).  SOLO(ret, name, params,
 * args) defines the wrapper of libc's name; ENOSYS when libc has none.
 */
#define SOLO(ret, name, params, args)                                       \
	MAPS_EXPORT ret name params                                         \
	{                                                                   \
		static ret(*fn_) params;                                    \
		if (!fn_)                                                   \
			fn_ = (ret(*) params)real_sym(#name);               \
		if (!fn_) {                                                 \
			errno = ENOSYS;                                     \
			return -1;                                          \
		}                                                           \
		process_solo_begin();                                       \
		ret r_ = fn_ args;                                          \
		int e_ = errno;                                             \
		process_solo_end();                                         \
		errno = e_;                                                 \
		return r_;                                                  \
	}

SOLO(int, setuid, (uid_t u), (u))
SOLO(int, setgid, (gid_t g), (g))
SOLO(int, seteuid, (uid_t u), (u))
SOLO(int, setegid, (gid_t g), (g))
SOLO(int, setreuid, (uid_t r, uid_t e), (r, e))
SOLO(int, setregid, (gid_t r, gid_t e), (r, e))
SOLO(int, setresuid, (uid_t r, uid_t e, uid_t s), (r, e, s))
SOLO(int, setresgid, (gid_t r, gid_t e, gid_t s), (r, e, s))
SOLO(int, setgroups, (size_t n, const gid_t *l), (n, l))
SOLO(int, initgroups, (const char *u, gid_t g), (u, g))
SOLO(int, unshare, (int flags), (flags))
SOLO(int, setns, (int fd, int type), (fd, type))
