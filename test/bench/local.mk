# SPDX-License-Identifier: BSD-2-Clause
# Benchmarks: parser throughput and bytes per sample, measured against the
# targets of the log-format issue.  Built by `make` but not run by
# `make check` (they are not tests and never gate); `make bench` runs both.
# BENCH_PARSE_ARGS / BENCH_SIZE_ARGS pass options, e.g.
#   make bench BENCH_PARSE_ARGS='-n 2000000 -r 3'
noinst_PROGRAMS += test/bench/bench_parse test/bench/bench_size
test_bench_bench_parse_SOURCES = test/bench/bench_parse.c
test_bench_bench_parse_LDADD = test/common/liblogsynth.la \
	lib/log/libmaplog_core.la
test_bench_bench_size_SOURCES = test/bench/bench_size.c
test_bench_bench_size_LDADD = test/common/liblogsynth.la \
	lib/log/libmaplog_core.la
EXTRA_DIST += test/bench/README.md test/bench/run.sh

BENCH_PARSE_ARGS =
BENCH_SIZE_ARGS =
.PHONY: bench
bench: test/bench/bench_parse$(EXEEXT) test/bench/bench_size$(EXEEXT)
	BENCH_PARSE_ARGS='$(BENCH_PARSE_ARGS)' \
	BENCH_SIZE_ARGS='$(BENCH_SIZE_ARGS)' \
	$(SHELL) $(srcdir)/test/bench/run.sh $(top_builddir)

# Per-sample cost floor (floor.sh), the once-per-run cost (fixed.sh),
# overhead against bare runs, gperftools and perf (overhead.sh), and
# agreement with perf (accuracy.sh).
noinst_PROGRAMS += test/bench/bench_floor
test_bench_bench_floor_SOURCES = test/bench/bench_floor.c
test_bench_bench_floor_CFLAGS = -O1 -g -fno-omit-frame-pointer $(LIBUNWIND_CFLAGS)
test_bench_bench_floor_LDADD = $(LIBUNWIND_LIBS)
EXTRA_DIST += test/bench/floor.sh test/bench/rates.sh
EXTRA_DIST += test/bench/overhead.sh test/bench/accuracy.sh \
	test/bench/workloads.sh test/bench/stats.sh test/bench/attrib.sh \
	test/bench/fixed.sh

# What the built-in metric plugins cost per getter call and per sample
# (bench_plugins.c); built by make, not run by make check.  Run it from
# the build tree: test/bench/bench_plugins [-n CALLS]
noinst_PROGRAMS += test/bench/bench_plugins
test_bench_bench_plugins_SOURCES = test/bench/bench_plugins.c
test_bench_bench_plugins_CPPFLAGS = $(AM_CPPFLAGS) \
	-DABS_TOP_BUILDDIR='"$(abs_top_builddir)"'
test_bench_bench_plugins_LDFLAGS = $(AM_LDFLAGS) -export-dynamic
test_bench_bench_plugins_LDADD = lib/defs/libdefs.la \
	lib/pluginapi/libpluginapi.la -ldl -lm
EXTRA_test_bench_bench_plugins_DEPENDENCIES = \
	$(mapsampleplugin_LTLIBRARIES) $(plugins_metrics_xml)

# The default metric set's cost per stack sample, in situ (metrics-cost.sh).
EXTRA_DIST += test/bench/metrics-cost.sh

# mapreport on ~10M-sample logs beside perf report (by hand, not make check).
EXTRA_DIST += test/bench/report-speed.sh
EXTRA_DIST += test/bench/loader-hangs.sh


# What a mark or region costs the program, bare and under mapsample
# (bench_mark.c); built by make, not run by make check.
noinst_PROGRAMS += test/bench/bench_mark
test_bench_bench_mark_SOURCES = test/bench/bench_mark.c
test_bench_bench_mark_LDFLAGS = -no-install
test_bench_bench_mark_LDADD = lib/mark/libmapsample-mark.la

# mapreport on a synthetic job of many rank logs (ranks.sh): bench_ranks
# writes them.  Built by make, not run by make check.
noinst_PROGRAMS += test/bench/bench_ranks
test_bench_bench_ranks_SOURCES = test/bench/bench_ranks.c
test_bench_bench_ranks_LDADD = test/common/liblogsynth.la \
	lib/log/libmaplog_core.la
EXTRA_DIST += test/bench/ranks.sh

# False alarms of mapreport --compare on real programs with no change
# (compare-noise.sh; not run by make check: minutes)
EXTRA_DIST += test/bench/compare-noise.sh

EXTRA_DIST += test/bench/mpiwrap-cost.sh

# What a substrate plugin that does nothing costs per sample
# (substrate-cost.sh; uses test/plugins' subtest in its noop mode).
EXTRA_DIST += test/bench/substrate-cost.sh

# What each fork and exec costs under mapsample, and the log a script of
# short commands leaves (execcost.sh).
EXTRA_DIST += test/bench/execcost.sh

# How reading a partial report grows with its number of report metrics
# (partial-ids.sh).
EXTRA_DIST += test/bench/partial-ids.sh

# The kernel's part of a sample per timer kind, and the rate each keeps
# beside busy processes (bench_timer.c; run from the build tree:
# test/bench/bench_timer [-r HZ] [-n ROUNDS] [-m MILLIONS] [-b BUSY])
noinst_PROGRAMS += test/bench/bench_timer
test_bench_bench_timer_SOURCES = test/bench/bench_timer.c
test_bench_bench_timer_CFLAGS = -O2
test_bench_bench_timer_LDADD = -lpthread -lrt

# The sampler's cost per rank under mpirun against a single process
# (by hand, not make check).
EXTRA_DIST += test/bench/mpirank-cost.sh
