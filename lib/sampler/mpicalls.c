/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpicalls: mapsample_mpi_calls() of <mapsample/plugin.h>, through which
 * the mpi plugin's wrapper library (plugins/mpi/mpiwrap.c) hands over
 * its per-function totals when the program calls MPI_Finalize, or when
 * it exits without calling it.  Each call writes one MPI_CALLS record
 * (mapsample-log(5)) into the process stream.
 *
 * Not async-signal-safe: the process stream is written under proc_lock
 * (stream_proc_put); the wrapper calls it from the program's own
 * context (its MPI_Finalize wrapper, an atexit handler), never from a
 * signal handler.  Calls before the sampler started or once the process
 * has closed its streams record nothing.
 */
#include <stdint.h>
#include <string.h>

#include <mapsample/plugin.h>

#include "sampler/sampler_i.h"

/* Longest function name kept; MPI's C names are far shorter. */
#define MPICALLS_NAME_MAX 64

/* <mapsample/plugin.h>: records one MPI function's totals.  Returns 0,
 * or -1 when nothing was recorded (no sampler running, or the process
 * is closing).  Not async-signal-safe. */
MAPS_EXPORT int mapsample_mpi_calls(const char *function, uint64_t calls,
				    uint64_t time_ns, uint64_t sent,
				    uint64_t received)
{
	if (!__atomic_load_n(&S.enabled, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.stopping, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&S.finished, __ATOMIC_ACQUIRE))
		return -1;
	char name[MPICALLS_NAME_MAX + 1];
	size_t n = function ? strnlen(function, MPICALLS_NAME_MAX) : 0;
	memcpy(name, function ? function : "", n);
	name[n] = '\0';
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_MPI_CALLS;
	ev.ev_ts = now_ns();
	ev.ev_u.mpi.mc_function = name;
	ev.ev_u.mpi.mc_calls = calls;
	ev.ev_u.mpi.mc_time_ns = time_ns;
	ev.ev_u.mpi.mc_sent = sent;
	ev.ev_u.mpi.mc_received = received;
	stream_proc_put(&ev);
	return 0;
}
