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
