/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * real: the libc functions behind the calls libmapsampler wraps
 * (interpose.c, objects.c), found with dlsym(RTLD_NEXT) and called past
 * our wrappers by every module that needs the real thing: real_fork(),
 * real_sigaction(), real_dlopen() and so on.
 *
 * Each is looked up the first time it is needed, since wrappers may run
 * before our constructor, and real_init() looks them all up from the
 * constructor, before any signal handler of ours is installed: a lookup
 * (dlsym) is not async-signal-safe, so the functions called in signal
 * context (real_sigaction() and real_pthread_sigmask() from the fatal
 * handler, real_msync() and real_mincore() under libunwind in the
 * sampling handler) then only load a pointer.  real_msync() and
 * real_mincore() never look up while in_handler is set, and fall back to
 * the raw system call when libc's was not found.
 *
 * The bottom of the sampler's modules: it calls nothing of ours.
 */
#include <dlfcn.h>
#include <link.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler/sampler_i.h"

#define RESOLVE(name)                                                       \
	do {                                                                \
		if (!fn_##name)                                             \
			fn_##name = (__typeof__(fn_##name))dlsym(RTLD_NEXT, \
								 #name);    \
	} while (0)

static int (*fn_pthread_create)(pthread_t *, const pthread_attr_t *,
				void *(*)(void *), void *);
static int (*fn_pthread_key_create)(pthread_key_t *, void (*)(void *));
static pid_t (*fn_fork)(void);
static int (*fn_execve)(const char *, char *const[], char *const[]);
static int (*fn_execvpe)(const char *, char *const[], char *const[]);
static int (*fn_fexecve)(int, char *const[], char *const[]);
static int (*fn_posix_spawn)(pid_t *, const char *,
			     const posix_spawn_file_actions_t *,
			     const posix_spawnattr_t *, char *const[],
			     char *const[]);
static int (*fn_posix_spawnp)(pid_t *, const char *,
			      const posix_spawn_file_actions_t *,
			      const posix_spawnattr_t *, char *const[],
			      char *const[]);
static void (*fn_exit)(int) __attribute__((noreturn));
static void (*fn__exit)(int) __attribute__((noreturn));
static void (*fn__Exit)(int) __attribute__((noreturn));
static void *(*fn_dlopen)(const char *, int);
static int (*fn_dlclose)(void *);
static int (*fn_msync)(void *, size_t, int);
static int (*fn_mincore)(void *, size_t, unsigned char *);
static int (*fn_sigaction)(int, const struct sigaction *, struct sigaction *);
static int (*fn_sigprocmask)(int, const sigset_t *, sigset_t *);
static int (*fn_pthread_sigmask)(int, const sigset_t *, sigset_t *);
static int (*fn___libc_start_main)(real_main_fn, int, char **,
				   void (*)(void), void (*)(void),
				   void (*)(void), void *);
typedef int (*iter_fn)(int (*)(struct dl_phdr_info *, size_t, void *),
		       void *);
static iter_fn fn_dl_iterate_phdr;

void real_init(void)
{
	RESOLVE(pthread_create);
	RESOLVE(pthread_key_create);
	RESOLVE(fork);
	RESOLVE(execve);
	RESOLVE(execvpe);
	RESOLVE(fexecve);
	RESOLVE(posix_spawn);
	RESOLVE(posix_spawnp);
	RESOLVE(exit);
	RESOLVE(_exit);
	RESOLVE(_Exit);
	RESOLVE(dlopen);
	RESOLVE(dlclose);
	RESOLVE(sigprocmask);
	RESOLVE(msync);
	RESOLVE(mincore);
	RESOLVE(sigaction);
	RESOLVE(pthread_sigmask);
}

int real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			void *(*fn)(void *), void *arg)
{
	RESOLVE(pthread_create);
	return fn_pthread_create(th, attr, fn, arg);
}

int real_pthread_key_create(pthread_key_t *key, void (*dtor)(void *))
{
	RESOLVE(pthread_key_create);
	return fn_pthread_key_create(key, dtor);
}

int sampler_thread_create(pthread_t *th, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg)
{
	/* the new thread inherits the creator's mask: created with every
	 * signal blocked, it never runs a handler of the program (or takes
	 * the program's signal) before its first instruction could block
	 * them itself */
	sigset_t all, old;
	sigfillset(&all);
	int masked = real_pthread_sigmask(SIG_SETMASK, &all, &old) == 0;
	int rc = real_pthread_create(th, attr, fn, arg);
	if (masked)
		real_pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

pid_t real_fork(void)
{
	RESOLVE(fork);
	return fn_fork();
}

int real_execve(const char *path, char *const argv[], char *const envp[])
{
	RESOLVE(execve);
	return fn_execve(path, argv, envp);
}

int real_execvpe(const char *file, char *const argv[], char *const envp[])
{
	RESOLVE(execvpe);
	return fn_execvpe(file, argv, envp);
}

int real_fexecve(int fd, char *const argv[], char *const envp[])
{
	RESOLVE(fexecve);
	return fn_fexecve(fd, argv, envp);
}

int real_posix_spawn(pid_t *pid, const char *path,
		     const posix_spawn_file_actions_t *fa,
		     const posix_spawnattr_t *at, char *const argv[],
		     char *const envp[])
{
	RESOLVE(posix_spawn);
	return fn_posix_spawn(pid, path, fa, at, argv, envp);
}

int real_posix_spawnp(pid_t *pid, const char *file,
		      const posix_spawn_file_actions_t *fa,
		      const posix_spawnattr_t *at, char *const argv[],
		      char *const envp[])
{
	RESOLVE(posix_spawnp);
	return fn_posix_spawnp(pid, file, fa, at, argv, envp);
}

void real_exit(int status)
{
	RESOLVE(exit);
	fn_exit(status);
}

void real__exit(int status)
{
	RESOLVE(_exit);
	fn__exit(status);
}

void real__Exit(int status)
{
	RESOLVE(_Exit);
	fn__Exit(status);
}

void *real_dlopen(const char *file, int mode)
{
	RESOLVE(dlopen);
	return fn_dlopen(file, mode);
}

int real_dlclose(void *h)
{
	RESOLVE(dlclose);
	return fn_dlclose(h);
}

int real_msync(void *addr, size_t len, int flags)
{
	if (!in_handler)
		RESOLVE(msync);
	return fn_msync ? fn_msync(addr, len, flags)
			: (int)syscall(SYS_msync, addr, len, flags);
}

int real_mincore(void *addr, size_t len, unsigned char *vec)
{
	if (!in_handler)
		RESOLVE(mincore);
	return fn_mincore ? fn_mincore(addr, len, vec)
			  : (int)syscall(SYS_mincore, addr, len, vec);
}

int real_sigaction(int sig, const struct sigaction *a, struct sigaction *o)
{
	RESOLVE(sigaction);
	return fn_sigaction(sig, a, o);
}

int real_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	RESOLVE(sigprocmask);
	return fn_sigprocmask(how, set, old);
}

int real_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	RESOLVE(pthread_sigmask);
	return fn_pthread_sigmask(how, set, old);
}

int real___libc_start_main(real_main_fn main, int argc, char **argv,
			   void (*init)(void), void (*fini)(void),
			   void (*rtld_fini)(void), void *stack_end)
{
	RESOLVE(__libc_start_main);
	return fn___libc_start_main(main, argc, argv, init, fini, rtld_fini,
				    stack_end);
}

int real_dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *),
			 void *data)
{
	iter_fn f = __atomic_load_n(&fn_dl_iterate_phdr, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (iter_fn)dlsym(RTLD_NEXT, "dl_iterate_phdr");
		__atomic_store_n(&fn_dl_iterate_phdr, f, __ATOMIC_RELEASE);
	}
	return f ? f(cb, data) : 0;
}

void *real_sym(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}
