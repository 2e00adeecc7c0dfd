# SPDX-License-Identifier: BSD-2-Clause
# Synthetic logs written with the real encoder: shared by unit tests, fuzz
# seeds, benchmarks and the README demo.
noinst_LTLIBRARIES += test/common/liblogsynth.la
test_common_liblogsynth_la_SOURCES = test/common/logsynth.c test/common/logsynth.h \
	test/common/logsynth_job.c test/common/logsynth_job.h
test_common_liblogsynth_la_LIBADD = lib/log/libmaplog_core.la

noinst_PROGRAMS += test/common/mklog
test_common_mklog_SOURCES = test/common/mklog.c
test_common_mklog_LDADD = test/common/liblogsynth.la
