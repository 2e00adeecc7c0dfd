# SPDX-License-Identifier: BSD-2-Clause
# lib/report: reading logs into a model and writing reports.
noinst_LTLIBRARIES += lib/report/libreport.la
lib_report_libreport_la_SOURCES = lib/report/model.c lib/report/model.h \
	lib/report/text.c lib/report/symbolize.c lib/report/symbolize.h \
	lib/report/analyze.c lib/report/analyze.h \
	lib/report/metrics.c lib/report/metrics.h lib/report/units.c \
	lib/report/units.h
lib_report_libreport_la_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS)
lib_report_libreport_la_LIBADD = lib/log/libmaplog_core.la $(LIBDW_LIBS) \
	$(LIBELF_LIBS) $(IBERTY_LIBS) -lm

# lib/common: what the CLIs share.
noinst_LTLIBRARIES += lib/common/libcli.la
lib_common_libcli_la_SOURCES = lib/common/cli.c lib/common/cli.h

# cmd/mapreport: the CLI.
bin_PROGRAMS += cmd/mapreport/mapreport
cmd_mapreport_mapreport_SOURCES = cmd/mapreport/main.c
cmd_mapreport_mapreport_LDADD = lib/report/libreport.la lib/common/libcli.la

# lib/report: the timeline (samples and metrics over time) and the HTML
# report: escaping and the partial-report sanitiser (htmlsafe), the page
# (html.c) and its CSS and JavaScript (lib/report/html/), turned into C
# strings in the build tree by lib/report/html/embed.sh.
lib_report_libreport_la_SOURCES += lib/report/timeline.c \
	lib/report/timeline.h lib/report/htmlsafe.c lib/report/htmlsafe.h
lib_report_libreport_la_SOURCES += lib/report/html.c lib/report/html.h
nodist_lib_report_libreport_la_SOURCES = lib/report/html_assets.c
lib/report/html_assets.c: $(top_srcdir)/lib/report/html/embed.sh \
		$(top_srcdir)/lib/report/html/report.css \
		$(top_srcdir)/lib/report/html/report.js
	$(AM_V_GEN)$(MKDIR_P) lib/report && \
	$(SHELL) $(top_srcdir)/lib/report/html/embed.sh \
		html_css $(top_srcdir)/lib/report/html/report.css \
		html_js $(top_srcdir)/lib/report/html/report.js >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += lib/report/html_assets.c
EXTRA_DIST += lib/report/html/embed.sh lib/report/html/report.css \
	lib/report/html/report.js

# lib/report: partial reports (Performance Reports partial report XML).
lib_report_libreport_la_SOURCES += lib/report/partial.c lib/report/partial.h \
	lib/report/partial_i.h lib/report/partial_eval.c \
	lib/report/partial_text.c
lib_report_libreport_la_CFLAGS += $(EXPAT_CFLAGS)
lib_report_libreport_la_LIBADD += lib/metricdef/libmetricdef.la $(EXPAT_LIBS)

# lib/report: the JSON report (--json; mapreport(1), JSON SCHEMA).
lib_report_libreport_la_SOURCES += lib/report/json.c lib/report/json.h

# lib/report: the progress line while large logs are read.
lib_report_libreport_la_SOURCES += lib/report/progress.c lib/report/progress.h
