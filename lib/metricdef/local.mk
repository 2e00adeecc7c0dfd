# SPDX-License-Identifier: BSD-2-Clause
# lib/metricdef: metric definition files (mapsample-metrics(5)), read with
# expat; shared by the launcher and the report.  Also the public headers of
# the Allinea/Arm MAP metric plugin interface, installed where plugins
# #include them from (<allinea_metric_plugin_api.h>), and their pkg-config
# file: cc -fPIC -shared $(pkg-config --cflags mapsample-plugin) ...
noinst_LTLIBRARIES += lib/metricdef/libmetricdef.la
lib_metricdef_libmetricdef_la_SOURCES = lib/metricdef/metricdef.c \
	lib/metricdef/colour.c lib/metricdef/search.c lib/metricdef/check.c \
	lib/metricdef/readfile.c \
	lib/metricdef/metricdef.h lib/metricdef/metricdef_i.h
lib_metricdef_libmetricdef_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPKGDATADIR='"$(pkgdatadir)"'
lib_metricdef_libmetricdef_la_CFLAGS = $(AM_CFLAGS) $(EXPAT_CFLAGS)
lib_metricdef_libmetricdef_la_LIBADD = $(EXPAT_LIBS) -ldl

# '=' because Makefile.am does not start include_HEADERS empty; if it
# ever does, make this '+='.
include_HEADERS = lib/include/allinea_metric_plugin_api.h \
	lib/include/allinea_metric_plugin_errors.h \
	lib/include/allinea_metric_plugin_template.h \
	lib/include/allinea_metric_plugin_types.h \
	lib/include/allinea_safe_malloc.h \
	lib/include/allinea_safe_syscalls.h
pkgconfig_DATA += mapsample-plugin.pc
