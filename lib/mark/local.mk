# SPDX-License-Identifier: BSD-2-Clause
# lib/mark: <mapsample/mark.h> and libmapsample-mark.so, the calls a
# program uses to mark phases (mapsample_mark(3)), doing nothing unless
# libmapsampler.so is preloaded; its pkg-config file mapsample-mark.pc.
# Calls nothing else of the project.
mapsampleinclude_HEADERS += lib/include/mapsample/mark.h
lib_LTLIBRARIES += lib/mark/libmapsample-mark.la
lib_mark_libmapsample_mark_la_SOURCES = lib/mark/mark.c
# Linked into the user's program: never with the sanitizers (a program
# without their runtime could not load it), as libmapsampler.so.
lib_mark_libmapsample_mark_la_CFLAGS = $(WARN_CFLAGS) -fvisibility=hidden
lib_mark_libmapsample_mark_la_LDFLAGS = -version-info 0:0:0 -no-undefined
pkgconfig_DATA += mapsample-mark.pc
