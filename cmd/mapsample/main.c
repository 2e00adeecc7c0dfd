/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapsample: run a program with the sampler preloaded.
 *
 *   mapsample [options] [--] PROGRAM [ARGS...]
 *
 * Checks the target, forks the program's process (which waits for its
 * log's name: -o's %p is its pid), creates the log with its header, and
 * lets it exec the program (no ptrace) with libmapsampler.so prepended
 * to LD_PRELOAD.  Signals sent to mapsample whose default action ends a
 * process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
 * SIGVTALRM, SIGPROF, SIGXCPU, SIGPWR, SIGSTKFLT, SIGIO, the real-time
 * signals) are passed on, unless they came from the terminal, which sends
 * them to the program itself; SIGPIPE is ignored (a closed standard
 * error must not kill mapsample before the program ends).  The program
 * gets SIGKILL if mapsample dies first (PR_SET_PDEATHSIG), so it never
 * outlives a mapsample that was killed.  Exits with the program's status, 128+N when
 * it was killed by signal N, and 125/126/127 for its own failures as
 * env(1) does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/mapsample/plan.h"
#include "cmd/mapsample/substrates.h"
#include "common/cli.h"
#include "config.h"
#include "launch/logfile.h"
#include "launch/outname.h"
#include "launch/target.h"
#include "model/model.h"

#define EXIT_OWN 125      /* mapsample itself failed */
#define EXIT_CANNOT 126   /* program found but cannot be sampled/run */
#define EXIT_NOTFOUND 127 /* program not found */

/* Default rate: what gperftools gets here (the scheduler tick rate of
 * common kernels); the cost is in test/bench/README.md (overhead.sh). */
#define DEFAULT_HZ 250
/* Metric samples per process: see mapsample(1) on the cost */
#define DEFAULT_METRIC_MS 100

static volatile sig_atomic_t child_pid;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mapsample [options] [--] PROGRAM [ARGS...]\n"
		"  -o, --output FILE     log file (default PROGRAM-DATE-TIME.maplog;\n"
		"                        under mpirun or srun PROGRAM-<N>p-<JOB>/\n"
		"                        rank-<R>.maplog); %%r rank, %%p the\n"
		"                        program's pid, %%h host, %%j job id,\n"
		"                        %%%% a %%\n"
		"  -F, --frequency HZ    samples per second per thread (default %d)\n"
		"      --wall            sample wall-clock time, not CPU time\n"
		"      --max-depth N     frames per stack at most (default 256)\n"
		"      --timer KIND      mixed (default: perf task-clock events\n"
		"                        for user time, POSIX CPU timers for\n"
		"                        system time), perf or posix alone\n"
		"      --signal SIG      sampling signal (default SIGRTMIN+4)\n"
		"      --metrics LIST    metrics to record: default, all, none,\n"
		"                        ids, groups, sources or file names,\n"
		"                        -ITEM to leave out (default: default)\n"
		"      --metrics-dir DIR also read metric definitions in DIR\n"
		"      --metric-interval MS  metric sample interval (default %d)\n"
		"      --list-metrics    list the metrics found and exit\n"
		"      --substrate NAME|PATH  load a substrate (event) plugin\n"
		"                        (repeatable; also MAPSAMPLE_SUBSTRATE_PLUGINS)\n"
		"      --list-substrates list the substrate plugins found and exit\n"
		"  -q, --quiet           no summary line at the end\n"
		"  -h, --help            this text\n"
		"  -V, --version         print the version\n",
		DEFAULT_HZ, DEFAULT_METRIC_MS);
}

static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* the terminal sends its signals to the whole foreground group,
	 * the program included: only pass on signals sent to us alone */
	if (child_pid > 0 && si->si_code != SI_KERNEL)
		kill(child_pid, sig);
}

static int parse_signal(const char *s)
{
	char *e;
	long n = strtol(s, &e, 10);
	if (*s && !*e)
		return n > 0 && n <= SIGRTMAX ? (int)n : -1;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	if (strncasecmp(s, "RTMIN", 5) == 0) {
		long k = s[5] == '+' ? strtol(s + 6, &e, 10) : 0;
		if (s[5] && (s[5] != '+' || *e))
			return -1;
		return SIGRTMIN + k <= SIGRTMAX ? SIGRTMIN + (int)k : -1;
	}
	static const struct {
		const char *name;
		int sig;
	} names[] = {{"PROF", SIGPROF}, {"VTALRM", SIGVTALRM},
		     {"ALRM", SIGALRM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(s, names[i].name) == 0)
			return names[i].sig;
	return -1;
}

/* Why signal sig cannot carry samples, or NULL when it can. */
static const char *signal_unusable(int sig)
{
	switch (sig) {
	case SIGKILL:
	case SIGSTOP:
		return "cannot be caught";
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
		return "the program's faults arrive on it (a crash would hang)";
	case SIGTRAP:
		return "debuggers and breakpoints use it";
	case SIGCHLD:
		return "child processes end with it (waits would hang)";
	case SIGTSTP:
	case SIGCONT:
	case SIGTTIN:
	case SIGTTOU:
		return "job control uses it (it stops or continues the "
		       "program)";
	default:
		break;
	}
	if (sig > SIGSYS && sig < SIGRTMIN)
		return "reserved by the C library for its threads";
	return NULL;
}

static unsigned long parse_num(const char *opt, const char *s,
			       unsigned long lo, unsigned long hi)
{
	char *e;
	errno = 0;
	unsigned long v = strtoul(s, &e, 10);
	if (!*s || *e || errno || v < lo || v > hi) {
		fprintf(stderr, "mapsample: %s %s: give a number from %lu to "
				"%lu\n", opt, s, lo, hi);
		exit(EXIT_OWN);
	}
	return v;
}

/* The sampler library: $MAPSAMPLE_LIBRARY, the build tree next to this
 * program, or the installed one. */
static int find_library(char *out, size_t len)
{
	const char *env = getenv("MAPSAMPLE_LIBRARY");
	if (env && *env) {
		snprintf(out, len, "%s", env);
		return access(out, R_OK);
	}
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			size_t need = strlen(self) +
				      sizeof("/../../lib/sampler/.libs/"
					     "libmapsampler.so");
			if (need <= len) {
				strcpy(out, self);
				strcat(out, "/../../lib/sampler/.libs/"
					    "libmapsampler.so");
			}
			if (need <= len && access(out, R_OK) == 0) {
				char real[PATH_MAX];
				if (realpath(out, real))
					snprintf(out, len, "%s", real);
				return 0;
			}
		}
	}
	snprintf(out, len, "%s/libmapsampler.so", PKGLIBDIR);
	return access(out, R_OK);
}

/* The built-in metric definitions: the build tree's plugins/metrics when
 * this mapsample runs from the build tree, else NULL (the installed
 * $(pkgdatadir)/metrics). */
static char *builtin_metrics_dir(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	char cand[PATH_MAX + 32], real[PATH_MAX];
	snprintf(cand, sizeof(cand), "%s/../../plugins/metrics", self);
	char probe[PATH_MAX + 64];
	snprintf(probe, sizeof(probe), "%s/../../lib/sampler/libmapsampler.la",
		 self);
	if (access(probe, F_OK) || !realpath(cand, real))
		return NULL;
	return strdup(real);
}

static void default_name(const char *prog, char *out, size_t len)
{
	const char *base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(out, len, "%s-%s.maplog", base, stamp);
	for (int i = 2; access(out, F_OK) == 0 && i < 1000; i++)
		snprintf(out, len, "%s-%s-%d.maplog", base, stamp, i);
}

static void summary(const char *path, double secs)
{
	struct model m;
	model_init(&m);
	m.launchers_on = 1; /* what the log holds, launchers' samples too */
	int rc = model_load(&m, path, NULL, NULL);
	if (rc < 0) {
		/* the program's status matters more than the summary */
		fprintf(stderr, "mapsample: %s: %s reading the log back; no "
				"summary\n", path, maps_strerror(rc));
		model_free(&m);
		return;
	}
	fprintf(stderr,
		"mapsample: %s: %.2f s, %zu process%s, %zu thread%s, %" PRIu64
		" samples (%.0f per %s-second per thread), %" PRIu64
		" dropped\n",
		path, secs, m.nprocs, m.nprocs == 1 ? "" : "es", m.nthreads,
		m.nthreads == 1 ? "" : "s", m.samples, model_rate(&m),
		model_clock_unit((uint32_t)model_clock(&m)), m.dropped);
	char line[1024];
	for (size_t i = 0; i < m.nnotes; i++)
		fprintf(stderr, "mapsample: %s\n",
			model_note_str(&m.notes[i], line, sizeof(line)));
	plan_report_errors(&m.metrics);
	model_free(&m);
}

/* Writes the n bytes of buf to fd; 0 or -1. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The program's child pid waits for its log's name on go: told none
 * (go closed), it ends without running the program.  Returns
 * EXIT_OWN, mapsample's status when the log could not be made. */
static int abandon(pid_t pid, int go)
{
	close(go);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return EXIT_OWN;
}

#define PROG "mapsample"
#define OPTSTRING "+o:F:qhV"

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'},
		{"frequency", required_argument, NULL, 'F'},
		{"wall", no_argument, NULL, 'W'},
		{"max-depth", required_argument, NULL, 'D'},
		{"signal", required_argument, NULL, 'S'},
		{"timer", required_argument, NULL, 'T'},
		{"quiet", no_argument, NULL, 'q'},
		{"metrics", required_argument, NULL, 'M'},
		{"metrics-dir", required_argument, NULL, 'R'},
		{"metric-interval", required_argument, NULL, 'I'},
		{"list-metrics", no_argument, NULL, 'L'},
		{"substrate", required_argument, NULL, 'U'},
		{"list-substrates", no_argument, NULL, 'Y'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	unsigned long freq = DEFAULT_HZ, depth = 256;
	int wall = 0, quiet = 0, signo = SIGRTMIN + 4, c;
	const char *timer = NULL;
	const char *mdirs[64];
	size_t nmdirs = 0;
	static char *mselect;
	unsigned long metric_ms = DEFAULT_METRIC_MS;
	int list_metrics = 0;
	int list_substrates = 0; /* after every option was read */
	const char *subs[64];
	size_t nsubs = 0;
	/* '+': stop at the program name, its options are its own */
	opterr = 0;
	while ((c = getopt_long(argc, argv, OPTSTRING, lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'F':
			freq = parse_num("--frequency", optarg, 1, 100000);
			break;
		case 'W':
			wall = 1;
			break;
		case 'D':
			depth = parse_num("--max-depth", optarg, 1, 512);
			break;
		case 'S':
			signo = parse_signal(optarg);
			if (signo < 0 || signal_unusable(signo)) {
				fprintf(stderr, "mapsample: --signal %s: %s; "
						"give a real-time signal "
						"(RTMIN+N, 34 to %d) or PROF\n",
					optarg,
					signo < 0 ? "not a signal"
						  : signal_unusable(signo),
					SIGRTMAX);
				return EXIT_OWN;
			}
			break;
		case 'T':
			if (strcmp(optarg, "mixed") && strcmp(optarg, "perf") &&
			    strcmp(optarg, "posix")) {
				fprintf(stderr, "mapsample: --timer %s: give "
						"mixed, perf or posix\n",
					optarg);
				return EXIT_OWN;
			}
			timer = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'M': {
			/* several --metrics options add up */
			size_t l = (mselect ? strlen(mselect) + 1 : 0) +
				   strlen(optarg) + 1;
			char *n = malloc(l);
			if (!n)
				return EXIT_OWN;
			snprintf(n, l, "%s%s%s", mselect ? mselect : "",
				 mselect ? "," : "", optarg);
			free(mselect);
			mselect = n;
			break;
		}
		case 'R':
			if (nmdirs == sizeof(mdirs) / sizeof(mdirs[0])) {
				fprintf(stderr, "mapsample: --metrics-dir: at "
						"most %zu directories\n", nmdirs);
				return EXIT_OWN;
			}
			mdirs[nmdirs++] = optarg;
			break;
		case 'I':
			metric_ms = parse_num("--metric-interval", optarg, 1,
					      3600000);
			break;
		case 'L':
			list_metrics = 1;
			break;
		case 'U':
			if (nsubs == sizeof(subs) / sizeof(subs[0])) {
				fprintf(stderr, "mapsample: --substrate: at "
						"most %zu plugins\n", nsubs);
				return EXIT_OWN;
			}
			subs[nsubs++] = optarg;
			break;
		case 'Y':
			list_substrates = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("mapsample %s\n", PACKAGE_VERSION);
			return 0;
		default:
			cli_bad_option(PROG, OPTSTRING, argv, optind, optopt);
			return EXIT_OWN;
		}
	}
	/* program-long: kept in statics, so no early return leaks them */
	static char *builtin;
	builtin = builtin_metrics_dir();
	struct plan_opts mo = {mdirs, nmdirs, mselect, builtin, quiet, NULL};
	if (list_substrates) {
		free(builtin);
		free(mselect);
		return substrates_list();
	}
	if (list_metrics) {
		char slib[PATH_MAX];
		if (find_library(slib, sizeof(slib))) {
			fprintf(stderr, "mapsample: %s: sampler library not "
					"found; reinstall mapsample or set "
					"MAPSAMPLE_LIBRARY\n", slib);
			return EXIT_OWN;
		}
		int lrc = plan_list(&mo, slib);
		free(builtin);
		free(mselect);
		return lrc;
	}
	if (optind >= argc) {
		fprintf(stderr, "mapsample: no program given; usage: mapsample "
				"[options] -- PROGRAM [ARGS...]\n");
		return EXIT_OWN;
	}
	const char *prog = argv[optind];
	char path[PATH_MAX], why[1024];
	int rc = target_find(prog, path, sizeof(path));
	if (rc == -ENOENT) {
		fprintf(stderr, "mapsample: %s: command not found\n", prog);
		return EXIT_NOTFOUND;
	}
	if (rc) {
		fprintf(stderr, "mapsample: %s: %s\n", prog, strerror(-rc));
		return EXIT_CANNOT;
	}
	rc = target_check(path, why, sizeof(why));
	if (rc != TARGET_OK) {
		fprintf(stderr, "mapsample: %s\n", why);
		return rc == TARGET_NOT_FOUND ? EXIT_NOTFOUND : EXIT_CANNOT;
	}
	char lib[PATH_MAX];
	if (find_library(lib, sizeof(lib))) {
		fprintf(stderr, "mapsample: %s: sampler library not found; "
				"reinstall mapsample or set MAPSAMPLE_LIBRARY\n",
			lib);
		return EXIT_OWN;
	}

	if (substrates_resolve(subs, nsubs)) {
		free(builtin);
		free(mselect);
		return EXIT_OWN;
	}
	/* a rank of an MPI or Slurm job: its rank, the job's id and size */
	struct mapjob job;
	int in_job = mapjob_detect(&job, NULL);
	/* an MPI program gets the mpi plugin's figures unasked, as Arm MAP
	 * gives them: a rank of a job, a program that links an MPI library
	 * or a launcher (mpirun) that starts the ranks; --metrics decides
	 * when given */
	static const char *const mpilibs[] = {"libmpi.", "libmpi_",
					      "libmpich", "libmpifort",
					      "libpmpi", NULL};
	if ((in_job && job.rank >= 0) || mapjob_is_launcher(path) ||
	    target_needs(path, mpilibs))
		mo.auto_select = "mpi";
	struct plan plan;
	int prc = plan_prepare(&mo, &plan);
	free(builtin);
	free(mselect);
	if (prc)
		return EXIT_OWN;

	char want[PATH_MAX], logname[PATH_MAX], logabs[PATH_MAX];
	if (output) {
		/* the pattern checked now; expanded once the program's pid
		 * (%p) is known */
		char owhy[PATH_MAX + 256];
		if (outname_expand(output, &job, 0, want, sizeof(want), owhy,
				   sizeof(owhy))) {
			fprintf(stderr, "mapsample: -o %s\n", owhy);
			plan_free(&plan);
			return EXIT_OWN;
		}
	}
	/* mapsample's own writes to the log past RLIMIT_FSIZE fail with
	 * EFBIG instead of killing it; the program gets the disposition it
	 * inherited (restored in the child) */
	struct sigaction xfsz_inherited, ign;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &ign, &xfsz_inherited);
	/* the program's environment */
	/* the sampler first, then the plugins' <preload> libraries, then
	 * the user's */
	const char *pre = getenv("LD_PRELOAD");
	const char *ppre = plan.preload;
	size_t plen = strlen(lib) + (pre ? strlen(pre) : 0) +
		      (ppre ? strlen(ppre) : 0) + 3;
	char *preload = malloc(plen);
	if (!preload) {
		fprintf(stderr, "mapsample: out of memory\n");
		return EXIT_OWN;
	}
	snprintf(preload, plen, "%s%s%s%s%s", lib, ppre ? ":" : "",
		 ppre ? ppre : "", pre && *pre ? ":" : "", pre ? pre : "");
	char num[32];
	setenv("LD_PRELOAD", preload, 1);
	snprintf(num, sizeof(num), "%lu", freq);
	setenv("MAPSAMPLE_FREQUENCY", num, 1);
	setenv("MAPSAMPLE_WALL", wall ? "1" : "0", 1);
	snprintf(num, sizeof(num), "%lu", depth);
	setenv("MAPSAMPLE_MAX_DEPTH", num, 1);
	snprintf(num, sizeof(num), "%d", signo);
	setenv("MAPSAMPLE_SIGNAL", num, 1);
	/* image 0 of every process (no pid is 0); the sampler rewrites it
	 * in place with the number of the next image (process.c) */
	setenv("MAPSAMPLE_IMAGE", "0000000000:0000000000", 1);
	if (timer)
		setenv("MAPSAMPLE_TIMER", timer, 1);
	else
		unsetenv("MAPSAMPLE_TIMER");
	if (plan.plan) {
		setenv("MAPSAMPLE_METRICS_PLAN", plan.plan, 1);
		snprintf(num, sizeof(num), "%lu", metric_ms);
		setenv("MAPSAMPLE_METRIC_INTERVAL", num, 1);
		plan_set_run_id(in_job ? &job : NULL);
	} else {
		unsetenv("MAPSAMPLE_METRICS_PLAN");
		unsetenv("MAPSAMPLE_METRIC_INTERVAL");
	}
	plan_free(&plan);
	free(preload);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* what the program would have inherited without us, restored in
	 * the child; a signal ignored here (nohup, a background job) stays
	 * ignored, and there is nothing to forward.  Every signal whose
	 * default action ends a process is passed on: were it to end
	 * mapsample, the program would run on without it. */
	int fwd[NSIG];
	size_t nfwd = 0;
	static const int std_fwd[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				      SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
				      SIGPROF, SIGXCPU, SIGPWR, SIGSTKFLT,
				      SIGIO};
	for (size_t i = 0; i < sizeof(std_fwd) / sizeof(std_fwd[0]); i++)
		fwd[nfwd++] = std_fwd[i];
	for (int sig = SIGRTMIN; sig <= SIGRTMAX && nfwd < NSIG; sig++)
		fwd[nfwd++] = sig;
	struct sigaction inherited[NSIG], pipe_inherited;
	sigset_t fwd_set, old_mask;
	sigemptyset(&fwd_set);
	for (size_t i = 0; i < nfwd; i++) {
		sigaction(fwd[i], NULL, &inherited[i]);
		if (inherited[i].sa_handler != SIG_IGN)
			sigaction(fwd[i], &sa, NULL);
		sigaddset(&fwd_set, fwd[i]);
	}
	sigaction(SIGPIPE, &ign, &pipe_inherited);
	/* held from the fork until child_pid is set, so that none is lost */
	sigprocmask(SIG_BLOCK, &fwd_set, &old_mask);
	pid_t parent = getpid();

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* errpipe: exec's errno back; gopipe: the log's name to the
	 * child, which waits for it (the name may hold the child's pid,
	 * %p), or for nothing when the log could not be made */
	int errpipe[2], gopipe[2];
	if (pipe2(errpipe, O_CLOEXEC) || pipe2(gopipe, O_CLOEXEC)) {
		fprintf(stderr, "mapsample: pipe: %s\n", strerror(errno));
		return EXIT_OWN;
	}
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "mapsample: fork: %s\n", strerror(errno));
		return EXIT_OWN;
	}
	if (pid == 0) {
		for (size_t i = 0; i < nfwd; i++)
			sigaction(fwd[i], &inherited[i], NULL);
		sigaction(SIGXFSZ, &xfsz_inherited, NULL);
		sigaction(SIGPIPE, &pipe_inherited, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		/* never outlive mapsample (kept across exec, but for setuid
		 * programs); it may have died before the prctl */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 &&
		    getppid() != parent)
			_exit(EXIT_CANNOT);
		close(errpipe[0]);
		close(gopipe[1]);
		char logpath[PATH_MAX];
		size_t have = 0;
		for (;;) {
			ssize_t r = read(gopipe[0], logpath + have,
					 sizeof(logpath) - 1 - have);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			have += (size_t)r;
		}
		if (have == 0)
			_exit(EXIT_OWN); /* mapsample said why */
		logpath[have] = 0;
		setenv("MAPSAMPLE_OUTPUT", logpath, 1);
		execv(path, argv + optind);
		int e = errno;
		if (write(errpipe[1], &e, sizeof(e)) < 0)
			_exit(EXIT_CANNOT);
		_exit(e == ENOENT ? EXIT_NOTFOUND : EXIT_CANNOT);
	}
	child_pid = pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	close(errpipe[1]);
	close(gopipe[0]);
	if (output) {
		char owhy[PATH_MAX + 256];
		if (outname_expand(output, &job, (long)pid, want, sizeof(want),
				   owhy, sizeof(owhy))) {
			fprintf(stderr, "mapsample: -o %s\n", owhy);
			return abandon(pid, gopipe[1]);
		}
	} else if (in_job && job.rank >= 0) {
		/* one folder per job, one log per rank in it */
		if (outname_job_default(prog, &job, want, sizeof(want))) {
			fprintf(stderr, "mapsample: %s: the log's name would be "
					"too long; give -o\n", prog);
			return abandon(pid, gopipe[1]);
		}
	} else {
		default_name(prog, want, sizeof(want));
	}
	char failed[PATH_MAX];
	if (outname_mkdirs(want, failed, sizeof(failed))) {
		fprintf(stderr, "mapsample: %s: cannot create the log's folder "
				"%s: %s\n", want, failed, strerror(errno));
		return abandon(pid, gopipe[1]);
	}
	/* kept open for the run: it holds the log's lock (logfile.h) */
	int logfd = launch_make_log(want, logname, sizeof(logname));
	if (logfd < 0) {
		if (errno == EINVAL)
			fprintf(stderr, "mapsample: %s: not a regular file; "
					"give -o the name of a new or regular "
					"file\n", want);
		else
			fprintf(stderr, "mapsample: %s: cannot create the log: "
					"%s\n", want, strerror(errno));
		return abandon(pid, gopipe[1]);
	}
	if (strcmp(want, logname))
		fprintf(stderr, "mapsample: %s: in use by another run; this "
				"run's log is %s\n", want, logname);
	if (!realpath(logname, logabs))
		snprintf(logabs, sizeof(logabs), "%s", logname);

	if (write_all(gopipe[1], logabs, strlen(logabs)))
		return abandon(pid, gopipe[1]);
	close(gopipe[1]);

	int exec_errno = 0;
	ssize_t got;
	do
		got = read(errpipe[0], &exec_errno, sizeof(exec_errno));
	while (got < 0 && errno == EINTR);
	close(errpipe[0]);

	int status = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "mapsample: waitpid: %s\n",
				strerror(errno));
			return EXIT_OWN;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (got == (ssize_t)sizeof(exec_errno)) {
		fprintf(stderr, "mapsample: %s: cannot run: %s\n", path,
			strerror(exec_errno));
		unlink(logname);
		return exec_errno == ENOENT ? EXIT_NOTFOUND : EXIT_CANNOT;
	}
	/* a signal it could not catch (SIGKILL, a stack overflow) left
	 * the program no time to record its exit: record it for it */
	if (WIFSIGNALED(status) &&
	    launch_note_exit(logname, (uint32_t)pid, MAPLOG_EXIT_SIGNALED,
			     WTERMSIG(status)) < 0)
		fprintf(stderr, "mapsample: %s: cannot record the program's "
				"exit (signal %d): %s\n",
			logname, WTERMSIG(status), strerror(errno));
	/* so did an exit the sampler never saw: exit_group(2) made
	 * directly, not through exit() or _exit() (launch_note_exit adds
	 * nothing when the exit is in the log already) */
	if (WIFEXITED(status) &&
	    launch_note_exit(logname, (uint32_t)pid, MAPLOG_EXIT_NORMAL,
			     WEXITSTATUS(status)) < 0)
		fprintf(stderr, "mapsample: %s: cannot record the program's "
				"exit (status %d): %s\n",
			logname, WEXITSTATUS(status), strerror(errno));
	/* in a job, rank 0 speaks for all: thousands of lines say nothing
	 * more (a failure is still said by the rank it happens to) */
	if (!quiet && (!in_job || job.rank <= 0)) {
		summary(logname, (double)(t1.tv_sec - t0.tv_sec) +
					 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	close(logfd);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_OWN;
}
