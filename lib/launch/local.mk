# SPDX-License-Identifier: BSD-2-Clause
# lib/launch: what the launcher does besides parsing options: checks on the
# program to run, the log file it creates.
noinst_LTLIBRARIES += lib/launch/liblaunch.la
lib_launch_liblaunch_la_SOURCES = lib/launch/target.c lib/launch/target.h \
	lib/launch/logfile.c lib/launch/logfile.h
# log names for the ranks of a job (-o %r %p %h %j, the job's folder)
lib_launch_liblaunch_la_SOURCES += lib/launch/outname.c lib/launch/outname.h
lib_launch_liblaunch_la_LIBADD = lib/model/libmodel.la lib/log/libmaplog_core.la
