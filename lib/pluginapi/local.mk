# SPDX-License-Identifier: BSD-2-Clause
# lib/pluginapi: the Allinea/Arm MAP metric plugin API that libmapsampler.so
# provides to plugins (safe allocator, safe I/O, formatting, system info,
# configuration file).  A convenience library linked into the sampler.
#
# Built like the sampler it goes into: no sanitizers (SAN_CFLAGS), hidden
# visibility; the API functions are exported by MAPSAMPLE_PLUGIN_API in
# the headers, everything else (pluginapi.h) stays hidden.  It names no
# function of the sampler: the sampler passes its hooks down
# (pluginapi_set_host()).
noinst_LTLIBRARIES += lib/pluginapi/libpluginapi.la
lib_pluginapi_libpluginapi_la_SOURCES = lib/pluginapi/pluginapi.h \
	lib/pluginapi/host.c lib/pluginapi/format.c lib/pluginapi/raw_io.c \
	lib/pluginapi/safe_malloc.c lib/pluginapi/safe_io.c \
	lib/pluginapi/sysinfo.c lib/pluginapi/errors.c lib/pluginapi/config.c
lib_pluginapi_libpluginapi_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden \
	-pthread
lib_pluginapi_libpluginapi_la_LIBADD = -lpthread
