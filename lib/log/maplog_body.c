/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * maplog_body: the bodies of the records other than SAMPLE and STACK,
 * which the framing loop of maplog.c decodes itself: what each field of
 * mapsample-log(5) becomes in struct maplog_ev.  Strings and build-ids
 * are copied to the parser's scratch area, which stays put until the
 * next read.  Called by maplog.c for each such record; calls nothing
 * else of lib/log (see maplog_i.h).
 */
#include <stdlib.h>
#include <string.h>

#include "maplog_i.h"

static const char *get_str(maplog *p, struct in *r)
{
	uint64_t n = get_u(r);
	if (r->bad || n > (uint64_t)(r->e - r->p)) {
		r->bad = 1;
		return "";
	}
	char *s = p->sc + p->sc_used;
	memcpy(s, r->p, (size_t)n);
	s[n] = 0;
	p->sc_used += (size_t)n + 1;
	r->p += n;
	return s;
}

/* Scratch for the strings of a record of len body bytes: each string is
 * at most its bytes plus a NUL, and there are at most len strings. */
static int scratch_for(maplog *p, size_t len)
{
	size_t need = 2 * len + 16;
	p->sc_used = 0;
	if (p->sc_cap >= need)
		return 0;
	char *n = realloc(p->sc, need);
	if (!n)
		return MAPS_ENOMEM;
	p->sc = n;
	p->sc_cap = need;
	return 0;
}

/* Decodes the body of a non-sample record into ev; 0 or a MAPS_E* code. */
int maplog_decode_body(maplog *p, int type, struct in *r,
		       struct maplog_ev *ev)
{
	if (scratch_for(p, (size_t)(r->e - r->p)))
		return MAPS_ENOMEM;
	switch (type) {
	case MAPLOG_TYPE_INITIALIZE: {
		struct maplog_ev_initialize *b = &ev->ev_u.init;
		b->in_version_major = get_u32(r);
		b->in_version_minor = get_u32(r);
		b->in_clock = get_u32(r);
		b->in_timer = get_u32(r);
		b->in_rate_asked = get_u(r);
		b->in_period_ns = get_u(r);
		b->in_signal = get_u32(r);
		b->in_max_depth = get_u32(r);
		b->in_pid = get_u32(r);
		b->in_ppid = get_u32(r);
		b->in_wall_sec = maplog_unzigzag(get_u(r));
		b->in_wall_nsec = get_u32(r);
		b->in_host = get_str(p, r);
		b->in_exe = get_str(p, r);
		uint64_t argc = get_u(r);
		/* each argument takes at least its length byte */
		if (r->bad || argc > MAPLOG_MAX_ARGC ||
		    argc > (uint64_t)(r->e - r->p))
			return MAPS_EBADRECORD;
		if (p->argv_cap < argc + 1) {
			const char **a = realloc(p->argv,
						 (argc + 1) * sizeof(*a));
			if (!a)
				return MAPS_ENOMEM;
			p->argv = a;
			p->argv_cap = argc + 1;
		}
		for (uint64_t i = 0; i < argc; i++)
			p->argv[i] = get_str(p, r);
		p->argv[argc] = NULL;
		b->in_argc = (uint32_t)argc;
		b->in_argv = p->argv;
		break;
	}
	case MAPLOG_TYPE_METRIC_DEF: {
		struct maplog_ev_metric_def *b = &ev->ev_u.mdef;
		b->md_index = get_u32(r);
		b->md_datatype = get_u32(r);
		b->md_flags = get_u32(r);
		b->md_id = get_str(p, r);
		b->md_name = get_str(p, r);
		b->md_units = get_str(p, r);
		b->md_description = get_str(p, r);
		b->md_domain = get_str(p, r);
		b->md_colour = get_str(p, r);
		b->md_group = get_str(p, r);
		b->md_plugin = get_str(p, r);
		break;
	}
	case MAPLOG_TYPE_PLUGIN_ERROR:
		ev->ev_u.perr.pe_plugin = get_str(p, r);
		ev->ev_u.perr.pe_message = get_str(p, r);
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		ev->ev_u.merr.me_index = get_u32(r);
		ev->ev_u.merr.me_count = get_u(r);
		ev->ev_u.merr.me_message = get_str(p, r);
		break;
	case MAPLOG_TYPE_MAP_IN: {
		struct maplog_ev_map_in *b = &ev->ev_u.map_in;
		b->mi_start = get_u(r);
		b->mi_end = b->mi_start + get_u(r);
		b->mi_offset = get_u(r);
		b->mi_bias = get_u(r);
		b->mi_seq = get_u(r);
		b->mi_flags = get_u32(r);
		uint64_t n = get_u(r);
		if (r->bad || n > (uint64_t)(r->e - r->p))
			return MAPS_EBADRECORD;
		/* copied: the input buffer may move on the next feed */
		uint8_t *id = (uint8_t *)p->sc + p->sc_used;
		memcpy(id, r->p, (size_t)n);
		p->sc_used += (size_t)n + 1;
		b->mi_buildid_len = (uint32_t)n;
		b->mi_buildid = id;
		r->p += n;
		b->mi_path = get_str(p, r);
		break;
	}
	case MAPLOG_TYPE_MAP_OUT:
		ev->ev_u.map_out.mo_start = get_u(r);
		ev->ev_u.map_out.mo_end = ev->ev_u.map_out.mo_start + get_u(r);
		ev->ev_u.map_out.mo_seq = get_u(r);
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		ev->ev_u.tbegin.tb_tid = get_u32(r);
		ev->ev_u.tbegin.tb_creator = get_u32(r);
		ev->ev_u.tbegin.tb_name = get_str(p, r);
		break;
	case MAPLOG_TYPE_THREAD_END:
		ev->ev_u.tend.te_tid = get_u32(r);
		ev->ev_u.tend.te_samples = get_u(r);
		ev->ev_u.tend.te_dropped = get_u(r);
		ev->ev_u.tend.te_cpu_ns = get_u(r);
		ev->ev_u.tend.te_wall_ns = get_u(r);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		ev->ev_u.fork.fk_ppid = get_u32(r);
		ev->ev_u.fork.fk_pid = get_u32(r);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		ev->ev_u.exec.ex_pid = get_u32(r);
		ev->ev_u.exec.ex_image = get_u32(r);
		ev->ev_u.exec.ex_path = get_str(p, r);
		break;
	case MAPLOG_TYPE_PROC_EXIT: {
		ev->ev_u.exit.px_pid = get_u32(r);
		ev->ev_u.exit.px_how = get_u32(r);
		int64_t code = maplog_unzigzag(get_u(r));
		if (code < INT32_MIN || code > INT32_MAX)
			return MAPS_EBADRECORD;
		ev->ev_u.exit.px_code = (int32_t)code;
		break;
	}
	case MAPLOG_TYPE_METRIC_VALUE:
		ev->ev_u.mval.mv_index = get_u32(r);
		ev->ev_u.mval.mv_kind = get_u32(r);
		if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_U64) {
			ev->ev_u.mval.mv_v.u64 = get_u(r);
		} else if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_DOUBLE) {
			if (r->e - r->p < 8)
				return MAPS_EBADRECORD;
			uint64_t v = maplog_ld64(r->p);
			memcpy(&ev->ev_u.mval.mv_v.dbl, &v, 8);
			r->p += 8;
		} else if (ev->ev_u.mval.mv_kind == MAPLOG_VALUE_NONE) {
			ev->ev_u.mval.mv_v.u64 = 0;
		} else {
			return MAPS_EBADRECORD;
		}
		break;
	case MAPLOG_TYPE_DROP:
		ev->ev_u.drop.dr_tid = get_u32(r);
		ev->ev_u.drop.dr_reason = get_u32(r);
		ev->ev_u.drop.dr_count = get_u(r);
		break;
	case MAPLOG_TYPE_MARK:
		ev->ev_u.mark.mk_tid = get_u32(r);
		ev->ev_u.mark.mk_value = get_u(r);
		ev->ev_u.mark.mk_text = get_str(p, r);
		break;
	case MAPLOG_TYPE_CLOSE:
		ev->ev_u.close.cl_samples = get_u(r);
		ev->ev_u.close.cl_dropped = get_u(r);
		ev->ev_u.close.cl_threads = get_u(r);
		break;
	case MAPLOG_TYPE_JOB: {
		struct maplog_ev_job *b = &ev->ev_u.job;
		int64_t rank = maplog_unzigzag(get_u(r));
		if (rank < -1 || rank > INT32_MAX)
			return MAPS_EBADRECORD;
		b->jb_rank = (int32_t)rank;
		b->jb_size = get_u32(r);
		b->jb_role = get_u32(r);
		b->jb_job_id = get_str(p, r);
		b->jb_launcher = get_str(p, r);
		b->jb_source = get_str(p, r);
		break;
	}
	case MAPLOG_TYPE_MPI_CALLS:
		ev->ev_u.mpi.mc_function = get_str(p, r);
		ev->ev_u.mpi.mc_calls = get_u(r);
		ev->ev_u.mpi.mc_time_ns = get_u(r);
		ev->ev_u.mpi.mc_sent = get_u(r);
		ev->ev_u.mpi.mc_received = get_u(r);
		break;
	case MAPLOG_TYPE_MANIFEST:
		ev->ev_u.manifest.mf_plugin = get_str(p, r);
		ev->ev_u.manifest.mf_path = get_str(p, r);
		ev->ev_u.manifest.mf_description = get_str(p, r);
		break;
	case MAPLOG_TYPE_FILE: {
		struct maplog_ev_file *b = &ev->ev_u.file;
		b->fi_pid = get_u32(r);
		b->fi_flags = get_u32(r);
		b->fi_offset = get_u(r);
		b->fi_kind = get_str(p, r);
		b->fi_name = get_str(p, r);
		uint64_t n = get_u(r);
		if (r->bad || n > (uint64_t)(r->e - r->p))
			return MAPS_EBADRECORD;
		/* copied: the input buffer may move on the next feed */
		uint8_t *d = (uint8_t *)p->sc + p->sc_used;
		memcpy(d, r->p, (size_t)n);
		p->sc_used += (size_t)n + 1;
		b->fi_len = (uint32_t)n;
		b->fi_data = d;
		r->p += n;
		break;
	}
	case MAPLOG_TYPE_THREAD_NAME:
		ev->ev_u.tname.tn_tid = get_u32(r);
		ev->ev_u.tname.tn_name = get_str(p, r);
		break;
	default:
		return MAPS_EINVAL; /* unknown: caller skips */
	}
	return r->bad ? MAPS_EBADRECORD : 0;
}
