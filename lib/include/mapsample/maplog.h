/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libmaplog: parse mapsample logs (format described in mapsample-log(5)).
 *
 * The API follows FreeBSD's pmclog(3): open a parser on a file descriptor
 * or on a memory stream, pull one event at a time with maplog_read(), and
 * look at ev_state when it returns -1.  Everything a report needs is in the
 * events: the parser never opens other files.
 *
 * Pointers inside an event (strings, argv, build-id bytes, PC arrays) point
 * into the parser and stay valid until the next maplog_read() or
 * maplog_close() on the same handle.  A handle is not thread-safe; use one
 * per thread.
 */
#ifndef MAPSAMPLE_MAPLOG_H
#define MAPSAMPLE_MAPLOG_H

#include <stddef.h>
#include <stdint.h>
#include <mapsample/maps_error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MAPLOG_VERSION_MAJOR 1
#define MAPLOG_VERSION_MINOR 0

/* Pass to maplog_open() to parse a stream given with maplog_feed(). */
#define MAPLOG_FD_NONE (-1)

typedef struct maplog maplog;

enum maplog_state {
	MAPLOG_OK = 0,           /* ev holds a record */
	MAPLOG_EOF = 1,          /* end of the stream; see ev_u.eof */
	MAPLOG_REQUIRE_DATA = 2, /* memory stream: feed more bytes */
	MAPLOG_ERROR = 3,        /* damage or I/O error: ev_error, ev_offset */
};

/* Record types; the numbers are the on-disk type bytes. */
enum maplog_type {
	MAPLOG_TYPE_NONE = 0,
	MAPLOG_TYPE_INITIALIZE = 1,
	MAPLOG_TYPE_METRIC_DEF = 2,
	MAPLOG_TYPE_PLUGIN_ERROR = 3,
	MAPLOG_TYPE_METRIC_ERROR = 4,
	MAPLOG_TYPE_MAP_IN = 5,
	MAPLOG_TYPE_MAP_OUT = 6,
	MAPLOG_TYPE_THREAD_BEGIN = 7,
	MAPLOG_TYPE_THREAD_END = 8,
	MAPLOG_TYPE_PROC_FORK = 9,
	MAPLOG_TYPE_PROC_EXEC = 10,
	MAPLOG_TYPE_PROC_EXIT = 11,
	MAPLOG_TYPE_SAMPLE = 12,
	MAPLOG_TYPE_STACK = 13, /* stack table entry; never returned */
	MAPLOG_TYPE_METRIC_VALUE = 14,
	MAPLOG_TYPE_DROP = 15,
	MAPLOG_TYPE_MARK = 16,
	MAPLOG_TYPE_CLOSE = 17,
	MAPLOG_TYPE_JOB = 18,   /* the process's place in a parallel job */
	MAPLOG_TYPE_MPI_CALLS = 19, /* one MPI function's call statistics */
	MAPLOG_TYPE_MANIFEST = 20, /* a file a substrate plugin wrote */
	MAPLOG_TYPE_FILE = 21, /* a file the sampler copied into the log */
	MAPLOG_TYPE_THREAD_NAME = 22, /* a thread's name changed */
	MAPLOG_TYPE_MAX_ = 23
};

/* What clock drives the sampling timer (in_clock). */
enum maplog_clock {
	MAPLOG_CLOCK_CPU = 0,  /* per-thread CPU time */
	MAPLOG_CLOCK_WALL = 1, /* wall-clock (CLOCK_MONOTONIC) */
};

/* Which timer mechanism delivered the samples (in_timer). */
enum maplog_timer {
	MAPLOG_TIMER_NONE = 0,
	MAPLOG_TIMER_PERF_TASK_CLOCK = 1, /* perf_event task-clock, per thread */
	MAPLOG_TIMER_POSIX_THREAD_CPU = 2,/* timer_create(CLOCK_THREAD_CPUTIME_ID) */
	MAPLOG_TIMER_POSIX_MONOTONIC = 3, /* timer_create(CLOCK_MONOTONIC) */
	MAPLOG_TIMER_ITIMER_PROF = 4,     /* setitimer(ITIMER_PROF), process-wide */
	MAPLOG_TIMER_PERF_USER_POSIX_SYS = 5, /* per thread: perf_event
					   task-clock sampling user time,
					   timer_create(CLOCK_THREAD_CPUTIME_ID)
					   system time */
};

enum maplog_datatype {
	MAPLOG_DT_U64 = 0,
	MAPLOG_DT_DOUBLE = 1,
};

/* md_flags */
#define MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME 0x1u
#define MAPLOG_MD_ONE_PER_NODE 0x2u
#define MAPLOG_MD_BACKFILL 0x4u

/* mv_kind */
enum maplog_value_kind {
	MAPLOG_VALUE_U64 = 0,
	MAPLOG_VALUE_DOUBLE = 1,
	MAPLOG_VALUE_NONE = 2, /* the getter had no value at this time */
};

/* mi_flags */
#define MAPLOG_MAP_MAIN 0x1u   /* the main executable */
#define MAPLOG_MAP_VDSO 0x2u   /* kernel-provided vDSO */
#define MAPLOG_MAP_DLOPEN 0x4u /* loaded by dlopen after start-up */

/* px_how */
enum maplog_exit_how {
	MAPLOG_EXIT_NORMAL = 0,   /* px_code is the exit status */
	MAPLOG_EXIT_SIGNALED = 1, /* px_code is the signal number */
};

/* dr_reason */
enum maplog_drop_reason {
	MAPLOG_DROP_BUFFER_FULL = 0,   /* no free buffer: sample discarded */
	MAPLOG_DROP_IN_SAMPLER = 1,    /* signal landed inside the sampler */
	MAPLOG_DROP_UNWIND = 2,        /* stack could not be unwound */
	MAPLOG_DROP_SIGNAL_BLOCKED = 3,/* thread blocked the sampling signal */
	MAPLOG_DROP_OVERRUN = 4,       /* timer overran (si_overrun) */
	MAPLOG_DROP_OTHER = 5,
	MAPLOG_DROP_MARK = 6,          /* a mark or region call lost: no
					* buffer, or the thread's slot busy
					* (dr_count counts calls, not samples) */
};

struct maplog_ev_initialize {
	uint32_t in_version_major; /* format version that wrote the stream */
	uint32_t in_version_minor;
	uint32_t in_clock;         /* enum maplog_clock */
	uint32_t in_timer;         /* enum maplog_timer */
	uint64_t in_rate_asked;    /* samples per second per thread asked */
	uint64_t in_period_ns;     /* timer period armed, ns of in_clock */
	uint32_t in_signal;        /* sampling signal number */
	uint32_t in_max_depth;     /* stack depth cap */
	uint32_t in_pid;
	uint32_t in_ppid;
	int64_t in_wall_sec;       /* wall-clock time at ev_ts (CLOCK_REALTIME) */
	uint32_t in_wall_nsec;
	uint32_t in_argc;
	const char *const *in_argv; /* in_argc strings; in_argv[in_argc] NULL */
	const char *in_host;
	const char *in_exe;        /* path of the executable */
};

struct maplog_ev_metric_def {
	uint32_t md_index;    /* referenced by metric values and errors */
	uint32_t md_datatype; /* enum maplog_datatype */
	uint32_t md_flags;    /* MAPLOG_MD_* */
	const char *md_id;
	const char *md_name;  /* display name */
	const char *md_units;
	const char *md_description;
	const char *md_domain;
	const char *md_colour;
	const char *md_group;
	const char *md_plugin; /* library the getter lives in */
};

struct maplog_ev_plugin_error {
	const char *pe_plugin;
	const char *pe_message;
};

struct maplog_ev_metric_error {
	uint32_t me_index;
	uint64_t me_count;    /* errors so far for this metric */
	const char *me_message;
};

struct maplog_ev_map_in {
	uint64_t mi_start;    /* first address of the mapping */
	uint64_t mi_end;      /* one past the last address */
	uint64_t mi_offset;   /* file offset mapped at mi_start */
	uint64_t mi_bias;     /* load bias (dlpi_addr) of the object */
	uint64_t mi_seq;      /* map sequence number in this process */
	uint32_t mi_flags;    /* MAPLOG_MAP_* */
	uint32_t mi_buildid_len;
	const uint8_t *mi_buildid;
	const char *mi_path;
};

struct maplog_ev_map_out {
	uint64_t mo_start;
	uint64_t mo_end;
	uint64_t mo_seq;
};

struct maplog_ev_thread_begin {
	uint32_t tb_tid;
	uint32_t tb_creator; /* tid that created it, 0 if unknown */
	const char *tb_name;
};

/* Thread tn_tid was renamed after its THREAD_BEGIN (pthread_setname_np,
 * prctl(PR_SET_NAME), a write to its comm file): its name when it
 * ended, written before its THREAD_END. */
struct maplog_ev_thread_name {
	uint32_t tn_tid;
	const char *tn_name;
};

struct maplog_ev_thread_end {
	uint32_t te_tid;
	uint64_t te_samples;  /* samples taken on this thread */
	uint64_t te_dropped;  /* samples lost on this thread */
	uint64_t te_cpu_ns;   /* CPU time the thread used while sampled */
	uint64_t te_wall_ns;  /* wall time it was sampled */
};

struct maplog_ev_proc_fork {
	uint32_t fk_ppid;
	uint32_t fk_pid;
};

struct maplog_ev_proc_exec {
	uint32_t ex_pid;
	uint32_t ex_image;    /* image number the new program writes with */
	const char *ex_path;
};

struct maplog_ev_proc_exit {
	uint32_t px_pid;
	uint32_t px_how;      /* enum maplog_exit_how */
	int32_t px_code;
};

struct maplog_ev_sample {
	uint32_t sa_tid;
	uint32_t sa_npc;      /* frames in sa_pc, leaf first */
	uint64_t sa_weight;   /* ns of the sampling clock this sample stands for */
	const uint64_t *sa_pc;/* sa_pc[0] is the interrupted PC */
	uint32_t sa_stack;    /* stack id within the chunk */
};

struct maplog_ev_metric_value {
	uint32_t mv_index;
	uint32_t mv_kind;     /* enum maplog_value_kind */
	union {
		uint64_t u64;
		double dbl;
	} mv_v;
};

struct maplog_ev_drop {
	uint32_t dr_tid;
	uint32_t dr_reason;   /* enum maplog_drop_reason */
	uint64_t dr_count;
};

/* What a MARK record is (mk_value); the program sets them through
 * <mapsample/mark.h>.  Other values are reserved: readers take them as
 * point marks. */
enum maplog_mark_kind {
	MAPLOG_MARK_POINT = 0,        /* mapsample_mark(mk_text) */
	MAPLOG_MARK_REGION_BEGIN = 1, /* mk_tid enters region mk_text */
	MAPLOG_MARK_REGION_END = 2,   /* mk_tid leaves its innermost region
					 (mk_text empty) */
};

struct maplog_ev_mark {
	uint32_t mk_tid;
	uint64_t mk_value;    /* enum maplog_mark_kind */
	const char *mk_text;
};

/* jb_role */
enum maplog_job_role {
	MAPLOG_JOB_APPLICATION = 0, /* a process of the job's application */
	MAPLOG_JOB_LAUNCHER = 1,    /* a launcher: mpirun, orted, prted,
				       hydra_pmi_proxy, srun, ... */
	MAPLOG_JOB_RANK_CHILD = 2,  /* a process a rank started (fork, exec
				       from a fork, posix_spawn: a rank's
				       "sh -c"): of jb_rank, not the rank */
};

/* What the process knows of the parallel job it belongs to: from the
 * variables its launcher set (jb_source names the variable) or from the
 * MPI library itself after MPI_Init (jb_source "MPI", which readers take
 * as the truth when records of one process disagree).  A process may
 * write several; the last one of each source counts. */
struct maplog_ev_job {
	int32_t jb_rank;         /* rank in the job; -1: none */
	uint32_t jb_size;        /* processes in the job; 0: not known */
	uint32_t jb_role;        /* enum maplog_job_role */
	const char *jb_job_id;   /* the launcher's job id; "" not known */
	const char *jb_launcher; /* "openmpi", "mpich", "slurm", ...; "" */
	const char *jb_source;   /* variable the rank came from, "MPI", or
				    "" (a launcher with no rank) */
};

/* Totals of one MPI function over the life of a process (its MPI
 * wrapper library hands them over at MPI_Finalize, or at exit when the
 * program never called it). */
struct maplog_ev_mpi_calls {
	const char *mc_function; /* "MPI_Send", "MPI_Allreduce", ... */
	uint64_t mc_calls;
	uint64_t mc_time_ns;     /* wall time inside the calls */
	uint64_t mc_sent;        /* bytes the calls sent */
	uint64_t mc_received;    /* bytes the calls received */
};

/* A file a substrate plugin wrote (its dump_manifest, at the end of the
 * process image; mapsample-substrate(3)). */
struct maplog_ev_manifest {
	const char *mf_plugin;      /* the plugin's name */
	const char *mf_path;        /* the file */
	const char *mf_description; /* what it holds; "" if not said */
};

struct maplog_ev_close {
	uint64_t cl_samples;
	uint64_t cl_dropped;
	uint64_t cl_threads;
};

/* fi_flags */
#define MAPLOG_FILE_CUT 0x1u /* the file was longer than the sampler copies
				(the size cap of mapsample-log(5)): this is
				its last piece and the rest is missing */

/* A piece of a file the sampler copied into the log, fi_offset bytes
 * into it: the pieces of one copy come in order, in one stream, the
 * first at offset 0.  fi_kind says what the file is: "perf-map" is the
 * /tmp/perf-PID.map of process fi_pid, lines "START SIZE name" (hex)
 * naming code that a JIT compiler made. */
struct maplog_ev_file {
	uint32_t fi_pid;
	uint32_t fi_flags;    /* MAPLOG_FILE_* */
	uint64_t fi_offset;   /* of fi_data in the file */
	const char *fi_kind;
	const char *fi_name;  /* the path it was copied from */
	uint32_t fi_len;
	const uint8_t *fi_data;
};

struct maplog_ev_eof {
	int eof_truncated;        /* the stream ended inside a chunk */
	uint64_t eof_dropped;     /* bytes at the end that held no whole record */
	uint64_t eof_missing;     /* bytes the last chunk promised but lacked */
};

struct maplog_ev_error {
	uint64_t er_length;       /* bytes known damaged from ev_offset (0 if unknown) */
};

struct maplog_ev {
	enum maplog_state ev_state; /* parser state after maplog_read() */
	enum maplog_type ev_type;   /* record type (ev_state == MAPLOG_OK) */
	int ev_error;               /* MAPS_E* code when MAPLOG_ERROR */
	uint64_t ev_offset;         /* byte offset of the record or damage */
	uint64_t ev_count;          /* records returned so far, this one included */
	uint64_t ev_ts;             /* CLOCK_MONOTONIC ns */
	uint32_t ev_pid;            /* producing process */
	uint32_t ev_tid;            /* producing thread, 0 for process records */
	uint32_t ev_image;          /* exec generation of ev_pid (0 first) */
	uint32_t ev_chunk_seq;      /* chunk sequence number in its stream */
	union {
		struct maplog_ev_initialize init;
		struct maplog_ev_metric_def mdef;
		struct maplog_ev_plugin_error perr;
		struct maplog_ev_metric_error merr;
		struct maplog_ev_map_in map_in;
		struct maplog_ev_map_out map_out;
		struct maplog_ev_thread_begin tbegin;
		struct maplog_ev_thread_end tend;
		struct maplog_ev_proc_fork fork;
		struct maplog_ev_proc_exec exec;
		struct maplog_ev_proc_exit exit;
		struct maplog_ev_sample sample;
		struct maplog_ev_metric_value mval;
		struct maplog_ev_drop drop;
		struct maplog_ev_mark mark;
		struct maplog_ev_close close;
		struct maplog_ev_job job;
		struct maplog_ev_mpi_calls mpi;
		struct maplog_ev_manifest manifest;
		struct maplog_ev_file file;
		struct maplog_ev_thread_name tname;
		struct maplog_ev_eof eof;
		struct maplog_ev_error error;
	} ev_u;
};

/* Totals a parser has seen so far. */
struct maplog_stats {
	uint64_t st_bytes;          /* bytes consumed */
	uint64_t st_records;        /* records returned */
	uint64_t st_samples;        /* of which samples */
	uint64_t st_chunks;         /* chunks read */
	uint64_t st_open_chunks;    /* chunks never sealed (writer died) */
	uint64_t st_damaged;        /* damage reports */
	uint64_t st_skipped_bytes;  /* bytes skipped because of damage */
	uint64_t st_unknown;        /* records of unknown type skipped */
	int st_truncated;           /* stream ended inside a chunk */
	uint64_t st_truncated_bytes;/* bytes missing from that chunk */
	uint32_t st_version_major;  /* from the file header */
	uint32_t st_version_minor;
};

/*
 * Opens a parser.  fd is a descriptor open for reading, positioned at the
 * start of a log, or MAPLOG_FD_NONE for a stream given with maplog_feed().
 * The parser does not close fd.  Returns NULL when out of memory.
 */
MAPS_API maplog *maplog_open(int fd);

/*
 * Reads the next record into *ev.  Returns 0 with ev->ev_state MAPLOG_OK,
 * or -1 with ev_state telling why:
 *   MAPLOG_EOF: the stream ended; ev_u.eof says whether it was truncated.
 *     Every later call returns the same EOF.
 *   MAPLOG_REQUIRE_DATA: memory stream needs more bytes (maplog_feed).
 *   MAPLOG_ERROR: damage at ev_offset (ev_error says what: checksum, size,
 *     record) or an I/O error (MAPS_EIO, errno set).  After damage the
 *     next call goes on with the next record when only that record was
 *     bad, else at the next good chunk, found at any byte offset (so
 *     inserted or lost bytes cost only the chunk they hit); after
 *     MAPS_EMAGIC or
 *     MAPS_EVERSION the stream cannot be read and every call fails again.
 * Records before the damage have all been returned.
 */
MAPS_API int maplog_read(maplog *p, struct maplog_ev *ev);

/*
 * Gives a memory-stream parser len more bytes.  The bytes are copied, so
 * data may be reused at once.  maplog_feed(p, NULL, 0) says the stream has
 * ended: maplog_read() then returns MAPLOG_EOF (truncated if it ended
 * inside a chunk) instead of MAPLOG_REQUIRE_DATA.  Returns 0, or -1 on a
 * parser opened on a file (MAPS_ENOTSUP) or out of memory; see
 * maplog_error().
 */
MAPS_API int maplog_feed(maplog *p, const void *data, size_t len);

/* Fills *st with the totals so far.  Returns 0, or MAPS_EINVAL when p
 * or st is NULL. */
MAPS_API int maplog_stats(const maplog *p, struct maplog_stats *st);

/* Last MAPS_E* code recorded by the parser, 0 if none. */
MAPS_API int maplog_error(const maplog *p);

/* Name of a record type ("sample", "map-in", ...), "unknown" otherwise. */
MAPS_API const char *maplog_type_name(int type);

/* Frees the parser; does not close its fd. */
MAPS_API void maplog_close(maplog *p);

#ifdef __cplusplus
}
#endif
#endif
