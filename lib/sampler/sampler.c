/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sampler: the constructor and destructor of libmapsampler.so.  The
 * constructor reads the plan the launcher left in MAPSAMPLE_* variables,
 * opens the shared log, loads the metric plugins, wires the modules
 * together (the callbacks of the sampling signal, the writer's idle
 * callback), writes the initialize and map-in records, installs the
 * sampling and fatal signal handlers and arms a timer on every thread
 * that already exists.  Threads created later arm their own
 * (interpose.c).  The process closes its streams at exit, _exit, exec
 * and fatal signals (process.c).
 *
 * Without MAPSAMPLE_OUTPUT the library does nothing: preloading it by
 * hand is harmless.
 *
 * The top of lib/sampler: it calls the modules below (sampler_i.h lists
 * them in order), and nothing calls it.
 */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/sampler_i.h"

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
	/* signals that cannot carry samples (mapsample refuses them with
	 * the reason): the default instead */
	static const int unusable[] = {SIGKILL, SIGSTOP, SIGSEGV, SIGBUS,
				       SIGILL,  SIGFPE,  SIGTRAP, SIGCHLD,
				       SIGTSTP, SIGCONT, SIGTTIN, SIGTTOU};
	for (size_t i = 0; i < sizeof(unusable) / sizeof(unusable[0]); i++)
		if (S.cfg.signo == unusable[i])
			S.cfg.signo = SIGRTMIN + 4;
	if (S.cfg.signo > SIGSYS && S.cfg.signo < SIGRTMIN)
		S.cfg.signo = SIGRTMIN + 4;
	uint64_t cs = env_u64("MAPSAMPLE_CHUNK_SIZE", SAMPLER_DEFAULT_CHUNK,
			      64 << 10, 16 << 20);
	S.cfg.chunk_size = (uint32_t)((cs + 4095) & ~4095ull);
	S.period_ns = 1000000000u / S.cfg.freq;
	/* the system-time timer's slack (handler.c, kernel_samples()):
	 * four scheduler ticks (the coarse clocks' resolution), at least
	 * two periods */
	struct timespec jiffy;
	uint64_t tick = 4000000;
	if (clock_getres(CLOCK_MONOTONIC_COARSE, &jiffy) == 0 &&
	    jiffy.tv_sec == 0 && jiffy.tv_nsec >= 100000)
		tick = (uint64_t)jiffy.tv_nsec;
	S.fill_ns = 4 * tick;
	if (S.fill_ns < 2 * S.period_ns)
		S.fill_ns = 2 * S.period_ns;
	/* The timers: see the top of timer.c for why the default is two */
	const char *tk = getenv("MAPSAMPLE_TIMER");
	if (tk && strcmp(tk, "posix") == 0)
		S.cfg.timer = TM_POSIX;
	else if (tk && strcmp(tk, "perf") == 0)
		S.cfg.timer = TM_PERF;
	else
		S.cfg.timer = TM_MIXED;
	return 0;
}

/*
 * libunwind opens a pipe of its own when it initializes (its address
 * checks write to it and read back), on the lowest free numbers.  A
 * program started with standard input, output or error closed (MPICH's
 * hydra_pmi_proxy is) would have the pipe on 0, 1 or 2, and the dup2()
 * with which it then gives a child its standard streams puts the
 * program's own pipes on those numbers: libunwind's next check then
 * reads the program's pipe and blocks for ever.  So, while libunwind
 * initializes, free numbers below 3 hold /dev/null (plug_std(), then
 * unplug_std() closes them).
 */
static int plugged[3];

static void plug_std(void)
{
	for (int fd = 0; fd < 3; fd++) {
		plugged[fd] = 0;
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (n == fd)
			plugged[fd] = 1;
		else if (n >= 0)
			close(n);
	}
}

static void unplug_std(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (plugged[fd])
			close(fd);
}

__attribute__((constructor)) static void sampler_init(int argc, char **argv,
						       char **envp)
{
	(void)envp;
	if (read_config())
		return;
	real_init();
	interpose_init();
	if (stream_open_file()) {
		fprintf(stderr, "mapsample: %s: cannot open the log: %s; this "
				"process is not sampled\n",
			S.cfg.path, strerror(errno));
		return;
	}
	process_init(argc, argv);
	/* libunwind opens its address-check pipe when it initializes:
	 * never on the standard streams' numbers */
	plug_std();
	uint64_t fifos[16];
	io_fifos(fifos);
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	/* plugins load and initialize before any timer is armed, with the
	 * I/O accounting already answering mapsample_io_bytes() */
	io_start();
	mhost_load();
	substrate_load();
	/* what each sampling signal runs, in this order: the stack sample,
	 * then the metric tick when one is due; and the metric tick of an
	 * idle program, from the writer thread */
	handler_register(sample_stack);
	if (mhost_poll_ms() >= 0) {
		handler_register(mhost_tick);
		writer_set_idle(mhost_idle, mhost_poll_ms());
	}

	uint32_t self = sys_gettid();
	struct tslot *t = slot_claim((int)self);
	if (!t) {
		unplug_std();
		return;
	}
	/* decide the timer kind before the initialize record names it */
	S.tk = TK_NONE;
	S.enabled = 1;
	/* The handler's dl_iterate_phdr answers from the snapshot, so it
	 * must exist before the first signal: a lookup that finds nothing
	 * is cached by libunwind's fast trace as an untraceable frame, and
	 * every later walk on that thread then takes the slow step walk. */
	objects_snapshot();
	sigown_start();
	handler_install(S.cfg.signo);
	fatal_install();
	handler_unblock();
	sample_warm_up();
	io_find_unwind_pipe(fifos);
	unplug_std();
	timer_arm(t);
	process_write_initialize();
	job_start(process_exe());
	objects_record_all();
	io_rebase();
	mhost_start();
	thread_begin(t, 0);
	process_adopt_threads(self);
	writer_start();
	substrate_start();
}

__attribute__((destructor)) static void sampler_fini(void)
{
	int how = S.exit_status_known ? S.exit_how : -1;
	/* the writer thread first: its I/O must be over before the last
	 * metric sample reads the I/O counters */
	writer_stop();
	process_finish(how, S.exit_code, 0);
}
