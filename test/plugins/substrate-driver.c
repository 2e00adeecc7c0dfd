/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrate-driver: runs a substrate plugin without mapsample, as the
 * host would (mapsample-substrate(3)), with a fake host: its callbacks,
 * four threads of one process as locations, samples with stacks,
 * metric values, marks, regions and MPI calls.  The plugin's unit test
 * (test/integration/substrate-otf2-driver.sh) checks what the plugin
 * wrote against what this program says it sent.
 *
 *   substrate-driver PLUGIN.so NAME LOG [MANIFEST]
 *
 * loads mapsample_substrate_plugin_NAME_get_info from PLUGIN.so, drives
 * it with LOG as the log path, writes dump_manifest's lines to MANIFEST
 * (default: stdout) and prints on stdout what it sent, one line per
 * location and one for all:
 *
 *   sent LOCATION-ID samples N enter N leave N metric N
 *   sent all samples N enter N leave N metric N
 *
 * A mark counts one enter and one leave.  Exit 0 when every call
 * happened; 2 when init refused the plugin (its message on stderr:
 * "driver: init refused: MESSAGE"), 1 on a host-side failure: a missing
 * member, in-handler samples asked for, the call order broken.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/substrate.h>

#define NLOC 4
#define NMETRIC 3

struct mapsample_location {
	uint32_t id, pid, tid;
	char name[32];
	const struct mapsample_location *parent;
	void *data[4];
	int alive;
};

static struct mapsample_location locs[NLOC];
static char error_text[512];
static const char *log_file;
static uint64_t clock_ns = 1000000000ULL;

/* the definitions: 1 a module, 10.. metrics, 20 and 21 regions, 22 a
 * mark, 30 and 31 MPI functions, 40 a communicator */
static const char *handle_name(mapsample_handle h)
{
	switch (h) {
	case 1: return "/usr/lib/x86_64-linux-gnu/libfake.so.1";
	case 10: return "com.example.metrics.counter";
	case 11: return "com.example.metrics.ratio";
	case 12: return "com.example.metrics.unused";
	case 20: return "phase1";
	case 21: return "phase2";
	case 22: return "checkpoint";
	case 30: return "MPI_Send";
	case 31: return "MPI_Allreduce";
	case 40: return "MPI_COMM_WORLD";
	}
	return NULL;
}

static enum mapsample_handle_type handle_type(mapsample_handle h)
{
	if (h == 1)
		return MAPSAMPLE_HANDLE_TYPE_MODULE;
	if (h >= 10 && h < 20)
		return MAPSAMPLE_HANDLE_TYPE_METRIC;
	if (h >= 20 && h < 30)
		return MAPSAMPLE_HANDLE_TYPE_REGION;
	if (h >= 30 && h < 40)
		return MAPSAMPLE_HANDLE_TYPE_MPI_FUNCTION;
	return MAPSAMPLE_HANDLE_TYPE_MPI_COMM;
}

static int check_loc(const mapsample_location *l)
{
	if (l < locs || l >= locs + NLOC || !l->alive) {
		fprintf(stderr, "driver: the plugin used a location that is not alive\n");
		exit(1);
	}
	return 1;
}

static uint32_t loc_id(const mapsample_location *l) { check_loc(l); return l->id; }
static const char *loc_name(const mapsample_location *l) { check_loc(l); return l->name; }
static enum mapsample_location_type loc_type(const mapsample_location *l)
{
	check_loc(l);
	return MAPSAMPLE_LOCATION_TYPE_CPU_THREAD;
}
static const mapsample_location *loc_parent(const mapsample_location *l)
{
	check_loc(l);
	return l->parent;
}
static uint32_t loc_pid(const mapsample_location *l) { check_loc(l); return l->pid; }
static uint32_t loc_tid(const mapsample_location *l) { check_loc(l); return l->tid; }
static void *loc_get_data(const mapsample_location *l, size_t id)
{
	check_loc(l);
	return id < 4 ? l->data[id] : NULL;
}
static void loc_set_data(const mapsample_location *l, size_t id, void *data)
{
	check_loc(l);
	if (id < 4)
		((struct mapsample_location *)l)->data[id] = data;
}
static uint64_t get_time(void) { return clock_ns; }
static int32_t get_rank(uint32_t *size)
{
	*size = 4;
	return 2;
}

/* Program counters 0x400000..0x4fffff are in the program, named
 * fn_<pc/0x100>; 0x7f0000000000.. are in libfake.so, with no name. */
static int address_module(uint64_t pc, mapsample_handle *module, uint64_t *offset)
{
	if (pc >= 0x7f0000000000ULL && pc < 0x7f0000100000ULL) {
		*module = 1;
		*offset = pc - 0x7f0000000000ULL;
		return 0;
	}
	return -1;
}
static int address_name(uint64_t pc, char *buf, size_t len)
{
	if (pc >= 0x400000 && pc < 0x500000) {
		snprintf(buf, len, "fn_%" PRIx64, pc / 0x100);
		return 0;
	}
	return -1;
}
static const char *get_log_path(void) { return log_file; }
static void set_error(const char *m) { snprintf(error_text, sizeof(error_text), "%s", m); }

static const mapsample_substrate_callbacks callbacks = {
	.location_get_id = loc_id,
	.location_get_name = loc_name,
	.location_get_type = loc_type,
	.location_get_parent = loc_parent,
	.location_get_pid = loc_pid,
	.location_get_tid = loc_tid,
	.location_get_data = loc_get_data,
	.location_set_data = loc_set_data,
	.handle_get_name = handle_name,
	.handle_get_type = handle_type,
	.get_time = get_time,
	.get_rank = get_rank,
	.address_module = address_module,
	.address_name = address_name,
	.log_path = get_log_path,
	.set_error = set_error,
};

struct sent {
	uint64_t samples, enter, leave, metric;
};
static struct sent sent[NLOC + 1];

static mapsample_substrates_callback *ev;

static uint64_t tick(void)
{
	clock_ns += 1000 + (uint64_t)(rand() % 5000);
	return clock_ns;
}

static void sample(int l)
{
	uint64_t pc[24];
	uint32_t n = 1 + (uint32_t)(rand() % 20);
	for (uint32_t i = 0; i < n; i++) {
		/* the outer frames fixed (main, a worker per thread), the
		 * inner ones from a few functions, some in the library */
		uint32_t depth = n - 1 - i;
		if (depth == 0)
			pc[i] = 0x400010;
		else if (depth == 1)
			pc[i] = 0x401000 + 0x100 * (uint64_t)l + 0x20;
		else if (rand() % 4 == 0)
			pc[i] = 0x7f0000001000ULL + 0x40 * (uint64_t)(rand() % 8);
		else
			pc[i] = 0x410000 + 0x100 * (uint64_t)(rand() % 16) + 0x8;
	}
	if (ev[MAPSAMPLE_EVENT_SAMPLE])
		((mapsample_event_sample_cb)ev[MAPSAMPLE_EVENT_SAMPLE])(
			&locs[l], tick(), 1000000, n, pc, rand() % 5 == 0);
	sent[l].samples++;
}

static void metric(int l, mapsample_handle m)
{
	if (ev[MAPSAMPLE_EVENT_METRIC])
		((mapsample_event_metric_cb)ev[MAPSAMPLE_EVENT_METRIC])(
			&locs[l], tick(), m, 1, m == 11, (uint64_t)rand(),
			(double)rand() / RAND_MAX);
	sent[l].metric++;
}

static void region(int l, int type, mapsample_handle r)
{
	if (ev[type])
		((mapsample_event_region_cb)ev[type])(&locs[l], tick(), r);
	if (type != MAPSAMPLE_EVENT_REGION_EXIT)
		sent[l].enter++;
	if (type != MAPSAMPLE_EVENT_REGION_ENTER)
		sent[l].leave++;
}

static void mpi(int l, mapsample_handle f)
{
	if (ev[MAPSAMPLE_EVENT_MPI_ENTER])
		((mapsample_event_mpi_enter_cb)ev[MAPSAMPLE_EVENT_MPI_ENTER])(
			&locs[l], tick(), f, 40);
	sent[l].enter++;
	if (ev[MAPSAMPLE_EVENT_MPI_EXIT])
		((mapsample_event_mpi_exit_cb)ev[MAPSAMPLE_EVENT_MPI_EXIT])(
			&locs[l], tick(), f, f == 30 ? 4096 : 8, f == 30 ? 0 : 8,
			f == 30 ? 3 : -1);
	sent[l].leave++;
}

static void thread_event(int l, int type)
{
	if (ev[type])
		((mapsample_event_thread_cb)ev[type])(&locs[l], tick());
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: substrate-driver PLUGIN.so NAME LOG [MANIFEST]\n");
		return 1;
	}
	log_file = argv[3];
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "driver: %s\n", dlerror());
		return 1;
	}
	char entry[256];
	snprintf(entry, sizeof(entry), "mapsample_substrate_plugin_%s_get_info", argv[2]);
	mapsample_substrate_plugin_info (*get_info)(void);
	*(void **)&get_info = dlsym(h, entry);
	if (!get_info) {
		fprintf(stderr, "driver: %s: no %s\n", argv[1], entry);
		return 1;
	}
	mapsample_substrate_plugin_info p = get_info();
	if (p.plugin_version != MAPSAMPLE_SUBSTRATE_PLUGIN_VERSION) {
		fprintf(stderr, "driver: plugin version %u\n", p.plugin_version);
		return 1;
	}
	for (int i = 0; i < MAPSAMPLE_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS; i++)
		if (p.undeclared[i]) {
			fprintf(stderr, "driver: undeclared[%d] is not zero\n", i);
			return 1;
		}
	if (!p.init || !p.get_event_functions || !p.write_data || !p.finalize) {
		fprintf(stderr, "driver: init, get_event_functions, write_data or finalize missing\n");
		return 1;
	}
	srand(17);
	for (int i = 0; i < NLOC; i++) {
		locs[i].id = (uint32_t)i;
		locs[i].pid = 4242;
		locs[i].tid = 4242 + (uint32_t)i;
		snprintf(locs[i].name, sizeof(locs[i].name), i ? "worker %d" : "main", i);
		locs[i].parent = i ? &locs[0] : NULL;
	}

	if (p.assign_id)
		p.assign_id(1);
	if (p.set_callbacks)
		p.set_callbacks(&callbacks, sizeof(callbacks));
	if (p.init() != 0) {
		fprintf(stderr, "driver: init refused: %s\n", error_text);
		return 2;
	}
	if (p.get_requirement &&
	    p.get_requirement(MAPSAMPLE_SUBSTRATES_REQUIREMENT_SAMPLES_IN_HANDLER)) {
		fprintf(stderr, "driver: the plugin asks for in-handler samples\n");
		return 1;
	}
	if (p.get_event_functions(MAPSAMPLE_SUBSTRATES_RECORDING_ENABLED, &ev) !=
	    MAPSAMPLE_SUBSTRATES_NUM_EVENTS || !ev) {
		fprintf(stderr, "driver: get_event_functions gave no array\n");
		return 1;
	}

	locs[0].alive = 1;
	if (p.create_location)
		p.create_location(&locs[0], NULL);
	if (p.activate_cpu_location)
		p.activate_cpu_location(&locs[0], NULL, 0);
	if (p.init_mpp)
		p.init_mpp();
	const char *args[] = { "/bin/prog", "-x", "3" };
	if (ev[MAPSAMPLE_EVENT_PROGRAM_BEGIN])
		((mapsample_event_program_begin_cb)ev[MAPSAMPLE_EVENT_PROGRAM_BEGIN])(
			&locs[0], tick(), "/bin/prog", 3, args);
	static const mapsample_handle defs[] = { 1, 10, 11, 12, 20, 21, 22, 30, 31, 40 };
	for (size_t i = 0; p.new_definition_handle && i < sizeof(defs) / sizeof(defs[0]); i++)
		p.new_definition_handle(defs[i], handle_type(defs[i]));

	for (int l = 1; l < NLOC; l++) {
		locs[l].alive = 1;
		if (p.create_location)
			p.create_location(&locs[l], &locs[0]);
		if (p.activate_cpu_location)
			p.activate_cpu_location(&locs[l], &locs[0], 0);
		thread_event(l, MAPSAMPLE_EVENT_THREAD_BEGIN);
	}
	/* the events of the threads, interleaved in time */
	for (int round = 0; round < 300; round++) {
		for (int l = 0; l < NLOC; l++) {
			if (round % 100 == 0)
				region(l, MAPSAMPLE_EVENT_REGION_ENTER, round < 100 ? 20 : 21);
			for (int k = 0; k <= l; k++)
				sample(l);
			if (round % 3 == 0)
				metric(l, 10);
			if (round % 7 == 0)
				metric(l, 11);
			if (round % 50 == 25)
				region(l, MAPSAMPLE_EVENT_MARK, 22);
			if (l == 2 && round % 10 == 0)
				mpi(l, round % 20 ? 30 : 31);
			if (round % 100 == 99)
				region(l, MAPSAMPLE_EVENT_REGION_EXIT, round < 100 ? 20 : 21);
		}
	}
	if (ev[MAPSAMPLE_EVENT_DROP])
		((mapsample_event_drop_cb)ev[MAPSAMPLE_EVENT_DROP])(&locs[1], tick(), MAPSAMPLE_DROP_PLUGIN_BEHIND, 5);
	for (int l = NLOC - 1; l > 0; l--) {
		thread_event(l, MAPSAMPLE_EVENT_THREAD_END);
		if (p.deactivate_cpu_location)
			p.deactivate_cpu_location(&locs[l], &locs[0]);
		if (p.delete_location)
			p.delete_location(&locs[l]);
		locs[l].alive = 0;
	}
	if (ev[MAPSAMPLE_EVENT_PROGRAM_END])
		((mapsample_event_program_end_cb)ev[MAPSAMPLE_EVENT_PROGRAM_END])(
			&locs[0], tick(), 0, 0);
	if (p.deactivate_cpu_location)
		p.deactivate_cpu_location(&locs[0], NULL);
	if (p.delete_location)
		p.delete_location(&locs[0]);
	locs[0].alive = 0;
	if (p.pre_unify)
		p.pre_unify();
	p.write_data();
	FILE *mf = stdout;
	if (argc > 4 && !(mf = fopen(argv[4], "w"))) {
		perror(argv[4]);
		return 1;
	}
	if (p.dump_manifest)
		p.dump_manifest(mf, ".", ".");
	if (mf != stdout)
		fclose(mf);
	p.finalize();

	for (int l = 0; l < NLOC; l++) {
		printf("sent %d samples %" PRIu64 " enter %" PRIu64 " leave %" PRIu64
		       " metric %" PRIu64 "\n", l, sent[l].samples, sent[l].enter,
		       sent[l].leave, sent[l].metric);
		sent[NLOC].samples += sent[l].samples;
		sent[NLOC].enter += sent[l].enter;
		sent[NLOC].leave += sent[l].leave;
		sent[NLOC].metric += sent[l].metric;
	}
	printf("sent all samples %" PRIu64 " enter %" PRIu64 " leave %" PRIu64
	       " metric %" PRIu64 "\n", sent[NLOC].samples, sent[NLOC].enter,
	       sent[NLOC].leave, sent[NLOC].metric);
	dlclose(h);
	return 0;
}
