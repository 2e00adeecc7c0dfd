# SPDX-License-Identifier: BSD-2-Clause
# cmd/mapreport: the report CLI (options, exit codes, choosing outputs).
bin_PROGRAMS += cmd/mapreport/mapreport
cmd_mapreport_mapreport_SOURCES = cmd/mapreport/main.c \
	cmd/mapreport/args.c cmd/mapreport/args.h cmd/mapreport/run.c cmd/mapreport/run.h \
	cmd/mapreport/compare.c cmd/mapreport/compare.h
# a job's folder given for its logs
cmd_mapreport_mapreport_SOURCES += cmd/mapreport/jobdir.c cmd/mapreport/jobdir.h
cmd_mapreport_mapreport_LDADD = lib/report/out/libreportout.la \
	lib/common/libcli.la
# the installed built-in partial reports (run.c)
cmd_mapreport_mapreport_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPKGDATADIR='"$(pkgdatadir)"'
