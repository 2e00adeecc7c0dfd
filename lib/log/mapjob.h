/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapjob: what a process can tell of the parallel job it belongs to (the
 * contents of a JOB record, mapsample-log(5)) from its environment and
 * its program's name, without talking to any other process.  Used by the
 * sampler, which records it in every process image (lib/sampler/job.c),
 * and by the launcher, which names the log of each rank after it
 * (cmd/mapsample).
 *
 * Where each launcher puts the rank, the size and the job id (read off
 * the launchers themselves):
 *   Open MPI (mpirun, orted):  OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE,
 *                              PMIX_NAMESPACE (or OMPI_MCA_ess_base_jobid)
 *   PMIx launchers (prterun):  PMIX_RANK, PMIX_NAMESPACE
 *   MPICH's hydra (mpiexec):   PMI_RANK, PMI_SIZE; the job id from the
 *                              hydra_pmi_proxy above: see below
 *   Slurm (srun):              SLURM_PROCID, SLURM_NTASKS (or
 *                              SLURM_NPROCS), SLURM_JOB_ID and
 *                              SLURM_STEP_ID as "JOB.STEP"
 * checked in that order.  MAPSAMPLE_JOB_ID, when set, is the job id
 * whatever the launcher says.  Hydra gives its ranks no job id in the
 * environment: the job id is then "HOST:PORT.PGID" from the command line
 * of the hydra_pmi_proxy above the process (mpiexec's control port and
 * the process group, the same on every host of the job), or, with no
 * proxy, HOST.PID of the nearest mpiexec or mpirun above it.
 *
 * Not async-signal-safe (getenv, /proc reads).
 */
#ifndef MAPSAMPLE_MAPJOB_H
#define MAPSAMPLE_MAPJOB_H

#include <stdint.h>

#include <mapsample/maplog.h>

struct mapjob {
	int32_t rank;         /* -1: none */
	uint32_t size;        /* 0: not known */
	uint32_t role;        /* enum maplog_job_role */
	char job_id[128];     /* "" not known */
	char launcher[16];    /* "openmpi", "pmix", "mpich", "slurm", "" */
	char source[32];      /* the variable the rank came from, or "" */
};

/*
 * Fills j for a process running the program exe (a path or a name; NULL:
 * not known).  A program named as a launcher (mpirun, mpiexec, orterun,
 * orted, prterun, prted, hydra_pmi_proxy, srun, slurmstepd, ...) is a
 * launcher (role MAPLOG_JOB_LAUNCHER, rank -1); any other process is an
 * application process, with the rank its environment gives.  Returns 1
 * when the process belongs to a job (a rank was found, or it is a
 * launcher), else 0 (j then says "no job": rank -1, strings empty).
 */
int mapjob_detect(struct mapjob *j, const char *exe);

/* 1 if exe (a path or a name) is the program of a known launcher. */
int mapjob_is_launcher(const char *exe);

/* The JOB record body of j; its strings point into j. */
void mapjob_to_ev(const struct mapjob *j, struct maplog_ev_job *ev);

#endif
