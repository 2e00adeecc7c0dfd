# SPDX-License-Identifier: BSD-2-Clause
# lib/common: helpers below every module: growing arrays with failures
# returned (mem; used by lib/defs, lib/model, lib/report), whether a path
# may be trusted with code (trust; lib/defs), and what the two
# CLIs share (cli).  Calls nothing of the project.
noinst_LTLIBRARIES += lib/common/libcommon.la
lib_common_libcommon_la_SOURCES = lib/common/mem.c lib/common/mem.h \
	lib/common/trust.c lib/common/trust.h
noinst_LTLIBRARIES += lib/common/libcli.la
lib_common_libcli_la_SOURCES = lib/common/cli.c lib/common/cli.h
