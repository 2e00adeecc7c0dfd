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
	test/programs/sleepburn test/programs/cpuburn test/programs/phdrthread \
	test/programs/rawexec

test_programs_hot_SOURCES = test/programs/hot.c test/programs/spin.h
test_programs_hot_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_hot_LDFLAGS =

test_programs_threads8_SOURCES = test/programs/threads8.c
test_programs_threads8_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_threads8_LDFLAGS = -pthread

test_programs_forkexec_SOURCES = test/programs/forkexec.c
test_programs_forkexec_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_forkexec_LDFLAGS =

test_programs_rawexec_SOURCES = test/programs/rawexec.c test/programs/spin.h
test_programs_rawexec_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_rawexec_LDFLAGS =

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
test_programs_solo_LDFLAGS =

# quickexit: ends with quick_exit(6) after an at_quick_exit handler
# (mapsample-processes.sh).
check_PROGRAMS += test/programs/quickexit
test_programs_quickexit_SOURCES = test/programs/quickexit.c
test_programs_quickexit_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_quickexit_LDFLAGS =

# inlinehot: its hot loop two always_inline calls deep in main, built
# optimised (mapreport-inline.sh; inlinesort.cc is built by that test
# with the C++ compiler it finds).
check_PROGRAMS += test/programs/inlinehot
test_programs_inlinehot_SOURCES = test/programs/inlinehot.c
test_programs_inlinehot_CFLAGS = $(WARN_CFLAGS) -O2 -g
test_programs_inlinehot_LDFLAGS =
EXTRA_DIST += test/programs/inlinesort.cc
# cmpcxx: C++ built twice by mapreport-compare-match.sh (with g++)
EXTRA_DIST += test/programs/cmpcxx.cc

# symnames: aliases of one function, and a discarded function's DWARF
# over _start (test/unit/test_symbolize.c); -O0 keeps that function big.
check_PROGRAMS += test/programs/symnames
test_programs_symnames_SOURCES = test/programs/symnames.c
test_programs_symnames_CFLAGS = $(WARN_CFLAGS) -O0 -g -ffunction-sections
test_programs_symnames_LDFLAGS = -Wl,--gc-sections

# clockloop: its time in the vDSO's clock_gettime (mapreport-vdso.sh).
check_PROGRAMS += test/programs/clockloop
test_programs_clockloop_SOURCES = test/programs/clockloop.c
test_programs_clockloop_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_clockloop_LDFLAGS =

# sleeper: sleeps it does not retry, for test/integration/mapsample-wall.sh
check_PROGRAMS += test/programs/sleeper
test_programs_sleeper_SOURCES = test/programs/sleeper.c
test_programs_sleeper_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_sleeper_LDFLAGS = -pthread

# mapreport --compare's tests (test/integration/mapreport-compare.sh): the
# same source built twice, the second with a deliberately slower
# work_solve; same base name, so the two builds look like one program.
check_PROGRAMS += test/programs/cmpwork test/programs/slow/cmpwork
test_programs_cmpwork_SOURCES = test/programs/cmpwork.c test/programs/spin.h
test_programs_cmpwork_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_cmpwork_LDFLAGS =
test_programs_slow_cmpwork_SOURCES = test/programs/cmpwork.c
test_programs_slow_cmpwork_CFLAGS = $(TEST_PROGRAMS_CFLAGS) \
	-DCMPWORK_SLOW_SOLVE
test_programs_slow_cmpwork_LDFLAGS =

# marks: regions and marks through <mapsample/mark.h>, linked with the
# no-op libmapsample-mark (-no-install: a real binary that finds the
# build tree's library, not a libtool wrapper script) and, as
# marks_weak, with weak references and no library
# (test/integration/mapsample-marks.sh).
check_PROGRAMS += test/programs/marks test/programs/marks_weak
test_programs_marks_SOURCES = test/programs/marks.c
test_programs_marks_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_marks_LDFLAGS = -pthread -no-install
test_programs_marks_LDADD = lib/mark/libmapsample-mark.la
test_programs_marks_weak_SOURCES = test/programs/marks.c
test_programs_marks_weak_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread \
	-DMAPSAMPLE_MARK_WEAK
test_programs_marks_weak_LDFLAGS = -pthread
# markstorm: regions on several threads and point marks from a signal
# handler, as fast as they go (mapsample-marks.sh counts them exactly).
check_PROGRAMS += test/programs/markstorm
test_programs_markstorm_SOURCES = test/programs/markstorm.c
test_programs_markstorm_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_markstorm_LDFLAGS = -pthread -no-install
test_programs_markstorm_LDADD = lib/mark/libmapsample-mark.la

# lastthread: processes that end when their last thread ends, not through
# exit() (mapsample-lastthread.sh).
check_PROGRAMS += test/programs/lastthread
test_programs_lastthread_SOURCES = test/programs/lastthread.c
test_programs_lastthread_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_lastthread_LDFLAGS = -pthread

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

# fdthief: puts a file of its own on the numbers of the sampler's
# descriptors (mapsample-fds.sh).
check_PROGRAMS += test/programs/fdthief
test_programs_fdthief_SOURCES = test/programs/fdthief.c
test_programs_fdthief_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_fdthief_LDFLAGS =

# a program that lives inside malloc (test/integration/metrics-faults.sh)
check_PROGRAMS += test/programs/mallocburn
test_programs_mallocburn_SOURCES = test/programs/mallocburn.c
test_programs_mallocburn_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_mallocburn_LDFLAGS =
test_programs_mallocburn_LDADD = -lpthread

# forks while another thread dlopens (test/integration/mapsample-forkdl.sh)
check_PROGRAMS += test/programs/forkdl
test_programs_forkdl_SOURCES = test/programs/forkdl.c
test_programs_forkdl_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_forkdl_LDFLAGS =
test_programs_forkdl_LDADD = -lpthread -ldl

# forks while another thread's threads end (test/integration/mapsample-forkdl.sh)
check_PROGRAMS += test/programs/forkthreads
test_programs_forkthreads_SOURCES = test/programs/forkthreads.c
test_programs_forkthreads_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_forkthreads_LDFLAGS =
test_programs_forkthreads_LDADD = -lpthread

# rankwork: N worker processes, worker 0 with twice the work
# (mapreport-ranks.sh)
check_PROGRAMS += test/programs/rankwork
test_programs_rankwork_SOURCES = test/programs/rankwork.c test/programs/burn.h
test_programs_rankwork_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_rankwork_LDFLAGS =

# cmpjitter: function shares that vary from run to run and over a run
# (mapreport-compare.sh: the within-run noise estimate)
check_PROGRAMS += test/programs/cmpjitter
test_programs_cmpjitter_SOURCES = test/programs/cmpjitter.c \
	test/programs/spin.h
test_programs_cmpjitter_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_cmpjitter_LDFLAGS =

# mpiranks: the MPI launch tests' program, built with each MPI's compiler
# wrapper that configure found (not an automake program: mpicc brings its
# MPI's flags, and nothing of ours, no sanitizer, is linked in).
EXTRA_DIST += test/programs/mpiranks.c
MPIRANKS_CFLAGS = -O1 -g -fno-omit-frame-pointer -fno-inline
if HAVE_MPICC_OPENMPI
check_SCRIPTS += test/programs/mpiranks.openmpi
CLEANFILES += test/programs/mpiranks.openmpi
test/programs/mpiranks.openmpi: $(srcdir)/test/programs/mpiranks.c
	@mkdir -p test/programs
	$(AM_V_CC)$(MPICC_OPENMPI) $(MPIRANKS_CFLAGS) -o $@ $(srcdir)/test/programs/mpiranks.c -ldl
endif
if HAVE_MPICC_MPICH
check_SCRIPTS += test/programs/mpiranks.mpich
CLEANFILES += test/programs/mpiranks.mpich
test/programs/mpiranks.mpich: $(srcdir)/test/programs/mpiranks.c
	@mkdir -p test/programs
	$(AM_V_CC)$(MPICC_MPICH) $(MPIRANKS_CFLAGS) -o $@ $(srcdir)/test/programs/mpiranks.c -ldl
endif

# jitmap: code in anonymous executable memory named only in its
# /tmp/perf-PID.map, which it may delete before it exits
# (test/integration/mapreport-jit.sh)
check_PROGRAMS += test/programs/jitmap
test_programs_jitmap_SOURCES = test/programs/jitmap.c
test_programs_jitmap_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_jitmap_LDFLAGS =

# a program that uses SIGRTMIN+4, the default sampling signal, itself
# (test/integration/mapsample-sigown.sh)
check_PROGRAMS += test/programs/sigself
test_programs_sigself_SOURCES = test/programs/sigself.c
test_programs_sigself_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_sigself_LDFLAGS =

# rename: threads renamed after they began, by prctl(PR_SET_NAME),
# pthread_setname_np and a write to /proc/self/task/TID/comm
# (mapsample-threadnames.sh).
check_PROGRAMS += test/programs/rename
test_programs_rename_SOURCES = test/programs/rename.c test/programs/spin.h
test_programs_rename_CFLAGS = $(TEST_PROGRAMS_CFLAGS) -pthread
test_programs_rename_LDFLAGS = -pthread

# regionsplit: the same stacks inside and outside region "odd"
# (test/integration/mapreport-exports-region.sh).
check_PROGRAMS += test/programs/regionsplit
test_programs_regionsplit_SOURCES = test/programs/regionsplit.c
test_programs_regionsplit_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_regionsplit_LDFLAGS = -no-install
test_programs_regionsplit_LDADD = lib/mark/libmapsample-mark.la

# syswork: a known share of its CPU time in the kernel (read(2) of
# /dev/zero), for the kernel frames of mapreport-kernel.sh
check_PROGRAMS += test/programs/syswork
test_programs_syswork_SOURCES = test/programs/syswork.c test/programs/spin.h
test_programs_syswork_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_syswork_LDFLAGS =

# liblockwiden: preloaded after the sampler, holds each lock libunwind
# takes a little longer (test/integration/mapsample-forkdl.sh)
check_LTLIBRARIES += test/programs/liblockwiden.la
test_programs_liblockwiden_la_SOURCES = test/programs/lockwiden.c
test_programs_liblockwiden_la_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_liblockwiden_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere

# memgrow: holds MIB MiB resident while it burns CPU, for the metric
# rules of mapreport --compare (mapreport-compare-metrics.sh).
check_PROGRAMS += test/programs/memgrow
test_programs_memgrow_SOURCES = test/programs/memgrow.c
test_programs_memgrow_CFLAGS = $(TEST_PROGRAMS_CFLAGS)
test_programs_memgrow_LDFLAGS =
