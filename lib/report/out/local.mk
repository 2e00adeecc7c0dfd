# SPDX-License-Identifier: BSD-2-Clause
# lib/report/out: the output formats, one file each (text with its metrics
# and partial-report parts, folded, JSON, HTML with its charts, flame graph
# and sanitiser, the record dump), rows of one table of back-ends
# (output.c).  Calls lib/report and below.  The HTML page's CSS and
# JavaScript (lib/report/out/html/) are turned into C strings in the build
# tree by lib/report/out/html/embed.sh.
noinst_LTLIBRARIES += lib/report/out/libreportout.la
lib_report_out_libreportout_la_SOURCES = lib/report/out/text.c \
	lib/report/out/dump.c lib/report/out/dump.h \
	lib/report/out/folded.c lib/report/out/folded.h \
	lib/report/out/text.h lib/report/out/text_metrics.c \
	lib/report/out/text_clean.c \
	lib/report/out/output.c lib/report/out/output.h \
	lib/report/out/partial_text.c \
	lib/report/out/json.c lib/report/out/json.h \
	lib/report/out/jsonw.c lib/report/out/json_i.h \
	lib/report/out/json_metrics.c \
	lib/report/out/html.c lib/report/out/html.h lib/report/out/html_i.h \
	lib/report/out/html_chart.c lib/report/out/html_flame.c \
	lib/report/out/html_msel.c lib/report/out/html_psel.c \
	lib/report/out/htmlsafe.c lib/report/out/htmlsafe.h \
	lib/report/out/compare_out.h lib/report/out/compare_fmt.c \
	lib/report/out/compare_text.c lib/report/out/compare_json.c \
	lib/report/out/compare_md.c lib/report/out/compare_junit.c \
	lib/report/out/compare_github.c lib/report/out/compare_html.c
nodist_lib_report_out_libreportout_la_SOURCES = lib/report/out/html_assets.c
lib_report_out_libreportout_la_LIBADD = lib/report/libreport.la -lm
lib/report/out/html_assets.c: $(top_srcdir)/lib/report/out/html/embed.sh \
		$(top_srcdir)/lib/report/out/html/report.css \
		$(top_srcdir)/lib/report/out/html/report.js \
		$(top_srcdir)/lib/report/out/html/narrow.js \
		$(top_srcdir)/lib/report/out/html/charts.js \
		$(top_srcdir)/lib/report/out/html/ranks.js \
		$(top_srcdir)/lib/report/out/html/msel.js \
		$(top_srcdir)/lib/report/out/html/psel.js \
		$(top_srcdir)/lib/report/out/html/perf.js
	$(AM_V_GEN)$(MKDIR_P) lib/report/out && \
	$(SHELL) $(top_srcdir)/lib/report/out/html/embed.sh \
		html_css $(top_srcdir)/lib/report/out/html/report.css \
		html_js $(top_srcdir)/lib/report/out/html/report.js \
		html_js_narrow $(top_srcdir)/lib/report/out/html/narrow.js \
		html_js_charts $(top_srcdir)/lib/report/out/html/charts.js \
		html_js_ranks $(top_srcdir)/lib/report/out/html/ranks.js \
		html_js_msel $(top_srcdir)/lib/report/out/html/msel.js \
		html_js_psel $(top_srcdir)/lib/report/out/html/psel.js \
		html_js_perf $(top_srcdir)/lib/report/out/html/perf.js \
		>$@.tmp && \
	mv $@.tmp $@
CLEANFILES += lib/report/out/html_assets.c
EXTRA_DIST += lib/report/out/html/embed.sh lib/report/out/html/report.css \
	lib/report/out/html/report.js lib/report/out/html/narrow.js \
	lib/report/out/html/charts.js lib/report/out/html/ranks.js \
	lib/report/out/html/msel.js lib/report/out/html/psel.js \
	lib/report/out/html/perf.js
# text_calls: the text report's callers, callees and source-line sections
lib_report_out_libreportout_la_SOURCES += lib/report/out/text_calls.c \
	lib/report/out/text_calls.h
lib_report_out_libreportout_la_SOURCES += lib/report/out/text_lines.c


# The exports to other viewers (mapreport --pprof, --speedscope, --trace),
# over one second reading of the logs (rescan.c).  pprof's messages are
# described in profile.proto; protoc-c turns it into C in the build tree
# (regenerated, not distributed), built apart with libprotobuf-c's and
# zlib's flags and linked into libreportout.
lib_report_out_libreportout_la_SOURCES += lib/report/out/rescan.c \
	lib/report/out/rescan.h lib/report/out/speedscope.c \
	lib/report/out/speedscope.h lib/report/out/trace.c \
	lib/report/out/trace.h
noinst_LTLIBRARIES += lib/report/out/libreportpprof.la
lib_report_out_libreportpprof_la_SOURCES = lib/report/out/pprof.c \
	lib/report/out/pprof.h
nodist_lib_report_out_libreportpprof_la_SOURCES = \
	lib/report/out/profile.pb-c.c lib/report/out/profile.pb-c.h
lib_report_out_libreportpprof_la_CFLAGS = $(AM_CFLAGS) \
	$(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS)
lib_report_out_libreportpprof_la_LIBADD = $(PROTOBUF_C_LIBS) $(ZLIB_LIBS)
lib_report_out_libreportout_la_LIBADD += lib/report/out/libreportpprof.la
$(lib_report_out_libreportpprof_la_OBJECTS): lib/report/out/profile.pb-c.h
lib/report/out/profile.pb-c.h: lib/report/out/profile.pb-c.c
	@test -f $@ || { rm -f $<; $(MAKE) $(AM_MAKEFLAGS) $<; }
lib/report/out/profile.pb-c.c: $(top_srcdir)/lib/report/out/profile.proto
	$(AM_V_GEN)$(MKDIR_P) lib/report/out && \
	$(PROTOC_C) -I$(top_srcdir)/lib/report/out \
		--c_out=lib/report/out $(top_srcdir)/lib/report/out/profile.proto
CLEANFILES += lib/report/out/profile.pb-c.c lib/report/out/profile.pb-c.h
EXTRA_DIST += lib/report/out/profile.proto

# The HTML report's function view (source lines, callers and callees) and
# its data for narrowing to a thread or a time range
lib_report_out_libreportout_la_SOURCES += lib/report/out/html_source.c \
	lib/report/out/html_narrow.c lib/report/out/html_fncells.c

# job: the summary and the per-rank figures in every output
lib_report_out_libreportout_la_SOURCES += lib/report/out/job.c \
	lib/report/out/job.h

# compare_chart: --compare --html's metric charts, BASE and NEW over time
lib_report_out_libreportout_la_SOURCES += lib/report/out/compare_chart.c

# the text report's MPI call statistics (report/mpi.h)
lib_report_out_libreportout_la_SOURCES += lib/report/out/text_mpi.c
# the HTML report's MPI call statistics (report/mpi.h)
lib_report_out_libreportout_la_SOURCES += lib/report/out/html_mpi.c
# html_activity: the HTML report's thread activity section
lib_report_out_libreportout_la_SOURCES += lib/report/out/html_activity.c

# text_disasm: --disasm, instructions with samples in the source view
# (objdump from GNU binutils)
lib_report_out_libreportout_la_SOURCES += lib/report/out/text_disasm.c \
	lib/report/out/text_disasm.h
# text_procs: the Processes and Threads tables, exec'd images grouped
lib_report_out_libreportout_la_SOURCES += lib/report/out/text_procs.c
# html_seltab: the figures behind the HTML page's Regions and MPI tables
# in a selection (a process, thread, time range)
lib_report_out_libreportout_la_SOURCES += lib/report/out/html_seltab.c
# html_ranksel: the figures behind the HTML page's Ranks table in a
# selection
lib_report_out_libreportout_la_SOURCES += lib/report/out/html_ranksel.c
