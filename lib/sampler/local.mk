# SPDX-License-Identifier: BSD-2-Clause
# libmapsampler.so: preloaded into the profiled program.  Built without
# sanitizers (see configure.ac) and with hidden visibility: it exports only
# the calls it interposes (checked by test/integration/mapsample-exports.sh).
# The log encoder is compiled into it directly, so no parser code and no
# sanitizer runtime come along.
pkglib_LTLIBRARIES += lib/sampler/libmapsampler.la
# Sources from the top of the sampler's layers down (sampler_i.h).
lib_sampler_libmapsampler_la_SOURCES = lib/sampler/sampler_i.h \
	lib/sampler/sampler.c lib/sampler/interpose.c lib/sampler/sigown.c \
	lib/sampler/fatal.c \
	lib/sampler/process.c lib/sampler/thread.c lib/sampler/writer.c \
	lib/sampler/offcpu.c \
	lib/sampler/mhost.c lib/sampler/sample.c lib/sampler/handler.c \
	lib/sampler/guard.c lib/sampler/slot.c lib/sampler/timer.c lib/sampler/objects.c \
	lib/sampler/stream.c lib/sampler/io.c lib/sampler/dlsearch.c \
	lib/sampler/real.c lib/sampler/state.c \
	lib/log/mapwrite.c lib/log/crc32c.c
# the program's marks and regions (<mapsample/mark.h>)
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/marks.c
# the job the process belongs to (MPI rank, launcher): the JOB record
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/job.c lib/log/mapjob.c

# the MPI wrapper library's call statistics (mapsample_mpi_calls)
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/mpicalls.c

# the program's /tmp/perf-PID.map, copied into the log (JIT names)
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/perfmap.c

# the substrate (event) plugin host (<mapsample/substrate.h>)
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/substrate_i.h \
	lib/sampler/substrate.c lib/sampler/substrate_run.c \
	lib/sampler/substrate_put.c \
	lib/sampler/substrate_defs.c
# MAPLOG_CRC_NARROW: no AVX-512 code in the profiled program (crc32c.c)
lib_sampler_libmapsampler_la_CPPFLAGS = $(AM_CPPFLAGS) -DMAPLOG_CRC_NARROW
lib_sampler_libmapsampler_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden \
	-pthread $(LIBUNWIND_CFLAGS)
lib_sampler_libmapsampler_la_LIBADD = lib/pluginapi/libpluginapi.la \
	$(LIBUNWIND_LIBS) -ldl -lpthread
# offcpu.c unwinds blocked threads with libunwind's remote interface
# (libunwind-generic, in libunwind-dev with libunwind itself)
lib_sampler_libmapsampler_la_LIBADD += -lunwind-generic
lib_sampler_libmapsampler_la_LDFLAGS = -module -avoid-version -shared \
	-no-undefined -Wl,-z,nodelete

# execs in secure-execution mode (set-user-ID programs): said, unsampled
lib_sampler_libmapsampler_la_SOURCES += lib/sampler/secure.c
