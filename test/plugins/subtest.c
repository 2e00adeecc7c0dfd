/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * subtest: the substrate plugin the host tests load
 * (test/integration/substrate-host.sh).  SUBTEST_MODE picks what it does:
 *   order    checks the call order and the per-location data slots: init
 *            before anything, locations created before their events and
 *            not used after delete, PROGRAM_END on the image's first
 *            location before its delete_location and after every other
 *            location's, no event after PROGRAM_END but that first
 *            location's deactivate/delete, every location deleted before
 *            write_data, write_data before dump_manifest and finalize,
 *            finalize last; every event finds in its location's data slot
 *            what create_location put there
 *   initfail init fails with a message
 *   sleep    sleeps 20 ms in every SAMPLE event (deferred)
 *   handler  takes SAMPLE events in the signal handler (atomics only)
 *   noop     takes every event and does nothing (the cost benchmark)
 * At finalize it appends one line to SUBTEST_OUT:
 *   pid=P errors=E locations=L samples=S drops=D logdrops=G first=TEXT
 * (D every DROP event's count, G those of the log's own reasons)
 * Built three times: as subtest, as subnew (SUBTEST_VERSION newer than
 * the host) and as subundecl (an undeclared[] slot set).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mapsample/substrate.h>

#ifndef SUBTEST_NAME
#define SUBTEST_NAME subtest
#endif
#ifndef SUBTEST_VERSION
#define SUBTEST_VERSION MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION
#endif

static const mapsample_substrate_callbacks *host;
static size_t my_id = (size_t)-1;
static char mode[32] = "order";
/* 0 nothing yet, 1 id, 2 callbacks, 3 init done, 4 write_data,
 * 5 manifest, 6 finalized */
static int stage;
static unsigned long errors, locations, samples, drops, deleted;
static unsigned long logdrops; /* of the log's reasons (below 1000) */
static int program_ended;
static char first[200];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct lstate {
	uint32_t tid;
	int deleted;
	int first;      /* the process image's first location */
};

static void error(const char *what)
{
	pthread_mutex_lock(&lock);
	if (!errors++)
		snprintf(first, sizeof(first), "%s", what);
	pthread_mutex_unlock(&lock);
}

static void check_loc(const mapsample_location *loc, const char *ev)
{
	char msg[160];
	if (stage != 3) {
		snprintf(msg, sizeof(msg), "%s_in_stage_%d", ev, stage);
		error(msg);
		return;
	}
	struct lstate *s = host->location_get_data(loc, my_id);
	if (!s) {
		snprintf(msg, sizeof(msg), "%s_before_create", ev);
		error(msg);
	} else if (s->deleted) {
		snprintf(msg, sizeof(msg), "%s_after_delete", ev);
		error(msg);
	} else if (s->tid != host->location_get_tid(loc)) {
		snprintf(msg, sizeof(msg), "%s_wrong_data_slot", ev);
		error(msg);
	} else if (program_ended && !(s->first && (strcmp(ev, "deactivate") == 0 ||
						   strcmp(ev, "delete") == 0))) {
		snprintf(msg, sizeof(msg), "%s_after_program_end", ev);
		error(msg);
	}
}

static void assign_id(size_t id)
{
	if (stage != 0)
		error("assign_id_not_first");
	my_id = id;
	stage = 1;
}

static void set_callbacks(const mapsample_substrate_callbacks *cb,
			  size_t size)
{
	if (stage != 1 || size < sizeof(*cb))
		error("set_callbacks_order");
	host = cb;
	stage = 2;
}

/* A fork child counts its own locations (the parent's are not its). */
static void forked_child(void)
{
	locations = deleted = 0;
	program_ended = 0;
}

static int init(void)
{
	const char *m = getenv("SUBTEST_MODE");
	if (m)
		snprintf(mode, sizeof(mode), "%s", m);
	if (stage != 2)
		error("init_order");
	pthread_atfork(NULL, NULL, forked_child);
	if (strcmp(mode, "initfail") == 0) {
		host->set_error("subtest was told to fail (SUBTEST_MODE)");
		return 1;
	}
	stage = 3;
	return 0;
}

static void create_location(const mapsample_location *loc,
			    const mapsample_location *parent)
{
	if (stage != 3)
		error("create_location_order");
	if (host->location_get_data(loc, my_id))
		error("create_location_twice");
	if (parent && !host->location_get_data(parent, my_id))
		error("parent_not_created");
	if (parent != host->location_get_parent(loc))
		error("parent_differs");
	struct lstate *s = calloc(1, sizeof(*s));
	s->tid = host->location_get_tid(loc);
	s->first = !parent || host->location_get_pid(parent) !=
				      host->location_get_pid(loc);
	host->location_set_data(loc, my_id, s);
	pthread_mutex_lock(&lock);
	locations++;
	pthread_mutex_unlock(&lock);
}

static void activate(const mapsample_location *loc,
		     const mapsample_location *parent, uint32_t forks)
{
	check_loc(loc, "activate");
	/* a fork child's first location: its parent has forked */
	if (parent && host->location_get_pid(parent) !=
			      host->location_get_pid(loc) && forks == 0)
		error("fork_sequence_zero");
}

static void deactivate(const mapsample_location *loc,
		       const mapsample_location *parent)
{
	(void)parent;
	check_loc(loc, "deactivate");
}

static void delete_location(const mapsample_location *loc)
{
	check_loc(loc, "delete");
	struct lstate *s = host->location_get_data(loc, my_id);
	if (s) {
		if (s->first && !program_ended)
			error("first_location_deleted_before_program_end");
		if (!s->first && program_ended)
			error("thread_deleted_after_program_end");
		s->deleted = 1;
	}
	pthread_mutex_lock(&lock);
	deleted++;
	pthread_mutex_unlock(&lock);
}

static void ev_thread(const mapsample_location *loc, uint64_t ts)
{
	(void)ts;
	check_loc(loc, "thread_event");
}

static void ev_begin(const mapsample_location *loc, uint64_t ts,
		     const char *exe, int argc, const char *const *argv)
{
	(void)ts;
	(void)exe;
	(void)argv;
	check_loc(loc, "program_begin");
	if (argc < 1)
		error("program_begin_argc");
}

static void ev_end(const mapsample_location *loc, uint64_t ts, int how,
		   int code)
{
	(void)ts;
	(void)how;
	(void)code;
	check_loc(loc, "program_end");
	struct lstate *s = host->location_get_data(loc, my_id);
	if (s && !s->first)
		error("program_end_not_on_first_location");
	if (program_ended)
		error("program_end_twice");
	program_ended = 1;
}

static void ev_fork(const mapsample_location *loc, uint64_t ts, uint32_t pid)
{
	(void)ts;
	(void)pid;
	check_loc(loc, "fork");
}

static void ev_sample(const mapsample_location *loc, uint64_t ts,
		      uint64_t w, uint32_t npc, const uint64_t *pc, int wall)
{
	(void)ts;
	(void)w;
	(void)pc;
	(void)wall;
	if (strcmp(mode, "handler") == 0) {
		/* in the signal handler: atomics only */
		if (!host->location_get_data(loc, my_id) || npc == 0)
			__atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&samples, 1, __ATOMIC_RELAXED);
		return;
	}
	if (strcmp(mode, "sleep") == 0) {
		struct timespec t = {0, 20000000L};
		nanosleep(&t, NULL);
	}
	check_loc(loc, "sample");
	pthread_mutex_lock(&lock);
	samples++;
	pthread_mutex_unlock(&lock);
}

/* noop's SAMPLE event: nothing at all (the cost benchmark measures the
 * host, not this plugin's tests of its mode) */
static void ev_sample_noop(const mapsample_location *loc, uint64_t ts,
			   uint64_t w, uint32_t npc, const uint64_t *pc,
			   int wall)
{
	(void)loc;
	(void)ts;
	(void)w;
	(void)npc;
	(void)pc;
	(void)wall;
}

static void ev_region(const mapsample_location *loc, uint64_t ts,
		      mapsample_handle r)
{
	(void)ts;
	check_loc(loc, "region");
	if (!host->handle_get_name(r))
		error("region_without_name");
}

static void ev_drop(const mapsample_location *loc, uint64_t ts,
		    uint32_t reason, uint64_t n)
{
	(void)ts;
	check_loc(loc, "drop");
	pthread_mutex_lock(&lock);
	drops += n;
	if (reason < MAPSAMPLE_DROP_PLUGIN_BEHIND)
		logdrops += n;
	pthread_mutex_unlock(&lock);
}

static void write_data(void)
{
	if (stage != 3)
		error("write_data_order");
	if (strcmp(mode, "order") == 0 && !program_ended)
		error("write_data_without_program_end");
	if (deleted != locations)
		error("location_not_deleted_before_write_data");
	stage = 4;
}

static void dump_manifest(FILE *f, const char *rel, const char *target)
{
	(void)rel;
	(void)target;
	if (stage != 4)
		error("dump_manifest_order");
	fprintf(f, "/nonexistent/subtest.txt\tnothing really\n");
	stage = 5;
}

static void finalize(void)
{
	if (stage != 5)
		error("finalize_order");
	stage = 6;
	const char *out = getenv("SUBTEST_OUT");
	if (!out)
		return;
	char line[400];
	int n = snprintf(line, sizeof(line),
			 "pid=%d errors=%lu locations=%lu samples=%lu "
			 "drops=%lu logdrops=%lu first=%s\n",
			 (int)getpid(), errors, locations, samples, drops,
			 logdrops, first[0] ? first : "-");
	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		(void)write(fd, line, (size_t)n);
		close(fd);
	}
}

static bool get_requirement(mapsample_substrates_requirement_flag flag)
{
	return flag == MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER &&
	       strcmp(mode, "handler") == 0;
}

static mapsample_substrates_callback evs[MAPSAMPLE_SUBSTRATES_NUM_EVENTS];

static uint32_t get_event_functions(mapsample_substrates_mode m,
				    mapsample_substrates_callback **f)
{
	if (stage != 3)
		error("get_event_functions_order");
	(void)m;
#define SET(t, fn) evs[t] = (mapsample_substrates_callback)(fn)
	SET(MAPSAMPLE_EVENT_PROGRAM_BEGIN, ev_begin);
	SET(MAPSAMPLE_EVENT_PROGRAM_END, ev_end);
	SET(MAPSAMPLE_EVENT_THREAD_BEGIN, ev_thread);
	SET(MAPSAMPLE_EVENT_THREAD_END, ev_thread);
	SET(MAPSAMPLE_EVENT_FORK, ev_fork);
	if (strcmp(mode, "noop") == 0)
		SET(MAPSAMPLE_EVENT_SAMPLE, ev_sample_noop);
	else
		SET(MAPSAMPLE_EVENT_SAMPLE, ev_sample);
	SET(MAPSAMPLE_EVENT_MARK, ev_region);
	SET(MAPSAMPLE_EVENT_REGION_ENTER, ev_region);
	SET(MAPSAMPLE_EVENT_REGION_EXIT, ev_region);
	SET(MAPSAMPLE_EVENT_DROP, ev_drop);
#undef SET
	*f = evs;
	return MAPSAMPLE_SUBSTRATES_NUM_EVENTS;
}

static void undeclared_fn(void)
{
}

#define ENTRY2(n) MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(n)
ENTRY2(SUBTEST_NAME)
{
	mapsample_substrate_plugin_info info;
	memset(&info, 0, sizeof(info));
	info.plugin_version = SUBTEST_VERSION;
	info.assign_id = assign_id;
	info.set_callbacks = set_callbacks;
	info.init = init;
	info.create_location = create_location;
	info.activate_cpu_location = activate;
	info.deactivate_cpu_location = deactivate;
	info.delete_location = delete_location;
	info.write_data = write_data;
	info.dump_manifest = dump_manifest;
	info.finalize = finalize;
	info.get_requirement = get_requirement;
	info.get_event_functions = get_event_functions;
#ifdef SUBTEST_UNDECLARED
	info.undeclared[3] = undeclared_fn;
#else
	(void)undeclared_fn;
#endif
	return info;
}
