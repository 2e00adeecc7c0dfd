# SPDX-License-Identifier: BSD-2-Clause
# Shell integration tests (test/integration/<cli>-<feature>.sh).

# The C programs of the man pages' EXAMPLES sections compile, link with
# libmaplog and do what the pages say.  They are built with this build's
# compiler and flags, so that a sanitizer build links them with the
# sanitizer runtime its libmaplog needs.
TESTS += test/integration/man-examples.sh
EXTRA_DIST += test/integration/man-examples.sh
AM_TESTS_ENVIRONMENT += MAN_EXAMPLES_CC='$(CC)' \
	MAN_EXAMPLES_CFLAGS='$(AM_CFLAGS) $(CFLAGS)' \
	MAN_EXAMPLES_LDFLAGS='$(AM_LDFLAGS) $(LDFLAGS)'; \
	export MAN_EXAMPLES_CC MAN_EXAMPLES_CFLAGS MAN_EXAMPLES_LDFLAGS;

# Every man page renders without a warning (mandoc -T lint, or groff
# through man --warnings) and without quote macros closing together.
TESTS += test/integration/man-lint.sh
EXTRA_DIST += test/integration/man-lint.sh

TESTS += test/integration/mapreport-basic.sh
EXTRA_DIST += test/integration/mapreport-basic.sh

# mapsample on the programs of test/programs (built by make check), read
# back with mapreport.  mapsample-lib.sh holds their shared helpers.
TESTS += test/integration/mapsample-basic.sh \
	test/integration/mapsample-threads.sh \
	test/integration/mapsample-processes.sh \
	test/integration/mapsample-signals.sh \
	test/integration/mapsample-launcher.sh \
	test/integration/mapsample-exports.sh \
	test/integration/mapsample-rate.sh \
	test/integration/mapsample-dlopen.sh \
	test/integration/mapreport-stripped.sh \
	test/integration/mapsample-sharedlog.sh \
	test/integration/mapsample-fullfs.sh \
	test/integration/mapreport-losses.sh
# --wall does not cut the program's sleeps short (test/programs/sleeper)
TESTS += test/integration/mapsample-wall.sh
EXTRA_DIST += test/integration/mapsample-wall.sh

# marks and regions (<mapsample/mark.h>, mapreport --region)
TESTS += test/integration/mapsample-marks.sh
EXTRA_DIST += test/integration/mapsample-marks.sh
EXTRA_DIST += test/integration/mapsample-lib.sh test/integration/watch.py \
	test/integration/mapsample-sharedlog.sh \
	test/integration/mapreport-losses.sh \
	test/integration/mapsample-fullfs.sh \
	test/integration/mapreport-stripped.sh \
	test/integration/mapsample-dlopen.sh \
	test/integration/mapsample-basic.sh \
	test/integration/mapsample-threads.sh \
	test/integration/mapsample-processes.sh \
	test/integration/mapsample-signals.sh \
	test/integration/mapsample-launcher.sh \
	test/integration/mapsample-exports.sh \
	test/integration/mapsample-rate.sh

# The public plugin headers (lib/include/allinea_*.h): the reference's
# custom1.c and the template example compile against them through
# pkg-config (the build tree's mapsample-plugin-uninstalled.pc, then the
# installed mapsample-plugin.pc), with the documented types.
TESTS += test/integration/plugin-headers.sh
EXTRA_DIST += test/integration/plugin-headers.sh
AM_TESTS_ENVIRONMENT += PLUGIN_HEADERS_CC='$(CC)'; export PLUGIN_HEADERS_CC;

# Metric plugins under the sampler: the host side of the plugin API
# (loading, initialize failures, getters in the signal handler, errors,
# sentinels, divideBySampleTime, backfill, safe_* calls under 16 threads)
# with the test plugins of test/plugins (built in test/plugins/local.mk),
# and the I/O accounting.
TESTS += test/integration/metrics-host.sh
EXTRA_DIST += test/integration/metrics-host.sh
# getters that sleep, spin, call malloc or crash (test/plugins/badgetter.c)
TESTS += test/integration/metrics-faults.sh
EXTRA_DIST += test/integration/metrics-faults.sh
TESTS += test/integration/metrics-io.sh
EXTRA_DIST += test/integration/metrics-io.sh

# --- mapreport's metrics section ---
# The metrics scenario of test/common/mklog (--metrics) against a golden
# section, whatever the chunk size; logs with and without metrics.
TESTS += test/integration/mapreport-metrics.sh
EXTRA_DIST += test/integration/mapreport-metrics.sh \
	test/integration/golden/mapreport-metrics.txt

# mapsample-plugin(3): the plugin of its EXAMPLES section compiles against
# the source tree's headers (-Wall -Wextra -Werror, and with the page's
# pkg-config command), exports the getter its XML names, and returns the
# value the page says when loaded by a host linked with libpluginapi.
TESTS += test/integration/plugin-man-example.sh
EXTRA_DIST += test/integration/plugin-man-example.sh

# make installcheck (and so make distcheck): the installed mapsample runs
# a plugin built against the installed headers, and the installed metrics.
EXTRA_DIST += test/integration/installcheck.sh
installcheck-local:
	CC='$(CC)' $(SHELL) $(top_srcdir)/test/integration/installcheck.sh \
		'$(DESTDIR)$(bindir)' '$(DESTDIR)$(pkgconfigdir)' '$(top_srcdir)'

# Partial reports (mapreport(1), PARTIAL REPORTS) on the deterministic
# logs of test/integration/mkpartlog; the definitions it reads (among them
# the reference's example) are in test/integration/partial.
check_PROGRAMS += test/integration/mkpartlog
test_integration_mkpartlog_SOURCES = test/integration/mkpartlog.c
test_integration_mkpartlog_LDADD = lib/log/libmaplog_core.la
TESTS += test/integration/mapreport-partial.sh
EXTRA_DIST += test/integration/mapreport-partial.sh \
	test/integration/partial/reference-example.xml \
	test/integration/partial/reference-example-reserved.xml \
	test/integration/partial/scenario.xml \
	test/integration/golden/mapreport-partial.txt \
	test/integration/golden/mapreport-partial-example.txt

# --- mapreport --json ---
# Valid JSON (Debian's python3 -m json.tool), key values checked by
# json/check-json.py, the metrics scenario against a golden report, a
# truncated log and a real run of test/programs/hot.
TESTS += test/integration/mapreport-json.sh
EXTRA_DIST += test/integration/mapreport-json.sh \
	test/integration/golden/mapreport-json.json \
	test/integration/json/check-json.py test/integration/json/scenario.xml

# --- mapreport --html ---
# The self-contained page: nothing fetched, summary, flame graph data, a
# chart per metric, activity, functions, errors (synthetic logs and a
# real run of test/programs/threadsrun); then in headless Chromium: no
# console message, the flame graph drawn and searched, a screenshot kept
# as mapreport-html.png in the build tree (skipped without Chromium).
TESTS += test/integration/mapreport-html.sh \
	test/integration/mapreport-html-browser.sh \
	test/integration/mapreport-html-msel.sh \
	test/integration/mapreport-msel-ranges.sh
EXTRA_DIST += test/integration/mapreport-html.sh \
	test/integration/mapreport-html-browser.sh \
	test/integration/mapreport-html-msel.sh \
	test/integration/mapreport-msel-ranges.sh \
	test/integration/html-browser-lib.sh
CLEANFILES += mapreport-html.png
# the page's Ranks section under a time range and a process: the rows
# of mapreport --time and --json --pid (headless Chromium)
TESTS += test/integration/mapreport-html-ranks.sh
EXTRA_DIST += test/integration/mapreport-html-ranks.sh
# A page of a report narrowed by --time: its time axes (metric charts,
# thread activity, Ranks), marks and --trace marks span the range only.
TESTS += test/integration/mapreport-html-time.sh
EXTRA_DIST += test/integration/mapreport-html-time.sh
# The page's partial reports under a selection: psel.js against
# mapreport --json --time/--pid on 120 selections of three logs (Node.js),
# and what the page shows in headless Chromium.
TESTS += test/integration/mapreport-psel-ranges.sh \
	test/integration/mapreport-html-psel.sh
EXTRA_DIST += test/integration/mapreport-psel-ranges.sh \
	test/integration/mapreport-html-psel.sh
# The metric charts of a selection of several processes: those
# processes' series combined, as mapreport --pid draws them (Chromium).
TESTS += test/integration/mapreport-html-charts-sel.sh
EXTRA_DIST += test/integration/mapreport-html-charts-sel.sh
# The performance summary of a selection: verdict, shares and advice of
# mapreport --json --time/--pid (python3, iowrite, MPICH mpiwork), in
# Chromium and, on 90 selections, perf.js alone in Node.js.
TESTS += test/integration/mapreport-html-perf.sh \
	test/integration/mapreport-perf-ranges.sh
EXTRA_DIST += test/integration/mapreport-html-perf.sh \
	test/integration/mapreport-perf-ranges.sh

# --- mapreport --compare ---
# Real runs of test/programs/cmpwork against its slower build and
# against itself: exit 3 and the slow function first; no false alarm;
# damaged log, invalid rule, different programs.
TESTS += test/integration/mapreport-compare.sh
EXTRA_DIST += test/integration/mapreport-compare.sh
# Its outputs, and every JSON output of mapreport against the installed
# schema (share/mapsample/mapreport.schema.json, python3-jsonschema);
# Markdown rendered by python3-markdown; JUnit XML parsed by python3.
TESTS += test/integration/mapreport-compare-out.sh
EXTRA_DIST += test/integration/mapreport-compare-out.sh \
	test/integration/json/validate.py
# The differential flame graph of --compare --html FILE, and the page in
# headless Chromium (a screenshot kept as mapreport-compare-html.png).
TESTS += test/integration/mapreport-compare-html.sh
EXTRA_DIST += test/integration/mapreport-compare-html.sh
CLEANFILES += mapreport-compare-html.png

# mapreport's progress line on a terminal (script(1) gives it one).
TESTS += test/integration/mapreport-progress.sh
EXTRA_DIST += test/integration/mapreport-progress.sh

# The module map (README.md, Layout): no module calls up, no two files
# call each other, no file over 1000 lines without a reason.
TESTS += test/integration/layers.sh
EXTRA_DIST += test/integration/layers.sh test/integration/layers.py

# Credential changes and user namespaces under mapsample: setpriv, su,
# unshare -U and a program making the calls itself (issue 14 item 7).
TESTS += test/integration/mapsample-privilege.sh
EXTRA_DIST += test/integration/mapsample-privilege.sh

# Inline frames: the chain of inlined calls and the function holding it
# (test/programs/inlinehot, and inlinesort.cc when a C++ compiler is
# found), in the text, folded and JSON reports.
TESTS += test/integration/mapreport-inline.sh
EXTRA_DIST += test/integration/mapreport-inline.sh

# A run with no samples says why and what to do; a folder given as a log
# is named in one line.
TESTS += test/integration/mapreport-nosamples.sh
EXTRA_DIST += test/integration/mapreport-nosamples.sh

# The vDSO's functions named from mapreport's own vDSO when the run's
# build-id matches (test/programs/clockloop).
TESTS += test/integration/mapreport-vdso.sh
EXTRA_DIST += test/integration/mapreport-vdso.sh

# The program never outlives mapsample: signals passed on, PR_SET_PDEATHSIG.
TESTS += test/integration/mapsample-orphans.sh
EXTRA_DIST += test/integration/mapsample-orphans.sh

# A process ends with its last thread, not kept alive by ours.
TESTS += test/integration/mapsample-lastthread.sh
EXTRA_DIST += test/integration/mapsample-lastthread.sh

# mapreport's sample filters (--pid, --tid, --comm, --time) against the
# record dump of test/programs/filterwork (issue 18, Filters).
TESTS += test/integration/mapreport-filters.sh
EXTRA_DIST += test/integration/mapreport-filters.sh
# the filters on the metrics: whole processes, --time's values
TESTS += test/integration/mapreport-filter-metrics.sh
EXTRA_DIST += test/integration/mapreport-filter-metrics.sh

# mapreport --callers and --callees on test/programs/callsplit (issue 18,
# Callers and callees).
TESTS += test/integration/mapreport-calls.sh
EXTRA_DIST += test/integration/mapreport-calls.sh

# mapreport --lines on test/programs/linehot (-O2 -g, an inlined helper):
# the hot range, inlined lines, finding the source (issue 18, Source
# lines).
TESTS += test/integration/mapreport-lines.sh
EXTRA_DIST += test/integration/mapreport-lines.sh

# mapreport --pprof read back by go tool pprof (skipped without golang-go).
TESTS += test/integration/mapreport-pprof.sh
EXTRA_DIST += test/integration/mapreport-pprof.sh

# mapreport --speedscope and --trace checked against their formats'
# rules and the JSON report (python3).
TESTS += test/integration/mapreport-viewers.sh
EXTRA_DIST += test/integration/mapreport-viewers.sh

# mapreport --compare --region (one phase of test/programs/marks across
# runs) and no false alarm on two runs of /usr/bin/python3 (issue 16).
TESTS += test/integration/mapreport-compare-region.sh
EXTRA_DIST += test/integration/mapreport-compare-region.sh

# The sampler never reads or writes a descriptor it does not own.
TESTS += test/integration/mapsample-fds.sh
EXTRA_DIST += test/integration/mapsample-fds.sh

# fork while another thread dlopens (test/programs/forkdl.c)
TESTS += test/integration/mapsample-forkdl.sh
EXTRA_DIST += test/integration/mapsample-forkdl.sh

# no code from paths others can write, no plugin that was not chosen
TESTS += test/integration/metrics-trust.sh
EXTRA_DIST += test/integration/metrics-trust.sh

# a Go program with cgo: goroutine stacks and the alternate signal stack
TESTS += test/integration/mapsample-go.sh
EXTRA_DIST += test/integration/mapsample-go.sh test/programs/gocgo/main.go \
	test/programs/gocgo/go.mod

# The HTML report's embedded function view (source lines, callers and
# callees) and narrowing data, checked against --lines, --callers,
# --callees and --tid --folded without a browser.
TESTS += test/integration/mapreport-html-data.sh
EXTRA_DIST += test/integration/mapreport-html-data.sh

# mapreport's Summary, Ranks (per process of a job), --rank and the
# built-in partial reports on test/programs/rankwork and hot (issue 15,
# One report for the whole job).
TESTS += test/integration/mapreport-ranks.sh
EXTRA_DIST += test/integration/mapreport-ranks.sh

# MPI jobs under Open MPI and MPICH: a log per rank in the job's folder,
# launchers apart, -o patterns, mapreport DIR (test/programs/mpiranks.*).
TESTS += test/integration/mapsample-mpi.sh
EXTRA_DIST += test/integration/mapsample-mpi.sh

# srun -n N mapsample on a one-node Slurm the test starts and stops itself
# (munged, slurmctld, slurmd; slurm-wlm and munge, as root).
TESTS += test/integration/mapsample-slurm.sh
EXTRA_DIST += test/integration/mapsample-slurm.sh

# The mpi metric plugin under Open MPI and MPICH (mpirun -np 4, one log
# per rank): exact bytes in the MPI call statistics, the waiting ranks'
# share of MPI, samples in the MPI library counted as MPI.
TESTS += test/integration/metrics-mpi.sh
AM_TESTS_ENVIRONMENT += MPICC_OPENMPI='$(MPICC_OPENMPI)' \
	MPIRUN_OPENMPI='$(MPIRUN_OPENMPI)' MPICC_MPICH='$(MPICC_MPICH)' \
	MPIRUN_MPICH='$(MPIRUN_MPICH)'; \
	export MPICC_OPENMPI MPIRUN_OPENMPI MPICC_MPICH MPIRUN_MPICH;
EXTRA_DIST += test/integration/metrics-mpi.sh test/programs/mpiwork.c

# The rest of the MPI-3.1 calls that move data or wait (non-blocking and
# neighbourhood collectives, persistent requests, matched probes,
# one-sided, MPI-IO) under Open MPI and MPICH: exact bytes and calls per
# rank, the wrapper's classes, the time metrics by class; the Fortran
# bindings, counted once (test/programs/mpimore.c, mpifort.f90).
TESTS += test/integration/metrics-mpi-more.sh
AM_TESTS_ENVIRONMENT += MPIFC_OPENMPI='$(MPIFC_OPENMPI)' \
	MPIFC_MPICH='$(MPIFC_MPICH)'; export MPIFC_OPENMPI MPIFC_MPICH;
EXTRA_DIST += test/integration/metrics-mpi-more.sh test/programs/mpimore.c \
	test/programs/mpifort.f90

# JIT code named from /tmp/perf-PID.map, copied into the log by the
# sampler (test/programs/jitmap; Node with --perf-basic-prof)
TESTS += test/integration/mapreport-jit.sh \
	test/integration/mapreport-jit-node.sh
EXTRA_DIST += test/integration/mapreport-jit.sh \
	test/integration/mapreport-jit-node.sh

# Long C++ names shortened in the tables and the flame graph, whole with
# --full-names and in JSON (test/programs/longnames.cc)
TESTS += test/integration/mapreport-names.sh
EXTRA_DIST += test/integration/mapreport-names.sh test/programs/longnames.cc

# --disasm: samples per instruction, from objdump (test/programs/linehot)
TESTS += test/integration/mapreport-disasm.sh
EXTRA_DIST += test/integration/mapreport-disasm.sh

# substrate plugins: the sampler's host (call order, data slots, refusals,
# a slow plugin, in-handler samples) and print_events against mapreport
TESTS += test/integration/substrate-host.sh
EXTRA_DIST += test/integration/substrate-host.sh
# mapsample-substrate(3)'s example is plugins/substrates/print_events.c,
# compiles as the page says and runs
TESTS += test/integration/substrate-man-example.sh
EXTRA_DIST += test/integration/substrate-man-example.sh

# The otf2 substrate plugin: driven by test/plugins/substrate-driver, its
# archive read back by otf2-print; and under mapsample --substrate otf2,
# its counts against mapreport's on the same log.
TESTS += test/integration/substrate-otf2-driver.sh \
	test/integration/substrate-otf2.sh
EXTRA_DIST += test/integration/substrate-otf2-driver.sh \
	test/integration/substrate-otf2.sh

# a program that uses the sampling signal itself; --signal values that
# cannot work (test/programs/sigself)
TESTS += test/integration/mapsample-sigown.sh
EXTRA_DIST += test/integration/mapsample-sigown.sh

# an exec of a set-user-ID or set-group-ID program in the child chain
TESTS += test/integration/mapsample-setuid.sh
EXTRA_DIST += test/integration/mapsample-setuid.sh

# threads renamed after they began keep their last name (test/programs/rename)
TESTS += test/integration/mapsample-threadnames.sh
EXTRA_DIST += test/integration/mapsample-threadnames.sh

# two PID namespaces with the same pids are two processes (unshare -p)
TESTS += test/integration/mapsample-pidns.sh
EXTRA_DIST += test/integration/mapsample-pidns.sh

TESTS += test/integration/mapreport-exports-region.sh
EXTRA_DIST += test/integration/mapreport-exports-region.sh

# Time in the kernel as a frame of its own ("[kernel] read" below read)
# against the program's own system time (test/programs/syswork)
TESTS += test/integration/mapreport-kernel.sh
EXTRA_DIST += test/integration/mapreport-kernel.sh

# mapreport --compare on two runs of real programs with no change (xz,
# python3 with a fixed hash seed): no rule broken at 3 sigma
TESTS += test/integration/mapreport-compare-real.sh
EXTRA_DIST += test/integration/mapreport-compare-real.sh
# reads pprof profiles' labels for mapsample-pidns.sh and
# mapreport-ranks.sh
EXTRA_DIST += test/integration/pprof_labels.py

# Programs that exec programs (wrapper scripts, chains of 60 execs): each
# image its own row, samples and rate, grouped under its process with the
# exec chain, --images
TESTS += test/integration/mapreport-exec.sh
EXTRA_DIST += test/integration/mapreport-exec.sh

# the symbolizer's frames for every address of one function
# (mapsample-go.sh: inline chains of Go code)
check_PROGRAMS += test/integration/symwalk
test_integration_symwalk_SOURCES = test/integration/symwalk.c
test_integration_symwalk_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS)
test_integration_symwalk_LDADD = lib/report/libreport.la $(LIBELF_LIBS)

# mapreport --jobs: a job's logs decoded on several threads give the
# report of the logs read one by one, byte for byte (lib/model/logpool.c)
TESTS += test/integration/mapreport-jobs.sh
EXTRA_DIST += test/integration/mapreport-jobs.sh

# mapreport --compare with the sample filters, job folders and the logs
# of one run's ranks (filterwork, cmpwork)
TESTS += test/integration/mapreport-compare-load.sh
EXTRA_DIST += test/integration/mapreport-compare-load.sh

# mapreport --compare matching functions across builds: C++ names
# demangled, inlined functions, stripped code by build-id
# (test/programs/cmpcxx.cc, built by the test with g++)
TESTS += test/integration/mapreport-compare-match.sh
EXTRA_DIST += test/integration/mapreport-compare-match.sh

# mapreport --compare's metric rules on real logs: metric names by id or
# dotted suffix (memgrow with more memory in NEW: broken; the same size:
# pass), an ambiguous name (exit 2), the rate metrics' total rows
# (iowrite's bytes) and metric(NAME).total rules
TESTS += test/integration/mapreport-compare-metrics.sh
EXTRA_DIST += test/integration/mapreport-compare-metrics.sh

# CI cannot pass the MPI and Slurm tests by skipping them: .ci/run sets
# MAPSAMPLE_NO_SKIP=mpi,slurm, which turns their skips into failures.
TESTS += test/integration/ci-noskip.sh
EXTRA_DIST += test/integration/ci-noskip.sh
# the Regions table follows --pid/--tid/--time; the MPI call statistics
# say which filters cannot narrow them
TESTS += test/integration/mapreport-regions-filter.sh
EXTRA_DIST += test/integration/mapreport-regions-filter.sh

# Logs from a pipe or a FIFO, copied as they are read, give every output
# (--html narrowing, the exports, --region, --time, --jobs) what the
# file gives; a copy that cannot be made is one line naming TMPDIR.
TESTS += test/integration/mapreport-pipe.sh
EXTRA_DIST += test/integration/mapreport-pipe.sh

# A mapreport copied out of its build tree and not installed says that it
# has no built-in partial reports, where it looked and the fix.
AM_TESTS_ENVIRONMENT += pkgdatadir='$(pkgdatadir)'; export pkgdatadir;
TESTS += test/integration/mapreport-builtin-missing.sh
EXTRA_DIST += test/integration/mapreport-builtin-missing.sh
