# SPDX-License-Identifier: BSD-2-Clause
# lib/log: the log format, its encoder (mapwrite) and its parser (libmaplog,
# installed with maplog.h and maps_error.h).  The bottom of the tree: it
# calls nothing else of the project.  Other modules include its module
# headers mapwrite.h (the encoder) and maplog_format.h (the layout);
# maplog_i.h is private to the parser's files.
mapsampleinclude_HEADERS += lib/include/mapsample/maplog.h \
	lib/include/mapsample/maps_error.h
noinst_LTLIBRARIES += lib/log/libmaplog_core.la
lib_log_libmaplog_core_la_SOURCES = lib/log/crc32c.c lib/log/mapwrite.c \
	lib/log/maplog.c lib/log/maplog_body.c lib/log/maplog_input.c \
	lib/log/maplog_cpu.c lib/log/maps_error.c lib/log/maplog_i.h \
	lib/log/maplog_format.h lib/log/mapwrite.h
# the job a process belongs to (also compiled into the sampler)
lib_log_libmaplog_core_la_SOURCES += lib/log/mapjob.c lib/log/mapjob.h
lib_LTLIBRARIES += lib/log/libmaplog.la
lib_log_libmaplog_la_SOURCES =
nodist_EXTRA_lib_log_libmaplog_la_SOURCES = dummy.c
lib_log_libmaplog_la_LIBADD = lib/log/libmaplog_core.la
lib_log_libmaplog_la_LDFLAGS = -version-info 0:0:0 -no-undefined
