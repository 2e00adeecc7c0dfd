/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrate: the host of substrate (event) plugins, <mapsample/substrate.h>
 * and mapsample-substrate(3).
 *
 * substrate_load() (constructor) opens each plugin of
 * MAPSAMPLE_SUBSTRATE_PLUGINS (comma-separated paths, or NAMEs of
 * libmapsample_substrate_NAME.so found by the dynamic loader; the launcher
 * resolves its --substrate options and the variable to paths), calls its
 * entry mapsample_substrate_plugin_NAME_get_info, checks plugin_version
 * (newer than this host: refused, one line) and undeclared[] (non-zero:
 * refused), then calls, in the header's order, assign_id, set_callbacks,
 * init (non-zero: refused with the message given to set_error; the run
 * goes on), get_requirement and get_event_functions.  Every member
 * exists since interface version 1, the only one so far; a member added
 * later is called only for plugins whose plugin_version knows it
 * (KNOWS()).
 *
 * Locations are threads, one struct mapsample_location each, made by
 * substrate_thread_begin() (the thread_begin hook, normal context) and
 * found by the signal handler through SUB.cur[slot index].loc.  The first
 * location of a process image is its main thread; a fork child's first
 * location has the forking thread's location as parent, whose fork count
 * it carries (fork_sequence_count).  The per-plugin data slots are plain
 * loads and stores: async-signal-safe.
 *
 * Events: see substrate_run.c for how deferred events travel.  SAMPLE
 * events of a plugin that asked for them in the handler
 * (MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER) are called from
 * substrate_sample(), inside the sampling signal handler, once its
 * create_location has been delivered (samples before that are counted as
 * dropped for it).  init_mpp comes from mapsample_mpi_init_done(), which
 * the MPI plugin's PMPI layer calls after MPI_Init, with a PARADIGM "MPI"
 * definition first; when no MPI launcher's variables are set it comes at
 * the end of start-up, and when they are set but MPI_Init never
 * reported, at the end of the process image before PROGRAM_END.
 *
 * The end of an image (exit, exec, _exit; not a fatal signal, where
 * nothing is delivered): sampling has stopped (S.stopping) and the
 * samples under way are waited for (quiesce()), so every sample in the
 * log reaches the rings; every other location's THREAD_END, deactivate
 * and delete, then PROGRAM_END on the first, its deactivate and delete,
 * pre_unify, write_data (on the dispatcher); then, on the ending thread,
 * dump_manifest and finalize.  After _exit (SIGCTX_EXIT, perhaps in a
 * signal handler) the ending thread only raises SUB.end_req and waits,
 * bounded: each dispatcher makes every call itself (end_here()).  A
 * backlog the plugin has not taken within SUB_END_WAIT_MS is dropped and
 * counted; a plugin that fell behind is named on stderr with the count.
 * Samples a thread's handler takes before its location exists (the main
 * thread's timer starts before its thread_begin) are counted in
 * SUB.early and told by a DROP event after the location's begin.
 *
 * Calls substrate_run.c, substrate_defs.c, slot.c and real.c below it.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sampler/sampler_i.h"

#define SUB_END_WAIT_MS 200
/* after _exit, the most the plugins' last calls (write_data,
 * dump_manifest, finalize) are waited for, past the backlog's time */
#define SUB_EXIT_WAIT_MS 1000
/* plugin_version since which a member is known (all: 1) */
#define KNOWS(p, since) ((p)->info.plugin_version >= (since))

struct sub_host SUB;
char **sub_argv;
int sub_argc;
const char *sub_exe = "";
static char exe_buf[4096];
static char error_buf[512];
static int32_t mpi_rank = -1;
static uint32_t mpi_size;
/* the forking thread's location, from substrate_fork_prepare() */
static struct mapsample_location *fork_parent;
/* when that fork began: the FORK event's time, which must come before
 * the child's first event (taken after fork() returned, it came after
 * the child's PROGRAM_BEGIN under load) */
static uint64_t fork_ts;
/* in a fork child, from substrate_after_fork_child() until its first
 * thread's location takes it: the forking thread's location, the
 * parent of that first one.  Not fork_parent itself: in the parent, a
 * thread starting while another forks must not take it (it was once
 * made a "first" location of the parent, never deleted) */
static struct mapsample_location *child_parent;
/* Held while SUB.cur is searched for a parent and the parent's reference
 * taken, and while a slot's location is taken out of SUB.cur: a location
 * found there still holds its slot's reference.  Normal context only (the
 * handler reads SUB.cur without it). */
static pthread_mutex_t cur_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- callbacks offered to the plugins ---- */

static uint32_t cb_id(const mapsample_location *l)
{
	return l ? l->id : 0;
}

static const char *cb_name(const mapsample_location *l)
{
	return l ? l->name : "";
}

static enum mapsample_location_type cb_type(const mapsample_location *l)
{
	(void)l;
	return MAPSAMPLE_LOCATION_TYPE_CPU_THREAD;
}

static const mapsample_location *cb_parent(const mapsample_location *l)
{
	return l ? l->parent : NULL;
}

static uint32_t cb_pid(const mapsample_location *l)
{
	return l ? l->pid : 0;
}

static uint32_t cb_tid(const mapsample_location *l)
{
	return l ? l->tid : 0;
}

/* Async-signal-safe. */
static void *cb_get_data(const mapsample_location *l, size_t id)
{
	if (!l || id >= SUBSTRATE_MAX)
		return NULL;
	return __atomic_load_n(&l->data[id], __ATOMIC_ACQUIRE);
}

/* Async-signal-safe. */
static void cb_set_data(const mapsample_location *l, size_t id, void *data)
{
	if (!l || id >= SUBSTRATE_MAX)
		return;
	__atomic_store_n(&((struct mapsample_location *)l)->data[id], data,
			 __ATOMIC_RELEASE);
}

static const char *cb_handle_name(mapsample_handle h)
{
	return subdefs_name(h);
}

static enum mapsample_handle_type cb_handle_type(mapsample_handle h)
{
	return subdefs_type(h);
}

/* The units of the metrics (substrate_metric_units): appended, never
 * changed, published by the count (release), so lock-free to read. */
#define SUB_UNITS_MAX 256
static struct {
	const char *id, *units;
} units_of[SUB_UNITS_MAX];
static uint32_t nunits;

void substrate_metric_units(const char *id, const char *units)
{
	uint32_t n = __atomic_load_n(&nunits, __ATOMIC_ACQUIRE);
	if (!id || n == SUB_UNITS_MAX)
		return;
	units_of[n].id = id;
	units_of[n].units = units ? units : "";
	__atomic_store_n(&nunits, n + 1, __ATOMIC_RELEASE);
}

static const char *cb_handle_units(mapsample_handle h)
{
	if (subdefs_type(h) != MAPSAMPLE_HANDLE_TYPE_METRIC)
		return NULL;
	const char *name = subdefs_name(h);
	uint32_t n = __atomic_load_n(&nunits, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; name && i < n; i++)
		if (strcmp(units_of[i].id, name) == 0)
			return units_of[i].units;
	return "";
}

/* Async-signal-safe (the vDSO clock). */
static uint64_t cb_time(void)
{
	return now_ns();
}

static int32_t env_int(const char *const *names, int32_t def)
{
	for (; *names; names++) {
		const char *v = getenv(*names);
		if (v && *v)
			return (int32_t)atoi(v);
	}
	return def;
}

static int32_t cb_rank(uint32_t *size)
{
	static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK",
					    "PMIX_RANK", "SLURM_PROCID", NULL};
	static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
					    "SLURM_NTASKS", NULL};
	int32_t r = mpi_rank >= 0 ? mpi_rank : env_int(ranks, -1);
	if (size)
		*size = mpi_rank >= 0 ? mpi_size
				      : (r >= 0 ? (uint32_t)env_int(sizes, 0) : 0);
	return r;
}

struct find_module {
	uint64_t pc;
	int found;
	char path[4096];
	uint64_t offset;
};

static int module_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct find_module *f = arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;
		if (f->pc < lo || f->pc >= lo + ph->p_memsz)
			continue;
		f->found = 1;
		f->offset = f->pc - lo + ph->p_offset;
		snprintf(f->path, sizeof(f->path), "%s",
			 info->dlpi_name && *info->dlpi_name ? info->dlpi_name
							     : sub_exe);
		return 1;
	}
	return 0;
}

/* Not in the signal handler (the loader lock, malloc). */
static int cb_address_module(uint64_t pc, mapsample_handle *module,
			     uint64_t *offset)
{
	if (in_handler)
		return -1;
	struct find_module f;
	memset(&f, 0, sizeof(f));
	f.pc = pc;
	real_dl_iterate_phdr(module_cb, &f);
	if (!f.found)
		return -1;
	mapsample_handle h = subdefs_get(MAPSAMPLE_HANDLE_TYPE_MODULE, f.path);
	struct sub_plugin *p = subrun_current();
	/* the plugin learns of the module before it gets its handle */
	while (p && p->told_defs < h) {
		p->told_defs++;
		if (p->info.new_definition_handle)
			p->info.new_definition_handle(
				p->told_defs, subdefs_type(p->told_defs));
	}
	if (module)
		*module = h;
	if (offset)
		*offset = f.offset;
	return 0;
}

/* dladdr: the nearest dynamic symbol.  Not in the signal handler. */
static int cb_address_name(uint64_t pc, char *buf, size_t len)
{
	struct sub_plugin *p = subrun_current();
	if (in_handler || !buf || !len || !p || !p->info.get_requirement ||
	    !p->info.get_requirement(MAPSAMPLE_SUBSTRATES_REQUIREMENT_ADDRESS_NAMES))
		return -1;
	Dl_info di;
	if (!dladdr((void *)(uintptr_t)pc, &di) || !di.dli_sname)
		return -1;
	snprintf(buf, len, "%s", di.dli_sname);
	return 0;
}

static const char *cb_log_path(void)
{
	return S.cfg.path;
}

static void cb_set_error(const char *message)
{
	snprintf(error_buf, sizeof(error_buf), "%s", message ? message : "");
}

static const mapsample_substrate_callbacks callbacks = {
	.location_get_id = cb_id,
	.location_get_name = cb_name,
	.location_get_type = cb_type,
	.location_get_parent = cb_parent,
	.location_get_pid = cb_pid,
	.location_get_tid = cb_tid,
	.location_get_data = cb_get_data,
	.location_set_data = cb_set_data,
	.handle_get_name = cb_handle_name,
	.handle_get_type = cb_handle_type,
	.get_time = cb_time,
	.get_rank = cb_rank,
	.address_module = cb_address_module,
	.address_name = cb_address_name,
	.log_path = cb_log_path,
	.set_error = cb_set_error,
	.handle_get_units = cb_handle_units,
};

/* ---- loading ---- */

static void read_cmdline(void)
{
	ssize_t n = readlink("/proc/self/exe", exe_buf, sizeof(exe_buf) - 1);
	exe_buf[n > 0 ? n : 0] = 0;
	sub_exe = exe_buf;
	static char args[8192];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t got = read(fd, args, sizeof(args) - 1);
	io_own(&io_own_bytes_read, got);
	close(fd);
	if (got <= 0)
		return;
	args[got] = 0;
	int argc = 0;
	for (ssize_t i = 0; i < got; i++)
		if (args[i] == 0)
			argc++;
	sub_argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!sub_argv)
		return;
	char *s = args;
	for (int i = 0; i < argc; i++) {
		sub_argv[i] = s;
		s += strlen(s) + 1;
	}
	sub_argc = argc;
}

/* NAME from .../libmapsample_substrate_NAME.so, into out. */
static int name_of(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	static const char pre[] = "libmapsample_substrate_";
	size_t bl = strlen(base);
	if (strncmp(base, pre, sizeof(pre) - 1) || bl < sizeof(pre) + 3 ||
	    strcmp(base + bl - 3, ".so"))
		return -1;
	size_t nl = bl - (sizeof(pre) - 1) - 3;
	if (nl == 0 || nl >= len)
		return -1;
	memcpy(out, base + sizeof(pre) - 1, nl);
	out[nl] = 0;
	return 0;
}

static void refuse(struct sub_plugin *p, const char *why)
{
	fprintf(stderr, "mapsample: substrate plugin %s (%s): %s; the run goes "
			"on without it\n", p->name, p->path, why);
}

static void load_one(const char *item)
{
	if (SUB.n == SUBSTRATE_MAX) {
		fprintf(stderr, "mapsample: substrate plugin %s: at most %d "
				"plugins; not loaded\n", item, SUBSTRATE_MAX);
		return;
	}
	struct sub_plugin *p = &SUB.p[SUB.n];
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->qlock, NULL);
	if (strchr(item, '/')) {
		snprintf(p->path, sizeof(p->path), "%s", item);
		if (name_of(item, p->name, sizeof(p->name))) {
			fprintf(stderr, "mapsample: %s: not a substrate plugin "
					"name; call it libmapsample_substrate_"
					"NAME.so\n", item);
			return;
		}
	} else {
		snprintf(p->name, sizeof(p->name), "%s", item);
		snprintf(p->path, sizeof(p->path),
			 "libmapsample_substrate_%s.so", item);
	}
	for (int i = 0; i < SUB.n; i++)
		if (strcmp(SUB.p[i].name, p->name) == 0)
			return; /* named twice: loaded once */
	p->dl = real_dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		const char *e = dlerror();
		fprintf(stderr, "mapsample: substrate plugin %s: cannot load: "
				"%s; the run goes on without it\n", p->name,
			e ? e : p->path);
		return;
	}
	char entry[128];
	snprintf(entry, sizeof(entry), "mapsample_substrate_plugin_%s_get_info",
		 p->name);
	mapsample_substrate_plugin_info (*get)(void) =
		(mapsample_substrate_plugin_info(*)(void))dlsym(p->dl, entry);
	if (!get) {
		char why[256];
		snprintf(why, sizeof(why), "no function %s (define it with "
			 "MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(%s))", entry, p->name);
		refuse(p, why);
		return;
	}
	p->info = get();
	if (p->info.plugin_version > MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION ||
	    p->info.plugin_version == 0) {
		char why[256];
		snprintf(why, sizeof(why), "built for interface version %u, this "
			 "mapsample knows %u; build it against this mapsample's "
			 "<mapsample/substrate.h>", p->info.plugin_version,
			 MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION);
		refuse(p, why);
		return;
	}
	for (int i = 0;
	     i < MAPSAMPLE_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS; i++)
		if (p->info.undeclared[i]) {
			char why[160];
			snprintf(why, sizeof(why), "undeclared[%d] is set; memset "
				 "the info struct to zero before filling it in",
				 i);
			refuse(p, why);
			return;
		}
	size_t id = (size_t)SUB.n;
	if (KNOWS(p, 1) && p->info.assign_id)
		p->info.assign_id(id);
	if (KNOWS(p, 1) && p->info.set_callbacks)
		p->info.set_callbacks(&callbacks, sizeof(callbacks));
	error_buf[0] = 0;
	if (KNOWS(p, 1) && p->info.init && p->info.init() != 0) {
		char why[600];
		snprintf(why, sizeof(why), "init failed: %s",
			 error_buf[0] ? error_buf : "(no reason given)");
		refuse(p, why);
		return;
	}
	if (p->info.get_requirement)
		p->in_handler = p->info.get_requirement(
			MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER);
	if (p->info.get_event_functions) {
		mapsample_substrates_callback *ev = NULL;
		uint32_t n = p->info.get_event_functions(
			MAPSAMPLE_SUBSTRATES_RECORDING_ENABLED, &ev);
		/* a plugin with fewer event types than this host leaves the
		 * rest out: copy what it has into a full table */
		if (ev && n) {
			p->ev = calloc(MAPSAMPLE_SUBSTRATES_NUM_EVENTS,
				       sizeof(*p->ev));
			if (p->ev)
				memcpy(p->ev, ev,
				       (n < MAPSAMPLE_SUBSTRATES_NUM_EVENTS
						? n : MAPSAMPLE_SUBSTRATES_NUM_EVENTS) *
					       sizeof(*ev));
		}
	}
	for (int t = 0; p->ev && t < MAPSAMPLE_SUBSTRATES_NUM_EVENTS; t++)
		if (p->ev[t] && !(t == MAPSAMPLE_EVENT_SAMPLE && p->in_handler))
			SUB.take[SUB.n] |= 1u << t;
	if (p->ev && p->ev[MAPSAMPLE_EVENT_SAMPLE]) {
		if (p->in_handler)
			SUB.sample_in_handler++;
		else
			SUB.sample_deferred++;
	}
	SUB.n++;
}

void substrate_load(void)
{
	const char *list = getenv("MAPSAMPLE_SUBSTRATE_PLUGINS");
	if (!list || !*list)
		return;
	read_cmdline();
	static const char *const mpi_vars[] = {"OMPI_COMM_WORLD_RANK",
					       "PMI_RANK", "PMIX_RANK", NULL};
	SUB.mpi_expected = env_int(mpi_vars, -1) >= 0;
	char *copy = strdup(list);
	if (!copy)
		return;
	char *save = NULL;
	for (char *it = strtok_r(copy, ",", &save); it;
	     it = strtok_r(NULL, ",", &save))
		if (*it)
			load_one(it);
	free(copy);
}

void substrate_start(void)
{
	if (!SUB.n)
		return;
	if (!SUB.mpi_expected) {
		struct sub_msg m = {.type = SUB_MSG_INIT_MPP, .ts = now_ns()};
		SUB.mpi_done = 1;
		subrun_msg(&m);
	}
	subrun_start();
}

/* ---- locations ---- */

static struct mapsample_location *loc_new(struct tslot *t)
{
	/* its rings' members are cache-line aligned */
	void *mem = NULL;
	if (posix_memalign(&mem, 64, sizeof(struct mapsample_location)))
		return NULL;
	struct mapsample_location *l = memset(mem, 0, sizeof(*l));
	l->id = __atomic_fetch_add(&SUB.next_id, 1, __ATOMIC_RELAXED);
	l->pid = S.pid;
	l->tid = (uint32_t)t->tid;
	l->refs = 1 + SUB.n;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, l->name, sizeof(l->name) - 1);
		io_own(&io_own_bytes_read, n);
		l->name[n > 0 ? n : 0] = 0;
		char *nl = strchr(l->name, '\n');
		if (nl)
			*nl = 0;
		close(fd);
	}
	for (int i = 0; i < SUB.n; i++) {
		void *m = mmap(NULL, SUBSTRATE_RING, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		l->ring[i].buf = m == MAP_FAILED ? NULL : m;
	}
	return l;
}

void substrate_thread_begin(struct tslot *t, uint32_t creator)
{
	if (!SUB.n || __atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE))
		return;
	struct mapsample_location *l = loc_new(t);
	if (!l)
		return;
	size_t idx = (size_t)(t - S.slots);
	l->slot = (int)idx;
	if (child_parent) {
		/* the first thread of a fork child */
		l->parent = child_parent;
		l->fork_seq = child_parent->forks;
		l->first = l->forked = 1;
		/* its reference: substrate_after_fork_child() */
		child_parent = NULL;
	} else if (l->id == 0) {
		l->first = 1;
	} else {
		/* the creating thread's location, else the first */
		pthread_mutex_lock(&cur_lock);
		struct mapsample_location *par = NULL;
		for (int i = 0; i < SAMPLER_MAX_THREADS && creator; i++)
			if (SUB.cur[i].loc && SUB.cur[i].loc->tid == creator)
				par = SUB.cur[i].loc;
		if (!par)
			for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
				if (SUB.cur[i].loc && SUB.cur[i].loc->first)
					par = SUB.cur[i].loc;
		l->parent = par;
		if (par)
			__atomic_fetch_add(&par->refs, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&cur_lock);
	}
	/* samples the thread's handler took before (its timer may run
	 * already): counted in SUB.early until the location is published;
	 * on the thread itself, its busy flag keeps the handler out while
	 * the two change hands (a sample then is a drop of the log's) */
	int own = t == slot_self();
	if (own)
		__atomic_exchange_n(&t->busy, 1, __ATOMIC_SEQ_CST);
	/* before the location is published: the handler writes it only
	 * once it sees the location */
	__atomic_store_n(&SUB.cur[idx].drops_seen, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&SUB.cur[idx].loc, l, __ATOMIC_RELEASE);
	l->early = __atomic_exchange_n(&SUB.early[idx], 0, __ATOMIC_ACQ_REL);
	if (own)
		__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	struct sub_msg m = {.type = SUB_MSG_BEGIN, .loc = l, .ts = now_ns()};
	subrun_msg(&m);
}

void substrate_thread_end(struct tslot *t)
{
	if (!SUB.n || !t)
		return;
	size_t idx = (size_t)(t - S.slots);
	/* the batch to the rings before the location's end is queued
	 * (delivered after what its ring holds); as its producer: the
	 * closing thread's handler writes nothing, but it, the off-CPU
	 * sampler or a dispatcher may hold the flag for a moment */
	struct mapsample_location *cur =
		__atomic_load_n(&SUB.cur[idx].loc, __ATOMIC_ACQUIRE);
	if (cur && slot_busy_wait(t)) {
		subrun_flush(cur);
		__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_lock(&cur_lock);
	struct mapsample_location *l =
		__atomic_exchange_n(&SUB.cur[idx].loc, NULL, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&cur_lock);
	if (!l)
		return;
	if (!__atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE)) {
		struct sub_msg m = {.type = SUB_MSG_END, .loc = l, .ts = now_ns()};
		subrun_msg(&m);
	}
	subrun_unref(l);
}

/* ---- events from the sampler ---- */

void substrate_sample(struct tslot *t, uint64_t ts, uint64_t weight,
		      uint32_t npc, const uint64_t *pc, int wall)
{
	/* no plugin takes samples: one test */
	if (!SUB.sample_deferred && !SUB.sample_in_handler)
		return;
	struct mapsample_location *l =
		__atomic_load_n(&SUB.cur[t - S.slots].loc, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE))
		return;
	if (!l) {
		/* before the thread's location: told after its creation */
		__atomic_fetch_add(&SUB.early[t - S.slots], 1,
				   __ATOMIC_RELAXED);
		return;
	}
	if (SUB.sample_deferred) {
		/* and for the next sample's handler, the lines to ask for
		 * on entry (sampler_prefetch()) */
		subrun_sample(l, ts, weight, npc, pc, wall, &t->sub_hint[2]);
		t->sub_hint[0] = &SUB.cur[t - S.slots];
		t->sub_hint[1] = &l->st_fill;
	}
	if (!SUB.sample_in_handler)
		return;
	/* in-handler delivery: async-signal-safe code only, as the plugin
	 * promised by asking for it */
	for (int i = 0; i < SUB.n; i++) {
		struct sub_plugin *p = &SUB.p[i];
		if (!p->in_handler || !p->ev || p->off ||
		    !p->ev[MAPSAMPLE_EVENT_SAMPLE])
			continue;
		if (!__atomic_load_n(&l->created[i], __ATOMIC_ACQUIRE)) {
			__atomic_fetch_add(&l->ring[i].lost, 1,
					   __ATOMIC_RELAXED);
			continue;
		}
		((mapsample_event_sample_cb)p->ev[MAPSAMPLE_EVENT_SAMPLE])(
			l, ts, weight, npc, pc, wall);
	}
}

void substrate_metric(struct tslot *t, const struct maplog_ev *ev,
		      const char *id)
{
	if (!SUB.n)
		return;
	/* a value of the process stream (an idle tick on the sampler's own
	 * thread, the last tick): the main thread's location carries it */
	struct tslot *own = NULL;
	if (t == &S.proc) {
		/* that thread's handler may be writing there now: this
		 * caller becomes the slot's writer first */
		t = slot_find((int)S.pid);
		if (!t || !slot_busy_wait(t))
			return;
		own = t;
	}
	struct mapsample_location *l =
		t && t >= S.slots && t < S.slots + SAMPLER_MAX_THREADS
			? __atomic_load_n(&SUB.cur[t - S.slots].loc,
					  __ATOMIC_ACQUIRE)
			: NULL;
	if (l && !__atomic_load_n(&SUB.finishing, __ATOMIC_ACQUIRE)) {
		const struct maplog_ev_metric_value *v = &ev->ev_u.mval;
		uint64_t bits = v->mv_v.u64;
		if (v->mv_kind == MAPLOG_VALUE_DOUBLE)
			memcpy(&bits, &v->mv_v.dbl, sizeof(bits));
		subrun_put(l, MAPSAMPLE_EVENT_METRIC, ev->ev_ts,
			   v->mv_kind != MAPLOG_VALUE_NONE,
			   v->mv_kind == MAPLOG_VALUE_DOUBLE, bits, 0, 0, NULL,
			   id);
	}
	if (own)
		__atomic_store_n(&own->busy, 0, __ATOMIC_SEQ_CST);
}

void substrate_mark(struct tslot *t, uint64_t ts, uint64_t kind,
		    const char *name)
{
	if (!SUB.n)
		return;
	struct mapsample_location *l =
		__atomic_load_n(&SUB.cur[t - S.slots].loc, __ATOMIC_ACQUIRE);
	if (!l)
		return;
	uint16_t type = kind == MAPLOG_MARK_REGION_BEGIN
				? MAPSAMPLE_EVENT_REGION_ENTER
			: kind == MAPLOG_MARK_REGION_END ? MAPSAMPLE_EVENT_REGION_EXIT
							 : MAPSAMPLE_EVENT_MARK;
	subrun_put(l, type, ts, 0, 0, 0, 0, 0, NULL, name);
}

/* An event of the calling thread from normal context: it becomes its
 * slot's writer as marks.c does; lost when the slot is busy. */
static void put_self_at(uint16_t type, uint64_t ts, uint64_t a, uint64_t b,
			int64_t d, const char *text)
{
	if (!SUB.n)
		return; /* no plugin: an MPI call costs only this test */
	struct tslot *t = slot_self();
	/* normal context: the flag's holder is another thread (the off-CPU
	 * sampler, a dispatcher flushing a batch), for a moment */
	if (!t || !slot_busy_wait(t))
		return;
	struct mapsample_location *l =
		__atomic_load_n(&SUB.cur[t - S.slots].loc, __ATOMIC_ACQUIRE);
	if (l && !__atomic_load_n(&t->closing, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&SUB.finishing, __ATOMIC_SEQ_CST))
		subrun_put(l, type, ts, a, b, 0, d, 0, NULL, text);
	__atomic_store_n(&t->busy, 0, __ATOMIC_SEQ_CST);
}

static void put_self(uint16_t type, uint64_t a, uint64_t b, int64_t d,
		     const char *text)
{
	put_self_at(type, now_ns(), a, b, d, text);
}

/* For the MPI plugin's PMPI layer: MPI_Init (or MPI_Init_thread) has
 * returned; rank and size in MPI_COMM_WORLD.  Tells every substrate
 * plugin (a PARADIGM "MPI" definition, then init_mpp).  Not
 * async-signal-safe. */
MAPS_EXPORT void mapsample_mpi_init_done(int rank, int size)
{
	mpi_rank = rank;
	mpi_size = size > 0 ? (uint32_t)size : 0;
	if (!SUB.n || __atomic_exchange_n(&SUB.mpi_done, 1, __ATOMIC_ACQ_REL))
		return;
	struct sub_msg m = {.type = SUB_MSG_INIT_MPP, .ts = now_ns(), .how = 1};
	subrun_msg(&m);
}

/* For the MPI plugin's PMPI layer: the calling thread enters (enter 1)
 * or leaves (enter 0) the MPI call function ("MPI_Send"); on leaving,
 * the bytes this rank sent and received in it and the peer rank (-1 for
 * collectives or when unknown).  MPI_ENTER / MPI_EXIT events.
 * Async-signal-safe (no lock, no allocation). */
MAPS_EXPORT void mapsample_mpi_call(int enter, const char *function,
				    uint64_t bytes_sent,
				    uint64_t bytes_received, int32_t peer)
{
	put_self(enter ? MAPSAMPLE_EVENT_MPI_ENTER : MAPSAMPLE_EVENT_MPI_EXIT,
		 bytes_sent, bytes_received, peer, function);
}

/* ---- process life ---- */

void substrate_fork_prepare(void)
{
	if (!SUB.n)
		return;
	struct tslot *t = slot_self();
	fork_parent = t ? __atomic_load_n(&SUB.cur[t - S.slots].loc,
					  __ATOMIC_ACQUIRE)
			: NULL;
	if (fork_parent)
		fork_parent->forks++;
	pthread_mutex_lock(&cur_lock);
	fork_ts = now_ns(); /* under cur_lock until the fork returns */
	subrun_fork_prepare();
}

void substrate_fork_parent(int pid)
{
	if (!SUB.n)
		return;
	subrun_fork_parent();
	uint64_t ts = fork_ts;
	pthread_mutex_unlock(&cur_lock);
	fork_parent = NULL;
	if (pid > 0)
		put_self_at(MAPSAMPLE_EVENT_FORK, ts, (uint64_t)pid, 0, 0, NULL);
}

void substrate_after_fork_child(void)
{
	if (!SUB.n)
		return;
	subrun_fork_child();
	pthread_mutex_init(&cur_lock, NULL);
	/* the parent's threads are gone: their locations stay allocated
	 * (another thread may have held them), unreachable */
	memset(SUB.cur, 0, sizeof(SUB.cur));
	memset(SUB.early, 0, sizeof(SUB.early));
	SUB.next_id = 0;
	SUB.finishing = 0;
	SUB.end_req = 0;
	child_parent = fork_parent;
	fork_parent = NULL;
	if (child_parent)
		__atomic_fetch_add(&child_parent->refs, 1, __ATOMIC_RELAXED);
	subrun_start();
}

void substrate_solo(int begin)
{
	if (!SUB.n)
		return;
	if (begin)
		subrun_stop(SUB_END_WAIT_MS);
	else
		subrun_start();
}

int substrate_owns(int tid)
{
	return SUB.n && subrun_owns(tid);
}

/* dump_manifest: the lines the plugin writes ("PATH<TAB>DESCRIPTION"),
 * each shown on stderr naming the plugin and kept in the log as a
 * MANIFEST record (mapreport lists them). */
static void substrate_manifest(struct sub_plugin *p)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", S.cfg.path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	p->info.dump_manifest(f, dir, dir);
	fclose(f);
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (tab)
			*tab++ = 0;
		fprintf(stderr, "mapsample: substrate plugin %s wrote %s%s%s\n",
			p->name, line, tab ? ": " : "", tab ? tab : "");
		struct maplog_ev ev;
		memset(&ev, 0, sizeof(ev));
		ev.ev_type = MAPLOG_TYPE_MANIFEST;
		ev.ev_ts = now_ns();
		ev.ev_u.manifest.mf_plugin = p->name;
		ev.ev_u.manifest.mf_path = line;
		ev.ev_u.manifest.mf_description = tab ? tab : "";
		stream_proc_put(&ev);
	}
	free(text);
}

/* S.stopping is set: waits (bounded) for the samples, marks and MPI
 * calls under way on other threads (their slot's busy flag), which may
 * still put into the rings and the log, so that every sample in the
 * log reaches the rings before PROGRAM_END.  Async-signal-safe. */
static void quiesce(void)
{
	struct tslot *self = slot_self();
	for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
		struct tslot *t = &S.slots[i];
		if (t == self || __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) <= 0)
			continue;
		for (int k = 0; k < 10000 &&
				__atomic_load_n(&t->busy, __ATOMIC_SEQ_CST);
		     k++)
			sched_yield();
	}
}

/* A plugin's last calls, once its dispatcher delivered PROGRAM_END,
 * pre_unify and write_data: dump_manifest, finalize; the plugin is off
 * after, named on stderr if it fell behind.  On the ending thread, or
 * (after _exit) on the plugin's dispatcher. */
static void end_plugin(struct sub_plugin *p)
{
	if (p->info.dump_manifest)
		substrate_manifest(p);
	if (p->info.finalize)
		p->info.finalize();
	subrun_off(p);
	if (p->behind)
		fprintf(stderr, "mapsample: substrate plugin %s fell behind "
				"in pid %u: %llu of its events dropped\n",
			p->name, S.pid, (unsigned long long)p->behind);
}

void substrate_finish(int how, int code, int sigctx)
{
	if (!SUB.n || (sigctx && sigctx != SIGCTX_EXIT))
		return;
	quiesce();
	if (__atomic_exchange_n(&SUB.finishing, 1, __ATOMIC_ACQ_REL))
		return;
	subrun_flush_all();
	if (sigctx) {
		/* _exit, maybe from a signal handler: no lock, no
		 * allocation here; the dispatchers end their plugins
		 * (end_here() in substrate_run.c) while this thread waits,
		 * bounded */
		SUB.end_mpp = !SUB.mpi_done;
		SUB.mpi_done = 1;
		SUB.end_how = how == MAPLOG_EXIT_SIGNALED ? 1 : 0;
		SUB.end_code = how < 0 ? 0 : code;
		SUB.end_ts = now_ns();
		SUB.end_plugin = end_plugin;
		__atomic_store_n(&SUB.end_req, 1, __ATOMIC_RELEASE);
		subrun_end_wait(SUB_END_WAIT_MS, SUB_EXIT_WAIT_MS);
		for (int i = 0; i < SUB.n; i++)
			subrun_off(&SUB.p[i]);
		return;
	}
	if (!SUB.mpi_done) {
		struct sub_msg m = {.type = SUB_MSG_INIT_MPP, .ts = now_ns()};
		SUB.mpi_done = 1;
		subrun_msg(&m);
	}
	struct sub_msg m = {.type = SUB_MSG_PROGRAM_END, .ts = now_ns(),
			    .how = how == MAPLOG_EXIT_SIGNALED ? 1 : 0,
			    .code = how < 0 ? 0 : code};
	subrun_msg(&m);
	subrun_start(); /* none ran (solo): the queue still gets delivered */
	subrun_stop(SUB_END_WAIT_MS);
	for (int i = 0; i < SUB.n; i++)
		if (!SUB.p[i].off)
			end_plugin(&SUB.p[i]);
}
