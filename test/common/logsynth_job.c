/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logsynth_job: the job scenario's records (see logsynth_job.h and
 * logsynth.h, "The job scenario").
 */
#include <string.h>

#include "logsynth_job.h"

static const struct {
	const char *id, *units, *plugin;
	uint32_t dt, flags;
} jm[] = {
	{"com.mapsample.metrics.mpi.time", "%", "libmapsample-mpi.so",
	 MAPLOG_DT_DOUBLE, 0},
	{"com.mapsample.metrics.mpi.collective_time", "%",
	 "libmapsample-mpi.so", MAPLOG_DT_DOUBLE, 0},
	{"com.mapsample.metrics.mpi.p2p_time", "%", "libmapsample-mpi.so",
	 MAPLOG_DT_DOUBLE, 0},
	{"com.mapsample.metrics.mpi.sent", "B/s", "libmapsample-mpi.so",
	 MAPLOG_DT_U64, MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
	{"com.mapsample.metrics.io.read", "B/s", "libmapsample-io.so",
	 MAPLOG_DT_U64, MAPLOG_MD_DIVIDE_BY_SAMPLE_TIME},
	{"com.mapsample.metrics.memory.rss", "B", "libmapsample-memory.so",
	 MAPLOG_DT_U64, 0},
};
#define NJM (sizeof(jm) / sizeof(jm[0]))

size_t logsynth_job_defs(const struct logsynth_opts *o, uint64_t ts,
			 struct maplog_ev *ev)
{
	memset(ev, 0, (NJM + 1) * sizeof(*ev));
	ev[0].ev_type = MAPLOG_TYPE_JOB;
	ev[0].ev_ts = ts + 9;
	ev[0].ev_u.job = (struct maplog_ev_job){
		o->job_rank, o->job_size, MAPLOG_JOB_APPLICATION, "bench.1",
		"openmpi", "OMPI_COMM_WORLD_RANK"};
	for (uint32_t i = 0; i < NJM; i++) {
		struct maplog_ev *e = &ev[1 + i];
		e->ev_type = MAPLOG_TYPE_METRIC_DEF;
		e->ev_ts = ts + 10;
		e->ev_u.mdef = (struct maplog_ev_metric_def){
			.md_index = i, .md_datatype = jm[i].dt,
			.md_flags = jm[i].flags, .md_id = jm[i].id,
			.md_name = "", .md_units = jm[i].units,
			.md_description = "", .md_domain = "time",
			.md_colour = "", .md_group = "",
			.md_plugin = jm[i].plugin,
		};
	}
	return NJM + 1;
}

size_t logsynth_job_values(uint64_t r, uint64_t ts, uint64_t i,
			   struct maplog_ev *ev)
{
	/* time in collectives 0-30 %, point-to-point 0-15 %; bytes sent
	 * 1-64 KiB and read 0-8 KiB since the previous value; RSS climbing
	 * and falling back every 5000 samples */
	double coll = (double)(r % 3000) / 100.0;
	double p2p = (double)((r >> 12) % 1500) / 100.0;
	double d[3] = {coll + p2p, coll, p2p};
	uint64_t u[NJM] = {0, 0, 0, 1024 * (1 + (r >> 24) % 64),
			   (r >> 32) % 8192, (100u << 20) + 4096 * (i % 5000)};
	memset(ev, 0, NJM * sizeof(*ev));
	for (uint32_t k = 0; k < NJM; k++) {
		struct maplog_ev_metric_value *v = &ev[k].ev_u.mval;
		ev[k].ev_type = MAPLOG_TYPE_METRIC_VALUE;
		ev[k].ev_ts = ts;
		v->mv_index = k;
		v->mv_kind = k < 3 ? MAPLOG_VALUE_DOUBLE : MAPLOG_VALUE_U64;
		if (k < 3)
			v->mv_v.dbl = d[k];
		else
			v->mv_v.u64 = u[k];
	}
	return NJM;
}

size_t logsynth_job_calls(const struct logsynth_opts *o, uint64_t ts,
			  struct maplog_ev *ev)
{
	static const char *const fn[4] = {"MPI_Barrier", "MPI_Allreduce",
					  "MPI_Send", "MPI_Recv"};
	/* bytes per call: Allreduce 8 KiB, Send and Recv 4 KiB */
	static const uint64_t sent[4] = {0, 8192, 4096, 0};
	static const uint64_t recv[4] = {0, 8192, 0, 4096};
	uint64_t rank = o->job_rank > 0 ? (uint64_t)o->job_rank : 0;
	memset(ev, 0, 4 * sizeof(*ev));
	for (uint64_t k = 0; k < 4; k++) {
		uint64_t calls = 100 * (k + 1);
		ev[k].ev_type = MAPLOG_TYPE_MPI_CALLS;
		ev[k].ev_ts = ts;
		ev[k].ev_u.mpi = (struct maplog_ev_mpi_calls){
			fn[k], calls, 1000000 * (k + 1 + rank % 7),
			calls * sent[k], calls * recv[k]};
	}
	return 4;
}
