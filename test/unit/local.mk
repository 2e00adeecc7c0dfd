# SPDX-License-Identifier: BSD-2-Clause
# Check unit tests, one program per module (test/unit/test_<module>.c).

# lib/log: the parser, driven by the encoder and logsynth
check_PROGRAMS += test/unit/test_maplog
test_unit_test_maplog_SOURCES = test/unit/test_maplog.c
test_unit_test_maplog_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_maplog_LDADD = test/common/liblogsynth.la \
	lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_maplog

# lib/log: the encoder
check_PROGRAMS += test/unit/test_mapwrite
test_unit_test_mapwrite_SOURCES = test/unit/test_mapwrite.c
test_unit_test_mapwrite_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_mapwrite_LDADD = lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_mapwrite

# lib/log: the chunk checksum
check_PROGRAMS += test/unit/test_crc32c
test_unit_test_crc32c_SOURCES = test/unit/test_crc32c.c
test_unit_test_crc32c_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_crc32c_LDADD = lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_crc32c

# lib/defs: metric definition files, every rule and message, the
# search path, and the library checks against test/plugins/libtemplate1.so
# (the template example plugin, built as a module: -export-dynamic gives
# it the test's stubs of the plugin API, as the sampler would).
check_PROGRAMS += test/unit/test_metricdef
test_unit_test_metricdef_SOURCES = test/unit/test_metricdef.c
test_unit_test_metricdef_CPPFLAGS = $(AM_CPPFLAGS) \
	-DABS_TOP_SRCDIR='"$(abs_top_srcdir)"' \
	-DABS_TOP_BUILDDIR='"$(abs_top_builddir)"'
test_unit_test_metricdef_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_metricdef_LDFLAGS = $(AM_LDFLAGS) -export-dynamic
test_unit_test_metricdef_LDADD = lib/defs/libdefs.la $(CHECK_LIBS)
EXTRA_test_unit_test_metricdef_DEPENDENCIES = test/plugins/libtemplate1.la
TESTS += test/unit/test_metricdef


# --- lib/model: units; the metric statistics and their text section ---
# units: scaling metric values for display; metrics: running statistics
# of metric plugin values, rates from deltas, ordering, errors.
check_PROGRAMS += test/unit/test_units test/unit/test_metrics
test_unit_test_units_SOURCES = test/unit/test_units.c
test_unit_test_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_units_LDADD = lib/model/libmodel.la $(CHECK_LIBS)
test_unit_test_metrics_SOURCES = test/unit/test_metrics.c
test_unit_test_metrics_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_metrics_LDADD = lib/report/out/libreportout.la $(CHECK_LIBS)
TESTS += test/unit/test_units test/unit/test_metrics

# lib/model: pidkeys, the keys of the pids of several logs (the model's
# and --region's own pass must agree on them).
check_PROGRAMS += test/unit/test_pidkeys
test_unit_test_pidkeys_SOURCES = test/unit/test_pidkeys.c
test_unit_test_pidkeys_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_pidkeys_LDADD = lib/model/libmodel.la $(CHECK_LIBS)
TESTS += test/unit/test_pidkeys

# lib/model: logread, the one loop that reads logs, on logsynth logs:
# every record type, block boundaries, damage and truncation with their
# offsets, callbacks that stop reading, unreadable files.
check_PROGRAMS += test/unit/test_logread
test_unit_test_logread_SOURCES = test/unit/test_logread.c
test_unit_test_logread_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_logread_LDADD = lib/model/libmodel.la \
	test/common/liblogsynth.la $(CHECK_LIBS)
TESTS += test/unit/test_logread

# --- plugins: the built-in metric plugins (plugins/<name>/) ---
# dlopen()s each plugin the build tree's plugins/metrics/<name>.xml names
# and checks its values; lib/pluginapi provides the plugin API, exported
# with -export-dynamic as the sampler exports it, and the test passes its
# host hooks down and defines mapsample_io_bytes().
check_PROGRAMS += test/unit/test_plugins
test_unit_test_plugins_SOURCES = test/unit/test_plugins.c
test_unit_test_plugins_CPPFLAGS = $(AM_CPPFLAGS) \
	-DABS_TOP_BUILDDIR='"$(abs_top_builddir)"'
test_unit_test_plugins_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_plugins_LDFLAGS = $(AM_LDFLAGS) -export-dynamic
test_unit_test_plugins_LDADD = lib/defs/libdefs.la \
	lib/pluginapi/libpluginapi.la $(CHECK_LIBS) -ldl -lm
EXTRA_test_unit_test_plugins_DEPENDENCIES = $(mapsampleplugin_LTLIBRARIES) \
	$(plugins_metrics_xml)
TESTS += test/unit/test_plugins

# lib/pluginapi: the metric plugin API (formatter against glibc, safe
# allocator, safe I/O and its byte counters, core counts, error hooks,
# configuration file).  The test passes host hooks of its own down.  The
# library's sources are compiled into the test with the build's flags, so
# that `./build.sh asan` runs them (the allocator hammered by 16 threads
# and by signal handlers included) under AddressSanitizer and UBSan; the
# sampler's copy is built without sanitizers.
check_PROGRAMS += test/unit/test_pluginapi
test_unit_test_pluginapi_SOURCES = test/unit/test_pluginapi.c \
	$(lib_pluginapi_libpluginapi_la_SOURCES)
test_unit_test_pluginapi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -pthread
test_unit_test_pluginapi_LDADD = $(CHECK_LIBS) -lm -lpthread
TESTS += test/unit/test_pluginapi

# lib/defs + lib/report: partial reports (reference section 3): every rule with its
# exact message, colours, <text>, where definitions are found, values.
check_PROGRAMS += test/unit/test_partial
test_unit_test_partial_SOURCES = test/unit/test_partial.c
test_unit_test_partial_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/common \
	-DABS_TOP_SRCDIR='"$(abs_top_srcdir)"'
test_unit_test_partial_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_partial_LDADD = lib/report/out/libreportout.la \
	test/common/liblogsynth.la $(CHECK_LIBS)
TESTS += test/unit/test_partial

# --- lib/report: the JSON report (mapreport --json) ---
# The JSON writer: escaping, UTF-8 checks, numbers, layout.
check_PROGRAMS += test/unit/test_json
test_unit_test_json_SOURCES = test/unit/test_json.c
test_unit_test_json_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_json_LDADD = lib/report/out/libreportout.la $(CHECK_LIBS) -lm
TESTS += test/unit/test_json

# --- lib/report: the HTML report (mapreport --html) ---
# htmlsafe: escaping, JSON inside <script>, the partial-report HTML
# sanitiser and colours, against XSS attempts; the whole page on a log
# whose every string is an attack.  timeline: bins over time.
check_PROGRAMS += test/unit/test_html
test_unit_test_html_SOURCES = test/unit/test_html.c
test_unit_test_html_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_html_LDADD = lib/report/out/libreportout.la $(CHECK_LIBS)
TESTS += test/unit/test_html
check_PROGRAMS += test/unit/test_timeline
test_unit_test_timeline_SOURCES = test/unit/test_timeline.c
test_unit_test_timeline_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_timeline_LDADD = lib/model/libmodel.la $(CHECK_LIBS) -lm
TESTS += test/unit/test_timeline

# --- lib/report: the symbolizer ---
# Inline chains against addr2line -i, public aliases, no line from code
# the linker discarded, on test/programs/inlinehot and symnames.
check_PROGRAMS += test/unit/test_symbolize
test_unit_test_symbolize_SOURCES = test/unit/test_symbolize.c
test_unit_test_symbolize_CPPFLAGS = $(AM_CPPFLAGS) \
	-DABS_TOP_BUILDDIR='"$(abs_top_builddir)"'
test_unit_test_symbolize_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBDW_CFLAGS)
test_unit_test_symbolize_LDADD = lib/report/libreport.la $(LIBELF_LIBS) \
	$(CHECK_LIBS)
EXTRA_test_unit_test_symbolize_DEPENDENCIES = test/programs/inlinehot \
	test/programs/symnames
TESTS += test/unit/test_symbolize

# --- lib/report: functions and the call tree ---
# The sampler's own work on the program's threads is charged to no
# function, on a log written with the encoder.
check_PROGRAMS += test/unit/test_analyze
test_unit_test_analyze_SOURCES = test/unit/test_analyze.c
test_unit_test_analyze_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_analyze_LDADD = lib/report/libreport.la \
	lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_analyze

# lib/model: the program's regions (model/regions.c): nesting, unmatched
# ends, threads ending inside a region, out-of-order records, --region
check_PROGRAMS += test/unit/test_regions
test_unit_test_regions_SOURCES = test/unit/test_regions.c
test_unit_test_regions_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_regions_LDADD = lib/model/libmodel.la $(CHECK_LIBS)
TESTS += test/unit/test_regions

# --- lib/model: the sample filters (mapreport --pid, --tid, --comm,
# --time) ---
check_PROGRAMS += test/unit/test_filter
test_unit_test_filter_SOURCES = test/unit/test_filter.c
test_unit_test_filter_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_filter_LDADD = lib/model/libmodel.la $(CHECK_LIBS) -lm
TESTS += test/unit/test_filter

# --- lib/report: where mapreport --lines finds source files ---
check_PROGRAMS += test/unit/test_srclines
test_unit_test_srclines_SOURCES = test/unit/test_srclines.c
test_unit_test_srclines_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_srclines_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_srclines

# --- lib/report: callers and callees (mapreport --callers, --callees) ---
check_PROGRAMS += test/unit/test_butterfly
test_unit_test_butterfly_SOURCES = test/unit/test_butterfly.c
test_unit_test_butterfly_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_butterfly_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_butterfly

# lib/report: the figures per rank and the summary (ranks.c, summary.c)
# on made-up figures
check_PROGRAMS += test/unit/test_summary
test_unit_test_summary_SOURCES = test/unit/test_summary.c
test_unit_test_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_summary_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_summary

# --- model: parallel jobs (JOB records, launchers, pids of two hosts) ---
# and lib/launch's log names for a job's ranks (-o %r %p %h %j).
check_PROGRAMS += test/unit/test_modeljob
test_unit_test_modeljob_SOURCES = test/unit/test_modeljob.c
test_unit_test_modeljob_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_modeljob_LDADD = lib/launch/liblaunch.la lib/model/libmodel.la \
	$(CHECK_LIBS)
TESTS += test/unit/test_modeljob

# report/mpi.c: MPI call statistics across ranks, MPI modules, the fold
check_PROGRAMS += test/unit/test_mpi
test_unit_test_mpi_SOURCES = test/unit/test_mpi.c
test_unit_test_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_mpi_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_mpi

# --- lib/report: kernel frames (report/kframe.c): system calls found in
# x86-64 and AArch64 code, their names, a system call of the test's own ---
check_PROGRAMS += test/unit/test_kframe
test_unit_test_kframe_SOURCES = test/unit/test_kframe.c
test_unit_test_kframe_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_kframe_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_kframe

# lib/report: --compare's rules on made-up comparisons: metric names by
# id or dotted suffix, ambiguous names, metric(NAME).total
check_PROGRAMS += test/unit/test_rules
test_unit_test_rules_SOURCES = test/unit/test_rules.c
test_unit_test_rules_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_rules_LDADD = lib/report/libreport.la $(CHECK_LIBS)
TESTS += test/unit/test_rules

# lib/model: spool, the copy of a log from a pipe that later passes read
# (a pipe read twice, early stops, regular files left alone, a copy that
# cannot be made)
check_PROGRAMS += test/unit/test_spool
test_unit_test_spool_SOURCES = test/unit/test_spool.c
test_unit_test_spool_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_spool_LDADD = lib/model/libmodel.la \
	test/common/liblogsynth.la $(CHECK_LIBS)
TESTS += test/unit/test_spool
