# SPDX-License-Identifier: BSD-2-Clause
# lib/defs: the definition files, read with expat over one XML-checking
# core (xmlcheck): metric definitions (mapsample-metrics(5)), shared by
# the launcher and the report, and partial-report definitions
# (mapreport(1), PARTIAL REPORTS); colour.c parses every colour and
# writes it as CSS, for both and for the HTML report.
noinst_LTLIBRARIES += lib/defs/libdefs.la
lib_defs_libdefs_la_SOURCES = lib/defs/xmlcheck.c lib/defs/xmlcheck.h \
	lib/defs/colour.c lib/defs/colour.h \
	lib/defs/metricdef.c lib/defs/metricdef_parse.c \
	lib/defs/metricdef_check.c lib/defs/metricdef_search.c \
	lib/defs/metricdef_file.c \
	lib/defs/metricdef.h lib/defs/metricdef_i.h \
	lib/defs/partial.c lib/defs/partial_parse.c lib/defs/partial_plain.c \
	lib/defs/partial.h lib/defs/partial_i.h
lib_defs_libdefs_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPKGDATADIR='"$(pkgdatadir)"'
lib_defs_libdefs_la_CFLAGS = $(AM_CFLAGS) $(EXPAT_CFLAGS)
lib_defs_libdefs_la_LIBADD = lib/common/libcommon.la $(EXPAT_LIBS) -ldl
