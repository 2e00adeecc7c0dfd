# SPDX-License-Identifier: BSD-2-Clause
# Programs that the mapsample integration tests (test/integration/
# mapsample-*.sh) run under the sampler, each with known hot functions.
# They are built without the sanitizers (a sanitized program cannot have
# libmapsampler.so preloaded ahead of its runtime) and with frame pointers,
# no inlining and no sibling calls, so that each function the tests look
# for stays a frame of its own.  libdlwork is a libtool module that
# test/programs/dlloop opens and closes; -rpath makes libtool build it
# shared although it is never installed.
TEST_PROGRAMS_CFLAGS = $(WARN_CFLAGS) -O1 -g -fno-omit-frame-pointer \
	-fno-inline -fno-optimize-sibling-calls

check_PROGRAMS += test/programs/hot test/programs/threads8 \
	test/programs/forkexec test/programs/dlloop test/programs/segv \
	test/programs/spinforever test/programs/sigprof test/programs/outerr \
	test/programs/sleepburn test/programs/cpuburn test/programs/phdrthread

test_programs_hot_SOURCES = test/programs/hot.c
test_programs_hot_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_hot_LDFLAGS =

test_programs_threads8_SOURCES = test/programs/threads8.c
test_programs_threads8_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_threads8_LDFLAGS = -pthread

test_programs_forkexec_SOURCES = test/programs/forkexec.c
test_programs_forkexec_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_forkexec_LDFLAGS =

test_programs_phdrthread_SOURCES = test/programs/phdrthread.c
test_programs_phdrthread_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_phdrthread_LDFLAGS = -pthread

test_programs_dlloop_SOURCES = test/programs/dlloop.c
test_programs_dlloop_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_dlloop_LDFLAGS = -pthread
test_programs_dlloop_LDADD = -ldl

test_programs_segv_SOURCES = test/programs/segv.c
test_programs_segv_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_segv_LDFLAGS =

test_programs_spinforever_SOURCES = test/programs/spinforever.c
test_programs_spinforever_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_spinforever_LDFLAGS =

test_programs_sigprof_SOURCES = test/programs/sigprof.c
test_programs_sigprof_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_sigprof_LDFLAGS =

test_programs_outerr_SOURCES = test/programs/outerr.c
test_programs_outerr_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_outerr_LDFLAGS =

test_programs_sleepburn_SOURCES = test/programs/sleepburn.c
test_programs_sleepburn_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_sleepburn_LDFLAGS =

check_PROGRAMS += test/programs/sigview
test_programs_sigview_SOURCES = test/programs/sigview.c
test_programs_sigview_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_sigview_LDFLAGS =

test_programs_cpuburn_SOURCES = test/programs/cpuburn.c
test_programs_cpuburn_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_cpuburn_LDFLAGS =

check_LTLIBRARIES += test/programs/libdlwork.la
test_programs_libdlwork_la_SOURCES = test/programs/dlwork.c
test_programs_libdlwork_la_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_libdlwork_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere

# rpathopen: dlopen by bare name and by $ORIGIN from a program and from a
# library (libdlopener) that have a DT_RUNPATH of their own, and in a
# dlmopen namespace: what it loads must not change under the sampler.
check_PROGRAMS += test/programs/rpathopen
test_programs_rpathopen_SOURCES = test/programs/rpathopen.c
test_programs_rpathopen_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_rpathopen_LDFLAGS = -Wl,--enable-new-dtags \
	-Wl,-rpath,'$$ORIGIN/.libs'
test_programs_rpathopen_LDADD = -ldl
check_LTLIBRARIES += test/programs/libdlopener.la
test_programs_libdlopener_la_SOURCES = test/programs/dlopener.c
test_programs_libdlopener_la_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_libdlopener_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'
test_programs_libdlopener_la_LIBADD = -ldl

# libstripwork: its hot loop in a static function, nameless once the
# file is stripped (mapreport-stripped.sh)
check_LTLIBRARIES += test/programs/libstripwork.la
test_programs_libstripwork_la_SOURCES = test/programs/stripwork.c
test_programs_libstripwork_la_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_libstripwork_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere

# libstepcount: preloaded after the sampler, counts libunwind's step walk
# (mapsample-basic.sh: the fast trace must not fall back to it)
check_LTLIBRARIES += test/programs/libstepcount.la
test_programs_libstepcount_la_SOURCES = test/programs/stepcount.c
test_programs_libstepcount_la_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_libstepcount_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere

# iowrite: known byte counts through write/pwrite/writev/stdio and back;
# threadsrun: N threads burning CPU and calling malloc for S seconds.
check_PROGRAMS += test/programs/iowrite test/programs/threadsrun
test_programs_iowrite_SOURCES = test/programs/iowrite.c
test_programs_iowrite_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_iowrite_LDFLAGS =
test_programs_threadsrun_SOURCES = test/programs/threadsrun.c
test_programs_threadsrun_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_threadsrun_LDFLAGS = -pthread

# solo: the credential and namespace calls that want no thread but the
# program's own, between two hot functions (mapsample-privilege.sh).
check_PROGRAMS += test/programs/solo
test_programs_solo_SOURCES = test/programs/solo.c
test_programs_solo_CFLAGS = $(TEST_PROGRAMS_CFLAGS)

# quickexit: ends with quick_exit(6) after an at_quick_exit handler
# (mapsample-processes.sh).
check_PROGRAMS += test/programs/quickexit
test_programs_quickexit_SOURCES = test/programs/quickexit.c
test_programs_quickexit_CFLAGS = $(TEST_PROGRAMS_CFLAGS)

# filterwork: work split by thread (one named "fw-worker"), by time and,
# with --exec, by process image (mapreport-filters.sh).
check_PROGRAMS += test/programs/filterwork
test_programs_filterwork_SOURCES = test/programs/filterwork.c \
	test/programs/burn.h
test_programs_filterwork_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_filterwork_LDFLAGS = -pthread

# callsplit: work() called from two places with a third and two thirds
# of its samples, and a recursive function (mapreport-calls.sh).
check_PROGRAMS += test/programs/callsplit
test_programs_callsplit_SOURCES = test/programs/callsplit.c \
	test/programs/burn.h
test_programs_callsplit_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_callsplit_LDFLAGS =

# linehot: a hot loop between two marker comments with a helper inlined
# into it, built optimised (-O2 -g, inlining on) as real programs are
# (mapreport-lines.sh).
check_PROGRAMS += test/programs/linehot
test_programs_linehot_SOURCES = test/programs/linehot.c
test_programs_linehot_CFLAGS = $(WARN_CFLAGS) -O2 -g -fno-omit-frame-pointer
test_programs_linehot_LDFLAGS =
