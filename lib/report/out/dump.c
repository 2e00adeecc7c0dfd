/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump: mapreport -D, one line per record of the logs as they are read
 * (offset, time, pid/tid, type and the record's fields).  A tool of the
 * log-reading loop (model/logread.h), run in the model's pass.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report/out/dump.h"

static int dump_record(void *ctx, const struct maplog_ev *ev)
{
	FILE *f = ctx;
	fprintf(f, "%10" PRIu64 " %" PRIu64 ".%09" PRIu64 " %u/%u %-12s",
		ev->ev_offset, ev->ev_ts / 1000000000, ev->ev_ts % 1000000000,
		ev->ev_pid, ev->ev_tid, maplog_type_name(ev->ev_type));
	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE: {
		const struct maplog_ev_initialize *b = &ev->ev_u.init;
		fprintf(f, " v%u.%u pid %u ppid %u host %s rate %" PRIu64
			   " Hz period %" PRIu64 " ns exe %s argv",
			b->in_version_major, b->in_version_minor, b->in_pid,
			b->in_ppid, b->in_host, b->in_rate_asked,
			b->in_period_ns, b->in_exe);
		for (uint32_t i = 0; i < b->in_argc; i++)
			fprintf(f, " '%s'", b->in_argv[i]);
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF:
		fprintf(f, " #%u %s \"%s\" units %s", ev->ev_u.mdef.md_index,
			ev->ev_u.mdef.md_id, ev->ev_u.mdef.md_name,
			ev->ev_u.mdef.md_units);
		break;
	case MAPLOG_TYPE_PLUGIN_ERROR:
		fprintf(f, " %s: %s", ev->ev_u.perr.pe_plugin,
			ev->ev_u.perr.pe_message);
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		fprintf(f, " #%u (%" PRIu64 "x) %s", ev->ev_u.merr.me_index,
			ev->ev_u.merr.me_count, ev->ev_u.merr.me_message);
		break;
	case MAPLOG_TYPE_MAP_IN:
		fprintf(f, " %#" PRIx64 "-%#" PRIx64 " off %#" PRIx64 " %s",
			ev->ev_u.map_in.mi_start, ev->ev_u.map_in.mi_end,
			ev->ev_u.map_in.mi_offset, ev->ev_u.map_in.mi_path);
		break;
	case MAPLOG_TYPE_MAP_OUT:
		fprintf(f, " %#" PRIx64 "-%#" PRIx64, ev->ev_u.map_out.mo_start,
			ev->ev_u.map_out.mo_end);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		fprintf(f, " tid %u by %u %s", ev->ev_u.tbegin.tb_tid,
			ev->ev_u.tbegin.tb_creator, ev->ev_u.tbegin.tb_name);
		break;
	case MAPLOG_TYPE_THREAD_END:
		fprintf(f, " tid %u samples %" PRIu64 " dropped %" PRIu64
			   " cpu %" PRIu64 " ns wall %" PRIu64 " ns",
			ev->ev_u.tend.te_tid, ev->ev_u.tend.te_samples,
			ev->ev_u.tend.te_dropped, ev->ev_u.tend.te_cpu_ns,
			ev->ev_u.tend.te_wall_ns);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		fprintf(f, " %u -> %u", ev->ev_u.fork.fk_ppid,
			ev->ev_u.fork.fk_pid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		fprintf(f, " pid %u image %u %s", ev->ev_u.exec.ex_pid,
			ev->ev_u.exec.ex_image, ev->ev_u.exec.ex_path);
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		fprintf(f, " pid %u %s %d", ev->ev_u.exit.px_pid,
			ev->ev_u.exit.px_how == MAPLOG_EXIT_SIGNALED ? "signal"
								     : "status",
			ev->ev_u.exit.px_code);
		break;
	case MAPLOG_TYPE_SAMPLE:
		fprintf(f, " tid %u weight %" PRIu64 " stack %u:",
			ev->ev_u.sample.sa_tid, ev->ev_u.sample.sa_weight,
			ev->ev_u.sample.sa_stack);
		for (uint32_t i = 0; i < ev->ev_u.sample.sa_npc; i++)
			fprintf(f, " %#" PRIx64, ev->ev_u.sample.sa_pc[i]);
		break;
	case MAPLOG_TYPE_METRIC_VALUE:
		if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_U64)
			fprintf(f, " #%u %" PRIu64, ev->ev_u.mval.mv_index,
				ev->ev_u.mval.mv_v.u64);
		else if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_DOUBLE)
			fprintf(f, " #%u %g", ev->ev_u.mval.mv_index,
				ev->ev_u.mval.mv_v.dbl);
		else
			fprintf(f, " #%u (no value)", ev->ev_u.mval.mv_index);
		break;
	case MAPLOG_TYPE_DROP:
		fprintf(f, " tid %u reason %u count %" PRIu64,
			ev->ev_u.drop.dr_tid, ev->ev_u.drop.dr_reason,
			ev->ev_u.drop.dr_count);
		break;
	case MAPLOG_TYPE_MARK:
		fprintf(f, " tid %u value %" PRIu64 " %s", ev->ev_u.mark.mk_tid,
			ev->ev_u.mark.mk_value, ev->ev_u.mark.mk_text);
		break;
	case MAPLOG_TYPE_CLOSE:
		fprintf(f, " samples %" PRIu64 " dropped %" PRIu64
			   " threads %" PRIu64,
			ev->ev_u.close.cl_samples, ev->ev_u.close.cl_dropped,
			ev->ev_u.close.cl_threads);
		break;
	case MAPLOG_TYPE_JOB:
		fprintf(f, " rank %d size %u %s job '%s' launcher '%s' from '%s'",
			ev->ev_u.job.jb_rank, ev->ev_u.job.jb_size,
			ev->ev_u.job.jb_role == MAPLOG_JOB_LAUNCHER
				? "launcher"
			: ev->ev_u.job.jb_role == MAPLOG_JOB_RANK_CHILD
				? "rank-child"
				: "application",
			ev->ev_u.job.jb_job_id, ev->ev_u.job.jb_launcher,
			ev->ev_u.job.jb_source);
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		fprintf(f, " %s calls %" PRIu64 " time %" PRIu64
			   " sent %" PRIu64 " received %" PRIu64,
			ev->ev_u.mpi.mc_function, ev->ev_u.mpi.mc_calls,
			ev->ev_u.mpi.mc_time_ns, ev->ev_u.mpi.mc_sent,
			ev->ev_u.mpi.mc_received);
		break;
	case MAPLOG_TYPE_MANIFEST:
		fprintf(f, " plugin '%s' path '%s' description '%s'",
			ev->ev_u.manifest.mf_plugin, ev->ev_u.manifest.mf_path,
			ev->ev_u.manifest.mf_description);
		break;
	case MAPLOG_TYPE_FILE:
		fprintf(f, " pid %u %s %s offset %" PRIu64 " bytes %u%s",
			ev->ev_u.file.fi_pid, ev->ev_u.file.fi_kind,
			ev->ev_u.file.fi_name, ev->ev_u.file.fi_offset,
			ev->ev_u.file.fi_len,
			ev->ev_u.file.fi_flags & MAPLOG_FILE_CUT ? " cut" : "");
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		fprintf(f, " tid %u %s", ev->ev_u.tname.tn_tid,
			ev->ev_u.tname.tn_name);
		break;
	default:
		break;
	}
	fputc('\n', f);
	return 0;
}

const struct logread_tool dump_tool = {.lt_any = dump_record};
