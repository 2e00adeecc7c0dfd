/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2.c: the otf2 substrate plugin (mapsample-substrate-otf2(7)).
 *
 * Writes what mapsample records as an OTF2 trace with libotf2: one OTF2
 * location per thread, in one location group (the process) under a
 * system tree node for the host and one for the MPI rank; each sample a
 * CallingContextSample whose calling context is a node of the tree built
 * from the sample's program counters; each metric value a Metric event
 * of that metric's class; regions and marks, and MPI calls, Enter and
 * Leave of regions; program and thread begin and end their OTF2 events;
 * a fork a call of region "fork" on the forking thread, the child's and
 * an exec'd image's location group created by the group before it, the
 * events the host lost a MeasurementOnOff gap and a metric of their
 * count (mapsample-substrate-otf2(7) says why these records).
 *
 * DESIGN NOTES
 * - Every event is deferred (get_requirement(SAMPLES_IN_HANDLER) is
 *   false): nothing here runs in a signal handler, and any code may run.
 *   One mutex, otf2_st.lock, guards all state; events, location and
 *   management functions take it.  new_definition_handle may run with a
 *   host lock held, so it never takes otf2_st.lock (which is held while we
 *   call the host): it appends to otf2_st.pending under its own small lock,
 *   and the next call that holds otf2_st.lock takes them in.
 * - One archive per process image: LOG.otf2/traces.otf2 for the first
 *   program, LOG.otf2/traces-PID.otf2 for a process forked or exec'd
 *   under it (traces-PID-2.otf2... for the next images of that pid: a
 *   forked child that execs keeps its pid).  A forked child inherits a copy of the parent's state; the
 *   first call in the child sees the pid change and starts afresh,
 *   leaving the copy (and the parent's buffers in it) untouched.
 * - The archive is opened at the first event (not at create_location)
 *   so that an EXEC event, which comes before the first events of an
 *   exec'd image, is known when the name is chosen.
 * - Definitions are written only at write_data, from tables kept here:
 *   strings, regions, the calling-context tree, metrics, locations.
 *   Names of program counters are asked of the host (address_name, else
 *   address_module) the first time a counter is seen, in the deferred
 *   SAMPLE event, and cached.
 * - OTF2 wants the timestamps of a location in order; a timestamp older
 *   than the location's last is written as that last one.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "otf2_i.h"


static void set_error(const char *msg)
{
	if (CB(set_error))
		otf2_st.cb->set_error(msg);
	else
		fprintf(stderr, "mapsample: otf2 substrate: %s\n", msg);
}

/* In a forked child, forget the parent's state (see DESIGN NOTES). */
static void check_fork(void)
{
	if (otf2_st.pid == getpid())
		return;
	char *dir = otf2_st.dir;
	const mapsample_substrate_callbacks *cb = otf2_st.cb;
	size_t cb_size = otf2_st.cb_size, plugin_id = otf2_st.plugin_id;
	char *prog = otf2_st.prog, **args = otf2_st.args;
	int nargs = otf2_st.nargs;
	char creator[sizeof(otf2_st.creator)];
	otf2_group_name(creator, sizeof(creator), (long)otf2_st.pid, otf2_st.execd);
	memset(&otf2_st, 0, sizeof(otf2_st));
	/* the parent's program (this copy of it) and its group's name */
	otf2_st.prog = prog;
	otf2_st.args = args;
	otf2_st.nargs = nargs;
	memcpy(otf2_st.creator, creator, sizeof(creator));
	otf2_st.lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	otf2_st.pending_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	otf2_st.dir = dir;
	otf2_st.cb = cb;
	otf2_st.cb_size = cb_size;
	otf2_st.plugin_id = plugin_id;
	otf2_st.pid = getpid();
}

static void lock(void)
{
	check_fork();
	pthread_mutex_lock(&otf2_st.lock);
}

static void unlock(void)
{
	pthread_mutex_unlock(&otf2_st.lock);
}

/* Takes in the definitions new_definition_handle queued.  Lock held. */
static void drain_pending(void)
{
	mapsample_handle h[256];
	unsigned n;
	pthread_mutex_lock(&otf2_st.pending_lock);
	n = otf2_st.npending;
	memcpy(h, otf2_st.pending, n * sizeof(h[0]));
	otf2_st.npending = 0;
	pthread_mutex_unlock(&otf2_st.pending_lock);
	for (unsigned i = 0; i < n; i++)
		otf2_metric_ref(h[i]);
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type,
				OTF2_LocationRef location, void *caller,
				bool final)
{
	return OTF2_FLUSH;
}

/* The time of the end of a buffer flush: the last time written, so that
 * the location's timestamps stay in order. */
static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type,
				 OTF2_LocationRef location)
{
	uint32_t i;
	if (u64map_get(&otf2_st.loc_of_id, location, &i))
		return otf2_st.locs[i]->last_ts;
	return otf2_st.last_ts;
}

static const OTF2_FlushCallbacks flush_callbacks = {
	.otf2_pre_flush = pre_flush,
	.otf2_post_flush = post_flush,
};

/* Removes what an earlier run left of archive NAME in otf2_st.dir: its anchor,
 * its definitions and the .evt/.def files of its folder. */
static void remove_old_archive(const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.otf2", otf2_st.dir, name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s.def", otf2_st.dir, name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", otf2_st.dir, name);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 4 && (strcmp(e->d_name + n - 4, ".evt") == 0 ||
			      strcmp(e->d_name + n - 4, ".def") == 0)) {
			char f[4096 + 256];
			snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
			unlink(f);
		}
	}
	closedir(d);
	rmdir(path);
}

/* Names the archive of a process image that is not the first: the first
 * of traces-PID, traces-PID-2, traces-PID-3... whose anchor file this
 * call creates (O_EXCL), as a forked child and the program it execs have
 * the same pid.  0, or -1 with errno set. */
static int claim_name(void)
{
	for (int n = 1; n < 1000; n++) {
		char path[4200];
		if (n == 1)
			snprintf(otf2_st.name, sizeof(otf2_st.name), "%s-%ld",
				 ARCHIVE_BASE, (long)getpid());
		else
			snprintf(otf2_st.name, sizeof(otf2_st.name), "%s-%ld-%d",
				 ARCHIVE_BASE, (long)getpid(), n);
		snprintf(path, sizeof(path), "%s/%s.otf2", otf2_st.dir, otf2_st.name);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Opens this image's archive if it is not open yet: 0, or -1 (said once
 * on stderr) when it cannot be.  Lock held. */
static int open_archive(void)
{
	if (otf2_st.ar)
		return 0;
	if (otf2_st.open_failed || !otf2_st.dir)
		return -1;
	if (!otf2_st.execd && !otf2_st.first_has_parent) {
		snprintf(otf2_st.name, sizeof(otf2_st.name), "%s", ARCHIVE_BASE);
		remove_old_archive(otf2_st.name);
	} else if (claim_name() < 0) {
		otf2_st.open_failed = 1;
		fprintf(stderr, "mapsample: otf2 substrate: %s: cannot create "
			"an anchor file %s-%ld*.otf2 there: %s; check that the "
			"folder is writable; the log is written without this "
			"process's trace\n", otf2_st.dir, ARCHIVE_BASE,
			(long)getpid(), strerror(errno));
		return -1;
	}
	otf2_st.ar = OTF2_Archive_Open(otf2_st.dir, otf2_st.name, OTF2_FILEMODE_WRITE,
				  1024 * 1024, 4 * 1024 * 1024,
				  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!otf2_st.ar) {
		otf2_st.open_failed = 1;
		fprintf(stderr, "mapsample: otf2 substrate: %s/%s.otf2: cannot "
			"create the trace (see libotf2's message above); check "
			"that the folder is writable; the log is written without it\n",
			otf2_st.dir, otf2_st.name);
		return -1;
	}
	OTF2_Archive_SetFlushCallbacks(otf2_st.ar, &flush_callbacks, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(otf2_st.ar);
	OTF2_Archive_SetCreator(otf2_st.ar, "mapsample otf2 substrate plugin");
	OTF2_Archive_OpenEvtFiles(otf2_st.ar);
	otf2_st.attrs = OTF2_AttributeList_New();
	return 0;
}

static struct loc *loc_add(const mapsample_location *ml)
{
	struct loc *x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	if (otf2_st.nlocs == otf2_st.caplocs) {
		size_t cap = otf2_st.caplocs ? otf2_st.caplocs * 2 : 16;
		struct loc **n = realloc(otf2_st.locs, cap * sizeof(*n));
		if (!n) {
			free(x);
			return NULL;
		}
		otf2_st.locs = n;
		otf2_st.caplocs = cap;
	}
	x->id = CB(location_get_id) ? otf2_st.cb->location_get_id(ml) : (uint32_t)otf2_st.nlocs;
	x->seq = (uint32_t)otf2_st.nlocs;
	const char *name = CB(location_get_name) ? otf2_st.cb->location_get_name(ml) : NULL;
	char buf[64];
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "thread %" PRIu32, x->id);
		name = buf;
	}
	x->name = strdup(name);
	x->alive = 1;
	x->ml = ml;
	if (!x->name || u64map_put(&otf2_st.loc_of_id, x->id, (uint32_t)otf2_st.nlocs) < 0) {
		free(x->name);
		free(x);
		return NULL;
	}
	otf2_st.locs[otf2_st.nlocs++] = x;
	if (CB(location_set_data))
		otf2_st.cb->location_set_data(ml, otf2_st.plugin_id, x);
	return x;
}

static struct loc *loc_find(const mapsample_location *ml)
{
	struct loc *x = CB(location_get_data) ?
		otf2_st.cb->location_get_data(ml, otf2_st.plugin_id) : NULL;
	if (!x && ml) {
		uint32_t i, id = CB(location_get_id) ? otf2_st.cb->location_get_id(ml) : 0;
		if (u64map_get(&otf2_st.loc_of_id, id, &i))
			x = otf2_st.locs[i];
	}
	return x;
}

/* The location an event is for, with its event writer, and the event's
 * time in order; NULL when the event cannot be written.  Lock held. */
static struct loc *event_loc(const mapsample_location *ml, uint64_t *ts)
{
	drain_pending();
	struct loc *x = loc_find(ml);
	if (!x) {
		/* an event before create_location: take the location now */
		if (!otf2_st.have_first) {
			otf2_st.have_first = 1;
			otf2_st.first_has_parent = CB(location_get_parent) &&
				otf2_st.cb->location_get_parent(ml) != NULL;
		}
		x = loc_add(ml);
	}
	if (!x || open_archive() < 0)
		return NULL;
	if (!x->w) {
		x->w = OTF2_Archive_GetEvtWriter(otf2_st.ar, x->id);
		if (!x->w)
			return NULL;
		x->had_writer = 1;
	}
	if (*ts < x->last_ts)
		*ts = x->last_ts;
	x->last_ts = *ts;
	if (x->gap) {
		/* the first event after a loss: the measurement is on again */
		x->gap = 0;
		OTF2_EvtWriter_MeasurementOnOff(x->w, NULL, *ts, OTF2_MEASUREMENT_ON);
	}
	if (!otf2_st.have_ts || *ts < otf2_st.first_ts)
		otf2_st.first_ts = *ts;
	if (!otf2_st.have_ts || *ts > otf2_st.last_ts)
		otf2_st.last_ts = *ts;
	otf2_st.have_ts = 1;
	return x;
}

/* ---- events ---- */

/* Keeps the program and its arguments for a forked child's
 * ProgramBegin.  Lock held. */
static void keep_program(const char *exe, int argc, const char *const *argv)
{
	if (otf2_st.prog)
		return;
	char **a = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*a));
	char *p = strdup(exe ? exe : "");
	int ok = a && p;
	for (int i = 0; ok && i < argc; i++)
		ok = (a[i] = strdup(argv[i] ? argv[i] : "")) != NULL;
	if (!ok) {
		for (int i = 0; a && i < argc; i++)
			free(a[i]);
		free(a);
		free(p);
		return;
	}
	otf2_st.prog = p;
	otf2_st.args = a;
	otf2_st.nargs = argc > 0 ? argc : 0;
}

/* ProgramBegin on location x.  Lock held. */
static void write_program_begin(struct loc *x, uint64_t ts, const char *exe,
				int argc, const char *const *argv)
{
	int64_t prog = otf2_str_ref(exe);
	OTF2_StringRef *args = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*args));
	int ok = prog >= 0 && args;
	for (int i = 0; ok && i < argc; i++) {
		int64_t a = otf2_str_ref(argv[i]);
		ok = a >= 0;
		args[i] = (OTF2_StringRef)a;
	}
	if (ok)
		OTF2_EvtWriter_ProgramBegin(x->w, NULL, ts, (OTF2_StringRef)prog,
					    argc > 0 ? (uint32_t)argc : 0, args);
	free(args);
}

static void ev_program_begin(const mapsample_location *ml, uint64_t ts,
			     const char *exe, int argc, const char *const *argv)
{
	lock();
	keep_program(exe, argc, argv);
	struct loc *x = event_loc(ml, &ts);
	if (x)
		write_program_begin(x, ts, exe, argc, argv);
	unlock();
}

static void ev_program_end(const mapsample_location *ml, uint64_t ts,
			   int how, int code)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	if (x)
		OTF2_EvtWriter_ProgramEnd(x->w, NULL, ts,
					  how == 0 ? (int64_t)code : 128 + (int64_t)code);
	unlock();
}

static void ev_thread_begin(const mapsample_location *ml, uint64_t ts)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	if (x && x->seq == 0 && otf2_st.first_has_parent && !otf2_st.execd) {
		/* the first thread of a forked child: the process begins
		 * here, running its parent's program */
		write_program_begin(x, ts, otf2_st.prog ? otf2_st.prog : x->name,
				    otf2_st.nargs,
				    (const char *const *)otf2_st.args);
	} else if (x) {
		otf2_st.threads_used = 1;
		OTF2_EvtWriter_ThreadBegin(x->w, NULL, ts, COMM_THREADS, x->seq);
	}
	unlock();
}

static void ev_thread_end(const mapsample_location *ml, uint64_t ts)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	if (x) {
		otf2_st.threads_used = 1;
		OTF2_EvtWriter_ThreadEnd(x->w, NULL, ts, COMM_THREADS, x->seq);
	}
	unlock();
}

/* In the parent: the fork as a call of region "fork" (Enter and Leave
 * at once, paradigm MEASUREMENT_SYSTEM), its Enter carrying the
 * attribute child_pid.  OTF2 has no event for a process creating
 * another. */
static void ev_fork(const mapsample_location *ml, uint64_t ts, uint32_t child_pid)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	int64_t r = x ? otf2_region_ref("fork", RK_PROCESS) : -1;
	if (r >= 0) {
		OTF2_AttributeList *a = otf2_st.attrs;
		otf2_st.forks_used = 1;
		if (a)
			OTF2_AttributeList_AddUint32(a, ATTR_CHILD_PID, child_pid);
		OTF2_EvtWriter_Enter(x->w, a, ts, (OTF2_RegionRef)r);
		OTF2_EvtWriter_Leave(x->w, NULL, ts, (OTF2_RegionRef)r);
	}
	unlock();
}

static void ev_exec(const mapsample_location *ml, uint64_t ts, const char *path)
{
	/* Nothing to write: the exec'd image is a location group created
	 * by the image before it (otf2_write_definitions), and its first
	 * location begins with ProgramBegin.  It names the archive of this
	 * image (DESIGN NOTES). */
	lock();
	if (!otf2_st.ar)
		otf2_st.execd = 1;
	unlock();
}

static void ev_sample(const mapsample_location *ml, uint64_t ts,
		      uint64_t weight_ns, uint32_t npc, const uint64_t *pc,
		      int wall)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	if (!x)
		goto out;
	int64_t cc = OTF2_UNDEFINED_CALLING_CONTEXT;
	if (npc == 0) {
		int64_t r = otf2_region_ref("[unknown]", RK_UNKNOWN);
		cc = r < 0 ? -1 : otf2_cc_child(OTF2_UNDEFINED_CALLING_CONTEXT, (uint32_t)r);
	}
	/* from the root (the outermost frame) to the leaf, pc[0] */
	for (uint32_t i = npc; cc >= 0 && i-- > 0;) {
		int64_t r = otf2_pc_region(pc[i], i > 0);
		cc = r < 0 ? -1 : otf2_cc_child((uint32_t)cc, (uint32_t)r);
	}
	if (cc < 0)
		goto out;
	int g = wall ? GEN_WALL : GEN_CPU;
	if (!otf2_st.period[g])
		otf2_st.period[g] = weight_ns;
	OTF2_EvtWriter_CallingContextSample(x->w, NULL, ts, (OTF2_CallingContextRef)cc,
					    npc ? npc : 1, g);
out:
	unlock();
}

static void ev_metric(const mapsample_location *ml, uint64_t ts,
		      mapsample_handle metric, int has_value, int is_double,
		      uint64_t u64, double dbl)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	int64_t m = x ? otf2_metric_ref(metric) : -1;
	if (m >= 0 && has_value) {
		struct metric *d = &otf2_st.metrics[m];
		if (d->is_double < 0)
			d->is_double = is_double ? 1 : 0;
		OTF2_Type type;
		OTF2_MetricValue v;
		if (d->is_double) {
			type = OTF2_TYPE_DOUBLE;
			v.floating_point = is_double ? dbl : (double)u64;
		} else {
			type = OTF2_TYPE_UINT64;
			v.unsigned_int = is_double ? (dbl > 0 ? (uint64_t)(dbl + 0.5) : 0) : u64;
		}
		OTF2_EvtWriter_Metric(x->w, NULL, ts, (OTF2_MetricRef)m, 1, &type, &v);
	}
	unlock();
}

static void region_event(const mapsample_location *ml, uint64_t ts,
			 mapsample_handle region, int enter, int leave)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	int64_t r = x ? otf2_handle_region(region, RK_USER) : -1;
	if (r >= 0) {
		if (enter)
			OTF2_EvtWriter_Enter(x->w, NULL, ts, (OTF2_RegionRef)r);
		if (leave)
			OTF2_EvtWriter_Leave(x->w, NULL, ts, (OTF2_RegionRef)r);
	}
	unlock();
}

/* A point mark: entering and leaving its region at once. */
static void ev_mark(const mapsample_location *ml, uint64_t ts, mapsample_handle region)
{
	region_event(ml, ts, region, 1, 1);
}

static void ev_region_enter(const mapsample_location *ml, uint64_t ts,
			    mapsample_handle region)
{
	region_event(ml, ts, region, 1, 0);
}

static void ev_region_exit(const mapsample_location *ml, uint64_t ts,
			   mapsample_handle region)
{
	region_event(ml, ts, region, 0, 1);
}

static void ev_mpi_enter(const mapsample_location *ml, uint64_t ts,
			 mapsample_handle function, mapsample_handle comm)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	int64_t r = x ? otf2_handle_region(function, RK_MPI) : -1;
	if (r >= 0)
		OTF2_EvtWriter_Enter(x->w, NULL, ts, (OTF2_RegionRef)r);
	unlock();
}

/* The bytes and the peer go in attributes of the Leave. */
static void ev_mpi_exit(const mapsample_location *ml, uint64_t ts,
			mapsample_handle function, uint64_t bytes_sent,
			uint64_t bytes_received, int32_t peer)
{
	lock();
	struct loc *x = event_loc(ml, &ts);
	int64_t r = x ? otf2_handle_region(function, RK_MPI) : -1;
	if (r >= 0) {
		OTF2_AttributeList *a = otf2_st.attrs;
		if (a) {
			otf2_st.mpi_used = 1;
			OTF2_AttributeList_AddUint64(a, ATTR_SENT, bytes_sent);
			OTF2_AttributeList_AddUint64(a, ATTR_RECEIVED, bytes_received);
			if (peer >= 0)
				OTF2_AttributeList_AddInt32(a, ATTR_PEER, peer);
		}
		OTF2_EvtWriter_Leave(x->w, a, ts, (OTF2_RegionRef)r);
	}
	unlock();
}

/* Lost events: the measurement is off from the location's last event
 * before the loss to its first event after it (MeasurementOnOff OFF,
 * then ON with that event), and the location's running total of lost
 * events is a value of the metric "mapsample dropped events" at the
 * OFF.  Samples lost before the location existed leave no gap in it:
 * only the metric, at its begin.  Losses the log counts itself (reasons
 * below MAPSAMPLE_DROP_PLUGIN_BEHIND: a sample cut short, a mark lost)
 * are the log's to report (mapreport); they are not gaps here, since
 * the plugin got most of those events. */
static void ev_drop(const mapsample_location *ml, uint64_t ts, uint32_t reason,
		    uint64_t count)
{
	if (reason < MAPSAMPLE_DROP_PLUGIN_BEHIND)
		return;
	lock();
	otf2_st.dropped += count;
	struct loc *x = loc_find(ml);
	int gap = x ? x->gap : 0;
	if (x && x->w)
		ts = x->last_ts;
	if (x)
		x->gap = 0; /* a loss in a gap goes on with it */
	x = count ? event_loc(ml, &ts) : NULL;
	if (x)
		x->gap = gap;
	int64_t m = x ? otf2_drop_metric_ref() : -1;
	if (m >= 0) {
		if (reason != MAPSAMPLE_DROP_BEFORE_LOCATION && !x->gap) {
			OTF2_EvtWriter_MeasurementOnOff(x->w, NULL, ts, OTF2_MEASUREMENT_OFF);
			x->gap = 1;
		}
		x->dropped += count;
		OTF2_Type type = OTF2_TYPE_UINT64;
		OTF2_MetricValue v = { .unsigned_int = x->dropped };
		OTF2_EvtWriter_Metric(x->w, NULL, ts, (OTF2_MetricRef)m, 1, &type, &v);
	}
	unlock();
}

static mapsample_substrates_callback event_functions[MAPSAMPLE_SUBSTRATES_NUM_EVENTS] = {
	[MAPSAMPLE_EVENT_PROGRAM_BEGIN] = (mapsample_substrates_callback)ev_program_begin,
	[MAPSAMPLE_EVENT_PROGRAM_END] = (mapsample_substrates_callback)ev_program_end,
	[MAPSAMPLE_EVENT_THREAD_BEGIN] = (mapsample_substrates_callback)ev_thread_begin,
	[MAPSAMPLE_EVENT_THREAD_END] = (mapsample_substrates_callback)ev_thread_end,
	[MAPSAMPLE_EVENT_FORK] = (mapsample_substrates_callback)ev_fork,
	[MAPSAMPLE_EVENT_EXEC] = (mapsample_substrates_callback)ev_exec,
	[MAPSAMPLE_EVENT_SAMPLE] = (mapsample_substrates_callback)ev_sample,
	[MAPSAMPLE_EVENT_METRIC] = (mapsample_substrates_callback)ev_metric,
	[MAPSAMPLE_EVENT_MARK] = (mapsample_substrates_callback)ev_mark,
	[MAPSAMPLE_EVENT_REGION_ENTER] = (mapsample_substrates_callback)ev_region_enter,
	[MAPSAMPLE_EVENT_REGION_EXIT] = (mapsample_substrates_callback)ev_region_exit,
	[MAPSAMPLE_EVENT_MPI_ENTER] = (mapsample_substrates_callback)ev_mpi_enter,
	[MAPSAMPLE_EVENT_MPI_EXIT] = (mapsample_substrates_callback)ev_mpi_exit,
	[MAPSAMPLE_EVENT_DROP] = (mapsample_substrates_callback)ev_drop,
};

/* With recording disabled nothing is written but what keeps the trace
 * whole: program and thread begin and end, forks, the exec that names
 * it, and the drops. */
static mapsample_substrates_callback disabled_functions[MAPSAMPLE_SUBSTRATES_NUM_EVENTS] = {
	[MAPSAMPLE_EVENT_PROGRAM_BEGIN] = (mapsample_substrates_callback)ev_program_begin,
	[MAPSAMPLE_EVENT_PROGRAM_END] = (mapsample_substrates_callback)ev_program_end,
	[MAPSAMPLE_EVENT_THREAD_BEGIN] = (mapsample_substrates_callback)ev_thread_begin,
	[MAPSAMPLE_EVENT_THREAD_END] = (mapsample_substrates_callback)ev_thread_end,
	[MAPSAMPLE_EVENT_FORK] = (mapsample_substrates_callback)ev_fork,
	[MAPSAMPLE_EVENT_EXEC] = (mapsample_substrates_callback)ev_exec,
	[MAPSAMPLE_EVENT_DROP] = (mapsample_substrates_callback)ev_drop,
};

/* ---- management ---- */

static void assign_id(size_t plugin_id)
{
	otf2_st.plugin_id = plugin_id;
}

static void set_callbacks(const mapsample_substrate_callbacks *cb, size_t size)
{
	otf2_st.cb = cb;
	otf2_st.cb_size = size;
}

static int init(void)
{
	otf2_st.pid = getpid();
	const char *log = CB(log_path) ? otf2_st.cb->log_path() : NULL;
	if (!log || !*log) {
		set_error("the host gives no log path, so there is no place "
			  "for the trace (LOG.otf2)");
		return -1;
	}
	size_t n = strlen(log) + sizeof(".otf2");
	free(otf2_st.dir);
	otf2_st.dir = malloc(n);
	if (!otf2_st.dir) {
		set_error("out of memory");
		return -1;
	}
	snprintf(otf2_st.dir, n, "%s.otf2", log);
	if (mkdir(otf2_st.dir, 0777) < 0 && errno != EEXIST) {
		char msg[4200];
		snprintf(msg, sizeof(msg), "%s: cannot create the trace's folder: "
			 "%s; write the log (-o) where you can create files",
			 otf2_st.dir, strerror(errno));
		set_error(msg);
		free(otf2_st.dir);
		otf2_st.dir = NULL;
		return -1;
	}
	struct timespec rt, mt;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mt);
	uint64_t now = CB(get_time) ? otf2_st.cb->get_time() :
		(uint64_t)mt.tv_sec * 1000000000u + (uint64_t)mt.tv_nsec;
	otf2_st.realtime_offset = (int64_t)((uint64_t)rt.tv_sec * 1000000000u +
				       (uint64_t)rt.tv_nsec) - (int64_t)now;
	return 0;
}

static void create_location(const mapsample_location *ml,
			    const mapsample_location *parent)
{
	lock();
	if (!otf2_st.have_first) {
		otf2_st.have_first = 1;
		otf2_st.first_has_parent = parent != NULL;
	}
	if (!loc_find(ml))
		loc_add(ml);
	unlock();
}

/* Keeps the location's last name (a thread may name itself late). */
static void loc_refresh_name(struct loc *x)
{
	const char *name = CB(location_get_name) ? otf2_st.cb->location_get_name(x->ml) : NULL;
	if (name && *name && strcmp(name, x->name) != 0) {
		char *n = strdup(name);
		if (n) {
			free(x->name);
			x->name = n;
		}
	}
}

static void delete_location(const mapsample_location *ml)
{
	lock();
	struct loc *x = loc_find(ml);
	if (x && x->alive) {
		loc_refresh_name(x);
		x->alive = 0;
		x->ml = NULL;
		if (CB(location_set_data))
			otf2_st.cb->location_set_data(ml, otf2_st.plugin_id, NULL);
	}
	unlock();
}

static void new_definition_handle(mapsample_handle h, enum mapsample_handle_type type)
{
	/* Only metrics are defined ahead of use (DESIGN NOTES: no otf2_st.lock
	 * here). */
	if (type != MAPSAMPLE_HANDLE_TYPE_METRIC)
		return;
	check_fork();
	pthread_mutex_lock(&otf2_st.pending_lock);
	if (otf2_st.npending < sizeof(otf2_st.pending) / sizeof(otf2_st.pending[0]))
		otf2_st.pending[otf2_st.npending++] = h;
	else
		otf2_st.pending_lost = 1;
	pthread_mutex_unlock(&otf2_st.pending_lock);
}

static void pre_unify(void)
{
	lock();
	drain_pending();
	unlock();
}

static void write_data(void)
{
	lock();
	drain_pending();
	if (!otf2_st.ar && (otf2_st.nlocs || otf2_st.nmetrics))
		open_archive();
	if (!otf2_st.ar)
		goto out;
	for (size_t i = 0; i < otf2_st.nlocs; i++)
		if (otf2_st.locs[i]->alive)
			loc_refresh_name(otf2_st.locs[i]);
	if (otf2_st.dropped) {
		char d[128];
		snprintf(d, sizeof(d), "mapsample: %" PRIu64 " events were lost "
			 "and are not in this trace", otf2_st.dropped);
		OTF2_Archive_SetDescription(otf2_st.ar, d);
	}
	for (size_t i = 0; i < otf2_st.nlocs; i++) {
		struct loc *x = otf2_st.locs[i];
		if (x->w && x->gap) {
			/* a loss after the location's last event */
			x->gap = 0;
			OTF2_EvtWriter_MeasurementOnOff(x->w, NULL, x->last_ts,
							OTF2_MEASUREMENT_ON);
		}
		if (x->w) {
			OTF2_EvtWriter_GetNumberOfEvents(x->w, &x->nev);
			OTF2_Archive_CloseEvtWriter(otf2_st.ar, x->w);
			x->w = NULL;
		}
	}
	OTF2_Archive_CloseEvtFiles(otf2_st.ar);
	/* the local definition files OTF2 readers look for, one per
	 * location; every definition is global */
	OTF2_Archive_OpenDefFiles(otf2_st.ar);
	for (size_t i = 0; i < otf2_st.nlocs; i++) {
		if (!otf2_st.locs[i]->had_writer)
			continue;
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(otf2_st.ar, otf2_st.locs[i]->id);
		if (d)
			OTF2_Archive_CloseDefWriter(otf2_st.ar, d);
	}
	OTF2_Archive_CloseDefFiles(otf2_st.ar);
	otf2_write_definitions();
	if (otf2_st.attrs)
		OTF2_AttributeList_Delete(otf2_st.attrs);
	otf2_st.attrs = NULL;
	if (OTF2_Archive_Close(otf2_st.ar) != OTF2_SUCCESS)
		fprintf(stderr, "mapsample: otf2 substrate: %s/%s.otf2: the trace "
			"could not be finished (see libotf2's message above)\n",
			otf2_st.dir, otf2_st.name);
	otf2_st.ar = NULL;
	otf2_st.open_failed = 1; /* written: nothing more goes in */
out:
	unlock();
}

static void activate_cpu_location(const mapsample_location *ml,
				  const mapsample_location *parent,
				  uint32_t fork_sequence_count)
{
	create_location(ml, parent); /* no-op when it was created */
}

static void deactivate_cpu_location(const mapsample_location *ml,
				    const mapsample_location *parent)
{
	lock();
	struct loc *x = loc_find(ml);
	if (x && x->alive)
		loc_refresh_name(x);
	unlock();
}

static uint32_t get_event_functions(mapsample_substrates_mode mode,
				    mapsample_substrates_callback **functions)
{
	*functions = mode == MAPSAMPLE_SUBSTRATES_RECORDING_ENABLED ?
		event_functions : disabled_functions;
	return MAPSAMPLE_SUBSTRATES_NUM_EVENTS;
}

/* Deferred samples (any code may run in them), and names for the
 * program counters. */
static bool get_requirement(mapsample_substrates_requirement_flag flag)
{
	return flag == MAPSAMPLE_SUBSTRATES_REQUIREMENT_ADDRESS_NAMES;
}

/* The archive's files, relative to the log's folder: its anchor file,
 * its global definitions and its folder of event files. */
static void dump_manifest(FILE *manifest, const char *relative_source_dir,
			  const char *target_dir)
{
	lock();
	if (otf2_st.dir && otf2_st.name[0] && !otf2_st.ar) {
		const char *dir = strrchr(otf2_st.dir, '/');
		dir = dir ? dir + 1 : otf2_st.dir;
		char anchor[4200];
		snprintf(anchor, sizeof(anchor), "%s/%s.otf2", otf2_st.dir, otf2_st.name);
		if (access(anchor, F_OK) == 0) {
			fprintf(manifest, "%s/%s.otf2\tOTF2 trace: the anchor file "
				"to open in OTF2 tools (otf2-print, Vampir)\n",
				dir, otf2_st.name);
			fprintf(manifest, "%s/%s.def\tOTF2 trace: global definitions\n",
				dir, otf2_st.name);
			fprintf(manifest, "%s/%s\tOTF2 trace: one event file per "
				"thread\n", dir, otf2_st.name);
		}
	}
	unlock();
}

static void finalize(void)
{
	lock();
	for (size_t i = 0; i < otf2_st.nlocs; i++) {
		free(otf2_st.locs[i]->name);
		free(otf2_st.locs[i]);
	}
	free(otf2_st.locs);
	otf2_st.locs = NULL;
	otf2_st.nlocs = otf2_st.caplocs = 0;
	u64map_free(&otf2_st.loc_of_id);
	strtab_free(&otf2_st.strings);
	free(otf2_st.regions);
	otf2_st.regions = NULL;
	otf2_st.nregions = otf2_st.capregions = 0;
	u64map_free(&otf2_st.region_of_key);
	u64map_free(&otf2_st.region_of_pc);
	u64map_free(&otf2_st.region_of_handle);
	free(otf2_st.ccs);
	otf2_st.ccs = NULL;
	otf2_st.nccs = otf2_st.capccs = 0;
	u64map_free(&otf2_st.cc_of_key);
	free(otf2_st.metrics);
	otf2_st.metrics = NULL;
	otf2_st.nmetrics = otf2_st.capmetrics = 0;
	u64map_free(&otf2_st.metric_of_handle);
	free(otf2_st.dir);
	otf2_st.dir = NULL;
	for (int i = 0; otf2_st.args && i < otf2_st.nargs; i++)
		free(otf2_st.args[i]);
	free(otf2_st.args);
	free(otf2_st.prog);
	otf2_st.args = NULL;
	otf2_st.prog = NULL;
	otf2_st.nargs = 0;
	unlock();
}

MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(otf2)
{
	mapsample_substrate_plugin_info info;
	memset(&info, 0, sizeof(info));
	info.plugin_version = MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION;
	info.init = init;
	info.assign_id = assign_id;
	/* no init_mpp: the rank is asked for when the trace is written */
	info.finalize = finalize;
	info.create_location = create_location;
	info.delete_location = delete_location;
	info.activate_cpu_location = activate_cpu_location;
	info.deactivate_cpu_location = deactivate_cpu_location;
	info.pre_unify = pre_unify;
	info.write_data = write_data;
	info.new_definition_handle = new_definition_handle;
	info.get_event_functions = get_event_functions;
	info.set_callbacks = set_callbacks;
	info.get_requirement = get_requirement;
	info.dump_manifest = dump_manifest;
	return info;
}
