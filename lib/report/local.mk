# SPDX-License-Identifier: BSD-2-Clause
# lib/report: analysis on the run model: symbolization (libdwfl), functions
# and stacks, the call tree, partial-report values.  No formatting: that is
# lib/report/out.  Calls lib/model, lib/defs, lib/common, lib/log only.
noinst_LTLIBRARIES += lib/report/libreport.la
lib_report_libreport_la_SOURCES = lib/report/symbolize.c \
	lib/report/cuscan.c lib/report/cuscan.h \
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
# kframe: the kernel frame of samples taken in a system call, named from
# kframe_sys.c, the build machine's system calls made at build time from
# <sys/syscall.h>'s SYS_* macros (the compiler gives the numbers)
lib_report_libreport_la_SOURCES += lib/report/kframe.c lib/report/kframe.h
nodist_lib_report_libreport_la_SOURCES = lib/report/kframe_sys.c
lib/report/kframe_sys.c: $(top_srcdir)/lib/report/local.mk
	$(AM_V_GEN)$(MKDIR_P) lib/report && \
	echo '#include <sys/syscall.h>' | \
	$(CC) $(CPPFLAGS) -E -dM - | \
	LC_ALL=C $(AWK) 'BEGIN { \
		print "/* Generated from <sys/syscall.h> by lib/report/local.mk. */"; \
		print "#include <sys/syscall.h>"; \
		print "#include \"report/kframe.h\""; \
		print "const struct kframe_sysname kframe_sysnames[] = {" } \
	$$1 == "#define" && $$2 ~ /^SYS_[a-z0-9_]+$$/ { \
		n[substr($$2, 5)] = 1 } \
	END { for (s in n) k[++c] = s; \
		for (i = 2; i <= c; i++) for (j = i; j > 1 && k[j - 1] > k[j]; j--) { \
			t = k[j]; k[j] = k[j - 1]; k[j - 1] = t } \
		for (i = 1; i <= c; i++) \
			printf "\t{SYS_%s, \"[kernel] %s\"},\n", k[i], k[i]; \
		print "};"; \
		print "const size_t kframe_nsysnames = sizeof(kframe_sysnames) /"; \
		print "\tsizeof(kframe_sysnames[0]);" }' >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += lib/report/kframe_sys.c
