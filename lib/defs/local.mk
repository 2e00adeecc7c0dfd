# SPDX-License-Identifier: BSD-2-Clause
# lib/defs: the definition files, read with expat: metric definitions
# (mapsample-metrics(5)), shared by the launcher and the report, and
# partial-report definitions (mapreport(1), PARTIAL REPORTS).
noinst_LTLIBRARIES += lib/defs/libdefs.la
lib_defs_libdefs_la_SOURCES = lib/defs/metricdef.c \
	lib/defs/colour.c lib/defs/search.c lib/defs/check.c \
	lib/defs/readfile.c lib/defs/partial.c lib/defs/partial.h \
	lib/defs/metricdef.h lib/defs/metricdef_i.h lib/defs/colour.h
lib_defs_libdefs_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPKGDATADIR='"$(pkgdatadir)"'
lib_defs_libdefs_la_CFLAGS = $(AM_CFLAGS) $(EXPAT_CFLAGS)
lib_defs_libdefs_la_LIBADD = lib/common/libcommon.la $(EXPAT_LIBS) -ldl
