/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapsample/substrate.h: substrate (event) plugins for mapsample.
 *
 * Metric plugins feed values into mapsample; substrate plugins take its
 * events out as they happen: program and thread begin and end, fork and
 * exec, every sample with its stack, every metric value, the program's
 * marks and regions, MPI calls, and the samples that were lost.  The
 * interface has the shape of Score-P's SCOREP_SubstratePluginInfo (see
 * mapsample-substrate(3)): one struct of management functions, filled in
 * by the plugin's entry function, and per mode an array of event
 * functions indexed by enum mapsample_substrates_event_type.
 *
 * A plugin is a shared object named libmapsample_substrate_NAME.so that
 * defines its entry function with
 *
 *     MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(NAME)
 *     {
 *             mapsample_substrate_plugin_info info;
 *             memset(&info, 0, sizeof(info));
 *             info.plugin_version = MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION;
 *             ...
 *             return info;
 *     }
 *
 * and is loaded with `mapsample --substrate NAME|PATH` or
 * MAPSAMPLE_SUBSTRATE_PLUGINS=NAME,NAME.  Members a plugin does not
 * implement are NULL; the undeclared[] slots must be zero.
 *
 * Call order in each process image (mapsample-substrate(3) has the
 * details): plugin_version is checked, then assign_id, set_callbacks,
 * init, get_requirement, get_event_functions; then create_location and
 * activate_cpu_location for the main thread, the PROGRAM_BEGIN event,
 * new_definition_handle for each definition as it becomes known, events,
 * create_location/activate_cpu_location and deactivate_cpu_location/
 * delete_location around each thread's life; init_mpp after MPI_Init
 * (or at start when the program does not use MPI); at the end (exit,
 * _exit, exec) the other threads' THREAD_END, deactivate_cpu_location
 * and delete_location, then the PROGRAM_END event on the image's first
 * location and only then its deactivate_cpu_location and
 * delete_location (no event of a location follows its
 * delete_location), pre_unify, write_data, dump_manifest, finalize.
 *
 * Where events run: unless the plugin asks otherwise through
 * get_requirement(MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER),
 * every event is delivered deferred, in time order per location, on a
 * thread of mapsample's own, where any code may run.  A plugin that is
 * slower than the events arrive delays only itself: past a bound the host
 * drops its events, counts them and tells it with a DROP event.  A plugin
 * that asks for in-handler samples gets the SAMPLE event inside the
 * sampling signal handler, where it may call only async-signal-safe
 * functions (the allinea_safe_* functions of <allinea_safe_syscalls.h>
 * and <allinea_safe_malloc.h> included).
 */
#ifndef MAPSAMPLE_SUBSTRATE_H
#define MAPSAMPLE_SUBSTRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface.  A plugin sets plugin_version to the
 * value it was compiled with; the host refuses plugins newer than itself
 * (with a message) and calls only the members an older plugin knew. */
#define MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION 1

/* Free slots at the end of the struct.  When a member is added it goes
 * before undeclared[], this number goes down by one and the version up. */
#define MAPSAMPLE_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS 16

#if defined(__GNUC__)
#define MAPSAMPLE_SUBSTRATE_EXPORT __attribute__((visibility("default")))
#else
#define MAPSAMPLE_SUBSTRATE_EXPORT
#endif

/* A location: one thread of one process image.  Opaque; ask the host
 * about it through the callbacks.  A location stays valid from
 * create_location until delete_location returns. */
typedef struct mapsample_location mapsample_location;

/* A definition (a loaded module, a thread name, a metric, a region or
 * mark name, an MPI function or communicator).  0 is never a handle.
 * Handles are unique within a process image only. */
typedef uint64_t mapsample_handle;
#define MAPSAMPLE_INVALID_HANDLE ((mapsample_handle)0)

enum mapsample_handle_type {
	MAPSAMPLE_HANDLE_TYPE_ANY = 0,
	MAPSAMPLE_HANDLE_TYPE_MODULE = 1,      /* a loaded object (name: its path) */
	MAPSAMPLE_HANDLE_TYPE_THREAD_NAME = 2, /* a thread's name */
	MAPSAMPLE_HANDLE_TYPE_METRIC = 3,      /* a metric (name: its id) */
	MAPSAMPLE_HANDLE_TYPE_REGION = 4,      /* a user mark or region name */
	MAPSAMPLE_HANDLE_TYPE_MPI_FUNCTION = 5,/* an MPI call (MPI_Send...) */
	MAPSAMPLE_HANDLE_TYPE_MPI_COMM = 6,    /* an MPI communicator */
	MAPSAMPLE_HANDLE_TYPE_PARADIGM = 7,    /* a paradigm in use ("MPI") */
};

enum mapsample_location_type {
	MAPSAMPLE_LOCATION_TYPE_CPU_THREAD = 0,
};

/* Which set of event functions get_event_functions is asked for. */
typedef enum mapsample_substrates_mode {
	MAPSAMPLE_SUBSTRATES_RECORDING_ENABLED = 0,
	MAPSAMPLE_SUBSTRATES_RECORDING_DISABLED = 1,
	MAPSAMPLE_SUBSTRATES_NUM_MODES
} mapsample_substrates_mode;

/* What get_requirement is asked.  Unknown flags: return false. */
typedef enum mapsample_substrates_requirement_flag {
	/* true: deliver SAMPLE events inside the signal handler
	 * (async-signal-safe code only); false (default): deferred. */
	MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER = 0,
	/* true: the plugin wants address names (address_name callback);
	 * the host keeps what it needs to answer until finalize. */
	MAPSAMPLE_SUBSTRATES_REQUIREMENT_ADDRESS_NAMES = 1,
	MAPSAMPLE_SUBSTRATES_NUM_REQUIREMENTS
} mapsample_substrates_requirement_flag;

/* Event types: the index of each event function in the array
 * get_event_functions returns.  ts is CLOCK_MONOTONIC ns, the log's
 * clock. */
typedef enum mapsample_substrates_event_type {
	MAPSAMPLE_EVENT_PROGRAM_BEGIN = 0, /* mapsample_event_program_begin_cb */
	MAPSAMPLE_EVENT_PROGRAM_END,       /* mapsample_event_program_end_cb */
	MAPSAMPLE_EVENT_THREAD_BEGIN,      /* mapsample_event_thread_cb */
	MAPSAMPLE_EVENT_THREAD_END,        /* mapsample_event_thread_cb */
	MAPSAMPLE_EVENT_FORK,              /* mapsample_event_fork_cb */
	MAPSAMPLE_EVENT_EXEC,              /* mapsample_event_exec_cb */
	MAPSAMPLE_EVENT_SAMPLE,            /* mapsample_event_sample_cb */
	MAPSAMPLE_EVENT_METRIC,            /* mapsample_event_metric_cb */
	MAPSAMPLE_EVENT_MARK,              /* mapsample_event_region_cb */
	MAPSAMPLE_EVENT_REGION_ENTER,      /* mapsample_event_region_cb */
	MAPSAMPLE_EVENT_REGION_EXIT,       /* mapsample_event_region_cb */
	MAPSAMPLE_EVENT_MPI_ENTER,         /* mapsample_event_mpi_enter_cb */
	MAPSAMPLE_EVENT_MPI_EXIT,          /* mapsample_event_mpi_exit_cb */
	MAPSAMPLE_EVENT_DROP,              /* mapsample_event_drop_cb */
	MAPSAMPLE_SUBSTRATES_NUM_EVENTS
} mapsample_substrates_event_type;

/* The generic type of an entry in the event function array; the host
 * casts each entry to the type its index names. */
typedef void (*mapsample_substrates_callback)(void);

typedef void (*mapsample_event_program_begin_cb)(
	const mapsample_location *location, uint64_t ts, const char *exe,
	int argc, const char *const *argv);
/* how: 0 normal exit (code is the status), 1 killed (code is the signal) */
typedef void (*mapsample_event_program_end_cb)(
	const mapsample_location *location, uint64_t ts, int how, int code);
typedef void (*mapsample_event_thread_cb)(
	const mapsample_location *location, uint64_t ts);
/* In the parent, on the forking thread, after the fork: child_pid is the
 * new process.  The child's main thread is a new location whose parent is
 * this one (see create_location). */
typedef void (*mapsample_event_fork_cb)(
	const mapsample_location *location, uint64_t ts, uint32_t child_pid);
/* In the new program image, on its first location, before its
 * PROGRAM_BEGIN: path is the program the process exec'd. */
typedef void (*mapsample_event_exec_cb)(
	const mapsample_location *location, uint64_t ts, const char *path);
/* npc program counters, leaf first: pc[0] is where the thread was;
 * weight_ns is the sampling clock time the sample stands for; wall is 1
 * when the thread was sampled while blocked (--wall, off-CPU). */
typedef void (*mapsample_event_sample_cb)(
	const mapsample_location *location, uint64_t ts, uint64_t weight_ns,
	uint32_t npc, const uint64_t *pc, int wall);
/* A metric value as recorded: metric is a METRIC handle; is_double says
 * which of u64/dbl holds it; has_value 0 when the getter had none.  A
 * value taken for the whole process (on the sampler's own thread while
 * the program was idle, or the last one) comes on the location of the
 * process's main thread. */
typedef void (*mapsample_event_metric_cb)(
	const mapsample_location *location, uint64_t ts,
	mapsample_handle metric, int has_value, int is_double,
	uint64_t u64, double dbl);
/* region: a REGION handle (for REGION_EXIT the region being left). */
typedef void (*mapsample_event_region_cb)(
	const mapsample_location *location, uint64_t ts,
	mapsample_handle region);
/* function: an MPI_FUNCTION handle; comm an MPI_COMM handle or 0. */
typedef void (*mapsample_event_mpi_enter_cb)(
	const mapsample_location *location, uint64_t ts,
	mapsample_handle function, mapsample_handle comm);
/* peer: the other rank of a point-to-point call in its communicator
 * (a send's destination, a receive's source; for MPI_ANY_SOURCE the
 * source its status gives), -1 for collectives and when unknown; bytes
 * as sent and received by this rank in this call. */
typedef void (*mapsample_event_mpi_exit_cb)(
	const mapsample_location *location, uint64_t ts,
	mapsample_handle function, uint64_t bytes_sent,
	uint64_t bytes_received, int32_t peer);
/* count events of this location were lost: reason is the log's
 * enum maplog_drop_reason, or MAPSAMPLE_DROP_PLUGIN_BEHIND when this
 * plugin fell behind and the host dropped its own events. */
#define MAPSAMPLE_DROP_PLUGIN_BEHIND 1000u
/* count samples of the thread were taken before its location was made
 * (the main thread's first ones, as the sampler starts): right after
 * the location's create_location, activate and begin event. */
#define MAPSAMPLE_DROP_BEFORE_LOCATION 1001u
typedef void (*mapsample_event_drop_cb)(
	const mapsample_location *location, uint64_t ts, uint32_t reason,
	uint64_t count);

/*
 * What the host offers the plugin (set_callbacks).  The struct only grows
 * at its end; set_callbacks passes its size, and a plugin uses a member
 * only when its offset is below that size.  Unless a member says
 * otherwise, it may be called from any event or management function
 * except in the signal handler.
 */
typedef struct mapsample_substrate_callbacks {
	/* Locations.  The id is unique within the process image; the tid
	 * is the kernel's thread id, pid the process's. */
	uint32_t (*location_get_id)(const mapsample_location *location);
	const char *(*location_get_name)(const mapsample_location *location);
	enum mapsample_location_type (*location_get_type)(
		const mapsample_location *location);
	/* The location that created this one (the creating thread, or for
	 * a forked process's first thread the forking thread); NULL for the
	 * first location of the first process. */
	const mapsample_location *(*location_get_parent)(
		const mapsample_location *location);
	uint32_t (*location_get_pid)(const mapsample_location *location);
	uint32_t (*location_get_tid)(const mapsample_location *location);
	/* One data slot per plugin and location (plugin_id as given to
	 * assign_id).  Async-signal-safe. */
	void *(*location_get_data)(const mapsample_location *location,
				   size_t plugin_id);
	void (*location_set_data)(const mapsample_location *location,
				  size_t plugin_id, void *data);
	/* Definitions. */
	const char *(*handle_get_name)(mapsample_handle handle);
	enum mapsample_handle_type (*handle_get_type)(mapsample_handle handle);
	/* The log's clock (CLOCK_MONOTONIC ns).  Async-signal-safe. */
	uint64_t (*get_time)(void);
	/* The MPI rank and job size of this process (-1 and 0 when not an
	 * MPI rank or not yet known). */
	int32_t (*get_rank)(uint32_t *size);
	/* The module that holds address pc in this process and the offset
	 * of pc in its file: 0, or -1 when pc is in no module. */
	int (*address_module)(uint64_t pc, mapsample_handle *module,
			      uint64_t *offset);
	/* The function name at pc into buf (at most len bytes with the
	 * NUL): 0, or -1 when unknown.  Needs get_requirement(
	 * MAPSAMPLE_SUBSTRATES_REQUIREMENT_ADDRESS_NAMES) to be true. */
	int (*address_name)(uint64_t pc, char *buf, size_t len);
	/* The log this run writes (a path), so a plugin can put its own
	 * files next to it. */
	const char *(*log_path)(void);
	/* The reason init is about to fail, shown by the host with the
	 * plugin's name (the text is copied). */
	void (*set_error)(const char *message);
	/* Added after the first release: use it only when set_callbacks'
	 * size reaches past it (MAPSAMPLE_SUBSTRATE_HAS_CALLBACK).  The
	 * units of a METRIC handle as its metric plugin defines them ("%",
	 * "bytes"); "" when it gives none; NULL for a handle that is not a
	 * metric's. */
	const char *(*handle_get_units)(mapsample_handle handle);
} mapsample_substrate_callbacks;

/* 1 when a callbacks struct of size bytes (as set_callbacks gave it)
 * holds member. */
#define MAPSAMPLE_SUBSTRATE_HAS_CALLBACK(size, member) \
	((size) >= offsetof(mapsample_substrate_callbacks, member) + \
			   sizeof(((mapsample_substrate_callbacks *)0)->member))

/*
 * The plugin's description, returned by its entry function.  The
 * members follow SCOREP_SubstratePluginInfo one by one, with the same
 * meaning and call order (mapsample-substrate(3)).
 */
typedef struct mapsample_substrate_plugin_info {
	/* MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION as the plugin was built. */
	uint32_t plugin_version;

	/* Called after assign_id and set_callbacks: check dependencies,
	 * set up.  Non-zero refuses the plugin: the host prints one line
	 * naming it with the message the plugin gave to the set_error
	 * callback, and the run goes on without it. */
	int (*init)(void);
	/* The plugin's id for location_get_data/location_set_data; the
	 * first call.  Store it, nothing else. */
	void (*assign_id)(size_t plugin_id);
	/* After MPI_Init returned (the MPI plugin's PMPI layer tells the
	 * host), or at start when the program does not use MPI. */
	void (*init_mpp)(void);
	/* Last call: after write_data and dump_manifest. */
	void (*finalize)(void);

	/* A location was created (a thread, or a forked process's first
	 * thread); parent as location_get_parent says. */
	void (*create_location)(const mapsample_location *location,
				const mapsample_location *parent);
	/* A location ends; no event for it follows.  The image's first
	 * location is deleted after its PROGRAM_END event. */
	void (*delete_location)(const mapsample_location *location);
	/* A location starts to run and be sampled (after
	 * create_location); fork_sequence_count counts the forks of
	 * parent so far. */
	void (*activate_cpu_location)(const mapsample_location *location,
				      const mapsample_location *parent,
				      uint32_t fork_sequence_count);
	/* A location stops running (before delete_location). */
	void (*deactivate_cpu_location)(const mapsample_location *location,
					const mapsample_location *parent);

	/* At the end of the process image, before write_data: the last
	 * definitions are known. */
	void (*pre_unify)(void);
	/* Flush what the plugin recorded; right before dump_manifest and
	 * finalize. */
	void (*write_data)(void);

	/* Score-P calls these for OpenMP tasks.  mapsample has no tasks and
	 * never calls them; they keep the struct member by member. */
	void (*core_task_create)(const mapsample_location *location,
				 uint64_t task_handle);
	void (*core_task_complete)(const mapsample_location *location,
				   uint64_t task_handle);

	/* A new definition: a loaded module, a thread name, a metric, a
	 * region or mark name, an MPI function or communicator, a
	 * paradigm.  Keep it light: it may run with a host lock held. */
	void (*new_definition_handle)(mapsample_handle handle,
				      enum mapsample_handle_type type);

	/* Stores in *functions an array of MAPSAMPLE_SUBSTRATES_NUM_EVENTS
	 * event functions (NULL where not wanted) for mode; returns
	 * MAPSAMPLE_SUBSTRATES_NUM_EVENTS.  The host does not free it. */
	uint32_t (*get_event_functions)(mapsample_substrates_mode mode,
					mapsample_substrates_callback **functions);
	/* The host's functions and the size of its struct (see above). */
	void (*set_callbacks)(const mapsample_substrate_callbacks *callbacks,
			      size_t size);
	/* What the plugin requires (enum above); false for unknown flags.
	 * The same answer for a flag during one run. */
	bool (*get_requirement)(mapsample_substrates_requirement_flag flag);
	/* Write to manifest one line per file the plugin wrote, as
	 * "PATH<TAB>DESCRIPTION"; the host records them in the log and
	 * mapreport lists them.  relative_source_dir and target_dir: the
	 * folder of the log (both, as mapsample has no experiment folder
	 * to copy into). */
	void (*dump_manifest)(FILE *manifest, const char *relative_source_dir,
			      const char *target_dir);

	/* Must be zero (memset the struct). */
	void (*undeclared[MAPSAMPLE_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS])(void);
} mapsample_substrate_plugin_info;

/* Defines the plugin's entry function, which the host finds by name:
 * mapsample_substrate_plugin_NAME_get_info in
 * libmapsample_substrate_NAME.so. */
#define MAPSAMPLE_SUBSTRATE_PLUGIN_ENTRY(NAME) \
	MAPSAMPLE_SUBSTRATE_EXPORT mapsample_substrate_plugin_info \
	mapsample_substrate_plugin_##NAME##_get_info(void); \
	MAPSAMPLE_SUBSTRATE_EXPORT mapsample_substrate_plugin_info \
	mapsample_substrate_plugin_##NAME##_get_info(void)

#ifdef __cplusplus
}
#endif
#endif /* MAPSAMPLE_SUBSTRATE_H */
