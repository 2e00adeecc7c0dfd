# SPDX-License-Identifier: BSD-2-Clause
# lib/report: analysis on the run model: symbolization (libdwfl), functions
# and stacks, the call tree, partial-report values.  No formatting: that is
# lib/report/out.  Calls lib/model, lib/defs, lib/common, lib/log only.
noinst_LTLIBRARIES += lib/report/libreport.la
lib_report_libreport_la_SOURCES = lib/report/symbolize.c \
	lib/report/symbolize.h lib/report/analyze.c lib/report/analyze.h \
	lib/report/calltree.c lib/report/calltree.h \
	lib/report/partial_eval.c lib/report/partial_eval.h \
	lib/report/progress.c lib/report/progress.h \
	lib/report/compare.c lib/report/compare.h \
	lib/report/rules.c lib/report/rules.h \
	lib/report/compare_flame.c lib/report/compare_flame.h
# compare_blocks: samples per stack per block of time, for the
# within-run noise estimate of mapreport --compare
lib_report_libreport_la_SOURCES += lib/report/compare_blocks.c \
	lib/report/compare_blocks.h
lib_report_libreport_la_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS)
lib_report_libreport_la_LIBADD = lib/model/libmodel.la lib/defs/libdefs.la \
	lib/common/libcommon.la \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(IBERTY_LIBS) -lm
# butterfly: callers and callees of one function (mapreport --callers,
# --callees)
lib_report_libreport_la_SOURCES += lib/report/butterfly.c \
	lib/report/butterfly.h
# srclines: samples per source line of a function, and finding its
# source files (mapreport --lines)
lib_report_libreport_la_SOURCES += lib/report/srclines.c \
	lib/report/srclines.h
# ranks and summary: figures per process (MPI rank) of a job and the
# Performance-Reports-style summary (compute, MPI, I/O; verdict, advice)
lib_report_libreport_la_SOURCES += lib/report/ranks.c lib/report/ranks.h \
	lib/report/summary.c lib/report/summary.h

# mpi: MPI call statistics across ranks, samples taken inside MPI
lib_report_libreport_la_SOURCES += lib/report/mpi.c lib/report/mpi.h

# perfmap: names of JIT code from the perf maps the sampler copied
lib_report_libreport_la_SOURCES += lib/report/perfmap.c \
	lib/report/perfmap.h
# shorten: long C++ names shortened for tables and the flame graph
lib_report_libreport_la_SOURCES += lib/report/shorten.c \
	lib/report/shorten.h
# disasm: samples per instruction of a function (mapreport --disasm)
lib_report_libreport_la_SOURCES += lib/report/disasm.c \
	lib/report/disasm.h
