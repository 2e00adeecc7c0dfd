/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2_i.h: the state of the otf2 substrate plugin, shared by otf2.c (the
 * plugin: its functions and events) and otf2_defs.c (the tables of
 * strings, regions, calling contexts and metrics, and the global
 * definitions written from them).  otf2.c calls otf2_defs.c, never the
 * other way.
 */
#ifndef OTF2_I_H
#define OTF2_I_H

#include <pthread.h>
#include <stdint.h>

#include <otf2/otf2.h>

#include <mapsample/substrate.h>

#include "otf2_tables.h"

#define ARCHIVE_BASE "traces"
#define NAME_MAX_LEN 512

/* What a region stands for: the kind is part of its key, so that a
 * function and a user region of the same name stay two regions. */
enum region_kind { RK_FUNCTION = 1, RK_USER, RK_MPI, RK_UNKNOWN, RK_PROCESS };

/* OTF2 references of the fixed definitions. */
enum { GEN_CPU = 0, GEN_WALL = 1 };
enum { ATTR_SENT = 0, ATTR_RECEIVED = 1, ATTR_PEER = 2, ATTR_CHILD_PID = 3 };
enum { NODE_HOST = 0, NODE_RANK = 1 };
enum { GROUP_THREADS = 0, GROUP_THREAD_COMM = 1 };
#define COMM_THREADS 0

struct loc {
	uint32_t id;      /* the host's id: the OTF2 location reference */
	uint32_t seq;     /* order of creation in this image */
	char *name;
	OTF2_EvtWriter *w;
	int had_writer;   /* has an event file: a location of the trace */
	uint64_t nev;     /* its number of events, once closed */
	uint64_t last_ts;
	int alive;        /* between create_location and delete_location */
	uint64_t dropped; /* events lost so far (DROP events) */
	int gap;          /* measurement off since a loss, until its next event */
	const mapsample_location *ml;
};

struct region {
	uint32_t name;    /* string reference */
	enum region_kind kind;
};

struct cctx {
	uint32_t region;
	uint32_t parent;  /* OTF2_UNDEFINED_CALLING_CONTEXT at the root */
};

struct metric {
	uint32_t name;
	int is_double;    /* -1 until the first value */
	int64_t unit;     /* string reference of its unit, -1: none */
	int accumulated;  /* a running total (the dropped events) */
};

struct otf2_state {
	pid_t pid;
	size_t plugin_id;
	const mapsample_substrate_callbacks *cb;
	size_t cb_size;
	pthread_mutex_t lock;
	char *dir;        /* LOG.otf2 */
	char name[64];    /* the archive's name in dir */
	OTF2_Archive *ar;
	int open_failed;
	int execd;
	int have_first;   /* first_parent below is known */
	int first_has_parent;

	struct loc **locs;
	size_t nlocs, caplocs;
	u64map loc_of_id;

	strtab strings;
	struct region *regions;
	uint32_t nregions, capregions;
	u64map region_of_key;    /* kind << 32 | name -> region */
	u64map region_of_pc;     /* pc (bit 63: a return address) -> region */
	u64map region_of_handle; /* mapsample handle -> region */
	struct cctx *ccs;
	uint32_t nccs, capccs;
	u64map cc_of_key;        /* parent << 32 | region -> calling context */
	struct metric *metrics;
	uint32_t nmetrics, capmetrics;
	u64map metric_of_handle;

	uint64_t first_ts, last_ts;
	int have_ts;
	int64_t realtime_offset; /* CLOCK_REALTIME - the log's clock, ns */
	uint64_t period[2];      /* weight of the first cpu / wall sample */
	int threads_used;
	int mpi_used;
	uint64_t dropped;
	uint32_t drop_metric;    /* the dropped-events metric + 1; 0: none yet */
	int forks_used;          /* a fork was written (child_pid attribute) */
	/* the program and its arguments (PROGRAM_BEGIN), kept across a
	 * fork for the child's ProgramBegin */
	char *prog;
	char **args;
	int nargs;
	/* a forked child: the name of its parent's location group */
	char creator[96];
	OTF2_AttributeList *attrs;

	/* new_definition_handle's list (see DESIGN NOTES) */
	pthread_mutex_t pending_lock;
	mapsample_handle pending[256];
	unsigned npending;
	int pending_lost;
};

/* All the plugin's state (otf2_defs.c); see otf2.c's DESIGN NOTES for
 * its lock. */
extern struct otf2_state otf2_st;

/* The host callback m, or NULL when the host's struct is too small to
 * hold it or the host left it NULL. */
#define CB(m) \
	((otf2_st.cb && offsetof(mapsample_substrate_callbacks, m) + \
	  sizeof(otf2_st.cb->m) <= otf2_st.cb_size) ? otf2_st.cb->m : NULL)

/* The lookup and definition tables (otf2_defs.c).  All with the lock
 * held; each returns the reference, or -1 when out of memory. */
int64_t otf2_str_ref(const char *s);
int64_t otf2_region_ref(const char *name, enum region_kind kind);
int64_t otf2_metric_ref(mapsample_handle h);
/* The metric of the events this image lost (DROP events): a running
 * total per location. */
int64_t otf2_drop_metric_ref(void);
/* The name of this image's location group: "process PID", or "process
 * PID after exec" for an exec'd image, into buf. */
void otf2_group_name(char *buf, size_t len, long pid, int execd);
/* The region of a REGION or MPI_FUNCTION handle, named by the host. */
int64_t otf2_handle_region(mapsample_handle h, enum region_kind kind);
/* The region of program counter pc (is_return: a return address, not
 * the leaf), named by the host the first time. */
int64_t otf2_pc_region(uint64_t pc, int is_return);
/* The calling context of region called from parent
 * (OTF2_UNDEFINED_CALLING_CONTEXT at the root). */
int64_t otf2_cc_child(uint32_t parent, uint32_t region);
/* Writes the archive's global definitions (open archive, event writers
 * closed). */
void otf2_write_definitions(void);

#endif /* OTF2_I_H */
