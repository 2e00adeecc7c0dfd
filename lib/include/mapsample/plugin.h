/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapsample/plugin.h: mapsample's extensions of the Allinea/Arm MAP metric
 * plugin API, for metric plugins that run only under mapsample.  The
 * sampler (libmapsampler, preloaded into the profiled program) provides
 * these functions as it provides the allinea_* ones; a plugin leaves them
 * undefined (or declares them weak, to load under other profilers too).
 */
#ifndef MAPSAMPLE_PLUGIN_H
#define MAPSAMPLE_PLUGIN_H

#include <stdint.h>

#include <allinea_metric_plugin_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Stores in *read_bytes and *written_bytes the cumulative bytes the
 * program read and wrote since the sampler started in this process image,
 * from /proc/self/io rchar/wchar, excluding the allinea_safe_* functions'
 * I/O and the sampler's own.  Async-signal-safe.  Returns 0, or -1 with
 * errno set.
 */
MAPSAMPLE_PLUGIN_API int mapsample_io_bytes(uint64_t *read_bytes,
	uint64_t *written_bytes);

/*
 * Tells the sampler this process's rank and the size of MPI_COMM_WORLD,
 * as the MPI library gives them once MPI_Init has run (a PMPI wrapper,
 * a plugin's <preload> library, calls it; look it up with
 * dlsym(RTLD_DEFAULT, "mapsample_job_rank") to run without mapsample
 * too).  Recorded as a JOB record of source "MPI", which mapreport takes
 * over the launcher's variables.  Safe from any thread, not from a
 * signal handler; does nothing when the process is not sampled.
 */
MAPSAMPLE_PLUGIN_API void mapsample_job_rank(int rank, int size);

/*
 * Records the totals of one MPI function in this process: calls, wall
 * time inside them (ns), bytes sent and received.  For MPI wrapper
 * libraries (the mpi plugin's <preload>), which call it once per
 * function at MPI_Finalize or at exit; the log keeps one MPI_CALLS
 * record per call (mapsample-log(5)).  Not async-signal-safe: call it
 * from the program's own context.  Returns 0, or -1 when nothing was
 * recorded (the sampler is not running, or the process is closing).
 */
MAPSAMPLE_PLUGIN_API int mapsample_mpi_calls(const char *function,
	uint64_t calls, uint64_t time_ns, uint64_t sent, uint64_t received);

#ifdef __cplusplus
}
#endif
#endif /* MAPSAMPLE_PLUGIN_H */
