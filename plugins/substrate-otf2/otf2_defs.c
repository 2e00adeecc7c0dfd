/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2_defs.c: the definitions of the otf2 substrate plugin (otf2_i.h):
 * strings, regions (functions named from program counters, the
 * program's regions and marks, MPI calls), the calling-context tree,
 * metrics, and at the end the archive's global definitions written from
 * them and from the locations.  Called with the plugin's lock held.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "otf2_i.h"

struct otf2_state otf2_st = { .lock = PTHREAD_MUTEX_INITIALIZER,
			      .pending_lock = PTHREAD_MUTEX_INITIALIZER };

int64_t otf2_str_ref(const char *s)
{
	return strtab_ref(&otf2_st.strings, s ? s : "");
}

int64_t otf2_region_ref(const char *name, enum region_kind kind)
{
	int64_t s = otf2_str_ref(name);
	if (s < 0)
		return -1;
	uint64_t key = (uint64_t)kind << 32 | (uint64_t)s;
	uint32_t r;
	if (u64map_get(&otf2_st.region_of_key, key, &r))
		return r;
	if (otf2_st.nregions == otf2_st.capregions) {
		uint32_t cap = otf2_st.capregions ? otf2_st.capregions * 2 : 64;
		struct region *n = realloc(otf2_st.regions, cap * sizeof(*n));
		if (!n)
			return -1;
		otf2_st.regions = n;
		otf2_st.capregions = cap;
	}
	r = otf2_st.nregions;
	if (u64map_put(&otf2_st.region_of_key, key, r) < 0)
		return -1;
	otf2_st.regions[r] = (struct region){ .name = (uint32_t)s, .kind = kind };
	otf2_st.nregions++;
	return r;
}

/* Room for one more metric.  Returns 0 or -1 (out of memory). */
static int metric_room(void)
{
	if (otf2_st.nmetrics < otf2_st.capmetrics)
		return 0;
	uint32_t cap = otf2_st.capmetrics ? otf2_st.capmetrics * 2 : 16;
	struct metric *n = realloc(otf2_st.metrics, cap * sizeof(*n));
	if (!n)
		return -1;
	otf2_st.metrics = n;
	otf2_st.capmetrics = cap;
	return 0;
}

int64_t otf2_metric_ref(mapsample_handle h)
{
	uint32_t m;
	if (u64map_get(&otf2_st.metric_of_handle, h, &m))
		return m;
	const char *name = CB(handle_get_name) ? otf2_st.cb->handle_get_name(h) : NULL;
	char buf[64];
	if (!name) {
		snprintf(buf, sizeof(buf), "metric-%" PRIu64, h);
		name = buf;
	}
	int64_t s = otf2_str_ref(name);
	if (s < 0)
		return -1;
	if (metric_room())
		return -1;
	m = otf2_st.nmetrics;
	if (u64map_put(&otf2_st.metric_of_handle, h, m) < 0)
		return -1;
	otf2_st.metrics[m] = (struct metric){ .name = (uint32_t)s, .is_double = -1,
					      .unit = -1 };
	otf2_st.nmetrics++;
	return m;
}

/* A metric of its own, not a host's handle: a member of type UINT64
 * whose values are the location's running total of lost events. */
int64_t otf2_drop_metric_ref(void)
{
	if (otf2_st.drop_metric)
		return otf2_st.drop_metric - 1;
	int64_t s = otf2_str_ref("mapsample dropped events"), u = otf2_str_ref("events");
	if (s < 0 || u < 0)
		return -1;
	if (metric_room())
		return -1;
	uint32_t m = otf2_st.nmetrics++;
	otf2_st.metrics[m] = (struct metric){ .name = (uint32_t)s, .is_double = 0,
					      .unit = u, .accumulated = 1 };
	otf2_st.drop_metric = m + 1;
	return m;
}

void otf2_group_name(char *buf, size_t len, long pid, int execd)
{
	snprintf(buf, len, "process %ld%s", pid, execd ? " after exec" : "");
}

/* The region of a REGION or MPI_FUNCTION handle. */
int64_t otf2_handle_region(mapsample_handle h, enum region_kind kind)
{
	uint32_t r;
	if (u64map_get(&otf2_st.region_of_handle, h, &r))
		return r;
	const char *name = CB(handle_get_name) ? otf2_st.cb->handle_get_name(h) : NULL;
	char buf[64];
	if (!name) {
		snprintf(buf, sizeof(buf), "region-%" PRIu64, h);
		name = buf;
	}
	int64_t nr = otf2_region_ref(name, kind);
	if (nr < 0 || u64map_put(&otf2_st.region_of_handle, h, (uint32_t)nr) < 0)
		return -1;
	return nr;
}

/* The name of the function at pc: the host's name for it, else
 * MODULE+0xOFFSET, else 0xPC.  A return address (not the leaf) is named
 * by the call instruction before it. */
static void pc_name(uint64_t pc, int is_return, char *buf, size_t len)
{
	uint64_t at = is_return && pc ? pc - 1 : pc;
	if (CB(address_name) && otf2_st.cb->address_name(at, buf, len) == 0 && buf[0])
		return;
	mapsample_handle mod;
	uint64_t off;
	if (CB(address_module) && otf2_st.cb->address_module(at, &mod, &off) == 0) {
		const char *path = CB(handle_get_name) ? otf2_st.cb->handle_get_name(mod) : NULL;
		const char *base = path ? strrchr(path, '/') : NULL;
		base = base ? base + 1 : path;
		snprintf(buf, len, "%s+0x%" PRIx64, base && *base ? base : "?", off);
		return;
	}
	snprintf(buf, len, "0x%" PRIx64, at);
}

int64_t otf2_pc_region(uint64_t pc, int is_return)
{
	uint64_t key = pc | (is_return ? 1ULL << 63 : 0);
	uint32_t r;
	if (u64map_get(&otf2_st.region_of_pc, key, &r))
		return r;
	char name[NAME_MAX_LEN];
	pc_name(pc, is_return, name, sizeof(name));
	int64_t nr = otf2_region_ref(name, RK_FUNCTION);
	if (nr < 0 || u64map_put(&otf2_st.region_of_pc, key, (uint32_t)nr) < 0)
		return -1;
	return nr;
}

int64_t otf2_cc_child(uint32_t parent, uint32_t region)
{
	uint64_t key = (uint64_t)parent << 32 | region;
	uint32_t c;
	if (u64map_get(&otf2_st.cc_of_key, key, &c))
		return c;
	if (otf2_st.nccs == otf2_st.capccs) {
		uint32_t cap = otf2_st.capccs ? otf2_st.capccs * 2 : 256;
		struct cctx *n = realloc(otf2_st.ccs, cap * sizeof(*n));
		if (!n)
			return -1;
		otf2_st.ccs = n;
		otf2_st.capccs = cap;
	}
	c = otf2_st.nccs;
	if (u64map_put(&otf2_st.cc_of_key, key, c) < 0)
		return -1;
	otf2_st.ccs[c] = (struct cctx){ .region = region, .parent = parent };
	otf2_st.nccs++;
	return c;
}

static void write_strings(OTF2_GlobalDefWriter *g)
{
	for (uint32_t i = 0; i < otf2_st.strings.n; i++)
		OTF2_GlobalDefWriter_WriteString(g, i, otf2_st.strings.str[i]);
}

static void write_regions(OTF2_GlobalDefWriter *g)
{
	for (uint32_t i = 0; i < otf2_st.nregions; i++) {
		struct region *r = &otf2_st.regions[i];
		OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
		OTF2_Paradigm par = OTF2_PARADIGM_SAMPLING;
		if (r->kind == RK_USER) {
			role = OTF2_REGION_ROLE_CODE;
			par = OTF2_PARADIGM_USER;
		} else if (r->kind == RK_MPI) {
			par = OTF2_PARADIGM_MPI;
		} else if (r->kind == RK_UNKNOWN) {
			role = OTF2_REGION_ROLE_ARTIFICIAL;
		} else if (r->kind == RK_PROCESS) {
			/* fork: a call the measurement system saw */
			par = OTF2_PARADIGM_MEASUREMENT_SYSTEM;
		}
		OTF2_GlobalDefWriter_WriteRegion(g, i, r->name, r->name,
						 OTF2_UNDEFINED_STRING, role, par,
						 OTF2_REGION_FLAG_NONE,
						 OTF2_UNDEFINED_STRING, 0, 0);
	}
	for (uint32_t i = 0; i < otf2_st.nccs; i++)
		OTF2_GlobalDefWriter_WriteCallingContext(
			g, i, otf2_st.ccs[i].region, OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
			otf2_st.ccs[i].parent);
}

static void write_metrics(OTF2_GlobalDefWriter *g, uint32_t empty)
{
	for (uint32_t i = 0; i < otf2_st.nmetrics; i++) {
		struct metric *m = &otf2_st.metrics[i];
		OTF2_MetricMemberRef member = i;
		OTF2_GlobalDefWriter_WriteMetricMember(
			g, i, m->name, empty, OTF2_METRIC_TYPE_OTHER,
			m->accumulated ? OTF2_METRIC_ACCUMULATED_START :
					 OTF2_METRIC_ABSOLUTE_POINT,
			m->is_double == 1 ? OTF2_TYPE_DOUBLE : OTF2_TYPE_UINT64,
			OTF2_BASE_DECIMAL, 0, m->unit >= 0 ? (uint32_t)m->unit : empty);
		OTF2_GlobalDefWriter_WriteMetricClass(g, i, 1, &member,
						      OTF2_METRIC_ASYNCHRONOUS,
						      OTF2_RECORDER_KIND_ABSTRACT);
	}
}

/* The global definitions.  Every string is interned before the first is
 * written, so that strings come first, as OTF2 readers expect. */
void otf2_write_definitions(void)
{
	char host[256] = "localhost", rankname[64], pname[96];
	gethostname(host, sizeof(host) - 1);
	uint32_t size = 0;
	int32_t rank = CB(get_rank) ? otf2_st.cb->get_rank(&size) : -1;
	snprintf(rankname, sizeof(rankname), "rank %" PRId32, rank);
	otf2_group_name(pname, sizeof(pname), (long)getpid(), otf2_st.execd);
	/* the group that created this one: a forked child's parent (its
	 * name kept across the fork), an exec'd image's image before */
	char cname[96] = "";
	if (otf2_st.execd)
		snprintf(cname, sizeof(cname), "process %ld before exec", (long)getpid());
	else if (otf2_st.first_has_parent && otf2_st.creator[0])
		snprintf(cname, sizeof(cname), "%s", otf2_st.creator);
	int64_t s_empty = otf2_str_ref(""), s_host = otf2_str_ref(host),
		s_machine = otf2_str_ref("machine"), s_node = otf2_str_ref("node"),
		s_rankname = otf2_str_ref(rankname), s_rank = otf2_str_ref("rank"),
		s_pname = otf2_str_ref(pname), s_cpu = otf2_str_ref("cpu time sampling"),
		s_wall = otf2_str_ref("wall time sampling"),
		s_sent = otf2_str_ref("bytes_sent"), s_recv = otf2_str_ref("bytes_received"),
		s_peer = otf2_str_ref("peer"), s_threads = otf2_str_ref("threads"),
		s_pthread = otf2_str_ref("Pthread"), s_child = otf2_str_ref("child_pid"),
		s_cname = otf2_str_ref(cname);
	int64_t *s_loc = calloc(otf2_st.nlocs ? otf2_st.nlocs : 1, sizeof(*s_loc));
	int ok = s_loc && s_empty >= 0 && s_host >= 0 && s_machine >= 0 &&
		 s_node >= 0 && s_rankname >= 0 && s_rank >= 0 && s_pname >= 0 &&
		 s_cpu >= 0 && s_wall >= 0 && s_sent >= 0 && s_recv >= 0 &&
		 s_peer >= 0 && s_threads >= 0 && s_pthread >= 0 && s_child >= 0 &&
		 s_cname >= 0;
	for (size_t i = 0; ok && i < otf2_st.nlocs; i++)
		ok = (s_loc[i] = otf2_str_ref(otf2_st.locs[i]->name)) >= 0;
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(otf2_st.ar);
	if (!ok || !g) {
		fprintf(stderr, "mapsample: otf2 substrate: %s/%s.def: out of "
			"memory writing the definitions; the trace is incomplete\n",
			otf2_st.dir, otf2_st.name);
		free(s_loc);
		return;
	}
	uint64_t first = otf2_st.have_ts ? otf2_st.first_ts : 0;
	OTF2_GlobalDefWriter_WriteClockProperties(
		g, 1000000000u, first, otf2_st.have_ts ? otf2_st.last_ts - otf2_st.first_ts + 1 : 1,
		(uint64_t)((int64_t)first + otf2_st.realtime_offset));
	write_strings(g);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, NODE_HOST, s_host, s_machine,
						 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_SystemTreeNodeRef node = NODE_HOST;
	if (rank >= 0) {
		OTF2_GlobalDefWriter_WriteSystemTreeNode(g, NODE_RANK, s_rankname,
							 s_rank, NODE_HOST);
		node = NODE_RANK;
	}
	/* definitions in the order of their references: the creator
	 * first (0), this image's group after it */
	OTF2_LocationGroupRef self = 0;
	if (cname[0]) {
		OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, s_cname,
							OTF2_LOCATION_GROUP_TYPE_PROCESS,
							node, OTF2_UNDEFINED_LOCATION_GROUP);
		self = 1;
	}
	OTF2_GlobalDefWriter_WriteLocationGroup(g, self, s_pname,
						OTF2_LOCATION_GROUP_TYPE_PROCESS,
						node, cname[0] ? 0 :
						OTF2_UNDEFINED_LOCATION_GROUP);
	uint64_t *members = calloc(otf2_st.nlocs ? otf2_st.nlocs : 1, sizeof(*members));
	size_t nmembers = 0;
	for (size_t i = 0; i < otf2_st.nlocs; i++) {
		struct loc *x = otf2_st.locs[i];
		if (!x->had_writer)
			continue; /* no event file: not a location of the trace */
		OTF2_GlobalDefWriter_WriteLocation(g, x->id, (OTF2_StringRef)s_loc[i],
						   OTF2_LOCATION_TYPE_CPU_THREAD,
						   x->nev, self);
		if (members)
			members[nmembers++] = x->id;
	}
	write_regions(g);
	OTF2_GlobalDefWriter_WriteInterruptGenerator(
		g, GEN_CPU, (OTF2_StringRef)s_cpu, OTF2_INTERRUPT_GENERATOR_MODE_TIME,
		OTF2_BASE_DECIMAL, -9, otf2_st.period[GEN_CPU]);
	OTF2_GlobalDefWriter_WriteInterruptGenerator(
		g, GEN_WALL, (OTF2_StringRef)s_wall, OTF2_INTERRUPT_GENERATOR_MODE_TIME,
		OTF2_BASE_DECIMAL, -9, otf2_st.period[GEN_WALL]);
	write_metrics(g, (uint32_t)s_empty);
	/* attributes are defined in the order of their references: the
	 * MPI ones come first when a fork's is written */
	if (otf2_st.mpi_used || otf2_st.forks_used) {
		OTF2_GlobalDefWriter_WriteAttribute(g, ATTR_SENT, (OTF2_StringRef)s_sent,
						    (OTF2_StringRef)s_empty, OTF2_TYPE_UINT64);
		OTF2_GlobalDefWriter_WriteAttribute(g, ATTR_RECEIVED, (OTF2_StringRef)s_recv,
						    (OTF2_StringRef)s_empty, OTF2_TYPE_UINT64);
		OTF2_GlobalDefWriter_WriteAttribute(g, ATTR_PEER, (OTF2_StringRef)s_peer,
						    (OTF2_StringRef)s_empty, OTF2_TYPE_INT32);
	}
	if (otf2_st.forks_used)
		OTF2_GlobalDefWriter_WriteAttribute(g, ATTR_CHILD_PID, (OTF2_StringRef)s_child,
						    (OTF2_StringRef)s_empty, OTF2_TYPE_UINT32);
	if (otf2_st.threads_used && members) {
		/* the threads of this process as one Pthread communicator:
		 * ThreadBegin/ThreadEnd name it, with the thread's index in
		 * the group as its sequence count */
		uint64_t *ranks = calloc(nmembers ? nmembers : 1, sizeof(*ranks));
		if (ranks) {
			for (size_t i = 0; i < nmembers; i++)
				ranks[i] = i;
			OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_PTHREAD,
							   (OTF2_StringRef)s_pthread,
							   OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT);
			OTF2_GlobalDefWriter_WriteGroup(g, GROUP_THREADS, (OTF2_StringRef)s_threads,
							OTF2_GROUP_TYPE_COMM_LOCATIONS,
							OTF2_PARADIGM_PTHREAD,
							OTF2_GROUP_FLAG_NONE,
							(uint32_t)nmembers, members);
			OTF2_GlobalDefWriter_WriteGroup(g, GROUP_THREAD_COMM, (OTF2_StringRef)s_threads,
							OTF2_GROUP_TYPE_COMM_GROUP,
							OTF2_PARADIGM_PTHREAD,
							OTF2_GROUP_FLAG_NONE,
							(uint32_t)nmembers, ranks);
			OTF2_GlobalDefWriter_WriteComm(g, COMM_THREADS, (OTF2_StringRef)s_threads,
						       GROUP_THREAD_COMM, OTF2_UNDEFINED_COMM,
						       OTF2_COMM_FLAG_NONE);
			free(ranks);
		}
	}
	free(members);
	free(s_loc);
}

