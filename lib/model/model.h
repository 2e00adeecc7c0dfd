/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report model: what mapreport knows about a run after reading its logs.
 *
 * model_load() reads one log (through model/logread.h) and folds it into
 * a model: processes (with their initialize record and mappings), threads
 * with their sample counts, the distinct stacks with theirs, the metric
 * plugins' values as running statistics (model/metrics.h) and, when asked
 * for, the timeline (model/timeline.h).  Memory grows with distinct
 * processes, threads, mappings, stacks and metrics, never with the number
 * of samples or metric values.  Damage and truncation are recorded as
 * notes, one per event, so the CLI can name them and still report what
 * was read.  Running out of memory is returned (MAPS_ENOMEM), never acted
 * on: the CLI says so and exits.
 */
#ifndef MAPSAMPLE_MODEL_MODEL_H
#define MAPSAMPLE_MODEL_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include <mapsample/maplog.h>

#include "model/filter.h"
#include "model/keymap.h"
#include "model/logpool.h"
#include "model/logread.h"
#include "model/metrics.h"
#include "model/pidkeys.h"
#include "model/regions.h"
#include "model/timeline.h"

struct rmap {
	uint64_t start, end, offset, bias;
	uint32_t flags;
	char *path;
	uint8_t buildid[64];
	uint32_t buildid_len;
	int unmapped;
};

struct rthread {
	uint32_t pid, image, tid;
	uint64_t samples;
	uint64_t weight;      /* ns of the sampling clock, nominal */
	uint64_t dropped;
	uint64_t first_ts, last_ts;
	int ended;            /* THREAD_END seen: cpu_ns, wall_ns measured */
	uint64_t cpu_ns, wall_ns;
	int cut;              /* read under --time or --region: cpu_ns and
			       * wall_ns are of its whole life, its
			       * samples of the range or region only, so
			       * its seconds are theirs (weight) */
	char *name;
};

struct rproc {
	uint32_t pid, image, ppid;
	int have_init;
	uint32_t clock, timer, signal;
	uint64_t rate_asked, period_ns;
	int64_t wall_sec;
	uint32_t wall_nsec;
	uint64_t start_ts, end_ts;
	char *host, *exe, *cmdline;
	int exited;
	uint32_t exit_how;
	int32_t exit_code;
	struct rmap *maps;
	size_t nmaps, capmaps;
	uint64_t samples, dropped;
	/* The job this process belongs to (MAPLOG_TYPE_JOB): */
	int32_t rank;         /* MPI rank; -1: not a rank (or not known) */
	uint32_t job_size;    /* ranks in the job; 0: not known */
	char *job_id;         /* launcher's job id; NULL: not known */
	char *launcher;       /* name of the launcher that started the job
			       * (mpirun, srun, ...); NULL: not known */
	int is_launcher;      /* 1: this process is a launcher (mpirun,
			       * orted, prted, srun...), not the application */
	uint32_t seq;         /* the process's index among those of the
			       * report, in the order first read (the rank
			       * a report shows when the log names none) */

	int rank_from_mpi;    /* 1: rank and job_size came from the MPI
			       * library (a JOB record of source "MPI"),
			       * which later variables do not override */
	uint32_t log;         /* which log the process is from: the
			       * model_load() call, counted from 0 */
	uint32_t os_pid;      /* its pid on its host.  pid is the model's
			       * key: os_pid, unless a process of an earlier
			       * log (another host, another run) had that
			       * pid, when it is a number of the model's
			       * (MODEL_PID_REMAP and up; model_reread()) */
	/* the process's /tmp/perf-PID.map as the sampler copied it (FILE
	 * records of kind "perf-map"): perfmap_len bytes, NULL if none;
	 * perfmap_cut: the copy stops at the sampler's size cap */
	char *perfmap;
	size_t perfmap_len;
	int perfmap_cut;
	int is_rank_child;    /* 1: a process rank `rank` started (JOB role
			       * MAPLOG_JOB_RANK_CHILD), not the rank */
	/* The image's exec (PROC_EXEC records, model/images.c): */
	char *exec_path;      /* the program it exec'd (the last attempt's
			       * path); NULL: it did not exec */
	uint32_t exec_tries;  /* exec attempts recorded: the ones that
			       * failed (a shell trying each folder of
			       * PATH) and the last */
	uint32_t reinits;     /* initialize records after the first: other
			       * programs that wrote under this pid and
			       * image (an exec the sampler did not see,
			       * or a pid used again), counted together */
};

/* Keys the model gives processes whose pid an earlier log had taken. */
#define MODEL_PID_REMAP PIDKEYS_REMAP

/* One MPI function's totals in one process image (MPI_CALLS records:
 * the log keeps one per function; a second one for the same function
 * adds to the first).  A function may have two entries for one process
 * when its records were not written together: add them up. */
struct rmpicall {
	uint32_t pid, image;
	char *function;
	uint64_t calls, time_ns, sent, received;
};

/* A file a substrate plugin wrote (MANIFEST records). */
struct rmanifest {
	uint32_t pid, image;
	char *plugin, *path, *description;
};

/* A problem found in a log (model/logread.h), kept for the report. */
enum rnote_kind {
	RNOTE_DAMAGE = LOGREAD_DAMAGE,
	RNOTE_TRUNCATED = LOGREAD_TRUNCATED,
	RNOTE_IO = LOGREAD_IO,
	RNOTE_FATAL = LOGREAD_FATAL,
};

struct rnote {
	enum rnote_kind kind;
	char *file;
	uint64_t offset;
	uint64_t length;     /* damaged bytes, or bytes lost at the end */
	int code;            /* MAPS_E* */
	uint64_t records_before;
	/* records known missing (logread.h's lp_loss and its fields) */
	enum logread_loss loss;
	uint32_t pid, image, tid;
	uint64_t count, total;
};

/* A distinct stack of one process image, with its sample count.  Its
 * frames, spc[off .. off + npc), are shared with every other stack of
 * the same addresses (the ranks of a job loading their code at the same
 * addresses): a stack's frames are read, never written in place. */
struct rstack {
	uint64_t hash;
	uint32_t pid, image;
	uint32_t npc;
	uint32_t off;        /* first PC in model.spc */
	uint64_t count;
	uint64_t weight;
	int used;
	uint32_t seq;        /* order of first sight: 0, 1, ...; unlike the
			      * slot, kept while the table grows */
	/* the PCs as the logs have them once model_stack_cut() cut the
	 * stack (raw_npc 0: never cut; then off and npc are they), for
	 * the tools that read the logs again (report/out/rescan.c) */
	uint32_t raw_off, raw_npc;
};

struct model {
	struct rproc *procs;
	size_t nprocs, capprocs;
	struct rthread *threads;
	size_t nthreads, capthreads;
	struct rnote *notes;
	size_t nnotes, capnotes;
	/* distinct stacks: open addressing; PCs leaf first in spc */
	struct rstack *stacks;
	size_t nstacks, capstacks;
	uint64_t *spc;
	size_t nspc, capspc;
	/* stack ids of the chunk being read -> index+1 in stacks */
	uint32_t *sidmap;
	size_t capsid;
	uint32_t c_pid, c_tid, c_image, c_seq;
	int c_valid;
	uint64_t samples, records, dropped, bytes;
	uint64_t chunks, open_chunks;
	uint64_t marks_lost;      /* marks and region calls the sampler
				   * could not record (MAPLOG_DROP_MARK) */
	uint64_t first_ts, last_ts;
	int files;
	struct rmetrics metrics;  /* metric plugin values and errors */
	struct rmpicall *mpicalls;/* MPI call statistics, by process */
	size_t nmpicalls, capmpicalls;
	/* Set before model_load to hear how far reading got: called with
	 * the bytes of the log read so far and its size (0 when not a
	 * regular file), once at the start and after each block. */
	void (*progress)(void *ctx, uint64_t done, uint64_t size);
	void *progress_ctx;
	struct regions *regions;  /* set before model_load for the program's
				   * regions and the --region filter
				   * (model/regions.h; not owned) */
	int timeline_on;          /* set before model_load to fill timeline */
	struct rfilter *filter;   /* set before model_load to count only the
				   * samples it keeps (model/filter.h), and
				   * the metric values within its --time;
				   * NULL: all */
	struct rtimeline timeline;/* samples and metrics over time */
	/* Set before model_load to hear of every sample counted (after the
	 * filter and --region): called with the sample and its stack's seq.
	 * Returns 0, or MAPS_ENOMEM to stop reading. */
	int (*on_sample)(void *ctx, const struct maplog_ev *ev, uint32_t seq);
	void *on_sample_ctx;

	int launchers_on;         /* set before model_load to count the
				   * samples of launcher processes (mpirun,
				   * srun, ...; rproc.is_launcher) in the
				   * totals; 0: they are left out (counted in
				   * launcher_samples) */
	uint64_t launcher_samples;/* samples of launchers left out */
	struct rmanifest *manifests; /* files substrate plugins wrote */
	size_t nmanifests, capmanifests;
	uint64_t samples_read;    /* sample records read, whatever the
				   * filters and --launchers kept */
	struct pidkeys pk;        /* the keys of the logs' pids */
	uint32_t nlogs;           /* model_load() calls so far */
	int error;                /* the first MAPS_E* that stopped reading
				   * (MAPS_ENOMEM); 0: none.  Once set, m can
				   * only be freed. */
	struct keymap pkeys;      /* (pid, image, 0) -> procs index; used
				   * while it holds every process (a job of
				   * thousands of ranks), else procs is
				   * searched */
	uint32_t nseq;            /* distinct processes (pids) so far: the
				   * next rproc.seq */
	/* the distinct frame sequences in spc, whatever their processes
	 * (open addressing): a stack whose addresses another process's
	 * stack had is given that stack's frames, not a copy */
	struct rframes *frames;
	size_t nframes, capframes;
	/* the stacks of the log being read (stacks.c), in the order first
	 * seen: their samples are counted here, where the chunks' stack ids
	 * find them, and added to their slots of stacks by
	 * model_stacks_flush() (lidx: index + 1, open addressing) */
	struct rlstack *lstacks;
	size_t nlstacks, caplstacks;
	uint32_t *lidx;
	size_t caplidx;
	uint64_t *lspc;           /* frames of lstacks not yet in stacks */
	size_t nlspc, caplspc;
	uint32_t sgen;            /* times the stack table grew (slots
				   * moved) */
};

/* A stack of the log being read: its slot in model.stacks while
 * model.sgen is gen (UINT32_MAX: not in the table yet, its frames at
 * off in model.lspc, else in model.spc), and the samples not yet added
 * to it. */
struct rlstack {
	uint64_t hash;
	uint32_t pid, image, npc, off;
	uint32_t slot, gen, seq;
	uint64_t count, weight;
};

/* A frame sequence of model.spc: spc[off .. off + npc); npc1 is npc + 1
 * (0: a free slot). */
struct rframes {
	uint64_t hash;
	uint32_t off, npc1;
};

void model_init(struct model *m);
void model_free(struct model *m);

/*
 * Reads the log at path into m.  also, if not NULL, is another tool
 * (model/logread.h) given every record in the same pass, with also_ctx
 * (its lt_any and lt_record callbacks; problems go to the model only).
 * Returns, as logread_fd() does, a code that cannot be taken for another:
 *   LOGREAD_CLEAN (0)       the log read cleanly;
 *   LOGREAD_DAMAGED (1)     it was damaged or truncated: what was
 *                           readable is in m, the damage in m->notes;
 *   LOGREAD_UNREADABLE (2)  it could not be read at all (note added);
 *   negative MAPS_E*        MAPS_ENOMEM: memory ran out (m->error is set,
 *                           m holds part of the log and can only be
 *                           freed; later calls return it at once); or
 *                           the code an also callback returned to stop
 *                           reading (m holds the records before it).
 */
int model_load(struct model *m, const char *path,
	       const struct logread_tool *also, void *also_ctx);

/*
 * model_load() of log i of pool (model/logpool.h), path its name: the
 * log read ahead on the pool's threads, given to m as model_load() would
 * have read it.  m's logs must all be read this way, in the pool's
 * order (a log skipped is dropped unread, and the model numbers it all
 * the same).  Returns what model_load() returns.
 */
int model_load_pool(struct model *m, struct logpool *pool, size_t i,
		    const char *path, const struct logread_tool *also,
		    void *also_ctx);

/*
 * Reads log number log (counted in model_load() calls from 0) of m again
 * at path, giving tool every record with ctx as logread_file() does, but
 * with the pids m keys its processes under (rproc.pid): for the readers
 * of a second pass that look up the model's processes, threads and
 * stacks.  Returns what logread_file() returns.
 */
int model_reread(const struct model *m, size_t log, const char *path,
		 const struct logread_tool *tool, void *ctx);

/* The process image (pid, image) of m (pid as the model keys it), or
 * NULL. */
const struct rproc *model_find_proc(const struct model *m, uint32_t pid,
				    uint32_t image);

/* Does mark ev pass m's filter: --time by its time, and --pid, --tid,
 * --comm and --rank by its thread and process, as a sample of that
 * thread would (the thread's name as far as the logs were read)?  1 when
 * m has no filter.  For the timeline's marks as the logs are read and
 * for the tools that read them again (report/out/rescan.c). */
int model_mark_kept(const struct model *m, const struct maplog_ev *ev);

/* Does sample ev of thread m->threads[thread] pass m's filter
 * (--pid/--tid/--comm/--time/--rank) and the --region filter of
 * m->regions (model/regions.h, ready once the logs were read)?  1 when m
 * has neither.  For the tools that read the logs again
 * (report/out/rescan.c). */
int model_sample_kept(const struct model *m, const struct maplog_ev *ev,
		      size_t thread);

/* manifests.c: keeps a MANIFEST record of process image (pid, image);
 * 0 or MAPS_ENOMEM.  Frees them all. */
int model_manifest_add(struct model *m, uint32_t pid, uint32_t image,
		       const struct maplog_ev_manifest *mf);
void model_manifests_free(struct model *m);

/* After the last model_load, unless m->launchers_on: leaves the
 * launcher processes (rproc.is_launcher) and their threads out of the
 * tables, as their samples were left out of the totals. */
void model_drop_launchers(struct model *m);

/* After the last model_load with a filter: leaves out the threads and
 * processes none of whose samples were kept, so that the tables list
 * only what the filter chose. */
void model_drop_unsampled(struct model *m);

/*
 * After the last model_load with a filter, before model_drop_unsampled:
 * keeps in m->metrics only the values of the processes the filter
 * chooses (model_metrics.c): those whose pid, rank and program name
 * pass it, and those of the threads --tid and --comm choose, whole
 * (metrics are measured per process).  The values were read within
 * --time already.  Returns 0 or MAPS_ENOMEM.
 */
int model_narrow_metrics(struct model *m);

/*
 * The processes with metric values in m (after model_narrow_metrics()):
 * their model pids (model_pid_str() names them), each once, in
 * ascending order, into *pids (malloc'd; the caller frees it), *n of
 * them.  Returns 0 or MAPS_ENOMEM (*pids NULL).
 */
int model_metrics_pids(const struct model *m, uint32_t **pids, size_t *n);

/*
 * Says in words whose values m's metrics hold under m's filter, for a
 * report's metrics section, into buf: "values of process 1234 only",
 * "values of processes 1234 and 1240, taken from 1 s to 2 s after the
 * run's start; for --tid and --comm, whole processes: metrics are
 * measured per process".  Returns buf ("" without a filter).
 */
const char *model_metrics_scope(const struct model *m, char *buf, size_t len);

/* Formats note n as one line "FILE: what happened at byte N; ..." into
 * buf.  Returns buf. */
const char *model_note_str(const struct rnote *n, char *buf, size_t len);

/* Drops the first cut frames of stack s of m (0 < cut <= s->npc): its
 * frames become a copy of its own of the rest, the new leaf (a return
 * address) less 1, so that the call instruction names it.  The frames
 * it had are left as they were for the stacks that share them.  Returns
 * 0 or MAPS_ENOMEM (s unchanged). */
int model_stack_cut(struct model *m, struct rstack *s, uint32_t cut);

/* stacks.c: counts sample ev (of a known thread, passed by every
 * filter) on its stack, added if new; stack ids are remembered per
 * chunk so a repeated stack is found without hashing its frames again.
 * Calls m->on_sample.  Returns 0 or MAPS_ENOMEM (or on_sample's code). */
int model_stack_count(struct model *m, const struct maplog_ev *ev);

/* stacks.c: adds the samples counted on the stacks of the log being read
 * to the stack table (model.stacks' count and weight); model_load()
 * calls it at the end of each log. */
void model_stacks_flush(struct model *m);

/* The mapping of process (pid, image) that holds pc, or NULL. */
const struct rmap *model_find_map(const struct model *m, uint32_t pid,
				  uint32_t image, uint64_t pc);

/* Seconds of the sampling clock (CPU or wall) thread t was sampled:
 * measured when its end was recorded (model_thread_measured()), else its
 * samples' nominal weight (also under --time and --region: the measured
 * seconds are its whole life's, not the range's or the region's). */
double model_thread_seconds(const struct rthread *t, int wall);

/* Whether model_thread_seconds(t) is the measured time: its end was
 * recorded and the model was not read under --time or --region. */
int model_thread_measured(const struct rthread *t);

/* Why the threads' seconds are their samples' weights, not measured
 * (--time, --region), as the text of a note under a table of threads;
 * NULL when they are measured. */
const char *model_cut_note(const struct model *m);

/*
 * Names every output uses.  For the sampling clock (MAPLOG_CLOCK_*) and
 * the timer (MAPLOG_TIMER_*): a phrase for people ("CPU time", "perf
 * task-clock event") and an id for programs ("cpu", "perf-task-clock");
 * for the clock also the word of its unit in a rate ("CPU" in "per
 * CPU-second", "wall").
 */
const char *model_clock_name(uint32_t clock);
const char *model_clock_id(uint32_t clock);
const char *model_clock_unit(uint32_t clock);
const char *model_timer_name(uint32_t timer);
const char *model_timer_id(uint32_t timer);

/* The program of process image (pid, image): the last part of its
 * executable's path, or "[unknown]" when no initialize record named it. */
const char *model_proc_name(const struct model *m, uint32_t pid,
			    uint32_t image);

/* The pid on its host of the process the model keys as pid (pid itself
 * unless an earlier log had taken it: MODEL_PID_REMAP and up). */
uint32_t model_os_pid(const struct model *m, uint32_t pid);

/* The pid a report shows for the process the model keys as pid, into
 * buf: "PID", its pid on its host; for a pid an earlier log had too,
 * "PID (rank R)" with its MPI rank, else "PID (log N)", N its log
 * counted from 1; for a process of another PID namespace than its log's
 * first process, PID is the pid it had in its namespace (what ps(1)
 * there showed) and "(rank R)", else "(ns T)" or "(log N, ns T)" follow,
 * T its namespace tag (model_pid_ns()).  Returns buf. */
const char *model_pid_str(const struct model *m, uint32_t pid, char *buf,
			  size_t len);

/* Bits 22 and up of a pid in a log: the tag (1 to 511; up to 1023 in
 * logs of earlier versions) the sampler gives a process of another PID
 * namespace than the log's first process (mapsample-log(5)); pids on a
 * host are below this. */
#define MODEL_PIDNS_TAG 0x400000u

/* The pid the process the model keys as pid had in its PID namespace,
 * what ps(1) showed there: its pid on its host without the namespace
 * tag. */
uint32_t model_real_pid(const struct model *m, uint32_t pid);

/* The namespace tag of the process the model keys as pid (1 to 511, or
 * 1023 in older logs; the same for two processes once in 511), 0 for a
 * process of its
 * log's first PID namespace. */
uint32_t model_pid_ns(const struct model *m, uint32_t pid);

/* The MPI rank of the process the model keys as pid, -1 if none. */
int32_t model_pid_rank(const struct model *m, uint32_t pid);

/* The log (counted from 1, as model_pid_str() says) of the process the
 * model keys as pid; 0 when no process of that pid is known. */
uint32_t model_pid_log(const struct model *m, uint32_t pid);

/* A small number of the process the model keys as pid, the same for
 * all its images: 1 + the index in m->procs of its first image;
 * m->nprocs + 1 for a pid of no process.  Exports whose readers need
 * one number per process (Chrome trace, the HTML page's script) use it,
 * with the pid of model_pid_str() as its name. */
uint32_t model_proc_num(const struct model *m, uint32_t pid);

/* The first process image whose initialize record was read, or NULL. */
const struct rproc *model_first_proc(const struct model *m);

/* The wall-clock time process image p started, in UTC, formatted by
 * strftime(3) with fmt into buf.  Returns its length; 0 (buf "") when it
 * cannot be formatted. */
size_t model_start_str(const struct rproc *p, const char *fmt, char *buf,
		       size_t len);

/* Seconds from the earliest to the latest record of the run (0 when
 * there are none). */
double model_run_seconds(const struct model *m);

/* The sampling clock of the run (MAPLOG_CLOCK_*) and the achieved rate:
 * samples per second of that clock per thread. */
int model_clock(const struct model *m);
double model_rate(const struct model *m);

/*
 * images.c: the images one process (one pid) went through by exec.
 *
 * model_image_exec() keeps a PROC_EXEC record ex of image p (the
 * program it exec'd); 0 or MAPS_ENOMEM.
 */
int model_image_exec(struct rproc *p, const struct maplog_ev_proc_exec *ex);

/* The indices of m's processes into order (room for m->nprocs), grouped
 * by process: the pids in the order first read, each pid's images by
 * image number (the order of its exec chain).  Returns m->nprocs, or 0
 * when out of memory. */
size_t model_images_order(const struct model *m, size_t *order);

/* In an order of model_images_order(): the images of the process at
 * order[i], order[i..i+n) with n returned (1 for a process that did not
 * exec). */
size_t model_images_run(const struct model *m, const size_t *order,
			size_t n, size_t i);

/* threads_order.c: the threads of m in the order of their images in
 * order (of model_images_order()), as read within one image: tk (room for
 * m->nthreads) gets each one's index in m->threads (i) and the place of
 * its image in order (pos; m->nprocs when it has none).  Returns 0 or
 * MAPS_ENOMEM. */
struct model_tkey {
	size_t pos, i;
};
int model_threads_order(const struct model *m, const size_t *order,
			struct model_tkey *tk);

/* The exec chain of the images order[0..n) of one process, as program
 * names ("env -> bash -> sh -> xz"; a run of k images of one name as
 * "sh x k"), into buf.  Returns buf. */
const char *model_images_chain(const struct model *m, const size_t *order,
			       size_t n, char *buf, size_t len);

#endif
