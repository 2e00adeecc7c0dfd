/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapjob: the job a process belongs to, from its environment (mapjob.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mapjob.h"

/* Programs that start the processes of a job rather than being one. */
static const char *const launchers[] = {
	"mpirun", "mpiexec", "orterun", "orted", "prte", "prterun", "prted",
	"prun", "mpiexec.hydra", "hydra_pmi_proxy", "hydra_nameserver",
	"mpirun.openmpi", "mpiexec.openmpi", "mpirun.mpich", "mpiexec.mpich",
	"srun", "slurmstepd", "salloc", "sbatch",
};

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

int mapjob_is_launcher(const char *exe)
{
	if (!exe || !*exe)
		return 0;
	const char *b = base_of(exe);
	for (size_t i = 0; i < sizeof(launchers) / sizeof(launchers[0]); i++)
		if (strcmp(b, launchers[i]) == 0)
			return 1;
	return 0;
}

/* The value of name as a number in [lo, hi], or -1. */
static long env_num(const char *name, long lo, long hi)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return -1;
	char *e;
	long n = strtol(v, &e, 10);
	return *e || n < lo || n > hi ? -1 : n;
}

static void set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* Up to len - 1 bytes of /proc/PID/name into buf, NUL-terminated; the
 * bytes read, or -1. */
static ssize_t proc_read(long pid, const char *name, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* The parent of pid and its command name (comm, at most 15 bytes), from
 * /proc/PID/stat.  Returns the parent, or -1. */
static long proc_parent(long pid, char *comm, size_t len)
{
	char buf[512];
	if (proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return -1;
	char *open_p = strchr(buf, '('), *close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p || close_p[1] != ' ')
		return -1;
	snprintf(comm, len, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	/* ") S PPID ..." */
	return strtol(close_p + 4, NULL, 10);
}

/* The value after the argument opt ("--control-port") in the command
 * line of pid, into out; 0, or -1 when it has none. */
static int proc_opt(long pid, const char *opt, char *out, size_t len)
{
	char buf[4096];
	ssize_t n = proc_read(pid, "cmdline", buf, sizeof(buf));
	if (n < 0)
		return -1;
	/* NUL-separated arguments; the last one may be cut short */
	for (const char *a = buf; a < buf + n; a += strlen(a) + 1) {
		if (strcmp(a, opt))
			continue;
		const char *v = a + strlen(a) + 1;
		if (v >= buf + n || !*v)
			return -1;
		snprintf(out, len, "%s", v);
		return 0;
	}
	return -1;
}

/* Hydra's job id, the same on every host of the job.  Every process
 * Hydra starts is a child of a hydra_pmi_proxy, one per host, started
 * with "--control-port HOST:PORT" (where mpiexec listens: one value for
 * the whole job) and "--pgid N" (the process group: 0, or the group of
 * an MPI_Comm_spawn): the id is "HOST:PORT.N" from the nearest proxy at
 * or above the process.  With no proxy (mpiexec itself), HOST.PID of the
 * nearest mpiexec/mpirun at or above it, which only the processes on
 * this host agree on. */
static void hydra_job_id(struct mapjob *j)
{
	long pid = (long)getpid();
	char comm[64];
	for (int depth = 0; depth < 16 && pid > 1; depth++) {
		long parent = proc_parent(pid, comm, sizeof(comm));
		if (parent < 0)
			return;
		char port[80], pgid[24];
		if (strcmp(comm, "hydra_pmi_proxy") == 0 &&
		    proc_opt(pid, "--control-port", port, sizeof(port)) == 0) {
			if (proc_opt(pid, "--pgid", pgid, sizeof(pgid)))
				snprintf(pgid, sizeof(pgid), "0");
			snprintf(j->job_id, sizeof(j->job_id), "%s.%s", port,
				 pgid);
			return;
		}
		if (strncmp(comm, "mpiexec", 7) == 0 ||
		    strncmp(comm, "mpirun", 6) == 0) {
			struct utsname u;
			if (uname(&u) == 0)
				snprintf(j->job_id, sizeof(j->job_id),
					 "%.64s.%ld", u.nodename, pid);
			return;
		}
		pid = parent;
	}
}

/* Slurm's JOB.STEP (or JOB alone) into j->job_id. */
static void slurm_job_id(struct mapjob *j)
{
	const char *job = getenv("SLURM_JOB_ID");
	if (!job || !*job)
		job = getenv("SLURM_JOBID");
	const char *step = getenv("SLURM_STEP_ID");
	if (!step || !*step)
		step = getenv("SLURM_STEPID");
	if (job && *job && step && *step)
		snprintf(j->job_id, sizeof(j->job_id), "%.60s.%.60s", job,
			 step);
	else if (job && *job)
		set_str(j->job_id, sizeof(j->job_id), job);
}

int mapjob_detect(struct mapjob *j, const char *exe)
{
	memset(j, 0, sizeof(*j));
	j->rank = -1;
	j->role = MAPLOG_JOB_APPLICATION;
	int in_step = getenv("SLURM_STEP_ID") || getenv("SLURM_STEPID");
	long rank, size = -1;
	if (mapjob_is_launcher(exe)) {
		j->role = MAPLOG_JOB_LAUNCHER;
		const char *b = base_of(exe);
		if (strcmp(b, "srun") == 0 || strncmp(b, "slurm", 5) == 0 ||
		    strcmp(b, "salloc") == 0 || strcmp(b, "sbatch") == 0)
			set_str(j->launcher, sizeof(j->launcher), "slurm");
		else if (strncmp(b, "hydra", 5) == 0 || strstr(b, "hydra") ||
			 strstr(b, "mpich"))
			set_str(j->launcher, sizeof(j->launcher), "mpich");
		else if (strncmp(b, "prte", 4) == 0 || strcmp(b, "prun") == 0)
			set_str(j->launcher, sizeof(j->launcher), "pmix");
		else if (strncmp(b, "orte", 4) == 0 || strncmp(b, "orted", 5) == 0 ||
			 strstr(b, "openmpi"))
			set_str(j->launcher, sizeof(j->launcher), "openmpi");
		/* plain mpirun/mpiexec: which MPI is not known by name */
	} else if ((rank = env_num("OMPI_COMM_WORLD_RANK", 0, INT32_MAX)) >= 0) {
		j->rank = (int32_t)rank;
		size = env_num("OMPI_COMM_WORLD_SIZE", 1, UINT32_MAX);
		set_str(j->source, sizeof(j->source), "OMPI_COMM_WORLD_RANK");
		set_str(j->launcher, sizeof(j->launcher), "openmpi");
		const char *ns = getenv("PMIX_NAMESPACE");
		if (!ns || !*ns)
			ns = getenv("OMPI_MCA_ess_base_jobid");
		set_str(j->job_id, sizeof(j->job_id), ns);
	} else if ((rank = env_num("PMIX_RANK", 0, INT32_MAX)) >= 0) {
		j->rank = (int32_t)rank;
		set_str(j->source, sizeof(j->source), "PMIX_RANK");
		if (in_step) {
			set_str(j->launcher, sizeof(j->launcher), "slurm");
			size = env_num("SLURM_NTASKS", 1, UINT32_MAX);
			slurm_job_id(j);
		} else {
			set_str(j->launcher, sizeof(j->launcher), "pmix");
			size = env_num("PMIX_SIZE", 1, UINT32_MAX);
			set_str(j->job_id, sizeof(j->job_id),
				getenv("PMIX_NAMESPACE"));
		}
	} else if ((rank = env_num("PMI_RANK", 0, INT32_MAX)) >= 0) {
		j->rank = (int32_t)rank;
		size = env_num("PMI_SIZE", 1, UINT32_MAX);
		set_str(j->source, sizeof(j->source), "PMI_RANK");
		if (in_step) {
			set_str(j->launcher, sizeof(j->launcher), "slurm");
			slurm_job_id(j);
		} else {
			set_str(j->launcher, sizeof(j->launcher), "mpich");
		}
	} else if (in_step &&
		   (rank = env_num("SLURM_PROCID", 0, INT32_MAX)) >= 0) {
		j->rank = (int32_t)rank;
		size = env_num("SLURM_NTASKS", 1, UINT32_MAX);
		if (size < 0)
			size = env_num("SLURM_NPROCS", 1, UINT32_MAX);
		set_str(j->source, sizeof(j->source), "SLURM_PROCID");
		set_str(j->launcher, sizeof(j->launcher), "slurm");
		slurm_job_id(j);
	}
	if (size < 0 && j->rank >= 0 && in_step)
		size = env_num("SLURM_NTASKS", 1, UINT32_MAX);
	j->size = size > 0 ? (uint32_t)size : 0;
	if (j->role == MAPLOG_JOB_APPLICATION && j->rank < 0)
		return 0;
	const char *own = getenv("MAPSAMPLE_JOB_ID");
	if (own && *own)
		set_str(j->job_id, sizeof(j->job_id), own);
	else if (!j->job_id[0] && strcmp(j->launcher, "mpich") == 0)
		hydra_job_id(j);
	return 1;
}

void mapjob_to_ev(const struct mapjob *j, struct maplog_ev_job *ev)
{
	ev->jb_rank = j->rank;
	ev->jb_size = j->size;
	ev->jb_role = j->role;
	ev->jb_job_id = j->job_id;
	ev->jb_launcher = j->launcher;
	ev->jb_source = j->source;
}
