# SPDX-License-Identifier: BSD-2-Clause
# lib/launch: checks on the program to run.
noinst_LTLIBRARIES += lib/launch/liblaunch.la
lib_launch_liblaunch_la_SOURCES = lib/launch/target.c lib/launch/target.h \
	lib/launch/logfile.c lib/launch/logfile.h

# cmd/mapsample: the launcher.
bin_PROGRAMS += cmd/mapsample/mapsample
cmd_mapsample_mapsample_SOURCES = cmd/mapsample/main.c
cmd_mapsample_mapsample_LDADD = lib/launch/liblaunch.la lib/report/libreport.la \
	lib/common/libcli.la
cmd_mapsample_mapsample_SOURCES += cmd/mapsample/metrics.c cmd/mapsample/metrics.h
cmd_mapsample_mapsample_LDADD += lib/metricdef/libmetricdef.la
